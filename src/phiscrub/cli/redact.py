"""``phiscrub redact``: de-identify a file, a folder, a JSONL, CSV or Parquet file.

A run has two phases. At start-up every option, the input, the output folder and the model are
checked (the model is loaded) before anything is written; a problem there exits with
:data:`EXIT_USAGE`. The run then works in a hidden work folder, ``OUTDIR/.phiscrub-run``
(:mod:`phiscrub.io.manifest`): each batch's result is written there atomically and recorded in a
manifest, so ``--resume`` continues a run that was killed or stopped without redoing or
duplicating a document; the output files are assembled in the work folder and moved into OUTDIR
(``os.replace``, after ``fsync``) only once all of them are complete, so no output that looks
complete but is not is ever left in OUTDIR (:data:`EXIT_FATAL`). A document that cannot be read or
redacted is written empty, never in clear, and listed in ``OUTDIR/errors.jsonl``
(:data:`EXIT_DOC_ERRORS`).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click
from tqdm import tqdm
from typing_extensions import Self

from phiscrub.cli._common import (
    batch_size_option,
    guard_option,
    input_argument,
    labels_option,
    lexicon_option,
    model_option,
    output_option,
    policy_option,
    propagate_option,
    rules_lang_option,
    threshold_option,
)
from phiscrub.cli._secrets import key_file_option, key_option, read_secret
from phiscrub.deid import KEY_ENV_VAR, Deidentifier, Redaction, batched, resolve_key
from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError, PhiscrubError
from phiscrub.io.decoding import ENCODING_ERRORS
from phiscrub.io.manifest import (
    WORK_DIR_NAME,
    Manifest,
    Part,
    RunLock,
    fsync_dir,
    fsync_file,
    new_key_fields,
)
from phiscrub.progress import stage_bars

if TYPE_CHECKING:
    from phiscrub.io.shapes import Source

__all__ = [
    "ERRORS_NAME",
    "EXIT_DOC_ERRORS",
    "EXIT_FATAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "STANDOFF_NAME",
    "WARNINGS_NAME",
    "ErrorLog",
    "StandoffWriter",
    "redact",
]

log = logging.getLogger(__name__)

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

#: The standoff file of replaced spans in OUTDIR.
STANDOFF_NAME = "phi_spans.jsonl"
#: The list of failed documents in OUTDIR (id, stage, error code or type; never text).
ERRORS_NAME = "errors.jsonl"
#: Documents redacted with a caveat (recovered undecodable bytes, a repeated id); written when any.
WARNINGS_NAME = "warnings.jsonl"
#: Folder of the work folder where the output is assembled before it is moved into OUTDIR.
STAGING_NAME = "out"

_CODE_RE = re.compile(r"^[a-z][a-z0-9_]{0,40}$")

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


class _StartupError(click.ClickException):
    """A problem found before anything is written (exit :data:`EXIT_USAGE`)."""

    exit_code = EXIT_USAGE


class _FatalRunError(click.ClickException):
    """The run stopped part-way; its partial output was removed (exit :data:`EXIT_FATAL`)."""

    exit_code = EXIT_FATAL


@click.command(epilog=_EXIT_HELP)
@input_argument()
@output_option("out_dir", "Output folder (created if needed; must not be or hold the input).", folder=True)
@click.option(
    "--mode",
    type=click.Choice(["placeholder", "mask", "surrogate"]),
    default="placeholder",
    show_default=True,
)
@labels_option(
    "Label granularity of placeholders and of the standoff output; native: the corpus labels a "
    "--labels native model was trained on (docs/model.md).",
    native=True,
)
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
@click.option(
    "--encoding-errors",
    type=click.Choice(list(ENCODING_ERRORS)),
    default="fail",
    show_default=True,
    help="A document with bytes that are not text in its encoding: fail it (errors.jsonl), or redact it "
    f"with each bad byte as U+FFFD (replace) or its bytes read as Latin-1 (latin-1), listed in OUTDIR/{WARNINGS_NAME}.",
)
@model_option("Tagger model folder, or 'default' for the model bundled with phiscrub.")
@click.option("--rules-only", is_flag=True, help="Use the rule detectors only (no model, no lexicon).")
@lexicon_option("Add the lexicon detector (bundled name and city lists).")
@propagate_option()
@click.option("--resolve", "resolve_strategy", default="merge", show_default=True, help="Overlap strategy.")
@click.option("--keep-ages", is_flag=True, help="Keep ages over 89 (default: bucket them as 90+).")
@rules_lang_option(
    "Language of the rules: en, es, ca, de, fr, nl, zh, or auto (detected per document; "
    "other codes get the language-neutral rules only)."
)
@click.option("--audit-text", is_flag=True, help="Write the original PHI strings into the standoff file.")
@batch_size_option()
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=int,
    help="Worker processes for big inputs (each loads the model once); output identical to 1 worker.",
)
@policy_option()
@threshold_option()
@guard_option()
@click.option(
    "--resume",
    is_flag=True,
    help=f"Continue an interrupted run into the same OUTDIR from its manifest (OUTDIR/{WORK_DIR_NAME}); "
    "needs the same input, options and key. Without it, an interrupted run's work is discarded.",
)
def redact(
    input_path: Path,
    out_dir: Path,
    mode: str,
    labels: str,
    key: str | None,
    text_field: str,
    text_column: str,
    id_field: str | None,
    patient_field: str | None,
    keep_columns: tuple[str, ...],
    encoding: str,
    encoding_errors: str,
    model: str,
    rules_only: bool,
    lexicon: bool,
    propagate: bool,
    resolve_strategy: str,
    keep_ages: bool,
    lang: str,
    audit_text: bool,
    batch_size: int,
    workers: int,
    policy: str | None,
    threshold: float,
    guard: bool,
    resume: bool,
    key_file: Path | None = None,
    vault: Path | None = None,
) -> None:
    """De-identify INPUT (a .txt file, a folder of .txt, a JSONL, CSV or Parquet file) into OUTDIR.

    The output keeps the input's shape; OUTDIR/phi_spans.jsonl lists what was replaced (doc id,
    offsets into the original text, label, source) without the PHI strings unless --audit-text.
    OUTDIR/errors.jsonl lists the documents that failed (id, stage, error code; no text).
    """
    key = read_secret(key, key_file)
    if vault is not None and resolve_key(key) is None:
        raise _StartupError(f"--vault needs a secret to encrypt it: set ${KEY_ENV_VAR} or use --key-file")
    if key is not None and not key.strip():
        raise _StartupError(f"--key (or ${KEY_ENV_VAR}) is empty or blank; give a non-empty secret")
    if batch_size < 1:
        raise _StartupError("--batch-size must be at least 1")
    if workers < 1:
        raise _StartupError("--workers must be at least 1")
    if labels == "native":
        from phiscrub.cli.train import native_scheme_of_model

        labels = native_scheme_of_model(None if rules_only else model)
    keep = tuple(c for value in keep_columns for c in (s.strip() for s in value.split(",")) if c)
    source = _open_input(
        input_path, text_field, text_column, id_field, patient_field, keep, encoding, encoding_errors
    )
    _check_output(source, out_dir)
    try:
        deid = Deidentifier(
            mode=mode,  # type: ignore[arg-type]
            labels=labels,  # type: ignore[arg-type]
            key=key,
            model=None if rules_only else model,
            lexicon=lexicon and not rules_only,
            propagate=propagate,
            resolve=resolve_strategy,
            age_over_89="keep" if keep_ages else "bucket",
            lang=lang,
            policy=policy,
            threshold=threshold,
            guard=guard,
        ).load()
    except ModelError as exc:
        raise _StartupError(f"cannot load the model: {exc}") from None
    except PhiscrubError as exc:
        raise _StartupError(str(exc)) from None
    settings = {
        "mode": mode,
        "labels": labels,
        "text_field": text_field,
        "text_column": text_column,
        "id_field": id_field,
        "patient_field": patient_field,
        "keep_columns": list(keep),
        "encoding": encoding,
        "encoding_errors": encoding_errors,
        "model": None if rules_only else _model_fingerprint(model),
        "lexicon": lexicon and not rules_only,
        "propagate": propagate,
        "resolve": resolve_strategy,
        "keep_ages": keep_ages,
        "lang": lang,
        "audit_text": audit_text,
        "policy": policy,
        "threshold": threshold,
        "guard": guard,
    }
    work = out_dir / WORK_DIR_NAME
    lock = _lock_output(out_dir, work)
    try:
        secret = resolve_key(key)
        manifest = _open_manifest(work, _header(source, settings, batch_size), secret, resume)
        stats = _RunStats()
        try:
            _run(deid, source, work, manifest, audit_text, batch_size, stats, workers)
            if vault is not None and secret is not None:
                reopen = {k: settings[k] for k in _VAULT_SETTINGS}
                standoff = work / STAGING_NAME / STANDOFF_NAME
                stats.vaulted = _write_vault(vault, source, out_dir, standoff, secret, reopen)
            _commit(work / STAGING_NAME, out_dir)
        except BaseException as exc:
            kept = _after_stop(work, manifest)
            outcome = (
                f"no output file of this run was placed in {out_dir}; the {kept} documents done are kept "
                f"in {work}: rerun with --resume to continue"
                if kept
                else f"no file of this run was kept in {out_dir}"
            )
            if isinstance(exc, KeyboardInterrupt):
                click.echo(f"Interrupted after {stats.documents} documents: {outcome}", err=True)
                sys.exit(EXIT_INTERRUPTED)
            if not isinstance(exc, Exception):  # SystemExit, GeneratorExit: stop as asked
                raise
            raise _FatalRunError(
                f"the run stopped after {stats.documents} documents: "
                f"{_describe(exc, work / STAGING_NAME, out_dir)}; {outcome}"
            ) from exc
        manifest.close()
        shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()
    per_label = ", ".join(f"{k}={v}" for k, v in sorted(stats.spans.items())) or "none"
    click.echo(
        f"redacted {stats.documents - stats.failed} documents into {out_dir} "
        f"({stats.files} files); spans: {sum(stats.spans.values())} ({per_label}); errors: {stats.failed} "
        f"(unreadable: {stats.read_errors}, redaction failed: {stats.redact_errors})"
        + (f"; failed ids in {out_dir / ERRORS_NAME}" if stats.failed else "")
        + f"; input documents: {stats.documents} = {stats.documents - stats.failed} redacted "
        f"+ {stats.failed} failed"
        + (f"; {stats.resumed} of them resumed from an interrupted run" if stats.resumed else "")
        + (
            f"; warnings: {sum(stats.warnings.values())} ("
            + ", ".join(f"{k}={v}" for k, v in sorted(stats.warnings.items()))
            + f") in {out_dir / WARNINGS_NAME}"
            if stats.warnings
            else ""
        )
        + (f"; encrypted vault of {stats.vaulted} documents: {vault}" if vault is not None else ""),
        err=True,
    )
    if stats.failed:
        sys.exit(EXIT_DOC_ERRORS)


@dataclass
class _RunStats:
    """What a run did so far: documents seen, failures by stage, spans per label, files written."""

    documents: int = 0
    read_errors: int = 0
    redact_errors: int = 0
    spans: Counter[str] = field(default_factory=Counter)
    files: int = 0
    #: Documents taken from the batches an interrupted run had completed (``--resume``).
    resumed: int = 0
    #: Documents redacted with a caveat, by warning code (see :data:`WARNINGS_NAME`).
    warnings: Counter[str] = field(default_factory=Counter)
    #: Documents stored in the ``--vault`` (those with replaced spans).
    vaulted: int = 0

    @property
    def failed(self) -> int:
        """Documents written empty."""
        return self.read_errors + self.redact_errors

    def as_dict(self) -> dict[str, Any]:
        """The counts a batch part records (see :class:`~phiscrub.io.manifest.Part`)."""
        return {
            "documents": self.documents,
            "read_errors": self.read_errors,
            "redact_errors": self.redact_errors,
            "spans": dict(sorted(self.spans.items())),
            "warnings": dict(sorted(self.warnings.items())),
        }

    def add(self, counts: dict[str, Any]) -> None:
        """Add a batch's counts (:meth:`as_dict`)."""
        self.documents += int(counts.get("documents", 0))
        self.read_errors += int(counts.get("read_errors", 0))
        self.redact_errors += int(counts.get("redact_errors", 0))
        self.spans.update({str(k): int(v) for k, v in counts.get("spans", {}).items()})
        self.warnings.update({str(k): int(v) for k, v in counts.get("warnings", {}).items()})


