"""Scaling of ``phiscrub redact``: worker processes, streaming memory, and Apache Spark.

Three parts, each run in fresh subprocesses so that timings and peak memory are their own:

``workers``  documents/s of ``phiscrub redact notes.jsonl --workers N`` (rules + the bundled model,
             placeholder mode) for N = 1 and 2 on the same 2,000 notes, wall clock of the whole
             command (start-up and model loading included), and a byte-for-byte comparison of the
             outputs (redacted JSONL and ``phi_spans.jsonl``) with one worker's.
``stream``   peak RSS of ``phiscrub redact --rules-only`` on generated JSONL files of 100,000 and
             1,000,000 one-line notes (about 160 bytes each, made-up names, dates, MRNs, phone
             numbers), with the RSS sampled at 10%, 50% and 90% of the run: memory must not grow
             with the input.
``spark``    ``phiscrub.spark.redact`` on a local Spark session (``local[2]``) over the same 2,000
             notes in 25 partitions, written to Parquet: the first run (Python workers start and load
             the model) and a second, warm run; its redacted text is checked against the CLI's.

The 2,000 notes: the 350 English zero-shot notes of ``shared/data/zeroshot-notes`` (folders a-j),
their placeholders filled with seeded surrogates (seeds 2024-2029), the first 2,000.

Usage:
    python benchmarks/scaling.py [--parts workers,stream,spark] [--stream-sizes 100000,1000000]
        [--work build/scaling] [--json build/scaling/results.json] [--out build/scaling.md]

Each part adds its figures to the ``--json`` file (so parts can run separately); the markdown
tables of every part measured so far are written to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "data" / "zeroshot-notes"
N_NOTES = 2000
#: 25 partitions of 80 notes: whole batches of 16, as the CLI batches its input (see docs/spark.md).
SPARK_PARTITIONS = 25

# Runs the CLI, then writes the process's peak RSS (VmHWM, kB) to argv[1] (after exec: the parent's
# pages are not counted, as they are in wait4's ru_maxrss of a forked child).
_RUNNER = """
import sys
from pathlib import Path
from phiscrub.cli.app import main
report = Path(sys.argv.pop(1))
try:
    main()
finally:
    hwm = [l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM:")]
    report.write_text(hwm[0].split()[1])
"""

# Made-up people and places only.
_FIRST = ("Alma", "Boris", "Celia", "Dario", "Edda", "Farid", "Greta", "Hugo", "Ines", "Jonas")
_LAST = ("Quill", "Sovik", "Tamber", "Wexley", "Marlowe", "Okafor", "Lindqvist", "Brannigan")


def benchmark_notes(work: Path, n: int = N_NOTES) -> Path:
    """The first ``n`` (2,000) benchmark notes as JSONL (``id``, ``text``), written once under ``work``."""
    path = work / f"notes{n}.jsonl"
    if path.exists():
        return path
    from phiscrub.transform.placeholders import PlaceholderReader

    rows: list[dict[str, str]] = []
    for seed in range(2024, 2030):
        for folder in "abcdefghij":
            for d in PlaceholderReader(seed=seed, lang="en").read(NOTES / folder):
                rows.append({"id": f"{seed}/{folder}/{d.id}", "text": d.text})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows[:n]), encoding="utf-8")
    tmp.replace(path)
    return path


def stream_notes(path: Path, n: int) -> Path:
    """A JSONL file of ``n`` generated one-line notes (written once)."""
    if path.exists():
        return path
    rng = random.Random(n)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for i in range(n):
            text = (
                f"Patient {rng.choice(_FIRST)} {rng.choice(_LAST)} was seen on "
                f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/{rng.randint(2015, 2024)}. "
                f"MRN {rng.randint(100000, 999999)}. Call 555-{rng.randint(1000, 9999)}. "
                "BP 120/80, afebrile, plan follow-up in clinic in 2 weeks."
            )
            fh.write(json.dumps({"id": f"s{i}", "text": text}) + "\n")
    tmp.replace(path)
    return path


def run_cli(args: list[str], report: Path, sample_every: float = 0.0) -> dict[str, Any]:
    """Run ``phiscrub <args>``; wall seconds, peak RSS (MB) and sampled RSS (MB) of the process."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # stderr (progress bar, summary) into a file: a pipe nobody reads while sampling fills up and
    # blocks the run.
    log = report.with_suffix(".stderr")
    t0 = time.perf_counter()
    with log.open("w", encoding="utf-8") as err_fh:
        proc = subprocess.Popen(
            [sys.executable, "-c", _RUNNER, str(report), *args],
            stdout=subprocess.DEVNULL,
            stderr=err_fh,
            env=env,
        )
        samples: list[tuple[float, float]] = []
        status = Path(f"/proc/{proc.pid}/status")
        while proc.poll() is None:
            if sample_every > 0:
                try:
                    rss = [ln for ln in status.read_text().splitlines() if ln.startswith("VmRSS:")]
                    if rss:
                        samples.append((time.perf_counter() - t0, int(rss[0].split()[1]) / 1024))
                except OSError:
                    pass
            time.sleep(sample_every or 0.2)
    secs = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"phiscrub {' '.join(args[:2])} failed ({proc.returncode}):\n{tail}")
    return {"seconds": secs, "peak_rss_mb": int(report.read_text()) / 1024, "samples": samples}


