"""Experiment grids: config checks, splits, augmentation unions, a tiny real grid, resume, table and plot."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from corpora import FIRST, HOSPITALS, LAST, TINY_TRANSFORMER, Part, generate_docs
from phiscrub.cli.app import cli
from phiscrub.errors import ConfigError
from phiscrub.experiment import (
    AugmentOptions,
    ExperimentReport,
    augment_train,
    load_config,
    plan_cells,
    run_experiment,
    split_train,
)
from phiscrub.io import JsonlWriter
from phiscrub.train.tiny import make_tiny_encoder

_PNG = b"\x89PNG\r\n\x1a\n"


def _note_parts(rng: random.Random) -> list[Part]:
    """A note with a patient, a date, a hospital and a doctor (made-up PHI only)."""
    return [
        ("Patient ", None),
        (f"{rng.choice(FIRST[:8])} {rng.choice(LAST[:8])}", "PATIENT"),
        (" was seen on ", None),
        (f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/20{rng.randint(10, 24)}", "DATE"),
        (" at ", None),
        (rng.choice(HOSPITALS), "HOSPITAL"),
        (". Follow up in two weeks.\nCall Dr ", None),
        (rng.choice(LAST[:8]), "DOCTOR"),
        (" if needed.", None),
    ]


def _corpus(path: Path, prefix: str, n: int, seed: int) -> Path:
    JsonlWriter().write(generate_docs([f"{prefix}-{i:02d}" for i in range(n)], seed, _note_parts), path)
    return path


_TRAIN = {**TINY_TRANSFORMER, "epochs": 1, "num_threads": 1}


def _config_dict(data: Path, encoder: Path, **grid: Any) -> dict[str, Any]:
    return {
        "name": "tiny-grid",
        "labels": "coarse",
        "grid": {"fractions": [0.5, 1.0], "methods": ["none", "mr"], "alphas": [1], "seeds": [1, 2], **grid},
        "data": {
            "train": {"path": str(data / "train.jsonl"), "format": "jsonl"},
            "dev": {"held_out": 0.2},
            "test": {
                "site-a": {"path": str(data / "test-a.jsonl"), "format": "jsonl"},
                "site-b": {"path": str(data / "test-b.jsonl"), "format": "jsonl"},
            },
        },
        "augment": {"daga": {"epochs": 1, "embed_dim": 8, "hidden": 16}},
        "train": {"encoder": str(encoder), **_TRAIN},
    }


def _toml(value: Any) -> str:
    return json.dumps(value)  # JSON scalars and arrays of them are valid TOML values


def _write_toml(path: Path, cfg: dict[str, Any]) -> Path:
    """Write the (two-level) config dict as TOML, tables after the top-level keys."""
    lines = [f"{k} = {_toml(v)}" for k, v in cfg.items() if not isinstance(v, dict)]

    def table(name: str, body: dict[str, Any]) -> None:
        lines.append(f"\n[{name}]")
        lines.extend(f"{k} = {_toml(v)}" for k, v in body.items() if not isinstance(v, dict))
        for k, v in body.items():
            if isinstance(v, dict):
                table(f'{name}."{k}"' if "-" in k else f"{name}.{k}", v)

    for k, v in cfg.items():
        if isinstance(v, dict):
            table(k, v)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("data")
    _corpus(data / "train.jsonl", "tr", 10, seed=1)
    _corpus(data / "test-a.jsonl", "ta", 4, seed=2)
    _corpus(data / "test-b.jsonl", "tb", 3, seed=3)
    return data


@pytest.fixture(scope="module")
def encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), kind="bert")


@pytest.fixture(scope="module")
def grid_run(
    data_dir: Path, encoder: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, ExperimentReport]:
    """The 2 fractions x (none, mr at alpha 1) x 2 seeds grid, run once through the Python API."""
    cfg_path = _write_toml(data_dir / "grid.toml", _config_dict(data_dir, encoder))
    out = tmp_path_factory.mktemp("grid") / "out"
    return cfg_path, run_experiment(load_config(cfg_path), out, progress=False)


def _result(out: Path, cell_id: str) -> dict[str, Any]:
    return json.loads((out / "cells" / cell_id / "result.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------- grid run


def test_grid_writes_one_result_per_cell_with_scores_and_counts(
    grid_run: tuple[Path, ExperimentReport],
) -> None:
    _, report = grid_run
    ids = [c.id for c in report.cells]
    assert ids == [
        "f0.5_none_a0_s1", "f0.5_mr_a1_s1", "f0.5_none_a0_s2", "f0.5_mr_a1_s2",
        "f1_none_a0_s1", "f1_mr_a1_s1", "f1_none_a0_s2", "f1_mr_a1_s2",
    ]  # fmt: skip
    assert report.ran == tuple(ids) and report.skipped == ()
    res = _result(report.out_dir, "f1_mr_a1_s2")
    # 10 documents, 2 held out as dev, the whole pool of 8 trains; mr adds alpha=1 copy of each
    assert res["data"]["dev_docs"] == 2 and res["data"]["docs_before"] == 8
    assert res["data"]["spans_before"] == 32
    assert res["augmentation"][0]["kept"] + res["augmentation"][0]["dropped"] == 8
    assert res["data"]["docs_after"] == 8 + res["augmentation"][0]["kept"]
    assert res["train_config"]["seed"] == 2 and res["seeds"]["split"] == 2
    assert res["training"]["epochs_run"] >= 1 and res["seconds"]["total"] > 0
    for test, n_docs in (("site-a", 4), ("site-b", 3)):
        scores = res["test"][test]
        assert scores["docs"] == n_docs
        assert {"binary", "token", "entity"} <= set(scores) and 0.0 <= scores["entity"] <= 1.0
        assert scores["evaluation"]["per_label"] is not None
        assert scores["binary"] == scores["evaluation"]["binary"]["f1"]
    # models are deleted after evaluation unless keep_models
    assert not (report.out_dir / "cells" / "f1_mr_a1_s2" / "model").exists()


def test_same_training_subset_for_every_method_nested_across_fractions(
    grid_run: tuple[Path, ExperimentReport],
) -> None:
    out = grid_run[1].out_dir
    for frac in ("0.5", "1"):
        for seed in (1, 2):
            none = _result(out, f"f{frac}_none_a0_s{seed}")["data"]
            mr = _result(out, f"f{frac}_mr_a1_s{seed}")["data"]
            assert none["train_ids"] == mr["train_ids"] and none["dev_ids"] == mr["dev_ids"]
    half, full = (_result(out, f"f{f}_none_a0_s1")["data"] for f in ("0.5", "1"))
    assert len(half["train_ids"]) == 4 and set(half["train_ids"]) < set(full["train_ids"])
    assert not set(full["train_ids"]) & set(full["dev_ids"])
    seed2 = _result(out, "f1_none_a0_s2")["data"]
    assert seed2["dev_ids"] != full["dev_ids"]  # the split follows the seed


def test_table_has_kim_table2_shape(grid_run: tuple[Path, ExperimentReport]) -> None:
    report = grid_run[1]
    assert report.table_path is not None
    lines = report.table_path.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("| ")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    assert header[:4] == ["Train", "Setting", "Seeds", "Train docs (aug.)"]
    assert header[4:] == [f"{t} {m}" for t in ("site-a", "site-b") for m in "BTE"]
    body = [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]]
    assert [(r[0], r[1], r[2]) for r in body] == [
        ("50% (4 docs)", "none", "2"),
        ("50% (4 docs)", "+mr α=1", "2"),
        ("100% (8 docs)", "none", "2"),
        ("100% (8 docs)", "+mr α=1", "2"),
    ]
    for r in body:
        assert len(r) == len(header)
        assert all(" ± " in c for c in r[4:])  # two seeds: mean ± std
    # the best of each column within a fraction is bold
    for block in (body[:2], body[2:]):
        for col in range(4, len(header)):
            assert any(r[col].startswith("**") for r in block)


def test_png_plot_is_written(grid_run: tuple[Path, ExperimentReport]) -> None:
    report = grid_run[1]
    assert report.plot_path is not None and report.plot_path.name == "f1-vs-alpha.png"
    assert report.plot_path.read_bytes()[:8] == _PNG and report.plot_path.stat().st_size > 5000


def test_resume_skips_finished_cells_and_reruns_missing_ones(
    grid_run: tuple[Path, ExperimentReport], tmp_path: Path
) -> None:
    cfg_path, report = grid_run
    out = tmp_path / "out"
    shutil.copytree(report.out_dir, out)
    stamp = (out / "cells" / "f0.5_none_a0_s1" / "result.json").stat().st_mtime_ns
    (out / "cells" / "f1_mr_a1_s1" / "result.json").unlink()
    result = CliRunner().invoke(cli, ["experiment", str(cfg_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "ran 1, 7 already finished" in result.output
    assert (out / "cells" / "f0.5_none_a0_s1" / "result.json").stat().st_mtime_ns == stamp
    assert (out / "cells" / "f1_mr_a1_s1" / "result.json").is_file()
    # a dry run lists every cell as done and trains nothing
    dry = CliRunner().invoke(cli, ["experiment", str(cfg_path), "-o", str(out), "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert dry.output.count("done  ") == 8 and "0 to run" in dry.output


def test_resume_refuses_results_made_with_other_settings(
    grid_run: tuple[Path, ExperimentReport], data_dir: Path, encoder: Path, tmp_path: Path
) -> None:
    cfg = _config_dict(data_dir, encoder)
    cfg["train"]["epochs"] = 2
    other = _write_toml(tmp_path / "other.toml", cfg)
    with pytest.raises(ConfigError, match="other settings"):
        run_experiment(load_config(other), grid_run[1].out_dir, dry_run=True, progress=False)


def test_an_interrupted_grid_keeps_its_finished_cells_and_resumes_from_them(
    data_dir: Path, encoder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the third training: the first two cells are on disk and a rerun runs only the third."""
    from phiscrub.train import trainer

    cfg = load_config(
        _write_toml(
            tmp_path / "g.toml",
            _config_dict(data_dir, encoder, fractions=[1.0], methods=["none"], seeds=[1, 2, 3]),
        )
    )
    real_train = trainer.train
    calls: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_train(*args, **kwargs)

    monkeypatch.setattr(trainer, "train", interrupted)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(cfg, out, progress=False)
    ids = ["f1_none_a0_s1", "f1_none_a0_s2", "f1_none_a0_s3"]
    assert [(out / "cells" / i / "result.json").is_file() for i in ids] == [True, True, False]
    monkeypatch.setattr(trainer, "train", real_train)
    report = run_experiment(cfg, out, progress=False)
    assert report.ran == ("f1_none_a0_s3",) and report.skipped == tuple(ids[:2])
    assert [r["cell_id"] for r in report.results] == ids


