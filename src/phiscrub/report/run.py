"""The report of a ``phiscrub redact`` output folder.

What a run leaves in OUTDIR (docs/redact.md): the redacted input (a folder of ``.txt``, or one
JSONL/CSV/TSV/Parquet file), ``phi_spans.jsonl`` (doc id, original and output offsets, label,
source), ``errors.jsonl`` (failed documents) and, when any, ``warnings.jsonl``. The report reads
them in a few streaming passes (memory grows with the number of notes only through a counter of
spans per note id) and draws counts per label and per source, a histogram of spans per note, the
failures, and a seeded sample of notes with their spans highlighted.

Note text: the redacted output is shown (placeholders, masks or surrogates highlighted); the
original text only with ``show_text`` and the run's input (``input_path``). The ``text`` field that
``redact --audit-text`` adds to ``phi_spans.jsonl`` is never read.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.shapes import InputOptions
from phiscrub.report.html import Mark, colour, e, highlight, legend, table
from phiscrub.report.svg import bar_chart, histogram

__all__ = ["ERRORS_NAME", "STANDOFF_NAME", "WARNINGS_NAME", "ReadOptions", "RunReport", "is_run", "load_run"]

#: How the run read its input (``--text-field``, ``--id-field``, ...): the name this module gave
#: :class:`~phiscrub.io.shapes.InputOptions` before ``redact``, ``reidentify`` and the report shared it.
ReadOptions = InputOptions

#: The run logs of a redact OUTDIR (the same names as :mod:`phiscrub.cli.redact`'s).
STANDOFF_NAME = "phi_spans.jsonl"
ERRORS_NAME = "errors.jsonl"
WARNINGS_NAME = "warnings.jsonl"
_LOGS = (STANDOFF_NAME, ERRORS_NAME, WARNINGS_NAME)
_TABLE_SUFFIXES = (".jsonl", ".ndjson", ".csv", ".tsv", ".parquet")

#: At most this many characters of a note are shown in a pane.
MAX_CHARS = 20_000
#: At most this many failed documents are listed by id.
MAX_FAILED_LISTED = 50
#: Histograms with more distinct counts than this put counts into ranges.
_MAX_BINS = 16


@dataclass
class NoteSample:
    """A sampled note: its redacted text, its spans and, with ``--show-text``, its original text."""

    position: int
    doc_id: str
    redacted: str
    spans: list[dict[str, Any]] = field(default_factory=list)
    original: str | None = None


@dataclass
class RunReport:
    """What the report of a redact run shows (counts, ids, offsets, labels; text only in samples)."""

    folder: Path
    shape: str
    documents: int = 0
    #: The first :data:`MAX_FAILED_LISTED` failed documents (id, position, stage, error).
    failed: list[dict[str, Any]] = field(default_factory=list)
    failed_ids: set[str] = field(default_factory=set)
    failed_by_error: Counter[tuple[str, str]] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)
    labels: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    spans_per_note: Counter[int] = field(default_factory=Counter)
    orphan_spans: int = 0
    samples: list[NoteSample] = field(default_factory=list)
    shown_text: bool = False

    @property
    def spans(self) -> int:
        """Spans replaced in the whole run (notes and other cells)."""
        return sum(self.labels.values())

    def summary(self) -> str:
        """One line for the command line (counts only)."""
        return (
            f"redact run: {self.documents} documents ({self.n_failed} failed), {self.spans} spans, "
            f"{len(self.samples)} sampled notes"
        )

    @property
    def n_failed(self) -> int:
        """Documents that failed (written empty)."""
        return sum(self.failed_by_error.values())

    @property
    def redacted(self) -> int:
        """Notes written redacted (the others failed and were written empty)."""
        return self.documents - self.n_failed


def is_run(folder: Path) -> bool:
    """Whether ``folder`` looks like a ``phiscrub redact`` OUTDIR (its two run logs are there)."""
    return (folder / STANDOFF_NAME).is_file() and (folder / ERRORS_NAME).is_file()


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of each non-blank line; a bad line is an error naming file and line."""
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise InputFormatError(f"{path} line {lineno}: not a JSON line") from None
            if not isinstance(row, dict):
                raise InputFormatError(f"{path} line {lineno}: not a JSON object")
            yield lineno, row


