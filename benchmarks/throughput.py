"""Throughput of ``redact``: documents/s, tokens/s and peak RSS per detector configuration.

Each configuration runs in a fresh subprocess (so peak RSS is its own) over a fixed set of notes:
the 100 English zero-shot notes (folders a-j, filled with seeded surrogates) closest to 500 words. Every run redacts all notes in placeholder mode through
``Deidentifier.redact_many`` (the code path of ``phiscrub redact``), after one warm-up note.

Configurations: ``rules`` (rule detectors only), ``model`` (rules + the bundled model, default
precision: bfloat16 autocast on CPUs with native bf16, else float32), ``model-fp32`` (forced float32),
``model-int8`` (dynamic int8 quantization of the linear layers), ``model-crf`` (another model folder,
e.g. one trained without/with ``--crf``, given by ``--crf-model``).

Usage:
    python benchmarks/throughput.py [--configs rules,model,model-fp32,model-int8] [--model DIR] [--crf-model DIR]
        [--threads 2] [--batch-size 16] [--out docs/benchmarks-table.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "data" / "zeroshot-notes"


def corpus() -> list:
    """The fixed benchmark notes: the 100 English zero-shot notes (filled with seed 2024) whose
    length is closest to 500 words."""
    from phiscrub.document import Document
    from phiscrub.transform.fill import PlaceholderReader

    docs = []
    for folder in "abcdefghij":
        for d in PlaceholderReader(seed=2024, lang="en").read(NOTES / folder):
            docs.append(Document(f"{folder}/{d.id}", d.text))
    docs.sort(key=lambda d: (abs(len(d.text.split()) - 500), d.id))
    return sorted(docs[:100], key=lambda d: d.id)


def run_one(config: str, model: str | None, threads: int, batch_size: int) -> dict:
    """Run one configuration in this process and return its measurements."""
    import torch

    torch.set_num_threads(threads)
    from phiscrub.deid import Deidentifier
    from phiscrub.text import tokenize

    docs = corpus()
    quantize = config.endswith("-int8")
    precision = "float32" if config.endswith(("-fp32", "-int8")) else "auto"
    deid = Deidentifier(mode="placeholder", model=None)
    if config != "rules":
        from phiscrub.detect.rules import default_detectors
        from phiscrub.detect.tagger import load_model_detector

        det = load_model_detector(
            model or "default", quantize=quantize, batch_size=batch_size, precision=precision
        )
        deid = Deidentifier(mode="placeholder", model=None, detectors=[*default_detectors(), det])
    list(deid.redact_many(docs[:1]))  # warm-up: loads lexicons / model
    t0 = time.perf_counter()
    spans = sum(len(r.spans) for r in deid.redact_many(docs, batch_size=batch_size))
    secs = time.perf_counter() - t0
    tokens = sum(len(tokenize(d.text)) for d in docs)
    words = sum(len(d.text.split()) for d in docs)
    return {
        "config": config,
        "docs": len(docs),
        "words_per_doc": round(words / len(docs)),
        "seconds": round(secs, 2),
        "docs_per_s": round(len(docs) / secs, 2),
        "tokens_per_s": round(tokens / secs),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "spans": spans,
        "threads": threads,
        "batch_size": batch_size,
    }


def machine() -> str:
    """One line describing the machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import torch

    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}, torch {torch.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--configs", default="rules,model,model-fp32,model-int8")
    parser.add_argument("--model", default=None, help="model folder (default: the bundled model)")
    parser.add_argument(
        "--crf-model", default=None, help="a model trained with --crf, benchmarked as 'model-crf'"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.model, args.threads, args.batch_size)))
        return
    configs = args.configs.split(",")
    if args.crf_model:
        configs.append("model-crf")
    rows = []
    for config in configs:
        model = args.crf_model if config == "model-crf" else args.model
        cmd = [
            sys.executable,
            __file__,
            "--one",
            config,
            "--threads",
            str(args.threads),
            "--batch-size",
            str(args.batch_size),
        ]
        if model:
            cmd += ["--model", model]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        rows.append(json.loads(out))
        print(rows[-1], file=sys.stderr)
    lines = [
        f"Machine: {machine()}",
        "",
        "| configuration | notes | words/note | seconds | notes/s | tokens/s | peak RSS (MB) | threads | batch |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['config']} | {r['docs']} | {r['words_per_doc']} | {r['seconds']} | {r['docs_per_s']} | "
            f"{r['tokens_per_s']} | {r['peak_rss_mb']} | {r['threads']} | {r['batch_size']} |"
        )
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
