"""Load a trained tagger folder as a detector (torch or ONNX backend), and fit its calibration.

:class:`TaggerDetector` runs a torch tagger (transformer or BiLSTM-CRF) behind the Detector
protocol; the document handling it shares with the ONNX path (long notes in segments, calibrated
span scores) is :class:`~phiscrub.detect.tagger_base.BaseTaggerDetector`. Long notes are never
truncated: each note is cut into overlapping windows, each word takes the prediction of the window
where it is farthest from a cut edge, and the whole note is decoded at once with BIO constraints
(see :mod:`phiscrub.tagger.inference`). :func:`load_model_detector` picks the backend of a folder;
:func:`calibrate_model` fits the folder's span-score calibration (:mod:`phiscrub.detect.calibration`)
on the path it runs on.

This module imports torch only when a model is loaded, so :func:`bundled_model_path` works
without the ``model`` extra.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from phiscrub.detect.calibration import (
    SpanCalibration,
    fit_calibration,
    load_calibration,
    save_calibration,
    span_targets,
)
from phiscrub.detect.onnx_tagger import OnnxTaggerDetector, has_onnx_files, onnx_available
from phiscrub.detect.tagger_base import BaseTaggerDetector
from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError, PhiscrubError

if TYPE_CHECKING:
    from phiscrub.tagger.inference import WordPrediction
    from phiscrub.tagger.loaders import Tagger

__all__ = [
    "BACKEND_ENV_VAR",
    "BUNDLED_MODEL_DIR",
    "TaggerDetector",
    "bundled_model_path",
    "calibrate_model",
    "check_model_folder",
    "load_model_detector",
]


#: Environment variable choosing the tagger backend (``auto``, ``onnx`` or ``torch``).
BACKEND_ENV_VAR = "PHISCRUB_BACKEND"
#: Folder of the package (``phiscrub/resources/model``) where a trained tagger can be bundled.
BUNDLED_MODEL_DIR = "model"
_REQUIRED = ("config.json", "labels.json", "tagger.safetensors")


def bundled_model_path() -> Path | None:
    """Folder of the tagger bundled with the package, or None when no model is bundled.

    A bundled folder holds torch weights (``tagger.safetensors``), an ONNX export
    (``tagger.onnx`` + ``onnx.json``, :mod:`phiscrub.detect.onnx_tagger`), or both.
    """
    folder = Path(str(resources.files("phiscrub.resources"))) / BUNDLED_MODEL_DIR
    if all((folder / name).is_file() for name in _REQUIRED):
        return folder
    if all((folder / name).is_file() for name in ("config.json", "labels.json", "onnx.json", "tagger.onnx")):
        return folder
    return None


def load_model_detector(
    model: str | Path,
    device: str = "cpu",
    quantize: bool = False,
    batch_size: int = 16,
    precision: str = "auto",
    backend: str = "auto",
) -> BaseTaggerDetector:
    """A detector for a model folder, or ``"default"`` for the bundled model.

    The detector is a :class:`TaggerDetector` (torch) or an
    :class:`~phiscrub.detect.onnx_tagger.OnnxTaggerDetector`, by ``backend``.

    Args:
        backend: ``onnx`` (ONNX Runtime, :mod:`phiscrub.detect.onnx_tagger`; imports neither torch
            nor transformers), ``torch``, or ``auto``: ONNX when the folder holds an export
            (``phiscrub export-onnx``), onnxruntime is installed and the run is a plain CPU one
            (``device="cpu"``, no ``quantize``, ``precision`` auto), else torch.
            ``$PHISCRUB_BACKEND`` overrides ``auto``.

    Raises:
        ModelError: no bundled model, an incomplete folder, or torch/transformers missing.
    """
    if str(model) == "default":
        bundled = bundled_model_path()
        if bundled is None:
            raise ModelError("no tagger model is bundled with this installation; pass a model folder")
        model = bundled
    if backend == "auto":
        backend = os.environ.get(BACKEND_ENV_VAR) or "auto"
    if backend not in ("auto", "onnx", "torch"):
        raise ConfigError(f"unknown tagger backend {backend!r}; use auto, onnx or torch")
    if backend != "torch":
        plain = device == "cpu" and not quantize and precision == "auto"
        if backend == "onnx" or (plain and has_onnx_files(model) and onnx_available()):
            return OnnxTaggerDetector.load(model, batch_size=batch_size)
    return TaggerDetector.load(
        model, device=device, quantize=quantize, batch_size=batch_size, precision=precision
    )


def check_model_folder(model_dir: str | Path) -> None:
    """Check the files of a model folder before loading it, naming what is wrong.

    Checks that the folder exists, that ``config.json`` and ``labels.json`` are JSON objects, and
    that the weights file has a readable safetensors header. Weights that do not fit the model are
    found when loading (:func:`phiscrub.tagger.loaders.load_tagger`).

    Raises:
        ModelError: the folder is missing, a file is missing, or a file cannot be parsed.
    """
    folder = Path(model_dir)
    if not folder.is_dir():
        raise ModelError(f"model folder {folder} does not exist or is not a folder")
    for name in ("config.json", "labels.json"):
        path = folder / name
        if not path.is_file():
            raise ModelError(f"model folder {folder} has no {name}")
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise ModelError(f"{path} cannot be read as JSON ({type(exc).__name__})") from None
        if not isinstance(data, dict):
            raise ModelError(f"{path} is not a JSON object")
    weights = folder / _REQUIRED[2]
    if not weights.is_file():
        if has_onnx_files(folder):
            return  # an ONNX-only folder: the torch path rebuilds its weights from the graph
        raise ModelError(f"model folder {folder} has no {weights.name}")
    try:
        from safetensors import SafetensorError, safe_open
    except ImportError as exc:
        raise ModelError("the tagger needs safetensors: pip install phiscrub[model]") from exc
    try:
        with safe_open(str(weights), framework="pt") as fh:
            fh.keys()
    except (SafetensorError, OSError, ValueError) as exc:
        raise ModelError(f"{weights} is not a readable safetensors file ({type(exc).__name__})") from None


class TaggerDetector(BaseTaggerDetector):
    """Detect PHI with a trained torch tagger.

    Args:
        model: a loaded tagger (:class:`~phiscrub.tagger.model.PhiTagger` or
            :class:`~phiscrub.tagger.bilstm.BiLstmTagger`, see :meth:`load`).
        batch_size: windows per forward pass.
        calibration: maps raw span scores to calibrated ones (None: raw scores).
    """

    model: Tagger

    def __init__(
        self, model: Tagger, batch_size: int = 16, calibration: SpanCalibration | None = None
    ) -> None:
        super().__init__(model, batch_size=batch_size, calibration=calibration)

    @classmethod
    def load(
        cls,
        model_dir: str | Path,
        device: str = "cpu",
        quantize: bool = False,
        batch_size: int = 16,
        num_threads: int | None = None,
        precision: str = "auto",
    ) -> TaggerDetector:
        """Load a model folder written by :meth:`PhiTagger.save` / :func:`phiscrub.train.train`.

        Args:
            model_dir: the model folder.
            device: ``cpu``, ``cuda`` ...
            quantize: dynamic int8 quantization of the linear layers (CPU only; faster, smaller).
            batch_size: windows per forward pass.
            num_threads: if given, ``torch.set_num_threads`` (process-wide).
            precision: encoder arithmetic at inference: ``float32``, ``bfloat16`` (autocast), or
                ``auto``: bfloat16 on a CPU with native bf16 instructions (AVX512-BF16 / AMX), where it
                is about twice as fast with the same dev scores (``docs/benchmarks.md``), else float32.
                A ``bilstm-crf`` model always runs in float32.

        Raises:
            ModelError: the folder is incomplete or inconsistent, or torch/transformers are missing.
        """
        try:
            import torch

            from phiscrub.tagger.loaders import check_precision, load_for_inference
        except ImportError as exc:
            raise ModelError("the tagger needs torch and transformers: pip install phiscrub[model]") from exc
        if num_threads is not None:
            torch.set_num_threads(num_threads)
        check_precision(precision)
        check_model_folder(model_dir)
        try:
            model = load_for_inference(model_dir, device=device, quantize=quantize, precision=precision)
        except PhiscrubError:
            raise
        except Exception as exc:  # a third-party loader failed: name the folder and the error type only
            raise ModelError(f"model folder {model_dir} cannot be loaded ({type(exc).__name__})") from exc
        return cls(model, batch_size=batch_size, calibration=load_calibration(model_dir))

    def predict(self, docs: Sequence[Document], batch_size: int | None = None) -> list[WordPrediction]:
        """Word-level predictions (tokens, BIO tags, probabilities) of many documents."""
        from phiscrub.tagger.inference import predict_words

        return predict_words(self.model, list(docs), batch_size=batch_size or self.batch_size)


def calibrate_model(
    model_dir: str | Path,
    dev_docs: Sequence[Document],
    policy: str = "safe-harbor",
    batch_size: int = 16,
    write: bool = True,
) -> SpanCalibration:
    """Fit the calibration of a model folder on labelled dev notes and (by default) store it.

    The model's raw span scores on ``dev_docs`` are compared with the gold spans under ``policy``
    (see :func:`span_targets`); a calibration already stored is ignored while fitting. Predicted
    spans that are not PHI under ``policy`` (an age of 45 under safe-harbor) are left out: the
    pipeline drops them anyway.

    Args:
        model_dir: the model folder.
        dev_docs: labelled notes never used for training (nor for the reported test).
        policy: PHI policy of the gold (and of the predicted spans kept for fitting).
        batch_size: windows per forward pass.
        write: store the result in ``model_dir/meta.json``.

    Raises:
        ConfigError: the model predicts no span on ``dev_docs``.
        ModelError: the folder does not load.
    """
    from phiscrub.policy import apply_policy, check_policy

    check_policy(policy)
    # The path the folder runs on in redact (ONNX when it holds an export), so the map fits its scores.
    detector = load_model_detector(model_dir, batch_size=batch_size)
    detector.calibration = None
    scores: list[float] = []
    targets: list[float] = []
    weights: list[float] = []
    for doc, spans in zip(dev_docs, detector.detect_many(dev_docs)):
        spans = apply_policy(doc.text, spans, policy)
        for span, (target, n) in zip(spans, span_targets(doc, spans, policy)):
            scores.append(span.score)
            targets.append(target)
            weights.append(float(n))
    if not scores:
        raise ConfigError("the model predicts no PHI span on the dev notes: nothing to calibrate")
    calibration = fit_calibration(scores, targets, weights, policy=policy)
    if write:
        save_calibration(model_dir, calibration)
    return calibration
