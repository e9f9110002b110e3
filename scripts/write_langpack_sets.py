"""Write the filled language-pack sets of ``scripts/eval_langpacks.py`` as JSONL corpora.

So that ``phiscrub predict`` and ``phiscrub evaluate`` can score any pipeline (model or not, lexicon
or not) on the same filled notes the rule tables use (``docs/crosslingual.md``)::

    python scripts/write_langpack_sets.py build/langpack-sets --sets de-test de-dev
    phiscrub predict build/langpack-sets/de-test.jsonl -o build/de-test-pred.jsonl --lang de
    phiscrub evaluate --gold build/langpack-sets/de-test.jsonl --pred build/de-test-pred.jsonl \\
        --labels coarse --policy i2b2 -o build/de-test

Each line holds the document id, the filled text, the gold spans and ``metadata.lang``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# The script folder is not a package: eval_langpacks is imported from beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_langpacks import SETS


def write_set(name: str, folder: Path) -> int:
    """Write set ``name`` to ``folder/<name>.jsonl``; returns the number of documents."""
    docs = SETS[name]()
    with (folder / f"{name}.jsonl").open("w", encoding="utf-8") as out:
        for d in docs:
            spans = [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans]
            row = {"id": d.id, "text": d.text, "spans": spans, "metadata": dict(d.metadata)}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return len(docs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--sets", nargs="+", default=["de-dev", "de-test"], choices=sorted(SETS))
    args = ap.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        print(f"{name}: {write_set(name, args.folder)} documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
