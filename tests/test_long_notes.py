"""Long notes: the rule pipeline's work grows linearly with the note (issue 18, case 3).

Work is counted as Python-level calls (``sys.setprofile`` events: function calls, generator
resumptions and builtin calls), not wall time, so the checks are exact and machine-independent;
wall-clock figures for 5 MB and 50 MB notes live in ``benchmarks/throughput.py``.
"""

from __future__ import annotations

import sys

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.document import Document

LINE = "Pt Zebulon Quackenbush seen on 03/12/2019, MRN 99887766. BP 120/80."


def _events(deid: Deidentifier, text: str) -> int:
    count = 0

    def tracer(frame: object, event: str, arg: object) -> None:
        nonlocal count
        count += 1

    sys.setprofile(tracer)
    try:
        deid.redact_one(Document("long", text))
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("joiner", ["\n", " "], ids=["many-lines", "one-line"])
def test_case3_rule_pipeline_work_is_linear_in_note_length(joiner: str) -> None:
    deid = Deidentifier(mode="placeholder", model=None)
    deid.redact(joiner.join([LINE] * 3))  # warm-up: loads word lists, compiles patterns
    small = _events(deid, joiner.join([LINE] * 100))
    large = _events(deid, joiner.join([LINE] * 200))
    assert large / small < 2.2


def test_case3_long_notes_report_progress_counts_only() -> None:
    from phiscrub.progress import LONG_NOTE_CHARS, reporting

    text = "Seen by Zebulon Quackenbush today. " + "Quackenbush stable. " * (LONG_NOTE_CHARS // 20)
    calls: list[tuple[str, int, int]] = []
    with reporting(lambda stage, done, total: calls.append((stage, done, total))):
        Deidentifier(mode="placeholder", model=None).redact(text)
    stages = {stage for stage, _, _ in calls}
    assert {"detectors", "propagate"} <= stages
    assert all(isinstance(d, int) and isinstance(t, int) and 0 <= d <= t for _, d, t in calls)
    assert ("propagate", len(text), len(text)) in calls
