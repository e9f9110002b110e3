"""Leak accounting: which gold PHI survives in a redacted corpus, per label, and how badly.

Detection scores say how many PHI tokens a tagger found; a release needs to know what is *left in
the output*. :func:`find_leaks` reads the gold notes (original text and PHI spans) and the redacted
notes written by any tool, whatever its operator (placeholders, masks, surrogates), and aligns the
two texts token by token (:func:`phiscrub.text.tokenize`, then :class:`difflib.SequenceMatcher` on
the token strings). A gold token that the alignment pairs with the same token in the output was
**kept**: the redaction left it in place. Only *identifying* tokens count: tokens with a digit, and
words that are not generic (``Hospital``, ``Street``, ``of``: :data:`GENERIC_WORDS`), since a
surrogate hospital or street keeps such words and they say nothing about anyone.

Each gold span with a kept identifying token is a leak of one kind (:data:`LEAK_KINDS`, worst
first):

* ``full``: every identifying token survives: the PHI string is still there;
* ``surname``: a name lost its first name or initial but kept its last word;
* ``id_digits``: four or more digits of an identifier, contact, address or other value survive;
* ``given_name``: a name kept another word (a first or middle name);
* ``partial_date``: a date kept its day or month (or a day-month pair) but not all of it;
* ``partial_words``: a place, organisation or profession kept some of its words;
* ``year``: a date kept only its four-digit year (Safe Harbor allows years; reported for i2b2);
* ``few_digits``: one to three digits survive;
* ``initial``: a name kept only single letters.

A second, alignment-free check counts gold strings of four or more letters/digits that occur
verbatim (as whole words) anywhere in the redacted note (``verbatim``): a surrogate or a shifted
offset cannot hide those from it.

The report never holds note text or PHI strings: labels, counts, document ids and gold offsets only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.document import Document, Span
from phiscrub.errors import LabelError
from phiscrub.evaluate.metrics import AsDict, Rate
from phiscrub.labels import Granularity, fold
from phiscrub.text import Token, tokenize

if TYPE_CHECKING:
    from phiscrub.io.base import Problem

__all__ = [
    "GENERIC_WORDS",
    "LEAK_KINDS",
    "LabelLeaks",
    "Leak",
    "LeakReport",
    "find_leaks",
    "kept_tokens",
    "read_redacted",
]

#: Leak kinds, worst first (see the module docstring).
LEAK_KINDS: tuple[str, ...] = (
    "full",
    "surname",
    "id_digits",
    "given_name",
    "partial_date",
    "partial_words",
    "year",
    "few_digits",
    "initial",
)

#: Words that identify nobody: the generic parts of place, organisation and address names, titles,
#: and function words. A surrogate hospital keeps "Hospital"; a kept "Hospital" is no leak.
GENERIC_WORDS: frozenset[str] = frozenset(
    """
    a an and at de del der di du el for in la le of on the to van von y
    hospital hospitals medical center centre clinic clinics health healthcare care general memorial
    regional community county university college institute school hall house home nursing rehab
    rehabilitation unit ward floor room rm bed suite ste apt apartment building bldg department dept
    st street ave avenue rd road dr drive ln lane blvd boulevard ct court pl place way hwy highway
    pkwy parkway sq square ter terrace cir circle trl trail n s e w ne nw se sw north south east west
    saint mount mt fort ft lake river valley city town village county state
    mr mrs ms miss dr prof md do rn np pa jr sr ii iii iv phd
    llc inc co corp company group associates services
    years year yrs yr old yo months month weeks week days day
    """.split()  # noqa: SIM905 - a word list reads best as words
)

_SEVERITY = {kind: i for i, kind in enumerate(LEAK_KINDS)}
_DIGITS = re.compile(r"\d")


@dataclass(frozen=True)
class Leak(AsDict):
    """One gold span of which something identifying survives in the redacted note.

    Args:
        doc_id: the document.
        label: the span's label at the report's granularity.
        start: gold start offset (into the original text).
        end: gold end offset.
        kind: one of :data:`LEAK_KINDS`.
        kept: identifying tokens of the span that survive.
        tokens: identifying tokens of the span.
    """

    doc_id: str
    label: str
    start: int
    end: int
    kind: str
    kept: int
    tokens: int


@dataclass
class LabelLeaks:
    """Leak counts of one label.

    Args:
        label: the label.
        gold: gold spans of the label.
        leaked: spans with any identifying token kept.
        full: spans kept whole (every identifying token).
        verbatim: spans whose string (four or more letters/digits) occurs verbatim in the output.
        kinds: leaks by kind.
        documents: documents with a leak of this label.
    """

    label: str
    gold: int = 0
    leaked: int = 0
    full: int = 0
    verbatim: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    documents: int = 0

    #: Share of gold spans that survive whole (the residual PHI rate); 0.0 without gold.
    residual_rate = Rate("full", "gold")
    #: Share of gold spans with any identifying token kept; 0.0 without gold.
    leak_rate = Rate("leaked", "gold")

    @property
    def worst(self) -> str | None:
        """The worst leak kind met, or None."""
        return min(self.kinds, key=_SEVERITY.__getitem__) if self.kinds else None

    def to_dict(self) -> dict[str, Any]:
        """Counts, rates and kinds as a JSON-ready dict."""
        out = _values(self, ("gold", "leaked", "full", "verbatim", "residual_rate", "leak_rate", "documents"))
        out["worst"] = self.worst
        out["kinds"] = {k: self.kinds[k] for k in LEAK_KINDS if self.kinds[k]}
        return out


def _values(obj: object, names: Sequence[str]) -> dict[str, Any]:
    """``{name: obj.name}`` for each name, in order."""
    return {name: getattr(obj, name) for name in names}


@dataclass
class LeakReport:
    """What survives of the gold PHI in a redacted corpus.

    Args:
        documents: gold documents compared.
        documents_with_phi: those with at least one gold span.
        documents_with_leak: documents with any leak.
        documents_with_full_leak: documents with a span kept whole.
        per_label: counts per label.
        leaks: every leak (ids, offsets, kinds; no text).
        missing: gold document ids without a redacted document (not compared).
    """

    documents: int = 0
    documents_with_phi: int = 0
    documents_with_leak: int = 0
    documents_with_full_leak: int = 0
    per_label: dict[str, LabelLeaks] = field(default_factory=dict)
    leaks: list[Leak] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def total(self) -> LabelLeaks:
        """Counts over every label."""
        out = LabelLeaks("ALL")
        for lab in self.per_label.values():
            out.gold += lab.gold
            out.leaked += lab.leaked
            out.full += lab.full
            out.verbatim += lab.verbatim
            out.kinds.update(lab.kinds)
        out.documents = self.documents_with_leak
        return out

    #: Share of the documents holding PHI that leak something (0.0 when none holds PHI).
    leaking_document_share = Rate("documents_with_leak", "documents_with_phi")
    #: Share of the documents holding PHI with a PHI string kept whole.
    full_leak_document_share = Rate("documents_with_full_leak", "documents_with_phi")

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict (no text)."""
        counts = ("documents", "documents_with_phi", "documents_with_leak", "documents_with_full_leak")
        out = _values(self, (*counts, "leaking_document_share", "full_leak_document_share"))
        out["total"] = self.total.to_dict()
        out["per_label"] = {k: v.to_dict() for k, v in sorted(self.per_label.items())}
        out["missing"] = list(self.missing)
        out["leaks"] = [leak.to_dict() for leak in self.leaks]
        return out

    def to_markdown(self) -> str:
        """A per-label table and the document shares (no text, no document ids)."""
        lines = [
            f"Documents: {self.documents} ({self.documents_with_phi} with PHI); "
            f"with any leak: {self.documents_with_leak} ({self.leaking_document_share:.1%} of those with PHI); "
            f"with a PHI string kept whole: {self.documents_with_full_leak} "
            f"({self.full_leak_document_share:.1%})"
            + (f"; not compared (no redacted document): {len(self.missing)}" if self.missing else ""),
            "",
            "| label | gold | kept whole | residual rate | any token kept | leak rate | verbatim | worst | kinds |",
            "|---|---:|---:|---:|---:|---:|---:|---|---|",
        ]
        rows = [*sorted(self.per_label.values(), key=lambda x: x.label), self.total]
        for lab in rows:
            kinds = ", ".join(f"{k} {lab.kinds[k]}" for k in LEAK_KINDS if lab.kinds[k]) or "-"
            lines.append(
                f"| {lab.label} | {lab.gold} | {lab.full} | {lab.residual_rate:.2%} | {lab.leaked} | "
                f"{lab.leak_rate:.2%} | {lab.verbatim} | {lab.worst or '-'} | {kinds} |"
            )
        return "\n".join(lines) + "\n"


