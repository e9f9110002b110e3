"""Reproduce every figure of ``docs/synthetic-letters.md`` (Ren et al. 2025, Tables 4/6 and 8).

Everything goes under ``build/synth/`` (ignored by git). The runs of each step are cells of
:func:`phiscrub.experiment.grid.run_grid`: each finished run is recorded in
``build/synth/results.jsonl`` (its timings, and the scores of a downstream run) and skipped when the
script runs again, so it can be re-run after an interruption; a run whose report was made before the
results file existed is recorded from its outputs. ``--force`` redoes the steps asked. Every command
it runs is printed (``$ ...``) and runs under ``nice -n 10``.

Steps:

* ``prepare``: the samples, as JSONL corpora with gold PHI spans:
  ``zs-eval`` (zero-shot notes a-031..a-033, b-031..b-033, placeholders filled with surrogates,
  seed 0), ``md-eval`` (the first six MEDDOCAN dev letters by id, Spanish), ``zs-train`` (zero-shot
  notes 001-002 of families a..j, 20 notes) and ``zs-dev`` (notes 031-035 of families a..j, 50 notes).
* ``quality``: ``phiscrub synth`` (default refiller) on ``zs-eval`` and ``md-eval`` for the random and
  stopwords strategies at ratios 0.2/0.4/0.6 (seed 0), writing the masked letters too, then
  ``phiscrub synth-eval`` against the originals with the masked baseline.
* ``ablation``: the default refiller without its right-context scoring on ``zs-eval`` (random 0.4):
  the evidence for the refiller's design.
* ``downstream``: ``zs-train`` synthesized twice (stopwords 0.4; random 0.3, the paper's Table 8
  setting; seed 0); a BiLSTM-CRF tagger (coarse labels) trained on the original and on each synthetic
  version for each ``--seeds`` seed, all scored on ``zs-dev``.
* ``tables``: the Markdown tables of the doc, from the reports, to ``build/synth/tables.md``.

Usage::

    python scripts/synth_experiments.py                      # all steps
    python scripts/synth_experiments.py --steps tables       # tables only, from existing outputs
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from phiscrub.experiment.grid import markdown_table, run_grid, summarize

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
DATA = (ROOT / ".." / "shared" / "data").resolve()
OUT = ROOT / "build" / "synth"
STEPS = ("prepare", "quality", "ablation", "downstream", "tables")
STRATEGIES = ("random", "stopwords")
RATIOS = (0.2, 0.4, 0.6)
DATASETS = {"zs": "zero-shot English notes", "md": "MEDDOCAN dev (Spanish)"}
FAMILIES = "abcdefghij"
#: Synthetic versions of the training notes for the downstream check: (strategy, ratio); random 0.3 is
#: the paper's Table 8 setting.
DOWNSTREAM_ARMS: tuple[tuple[str, float], ...] = (("stopwords", 0.4), ("random", 0.3))
#: One JSON line per finished run (the grid runner's record; see the module docstring).
RESULTS = OUT / "results.jsonl"
#: The downstream F1 keys: binary token (B), token micro (T), entity micro (E).
F1_KEYS = ("B", "T", "E")


@dataclass(frozen=True)
class Cell:
    """One run of a step: its key in ``results.jsonl`` and its parameters.

    Args:
        step: ``quality``, ``ablation``, ``synth`` (a synthetic training corpus) or ``train``.
        name: the run within the step (a folder or file stem).
        ds: the evaluation sample (quality runs).
        strategy: masking strategy (quality runs and synthetic training corpora).
        ratio: masking ratio (idem).
        seed: training seed (train runs).
        corpus: the training corpus (train runs).
    """

    step: str
    name: str
    ds: str = ""
    strategy: str = ""
    ratio: float = 0.0
    seed: int = 0
    corpus: Path | None = None

    @property
    def key(self) -> str:
        """``step/name``, e.g. ``quality/zs/random-0.4``."""
        return f"{self.step}/{self.name}"


C = TypeVar("C", bound=Cell)


def _grid(
    cells: Sequence[C], run: Callable[[C], dict[str, Any]], done: Callable[[C], Path], force: bool
) -> None:
    """Run the cells not recorded in ``results.jsonl`` (all with ``force``); a cell whose ``done``
    file exists from an earlier version of this script is recorded as it is."""

    def adopt(cell: C) -> dict[str, Any] | None:
        return {"adopted": True} if done(cell).exists() else None

    run_grid(cells, run, RESULTS, resume=not force, adopt=adopt, progress=False)


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], log: Path | None = None) -> tuple[float, float]:
    """Run a phiscrub command under ``nice -n 10``; print it; return its wall and CPU seconds.

    The CPU time (user + system, all threads, start-up and model loading included) does not depend
    on what else runs on the machine; the wall time does.

    Args:
        args: arguments after ``phiscrub``.
        log: file that receives the command's stdout and stderr (counts only, never text).
    """
    cmd = ["nice", "-n", "10", sys.executable, "-m", "phiscrub.cli", *args]
    shown = " ".join(shlex.quote(a) for a in ["phiscrub", *args])
    print(f"$ {shown.replace(str(ROOT) + '/', '')}", flush=True)
    t0, c0 = time.perf_counter(), _cpu_children()
    if log is None:
        subprocess.run(cmd, check=True, cwd=ROOT)
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("w", encoding="utf-8") as fh:
            proc = subprocess.run(cmd, check=False, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            raise SystemExit(f"command failed ({proc.returncode}), see {log}")
    return time.perf_counter() - t0, _cpu_children() - c0


def _copy_notes(files: list[Path], folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for f in files:
        shutil.copy2(f, folder / f.name)


def prepare(force: bool) -> None:
    """Write the four sample corpora (JSONL with gold spans) under ``build/synth/data``.

    Args:
        force: rebuild existing corpora.
    """
    zs = DATA / "zeroshot-notes"
    samples: dict[str, tuple[list[Path], str]] = {
        "zs-eval": (
            [zs / fam / f"{fam}-{n:03d}.txt" for fam in "ab" for n in (31, 32, 33)],
            "placeholder",
        ),
        "zs-train": ([zs / fam / f"{fam}-{n:03d}.txt" for fam in FAMILIES for n in (1, 2)], "placeholder"),
        "zs-dev": (
            [zs / fam / f"{fam}-{n:03d}.txt" for fam in FAMILIES for n in range(31, 36)],
            "placeholder",
        ),
    }
    md_ids = sorted(p.stem for p in (DATA / "meddocan" / "dev").glob("*.txt"))[:6]
    md_files = [DATA / "meddocan" / "dev" / f"{i}{ext}" for i in md_ids for ext in (".txt", ".ann")]
    samples["md-eval"] = (md_files, "brat")
    for name, (files, fmt) in samples.items():
        target = OUT / "data" / f"{name}.jsonl"
        if target.exists() and not force:
            continue
        folder = OUT / "data" / name
        _copy_notes(files, folder)
        args = ["convert", str(folder), str(target), "--from", fmt, "--to", "jsonl"]
        args += ["--corpus", "meddocan"] if fmt == "brat" else ["--seed", "0"]
        _run(args)


def _quality_dir(ds: str, strategy: str, ratio: float) -> Path:
    return OUT / "quality" / ds / f"{strategy}-{ratio:g}"


def quality(force: bool) -> None:
    """Synthesize and score the two evaluation samples for every strategy and ratio.

    Args:
        force: redo runs whose report exists.
    """
    cells = [
        Cell("quality", f"{ds}/{_arm(strategy, ratio)}", ds, strategy, ratio)
        for ds in DATASETS
        for strategy in STRATEGIES
        for ratio in RATIOS
    ]
    _grid(
        cells, _quality_run, lambda c: _quality_dir(c.ds, c.strategy, c.ratio) / "eval" / "report.json", force
    )


def _quality_run(cell: Cell) -> dict[str, Any]:
    """Synthesize one sample at one strategy and ratio, then score it; return the synthesis times."""
    original = OUT / "data" / f"{cell.ds}-eval.jsonl"
    d = _quality_dir(cell.ds, cell.strategy, cell.ratio)
    d.mkdir(parents=True, exist_ok=True)
    synthetic, masked = d / "synthetic.jsonl", d / "masked.jsonl"
    wall, cpu = _run(
        ["synth", str(original), "-o", str(synthetic), "--write-masked", str(masked),
         "--strategy", cell.strategy, "--ratio", f"{cell.ratio:g}", "--seed", "0"],
        d / "synth.log",
    )  # fmt: skip
    times = {"synth_wall_s": round(wall, 2), "synth_cpu_s": round(cpu, 2)}
    (d / "time.json").write_text(json.dumps(times) + "\n")
    _run(
        ["synth-eval", str(original), str(synthetic), "--masked", str(masked), "-o", str(d / "eval")],
        d / "eval.log",
    )  # fmt: skip
    return times


ABLATION = OUT / "ablation" / "zs-random-0.4-left-only"


def _ablation_worker() -> None:
    """Synthesize ``zs-eval`` (random 0.4, seed 0) with ``LlamaCppRefiller(right_tokens=0)``."""
    from phiscrub.io import JsonlReader, JsonlWriter
    from phiscrub.synth import LlamaCppRefiller, MaskingStrategy, SynthConfig, Synthesizer

    config = SynthConfig(strategy=MaskingStrategy.named("random", 0.4), seed=0)
    synth = Synthesizer(config, LlamaCppRefiller(right_tokens=0))
    docs = list(JsonlReader().read(OUT / "data" / "zs-eval.jsonl"))
    pairs = list(synth.synthesize_pairs(docs, labelled=True))
    JsonlWriter().write([p[0] for p in pairs], ABLATION / "synthetic.jsonl")
    JsonlWriter().write([p[1] for p in pairs], ABLATION / "masked.jsonl")
    stats = json.dumps(synth.stats.as_dict(), indent=2)
    (ABLATION / "synthetic.jsonl.stats.json").write_text(stats + "\n")
    print(f"synth (right_tokens=0): {synth.stats.summary()}", file=sys.stderr)


def ablation(force: bool) -> None:
    """The default refiller without its right-context scoring (``right_tokens=0``), zs random 0.4.

    There is no CLI switch for the refiller's internals, so a worker process (this script with
    ``--ablation-worker``, niced, timed like the commands) runs the synthesizer and writes the same
    files as ``phiscrub synth``; ``phiscrub synth-eval`` scores them.

    Args:
        force: redo the run when its report exists.
    """
    cell = Cell("ablation", ABLATION.name, "zs", "random", 0.4)
    _grid([cell], _ablation_run, lambda c: ABLATION / "eval" / "report.json", force)


def _ablation_run(cell: Cell) -> dict[str, Any]:
    """The ablation's worker process, then ``synth-eval``; return the synthesis times."""
    d = ABLATION
    d.mkdir(parents=True, exist_ok=True)
    cmd = ["nice", "-n", "10", sys.executable, str(Path(__file__).resolve()), "--ablation-worker"]
    print("$ python scripts/synth_experiments.py --ablation-worker", flush=True)
    t0, c0 = time.perf_counter(), _cpu_children()
    with (d / "synth.log").open("w", encoding="utf-8") as fh:
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT)
    times = {
        "synth_wall_s": round(time.perf_counter() - t0, 2),
        "synth_cpu_s": round(_cpu_children() - c0, 2),
    }
    (d / "time.json").write_text(json.dumps(times) + "\n")
    _run(
        ["synth-eval", str(OUT / "data" / "zs-eval.jsonl"), str(d / "synthetic.jsonl"), "--masked",
         str(d / "masked.jsonl"), "-o", str(d / "eval")],
        d / "eval.log",
    )  # fmt: skip
    return times


