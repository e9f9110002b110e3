"""Crash-safe work folder of ``phiscrub redact``: atomic writes, batch parts and a resume manifest.

A run keeps its state in ``OUTDIR/.phiscrub-run/`` (:data:`WORK_DIR_NAME`)::

    .phiscrub-run/
        lock                   held (flock) while a run writes into OUTDIR
        manifest.jsonl         a header line (settings fingerprint), then one line per completed batch
        parts/000000000.json   the result of a batch: redacted documents and their run-log lines
        out/                   the output being assembled, moved into OUTDIR when complete

Every batch result is written to its part file atomically (a temporary file, ``fsync``, then
``os.replace`` and an ``fsync`` of the folder; mode 0600 in the 0700 work folder) *before* its line is appended to the manifest (and
``fsync``-ed), so a line in the manifest always names a complete part. A run killed at any point
(``SIGKILL``, power loss) leaves at worst a torn last manifest line or a part file no line names;
:meth:`Manifest.load` keeps the longest prefix of batches whose part files exist and match their
SHA-256, so ``redact --resume`` redoes only what was not durably done, and never a batch twice.

Part files hold redacted text (and the PHI strings only when the user asked for ``--audit-text``);
the manifest holds counts, hashes, paths and option values, never note text. The key is never
written: only a salted scrypt check value, so a resume with another key is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from phiscrub.errors import ConfigError

__all__ = [
    "MANIFEST_NAME",
    "WORK_DIR_NAME",
    "BatchRecord",
    "Manifest",
    "Part",
    "RunLock",
    "atomic_write_bytes",
    "fsync_dir",
    "fsync_file",
    "key_check",
    "new_key_fields",
]

#: The hidden work folder of a run inside OUTDIR.
WORK_DIR_NAME = ".phiscrub-run"
#: The manifest file inside the work folder.
MANIFEST_NAME = "manifest.jsonl"
#: Folder of the batch parts inside the work folder.
PARTS_DIR = "parts"
#: Format marker of the manifest header.
MANIFEST_KIND = "phiscrub-redact-manifest"
MANIFEST_VERSION = 1


def fsync_dir(folder: Path) -> None:
    """``fsync`` a folder so that a rename or a new file in it survives a power loss."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # a platform or file system without directory handles: nothing more can be done
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    """``fsync`` a file written by someone else (its data reaches the disk before it is renamed)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, ``fsync``,
    ``os.replace``, then ``fsync`` of the folder. ``path`` is either unchanged or complete.
    """
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        # 0600: a part holds the PHI strings of an --audit-text run (issue 28, item 7).
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)


def key_check(key: bytes, salt: bytes) -> str:
    """A salted scrypt value of ``key`` (hex): tells whether a resume uses the same key, without
    writing the key or a fast hash of it."""
    return hashlib.scrypt(key, salt=salt, n=2**14, r=8, p=1, dklen=16).hex()


class RunLock:
    """An exclusive ``flock`` on ``WORK/lock``: one run at a time writes into an output folder.

    Raises:
        ConfigError: (on :meth:`acquire`) another live process holds the lock.
    """

    def __init__(self, work: Path) -> None:
        self.path = work / "lock"
        self._fh: IO[bytes] | None = None

    def acquire(self) -> None:
        import fcntl

        # The work folder is private (0700): its parts may hold PHI strings (--audit-text).
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.path.parent, 0o700)
        fh = self.path.open("ab")
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise ConfigError(
                f"another phiscrub run is writing into {self.path.parent.parent} (it holds {self.path}); "
                "wait for it to finish or choose another output folder"
            ) from None
        self._fh = fh

    def release(self) -> None:
        if self._fh is not None:
            self._fh.close()  # closing drops the flock
            self._fh = None


@dataclass
class Part:
    """The durable result of one batch.

    Args:
        docs: ``(id, redacted text)`` of every document of the batch, in input order (a failed one
            with empty text).
        logs: run-log file name -> its JSON lines for this batch (``phi_spans.jsonl``, ...).
        stats: the batch's counts (documents, failures, spans per label, ...).
    """

    docs: list[tuple[str, str]]
    logs: dict[str, list[str]] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        # ensure_ascii: any code point (a lone surrogate included) round-trips exactly.
        return json.dumps(
            {"docs": self.docs, "logs": self.logs, "stats": self.stats}, separators=(",", ":")
        ).encode("ascii")

    @classmethod
    def from_bytes(cls, data: bytes) -> Part:
        obj = json.loads(data)
        return cls([(str(i), str(t)) for i, t in obj["docs"]], obj["logs"], obj["stats"])


@dataclass(frozen=True)
class BatchRecord:
    """One manifest line: batch ``batch`` covered documents ``[start, end)`` of the input stream
    (cell documents included); ``records`` and ``failed`` count its input records and the failed ones
    (for a person reading the manifest: how far the run got)."""

    batch: int
    start: int
    end: int
    part: str
    sha256: str
    records: int = 0
    failed: int = 0


