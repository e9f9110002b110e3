"""Rebuild the default English model shipped in ``src/phiscrub/resources/model``.

Steps (all seeded, all offline):

1. Split the English zero-shot notes (``shared/data/zeroshot-notes/a`` .. ``j``): notes numbered
   001-030 of each folder train, 031-035 are the held-out dev set (never trained on).
2. Fill the placeholders with surrogates (``PlaceholderReader``): ``--draws`` draws per training note,
   each followed by a realism rewrite (:func:`phiscrub.augment.realism.realistic_variant`: upper/lower
   case notes, "dr smith", initials, last names alone, "58yo", "'92", "MGH" ...). Dev gets 2 draws with
   the same rewrite under other seeds.
3. Write ``OUT/train.jsonl`` and ``OUT/dev.jsonl`` and train the tagger on them
   (``phiscrub.train.trainer.train``), saving to ``OUT/model``.
4. With ``--install``, save the best model with int8 weights (per-row scales) into the package folder
   ``src/phiscrub/resources/model`` (about 23 MB). ``--install-only`` does just that for a trained model.

Usage:
    python scripts/build_default_model.py --out build/default-model --draws 3 --epochs 4 --time-budget 2700 --install
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

from phiscrub.augment.realism import realistic_variant
from phiscrub.document import Document
from phiscrub.io.jsonl import JsonlReader, JsonlWriter
from phiscrub.transform.fill import PlaceholderReader

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "data" / "zeroshot-notes"
FOLDERS = "abcdefghij"
DEV_NUMBERS = range(31, 36)


def split_notes(notes: Path = NOTES) -> tuple[list[Path], list[Path]]:
    """English notes split into (train, dev) by their number."""
    train: list[Path] = []
    dev: list[Path] = []
    for folder in FOLDERS:
        for path in sorted((notes / folder).glob("*.txt")):
            m = re.search(r"-(\d+)$", path.stem)
            if m is None:
                continue
            (dev if int(m.group(1)) in DEV_NUMBERS else train).append(path)
    return train, dev


def fill(paths: list[Path], draws: int, seed: int, realism: float) -> list[Document]:
    """Surrogate-filled (and realism-rewritten) documents for ``paths``."""
    docs: list[Document] = []
    for path in paths:
        reader = PlaceholderReader(seed=seed, draws=draws, lang="en")
        for doc in reader.read(path):
            doc = Document(f"{path.parent.name}/{doc.id}", doc.text, doc.spans, dict(doc.metadata))
            rng = random.Random(f"{seed}:{doc.id}")
            docs.append(realistic_variant(doc, rng, strength=realism) if realism > 0 else doc)
    return docs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "default-model")
    parser.add_argument("--draws", type=int, default=4)
    parser.add_argument("--realism", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--labels", default="fine")
    parser.add_argument("--crf", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--shape-features", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--time-budget", type=float, default=None, help="seconds of training at most")
    parser.add_argument("--data-only", action="store_true")
    parser.add_argument(
        "--install", action="store_true", help="copy the trained model into the package (int8)"
    )
    parser.add_argument("--install-only", action="store_true", help="only install OUT/model into the package")
    args = parser.parse_args()
    if args.install_only:
        install(args.out / "model")
        return

    args.out.mkdir(parents=True, exist_ok=True)
    train_paths, dev_paths = split_notes()
    train_docs = fill(train_paths, args.draws, args.seed, args.realism)
    dev_docs = fill(dev_paths, 2, args.seed + 1000, args.realism)
    JsonlWriter().write(train_docs, args.out / "train.jsonl")
    JsonlWriter().write(dev_docs, args.out / "dev.jsonl")
    print(
        f"train: {len(train_paths)} notes -> {len(train_docs)} documents; dev: {len(dev_paths)} notes -> "
        f"{len(dev_docs)} documents"
    )
    if args.data_only:
        return
    from phiscrub.train.config import TrainConfig
    from phiscrub.train.trainer import train

    config = TrainConfig(
        granularity=args.labels,
        use_crf=args.crf,
        shape_features=args.shape_features,
        epochs=args.epochs,
        seed=args.seed,
        time_budget_s=args.time_budget,
    )
    result = train(
        list(JsonlReader().read(args.out / "train.jsonl")),
        list(JsonlReader().read(args.out / "dev.jsonl")),
        config,
        args.out / "model",
    )
    print(f"best dev token F1 {result.best_dev_f1} at epoch {result.best_epoch}; {result.seconds:.0f} s")
    if args.install:
        install(args.out / "model")


def install(model_dir: Path) -> None:
    """Save ``model_dir`` with int8 weights as the package's bundled model."""
    import shutil

    from phiscrub.detect.tagger import BUNDLED_MODEL_DIR
    from phiscrub.train.model import PhiTagger

    target = ROOT / "src" / "phiscrub" / "resources" / BUNDLED_MODEL_DIR
    if target.exists():
        shutil.rmtree(target)
    model = PhiTagger.load(model_dir)
    model.save(target, dtype="int8", extra_meta={"built_by": "scripts/build_default_model.py"})
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    print(f"installed {target} ({size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
