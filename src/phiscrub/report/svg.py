"""Inline SVG charts for the HTML reports: horizontal bars, grouped bars and a histogram.

Written by hand rather than with matplotlib: a few dozen lines give crisp, searchable, scalable
charts that sit in the page as markup (no base64 images), and the report then works on a base
install, without the ``train`` extra that brings matplotlib. Every bar is a ``rect`` carrying
``data-label`` and ``data-value``, so tests (and readers of the page source) can check the figures
that were drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

__all__ = ["bar_chart", "grouped_bar_chart", "histogram"]

_FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12"'
_INK = "#1d2430"
_MUTED = "#5f6b7a"
_GRID = "#e3e7ec"


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _fmt(value: float) -> str:
    return f"{value:.2f}" if isinstance(value, float) and not value.is_integer() else f"{value:g}"


def _svg(width: int, height: int, title: str, body: list[str], css_class: str) -> str:
    return (
        f'<svg class="chart {css_class}" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" {_FONT}>'
        f"<title>{_e(title)}</title>" + "".join(body) + "</svg>"
    )


def _empty(title: str, css_class: str, message: str) -> str:
    body = [f'<text x="10" y="28" fill="{_MUTED}">{_e(message)}</text>']
    return _svg(360, 44, title, body, css_class + " empty")


def bar_chart(
    items: Sequence[tuple[str, float]],
    title: str,
    colour: Callable[[str], str] | str = "#2458c6",
    css_class: str = "bars",
    empty: str = "nothing to show",
    width: int = 560,
) -> str:
    """Horizontal bars, one per ``(name, value)``, largest scale at the widest value.

    Args:
        items: names and non-negative values, drawn in the given order.
        title: the chart's accessible title (shown as a tooltip).
        colour: one colour, or a function of the name.
        css_class: extra class of the ``svg`` element.
        empty: the text drawn when ``items`` is empty.
        width: the chart's width in pixels.
    """
    if not items:
        return _empty(title, css_class, empty)
    left = min(220, 18 + 8 * max(len(name) for name, _ in items))
    row, top = 24, 6
    plot = width - left - 70
    top_value = max(v for _, v in items) or 1
    height = top + row * len(items) + 6
    body = []
    for i, (name, value) in enumerate(items):
        y = top + i * row
        w = max(1.0, plot * value / top_value) if value > 0 else 0.0
        fill = colour(name) if callable(colour) else colour
        body.append(
            f'<text x="{left - 8}" y="{y + 16}" text-anchor="end" fill="{_INK}">{_e(name)}</text>'
            f'<rect class="bar" x="{left}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" rx="3" '
            f'fill="{_e(fill)}" stroke="#0000001f" data-label="{_e(name)}" data-value="{_fmt(value)}">'
            f"<title>{_e(name)}: {_fmt(value)}</title></rect>"
            f'<text x="{left + w + 6:.1f}" y="{y + 16}" fill="{_MUTED}">{_fmt(value)}</text>'
        )
    return _svg(width, height, title, body, css_class)


def grouped_bar_chart(
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], str]],
    title: str,
    css_class: str = "grouped",
    empty: str = "nothing to show",
    width: int = 540,
) -> str:
    """Horizontal grouped bars on a 0-1 scale (e.g. precision, recall and F1 per label).

    Args:
        groups: the group names (labels), one row block each.
        series: ``(name, values, colour)``; ``values`` has one entry per group, in ``[0, 1]``.
        title: the chart's accessible title.
        css_class: extra class of the ``svg`` element.
        empty: the text drawn when there are no groups.
        width: the chart's width in pixels.
    """
    if not groups:
        return _empty(title, css_class, empty)
    left = min(220, 18 + 8 * max(len(g) for g in groups))
    bar, gap, top = 11, 10, 30
    block = bar * len(series) + gap
    plot = width - left - 50
    height = top + block * len(groups) + 24
    body = []
    # Legend along the top.
    x = left
    for name, _, fill in series:
        body.append(
            f'<rect x="{x}" y="8" width="12" height="12" rx="2" fill="{_e(fill)}"/>'
            f'<text x="{x + 17}" y="18" fill="{_INK}">{_e(name)}</text>'
        )
        x += 30 + 8 * len(name)
    # Grid at 0, 0.25, ..., 1.
    bottom = top + block * len(groups)
    for k in range(5):
        gx = left + plot * k / 4
        body.append(
            f'<line x1="{gx:.1f}" y1="{top - 4}" x2="{gx:.1f}" y2="{bottom}" stroke="{_GRID}"/>'
            f'<text x="{gx:.1f}" y="{bottom + 14}" text-anchor="middle" fill="{_MUTED}">{k / 4:g}</text>'
        )
    for i, group in enumerate(groups):
        y0 = top + i * block
        body.append(
            f'<text x="{left - 8}" y="{y0 + block / 2 + 1:.1f}" text-anchor="end" fill="{_INK}">{_e(group)}</text>'
        )
        for j, (name, values, fill) in enumerate(series):
            value = min(1.0, max(0.0, float(values[i])))
            y = y0 + j * bar
            w = plot * value
            body.append(
                f'<rect class="bar" x="{left}" y="{y}" width="{w:.1f}" height="{bar - 2}" fill="{_e(fill)}" '
                f'data-label="{_e(group)}" data-series="{_e(name)}" data-value="{value:.4f}">'
                f"<title>{_e(group)} {_e(name)}: {value:.3f}</title></rect>"
            )
            body.append(
                f'<text x="{left + w + 4:.1f}" y="{y + bar - 3}" font-size="9" fill="{_MUTED}">{value:.2f}</text>'
            )
    return _svg(width, height, title, body, css_class)


def histogram(
    bins: Sequence[tuple[str, int]],
    title: str,
    x_title: str,
    colour: str = "#2458c6",
    css_class: str = "histogram",
    empty: str = "nothing to show",
    width: int = 560,
) -> str:
    """Vertical bars, one per bin, with the bin names along the x axis.

    Args:
        bins: ``(bin name, count)`` in axis order.
        title: the chart's accessible title.
        x_title: the x axis title.
        colour: the bar colour.
        css_class: extra class of the ``svg`` element.
        empty: the text drawn when there are no bins.
        width: the chart's width in pixels.
    """
    if not bins:
        return _empty(title, css_class, empty)
    left, top, plot_h = 44, 14, 150
    width = min(width, left + 12 + 64 * len(bins))  # bars no wider than about 50 px
    plot_w = width - left - 12
    slot = plot_w / len(bins)
    step = max(1, math.ceil(max(c for _, c in bins) / 4))  # whole-number ticks: counts
    top_value = 4 * step
    height = top + plot_h + 44
    body = []
    for k in range(5):
        gy = top + plot_h - plot_h * k / 4
        body.append(
            f'<line x1="{left}" y1="{gy:.1f}" x2="{width - 12}" y2="{gy:.1f}" stroke="{_GRID}"/>'
            f'<text x="{left - 6}" y="{gy + 4:.1f}" text-anchor="end" fill="{_MUTED}">{k * step}</text>'
        )
    for i, (name, count) in enumerate(bins):
        h = plot_h * count / top_value
        x = left + i * slot
        body.append(
            f'<rect class="bar" x="{x + slot * 0.1:.1f}" y="{top + plot_h - h:.1f}" width="{slot * 0.8:.1f}" '
            f'height="{h:.1f}" fill="{_e(colour)}" data-label="{_e(name)}" data-value="{count}">'
            f"<title>{_e(name)}: {count}</title></rect>"
            f'<text x="{x + slot / 2:.1f}" y="{top + plot_h + 14}" text-anchor="middle" font-size="10" '
            f'fill="{_MUTED}">{_e(name)}</text>'
        )
    body.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle" fill="{_INK}">{_e(x_title)}</text>'
    )
    return _svg(width, height, title, body, css_class)