def test_dry_run_plans_without_training(data_dir: Path, encoder: Path, tmp_path: Path) -> None:
    cfg = _config_dict(data_dir, encoder, methods=["none", "phicon", "mr+daga"], alphas=[1, 2], seeds=[7])
    cfg_path = _write_toml(tmp_path / "plan.toml", cfg)
    result = CliRunner().invoke(cli, ["experiment", str(cfg_path), "-o", str(tmp_path / "o"), "--dry-run"])
    assert result.exit_code == 0, result.output
    # per fraction: none once + 2 methods x 2 alphas
    assert result.output.count("todo  ") == 2 * (1 + 2 * 2)
    assert "todo  f0.5_mr+daga_a2_s7" in result.output
    assert "fraction 0.5 seed 7: 4 training documents (16 spans), 2 dev documents" in result.output
    assert not (tmp_path / "o").exists()


# ---------------------------------------------------------------------------------------------- pieces


def test_split_is_seeded_and_the_same_whatever_the_input_order() -> None:
    docs = generate_docs([f"d{i:02d}" for i in range(20)], 0, _note_parts)
    train, dev = split_train(docs, 0.5, seed=3, held_out=0.1)
    again = split_train(list(reversed(docs)), 0.5, seed=3, held_out=0.1)
    assert ([d.id for d in train], [d.id for d in dev]) == (
        [d.id for d in again[0]],
        [d.id for d in again[1]],
    )
    assert len(dev) == 2 and len(train) == 9  # 0.5 of the 18-document pool
    assert split_train(docs, 0.5, seed=4, held_out=0.1)[1] != dev
    small = split_train(docs, 0.25, seed=3, held_out=0.1)[0]
    assert {d.id for d in small} < {d.id for d in train}
    assert split_train(docs, 1.0, seed=3)[1] == []


