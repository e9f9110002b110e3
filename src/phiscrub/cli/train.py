"""``phiscrub train`` and ``phiscrub predict``: fit a PHI tagger, and run one over a corpus."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from phiscrub.cli._common import (
    batch_size_option,
    corpus_option,
    draws_option,
    existing_path_option,
    guard_option,
    input_argument,
    input_format_option,
    labels_option,
    lexicon_option,
    model_option,
    output_option,
    policy_option,
    propagate_option,
    read_with_problems,
    rules_lang_option,
    seed_option,
    threshold_option,
)
from phiscrub.cli._engine import site_options
from phiscrub.document import Document
from phiscrub.train.config import INIT_HEADS, RECIPES, SAVE_DTYPES

__all__ = ["predict", "train_cmd"]


def read_inputs(
    paths: tuple[Path, ...], fmt: str | None, corpus: str | None, seed: int, draws: int
) -> list[Document]:
    """Read and concatenate corpora; reading problems are printed (ids only) and counted."""
    docs: list[Document] = []
    for path in paths:
        got, problems, used = read_with_problems(path, fmt, corpus, seed, draws)
        click.echo(f"read {len(got)} documents from {path} ({used}); problems: {len(problems)}", err=True)
        docs.extend(got)
    return docs


def _native_corpus(labels: str | None, corpus: str | None) -> str | None:
    """The corpus of ``--labels native`` (checked), or None for the other granularities."""
    from phiscrub.labels import NATIVE_CORPORA

    if labels != "native":
        return None
    if corpus not in NATIVE_CORPORA:
        raise click.UsageError(f"--labels native needs --corpus, one of {', '.join(NATIVE_CORPORA)}")
    return corpus


def native_scheme_of_model(model: str | None) -> str:
    """The native label scheme recorded in a model folder (``labels.json``), for ``--labels native``.

    Raises:
        click.UsageError: no model, or a model trained on another granularity.
    """
    import json

    from phiscrub.detect.tagger import bundled_model_path
    from phiscrub.labels import is_native

    folder = bundled_model_path() if model in (None, "default") else Path(model)
    scheme = None
    if folder is not None and (folder / "labels.json").is_file():
        scheme = json.loads((folder / "labels.json").read_text(encoding="utf-8")).get("granularity")
    if not isinstance(scheme, str) or not is_native(scheme):
        raise click.UsageError(
            "--labels native needs a model trained with --labels native (its labels.json names the scheme)"
        )
    return scheme


@click.command("train")
@existing_path_option(
    "--train",
    "train_paths",
    multiple=True,
    help="Training corpus (repeatable: original + augmented copies). Not with --recipe.",
)
@click.option(
    "--recipe",
    type=click.Choice(RECIPES),
    default=None,
    help="Few-shot transfer recipe (Amin et al. 2022) on --source and --target instead of --train.",
)
@existing_path_option(
    "--source", "source_paths", multiple=True, help="Source corpus M of a recipe (repeatable)."
)
@existing_path_option(
    "--target", "target_paths", multiple=True, help="Few-shot target corpus F of a recipe (repeatable)."
)
@existing_path_option("--dev", "dev_path", help="Dev corpus for early stopping (token micro F1, patience 3).")
@output_option("out_dir", "Model folder.")
@click.option(
    "--encoder",
    default=None,
    help="Local Hugging Face encoder folder (default: bundled MiniLM), 'bilstm-crf' for the "
    "character + word BiLSTM-CRF trained from scratch (no pretrained weights), or 'gemma3-270m' / a "
    ".gguf file: a frozen multilingual llama.cpp model as word features under a BiLSTM-CRF.",
)
@existing_path_option(
    "--init-from",
    "init_from",
    file_okay=False,
    help="Continue training a saved model folder (with --recipe: its first stage).",
)
@click.option(
    "--head",
    "init_head",
    type=click.Choice(INIT_HEADS),
    default=None,
    help="With --init-from a model of other labels (e.g. fine -> --labels coarse): fold its output "
    "head to the new labels (BIO-aware: rows of labels folding together merged) or re-initialise it.",
)
@click.option("--crf/--no-crf", default=None, help="CRF output layer (default: from config, on).")
@labels_option(
    "Label granularity; native: the corpus's own labels (with --corpus meddocan, i2b2-2006, "
    "i2b2-2014 or brat), labels met in the data beyond its inventory kept as their own types.",
    default=None,
    native=True,
)
@input_format_option(help="Input format of every corpus (default: guess).")
@corpus_option(help="Label mapping of the inputs (meddocan, i2b2-2014 ...).")
@existing_path_option(
    "--config", "config_path", help="TrainConfig file (.json or .toml); command-line options override it."
)
@click.option("--epochs", type=int, default=None, help="Maximum epochs (with --recipe: of every stage).")
@click.option(
    "--patience",
    type=click.IntRange(min=1),
    default=None,
    help="Epochs without dev improvement before stopping (default 3; few-shot runs want more).",
)
@click.option(
    "--source-epochs", type=int, default=None, help="Recipe: epochs of a stage that sees M (paper: 3)."
)
@click.option(
    "--target-epochs", type=int, default=None, help="Recipe: epochs of a stage on F alone (paper: 25)."
)
@click.option(
    "--target-repeat", type=int, default=1, show_default=True, help="Recipe: copies of F pooled with M."
)
@click.option(
    "--lr",
    type=float,
    default=None,
    help="Encoder learning rate (default 5e-5; with --recipe 3e-5); for bilstm-crf the learning rate "
    "of the whole model (default 5e-3).",
)
@click.option("--head-lr", type=float, default=None, help="Learning rate of the head and CRF (transformer).")
@click.option("--batch-size", type=int, default=None)
@click.option(
    "--max-length",
    type=int,
    default=None,
    help="Subword tokens per window (default 192); for bilstm-crf, words per window (default 64).",
)
@seed_option(default=None)
@click.option(
    "--time-budget",
    "time_budget_s",
    type=float,
    default=None,
    help="Stop training after N seconds (with --recipe: per stage).",
)
@click.option("--threads", "num_threads", type=int, default=None, help="torch threads.")
@draws_option()
@click.option("--save-dtype", type=click.Choice([d for d in SAVE_DTYPES if d != "int8"]), default=None)
def train_cmd(
    train_paths: tuple[Path, ...],
    recipe: str | None,
    source_paths: tuple[Path, ...],
    target_paths: tuple[Path, ...],
    dev_path: Path | None,
    out_dir: Path,
    encoder: str | None,
    init_from: Path | None,
    crf: bool | None,
    init_head: str | None,
    labels: str | None,
    fmt: str | None,
    corpus: str | None,
    config_path: Path | None,
    epochs: int | None,
    patience: int | None,
    source_epochs: int | None,
    target_epochs: int | None,
    target_repeat: int,
    lr: float | None,
    head_lr: float | None,
    batch_size: int | None,
    max_length: int | None,
    seed: int | None,
    time_budget_s: float | None,
    num_threads: int | None,
    draws: int,
    save_dtype: str | None,
) -> None:
    """Train a PHI tagger (transformer encoder or BiLSTM, + optional CRF) on labelled corpora.

    Either on --train corpora, or with a few-shot transfer --recipe on --source (M) and --target (F):
    finetune (F), source-then-target (M, then F), multitask (M + F), multitask-then-target
    (M + F, then F). Recipe defaults follow Amin et al. (2022): learning rate 3e-5, 10% warm-up,
    3 epochs on stages that see M, 25 on F alone.
    """
    from phiscrub.errors import ConfigError
    from phiscrub.train.run import TrainRun, check_run, resolve_config, run_training

    native_corpus = _native_corpus(labels, corpus)
    overrides: dict[str, object] = {
        "init_from": str(init_from) if init_from is not None else None,
        "init_head": init_head,
        "use_crf": crf,
        # --labels native: the granularity is set from the corpus and the data
        "granularity": None if native_corpus is not None else labels,
        "epochs": epochs,
        "patience": patience,
        "lr": lr,
        "head_lr": head_lr,
        "batch_size": batch_size,
        "max_length": max_length,
        "seed": seed,
        "time_budget_s": time_budget_s,
        "num_threads": num_threads,
        "save_dtype": save_dtype,
    }
    run = TrainRun(
        out_dir, train_paths, recipe, source_paths, target_paths, dev_path, source_epochs, target_epochs,
        target_repeat, draws, native_corpus, overrides,
    )  # fmt: skip
    reader_corpus = "native" if native_corpus is not None else corpus  # readers keep every label as written

    def read(paths: Sequence[Path], seed: int, n_draws: int) -> list[Document]:
        return read_inputs(tuple(paths), fmt, reader_corpus, seed, n_draws)

    try:
        check_run(run)
    except ConfigError as err:
        raise click.UsageError(str(err)) from None
    result = run_training(run, resolve_config(config_path, recipe, encoder, overrides), read)
    if recipe is not None:
        for stage in result.stages:
            click.echo(
                f"stage {stage.name}: {stage.n_docs} documents, best dev token F1 {stage.result.best_dev_f1} "
                f"at epoch {stage.result.best_epoch} -> {stage.result.model_dir}",
                err=True,
            )
        if result.fusion is not None:
            click.echo(result.fusion.summary(), err=True)
        result = result.final
    click.echo(
        f"model saved to {result.model_dir}: best dev token F1 {result.best_dev_f1} at epoch {result.best_epoch}; "
        f"{result.epochs_run} epochs, {result.steps} steps, stop: {result.stop_reason}, {result.seconds:.0f} s",
        err=True,
    )


@click.command()
@input_argument()
@output_option("out", "Output corpus (format from --to).")
@click.option(
    "--to", "dst_fmt", default="jsonl", show_default=True, help="Output format (jsonl, brat, conll, i2b2)."
)
@model_option(
    "Model folder, 'default' (the bundled English model; rules alone for another --lang), 'bundled' "
    "(that model on every language) or 'none' (no model: rules only)."
)
@click.option("--rules/--no-rules", default=True, show_default=True, help="Add the rule detectors.")
@lexicon_option("Add the lexicon detector.")
@propagate_option()
@input_format_option()
@corpus_option(help="Label mapping of the input (with --labels native: the corpus whose labels are written).")
@labels_option(
    "fine (default): phiscrub's fine labels. native: the labels of --corpus (meddocan, i2b2-2006, "
    "i2b2-2014, brat) as a --labels native model predicts them; rule and lexicon spans are "
    "relabelled to that corpus's types, and --policy defaults to strict (every type written; "
    "docs/model.md).",
    default="fine",
    native=True,
)
@rules_lang_option()
@batch_size_option()
@policy_option()
@threshold_option()
@guard_option()
@site_options()
@click.option(
    "--patient-field", default=None, help="Metadata or JSONL key with each note's patient (--registry)."
)
def predict(
    input_path: Path,
    out: Path,
    dst_fmt: str,
    model: str,
    rules: bool,
    lexicon: bool,
    propagate: bool,
    fmt: str | None,
    corpus: str | None,
    labels: str,
    lang: str,
    batch_size: int,
    policy: str | None,
    patient_field: str | None = None,
    **engine: Any,
) -> None:
    """Detect PHI in a corpus and write the predicted spans (the input text is unchanged).

    Each span keeps its score (calibrated when the model folder holds a calibration); with
    --threshold 0 the output can be swept over thresholds afterwards (phiscrub.evaluate.curve).
    """
    # engine: --threshold, --guard, --site-lists, --registry, --allow-list: DeidConfig fields of
    # the same names
    from tqdm import tqdm

    from phiscrub.deid import Deidentifier
    from phiscrub.detect.base import Detector
    from phiscrub.detect.lexicon import LexiconDetector
    from phiscrub.detect.rules import default_detectors
    from phiscrub.engine_config import DeidConfig
    from phiscrub.io import get_writer
    from phiscrub.labels import to_native

    native_corpus = _native_corpus(labels if labels == "native" else None, corpus)
    docs = read_inputs((input_path,), fmt, "native" if native_corpus else corpus, 0, 1)
    if patient_field is not None:
        from phiscrub.cli._site import attach_patients

        docs, with_patient = attach_patients(docs, input_path, patient_field)
        click.echo(f"{with_patient} of {len(docs)} documents name their patient", err=True)
    if native_corpus is not None and policy is None:
        # The corpus annotates all its types (MEDDOCAN's SEXO_SUJETO_ASISTENCIA too): write them all.
        policy = "strict"
    dets: list[Detector] = list(default_detectors(lang=lang)) if rules else []
    if lexicon:
        dets.append(LexiconDetector(lang=lang))
    model_dir = None if model == "none" else model
    config = DeidConfig(
        labels="fine", policy=policy, model=model_dir, propagate=propagate, lang=lang, **engine
    )
    deid = Deidentifier.from_config(config, detectors=dets)
    predicted: list[Document] = []
    bar = tqdm(total=len(docs), desc="predict", unit="doc", file=sys.stderr, delay=1.0)
    for i in range(0, len(docs), batch_size):
        batch = docs[i : i + batch_size]
        for d, spans in zip(batch, deid.detect_many(batch)):
            if native_corpus is not None:
                spans = [s.with_label(to_native(s.label, native_corpus)) for s in spans]
            predicted.append(d.with_spans(spans))
        bar.update(len(batch))
    bar.close()
    get_writer(dst_fmt).write(predicted, out)
    n = sum(len(d.spans) for d in predicted)
    click.echo(f"predicted {n} spans in {len(predicted)} documents -> {out}", err=True)
