"""Document-level propagation of places: a facility, unit, organisation, town or street found once is
found everywhere in the same note (recall first, issue 25).

A note that names "Whitcombe 3" or "Brennock Family Pharmacy" once in a sentence a detector
understood often repeats it where no cue helps ("WHITCOMBE 3", "brennock family pharmacy"). Every
other whole-phrase occurrence of a detected place surface, in any case and with a possessive, gets a
span with the same label, score 0.5 and source ``propagate``.

A one-word surface is propagated only when it is no word in use (the same WordNet and clinical
check as names, :func:`phiscrub.detect.english_words.lowercase_ok`) and has a capital in the original:
"Brennock" spreads, "Harbor" or "Main" do not. States and countries are not places smaller than a
state and are not propagated. The cost is one regular-expression pass per note over the distinct
surfaces (a note holds a handful).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from phiscrub.document import Document, Span

__all__ = ["PLACE_LABELS", "propagate_places"]

#: Labels whose surfaces are propagated.
PLACE_LABELS = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT", "CITY", "LOCATION", "STREET"})

_MIN_CHARS = 3


def _surface_key(surface: str) -> str | None:
    """The propagated form of a span surface, or None when it must not spread."""
    from phiscrub.detect.english_words import lowercase_ok as _lowercase_ok

    core = re.sub(r"(?:['’]s)\Z", "", surface.strip(" \t\n,.;:()"))
    if len(core) < _MIN_CHARS or not any(c.isupper() for c in core) or "\n" in core:
        return None
    words = core.split()
    if len(words) == 1 and (not core.isalpha() or not _lowercase_ok(core.casefold())):
        return None
    if all(not w[:1].isalpha() for w in words):
        return None
    return " ".join(words)


def propagate_places(doc: Document, spans: Sequence[Span]) -> list[Span]:
    """Return ``spans`` plus a span for every other occurrence of a detected place surface.

    New spans have the label of the first span of that surface, score 0.5 and source
    ``propagate``; an occurrence already inside a span is left alone (partial overlaps are merged by
    the resolve step).
    """
    text = doc.text
    surfaces: dict[str, str] = {}
    for s in spans:
        if s.label not in PLACE_LABELS:
            continue
        key = _surface_key(text[s.start : s.end])
        if key is not None:
            surfaces.setdefault(key.casefold(), s.label)
    if not surfaces:
        return list(spans)
    from phiscrub.policy import region_label

    keys = [k for k in sorted(surfaces, key=len, reverse=True) if region_label(k) is None]
    if not keys:
        return list(spans)
    body = "|".join(r"[ \t]+".join(re.escape(w) for w in k.split()) for k in keys)
    pattern = re.compile(rf"(?<![\w'’-])(?:{body})(?:['’]s)?(?![\w'’-])", re.IGNORECASE)
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    starts = [s.start for s in ordered]
    ends: list[int] = []
    reach = -1
    for s in ordered:
        reach = max(reach, s.end)
        ends.append(reach)
    out = list(spans)
    for m in pattern.finditer(text):
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and m.end() <= ends[i]:
            continue
        hit = re.sub(r"['’]s\Z", "", m.group())
        label = surfaces.get(" ".join(hit.split()).casefold())
        if label is None:
            continue
        out.append(Span(m.start(), m.start() + len(hit), label, 0.5, "propagate"))
    return out