def test_union_adds_each_components_copies_of_the_subset() -> None:
    subset = generate_docs([f"s{i}" for i in range(6)], 1, _note_parts)
    options = AugmentOptions(daga={"epochs": 1, "embed_dim": 8, "hidden": 16})
    mr, mr_stats = augment_train(subset, "mr", 2, seed=1, options=options)
    union, stats = augment_train(subset, "mr+daga", 2, seed=1, options=options)
    assert [s["method"] for s in stats] == ["mr", "daga"]
    assert len(mr) == mr_stats[0]["kept"] == stats[0]["kept"]
    assert len(union) == stats[0]["kept"] + stats[1]["documents_out"]
    # the union's mr part is exactly mr alone (same seed), ids prefixed by the component
    assert [d.text for d in union if d.id.startswith("mr:")] == [d.text for d in mr]
    assert all(d.id.startswith(("mr:", "daga:")) for d in union)
    assert stats[1]["generated"] == 2 * stats[1]["phi_sentences"]
    assert augment_train(subset, "none", 0, seed=1, options=options) == ([], [])


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: c["grid"].update(alpha=[1]), "grid.alpha"),
        (lambda c: c["grid"].update(methods=["none", "phi+bogus"]), "grid.methods"),
        (lambda c: c["grid"].update(fractions=[0.0, 0.5]), "grid.fractions"),
        (lambda c: c["grid"].update(alphas=[0]), "grid.alphas"),
        (lambda c: c["grid"].pop("seeds"), "grid.seeds"),
        (lambda c: c["train"].update(epoch=3), "train.epoch"),
        (lambda c: c["train"].update(seed=3), "train.seed"),
        (lambda c: c["train"].update(epochs="many"), "'train.epochs' expects int"),
        (lambda c: c["augment"]["daga"].update(hiden=3), "augment.daga.hiden"),
        (lambda c: c["data"]["dev"].update(path="x"), "data.dev"),
        (
            lambda c: c["data"]["test"]["site-a"].update(path=c["data"]["train"]["path"]),
            "data.test.site-a.path",
        ),
        (lambda c: c["data"]["test"]["site-a"].update(format="docx"), "data.test.site-a.format"),
        (lambda c: c.update(labels="tiny"), "labels"),
        (lambda c: c.update(keep_models="yes"), "keep_models"),
    ],
)
def test_bad_config_raises_config_error_naming_the_key(
    change: Any, key: str, data_dir: Path, encoder: Path, tmp_path: Path
) -> None:
    cfg = _config_dict(data_dir, encoder)
    change(cfg)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(cfg), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert key in str(err.value)


