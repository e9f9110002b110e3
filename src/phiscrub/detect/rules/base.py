"""A small rule engine: regex :class:`PatternRule` objects run by a :class:`RuleDetector`.

A rule is a compiled pattern plus the checks that turn a raw match into a PHI proposal:

* ``group``: which capture group is the PHI part (the rest of the match is context, e.g. ``MRN:``);
* ``item``: optional pattern that splits the captured part into several PHI items (ID lists);
* ``context``: words that must occur shortly before the match (case-insensitive);
* ``exclude_context``: words that must not occur shortly before the match;
* ``validator``: any ``match -> bool`` check (calendar validity, unit look-ahead ...);
* ``labeler``: picks the label per match (PHONE or FAX, MEDICALRECORD or ACCOUNT ...).

Speed matters (all rules together should take a few milliseconds per note), and with Python's
``re`` the cost of a rule is mostly one pass over the text. Hence: several formats share one
pattern as alternatives; word lists are compiled as prefix trees (:func:`trie_pattern`); patterns
start with a character class instead of a look-behind (``not_after`` checks the character before
in Python); and rules for rare things search only windows around a fast ``anchor`` (``@`` for
e-mail addresses, five digits for ZIP codes).

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
    "Labeler",
    "PatternRule",
    "RuleDetector",
    "TrimmedRule",
    "Validator",
    "trie_pattern",
    "words_regex",
]

#: A validator sees the raw match (``m.string`` is the whole text) and says whether to keep it.
Validator = Callable[["re.Match[str]"], bool]


#: A prefix tree of characters; the key ``""`` marks the end of a word.
_Trie = dict[str, "_Trie"]


def trie_pattern(words: Iterable[str], *, ignore_case: bool = True) -> str:
    """A regex alternation of literal ``words`` factored as a prefix tree (no groups, no anchors).

    Python's ``re`` tries alternatives one by one at every position; a prefix tree rejects most
    positions with one character test, which makes 400-word keyword lists cheap. Spaces inside a
    phrase match any run of whitespace; with ``ignore_case`` letters become ``[aA]`` classes (the
    surrounding pattern keeps its own flags).

    Args:
        words: literal words or phrases.
        ignore_case: match letters in any case.

    Returns:
        A non-capturing pattern string; longer words win over their prefixes.
    """
    root: _Trie = {}
    for word in words:
        w = " ".join(word.split())
        if not w:
            continue
        node = root
        for ch in w.lower() if ignore_case else w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _Trie) -> str:
        alts = []
        for ch in sorted(k for k in node if k):
            if ch == " ":
                atom = r"\s+"
            elif ignore_case and ch.lower() != ch.upper():
                atom = f"[{ch}{ch.upper()}]"
            else:
                atom = re.escape(ch)
            alts.append(atom + build(node[ch]))
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:
            # A word ends here but longer ones continue: the continuation is optional (greedy).
            body = f"(?:{body})?" if len(alts) == 1 else body + "?"
        return body

    return "(?:" + build(root) + ")" if root else "(?!)"


def words_regex(words: Iterable[str], *, ignore_case: bool = True) -> re.Pattern[str]:
    """Compile a whole-word matcher for ``words`` (see :func:`trie_pattern`).

    Args:
        words: literal words or phrases; spaces inside a phrase match any run of whitespace.
        ignore_case: match in any case (the default).

    Returns:
        A pattern matching any of the words between word boundaries.
    """
    return re.compile(rf"(?<![\w]){trie_pattern(words, ignore_case=ignore_case)}(?![\w])")


#: A labeler picks the fine label of one match, or None to drop it (``FAX`` vs ``PHONE``).
Labeler = Callable[["re.Match[str]"], "str | None"]


@dataclass(frozen=True)
class PatternRule:
    r"""One regex rule proposing spans of one fine label (or of several, through ``labeler``).

    Args:
        label: fine PHI label (see :data:`phiscrub.labels.FINE_LABELS`).
        pattern: compiled regex. Several formats may share one pattern as alternatives: one
            pass over the text is the main cost of a rule.
        group: capture group (index or name) holding the PHI part; 0 is the whole match. A tuple
            lists several groups, each emitted as its own span when it took part in the match.
        item: when set, every match of this pattern inside the captured part is one span.
        item_validator: ``item match -> bool`` check of each item (list entries are validated
            one by one).
        context: words of which one must occur within ``window`` characters before the match.
        exclude_context: words of which none may occur within ``window`` characters before the match.
        window: look-back size in characters for ``context`` and ``exclude_context``.
        validator: extra ``match -> bool`` check.
        labeler: ``match -> label or None``; overrides ``label`` per match (None drops it).
        extra_labels: other labels ``labeler`` may return (checked, and listed by detectors).
        not_after: regex character class (``r"[\w/.]"``); a match right after such a character is
            rejected. Cheaper than a leading look-behind, which stops ``re`` from skipping ahead
            to the first possible character.
        anchor: a fast pattern that every match contains (``@`` for e-mail), or a function
            ``text -> sorted (start, end) hits`` (shared digit runs, see ``_common.long_runs``);
            the rule then only searches windows of ``reach`` characters around anchor hits.
        reach: ``(before, after)``: how far a match may extend around its anchor hit.
        score: confidence given to emitted spans.
        name: short rule name for debugging and tests.

    A rejected match does not hide later ones: the search resumes one character after its start.

    Raises:
        ConfigError: unknown label or bad score.
    """

    label: str
    pattern: re.Pattern[str]
    group: int | str | tuple[int | str, ...] = 0
    item: re.Pattern[str] | None = None
    item_validator: Validator | None = None
    context: tuple[str, ...] = ()
    exclude_context: tuple[str, ...] = ()
    window: int = 25
    validator: Validator | None = None
    labeler: Labeler | None = None
    extra_labels: tuple[str, ...] = ()
    not_after: str = ""
    anchor: re.Pattern[str] | Callable[[str], list[tuple[int, int]]] | None = None
    reach: tuple[int, int] = (40, 40)
    score: float = 0.9
    name: str = ""
    _not_after_re: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _context_re: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _exclude_re: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for label in (self.label, *self.extra_labels):
            # NAME: "a person, kind unknown" (a generic label, resolve.GENERIC_LABELS: the name rules
            # and the model, which say PATIENT, DOCTOR or RELATIVE, win over it)
            if label not in FINE_LABELS and label != "NAME":
                raise ConfigError(f"rule {self.name or '?'}: unknown fine label {label!r}")
        if not 0.0 <= self.score <= 1.0:
            raise ConfigError(f"rule {self.name or '?'}: score must lie in [0, 1]")
        # Precompile the context word lists once; frozen dataclass, hence object.__setattr__.
        if self.context:
            object.__setattr__(self, "_context_re", words_regex(self.context))
        if self.exclude_context:
            object.__setattr__(self, "_exclude_re", words_regex(self.exclude_context))
        if self.not_after:
            object.__setattr__(self, "_not_after_re", re.compile(self.not_after))

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label this rule may emit."""
        return (self.label, *self.extra_labels)

    def _context_ok(self, text: str, start: int) -> bool:
        if self._context_re is None and self._exclude_re is None:
            return True
        before = text[max(0, start - self.window) : start]
        if self._context_re is not None and self._context_re.search(before) is None:
            return False
        return not (self._exclude_re is not None and self._exclude_re.search(before) is not None)

    def _accept(self, m: re.Match[str]) -> str | None:
        """The label of an accepted match, or None when a check rejects it."""
        start = m.start()
        if self._not_after_re is not None and start > 0 and self._not_after_re.match(m.string, start - 1):
            return None
        if not self._context_ok(m.string, start):
            return None
        if self.validator is not None and not self.validator(m):
            return None
        if self.labeler is not None:
            return self.labeler(m)
        return self.label

    def _parts(self, m: re.Match[str]) -> Iterator[tuple[int, int]]:
        groups = self.group if isinstance(self.group, tuple) else (self.group,)
        for g in groups:
            start, end = m.span(g)
            if start < 0 or end <= start:
                continue  # optional group that did not take part
            if self.item is None:
                yield start, end
            else:
                for im in self.item.finditer(m.string, start, end):
                    if im.end() > im.start() and (self.item_validator is None or self.item_validator(im)):
                        yield im.start(), im.end()

    def _ranges(self, text: str) -> Iterator[tuple[int, int]]:
        """Disjoint ``(start, end)`` ranges that can hold a match: the whole text, or anchor windows."""
        n = len(text)
        if self.anchor is None:
            yield 0, n
            return
        before, after = self.reach
        lo = hi = -1
        # Merge overlapping windows; this loop runs for every anchor hit of every note.
        anchor = self.anchor
        hits = [a.span() for a in anchor.finditer(text)] if isinstance(anchor, re.Pattern) else anchor(text)
        for a_start, a_end in hits:
            s = a_start - before
            e = a_end + after
            if hi >= 0 and s <= hi:
                hi = max(hi, e)
                continue
            if hi >= 0:
                yield max(0, lo), min(n, hi)
            lo, hi = s, e
        if hi >= 0:
            yield max(0, lo), min(n, hi)

    def matches(self, text: str) -> Iterator[tuple[re.Match[str], str]]:
        """Yield ``(match, label)`` for every accepted match in ``text``."""
        search = self.pattern.search
        n = len(text)
        pos = 0
        for lo, hi in self._ranges(text):
            pos = max(pos, lo)
            # Look-aheads at the window end must see real text: search a little past it and drop
            # matches ending past the window (a genuine match never does, by the anchor contract).
            endpos = n if self.anchor is None else min(n, hi + 32)
            while pos <= hi:
                m = search(text, pos, endpos)
                if m is None or m.start() > hi:
                    break
                label = self._accept(m) if m.end() <= hi or self.anchor is None else None
                if label is None:
                    pos = m.start() + 1
                    continue
                pos = m.end() if m.end() > m.start() else m.start() + 1
                yield m, label

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every PHI part this rule finds in ``text``."""
        for m, label in self.matches(text):
            for start, end in self._parts(m):
                yield start, end, label


@dataclass(frozen=True)
class TrimmedRule(PatternRule):
    """A :class:`PatternRule` whose spans lose leading cue words ("admitted to", "Pt attends").

    Args:
        trim: ``(text, start, end) -> new start``; a span trimmed to nothing is dropped.
    """

    trim: Callable[[str, int, int], int] = field(kw_only=True)

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        for start, end, label in super().find(text):
            cut = self.trim(text, start, end)
            if cut < end:
                yield cut, end, label


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
        return tuple(sorted({lab for r in self.rules for lab in r.labels}))

    def find(self, text: str) -> list[Span]:
        """Return the spans proposed for a plain ``text`` (no duplicates, sorted)."""
        source = f"rule:{self.name}"
        # One label per offset pair: the best-scoring rule wins, the earlier rule on ties.
        best: dict[tuple[int, int], Span] = {}
        for rule in self.rules:
            for start, end, label in rule.find(text):
                key = (start, end)
                old = best.get(key)
                if old is None or rule.score > old.score:
                    best[key] = Span(start, end, label, rule.score, source)
        spans = list(best.values())
        return _drop_nested(spans) if self.drop_nested else sorted(spans)

    def detect(self, doc: Document) -> list[Span]:
        """Return proposed PHI spans for ``doc`` (offsets index ``doc.text``)."""
        return self.find(doc.text)
