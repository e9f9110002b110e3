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

Speed/recall frontier (``--frontier``): one row per inference path, each in a fresh subprocess:
``rules`` (rules only), ``student`` (``--student DIR`` or ``--student "ROW NAME=DIR"``, a distilled
model folder, repeatable; the row is left out, with a note, when no folder is given), ``bundled
model`` (the shipped ONNX int8 model: the 4-layer student), ``teacher fp32`` (``--fp32 DIR``: the
ONNX float32 export of the 6-layer teacher's torch folder; exported from ``--torch-model`` when
missing) and ``torch`` (``--torch-model``, the teacher, on the torch path). A row gives
start-up (seconds from before ``import phiscrub`` to the first note redacted, a 165-word note),
notes/s, CPU seconds and peak RSS over the out-of-distribution test of ``scripts/eval_realnotes.py``
(564 documents: the real-world-style hold-out, 3 fills, safe-harbor policy, ``detect_many`` in
batches of 16), its binary token recall / precision and false positives per 1,000 non-PHI tokens
(safe-harbor gold), and one 20,000-word note (built from the 500-word notes) redacted whole in
another fresh process: seconds, CPU seconds, peak RSS. Writes a markdown table (``--out``), the
JSON next to it, and a PNG of recall against notes/s (``--png``).

Usage:
    python benchmarks/throughput.py --frontier [--student build/student] [--torch-model build/torch-default]
        [--fp32 build/onnx-fp32] [--out build/frontier.md] [--png docs/img/frontier.png]
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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phiscrub.document import Document

Row = dict[str, Any]
"""One measured row (JSON-ready)."""

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "data" / "zeroshot-notes"


def corpus() -> list[Document]:
    """The fixed benchmark notes: the 100 English zero-shot notes (filled with seed 2024) whose
    length is closest to 500 words."""
    from phiscrub.document import Document
    from phiscrub.transform.placeholders import PlaceholderReader

    docs = []
    for folder in "abcdefghij":
        for d in PlaceholderReader(seed=2024, lang="en").read(NOTES / folder):
            docs.append(Document(f"{folder}/{d.id}", d.text))
    docs.sort(key=lambda d: (abs(len(d.text.split()) - 500), d.id))
    return sorted(docs[:100], key=lambda d: d.id)


REALWORLD = ROOT.parent / "shared" / "data" / "realworld-notes"


def short_corpus(n: int = 200, words: int = 165) -> list[Document]:
    """The short benchmark notes: the ``n`` real-world-style notes (``shared/data/realworld-notes``,
    filled with seed 2024) whose length is closest to ``words`` words (200 notes: 114-216 words,
    170 on average)."""
    from phiscrub.document import Document
    from phiscrub.transform.placeholders import PlaceholderReader

    docs = []
    for folder in sorted(p for p in REALWORLD.iterdir() if p.is_dir()):
        for d in PlaceholderReader(seed=2024, lang="en").read(folder):
            docs.append(Document(f"{folder.name}/{d.id}", d.text))
    docs.sort(key=lambda d: (abs(len(d.text.split()) - words), d.id))
    return sorted(docs[:n], key=lambda d: d.id)


def write_notes(docs: list[Document], folder: Path) -> Path:
    """Write ``docs`` as one ``.txt`` file each (``<id with / as _>.txt``): the input of ``phiscrub redact``."""
    folder.mkdir(parents=True, exist_ok=True)
    for d in docs:
        (folder / (d.id.replace("/", "_") + ".txt")).write_text(d.text, encoding="utf-8")
    return folder


def run_one(config: str, model: str | None, threads: int, batch_size: int) -> Row:
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
) -> Row:
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


def run_scaling(megabytes: float, one_line: bool, repeats: int = 3) -> Row:
    """time(2x)/time(x) of name propagation alone and of the rules-only pipeline (one process)."""
    from phiscrub.deid import Deidentifier
    from phiscrub.detect.propagate import propagate_names
    from phiscrub.document import Document
    from phiscrub.resolve import resolve

    deid = Deidentifier(mode="placeholder", model=None)
    list(deid.redact_many([Document("warm-up", corpus()[0].text)]))
    out: Row = {"shape": "one line" if one_line else "lines", "x_mb": megabytes, "repeats": repeats}
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


# -- the speed/recall frontier -----------------------------------------------------------------------

#: The 20,000-word note of the frontier (time and memory of a long note on each path).
LONG_WORDS = 20_000