def _span_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of ``phi_spans.jsonl``, checked (no ``text`` field is ever passed on)."""
    for lineno, row in _jsonl(path):
        doc_id, start, end, label = row.get("doc_id"), row.get("start"), row.get("end"), row.get("label")
        if not (
            isinstance(doc_id, str)
            and isinstance(start, int)
            and isinstance(end, int)
            and 0 <= start <= end
            and isinstance(label, str)
        ):
            raise InputFormatError(
                f"{path} line {lineno}: not a span row (doc_id, start <= end, label); is this a redact OUTDIR?"
            )
        out = {"doc_id": doc_id, "start": start, "end": end, "label": label}
        out["source"] = str(row.get("source") or "unknown")
        for key in ("out_start", "out_end"):
            if isinstance(row.get(key), int):
                out[key] = row[key]
        yield out


def _output_source(folder: Path, opts: InputOptions) -> Any:
    """The run's redacted output as a :class:`~phiscrub.io.shapes.Source`."""
    entries = [p for p in folder.iterdir() if not p.name.startswith(".") and p.name not in _LOGS]
    tables = [p for p in entries if p.is_file() and p.suffix.lower() in _TABLE_SUFFIXES]
    others = [p for p in entries if p.is_dir() or p.suffix.lower() == ".txt"]
    # A table input gives one output file named like it; a folder or .txt input gives .txt files.
    target = tables[0] if len(tables) == 1 and not others else folder
    return opts.open(target)


def _bins(per_note: Counter[int]) -> list[tuple[str, int]]:
    """Histogram bins of spans per note: one per count, or ranges of counts when they spread wide."""
    if not per_note:
        return []
    top = max(per_note)
    if top < _MAX_BINS:
        return [(str(k), per_note.get(k, 0)) for k in range(top + 1)]
    width = math.ceil((top + 1) / (_MAX_BINS - 1))
    out = []
    for lo in range(0, top + 1, width):
        hi = min(top, lo + width - 1)
        out.append((f"{lo}-{hi}", sum(per_note.get(k, 0) for k in range(lo, hi + 1))))
    return out


def load_run(
    folder: Path,
    sample: int = 10,
    seed: int = 0,
    opts: InputOptions | None = None,
    show_text: bool = False,
    input_path: Path | None = None,
) -> RunReport:
    """Read a redact OUTDIR into a :class:`RunReport`.

    Args:
        folder: the OUTDIR of ``phiscrub redact``.
        sample: how many redacted notes to show (a seeded uniform sample, in input order).
        seed: the sampling seed (same seed, same run: same notes).
        opts: how the run read its input (``--text-field``, ``--id-field``, ...).
        show_text: also show the original text of the sampled notes (needs ``input_path``).
        input_path: the run's input, read again for the original text.

    Raises:
        ConfigError: ``show_text`` without ``input_path``, or an input that is not the run's.
        InputFormatError: a run log that does not parse (named by file and line, never text).
    """
    opts = opts or InputOptions()
    if show_text and input_path is None:
        raise ConfigError(
            "--show-text needs the run's input (--input PATH) to show original text; without "
            "--show-text the report shows the redacted output"
        )
    source = _output_source(folder, opts)
    report = RunReport(folder=folder, shape=source.shape)
    for _, row in _jsonl(folder / ERRORS_NAME):
        if len(report.failed) < MAX_FAILED_LISTED:
            report.failed.append({k: row.get(k) for k in ("id", "position", "stage", "error")})
        report.failed_ids.add(str(row.get("id")))
        report.failed_by_error[(str(row.get("stage")), str(row.get("error")))] += 1
    if (folder / WARNINGS_NAME).is_file():
        for _, row in _jsonl(folder / WARNINGS_NAME):
            report.warnings[str(row.get("warning"))] += 1
    per_doc: Counter[str] = Counter()
    for row in _span_rows(folder / STANDOFF_NAME):
        report.labels[row["label"]] += 1
        report.sources[row["source"]] += 1
        per_doc[row["doc_id"]] += 1
    samples = _scan_output(source, report, per_doc, sample, random.Random(seed))
    report.orphan_spans = sum(per_doc.values())
    wanted = {s.doc_id: s for s in samples}
    for row in _span_rows(folder / STANDOFF_NAME):
        if row["doc_id"] in wanted:
            wanted[row["doc_id"]].spans.append(row)
    if show_text and input_path is not None and samples:
        _read_originals(input_path, opts, wanted)
        report.shown_text = True
    report.samples = samples
    return report


