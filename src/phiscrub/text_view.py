"""Detect on a normalized view of a note, report spans in the note's own offsets.

Characters a reader does not see can hide a name from every detector (issue 28, item 4): a zero
width space inside ``Zeb\\u200bulon``, a word joiner, a right-to-left override, a soft hyphen;
compatibility forms (fullwidth ``Ｚｅｂｕｌｏｎ``) read differently from what they show; a line
break between a first name and a surname ends the name for the rules; an MRN written digit by
digit (``9 9 8 8 7 7 6 6``) is not one number. The detectors therefore run on a *view* of the note:

* every Unicode format character (general category ``Cf``: U+200B, U+2060, U+202A-U+202E,
  U+2066-U+2069, U+00AD, U+FEFF, ...) is removed;
* a compatibility letter or digit that stands for an ASCII one (ligatures ``ﬁ``, fullwidth forms,
  mathematical alphanumerics) becomes its NFKC form, one character at a time: each output
  character comes from exactly one input character. Other compatibility characters are left as
  they are (NFKC would read ``6º`` as ``6o`` and ``m²`` as ``m2``);
* a single line break between two capitalised words that are not English words in use
  (``Zebulon\\nQuackenbush``; never ``Smith\\nPlan:`` or a line that starts a ``Header:``) is read as
  a space;
* six or more single digits separated by single spaces are read as one number.

Every view character remembers the note character it comes from, so a span found in the view maps
back to the note: it starts at its first character's origin and ends after its last one's
(characters removed inside a span are inside the mapped span). A span that crosses a line break
read as a space is split at it, so redaction keeps the note's lines. A note that needs none of
this (almost all) is detected as it is.

:func:`propose_on_views` is what :meth:`phiscrub.deid.Deidentifier.propose_many` runs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phiscrub.document import Document, Span

__all__ = ["TextView", "make_view", "propose_on_views"]

# A quick test that a note may need a view: a format character, a compatibility character (a
# broad net; make_view decides), a line break between letters, or a digit, space, digit sequence.
_MAYBE = re.compile(
    r"[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    r"\ufeff\ufff9-\ufffb\U000110bd\U0001d173-\U0001d17a\U000e0001-\U000e007f"
    r"\ufb00-\ufb06\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff]"
    r"|[^\W\d_]\n[^\W\d_]|\d \d \d"
)
# Compatibility letters and digits that stand for ASCII ones: ligatures (ﬁ), fullwidth forms (Ｚ),
# mathematical alphanumerics (𝐙). Only these: NFKC of ordinal indicators (6º), superscripts (m²)
# or fractions would change what the Spanish, unit and dose rules read.
_LOOKALIKE = re.compile(r"[\ufb00-\ufb06\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff]")
_SPACED_DIGITS = re.compile(r"(?<![\w])\d(?: \d){5,}(?![\w])")
# "First\nLast" where the next line is not a header ("Plan: ...").
_NAME_BREAK = re.compile(r"\b([A-Z][a-z'’\-]+)\n([A-Z][a-z'’\-]+)\b(?![ \t]*:)")


@dataclass(frozen=True)
class TextView:
    """A view of a note: its text, the note offset of each view character, the joined breaks."""

    text: str
    origin: tuple[int, ...]
    #: Note offsets of line breaks read as spaces.
    joined: frozenset[int] = frozenset()

    def to_note(self, span: Span) -> list[Span]:
        """``span`` (view offsets) in note offsets, split at joined line breaks."""
        start, end = self.origin[span.start], self.origin[span.end - 1] + 1
        cuts = sorted(b for b in self.joined if start < b < end - 1)
        pieces: list[Span] = []
        for cut in [*cuts, end]:
            if cut > start:
                pieces.append(Span(start, cut, span.label, span.score, span.source))
            start = cut + 1
        return pieces


def _not_english(word: str) -> bool:
    from phiscrub.detect.english_words import lowercase_blocked

    return word.casefold() not in lowercase_blocked()


def make_view(text: str) -> TextView | None:
    """The view of ``text``, or None when it would be ``text`` itself."""
    if _MAYBE.search(text) is None:
        return None
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf":
            continue
        if _LOOKALIKE.match(ch):
            norm = unicodedata.normalize("NFKC", ch)
            if norm.isascii() and norm.isalnum():
                chars.extend(norm)
                origin.extend([i] * len(norm))
                continue
        chars.append(ch)
        origin.append(i)
    view = "".join(chars)
    joined: set[int] = set()
    for m in _NAME_BREAK.finditer(view):
        if _not_english(m.group(1)) and _not_english(m.group(2)):
            at = m.end(1)
            chars[at] = " "
            joined.add(origin[at])
    view = "".join(chars)
    spaced = list(_SPACED_DIGITS.finditer(view))
    if spaced:
        keep = [True] * len(view)
        for m in spaced:
            for k in range(m.start() + 1, m.end(), 2):
                keep[k] = False
        view = "".join(c for c, k in zip(view, keep) if k)
        origin = [o for o, k in zip(origin, keep) if k]
    if view == text:
        return None
    return TextView(view, tuple(origin), frozenset(joined))


def propose_on_views(
    docs: Sequence[Document], propose: Callable[[Sequence[Document]], list[list[Span]]]
) -> list[list[Span]]:
    """``propose(docs)``, with each note that needs one read through its view (see the module
    docstring) and its spans mapped back to the note's offsets."""
    views = [make_view(d.text) for d in docs]
    if not any(views):
        return propose(docs)
    seen = [d if v is None else Document(d.id, v.text, (), d.metadata) for d, v in zip(docs, views)]
    found = propose(seen)
    out: list[list[Span]] = []
    for view, spans in zip(views, found):
        if view is None:
            out.append(spans)
            continue
        out.append([piece for s in spans if s.end > s.start for piece in view.to_note(s)])
    return out