def note_of_words(words: int) -> str:
    """One note of ``words`` whitespace-separated words: the 500-word benchmark notes joined, cut."""
    body = "\n\n".join(d.text for d in corpus())
    reps = words // max(len(body.split()), 1) + 1
    text = "\n\n".join([body] * reps)
    cut, seen = len(text), 0
    for k, ch in enumerate(text):  # end after the words-th word
        if not ch.isspace() and (k == 0 or text[k - 1].isspace()):
            seen += 1
            if seen > words:
                cut = k
                break
    return text[:cut].rstrip()


def frontier_row(name: str, model: str, first_note: str, threads: int) -> Row:
    """One frontier row, in this (fresh) process: start-up, OOD test speed and scores, peak RSS."""
    t0 = time.perf_counter()
    from phiscrub.deid import Deidentifier
    from phiscrub.document import Document

    if os.environ.get("PHISCRUB_BACKEND") == "torch":
        import torch

        torch.set_num_threads(threads)
    deid = Deidentifier(mode="placeholder", model=model or None, policy="safe-harbor")
    list(deid.redact_many([Document("first", Path(first_note).read_text(encoding="utf-8"))]))
    startup = time.perf_counter() - t0
    backend = type(deid.active_detectors[-1]).__name__ if model else "rules only"
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_realnotes import ood_test, score, view_of

    docs = ood_test(3)
    gold = view_of(docs, "safe-harbor")
    t1, c1 = time.perf_counter(), time.process_time()
    pred = []
    for i in range(0, len(docs), 16):
        chunk = docs[i : i + 16]
        for doc, spans in zip(chunk, deid.detect_many(chunk)):
            pred.append(Document(doc.id, doc.text, tuple(spans), {}))
    secs, cpu = time.perf_counter() - t1, time.process_time() - c1
    scores = score(gold, pred)
    return {
        "row": name,
        "model": model or None,
        "detector": backend,
        "startup_s": round(startup, 2),
        "documents": len(docs),
        "words_per_doc": round(sum(len(d.text.split()) for d in docs) / len(docs)),
        "seconds": round(secs, 2),
        "cpu_seconds": round(cpu, 2),
        "notes_per_s": round(len(docs) / secs, 2),
        "recall": round(scores["binary"]["recall"], 4),
        "precision": round(scores["binary"]["precision"], 4),
        "fp_per_1k": round(scores["notes"]["fp_per_1000_non_phi"], 2),
        "missed_phi_note_share": round(scores["notes"]["missed_phi_note_share"], 4),
        "peak_rss_mb": _peak_rss_mb(),
        "torch_imported": "torch" in sys.modules,
        "threads": threads,
    }


def frontier_long(name: str, model: str, threads: int) -> Row:
    """The 20,000-word note redacted whole in this (fresh) process: seconds, CPU seconds, peak RSS."""
    from phiscrub.deid import Deidentifier
    from phiscrub.document import Document

    if os.environ.get("PHISCRUB_BACKEND") == "torch":
        import torch

        torch.set_num_threads(threads)
    text = note_of_words(LONG_WORDS)
    deid = Deidentifier(mode="placeholder", model=model or None, policy="safe-harbor")
    list(deid.redact_many([Document("warm-up", corpus()[0].text)]))
    t0, c0 = time.perf_counter(), time.process_time()
    spans = sum(len(r.spans) for r in deid.redact_many([Document("long", text)]))
    return {
        "row": name,
        "words": len(text.split()),
        "seconds": round(time.perf_counter() - t0, 2),
        "cpu_seconds": round(time.process_time() - c0, 2),
        "spans": spans,
        "peak_rss_mb": _peak_rss_mb(),
    }


def _child(args: list[str], backend: str | None, threads: int) -> Row:
    env = {**os.environ, "PHISCRUB_THREADS": str(threads)}
    env.pop("PHISCRUB_BACKEND", None)
    if backend:
        env["PHISCRUB_BACKEND"] = backend
    cmd = [sys.executable, __file__, *args, "--threads", str(threads)]
    run = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} exited {run.returncode}: {run.stderr[-3000:]}")
    row: Row = json.loads(run.stdout.strip().splitlines()[-1])
    return row


