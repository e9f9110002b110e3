"""Write the two gold corpora of the leak figures in ``docs/reliability.md`` as BRAT folders.

* ``OUT/synthetic-dev``: the held-out synthetic notes: English zero-shot notes 031-035 of families
  a-j, 2 surrogate draws, realism rewrite (the bundled model's dev set, never trained on; built as
  ``scripts/eval_realnotes.py`` builds its in-family dev).
* ``OUT/realworld-test``: the out-of-distribution test: the fixed ~30% hold-out of the
  real-world-style notes (:func:`phiscrub.evaluate.splits.split_folder`), ``--ood-draws`` surrogate
  fills from the ``test`` part of the name lists, no realism rewrite (``scripts/eval_realnotes.py``).

Then redact the ``.txt`` files with the default pipeline and count what survives::

    python scripts/leak_corpora.py --out build/leaks
    phiscrub redact build/leaks/realworld-test -o build/leaks/realworld-test-redacted
    phiscrub evaluate --gold build/leaks/realworld-test --pred build/leaks/realworld-test-redacted \\
        --leaks --policy safe-harbor -o build/leaks/realworld-test-leaks

The fills are invented values (no real person's data); only counts are printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_realnotes import in_family_dev, ood_test

from phiscrub.io import BratWriter

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "leaks")
    parser.add_argument("--ood-draws", type=int, default=2, help="surrogate fills per real-world-style note")
    args = parser.parse_args()
    for name, docs in (("synthetic-dev", in_family_dev()), ("realworld-test", ood_test(args.ood_draws))):
        BratWriter().write(docs, args.out / name)
        spans = sum(len(d.spans) for d in docs)
        print(f"{name}: {len(docs)} notes, {spans} gold spans -> {args.out / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
