"""Throughput of ``redact``: documents/s, tokens/s and peak RSS per detector configuration.

Each configuration runs in a fresh subprocess (so peak RSS is its own) over a fixed set of notes:
the 100 English zero-shot notes (folders a-j, filled with seeded surrogates) closest to 500 words. Every run redacts all notes in placeholder mode through
``Deidentifier.redact_many`` (the code path of ``phiscrub redact``), after one warm-up note.

Configurations: ``rules`` (rule detectors only), ``model`` (rules + the bundled model, default
precision: bfloat16 autocast on CPUs with native bf16, else float32), ``model-fp32`` (forced float32),
``model-int8`` (dynamic int8 quantization of the linear layers), ``model-crf`` (another model folder,
e.g. one trained without/with ``--crf``, given by ``--crf-model``).

Long notes (``--long-mb 5,50``): one note of each size, built by joining the benchmark notes until
the size is reached (``--one-line`` writes it as a single line), redacted whole by each of
``--long-configs`` (``rules``, ``model``) in its own subprocess: seconds, MB/s, spans, peak RSS.
``--scaling-mb X`` times name propagation alone and the whole rules-only pipeline on notes of X and
2X MB (CPU seconds of the process, best of ``--repeats``) and prints time(2X)/time(X) (about 2 is
linear; the old propagation gave about 4).

Usage:
    python benchmarks/throughput.py [--configs rules,model,model-fp32,model-int8] [--model DIR] [--crf-model DIR]
        [--threads 2] [--batch-size 16] [--out docs/benchmarks-table.md]
    python benchmarks/throughput.py --configs "" --long-mb 5,50 --long-configs rules,model [--one-line]
    python benchmarks/throughput.py --configs "" --scaling-mb 2 [--one-line]
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


def long_note(megabytes: float, one_line: bool = False) -> str:
    """One note of about ``megabytes`` MB (UTF-8): the benchmark notes joined, repeated to the size."""
    body = "\n\n".join(d.text for d in corpus())
    if one_line:
        body = " ".join(body.split())
    target = int(megabytes * 1_000_000)
    reps = target // len(body.encode("utf-8")) + 1
    sep = " " if one_line else "\n\n"
    text = sep.join([body] * reps)
    return text[:target]


def _peak_rss_mb() -> int:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def run_long(
    config: str, megabytes: float, one_line: bool, model: str | None, threads: int, batch_size: int
) -> dict:
    """Redact one long note with one configuration in this process; return its measurements."""
    import torch

    torch.set_num_threads(threads)
    from phiscrub.deid import Deidentifier
    from phiscrub.document import Document

    text = long_note(megabytes, one_line)
    # The default pipeline of `phiscrub redact` (rules-only: --rules-only), not a hand-built one.
    deid = Deidentifier(mode="placeholder", model=None if config == "rules" else (model or "default"))
    list(deid.redact_many([Document("warm-up", corpus()[0].text)]))  # loads lists / the model
    rss_before = _peak_rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    spans = sum(len(r.spans) for r in deid.redact_many([Document("long", text)]))
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    size_mb = len(text.encode("utf-8")) / 1e6
    return {
        "config": config,
        "shape": "one line" if one_line else "lines",
        "mb": round(size_mb, 1),
        "seconds": round(secs, 1),
        "cpu_seconds": round(cpu, 1),
        "mb_per_s": round(size_mb / secs, 3),
        "spans": spans,
        "peak_rss_mb": _peak_rss_mb(),
        "rss_before_mb": rss_before,
        "threads": threads,
    }


def _timed(fn, *args) -> float:  # type: ignore[no-untyped-def]
    """CPU seconds of this process for ``fn(*args)``: steadier than wall time on a shared machine."""
    t0 = time.process_time()
    fn(*args)
    return time.process_time() - t0


def run_scaling(megabytes: float, one_line: bool, repeats: int = 3) -> dict:
    """time(2x)/time(x) of name propagation alone and of the rules-only pipeline (one process)."""
    from phiscrub.deid import Deidentifier
    from phiscrub.detect.ensemble import resolve
    from phiscrub.detect.propagate import propagate_names
    from phiscrub.document import Document

    deid = Deidentifier(mode="placeholder", model=None)
    list(deid.redact_many([Document("warm-up", corpus()[0].text)]))
    out: dict = {"shape": "one line" if one_line else "lines", "x_mb": megabytes, "repeats": repeats}
    times: dict[str, list[float]] = {"propagate": [], "pipeline": []}
    deid_no_prop = Deidentifier(mode="placeholder", model=None, propagate=False)
    for k, size in enumerate((megabytes, 2 * megabytes)):
        doc = Document("long", long_note(size, one_line))
        spans = resolve(deid_no_prop.detect(doc))
        if k == 0:
            propagate_names(doc, spans)  # warm-up: loads the word lists of the lower-case guard
        # Best of `repeats` runs: the machine is shared, the minimum is the least disturbed.
        best = min(_timed(propagate_names, doc, spans) for _ in range(repeats))
        times["propagate"].append(best)
        times["pipeline"].append(
            min(_timed(lambda d: list(deid.redact_many([d])), doc) for _ in range(repeats))
        )
    for name, (t1, t2) in times.items():
        out[f"{name}_x_s"] = round(t1, 2)
        out[f"{name}_2x_s"] = round(t2, 2)
        out[f"{name}_ratio"] = round(t2 / t1, 2)
    return out


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
    parser.add_argument("--long-mb", default="", help="long-note sizes in MB, e.g. 5,50 (none by default)")
    parser.add_argument("--long-configs", default="rules,model", help="configurations for long notes")
    parser.add_argument("--one-line", action="store_true", help="long notes as one single line")
    parser.add_argument(
        "--scaling-mb", type=float, default=None, help="propagation scaling check at X and 2X MB"
    )
    parser.add_argument("--repeats", type=int, default=3, help="scaling check: best of this many runs")
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--one-long", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.model, args.threads, args.batch_size)))
        return
    if args.one_long:
        config, mb = args.one_long.split(":")
        print(
            json.dumps(run_long(config, float(mb), args.one_line, args.model, args.threads, args.batch_size))
        )
        return
    tables: list[str] = []
    if args.scaling_mb:
        r = run_scaling(args.scaling_mb, args.one_line, args.repeats)
        print(r, file=sys.stderr)
        tables.append(
            f"Scaling ({r['shape']}, CPU seconds, best of {r['repeats']}), x = {r['x_mb']} MB: propagation {r['propagate_x_s']} s -> "
            f"{r['propagate_2x_s']} s, time(2x)/time(x) = {r['propagate_ratio']}; rules-only pipeline "
            f"{r['pipeline_x_s']} s -> {r['pipeline_2x_s']} s, time(2x)/time(x) = {r['pipeline_ratio']}\n"
        )
    if args.long_mb:
        lines = [
            "| configuration | note | MB | seconds | CPU seconds | MB/s | spans | peak RSS (MB) | threads |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for mb in args.long_mb.split(","):
            for config in args.long_configs.split(","):
                cmd = [
                    sys.executable,
                    __file__,
                    "--one-long",
                    f"{config}:{mb}",
                    "--threads",
                    str(args.threads),
                ]
                cmd += ["--batch-size", str(args.batch_size)] + (["--one-line"] if args.one_line else [])
                if args.model:
                    cmd += ["--model", args.model]
                run = subprocess.run(cmd, check=True, capture_output=True, text=True)
                r = json.loads(run.stdout.strip().splitlines()[-1])
                print(r, file=sys.stderr)
                lines.append(
                    f"| {r['config']} | {r['shape']} | {r['mb']} | {r['seconds']} | {r['cpu_seconds']} | {r['mb_per_s']} | "
                    f"{r['spans']} | {r['peak_rss_mb']} | {r['threads']} |"
                )
        tables.append("\n".join(lines) + "\n")
    configs = [c for c in args.configs.split(",") if c]
    if not configs:
        text = f"Machine: {machine()}\n\n" + "\n".join(tables)
        print(text)
        if args.out:
            args.out.write_text(text, encoding="utf-8")
        return
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
