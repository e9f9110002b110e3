"""A ``phiscrub redact`` run: de-identify a file, a folder, a JSONL, CSV or Parquet file into OUTDIR.

A run has two phases. At start-up every option, the input, the output folder and the model are
checked (the model is loaded) before anything is written; a problem there raises
:class:`RunStartupError`. The run then works in a hidden work folder, ``OUTDIR/.phiscrub-run``
(:mod:`phiscrub.runs.manifest`): each batch's result is written there atomically and recorded in a
manifest, so ``resume`` continues a run that was killed or stopped without redoing or duplicating a
document; the output files are assembled in the work folder and moved into OUTDIR (``os.replace``,
after ``fsync``) only once all of them are complete, as one unit (:mod:`phiscrub.runs.placing`: a
failed rename puts OUTDIR back as it was, or says exactly what it holds), so no output that looks
complete but is not is ever left in OUTDIR (:class:`RunStoppedError`, :class:`RunInterrupted`). A
document that cannot be read or redacted is written empty, never in clear, and listed in
``OUTDIR/errors.jsonl``.

:func:`run_redact` is the whole run; ``phiscrub redact`` (:mod:`phiscrub.cli.redact`) parses its
options into a :class:`RedactJob` and maps the outcome to exit codes.
"""

from __future__ import annotations

import errno
import json
import logging
import shutil
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from phiscrub.deid import Deidentifier, batched
from phiscrub.document import Document
from phiscrub.engine_config import DeidConfig
from phiscrub.errors import ConfigError, ModelError, PhiscrubError
from phiscrub.io.private import make_private_dir, open_private
from phiscrub.io.rename import OutputNamer, RenamedSource, write_rename_map
from phiscrub.io.shapes import InputOptions
from phiscrub.io.source import Source
from phiscrub.keys import KEY_ENV_VAR, check_secret, resolve_key
from phiscrub.runs.batches import (
    ERRORS_NAME,
    STANDOFF_NAME,
    WARNINGS_NAME,
    RunStats,
    make_part,
    mark_repeated_ids,
    redact_list,
)
from phiscrub.runs.manifest import WORK_DIR_NAME, Manifest, Part, RunLock, new_key_fields
from phiscrub.runs.placing import PLACING_DIR, PlacingError, place_output

__all__ = [
    "STAGING_NAME",
    "InputOptions",
    "RedactJob",
    "RunInterrupted",
    "RunStartupError",
    "RunStoppedError",
    "run_redact",
]

log = logging.getLogger(__name__)

#: Folder of the work folder where the output is assembled before it is moved into OUTDIR.
STAGING_NAME = "out"


class RunStartupError(PhiscrubError):
    """A problem found before anything is written (options, input, output folder, model)."""


class RunStoppedError(PhiscrubError):
    """The run stopped part-way (e.g. a full disk); no output file of it was placed in OUTDIR."""


class RunInterrupted(PhiscrubError):
    """The run was interrupted (Ctrl-C); the batches done are kept for ``resume``."""


