"""Check that ``phiscrub evaluate --scheme meddocan`` agrees with the official MEDDOCAN scorer.

The official script (https://github.com/PlanTL-GOB-ES/MEDDOCAN-Evaluation-Script) is not shipped
with phiscrub: point ``--official`` at your own checkout of it. This script loads its
``evaluate.py`` from there, runs its ``brat ner`` and ``brat spans`` evaluations on the gold folder
and each system folder, computes phiscrub's figures on the same folders
(:func:`phiscrub.evaluate.official.read_official` + ``official_scores``, what the CLI does), and
prints both side by side at full precision. It exits 1 when any figure differs at 4 decimals.

``--perturb OUT`` first writes a deterministic perturbed copy of the gold folder to OUT (spans
dropped, shifted, split at a separator, relabelled, duplicated, with nested and overlapping
pieces, spurious spans, a document with an empty ``.ann`` and one without ``.ann``) and scores it
too, to exercise the scorers' edge cases on real notes.

The official script prints the annotation lines it cannot parse (note text), so its standard output
is captured and dropped; only figures are printed here.

Example::

    python scripts/meddocan_official_parity.py --official ~/src/MEDDOCAN-Evaluation-Script \\
        --gold /work/shared/data/meddocan/dev --pred runs/dev-rules --perturb runs/dev-perturbed
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from phiscrub.evaluate.official import PRF, official_scores, read_official

MEASURES = ("ner", "spans_strict", "spans_merged")
OTHER_TYPE = {"TERRITORIO": "PAIS"}  # relabel target; anything else becomes TERRITORIO


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_official(folder: Path) -> types.ModuleType:
    """Import the official ``evaluate.py`` (and its ``classes``/``tags``) from ``folder``.

    Some copies hold ``tags`` only as a compiled ``.pyc`` of another Python version; it is needed
    for the i2b2 XML format only, so a stand-in without tag types is used for BRAT then.
    """
    if not (folder / "evaluate.py").is_file() or not (folder / "classes.py").is_file():
        raise SystemExit(f"{folder}: no evaluate.py/classes.py of the MEDDOCAN evaluation script")
    if (folder / "tags.py").is_file():
        _load("tags", folder / "tags.py")
    else:
        stand_in = types.ModuleType("tags")
        stand_in.PHITag = type("PHITag", (), {"tag_types": {}})  # type: ignore[attr-defined]
        sys.modules["tags"] = stand_in
    _load("classes", folder / "classes.py")
    return _load("meddocan_official_evaluate", folder / "evaluate.py")


@contextlib.contextmanager
def _quiet_in(folder: Path) -> Iterator[None]:
    """Run in ``folder`` (the script looks for sentence files relative to the working folder), silently."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            yield
    finally:
        os.chdir(here)


def official_figures(module: types.ModuleType, folder: Path, gold: Path, pred: Path) -> dict[str, Any]:
    """Run the official ``brat ner`` and ``brat spans`` evaluations; figures at full precision."""
    classes = sys.modules["classes"]
    gs, sysdir = os.path.join(gold.resolve(), ""), os.path.join(pred.resolve(), "")  # it appends file names
    with _quiet_in(folder):
        ner = module.evaluate(gs, [sysdir], classes.BratAnnotation, classes.NER_Evaluation)
        spans = module.evaluate(gs, [sysdir], classes.BratAnnotation, classes.Span_Evaluation)
    evals = {
        "ner": ner.evaluations[0],
        "spans_strict": spans.evaluations[0],
        "spans_merged": spans.evaluations[1],
    }
    out: dict[str, Any] = {}
    for name, e in evals.items():
        p, r = e.micro_precision(), e.micro_recall()
        out[name] = {
            "tp": sum(len(t) for t in e.tp),
            "fp": sum(len(t) for t in e.fp),
            "fn": sum(len(t) for t in e.fn),
            "precision": p,
            "recall": r,
            "f1": e.F_beta(r, p),
            "docs": len(e.doc_ids),
        }
    out["leak"] = evals["ner"].micro_leak()
    return out


def phiscrub_figures(gold: Path, pred: Path) -> dict[str, Any]:
    """phiscrub's figures as ``evaluate --scheme meddocan`` computes them."""
    gold_docs, gold_problems = read_official(gold, "brat")
    pred_docs, pred_problems = read_official(pred, "brat")
    for problem in [*gold_problems, *pred_problems]:
        print(f"phiscrub problem: {problem}", file=sys.stderr)
    scores = official_scores(gold_docs, pred_docs, "meddocan")
    pred_ids = {d.id for d in pred_docs}
    out: dict[str, Any] = {}
    for name in MEASURES:
        prf: PRF = getattr(scores, name)
        out[name] = {**prf.to_dict(), "docs": sum(1 for d in gold_docs if d.id in pred_ids)}
    out["leak"] = scores.leak
    return out