def _scan_output(
    source: Any, report: RunReport, per_doc: Counter[str], sample: int, rng: random.Random
) -> list[NoteSample]:
    """Count the output's notes and spans per note (cells go to their record), and sample notes."""
    failed_ids = report.failed_ids
    reservoir: list[NoteSample] = []
    seen = 0
    current: list[Any] = []  # [spans, counted?] of the record being read

    def close() -> None:
        if current and current[1]:
            report.spans_per_note[current[0]] += 1

    for doc in source.documents():
        if "cell" in doc.metadata:
            if current:
                current[0] += per_doc.pop(doc.id, 0)
            continue
        close()
        report.documents += 1
        ok = doc.id not in failed_ids and not doc.metadata.get("read_error")
        current[:] = [per_doc.pop(doc.id, 0), ok]
        if not ok:
            continue
        note = NoteSample(int(doc.metadata.get("position", report.documents - 1)), doc.id, doc.text)
        seen += 1
        if len(reservoir) < sample:
            reservoir.append(note)
        else:
            j = rng.randrange(seen)
            if j < sample:
                reservoir[j] = note
    close()
    return sorted(reservoir, key=lambda s: s.position)


def _read_originals(input_path: Path, opts: InputOptions, wanted: dict[str, NoteSample]) -> None:
    """Fill in the original text of the sampled notes from the run's input, checking the spans fit."""
    src = opts.open(input_path)
    missing = dict(wanted)
    for doc in src.documents():
        note = missing.pop(doc.id, None)
        if note is None:
            continue
        if any(s["end"] > len(doc.text) for s in note.spans):
            raise ConfigError(
                f"document {doc.id} of {input_path} is shorter than the run's spans for it; "
                "is --input the input of this run?"
            )
        note.original = doc.text
        if not missing:
            break
    if missing:
        raise ConfigError(
            f"--input {input_path} has no document {next(iter(missing))}, which the run wrote; "
            "give the run's input (and the same --id-field / --text-field / --encoding-errors)"
        )


