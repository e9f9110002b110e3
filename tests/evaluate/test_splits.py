"""The out-of-distribution split: fixed by path hashes, disjoint, every batch represented, stable."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.evaluate.splits import (
    OOD_DEV_SHARE,
    OOD_TEST_SHARE,
    part_of,
    split_folder,
    split_zeroshot,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
REALWORLD = REPO_ROOT.parent / "shared" / "data" / "realworld-notes"
ZEROSHOT = REPO_ROOT.parent / "shared" / "data" / "zeroshot-notes"


@pytest.mark.parametrize(
    ("relpath", "part"),
    [
        # Pinned: a change here means the hold-out moved and old figures no longer compare.
        ("r0/r0-001.txt", "test"),
        ("r0/r0-002.txt", "train"),
        ("r1/r1-001.txt", "test"),
        ("r3/r3-017.txt", "test"),
        ("r4/r4-071.txt", "dev"),
        ("r5/r5-001.txt", "test"),
        ("r5/r5-033.txt", "train"),
        ("r8/r8-040.txt", "test"),
    ],
)
def test_part_of_is_pinned_by_the_path_hash(relpath: str, part: str) -> None:
    assert part_of(relpath) == part
    assert part_of(Path(relpath)) == part
    assert part_of(relpath.replace("/", "\\")) == part


def test_shares_shape_the_parts_and_bad_shares_are_config_errors() -> None:
    paths = [f"x{i // 100}/n-{i:04d}.txt" for i in range(3000)]
    counts = Counter(part_of(p) for p in paths)
    assert abs(counts["test"] / 3000 - OOD_TEST_SHARE) < 0.03
    assert abs(counts["dev"] / 3000 - OOD_DEV_SHARE) < 0.03
    assert {part_of(p, test_share=1.0, dev_share=0.0) for p in paths[:50]} == {"test"}
    assert {part_of(p, test_share=0.0, dev_share=0.0) for p in paths[:50]} == {"train"}
    for test_share, dev_share in [(-0.1, 0.1), (0.8, 0.3), (0.3, 1.5)]:
        with pytest.raises(ConfigError):
            part_of("a/b.txt", test_share=test_share, dev_share=dev_share)


def test_adding_notes_never_moves_an_existing_note(tmp_path: Path) -> None:
    for i in range(30):
        (tmp_path / "r0").mkdir(exist_ok=True)
        (tmp_path / "r0" / f"r0-{i:03d}.txt").write_text("note", encoding="utf-8")
    before = {p.name: part for part, ps in split_folder(tmp_path).items() for p in ps}
    (tmp_path / "r9").mkdir()
    for i in range(30, 60):
        (tmp_path / "r0" / f"r0-{i:03d}.txt").write_text("note", encoding="utf-8")
        (tmp_path / "r9" / f"r9-{i:03d}.txt").write_text("note", encoding="utf-8")
    after = {p.name: part for part, ps in split_folder(tmp_path).items() for p in ps}
    assert all(after[name] == part for name, part in before.items())


def test_split_folder_of_a_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError):
        split_folder(tmp_path / "nope")
    with pytest.raises(InputFormatError):
        split_zeroshot(tmp_path / "nope")


def test_realworld_split_is_disjoint_and_every_batch_is_in_test_and_train() -> None:
    parts = split_folder(REALWORLD)
    sets = {k: set(v) for k, v in parts.items()}
    assert not sets["train"] & sets["test"]
    assert not sets["train"] & sets["dev"]
    assert not sets["dev"] & sets["test"]
    every = set(REALWORLD.rglob("*.txt"))
    assert sets["train"] | sets["dev"] | sets["test"] == every
    batches = {p.parent.name for p in every}
    assert len(batches) >= 9
    for part in ("train", "test"):
        per_batch = Counter(p.parent.name for p in parts[part])
        assert set(per_batch) == batches, part
    test_per_batch = Counter(p.parent.name for p in parts["test"])
    all_per_batch = Counter(p.parent.name for p in every)
    for batch, n in all_per_batch.items():
        assert 0.15 <= test_per_batch[batch] / n <= 0.45, batch


def test_zeroshot_split_keeps_notes_031_to_035_for_dev() -> None:
    parts = split_zeroshot(ZEROSHOT)
    assert len(parts["train"]) == 300 and len(parts["dev"]) == 50 and parts["test"] == []
    assert all(31 <= int(p.stem.rsplit("-", 1)[1]) <= 35 for p in parts["dev"])
    assert {p.parent.name for p in parts["train"]} == set("abcdefghij")
    one = split_zeroshot(ZEROSHOT, families="c")
    assert {p.parent.name for p in one["train"] + one["dev"]} == {"c"}