def part_workers(
    work: Path, n: int, counts: list[int], previous: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Documents/s for each worker count on the ``n`` notes, and whether each output is identical to
    one worker's (the ``workers1`` folder: with ``counts`` lacking 1, a previous run's). Runs of
    ``previous`` for other counts are kept."""
    notes = benchmark_notes(work, n)
    kept = [r for r in (previous or {}).get("runs", []) if r["workers"] not in counts]
    runs: list[dict[str, Any]] = []
    for workers in counts:
        folder = work / f"workers{workers}"
        _rmtree(folder)
        args = ["redact", str(notes), "-o", str(folder), "--id-field", "id", "--workers", str(workers)]
        res = run_cli(args, work / f"rss-workers{workers}")
        runs.append(
            {
                "workers": workers,
                "seconds": round(res["seconds"], 1),
                "docs_per_s": round(n / res["seconds"], 2),
                "peak_rss_mb_main": round(res["peak_rss_mb"]),
            }
        )
        print(runs[-1], flush=True)
    all_runs = sorted(kept + runs, key=lambda r: r["workers"])
    one = _outputs(work / "workers1", notes.name)
    for r in all_runs:
        r["identical_to_1"] = _outputs(work / f"workers{r['workers']}", notes.name) == one
    return {"notes": n, "runs": all_runs}


def _outputs(folder: Path, name: str) -> dict[str, bytes]:
    return {f: (folder / f).read_bytes() for f in (name, "phi_spans.jsonl") if (folder / f).exists()}


def part_stream(work: Path, sizes: list[int], batch_size: int) -> dict[str, Any]:
    """Peak and sampled RSS of a rules-only run on generated JSONL of each size."""
    out: dict[str, Any] = {"batch_size": batch_size, "runs": []}
    for n in sizes:
        src = stream_notes(work / f"stream{n}.jsonl", n)
        folder = work / f"stream-out{n}"
        _rmtree(folder)
        args = ["redact", str(src), "-o", str(folder), "--rules-only", "--id-field", "id"]
        res = run_cli([*args, "--batch-size", str(batch_size)], work / f"rss-stream{n}", sample_every=1.0)
        written = sum(1 for _ in (folder / src.name).open("rb"))
        samples = res["samples"]
        at = {}
        for frac in (0.1, 0.5, 0.9):
            t = frac * res["seconds"]
            before = [rss for s, rss in samples if s <= t]
            at[f"rss_at_{int(frac * 100)}pct_mb"] = round(before[-1]) if before else None
        out["runs"].append(
            {
                "notes": n,
                "input_mb": round(src.stat().st_size / 1e6),
                "written": written,
                "seconds": round(res["seconds"], 1),
                "docs_per_s": round(n / res["seconds"], 1),
                "peak_rss_mb": round(res["peak_rss_mb"]),
                **at,
            }
        )
        print(out["runs"][-1], flush=True)
        _rmtree(folder)
    return out


def part_spark(work: Path, n: int) -> dict[str, Any]:
    """Spark local[2] over the ``n`` notes (in a child process: a fresh JVM and Python workers)."""
    notes = benchmark_notes(work, n)
    cli_out = work / "workers1" / notes.name
    result = work / "spark.json"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    cmd = [sys.executable, __file__, "--spark-child", str(notes), str(result), str(cli_out)]
    subprocess.run(cmd, check=True, env=env)
    out: dict[str, Any] = json.loads(result.read_text())
    print(out, flush=True)
    return out


def spark_child(notes: Path, result: Path, cli_out: Path) -> None:
    """Body of :func:`part_spark`, in its own process."""
    from pyspark.sql import SparkSession

    import phiscrub.spark as phispark

    t0 = time.perf_counter()
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("phiscrub-scaling")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    start_s = time.perf_counter() - t0
    rows = [json.loads(line) for line in notes.read_text(encoding="utf-8").splitlines()]
    data = spark.sparkContext.parallelize([(r["id"], r["text"]) for r in rows], SPARK_PARTITIONS)
    df = spark.createDataFrame(data, "id string, text string")
    runs = []
    for k in range(2):
        target = result.parent / f"spark-out{k}"
        t = time.perf_counter()
        phispark.redact(df, text_col="text", id_col="id").write.mode("overwrite").parquet(str(target))
        runs.append(time.perf_counter() - t)
    got = {r["id"]: r["text"] for r in spark.read.parquet(str(result.parent / "spark-out1")).collect()}
    spark.stop()
    identical = None
    if cli_out.exists():
        want = {r["id"]: r["text"] for r in map(json.loads, cli_out.read_text(encoding="utf-8").splitlines())}
        identical = want == got
    out = {
        "notes": len(rows),
        "partitions": SPARK_PARTITIONS,
        "session_start_s": round(start_s, 1),
        "first_run_s": round(runs[0], 1),
        "first_docs_per_s": round(len(rows) / runs[0], 2),
        "warm_run_s": round(runs[1], 1),
        "warm_docs_per_s": round(len(rows) / runs[1], 2),
        "text_identical_to_cli": identical,
    }
    result.write_text(json.dumps(out))


def machine() -> str:
    """One line describing the machine."""
    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}"


def markdown(results: dict[str, Any]) -> str:
    """The tables of every part in ``results``."""
    lines = [f"Machine: {results.get('machine', '?')}.", ""]
    if "workers" in results:
        w = results["workers"]
        lines += [
            f"`phiscrub redact` (rules + bundled model, placeholder) on {w['notes']:,} notes, whole command:",
            "",
            "| workers | seconds | documents/s | output identical to 1 worker |",
            "|---:|---:|---:|---|",
        ]
        for r in w["runs"]:
            same = "yes" if r["identical_to_1"] else "**no**"
            lines.append(f"| {r['workers']} | {r['seconds']} | {r['docs_per_s']} | {same} |")
        lines.append("")
    if "stream" in results:
        s = results["stream"]
        lines += [
            (
                f"Streaming: `phiscrub redact --rules-only --batch-size {s['batch_size']}` on generated "
                "one-line JSONL notes, peak RSS of the process (RSS sampled at 10/50/90% of the run):"
            ),
            "",
            "| notes | input MB | seconds | documents/s | peak RSS MB | RSS at 10% / 50% / 90% MB |",
            "|---:|---:|---:|---:|---:|---|",
        ]
        for r in s["runs"]:
            at = " / ".join(str(r[f"rss_at_{p}pct_mb"]) for p in (10, 50, 90))
            lines.append(
                f"| {r['notes']:,} | {r['input_mb']} | {r['seconds']} | {r['docs_per_s']} | "
                f"{r['peak_rss_mb']} | {at} |"
            )
        lines.append("")
    if "spark" in results:
        p = results["spark"]
        same = {True: "yes", False: "**no**", None: "not checked"}[p["text_identical_to_cli"]]
        lines += [
            (
                f"`phiscrub.spark.redact` on `local[2]` (rules + bundled model), {p['notes']:,} notes in "
                f"{p['partitions']} partitions, written to Parquet (session start {p['session_start_s']} s "
                "not included):"
            ),
            "",
            "| run | seconds | documents/s | text identical to the CLI |",
            "|---|---:|---:|---|",
            f"| first (workers start, load the model) | {p['first_run_s']} | {p['first_docs_per_s']} | |",
            f"| second (warm workers) | {p['warm_run_s']} | {p['warm_docs_per_s']} | {same} |",
            "",
        ]
    return "\n".join(lines)


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", default="workers,stream,spark")
    parser.add_argument("--workers-counts", default="1,2", help="worker counts of the workers part")
    parser.add_argument("--notes", type=int, default=N_NOTES, help="benchmark notes (workers, spark)")
    parser.add_argument("--stream-sizes", default="100000,1000000")
    parser.add_argument("--stream-batch-size", type=int, default=256)
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "scaling")
    parser.add_argument("--json", type=Path, default=None, help="default: WORK/results.json")
    parser.add_argument("--out", type=Path, default=None, help="markdown tables (default: stdout only)")
    parser.add_argument("--spark-child", nargs=3, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spark_child:
        spark_child(*args.spark_child)
        return
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    json_path: Path = args.json or work / "results.json"
    results: dict[str, Any] = json.loads(json_path.read_text()) if json_path.exists() else {}
    results["machine"] = machine()
    for part in [p for p in args.parts.split(",") if p]:
        if part == "workers":
            counts = [int(x) for x in args.workers_counts.split(",") if x]
            results["workers"] = part_workers(work, args.notes, counts, results.get("workers"))
        elif part == "stream":
            sizes = [int(x) for x in args.stream_sizes.split(",") if x]
            results["stream"] = part_stream(work, sizes, args.stream_batch_size)
        elif part == "spark":
            results["spark"] = part_spark(work, args.notes)
        else:
            raise SystemExit(f"unknown part {part!r}; known: workers, stream, spark")
        json_path.write_text(json.dumps(results, indent=1))
    table = markdown(results)
    print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
