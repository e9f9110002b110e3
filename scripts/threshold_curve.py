"""Precision-recall over the ``--threshold`` knob of the default pipeline: points table and PNG.

Runs a :class:`~phiscrub.Deidentifier` (rules + model, the given policy) once per note set and
applies every threshold the way ``phiscrub redact --threshold T`` does
(:func:`phiscrub.evaluate.curve.pipeline_points`). Binary token recall and precision, false
positives per 1,000 non-PHI tokens; gold filtered by the same policy.

Note sets (the data of ``scripts/eval_realnotes.py``, same seeds and fills):

- ``realworld-dev``: the ~10% dev part of ``shared/data/realworld-notes`` (for choosing the default
  threshold and fitting the calibration);
- ``ood-test``: the ~30% out-of-distribution hold-out (report only; never used for a choice);
- ``zeroshot-dev``: the in-family dev (zero-shot notes 031-035, 2 draws, realism rewrite).

Outputs ``OUT/points.json``, ``OUT/points.md`` and ``OUT/pr-curve.png`` (figures only, no text).

Usage:
    OMP_NUM_THREADS=1 python scripts/threshold_curve.py --out build/threshold
    OMP_NUM_THREADS=1 python scripts/threshold_curve.py --sets ood-test --png docs/img/threshold-pr-ood.png
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_default_model import fill, split_realworld
from eval_realnotes import DEV_SEED, OOD_SEED, in_family_dev, ood_test

from phiscrub.deid import DEFAULT_THRESHOLD, Deidentifier
from phiscrub.document import Document
from phiscrub.evaluate.curve import DEFAULT_THRESHOLDS, ThresholdPoint, pipeline_points, plot_pr_curve

SETS = ("realworld-dev", "ood-test", "zeroshot-dev")


def note_set(name: str, ood_draws: int) -> list[Document]:
    """The documents of one note set (see the module docstring)."""
    if name == "realworld-dev":
        _train, dev, _test = split_realworld()
        return fill(dev, 2, DEV_SEED, 0.0, "realworld")
    if name == "ood-test":
        return ood_test(ood_draws, OOD_SEED)
    if name == "zeroshot-dev":
        return in_family_dev()
    raise SystemExit(f"unknown note set {name!r}; use one of {SETS}")


def table(name: str, points: Sequence[ThresholdPoint]) -> str:
    """A markdown table of the points of one note set."""
    rows = [
        f"| {p.threshold:g} | {p.recall:.4f} | {p.precision:.4f} | {p.fp_per_1000:.2f} | {p.tp} | {p.fp} | {p.fn} |"
        for p in points
    ]
    head = f"**{name}**\n\n| threshold | recall | precision | FP / 1k non-PHI | TP | FP | FN |\n|---:|---:|---:|---:|---:|---:|---:|"
    return "\n".join([head, *rows])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("build/threshold"))
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--model", default="default", help="Model folder or 'default'.")
    parser.add_argument("--policy", default="safe-harbor", choices=["safe-harbor", "i2b2", "strict"])
    parser.add_argument("--ood-draws", type=int, default=1)
    parser.add_argument("--png", type=Path, default=None, help="Also copy the PNG here (e.g. docs/img/...).")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    deid = Deidentifier(model=args.model, policy=args.policy)
    curves: dict[str, Sequence[ThresholdPoint]] = {}
    seconds: dict[str, float] = {}
    for name in args.sets:
        docs = note_set(name, args.ood_draws)
        start = time.perf_counter()
        curves[name] = pipeline_points(deid, docs, DEFAULT_THRESHOLDS)
        seconds[name] = time.perf_counter() - start
        print(f"{name}: {len(docs)} documents, {seconds[name]:.0f} s", file=sys.stderr)
    config = {"model": args.model, "policy": args.policy, "ood_draws": args.ood_draws, "sets": args.sets}
    payload = {"config": config, "curves": {k: [p.to_dict() for p in v] for k, v in curves.items()}}
    (args.out / "points.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    md = "\n\n".join(table(k, v) for k, v in curves.items())
    (args.out / "points.md").write_text(md + "\n", encoding="utf-8")
    png = plot_pr_curve(
        curves,
        args.out / "pr-curve.png",
        title=f"Binary token P/R over --threshold ({args.policy})",
        mark=DEFAULT_THRESHOLD,
    )
    if args.png is not None:
        args.png.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, args.png)
    print(md)


if __name__ == "__main__":
    main()
