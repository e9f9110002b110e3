"""Static (calibrated) int8 against the shipped dynamic int8 ONNX model (issue 12): CPU and agreement.

The shipped model's graph is quantized by ``onnxruntime.quantization.quantize_dynamic`` (int8
weights per output channel; activations quantized on the fly, fused into ``DynamicQuantizeMatMul``).
This script builds static variants of the same float32 graph with ``quantize_static`` and measures,
for each against the dynamic folder:

* CPU seconds of the ONNX Runtime forward pass and of the whole redaction (rules + model, after
  one warm-up note) over the 200 short notes of ``benchmarks/throughput.py`` (``short_corpus()``),
  one intra-op thread, each run in a fresh process, every variant alternating with the others;
* agreement with the torch path (float32) on the synthetic dev of ``benchmarks/onnx_path.py``:
  differing word tags and documents with differing spans.

Calibration data: the model inputs (windows, batched as the ONNX tagger batches them) of ``--notes``
zero-shot *train* notes (every k-th, filled by ``PlaceholderReader``, seed 11, realism rewrite as
in training), recorded from :class:`phiscrub.detect.onnx_tagger.OnnxModel` on the float32 export;
never the dev notes of the agreement figure nor the out-of-distribution test. Every variant is
first run through ``quant_pre_process`` (shape inference and graph clean-up).

Folders: ``PREFIX-fp32`` (float32) and ``PREFIX-dyn`` (dynamic int8: the shipped folder's graph)
are exported from ``--torch`` when missing; each variant goes to ``PREFIX-<name>``.

Usage:
    OMP_NUM_THREADS=1 python benchmarks/static_int8.py [--torch build/torch-default] [--prefix build/quant]
        [--variants qdq,qoperator,...] [--notes 40] [--repeats 2] [--out build/quant-static.json]
    OMP_NUM_THREADS=1 python benchmarks/static_int8.py --profile --variants qdq   # after a run: kernel
        time by operator of PREFIX-dyn and PREFIX-qdq over 12 calibration batches
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "scripts"))

#: Attention score/context products, the word pooling product and the output head: left float
#: where a variant quantizes weight products only.
NOT_WEIGHTS = r"self/MatMul|^/MatMul$|^/head/"
#: The feed-forward output products (their input is the GELU output, with the widest range).
FFN_OUT = r"layer\.\d+/output/dense/MatMul$"

#: name -> quantize_static settings (and, for ``dynamic_ffn``, a dynamic pass over FFN_OUT after).
VARIANTS: dict[str, dict[str, Any]] = {
    "qdq": {"format": "QDQ", "exclude": NOT_WEIGHTS},
    "qdq-all-matmul": {"format": "QDQ"},
    "qoperator": {"format": "QOperator"},
    "qoperator-weights": {"format": "QOperator", "extra": {"MatMulConstBOnly": True}},
    "qdq-s8s8": {"format": "QDQ", "exclude": NOT_WEIGHTS, "activation": "QInt8"},
    "qdq-per-tensor": {"format": "QDQ", "exclude": NOT_WEIGHTS, "per_channel": False},
    "qdq-percentile": {"format": "QDQ", "exclude": NOT_WEIGHTS, "method": "Percentile"},
    "qdq-entropy": {"format": "QDQ", "exclude": NOT_WEIGHTS, "method": "Entropy"},
    "qdq-ffn-float": {"format": "QDQ", "exclude": f"{NOT_WEIGHTS}|{FFN_OUT}"},
    "qdq-ffn-dynamic": {"format": "QDQ", "exclude": f"{NOT_WEIGHTS}|{FFN_OUT}", "dynamic_ffn": True},
}
_PADS = {"input_ids": 0, "attention_mask": 0, "sub_slot": -1, "shape_ids": 0, "length_ids": 0}


def calibration_docs(n: int) -> list[Any]:
    """``n`` zero-shot train notes (every k-th), filled once (seed 11) with the training realism."""
    from build_default_model import fill, split_notes

    train, _dev = split_notes()
    return fill(train[:: max(1, len(train) // n)][:n], 1, 11, 1.0, "zeroshot")


def calibration_feeds(fp32_dir: Path, n: int) -> list[dict[str, Any]]:
    """The session inputs the ONNX tagger builds for the calibration notes (its own windows and batches)."""
    from phiscrub.detect.onnx_tagger import OnnxModel, predict_words_onnx

    feeds: list[dict[str, Any]] = []
    model = OnnxModel(fp32_dir, num_threads=1)
    session = model.session

    class Recorder:
        def run(self, names: list[str], feed: dict[str, Any]) -> Any:
            feeds.append({k: v.copy() for k, v in feed.items()})
            return session.run(names, feed)

    model.session = Recorder()
    docs = calibration_docs(n)
    predict_words_onnx(model, docs)
    print(f"calibration: {len(docs)} notes, {len(feeds)} batches", file=sys.stderr)
    return feeds


def same_shape(feeds: list[dict[str, Any]], rows: int = 8) -> list[dict[str, Any]]:
    """The same windows re-batched to one shape: the histogram calibrators (Percentile, Entropy)
    stack their batches and fail on batches of different lengths."""
    import numpy as np

    n_in = max(f["input_ids"].shape[1] for f in feeds)
    n_w = max(f["shape_ids"].shape[1] for f in feeds)
    whole = {}
    for key, pad in _PADS.items():
        width = n_w if key in ("shape_ids", "length_ids") else n_in
        parts = []
        for f in feeds:
            a = np.full((f[key].shape[0], width), pad, dtype=np.int64)
            a[:, : f[key].shape[1]] = f[key]
            parts.append(a)
        whole[key] = np.concatenate(parts)
    total = len(whole["input_ids"]) // rows * rows
    return [{k: v[i : i + rows] for k, v in whole.items()} for i in range(0, total, rows)]


def node_names(model_path: Path, pattern: str) -> list[str]:
    """Names of the graph's nodes that match ``pattern``."""
    import onnx

    return [node.name for node in onnx.load(str(model_path)).graph.node if re.search(pattern, node.name)]


