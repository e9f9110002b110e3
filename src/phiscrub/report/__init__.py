"""Self-contained HTML reports of a ``phiscrub redact`` run or an evaluation (``phiscrub report``).

One HTML file: inline CSS, inline SVG charts, no script and no external resource (a
Content-Security-Policy forbids every fetch). Original note text appears only when asked for
(``show_text``); otherwise a redact run is shown as its redacted output and an evaluation's
errors with placeholders in their context. Not to be confused with
:mod:`phiscrub.evaluate.report`, the Markdown/JSON tables of ``phiscrub evaluate``.

Example:
    >>> from pathlib import Path
    >>> from phiscrub.report import write_html
    >>> write_html(Path("out"), Path("report.html"))  # doctest: +SKIP
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from phiscrub.errors import InputFormatError
from phiscrub.io.shapes import InputOptions
from phiscrub.report.evaluation import EvalReport, is_evaluation, load_evaluation, render_evaluation
from phiscrub.report.html import e, page
from phiscrub.report.run import ReadOptions, RunReport, is_run, load_run, render_run
from phiscrub.runs.manifest import WORK_DIR_NAME

__all__ = ["BuiltReport", "ReadOptions", "ReportRequest", "build_report", "detect_kind", "write_html"]


@dataclass(frozen=True)
class BuiltReport:
    """A rendered report: its kind (``redact`` or ``evaluation``), the HTML, and a one-line summary
    (counts only) for the command line."""

    kind: str
    html: str
    summary: str
    shows_text: bool


def detect_kind(folder: Path) -> str:
    """``redact`` for a redact OUTDIR, ``evaluation`` for an ``evaluate --out-dir`` folder.

    Raises:
        InputFormatError: ``folder`` is neither (the message names the folder and what was looked for).
    """
    if not folder.is_dir():
        raise InputFormatError(
            f"{folder} is not a folder: give a `phiscrub redact` output folder or a "
            "`phiscrub evaluate --out-dir` folder"
        )
    if is_run(folder):
        return "redact"
    if is_evaluation(folder):
        return "evaluation"
    if (folder / WORK_DIR_NAME).is_dir():
        raise InputFormatError(
            f"{folder} holds an unfinished `phiscrub redact` run ({WORK_DIR_NAME}, no phi_spans.jsonl yet): "
            "finish it with `phiscrub redact ... --resume`, then report on it"
        )
    raise InputFormatError(
        f"{folder} is neither a `phiscrub redact` output folder (phi_spans.jsonl and errors.jsonl) "
        "nor an evaluation folder of `phiscrub evaluate --out-dir` (evaluation.json)"
    )


@dataclass(frozen=True)
class ReportRequest:
    """What a report shows.

    Args:
        sample: notes (redact) or documents with errors (evaluation) to show, drawn with ``seed``.
        seed: the sampling seed: the same folder, sample and seed give the same report.
        show_text: show original note text (redact: needs ``input_path``, the run's input).
        input_path: redact: the run's input; evaluation: the gold corpus (default: the recorded path).
        input_format: evaluation only: the format of ``input_path`` (default: guessed).
        opts: redact only: how the run read its input (``--text-field``, ``--id-field``, ...), the
            :class:`~phiscrub.io.shapes.InputOptions` that ``redact`` takes.
    """

    sample: int = 10
    seed: int = 0
    show_text: bool = False
    input_path: Path | None = None
    input_format: str | None = None
    opts: InputOptions | None = None


def build_report(folder: Path, request: ReportRequest | None = None) -> BuiltReport:
    """Render the report of ``folder`` (a redact OUTDIR or an evaluation folder, see
    :func:`detect_kind`) as ``request`` asks (default: :class:`ReportRequest`'s defaults).

    Raises:
        InputFormatError: not a report folder, or a file in it that does not parse.
        ConfigError: ``show_text`` without the text, or an input that does not match.
    """
    from phiscrub import __version__

    req = request or ReportRequest()
    if req.sample < 0:
        raise InputFormatError("--sample must be 0 or more")
    kind = detect_kind(folder)
    report: RunReport | EvalReport
    if kind == "redact":
        report = load_run(folder, req.sample, req.seed, req.opts, req.show_text, req.input_path)
        title, subtitle, sections = render_run(report, req.sample, req.seed)
    else:
        report = load_evaluation(
            folder, req.sample, req.seed, req.show_text, req.input_path, req.input_format
        )
        title, subtitle, sections = render_evaluation(report, req.sample, req.seed)
    footer = e(
        f"phiscrub {__version__} report · --sample {req.sample} --seed {req.seed}"
        + (" --show-text" if report.shown_text else "")
        + " · self-contained: no script, no external resource"
    )
    return BuiltReport(kind, page(title, subtitle, sections, footer), report.summary(), report.shown_text)


def write_html(folder: Path, out: Path, request: ReportRequest | None = None) -> BuiltReport:
    """:func:`build_report` written to ``out`` atomically; a report with note text is made readable
    by its owner only (mode 0600)."""
    built = build_report(folder, request)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(built.html)
        os.chmod(tmp, 0o600 if built.shows_text else 0o644)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return built
