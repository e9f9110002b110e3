"""Score the fresh notes (``tests/data/fresh-notes``) with the commands a user runs.

Each of the first sets (``icu``, ``mix``, ``nb``, ``de``, ``es``) is split by file name: the first half
dev, the second half test; the sets written later (``icu2``, ``mix2``, ``nb2``, ``de2``; ``en3``, ``nb3``, ``de3``, ``es2`` in the fifth round; ``en4``, ``en5``, ``en6``, ``nb4``, ``de4``,
``es3`` in the sixth) are dev only. For every set and half this script writes the notes as JSONL (``id``, ``text``, ``spans``,
``patient_id``), runs ``phiscrub predict`` (zero-config, and with the set's ``--site-lists`` and
``--registry``), scores each with ``phiscrub evaluate --policy safe-harbor`` and prints one Markdown
row of binary token precision/recall per run (``--json`` also writes them). ``--errors`` lists the
missed and spurious tokens of a **dev** half (test halves are never listed).

    python scripts/eval_fresh.py                       # every set, both halves
    python scripts/eval_fresh.py --sets icu,mix --parts dev --errors icu
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRESH = ROOT / "tests" / "data" / "fresh-notes"
#: Sets split in halves (first half dev, second half test) and sets that are dev only (written
#: later, to find more forms without reading any test half).
SETS = ("icu", "mix", "nb", "de", "es")
DEV_ONLY = ("icu2", "mix2", "nb2", "de2", "en3", "nb3", "de3", "es2", "en4", "en5", "en6", "nb4", "de4", "es3")
_MARK = re.compile(r"\{\{([A-Z]+)\|([^{}|]+)\}\}")


def parse_note(raw: str) -> tuple[str, list[dict[str, object]], str | None]:
    """Text, spans and patient id of one inline-annotated note (``{{LABEL|surface}}``)."""
    patient = None
    if raw.startswith("#patient:"):
        head, _, raw = raw.partition("\n")
        patient = head.split(":", 1)[1].strip()
    text, spans, pos = "", [], 0
    for m in _MARK.finditer(raw):
        text += raw[pos : m.start()]
        start = len(text)
        text += m.group(2)
        spans.append({"start": start, "end": len(text), "label": m.group(1)})
        pos = m.end()
    return text + raw[pos:], spans, patient


def halves(name: str) -> dict[str, list[dict[str, object]]]:
    """The dev and test halves of one set, as corpus rows."""
    files = sorted((FRESH / name / "src").glob("*.txt"))
    rows = []
    for f in files:
        text, spans, patient = parse_note(f.read_text(encoding="utf-8"))
        row: dict[str, object] = {"id": f.stem, "text": text, "spans": spans}
        if patient:
            row["patient_id"] = patient
        rows.append(row)
    if name in DEV_ONLY:
        return {"dev": rows, "test": []}
    half = len(rows) // 2
    return {"dev": rows[:half], "test": rows[half:]}


def _run(args: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "phiscrub.cli", *args], check=True, capture_output=True)


def score(name: str, part: str, rows: list[dict[str, object]], work: Path, lists: bool) -> dict[str, float]:
    """Predict and evaluate one half; the binary token counts and rates."""
    gold = work / f"{name}-{part}.jsonl"
    gold.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    tag = f"{name}-{part}-{'lists' if lists else 'default'}"
    pred, ev = work / f"{tag}.pred.jsonl", work / f"{tag}.ev"
    extra = []
    if lists:
        extra = [
            "--site-lists",
            str(FRESH / name / "site-lists.json"),
            "--registry",
            str(FRESH / name / "registry.csv"),
        ]
        extra += ["--patient-field", "patient_id"]
    _run(["predict", str(gold), "-o", str(pred), *extra])
    _run(["evaluate", "--gold", str(gold), "--pred", str(pred), "--policy", "safe-harbor", "-o", str(ev)])
    result = json.loads(Path(f"{ev}.json").read_text(encoding="utf-8"))["result"]
    return dict(result["binary"])


def list_errors(name: str, work: Path) -> None:
    """Missed and spurious tokens of the dev half of ``name`` (zero-config run)."""
    from phiscrub.document import Span
    from phiscrub.policy import apply_policy
    from phiscrub.text import tokenize

    gold = {r["id"]: r for r in map(json.loads, (work / f"{name}-dev.jsonl").read_text().splitlines())}
    pred = {
        r["id"]: r
        for r in map(json.loads, (work / f"{name}-dev-default.pred.jsonl").read_text().splitlines())
    }
    for doc_id, row in gold.items():
        text = row["text"]

        def view(spans: list[dict[str, object]], text: str = text) -> tuple[Span, ...]:
            raw = tuple(Span(int(s["start"]), int(s["end"]), str(s["label"])) for s in spans)  # type: ignore[call-overload]
            return tuple(apply_policy(text, raw, "safe-harbor"))

        g, p = view(row["spans"]), view(pred[doc_id]["spans"])
        for tok in tokenize(text):
            hit_g = any(s.start < tok.end and tok.start < s.end for s in g)
            hit_p = any(s.start < tok.end and tok.start < s.end for s in p)
            if hit_g != hit_p:
                context = text[max(0, tok.start - 40) : tok.end + 30].replace("\n", " | ")
                print(f"{'FN' if hit_g else 'FP'} {doc_id} {text[tok.start : tok.end]!r:18} ...{context}...")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (default: the split sets)")
    ap.add_argument("--parts", default="dev,test", help="dev, test or both (default)")
    ap.add_argument("--errors", default="", help="list the dev-half errors of these sets")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print("| set | half | setting | precision | recall | tp | fp | fn |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for name in args.sets.split(","):
            parts = halves(name)
            for part in args.parts.split(","):
                if not parts[part]:
                    continue  # a dev-only set has no test half
                for lists in (False, True):
                    b = score(name, part, parts[part], work, lists)
                    setting = "site lists + registry" if lists else "default"
                    figures[f"{name}/{part}/{setting}"] = b
                    print(
                        f"| {name} | {part} | {setting} | {b['precision']:.3f} | {b['recall']:.3f} "
                        f"| {b['tp']} | {b['fp']} | {b['fn']} |",
                        flush=True,
                    )
        for name in filter(None, args.errors.split(",")):
            if "dev" not in args.parts.split(","):
                ap.error("--errors lists dev halves only: add dev to --parts")
            list_errors(name, work)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
