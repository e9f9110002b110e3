"""Document-level propagation: a name found once is a name everywhere in the same note.

When "John Smith" is detected, a later bare "Smith" in the same note is the same person even if no
detector proposed it (no title, no context). :func:`propagate_names` adds a span for every other
whole-word occurrence, in the same case or in capitals, of each token of a detected person name. Tokens that are also
common words ("Will", "Mark", "May": the WordNet-derived ``ambiguous_names`` list and function words)
and tokens shorter than 3 letters are never propagated, so "Will Smith" does not turn every "will"
into a name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from phiscrub.document import Document, Span

__all__ = ["NAME_LABELS", "propagate_names"]

#: Labels whose surfaces are propagated (fine labels and the coarse NAME).
NAME_LABELS = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "NAME"})

_TOKEN = re.compile(r"[^\W\d_][\w'’-]*[^\W\d_]")


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    from phiscrub.detect.lexicon import EPONYMS
    from phiscrub.resources import load_lexicon

    words = {w.lower() for w in load_lexicon("ambiguous_names")}
    stop = resources.files("phiscrub.resources").joinpath("wordnet", "stopwords.txt")
    words |= {w.strip().lower() for w in stop.read_text(encoding="utf-8").splitlines() if w.strip()}
    return frozenset(words | EPONYMS)


def propagate_names(doc: Document, spans: Sequence[Span]) -> list[Span]:
    """Return ``spans`` plus spans for the other occurrences of detected name tokens in ``doc``.

    New spans get the label of the span the token came from, score 0.5 and source ``propagate``.
    They may overlap existing spans; the resolve step merges them.
    """
    common = _common_words()
    tokens: dict[str, str] = {}
    for s in spans:
        if s.label not in NAME_LABELS:
            continue
        for m in _TOKEN.finditer(doc.text, s.start, s.end):
            tok = m.group()
            if len(tok) >= 3 and tok.lower() not in common and tok[0].isupper():
                # the same case, and the all-caps form used in headers and signatures
                tokens.setdefault(tok, s.label)
                tokens.setdefault(tok.upper(), s.label)
    if not tokens:
        return list(spans)
    covered = sorted((s.start, s.end) for s in spans)
    pattern = re.compile(
        r"(?<![\w'’-])("
        + "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
        + r")(?![\w-])"
    )
    out = list(spans)
    for m in pattern.finditer(doc.text):
        start, end = m.span()
        if any(a <= start and end <= b for a, b in covered):
            continue
        out.append(Span(start, end, tokens[m.group()], 0.5, "propagate"))
    return out
