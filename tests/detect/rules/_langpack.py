"""Helpers of the per-language pack tables (``test_langpack_<lang>.py``)."""

from __future__ import annotations

from phiscrub.detect.rules import default_detectors
from phiscrub.document import Document
from phiscrub.labels import fold

from ._support import run_detector


def pack_found(lang: str, text: str) -> set[tuple[str, str]]:
    """``(surface, fine label)`` of every span the rule detectors of ``lang`` propose in ``text``."""
    out: set[tuple[str, str]] = set()
    for det in default_detectors(lang):
        for span in run_detector(det, text):  # type: ignore[arg-type]
            out.add((text[span.start : span.end], span.label))
    return out


def pack_coarse(lang: str, text: str) -> set[tuple[str, str]]:
    """Like :func:`pack_found` with coarse labels (NAME, LOCATION, DATE ...)."""
    return {(surface, fold(label, "coarse") or label) for surface, label in pack_found(lang, text)}


def overlaps(lang: str, text: str, surface: str) -> list[tuple[str, str]]:
    """Spans of ``lang``'s rules that overlap the first occurrence of ``surface`` in ``text``."""
    start = text.index(surface)
    end = start + len(surface)
    hits = []
    for det in default_detectors(lang):
        for span in det.detect(Document("t", text)):
            if span.start < end and start < span.end:
                hits.append((text[span.start : span.end], span.label))
    return hits
