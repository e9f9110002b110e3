"""Place a finished run's output into OUTDIR as one unit, or put OUTDIR back as it was.

A run assembles its whole output in ``OUTDIR/.phiscrub-run/out`` and then moves each file into
OUTDIR with ``os.replace`` (same file system: no new space needed). A rename can still fail part
way (EPERM on one file, a read-only bind mount, an immutable file); before this module the folder
was then left mixed (the data file of run B beside the ``phi_spans.jsonl`` of run A) and the
message said that nothing had been placed.

Here placing is a small transaction:

1. every file of OUTDIR that the new output would replace, and every run-log file of an earlier
   run that the new one does not write (a stale ``warnings.jsonl``), is first moved aside into
   ``.phiscrub-run/placing/earlier/`` (same file system, a rename);
2. the new files are moved in, data first, the run-log files last;
3. on success the files moved aside are deleted; on a failure every step done is undone in reverse
   order (new files back to the staging folder, earlier files back into OUTDIR).

:class:`PlacingError` then says exactly what OUTDIR holds: put back as it was, or, when undoing
failed too, how many files are from this run and how many from the earlier one, with the list of
each written to ``.phiscrub-run/placing/state.json`` (relative paths, no text) and the earlier
files still moved aside kept in ``placing/earlier/``.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.errors import PhiscrubError
from phiscrub.runs.manifest import fsync_dir, fsync_file

__all__ = ["PLACING_DIR", "PlacingError", "PlacingState", "place_output"]

#: Folder of the work folder holding the earlier outputs moved aside and the state file.
PLACING_DIR = "placing"


@dataclass
class PlacingState:
    """What a placing did, as relative paths under OUTDIR (never text).

    Args:
        placed: new files moved into OUTDIR (and still there).
        saved: earlier files moved aside (and not yet put back).
        not_restored: earlier files that could not be put back (still aside).
        not_removed: new files that could not be taken out of OUTDIR again.
    """

    placed: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    not_restored: list[str] = field(default_factory=list)
    not_removed: list[str] = field(default_factory=list)

    @property
    def restored(self) -> bool:
        """OUTDIR is as it was before the run."""
        return not self.not_restored and not self.not_removed


class PlacingError(PhiscrubError):
    """A rename failed while the output was placed; the message says what OUTDIR holds now.

    Args:
        cause: the failed step, without text (error type and code, and the path concerned).
        state: what was done and undone.
        report: the state file written when OUTDIR could not be put back (None otherwise).
    """

    def __init__(self, cause: str, state: PlacingState, out_dir: Path, report: Path | None) -> None:
        self.cause = cause
        self.state = state
        self.report = report
        super().__init__(f"placing the output failed: {cause}; {self.outcome(out_dir)}")

    def outcome(self, out_dir: Path) -> str:
        """What OUTDIR holds, in words."""
        if self.state.restored:
            return f"{out_dir} was put back as it was before this run (no file of this run is in it)"
        kept_aside = len(self.state.not_restored)
        return (
            f"{out_dir} could not be put back and is MIXED: {len(self.state.not_removed)} files are from "
            f"this run, {kept_aside} earlier files are missing from it (moved aside into "
            f"{self.report.parent / 'earlier' if self.report else '?'}); the paths of each are listed in "
            f"{self.report}"
        )


def place_output(staging: Path, out_dir: Path, work: Path, run_logs: tuple[str, ...]) -> None:
    """Move every file of ``staging`` to the same relative path under ``out_dir``, as one unit.

    Args:
        staging: the assembled output.
        out_dir: OUTDIR.
        work: the run's work folder (for the files moved aside and the state file).
        run_logs: the run-log file names, placed last (they describe a complete output); an earlier
            run's copy of one that this run does not write is moved aside too.

    Raises:
        OSError: a check before anything moved failed (an output is an existing folder).
        PlacingError: a rename failed; OUTDIR was put back, or the message says what it holds.
    """
    files = sorted(p for p in staging.rglob("*") if p.is_file())
    for f in files:
        dest = out_dir / f.relative_to(staging)
        if dest.is_dir() and not dest.is_symlink():
            raise OSError(errno.EISDIR, "an output is an existing folder", str(f))
        dest.parent.mkdir(parents=True, exist_ok=True)
        fsync_file(f)  # the data is on disk before the rename makes it visible
    logs = [staging / name for name in run_logs]
    order = [f.relative_to(staging) for f in files if f not in logs]
    order += [Path(name) for name in run_logs if (staging / name).exists()]
    stale = [Path(name) for name in run_logs if not (staging / name).exists()]
    aside = work / PLACING_DIR / "earlier"
    if aside.exists():
        shutil.rmtree(aside)
    state = PlacingState()
    try:
        for rel in stale:
            _set_aside(out_dir / rel, aside / rel, rel, state)
        for rel in order:
            _set_aside(out_dir / rel, aside / rel, rel, state)
            os.replace(staging / rel, out_dir / rel)
            state.placed.append(rel.as_posix())
    except OSError as exc:
        _undo(staging, out_dir, aside, state)
        report = None if state.restored else _write_state(work / PLACING_DIR / "state.json", state)
        raise PlacingError(_cause(exc, staging, out_dir), state, out_dir, report) from exc
    for folder in sorted({(out_dir / rel).parent for rel in order}):
        fsync_dir(folder)
    shutil.rmtree(work / PLACING_DIR, ignore_errors=True)


def _set_aside(dest: Path, target: Path, rel: Path, state: PlacingState) -> None:
    """Move an earlier output at ``dest`` aside to ``target`` (nothing to do when there is none)."""
    if not (dest.exists() or dest.is_symlink()):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(dest, target)
    state.saved.append(rel.as_posix())


def _undo(staging: Path, out_dir: Path, aside: Path, state: PlacingState) -> None:
    """Take the new files out of OUTDIR and put the earlier ones back, recording what failed."""
    for rel in reversed(state.placed):
        try:
            os.replace(out_dir / rel, staging / rel)
        except OSError:
            state.not_removed.append(rel)
    for rel in reversed(state.saved):
        if rel in state.not_removed:  # its place is taken by the new file
            state.not_restored.append(rel)
            continue
        try:
            os.replace(aside / rel, out_dir / rel)
        except OSError:
            state.not_restored.append(rel)
    state.placed = list(state.not_removed)
    state.saved = list(state.not_restored)


def _write_state(path: Path, state: PlacingState) -> Path:
    """Write the lists of a mixed OUTDIR (relative paths) to ``path``; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {
        "outdir_is_mixed": True,
        "from_this_run": sorted(state.not_removed),
        "earlier_files_moved_aside": sorted(state.not_restored),
        "moved_aside_into": "earlier/",
    }
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return path


def _cause(exc: OSError, staging: Path, out_dir: Path) -> str:
    """The failed rename as ``Type [ECODE] strerror at <path under OUTDIR>`` (never text)."""
    code = errno.errorcode.get(exc.errno or 0, "")
    said = type(exc).__name__ + (f" [{code}]" if code else "") + (f" {exc.strerror}" if exc.strerror else "")
    if exc.filename is None:
        return said
    return f"{said} at " + str(exc.filename).replace(str(staging), str(out_dir), 1)
