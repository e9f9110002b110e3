"""Synthetic documents for the tagger tests (made-up PHI only)."""

from __future__ import annotations

import random

from phiscrub.document import Document, Span

__all__ = ["FIRST", "HOSPITALS", "LAST", "make_doc", "synthetic_docs"]

# Made-up people, places and numbers (synthetic PHI only).
FIRST = ("Alma", "Boris", "Celia", "Dario", "Edna", "Fabio", "Greta", "Hugo", "Iris", "Jonas")
LAST = ("Quill", "Ranter", "Sovik", "Tamber", "Ulvane", "Varga", "Wexley", "Yorn", "Zabel", "Pryce")
HOSPITALS = ("Larkspur General", "Oakmere Clinic", "Fenwick Memorial")


def make_doc(doc_id: str, parts: list[tuple[str, str | None]]) -> Document:
    """Build a document from (text, label) pieces; labelled pieces become gold spans."""
    text = ""
    spans = []
    for piece, label in parts:
        if label is not None:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(doc_id, text, tuple(spans))


def synthetic_docs(n: int, seed: int) -> list[Document]:
    """Short notes with a patient name, a date and a hospital."""
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        date = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/20{rng.randint(10, 24)}"
        docs.append(
            make_doc(
                f"syn{seed}-{i}",
                [
                    ("Patient ", None),
                    (name, "PATIENT"),
                    (" was seen on ", None),
                    (date, "DATE"),
                    (" at ", None),
                    (rng.choice(HOSPITALS), "HOSPITAL"),
                    (". Follow up in two weeks.", None),
                ],
            )
        )
    return docs
