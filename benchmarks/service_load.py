"""A bounded load run against ``phiscrub serve`` on 127.0.0.1: throughput, latency, errors, auth.

First the baseline: ``phiscrub redact`` (one process, placeholders) on the same notes, as a JSONL
file. Then starts ``phiscrub serve`` (bundled model, a random token and surrogate key,
``--workers W``, ``--rate-limit 0``: one client sends everything) on a free port and sends
``--requests`` requests (default 2,000) from ``--concurrency`` clients (default 16) over keep-alive
connections: every ``--batch-every``-th request is a batch of ``--batch-size`` notes (default: none),
the others one note; modes rotate placeholder, mask, surrogate. The notes are the 200 short
real-world-style benchmark notes of ``benchmarks/throughput.py`` (114-216 words). Then the same
load again with one long request (``--long-bytes``, default 1,000,000 bytes of JSON: one note of
about 1 MB) kept in flight the whole time (``--long-requests 0`` skips this part).

Reports requests/s, notes/s (and their ratio to the baseline), latency p50/p95/p99/max (all
requests, and single and batch apart), the error count (any answer but 200, or a transport error;
must be 0), and 100 requests with a wrong token (all must be 401). Exits 1 when either check fails.
Finally checks that the server log holds none of the notes' words that the service replaced (no PHI
in the access log). The targets of issue 28 (throughput at least 80% of the baseline, p95 under
1 s; with the long request in flight, p95 under 2 s) are printed as met or not.

Usage:
    python benchmarks/service_load.py [--requests 2000] [--concurrency 16] [--workers 1]
        [--batch-every 0] [--batch-size 4] [--long-requests 2000] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import short_corpus

MODES = ("placeholder", "mask", "surrogate")


@dataclass
class Tally:
    """Latencies (seconds) of successful requests by kind, and the failures."""

    single: list[float] = field(default_factory=list)
    batch: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    notes: int = 0
    phi_strings: set[str] = field(default_factory=set)
    long: list[tuple[int | str, float]] = field(default_factory=list)  # status, seconds

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    workers: int, log_path: Path, token: str, key: str, extra: list[str]
) -> tuple[subprocess.Popen, str]:
    """``phiscrub serve`` on a free port; returns once ``/healthz`` answers."""
    port = free_port()
    env = dict(os.environ, PHISCRUB_SERVICE_TOKEN=token, PHISCRUB_KEY=key)
    cmd = [
        sys.executable,
        "-m",
        "phiscrub.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
        *extra,
    ]
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"phiscrub serve exited with {proc.returncode}: see {log_path}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit(f"phiscrub serve did not answer in 300 s: see {log_path}")


def payloads(
    texts: list[str], n: int, batch_every: int, batch_size: int
) -> list[tuple[str, dict[str, Any], int]]:
    """The ``n`` requests: (kind, JSON body, notes), in a fixed order."""
    out = []
    at = 0
    for i in range(n):
        mode = MODES[i % len(MODES)]
        if batch_every and i % batch_every == batch_every - 1:
            notes = [
                {"id": str(j), "text": texts[(at + j) % len(texts)], "patient_id": f"p{i}"}
                for j in range(batch_size)
            ]
            at += batch_size
            out.append(("batch", {"notes": notes, "mode": mode}, batch_size))
        else:
            out.append(("single", {"text": texts[at % len(texts)], "mode": mode}, 1))
            at += 1
    return out


def long_body(texts: list[str], size: int) -> dict[str, Any]:
    """One note of about ``size`` bytes of JSON: the short notes one after the other."""
    parts: list[str] = []
    n = 0
    while n < size:
        t = texts[len(parts) % len(texts)] + "\n\n"
        parts.append(t)
        n += len(json.dumps(t))
    return {"text": "".join(parts), "mode": "placeholder"}


async def keep_long_in_flight(url: str, token: str, body: dict[str, Any], tally: Tally) -> None:
    """Send ``body`` again and again, one at a time, until cancelled (its answers are not checked)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=3600) as client:
        while True:
            t0 = time.perf_counter()
            try:
                r = await client.post("/v1/redact", json=body)
                tally.long.append((r.status_code, time.perf_counter() - t0))
            except httpx.HTTPError as exc:
                tally.long.append((type(exc).__name__, time.perf_counter() - t0))


