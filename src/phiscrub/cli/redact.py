"""``phiscrub redact``: de-identify a file, a folder, a JSONL, CSV or Parquet file.

The command parses its options into a :class:`~phiscrub.runs.redact.RedactJob` and runs it with
:func:`~phiscrub.runs.redact.run_redact` (start-up checks, manifest and ``--resume``, atomic output:
see that module), then maps the outcome to an exit status and prints the summary line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from phiscrub.cli._common import batch_size_option, choice_option, input_argument, output_option
from phiscrub.cli._engine import engine_options
from phiscrub.cli._options import Opt, options
from phiscrub.cli._secrets import key_file_option, key_option, read_secret
from phiscrub.engine_config import DeidConfig
from phiscrub.io.decoding import ENCODING_ERRORS
from phiscrub.keys import KEY_ENV_VAR
from phiscrub.runs.batches import ERRORS_NAME, STANDOFF_NAME, WARNINGS_NAME
from phiscrub.runs.manifest import WORK_DIR_NAME
from phiscrub.runs.redact import (
    InputOptions,
    RedactJob,
    RunInterrupted,
    RunStartupError,
    RunStoppedError,
    run_redact,
)

__all__ = [
    "ERRORS_NAME",
    "EXIT_DOC_ERRORS",
    "EXIT_FATAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "STANDOFF_NAME",
    "WARNINGS_NAME",
    "redact",
]

#: Every document was redacted.
EXIT_OK = 0
#: Some documents failed (each written empty and listed in ``errors.jsonl``); the rest were written.
EXIT_DOC_ERRORS = 1
#: A usage or start-up error (options, input, output folder, model): nothing was written.
EXIT_USAGE = 2
#: The run stopped part-way (an I/O error such as a full disk): no output file of this run was
#: placed in OUTDIR; the batches completed are kept for ``--resume``.
EXIT_FATAL = 3
#: Stopped by Ctrl-C (SIGINT), as shells report it; the batches completed are kept for ``--resume``.
EXIT_INTERRUPTED = 130

_EXIT_HELP = f"""\b
Exit status:
  {EXIT_OK}  every document redacted
  {EXIT_DOC_ERRORS}  some documents failed: each is written empty (never in clear) and listed
     in OUTDIR/{ERRORS_NAME}; the others are written
  {EXIT_USAGE}  usage or start-up error (options, input, output folder, model); nothing written
  {EXIT_FATAL}  the run stopped part-way (e.g. disk full); no output file of this run is placed
     in OUTDIR; completed batches are kept in OUTDIR/{WORK_DIR_NAME} for --resume
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C); as for {EXIT_FATAL}
"""


#: --workers, --rename-outputs and --rename-map (fields of RedactJob of the same names).
_RUN_OPTIONS = (
    Opt(
        "--workers",
        int,
        1,
        "Worker processes for big inputs (each loads the model once); output identical to 1 worker.",
    ),
    Opt(
        "--rename-outputs",
        click.Choice(["positional", "hash"]),
        None,
        "Name outputs and document ids without the input's file and folder names (which may hold "
        "PHI): positional (000001.txt, ...) or hash (keyed HMAC of the input path; needs a secret).",
    ),
    Opt(
        "--rename-map",
        click.Path(dir_okay=False, path_type=Path),
        None,
        "With --rename-outputs: also write the new name -> input name map here (mode 0600; it "
        "links the output to the input's names). Written only when asked.",
    ),
)


def _native_labels(given: dict[str, Any]) -> dict[str, Any]:
    """``--labels native``: the corpus-native scheme the ``--model`` was trained on."""
    if given.get("labels") == "native":
        from phiscrub.cli.train import native_scheme_of_model

        model = None if given.get("rules_only") else given.get("model")
        given = {**given, "labels": native_scheme_of_model(model)}
    return given


class _StartupError(click.ClickException):
    """A problem found before anything is written (exit :data:`EXIT_USAGE`)."""

    exit_code = EXIT_USAGE


class _FatalRunError(click.ClickException):
    """The run stopped part-way; its partial output was removed (exit :data:`EXIT_FATAL`)."""

    exit_code = EXIT_FATAL


@click.command(epilog=_EXIT_HELP)
@input_argument()
@output_option("out_dir", "Output folder (created if needed; must not be or hold the input).", folder=True)
@key_option(
    f"Surrogate and vault secret (or ${KEY_ENV_VAR}; --key-file is safer: a typed --key shows in ps)."
)
@key_file_option()
@click.option(
    "--vault",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write an encrypted mapping vault (original strings per document and span; AES-GCM, key "
    "derived from the secret) for `phiscrub reidentify`. Written only when asked; needs a secret.",
)
@click.option("--text-field", default="text", show_default=True, help="JSONL field holding the note.")
@click.option("--text-column", default="text", show_default=True, help="CSV/Parquet column holding the note.")
@click.option(
    "--id-field", default=None, help="JSONL field / column with the document id (default: position)."
)
@click.option("--patient-field", default=None, help="Field / column grouping notes of one patient.")
@click.option(
    "--keep-columns",
    "keep_columns",
    multiple=True,
    metavar="COL[,COL...]",
    help="JSONL keys / CSV, Parquet columns copied as read. Every other value besides the text and "
    "the --id-field is redacted (Parquet columns that are not strings are nulled).",
)
@click.option(
    "--encoding",
    default="utf-8",
    show_default=True,
    help="Character encoding of CSV/TSV input (e.g. latin-1); the output is written in the same encoding.",
)
@choice_option(
    "--encoding-errors",
    choices=ENCODING_ERRORS,
    default="fail",
    help="A document with bytes that are not text in its encoding: fail it (errors.jsonl), or redact it "
    f"with each bad byte as U+FFFD (replace) or its bytes read as Latin-1 (latin-1), listed in OUTDIR/{WARNINGS_NAME}.",
)
@engine_options(
    helps={
        "labels": "Label granularity of placeholders and of the standoff output; native: the corpus "
        "labels a --labels native model was trained on (docs/model.md).",
        "lang": "Language of the notes: en, es, ca, de, fr, nl, nb, nn, da, sv, zh (other codes get the "
        "language-neutral rules only), auto (per document: its lang metadata, else detected) or default "
        "(per document: English unless clearly another language, then as auto; the bundled English "
        "model runs on English notes only unless --model bundled).",
    },
    choices={"labels": [*(DeidConfig.flags()["labels"].choices or ()), "native"]},
    resolve=_native_labels,
)
@click.option("--audit-text", is_flag=True, help="Write the original PHI strings into the standoff file.")
@batch_size_option()
@options(*_RUN_OPTIONS)
@click.option(
    "--resume",
    is_flag=True,
    help=f"Continue an interrupted run into the same OUTDIR from its manifest (OUTDIR/{WORK_DIR_NAME}); "
    "needs the same input, options and key. Without it, an interrupted run's work is discarded.",
)
def redact(
    input_path: Path,
    out_dir: Path,
    key: str | None,
    text_field: str,
    text_column: str,
    id_field: str | None,
    patient_field: str | None,
    keep_columns: tuple[str, ...],
    encoding: str,
    encoding_errors: str,
    config: DeidConfig,
    key_file: Path | None = None,
    **run: Any,
) -> None:
    """De-identify INPUT (a .txt file, a folder of .txt, a JSONL, CSV or Parquet file) into OUTDIR.

    The output keeps the input's shape; OUTDIR/phi_spans.jsonl lists what was replaced (doc id,
    offsets into the original text, label, source) without the PHI strings unless --audit-text.
    OUTDIR/errors.jsonl lists the documents that failed (id, stage, error code; no text).
    """
    # run: --audit-text, --batch-size, --workers, --resume, --vault, --rename-outputs, --rename-map,
    # passed to RedactJob under their names
    if config.registry is not None and patient_field is None:
        click.echo("warning: --registry without --patient-field finds registry full names only", err=True)
    keep = tuple(c for value in keep_columns for c in (s.strip() for s in value.split(",")) if c)
    inputs = InputOptions(text_field, text_column, id_field, patient_field, keep, encoding, encoding_errors)
    secret = read_secret(key, key_file)
    job = RedactJob(input_path, out_dir, inputs, config, secret, **run)
    try:
        stats = run_redact(job)
    except RunStartupError as exc:
        raise _StartupError(str(exc)) from None
    except RunStoppedError as exc:
        raise _FatalRunError(str(exc)) from exc
    except RunInterrupted as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(stats.summary(out_dir, job.vault), err=True)
    if stats.failed:
        sys.exit(EXIT_DOC_ERRORS)