class Manifest:
    """The manifest of one run's work folder (see the module docstring).

    Args:
        work: the work folder (``OUTDIR/.phiscrub-run``).
        header: the settings line (fingerprint, batch size, key check).
        batches: the completed batches, in order.
    """

    def __init__(self, work: Path, header: dict[str, Any], batches: list[BatchRecord]) -> None:
        self.work = work
        self.header = header
        self.batches = batches
        self._fh: IO[bytes] | None = None

    @property
    def path(self) -> Path:
        return self.work / MANIFEST_NAME

    @property
    def documents_done(self) -> int:
        """Documents of the input stream covered by completed batches."""
        return self.batches[-1].end if self.batches else 0

    @property
    def records_done(self) -> int:
        """Input records covered by completed batches (a record's cell documents are not counted)."""
        return sum(batch.records for batch in self.batches)

    # -- creating and loading -----------------------------------------------------------------------
    @classmethod
    def create(cls, work: Path, header: dict[str, Any]) -> Manifest:
        """Start a fresh manifest (empty parts folder), written atomically."""
        manifest = cls(work, {"kind": MANIFEST_KIND, "version": MANIFEST_VERSION, **header}, [])
        parts = work / PARTS_DIR
        if parts.exists():
            shutil.rmtree(parts)
        parts.mkdir(parents=True, mode=0o700)
        manifest._rewrite()
        return manifest

    @classmethod
    def load(cls, work: Path) -> Manifest | None:
        """The manifest in ``work`` with its longest durable prefix of batches, or None when there
        is none (no work folder, no manifest, or an unreadable header)."""
        path = work / MANIFEST_NAME
        try:
            data = path.read_bytes()
        except OSError:
            return None
        lines = data.split(b"\n")
        # The last element is what follows the last newline: empty, or a torn line.
        complete = lines[:-1]
        try:
            header = json.loads(complete[0]) if complete else None
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("kind") != MANIFEST_KIND:
            return None
        batches: list[BatchRecord] = []
        for raw in complete[1:]:
            rec = _batch_record(raw, len(batches), batches[-1].end if batches else 0)
            if rec is None or not _part_ok(work, rec):
                break
            batches.append(rec)
        manifest = cls(work, header, batches)
        manifest._rewrite()  # drop a torn tail or lines past the durable prefix before appending
        return manifest

    def _rewrite(self) -> None:
        lines = [json.dumps(self.header, sort_keys=True)]
        lines += [json.dumps(rec.__dict__, sort_keys=True) for rec in self.batches]
        atomic_write_bytes(self.path, ("\n".join(lines) + "\n").encode("utf-8"))

    # -- batches --------------------------------------------------------------------------------------
    def add(self, start: int, end: int, part: Part) -> BatchRecord:
        """Write ``part`` atomically, then append (and ``fsync``) its manifest line."""
        k = len(self.batches)
        name = f"{PARTS_DIR}/{k:09d}.json"
        data = part.to_bytes()
        atomic_write_bytes(self.work / name, data)
        stats = part.stats
        failed = int(stats.get("read_errors", 0)) + int(stats.get("redact_errors", 0))
        rec = BatchRecord(
            k, start, end, name, hashlib.sha256(data).hexdigest(), int(stats.get("documents", 0)), failed
        )
        if self._fh is None:
            self._fh = self.path.open("ab")
        self._fh.write((json.dumps(rec.__dict__, sort_keys=True) + "\n").encode("utf-8"))
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.batches.append(rec)
        return rec

    def parts(self) -> Iterator[Part]:
        """The completed batches' parts, in order (read one at a time)."""
        for rec in self.batches:
            yield Part.from_bytes((self.work / rec.part).read_bytes())

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    # -- settings ---------------------------------------------------------------------------------------
    def differences(self, header: dict[str, Any], key: bytes | None) -> list[str]:
        """The names of the settings in which ``header`` (and ``key``) differ from this run's."""
        mine = self.header.get("fingerprint", {})
        theirs = header.get("fingerprint", {})
        diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
        if self.header.get("batch_size") != header.get("batch_size"):
            diff.append("batch_size")
        salt = self.header.get("key_salt")
        if (key is None) != (salt is None):
            diff.append("key")
        elif key is not None and isinstance(salt, str):
            check = key_check(key, bytes.fromhex(salt))
            if not hmac.compare_digest(check, str(self.header.get("key_check", ""))):
                diff.append("key")
        return diff


def new_key_fields(key: bytes | None) -> dict[str, str]:
    """The header fields that let a resume check its key (empty without a key)."""
    if key is None:
        return {}
    salt = secrets.token_bytes(16)
    return {"key_salt": salt.hex(), "key_check": key_check(key, salt)}


def _batch_record(raw: bytes, k: int, start: int) -> BatchRecord | None:
    try:
        obj = json.loads(raw)
        rec = BatchRecord(
            int(obj["batch"]),
            int(obj["start"]),
            int(obj["end"]),
            str(obj["part"]),
            str(obj["sha256"]),
            int(obj.get("records", 0)),
            int(obj.get("failed", 0)),
        )
    except (ValueError, KeyError, TypeError):
        return None
    if rec.batch != k or rec.start != start or rec.end < rec.start or rec.part != f"{PARTS_DIR}/{k:09d}.json":
        return None
    return rec


def _part_ok(work: Path, rec: BatchRecord) -> bool:
    try:
        data = (work / rec.part).read_bytes()
    except OSError:
        return False
    return hashlib.sha256(data).hexdigest() == rec.sha256
