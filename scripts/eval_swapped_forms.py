"""Surface-swap check on the hard-forms dev notes: the same contexts, other PHI surfaces.

The hard-forms dev notes (hf001-hf060) were the development set of the English rules, so their own
surfaces flatter the rules. This script keeps every note's context and replaces the surfaces of
some labels with made-up ones of the forms real notes write and no list holds:

* ``facility``: HOSPITAL and ORGANIZATION spans become ordinary-word names with a head ("Summit
  Ridge Cardiology Associates", "Birch Counseling", "pine springs dialysis" in a lower-case note);
* ``person``: PATIENT, DOCTOR and RELATIVE spans become given names and surnames that are English
  words ("Grace Hill", "Mr. Day", "son May");
* ``city``: CITY spans become towns named with English words ("Fair Haven", "Independence").

Each span keeps its case form (ALL CAPS, lower case). It reports, per group and seed, how many of the
swapped spans are not fully covered by the default pipeline's spans (``Deidentifier()``, binary:
any label), and with ``--show`` each miss with its context (synthetic text only: the surfaces are
made up and the contexts are the dataset's fictional notes). Never run it on the test half.

Usage:
    python scripts/eval_swapped_forms.py [--seeds 1-8] [--groups facility,person,city] [--show]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "hardforms-notes" / "corpus.jsonl"


def _w(words: str, sep: str | None = None) -> list[str]:
    return words.split(sep)


_NATURE = _w(
    "Summit Blue Golden Clear Red Silver Green North South East West Cedar Pine Oak Maple River Lake "
    "Stone Bright Harbor Valley Ridge Meadow Prairie Canyon Eagle Falcon Liberty Heritage Pioneer "
    "Evergreen Willow Birch Aspen Coral Crystal Granite Copper Sterling"
)
_PLACE = _w(
    "Ridge Creek Harbor Valley Point View Springs Hills Grove Park Rock Pines Lake Bay Brook Haven Crest Bend"
)
_HOSPITAL_HEADS = (
    "Medical Center", "Hospital", "Regional Hospital", "Health", "Healthcare", "Family Practice",
    "Behavioral Health", "Orthopedics", "Medical Group", "Cardiology Associates", "Urgent Care", "Clinic",
    "Rehab", "Skilled Nursing", "Home Health", "Health Partners", "Surgical Associates", "Women's Health",
    "Pediatrics", "Imaging", "Dialysis",
)  # fmt: skip
_ORG_HEADS = (
    "Insurance", "Health Plan", "Foods", "Logistics", "Church", "Pharmacy", "Senior Center", "Credit Union",
    "Transit", "Academy", "Elementary", "Manufacturing", "Bank", "Fire Department", "Home Care", "Hospice",
    "Shelter", "Community Services", "Recovery Center", "Counseling",
)  # fmt: skip
_FIRST = _w(
    "Rose Grace Hope Faith June April Dawn Joy Bill Jack Frank Mark Will Rich Guy Earl Dean Bud Sunny "
    "Autumn Summer Ivy Lily Pearl Ruby Amber Jade Skye Rocky Buck Chase Hunter Ward"
)
_LAST = _w(
    "Baker Stone Hill Wood Field Brook Rivers Lake Young King Price Long Short Little Rich Street Fox Wolf "
    "Bird Swan Lamb Hunt Cook Mason Miller Potter Carpenter Gardner Bishop Church Bell Banks Hope Love Wise "
    "Good Strong Black White Brown Green Gray Sharp Frost Snow Rain Winter Summers May March Day Knight "
    "Page Marsh"
)
_TOWNS = _w(
    "Cedar Falls|Millbrook|Oak Hollow|Pine Bluff|Fair Haven|Spring Valley|Rock Hill|Clear Lake|Green River|"
    "Lake Forest|Mount Pleasant|Twin Falls|Red Bank|Stone Ridge|Bay Point|Elk Grove|Union City|Liberty|"
    "Harmony|Plainview|Riverside|Fairview|Greenville|Kingston|Milton|Salem|Franklin|Clinton|Hope|"
    "Independence|Eden|Concord|Unity",
    "|",
)
GROUPS = {
    "facility": ("HOSPITAL", "ORGANIZATION"),
    "person": ("PATIENT", "DOCTOR", "RELATIVE"),
    "city": ("CITY",),
}


def _surface(rng: random.Random, label: str, old: str) -> str:
    if label in ("HOSPITAL", "ORGANIZATION"):
        words = [rng.choice(_NATURE)] + ([rng.choice(_PLACE)] if rng.random() < 0.6 else [])
        heads = _HOSPITAL_HEADS if label == "HOSPITAL" else _ORG_HEADS
        new = " ".join([*words, rng.choice(heads)])
    elif label == "CITY":
        new = rng.choice(_TOWNS)
    else:
        new = rng.choice(_LAST) if len(old.split()) == 1 else f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
    if old.isupper():
        return new.upper()
    return new.lower() if old.islower() else new


def swapped(rows: list[dict], labels: tuple[str, ...], seed: int) -> tuple[list, list[list[int]]]:
    """The dev notes with the surfaces of ``labels`` replaced; per note, the indices of the swapped spans."""
    from phiscrub.document import Document, Span

    rng = random.Random(seed)
    docs, targets = [], []
    for row in rows:
        text, parts, spans, swapped_idx, pos = row["text"], [], [], [], 0
        for s in sorted(row["spans"], key=lambda s: s["start"]):
            parts.append(text[pos : s["start"]])
            start = sum(map(len, parts))
            surface = text[s["start"] : s["end"]]
            # possessives, "Last, First" and initials keep their own surface: the swap is one form
            if s["label"] in labels and not surface.endswith(("'s", "’s")) and not set(surface) & set(",."):
                surface = _surface(rng, s["label"], surface)
                swapped_idx.append(len(spans))
            parts.append(surface)
            spans.append(Span(start, start + len(surface), s["label"]))
            pos = s["end"]
        parts.append(text[pos:])
        docs.append(Document(row["id"], "".join(parts), tuple(spans)))
        targets.append(swapped_idx)
    return docs, targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-8", help="a range a-b or a comma list (default 1-8)")
    parser.add_argument("--groups", default="facility,person,city")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--show", action="store_true", help="print each miss with its context")
    args = parser.parse_args(argv)
    if "-" in args.seeds:
        lo, hi = (int(x) for x in args.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(x) for x in args.seeds.split(",")]
    from phiscrub import Deidentifier

    rows = [json.loads(line) for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if int(r["id"][2:]) <= 60]  # hf001-hf060: the dev half only
    deid = Deidentifier()
    print("| group | seeds | swapped spans | not fully covered | missed share |")
    print("|---|---:|---:|---:|---:|")
    for group in args.groups.split(","):
        missed = total = 0
        for seed in seeds:
            docs, targets = swapped(rows, GROUPS[group], seed)
            for doc, pred, idx in zip(docs, deid.detect_many(docs), targets, strict=True):
                covered = {i for s in pred for i in range(s.start, s.end)}
                for k in idx:
                    g = doc.spans[k]
                    total += 1
                    if any(i not in covered for i in range(g.start, g.end) if not doc.text[i].isspace()):
                        missed += 1
                        if args.show:
                            ctx = doc.text[max(0, g.start - 40) : g.end + 25].replace("\n", " / ")
                            print(f"  miss seed={seed} {doc.id} {g.label} {ctx!r}", file=sys.stderr)
        share = missed / total if total else 0.0
        print(f"| {group} | {len(seeds)} | {total} | {missed} | {share:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
