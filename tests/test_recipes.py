"""Few-shot transfer recipes (Amin et al. 2022) and continued training (init_from), on both backbones."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from corpora import Part, generate_docs, tiny_bilstm_config, tiny_transformer_config
from phiscrub.cli.app import cli
from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.evaluate.metrics import evaluate
from phiscrub.io import get_writer
from phiscrub.train import BiLstmTagger, TrainConfig, load_tagger, predict_words, train
from phiscrub.train.recipes import (
    PAPER_SOURCE_EPOCHS,
    PAPER_TARGET_EPOCHS,
    RECIPES,
    paper_config,
    plan_stages,
    run_recipe,
)
from phiscrub.train.tiny import make_tiny_encoder

# Made-up names, dates and places only (synthetic PHI).
NAMES = ("Alma Quill", "Boris Ranter", "Celia Sovik", "Dario Tamber", "Edna Ulvane", "Hugo Varga")
PLACES = ("Larkspur", "Oakmere", "Fenwick", "Brindle")

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _source_parts(rng: random.Random) -> list[Part]:
    return [
        ("Paciente ", None),
        (rng.choice(NAMES), "PATIENT"),
        (" ingresó el ", None),
        (f"{rng.randint(1, 28)}/{rng.randint(1, 12)}/20{rng.randint(10, 24)}", "DATE"),
        (".", None),
    ]


def _target_parts(rng: random.Random) -> list[Part]:
    return [
        ("La pacient ", None),
        (rng.choice(NAMES), "PATIENT"),
        (" va ingressar a ", None),
        (rng.choice(PLACES), "CITY"),
        (" dimarts.", None),
    ]


def source_docs(n: int, seed: int = 0) -> list[Document]:
    """Source-style notes (Spanish template)."""
    return generate_docs([f"src{i}" for i in range(n)], seed, _source_parts)


def target_docs(n: int, seed: int = 1) -> list[Document]:
    """Target-style notes (Catalan template, a label the source never shows: CITY)."""
    return generate_docs([f"tgt{seed}-{i}" for i in range(n)], seed, _target_parts)


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tiny_encoder(tmp_path_factory.mktemp("tiny") / "enc", kind="bert")


def _tiny_transformer(encoder: Path, **changes: object) -> TrainConfig:
    return tiny_transformer_config(encoder, num_threads=1, **changes)


def test_paper_defaults() -> None:
    config = paper_config()
    assert (config.lr, config.warmup_ratio) == (3e-5, 0.1)
    assert (PAPER_SOURCE_EPOCHS, PAPER_TARGET_EPOCHS) == (3, 25)
    assert paper_config(encoder="bilstm-crf").bilstm.lr == TrainConfig().bilstm.lr


def test_stage_plans_follow_the_paper() -> None:
    m, f = source_docs(5), target_docs(2)
    plans = {r: plan_stages(r, [] if r == "finetune" else m, f) for r in RECIPES}
    summary = {r: [(name, len(docs), epochs) for name, docs, epochs in p] for r, p in plans.items()}
    assert summary == {
        "finetune": [("target", 2, 25)],
        "source-then-target": [("source", 5, 3), ("target", 2, 25)],
        "multitask": [("multitask", 7, 3)],
        "multitask-then-target": [("multitask", 7, 3), ("target", 2, 25)],
    }
    ((_, pooled, _),) = plan_stages("multitask", m, f, target_repeat=3)
    assert [d.id for d in pooled] == [d.id for d in m] + [d.id for d in f] * 3


@pytest.mark.parametrize(
    ("recipe", "m", "f", "changes"),
    [
        ("transfer", 1, 1, {}),
        ("finetune", 1, 1, {}),
        ("multitask", 0, 1, {}),
        ("source-then-target", 1, 0, {}),
        ("multitask", 1, 1, {"target_repeat": 0}),
        ("finetune", 0, 1, {"target_epochs": 0}),
    ],
)
def test_bad_recipes_are_config_errors(recipe: str, m: int, f: int, changes: dict[str, int]) -> None:
    with pytest.raises(ConfigError):
        plan_stages(recipe, source_docs(m), target_docs(f), **changes)


def test_source_then_target_with_the_bilstm(tmp_path: Path) -> None:
    dev = target_docs(4, seed=9)
    config = tiny_bilstm_config()
    result = run_recipe(
        "source-then-target",
        target_docs(6),
        dev,
        config,
        tmp_path / "out",
        source_docs=source_docs(12),
        source_epochs=4,
        target_epochs=25,
        progress=False,
    )
    stage1 = tmp_path / "out" / "stage1-source"
    assert [s.name for s in result.stages] == ["source", "target"]
    assert result.stages[0].result.model_dir == stage1 and result.model_dir == tmp_path / "out"
    assert result.stages[1].result.config.init_from == str(stage1.resolve())
    summary = json.loads((tmp_path / "out" / "recipe.json").read_text())
    assert [s["epochs"] for s in summary["stages"]] == [4, 25]
    first, final = load_tagger(stage1), load_tagger(tmp_path / "out")
    assert isinstance(first, BiLstmTagger) and isinstance(final, BiLstmTagger)
    # the target stage extended the source vocabulary with the target's words
    assert final.vocab.words[: len(first.vocab.words)] == first.vocab.words
    assert "ingressar" in final.vocab.words and "ingressar" not in first.vocab.words
    predicted = [d.with_spans(p.spans()) for d, p in zip(dev, predict_words(final, dev))]
    assert evaluate(dev, predicted, "coarse").entity.f1 == 1.0


def test_multitask_pools_source_and_repeated_target(tmp_path: Path) -> None:
    result = run_recipe(
        "multitask",
        target_docs(2),
        [],
        tiny_bilstm_config(),
        tmp_path,
        source_docs=source_docs(5),
        source_epochs=1,
        target_repeat=2,
        progress=False,
    )
    (stage,) = result.stages
    assert (stage.name, stage.n_docs, stage.result.epochs_run) == ("multitask", 9, 1)
    assert not any(p.name.startswith("stage") for p in tmp_path.iterdir())


def test_multitask_then_target_with_a_tiny_transformer(tiny_bert: Path, tmp_path: Path) -> None:
    dev = target_docs(3, seed=5)
    result = run_recipe(
        "multitask-then-target",
        target_docs(4),
        dev,
        _tiny_transformer(tiny_bert),
        tmp_path,
        source_docs=source_docs(4),
        source_epochs=2,
        target_epochs=3,
        progress=False,
    )
    assert [(s.name, s.result.epochs_run <= e) for s, e in zip(result.stages, (2, 3))] == [
        ("multitask", True),
        ("target", True),
    ]
    assert result.final.config.init_from == str((tmp_path / "stage1-multitask").resolve())
    assert (tmp_path / "tagger.safetensors").is_file() and (tmp_path / "encoder").is_dir()


@pytest.mark.parametrize("backbone", ["transformer", "bilstm"])
def test_init_from_continues_from_the_saved_weights(backbone: str, tiny_bert: Path, tmp_path: Path) -> None:
    if backbone == "bilstm":
        config = tiny_bilstm_config()
        frozen = {"bilstm_lr": 1e-12}
    else:
        config = _tiny_transformer(tiny_bert)
        frozen = {"lr": 1e-12, "head_lr": 1e-12}
    train(source_docs(8), [], config.replace(epochs=3), tmp_path / "a", progress=False)
    # almost no learning rate: the continued model must still be the saved one
    cont = config.replace(init_from=str(tmp_path / "a"), max_steps=1, **frozen)
    result = train(target_docs(4), [], cont, tmp_path / "b", progress=False)
    assert result.config.init_from == str(tmp_path / "a")
    a, b = load_tagger(tmp_path / "a"), load_tagger(tmp_path / "b")
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys()
    for key, value in sa.items():
        rows = value.shape[0] if key.endswith("_emb.weight") else None  # BiLSTM vocab grew
        torch.testing.assert_close(sb[key][:rows], value, atol=1e-6, rtol=0)
    # a fresh model from the same config differs: the weights above were not re-initialised
    fresh = train(target_docs(4), [], config.replace(max_steps=1, **frozen), tmp_path / "c", progress=False)
    sc = load_tagger(fresh.model_dir).state_dict()
    assert not torch.equal(sc["head.weight"], sa["head.weight"])


def test_init_from_refuses_another_granularity_or_backbone(tiny_bert: Path, tmp_path: Path) -> None:
    train(source_docs(4), [], tiny_bilstm_config().replace(max_steps=1), tmp_path / "a", progress=False)
    with pytest.raises(ConfigError, match="granularity|labels"):
        train(
            target_docs(2),
            [],
            tiny_bilstm_config().replace(init_from=str(tmp_path / "a"), granularity="fine"),
            tmp_path / "b",
            progress=False,
        )
    with pytest.raises(ConfigError, match="bilstm-crf model"):
        train(
            target_docs(2),
            [],
            _tiny_transformer(tiny_bert, init_from=str(tmp_path / "a")),
            tmp_path / "c",
            progress=False,
        )


def _write(docs: list[Document], path: Path) -> Path:
    get_writer("jsonl").write(docs, path)
    return path


def test_cli_recipe_runs_both_stages_with_paper_defaults(tiny_bert: Path, tmp_path: Path) -> None:
    m = _write(source_docs(4), tmp_path / "m.jsonl")
    f = _write(target_docs(3), tmp_path / "f.jsonl")
    dev = _write(target_docs(2, seed=4), tmp_path / "dev.jsonl")
    out = tmp_path / "model"
    args = ["train", "--recipe", "source-then-target", "--source", str(m), "--target", str(f)]
    args += ["--dev", str(dev), "-o", str(out), "--encoder", str(tiny_bert)]
    args += ["--time-budget", "0.001", "--threads", "1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "recipe.json").read_text())
    assert [(s["name"], s["epochs"], s["steps"]) for s in summary["stages"]] == [
        ("source", 3, 1),
        ("target", 25, 1),
    ]
    saved = TrainConfig.from_json(out / "config.json")
    assert (saved.lr, saved.warmup_ratio, saved.init_from) == (
        3e-5,
        0.1,
        str((out / "stage1-source").resolve()),
    )


def test_cli_recipe_epoch_options_and_bilstm(tmp_path: Path) -> None:
    f = _write(target_docs(3), tmp_path / "f.jsonl")
    out = tmp_path / "model"
    args = ["train", "--recipe", "finetune", "--target", str(f), "-o", str(out), "--encoder", "bilstm-crf"]
    args += ["--epochs", "2", "--threads", "1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "recipe.json").read_text())
    assert [(s["name"], s["epochs_run"]) for s in summary["stages"]] == [("target", 2)]
    assert TrainConfig.from_json(out / "config.json").backbone == "bilstm-crf"


@pytest.mark.parametrize(
    "extra",
    [
        ["--recipe", "multitask", "--target", "{f}"],
        ["--recipe", "finetune", "--target", "{f}", "--source", "{f}"],
        ["--recipe", "finetune"],
        ["--recipe", "finetune", "--target", "{f}", "--train", "{f}"],
        ["--train", "{f}", "--source", "{f}"],
        ["--train", "{f}", "--target-epochs", "3"],
        [],
    ],
)
def test_cli_rejects_inconsistent_corpus_options(extra: list[str], tmp_path: Path) -> None:
    f = _write(target_docs(1), tmp_path / "f.jsonl")
    args = ["train", "-o", str(tmp_path / "out"), *[a.format(f=f) for a in extra]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