def _arm(strategy: str, ratio: float) -> str:
    return f"{strategy}-{ratio:g}"


def downstream(seeds: list[int], force: bool, epochs: int) -> None:
    """Train BiLSTM-CRF taggers on the original and each synthetic version of the training notes.

    Args:
        seeds: training seeds.
        force: redo existing runs.
        epochs: maximum training epochs (early stopping on dev, patience 3).
    """
    base = OUT / "downstream"
    arms = [
        Cell("synth", _arm(strategy, ratio), "zs", strategy, ratio) for strategy, ratio in DOWNSTREAM_ARMS
    ]
    _grid(arms, _synth_train_run, lambda c: base / f"zs-train-{c.name}.jsonl", force)
    corpora = {"original": OUT / "data" / "zs-train.jsonl"}
    corpora.update({c.name: base / f"zs-train-{c.name}.jsonl" for c in arms})
    runs = [
        Cell("train", f"{kind}-seed{seed}", seed=seed, corpus=corpus)
        for seed in seeds
        for kind, corpus in corpora.items()
    ]
    _grid(runs, lambda c: _train_run(c, epochs), lambda c: base / c.name / "eval.json", force)


def _synth_train_run(cell: Cell) -> dict[str, Any]:
    """Synthesize the training notes for one arm and score them; return the synthesis times."""
    base = OUT / "downstream"
    train = OUT / "data" / "zs-train.jsonl"
    synth = base / f"zs-train-{cell.name}.jsonl"
    base.mkdir(parents=True, exist_ok=True)
    wall, cpu = _run(
        ["synth", str(train), "-o", str(synth), "--strategy", cell.strategy, "--ratio", f"{cell.ratio:g}",
         "--seed", "0"],
        base / f"synth-{cell.name}.log",
    )  # fmt: skip
    times = {"synth_wall_s": round(wall, 2), "synth_cpu_s": round(cpu, 2)}
    (base / f"time-{cell.name}.json").write_text(json.dumps(times) + "\n")
    _run(
        ["synth-eval", str(train), str(synth), "-o", str(base / f"synth-eval-{cell.name}")],
        base / f"synth-eval-{cell.name}.log",
    )
    return times


