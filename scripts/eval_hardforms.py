"""The hard-forms notes as evaluation sets of ``scripts/eval_realnotes.py`` (issue 25).

``shared/data/hardforms-notes/corpus.jsonl`` holds 120 English notes of one fictional hospital system
with every PHI surface written out (fields ``id``, ``text``, ``spans``, ``patient_id``): month/day dates
beside lab values and score look-alikes, facility abbreviations, first names alone, ALL-CAPS notes.
**hf001-hf060 are dev, hf061-hf120 test**; only the dev half may be read to tune anything.

This module loads the two halves (each note's ``patient_id`` in its metadata, for the registry) and
scores them as ``phiscrub evaluate --policy P`` does: the PHI policy applied to gold and predicted
spans alike (:func:`policy_view`). The site lists and registry of the hospital system
(``site-lists.json``, ``registry.csv``) are passed to pipelines that ask for them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from phiscrub.document import Document, Span
from phiscrub.policy import apply_policy

__all__ = [
    "HARDFORMS",
    "HARDFORMS_SETS",
    "REGISTRY",
    "SITE_LISTS",
    "hardforms",
    "hardforms_split",
    "policy_view",
]

ROOT = Path(__file__).resolve().parents[1]
HARDFORMS = ROOT.parent / "shared" / "data" / "hardforms-notes"
SITE_LISTS = HARDFORMS / "site-lists.json"
REGISTRY = HARDFORMS / "registry.csv"
#: Set name -> the half of the corpus it holds.
HARDFORMS_SETS = {"hardforms-dev": "dev", "hardforms-test": "test"}
_DEV_LAST = 60  # hf001-hf060 dev, hf061-hf120 test


def hardforms_split(doc_id: str) -> str:
    """``dev`` for hf001-hf060, ``test`` for the rest."""
    return "dev" if int(doc_id.removeprefix("hf")) <= _DEV_LAST else "test"


def hardforms(part: str, corpus: Path = HARDFORMS / "corpus.jsonl") -> list[Document]:
    """The ``dev`` or ``test`` half of the hard-forms corpus, ``patient_id`` in each note's metadata."""
    docs: list[Document] = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            if hardforms_split(row["id"]) != part:
                continue
            spans = tuple(Span(int(s["start"]), int(s["end"]), str(s["label"])) for s in row["spans"])
            meta = {"patient_id": row["patient_id"]} if row.get("patient_id") else {}
            docs.append(Document(row["id"], row["text"], spans, meta))
    return docs


def policy_view(docs: Sequence[Document], policy: str) -> list[Document]:
    """The documents with only the spans that are PHI under ``policy`` (``phiscrub evaluate --policy``)."""
    return [d.with_spans(apply_policy(d.text, d.spans, policy)) for d in docs]