@dataclass(frozen=True)
class RedactJob:
    """Everything a redaction run depends on.

    Args:
        input_path: a ``.txt`` file, a folder of ``.txt``, a JSONL, CSV/TSV or Parquet file.
        out_dir: the output folder (created; must not be or hold the input).
        inputs: how the input is read.
        config: the engine options (:class:`~phiscrub.engine_config.DeidConfig`).
        key: surrogate and vault secret (None: ``$PHISCRUB_KEY``).
        audit_text: write the original PHI strings into ``phi_spans.jsonl``.
        batch_size: documents per detection batch.
        workers: worker processes.
        resume: continue an interrupted run into the same OUTDIR.
        vault: also write an encrypted mapping vault here (needs a secret).
        rename_outputs: ``positional`` or ``hash``: output names and ids that do not repeat the
            input's names (:mod:`phiscrub.io.rename`); None keeps them (a ``path_phi`` warning
            when they look like PHI).
        rename_map: write the new name -> input name map here (0600), only when asked.
    """

    input_path: Path
    out_dir: Path
    inputs: InputOptions = field(default_factory=InputOptions)
    config: DeidConfig = field(default_factory=DeidConfig)
    key: str | None = field(default=None, repr=False)
    audit_text: bool = False
    batch_size: int = 16
    workers: int = 1
    resume: bool = False
    vault: Path | None = None
    rename_outputs: str | None = None
    rename_map: Path | None = None

    @property
    def secret(self) -> bytes | None:
        """The run's secret (:attr:`key`, else ``$PHISCRUB_KEY``; :func:`phiscrub.keys.resolve_key`)."""
        return resolve_key(self.key)

    def check(self) -> None:
        """Refuse options that cannot run.

        Raises:
            RunStartupError: a vault without a secret, a blank key, a batch size or worker count under 1.
        """
        if self.vault is not None and self.secret is None:
            raise RunStartupError(
                f"--vault needs a secret to encrypt it: set ${KEY_ENV_VAR} or use --key-file"
            )
        try:
            check_secret(self.secret, self.config.mode)
        except ConfigError as exc:
            raise RunStartupError(str(exc)) from None
        if self.batch_size < 1:
            raise RunStartupError("--batch-size must be at least 1")
        if self.workers < 1:
            raise RunStartupError("--workers must be at least 1")
        if self.rename_map is not None and self.rename_outputs is None:
            raise RunStartupError("--rename-map needs --rename-outputs")

    def deidentifier(self) -> Deidentifier:
        """The loaded de-identifier of this job.

        Raises:
            RunStartupError: an invalid option, or a model that does not load.
        """
        try:
            return Deidentifier.from_config(self.config, key=self.key).load()
        except ModelError as exc:
            raise RunStartupError(f"cannot load the model: {exc}") from None
        except PhiscrubError as exc:
            raise RunStartupError(str(exc)) from None

    def settings(self) -> dict[str, Any]:
        """The options a ``resume`` must find unchanged (the manifest's fingerprint): the input
        options, every field of :attr:`config` (the model as its files, the site files as digests
        of their content, the plugins as their names) and the run's own output options."""
        return {
            **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self.inputs).items()},
            **_engine_fingerprint(self.config),
            "audit_text": self.audit_text,
            # Only when given, so that the manifests of runs without it are unchanged.
            **({"rename_outputs": self.rename_outputs} if self.rename_outputs else {}),
        }


def run_redact(job: RedactJob) -> RunStats:
    """Run ``job``: check it, redact every document into the work folder, then move the output
    into ``job.out_dir``.

    Returns:
        What the run did (documents, failures, spans per label, files).

    Raises:
        RunStartupError: nothing was written (options, input, output folder, model).
        RunStoppedError: the run stopped part-way; the batches done are kept for ``resume``.
        RunInterrupted: Ctrl-C; as for RunStoppedError.
    """
    job.check()
    source = _rename(_open_input(job.input_path, job.inputs), job)
    _check_output(source, job.out_dir)
    deid = job.deidentifier()
    if job.rename_outputs is None:
        _warn_path_phi(deid, source)
    work = job.out_dir / WORK_DIR_NAME
    lock = _lock_output(job.out_dir, work, private=job.audit_text)
    try:
        secret = job.secret
        manifest = _open_manifest(work, _header(source, job.settings(), job.batch_size), secret, job.resume)
        stats = RunStats()
        try:
            _run(deid, source, work, manifest, job.audit_text, job.batch_size, stats, job.workers)
            if job.vault is not None and secret is not None:
                reopen = {k: job.settings()[k] for k in _VAULT_SETTINGS}
                standoff = work / STAGING_NAME / STANDOFF_NAME
                stats.vaulted = _write_vault(job.vault, source, job.out_dir, standoff, secret, reopen)
            _commit(work / STAGING_NAME, job.out_dir)
            if job.rename_map is not None and isinstance(source, RenamedSource):
                write_rename_map(job.rename_map, source.names())
        except BaseException as exc:
            stop = _stopped(exc, work, manifest, stats, job.out_dir)
            if stop is None:  # SystemExit, GeneratorExit: stop as asked
                raise
            raise stop from (None if isinstance(stop, RunInterrupted) else exc)
        manifest.close()
        shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()
    return stats


def _stopped(
    exc: BaseException, work: Path, manifest: Manifest, stats: RunStats, out_dir: Path
) -> PhiscrubError | None:
    """Clean up after ``exc`` stopped the run; the error to raise instead (None: raise ``exc``)."""
    kept = _after_stop(work, manifest)
    # Every record kept was seen; a Ctrl-C between recording a batch and counting it leaves the
    # count one batch short.
    seen = max(stats.documents, kept)
    if isinstance(exc, PlacingError):  # it says what OUTDIR holds; the parts are kept as usual
        again = f"; the {kept} documents done are kept in {work}: rerun with --resume to place them again"
        return RunStoppedError(f"the run stopped after {seen} documents: {exc}" + (again if kept else ""))
    outcome = (
        f"no output file of this run was placed in {out_dir}; the {kept} documents done are kept "
        f"in {work}: rerun with --resume to continue"
        if kept
        else f"no file of this run was kept in {out_dir}"
    )
    if isinstance(exc, KeyboardInterrupt):
        return RunInterrupted(f"Interrupted after {seen} documents: {outcome}")
    if not isinstance(exc, Exception):
        return None
    return RunStoppedError(
        f"the run stopped after {seen} documents: {_describe(exc, work / STAGING_NAME, out_dir)}; {outcome}"
    )


