"""Few-shot cross-lingual transfer experiments (Amin et al. 2022, Table 3) on this project's data.

Source M: MEDDOCAN train (Spanish, BRAT). Targets (surrogate-filled zero-shot notes):

* ``k``: Catalan/Spanish notes ``zeroshot-notes/k``; pool k-001..k-028 (fill seed 11), dev
  k-029..k-035 (fill seed 12);
* ``en``: English notes ``zeroshot-notes/a`` .. ``j``; pool 001-030 of each folder (seed 11), dev
  031-035 of each folder (seed 12; also held out from the bundled model).

Few-shot corpora F: ``phiscrub fewshot-sample POOL -k K --seed 1`` for K = 50 and 100 sentences.

Rows per (target, K): source only (the MEDDOCAN model on the target dev), finetune (F only),
source-then-target (``--recipe finetune --init-from`` the MEDDOCAN model), multitask (M + F),
multitask-then-target (``--recipe finetune --init-from`` the multitask model). Backbones: BiLSTM-CRF
(all rows) and MiniLM (all rows; source-then-target from ``build/meddocan-model``). Also: the BiLSTM-CRF on
MEDDOCAN dev, a Chinese BiLSTM-CRF on ``zeroshot-notes/l`` with a ``phiscrub redact --lang zh`` pass
whose offsets are checked (:func:`check_zh_redaction`), and the per-label figure
``docs/img/crosslingual-per-label.png`` of the best ``k`` run. Results: ``docs/crosslingual.md``.

Every step is the ``phiscrub`` command printed before it runs (executed in this process, one torch
thread). The runs are a grid of :func:`phiscrub.experiment.grid.run_grid` with a ``FolderStore``:
each run writes ``OUT/<run>/result.json`` (scores, training summary, CPU and wall seconds, the
commands) and is skipped when that file exists with the same commands (a run whose commands changed
runs again); ``OUT/table.md`` is rewritten at the end.
Run it with ``nice -n 10`` on a shared machine.

With ``--encoder gemma3-270m`` (or a ``.gguf`` path) the plan also holds the runs of that frozen
multilingual encoder (:func:`plan_encoder`, ``docs/crosslingual.md`` "Multilingual encoder"): its
MEDDOCAN model (optionally on the first ``--meddocan-train-docs`` / ``--meddocan-dev-docs``
documents, with a BiLSTM-CRF trained on the same subset for comparison), source only and
FINE-TUNE (M) -> FINE-TUNE (F) for every target and ``--encoder-ks``; results in
``OUT/table-encoder.md``.

Usage:
    OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE nice -n 10 python scripts/crosslingual_experiments.py \
        [--out build/crosslingual] [--only REGEX] [--list] \
        [--encoder gemma3-270m [--meddocan-train-docs N] [--meddocan-dev-docs N] [--encoder-ks 50]]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import json
import re
import resource
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.experiment.grid import FolderStore, markdown_table, mean_sd, run_grid, summarize

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
NOTES = DATA / "zeroshot-notes"
MEDDOCAN_TRAIN = DATA / "meddocan" / "train"
MEDDOCAN_DEV = DATA / "meddocan" / "dev"
MINILM_MEDDOCAN = ROOT / "build" / "meddocan-model"
MINILM_MEDDOCAN_EVAL = ROOT / "build" / "meddocan-eval.json"

POOL_SEED = 11
DEV_SEED = 12
FEWSHOT_SEED = 1
KS = (50, 100)
TARGETS = ("k", "en")
#: Epochs: BiLSTM on MEDDOCAN alone, BiLSTM multi-task stage (M + F), BiLSTM stages on F alone,
#: MiniLM stages on F alone, the Chinese BiLSTM.
BILSTM_SOURCE_EPOCHS = 10
BILSTM_MULTITASK_EPOCHS = 5
BILSTM_TARGET_EPOCHS = 25
#: MiniLM stages on F: the paper's 25 epochs; MiniLM stages that see M: the paper's 3.
MINILM_TARGET_EPOCHS = {"k": 25, "en": 25}
MINILM_MULTITASK_EPOCHS = 3
#: Training seeds of the BiLSTM-CRF few-shot rows (seed 1: the run without a suffix; others: ``-seedN``).
BILSTM_SEEDS = (1, 2, 3)
ZH_EPOCHS = 30
ZH_TRAIN_SEEDS = (11, 21, 31)
THREADS = 1
#: Runs left out (none: every cell of the table is run).
DROPPED: frozenset[str] = frozenset()

#: ``gguf_*`` keys of the frozen-encoder runs (``OUT/config-encoder.json``): the first 6 of Gemma 3
#: 270M's 18 blocks (about 2x faster extraction on this machine), passes of 512 model tokens, the
#: mean of a word's token vectors.
ENCODER_CONFIG: dict[str, Any] = {"gguf_layers": 6, "gguf_ctx": 512, "gguf_pooling": "mean"}

__all__ = ["Run", "main", "plan", "plan_encoder"]


@dataclass
class Run:
    """One row of the results: commands to run, then the dev corpus to score.

    Args:
        name: folder name under the output folder.
        commands: ``phiscrub`` argument lists, run in order.
        gold: gold dev corpus to score ``pred`` against (None: no scoring).
        model: model folder whose ``training.json`` / ``recipe.json`` is summarised (optional).
        info: fields copied into ``result.json`` (backbone, target, K, recipe ...).
        after: extra Python step run after the commands (gets the run folder), e.g. checks.
    """

    name: str
    commands: list[list[str]]
    gold: Path | None = None
    model: Path | None = None
    info: dict[str, Any] = field(default_factory=dict)
    after: Callable[[Path], dict[str, Any]] | None = None

    @property
    def key(self) -> str:
        """The run's key in the grid (its folder name)."""
        return self.name

    def command_lines(self) -> list[str]:
        """The commands as printed and recorded (the run's fingerprint: changed commands run again)."""
        return ["phiscrub " + shlex.join(c) for c in self.commands]


