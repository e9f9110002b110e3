"""A small rule engine: regex :class:`PatternRule` objects run by a :class:`RuleDetector`.

A rule is a compiled pattern plus the checks that turn a raw match into a PHI proposal:

* ``group``: which capture group is the PHI part (the rest of the match is context, e.g. ``MRN:``);
* ``item``: optional pattern that splits the captured part into several PHI items (ID lists);
* ``context``: words that must occur shortly before the match (case-insensitive);
* ``exclude_context``: words that must not occur shortly before the match;
* ``validator``: any ``match -> bool`` check (calendar validity, unit look-ahead ...).

Rules never see the :class:`~phiscrub.document.Document`, only its text, so they stay cheap and
testable on plain strings. Patterns are compiled once at import time by the modules that define them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import FINE_LABELS

__all__ = [
    "PatternRule",
    "RuleDetector",
    "Validator",
    "words_regex",
]

#: A validator sees the raw match (``m.string`` is the whole text) and says whether to keep it.
Validator = Callable[["re.Match[str]"], bool]


def words_regex(words: Iterable[str], *, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """Compile a whole-word alternation of ``words`` (longest first, regex-escaped).

    Args:
        words: literal words or phrases; spaces inside a phrase match any run of whitespace.
        flags: regex flags (case-insensitive by default).

    Returns:
        A pattern matching any of the words between word boundaries.
    """
    alts = sorted({w.strip() for w in words if w.strip()}, key=lambda w: (-len(w), w))
    body = "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in alts)
    return re.compile(rf"(?<![\w])(?:{body})(?![\w])", flags)


@dataclass(frozen=True)
class PatternRule:
    """One regex rule proposing spans of one fine label.

    Args:
        label: fine PHI label (see :data:`phiscrub.labels.FINE_LABELS`).
        pattern: compiled regex.
        group: capture group (index or name) holding the PHI part; 0 is the whole match. A tuple
            lists several groups, each emitted as its own span when it took part in the match.
        item: when set, every match of this pattern inside the captured part is one span.
        context: words of which one must occur within ``window`` characters before the match.
        exclude_context: words of which none may occur within ``window`` characters before the match.
        window: look-back size in characters for ``context`` and ``exclude_context``.
        validator: extra ``match -> bool`` check.
        score: confidence given to emitted spans.
        name: short rule name for debugging and tests.

    Raises:
        ConfigError: unknown label or bad score.
    """

    label: str
    pattern: re.Pattern[str]
    group: int | str | tuple[int | str, ...] = 0
    item: re.Pattern[str] | None = None
    context: tuple[str, ...] = ()
    exclude_context: tuple[str, ...] = ()
    window: int = 25
    validator: Validator | None = None
    score: float = 0.9
    name: str = ""
    _context_re: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _exclude_re: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.label not in FINE_LABELS:
            raise ConfigError(f"rule {self.name or '?'}: unknown fine label {self.label!r}")
        if not 0.0 <= self.score <= 1.0:
            raise ConfigError(f"rule {self.name or '?'}: score must lie in [0, 1]")
        # Precompile the context word lists once; frozen dataclass, hence object.__setattr__.
        if self.context:
            object.__setattr__(self, "_context_re", words_regex(self.context))
        if self.exclude_context:
            object.__setattr__(self, "_exclude_re", words_regex(self.exclude_context))

    def _context_ok(self, text: str, start: int) -> bool:
        if self._context_re is None and self._exclude_re is None:
            return True
        before = text[max(0, start - self.window) : start]
        if self._context_re is not None and self._context_re.search(before) is None:
            return False
        if self._exclude_re is not None and self._exclude_re.search(before) is not None:
            return False
        return True

    def find(self, text: str) -> Iterator[tuple[int, int]]:
        """Yield ``(start, end)`` of every PHI part this rule finds in ``text``."""
        groups = self.group if isinstance(self.group, tuple) else (self.group,)
        for m in self.pattern.finditer(text):
            if not self._context_ok(text, m.start()):
                continue
            if self.validator is not None and not self.validator(m):
                continue
            for g in groups:
                start, end = m.span(g)
                if start < 0 or end <= start:
                    continue  # optional group that did not take part
                if self.item is None:
                    yield start, end
                else:
                    for im in self.item.finditer(text, start, end):
                        if im.end() > im.start():
                            yield im.start(), im.end()


def _drop_nested(spans: list[Span]) -> list[Span]:
    """Drop spans lying inside a wider span (any label): one detector, one reading per stretch.

    Spans with identical offsets were already reduced to the best-scoring one by the caller.
    """
    out: list[Span] = []
    reach = -1
    for s in sorted(spans, key=lambda s: (s.start, -s.end)):
        if s.end <= reach:
            continue  # inside an earlier, wider (or equal-start, longer) span
        out.append(s)
        reach = max(reach, s.end)
    return sorted(out)


class RuleDetector:
    """Runs a list of :class:`PatternRule` objects; implements the Detector protocol.

    Args:
        name: detector name; spans get ``source=f"rule:{name}"``.
        rules: the rules, run in order.
        drop_nested: drop a span contained in a wider span from this detector, so that
            ``March 12, 2019`` is not also proposed as ``March 12``.

    Within one detector, spans with the same offsets are emitted once (best score wins).
    """

    def __init__(self, name: str, rules: Sequence[PatternRule], *, drop_nested: bool = True) -> None:
        self.name = name
        self.rules = tuple(rules)
        self.drop_nested = drop_nested

    def __repr__(self) -> str:
        return f"RuleDetector(name={self.name!r}, rules={len(self.rules)})"

    @property
    def labels(self) -> tuple[str, ...]:
        """Fine labels this detector can emit, sorted."""
        return tuple(sorted({r.label for r in self.rules}))

    def find(self, text: str) -> list[Span]:
        """Return the spans proposed for a plain ``text`` (no duplicates, sorted)."""
        source = f"rule:{self.name}"
        # One label per offset pair: the best-scoring rule wins, the earlier rule on ties.
        best: dict[tuple[int, int], Span] = {}
        for rule in self.rules:
            for start, end in rule.find(text):
                key = (start, end)
                old = best.get(key)
                if old is None or rule.score > old.score:
                    best[key] = Span(start, end, rule.label, rule.score, source)
        spans = list(best.values())
        return _drop_nested(spans) if self.drop_nested else sorted(spans)

    def detect(self, doc: Document) -> list[Span]:
        """Return proposed PHI spans for ``doc`` (offsets index ``doc.text``)."""
        return self.find(doc.text)
