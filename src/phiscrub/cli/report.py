"""``phiscrub report``: one self-contained HTML report of a redact run or an evaluation."""

from __future__ import annotations

from pathlib import Path

import click

from phiscrub.cli._common import choice_option, output_option
from phiscrub.errors import PhiscrubError
from phiscrub.io.decoding import ENCODING_ERRORS

__all__ = ["report_cmd"]

#: A folder that is neither kind, an unreadable file in it, or options that do not fit.
EXIT_USAGE = 2


class _ReportError(click.ClickException):
    """Nothing was written (exit :data:`EXIT_USAGE`); the message names paths, ids and lines only."""

    exit_code = EXIT_USAGE


@click.command("report")
@click.argument("folder", type=click.Path(path_type=Path), metavar="RUN_DIR|EVAL_DIR")
@output_option("out", "The HTML file to write (one self-contained file).")
@click.option(
    "--show-text",
    is_flag=True,
    help="Show original note text: a redact run's sampled notes (needs --input, the run's input) or "
    "the context of an evaluation's errors. The report then holds PHI (written with mode 0600).",
)
@click.option(
    "--input",
    "input_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Redact run: its input, for --show-text. Evaluation: the gold corpus, for context (default: "
    "the gold path the evaluation recorded).",
)
@click.option("--input-format", default=None, help="Evaluation: format of --input (default: guess).")
@click.option("--sample", default=10, show_default=True, type=click.IntRange(min=0),
              help="Notes (redact) or documents with errors (evaluation) to show.")  # fmt: skip
@click.option("--seed", default=0, show_default=True, type=int, help="Sampling seed.")
@click.option("--text-field", default="text", show_default=True, help="Redact run: its --text-field (JSONL).")
@click.option("--text-column", default="text", show_default=True, help="Redact run: its --text-column.")
@click.option("--id-field", default=None, help="Redact run: its --id-field.")
@click.option("--encoding", default="utf-8", show_default=True, help="Redact run: its --encoding (CSV/TSV).")
@choice_option("--encoding-errors", choices=ENCODING_ERRORS, default="fail",
               help="Redact run: its --encoding-errors (how --input is read again for --show-text).")  # fmt: skip
def report_cmd(
    folder: Path,
    out: Path,
    show_text: bool,
    input_path: Path | None,
    input_format: str | None,
    sample: int,
    seed: int,
    text_field: str,
    text_column: str,
    id_field: str | None,
    encoding: str,
    encoding_errors: str,
) -> None:
    """Write an HTML report of RUN_DIR (a `phiscrub redact` OUTDIR) or EVAL_DIR (a `phiscrub
    evaluate --out-dir` folder).

    A redact run: spans per label and per source, a histogram of spans per note, failures, and a
    seeded sample of notes with their spans highlighted (the redacted output; the original text only
    with --show-text --input PATH). An evaluation: per-label P/R/F1 charts and a seeded sample of
    documents with their false negatives and false positives in context (PHI replaced by
    [LABEL] unless --show-text). Exit status 2, nothing written: a folder that is neither kind, or a
    file in it that does not parse.
    """
    from phiscrub.io.shapes import InputOptions
    from phiscrub.report import ReportRequest, write_html

    opts = InputOptions(
        text_field=text_field,
        text_column=text_column,
        id_field=id_field,
        encoding=encoding,
        encoding_errors=encoding_errors,
    )
    request = ReportRequest(sample, seed, show_text, input_path, input_format, opts)
    try:
        built = write_html(folder, out, request)
    except PhiscrubError as exc:
        raise _ReportError(str(exc)) from None
    except OSError as exc:
        # The path and the OS reason only: an OSError carries no note text.
        raise _ReportError(
            f"cannot read or write {exc.filename or folder}: {exc.strerror or type(exc).__name__}"
        ) from None
    click.echo(
        f"report written to {out} ({built.summary}; original text "
        + ("shown: the file holds PHI" if built.shows_text else "not shown")
        + ")",
        err=True,
    )