def _train_run(cell: Cell, epochs: int) -> dict[str, Any]:
    """Train, predict and evaluate one tagger; return its times and B/T/E F1."""
    run = OUT / "downstream" / cell.name
    dev = OUT / "data" / "zs-dev.jsonl"
    wall, cpu = _run(
        ["train", "--train", str(cell.corpus), "--dev", str(dev), "--encoder", "bilstm-crf", "--labels", "coarse",
         "--seed", str(cell.seed), "--epochs", str(epochs), "--threads", "1", "-o", str(run / "model")],
        run / "train.log",
    )  # fmt: skip
    _run(
        ["predict", str(dev), "--model", str(run / "model"), "--no-rules", "-o", str(run / "pred.jsonl")],
        run / "predict.log",
    )  # fmt: skip
    _run(
        ["evaluate", "--gold", str(dev), "--pred", str(run / "pred.jsonl"), "--labels", "coarse",
         "-o", str(run / "eval")],
        run / "evaluate.log",
    )  # fmt: skip
    times = {"train_wall_s": round(wall, 2), "train_cpu_s": round(cpu, 2)}
    (run / "time.json").write_text(json.dumps(times) + "\n")
    return {**times, "scores": _scores(run / "eval.json")}


# -- tables ---------------------------------------------------------------------------------------------
def _f(value: Any, scale: float = 1.0, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value * scale:.{digits}f}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    return markdown_table(head, rows).splitlines()


