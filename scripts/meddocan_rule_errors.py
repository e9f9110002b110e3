"""Error classes of the Spanish rules alone on a MEDDOCAN split (counts only, never note text).

Per gold entity (``--policy i2b2``), by phiscrub fine type: ``exact`` (a resolved span with the same
offsets), ``partial`` (overlapped with other boundaries) or ``missed``; and the binary token totals
(missed PHI tokens, false-positive tokens) with the tokens' coarse labels. The table of
``docs/crosslingual.md`` ("Spanish rule errors on MEDDOCAN train") comes from::

    python scripts/meddocan_rule_errors.py train
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.io import read_corpus
from phiscrub.labels import fold
from phiscrub.policy import apply_policy
from phiscrub.text import tokenize

MEDDOCAN = Path(__file__).resolve().parents[2] / "shared" / "data" / "meddocan"


def _phi(doc: Document, spans: tuple[Span, ...] | list[Span]) -> list[Span]:
    return [s for s in apply_policy(doc.text, spans, "i2b2") if fold(s.label, "coarse")]


def _label_at(spans: list[Span], start: int, end: int) -> str | None:
    for s in spans:
        if s.start < end and start < s.end:
            return fold(s.label, "coarse")
    return None


def count(
    docs: list[Document], deid: Deidentifier
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """Entity outcomes ``(outcome, fine type)`` and token errors ``(FN|FP, coarse label)``."""
    entities: Counter[tuple[str, str]] = Counter()
    tokens: Counter[tuple[str, str]] = Counter()
    for doc in docs:
        gold, pred = _phi(doc, doc.spans), _phi(doc, deid.detect(doc))
        for g in gold:
            hits = [(p.start, p.end) for p in pred if p.start < g.end and g.start < p.end]
            outcome = "missed" if not hits else "exact" if (g.start, g.end) in hits else "partial"
            entities[(outcome, g.label)] += 1
        for tok in tokenize(doc.text):
            g_lab, p_lab = _label_at(gold, tok.start, tok.end), _label_at(pred, tok.start, tok.end)
            if g_lab and not p_lab:
                tokens[("FN", g_lab)] += 1
            elif p_lab and not g_lab:
                tokens[("FP", p_lab)] += 1
    return entities, tokens


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", choices=["train", "dev"])
    ap.add_argument("--data", type=Path, default=MEDDOCAN)
    args = ap.parse_args(argv)
    docs, _ = read_corpus(args.data / args.split, corpus="meddocan")
    entities, tokens = count(docs, Deidentifier(model=None, lang="es", labels="fine"))
    print("| outcome | type | gold entities |\n|---|---|---:|")
    for (outcome, label), n in sorted(entities.items(), key=lambda kv: (-kv[1], kv[0])):
        if outcome != "exact":
            print(f"| {outcome} | {label} | {n} |")
    for kind in ("FN", "FP"):
        total = sum(n for (k, _), n in tokens.items() if k == kind)
        parts = ", ".join(f"{lab} {n}" for (k, lab), n in tokens.most_common() if k == kind)
        print(f"\n{kind} tokens: {total} ({parts})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