def build_variant(
    name: str, spec: dict[str, Any], pre: Path, dyn_dir: Path, feeds: list[dict[str, Any]], out: Path
) -> float:
    """Quantize ``pre`` statically per ``spec`` into a copy of the dynamic folder; returns CPU seconds."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )

    method = spec.get("method", "MinMax")
    batches = feeds if method == "MinMax" else same_shape(feeds)

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.rest: Iterator[dict[str, Any]] = iter(batches)

        def get_next(self) -> dict[str, Any] | None:
            return next(self.rest, None)

    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(dyn_dir, out)
    target = out / "tagger.onnx"
    start = time.process_time()
    with tempfile.TemporaryDirectory(prefix="phiscrub-static-") as tmp:
        static = Path(tmp) / "static.onnx" if spec.get("dynamic_ffn") else target
        quantize_static(
            str(pre),
            str(static),
            Reader(),
            quant_format=getattr(QuantFormat, spec["format"]),
            op_types_to_quantize=["MatMul"],
            per_channel=spec.get("per_channel", True),
            activation_type=getattr(QuantType, spec.get("activation", "QUInt8")),
            weight_type=QuantType.QInt8,
            calibrate_method=getattr(CalibrationMethod, method),
            nodes_to_exclude=node_names(pre, spec["exclude"]) if "exclude" in spec else None,
            extra_options=spec.get("extra", {}),
        )
        if spec.get("dynamic_ffn"):
            ffn = node_names(static, FFN_OUT)
            quantize_dynamic(
                str(static), str(target), weight_type=QuantType.QInt8, per_channel=True, nodes_to_quantize=ffn
            )
    info = json.loads((out / "onnx.json").read_text(encoding="utf-8"))
    info["quantize"] = f"static ({name})"
    (out / "onnx.json").write_text(json.dumps(info) + "\n", encoding="utf-8")
    return time.process_time() - start


def bench_one(folder: str) -> dict[str, Any]:
    """In this (fresh) process, one thread: CPU s of the forward pass and of redacting the 200 short notes."""
    os.environ["PHISCRUB_THREADS"] = "1"
    from throughput import short_corpus

    from phiscrub.deid import Deidentifier
    from phiscrub.detect.onnx_tagger import OnnxModel

    spent = [0.0]
    forward = OnnxModel.run

    def timed(self: OnnxModel, chunk: Any) -> Any:
        c = time.process_time()
        try:
            return forward(self, chunk)
        finally:
            spent[0] += time.process_time() - c

    OnnxModel.run = timed  # type: ignore[method-assign]
    docs = short_corpus()
    deid = Deidentifier(mode="placeholder", model=folder, policy="safe-harbor")
    list(deid.redact_many(docs[:1]))
    spent[0] = 0.0
    c0 = time.process_time()
    for i in range(0, len(docs), 16):
        list(deid.redact_many(docs[i : i + 16]))
    return {"forward_cpu_s": round(spent[0], 2), "total_cpu_s": round(time.process_time() - c0, 2)}


def op_profile(folder: Path, feeds: list[dict[str, Any]]) -> str:
    """Share of ONNX Runtime kernel time by operator (one thread) over ``feeds``."""
    from collections import Counter

    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.enable_profiling = True
    with tempfile.TemporaryDirectory(prefix="phiscrub-prof-") as tmp:
        options.profile_file_prefix = str(Path(tmp) / "prof")
        session = ort.InferenceSession(
            str(folder / "tagger.onnx"), options, providers=["CPUExecutionProvider"]
        )
        for feed in feeds:
            session.run(["scores"], feed)
        events = json.loads(Path(session.end_profiling()).read_text(encoding="utf-8"))
    by_op: Counter[str] = Counter()
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            by_op[e["args"]["op_name"]] += e["dur"]
    total = sum(by_op.values())
    shares = ", ".join(f"{op} {us / total:.1%}" for op, us in by_op.most_common(12))
    return f"{folder}: kernel time {total / 1e6:.2f} s; {shares}"


def torch_predictions(torch_dir: str) -> list[Any]:
    """The torch path's (float32, one thread) word predictions on the synthetic dev of ``onnx_path.py``."""
    import torch
    from build_default_model import fill, split_notes

    from phiscrub.detect.tagger import TaggerDetector

    torch.set_num_threads(1)
    _, dev = split_notes()
    return TaggerDetector.load(torch_dir, precision="float32").predict(
        fill(dev, draws=1, seed=1, realism=0.0)
    )