def _quality_rows(ds: str) -> list[str]:
    """Two tables for one sample: similarity and cost (Tables 4/6), then readability and privacy."""
    sim = [("ROUGE-1 F", "rouge1", 100.0, 1), ("ROUGE-2 F", "rouge2", 100.0, 1)]
    sim += [("ROUGE-L F", "rougeL", 100.0, 1), ("BERTScore F", "bertscore", 1.0, 3)]
    other = [("SMOG", "smog", 1.0, 2), ("FRE", "flesch_reading_ease", 1.0, 1)]
    other += [("FKGL", "flesch_kincaid_grade", 1.0, 2), ("entropy", "entropy", 1.0, 3)]
    other += [("5-gram survival %", "ngram_survival", 100.0, 1), ("PHI survival %", "phi_survival", 100.0, 1)]
    head_a = ["strategy", "ratio", "masked (actual ratio)", "changed %"]
    head_a += [name for name, *_ in sim] + ["invalid rate", "wall s/letter", "CPU s/letter"]
    head_b = ["strategy", "ratio"] + [name for name, *_ in other]
    rows_a: list[list[str]] = []
    rows_b: list[list[str]] = []
    original: dict[str, Any] = {}
    for strategy in STRATEGIES:
        for ratio in RATIOS:
            d = _quality_dir(ds, strategy, ratio)
            report_file = d / "eval" / "report.json"
            if not report_file.exists():
                continue
            avg = json.loads(report_file.read_text())["averages"]
            stats = json.loads((d / "synthetic.jsonl.stats.json").read_text())
            cpu = json.loads((d / "time.json").read_text())["synth_cpu_s"]
            syn, base = avg["synthetic"], avg.get("masked") or {}
            original = avg.get("original") or {}
            n = max(1, stats["letters"])
            masked = stats["masked"]
            row = [strategy, f"{ratio:g}", f"{masked} ({masked / max(1, stats['words']):.2f})"]
            row.append(_f(stats["changed"] / masked if masked else None, 100.0, 0))
            for _, key, scale, digits in sim:
                row.append(f"{_f(syn.get(key), scale, digits)} ({_f(base.get(key), scale, digits)})")
            row.append(_f(stats["invalid"] / stats["slots"] if stats["slots"] else None, digits=3))
            row += [f"{stats['seconds'] / n:.1f}", f"{cpu / n:.1f}"]
            rows_a.append(row)
            rows_b.append(
                [strategy, f"{ratio:g}"]
                + [f"{_f(syn.get(k), sc, dg)} ({_f(base.get(k), sc, dg)})" for _, k, sc, dg in other]
            )
    if not rows_a:
        return []
    out = _table(head_a, rows_a) + [""] + _table(head_b, rows_b)
    if original:
        orig = ", ".join(f"{name} {_f(original.get(k), sc, dg)}" for name, k, sc, dg in other[:4])
        out += ["", f"Originals: {orig}."]
    return out


