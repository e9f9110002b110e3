"""The ONNX inference path against the torch path: start-up, peak RSS, throughput, agreement.

Each measurement of a backend runs in a fresh subprocess (``--one``), so its start-up and peak RSS
are its own:

* start-up: wall seconds from process start (interpreter, ``import phiscrub``, model load) to the
  first note redacted (one ~500-word benchmark note, ``Deidentifier.redact_many``, placeholder mode);
* throughput: then the 100 benchmark notes of ``benchmarks/throughput.py`` (zero-shot notes closest
  to 500 words, batches of 16), notes/s of that part alone;
* peak RSS of the whole process, and whether torch / transformers were imported.

Agreement (``--agreement``, in this process): share of word tags that differ between the ONNX
folder and the torch path on the synthetic dev split of ``scripts/build_default_model.py``
(zero-shot notes of the dev numbers, filled by ``PlaceholderReader``, seed 1, one draw), and the
number of documents whose model spans differ.

Also: ``phiscrub redact`` on one note as a whole process (``cli_startup``: interpreter, imports,
model load, the note, the output files), median of 3, and its peak RSS; ``rules`` rows are the
rules-only baseline.

The bundled model ships as an ONNX-only folder; keep the torch folder it was exported from (e.g.
``build/torch-default``, a copy of ``src/phiscrub/resources/model`` before ``install_onnx``) to
compare against.

Usage:
    python benchmarks/onnx_path.py [--onnx src/phiscrub/resources/model] [--torch build/torch-default]
        [--threads 2] [--agreement | --agreement-only] [--out build/onnx-bench.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "scripts"))


def run_one(backend: str, model: str, threads: int) -> dict:
    """In a fresh process: load, redact one note (start-up), then the 100 notes (throughput)."""
    start = time.perf_counter()
    from phiscrub.deid import Deidentifier
    from phiscrub.detect.rules import default_detectors
    from phiscrub.detect.tagger import load_model_detector

    if backend == "torch":
        import torch

        torch.set_num_threads(threads)
    os.environ["PHISCRUB_THREADS"] = str(threads)
    detectors = list(default_detectors())
    detector = None if backend == "rules" else load_model_detector(model, backend=backend)
    deid = Deidentifier(
        mode="placeholder", model=None, detectors=[*detectors, *([detector] if detector else [])]
    )
    from throughput import corpus

    docs = corpus()
    deid.redact_many(docs[:1])
    startup = time.perf_counter() - start
    t0 = time.perf_counter()
    n = 0
    for i in range(0, len(docs), 16):
        n += len(list(deid.redact_many(docs[i : i + 16], batch_size=16)))
    elapsed = time.perf_counter() - t0
    return {
        "backend": backend,
        "model": model,
        "detector": type(detector).__name__ if detector else "rules only",
        "startup_s": round(startup, 2),
        "notes": n,
        "notes_per_s": round(n / elapsed, 2),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "torch_imported": "torch" in sys.modules,
        "transformers_imported": "transformers" in sys.modules,
    }


def cli_startup(backend: str, model: str, runs: int = 3) -> dict:
    """``phiscrub redact`` on one benchmark note, as a whole process: median wall s, peak RSS (MB).

    The process is ``python -m phiscrub.cli redact NOTE -o OUT --model MODEL`` with
    ``$PHISCRUB_BACKEND`` set to ``backend`` (``rules``: ``--rules-only``), so the figure holds
    interpreter start, imports, model load, the note and the output files.
    """
    import statistics
    import tempfile

    from throughput import corpus

    walls, rss = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        note = Path(tmp) / "note.txt"
        note.write_text(corpus()[0].text, encoding="utf-8")
        for k in range(runs):
            out = Path(tmp) / f"out{k}"
            cmd = [sys.executable, "-m", "phiscrub.cli", "redact", str(note), "-o", str(out)]
            cmd += ["--rules-only"] if backend == "rules" else ["--model", model]
            env = {**os.environ, "PHISCRUB_BACKEND": "auto" if backend == "rules" else backend}
            t0 = time.perf_counter()
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - t0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                raise RuntimeError(f"{backend}: redact exited {proc.returncode}")
            rss = max(rss, usage.ru_maxrss // 1024)
    return {"backend": backend, "cli_startup_s": round(statistics.median(walls), 2), "cli_peak_rss_mb": rss}


def agreement(onnx_dir: str, torch_dir: str, threads: int) -> dict:
    """Differing word tags and documents with differing spans, ONNX vs torch, on the synthetic dev."""
    import torch
    from build_default_model import fill, split_notes

    from phiscrub.detect.onnx_tagger import OnnxTaggerDetector
    from phiscrub.detect.tagger import TaggerDetector

    torch.set_num_threads(threads)
    _, dev = split_notes()
    docs = fill(dev, draws=1, seed=1, realism=0.0)
    t = TaggerDetector.load(torch_dir, precision="float32")
    o = OnnxTaggerDetector.load(onnx_dir, num_threads=threads)
    return compare(t.predict(docs), o.predict(docs))


def compare(tp: list, op: list) -> dict:
    """Differing word tags and documents with differing spans between two paths' word predictions."""
    words = sum(len(p.tags) for p in tp)
    differ = sum(a != b for p, q in zip(tp, op) for a, b in zip(p.tags, q.tags))
    docs_differ = sum(
        [(s.start, s.end, s.label) for s in p.spans()] != [(s.start, s.end, s.label) for s in q.spans()]
        for p, q in zip(tp, op)
    )
    return {
        "documents": len(tp),
        "words": words,
        "differing_words": differ,
        "differing_share": round(differ / max(words, 1), 5),
        "documents_with_differing_spans": docs_differ,
    }


def machine() -> str:
    """The machine, in one line (cores, CPU, Python, onnxruntime)."""
    import platform

    import onnxruntime

    return (
        f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"onnxruntime {onnxruntime.__version__}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--onnx", default=str(ROOT / "src" / "phiscrub" / "resources" / "model"))
    parser.add_argument(
        "--torch",
        default=str(ROOT / "build" / "torch-default"),
        help="the torch folder the ONNX one was exported from (the bundled model ships ONNX only)",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--agreement", action="store_true")
    parser.add_argument("--agreement-only", action="store_true", help="only the agreement (no timings)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--one", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], args.threads)))
        return
    if args.agreement_only:
        result = {"agreement": agreement(args.onnx, args.torch, args.threads), "machine": machine()}
        print(json.dumps(result["agreement"]))
        if args.out:
            args.out.write_text(json.dumps(result, indent=2) + "\n")
        return
    startups = []
    for backend, model in (("rules", ""), ("onnx", args.onnx), ("torch", args.torch)):
        startups.append(cli_startup(backend, model))
        print(json.dumps(startups[-1]))
    rows = []
    for backend, model in (("rules", ""), ("onnx", args.onnx), ("torch", args.torch)):
        cmd = [sys.executable, __file__, "--one", backend, model, "--threads", str(args.threads)]
        t0 = time.perf_counter()
        run = subprocess.run(cmd, check=True, capture_output=True, text=True)
        row = json.loads(run.stdout.strip().splitlines()[-1])
        row["process_wall_s"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
        print(json.dumps(row))
    result: dict = {"startup": startups, "rows": rows, "machine": machine()}
    if args.agreement:
        result["agreement"] = agreement(args.onnx, args.torch, args.threads)
        print(json.dumps(result["agreement"]))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