def compare(official: dict[str, Any], ours: dict[str, Any]) -> bool:
    """Print both scorers' figures; True when all agree at 4 decimals (counts exactly)."""
    agree = True
    print(f"{'measure':<14}{'figure':<11}{'official':>12}{'phiscrub':>12}  4 dp")
    for name in MEASURES:
        for key in ("docs", "tp", "fp", "fn", "precision", "recall", "f1"):
            a, b = official[name][key], ours[name][key]
            if isinstance(a, int):
                same = a == b
                print(f"{name:<14}{key:<11}{a:>12}{b:>12}  {'ok' if same else 'DIFFERENT'}")
            else:
                same = f"{a:.4f}" == f"{b:.4f}"
                print(f"{name:<14}{key:<11}{a:>12.6f}{b:>12.6f}  {'ok' if same else 'DIFFERENT'}")
            agree &= same
    leak = official["leak"]
    shown = leak if isinstance(leak, str) else f"{leak:.6f}"
    print(f"{'leak':<25}{shown:>12}{ours['leak']:>12.6f}  (official NA without its sentence files)")
    return agree


def _separator_inside(text: str, start: int, end: int) -> int | None:
    for i in range(start + 1, end - 1):
        if not text[i].isalnum() and text[i + 1].isalnum():
            return i
    return None


def _edit_span(text: str, label: str, s: int, e: int, op: int) -> list[tuple[str, int, int]]:
    """Edit ``op`` (0-9) of one gold span: what the perturbed copy holds in its place."""
    if op == 0:
        return []  # dropped: FN
    sep = _separator_inside(text, s, e)
    if op == 1 and e - s > 1:
        return [(label, s + 1, e)]  # shifted start
    if op == 2 and sep is not None:
        return [(label, s, sep), (label, sep + 1, e)]  # split at a separator: merges back
    if op == 3:
        return [(OTHER_TYPE.get(label, "TERRITORIO"), s, e)]  # type mismatch
    if op == 4:
        return [(label, s, e), (label, s, e)]  # duplicated
    if op == 5 and e - s > 2:
        return [(label, s, e), (label, s + 1, s + (e - s) // 2)]  # plus a nested piece
    if op == 6 and e - s >= 4:
        mid = s + (e - s) // 2
        return [(label, s, mid + 1), (label, mid - 1, e)]  # overlapping pieces
    return [(label, s, e)]


def _spurious_first_word(text: str, spans: list[tuple[str, int, int]]) -> tuple[str, int, int] | None:
    """A spurious span on the first word of ``text``, unless a gold span covers it (or no word)."""
    start = next((i for i, ch in enumerate(text) if ch.isalnum()), None)
    if start is None:
        return None
    end = start
    while end < len(text) and text[end].isalnum():
        end += 1
    if any(s < end and start < e for _, s, e in spans):
        return None
    return ("OTROS_SUJETO_ASISTENCIA", start, end)


def _perturb_doc(text: str, spans: list[tuple[str, int, int]], k: int) -> list[tuple[str, int, int]]:
    """Deterministic edits of one document's gold spans; ``k`` numbers spans across the corpus."""
    out: list[tuple[str, int, int]] = []
    for i, (label, s, e) in enumerate(spans):
        out += _edit_span(text, label, s, e, (k + i) % 10)
    if k % 7 == 0 and (spurious := _spurious_first_word(text, spans)) is not None:
        out.append(spurious)
    return out


def write_perturbed(gold: Path, out: Path) -> Path:
    """Write a perturbed copy of the BRAT folder ``gold`` to ``out`` (texts copied byte for byte)."""
    docs, problems = read_official(gold, "brat")
    if problems:
        raise SystemExit(f"{gold}: {len(problems)} problems reading the gold folder")
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out}: not empty (a stale .ann would change the figures)")
    out.mkdir(parents=True, exist_ok=True)
    k = 0
    for n, doc in enumerate(docs):
        (out / f"{doc.id}.txt").write_bytes((gold / f"{doc.id}.txt").read_bytes())
        if n % 50 == 7:
            continue  # .txt without .ann: not scored by the official script
        spans = [(sp.label, sp.start, sp.end) for sp in doc.spans]
        edited = [] if n % 50 == 8 else _perturb_doc(doc.text, spans, k)  # an empty .ann: all FN
        k += len(spans)
        with (out / f"{doc.id}.ann").open("w", encoding="utf-8", newline="") as fh:
            for i, (label, s, e) in enumerate(edited, 1):
                surface = doc.text[s:e].replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
                fh.write(f"T{i}\t{label} {s} {e}\t{surface}\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official", type=Path, required=True, help="checkout of MEDDOCAN-Evaluation-Script")
    parser.add_argument("--gold", type=Path, required=True, help="gold BRAT folder (.txt + .ann)")
    parser.add_argument(
        "--pred", type=Path, action="append", default=[], help="system BRAT folder (repeatable)"
    )
    parser.add_argument("--perturb", type=Path, help="write a perturbed copy of --gold here and score it too")
    args = parser.parse_args(argv)
    preds = list(args.pred)
    if args.perturb is not None:
        preds.append(write_perturbed(args.gold, args.perturb))
    if not preds:
        parser.error("give --pred and/or --perturb")
    module = load_official(args.official.resolve())
    all_agree = True
    for pred in preds:
        print(f"\n== {pred}")
        agree = compare(
            official_figures(module, args.official.resolve(), args.gold, pred),
            phiscrub_figures(args.gold, pred),
        )
        print("agree at 4 decimals" if agree else "DISAGREE")
        all_agree &= agree
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
