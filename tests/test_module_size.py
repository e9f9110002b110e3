"""House style (issue 26): no module of the package over 600 lines; a module that grows past it is
split along a seam rather than left to sprawl."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "phiscrub"
MAX_LINES = 600


def test_no_module_over_600_lines() -> None:
    sizes = {
        p.relative_to(SRC).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in SRC.rglob("*.py")
    }
    assert len(sizes) > 100  # the package was found
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"
