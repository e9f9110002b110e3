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
* in an English note, a single line break between two capitalised words that are not English
  words in use (``Zebulon\\nQuackenbush``; never ``Smith\\nPlan:`` or a line that starts a
  ``Header:``) is read as a space;
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

__all__ = ["TextView", "make_view", "propose_on_views", "seen_documents"]

#: Unicode format characters (general category Cf, Unicode 14), listed so a note is scanned by one
#: regex instead of a Python loop: ``tests/test_text_view.py`` checks the list against unicodedata.
_FORMAT = (
    r"\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    r"\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
# Compatibility letters and digits that stand for ASCII ones: ligatures (ﬁ), fullwidth forms (Ｚ),
# mathematical alphanumerics (𝐙). Only these: NFKC of ordinal indicators (6º), superscripts (m²)
# or fractions would change what the Spanish, unit and dose rules read.
_LOOKALIKES = r"\ufb00-\ufb06\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff"
_FORMAT_RE = re.compile(f"[{_FORMAT}]")
_CHANGE_RE = re.compile(f"[{_FORMAT}{_LOOKALIKES}]")
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


def make_view(text: str, join_names: bool = True) -> TextView | None:
    """The view of ``text``, or None when it would be ``text`` itself.

    Three passes, each a regex over the text (a note is mostly copied in slices, never walked
    character by character): format characters out and lookalikes to ASCII, then name line
    breaks (only with ``join_names``: the English lexicon decides what is a word), then spaced digits.
    """
    view, origin = _replace_characters(text)
    joined: set[int] = set()
    found = _NAME_BREAK.finditer(view) if join_names else iter(())
    breaks = [m.end(1) for m in found if _not_english(m.group(1)) and _not_english(m.group(2))]
    if breaks:
        chars = list(view)
        for at in breaks:
            chars[at] = " "
            joined.add(origin[at] if origin is not None else at)
        view = "".join(chars)
    spaced = list(_SPACED_DIGITS.finditer(view))
    if spaced:
        if origin is None:
            origin = list(range(len(view)))
        drop = {k for m in spaced for k in range(m.start() + 1, m.end(), 2)}
        view = "".join(c for k, c in enumerate(view) if k not in drop)
        origin = [o for k, o in enumerate(origin) if k not in drop]
    if view == text:
        return None
    return TextView(view, tuple(origin if origin is not None else range(len(view))), frozenset(joined))


def _replace_characters(text: str) -> tuple[str, list[int] | None]:
    """``text`` without format characters and with lookalikes in ASCII, and the note offset of
    each character (None: nothing changed, the offsets are the identity)."""
    hits = list(_CHANGE_RE.finditer(text))
    if not hits:
        return text, None
    pieces: list[str] = []
    origin: list[int] = []
    last = 0
    for m in hits:
        at = m.start()
        pieces.append(text[last:at])
        origin.extend(range(last, at))
        ch = m.group()
        new = "" if _FORMAT_RE.match(ch) else unicodedata.normalize("NFKC", ch)
        if not (new.isascii() and new.isalnum()):
            new = "" if _FORMAT_RE.match(ch) else ch
        pieces.append(new)
        origin.extend([at] * len(new))
        last = m.end()
    pieces.append(text[last:])
    origin.extend(range(last, len(text)))
    return "".join(pieces), origin


def _views(docs: Sequence[Document]) -> list[TextView | None]:
    # Line breaks are joined in English notes only (and notes of no decided language): whether a
    # word is a name is read from the English lexicon.
    return [make_view(d.text, d.metadata.get("lang") in (None, "en")) for d in docs]


def _seen(docs: Sequence[Document], views: Sequence[TextView | None]) -> list[Document]:
    return [d if v is None else Document(d.id, v.text, (), d.metadata) for d, v in zip(docs, views)]


def seen_documents(docs: Sequence[Document]) -> list[Document]:
    """The documents as :func:`propose_on_views` hands them to the detectors (views where needed)."""
    return _seen(docs, _views(docs))


def propose_on_views(
    docs: Sequence[Document], propose: Callable[[Sequence[Document]], list[list[Span]]]
) -> list[list[Span]]:
    """``propose(docs)``, with each note that needs one read through its view (see the module
    docstring) and its spans mapped back to the note's offsets."""
    views = _views(docs)
    if not any(views):
        return propose(docs)
    found = propose(_seen(docs, views))
    out: list[list[Span]] = []
    for view, spans in zip(views, found):
        if view is None:
            out.append(spans)
            continue
        out.append([piece for s in spans if s.end > s.start for piece in view.to_note(s)])
    return out
