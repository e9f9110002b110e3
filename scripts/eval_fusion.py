"""Rules, model and rules + model on a target dev set, per coarse label; writes the model's fusion.json.

The recipes (``phiscrub train --recipe ...``) do this at the end of training; this script does it for
an existing model folder, and prints the per-label table of docs/crosslingual.md ("Rules or model, per
label") plus the scores of predict with the policy applied.

Usage::

    python scripts/eval_fusion.py MODEL_DIR DEV.jsonl [--lang auto] [--no-write]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from phiscrub import Deidentifier
from phiscrub.crosslingual.fusion import compare_on_dev, write_fusion
from phiscrub.detect.tagger import load_model_detector
from phiscrub.document import Document
from phiscrub.evaluate.metrics import evaluate
from phiscrub.io import read_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", type=Path)
    ap.add_argument("dev", type=Path)
    ap.add_argument("--lang", default="auto")
    ap.add_argument("--no-write", action="store_true", help="do not write fusion.json")
    args = ap.parse_args(argv)
    dev, _ = read_corpus(args.dev)
    report = compare_on_dev(dev, load_model_detector(args.model), lang=args.lang)
    if not args.no_write:
        write_fusion(report, args.model)
    print(report.summary())
    print("| label | gold | rules E F1 | model E F1 | rules + model E F1 | predict uses |")
    print("|---|---:|---:|---:|---:|---|")
    for lab, row in report.per_label.items():
        print(
            f"| {lab} | {int(row['rules']['gold'])} | {row['rules']['f1']:.3f} | {row['model']['f1']:.3f} | "
            f"{row['union']['f1']:.3f} | {report.prefer[lab]} |"
        )
    o = report.overall
    fused = Deidentifier(model=args.model, lang=args.lang, labels="fine")
    pred = [Document(d.id, d.text, tuple(s)) for d, s in zip(dev, fused.detect_many(list(dev)))]
    res = evaluate(dev, pred, "coarse")
    print(
        f"| all | {res.entity.tp + res.entity.fn} | {o['rules']:.3f} | {o['model']:.3f} | {o['union']:.3f} | "
        f"fused (policy applied): {res.entity.f1:.3f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