def _by_count(counts: Counter[str]) -> list[tuple[str, int]]:
    """``counts`` largest first, ties by name."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _family(source: str) -> str:
    """The kind of detector behind a span source: ``rule:date`` -> ``rules``."""
    head = source.split(":", 1)[0].split("|", 1)[0]
    return {"rule": "rules", "propagate": "propagation"}.get(head, head)


def _pane(title: str, text: str, marks: list[Mark], css: str) -> str:
    cut = len(text) > MAX_CHARS
    body = highlight(text, marks, 0, MAX_CHARS) or '<span class="muted">(empty)</span>'
    more = f'<div class="note">first {MAX_CHARS:,} of {len(text):,} characters</div>' if cut else ""
    return f'<div class="pane {css}"><div class="muted">{e(title)}</div><div class="text">{body}</div>{more}</div>'


def _sample_html(note: NoteSample) -> str:
    spans = sorted(note.spans, key=lambda s: (s["start"], s["end"]))
    out_marks = [
        Mark(s["out_start"], s["out_end"], s["label"], f"{s['label']} · {s['source']}")
        for s in spans
        if "out_start" in s and "out_end" in s and s["out_end"] <= len(note.redacted)
    ]
    panes = [_pane("redacted output", note.redacted, out_marks, "redacted")]
    if note.original is not None:
        orig_marks = [
            Mark(s["start"], s["end"], s["label"], f"{s['label']} · {s['source']} · {s['start']}-{s['end']}")
            for s in spans
        ]
        panes.insert(0, _pane("original text (--show-text)", note.original, orig_marks, "original"))
    rows = [(s["start"], s["end"], s["label"], s["source"]) for s in spans]
    span_table = (
        table(["start", "end", "label", "source"], rows, [True, True, False, False], "spans")
        if rows
        else '<p class="muted">no span in this note</p>'
    )
    return (
        f'<div class="doc" data-doc-id="{e(note.doc_id)}" data-spans="{len(spans)}">'
        f'<h3>{e(note.doc_id)} <span class="muted">position {note.position} · {len(spans)} spans</span></h3>'
        f'<div class="panes">{"".join(panes)}</div>'
        f"<details><summary>spans (offsets into the original text)</summary>{span_table}</details></div>"
    )


def render_run(report: RunReport, sample: int, seed: int) -> tuple[str, str, list[str]]:
    """The title, subtitle (HTML) and sections (HTML) of a redact run's report."""
    notes = sum(report.spans_per_note.values())
    mean = (sum(k * v for k, v in report.spans_per_note.items()) / notes) if notes else 0.0
    privacy = (
        '<section class="privacy shown" id="privacy"><b>This report shows original note text</b> '
        "(--show-text) of the sampled notes: it holds PHI; keep it where the notes are kept.</section>"
        if report.shown_text
        else '<section class="privacy" id="privacy">No original note text in this report: the sampled '
        "notes are shown as redacted (placeholders, masks or surrogates highlighted), spans as "
        "offsets and labels. <code>--show-text --input PATH</code> adds the original text.</section>"
    )
    cards = [
        ("documents", report.documents, ""),
        ("redacted", report.redacted, ""),
        ("failed", report.n_failed, "bad" if report.n_failed else ""),
        ("spans replaced", report.spans, ""),
        ("spans per note (mean)", f"{mean:.2f}", ""),
        ("warnings", sum(report.warnings.values()), "bad" if report.warnings else ""),
    ]
    summary = (
        '<section id="summary"><h2>Summary</h2><div class="cards">'
        + "".join(
            f'<div class="card {css}" data-key="{e(k)}" data-value="{e(v)}"><b>{e(v)}</b><span>{e(k)}</span></div>'
            for k, v, css in cards
        )
        + "</div>"
        + (
            f'<p class="warn">{report.orphan_spans} spans name documents that are not in the output '
            "(give the run's --id-field / --text-field); they are counted per label and source only.</p>"
            if report.orphan_spans
            else ""
        )
        + ("" if report.documents else '<p class="warn">This run has no documents.</p>')
        + "</section>"
    )
    by_label = _by_count(report.labels)
    families: Counter[str] = Counter()
    for src, n in report.sources.items():
        families[_family(src)] += n
    charts = (
        '<section id="charts"><h2>What was replaced</h2><div class="grid">'
        f'<div id="chart-labels"><h3>Spans per label</h3>'
        f"{bar_chart(by_label, 'Spans per label', colour, 'labels', 'no spans')}</div>"
        f'<div id="chart-sources"><h3>Spans per source</h3>'
        f"{bar_chart(_by_count(families), 'Spans per source', '#6b8fd6', 'sources', 'no spans')}"
        + table(["source", "spans"], _by_count(report.sources), [False, True])
        + "</div>"
        f'<div id="chart-histogram"><h3>Spans per note</h3>'
        f"{histogram(_bins(report.spans_per_note), 'Notes by number of spans', 'spans in a note', empty='no redacted notes')}"
        f'<p class="muted">{notes} redacted notes; spans in a record\'s other cells count with its note.</p></div>'
        "</div></section>"
    )
    sections = [privacy, summary, charts]
    if report.failed or report.warnings:
        parts = ['<section id="failures"><h2>Failures and warnings</h2>']
        if report.failed:
            parts.append(
                table(
                    ["stage", "error", "documents"],
                    [(s, err, n) for (s, err), n in sorted(report.failed_by_error.items())],
                    [False, False, True],
                    "failed-by-error",
                )
            )
            listed = report.failed
            parts.append(
                f"<h3>Failed documents (written empty, never in clear){' - first ' + str(len(listed)) if len(listed) < report.n_failed else ''}</h3>"
                + table(
                    ["id", "position", "stage", "error"],
                    [
                        (f["id"], "" if f["position"] is None else f["position"], f["stage"], f["error"])
                        for f in listed
                    ],
                    [False, True, False, False],
                    "failed",
                )
            )
        if report.warnings:
            parts.append(
                "<h3>Warnings (redacted with a caveat)</h3>"
                + table(["warning", "documents"], sorted(report.warnings.items()), [False, True], "warnings")
            )
        sections.append("".join(parts) + "</section>")
    labels_seen = {s["label"] for n in report.samples for s in n.spans}
    samples_html = (
        "".join(_sample_html(n) for n in report.samples) or '<p class="muted">no redacted notes</p>'
    )
    sections.append(
        f'<section id="samples"><h2>Sampled notes</h2><p class="muted">{len(report.samples)} of '
        f"{report.redacted} redacted notes, drawn uniformly with seed {seed} (--sample {sample} --seed {seed}), "
        f"in input order.</p>{legend(labels_seen)}{samples_html}</section>"
    )
    title = f"phiscrub redact run: {report.folder.name or report.folder}"
    subtitle = e(f"{report.folder} · output shape {report.shape}")
    return title, subtitle, sections
