"""The report of an evaluation folder (``phiscrub evaluate ... --out-dir DIR``).

``DIR/evaluation.json`` holds the scores (:func:`phiscrub.evaluate.report.write_report`);
``DIR/documents.jsonl`` the entity-level TP/FP/FN of each document
(:mod:`phiscrub.evaluate.details`), offsets and labels only. The report draws per-label P/R/F1
charts and shows a seeded sample of documents with their false negatives and false positives in
context.

Context comes from the gold corpus (``input_path``, else the ``gold`` path the evaluation
recorded, when it is there). Without ``show_text`` every gold span and every entity of either
side is replaced by ``[LABEL]`` in the context, the error itself too: what is left is the text the
gold annotation calls not PHI. With ``show_text`` the text is shown as it is.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.report.html import Mark, e, highlight, legend, table
from phiscrub.report.svg import bar_chart, grouped_bar_chart

__all__ = ["EVALUATION_NAME", "EvalReport", "is_evaluation", "load_evaluation", "render_evaluation"]

#: The scores file of an evaluation folder.
EVALUATION_NAME = "evaluation.json"
#: The per-document file of an evaluation folder (as :data:`phiscrub.evaluate.details.DETAILS_NAME`).
DETAILS_NAME = "documents.jsonl"
#: Characters of context on each side of an error.
CONTEXT = 60
#: At most this many errors are shown per document.
MAX_ERRORS_PER_DOC = 40

_SERIES = (("precision", "#6b8fd6"), ("recall", "#e0a040"), ("F1", "#3a9a5b"))


@dataclass
class EvalReport:
    """What the report of an evaluation shows."""

    folder: Path
    config: dict[str, Any]
    result: dict[str, Any]
    has_details: bool = False
    documents: int = 0
    docs_with_errors: int = 0
    fn: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    match: Counter[tuple[str, str]] = field(default_factory=Counter)
    samples: list[dict[str, Any]] = field(default_factory=list)
    texts: dict[str, str] | None = None
    masks: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)
    text_source: Path | None = None
    shown_text: bool = False
    missing_texts: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the command line (counts only)."""
        return (
            f"evaluation: {self.documents} documents, {sum(self.fn.values())} false negatives, "
            f"{sum(self.fp.values())} false positives, {len(self.samples)} sampled documents"
        )


def is_evaluation(folder: Path) -> bool:
    """Whether ``folder`` holds an evaluation's ``evaluation.json``."""
    return (folder / EVALUATION_NAME).is_file()


