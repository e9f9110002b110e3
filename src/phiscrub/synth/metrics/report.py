"""The report files: Markdown table of corpus averages and ``report.json``."""

from __future__ import annotations

import json
from pathlib import Path

from phiscrub.synth.metrics.results import SynthReport
from phiscrub.text import TOKENIZER_NAME

__all__ = ["to_markdown", "write_report"]


# -- report -----------------------------------------------------------------------------------------
def _fmt(value: float | None, scale: float = 1.0, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value * scale:.{digits}f}"


_TABLE_ROWS: tuple[tuple[str, str, float, int, tuple[str, ...]], ...] = (
    ("ROUGE-1 F (%)", "rouge1", 100.0, 2, ("synthetic", "masked")),
    ("ROUGE-2 F (%)", "rouge2", 100.0, 2, ("synthetic", "masked")),
    ("ROUGE-L F (%)", "rougeL", 100.0, 2, ("synthetic", "masked")),
    ("BERTScore P", "bertscore_precision", 1.0, 4, ("synthetic", "masked")),
    ("BERTScore R", "bertscore_recall", 1.0, 4, ("synthetic", "masked")),
    ("BERTScore F", "bertscore", 1.0, 4, ("synthetic", "masked")),
    ("SMOG", "smog", 1.0, 2, ("synthetic", "masked", "original")),
    ("Flesch Reading Ease", "flesch_reading_ease", 1.0, 2, ("synthetic", "masked", "original")),
    ("Flesch-Kincaid Grade", "flesch_kincaid_grade", 1.0, 2, ("synthetic", "masked", "original")),
    ("Entropy (bits/token)", "entropy", 1.0, 3, ("synthetic", "masked", "original")),
    ("Invalid prediction rate", "invalid_rate", 1.0, 4, ("synthetic",)),
    ("PHI strings surviving (%)", "phi_survival", 100.0, 2, ("synthetic", "masked")),
    ("5-grams surviving (%)", "ngram_survival", 100.0, 2, ("synthetic", "masked")),
)


def to_markdown(report: SynthReport) -> str:
    """Markdown summary: pairing counts and one table of corpus averages (no text, ids only in JSON).

    Columns: the synthetic letters, the masked baseline, the originals; similarity rows compare each
    with the original, so the original column is empty there.
    """
    avg = report.averages()
    m = report.matching
    has_masked = any(r.baseline is not None for r in report.letters)
    order = report.letters[0].synthetic.privacy.n if report.letters else "n/a"
    lines = [
        "# Synthetic letter evaluation",
        "",
        f"- pairs (synthetic letter, original): {len(report.letters)}",
        f"- synthetic letters without original: {len(m.unmatched_synthetic)}",
        f"- originals without synthetic letter: {len(m.originals_without_synthetic)}",
    ]
    if has_masked or m.unmatched_masked or m.originals_without_masked:
        lines += [
            f"- masked letters without original: {len(m.unmatched_masked)}",
            f"- paired originals without masked letter: {len(m.originals_without_masked)}",
        ]
    lines += [
        f"- tokenizer: `{TOKENIZER_NAME}` (lowercased words); privacy n-gram order: {order}",
        "",
        "| Metric | Synthetic | Masked baseline | Original |",
        "|---|---:|---:|---:|",
    ]
    for name, key, scale, digits, kinds in _TABLE_ROWS:
        cells = []
        for kind in ("synthetic", "masked", "original"):
            if kind not in kinds or (kind == "masked" and not has_masked):
                cells.append("")
            else:
                cells.append(_fmt(avg.get(kind, {}).get(key), scale, digits))
        lines.append(f"| {name} | {' | '.join(cells)} |")
    lines += [
        "",
        "Similarity and survival rows: each letter against its original, mean over pairs.",
        "Readability: English formulas (SMOG, Flesch Reading Ease, Flesch-Kincaid Grade).",
        "",
    ]
    return "\n".join(lines)


def write_report(report: SynthReport, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (created when missing).

    Returns:
        ``(json_path, markdown_path)``.
    """
    folder = Path(out_dir)
    text = json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str)
    markdown = to_markdown(report)
    folder.mkdir(parents=True, exist_ok=True)
    json_path, md_path = folder / "report.json", folder / "report.md"
    json_path.write_text(text + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path