def _ablation_rows(abl: Path) -> list[str]:
    head = [
        "refiller",
        "changed %",
        "ROUGE-1 F",
        "ROUGE-2 F",
        "ROUGE-L F",
        "BERTScore F",
        "entropy",
        "CPU s/letter",
    ]
    rows = []
    for name, d in (
        ("default (left context + 2 right-context tokens)", _quality_dir("zs", "random", 0.4)),
        ("left context only (right_tokens=0)", abl),
    ):
        syn = json.loads((d / "eval" / "report.json").read_text())["averages"]["synthetic"]
        st = json.loads((d / "synthetic.jsonl.stats.json").read_text())
        cpu = json.loads((d / "time.json").read_text())["synth_cpu_s"]
        row = [name, _f(st["changed"] / st["masked"], 100.0, 0)]
        row += [_f(syn.get(k), 100.0, 1) for k in ("rouge1", "rouge2", "rougeL")]
        row += [
            _f(syn.get("bertscore"), digits=3),
            _f(syn.get("entropy"), digits=3),
            f"{cpu / st['letters']:.1f}",
        ]
        rows.append(row)
    return _table(head, rows)


def _scores(path: Path) -> dict[str, float]:
    """Binary token (B), token micro (T) and entity micro (E) F1 of an ``evaluate`` report."""
    from phiscrub.evaluate.report import load_scores

    scores = load_scores(path)
    return {key: scores[name]["f1"] for key, name in zip(F1_KEYS, ("binary", "token", "entity"))}


