"""Where the short requests' latency goes while a long note is in flight (issue 28): one process, no HTTP.

Two measurements with the service's own engine (bundled model) and batcher:

1. **The long note's stages** (``--stages``): a ~1 MB note (the benchmark short notes one after
   the other, as in ``service_load.py``) detected and selected alone, with the time between
   consecutive progress reports. A long gap is a stretch where the long lane cannot yield: in a
   thread of the server it holds the GIL and a core all along.
2. **A/B of the long lane**: 16 closed-loop clients send single short notes through
   :class:`~phiscrub.service.batcher.Batcher` for ``--seconds`` per phase; the phases alternate
   (so that they share the machine's load): ``none`` (no long note), ``thread`` (the 1 MB note in
   the in-thread long lane, yielding at its progress reports: the service before the long lane
   got a process of its own) and ``process`` (the 1 MB note in
   :class:`~phiscrub.service.long_lane.ProcessLane`, as the service runs it). Reports requests/s
   and latency p50/p95/max of each phase.

Usage:
    python benchmarks/service_lanes.py [--seconds 25] [--phases none,thread,process,none,thread,process]
        [--stages]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def stages(engine: Any, text: str) -> None:
    """The gaps between the progress reports of one long note (detect and select)."""
    from phiscrub.document import Document
    from phiscrub.progress import reporting

    doc = Document("long", text)
    gaps: dict[str, list[float]] = {}
    last = [time.perf_counter()]

    def note(stage: str) -> None:
        now = time.perf_counter()
        gaps.setdefault(stage, []).append(now - last[0])
        last[0] = now

    t0 = time.perf_counter()
    with reporting(lambda stage, done, total: note(stage), min_chars=0):
        proposals = engine.propose([doc])[0]
        note("(end of detection)")
        engine.detect_one(doc, proposals, engine.options("placeholder", None, None))
        note("(selection)")
    print(f"long note: {len(text):,} characters, {time.perf_counter() - t0:.1f} s")
    print("| report | count | longest gap before it (s) | total (s) |")
    print("|---|---:|---:|---:|")
    for stage, values in gaps.items():
        print(f"| {stage} | {len(values)} | {max(values):.2f} | {sum(values):.2f} |")
    print()


async def phase(kind: str, setup: dict[str, Any], args: argparse.Namespace) -> None:
    """One phase: the clients' short requests for ``args.seconds``, beside a long note or not."""
    from phiscrub.document import Document
    from phiscrub.service.batcher import Batcher

    engine, finish, texts, big = setup["engine"], setup["finish"], setup["texts"], setup["big"]
    lane = setup["lane"] if kind == "process" else None
    batcher = Batcher(engine.propose, long_chars=10_000, long_lane=lane)
    background = None
    if kind != "none":
        background = asyncio.ensure_future(batcher.run([big], finish, time.monotonic() + 3600))
        await asyncio.sleep(1.0)
    latencies: list[float] = []
    start = time.monotonic()
    stop, sent = start + args.seconds, [0]

    async def client() -> None:
        while time.monotonic() < stop:
            sent[0] += 1
            t0 = time.monotonic()
            await batcher.run([Document(str(sent[0]), texts[sent[0] % len(texts)])], finish, t0 + 3600)
            latencies.append(time.monotonic() - t0)

    await asyncio.gather(*(client() for _ in range(args.clients)))
    wall = time.monotonic() - start
    if background is not None:
        background.cancel()
        await asyncio.gather(background, return_exceptions=True)
    # The in-thread lane stops at its next progress report: wait for it, or the next phase would
    # run beside the rest of its current stage. (The lane process is stopped at once.)
    batcher._long.shutdown(wait=True)
    batcher.close()
    ordered = sorted(latencies)
    n = len(ordered)
    print(
        f"| {kind} | {n / wall:.1f} | {ordered[n // 2] * 1000:.0f} | {ordered[int(0.95 * n)] * 1000:.0f} "
        f"| {ordered[-1] * 1000:.0f} | {os.getloadavg()[0]:.1f} |",
        flush=True,
    )
    await asyncio.sleep(1.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=25.0, help="length of each phase")
    ap.add_argument("--phases", default="none,thread,process,none,thread,process")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--long-bytes", type=int, default=1_000_000)
    ap.add_argument("--stages", action="store_true", help="first time the long note's stages")
    args = ap.parse_args()
    os.environ.setdefault("PHISCRUB_SERVICE_TOKEN", "lanes-benchmark-token")
    os.environ.setdefault("PHISCRUB_KEY", "lanes-benchmark-key")

    from service_load import long_body
    from throughput import short_corpus

    from phiscrub.document import Document
    from phiscrub.service.app import _redact_finish
    from phiscrub.service.config import ServiceConfig
    from phiscrub.service.long_lane import Bound, ProcessLane, Recipe
    from phiscrub.service.server import load_engine

    texts = [d.text for d in short_corpus()]
    config = ServiceConfig()
    engine = load_engine(config)
    opts = engine.options("placeholder", None, None)
    setup = {
        "engine": engine,
        "finish": Bound(Recipe(_redact_finish, (opts, "bench")), engine),
        "texts": texts,
        "big": Document("long", long_body(texts, args.long_bytes)["text"]),
        "lane": ProcessLane(config),
    }
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    if args.stages:
        stages(engine, setup["big"].text)

    async def run_all() -> None:
        print("| long lane | requests/s | p50 ms | p95 ms | max ms | load average |")
        print("|---|---:|---:|---:|---:|---:|")
        for kind in args.phases.split(","):
            await phase(kind, setup, args)

    asyncio.run(run_all())
    setup["lane"].close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
