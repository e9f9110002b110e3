"""One way to start a matplotlib figure: a bare :class:`~matplotlib.figure.Figure` on the Agg canvas.

No display and no global pyplot state are involved, so plots can be drawn from any thread or
process. matplotlib is imported only here, only when a plot is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from phiscrub.errors import ConfigError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["agg_figure"]


def agg_figure(purpose: str, **options: Any) -> Figure:
    """A new figure with an Agg canvas (``options``: :class:`~matplotlib.figure.Figure` keywords).

    Args:
        purpose: what is drawn, for the error message (e.g. ``"the precision-recall curve"``).

    Raises:
        ConfigError: matplotlib is not installed.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError(f"{purpose} needs matplotlib (pip install matplotlib)") from None
    fig = Figure(**options)
    FigureCanvasAgg(fig)
    return fig
