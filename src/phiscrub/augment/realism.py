"""Make surrogate-filled synthetic notes look more like real clinical notes.

LLM-written notes filled with surrogates are too tidy: every name is "Firstname Lastname" after a
capitalised "Dr.", every age is "[AGE]-year-old", every note is in mixed case. Real notes from
another hospital are not. :func:`realistic_variant` rewrites a gold Document (spans kept valid) with
a random subset of what real notes do:

* whole notes in upper case or in lower case;
* titles written "dr smith", "DR. SMITH", "Dr Smith", "Doctor Smith";
* names as last name alone, initial + last name ("J. Smith"), "Smith, John", all caps;
* ages in shorthand ("58yo", "58 y/o", "58 y.o.", "58M");
* institution abbreviations ("Mercy General Hospital" -> "MGH");
* two-digit and apostrophe years ("'92") for year-only dates;
* clinicians as initial + surname in capitals ("J. SMITH", "K JONES");
* relatives' first names in lower case ("daughter mary");
* dates in running text without their year ("on 03/14/2019" -> "on 3/14"), month/year dates with a
  two-digit year ("3/1998" -> "3/98").
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from phiscrub.document import Document, Span
from phiscrub.transform.rewrite import apply_edits

__all__ = ["abbreviate", "realistic_variant", "recase"]

_TITLE_RE = re.compile(r"\b(Dr\.?|Doctor|Mr\.?|Mrs\.?|Ms\.?)(?= )")
_TITLE_STYLES = {
    "dr": ["Dr.", "Dr", "dr", "dr.", "DR.", "DR", "Doctor"],
    "mr": ["Mr.", "Mr", "mr", "mr.", "MR.", "MR"],
    "mrs": ["Mrs.", "Mrs", "mrs", "MRS.", "MRS"],
    "ms": ["Ms.", "Ms", "ms", "MS."],
}
_AGE_TAIL_RE = re.compile(r"^(-year-old|-year old| year old| years old| yo\b| y/o\b| y\.o\.)")
_AGE_TAILS = ["-year-old", " year old", " yo", "yo", " y/o", " y.o.", "-yo", " YO"]
_NAME_LABELS = {"PATIENT", "DOCTOR", "RELATIVE"}
_ORG_LABELS = {"HOSPITAL", "ORGANIZATION"}
_STOP = {"of", "the", "and", "for", "de", "del", "la", "&"}


def recase(doc: Document, mode: str) -> Document:
    """Upper- or lower-case the whole note, keeping offsets.

    Characters whose case mapping changes length (``ß`` -> ``SS``) are left as they are so that
    every span offset stays valid.
    """
    fn = str.upper if mode == "upper" else str.lower
    chars = [fn(c) if len(fn(c)) == 1 else c for c in doc.text]
    return Document(doc.id, "".join(chars), doc.spans, dict(doc.metadata))


def abbreviate(name: str) -> str:
    """Acronym of an institution name: "Mercy General Hospital" -> "MGH"."""
    words = [w for w in re.findall(r"[^\W\d_]+", name) if w.lower() not in _STOP]
    return "".join(w[0].upper() for w in words) if len(words) >= 2 else name


#: How running text shortens a two-word name: (cumulative probability, form of first, last, whole).
_NAME_FORMS: tuple[tuple[float, Callable[[str, str, str], str]], ...] = (
    (0.35, lambda first, last, whole: last),
    (0.55, lambda first, last, whole: f"{first[0]}. {last}"),
    (0.65, lambda first, last, whole: f"{last}, {first}"),
    (0.75, lambda first, last, whole: f"{first[0]}{last[0]}"),
    (0.85, lambda first, last, whole: whole.upper()),
)


def _name_variant(surface: str, rng: random.Random, label: str = "PATIENT") -> str:
    parts = surface.split()
    if label == "RELATIVE" and len(parts) == 1 and surface.isalpha() and surface[:1].isupper():
        return surface.lower() if rng.random() < 0.4 else surface  # "daughter mary"
    if len(parts) != 2 or not all(p[:1].isalpha() for p in parts):
        return surface
    first, last = parts
    if label == "DOCTOR" and rng.random() < 0.2:
        return f"{first[0].upper()}{rng.choice(['. ', ' '])}{last.upper()}"  # "per J. SMITH"
    choice = rng.random()
    return next((form(first, last, surface) for bound, form in _NAME_FORMS if choice < bound), surface)


_NUMERIC_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/((?:19|20)?\d\d)")
_MONTH_YEAR = re.compile(r"(\d{1,2})/((?:19|20)\d\d)")
_PROSE_BEFORE = re.compile(r"[a-z][a-z/']*\s+$")


def _date_variant(surface: str, before: str, rng: random.Random, p: float) -> str | None:
    """A shorter date as running text writes it, or None to keep ``surface``."""
    m = _NUMERIC_DATE.fullmatch(surface)
    if m and _PROSE_BEFORE.search(before) and rng.random() < 0.25 * p:
        return f"{int(m.group(1))}/{int(m.group(2))}"  # "on 03/14/2019" -> "on 3/14"
    m = _MONTH_YEAR.fullmatch(surface)
    if m and rng.random() < 0.4 * p:
        return f"{int(m.group(1))}/{m.group(2)[2:]}"  # "3/1998" -> "3/98"
    return None


def _outside(covered: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    return all(b <= s or a >= e for s, e in covered)


def _span_edit(
    text: str,
    span: Span,
    rng: random.Random,
    p: float,
    age_style: str | None,
    covered: Sequence[tuple[int, int]],
) -> tuple[int, int, str] | None:
    """The edit a real note's habit makes at ``span`` (a name shortened, an acronym, a short date, an
    age written another way), or None."""
    start, end = span.start, span.end
    surface = text[start:end]
    new: str | None = None
    if span.label in _NAME_LABELS and rng.random() < 0.35 * p:
        new = _name_variant(surface, rng, span.label)
    elif span.label in _ORG_LABELS and rng.random() < 0.3 * p:
        new = abbreviate(surface)
    elif span.label == "DATE" and re.fullmatch(r"(19|20)\d\d", surface) and rng.random() < 0.3 * p:
        new = "'" + surface[2:]
    elif span.label == "DATE":
        new = _date_variant(surface, text[max(0, start - 20) : start], rng, p)
    elif span.label == "AGE" and age_style is not None:
        tail = _AGE_TAIL_RE.match(text[end:])
        if tail and _outside(covered, end, end + tail.end()):
            return end, end + tail.end(), age_style
    return (start, end, new) if new and new != surface else None


def realistic_variant(doc: Document, rng: random.Random, strength: float = 1.0) -> Document:
    """Return a rewritten copy of ``doc`` with real-note habits drawn at random (spans stay valid).

    Args:
        doc: a gold document (fine labels).
        rng: the random source (seed it for reproducibility).
        strength: scales every probability (0 = no change).
    """
    p = max(0.0, strength)
    text = doc.text
    edits: list[tuple[int, int, str]] = []
    covered = [(s.start, s.end) for s in doc.spans]
    # Titles: one style per note, like one author's habit.
    styles = {k: rng.choice(v) for k, v in _TITLE_STYLES.items()}
    if rng.random() < 0.6 * p:
        for m in _TITLE_RE.finditer(text):
            key = m.group(1).lower().rstrip(".")
            key = "dr" if key == "doctor" else key
            if key in styles and _outside(covered, m.start(), m.end()):
                edits.append((m.start(), m.end(), styles[key]))
    age_style = rng.choice(_AGE_TAILS) if rng.random() < 0.5 * p else None
    for span in {(s.start, s.end): s for s in doc.spans}.values():
        edit = _span_edit(text, span, rng, p, age_style, covered)
        if edit is not None:
            edits.append(edit)
    try:
        out = apply_edits(doc, edits)
    except ValueError:
        out = doc  # conflicting edits (rare): keep the note unchanged rather than guess
    r = rng.random()
    if r < 0.12 * p:
        out = recase(out, "upper")
    elif r < 0.2 * p:
        out = recase(out, "lower")
    return Document(
        out.id,
        out.text,
        tuple(Span(s.start, s.end, s.label, s.score, s.source) for s in out.spans),
        dict(out.metadata),
    )