def rel(path: Path) -> str:
    """``path`` relative to the repository root when inside it (for printed commands)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return os.path.relpath(path.resolve(), ROOT)


def stage_notes(out: Path) -> dict[str, Path]:
    """Copy the placeholder notes of every split into ``out/notes/<split>/`` (idempotent)."""

    def number(p: Path) -> int:
        m = re.search(r"-(\d+)$", p.stem)
        return int(m.group(1)) if m else -1

    splits: dict[str, list[Path]] = {
        "k-pool": [p for p in sorted((NOTES / "k").glob("*.txt")) if 1 <= number(p) <= 28],
        "k-dev": [p for p in sorted((NOTES / "k").glob("*.txt")) if 29 <= number(p) <= 35],
        "en-pool": [
            p for f in "abcdefghij" for p in sorted((NOTES / f).glob("*.txt")) if 1 <= number(p) <= 30
        ],
        "en-dev": [
            p for f in "abcdefghij" for p in sorted((NOTES / f).glob("*.txt")) if 31 <= number(p) <= 35
        ],
        "zh-train": [p for p in sorted((NOTES / "l").glob("*.txt")) if 1 <= number(p) <= 28],
        "zh-dev": [p for p in sorted((NOTES / "l").glob("*.txt")) if 29 <= number(p) <= 35],
    }
    folders: dict[str, Path] = {}
    for split, paths in splits.items():
        folder = out / "notes" / split
        folder.mkdir(parents=True, exist_ok=True)
        for p in paths:
            dst = folder / p.name
            if not dst.exists():
                shutil.copyfile(p, dst)
        folders[split] = folder
    return folders


def write_target_config(out: Path) -> Path:
    """``OUT/config-target-stage.json``: the TrainConfig of every stage trained on F alone.

    The paper's learning rate and warm-up (used by MiniLM; a BiLSTM-CRF trains at ``bilstm_lr``)
    and ``patience`` equal to the target epochs, so that a stage on F runs all its epochs (the
    paper's 25) and keeps the epoch with the best dev token F1: with patience 3 a BiLSTM-CRF trained
    from scratch on 50 sentences stops at epoch 4, before it predicts any PHI.
    """
    path = out / "config-target-stage.json"
    config = {
        "lr": 3e-5,
        "warmup_ratio": 0.1,
        "patience": max(BILSTM_TARGET_EPOCHS, *MINILM_TARGET_EPOCHS.values()),
    }
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path


def _convert(src: Path, dst: Path, seed: int) -> list[str]:
    return ["convert", rel(src), rel(dst), "--from", "placeholder", "--to", "jsonl", "--seed", str(seed)]


def recipe_specs(
    scratch: list[str], source: Path, multitask: list[str], multitask_model: Path, on_f: list[str]
) -> list[tuple[str, str, list[str]]]:
    """``(slug, recipe, train args)`` of the four few-shot recipes of one backbone.

    Args:
        scratch: flags of a model trained from scratch (``--encoder bilstm-crf``, or none).
        source: the source model that ``source-then-target`` continues from.
        multitask: the full arguments of the multitask run.
        multitask_model: the multitask model that ``multitask-then-target`` continues from.
        on_f: arguments of every stage on F alone.
    """
    return [
        ("finetune", "finetune (F)", ["--recipe", "finetune", *scratch, *on_f]),
        (
            "source-then-target",
            "source (M) -> finetune (F)",
            ["--recipe", "finetune", "--init-from", rel(source), *on_f],
        ),
        ("multitask", "multitask (M + F)", multitask),
        (
            "multitask-then-target",
            "multitask (M + F) -> finetune (F)",
            ["--recipe", "finetune", "--init-from", rel(multitask_model), *on_f],
        ),
    ]


THR = ["--threads", str(THREADS)]


def _jl(out: Path, name: str) -> Path:
    """A JSONL corpus of the data run."""
    return out / "data" / f"{name}.jsonl"


def plan(out: Path) -> list[Run]:
    """Every run, in dependency order."""
    src = out / "bilstm-meddocan" / "model"
    runs = [_data_run(out), _source_run(out, src)]
    for target in TARGETS:
        runs += _target_runs(out, target, src)
    runs += _zh_runs(out)
    return [r for r in runs if r.name not in DROPPED]


def _data_run(out: Path) -> Run:
    """Filled pools and dev sets, few-shot samples, Chinese train (3 fills) and dev."""
    notes = out / "notes"
    cmds: list[list[str]] = []
    for target in TARGETS:
        cmds.append(_convert(notes / f"{target}-pool", _jl(out, f"{target}-pool"), POOL_SEED))
        cmds.append(_convert(notes / f"{target}-dev", _jl(out, f"{target}-dev"), DEV_SEED))
        for k in KS:
            cmds.append(
                ["fewshot-sample", rel(_jl(out, f"{target}-pool")), "-k", str(k)]
                + ["-o", rel(_jl(out, f"{target}-fewshot-{k}")), "--seed", str(FEWSHOT_SEED)]
            )
    for seed in ZH_TRAIN_SEEDS:
        cmds.append(_convert(notes / "zh-train", _jl(out, f"zh-train-s{seed}"), seed))
    cmds.append(_convert(notes / "zh-dev", _jl(out, "zh-dev"), DEV_SEED))
    return Run("data", cmds)


def _source_run(out: Path, src: Path) -> Run:
    """BiLSTM-CRF on full MEDDOCAN train (early stopping on MEDDOCAN dev), scored on MEDDOCAN dev."""
    train_src = [
        "train",
        "--train",
        rel(MEDDOCAN_TRAIN),
        "--dev",
        rel(MEDDOCAN_DEV),
        "--encoder",
        "bilstm-crf",
    ]
    train_src += ["--labels", "coarse", "--epochs", str(BILSTM_SOURCE_EPOCHS), *THR, "-o", rel(src)]
    info: dict[str, Any] = {"backbone": "bilstm-crf", "target": "meddocan", "K": None, "recipe": "source (M)"}
    return _scored(out / "bilstm-meddocan", src, MEDDOCAN_DEV, [train_src], info, lang="es")


def _target_runs(out: Path, target: str, src: Path) -> list[Run]:
    """Source only (zero-shot transfer: the MEDDOCAN models on the target dev), then every K."""
    dev = _jl(out, f"{target}-dev")
    runs: list[Run] = []
    for backbone, model in (("bilstm-crf", src), ("minilm", MINILM_MEDDOCAN)):
        info = {"backbone": backbone, "target": target, "K": 0, "recipe": "source only"}
        runs.append(_scored(out / f"{backbone.split('-')[0]}-{target}-source-only", model, dev, [], info))
    for k in KS:
        runs += _fewshot_runs(out, target, k, src)
    return runs


def _fewshot_runs(out: Path, target: str, k: int, src: Path) -> list[Run]:
    """The four recipes of both backbones at one K (more seeds for the BiLSTM-CRF), then the
    BiLSTM-CRF source-then-target recipe run."""
    dev = _jl(out, f"{target}-dev")
    few = _jl(out, f"{target}-fewshot-{k}")
    base = f"{target}-k{k}"
    common = ["--target", rel(few), "--dev", rel(dev), "--labels", "coarse", *THR]
    # stages on F alone: fixed epochs, best dev epoch kept (patience = epochs)
    on_f = [*common, "--config", rel(out / "config-target-stage.json")]
    bilstm_f = [*on_f, "--target-epochs", str(BILSTM_TARGET_EPOCHS)]
    minilm_f = [*on_f, "--target-epochs", str(MINILM_TARGET_EPOCHS[target])]
    bilstm_mt = ["--recipe", "multitask", "--source", rel(MEDDOCAN_TRAIN), "--encoder", "bilstm-crf"]
    bilstm_mt += [*common, "--source-epochs", str(BILSTM_MULTITASK_EPOCHS)]
    minilm_mt = ["--recipe", "multitask", "--source", rel(MEDDOCAN_TRAIN), *common]
    minilm_mt += ["--source-epochs", str(MINILM_MULTITASK_EPOCHS)]
    # (scratch flags, source model, multitask args, F-stage args) per backbone
    backbones = {
        "bilstm": (["--encoder", "bilstm-crf"], src, bilstm_mt, bilstm_f),
        "minilm": ([], MINILM_MEDDOCAN, minilm_mt, minilm_f),
    }
    runs: list[Run] = []
    # seed 1 of both backbones, then more training seeds of the BiLSTM-CRF rows (the source
    # model stays the seed-1 one; multitask-then-target continues from the multitask model
    # of the same seed)
    for backbone, seed in [("bilstm", 1), ("minilm", 1), *(("bilstm", s) for s in BILSTM_SEEDS[1:])]:
        scratch, source, multitask, f_args = backbones[backbone]
        sfx = "" if seed == 1 else f"-seed{seed}"
        seed_args = [] if seed == 1 else ["--seed", str(seed)]
        mt_model = out / f"{backbone}-{base}-multitask{sfx}" / "model"
        for slug, recipe, train_args in recipe_specs(scratch, source, multitask, mt_model, f_args):
            name = f"{backbone}-{base}-{slug}{sfx}"
            model = out / name / "model"
            info = {
                "backbone": "bilstm-crf" if backbone == "bilstm" else "minilm",
                "target": target,
                "K": k,
                "recipe": recipe,
                "seed": seed,
            }
            train = ["train", *train_args, *seed_args, "-o", rel(model)]
            runs.append(_scored(out / name, model, dev, [train], info, train_counts=few))
    # the recipe's own two stages (source stage selected on the target dev), BiLSTM-CRF
    name = f"bilstm-{base}-source-then-target-recipe"
    model = out / name / "model"
    own = ["train", "--recipe", "source-then-target", "--source", rel(MEDDOCAN_TRAIN)]
    own += ["--encoder", "bilstm-crf", *on_f, "--source-epochs", str(BILSTM_SOURCE_EPOCHS)]
    own += ["--target-epochs", str(BILSTM_TARGET_EPOCHS), "-o", rel(model)]
    info = {
        "backbone": "bilstm-crf",
        "target": target,
        "K": k,
        "recipe": "source (M) -> finetune (F), one recipe run",
        "seed": 1,
    }
    runs.append(_scored(out / name, model, dev, [own], info, train_counts=few))
    return runs


def _zh_runs(out: Path) -> list[Run]:
    """Chinese notes end to end (BiLSTM-CRF on 3 surrogate fills of l-001..l-028), then redact."""
    zh = out / "bilstm-zh" / "model"
    zh_train = ["train", *[a for s in ZH_TRAIN_SEEDS for a in ("--train", rel(_jl(out, f"zh-train-s{s}")))]]
    zh_train += ["--dev", rel(_jl(out, "zh-dev")), "--encoder", "bilstm-crf", "--labels", "coarse"]
    zh_train += ["--epochs", str(ZH_EPOCHS), *THR, "-o", rel(zh)]
    info = {"backbone": "bilstm-crf", "target": "zh", "K": None, "recipe": "train on l-001..l-028 (3 fills)"}
    counts = _jl(out, f"zh-train-s{POOL_SEED}")
    zh_run = _scored(
        out / "bilstm-zh", zh, _jl(out, "zh-dev"), [zh_train], info, lang="zh", train_counts=counts
    )
    redact = [
        "redact",
        rel(_jl(out, "zh-dev")),
        "-o",
        rel(out / "bilstm-zh-redact" / "redacted"),
        "--model",
        rel(zh),
    ]
    redact += ["--id-field", "id", "--lang", "zh", "--mode", "placeholder", "--labels", "coarse"]
    return [zh_run, Run("bilstm-zh-redact", [redact], info={"target": "zh"}, after=check_zh_redaction)]


def check_zh_redaction(run_dir: Path) -> dict[str, Any]:
    """Check the ``redact`` output of the Chinese dev notes: offsets, placeholders, gold PHI left.

    For every line of ``phi_spans.jsonl``: the original offsets lie inside the original note, on
    token boundaries, the output offsets hold ``[LABEL]`` in the redacted note, and the text between
    replaced spans is unchanged (the redacted note is rebuilt from the original note and the spans
    and compared). Also counts the gold PHI strings still present verbatim in the redacted notes.
    """
    from phiscrub.io import read_corpus
    from phiscrub.text import tokenize

    gold_docs, _ = read_corpus(run_dir.parent / "data" / "zh-dev.jsonl")
    red_dir = run_dir / "redacted"
    red_file = next(p for p in sorted(red_dir.glob("*.jsonl")) if p.name != "phi_spans.jsonl")
    redacted: dict[str, str] = {}
    with red_file.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            redacted[str(rec["id"])] = str(rec["text"])
    spans: dict[str, list[dict[str, Any]]] = {}
    with (red_dir / "phi_spans.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            spans.setdefault(str(rec.get("doc_id", rec.get("id"))), []).append(rec)
    n_spans = bad_offsets = off_boundary = bad_placeholder = rebuild_mismatch = leaks = gold_phi = 0
    for doc in gold_docs:
        red = redacted[doc.id]
        recs = sorted(spans.get(doc.id, []), key=lambda r: int(r["start"]))
        n_spans += len(recs)
        toks = tokenize(doc.text)
        starts, ends = {t.start for t in toks}, {t.end for t in toks}
        pieces: list[str] = []
        last = 0
        for r in recs:
            s, e, os_, oe = int(r["start"]), int(r["end"]), int(r["out_start"]), int(r["out_end"])
            if not (0 <= s < e <= len(doc.text)) or s < last:
                bad_offsets += 1
                continue
            if s not in starts or e not in ends:
                off_boundary += 1
            if red[os_:oe] != f"[{r['label']}]":
                bad_placeholder += 1
            pieces.append(doc.text[last:s])
            pieces.append(red[os_:oe])
            last = e
        pieces.append(doc.text[last:])
        if "".join(pieces) != red:
            rebuild_mismatch += 1
        for g in doc.spans:
            gold_phi += 1
            if doc.text[g.start : g.end] in red:
                leaks += 1
    return {
        "redact_check": {
            "docs": len(gold_docs),
            "replaced_spans": n_spans,
            "spans_with_bad_offsets": bad_offsets,
            "spans_not_on_token_boundaries": off_boundary,
            "spans_without_their_placeholder": bad_placeholder,
            "docs_not_rebuilt_from_spans": rebuild_mismatch,
            "gold_phi": gold_phi,
            "gold_phi_strings_left_verbatim": leaks,
        }
    }


def _subset(src: Path, dst: Path, n: int) -> Path:
    """``dst`` holding the first ``n`` BRAT documents of ``src`` (by file name); ``src`` when all."""
    texts = sorted(src.glob("*.txt"))
    if n >= len(texts):
        return src
    dst.mkdir(parents=True, exist_ok=True)
    for t in texts[:n]:
        for f in (t, t.with_suffix(".ann")):
            if f.is_file() and not (dst / f.name).exists():
                shutil.copyfile(f, dst / f.name)
    return dst


def plan_encoder(
    out: Path,
    encoder: str,
    train_docs: int,
    dev_docs: int,
    ks: tuple[int, ...],
    epochs: int = BILSTM_SOURCE_EPOCHS,
    patience: int = 3,
) -> list[Run]:
    """Runs of a frozen multilingual encoder (``--encoder gemma3-270m`` or a ``.gguf``), in order.

    ``<slug>[-sub<N>]-meddocan``: trained for up to ``epochs`` on MEDDOCAN train (or its first
    ``train_docs`` = N documents), early stopping on MEDDOCAN dev (or its first ``dev_docs``), scored
    there; with a subset, also ``bilstm-sub<N>-meddocan``: the BiLSTM-CRF on the same documents. Per target and K:
    ``<slug>-<target>-source-only`` and ``<slug>-<target>-k<K>-source-then-target`` (FINE-TUNE (M) ->
    FINE-TUNE (F), the same protocol as the Table 3 rows), and the same row for the subset BiLSTM.
    """
    slug = "gemma" if encoder == "gemma3-270m" else re.sub(r"[^a-z0-9]+", "-", Path(encoder).stem.lower())
    data = out / "data"
    thr = ["--threads", str(THREADS)]
    config = out / "config-encoder.json"
    config.write_text(json.dumps(ENCODER_CONFIG, indent=2) + "\n", encoding="utf-8")
    target_config = out / "config-target-stage.json"
    train = _subset(MEDDOCAN_TRAIN, out / f"meddocan-train-{train_docs}", train_docs)
    dev = _subset(MEDDOCAN_DEV, out / f"meddocan-dev-{dev_docs}", dev_docs)
    sub = "" if train == MEDDOCAN_TRAIN else f"-sub{train_docs}"
    backbones = [(f"{slug}{sub}", ["--encoder", encoder, "--config", rel(config)], "gguf " + encoder)]
    if sub:
        backbones.append((f"bilstm{sub}", ["--encoder", "bilstm-crf"], "bilstm-crf"))
    runs: list[Run] = []
    for name, flags, backbone in backbones:
        src = out / f"{name}-meddocan" / "model"
        cmd = ["train", "--train", rel(train), "--dev", rel(dev), *flags, "--labels", "coarse"]
        cmd += ["--epochs", str(epochs), *(["--patience", str(patience)] if patience != 3 else []), *thr]
        cmd += ["-o", rel(src)]
        info: dict[str, Any] = {
            "backbone": backbone,
            "target": "meddocan",
            "K": None,
            "recipe": f"source (M), {train_docs} train / {dev_docs} dev documents",
        }
        d = out / f"{name}-meddocan"
        runs.append(_scored(d, src, dev, [cmd], info, lang="es"))
        for target in TARGETS:
            tdev = data / f"{target}-dev.jsonl"
            info = {"backbone": backbone, "target": target, "K": 0, "recipe": "source only"}
            runs.append(_scored(out / f"{name}-{target}-source-only", src, tdev, [], info))
            for k in ks:
                few = data / f"{target}-fewshot-{k}.jsonl"
                model = out / f"{name}-{target}-k{k}-source-then-target" / "model"
                cmd = ["train", "--recipe", "finetune", "--init-from", rel(src), "--target", rel(few)]
                cmd += ["--dev", rel(tdev), "--labels", "coarse", *thr, "--config", rel(target_config)]
                cmd += ["--target-epochs", str(BILSTM_TARGET_EPOCHS), "-o", rel(model)]
                info = {
                    "backbone": backbone,
                    "target": target,
                    "K": k,
                    "recipe": "source (M) -> finetune (F)",
                }
                runs.append(_scored(model.parent, model, tdev, [cmd], info, train_counts=few))
    return runs


def _scored(
    d: Path,
    model: Path,
    gold: Path,
    train_cmds: list[list[str]],
    info: dict[str, Any],
    lang: str | None = None,
    train_counts: Path | None = None,
) -> Run:
    """A run that trains (optional), predicts ``gold`` with the tagger alone and evaluates."""
    pred = d / "pred.jsonl"
    predict = ["predict", rel(gold), "--model", rel(model), "--no-rules", "--no-propagate"]
    predict += [*(["--lang", lang] if lang else []), "-o", rel(pred)]
    evaluate = [
        "evaluate",
        "--gold",
        rel(gold),
        "--pred",
        rel(pred),
        "--labels",
        "coarse",
        "-o",
        rel(d / "eval"),
    ]
    if train_counts is not None:
        evaluate += ["--train", rel(train_counts)]
    return Run(d.name, [*train_cmds, predict, evaluate], gold=gold, model=model, info=info)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_cli(args: list[str]) -> None:
    """Run one ``phiscrub`` command in this process; a non-zero exit is an error."""
    from phiscrub.cli.app import cli

    print("$ phiscrub " + shlex.join(args), flush=True)
    try:
        cli.main(args=args, prog_name="phiscrub", standalone_mode=False)
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise RuntimeError(f"phiscrub {args[0]} exited with {exc.code}") from None


def summarise_training(model: Path) -> dict[str, Any] | None:
    """Best epoch, epochs run and training seconds of a model folder trained by this run."""
    out: dict[str, Any] = {}
    recipe = model / "recipe.json"
    if recipe.is_file():
        data = json.loads(recipe.read_text(encoding="utf-8"))
        out["stages"] = [
            {
                k: s.get(k)
                for k in (
                    "name",
                    "n_docs",
                    "epochs",
                    "best_epoch",
                    "epochs_run",
                    "best_dev_f1",
                    "saved_model_dev",
                    "stop_reason",
                    "seconds",
                    "init_from",
                )
            }
            for s in data["stages"]
        ]
        return out
    training = model / "training.json"
    if training.is_file():
        data = json.loads(training.read_text(encoding="utf-8"))
        keys = ("best_epoch", "epochs_run", "best_dev_f1", "saved_model_dev", "stop_reason", "seconds")
        out = {k: data.get(k) for k in keys}
        return out
    return None


def scores(eval_json: Path) -> dict[str, Any]:
    """Binary / token / entity P, R, F1 from an ``evaluate`` JSON report."""
    from phiscrub.evaluate.report import load_scores

    return dict(load_scores(eval_json))


def execute(run: Run, out: Path) -> dict[str, Any]:
    """Run the commands of one :class:`Run` and return its result (the grid runner records it)."""
    d = out / run.name
    d.mkdir(parents=True, exist_ok=True)
    cpu0, wall0 = _cpu(), time.monotonic()
    trained_here = any(c[0] == "train" for c in run.commands)
    for cmd in run.commands:
        run_cli(cmd)
    result: dict[str, Any] = {"run": run.name, **run.info}
    if run.gold is not None:
        result["scores"] = scores(d / "eval.json")
    if run.model is not None and trained_here:
        result["training"] = summarise_training(run.model)
    if run.after is not None:
        result.update(run.after(d))
    result["cpu_s"] = round(_cpu() - cpu0, 1)
    result["wall_s"] = round(time.monotonic() - wall0, 1)
    result["commands"] = run.command_lines()
    print(f"[done] {run.name}: cpu {result['cpu_s']} s, wall {result['wall_s']} s", flush=True)
    return result


def run_all(runs: list[Run], out: Path, only: str | None) -> list[dict[str, Any]]:
    """Run every run not recorded with its current commands (only those matching ``only``); return the
    recorded results in plan order."""
    store = FolderStore(out, "result.json", fingerprint_field="commands")

    def announce(event: str, key: str) -> None:
        path = rel(store.path(key))
        lines = {
            "skip": f"[skip] {key}: {path} exists",
            "stale": f"[stale] {key}: its commands changed since {path}; running again",
            "run": f"[run] {key}",
        }
        if event in lines:
            print(lines[event], flush=True)

    report = run_grid(
        runs,
        lambda run: execute(run, out),
        store,
        fingerprint=Run.command_lines,
        select=(lambda run: re.search(only, run.name) is not None) if only else None,
        progress=False,
        notify=announce,
    )
    return report.ordered()


def minilm_meddocan_result() -> dict[str, Any] | None:
    """The existing MiniLM MEDDOCAN dev figure (``build/meddocan-eval.json``, docs/model.md)."""
    if not MINILM_MEDDOCAN_EVAL.is_file():
        return None
    return {
        "run": "minilm-meddocan (existing)",
        "backbone": "minilm",
        "target": "meddocan",
        "K": None,
        "recipe": "source (M)",
        "scores": scores(MINILM_MEDDOCAN_EVAL),
        "cpu_s": None,
    }


def table(results: list[dict[str, Any]]) -> str:
    """Markdown table: one row per run with B/T/E F1 (and entity P/R), CPU seconds."""
    header = ["run", "backbone", "target", "K", "recipe", "binary F1", "token F1", "entity F1"]
    header += ["entity P", "entity R", "CPU s"]
    rows: list[list[str]] = []
    for r in results:
        if "scores" not in r:
            continue
        s = r["scores"]
        cpu = "" if r.get("cpu_s") is None else f"{r['cpu_s']:.0f}"
        k = "" if r.get("K") is None else str(r["K"])
        rows.append(
            [r["run"], r["backbone"], r["target"], k, r["recipe"]]
            + [f"{s[m]['f1']:.3f}" for m in ("binary", "token", "entity")]
            + [f"{s['entity']['precision']:.3f}", f"{s['entity']['recall']:.3f}", cpu]
        )
    return markdown_table(header, rows, align="lllrlrrrrrr") + "\n"


def _f1_of(metric: str) -> Callable[[dict[str, Any]], float]:
    """The ``metric`` F1 of a run's result."""
    return lambda r: float(r["scores"][metric]["f1"])


def seed_table(results: list[dict[str, Any]]) -> str:
    """Markdown table: mean and sample standard deviation over the training seeds of each
    (backbone, target, K, recipe) that has more than one seed."""
    groups = summarize(
        [r for r in results if "scores" in r and r.get("K")],
        lambda r: (r["backbone"], r["target"], r["K"], r["recipe"]),
        {m: _f1_of(m) for m in ("binary", "token", "entity")},
    )
    header = ["backbone", "target", "K", "recipe", "seeds", "binary F1", "token F1", "entity F1"]
    rows = [
        [*(str(part) for part in key), str(len(g.members))]
        + [g.stats[m].format(3) for m in ("binary", "token", "entity")]
        for key, g in groups.items()
        if len(g.members) > 1
    ]
    return markdown_table(header, rows, align="llrlrrrr") + "\n"


#: Rows of the paper-shaped tables: (recipe of ``result.json``, label in the table).
PAPER_ROWS = (
    ("source only", "FINE-TUNE (M): source only, zero-shot"),
    ("finetune (F)", "FINE-TUNE (F)"),
    ("source (M) -> finetune (F)", "FINE-TUNE (M) -> FINE-TUNE (F)"),
    ("multitask (M + F)", "MULTI-TASK (M + F)"),
    ("multitask (M + F) -> finetune (F)", "MULTI-TASK (M + F) -> FINE-TUNE (F)"),
)


def paper_tables(results: list[dict[str, Any]]) -> str:
    """One Table-3-shaped markdown table per target: B/T/E and entity P/R of the seed-1 run of each
    backbone, plus the BiLSTM-CRF entity F1 mean ± sd over its training seeds ("—": not run)."""
    seed1: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    seeds: dict[tuple[str, str, int, str], list[float]] = {}
    for r in results:
        if "scores" not in r or r.get("K") is None:
            continue
        key = (r["backbone"], r["target"], r["K"], r["recipe"])
        seeds.setdefault(key, []).append(r["scores"]["entity"]["f1"])
        if r.get("seed", 1) == 1:
            seed1[key] = r
    head = (
        "| recipe | K | BiLSTM B | BiLSTM T | BiLSTM E | BiLSTM E P/R | BiLSTM E, seeds 1-3 | "
        "MiniLM B | MiniLM T | MiniLM E | MiniLM E P/R |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    parts: list[str] = []
    for target in TARGETS:
        lines = [f"#### target `{target}`\n", head]
        for k in (0, *KS):
            for recipe, label in PAPER_ROWS:
                if (recipe == "source only") != (k == 0):
                    continue
                cells: list[str] = []
                for backbone in ("bilstm-crf", "minilm"):
                    row = seed1.get((backbone, target, k, recipe))
                    if row is None:
                        cells += ["—"] * 4
                    else:
                        sc = row["scores"]
                        cells += [f"{sc[m]['f1']:.3f}" for m in ("binary", "token", "entity")]
                        cells.append(f"{sc['entity']['precision']:.2f}/{sc['entity']['recall']:.2f}")
                    if backbone == "bilstm-crf":
                        vals = seeds.get((backbone, target, k, recipe), [])
                        cells.append(f"{mean_sd(vals).format(3)} ({len(vals)})" if len(vals) > 1 else "—")
                lines.append(f"| {label} | {k} | " + " | ".join(cells) + " |\n")
        parts.append("".join(lines))
    return "\n".join(parts)


def timings(results: list[dict[str, Any]]) -> str:
    """Markdown table: CPU seconds per (backbone, target, recipe) group of runs, from ``result.json``."""
    groups: dict[tuple[str, str, str], list[float]] = {}
    for r in results:
        if r.get("cpu_s") is None or "backbone" not in r:
            continue
        key = (r["backbone"], str(r.get("target")), r["recipe"])
        groups.setdefault(key, []).append(float(r["cpu_s"]))
    rows = [
        [backbone, target, recipe, str(len(vals)), f"{sum(vals):.0f}", f"{min(vals):.0f}-{max(vals):.0f}"]
        for (backbone, target, recipe), vals in sorted(groups.items())
    ]
    lines = [markdown_table(["backbone", "target", "recipe", "runs", "CPU s", "per run"], rows, "lllrrr")]
    total = sum(sum(v) for v in groups.values())
    lines.append(f"| **total** | | | {sum(len(v) for v in groups.values())} | **{total:.0f}** | |")
    return "\n".join(lines) + "\n"


def figure(out: Path, results: list[dict[str, Any]]) -> None:
    """Per-label report + PNG (Amin et al. Fig. 4) of the best ``k`` run by dev entity F1.

    Re-runs ``phiscrub evaluate`` on that run's predictions with ``--train`` (few-shot corpus) and
    ``--plot docs/img/crosslingual-per-label.png``; skipped when ``OUT/figure/result.json`` exists.
    """
    done = out / "figure" / "result.json"
    candidates = [r for r in results if r.get("target") == "k" and r.get("K") and "scores" in r]
    if done.is_file() or not candidates:
        return
    best = max(candidates, key=lambda r: r["scores"]["entity"]["f1"])
    run_dir = out / best["run"]
    few = out / "data" / f"k-fewshot-{best['K']}.jsonl"
    png = ROOT / "docs" / "img" / "crosslingual-per-label.png"
    png.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["evaluate", "--gold", rel(out / "data" / "k-dev.jsonl"), "--pred", rel(run_dir / "pred.jsonl")]
    cmd += ["--labels", "coarse", "--train", rel(few), "-o", rel(out / "figure" / "eval"), "--plot", rel(png)]
    done.parent.mkdir(parents=True, exist_ok=True)
    run_cli(cmd)
    info = {
        "run": "figure",
        "best": best["run"],
        "png": rel(png),
        "commands": ["phiscrub " + shlex.join(cmd)],
    }
    done.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "crosslingual")
    parser.add_argument("--only", default=None, help="regex: run only the runs whose name matches")
    parser.add_argument("--list", action="store_true", help="print the runs and their commands, run nothing")
    parser.add_argument(
        "--encoder", default=None, help="also plan the runs of this frozen encoder (gemma3-270m or a .gguf)"
    )
    parser.add_argument(
        "--meddocan-train-docs", type=int, default=500, help="with --encoder: MEDDOCAN train documents"
    )
    parser.add_argument(
        "--meddocan-dev-docs", type=int, default=250, help="with --encoder: MEDDOCAN dev documents"
    )
    parser.add_argument("--encoder-ks", default="50", help="with --encoder: comma-separated K values")
    parser.add_argument(
        "--encoder-epochs", type=int, default=BILSTM_SOURCE_EPOCHS, help="with --encoder: MEDDOCAN epochs"
    )
    parser.add_argument(
        "--encoder-patience", type=int, default=3, help="with --encoder: MEDDOCAN early-stopping patience"
    )
    args = parser.parse_args()
    os.chdir(ROOT)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    stage_notes(out)
    write_target_config(out)
    runs = plan(out)
    encoder_runs: list[Run] = []
    if args.encoder:
        ks = tuple(int(k) for k in args.encoder_ks.split(","))
        encoder_runs = plan_encoder(
            out,
            args.encoder,
            args.meddocan_train_docs,
            args.meddocan_dev_docs,
            ks,
            args.encoder_epochs,
            args.encoder_patience,
        )
        runs += encoder_runs
    if args.list:
        for r in runs:
            print(f"# {r.name}")
            for c in r.commands:
                print("phiscrub " + shlex.join(c))
        return
    import torch

    torch.set_num_threads(THREADS)
    results: list[dict[str, Any]] = []
    existing = minilm_meddocan_result()
    if existing is not None:
        results.append(existing)
    results += run_all(runs, out, args.only)
    if encoder_runs:
        names = {r.name for r in encoder_runs}
        (out / "table-encoder.md").write_text(
            table([r for r in results if r["run"] in names]), encoding="utf-8"
        )
        results = [r for r in results if r["run"] not in names]
    figure(out, results)
    (out / "table.md").write_text(table(results), encoding="utf-8")
    (out / "table-seeds.md").write_text(seed_table(results), encoding="utf-8")
    (out / "table3.md").write_text(paper_tables(results), encoding="utf-8")
    (out / "timings.md").write_text(timings(results), encoding="utf-8")
    total = sum(r.get("cpu_s") or 0 for r in results)
    print(f"table: {rel(out / 'table.md')}; CPU seconds of the recorded runs: {total:.0f}", flush=True)


if __name__ == "__main__":
    main()
