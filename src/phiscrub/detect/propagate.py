"""Document-level propagation: a name found once is a name everywhere in the same note.

When "John Smith" is detected, a later bare "Smith" in the same note is the same person even if no
detector proposed it (no title, no context). :func:`propagate_names` does three things, in one pass
over the note's words (linear in the note's length; a dict lookup per word, a binary search per hit):

1. **Name tokens.** Every word of a detected person name (PATIENT, DOCTOR, RELATIVE, NAME) that is
   capitalized, at least 3 letters long and not a common word becomes a name token of the note, with
   the label of the first name it was found in. Tokens that are also common words ("Will", "Mark",
   "May": the WordNet-derived ``ambiguous_names`` list, function words and clinical eponyms) are
   never name tokens, so "Will Smith" does not turn every "will" into a name.
2. **Relabel.** A span labelled as a place or an organization (LOCATION, ORGANIZATION, CITY, ...)
   whose words are all name tokens of the note takes the name's label ("smith" tagged LOCATION after
   "John Smith" becomes PATIENT), and so does one that reads as a person name by the bundled name
   lists: a first name first, a surname (or a name token) last, e.g. "Anne-Marie Smith-Jones" tagged
   ORGANIZATION. A place or organization span that runs across a line break is cut at the break when
   one of its lines is such a name. Whole bundled place and company names are never relabelled.
3. **Propagate.** Every other whole-word occurrence of a name token, in any case ("Smith", "SMITH",
   "smith", "Smith's"), or a hyphenated word with a name token as a part ("Smith-Jones": the
   whole word), not already inside a span, gets a span with the token's label, score 0.5 and
   source ``propagate``. A lower-case occurrence is only taken when the word is no English word in
   use (a WordNet lemma with corpus counts, like "brown" or "fields") and no clinical term ("walker"),
   so "smith" is a name but "seen with walker" is not.

:func:`propagate_surfaces` is the recall-first policy of synthetic letters (:mod:`phiscrub.synth`), which
must never keep a PHI value: every other case-insensitive occurrence of any PHI surface (names, places,
IDs...) and of each capitalised word of a name becomes a span, with no common-word or English-word guard.
Both policies live here, so a note's other mentions of its PHI are found in one module.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache
from importlib import resources

from phiscrub.detect.english_words import lowercase_ok
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.document import Document, Span
from phiscrub.errors import LabelError
from phiscrub.labels import fold
from phiscrub.progress import CHUNK_CHARS, ProgressCallback, report, wants_progress

_RX = pattern_data("propagate")


__all__ = [
    "NAME_LABELS",
    "RELABEL_LABELS",
    "name_tokens",
    "non_overlapping",
    "propagate_names",
    "propagate_surfaces",
]

#: Labels whose surfaces are propagated (fine labels and the coarse NAME).
NAME_LABELS = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "NAME"})

#: Labels a span may lose to a person-name label when its words are names (see the module doc).
RELABEL_LABELS = frozenset({"LOCATION", "ORGANIZATION", "CITY", "STATE", "COUNTRY", "HOSPITAL", "DEPARTMENT"})

#: The label given to a span relabelled on name-list evidence alone (no name token of the note in it).
DEFAULT_NAME_LABEL = "PATIENT"

_PIECE_TRIM = " \t.,;:"
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "mx", "prof", "sr", "jr"})


def _key(word: str) -> str:
    return word.replace("’", "'").casefold()


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    from phiscrub.detect.lexicon import EPONYMS
    from phiscrub.resources import load_lexicon

    words = {w.lower() for w in load_lexicon("ambiguous_names")}
    stop = resources.files("phiscrub.resources").joinpath("wordnet", "stopwords.txt")
    words |= {w.strip().lower() for w in stop.read_text(encoding="utf-8").splitlines() if w.strip()}
    return frozenset(words | EPONYMS)


# Which lower-case words may be names lives in :mod:`phiscrub.detect.english_words` (shared with
# the place rules and place propagation).
_lowercase_ok = lowercase_ok


@lru_cache(maxsize=1)
def _name_lists() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Casefolded first names, surnames, and whole place/company names of the bundled lexicons."""
    from phiscrub.resources import load_lexicon

    first = {_key(n) for n in (*load_lexicon("first_names_female"), *load_lexicon("first_names_male"))}
    last = {_key(n) for n in load_lexicon("last_names")}
    places: set[str] = set()
    for name in ("cities", "states", "countries", "companies", "hospitals"):
        places.update(_key(n) for n in load_lexicon(name))
    return frozenset(first), frozenset(last), frozenset(places)