def kept_tokens(original: str, redacted: str) -> tuple[list[Token], list[bool]]:
    """The tokens of ``original`` and, for each, whether the redacted text keeps it in place.

    The token strings of both texts are aligned with :class:`difflib.SequenceMatcher` (no junk
    heuristic); a token inside a matching block is kept.
    """
    a = tokenize(original)
    b = tokenize(redacted)
    kept = [False] * len(a)
    matcher = SequenceMatcher(None, [t.text for t in a], [t.text for t in b], autojunk=False)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            kept[i] = True
    return a, kept


def find_leaks(
    gold: Sequence[Document],
    redacted: Sequence[Document],
    granularity: Granularity = "coarse",
) -> LeakReport:
    """Compare gold notes with their redacted versions (paired by document id).

    Args:
        gold: the original notes with their gold PHI spans.
        redacted: the redacted notes (spans, if any, are ignored: only the text counts).
        granularity: labels of the report; gold spans folding to nothing (e.g. OTHER) are skipped.

    Returns:
        The :class:`LeakReport`. Gold documents without a redacted one are listed in ``missing``
        and not counted; redacted documents without gold are ignored.
    """
    by_id = {d.id: d for d in redacted}
    report = LeakReport()
    for doc in gold:
        out = by_id.get(doc.id)
        if out is None:
            report.missing.append(doc.id)
            continue
        report.documents += 1
        spans = [(s, lab) for s in doc.spans if (lab := _fold(s.label, granularity)) is not None]
        if not spans:
            continue
        report.documents_with_phi += 1
        tokens, kept = kept_tokens(doc.text, out.text)
        words = _words(out.text)
        leaked_labels: set[str] = set()
        any_full = False
        for span, label in spans:
            stats = report.per_label.setdefault(label, LabelLeaks(label))
            stats.gold += 1
            surface = doc.text[span.start : span.end]
            if _verbatim(surface, out.text, words):
                stats.verbatim += 1
            leak = _classify(doc.id, span, label, tokens, kept)
            if leak is None:
                continue
            stats.leaked += 1
            stats.kinds[leak.kind] += 1
            if leak.kind == "full":
                stats.full += 1
                any_full = True
            report.leaks.append(leak)
            leaked_labels.add(label)
        for label in leaked_labels:
            report.per_label[label].documents += 1
        if leaked_labels:
            report.documents_with_leak += 1
        if any_full:
            report.documents_with_full_leak += 1
    return report


