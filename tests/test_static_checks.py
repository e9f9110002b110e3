"""The static checks of pyproject.toml hold for the whole tree: ruff (with the complexity limits C901 at
15, PLR0912, PLR0915) over src, tests, scripts and benchmarks, and mypy (``disallow_untyped_defs``,
``disallow_any_generics``, ``warn_return_any``) over ``src/phiscrub``. Run in CI so that no change
lands that a reviewer's ``ruff check`` or ``mypy`` would reject."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


def test_ruff_passes_with_complexity_limits() -> None:
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a dev dependency: pip install -e '.[dev]'"
    done = _run([ruff, "check", "src", "tests", "scripts", "benchmarks"])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    settings = _run([ruff, "check", "--show-settings", "src/phiscrub/deid.py"]).stdout
    for rule in ("C901", "PLR0912", "PLR0915"):
        assert f"({rule})" in settings, f"{rule} is not selected in pyproject.toml"
    assert "max_complexity = 15" in settings


def test_mypy_passes_with_strict_generics() -> None:
    done = _run([sys.executable, "-m", "mypy"])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success" in done.stdout