def name_tokens(doc: Document, spans: Sequence[Span]) -> dict[str, str]:
    """Name tokens of ``doc``: casefolded word -> label of the first name span it occurs in.

    Only capitalized words of at least 3 letters that are no common word count (see the module doc).
    """
    common = _common_words()
    tokens: dict[str, str] = {}
    for s in sorted(spans):
        if s.label not in NAME_LABELS:
            continue
        for m in _RX["TOKEN"].finditer(doc.text, s.start, s.end):
            tok = m.group()
            key = _key(tok)
            if len(tok) >= 3 and key not in common and tok[0].isupper():
                tokens.setdefault(key, s.label)
    return tokens


def _person_label(text: str, tokens: dict[str, str]) -> str | None:
    """The name label ``text`` should carry when it reads as a person's name, else None.

    ``text`` qualifies when all its words are name tokens of the note (titles allowed), or when it is
    2-4 capitalized words, the first a listed first name, the last a listed surname or a name token,
    the others names or initials, and the whole is no listed place or company.
    """
    if _RX["NOT_NAME_TEXT"].search(text) or not text.strip():
        return None
    words = [m.group().rstrip(".") for m in _RX["NAME_WORD"].finditer(text)]
    words = [w for w in words if _key(w) not in _TITLES] if len(words) > 1 else words
    if not words or len(words) > 4:
        return None
    parts = [[_key(p) for p in w.split("-")] for w in words]
    known = [tokens[k] for w, ps in zip(words, parts) for k in (_key(w), *ps) if k in tokens]
    if all(_key(w) in tokens or all(p in tokens for p in ps) for w, ps in zip(words, parts)):
        return known[0]
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return None
    first, last, places = _name_lists()
    common = _common_words()
    if _key(" ".join(words)) in places or _key(text.strip()) in places:
        return None
    if not all(p in first and p not in common for p in parts[0]):
        return None
    if not all((p in last or p in tokens) and p not in common for p in parts[-1]):
        return None
    for ps in parts[1:-1]:
        if not all(len(p) == 1 or p in first or p in last for p in ps):
            return None
    return known[0] if known else DEFAULT_NAME_LABEL


def _relabel(doc: Document, span: Span, tokens: dict[str, str]) -> list[Span]:
    """``span`` as person-name span(s) when it reads as a name (whole, or line by line), else as is."""
    text = doc.text[span.start : span.end]
    source = f"{span.source}+relabel"
    if not _RX["LINE_BREAK"].search(text):
        label = _person_label(text, tokens)
        return [span] if label is None else [Span(span.start, span.end, label, span.score, source)]
    pieces: list[tuple[int, int, str | None]] = []
    for line in _RX["LINE"].finditer(text):
        piece = line.group()
        start = span.start + line.start() + len(piece) - len(piece.lstrip(_PIECE_TRIM))
        end = span.start + line.start() + len(piece.rstrip(_PIECE_TRIM))
        if start < end:
            pieces.append((start, end, _person_label(doc.text[start:end], tokens)))
    if all(label is None for _, _, label in pieces):
        return [span]
    return [
        Span(s, e, label, span.score, source) if label else Span(s, e, span.label, span.score, span.source)
        for s, e, label in pieces
    ]


def _covered_index(spans: Sequence[Span]) -> tuple[list[int], list[int]]:
    """Sorted, merged (start, end) intervals of ``spans`` as two lists, for binary search."""
    starts: list[int] = []
    ends: list[int] = []
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        if starts and s.start < ends[-1]:
            ends[-1] = max(ends[-1], s.end)
        else:
            starts.append(s.start)
            ends.append(s.end)
    return starts, ends