def _open_input(input_path: Path, opts: InputOptions) -> Source:
    """Open the input and list it (a folder's entries, a table's columns), or fail at start-up."""
    try:
        source = opts.open(input_path)
        _ = source.count  # lists a folder now: duplicate ids or an unlistable folder fail here
    except PhiscrubError as exc:
        raise RunStartupError(str(exc)) from None
    except OSError as exc:
        raise RunStartupError(f"cannot read {input_path}: {_os_error(exc)}") from None
    return source


def _rename(source: Source, job: RedactJob) -> Source:
    """``source`` with new output names under ``--rename-outputs`` (else as it is)."""
    if job.rename_outputs is None:
        return source
    try:
        return RenamedSource(source, OutputNamer(job.rename_outputs, job.secret))
    except ConfigError as exc:
        raise RunStartupError(str(exc)) from None


def _warn_path_phi(deid: Deidentifier, source: Source) -> None:
    """Warn (a code and a count, never a name) when input names that become output names look like PHI."""
    from phiscrub.runs.path_names import PATH_PHI_CODE, path_components, phi_path_components

    found = phi_path_components(deid, path_components(source))
    if found:
        log.warning(
            "[%s] %d input file or folder names look like PHI; they become output paths and "
            "document ids (phi_spans.jsonl, errors.jsonl): use --rename-outputs",
            PATH_PHI_CODE,
            found,
        )


