"""Distil the default tagger into a smaller student on the default model's own training data.

Steps (all seeded, all offline):

1. The data of ``scripts/build_default_model.py`` with the options the bundled model was trained
   with (``--draws 1 --realworld-draws 4``, seed 7): zero-shot notes a-j 001-030 (1 surrogate
   fill each, realism rewrite) plus the real-world ``train`` part (4 fills, realism 0.5); dev = the
   zero-shot dev plus the real-world ``dev`` part (2 fills each). The out-of-distribution test is
   never read. ``OUT/train.jsonl`` and ``OUT/dev.jsonl`` are reused when they exist.
2. ``phiscrub.train.distill.distill``: the teacher (``--teacher``: the 6-layer tagger that
   ``scripts/build_default_model.py`` trains, as a torch folder; ``default`` names the bundled model) labels
   every training window with its CRF marginals at ``--temperature``; the student (``--layers``
   encoder layers taken from the teacher's, its head, features and CRF) learns them together with
   the gold tags, ``--time-budget`` seconds at most; the best dev epoch is saved to ``OUT/model``.
3. With ``--export DIR``: the student as an ONNX-only int8 folder in ``DIR``
   (:func:`phiscrub.train.onnx_export.install_onnx`), then its span calibration fitted on the
   real-world ``dev`` part (as ``scripts/calibrate_default_model.py --dev-only``: the student has seen
   the ``train`` part).
4. ``--bench MODEL ...``: rules + each model over the 100 ~500-word benchmark notes of
   ``benchmarks/throughput.py``, each run in a fresh process, models interleaved: notes/s and notes
   per CPU second (the steadier figure on a shared machine).

The bundled model is the 4-layer student of the 6-layer teacher (``docs/model.md``, "Distilled
student")::

    python scripts/distill_default_model.py --teacher build/teacher --out build/student-run4 --layers 4 \
        --lr 1e-4 --head-lr 5e-4 --epochs 3 --threads 2 --time-budget 2700
    python scripts/distill_default_model.py --out build/student-run4 --export-only \
        --export src/phiscrub/resources/model

Usage:
    python scripts/distill_default_model.py --out build/student-run --data-only
    OMP_WAIT_POLICY=PASSIVE nice -n 10 python scripts/distill_default_model.py --teacher build/teacher \
        --out build/student-run --layers 3 --time-budget 4300
    python scripts/distill_default_model.py --out build/student-run --export-only --export build/student
    python scripts/distill_default_model.py --bench build/teacher-onnx build/student --repeats 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_default_model import data_counts, fill, split_notes, split_realworld

from phiscrub.io.jsonl import JsonlReader, JsonlWriter

ROOT = Path(__file__).resolve().parents[1]


def write_data(out: Path, seed: int, draws: int, realworld_draws: int) -> None:
    """Write ``OUT/train.jsonl``, ``OUT/dev.jsonl`` and their counts as the build script does."""
    train_paths, dev_paths = split_notes()
    rw_train, rw_dev, rw_test = split_realworld()
    assert not set(rw_test) & (set(rw_train) | set(rw_dev)), "OOD test notes in train/dev"
    zs_train = fill(train_paths, draws, seed, 1.0, "zeroshot")
    zs_dev = fill(dev_paths, 2, seed + 1000, 1.0, "zeroshot")
    rw_train_docs = fill(rw_train, realworld_draws, seed + 2000, 0.5, "realworld")
    rw_dev_docs = fill(rw_dev, 2, seed + 3000, 0.5, "realworld")
    JsonlWriter().write(zs_train + rw_train_docs, out / "train.jsonl")
    JsonlWriter().write(zs_dev + rw_dev_docs, out / "dev.jsonl")
    counts: dict[str, Any] = {
        "train": data_counts([*train_paths, *rw_train], zs_train + rw_train_docs),
        "dev": data_counts([*dev_paths, *rw_dev], zs_dev + rw_dev_docs),
        "ood_test_notes_held_out": len(rw_test),
    }
    (out / "data.json").write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    print(f"train {counts['train']['documents']} documents, dev {counts['dev']['documents']} documents")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--teacher", default="default", help="teacher model folder, or 'default' (bundled)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "student-run")
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--layer-map", default=None, help="teacher layers to start from, e.g. 0,2,5")
    parser.add_argument(
        "--resume", type=Path, default=None, help="continue from an earlier student folder (e.g. OUT/model)"
    )
    parser.add_argument("--temperature", type=float, default=2.0)
    parser.add_argument("--alpha", type=float, default=0.5)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--head-lr", type=float, default=5e-4)
    parser.add_argument("--time-budget", type=float, default=None, help="seconds of the whole run at most")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--draws", type=int, default=1)
    parser.add_argument("--realworld-draws", type=int, default=4)
    parser.add_argument("--data-only", action="store_true")
    parser.add_argument(
        "--export", type=Path, default=None, help="ONNX-only int8 folder to write, then calibrate"
    )
    parser.add_argument("--export-only", action="store_true", help="only export (and calibrate) OUT/model")
    parser.add_argument(
        "--bench",
        nargs="+",
        default=None,
        metavar="MODEL",
        help="only time these model folders (no training)",
    )
    parser.add_argument("--repeats", type=int, default=2, help="--bench: runs per model, interleaved")
    parser.add_argument("--bench-one", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bench_one is not None:
        print(json.dumps(bench_one(args.bench_one, args.threads)))
        return
    if args.bench:
        bench(args.bench, args.threads, args.repeats)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.export_only:
        if not (args.out / "train.jsonl").is_file() or not (args.out / "dev.jsonl").is_file():
            write_data(args.out, args.seed, args.draws, args.realworld_draws)
        if args.data_only:
            return
        distill_run(args)
    if args.export is not None:
        export(args.out / "model", args.export)


def distill_run(args: argparse.Namespace) -> None:
    from phiscrub.tagger.config import TrainConfig
    from phiscrub.train.distill import DistillConfig, distill

    teacher = args.teacher
    if teacher == "default":
        from phiscrub.detect.tagger import bundled_model_path

        bundled = bundled_model_path()
        if bundled is None:
            raise SystemExit("no bundled model")
        teacher = str(bundled)
    layer_map = tuple(int(x) for x in args.layer_map.split(",")) if args.layer_map else None
    dconfig = DistillConfig(
        layers=args.layers,
        layer_map=layer_map,
        temperature=args.temperature,
        alpha=args.alpha,
        resume=str(args.resume) if args.resume is not None else None,
    )
    config = TrainConfig(
        epochs=args.epochs,
        lr=args.lr,
        head_lr=args.head_lr,
        seed=args.seed,
        num_threads=args.threads,
        time_budget_s=args.time_budget,
        warmup_ratio=0.05,
    )
    train_docs = list(JsonlReader().read(args.out / "train.jsonl"))
    dev_docs = list(JsonlReader().read(args.out / "dev.jsonl"))
    result = distill(teacher, train_docs, dev_docs, args.out / "model", dconfig, config)
    print(
        f"student {result.student_params:,} parameters (teacher {result.teacher_params:,}); best dev token F1 "
        f"{result.best_dev_f1} at epoch {result.best_epoch}; teacher labels {result.teacher_seconds:.0f} s; "
        f"{result.steps} steps; stopped by {result.stop_reason}; {result.seconds:.0f} s"
    )


def export(model_dir: Path, target: Path) -> None:
    """ONNX-only int8 export of ``model_dir`` into ``target``, calibrated on the real-world dev part."""
    from phiscrub.detect.tagger import calibrate_model
    from phiscrub.train.onnx_export import install_onnx

    install_onnx(model_dir, target, quantize="int8")
    _train, dev, _test = split_realworld()
    _zs_train, zs_dev = split_notes()
    docs = fill(dev, 2, 1, 0.0, "realworld") + fill(zs_dev, 2, 1, 1.0, "zeroshot")
    cal = calibrate_model(target, docs, policy="safe-harbor", write=True)
    from phiscrub.train.trainer import update_meta

    update_meta(target, {"built_by": "scripts/distill_default_model.py", "dtype": "int8"})
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    print(
        f"exported {target} ({size / 1e6:.1f} MB); calibration on {len(docs)} documents, {cal.n_spans} spans"
    )


def bench_one(model: str, threads: int) -> dict[str, Any]:
    """In this process: rules + ``model`` over the 100 ~500-word notes of ``benchmarks/throughput.py``."""
    import os
    import time

    os.environ["PHISCRUB_THREADS"] = str(threads)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from throughput import corpus

    from phiscrub.deid import Deidentifier
    from phiscrub.detect.rules import default_detectors
    from phiscrub.detect.tagger import load_model_detector

    detector = load_model_detector(model)
    deid = Deidentifier(mode="placeholder", model=None, detectors=[*default_detectors(), detector])
    docs = corpus()
    list(deid.redact_many(docs[:1]))  # warm-up: lists and the model loaded
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(docs), 16):
        list(deid.redact_many(docs[i : i + 16], batch_size=16))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "model": model,
        "detector": type(detector).__name__,
        "notes": len(docs),
        "notes_per_s": round(len(docs) / wall, 2),
        "notes_per_cpu_s": round(len(docs) / cpu, 2),
        "threads": threads,
    }


def bench(models: list[str], threads: int, repeats: int) -> None:
    """Each model in a fresh process, ``repeats`` rounds interleaved; prints every run and the medians.

    Notes per CPU second is the steadier figure on a shared machine (other jobs stretch wall time).
    """
    import statistics
    import subprocess

    runs: dict[str, list[dict[str, Any]]] = {m: [] for m in models}
    for _ in range(repeats):
        for model in models:
            cmd = [sys.executable, __file__, "--bench-one", model, "--threads", str(threads)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            runs[model].append(json.loads(out.strip().splitlines()[-1]))
            print(json.dumps(runs[model][-1]))
    for model, rows in runs.items():
        wall = statistics.median(r["notes_per_s"] for r in rows)
        cpu = statistics.median(r["notes_per_cpu_s"] for r in rows)
        print(f"{model}: median {wall:.2f} notes/s, {cpu:.2f} notes per CPU-s ({len(rows)} runs)")


if __name__ == "__main__":
    main()
