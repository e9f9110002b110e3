"""Rebuild the default English model shipped in ``src/phiscrub/resources/model``.

Steps (all seeded, all offline):

1. Split the notes. English zero-shot notes (``shared/data/zeroshot-notes/a`` .. ``j``): 001-030 of
   each folder train, 031-035 are the in-family dev set
   (:func:`phiscrub.evaluate.splits.split_zeroshot`). Real-world-style notes
   (``shared/data/realworld-notes/r0`` .. ``r8``, and any batch added later): a fixed hash of each
   note's relative path puts ~60% in train, ~10% in dev and ~30% in the **out-of-distribution test**
   (:func:`phiscrub.evaluate.splits.split_folder`). The OOD test is never read here: not for
   training, not for model selection (the script asserts it).
2. Fill the placeholders with surrogates (``PlaceholderReader``): ``--draws`` draws per zero-shot
   training note and ``--realworld-draws`` per real-world training note (the real-world notes are
   shorter and fewer, and half of them hold no PHI: their PHI-free text is what teaches precision),
   each followed by a realism rewrite (:func:`phiscrub.augment.realism.realistic_variant`; strength
   ``--realism`` for zero-shot notes, ``--realworld-realism`` for the already messy real-world
   notes). Dev: 2 draws of both dev parts under other seeds. Every fill here draws names, towns and
   hospitals from the ``train`` part of the surrogate lists (``vocab="train"``); the OOD test of
   ``scripts/eval_realnotes.py`` draws from the disjoint ``test`` part.
3. Write ``OUT/train.jsonl``, ``OUT/dev.jsonl`` and ``OUT/data.json`` (counts: notes, documents,
   PHI spans per document, share of PHI-free documents, per source) and train the tagger on them
   (``phiscrub.train.trainer.train``), saving to ``OUT/model``. ``--init-from default`` continues
   from the bundled model (much cheaper than training from the encoder); ``--time-budget`` caps the
   training seconds.
4. With ``--install``, save the best model with int8 weights (per-row scales) next to it and install
   its ONNX int8 export into the package folder ``src/phiscrub/resources/model`` (about 24 MB,
   no torch weights: the torch path rebuilds them from the graph). ``--install-only`` does just that for a trained model.
   Install a new model only when ``scripts/eval_realnotes.py`` shows it better on the OOD test.

Usage:
    python scripts/build_default_model.py --out build/default-model --data-only
    python scripts/build_default_model.py --out build/default-model --draws 3 --realworld-draws 4 \
        --init-from default --epochs 3 --time-budget 2700
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from phiscrub.augment.realism import realistic_variant
from phiscrub.document import Document
from phiscrub.evaluate.splits import split_folder, split_zeroshot
from phiscrub.io.jsonl import JsonlReader, JsonlWriter
from phiscrub.transform.placeholders import PlaceholderReader

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "data" / "zeroshot-notes"
REALWORLD = ROOT.parent / "shared" / "data" / "realworld-notes"


def split_notes(notes: Path = NOTES) -> tuple[list[Path], list[Path]]:
    """English zero-shot notes split into (train, dev) by their number."""
    parts = split_zeroshot(notes)
    return parts["train"], parts["dev"]


def split_realworld(notes: Path = REALWORLD) -> tuple[list[Path], list[Path], list[Path]]:
    """Real-world-style notes split into (train, dev, test) by the fixed path hash."""
    parts = split_folder(notes)
    return parts["train"], parts["dev"], parts["test"]


def fill(
    paths: Iterable[Path], draws: int, seed: int, realism: float, source: str = "", vocab: str = "train"
) -> list[Document]:
    """Surrogate-filled (and realism-rewritten) documents for ``paths``.

    Ids are ``<folder>/<stem>#<draw>``; ``metadata["corpus"]`` is ``source`` when given. ``vocab``
    is the part of the surrogate name lists drawn from: training and dev use ``train``; the
    out-of-distribution test uses ``test`` (names the model never saw, see
    :func:`phiscrub.transform.fill.vocab_part`).
    """
    docs: list[Document] = []
    for path in paths:
        reader = PlaceholderReader(seed=seed, draws=draws, lang="en", vocab=vocab)
        for doc in reader.read(path):
            meta = dict(doc.metadata)
            if source:
                meta["corpus"] = source
            doc = Document(f"{path.parent.name}/{doc.id}", doc.text, doc.spans, meta)
            rng = random.Random(f"{seed}:{doc.id}")
            docs.append(realistic_variant(doc, rng, strength=realism) if realism > 0 else doc)
    return docs


def data_counts(notes: Sequence[Path], docs: Sequence[Document]) -> dict[str, Any]:
    """Notes, documents, PHI spans per document and the share of PHI-free documents (no text)."""
    n = len(docs)
    spans = sum(len(d.spans) for d in docs)
    return {
        "notes": len(notes),
        "documents": n,
        "phi_spans": spans,
        "phi_spans_per_document": round(spans / n, 2) if n else 0.0,
        "phi_free_share": round(sum(not d.spans for d in docs) / n, 3) if n else 0.0,
        "words": sum(len(d.text.split()) for d in docs),
    }


def build_parser() -> argparse.ArgumentParser:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "default-model")
    parser.add_argument("--draws", type=int, default=3, help="surrogate draws per zero-shot training note")
    parser.add_argument("--realism", type=float, default=1.0, help="realism strength, zero-shot notes")
    parser.add_argument(
        "--realworld-draws",
        type=int,
        default=4,
        help="surrogate draws per real-world training note (0: none)",
    )
    parser.add_argument(
        "--realworld-realism", type=float, default=0.5, help="realism strength, real-world notes"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument(
        "--lr", type=float, default=None, help="encoder learning rate (default: TrainConfig's)"
    )
    parser.add_argument("--labels", default="fine")
    parser.add_argument("--crf", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--shape-features", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--time-budget", type=float, default=None, help="seconds of training at most")
    parser.add_argument(
        "--init-from",
        default=None,
        help="continue training a saved model: a model folder, or 'default' for the bundled model",
    )
    parser.add_argument(
        "--data-only", action="store_true", help="write the data and its counts, do not train"
    )
    parser.add_argument(
        "--install", action="store_true", help="copy the trained model into the package (int8)"
    )
    parser.add_argument("--install-only", action="store_true", help="only install OUT/model into the package")
    return parser


def build_data(args: argparse.Namespace) -> dict[str, Any]:
    """Fill and write ``OUT/train.jsonl``, ``OUT/dev.jsonl`` and ``OUT/data.json``; return the counts."""
    args.out.mkdir(parents=True, exist_ok=True)
    train_paths, dev_paths = split_notes()
    rw_train, rw_dev, rw_test = split_realworld()
    held_out = set(rw_test)
    # The OOD test must never reach training or model selection.
    assert not held_out & (set(rw_train) | set(rw_dev)), "OOD test notes in train/dev"
    zs_train = fill(train_paths, args.draws, args.seed, args.realism, "zeroshot")
    zs_dev = fill(dev_paths, 2, args.seed + 1000, args.realism, "zeroshot")
    rw_train_docs = (
        fill(rw_train, args.realworld_draws, args.seed + 2000, args.realworld_realism, "realworld")
        if args.realworld_draws > 0
        else []
    )
    rw_dev_docs = (
        fill(rw_dev, 2, args.seed + 3000, args.realworld_realism, "realworld") if args.realworld_draws else []
    )
    train_docs = zs_train + rw_train_docs
    dev_docs = zs_dev + rw_dev_docs
    JsonlWriter().write(train_docs, args.out / "train.jsonl")
    JsonlWriter().write(dev_docs, args.out / "dev.jsonl")
    counts: dict[str, Any] = {
        "train": {
            "zeroshot": data_counts(train_paths, zs_train),
            "realworld": data_counts(rw_train if args.realworld_draws else [], rw_train_docs),
            "all": data_counts([*train_paths, *(rw_train if args.realworld_draws else [])], train_docs),
        },
        "dev": {
            "zeroshot": data_counts(dev_paths, zs_dev),
            "realworld": data_counts(rw_dev if args.realworld_draws else [], rw_dev_docs),
            "all": data_counts([*dev_paths, *(rw_dev if args.realworld_draws else [])], dev_docs),
        },
        "ood_test_notes_held_out": len(rw_test),
        "options": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    (args.out / "data.json").write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    return counts


def print_counts(counts: dict[str, Any]) -> None:
    """One line per part and source (counts only, no text), then the held-out OOD test size."""
    for part in ("train", "dev"):
        for source, c in counts[part].items():
            print(
                f"{part:5s} {source:9s}: {c['notes']:4d} notes -> {c['documents']:5d} documents, "
                f"{c['phi_spans_per_document']:5.2f} PHI spans/document, {c['phi_free_share']:.1%} PHI-free, "
                f"{c['words']} words"
            )
    print(f"OOD test: {counts['ood_test_notes_held_out']} real-world notes held out (never read here)")


def resolve_init_from(init_from: str | None) -> str | None:
    """``--init-from`` as a model folder: ``default`` names the bundled model."""
    if init_from != "default":
        return init_from
    from phiscrub.detect.tagger import bundled_model_path

    bundled = bundled_model_path()
    if bundled is None:
        raise SystemExit("no bundled model to continue from")
    return str(bundled)


def train_model(args: argparse.Namespace) -> None:
    """Train the tagger on ``OUT/train.jsonl`` / ``OUT/dev.jsonl`` into ``OUT/model``."""
    from phiscrub.tagger.config import TrainConfig
    from phiscrub.train.trainer import train

    extra: dict[str, Any] = {"lr": args.lr} if args.lr is not None else {}
    config = TrainConfig(
        granularity=args.labels,
        use_crf=args.crf,
        shape_features=args.shape_features,
        epochs=args.epochs,
        seed=args.seed,
        time_budget_s=args.time_budget,
        init_from=resolve_init_from(args.init_from),
        **extra,
    )
    result = train(
        list(JsonlReader().read(args.out / "train.jsonl")),
        list(JsonlReader().read(args.out / "dev.jsonl")),
        config,
        args.out / "model",
    )
    print(f"best dev token F1 {result.best_dev_f1} at epoch {result.best_epoch}; {result.seconds:.0f} s")


def main() -> None:
    args = build_parser().parse_args()
    if args.install_only:
        install(args.out / "model")
        return
    print_counts(build_data(args))
    if args.data_only:
        return
    train_model(args)
    if args.install:
        install(args.out / "model")


def install(model_dir: Path) -> None:
    """Install ``model_dir`` as the package's bundled model: an ONNX-only int8 folder.

    The torch weights are first saved with int8 storage next to ``model_dir``
    (``<model_dir>-installed-torch``, kept for benchmarks and agreement checks), then exported
    (:func:`phiscrub.train.onnx_export.install_onnx`): the package ships ``tagger.onnx`` only (both
    weight files would exceed its 25 MB). Re-run ``scripts/calibrate_default_model.py`` afterwards.
    """
    from phiscrub.detect.tagger import BUNDLED_MODEL_DIR
    from phiscrub.tagger.model import PhiTagger
    from phiscrub.train.onnx_export import install_onnx

    target = ROOT / "src" / "phiscrub" / "resources" / BUNDLED_MODEL_DIR
    torch_copy = model_dir.parent / f"{model_dir.name}-installed-torch"
    model = PhiTagger.load(model_dir)
    model.save(torch_copy, dtype="int8", extra_meta={"built_by": "scripts/build_default_model.py"})
    install_onnx(torch_copy, target)
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    print(f"installed {target} ({size / 2**20:.1f} MiB; torch weights kept in {torch_copy})")


if __name__ == "__main__":
    main()
