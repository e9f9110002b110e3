"""Which spans of a letter are PHI or clinical entities, and the letter's other mentions of its PHI.

:func:`propagate` is synthesis's own, recall-first propagation: every other case-insensitive occurrence
of a PHI surface (names, places, IDs...) and of each capitalised word of a name becomes PHI, so that a
synthetic letter never keeps one. :mod:`phiscrub.detect.propagate` (redaction) is precision-first for
names only, with common-word and English-word guards; the two are kept apart on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from phiscrub.detect.propagate import propagate_surfaces
from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError, LabelError
from phiscrub.labels import fold
from phiscrub.synth.features import (
    CUE_WORDS,
    STOPWORDS,
    load_medical_lexicon,
)

__all__ = [
    "ENTITY_META",
    "SENTENCE_END",
    "coarse_label",
    "is_phi_label",
    "meta_entities",
    "name_part",
    "not_clinical",
    "propagate",
    "sentence_start",
    "upper_context",
]

ENTITY_META = "synth:entity-meta"

SENTENCE_END = ".!?:;\n"


def is_phi_label(label: str) -> bool:
    """A known PHI label that is PHI at the fine granularity (OTHER, e.g. MEDDOCAN's sex, is not)."""
    try:
        return fold(label, "fine") is not None
    except LabelError:
        return False


def coarse_label(label: str) -> str:
    try:
        return fold(label, "coarse") or "OTHER"
    except LabelError:
        return "OTHER"


def meta_entities(doc: Document) -> list[Span]:
    """Entity spans given as ``metadata["entities"]``: ``[start, end, label]`` lists or dicts."""
    raw = doc.metadata.get("entities") or []
    out = []
    for item in raw:
        try:
            if isinstance(item, Mapping):
                start, end, label = int(item["start"]), int(item["end"]), str(item.get("label", "ENTITY"))
            else:
                start, end, label = int(item[0]), int(item[1]), str(item[2]) if len(item) > 2 else "ENTITY"
        except (KeyError, IndexError, TypeError, ValueError):
            raise InputFormatError(
                f"[doc {doc.id}] malformed metadata entity; use [start, end, label]"
            ) from None
        if not 0 <= start < end <= len(doc.text):
            raise InputFormatError(f"[doc {doc.id}] metadata entity [{start}:{end}] outside the text")
        out.append(Span(start, end, label, source=ENTITY_META))
    return out


def not_clinical(text: str, spans: Sequence[Span]) -> list[Span]:
    """Drop detected spans that are exactly a medical lexicon match ("TIA" is not the name Tia)."""
    lexicon = load_medical_lexicon()
    out = []
    for s in spans:
        surface = text[s.start : s.end]
        if lexicon.find(surface) != [(0, len(surface))]:
            out.append(s)
    return out


_SKIP_WORDS = STOPWORDS | CUE_WORDS


def propagate(text: str, phi: Sequence[Span]) -> list[Span]:
    """Other occurrences of PHI surfaces (and of the capitalised words of names) as PHI spans."""
    return propagate_surfaces(text, phi, skip_words=_SKIP_WORDS, source="synth:propagated")


def name_part(word: str, table: Mapping[tuple[str, str], str]) -> str | None:
    """The surrogate of one word of a full name already replaced: first with first, last with last."""
    for (coarse, surface), new in table.items():
        parts, new_parts = surface.split(), new.replace(",", " ").split()
        if coarse != "NAME" or len(parts) < 2 or len(new_parts) < 2:
            continue
        if word == parts[-1]:
            return new_parts[-1]
        if word == parts[0] and len(new_parts[0].strip(".")) > 1:
            return new_parts[0]
    return None


def sentence_start(text: str, start: int) -> bool:
    head = text[:start].rstrip(" \t\"'([{*-•")
    return not head or head[-1] in SENTENCE_END


def upper_context(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    letters = [c for c in text[line_start : line_end if line_end >= 0 else len(text)] if c.isalpha()]
    return len(letters) >= 6 and sum(c.isupper() for c in letters) > 0.8 * len(letters)