def _load_scores(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InputFormatError(f"{path} is not JSON") from None
    result = data.get("result") if isinstance(data, dict) else None
    if not isinstance(result, dict) or not all(
        isinstance(result.get(k), dict) for k in ("binary", "token", "entity", "per_label")
    ):
        raise InputFormatError(
            f"{path} holds no phiscrub scores (result.binary/token/entity/per_label); "
            "write it with `phiscrub evaluate ... --out-dir DIR`"
        )
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    return config, result


def _entities(row: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    items = row.get(key, [])
    if not isinstance(items, list) or not all(
        isinstance(i, dict)
        and isinstance(i.get("start"), int)
        and isinstance(i.get("end"), int)
        and isinstance(i.get("label"), str)
        for i in items
    ):
        raise InputFormatError(f"{where}: '{key}' is not a list of start/end/label entities")
    return items


def load_evaluation(
    folder: Path,
    sample: int = 10,
    seed: int = 0,
    show_text: bool = False,
    input_path: Path | None = None,
    input_format: str | None = None,
) -> EvalReport:
    """Read an evaluation folder into an :class:`EvalReport`.

    Args:
        folder: the ``--out-dir`` of ``phiscrub evaluate``.
        sample: how many documents with errors to show in context (seeded uniform sample).
        seed: the sampling seed.
        show_text: show the context as it is (else PHI is replaced by placeholders).
        input_path: the gold corpus (default: the gold path the evaluation recorded, if it exists).
        input_format: the gold corpus format (default: the recorded one, else guessed).

    Raises:
        InputFormatError: a file of the folder does not parse (named by file and line, no text).
        ConfigError: the gold corpus does not match the evaluation (a document length differs).
    """
    config, result = _load_scores(folder / EVALUATION_NAME)
    report = EvalReport(folder=folder, config=config, result=result)
    details = folder / DETAILS_NAME
    rng = random.Random(seed)
    if details.is_file():
        report.has_details = True
        from phiscrub.report.run import _jsonl

        for lineno, row in _jsonl(details):
            where = f"{details} line {lineno}"
            if not isinstance(row.get("doc_id"), str) or not isinstance(row.get("length"), int):
                raise InputFormatError(
                    f"{where}: no doc_id/length; write it with `phiscrub evaluate --out-dir`"
                )
            fns, fps = _entities(row, "fn", where), _entities(row, "fp", where)
            _entities(row, "tp", where)
            report.documents += 1
            for kind, items, tally in (("fn", fns, report.fn), ("fp", fps, report.fp)):
                for item in items:
                    tally[item["label"]] += 1
                    report.match[(kind, str(item.get("match", "none")))] += 1
            if not (fns or fps):
                continue
            report.docs_with_errors += 1
            if len(report.samples) < sample:
                report.samples.append(row)
            else:
                j = rng.randrange(report.docs_with_errors)
                if j < sample:
                    report.samples[j] = row
    source = input_path
    if source is None and isinstance(config.get("gold"), str) and Path(config["gold"]).exists():
        source = Path(config["gold"])
    if show_text and source is None:
        raise ConfigError(
            "--show-text needs the gold corpus of the evaluation (--input PATH); the path it recorded "
            f"({config.get('gold')}) is not there"
        )
    if source is not None and report.samples:
        fmt = input_format or (config.get("gold_format") if input_path is None else None)
        corpus = config.get("gold_corpus")
        _read_texts(report, source, fmt, corpus if isinstance(corpus, str) else None)
        report.shown_text = show_text
    return report


def _read_texts(report: EvalReport, source: Path, fmt: str | None, corpus: str | None) -> None:
    """The gold text and raw gold spans (for masking) of the sampled documents."""
    from phiscrub.io import read_corpus

    docs, _ = read_corpus(source, fmt=fmt, corpus=corpus)
    granularity = str(report.result.get("granularity", "coarse"))
    wanted = {str(r["doc_id"]): r for r in report.samples}
    texts: dict[str, str] = {}
    for doc in docs:
        row = wanted.get(doc.id)
        if row is None:
            continue
        if len(doc.text) != row["length"]:
            raise ConfigError(
                f"document {doc.id} of {source} has {len(doc.text)} characters but the evaluation saw "
                f"{row['length']}; give the gold corpus of this evaluation (--input)"
            )
        texts[doc.id] = doc.text
        report.masks[doc.id] = [(s.start, s.end, _folded(s.label, granularity)) for s in doc.spans]
    report.texts = texts
    report.text_source = source
    report.missing_texts = [d for d in wanted if d not in texts]


def _folded(label: str, granularity: str) -> str:
    """``label`` at the evaluation's granularity, for a placeholder; as written when it does not fold
    (a span that is not PHI there is masked all the same)."""
    from phiscrub.errors import LabelError
    from phiscrub.labels import fold

    try:
        return fold(label, granularity) or label  # type: ignore[arg-type]
    except LabelError:
        return label


def _pct(x: Any) -> str:
    return f"{100 * float(x):.1f}"


def _overlapping(item: dict[str, Any], others: list[dict[str, Any]]) -> str:
    hits = [o for o in others if o["start"] < item["end"] and item["start"] < o["end"]]
    return ", ".join(f"{o['label']} {o['start']}-{o['end']}" for o in hits)


def _masked_context(text: str, err: dict[str, Any], kind: str, masks: list[tuple[int, int, str]]) -> str:
    """The context of ``err`` with every PHI stretch, the error included, shown as ``[LABEL]``.

    Overlapping stretches are merged first, so no piece of one shows next to a placeholder.
    """
    spans = sorted(
        [(s, t, lab, False) for s, t, lab in masks] + [(err["start"], err["end"], err["label"], True)]
    )
    groups: list[list[Any]] = []  # [start, end, label, is_error]
    for s, t, lab, is_err in spans:
        if groups and s < groups[-1][1]:
            g = groups[-1]
            g[1] = max(g[1], t)
            if is_err:
                g[2], g[3] = lab, True
        else:
            groups.append([s, t, lab, is_err])
    lo, hi = max(0, err["start"] - CONTEXT), min(len(text), err["end"] + CONTEXT)
    for s, t, _, _ in groups:  # widen the window rather than cut a masked stretch
        if s < lo < t:
            lo = s
        if s < hi < t:
            hi = t
    marks = [
        Mark(s, t, lab, f"{kind.upper()} {lab} {err['start']}-{err['end']}", f"err {kind}", f"[{lab}]")
        if is_err
        else Mark(s, t, lab, lab, "phi masked", f"[{lab}]")
        for s, t, lab, is_err in groups
        if t > lo and s < hi
    ]
    return ("…" if lo > 0 else "") + highlight(text, marks, lo, hi) + ("…" if hi < len(text) else "")


def _plain_context(text: str, err: dict[str, Any], kind: str) -> str:
    lo, hi = max(0, err["start"] - CONTEXT), min(len(text), err["end"] + CONTEXT)
    mark = Mark(err["start"], err["end"], err["label"], f"{kind.upper()} {err['label']}", f"err {kind}")
    return ("…" if lo > 0 else "") + highlight(text, [mark], lo, hi) + ("…" if hi < len(text) else "")


def _doc_html(report: EvalReport, row: dict[str, Any]) -> str:
    doc_id = str(row["doc_id"])
    text = (report.texts or {}).get(doc_id)
    gold = [*row.get("tp", []), *row.get("fn", [])]
    pred = [*row.get("tp", []), *row.get("fp", [])]
    errors = sorted(
        [("fn", i) for i in row.get("fn", [])] + [("fp", i) for i in row.get("fp", [])],
        key=lambda ki: (ki[1]["start"], ki[1]["end"], ki[0]),
    )
    shown = errors[:MAX_ERRORS_PER_DOC]
    masks = report.masks.get(doc_id, []) + [(i["start"], i["end"], i["label"]) for i in gold + pred]
    rows = []
    for kind, item in shown:
        other = _overlapping(item, pred if kind == "fn" else gold)
        if text is None:
            context = '<span class="muted">no text (give the gold corpus with --input)</span>'
        elif report.shown_text:
            context = _plain_context(text, item, kind)
        else:
            context = _masked_context(text, item, kind, masks)
        rows.append(
            f'<tr class="error {kind}" data-kind="{kind}" data-label="{e(item["label"])}" '
            f'data-start="{item["start"]}" data-end="{item["end"]}">'
            f'<td><span class="kind {kind}">{kind.upper()}</span></td><td>{e(item["label"])}</td>'
            f'<td class="num">{item["start"]}-{item["end"]}</td><td>{e(item.get("match", ""))}</td>'
            f'<td>{e(other)}</td><td><div class="text">{context}</div></td></tr>'
        )
    more = (
        f'<p class="muted">first {len(shown)} of {len(errors)} errors</p>' if len(shown) < len(errors) else ""
    )
    return (
        f'<div class="doc" data-doc-id="{e(doc_id)}"><h3>{e(doc_id)} <span class="muted">'
        f"{row.get('gold', 0)} gold, {row.get('pred', 0)} predicted · {len(row.get('fn', []))} FN, "
        f"{len(row.get('fp', []))} FP</span></h3>"
        '<table class="errors"><thead><tr><th>kind</th><th>label</th><th class="num">offsets</th>'
        "<th>match</th><th>other side</th><th>context</th></tr></thead><tbody>"
        + "".join(rows)
        + f"</tbody></table>{more}</div>"
    )


def _scores_chart(per_label: dict[str, Any], level: str) -> str:
    labels = sorted(per_label)
    series = [
        (name, [float(per_label[lab][level][key]) for lab in labels], fill)
        for (name, fill), key in zip(_SERIES, ("precision", "recall", "f1"))
    ]
    return grouped_bar_chart(labels, series, f"{level} P/R/F1 per label", f"prf prf-{level}", "no labels")


def render_evaluation(report: EvalReport, sample: int, seed: int) -> tuple[str, str, list[str]]:
    """The title, subtitle (HTML) and sections (HTML) of an evaluation's report."""
    res, cfg = report.result, report.config
    if report.shown_text:
        privacy = (
            '<section class="privacy shown" id="privacy"><b>This report shows note text</b> (--show-text) '
            "around each error: it holds PHI; keep it where the corpus is kept.</section>"
        )
    elif report.texts is not None:
        privacy = (
            '<section class="privacy" id="privacy">Context is shown with every gold span and every '
            "predicted or gold entity replaced by <code>[LABEL]</code>, the errors too. "
            "<code>--show-text</code> shows the text as it is.</section>"
        )
    else:
        privacy = (
            '<section class="privacy" id="privacy">No note text in this report: errors are listed by '
            "document, offsets and labels. Give the gold corpus with <code>--input</code> for "
            "context.</section>"
        )
    rows = [
        (key, name, _pct(res[m]["precision"]), _pct(res[m]["recall"]), _pct(res[m]["f1"]),
         res[m]["tp"], res[m]["fp"], res[m]["fn"])
        for key, name, m in (("B", "binary token", "binary"), ("T", "token micro", "token"),
                             ("E", "entity micro", "entity"))
    ]  # fmt: skip
    summary = (
        '<section id="summary"><h2>Scores</h2>'
        + table(
            ["", "metric", "precision", "recall", "F1", "TP", "FP", "FN"],
            rows,
            [False, False, True, True, True, True, True, True],
            "scores",
        )
        + f'<p class="muted">{e(res.get("n_docs", ""))} documents, labels {e(res.get("granularity", ""))}, '
        f"percentages, micro-averaged. Gold documents without prediction: "
        f"{len(res.get('missing_pred_ids', []))}; predicted without gold: {len(res.get('extra_pred_ids', []))}.</p>"
        "</section>"
    )
    per_label = res["per_label"]
    label_rows = [
        (lab, _pct(s["entity"]["precision"]), _pct(s["entity"]["recall"]), _pct(s["entity"]["f1"]),
         _pct(s["token"]["f1"]), s["gold_entities"], s["pred_entities"], report.fn.get(lab, 0), report.fp.get(lab, 0))
        for lab, s in sorted(per_label.items())
    ]  # fmt: skip
    charts = (
        '<section id="charts"><h2>Per label</h2><div class="grid">'
        f'<div id="chart-entity"><h3>Entity level (exact span and label)</h3>{_scores_chart(per_label, "entity")}</div>'
        f'<div id="chart-token"><h3>Token level</h3>{_scores_chart(per_label, "token")}</div>'
        "</div>"
        + table(
            [
                "label",
                "entity P",
                "entity R",
                "entity F1",
                "token F1",
                "gold entities",
                "pred entities",
                "FN",
                "FP",
            ],
            label_rows,
            [False, True, True, True, True, True, True, True, True],
            "per-label",
        )
        + "</section>"
    )
    sections = [privacy, summary, charts]
    if not report.has_details:
        sections.append(
            '<section id="errors"><h2>Errors in context</h2><p class="warn">This folder has no '
            f"{DETAILS_NAME}: rerun <code>phiscrub evaluate ... --out-dir DIR</code> for the false "
            "negatives and false positives of each document.</p></section>"
        )
    else:
        err_counts = sorted(
            ((lab, report.fn.get(lab, 0), report.fp.get(lab, 0)) for lab in set(report.fn) | set(report.fp)),
            key=lambda r: (-(r[1] + r[2]), r[0]),
        )
        match_rows = [(k.upper(), m, n) for (k, m), n in sorted(report.match.items())]
        missing = (
            f'<p class="warn">{len(report.missing_texts)} sampled documents are not in {e(report.text_source)}; '
            "they are listed without context.</p>"
            if report.missing_texts
            else ""
        )
        sections.append(
            '<section id="errors"><h2>False negatives and false positives</h2><div class="grid">'
            f'<div id="chart-fn"><h3>False negatives per label</h3>'
            f"{bar_chart([(lab, fn) for lab, fn, _ in err_counts if fn], 'False negatives per label', '#b3261e', 'fn', 'no false negatives')}</div>"
            f'<div id="chart-fp"><h3>False positives per label</h3>'
            f"{bar_chart([(lab, fp) for lab, _, fp in err_counts if fp], 'False positives per label', '#6b4bb8', 'fp', 'no false positives')}</div>"
            f"<div><h3>How they fail</h3>{table(['kind', 'match', 'entities'], match_rows, [False, False, True], 'match')}"
            '<p class="muted">label: same offsets, another label; overlap: a boundary error; none: '
            "nothing on the other side.</p></div></div>"
            f'<h3>In context</h3><p class="muted">{len(report.samples)} of {report.docs_with_errors} documents '
            f"with errors (of {report.documents}), drawn uniformly with seed {seed} (--sample {sample} "
            f"--seed {seed}). FN: solid outline, FP: dashed.</p>{missing}"
            + legend({i["label"] for r in report.samples for k in ("fn", "fp") for i in r.get(k, [])})
            + "".join(_doc_html(report, r) for r in report.samples)
            + "</section>"
        )
    title = f"phiscrub evaluation: {report.folder.name or report.folder}"
    subtitle = e(
        f"gold {cfg.get('gold', '?')} · predicted {cfg.get('pred', '?')} · labels {res.get('granularity', '?')}"
        + (f" · policy {cfg['policy']}" if cfg.get("policy") else "")
    )
    return title, subtitle, sections
