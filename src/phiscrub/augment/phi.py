"""PHI augmentation (PHICON, Yue & Zhou 2020): swap every gold PHI value for a random one of its type.

PHICON samples replacements from candidate lists (names, surnames, cities, streets, hospitals,
organizations, ...) or generates them by patterns (IDs, record numbers, phones, zips, usernames,
dates), so that a tagger learns the context of PHI instead of memorising the values. Here both come
from :func:`phiscrub.transform.fill.draw_surrogate`: the bundled lexicons (Faker locales; sized like
PHICON's Table 1: ~5,300 hospitals, ~7,400 first names, ~11,000 surnames, ~7,400 cities, ~2,400
organizations) and the shape generators of the placeholder filler (dates in some 25 formats, phones,
record numbers, IDs, zips, usernames, e-mails, URLs).

The value is drawn for the span's fine label (coarse labels use a representative fine type) with the
text around it as context: "Dr. <DOCTOR>" gets a surname, a line in capitals gets capitals, "DOB:" gets a
birth date; a value in capitals stays in capitals, an age keeps its unit ("53 años" -> "71 años"), a
bare postcode labelled LOCATION gets a postcode. Within one copy the same original surface of the same type gets the same surrogate, so a
note keeps talking about one invented person. Spans move with the new lengths
(:func:`phiscrub.transform.rewrite.apply_edits`); labels, their order and everything outside the spans
stay as they were. Spans that overlap another span, and ``OTHER`` or unknown labels, are left as they
are.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import to_fine
from phiscrub.transform.fill import FILL_LANGS, detect_lang, draw_surrogate
from phiscrub.transform.rewrite import apply_edits

__all__ = ["PhiAugmenter", "standalone_spans"]

_CONTEXT = 60  # characters of context on each side given to the surrogate generator
_ZIP_RE = re.compile(r"\d{4,6}(?:-\d{4})?")
_DIGITS_RE = re.compile(r"\d+")


def standalone_spans(doc: Document) -> list[Span]:
    """The spans of ``doc`` that overlap no other span (the ones an edit may replace whole)."""
    spans = doc.spans
    out = []
    reach = 0  # the furthest end of the spans before this one
    for i, span in enumerate(spans):
        # Spans are sorted by start, so only the next one can start inside this one.
        clear_after = i + 1 == len(spans) or spans[i + 1].start >= span.end
        if reach <= span.start and clear_after:
            out.append(span)
        reach = max(reach, span.end)
    return out


def _stand_in(fine: str, surface: str) -> str:
    """The type to draw for a span: a bare postcode annotated as a generic LOCATION (MEDDOCAN's
    TERRITORIO covers towns, provinces and postcodes) gets a postcode, not a park."""
    if fine == "LOCATION" and _ZIP_RE.fullmatch(surface.strip()):
        return "ZIP"
    return fine


def _fit(surface: str, fine: str, value: str) -> str:
    """Keep the original's shape where the surrogate is only a value.

    * an age written with its unit ("53 años", "58-year-old") keeps the unit, only the number changes;
    * an original in capitals ("SMITH") gets a surrogate in capitals.
    """
    if fine == "AGE":
        runs = _DIGITS_RE.findall(surface)
        number = _DIGITS_RE.search(value)
        if len(runs) == 1 and number is not None:
            return _DIGITS_RE.sub(number.group(), surface)
    letters = [c for c in surface if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return value.upper()
    return value


def _replaceable(label: str) -> bool:
    try:
        return to_fine(label) != "OTHER"
    except LabelError:
        return False


class PhiAugmenter:
    """Replace each gold PHI span with a random surrogate of the same type.

    Args:
        lang: surrogate language, ``en``, ``es``, ``ca``, ``zh``, or ``auto`` (detected per note).

    Raises:
        ConfigError: unknown language.
    """

    name = "phi"
    keeps_surfaces = False
    unchanged = 0

    def __init__(self, lang: str = "en") -> None:
        if lang not in FILL_LANGS:
            raise ConfigError(f"unknown surrogate language {lang!r}; use one of {', '.join(FILL_LANGS)}")
        self.lang = lang

    def fit(self, docs: Sequence[Document]) -> PhiAugmenter:
        """Nothing to learn: surrogates come from the built-in tables; return self."""
        return self

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """A copy of ``doc`` with every replaceable span's text swapped for a surrogate."""
        lang = detect_lang(doc.text) if self.lang == "auto" else self.lang
        drawn: dict[tuple[str, str], str] = {}
        edits: list[tuple[int, int, str]] = []
        for span in standalone_spans(doc):
            if not _replaceable(span.label):
                continue
            surface = doc.surface(span)
            fine = _stand_in(to_fine(span.label), surface)
            key = (fine, surface)
            value = drawn.get(key)
            if value is None:
                before = doc.text[max(0, span.start - _CONTEXT) : span.start]
                after = doc.text[span.end : span.end + _CONTEXT]
                value = _fit(surface, fine, draw_surrogate(fine, rng, lang, before=before, after=after))
                drawn[key] = value
            edits.append((span.start, span.end, value))
        out = apply_edits(doc, edits)
        return Document(doc.id, out.text, out.spans, dict(doc.metadata))