def propagate_names(
    doc: Document, spans: Sequence[Span], *, progress: ProgressCallback | None = None
) -> list[Span]:
    """Return ``spans``, relabelled where they are names, plus spans for other name occurrences.

    See the module docstring for the rules. New spans get the label of the name token, score 0.5 and
    source ``propagate``; relabelled spans keep their offsets and score (a place/organization span
    cut at line breaks becomes one span per line) and get ``+relabel`` appended to their source.
    New spans may overlap existing ones only partially; the resolve step merges them.

    Args:
        doc: the note.
        spans: detected spans (resolved or not).
        progress: called as ``progress("propagate", chars_done, chars_total)`` about once per
            megabyte; by default notes of a megabyte or more report to :mod:`phiscrub.progress`.

    Returns:
        The spans, in their order with relabelled ones in place, then the new ones in text order.
    """
    text = doc.text
    tokens = name_tokens(doc, spans)
    out: list[Span] = []
    for s in spans:
        out.extend(_relabel(doc, s, tokens) if s.label in RELABEL_LABELS else [s])
    from phiscrub.detect.propagate_places import propagate_places

    # Places found once are places everywhere in the note (recall first, issue 25).
    out = propagate_places(doc, out)
    if not tokens:
        return out
    if progress is None and wants_progress(len(text)):
        progress = report
    starts, ends = _covered_index(out)
    lower_ok: dict[str, bool] = {}
    n = len(text)
    next_report = CHUNK_CHARS
    for m in _RX["TOKEN"].finditer(text):
        if progress is not None and m.start() >= next_report:
            progress("propagate", m.start(), n)
            next_report = m.start() + CHUNK_CHARS
        found = _name_hit(text, m, tokens, lower_ok)
        if found is None:
            continue
        start, end, hit = found
        i = bisect_right(starts, start) - 1
        if i >= 0 and end <= ends[i]:
            continue
        out.append(Span(start, end, tokens[hit], 0.5, "propagate"))
    if progress is not None:
        progress("propagate", n, n)
    return out


def _name_hit(
    text: str, m: re.Match[str], tokens: dict[str, str], lower_ok: dict[str, bool]
) -> tuple[int, int, str] | None:
    """``(start, end, name token)`` when the word ``m`` is an occurrence of a name token, else None."""
    word = m.group()
    key = _key(word)
    if key not in tokens and "-" not in key and word[-1] not in "sS":
        return None  # most words: neither a name token, nor a possessive, nor a hyphenated name
    start, end = m.span()
    if key not in tokens and _RX["POSSESSIVE"].search(word):
        end -= 2  # "Smith's": the name without the 's
        word, key = word[:-2], key[:-2]
    elif end < len(text) and _RX["AFTER"].match(text, end):
        return None
    hit = key
    if hit not in tokens:
        # "Smith-Jones" after "John Smith": the whole hyphenated name, labelled by its known part
        hit = next((p for p in key.split("-") if p in tokens), "") if "-" in key else ""
        if not hit:
            return None
    if start > 0 and _RX["BEFORE"].match(text, start - 1):
        return None
    if word.islower():
        ok = lower_ok.get(hit)
        if ok is None:
            ok = lower_ok[hit] = _lowercase_ok(hit)
        if not ok:
            return None
    return start, end, hit


def non_overlapping(spans: Iterable[Span], taken: Sequence[Span]) -> list[Span]:
    """The spans, in order, that overlap neither ``taken`` nor an earlier span kept."""
    out: list[Span] = []
    for s in spans:
        if not any(s.overlaps(t) for t in taken) and not any(s.overlaps(o) for o in out):
            out.append(s)
    return out


def _is_name(label: str) -> bool:
    try:
        return fold(label, "coarse") == "NAME"
    except LabelError:
        return False


def propagate_surfaces(
    text: str, phi: Sequence[Span], *, skip_words: Collection[str] = frozenset(), source: str = "propagate"
) -> list[Span]:
    """Recall-first propagation: the other occurrences of every PHI surface, as new spans.

    Targets are each span's stripped surface (at least 3 characters, with a letter or at least 6 long)
    and each capitalised word (3+ letters, lower case not in ``skip_words``) of a name span (coarse
    ``NAME``), with the label of the first span they come from. Every whole-word, case-insensitive
    occurrence of a target becomes a span (longest targets first) unless it overlaps ``phi`` or a span
    already found.

    Args:
        text: the note.
        phi: its PHI spans.
        skip_words: lower-case words of names never propagated alone (stopwords, cue words).
        source: the ``source`` of the new spans.
    """
    targets: dict[str, str] = {}
    for s in phi:
        surface = text[s.start : s.end].strip()
        if len(surface) >= 3 and (any(c.isalpha() for c in surface) or len(surface) >= 6):
            targets.setdefault(surface.lower(), s.label)
        if _is_name(s.label):
            for word in re.findall(r"[^\W\d_]{3,}", surface):
                low = word.lower()
                if word[0].isupper() and low not in skip_words:
                    targets.setdefault(low, s.label)
    found: list[Span] = []
    for surface in sorted(targets, key=len, reverse=True):
        pattern = re.compile(r"(?<!\w)" + re.escape(surface) + r"(?!\w)", re.IGNORECASE)
        found.extend(
            Span(m.start(), m.end(), targets[surface], source=source) for m in pattern.finditer(text)
        )
    return non_overlapping(found, phi)
