"""Warm the gguf feature cache of corpora (``phiscrub train --encoder gemma3-270m`` then reads it).

The frozen GGUF vectors of a text are computed once and cached (:mod:`phiscrub.tagger.gemma`), so
several of these processes can extract the features of different corpora side by side before the
training runs. The config file holds the ``gguf_*`` keys of the runs (same keys, same cache).

Usage:
    OMP_NUM_THREADS=1 nice -n 10 python scripts/gguf_features.py --config CONFIG.json CORPUS [CORPUS ...]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from phiscrub.cli._common import read_with_problems
from phiscrub.tagger.config import GEMMA_ENCODER, TrainConfig
from phiscrub.tagger.gemma import extractor_for, word_vectors


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--config", type=Path, default=None, help="TrainConfig JSON (gguf_* keys)")
    parser.add_argument("--encoder", default=GEMMA_ENCODER)
    args = parser.parse_args()
    config = TrainConfig.from_json(args.config) if args.config else TrainConfig()
    config = config.replace(encoder=args.encoder, num_threads=config.num_threads or 1)
    extractor = extractor_for(config)
    for corpus in args.corpora:
        docs, _problems, _ = read_with_problems(corpus, None, None, config.seed, 1)
        started, calls = time.monotonic(), extractor.calls
        vectors = word_vectors(config, [d.text for d in docs])
        print(
            f"{corpus}: {len(docs)} documents, {sum(len(v) for v in vectors)} words, "
            f"{extractor.calls - calls} llama.cpp passes, {time.monotonic() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
