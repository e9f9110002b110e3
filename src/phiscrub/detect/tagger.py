"""A :class:`~phiscrub.detect.base.Detector` backed by a trained tagger (transformer or BiLSTM-CRF).

Long notes are never truncated: each note is cut into overlapping subword windows, each word takes
the prediction of the window where it is farthest from a cut edge, and the whole note is decoded
at once with BIO constraints (see :mod:`phiscrub.train.inference`). Word tags become character
spans from the first word's start to the last word's end, with ``source="model"`` and
``score`` = mean word probability of the chosen tags (CRF posterior marginals), mapped through
the folder's calibration when ``meta.json`` holds one (:mod:`phiscrub.detect.calibration`).
A ``bilstm-crf`` model folder (:mod:`phiscrub.train.bilstm`) loads the same way and is cut into
word windows instead.

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

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, ModelError, PhiscrubError

if TYPE_CHECKING:
    from phiscrub.detect.calibration import SpanCalibration
    from phiscrub.train.inference import WordPrediction
    from phiscrub.train.model import Tagger

__all__ = [
    "BACKEND_ENV_VAR",
    "BUNDLED_MODEL_DIR",
    "SEGMENT_CHARS",
    "SEGMENT_OVERLAP",
    "TaggerDetector",
    "bundled_model_path",
    "check_model_folder",
    "load_model_detector",
    "segments",
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


def cpu_has_native_bf16() -> bool:
    """True on a CPU with native bfloat16 arithmetic (Linux: avx512_bf16 or amx_bf16 flags)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def load_model_detector(
    model: str | Path,
    device: str = "cpu",
    quantize: bool = False,
    batch_size: int = 16,
    precision: str = "auto",
    backend: str = "auto",
) -> TaggerDetector:
    """A :class:`TaggerDetector` for a model folder, or ``"default"`` for the bundled model.

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
        from phiscrub.detect.onnx_tagger import OnnxTaggerDetector, has_onnx_files, onnx_available

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
    found when loading (:func:`phiscrub.train.model.load_tagger`).

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
        from phiscrub.detect.onnx_tagger import has_onnx_files

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


#: Notes longer than this (characters) are tagged in overlapping segments of about this size.
SEGMENT_CHARS = 200_000
#: Characters shared by consecutive segments (an entity crossing a cut is seen whole by one of them).
SEGMENT_OVERLAP = 2_000


def segments(
    text: str, size: int | None = None, overlap: int | None = None
) -> list[tuple[int, int, int, int]]:
    """Cut ``text`` into ``(lo, hi, own_lo, own_hi)`` segments for tagging long notes.

    The owned stretches ``[own_lo, own_hi)`` tile the text; each ends at a line break (else a space)
    in the last fifth of its budget when there is one. A segment ``[lo, hi)`` is its owned stretch
    plus ``overlap`` characters on both sides. A text of at most ``size`` characters is one segment.
    """
    size = SEGMENT_CHARS if size is None else size
    overlap = SEGMENT_OVERLAP if overlap is None else overlap
    n = len(text)
    out: list[tuple[int, int, int, int]] = []
    start = 0
    while start < n:
        end = min(n, start + size)
        if end < n:
            floor = start + (4 * size) // 5
            cut = text.rfind("\n", floor, end)
            if cut < 0:
                cut = text.rfind(" ", floor, end)
            end = cut + 1 if cut >= 0 else end
        out.append((max(0, start - overlap), min(n, end + overlap), start, end))
        start = end
    return out


class TaggerDetector:
    """Detect PHI with a trained tagger.

    Args:
        model: a loaded tagger (:class:`~phiscrub.train.model.PhiTagger` or
            :class:`~phiscrub.train.bilstm.BiLstmTagger`, see :meth:`load`).
        batch_size: windows per forward pass.
        calibration: maps raw span scores to calibrated ones (None: raw scores).
    """

    name = "model"

    def __init__(
        self, model: Tagger, batch_size: int = 16, calibration: SpanCalibration | None = None
    ) -> None:
        if batch_size < 1:
            raise ConfigError("batch_size must be >= 1")
        self.model = model
        self.batch_size = batch_size
        self.calibration = calibration

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

            from phiscrub.train.model import load_tagger
        except ImportError as exc:
            raise ModelError("the tagger needs torch and transformers: pip install phiscrub[model]") from exc
        if num_threads is not None:
            torch.set_num_threads(num_threads)
        if precision not in ("auto", "float32", "bfloat16"):
            raise ConfigError(f"unknown precision {precision!r}; use auto, float32 or bfloat16")
        check_model_folder(model_dir)
        try:
            model = load_tagger(model_dir, device=device, quantize=quantize)
        except PhiscrubError:
            raise
        except Exception as exc:  # a third-party loader failed: name the folder and the error type only
            raise ModelError(f"model folder {model_dir} cannot be loaded ({type(exc).__name__})") from exc
        if precision == "auto":
            precision = (
                "bfloat16" if device == "cpu" and not quantize and cpu_has_native_bf16() else "float32"
            )
        model.autocast_dtype = torch.bfloat16 if precision == "bfloat16" else None
        from phiscrub.detect.calibration import load_calibration

        return cls(model, batch_size=batch_size, calibration=load_calibration(model_dir))

    @property
    def labels(self) -> tuple[str, ...]:
        """Labels this detector can emit."""
        return self.model.labels

    def detect(self, doc: Document) -> list[Span]:
        """Predicted PHI spans of one document."""
        return self.detect_many([doc])[0]

    def detect_many(self, docs: Sequence[Document], batch_size: int | None = None) -> list[list[Span]]:
        """Predicted PHI spans of many documents (windows of all of them are batched together).

        Args:
            docs: the documents.
            batch_size: windows per forward pass (default: the detector's).
        """
        if all(len(d.text) <= SEGMENT_CHARS for d in docs):
            found = [p.spans(source=self.name) for p in self.predict(docs, batch_size)]
        else:
            found = self._detect_segmented(docs, batch_size)
        if self.calibration is None:
            return found
        return [self.calibration.apply(spans) for spans in found]

    def _detect_segmented(self, docs: Sequence[Document], batch_size: int | None) -> list[list[Span]]:
        """Spans of documents some of which are longer than :data:`SEGMENT_CHARS`, segment by segment.

        A long note is cut into overlapping segments (:func:`segments`), a few predicted at a time,
        so memory stays bounded by the segment size rather than the note's (per-word score tables
        grow with the note), and long notes report progress (counts only). Each segment keeps the
        spans that start in the stretch it owns; an entity crossing into the next stretch is seen
        whole thanks to the overlap.
        """
        from phiscrub.progress import report, wants_progress

        pieces = [
            (i, lo, hi, own_lo, own_hi)
            for i, d in enumerate(docs)
            for lo, hi, own_lo, own_hi in segments(d.text)
        ]
        loud = wants_progress(max(len(d.text) for d in docs))
        found: list[list[Span]] = [[] for _ in docs]
        step = 8
        for k in range(0, len(pieces), step):
            chunk = pieces[k : k + step]
            part_docs = [Document(docs[i].id, docs[i].text[lo:hi]) for i, lo, hi, _, _ in chunk]
            for (i, lo, _, own_lo, own_hi), pred in zip(chunk, self.predict(part_docs, batch_size)):
                for s in pred.spans(source=self.name):
                    if own_lo <= s.start + lo < own_hi:
                        found[i].append(Span(s.start + lo, s.end + lo, s.label, s.score, s.source))
            if loud:
                report("model segments", min(k + step, len(pieces)), len(pieces))
        return found

    def predict(self, docs: Sequence[Document], batch_size: int | None = None) -> list[WordPrediction]:
        """Word-level predictions (tokens, BIO tags, probabilities) of many documents."""
        from phiscrub.train.inference import predict_words

        return predict_words(self.model, list(docs), batch_size=batch_size or self.batch_size)
