"""Torch weights rebuilt from an ONNX export, so a folder shipped without ``tagger.safetensors`` loads in torch.

:func:`phiscrub.train.onnx_export.export_onnx` records in ``onnx.json`` which graph initializer holds
each torch weight (``torch_weights``) and writes what the graph lacks to ``torch_extra.npz``; this
module reads them back (:func:`torch_state_from_onnx`) for :func:`phiscrub.tagger.base.read_weights`.
Needs ``onnx`` only when a folder is actually rebuilt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from phiscrub.errors import ModelError

__all__ = [
    "EXTRA_WEIGHTS_FILE",
    "ONNX_CONFIG",
    "ONNX_FILE",
    "has_torch_weights_in_graph",
    "torch_state_from_onnx",
]

#: File names of an exported folder.
ONNX_FILE = "tagger.onnx"
ONNX_CONFIG = "onnx.json"
#: Weights of the torch model that the graph does not hold (e.g. the unused BERT pooler), float32.
EXTRA_WEIGHTS_FILE = "torch_extra.npz"


def has_torch_weights_in_graph(folder: str | Path) -> bool:
    """True when ``folder`` holds an ONNX export that can stand in for the torch weights."""
    path = Path(folder) / ONNX_CONFIG
    if not (path.is_file() and (Path(folder) / ONNX_FILE).is_file()):
        return False
    try:
        return bool(json.loads(path.read_text(encoding="utf-8")).get("torch_weights"))
    except (OSError, ValueError):
        return False


def torch_state_from_onnx(folder: str | Path) -> dict[str, torch.Tensor]:
    """The torch state dict of an exported folder, rebuilt from the graph's initializers.

    int8 initializers are dequantized (``(q - zero_point) * scale``, per tensor or per output
    column), so an int8 export gives the weights the ONNX path computes with; the CRF comes from
    ``onnx.json`` and anything else the graph lacks from ``torch_extra.npz``.

    Raises:
        ModelError: the folder has no such export, or an initializer is missing.
    """
    import numpy as np
    import onnx
    from onnx import numpy_helper

    folder = Path(folder)
    if not has_torch_weights_in_graph(folder):
        raise ModelError(
            f"model folder {folder} has neither tagger.safetensors nor an ONNX export to rebuild it"
        )
    info = json.loads((folder / ONNX_CONFIG).read_text(encoding="utf-8"))
    inits = {i.name: i for i in onnx.load(str(folder / info.get("onnx", ONNX_FILE))).graph.initializer}

    def array(name: str) -> Any:
        if name in inits:
            return numpy_helper.to_array(inits[name]).astype(np.float32)
        if name + "_quantized" not in inits:
            raise ModelError(f"{folder / ONNX_FILE} has no initializer for a torch weight")
        q = numpy_helper.to_array(inits[name + "_quantized"]).astype(np.float32)
        scale = numpy_helper.to_array(inits[name + "_scale"]).astype(np.float32)
        zero = numpy_helper.to_array(inits[name + "_zero_point"]).astype(np.float32)
        if scale.ndim == 1 and scale.shape[0] > 1:  # per channel: the graph's output columns
            return (q - zero[None, :]) * scale[None, :]
        return (q - zero) * scale

    state: dict[str, torch.Tensor] = {}
    for key, (name, transposed) in info["torch_weights"].items():
        value = array(name)
        state[key] = torch.from_numpy(np.ascontiguousarray(value.T if transposed else value))
    extra = folder / EXTRA_WEIGHTS_FILE
    if extra.is_file():
        with np.load(extra) as data:
            for key in data.files:
                state[key] = torch.from_numpy(np.array(data[key]))
    crf = info.get("crf")
    if crf is not None:
        state["crf.transitions"] = torch.tensor(crf["transitions"], dtype=torch.float32)
        state["crf.start_transitions"] = torch.tensor(crf["start"], dtype=torch.float32)
        state["crf.end_transitions"] = torch.tensor(crf["end"], dtype=torch.float32)
    return state