def test_none_runs_once_per_fraction_and_seed_whatever_the_alphas(data_dir: Path, encoder: Path) -> None:
    cfg_path = _write_toml(
        data_dir / "plan2.toml",
        _config_dict(data_dir, encoder, methods=["none", "phi"], alphas=[1, 2, 3], fractions=[0.3]),
    )
    cells = plan_cells(load_config(cfg_path))
    assert [(c.method, c.alpha) for c in cells if c.seed == 1] == [
        ("none", 0),
        ("phi", 1),
        ("phi", 2),
        ("phi", 3),
    ]
    assert len(cells) == 8


def test_example_meddocan_config_is_valid() -> None:
    repo = Path(__file__).resolve().parents[1]
    config = load_config(repo / "examples" / "experiments" / "meddocan-aug.toml")
    assert config.methods == ("none", "phi", "context", "phicon", "mr", "daga", "mr+daga")
    assert (config.fractions, config.alphas, config.seeds) == ((0.1, 0.2), (1, 2), (1, 2))
    assert config.train_corpus.path == (repo / ".." / "shared" / "data" / "meddocan" / "train").resolve()
    assert config.dev.kind == "held_out" and list(config.test_corpora) == ["meddocan-dev"]
    assert len(plan_cells(config)) == 2 * 2 * (1 + 6 * 2)