def _check_output(source: Source, out_dir: Path) -> None:
    """Refuse an output folder that is a file, is or holds the input, or sits inside it.

    Raises:
        RunStartupError: with what is wrong; nothing has been written.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise RunStartupError(f"output {out_dir} exists and is not a folder")
    out = out_dir.resolve()
    src = source.path.resolve()
    if source.path.is_dir():
        if out == src:
            raise RunStartupError(f"output folder {out_dir} is the input folder; choose another one")
        if src in out.parents:
            raise RunStartupError(f"output folder {out_dir} is inside the input folder; choose another one")
        if out in src.parents:
            raise RunStartupError(
                f"input folder {source.path} is inside the output folder {out_dir}; choose another one"
            )
        return
    target = source.output_path(out_dir)
    if target.name in (STANDOFF_NAME, ERRORS_NAME):
        raise RunStartupError(
            f"the output {target} would clash with OUTDIR/{target.name}; rename the input file"
        )
    for path in (target, out_dir / STANDOFF_NAME, out_dir / ERRORS_NAME):
        if path.resolve() == src:
            raise RunStartupError(f"output {path} would overwrite the input; choose another output folder")


def _lock_output(out_dir: Path, work: Path, private: bool = False) -> RunLock:
    """Create OUTDIR (if needed) and lock its work folder for this run.

    ``private`` (``--audit-text``: ``phi_spans.jsonl`` will hold PHI strings): OUTDIR is made 0700.
    """
    try:
        if private:
            make_private_dir(out_dir)
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
        lock = RunLock(work)
        lock.acquire()
    except ConfigError as exc:
        raise RunStartupError(str(exc)) from None
    except OSError as exc:
        raise RunStartupError(f"cannot create the output folder {out_dir}: {_os_error(exc)}") from None
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


def _engine_fingerprint(config: DeidConfig) -> dict[str, Any]:
    """``config`` as a run depends on it: every field, with the model as its files
    (:func:`_model_fingerprint`), the site lists, registry and allow list as SHA-256 of their
    content (never the content) and ``plugins`` as the names of the installed plugin detectors."""
    from phiscrub.detect.site import content_digest
    from phiscrub.engine_config import RESOURCE_FIELDS
    from phiscrub.registry import DETECTORS

    out = asdict(config)
    out["model"] = None if config.model is None else _model_fingerprint(config.model)
    for name in RESOURCE_FIELDS:  # only when given, as before issue 26
        path = out.pop(name)
        if path is not None:
            out[name] = content_digest(path)
    out["plugins"] = sorted(DETECTORS.plugins()) if config.plugins else False
    return out


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
    entries = source.entries() if isinstance(source, TextFolderSource) else scan_text_entries(path)
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
        RunStartupError: ``--resume`` with an interrupted run of other settings, input or key.
    """
    found = Manifest.load(work)
    if found is not None and resume:
        differ = found.differences(header, key)
        if differ:
            raise RunStartupError(
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
        raise RunStartupError(f"cannot write into {work}: {_os_error(exc)}") from None


def _after_stop(work: Path, manifest: Manifest) -> int:
    """Clean up after a stopped run and return how many input records are kept for ``--resume``.

    The partly assembled output is removed; the batches done are kept (with the manifest) when
    there are any, else the whole work folder goes.
    """
    manifest.close()
    shutil.rmtree(work / STAGING_NAME, ignore_errors=True)
    # A Ctrl-C can land after a batch's manifest line is written and before the manifest records it
    # in memory: count what ``--resume`` will find, the durable batches on disk.
    durable = Manifest.load(work) or manifest
    if durable.batches:
        return durable.records_done
    if not (work / PLACING_DIR).exists():  # else it holds an earlier run's files moved aside
        shutil.rmtree(work, ignore_errors=True)
    return 0


#: The options ``phiscrub reidentify`` needs to read the output again, stored in the vault.
_VAULT_SETTINGS = ("text_field", "text_column", "id_field", "patient_field", "keep_columns", "encoding")


def _write_vault(
    path: Path, source: Source, out_dir: Path, standoff: Path, secret: bytes, settings: dict[str, Any]
) -> int:
    """Write the ``--vault``: every replaced span's original string, from the run's standoff rows
    (original and output offsets) and a second read of the input; returns the documents stored."""
    from phiscrub.runs.vault import document_entry, write_vault

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
    stats: RunStats,
    workers: int = 1,
) -> None:
    """Redact every document of ``source`` into ``work/out``, counting into ``stats`` as it goes.

    The batches the manifest lists as done are replayed from their parts; the others are redacted
    (in worker processes with ``workers`` > 1, :mod:`phiscrub.cli._parallel`, results in input
    order), each written as a part and recorded in the manifest before its documents are passed
    on. Both go through :func:`_emit`, so a resumed run writes the same bytes as an uninterrupted one.
    """
    from phiscrub.runs.parallel import map_batches

    staging = work / STAGING_NAME
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(mode=0o700)
    total = source.count
    logs = {name: staging / name for name in (STANDOFF_NAME, ERRORS_NAME, WARNINGS_NAME)}
    handles: dict[str, IO[str]] = {
        # With --audit-text the standoff file holds PHI strings: created 0600 (issue 28, item 7).
        name: open_private(path) if audit_text and name == STANDOFF_NAME else path.open("w", encoding="utf-8")
        for name, path in logs.items()
    }
    try:

        def transformed() -> Iterator[Document]:
            bar = tqdm(desc="redact", unit="doc", total=total, file=sys.stderr, delay=1.0, dynamic_ncols=True)
            try:
                for part in manifest.parts():
                    stats.resumed += int(part.stats.get("documents", 0))
                    yield from _emit(part, stats, handles, bar)
                start = manifest.documents_done
                docs = islice(mark_repeated_ids(source), start, None)
                tagged = (
                    (batch, [d for d in batch if not d.metadata.get("read_error")])
                    for batch in batched(docs, batch_size)
                )
                for batch, done in map_batches(deid, redact_list, tagged, workers):
                    part = make_part(batch, done, audit_text)
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


def _emit(part: Part, stats: RunStats, handles: dict[str, IO[str]], bar: Any) -> Iterator[Document]:
    """Count a part, write its run-log lines and yield its documents (for :meth:`Source.write`)."""
    stats.add(part.stats)
    for name, lines in part.logs.items():
        handles[name].writelines(lines)
    for doc_id, text in part.docs:
        yield Document(doc_id, text)
    bar.update(int(part.stats.get("documents", 0)))


def _commit(staging: Path, out_dir: Path) -> None:
    """Place the output assembled in ``staging`` into ``out_dir`` as one unit
    (:func:`phiscrub.runs.placing.place_output`; the run-log files last)."""
    place_output(staging, out_dir, staging.parent, (STANDOFF_NAME, WARNINGS_NAME, ERRORS_NAME))


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
