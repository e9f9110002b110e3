"""HTML building blocks of the reports: the page, label colours, tables and highlighted text.

Everything that comes from a run (ids, labels, note text) goes through :func:`e`
(``html.escape``), so a note holding ``<script>`` shows as text. The page carries a
Content-Security-Policy that forbids every fetch and every script: even a mistake in escaping
could not make the file load anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["Mark", "colour", "e", "highlight", "legend", "page", "table"]

#: One colour per coarse label, as on the review page of ``phiscrub serve``.
_COLOURS = {
    "NAME": "#f6a6a6",
    "DATE": "#9fc5f8",
    "ID": "#f8d77f",
    "LOCATION": "#a6dfae",
    "CONTACT": "#d5b2f2",
    "AGE": "#f8c29a",
    "PROFESSION": "#a9dde4",
}
_PALETTE = (
    "#f6a6a6", "#9fc5f8", "#f8d77f", "#a6dfae", "#d5b2f2", "#f8c29a", "#a9dde4",
    "#e6b8d6", "#c9d99b", "#bfc6f2", "#f2c6b0", "#b7e3c9",
)  # fmt: skip

_CSS = """
:root { --ink:#1d2430; --muted:#5f6b7a; --line:#d9dee5; --bg:#f6f7f9; --accent:#2458c6; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; }
header { padding:16px 24px 8px; }
header h1 { margin:0; font-size:20px; }
header p { margin:4px 0 0; color:var(--muted); }
main { padding:0 24px 24px; max-width:1280px; }
section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px 16px; margin:12px 0; }
h2 { font-size:16px; margin:2px 0 10px; }
h3 { font-size:14px; margin:12px 0 6px; }
.grid { display:flex; flex-wrap:wrap; gap:12px 28px; align-items:flex-start; }
.grid > div { min-width:280px; }
.cards { display:flex; flex-wrap:wrap; gap:10px; }
.card { border:1px solid var(--line); border-radius:8px; padding:8px 14px; min-width:120px; background:#fbfbfc; }
.card b { display:block; font-size:22px; }
.card span { color:var(--muted); font-size:12px; }
.card.bad b { color:#b3261e; }
table { border-collapse:collapse; font-size:13px; margin:4px 0 8px; }
th, td { border-bottom:1px solid var(--line); padding:3px 10px 3px 0; text-align:left; vertical-align:top; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
.muted, .note { color:var(--muted); font-size:12px; }
.warn { color:#8a4b00; background:#fff4e0; border:1px solid #f1d39c; border-radius:6px; padding:6px 10px; }
.privacy { border-left:4px solid var(--accent); padding:4px 10px; background:#f3f6fd; }
.privacy.shown { border-left-color:#b3261e; background:#fdf1f0; }
.legend { display:flex; flex-wrap:wrap; gap:6px; margin:6px 0; }
.legend span { display:inline-flex; align-items:center; gap:5px; border:1px solid var(--line);
  border-radius:12px; padding:1px 9px; font-size:12px; background:#fff; }
.swatch { width:12px; height:12px; border-radius:3px; background:var(--c); display:inline-block; }
.doc { border:1px solid var(--line); border-radius:8px; margin:10px 0; padding:8px 12px; }
.doc h3 { margin:0 0 6px; }
.text { white-space:pre-wrap; word-wrap:break-word; font:13px/1.6 ui-monospace,Menlo,Consolas,monospace;
  background:#fbfbfc; border:1px solid var(--line); border-radius:6px; padding:8px 10px;
  max-height:360px; overflow:auto; margin:4px 0; }
.panes { display:grid; grid-template-columns:repeat(auto-fit,minmax(360px,1fr)); gap:10px; }
mark.phi { background:var(--c,#ddd); color:inherit; border-radius:3px; padding:0 1px; }
mark.err { background:var(--c,#ddd); border-radius:3px; padding:0 1px; outline:2px solid #b3261e; }
mark.err.fp { outline-style:dashed; outline-color:#6b4bb8; }
.masked { color:var(--muted); }
.kind { font-weight:700; font-size:11px; border-radius:3px; padding:0 4px; color:#fff; }
.kind.fn { background:#b3261e; }
.kind.fp { background:#6b4bb8; }
svg.chart { max-width:100%; height:auto; display:block; }
footer { color:var(--muted); font-size:12px; padding:0 24px 24px; }
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def e(value: object) -> str:
    """``value`` as HTML text (quotes escaped too, so it is safe in attributes)."""
    return escape(str(value), quote=True)


def colour(label: str) -> str:
    """The highlight colour of ``label``: fixed for coarse labels, else one of a palette by name
    (the same function as the review page's, so a label has one colour everywhere)."""
    if label in _COLOURS:
        return _COLOURS[label]
    h = 0
    for ch in label:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return _PALETTE[h % len(_PALETTE)]


def legend(labels: Iterable[str]) -> str:
    """A row of colour swatches, one per label."""
    items = "".join(
        f'<span data-label="{e(lab)}"><i class="swatch" style="--c:{colour(lab)}"></i>{e(lab)}</span>'
        for lab in sorted(set(labels))
    )
    return f'<div class="legend">{items}</div>' if items else ""


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    numeric: Sequence[bool] | None = None,
    css: str = "",
) -> str:
    """A plain table; ``numeric`` marks right-aligned columns. Cells are escaped."""
    num = list(numeric or [False] * len(headers))
    head = "".join(f'<th class="{"num" if n else ""}">{e(h)}</th>' for h, n in zip(headers, num))
    body = "".join(
        "<tr>" + "".join(f'<td class="{"num" if n else ""}">{e(c)}</td>' for c, n in zip(row, num)) + "</tr>"
        for row in rows
    )
    return f'<table class="{e(css)}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


@dataclass(frozen=True)
class Mark:
    """A highlighted stretch of a text: ``[start, end)``, its label and tooltip.

    ``replace`` shows that string instead of the text (a placeholder), ``css`` is the mark's class.
    """

    start: int
    end: int
    label: str
    tooltip: str = ""
    css: str = "phi"
    replace: str | None = None


def highlight(text: str, marks: Iterable[Mark], start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` as escaped HTML with ``marks`` wrapped in ``<mark>`` elements.

    Marks are drawn in order of their start; one that overlaps an earlier mark is clipped to
    what is left of it (or dropped), and marks outside ``[start, end)`` are ignored.
    """
    stop = len(text) if end is None else min(end, len(text))
    out: list[str] = []
    cursor = start
    for m in sorted(marks, key=lambda m: (m.start, -m.end)):
        s, t = max(m.start, cursor), min(m.end, stop)
        if t <= s:
            continue
        out.append(e(text[cursor:s]))
        shown = m.replace if m.replace is not None else text[s:t]
        out.append(
            f'<mark class="{e(m.css)}" style="--c:{colour(m.label)}" data-label="{e(m.label)}" '
            f'data-start="{m.start}" data-end="{m.end}" title="{e(m.tooltip or m.label)}">{e(shown)}</mark>'
        )
        cursor = max(cursor, t)
    out.append(e(text[cursor:stop]))
    return "".join(out)


def page(title: str, subtitle: str, sections: Iterable[str], footer: str) -> str:
    """A whole self-contained HTML page: inline CSS, no script, no external resource."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="phiscrub report">'
        f"<title>{e(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{e(title)}</h1><p>{subtitle}</p></header><main>"
        + "".join(sections)
        + f"</main><footer>{footer}</footer></body></html>\n"
    )