def frontier(args: argparse.Namespace) -> None:
    """Run every frontier row and write the table, the JSON and the PNG."""
    import tempfile

    rows_spec: list[tuple[str, str, str | None]] = [("rules only", "", None)]
    notes: list[str] = []
    for given in args.student or ():
        name, _, folder = given.rpartition("=")  # "NAME=DIR" or just DIR
        rows_spec.append((name or "student", folder, None))
    if not args.student:
        notes.append("no student row: no distilled model folder was given (--student)")
    rows_spec.append(
        ("bundled model (ONNX int8, shipped)", str(ROOT / "src" / "phiscrub" / "resources" / "model"), None)
    )
    fp32 = Path(args.fp32)
    if not (fp32 / "tagger.onnx").is_file():
        from phiscrub.train.onnx_export import export_onnx

        export_onnx(args.torch_model, fp32, quantize="none")
    rows_spec.append(("teacher fp32 (ONNX)", str(fp32), None))
    rows_spec.append(("torch path", str(args.torch_model), "torch"))
    rows, longs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "first.txt"
        docs = short_corpus()
        first.write_text(min(docs, key=lambda d: abs(len(d.text.split()) - 165)).text, encoding="utf-8")
        for name, model, backend in rows_spec:
            rows.append(_child(["--frontier-one", name, model, str(first)], backend, args.threads))
            print(json.dumps(rows[-1]), file=sys.stderr)
            longs.append(_child(["--frontier-long", name, model], backend, args.threads))
            print(json.dumps(longs[-1]), file=sys.stderr)
    header = f"Machine: {machine()}; {args.threads} threads"
    lines = [
        header,
        "",
        (
            "| path | notes/s | CPU s | start-up s | peak RSS (MB) | recall | precision | FP / 1k non-PHI | "
            f"{LONG_WORDS:,}-word note: s | its CPU s | its peak RSS (MB) |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r, lg in zip(rows, longs):
        lines.append(
            f"| {r['row']} | {r['notes_per_s']} | {r['cpu_seconds']} | {r['startup_s']} | {r['peak_rss_mb']} | {r['recall']:.3f} | "
            f"{r['precision']:.3f} | {r['fp_per_1k']:.2f} | {lg['seconds']} | {lg['cpu_seconds']} | {lg['peak_rss_mb']} |"
        )
    text = "\n".join(lines + [""] + [f"({n})" for n in notes]) + "\n"
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(
            json.dumps({"machine": header, "rows": rows, "long_note": longs, "notes": notes}, indent=2) + "\n"
        )
    if args.png:
        plot_frontier(rows, args.png)


def plot_frontier(rows: list[Row], path: Path) -> None:
    """Recall against notes per CPU second, one labelled point per row (matplotlib, to ``path``).

    Notes per CPU second (documents / CPU seconds of the process) rather than per wall second: on a
    shared machine wall time depends on the other jobs, CPU time much less.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for r in rows:  # one labelled point per row, named in the legend (labels next to close points overlap)
        x = r["documents"] / max(r["cpu_seconds"], 1e-9)
        ax.scatter(x, r["recall"], s=40, label=f"{r['row']}: {x:.1f} notes/CPU s, recall {r['recall']:.3f}")
    ax.legend(loc="lower left", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("notes per CPU second (OOD test, 564 documents; log scale)")
    ax.set_ylim(top=max(1.0, ax.get_ylim()[1]))
    ax.set_ylabel("binary token recall (OOD test, safe-harbor)")
    ax.set_title("phiscrub: speed / recall frontier")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


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
    from importlib.metadata import PackageNotFoundError, version

    libs = []
    for lib in ("onnxruntime", "torch"):
        try:
            libs.append(f"{lib} {version(lib)}")
        except PackageNotFoundError:
            pass
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}, "
        f"{', '.join(libs)}, load average {os.getloadavg()[0]:.1f} at start"
    )


def build_parser() -> argparse.ArgumentParser:
    """The command-line options (the hidden ``--one*``/``--frontier-*`` ones run one child process)."""
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
    parser.add_argument("--frontier", action="store_true", help="the speed/recall frontier table")
    parser.add_argument(
        "--student",
        action="append",
        default=None,
        help="frontier: a distilled model folder, DIR or 'ROW NAME=DIR' (repeatable: one row each)",
    )
    parser.add_argument(
        "--torch-model",
        type=Path,
        default=ROOT / "build" / "torch-default",
        help="frontier: the torch folder of the 6-layer teacher (the bundled student's)",
    )
    parser.add_argument(
        "--fp32", type=Path, default=ROOT / "build" / "onnx-fp32", help="frontier: ONNX fp32 folder"
    )
    parser.add_argument(
        "--png", type=Path, default=None, help="frontier: recall vs notes per CPU second plot"
    )
    parser.add_argument(
        "--plot-from", type=Path, default=None, help="frontier: redraw --png from a frontier JSON, no runs"
    )
    parser.add_argument("--frontier-one", nargs=3, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--frontier-long", nargs=2, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--one-long", default=None, help=argparse.SUPPRESS)
    return parser


def run_single_mode(args: argparse.Namespace) -> bool:
    """Run a child-process mode or the frontier, if one was asked for; ``True`` when one ran."""
    if args.frontier_one:
        name, model, first_note = args.frontier_one
        print(json.dumps(frontier_row(name, model, first_note, threads=args.threads)))
    elif args.frontier_long:
        name, model = args.frontier_long
        print(json.dumps(frontier_long(name, model, threads=args.threads)))
    elif args.frontier and args.plot_from:
        plot_frontier(json.loads(args.plot_from.read_text())["rows"], args.png or Path("frontier.png"))
    elif args.frontier:
        frontier(args)
    elif args.one:
        print(json.dumps(run_one(args.one, args.model, args.threads, args.batch_size)))
    elif args.one_long:
        config, mb = args.one_long.split(":")
        print(
            json.dumps(run_long(config, float(mb), args.one_line, args.model, args.threads, args.batch_size))
        )
    else:
        return False
    return True


def scaling_table(args: argparse.Namespace) -> str:
    """The propagation / pipeline scaling check at ``--scaling-mb`` X and 2X MB, as one paragraph."""
    r = run_scaling(args.scaling_mb, args.one_line, args.repeats)
    print(r, file=sys.stderr)
    return (
        f"Scaling ({r['shape']}, CPU seconds, best of {r['repeats']}), x = {r['x_mb']} MB: propagation {r['propagate_x_s']} s -> "
        f"{r['propagate_2x_s']} s, time(2x)/time(x) = {r['propagate_ratio']}; rules-only pipeline "
        f"{r['pipeline_x_s']} s -> {r['pipeline_2x_s']} s, time(2x)/time(x) = {r['pipeline_ratio']}\n"
    )


def long_row(args: argparse.Namespace, config: str, mb: str) -> Row:
    """One long note of ``mb`` MB redacted by ``config`` in a fresh subprocess."""
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
    r: Row = json.loads(run.stdout.strip().splitlines()[-1])
    print(r, file=sys.stderr)
    return r


def long_table(args: argparse.Namespace) -> str:
    """The long-note table: every ``--long-mb`` size by every ``--long-configs`` configuration."""
    lines = [
        "| configuration | note | MB | seconds | CPU seconds | MB/s | spans | peak RSS (MB) | threads |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for mb in args.long_mb.split(","):
        for config in args.long_configs.split(","):
            r = long_row(args, config, mb)
            lines.append(
                f"| {r['config']} | {r['shape']} | {r['mb']} | {r['seconds']} | {r['cpu_seconds']} | {r['mb_per_s']} | "
                f"{r['spans']} | {r['peak_rss_mb']} | {r['threads']} |"
            )
    return "\n".join(lines) + "\n"


def config_row(args: argparse.Namespace, config: str) -> Row:
    """One throughput configuration over the benchmark notes, in a fresh subprocess."""
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
    row: Row = json.loads(out)
    print(row, file=sys.stderr)
    return row


def config_table(rows: list[Row]) -> str:
    """The throughput table (with the machine line) of the configuration rows."""
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
    return "\n".join(lines) + "\n"


def emit(text: str, out: Path | None) -> None:
    """Print ``text`` and write it to ``out`` when given."""
    print(text)
    if out:
        out.write_text(text, encoding="utf-8")


def main() -> None:
    args = build_parser().parse_args()
    if run_single_mode(args):
        return
    tables: list[str] = []
    if args.scaling_mb:
        tables.append(scaling_table(args))
    if args.long_mb:
        tables.append(long_table(args))
    configs = [c for c in args.configs.split(",") if c]
    if not configs:
        emit(f"Machine: {machine()}\n\n" + "\n".join(tables), args.out)
        return
    if args.crf_model:
        configs.append("model-crf")
    emit(config_table([config_row(args, config) for config in configs]), args.out)


if __name__ == "__main__":
    main()
