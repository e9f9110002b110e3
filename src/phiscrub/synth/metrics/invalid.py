"""Invalid prediction counts the generator left (``stats.json`` or per-document metadata)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.errors import InputFormatError

__all__ = ["InvalidCounts", "load_synth_stats", "stats_path_for"]


# -- invalid prediction counts ----------------------------------------------------------------------
@dataclass(frozen=True)
class InvalidCounts:
    """Masked words a generator had to predict and how many predictions were invalid.

    Args:
        masked: masked words to predict.
        invalid: invalid predictions (punctuation, subword pieces, empty ...).
    """

    masked: int
    invalid: int

    @property
    def rate(self) -> float | None:
        """``invalid / masked``; None when nothing was masked."""
        return self.invalid / self.masked if self.masked else None

    @classmethod
    def parse(cls, value: Any) -> InvalidCounts | None:
        """Counts from a mapping with integer ``masked`` and ``invalid``; None when absent or malformed."""
        if not isinstance(value, Mapping):
            return None
        masked, invalid = value.get("masked"), value.get("invalid")
        ok = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (masked, invalid))
        return cls(int(masked), int(invalid)) if ok else None  # type: ignore[arg-type]


def stats_path_for(synthetic: str | Path) -> Path:
    """Where the generator's stats of a synthetic corpus live: ``FOLDER/stats.json`` for a folder;
    ``FILE.stats.json`` (written by ``phiscrub synth``) or else ``stats.json`` beside a file."""
    from phiscrub.synth.pipeline import stats_file_for

    p = Path(synthetic)
    own = stats_file_for(p)  # what ``phiscrub synth -o OUTPUT`` writes
    return own if p.is_dir() or own.exists() else p.parent / "stats.json"


def load_synth_stats(path: str | Path) -> tuple[InvalidCounts | None, dict[str, InvalidCounts]]:
    """Read a generator's ``stats.json``.

    Accepted shape (every part optional)::

        {"masked": 120, "invalid": 31,
         "documents": {"doc1#synth0": {"masked": 60, "invalid": 15}, ...}}

    The totals may also sit under a ``"synth"`` or ``"totals"`` key.

    Args:
        path: the JSON file.

    Returns:
        The corpus totals (None when absent) and the per-document counts.

    Raises:
        InputFormatError: the file is not a JSON object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputFormatError(f"{path}: cannot read synthesis stats ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise InputFormatError(f"{path}: synthesis stats must be a JSON object")
    totals = InvalidCounts.parse(data)
    for key in ("synth", "totals"):
        totals = totals or InvalidCounts.parse(data.get(key))
    per_doc: dict[str, InvalidCounts] = {}
    docs = data.get("documents")
    if isinstance(docs, Mapping):
        for doc_id, value in docs.items():
            counts = InvalidCounts.parse(value)
            if counts is not None:
                per_doc[str(doc_id)] = counts
    return totals, per_doc
