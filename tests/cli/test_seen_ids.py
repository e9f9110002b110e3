"""``redact --id-field``'s repeated-id check keeps bounded memory: digests spill to a temporary SQLite file."""

from __future__ import annotations

from pathlib import Path

from phiscrub.runs.batches import SeenIds as _SeenIds


def test_repeats_found_across_the_spill_and_the_file_is_removed() -> None:
    seen = _SeenIds(buffer=3)
    ids = [f"rec-{i}" for i in range(10)]
    assert [seen.add(i) for i in ids] == [False] * 10
    assert seen._db is not None  # spilled: 10 ids with room for 3 in memory
    assert len(seen._recent) < 3
    folder = Path(seen._dir.name)
    assert (folder / "ids.sqlite").is_file()
    # ids now only in the file, ids still in memory, and new ones
    assert [seen.add(i) for i in ("rec-0", "rec-5", "rec-9", "rec-10")] == [True, True, True, False]
    seen.close()
    assert not folder.exists()


def test_the_spill_file_holds_no_id() -> None:
    seen = _SeenIds(buffer=2)
    for i in range(5):
        seen.add(f"patient-identifier-{i}")
    data = (Path(seen._dir.name) / "ids.sqlite").read_bytes()
    assert b"patient-identifier" not in data
    seen.close()


def test_without_spill_nothing_is_written() -> None:
    seen = _SeenIds()
    assert [seen.add(i) for i in ("a", "b", "a")] == [False, False, True]
    assert seen._db is None
    seen.close()