def _fold(label: str, granularity: Granularity) -> str | None:
    try:
        return fold(label, granularity)
    except LabelError:
        return label  # a label no table knows (a corpus's own type) is reported as written


def _coarse(label: str) -> str | None:
    try:
        return fold(label, "coarse")
    except LabelError:
        return None


def _identifying(tok: Token) -> bool:
    text = tok.text
    if _DIGITS.search(text):
        return True
    return text[:1].isalnum() and text.casefold() not in GENERIC_WORDS


def _classify(doc_id: str, span: Span, label: str, tokens: list[Token], kept: list[bool]) -> Leak | None:
    """The leak of one gold span, or None when nothing identifying of it survives."""
    inside = [i for i, t in enumerate(tokens) if t.start < span.end and span.start < t.end]
    ident = [i for i in inside if _identifying(tokens[i])]
    if not ident:
        # Only generic words ("Hospital"): judge the span by all its words.
        ident = [i for i in inside if tokens[i].text[:1].isalnum()]
    survived = [i for i in ident if kept[i]]
    if not survived:
        return None
    kind = _kind(span.label, [tokens[i].text for i in ident], [tokens[i].text for i in survived])
    return Leak(doc_id, label, span.start, span.end, kind, len(survived), len(ident))


def _kind(label: str, ident: list[str], survived: list[str]) -> str:
    if len(survived) == len(ident):
        return "full"
    coarse = _coarse(label)
    digits = sum(len(_DIGITS.findall(t)) for t in survived)
    if coarse == "NAME":
        words = [t for t in ident if len(t) > 1 and not _DIGITS.search(t)]
        if words and words[-1] in survived and len(words) > 1:
            return "surname"
        if any(len(t) > 1 and not _DIGITS.search(t) for t in survived):
            return "given_name"
        if digits:
            return "id_digits" if digits >= 4 else "few_digits"
        return "initial"
    if coarse == "DATE":
        if all(t.isdigit() and len(t) == 4 for t in survived):
            return "year"
        return "partial_date"
    if digits >= 4:
        return "id_digits"
    if any(not _DIGITS.search(t) for t in survived):
        return "partial_words"
    return "few_digits"


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _verbatim(surface: str, text: str, words: set[str]) -> bool:
    """Whether ``surface`` (four or more letters/digits) occurs in ``text`` as whole words."""
    core = surface.strip()
    if sum(c.isalnum() for c in core) < 4:
        return False
    parts = _WORD.findall(core)
    if not parts or any(p not in words for p in parts):
        return False  # quick reject: a word of it is nowhere in the output
    return re.search(r"(?<!\w)" + re.escape(core) + r"(?!\w)", text) is not None


