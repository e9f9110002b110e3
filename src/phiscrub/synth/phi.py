"""Which spans of a letter are PHI or clinical entities, and the letter's other mentions of its PHI.

:func:`propagate` is synthesis's own, recall-first propagation: every other case-insensitive occurrence
of a PHI surface (names, places, IDs...) and of each capitalised word of a name becomes PHI, so that a
synthetic letter never keeps one. :mod:`phiscrub.detect.propagate` (redaction) is precision-first for
names only, with common-word and English-word guards; the two are kept apart on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from phiscrub.detect.propagate import propagate_surfaces
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError, LabelError
from phiscrub.labels import fold
from phiscrub.synth.features import (
    CUE_WORDS,
    STOPWORDS,
    load_medical_lexicon,
)
from phiscrub.transform.fill import draw_surrogate
from phiscrub.transform.rewrite import apply_edits

__all__ = [
    "ENTITY_META",
    "GENERIC_FILLS",
    "REFILL_SOURCE",
    "SENTENCE_END",
    "coarse_label",
    "is_phi_label",
    "meta_entities",
    "name_part",
    "not_clinical",
    "propagate",
    "replace_phi",
    "sentence_start",
    "surrogate_for",
    "upper_context",
]

ENTITY_META = "synth:entity-meta"
#: Source prefix of PHI spans to be refilled by the language model.
REFILL_SOURCE = "synth:refill"

#: Words used when refilled PHI gets no valid prediction, by coarse label.
GENERIC_FILLS: dict[str, str] = {
    "NAME": "patient",
    "LOCATION": "hospital",
    "DATE": "today",
    "AGE": "adult",
    "ID": "number",
    "CONTACT": "number",
    "PROFESSION": "worker",
}

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


def surrogate_for(
    span: Span, text: str, rng: random.Random, table: dict[tuple[str, str], str], lang: str
) -> str:
    """The surrogate of a PHI span: the same one for the same (coarse label, surface) in ``table``; a
    name's word takes the part of its full name's surrogate; never the original value."""
    surface = text[span.start : span.end]
    key = (coarse_label(span.label), surface.strip().lower())
    if key in table:
        return table[key]
    if key[0] == "NAME" and " " not in key[1]:
        part = name_part(key[1], table)
        if part is not None:
            table[key] = part
            return part
    before = text[max(0, span.start - 60) : span.start]
    after = text[span.end : span.end + 60]
    new = GENERIC_FILLS.get(key[0], "redacted")
    # A full name gets a full name when one comes within the draws, so that its parts can serve
    # the lone first or last names of the same person (see name_part).
    full = key[0] == "NAME" and " " in key[1]
    single: str | None = None
    for _ in range(8):
        try:
            draw = draw_surrogate(span.label, rng, lang, before=before, after=after)
        except (ConfigError, LabelError):
            break
        if draw.strip().lower() != key[1] and key[1] not in draw.lower():
            if full and len(draw.replace(",", " ").split()) < 2:
                single = single or draw
                continue
            new = draw
            break
    else:
        new = single or new
    table[key] = new
    return new


def replace_phi(
    doc: Document,
    phi: Sequence[Span],
    gold_keys: set[tuple[int, int]],
    entities: Sequence[Span],
    rng: random.Random,
    lang: str,
    *,
    refill: bool = False,
) -> tuple[Document, list[tuple[int, int, str]], int, int]:
    """Surrogates for PHI (labelled), generic words for PHI to refill (marked); entities carried.

    Gold PHI (``gold_keys``) always gets a surrogate; other PHI too unless ``refill``.

    Returns:
        The letter with the replacements and their spans, the edits, surrogates and refills made.
    """
    table: dict[tuple[str, str], str] = {}
    spans: list[Span] = list(entities)
    edits: list[tuple[int, int, str]] = []
    n_sur = n_ref = 0
    # Full names first, so that a lone surname ("Mrs. Rivers") takes the surname of its full name.
    for s in sorted(phi, key=lambda s: -(s.end - s.start)):
        if coarse_label(s.label) == "NAME" and (not refill or (s.start, s.end) in gold_keys):
            surrogate_for(s, doc.text, rng, table, lang)
    for s in phi:
        if not refill or (s.start, s.end) in gold_keys:
            new = surrogate_for(s, doc.text, rng, table, lang)
            spans.append(s)
            n_sur += 1
        else:
            new = GENERIC_FILLS.get(coarse_label(s.label), "redacted")
            spans.append(Span(s.start, s.end, s.label, s.score, f"{REFILL_SOURCE}|{s.source}"))
            n_ref += 1
        edits.append((s.start, s.end, new))
    return apply_edits(Document(doc.id, doc.text, tuple(spans)), edits), edits, n_sur, n_ref


def sentence_start(text: str, start: int) -> bool:
    head = text[:start].rstrip(" \t\"'([{*-•")
    return not head or head[-1] in SENTENCE_END


def upper_context(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    letters = [c for c in text[line_start : line_end if line_end >= 0 else len(text)] if c.isalpha()]
    return len(letters) >= 6 and sum(c.isupper() for c in letters) > 0.8 * len(letters)
