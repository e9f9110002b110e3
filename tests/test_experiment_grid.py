"""The one grid runner (phiscrub.experiment.grid): resume, crash safety, stale cells, mean ± sd, tables."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from phiscrub.errors import ConfigError
from phiscrub.experiment.grid import (
    FolderStore,
    JsonlStore,
    csv_table,
    markdown_table,
    mean_sd,
    plan_grid,
    run_grid,
    summarize,
)


@dataclass(frozen=True)
class Cell:
    method: str
    seed: int

    @property
    def key(self) -> str:
        return f"{self.method}_s{self.seed}"


CELLS = [Cell(m, s) for m in ("none", "mr") for s in (1, 2)]


class Runner:
    """A run_cell that records which cells it ran (and can fail on one)."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.ran: list[str] = []
        self.fail_on = fail_on

    def __call__(self, cell: Cell) -> dict[str, Any]:
        if cell.key == self.fail_on:
            raise RuntimeError(f"cell {cell.key} failed")
        self.ran.append(cell.key)
        return {"method": cell.method, "seed": cell.seed, "f1": 0.5 + 0.1 * cell.seed}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------------------------------------- resume


def test_resume_skips_recorded_cells_and_runs_only_new_ones(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    first = Runner()
    report = run_grid(CELLS[:3], first, results, progress=False)
    assert first.ran == ["none_s1", "none_s2", "mr_s1"] and report.skipped == []
    assert [r["key"] for r in _lines(results)] == first.ran

    again = Runner()
    report = run_grid(CELLS, again, results, progress=False)
    assert again.ran == ["mr_s2"]
    assert report.skipped == ["none_s1", "none_s2", "mr_s1"] and report.ran == ["mr_s2"]
    assert [r["seed"] for r in report.ordered()] == [1, 2, 1, 2]

    rerun = Runner()
    run_grid(CELLS, rerun, results, resume=False, progress=False)
    assert rerun.ran == [c.key for c in CELLS]
    assert len(_lines(results)) == 8  # reruns are appended; the last record of a key wins
    assert len(JsonlStore(results).load([c.key for c in CELLS])) == 4


def test_a_failing_cell_loses_none_of_the_cells_before_it(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    with pytest.raises(RuntimeError, match="mr_s1"):
        run_grid(CELLS, Runner(fail_on="mr_s1"), results, progress=False)
    assert [r["key"] for r in _lines(results)] == ["none_s1", "none_s2"]
    after = Runner()
    run_grid(CELLS, after, results, progress=False)
    assert after.ran == ["mr_s1", "mr_s2"]


def test_a_killed_process_loses_nothing_recorded(tmp_path: Path) -> None:
    """The interpreter dies (os._exit, no cleanup) in the third cell: the first two are on disk."""
    results = tmp_path / "results.jsonl"
    script = textwrap.dedent(
        f"""
        import os
        from dataclasses import dataclass
        from phiscrub.experiment.grid import run_grid

        @dataclass(frozen=True)
        class Cell:
            n: int
            @property
            def key(self):
                return f"c{{self.n}}"

        def run(cell):
            if cell.n == 3:
                os._exit(3)
            return {{"n": cell.n}}

        run_grid([Cell(n) for n in range(1, 6)], run, {str(results)!r}, progress=False)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True)
    assert proc.returncode == 3
    assert [r["key"] for r in _lines(results)] == ["c1", "c2"]


def test_a_half_written_last_line_is_ignored_and_that_cell_runs_again(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    run_grid(CELLS[:2], Runner(), results, progress=False)
    with results.open("a", encoding="utf-8") as fh:
        fh.write('{"key": "mr_s1", "fingerprint": null, "res')  # a crash while writing
    again = Runner()
    run_grid(CELLS, again, results, progress=False)
    assert again.ran == ["mr_s1", "mr_s2"]


# ---------------------------------------------------------------------------------------------- fingerprints


def test_stale_cells_run_again_or_are_refused(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    run_grid(CELLS, Runner(), results, fingerprint=lambda c: "v1", progress=False)
    events: list[tuple[str, str]] = []
    again = Runner()
    report = run_grid(
        CELLS,
        again,
        results,
        fingerprint=lambda c: "v2" if c.method == "mr" else "v1",
        progress=False,
        notify=lambda event, key: events.append((event, key)),
    )
    assert again.ran == ["mr_s1", "mr_s2"] and report.skipped == ["none_s1", "none_s2"]
    assert ("stale", "mr_s1") in events and ("skip", "none_s1") in events and ("done", "mr_s2") in events
    with pytest.raises(ConfigError, match="other settings"):
        plan_grid(CELLS, results, fingerprint=lambda c: "v3", stale="error")
    assert len(plan_grid(CELLS, results, fingerprint=lambda c: "v3", resume=False).todo) == 4


def test_folder_store_writes_one_result_file_per_cell_with_its_fingerprint(tmp_path: Path) -> None:
    store = FolderStore(tmp_path / "cells", "result.json", fingerprint_field="commands")
    run_grid(CELLS[:2], Runner(), store, fingerprint=lambda c: ["train", c.key], progress=False)
    saved = json.loads((tmp_path / "cells" / "none_s2" / "result.json").read_text(encoding="utf-8"))
    assert saved["commands"] == ["train", "none_s2"] and saved["seed"] == 2
    assert not list((tmp_path / "cells").rglob("*.tmp"))
    (tmp_path / "cells" / "none_s1" / "result.json").write_text("{not json", encoding="utf-8")
    again = Runner()
    run_grid(CELLS, again, store, fingerprint=lambda c: ["train", c.key], progress=False)
    assert again.ran == ["none_s1", "mr_s1", "mr_s2"]


def test_select_runs_a_subset_and_adopt_records_earlier_outputs(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    only_mr = Runner()
    report = run_grid(CELLS, only_mr, results, select=lambda c: c.method == "mr", progress=False)
    assert only_mr.ran == ["mr_s1", "mr_s2"] and set(report.results) == {"mr_s1", "mr_s2"}
    adopted = Runner()
    report = run_grid(
        CELLS, adopted, results, adopt=lambda c: {"seed": c.seed, "old": True} if c.seed == 1 else None,
        progress=False,
    )  # fmt: skip
    assert adopted.ran == ["none_s2"] and report.results["none_s1"]["old"] is True
    assert "none_s1" in JsonlStore(results).load(["none_s1"])  # adopted results are recorded


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="none_s1"):
        run_grid([CELLS[0], CELLS[0]], Runner(), tmp_path / "r.jsonl", progress=False)


# ---------------------------------------------------------------------------------------------- summaries


def test_mean_and_sample_sd_of_known_values() -> None:
    stats = mean_sd([1.0, 2.0, 3.0, 4.0])
    assert stats.mean == pytest.approx(2.5) and stats.n == 4
    # sample variance: (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3
    assert stats.sd == pytest.approx(math.sqrt(5 / 3))
    assert stats.format(2) == "2.50 ± 1.29"
    assert mean_sd([0.9]).sd is None and mean_sd([0.9]).format(2, scale=100) == "90.00"
    with pytest.raises(ValueError):
        mean_sd([])


def test_summarize_groups_by_setting_over_seeds() -> None:
    results = [
        {"method": "none", "seed": 1, "f1": 0.70, "p": 0.5},
        {"method": "mr", "seed": 1, "f1": 0.80, "p": 0.6},
        {"method": "none", "seed": 2, "f1": 0.74, "p": 0.7},
        {"method": "mr", "seed": 2, "f1": 0.90, "p": 0.6},
    ]
    groups = summarize(results, lambda r: r["method"], {"f1": lambda r: r["f1"], "p": lambda r: r["p"]})
    assert list(groups) == ["none", "mr"]  # first-seen order
    none, mr = groups["none"], groups["mr"]
    assert [r["seed"] for r in none.members] == [1, 2]
    assert none.stats["f1"].mean == pytest.approx(0.72)
    # two values a and b: sample sd = |a - b| / sqrt(2)
    assert none.stats["f1"].sd == pytest.approx(0.04 / math.sqrt(2))
    assert mr.stats["f1"].format(2, scale=100) == "85.00 ± 7.07"
    assert mr.stats["p"].sd == pytest.approx(0.0)


def test_markdown_and_csv_tables() -> None:
    text = markdown_table(["run", "F1"], [["a", "0.5"], ["b, c", "0.25"]], align="lr")
    assert text.splitlines() == ["| run | F1 |", "|---|---:|", "| a | 0.5 |", "| b, c | 0.25 |"]
    assert csv_table(["run", "F1"], [["a", "0.5"], ["b, c", "0.25"]]) == 'run,F1\na,0.5\n"b, c",0.25\n'
    with pytest.raises(ValueError):
        markdown_table(["a", "b"], [], align="l")


# ---------------------------------------------------------------------------------------------- drivers


def _script(name: str) -> Any:
    """Import one of the experiment driver scripts as a module."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_driver_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _run_result(seed: int, f1: float) -> dict[str, Any]:
    prf = {"precision": f1, "recall": f1, "f1": f1}
    return {
        "run": f"bilstm-k-k50-finetune-seed{seed}",
        "backbone": "bilstm-crf",
        "target": "k",
        "K": 50,
        "recipe": "finetune (F)",
        "seed": seed,
        "scores": {"binary": prf, "token": prf, "entity": prf},
        "cpu_s": 10.0 * seed,
    }


def test_crosslingual_driver_tables_give_mean_and_sd_over_seeds() -> None:
    cl = _script("crosslingual_experiments")
    results = [_run_result(seed, f1) for seed, f1 in ((1, 0.4), (2, 0.5), (3, 0.6))]
    lines = cl.seed_table(results).splitlines()
    assert lines[:2] == [
        "| backbone | target | K | recipe | seeds | binary F1 | token F1 | entity F1 |",
        "|---|---|---:|---|---:|---:|---:|---:|",
    ]
    # 0.4, 0.5, 0.6: mean 0.5, sample sd 0.1
    assert (
        lines[2] == "| bilstm-crf | k | 50 | finetune (F) | 3 | " + " | ".join(["0.500 ± 0.100"] * 3) + " |"
    )
    assert "| bilstm-crf | k | finetune (F) | 3 | 60 | 10-30 |" in cl.timings(results)


def test_crosslingual_driver_records_each_run_and_skips_it_next_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cl = _script("crosslingual_experiments")
    done: list[str] = []

    def after(folder: Path) -> dict[str, Any]:
        done.append(folder.name)
        return {"checked": True}

    runs = [cl.Run(name, [], after=after) for name in ("a", "b")]
    first = cl.run_all(runs, tmp_path, None)
    assert done == ["a", "b"] and [r["run"] for r in first] == ["a", "b"]
    assert json.loads((tmp_path / "a" / "result.json").read_text(encoding="utf-8"))["checked"] is True
    again = cl.run_all(runs, tmp_path, None)
    assert done == ["a", "b"] and again == first
    assert "[skip] a:" in capsys.readouterr().out
    only_b = cl.run_all([cl.Run("a", [["convert", "--help"]], after=after), runs[1]], tmp_path, "^a$")
    assert done == ["a", "b", "a"]  # the commands of a changed: it runs again
    assert [r["run"] for r in only_b] == ["a", "b"]


def test_synth_driver_downstream_mean_over_seeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sx = _script("synth_experiments")
    monkeypatch.setattr(sx, "OUT", tmp_path)
    f1 = {
        ("original", 0): 0.70,
        ("original", 1): 0.80,
        ("stopwords-0.4", 0): 0.60,
        ("stopwords-0.4", 1): 0.90,
    }
    for (kind, seed), value in f1.items():
        run = tmp_path / "downstream" / f"{kind}-seed{seed}"
        run.mkdir(parents=True)
        result = {m: {"precision": 1.0, "recall": value, "f1": value} for m in ("binary", "token", "entity")}
        (run / "eval.json").write_text(json.dumps({"result": result}), encoding="utf-8")
    rows = sx._downstream_rows([0, 1])
    mean_b = next(r for r in rows if r.startswith("| mean of 2 | B F1"))
    # original (0.70 + 0.80) / 2 = 0.75; stopwords (0.60 + 0.90) / 2 = 0.75, delta 0; random: no run
    assert mean_b == "| mean of 2 | B F1 | 0.750 | 0.750 | +0.000 | n/a | n/a |"
    assert "| 1 | E F1 | 0.800 | 0.900 | +0.100 | n/a | n/a |" in rows