#: Files ``phiscrub redact`` writes next to the notes in OUTDIR: not notes themselves.
_RUN_FILES = frozenset({"phi_spans.jsonl", "errors.jsonl"})


def read_redacted(path: str | Path, fmt: str | None = None) -> tuple[list[Document], list[Problem]]:
    """Read a redacted corpus: a ``phiscrub redact`` OUTDIR, or any file or folder of notes.

    With ``fmt`` the reader of that format reads ``path``. Without it, a folder holding ``.txt``
    files is read as plain text (ids: relative paths without ``.txt``, as in the gold BRAT or text
    folder), else its JSONL files but ``phi_spans.jsonl`` and ``errors.jsonl``; a file is read in the
    format its name says (:func:`phiscrub.io.detect_format`).

    Returns:
        The documents and the reading problems.
    """
    from phiscrub.io import JsonlReader, TextReader, detect_format, get_reader
    from phiscrub.io.text import iter_text_files

    root = Path(path)
    if fmt is not None or not root.is_dir():
        reader = get_reader(fmt or detect_format(root))
        result = reader.read_all(root)
        return result.documents, result.problems
    if iter_text_files(root):
        text_reader = TextReader()
        result = text_reader.read_all(root)
        return result.documents, result.problems
    jsonl = JsonlReader()
    docs: list[Document] = []
    for f in sorted(root.rglob("*.jsonl")):
        if f.name not in _RUN_FILES and f.is_file():
            docs += list(jsonl.read(f))
    return docs, list(jsonl.problems)
