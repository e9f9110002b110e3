"""phiscrub: offline clinical text de-identification."""

from __future__ import annotations

from phiscrub.document import Document, Span

__all__ = ["Document", "Span"]
__version__ = "0.1.0"
