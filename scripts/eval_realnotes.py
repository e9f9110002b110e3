"""Evaluations that predict real notes: in-family dev, out-of-distribution test, leave-one-family-out.

One script writes every figure of ``docs/model.md`` "Evaluations that predict real notes":

(a) **in-family dev**: the English zero-shot notes 031-035 of families a-j (2 surrogate draws, realism
    rewrite; the bundled model's own dev set, built exactly as ``scripts/build_default_model.py``
    builds it).
(b) **out-of-distribution test**: the fixed ~30% hold-out of ``shared/data/realworld-notes``
    (:func:`phiscrub.evaluate.splits.split_folder`; every batch represented, never used for training
    or model selection), filled with ``--ood-draws`` surrogate draws under fixed seeds, no realism
    rewrite (the notes are messy already), names, towns and hospitals drawn from the ``test`` part of
    the surrogate lists (``vocab="test"``): like real notes, it holds no name the model trained on.
(c) with ``--lofo``: **leave-one-family-out** over the zero-shot families a-j: a small BiLSTM-CRF is
    trained on nine families (notes 001-030 train, 031-035 early stopping) and tested on every note
    of the tenth (2 draws, realism rewrite, ``test`` vocabulary), ``--lofo-time-budget`` seconds per
    fold.

For every pipeline (rules only; rules + model; under each PHI policy when the installed
:class:`~phiscrub.Deidentifier` has ``policy=``) and every gold view it reports binary token recall
and precision, per-label binary recall / precision (coarse labels), binary recall per fine gold
label, false-positive tokens per 1,000 non-PHI tokens, and the share of notes with any missed PHI
token (over all notes and over the notes holding PHI); each surrogate draw is also scored alone
(the range shows how much the figures depend on the fill).

(d) **hard-forms dev and test** (issue 25): ``shared/data/hardforms-notes`` hf001-hf060 (dev) and
    hf061-hf120 (test), PHI written out by hand (``scripts/eval_hardforms.py``). Scored as
    ``phiscrub evaluate --policy P`` does: the pipeline's policy applied to gold and predicted spans
    alike. Each pipeline also runs with the system's site lists and patient registry (each note's
    ``patient_id`` in its metadata) when the installed Deidentifier has ``site_lists=``.

Gold views of (a)-(c): ``i2b2`` keeps every gold span; ``safe-harbor`` keeps the gold spans that are
PHI under HIPAA Safe Harbor (:mod:`phiscrub.policy` when installed; otherwise ages of 89 and under,
states, countries and professions are dropped). Predictions are never filtered by the gold view: a
state tagged by a pipeline counts as a false positive under ``safe-harbor``, as in the independent
real-note evaluation of issue 11.

Every row also has the **guard leak rate** (:mod:`phiscrub.evaluate.guard_leaks`): gold PHI tokens
that the pipeline's selection covers with the clinical-context guard off and not with it, per coarse
and fine gold label, as a count and a rate over the gold tokens of the label; and the guard's drops
by reason.

Outputs ``OUT/results.json`` and ``OUT/results.md`` (figures only: ids, labels and counts; no note text).

Usage:
    OMP_NUM_THREADS=1 python scripts/eval_realnotes.py --out build/eval-realnotes
    OMP_NUM_THREADS=1 python scripts/eval_realnotes.py --sets hardforms-dev,hardforms-test --out build/eval-hf
    OMP_NUM_THREADS=1 python scripts/eval_realnotes.py --model build/default-model/model --out build/eval-new
    OMP_NUM_THREADS=1 python scripts/eval_realnotes.py --lofo --lofo-time-budget 300 --out build/eval-lofo
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_default_model import NOTES, fill, split_realworld
from eval_hardforms import HARDFORMS_SETS, REGISTRY, SITE_LISTS, hardforms, policy_view

from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.evaluate.guard_leaks import guard_leaks, predict_with_and_without_guard
from phiscrub.evaluate.metrics import evaluate
from phiscrub.evaluate.notelevel import binary_recall_by_gold_label, note_level_scores
from phiscrub.evaluate.splits import ZEROSHOT_EN_FAMILIES, split_zeroshot

ROOT = Path(__file__).resolve().parents[1]
GOLD_VIEWS = ("i2b2", "safe-harbor")
#: Seeds of the data, fixed so that figures compare across models and commits.
DEV_SEED = 7 + 1000  # the build script's dev seed (its --seed 7, plus 1000)
OOD_SEED = 11
LOFO_SEED = 5


# -- data -------------------------------------------------------------------------------------------


def in_family_dev() -> list[Document]:
    """Zero-shot notes 031-035 of families a-j, 2 draws, realism rewrite (the build script's dev)."""
    return fill(split_zeroshot(NOTES)["dev"], 2, DEV_SEED, 1.0, "zeroshot")


def ood_test(draws: int, seed: int = OOD_SEED) -> list[Document]:
    """The real-world hold-out, ``draws`` surrogate fills per note, no realism rewrite, names from the
    ``test`` part of the surrogate lists (never in training fills)."""
    _train, _dev, test = split_realworld()
    return fill(test, draws, seed, 0.0, "realworld", vocab="test")


def _safe_harbor_fallback(text: str, spans: Sequence[Span]) -> list[Span]:
    """Issue 11's Safe Harbor gold when :mod:`phiscrub.policy` is not installed."""
    out = []
    for s in spans:
        if s.label in ("STATE", "COUNTRY", "PROFESSION", "OTHER"):
            continue
        if s.label == "AGE":
            m = re.search(r"\d+", text[s.start : s.end])
            if m is not None and int(m.group()) <= 89:
                continue
        out.append(s)
    return out


def gold_filter(view: str) -> tuple[Callable[[str, Sequence[Span]], list[Span]], str]:
    """The span filter of a gold view and where its definition comes from."""
    if view == "i2b2":
        return (lambda _text, spans: list(spans)), "all gold spans"
    try:
        from phiscrub.policy import apply_policy
    except ImportError:
        return _safe_harbor_fallback, "scripts/eval_realnotes.py fallback (no phiscrub.policy)"
    return (lambda text, spans: apply_policy(text, spans, "safe-harbor")), "phiscrub.policy safe-harbor"


def view_of(docs: Sequence[Document], view: str) -> list[Document]:
    keep, _source = gold_filter(view)
    return [Document(d.id, d.text, tuple(keep(d.text, d.spans)), d.metadata) for d in docs]


# -- pipelines --------------------------------------------------------------------------------------


def supports(option: str) -> bool:
    """Whether the installed Deidentifier has the constructor option ``option`` (an engine-config field
    since issue 26; a dataclass field of the Deidentifier in older checkouts this script is run on)."""
    try:
        from phiscrub.engine_config import DeidConfig
    except ImportError:
        return option in {f.name for f in dataclasses.fields(Deidentifier) if f.init}
    return option in {f.name for f in dataclasses.fields(DeidConfig)}


@dataclasses.dataclass(frozen=True)
class Pipeline:
    """One pipeline configuration: detectors, PHI policy and span score threshold."""

    name: str
    model: str | None
    policy: str | None = None
    model_only: bool = False
    threshold: float | None = None
    site_lists: str | None = None
    registry: str | None = None

    def deidentifier(self) -> Deidentifier:
        kwargs: dict[str, Any] = {"model": self.model}
        if self.policy is not None:
            kwargs["policy"] = self.policy
        if self.threshold is not None:
            kwargs["threshold"] = self.threshold
        if self.model_only:
            kwargs["detectors"] = []
        if self.site_lists is not None:
            kwargs["site_lists"] = self.site_lists
        if self.registry is not None:
            kwargs["registry"] = self.registry
        return Deidentifier(**kwargs)

    def gold_views(self) -> tuple[str, ...]:
        """The gold views this pipeline is scored against: its policy's, or every view without one."""
        if self.policy is None:
            return GOLD_VIEWS
        return ("safe-harbor",) if self.policy == "safe-harbor" else ("i2b2",)


def pipelines(
    model: str | None, policies: Sequence[str], threshold: float | None = None, model_only: bool = False
) -> list[Pipeline]:
    """Rules only (or model only) and rules + model, under each policy; one pipeline without a policy
    when the installed Deidentifier has no ``policy=``."""
    pols: list[str | None] = list(policies) if policies and supports("policy") else [None]
    cut = threshold if supports("threshold") else None
    out: list[Pipeline] = []
    for pol in pols:
        suffix = f" ({pol})" if pol else ""
        if model_only and model is not None:
            out.append(Pipeline(f"model{suffix}", model, pol, model_only=True, threshold=cut))
        elif not model_only:
            out.append(Pipeline(f"rules{suffix}", None, pol, threshold=cut))
        if model is not None:
            out.append(Pipeline(f"rules+model{suffix}", model, pol, threshold=cut))
    return out


def with_site(pipes: Sequence[Pipeline]) -> list[Pipeline]:
    """``pipes`` and, when the installed Deidentifier has ``site_lists=``, each of them again with the
    hard-forms site lists and registry."""
    if not supports("site_lists"):
        return list(pipes)
    extra = [
        dataclasses.replace(p, name=f"{p.name} +site", site_lists=str(SITE_LISTS), registry=str(REGISTRY))
        for p in pipes
    ]
    return list(pipes) + extra


@dataclasses.dataclass(frozen=True)
class Prediction:
    """A pipeline's output on a corpus with its guard on and off, the guard's drops and the time."""

    guarded: list[Document]
    unguarded: list[Document]
    guard_drops: dict[str, int]
    seconds: float


def predict(pipe: Pipeline, docs: Sequence[Document], batch: int = 16) -> Prediction:
    deid = pipe.deidentifier()
    started = time.perf_counter()
    guarded, unguarded = predict_with_and_without_guard(deid, docs, batch)
    seconds = time.perf_counter() - started
    return Prediction(guarded, unguarded, dict(sorted(deid.guard_counts.items())), seconds)


# -- scoring ----------------------------------------------------------------------------------------


def _draw_of(doc_id: str) -> str:
    return doc_id.rsplit("#", 1)[1] if "#" in doc_id else "0"


def score(
    gold: Sequence[Document], pred: Sequence[Document], unguarded: Sequence[Document] | None = None
) -> dict[str, Any]:
    """Every figure of one (corpus, pipeline, gold view); guard leaks when ``unguarded`` is given."""
    result = evaluate(gold, pred, "coarse")
    notes = note_level_scores(gold, pred, "coarse")
    per_draw = {}
    for draw in sorted({_draw_of(d.id) for d in gold}):
        g = [d for d in gold if _draw_of(d.id) == draw]
        ids = {d.id for d in g}
        r = evaluate(g, [p for p in pred if p.id in ids], "coarse")
        per_draw[draw] = {"recall": r.binary.recall, "precision": r.binary.precision}
    return {
        "binary": result.binary.to_dict(),
        "per_label": {
            lab: {
                "binary_recall": s.binary_recall,
                "binary_precision": s.binary_precision,
                "gold_tokens": s.gold_tokens,
                "pred_tokens": s.pred_tokens,
            }
            for lab, s in result.per_label.items()
        },
        "fine_gold_recall": {
            lab: {"found": f, "gold_tokens": n, "binary_recall": f / n if n else 0.0}
            for lab, (f, n) in binary_recall_by_gold_label(gold, pred, "fine").items()
        },
        "notes": notes.to_dict(),
        "per_draw": per_draw,
        "guard_leaks": None if unguarded is None else guard_leaks(gold, pred, unguarded, "coarse").to_dict(),
        "guard_leaks_fine": None
        if unguarded is None
        else guard_leaks(gold, pred, unguarded, "fine").to_dict(),
    }


def run_corpora(corpora: dict[str, list[Document]], pipes: Sequence[Pipeline]) -> list[dict[str, Any]]:
    """Score every pipeline on every corpus: gold views for the in-family and OOD sets, the pipeline's
    policy on both sides for the hard-forms sets (with the site-list variants of the pipelines)."""
    rows: list[dict[str, Any]] = []
    for corpus, docs in corpora.items():
        both_sides = corpus in HARDFORMS_SETS
        views = {} if both_sides else {view: view_of(docs, view) for view in GOLD_VIEWS}
        for pipe in with_site(pipes) if both_sides else pipes:
            pred = predict(pipe, docs)
            print(f"{corpus}: {pipe.name}: {len(docs)} documents in {pred.seconds:.0f} s", file=sys.stderr)
            for view in pipe.gold_views():
                guarded, unguarded = pred.guarded, pred.unguarded
                if both_sides:
                    policy = pipe.policy or view
                    gold, guarded, unguarded = (policy_view(d, policy) for d in (docs, guarded, unguarded))
                else:
                    gold = views[view]
                row: dict[str, Any] = {
                    "corpus": corpus,
                    "pipeline": pipe.name,
                    "policy": pipe.policy,
                    "gold": view,
                    "scoring": "policy on gold and prediction" if both_sides else "gold view only",
                    "guard_drops": pred.guard_drops,
                }
                row.update(
                    score(gold, guarded, unguarded), seconds=round(pred.seconds, 1), documents=len(docs)
                )
                rows.append(row)
    return rows


# -- leave one family out ---------------------------------------------------------------------------


def _trained_fold(model_dir: Path) -> dict[str, Any] | None:
    """Training time and best dev F1 of a fold model already in ``model_dir`` (None: not trained yet)."""
    log = model_dir / "training.json"
    if not (model_dir / "config.json").is_file() or not log.is_file():
        return None
    history = json.loads(log.read_text(encoding="utf-8"))
    return {"seconds": float(history["seconds"]), "best_dev_f1": history["best_dev_f1"]}


def run_lofo(
    args: argparse.Namespace, checkpoint: Callable[[list[dict[str, Any]]], None] | None = None
) -> list[dict[str, Any]]:
    """Train a small BiLSTM-CRF on nine zero-shot families and score the tenth, for each family.

    ``checkpoint`` is called with the rows so far after each fold (the report is written after every
    fold, so a long run that is stopped keeps the folds it finished)."""
    from phiscrub.tagger.config import TrainConfig
    from phiscrub.train.trainer import train

    rows: list[dict[str, Any]] = []
    for family in args.lofo_families:
        others = "".join(f for f in ZEROSHOT_EN_FAMILIES if f != family)
        parts = split_zeroshot(NOTES, others)
        held = split_zeroshot(NOTES, family)
        train_docs = fill(parts["train"], args.lofo_draws, LOFO_SEED, 1.0, "zeroshot")
        dev_docs = fill(parts["dev"], 1, LOFO_SEED + 1000, 1.0, "zeroshot")
        test_docs = fill(held["train"] + held["dev"], 2, LOFO_SEED + 2000, 1.0, "zeroshot", vocab="test")
        model_dir = args.out / "lofo" / family
        config = TrainConfig(
            encoder=args.lofo_encoder,
            granularity="fine",
            epochs=args.lofo_epochs,
            seed=LOFO_SEED,
            time_budget_s=args.lofo_time_budget,
        )
        trained = _trained_fold(model_dir) if args.lofo_reuse else None
        if trained is None:
            result = train(train_docs, dev_docs, config, model_dir, progress=False)
            trained = {"seconds": result.seconds, "best_dev_f1": result.best_dev_f1}
        print(
            f"lofo {family}: trained {trained['seconds']:.0f} s, best dev F1 {trained['best_dev_f1']}",
            file=sys.stderr,
        )
        for pipe in pipelines(str(model_dir), args.policy_list, args.threshold, model_only=True):
            prediction = predict(pipe, test_docs)
            pred, seconds = prediction.guarded, prediction.seconds
            for view in pipe.gold_views():
                row: dict[str, Any] = {
                    "family": family,
                    "pipeline": pipe.name,
                    "gold": view,
                    "train_seconds": trained["seconds"],
                    "best_dev_f1": trained["best_dev_f1"],
                }
                row.update(score(view_of(test_docs, view), pred), seconds=round(seconds, 1))
                rows.append(row)
        if checkpoint is not None:
            checkpoint(rows)
    return rows


# -- report -----------------------------------------------------------------------------------------


def _f(x: float) -> str:
    return f"{x:.3f}"


def _range(per_draw: dict[str, dict[str, float]], key: str) -> str:
    values = [v[key] for v in per_draw.values()]
    return f"{min(values):.3f}-{max(values):.3f}" if len(values) > 1 else _f(values[0])


def summary_table(rows: Sequence[dict[str, Any]], first: str) -> list[str]:
    lines = [
        (
            f"| {first} | pipeline | gold | binary R | binary P | binary F1 | R over draws | FP / 1k non-PHI "
            "| notes with missed PHI (all / with PHI) | guard leak (tokens, rate) | documents |"
        ),
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        b, n = r["binary"], r["notes"]
        leak = r.get("guard_leaks")
        leak_cell = f"{leak['total']['leaked']}, {leak['total']['rate']:.3f}" if leak else "-"
        lines.append(
            f"| {r.get(first)} | {r['pipeline']} | {r['gold']} | {_f(b['recall'])} | {_f(b['precision'])} "
            f"| {_f(b['f1'])} | {_range(r['per_draw'], 'recall')} | {n['fp_per_1000_non_phi']:.2f} "
            f"| {n['missed_note_share']:.1%} / {n['missed_phi_note_share']:.1%} | {leak_cell} | {n['n_notes']} |"
        )
    return lines


def leak_table(rows: Sequence[dict[str, Any]], key: str) -> list[str]:
    """Guard leaks per gold label: leaked tokens / gold tokens (rate), one column per pipeline."""
    labels = sorted({lab for r in rows if r.get(key) for lab in r[key]["per_label"]})
    lines = ["| label | " + " | ".join(r["pipeline"] for r in rows) + " |", "|---|" + "---:|" * len(rows)]
    for lab in labels + ["all"]:
        cells = []
        for r in rows:
            leaks = r.get(key)
            c = None if not leaks else (leaks["total"] if lab == "all" else leaks["per_label"].get(lab))
            cells.append("-" if c is None else f"{c['leaked']} / {c['gold_tokens']} ({c['rate']:.3f})")
        lines.append(f"| {lab} | " + " | ".join(cells) + " |")
    removed = [f"{r['guard_leaks']['removed_non_phi']}" if r.get("guard_leaks") else "-" for r in rows]
    lines.append("| non-PHI tokens removed | " + " | ".join(removed) + " |")
    return lines


def label_table(rows: Sequence[dict[str, Any]], key: str) -> list[str]:
    labels = sorted({lab for r in rows for lab in r[key]})
    lines = [
        "| label | " + " | ".join(r["pipeline"] for r in rows) + " |",
        "|---|" + "---:|" * len(rows),
    ]
    for lab in labels:
        cells = []
        for r in rows:
            s = r[key].get(lab)
            if s is None:
                cells.append("-")
            elif key == "per_label":
                cells.append(f"{_f(s['binary_recall'])} / {_f(s['binary_precision'])} ({s['gold_tokens']})")
            else:
                cells.append(f"{_f(s['binary_recall'])} ({s['gold_tokens']})")
        lines.append(f"| {lab} | " + " | ".join(cells) + " |")
    return lines


def _mean_sd(values: list[float], pct: bool = False) -> str:
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    mean = statistics.mean(values)
    return f"{mean:.1%} ({sd:.1%})" if pct else f"{mean:.3f} ({sd:.3f})"


def to_markdown(report: dict[str, Any]) -> str:
    out = ["# Evaluations that predict real notes", ""]
    out.append(f"Model: `{report['model']}`. Gold views: {report['gold_views']}.")
    out.append("")
    out.append(f"Site lists and registry: {report.get('site', '-')}.")
    out.append("")
    rows = report["rows"]
    if rows:
        out += ["## Summary", ""] + summary_table(rows, "corpus") + [""]
        for corpus in dict.fromkeys(r["corpus"] for r in rows):
            for view in GOLD_VIEWS:
                sel = [r for r in rows if r["corpus"] == corpus and r["gold"] == view]
                if not sel:
                    continue
                out += [
                    f"## {corpus}, gold {view}: binary recall / precision per coarse label (gold tokens)",
                    "",
                ]
                out += label_table(sel, "per_label") + [""]
                out += [f"## {corpus}, gold {view}: binary recall per fine gold label (gold tokens)", ""]
                out += label_table(sel, "fine_gold_recall") + [""]
                for key, grain in (("guard_leaks", "coarse"), ("guard_leaks_fine", "fine")):
                    out += [f"## {corpus}, gold {view}: guard leaks per {grain} gold label", ""]
                    out += leak_table(sel, key) + [""]
                drops = [f"{r['pipeline']}: {r['guard_drops']}" for r in sel if r.get("guard_drops")]
                out += [f"Guard drops by reason ({corpus}, gold {view}): " + "; ".join(drops), ""]
    lofo = report.get("lofo") or []
    if lofo:
        out += ["## Leave one family out", ""] + summary_table(lofo, "family") + [""]
        out += ["Mean over families (sd):", ""]
        out += [
            "| pipeline | gold | binary R | binary P | FP / 1k non-PHI | notes with missed PHI |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for pipe, view in dict.fromkeys((r["pipeline"], r["gold"]) for r in lofo):
            sel = [r for r in lofo if r["pipeline"] == pipe and r["gold"] == view]
            rec = _mean_sd([r["binary"]["recall"] for r in sel])
            pre = _mean_sd([r["binary"]["precision"] for r in sel])
            fp = _mean_sd([r["notes"]["fp_per_1000_non_phi"] for r in sel])
            miss = _mean_sd([r["notes"]["missed_note_share"] for r in sel], pct=True)
            out.append(f"| {pipe} | {view} | {rec} | {pre} | {fp} | {miss} |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "eval-realnotes")
    parser.add_argument("--model", default="default", help="model folder, 'default' (bundled) or 'none'")
    parser.add_argument(
        "--policies",
        default="i2b2,safe-harbor",
        help="comma-separated PHI policies to run the pipelines under (when Deidentifier supports policy=)",
    )
    parser.add_argument(
        "--threshold", type=float, default=None, help="span score threshold (default: the Deidentifier's)"
    )
    parser.add_argument(
        "--sets",
        "--corpora",
        dest="sets",
        default="dev,ood,hardforms-dev,hardforms-test",
        help="comma-separated: dev (in-family), ood (hold-out), hardforms-dev, hardforms-test",
    )
    parser.add_argument("--ood-draws", type=int, default=3)
    parser.add_argument(
        "--lofo", action="store_true", help="also run leave-one-family-out (trains 10 models)"
    )
    parser.add_argument("--lofo-only", action="store_true", help="only leave-one-family-out")
    parser.add_argument("--lofo-families", default=ZEROSHOT_EN_FAMILIES)
    parser.add_argument("--lofo-encoder", default="bilstm-crf")
    parser.add_argument("--lofo-epochs", type=int, default=20)
    parser.add_argument("--lofo-draws", type=int, default=2)
    parser.add_argument("--lofo-time-budget", type=float, default=300.0, help="training seconds per fold")
    parser.add_argument(
        "--lofo-reuse",
        action="store_true",
        help="score the fold models already under OUT/lofo (trained by an earlier run) instead of training",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    model = None if args.model == "none" else args.model
    policies = [p for p in args.policies.split(",") if p]
    args.policy_list = policies

    corpora: dict[str, list[Document]] = {}
    if not args.lofo_only:
        wanted = args.sets.split(",")
        unknown = set(wanted) - {"dev", "ood", *HARDFORMS_SETS}
        if unknown:
            parser.error(f"unknown sets {sorted(unknown)}")
        if "dev" in wanted:
            corpora["in-family dev"] = in_family_dev()
        if "ood" in wanted:
            corpora["OOD test"] = ood_test(args.ood_draws)
        for name, part in HARDFORMS_SETS.items():
            if name in wanted:
                corpora[name] = hardforms(part)
    pipes = pipelines(model, policies, args.threshold)
    report: dict[str, Any] = {
        "model": args.model,
        "pipelines": [dataclasses.asdict(p) for p in pipes],
        "gold_views": {view: gold_filter(view)[1] for view in GOLD_VIEWS},
        "data": {
            "in-family dev": f"zero-shot a-j notes 031-035, 2 draws, seed {DEV_SEED}, realism 1.0",
            "OOD test": (
                f"realworld-notes hash hold-out, {args.ood_draws} draws, seed {OOD_SEED}, no realism, "
                "test vocabulary"
            ),
            "hardforms-dev": "hardforms-notes hf001-hf060, PHI written out; policy on gold and prediction",
            "hardforms-test": "hardforms-notes hf061-hf120, PHI written out; policy on gold and prediction",
        },
        "site": (
            "hard-forms pipelines also run with site-lists.json and registry.csv (+site)"
            if supports("site_lists")
            else "skipped: the installed Deidentifier has no site_lists= option"
        ),
        "rows": run_corpora(corpora, pipes),
    }

    def write(lofo: list[dict[str, Any]] | None = None) -> None:
        if lofo is not None:
            report["lofo"] = lofo
        (args.out / "results.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        (args.out / "results.md").write_text(to_markdown(report), encoding="utf-8")

    if args.lofo or args.lofo_only:
        report["lofo"] = run_lofo(args, checkpoint=write)
    write()
    print(f"wrote {args.out / 'results.md'} and results.json")


if __name__ == "__main__":
    main()
