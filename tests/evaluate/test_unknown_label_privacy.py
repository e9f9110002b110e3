"""An unknown label read from a user's file is never echoed: messages show a digest (issue 18).

Labels come from user files and can hold PHI (a name typed in the label column); ``phiscrub evaluate``
runs for real on files on disk, in a subprocess.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from phiscrub.errors import LabelError
from phiscrub.labels import fold, label_digest, to_fine

# Synthetic PHI typed where a label belongs.
PHI_LABEL = "Zoltan Quenwick 0048-2231"
TEXT = "Seen by Zoltan Quenwick today."


def _write_jsonl(path: Path) -> None:
    record = {"id": "d1", "text": TEXT, "spans": [{"start": 8, "end": 23, "label": PHI_LABEL}]}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")


def _write_brat(folder: Path) -> None:
    folder.mkdir()
    (folder / "d1.txt").write_text(TEXT, encoding="utf-8")
    # BRAT labels hold no spaces: the whole name is the type of the annotation.
    (folder / "d1.ann").write_text("T1\tZoltan_Quenwick 8 23\tZoltan Quenwick\n", encoding="utf-8")


@pytest.mark.parametrize(("fmt", "label"), [("jsonl", PHI_LABEL), ("brat", "Zoltan_Quenwick")])
def test_evaluate_unknown_label_is_shown_as_a_digest_never_verbatim(
    tmp_path: Path, fmt: str, label: str
) -> None:
    corpus = tmp_path / ("gold.jsonl" if fmt == "jsonl" else "gold")
    _write_jsonl(corpus) if fmt == "jsonl" else _write_brat(corpus)
    cmd = [sys.executable, "-m", "phiscrub.cli", "evaluate", "--gold", str(corpus), "--pred", str(corpus)]
    r = subprocess.run(
        [*cmd, "-o", str(tmp_path / "rep")],
        capture_output=True,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        timeout=300,
        check=False,
    )
    assert r.returncode == 1  # reading problems make evaluate exit 1
    digest = "sha256:" + hashlib.sha256(label.encode()).hexdigest()[:8]
    assert f"unknown label ({digest})" in r.stderr
    written = [p.read_text(encoding="utf-8") for p in tmp_path.glob("rep.*")]
    assert written
    for out in (r.stdout, r.stderr, *written):
        assert "Quenwick" not in out and "Zoltan" not in out and "0048-2231" not in out


@pytest.mark.parametrize("call", [to_fine, fold])
def test_label_error_gives_a_digest_not_the_label(call: Callable[[str], object]) -> None:
    with pytest.raises(LabelError) as info:
        call(PHI_LABEL)
    assert PHI_LABEL not in str(info.value) and "Quenwick" not in str(info.value)
    assert label_digest(PHI_LABEL) in str(info.value)


def test_label_digest_is_short_and_stable() -> None:
    assert label_digest("a") == "sha256:ca978112"
    assert label_digest("a") != label_digest("b")