def agreement(folder: Path, reference: list[Any]) -> dict[str, Any]:
    """Differing word tags / documents with differing spans of ``folder`` against ``reference``."""
    from build_default_model import fill, split_notes
    from onnx_path import compare

    from phiscrub.detect.onnx_tagger import OnnxTaggerDetector

    _, dev = split_notes()
    onnx_preds = OnnxTaggerDetector.load(folder, num_threads=1).predict(
        fill(dev, draws=1, seed=1, realism=0.0)
    )
    return compare(reference, onnx_preds)


def export_base(torch_dir: str, prefix: str) -> tuple[Path, Path]:
    """``PREFIX-fp32`` and ``PREFIX-dyn`` (ONNX-only, as shipped), exported when missing."""
    from phiscrub.train.onnx_export import install_onnx

    fp32, dyn = Path(f"{prefix}-fp32"), Path(f"{prefix}-dyn")
    for folder, quantize in ((fp32, "none"), (dyn, "int8")):
        if not (folder / "tagger.onnx").is_file():
            install_onnx(torch_dir, folder, quantize=quantize)
    return fp32, dyn


def cpu_rows(folders: dict[str, Path], repeats: int) -> dict[str, list[dict[str, Any]]]:
    """Each folder benchmarked ``repeats`` times in fresh processes, all folders alternating."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in folders}
    for _ in range(repeats):
        for name, folder in folders.items():
            out = subprocess.run(
                [sys.executable, __file__, "--bench-one", str(folder)],
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "OMP_NUM_THREADS": "1"},
            ).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
            print(f"{name}: {runs[name][-1]}", file=sys.stderr)
    return runs


def table(rows: dict[str, dict[str, Any]]) -> str:
    """Markdown table of the results, the dynamic folder first."""
    lines = [
        "| variant | forward pass CPU s | whole redaction CPU s | differing word tags (dev) | share | notes with differing spans |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():
        fwd = " / ".join(f"{r['forward_cpu_s']:.2f}" for r in row["cpu"])
        tot = " / ".join(f"{r['total_cpu_s']:.2f}" for r in row["cpu"])
        a = row["agreement"]
        lines.append(
            f"| {name} | {fwd} | {tot} | {a['differing_words']} of {a['words']} | "
            f"{a['differing_share']:.2%} | {a['documents_with_differing_spans']} of {a['documents']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--torch", default="build/torch-default", help="The torch folder of the model.")
    parser.add_argument(
        "--prefix", default="build/quant", help="Folders PREFIX-fp32, PREFIX-dyn, PREFIX-<variant>."
    )
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="Comma-separated; of: " + ", ".join(VARIANTS)
    )
    parser.add_argument("--notes", type=int, default=40, help="Calibration notes.")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, help="Write the results as JSON here.")
    parser.add_argument(
        "--profile", action="store_true", help="Only: kernel time by operator of the existing folders."
    )
    parser.add_argument("--bench-one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bench_one:
        print(json.dumps(bench_one(args.bench_one)))
        return
    from onnxruntime.quantization.shape_inference import quant_pre_process

    fp32, dyn = export_base(args.torch, args.prefix)
    feeds = calibration_feeds(fp32, args.notes)
    if args.profile:
        for name in ["dyn", *args.variants.split(",")]:
            print(op_profile(Path(f"{args.prefix}-{name}"), feeds[:12]))
        return
    folders = {"dynamic (shipped)": dyn}
    quant_s: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="phiscrub-pre-") as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(fp32 / "tagger.onnx"), str(pre), skip_symbolic_shape=True)
        for name in args.variants.split(","):
            folders[name] = Path(f"{args.prefix}-{name}")
            quant_s[name] = build_variant(name, VARIANTS[name], pre, dyn, feeds, folders[name])
    reference = torch_predictions(args.torch)
    rows = {name: {"agreement": agreement(folder, reference)} for name, folder in folders.items()}
    for name, runs in cpu_rows(folders, args.repeats).items():
        rows[name]["cpu"] = runs
        rows[name]["quantize_cpu_s"] = round(quant_s.get(name, 0.0), 1)
    print(table(rows))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        meta = {"notes": args.notes, "repeats": args.repeats, "torch": args.torch, "load": os.getloadavg()}
        args.out.write_text(json.dumps({"settings": meta, "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