def _downstream_rows(seeds: list[int]) -> list[str]:
    base = OUT / "downstream"
    arms = [_arm(*a) for a in DOWNSTREAM_ARMS]
    head = ["seed", "metric", "trained on original"]
    for arm in arms:
        head += [f"trained on synthetic ({arm})", "delta"]
    found: dict[tuple[str, int], dict[str, float]] = {}
    for seed in seeds:
        for kind in ("original", *arms):
            f = base / f"{kind}-seed{seed}" / "eval.json"
            if f.exists():
                found[(kind, seed)] = _scores(f)
    done = [seed for seed in seeds if ("original", seed) in found]
    rows = [_seed_row(seed, key, arms, found) for seed in done for key in F1_KEYS]
    if len(done) > 1:
        rows += _mean_rows(done, arms, found)
    return _table(head, rows) + _arm_notes(base, arms) + [""] + _train_times(base)


def _seed_row(
    seed: int, key: str, arms: list[str], found: dict[tuple[str, int], dict[str, float]]
) -> list[str]:
    """One seed's F1 ``key`` on the original and each synthetic arm, with the differences."""
    o = found[("original", seed)][key]
    row = [str(seed), f"{key} F1", f"{o:.3f}"]
    for arm in arms:
        v = found.get((arm, seed), {}).get(key)
        row += ["n/a", "n/a"] if v is None else [f"{v:.3f}", f"{v - o:+.3f}"]
    return row


def _mean_rows(
    done: list[int], arms: list[str], found: dict[tuple[str, int], dict[str, float]]
) -> list[list[str]]:
    """The mean over the seeds ``done`` of each F1 (an arm missing a seed: n/a)."""
    n = len(done)
    members = [{"kind": kind, **scores} for (kind, seed), scores in found.items() if seed in done]
    means = summarize(members, lambda r: r["kind"], {key: _value_of(key) for key in F1_KEYS})
    rows = []
    for key in F1_KEYS:
        o = means["original"].stats[key].mean
        row = [f"mean of {n}", f"{key} F1", f"{o:.3f}"]
        for arm in arms:
            group = means.get(arm)
            if group is not None and len(group.members) == n:
                m = group.stats[key].mean
                row += [f"{m:.3f}", f"{m - o:+.3f}"]
            else:
                row += ["n/a", "n/a"]
        rows.append(row)
    return rows


def _value_of(key: str) -> Callable[[dict[str, Any]], float]:
    return lambda r: float(r[key])


def _arm_notes(base: Path, arms: list[str]) -> list[str]:
    """A sentence per synthetic training corpus: size, masking, similarity, leaks, time."""
    out: list[str] = []
    for arm in arms:
        ev = base / f"synth-eval-{arm}" / "report.json"
        stats_file = base / f"zs-train-{arm}.jsonl.stats.json"
        t_file = base / f"time-{arm}.json"
        if not (ev.exists() and stats_file.exists() and t_file.exists()):
            continue
        syn = json.loads(ev.read_text())["averages"]["synthetic"]
        st = json.loads(stats_file.read_text())
        cpu = json.loads(t_file.read_text())["synth_cpu_s"]
        out.append("")
        out.append(
            f"Synthetic training notes ({arm}): {st['letters']} letters, {st['masked']} of {st['words']} words "
            f"masked ({st['masked'] / st['words']:.2f}), {st['changed']} changed; ROUGE-1 F "
            f"{_f(syn.get('rouge1'), 100, 1)}, BERTScore F {_f(syn.get('bertscore'), digits=3)}, 5-gram survival "
            f"{_f(syn.get('ngram_survival'), 100, 1)} %, PHI leaks {st['phi_leaks']}; "
            f"{st['seconds'] / st['letters']:.1f} s/letter wall, {cpu / st['letters']:.1f} s/letter CPU."
        )
    return out


