"""The redact progress bar counts documents (records), whatever the input shape."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import phiscrub.runs.redact as redact_cli
from phiscrub.cli.app import cli

N = 25
NOTE = "Seen on 3/4/2019, call 617-555-0134."  # synthetic


def _jsonl(path: Path) -> Path:
    path.write_text(
        "".join(json.dumps({"id": f"r{i}", "text": NOTE}) + "\n" for i in range(N)), encoding="utf-8"
    )
    return path


def _csv(path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "text"])
        writer.writerows([f"r{i}", NOTE] for i in range(N))
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    for i in range(N):
        (path / f"r{i}.txt").write_text(NOTE, encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "make"), [("in.jsonl", _jsonl), ("in.csv", _csv), ("notes", _folder)])
def test_redact_progress_counts_one_per_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, make: Any
) -> None:
    bars: list[dict[str, Any]] = []
    real = redact_cli.tqdm

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            bars.append({"desc": kwargs.get("desc"), "total": kwargs.get("total"), "bar": self})

    monkeypatch.setattr(redact_cli, "tqdm", Recording)
    src = make(tmp_path / name)
    # --id-field id: the id column names the record (otherwise it is one more redacted cell)
    extra = [] if name == "notes" else ["--id-field", "id"]
    result = CliRunner().invoke(
        cli, ["redact", str(src), "-o", str(tmp_path / "out"), "--rules-only", *extra]
    )
    assert result.exit_code == 0, result.output
    (bar,) = [b for b in bars if b["desc"] == "redact"]
    assert bar["total"] == N
    assert bar["bar"].n == N
