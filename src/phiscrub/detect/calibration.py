"""Span score calibration: map a detector's raw span score to "probability that the span is PHI".

A tagger's raw span score is the mean, over the span's words, of the probability of the chosen
tag (CRF posterior marginals, or softmax probabilities without a CRF; see
:mod:`phiscrub.tagger.inference`). Raw scores rank spans well but are over-confident on notes
unlike the training notes. :func:`fit_calibration` fits a monotone (isotonic) map from raw score
to the observed PHI rate on labelled dev notes; :func:`phiscrub.detect.tagger.calibrate_model` runs a model
folder on such notes and stores the map in its ``meta.json`` under ``"calibration"``, where
:meth:`phiscrub.detect.tagger.TaggerDetector.load` finds it and applies it to every span.

What is fitted: each predicted span is one sample, weighted by its number of tokens, whose target
is the share of its tokens that are gold PHI (any label, after the gold is filtered by the PHI
policy). The calibrated score of a span is therefore the expected binary-token precision of spans
with that raw score, the quantity a threshold trades against recall.

The fit is pool-adjacent-violators isotonic regression (non-decreasing), written in numpy; the map
is stored as knots and applied by linear interpolation, clamped at both ends. Being monotone, it
keeps the order of the raw scores, so a threshold on calibrated scores is a threshold on raw ones.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, ModelError

__all__ = [
    "CALIBRATION_KEY",
    "SpanCalibration",
    "fit_calibration",
    "load_calibration",
    "save_calibration",
    "span_targets",
]

#: Key of the calibration in a model folder's ``meta.json``.
CALIBRATION_KEY = "calibration"
_METHODS = ("isotonic",)


@dataclass(frozen=True)
class SpanCalibration:
    """A monotone map from raw span score to calibrated score, as knots.

    Args:
        x: raw scores of the knots, non-decreasing, in [0, 1].
        y: calibrated scores of the knots, non-decreasing, in [0, 1] (same length as ``x``).
        method: how it was fitted (``isotonic``).
        n_spans: predicted spans it was fitted on.
        n_tokens: tokens of those spans (the sample weights).
        phi_rate: token-weighted share of those spans' tokens that were gold PHI.
        policy: PHI policy applied to the gold before fitting.

    Raises:
        ConfigError: inconsistent knots or values out of range.
    """

    x: tuple[float, ...]
    y: tuple[float, ...]
    method: str = "isotonic"
    n_spans: int = 0
    n_tokens: int = 0
    phi_rate: float = 0.0
    policy: str = "i2b2"

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", tuple(float(v) for v in self.x))
        object.__setattr__(self, "y", tuple(float(v) for v in self.y))
        if self.method not in _METHODS:
            raise ConfigError(f"unknown calibration method {self.method!r}; use one of {_METHODS}")
        if not self.x or len(self.x) != len(self.y):
            raise ConfigError("calibration needs as many y as x knots, and at least one")
        for name in ("x", "y"):
            values = getattr(self, name)
            if any(not 0.0 <= v <= 1.0 for v in values):
                raise ConfigError(f"calibration {name} knots must lie in [0, 1]")
            if any(b < a for a, b in itertools.pairwise(values)):
                raise ConfigError(f"calibration {name} knots must be non-decreasing")

    def __call__(self, raw: float) -> float:
        """The calibrated score of a raw score (linear between knots, clamped outside)."""
        x, y = self.x, self.y
        if raw <= x[0]:
            return y[0]
        if raw >= x[-1]:
            return y[-1]
        i = bisect.bisect_right(x, raw)
        x0, x1, y0, y1 = x[i - 1], x[i], y[i - 1], y[i]
        if x1 == x0:
            return y1
        return y0 + (y1 - y0) * (raw - x0) / (x1 - x0)

    def apply(self, spans: Sequence[Span]) -> list[Span]:
        """Copies of ``spans`` with calibrated scores."""
        from dataclasses import replace

        return [replace(s, score=self(s.score)) for s in spans]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (knots as lists)."""
        data = asdict(self)
        data["x"] = list(self.x)
        data["y"] = list(self.y)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SpanCalibration:
        """Build from :meth:`to_dict` output; unknown or missing keys are errors.

        Raises:
            ConfigError: not a mapping, unknown keys, missing knots or invalid values.
        """
        from phiscrub.config import load_config

        if not isinstance(data, Mapping):
            raise ConfigError("a calibration must be a JSON object")
        return load_config(data, cls, where="calibration")


def _pav(values: Sequence[float], weights: Sequence[float]) -> list[tuple[int, int, float]]:
    """Pool adjacent violators: blocks ``(first, last, mean)`` of a non-decreasing weighted fit."""
    blocks: list[list[float]] = []  # [first, last, weighted sum, weight]
    for i, (v, w) in enumerate(zip(values, weights)):
        blocks.append([i, i, v * w, w])
        while len(blocks) > 1 and blocks[-2][2] / blocks[-2][3] >= blocks[-1][2] / blocks[-1][3]:
            last = blocks.pop()
            blocks[-1][1] = last[1]
            blocks[-1][2] += last[2]
            blocks[-1][3] += last[3]
    return [(int(b[0]), int(b[1]), b[2] / b[3]) for b in blocks]