async def load(
    url: str,
    token: str,
    work: list[tuple[str, dict[str, Any], int]],
    concurrency: int,
    long: dict[str, Any] | None = None,
) -> tuple[Tally, float]:
    tally = Tally()
    background = None
    if long is not None:
        background = asyncio.create_task(keep_long_in_flight(url, token, long, tally))
        await asyncio.sleep(2.0)  # the long note is read and in the works
    queue: asyncio.Queue[tuple[str, dict[str, Any], int]] = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits, timeout=300) as client:

        async def worker() -> None:
            while True:
                try:
                    kind, body, notes = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t0 = time.perf_counter()
                try:
                    r = await client.post("/v1/redact", json=body)
                except httpx.HTTPError as exc:
                    tally.error(type(exc).__name__)
                    continue
                dt = time.perf_counter() - t0
                if r.status_code != 200:
                    tally.error(f"HTTP {r.status_code}")
                    continue
                (tally.batch if kind == "batch" else tally.single).append(dt)
                tally.notes += notes
                # Remember some replaced strings, to look for them in the server log afterwards.
                results = r.json().get("results") or [r.json()]
                texts = [n["text"] for n in body["notes"]] if kind == "batch" else [body["text"]]
                for text, res in zip(texts, results):
                    for s in res["spans"][:3]:
                        phi = text[s["start"] : s["end"]]
                        if len(phi) >= 6:
                            tally.phi_strings.add(phi)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - start
    if background is not None:
        in_flight = not background.done()
        background.cancel()
        try:
            await background
        except asyncio.CancelledError:
            pass
        if in_flight:
            tally.long.append(("in flight at the end", float("nan")))
    return tally, wall


async def wrong_token(url: str, n: int, concurrency: int, text: str) -> dict[int | str, int]:
    codes: dict[int | str, int] = {}
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": "Bearer wrong-token"}) as client:

        async def one() -> None:
            async with sem:
                try:
                    code: int | str = (await client.post("/v1/redact", json={"text": text})).status_code
                except httpx.HTTPError as exc:
                    code = type(exc).__name__
                codes[code] = codes.get(code, 0) + 1

        await asyncio.gather(*(one() for _ in range(n)))
    return codes


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k] * 1000.0


def baseline(texts: list[str], folder: Path) -> dict[str, Any]:
    """``phiscrub redact`` (one process, bundled model, placeholders) on ``texts`` as one JSONL file."""
    src = folder / "notes.jsonl"
    with src.open("w", encoding="utf-8") as f:
        for i, t in enumerate(texts):
            f.write(json.dumps({"id": str(i), "text": t}) + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}
    cmd = [sys.executable, "-m", "phiscrub.cli", "redact", str(src), "-o", str(folder / "out")]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"phiscrub redact failed ({proc.returncode}): {proc.stderr[-500:]}")
    return {"notes": len(texts), "wall_s": round(wall, 2), "notes_per_s": round(len(texts) / wall, 1)}


def figures_of(tally: Tally, wall: float) -> dict[str, Any]:
    """Throughput, latency percentiles and errors of one load."""
    done = tally.single + tally.batch
    return {
        "single_requests": len(tally.single),
        "batch_requests": len(tally.batch),
        "notes": tally.notes,
        "wall_s": round(wall, 2),
        "requests_per_s": round(len(done) / wall, 1),
        "notes_per_s": round(tally.notes / wall, 1),
        "latency_ms": {
            name: {q: round(pct(v, p), 1) for q, p in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))}
            for name, v in (("all", done), ("single", tally.single), ("batch", tally.batch))
        },
        "errors": sum(tally.errors.values()),
        "error_kinds": tally.errors,
        "long_requests": [[code, round(sec, 1)] for code, sec in tally.long],
    }


def print_load(title: str, fig: dict[str, Any], base: dict[str, Any]) -> None:
    lat = fig["latency_ms"]
    ratio = fig["notes_per_s"] / base["notes_per_s"]
    print(f"{title}: {fig['single_requests']} single, {fig['batch_requests']} batch requests")
    print()
    print("| requests/s | notes/s | of `phiscrub redact` | p50 ms | p95 ms | p99 ms | max ms | errors |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {fig['requests_per_s']} | {fig['notes_per_s']} | {ratio:.0%} | {lat['all']['p50']} "
        f"| {lat['all']['p95']} | {lat['all']['p99']} | {lat['all']['max']} | {fig['errors']} |"
    )
    if fig["batch_requests"]:
        for name in ("single", "batch"):
            print(
                f"  {name}: p50 {lat[name]['p50']} ms, p95 {lat[name]['p95']} ms, max {lat[name]['max']} ms"
            )
    if fig["long_requests"]:
        print(f"  long request(s) (status, seconds): {fig['long_requests']}")
    print()


