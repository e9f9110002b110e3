"""A fixed, hash-based split of placeholder-note folders into train, dev and an out-of-distribution test.

The real-world-style notes (``shared/data/realworld-notes/r0`` .. ``r8``; new batches may be added)
are few and precious: part of them must stay out of training *and* out of model selection so that
their scores predict what happens on notes from an unseen hospital. The split is made per whole note
from a hash of its path relative to the corpus root (``"r3/r3-017.txt"``):

``u = int(sha256(SALT + ":" + relpath)[:12], 16) / 16**12`` (uniform in [0, 1));
``u < test_share`` -> ``test``; ``u < test_share + dev_share`` -> ``dev``; else ``train``.

Why a hash and not a shuffle: a note's part depends on its own path only. Adding notes or whole new
batches later never moves an existing note between parts (a shuffle or a per-folder ranking would,
and a former test note would leak into training). Each folder gets about ``test_share`` of its
notes; with the default 30% and folders of 40 notes or more, every batch is represented (checked by
the tests for the shipped corpus).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from phiscrub.errors import ConfigError, InputFormatError

__all__ = [
    "OOD_DEV_SHARE",
    "OOD_SALT",
    "OOD_TEST_SHARE",
    "ZEROSHOT_DEV_NUMBERS",
    "ZEROSHOT_EN_FAMILIES",
    "Part",
    "part_of",
    "split_folder",
    "split_zeroshot",
]

Part = Literal["train", "dev", "test"]

#: Salt of the hash; changing it redraws the whole split (never do it for the shipped corpus).
OOD_SALT = "phiscrub-ood-v1"
#: Share of notes held out as the out-of-distribution test (never trained on, never used for selection).
OOD_TEST_SHARE = 0.30
#: Share of notes used as dev (model selection) next to the zero-shot dev notes.
OOD_DEV_SHARE = 0.10
#: The English families of the zero-shot notes (``k`` and ``l`` are Catalan/Spanish and Chinese).
ZEROSHOT_EN_FAMILIES = "abcdefghij"
#: Zero-shot notes numbered 031-035 in each family are the in-family dev set (001-030 train).
ZEROSHOT_DEV_NUMBERS = range(31, 36)


def _unit(relpath: str, salt: str) -> float:
    digest = hashlib.sha256(f"{salt}:{relpath}".encode()).hexdigest()
    return int(digest[:12], 16) / float(16**12)


def part_of(
    relpath: str | Path,
    *,
    test_share: float = OOD_TEST_SHARE,
    dev_share: float = OOD_DEV_SHARE,
    salt: str = OOD_SALT,
) -> Part:
    """The part (``train``, ``dev`` or ``test``) of one note, from its path relative to the corpus root.

    Args:
        relpath: the note's path relative to the corpus root, e.g. ``"r3/r3-017.txt"`` (a
            :class:`~pathlib.Path` is written with forward slashes first).
        test_share: share of notes in ``test``.
        dev_share: share of notes in ``dev``.
        salt: hash salt.

    Raises:
        ConfigError: shares outside [0, 1] or summing to more than 1.
    """
    if not (0.0 <= test_share <= 1.0 and 0.0 <= dev_share <= 1.0 and test_share + dev_share <= 1.0):
        raise ConfigError("test_share and dev_share must lie in [0, 1] and sum to at most 1")
    key = relpath.as_posix() if isinstance(relpath, Path) else str(relpath).replace("\\", "/")
    u = _unit(key, salt)
    if u < test_share:
        return "test"
    if u < test_share + dev_share:
        return "dev"
    return "train"


def split_folder(
    root: str | Path,
    *,
    test_share: float = OOD_TEST_SHARE,
    dev_share: float = OOD_DEV_SHARE,
    salt: str = OOD_SALT,
    pattern: str = "*.txt",
) -> dict[Part, list[Path]]:
    """Every note under ``root`` (recursively, sorted) assigned to its part.

    Args:
        root: corpus root, e.g. ``shared/data/realworld-notes``.
        test_share: share of notes in ``test``.
        dev_share: share of notes in ``dev``.
        salt: hash salt.
        pattern: file glob of the notes.

    Returns:
        ``{"train": [...], "dev": [...], "test": [...]}``, absolute paths, sorted.

    Raises:
        InputFormatError: ``root`` is not a folder.
        ConfigError: bad shares.
    """
    base = Path(root)
    if not base.is_dir():
        raise InputFormatError(f"no such folder: {base}")
    parts: dict[Part, list[Path]] = {"train": [], "dev": [], "test": []}
    for path in _sorted_notes(base.rglob(pattern)):
        rel = path.relative_to(base)
        parts[part_of(rel, test_share=test_share, dev_share=dev_share, salt=salt)].append(path)
    return parts


def _sorted_notes(paths: Iterable[Path]) -> list[Path]:
    return sorted(p for p in paths if p.is_file())


def split_zeroshot(
    root: str | Path, families: str | Iterable[str] = ZEROSHOT_EN_FAMILIES
) -> dict[Part, list[Path]]:
    """The zero-shot notes of ``families`` split by their number: 001-030 ``train``, 031-035 ``dev``.

    This is the split the bundled model has always used (its dev is the in-family dev); ``test`` is
    empty (the out-of-distribution test is :func:`split_folder` of the real-world-style notes, and
    leave-one-family-out tests on whole families).

    Raises:
        InputFormatError: ``root`` is not a folder.
    """
    base = Path(root)
    if not base.is_dir():
        raise InputFormatError(f"no such folder: {base}")
    parts: dict[Part, list[Path]] = {"train": [], "dev": [], "test": []}
    for family in families:
        for path in sorted((base / family).glob("*.txt")):
            m = re.search(r"-(\d+)$", path.stem)
            if m is None:
                continue
            parts["dev" if int(m.group(1)) in ZEROSHOT_DEV_NUMBERS else "train"].append(path)
    return parts
