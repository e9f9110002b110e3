"""Fit the span-score calibration of a model folder (default: the bundled model) and store it.

The notes: the realworld-notes parts that are not the out-of-distribution test, and the zero-shot
in-family dev notes, each filled with 2 surrogate draws (seed 1; the zero-shot notes get the realism
rewrite, as in training). The out-of-distribution test is never used.

For a model trained on the realworld ``train`` part, pass ``--dev-only``: its spans on its own
training notes would be over-confident, so only the ``dev`` part is used then.

Usage:
    OMP_NUM_THREADS=1 python scripts/calibrate_default_model.py                      # bundled model
    OMP_NUM_THREADS=1 python scripts/calibrate_default_model.py --model build/default-model/model --dev-only
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_default_model import fill, split_notes, split_realworld

from phiscrub.detect.tagger import bundled_model_path, calibrate_model


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="default", help="Model folder or 'default' (the bundled one).")
    parser.add_argument("--dev-only", action="store_true", help="Use the realworld dev part only.")
    parser.add_argument("--policy", default="safe-harbor", choices=["safe-harbor", "i2b2", "strict"])
    parser.add_argument("--dry-run", action="store_true", help="Print the map, do not write it.")
    args = parser.parse_args()
    folder = bundled_model_path() if args.model == "default" else Path(args.model)
    if folder is None:
        raise SystemExit("no bundled model")
    train, dev, _test = split_realworld()
    _zs_train, zs_dev = split_notes()
    realworld = dev if args.dev_only else train + dev
    docs = fill(realworld, 2, 1, 0.0, "realworld") + fill(zs_dev, 2, 1, 1.0, "zeroshot")
    cal = calibrate_model(folder, docs, policy=args.policy, write=not args.dry_run)
    print(f"{len(docs)} documents; {cal.n_spans} spans, {cal.n_tokens} tokens, PHI share {cal.phi_rate:.4f}")
    for x, y in zip(cal.x, cal.y):
        print(f"  {x:.4f} -> {y:.4f}")


if __name__ == "__main__":
    main()