def fit_calibration(
    scores: Sequence[float],
    targets: Sequence[float],
    weights: Sequence[float] | None = None,
    policy: str = "i2b2",
) -> SpanCalibration:
    """Fit an isotonic map from raw scores to targets (each in [0, 1]).

    Args:
        scores: raw span scores.
        targets: what each span should score: 1.0 PHI, 0.0 not PHI, or a share in between.
        weights: sample weights (default 1 each), e.g. tokens per span.
        policy: recorded in the result (the policy the targets were computed under).

    Returns:
        The calibration; with one distinct raw score it maps everything to the weighted mean.

    Raises:
        ConfigError: no samples, length mismatch, or values out of range.
    """
    import numpy as np

    if not scores:
        raise ConfigError("calibration needs at least one scored span")
    w = [1.0] * len(scores) if weights is None else [float(v) for v in weights]
    if not len(scores) == len(targets) == len(w):
        raise ConfigError("scores, targets and weights must have the same length")
    s = np.clip(np.asarray(scores, dtype=np.float64), 0.0, 1.0)
    t = np.asarray(targets, dtype=np.float64)
    wa = np.asarray(w, dtype=np.float64)
    if np.any((t < 0) | (t > 1)) or np.any(wa <= 0):
        raise ConfigError("calibration targets must lie in [0, 1] and weights be > 0")
    # Equal raw scores form one sample first, so ties never split across blocks.
    uniq, inverse = np.unique(s, return_inverse=True)
    wsum = np.bincount(inverse, weights=wa)
    tmean = np.bincount(inverse, weights=t * wa) / wsum
    blocks = _pav(tmean.tolist(), wsum.tolist())
    xs: list[float] = []
    ys: list[float] = []
    for first, last, mean in blocks:
        value = float(np.clip(mean, 0.0, 1.0))
        for x in (float(uniq[first]), float(uniq[last])):
            if xs and xs[-1] == x:
                continue
            xs.append(x)
            ys.append(value)
    # Drop knots inside flat runs (same y on both sides): interpolation is unchanged.
    kx, ky = [xs[0]], [ys[0]]
    for i in range(1, len(xs) - 1):
        if not (ys[i - 1] == ys[i] == ys[i + 1]):
            kx.append(xs[i])
            ky.append(ys[i])
    if len(xs) > 1:
        kx.append(xs[-1])
        ky.append(ys[-1])
    # Blocks are non-decreasing up to float rounding; make that exact.
    for i in range(1, len(ky)):
        ky[i] = max(ky[i], ky[i - 1])
    return SpanCalibration(
        x=tuple(kx),
        y=tuple(ky),
        n_spans=len(scores),
        n_tokens=round(float(wa.sum())),
        phi_rate=float((t * wa).sum() / wa.sum()),
        policy=policy,
    )


def span_targets(gold: Document, spans: Sequence[Span], policy: str) -> list[tuple[float, int]]:
    """For each predicted span: (share of its tokens that are gold PHI, its number of tokens).

    The gold spans of ``gold`` are filtered by ``policy`` first (:func:`phiscrub.policy.apply_policy`);
    tokens come from :func:`phiscrub.text.tokenize`. A span covering no token counts as one token,
    PHI when it overlaps a gold span.
    """
    from phiscrub.policy import apply_policy
    from phiscrub.text import tokenize

    tokens = tokenize(gold.text)
    golds = apply_policy(gold.text, gold.spans, policy)
    phi = [any(t.start < g.end and g.start < t.end for g in golds) for t in tokens]
    starts = [t.start for t in tokens]
    out: list[tuple[float, int]] = []
    for span in spans:
        lo = bisect.bisect_right(starts, span.start) - 1
        idx = [
            i
            for i in range(max(lo, 0), bisect.bisect_left(starts, span.end))
            if tokens[i].end > span.start and tokens[i].start < span.end
        ]
        if idx:
            out.append((sum(phi[i] for i in idx) / len(idx), len(idx)))
        else:
            out.append((float(any(span.overlaps(g) for g in golds)), 1))
    return out


def load_calibration(model_dir: str | Path) -> SpanCalibration | None:
    """The calibration stored in a model folder's ``meta.json``, or None when there is none.

    Raises:
        ModelError: ``meta.json`` cannot be read.
        ConfigError: the stored calibration is invalid (unknown keys, bad knots).
    """
    meta_path = Path(model_dir) / "meta.json"
    if not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"{meta_path} cannot be read as JSON ({type(exc).__name__})") from None
    data = meta.get(CALIBRATION_KEY) if isinstance(meta, dict) else None
    return None if data is None else SpanCalibration.from_dict(data)


def save_calibration(model_dir: str | Path, calibration: SpanCalibration | None) -> Path:
    """Store (or, with None, remove) the calibration in a model folder's ``meta.json``.

    Returns:
        The path of ``meta.json``.

    Raises:
        ModelError: the folder has no readable ``meta.json``.
    """
    meta_path = Path(model_dir) / "meta.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"{meta_path} cannot be read ({type(exc).__name__})") from None
    if not isinstance(meta, dict):
        raise ModelError(f"{meta_path} is not a JSON object")
    if calibration is None:
        meta.pop(CALIBRATION_KEY, None)
    else:
        meta[CALIBRATION_KEY] = calibration.to_dict()
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return meta_path
