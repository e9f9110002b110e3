"""The counts of a stopped run when the stop lands inside the recording of a batch.

``test_worker_death.py::test_ctrl_c_counts_records_in_both_numbers`` failed once in a clean CI run
(``assert 8 == 10``): its Ctrl-C arrived after a batch's manifest line was written and fsynced but
before :meth:`Manifest.add` appended the batch in memory, so the message said 8 records were kept
while ``--resume`` found 10. These tests put a run in exactly that state, with no timing involved.
"""

from __future__ import annotations

from pathlib import Path

from phiscrub.runs.batches import RunStats
from phiscrub.runs.manifest import Manifest, Part
from phiscrub.runs.redact import _stopped


def _two_batches(work: Path) -> Manifest:
    manifest = Manifest.create(work, {"batch_size": 5})
    for k in range(2):
        docs = [(f"r{k}{i}", "[NAME] seen") for i in range(5)]
        manifest.add(5 * k, 5 * (k + 1), Part(docs, {}, {"documents": 5}))
    return manifest


def test_a_batch_on_disk_but_not_yet_in_memory_is_counted_as_kept(tmp_path: Path) -> None:
    work = tmp_path / "out" / "work"
    manifest = _two_batches(work)
    manifest.batches.pop()  # the line is durable; the in-memory append had not run
    stats = RunStats(documents=5)  # and the run had counted only the first batch
    stop = _stopped(KeyboardInterrupt(), work, manifest, stats, tmp_path / "out")
    assert stop is not None
    message = str(stop)
    assert message.startswith("Interrupted after 10 documents:"), message
    assert "the 10 documents done are kept" in message
    again = Manifest.load(work)
    assert again is not None and again.records_done == 10


def test_an_error_stop_counts_the_batch_recorded_but_not_yet_counted(tmp_path: Path) -> None:
    work = tmp_path / "out" / "work"
    manifest = _two_batches(work)
    stop = _stopped(
        OSError(28, "No space left on device"), work, manifest, RunStats(documents=5), tmp_path / "out"
    )
    assert stop is not None
    assert str(stop).startswith("the run stopped after 10 documents:"), str(stop)
    assert "the 10 documents done are kept" in str(stop)


def test_nothing_done_is_counted_as_nothing(tmp_path: Path) -> None:
    work = tmp_path / "out" / "work"
    manifest = Manifest.create(work, {"batch_size": 5})
    stop = _stopped(KeyboardInterrupt(), work, manifest, RunStats(), tmp_path / "out")
    assert stop is not None and str(stop).startswith("Interrupted after 0 documents:")
    assert not work.exists()