def _open_input(
    input_path: Path,
    text_field: str,
    text_column: str,
    id_field: str | None,
    patient_field: str | None,
    keep_columns: tuple[str, ...] = (),
    encoding: str = "utf-8",
    encoding_errors: str = "fail",
) -> Source:
    """Open the input and list it (a folder's entries, a table's columns), or fail at start-up."""
    from phiscrub.io.shapes import open_source

    try:
        source = open_source(
            input_path,
            text_field=text_field,
            text_column=text_column,
            id_field=id_field,
            patient_field=patient_field,
            keep_columns=keep_columns,
            encoding=encoding,
            encoding_errors=encoding_errors,
        )
        _ = source.count  # lists a folder now: duplicate ids or an unlistable folder fail here
    except PhiscrubError as exc:
        raise _StartupError(str(exc)) from None
    except OSError as exc:
        raise _StartupError(f"cannot read {input_path}: {_os_error(exc)}") from None
    return source


def _check_output(source: Source, out_dir: Path) -> None:
    """Refuse an output folder that is a file, is or holds the input, or sits inside it.

    Raises:
        _StartupError: with what is wrong; nothing has been written.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise _StartupError(f"output {out_dir} exists and is not a folder")
    out = out_dir.resolve()
    src = source.path.resolve()
    if source.path.is_dir():
        if out == src:
            raise _StartupError(f"output folder {out_dir} is the input folder; choose another one")
        if src in out.parents:
            raise _StartupError(f"output folder {out_dir} is inside the input folder; choose another one")
        if out in src.parents:
            raise _StartupError(
                f"input folder {source.path} is inside the output folder {out_dir}; choose another one"
            )
        return
    target = source.output_path(out_dir)
    if target.name in (STANDOFF_NAME, ERRORS_NAME):
        raise _StartupError(
            f"the output {target} would clash with OUTDIR/{target.name}; rename the input file"
        )
    for path in (target, out_dir / STANDOFF_NAME, out_dir / ERRORS_NAME):
        if path.resolve() == src:
            raise _StartupError(f"output {path} would overwrite the input; choose another output folder")


def _lock_output(out_dir: Path, work: Path) -> RunLock:
    """Create OUTDIR (if needed) and lock its work folder for this run."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        lock = RunLock(work)
        lock.acquire()
    except ConfigError as exc:
        raise _StartupError(str(exc)) from None
    except OSError as exc:
        raise _StartupError(f"cannot create the output folder {out_dir}: {_os_error(exc)}") from None
    return lock


