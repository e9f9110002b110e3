"""Entity precision/recall of the Spanish/Catalan AGE rules against MEDDOCAN's EDAD_SUJETO_ASISTENCIA.

Exact-offset match (the rules follow MEDDOCAN's convention: number and unit, "45 años").

Usage: python scripts/eval_es_age_rules.py [MEDDOCAN_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from phiscrub import Document
from phiscrub.detect.rules.ages import age_detector

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "meddocan"
    det = age_detector("es")
    for split in ("train", "dev"):
        tp = fp = fn = 0
        for ann in sorted((base / split).glob("*.ann")):
            txt = ann.with_suffix(".txt").read_text(encoding="utf-8")
            gold = set()
            for line in ann.read_text(encoding="utf-8").splitlines():
                if "\tEDAD" in line:
                    parts = line.split("\t")[1].split()
                    gold.add((int(parts[1]), int(parts[-1])))
            pred = {(s.start, s.end) for s in det.detect(Document(ann.stem, txt))}
            tp += len(gold & pred)
            fp += len(pred - gold)
            fn += len(gold - pred)
        print(
            f"{split}: AGE entity P {tp / max(1, tp + fp):.3f} R {tp / max(1, tp + fn):.3f} "
            f"(tp {tp} fp {fp} fn {fn})"
        )


if __name__ == "__main__":
    main()