def _train_times(base: Path) -> list[str]:
    """A line per training run: wall and CPU seconds."""
    out = []
    for run in sorted(base.glob("*-seed*/time.json")):
        t = json.loads(run.read_text())
        out.append(
            f"- {run.parent.name}: training {t['train_wall_s']:.0f} s wall, {t['train_cpu_s']:.0f} s CPU"
        )
    return out


def _stopword_counts() -> str:
    """Eligible stopwords of the Spanish sample with the English and with the Spanish list."""
    from phiscrub.io import JsonlReader
    from phiscrub.synth import extract_features

    docs = list(JsonlReader().read(OUT / "data" / "md-eval.jsonl"))
    counts = {}
    for lang in ("en", "es"):
        counts[lang] = sum(
            sum(
                1 for w in extract_features(d.text, phi=d.spans, lang=lang).words if w.eligible and w.stopword
            )
            for d in docs
        )
    return (
        f"Eligible stopwords in the Spanish sample: {counts['en']} with the English list, "
        f"{counts['es']} with the Spanish list."
    )


def tables(seeds: list[int]) -> str:
    """The doc's tables (Markdown), written to ``build/synth/tables.md``.

    Args:
        seeds: the downstream seeds to report.
    """
    parts = []
    for ds, title in DATASETS.items():
        parts.append(f"### {title}\n")
        parts.extend(_quality_rows(ds))
        parts.append("")
        if ds == "md" and (OUT / "data" / "md-eval.jsonl").exists():
            parts += [_stopword_counts(), ""]
    abl = ABLATION
    if (abl / "eval" / "report.json").exists():
        parts.append("### Refiller ablation (zero-shot English notes, random 0.4, seed 0)\n")
        parts.extend(_ablation_rows(abl))
        parts.append("")
    parts.append("### Downstream (BiLSTM-CRF, coarse labels, dev = zero-shot notes 031-035 of a..j)\n")
    parts.extend(_downstream_rows(seeds))
    text = "\n".join(parts) + "\n"
    (OUT / "tables.md").write_text(text, encoding="utf-8")
    return text


def main(argv: list[str] | None = None) -> None:
    """Run the steps asked for.

    Args:
        argv: command-line arguments (``sys.argv[1:]`` when None).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, of {', '.join(STEPS)}")
    parser.add_argument("--seeds", default="0", help="downstream training seeds, e.g. 0,1 (the doc: 0)")
    parser.add_argument("--epochs", type=int, default=20, help="downstream maximum epochs")
    parser.add_argument("--force", action="store_true", help="redo the steps even when outputs exist")
    parser.add_argument("--ablation-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ablation_worker:
        _ablation_worker()
        return
    steps = [s for s in args.steps.split(",") if s]
    unknown = set(steps) - set(STEPS)
    if unknown:
        parser.error(f"unknown steps: {', '.join(sorted(unknown))}")
    seeds = [int(s) for s in args.seeds.split(",") if s]
    OUT.mkdir(parents=True, exist_ok=True)
    if "prepare" in steps:
        prepare(args.force)
    if "quality" in steps:
        quality(args.force)
    if "ablation" in steps:
        ablation(args.force)
    if "downstream" in steps:
        downstream(seeds, args.force, args.epochs)
    if "tables" in steps:
        print(tables(seeds))


if __name__ == "__main__":
    main()