def _model_fingerprint(model: str) -> dict[str, Any]:
    """The model as a run depends on it: its path, and the names, sizes and times of its files."""
    from phiscrub.detect.tagger import bundled_model_path

    folder = bundled_model_path() if model == "default" else Path(model)
    if folder is None or not Path(folder).is_dir():
        return {"path": str(model)}
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    return {
        "path": str(Path(folder).resolve()),
        "files": [[p.relative_to(folder).as_posix(), p.stat().st_size, p.stat().st_mtime_ns] for p in files],
    }


def _input_fingerprint(source: Source) -> dict[str, Any]:
    """The input as a resume must find it again: its path and shape, and the name, size and
    modification time of each file (a folder's ``.txt`` entries, hashed)."""
    import hashlib

    from phiscrub.io.shapes import TextFolderSource
    from phiscrub.io.text import scan_text_entries

    path = source.path.resolve()
    if source.shape != "dir":
        st = path.stat()
        return {"path": str(path), "shape": source.shape, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    digest = hashlib.sha256()
    # The source's own listing (listing again would repeat its warnings).
    entries = source._list() if isinstance(source, TextFolderSource) else scan_text_entries(path)
    for e in entries:
        try:
            st = e.path.stat()
            mark = f"{st.st_size}:{st.st_mtime_ns}"
        except OSError:
            mark = e.problem or "unreadable"
        digest.update(f"{e.rel.as_posix()}\0{mark}\n".encode("utf-8", "surrogateescape"))
    return {"path": str(path), "shape": "dir", "entries": len(entries), "sha256": digest.hexdigest()}


def _header(source: Source, settings: dict[str, Any], batch_size: int) -> dict[str, Any]:
    """The manifest header of this run: what a resume must find unchanged."""
    from phiscrub import __version__

    return {
        "phiscrub": __version__,
        "batch_size": batch_size,
        "fingerprint": {"input": _input_fingerprint(source), **settings},
    }


def _open_manifest(work: Path, header: dict[str, Any], key: bytes | None, resume: bool) -> Manifest:
    """The manifest to run with: the interrupted run's (``--resume``, same settings), or a new one.

    Raises:
        _StartupError: ``--resume`` with an interrupted run of other settings, input or key.
    """
    found = Manifest.load(work)
    if found is not None and resume:
        differ = found.differences(header, key)
        if differ:
            raise _StartupError(
                f"cannot resume the interrupted run in {work}: it used another "
                + ", ".join(differ)
                + "; rerun with the same input and options, or without --resume to start over"
            )
        log.info("resuming: %d documents in %d batches were done", found.documents_done, len(found.batches))
        return found
    if found is not None:
        log.warning("discarding the work of an interrupted run in %s (use --resume to continue it)", work)
    elif resume:
        log.info("no interrupted run in %s: starting from the beginning", work)
    try:
        return Manifest.create(work, {**header, **new_key_fields(key)})
    except OSError as exc:
        raise _StartupError(f"cannot write into {work}: {_os_error(exc)}") from None


def _after_stop(work: Path, manifest: Manifest) -> int:
    """Clean up after a stopped run and return how many documents are kept for ``--resume``.

    The partly assembled output is removed; the batches done are kept (with the manifest) when
    there are any, else the whole work folder goes.
    """
    manifest.close()
    shutil.rmtree(work / STAGING_NAME, ignore_errors=True)
    if manifest.batches:
        return manifest.documents_done
    shutil.rmtree(work, ignore_errors=True)
    return 0


#: The options ``phiscrub reidentify`` needs to read the output again, stored in the vault.
_VAULT_SETTINGS = ("text_field", "text_column", "id_field", "patient_field", "keep_columns", "encoding")


def _write_vault(
    path: Path, source: Source, out_dir: Path, standoff: Path, secret: bytes, settings: dict[str, Any]
) -> int:
    """Write the ``--vault``: every replaced span's original string, from the run's standoff rows
    (original and output offsets) and a second read of the input; returns the documents stored."""
    from phiscrub.transform.vault import document_entry, write_vault

    rows: dict[str, list[dict[str, Any]]] = {}
    with standoff.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            rows.setdefault(str(row["doc_id"]), []).append(row)
    entries = (
        document_entry(doc, rows[doc.id])
        for doc in source.documents()
        if doc.id in rows and not doc.metadata.get("read_error")
    )
    output = source.output_path(out_dir)
    info = {"output": "." if source.path.is_dir() else output.name, "shape": source.shape, **settings}
    return write_vault(path, entries, secret, info)


def _run(
    deid: Deidentifier,
    source: Source,
    work: Path,
    manifest: Manifest,
    audit_text: bool,
    batch_size: int,
    stats: _RunStats,
    workers: int = 1,
) -> None:
    """Redact every document of ``source`` into ``work/out``, counting into ``stats`` as it goes.

    The batches the manifest lists as done are replayed from their parts; the others are redacted
    (in worker processes with ``workers`` > 1, :mod:`phiscrub.cli._parallel`, results in input
    order), each written as a part and recorded in the manifest before its documents are passed
    on. Both go through :func:`_emit`, so a resumed run writes the same bytes as an uninterrupted one.
    """
    from phiscrub.cli._parallel import map_batches

    staging = work / STAGING_NAME
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    total = source.count
    logs = {name: staging / name for name in (STANDOFF_NAME, ERRORS_NAME, WARNINGS_NAME)}
    handles: dict[str, IO[str]] = {name: path.open("w", encoding="utf-8") for name, path in logs.items()}
    try:

        def transformed() -> Iterator[Document]:
            bar = tqdm(desc="redact", unit="doc", total=total, file=sys.stderr, delay=1.0, dynamic_ncols=True)
            try:
                for part in manifest.parts():
                    stats.resumed += int(part.stats.get("documents", 0))
                    yield from _emit(part, stats, handles, bar)
                start = manifest.documents_done
                docs = islice(_mark_repeated_ids(source), start, None)
                tagged = (
                    (batch, [d for d in batch if not d.metadata.get("read_error")])
                    for batch in batched(docs, batch_size)
                )
                for batch, done in map_batches(deid, _redact_list, tagged, workers):
                    part = _part(batch, done, audit_text)
                    manifest.add(start, start + len(batch), part)
                    start += len(batch)
                    yield from _emit(part, stats, handles, bar)
            finally:
                bar.close()

        stats.files = len(source.write(staging, transformed()))
    finally:
        for fh in handles.values():
            fh.close()
    if not stats.warnings:
        (staging / WARNINGS_NAME).unlink()  # only written when a document has a caveat


def _part(
    batch: list[Document], done: list[tuple[Document, Redaction | None, str | None]], audit_text: bool
) -> Part:
    """The durable result of a batch: its documents (failed ones empty), run-log lines and counts."""
    results = iter(done)
    counts = _RunStats()
    docs: list[tuple[str, str]] = []
    standoff: list[str] = []
    errors: list[str] = []
    warnings: list[str] = []
    for original in batch:
        # A free-text cell of a record is redacted as its own document but counted (and shown in
        # the progress bar) as part of its record.
        if "cell" not in original.metadata:
            counts.documents += 1
            for code in _warnings_of(original):
                counts.warnings[code] += 1
                log.warning("document %s: %s", original.id, code)
                warnings.append(ErrorLog.line(original, "read", code, key="warning"))
        red: Redaction | None = None
        if original.metadata.get("read_error"):
            counts.read_errors += 1
            code = _code(original.metadata["read_error"])
            log.error("document %s cannot be read: %s", original.id, code)
            errors.append(ErrorLog.line(original, "read", code))
        else:
            _, red, error_type = next(results)
            if red is None:
                counts.redact_errors += 1
                errors.append(ErrorLog.line(original, "redact", error_type or "Exception"))
        if red is None:
            docs.append((original.id, ""))  # never fall back to the original text: written empty
        else:
            counts.spans.update(s.label for s in red.spans)
            standoff.extend(StandoffWriter.lines(red, audit_text))
            docs.append((red.result.id, red.result.text))
    logs = {STANDOFF_NAME: standoff, ERRORS_NAME: errors, WARNINGS_NAME: warnings}
    return Part(docs, logs, counts.as_dict())


def _warnings_of(doc: Document) -> list[str]:
    """The caveats of a document that is redacted: recovered bytes, a repeated id."""
    codes = []
    if doc.metadata.get("decode") and not doc.metadata.get("read_error"):
        codes.append(str(doc.metadata["decode"]))
    if doc.metadata.get("repeated_id"):
        codes.append("duplicate_id")
    return codes


class _SeenIds:
    """The ids seen so far, as 8-byte digests, in memory that does not grow with the input.

    Up to ``buffer`` digests live in a set; beyond that they spill to a temporary SQLite table (stdlib,
    primary-key index), so a 10-million-record input costs disk, not memory. The file holds digests
    only, never an id, and is deleted on close. Written here rather than with a Bloom filter because a
    false positive would flag a record that is not a duplicate.
    """

    def __init__(self, buffer: int = 200_000) -> None:
        self._buffer = buffer
        self._recent: set[int] = set()
        self._db: Any = None
        self._dir: Any = None

    @staticmethod
    def digest(doc_id: str) -> int:
        """The signed 64-bit digest of an id (fits SQLite's INTEGER)."""
        import hashlib

        raw = hashlib.blake2b(doc_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        return int.from_bytes(raw, "big", signed=True)

    def add(self, doc_id: str) -> bool:
        """Remember ``doc_id``; True when it was seen before."""
        d = self.digest(doc_id)
        if d in self._recent:
            return True
        if self._db is not None and self._db.execute("SELECT 1 FROM ids WHERE d = ?", (d,)).fetchone():
            return True
        self._recent.add(d)
        if len(self._recent) >= self._buffer:
            self._spill()
        return False

    def _spill(self) -> None:
        import sqlite3
        import tempfile

        if self._db is None:
            self._dir = tempfile.TemporaryDirectory(prefix="phiscrub-ids-")
            self._db = sqlite3.connect(Path(self._dir.name) / "ids.sqlite")
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            self._db.execute("CREATE TABLE ids (d INTEGER PRIMARY KEY) WITHOUT ROWID")
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO ids VALUES (?)", ((d,) for d in self._recent))
        self._recent.clear()

    def close(self) -> None:
        """Drop the spilled digests."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def _mark_repeated_ids(source: Source) -> Iterator[Document]:
    """``source``'s documents, a record whose id an earlier record had marked ``repeated_id``.

    Only sources whose ids are read from the input (``--id-field``) can repeat one; a folder's ids
    are checked when it is listed. Memory stays bounded: see :class:`_SeenIds`.
    """
    if getattr(source, "id_field", None) is None:
        yield from source.documents()
        return
    seen = _SeenIds()
    try:
        for doc in source.documents():
            if "cell" not in doc.metadata and not doc.metadata.get("read_error") and seen.add(doc.id):
                doc = Document(doc.id, doc.text, doc.spans, {**doc.metadata, "repeated_id": True})
            yield doc
    finally:
        seen.close()


def _emit(part: Part, stats: _RunStats, handles: dict[str, IO[str]], bar: Any) -> Iterator[Document]:
    """Count a part, write its run-log lines and yield its documents (for :meth:`Source.write`)."""
    stats.add(part.stats)
    for name, lines in part.logs.items():
        handles[name].writelines(lines)
    for doc_id, text in part.docs:
        yield Document(doc_id, text)
    bar.update(int(part.stats.get("documents", 0)))


def _commit(staging: Path, out_dir: Path) -> None:
    """Move every file of ``staging`` to the same relative path under ``out_dir``.

    Folders are created and clashes with existing folders are checked first, so that the renames,
    which need no new space on the same file system, are all that is left to fail.
    """
    files = sorted(p for p in staging.rglob("*") if p.is_file())
    for f in files:
        dest = out_dir / f.relative_to(staging)
        if dest.is_dir() and not dest.is_symlink():
            raise OSError(errno.EISDIR, "an output is an existing folder", str(f))
        dest.parent.mkdir(parents=True, exist_ok=True)
        fsync_file(f)  # the data is on disk before the rename makes it visible
    # Data first, the standoff and error lists last: they describe a complete output.
    last = [staging / STANDOFF_NAME, staging / WARNINGS_NAME, staging / ERRORS_NAME]
    for f in [f for f in files if f not in last] + [f for f in last if f.exists()]:
        os.replace(f, out_dir / f.relative_to(staging))
    for folder in sorted({(out_dir / f.relative_to(staging)).parent for f in files}):
        fsync_dir(folder)


def _os_error(exc: OSError) -> str:
    """An OSError as ``Name [ECODE] strerror`` (paths are added by the caller, never text)."""
    code = errno.errorcode.get(exc.errno or 0, "")
    return (
        f"{type(exc).__name__}"
        + (f" [{code}]" if code else "")
        + (f" {exc.strerror}" if exc.strerror else "")
    )


def _describe(exc: BaseException, staging: Path, out_dir: Path) -> str:
    """What stopped a run, without text: an OSError with the path concerned, a phiscrub error's
    message (ids, paths, line numbers), or the type of anything else (its message could hold text).
    """
    if isinstance(exc, OSError):
        if exc.filename is None:
            return f"{_os_error(exc)} while writing into {out_dir}"
        return f"{_os_error(exc)} at " + str(exc.filename).replace(str(staging), str(out_dir), 1)
    if isinstance(exc, PhiscrubError):
        return str(exc)
    return type(exc).__name__


def _code(value: Any) -> str:
    """A read-error marker as a short code; anything else (it could be a message) as ``read_error``."""
    return value if isinstance(value, str) and _CODE_RE.match(value) else "read_error"


def _redact_list(
    deid: Deidentifier, batch: list[Document]
) -> list[tuple[Document, Redaction | None, str | None]]:
    """:func:`_redact_batch` as a list (what a worker process sends back)."""
    with stage_bars(sys.stderr):  # progress inside notes of 1 MB and more
        return list(_redact_batch(deid, batch))


def _redact_batch(
    deid: Deidentifier, batch: list[Document]
) -> Iterator[tuple[Document, Redaction | None, str | None]]:
    """Redact a batch; on failure retry one by one so one bad note does not sink the batch.

    Yields:
        ``(document, redaction, None)``, or ``(document, None, exception type name)`` for a
        document that failed (any exception: a note is never passed through unredacted).
    """
    if not batch:
        return
    try:
        results = list(deid.redact_many(batch, batch_size=len(batch)))
    except Exception as exc:  # noqa: BLE001 - any failure: retry one by one, the type alone is logged
        log.warning("batch failed (%s); retrying documents one by one", type(exc).__name__)
    else:
        for doc, red in zip(batch, results):
            yield doc, red, None
        return
    for doc in batch:
        try:
            red = deid.redact_one(doc)
        except Exception as exc:  # noqa: BLE001 - whatever failed, the note is written empty, never in clear
            # Only the exception type: its message could, in a third-party library, hold text.
            log.error("document %s failed: %s", doc.id, type(exc).__name__)
            yield doc, None, type(exc).__name__
        else:
            yield doc, red, None


class _JsonLines:
    """A JSON-lines file written row by row inside a ``with`` block (base of the two run logs)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fh: IO[str] | None = None

    def __enter__(self) -> Self:
        self._fh = self.path.open("w", encoding="utf-8")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            self._fh.close()

    @staticmethod
    def _line(row: dict[str, object]) -> str:
        return json.dumps(row, ensure_ascii=False) + "\n"

    def _write_line(self, line: str) -> None:
        assert self._fh is not None, f"use {type(self).__name__} as a context manager"
        self._fh.write(line)


class StandoffWriter(_JsonLines):
    """Writes OUTDIR/phi_spans.jsonl: one line per replaced span, original offsets, no PHI text.

    The document is named ``doc_id``, as in every other standoff file of phiscrub
    (:func:`phiscrub.io.jsonl.write_standoff` writes ``{"doc_id", "start", "end", "label", ...}`` too).

    With ``audit_text=True`` the original string is added under ``"text"`` (the user asked for it).
    """

    def __init__(self, path: Path, audit_text: bool = False) -> None:
        super().__init__(path)
        self.audit_text = audit_text

    @classmethod
    def lines(cls, red: Redaction, audit_text: bool = False) -> list[str]:
        """The lines of ``red``'s spans (what :meth:`write` writes)."""
        out_lines = []
        for span, out in zip(red.spans, red.result.spans):
            row: dict[str, object] = {
                "doc_id": red.original.id,
                "start": span.start,
                "end": span.end,
                "label": span.label,
                "source": span.source,
                "out_start": out.start,
                "out_end": out.end,
            }
            if audit_text:
                row["text"] = red.original.text[span.start : span.end]
            out_lines.append(cls._line(row))
        return out_lines

    def write(self, red: Redaction) -> None:
        """Write the lines of ``red``'s spans."""
        for line in self.lines(red, self.audit_text):
            self._write_line(line)


class ErrorLog(_JsonLines):
    """Writes OUTDIR/errors.jsonl: one line per failed document, never its text.

    Each line is ``{"id": ..., "position": ..., "stage": "read" | "redact", "error": ...}``, where
    ``error`` is a read-error code (``decode_error``, ``dangling_symlink``, ...) or the type of the
    exception that stopped the redaction (``ModelError``, ...). ``position`` is the 0-based place of
    the document in the input, when the source records it.
    """

    @classmethod
    def line(cls, doc: Document, stage: str, error: str, key: str = "error") -> str:
        """The line recording that ``doc`` failed at ``stage`` with ``error`` (under ``key``:
        ``warning`` for a line of warnings.jsonl)."""
        row: dict[str, object] = {"id": doc.id}
        if isinstance(doc.metadata.get("position"), int):
            row["position"] = doc.metadata["position"]
        row.update({"stage": stage, key: error})
        return cls._line(row)

    def write(self, doc: Document, stage: str, error: str) -> None:
        """Record that ``doc`` failed at ``stage`` with ``error`` (a code or an exception type)."""
        self._write_line(self.line(doc, stage, error))
