"""Export a trained transformer tagger folder to ONNX for the torch-free inference path.

What is exported (:func:`export_onnx`)::

    out_dir/
      tagger.onnx        encoder + subword pooling + shape/length embeddings + linear head;
                         inputs input_ids, attention_mask, sub_slot (B x L), shape_ids, length_ids
                         (B x W), all int64 with dynamic batch and length axes; output ``scores``
                         (B x W x T float32): CRF emissions, or log-probabilities without a CRF.
                         Weights int8 (onnxruntime dynamic quantization, per output channel) or float32.
      tokenizer.json     the Rust ``tokenizers`` file of the encoder's fast tokenizer
      onnx.json          tags, window settings, special tokens, pad/unknown tokens, CRF scores
      config.json, labels.json, meta.json   copied from the model folder (``meta.json`` keeps the
                         span-score calibration) when ``out_dir`` is another folder

Decoding (BIO-constrained Viterbi, CRF marginals) stays in numpy (:mod:`phiscrub.tagger.decode`), so
:class:`phiscrub.detect.onnx_tagger.OnnxTaggerDetector` needs neither torch nor transformers.

Needs the ``train`` extra (torch, transformers) plus ``onnx`` and ``onnxscript`` for the exporter.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import torch
from torch import nn

from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.base import read_model_config
from phiscrub.tagger.config import BILSTM_ENCODER
from phiscrub.tagger.encoding import collate, special_affixes
from phiscrub.tagger.model import ENCODER_DIR, PhiTagger
from phiscrub.tagger.onnx_weights import (
    EXTRA_WEIGHTS_FILE,
    ONNX_CONFIG,
    ONNX_FILE,
)
from phiscrub.tagger.ort import import_quantization
from phiscrub.tagger.windows import WindowExample

__all__ = [
    "EXTRA_WEIGHTS_FILE",
    "ONNX_CONFIG",
    "ONNX_FILE",
    "TOKENIZER_FILE",
    "TORCH_ONLY_FILES",
    "export_onnx",
    "install_onnx",
]

log = logging.getLogger(__name__)

TOKENIZER_FILE = "tokenizer.json"
#: Version of ``onnx.json``.
ONNX_FORMAT_VERSION = 1
_COPIED = ("config.json", "labels.json", "meta.json")
#: What only the torch path reads and the graph can stand in for: left out of an ONNX-only folder
#: (the one the package ships; ``encoder/`` stays: the torch path needs its config and tokenizer).
TORCH_ONLY_FILES = ("tagger.safetensors",)
_INPUTS = ["input_ids", "attention_mask", "sub_slot", "shape_ids", "length_ids"]


class _ScoreGraph(nn.Module):
    """What the ONNX graph computes: the tagger's forward pass up to its decoding scores.

    Word pooling is written as a (slot x subword) one-hot matrix product instead of
    ``scatter_reduce`` (same result for ``first`` and ``mean``), which every exporter and
    quantizer handles and which costs little next to the encoder.
    """

    def __init__(self, tagger: Any) -> None:
        super().__init__()
        self.encoder = tagger.encoder
        self.shape_emb = tagger.shape_emb
        self.length_emb = tagger.length_emb
        self.head = tagger.head
        self.strategy = tagger.config.subword_strategy
        self.use_crf = tagger.crf is not None

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        sub_slot: torch.Tensor,
        shape_ids: torch.Tensor,
        length_ids: torch.Tensor,
    ) -> torch.Tensor:
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        slots = torch.arange(shape_ids.shape[1], device=sub_slot.device).view(1, -1, 1)
        onehot = (sub_slot.unsqueeze(1) == slots).to(hidden.dtype)  # (B, W, L)
        pooled = torch.matmul(onehot, hidden)
        if self.strategy == "mean":
            pooled = pooled / onehot.sum(dim=-1, keepdim=True).clamp(min=1.0)
        parts = [pooled]
        if self.shape_emb is not None and self.length_emb is not None:
            parts += [self.shape_emb(shape_ids), self.length_emb(length_ids)]
        emissions = self.head(torch.cat(parts, dim=-1))
        return emissions if self.use_crf else torch.log_softmax(emissions, dim=-1)


def _eager_attention(encoder: Any) -> None:
    """Export attention as plain MatMul/Softmax ops instead of the SDPA path.

    The SDPA export adds ``IsNaN``/``Where`` guards around the softmax (for fully masked rows) that
    cost about 14% of ONNX Runtime's time on the bundled model; the eager graph computes the same
    attention without them (``docs/benchmarks.md``).
    """
    setter = getattr(encoder, "set_attn_implementation", None)
    if setter is not None:
        try:
            setter("eager")
            return
        except (ValueError, AttributeError):
            pass
    config = getattr(encoder, "config", None)
    if config is not None and hasattr(config, "_attn_implementation"):
        config._attn_implementation = "eager"


def _dummy_inputs(tagger: Any) -> tuple[torch.Tensor, ...]:
    examples = [
        WindowExample(0, 0, [101, 2000, 2001, 2002, 102], [-1, 0, 1, 1, -1], [0, 1], [1, 3], [2, 3], [0, 0]),
        WindowExample(0, 1, [101, 2003, 102], [-1, 0, -1], [0], [3], [4], [0]),
    ]
    batch = collate(examples, tagger.pad_id)
    return tuple(batch[name] for name in _INPUTS)


def export_onnx(
    model_dir: str | Path,
    out_dir: str | Path | None = None,
    quantize: str = "int8",
    opset: int = 18,
) -> Path:
    """Export a trained transformer tagger folder to an ONNX folder (see the module docstring).

    Args:
        model_dir: a model folder written by :func:`phiscrub.train.train` / ``PhiTagger.save``.
        out_dir: where to write (default: ``model_dir`` itself, next to the torch weights).
        quantize: ``int8`` (dynamic int8 weights, the default path's) or ``none`` (float32).
        opset: ONNX opset of the graph.

    Returns:
        The output folder.

    Raises:
        ModelError: the folder does not load, is a ``bilstm-crf`` model, uses ``max`` subword
            pooling, or the exporter / quantizer is missing.
        ConfigError: an unknown ``quantize``.
    """
    if quantize not in ("int8", "none"):
        raise ConfigError(f"unknown quantization {quantize!r}; use int8 or none")
    src = Path(model_dir)
    config = read_model_config(src)
    if config.backbone == BILSTM_ENCODER:
        raise ModelError(f"{src} holds a {BILSTM_ENCODER} model; only transformer taggers export to ONNX")
    if config.subword_strategy not in ("first", "mean"):
        raise ModelError(f"subword strategy {config.subword_strategy!r} does not export; use first or mean")
    try:
        import onnx  # noqa: F401

        quantization = import_quantization()
        QuantType, quantize_dynamic = quantization.QuantType, quantization.quantize_dynamic
    except ImportError as exc:
        raise ModelError("export-onnx needs onnx and onnxruntime: pip install phiscrub[train]") from exc
    tagger = PhiTagger.load(src)
    out = Path(out_dir) if out_dir is not None else src
    out.mkdir(parents=True, exist_ok=True)
    _eager_attention(tagger.encoder)
    graph = _ScoreGraph(tagger).eval()
    with tempfile.TemporaryDirectory(prefix="phiscrub-onnx-") as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        axes = {name: {0: "batch", 1: "subwords"} for name in _INPUTS[:3]}
        axes.update({name: {0: "batch", 1: "words"} for name in _INPUTS[3:]})
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                graph,
                _dummy_inputs(tagger),
                str(fp32),
                input_names=_INPUTS,
                output_names=["scores"],
                dynamic_axes={**axes, "scores": {0: "batch", 1: "words"}},
                opset_version=opset,
                dynamo=False,
            )
        weight_map, extra = _weight_map(fp32, tagger)
        target = out / ONNX_FILE
        if quantize == "int8":
            quantize_dynamic(str(fp32), str(target), weight_type=QuantType.QInt8, per_channel=True)
        else:
            shutil.copyfile(fp32, target)
    tagger.tokenizer.backend_tokenizer.save(str(out / TOKENIZER_FILE))
    prefix, suffix = special_affixes(tagger.tokenizer)
    trans = scores = None
    if tagger.crf is not None:
        trans = tagger.crf.transitions.detach().double().tolist()
        scores = {
            "start": tagger.crf.start_transitions.detach().double().tolist(),
            "end": tagger.crf.end_transitions.detach().double().tolist(),
        }
    info = {
        "format_version": ONNX_FORMAT_VERSION,
        "onnx": ONNX_FILE,
        "tokenizer": TOKENIZER_FILE,
        "quantize": quantize,
        "tags": list(tagger.tags),
        "max_length": config.max_length,
        "overlap": config.overlap,
        "sentence_aware": config.sentence_aware,
        "subword_strategy": config.subword_strategy,
        "prefix_ids": prefix,
        "suffix_ids": suffix,
        "pad_id": tagger.pad_id,
        "unk_token": tagger.tokenizer.unk_token,
        "crf": None if trans is None else {"transitions": trans, **(scores or {})},
        # state-dict key -> [graph initializer, stored transposed]: rebuilds torch weights from the graph
        "torch_weights": weight_map,
    }
    if extra:
        import numpy as np

        # float16: these are small and unused by the forward pass (the BERT pooler)
        np.savez(
            out / EXTRA_WEIGHTS_FILE,
            **{k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in extra.items()},
        )
    (out / ONNX_CONFIG).write_text(json.dumps(info) + "\n", encoding="utf-8")
    if out.resolve() != src.resolve():
        for name in _COPIED:
            if (src / name).is_file():
                shutil.copyfile(src / name, out / name)
        if (src / ENCODER_DIR).is_dir():  # the torch path's encoder config and tokenizer
            shutil.copytree(src / ENCODER_DIR, out / ENCODER_DIR, dirs_exist_ok=True)
    log.info("exported %s to %s (%s)", src, out, quantize)
    return out


def install_onnx(model_dir: str | Path, target: str | Path, quantize: str = "int8") -> Path:
    """Replace ``target`` (e.g. the package's bundled model folder) by an ONNX-only export of ``model_dir``.

    The export is written to a staging folder next to ``target`` first, so a failed export leaves
    ``target`` as it was. ``meta.json`` (with its calibration) comes from ``model_dir``; the torch
    weights (:data:`TORCH_ONLY_FILES`) are not written (the torch path rebuilds them from the graph,
    :func:`phiscrub.tagger.onnx_weights.torch_state_from_onnx`), and both paths share ``encoder/tokenizer.json``.

    Args:
        model_dir: the trained torch model folder.
        target: the folder to replace.
        quantize: ``int8`` or ``none``.

    Returns:
        ``target``.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".onnx-export-", dir=target.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; the installed folder must be readable by all
    try:
        export_onnx(model_dir, staging, quantize=quantize)
        for name in TORCH_ONLY_FILES:
            path = staging / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
        shared = staging / ENCODER_DIR / TOKENIZER_FILE
        if shared.is_file():  # one tokenizer file for both paths (the package size limit)
            (staging / TOKENIZER_FILE).unlink()
            info = json.loads((staging / ONNX_CONFIG).read_text(encoding="utf-8"))
            info["tokenizer"] = f"{ENCODER_DIR}/{TOKENIZER_FILE}"
            (staging / ONNX_CONFIG).write_text(json.dumps(info) + "\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _weight_map(fp32_path: Path, tagger: Any) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """Which float32-graph initializer holds each torch weight (as is or transposed), and the rest.

    Returns:
        ``(map, extra)``: ``map[key] = [initializer name, transposed]``; ``extra[key]`` = the
        float32 numpy value of weights the graph does not hold (the CRF, kept in ``onnx.json``, left out).
    """
    import numpy as np
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(fp32_path)).graph
    by_shape: dict[tuple[int, ...], list[tuple[str, Any]]] = {}
    for init in graph.initializer:
        arr = numpy_helper.to_array(init)
        by_shape.setdefault(tuple(arr.shape), []).append((init.name, arr))
    mapping: dict[str, list[Any]] = {}
    extra: dict[str, Any] = {}
    for key, value in tagger.state_dict().items():
        if key.startswith("crf."):
            continue
        v = value.detach().cpu().numpy()
        hit = next(
            (n for n, a in by_shape.get(tuple(v.shape), []) if a.dtype == v.dtype and np.array_equal(a, v)),
            None,
        )
        if hit is not None:
            mapping[key] = [hit, False]
            continue
        if v.ndim == 2:
            t = v.T
            hit = next((n for n, a in by_shape.get(tuple(t.shape), []) if np.array_equal(a, t)), None)
            if hit is not None:
                mapping[key] = [hit, True]
                continue
        extra[key] = v
    return mapping, extra