def report(
    figures: dict[str, Any],
    args: argparse.Namespace,
    base: dict[str, Any],
    codes: dict[int | str, int],
    leaked: list[str],
) -> dict[str, bool]:
    """Print the figures as markdown; return the targets of issue 28, met or not."""
    phi = figures["phi_strings_checked_in_log"]
    print(
        f"{args.requests} requests, {args.concurrency} concurrent, {args.workers} worker(s), {os.cpu_count()} CPUs; "
        f"baseline phiscrub redact: {base.get('notes_per_s')} notes/s ({base.get('wall_s')} s for {base.get('notes')} notes)"
    )
    print()
    print_load("short notes", figures["short"], base)
    if "with_long" in figures:
        print_load(f"short notes, one {args.long_bytes:,}-byte request in flight", figures["with_long"], base)
    print(f"wrong token: {codes.get(401, 0)}/{args.wrong_token} answered 401")
    print(
        f"server log: {figures['server_log_lines']} lines; {phi} replaced strings looked for, {len(leaked)} found"
    )
    short = figures["short"]
    targets = {
        "throughput >= 80% of phiscrub redact": short["notes_per_s"] >= 0.8 * base["notes_per_s"],
        "p95 < 1 s": short["latency_ms"]["all"]["p95"] < 1000,
    }
    if "with_long" in figures:
        targets["p95 < 2 s with the long request in flight"] = (
            figures["with_long"]["latency_ms"]["all"]["p95"] < 2000
        )
    for what, met in targets.items():
        print(f"target {what}: {'met' if met else 'NOT met'}")
    return targets


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--workers", type=int, default=1, help="phiscrub serve --workers")
    ap.add_argument("--batch-every", type=int, default=0, help="every k-th request is a batch (0: none)")
    ap.add_argument("--batch-size", type=int, default=4, help="notes per batch request")
    ap.add_argument(
        "--long-requests",
        type=int,
        default=None,
        help="requests of the load with a long one in flight (default: --requests; 0: skip)",
    )
    ap.add_argument("--long-bytes", type=int, default=1_000_000, help="JSON size of the long request")
    ap.add_argument("--wrong-token", type=int, default=100, help="requests sent with a wrong token")
    ap.add_argument("--no-baseline", action="store_true", help="skip the phiscrub redact baseline")
    ap.add_argument("--serve-args", default="", help="extra arguments of phiscrub serve, e.g. '--rules-only'")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON here")
    return ap.parse_args()


def main() -> int:
    args = parse_args()
    n_long = args.requests if args.long_requests is None else args.long_requests

    texts = [d.text for d in short_corpus()]
    work = payloads(texts, args.requests, args.batch_every, args.batch_size)
    folder = Path(tempfile.mkdtemp(prefix="phiscrub-load-"))
    notes_sent = [n["text"] for _, body, _ in work for n in (body.get("notes") or [body])]
    base = {"notes_per_s": float("nan")} if args.no_baseline else baseline(notes_sent, folder)
    token, key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    log_path = folder / "server.log"
    serve_args = ["--rate-limit", "0", "--deadline", "3600", *args.serve_args.split()]
    proc, url = start_server(args.workers, log_path, token, key, serve_args)
    loads: dict[str, Any] = {}
    try:
        # Warm-up: one request per mode (the per-option redactors are built on first use).
        for mode in MODES:
            httpx.post(
                f"{url}/v1/redact",
                json={"text": texts[0], "mode": mode},
                headers={"Authorization": f"Bearer {token}"},
                timeout=120,
            ).raise_for_status()
        tally, wall = asyncio.run(load(url, token, work, args.concurrency))
        loads["short"] = (tally, wall)
        if n_long:
            long_work = payloads(texts, n_long, args.batch_every, args.batch_size)
            body = long_body(texts, args.long_bytes)
            loads["with_long"] = asyncio.run(load(url, token, long_work, args.concurrency, body))
        codes = asyncio.run(wrong_token(url, args.wrong_token, args.concurrency, texts[0]))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    server_log = log_path.read_text(encoding="utf-8", errors="replace")
    phi = set().union(*(t.phi_strings for t, _ in loads.values()))
    leaked = sorted(s for s in phi if s in server_log)

    figures: dict[str, Any] = {
        "requests": args.requests,
        "concurrency": args.concurrency,
        "workers": args.workers,
        "batch_every": args.batch_every,
        "batch_size": args.batch_size,
        "baseline_phiscrub_redact": base,
        **{name: figures_of(t, w) for name, (t, w) in loads.items()},
        "wrong_token_requests": args.wrong_token,
        "wrong_token_codes": {str(k): v for k, v in codes.items()},
        "server_log_lines": server_log.count("\n"),
        "phi_strings_checked_in_log": len(phi),
        "phi_strings_found_in_log": len(leaked),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }
    targets = report(figures, args, base, codes, leaked)
    n_errors = sum(figures[name]["errors"] for name in loads)
    figures["targets"] = targets
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    ok = n_errors == 0 and codes.get(401, 0) == args.wrong_token and not leaked
    if not ok:
        print(
            f"FAILED: errors {n_errors}, wrong-token codes {codes}, PHI in log {len(leaked)}", file=sys.stderr
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
