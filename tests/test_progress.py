"""Progress inside long notes: reports reach the installed callback, bars show counts only."""

from __future__ import annotations

import io

from phiscrub.progress import LONG_NOTE_CHARS, report, reporting, stage_bars, wants_progress


def test_reports_reach_the_installed_callback_and_nothing_without_one() -> None:
    seen: list[tuple[str, int, int]] = []
    report("propagate", 1, 2)  # no callback: ignored
    with reporting(lambda *a: seen.append(a)):
        assert wants_progress(LONG_NOTE_CHARS) and not wants_progress(LONG_NOTE_CHARS - 1)
        report("propagate", 1, 2)
    report("propagate", 2, 2)
    assert seen == [("propagate", 1, 2)]
    assert not wants_progress(LONG_NOTE_CHARS)


def test_stage_bars_draw_stage_names_and_counts() -> None:
    out = io.StringIO()
    with stage_bars(out):
        report("detectors", 3, 6)
        report("propagate", 1_000_000, 2_000_000)
    text = out.getvalue()
    assert "note: detectors" in text and "3/6" in text
    assert "note: propagate" in text and "1.00M/2.00M" in text
