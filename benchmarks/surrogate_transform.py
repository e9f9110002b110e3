"""Time of the surrogate transform alone: gold spans of the hard-forms notes replaced four times.

The detector dominates a redaction run; this isolates what surrogate mode adds: the first pass
includes reading every table the surrogates need (names, towns, ZIP codes, area codes), the next
three are warm. It only uses :func:`phiscrub.transform.operators.build_transformer`, so it also runs
on older checkouts: ``git archive <commit> src | tar -x -C /tmp/old`` then
``PYTHONPATH=/tmp/old/src python benchmarks/surrogate_transform.py`` gives the same figures for them.

Run: ``OMP_NUM_THREADS=1 python benchmarks/surrogate_transform.py [--corpus CORPUS] [--mode surrogate]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from phiscrub.document import Document, Span
from phiscrub.transform.operators import build_transformer

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hardforms-notes" / "corpus.jsonl"


def main() -> None:
    """Print the first and the warm pass times in seconds."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--mode", default="surrogate", choices=["surrogate", "placeholder", "mask"])
    args = ap.parse_args()
    docs = []
    for line in args.corpus.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        spans = tuple(Span(s["start"], s["end"], s["label"]) for s in row["spans"])
        docs.append(Document(row["id"], row["text"], spans, {"patient_id": row.get("patient_id")}))
    transformer = build_transformer(args.mode, "fine", key="benchmark-key")
    times = []
    for _ in range(4):
        start = time.perf_counter()
        for doc in docs:
            transformer.apply(doc, doc.spans)
        times.append(time.perf_counter() - start)
    warm = ", ".join(f"{t:.3f}" for t in times[1:])
    print(f"{args.mode}: {len(docs)} notes, first pass {times[0]:.3f} s, warm passes {warm} s")


if __name__ == "__main__":
    main()
