"""A bounded load run against ``phiscrub serve`` on 127.0.0.1: throughput, latency, errors, auth.

Starts ``phiscrub serve`` (bundled model, a random token and surrogate key, ``--workers W``) on a
free port, then sends ``--requests`` requests (default 2,000) from ``--concurrency`` clients
(default 16) over keep-alive connections: every ``--batch-every``-th request is a batch of
``--batch-size`` notes, the others one note; modes rotate placeholder, mask, surrogate. The notes are
the 200 short real-world-style benchmark notes of ``benchmarks/throughput.py`` (114-216 words).

Reports requests/s, notes/s, latency p50/p95/p99/max (all requests, and single and batch apart),
the error count (any answer but 200, or a transport error; must be 0), and 100 requests with a
wrong token (all must be 401). Exits 1 when either check fails. Finally checks that the server log
holds none of the notes' words that the service replaced (no PHI in the access log).

Usage:
    python benchmarks/service_load.py [--requests 2000] [--concurrency 16] [--workers 1]
        [--batch-every 4] [--batch-size 4] [--json out.json]
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


async def load(
    url: str, token: str, work: list[tuple[str, dict[str, Any], int]], concurrency: int
) -> tuple[Tally, float]:
    tally = Tally()
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--workers", type=int, default=1, help="phiscrub serve --workers")
    ap.add_argument("--batch-every", type=int, default=4, help="every k-th request is a batch (0: none)")
    ap.add_argument("--batch-size", type=int, default=4, help="notes per batch request")
    ap.add_argument("--wrong-token", type=int, default=100, help="requests sent with a wrong token")
    ap.add_argument("--serve-args", default="", help="extra arguments of phiscrub serve, e.g. '--rules-only'")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON here")
    args = ap.parse_args()

    texts = [d.text for d in short_corpus()]
    work = payloads(texts, args.requests, args.batch_every, args.batch_size)
    token, key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    log_path = Path(tempfile.mkdtemp(prefix="phiscrub-load-")) / "server.log"
    proc, url = start_server(args.workers, log_path, token, key, args.serve_args.split())
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
        codes = asyncio.run(wrong_token(url, args.wrong_token, args.concurrency, texts[0]))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    server_log = log_path.read_text(encoding="utf-8", errors="replace")
    leaked = sorted(s for s in tally.phi_strings if s in server_log)

    done = tally.single + tally.batch
    n_errors = sum(tally.errors.values())
    figures = {
        "requests": args.requests,
        "concurrency": args.concurrency,
        "workers": args.workers,
        "single_requests": len(tally.single),
        "batch_requests": len(tally.batch),
        "batch_size": args.batch_size,
        "notes": tally.notes,
        "wall_s": round(wall, 2),
        "requests_per_s": round(len(done) / wall, 1),
        "notes_per_s": round(tally.notes / wall, 1),
        "latency_ms": {
            name: {q: round(pct(v, p), 1) for q, p in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))}
            for name, v in (("all", done), ("single", tally.single), ("batch", tally.batch))
        },
        "errors": n_errors,
        "error_kinds": tally.errors,
        "wrong_token_requests": args.wrong_token,
        "wrong_token_codes": {str(k): v for k, v in codes.items()},
        "server_log_lines": server_log.count("\n"),
        "phi_strings_checked_in_log": len(tally.phi_strings),
        "phi_strings_found_in_log": len(leaked),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }
    lat = figures["latency_ms"]
    print(
        f"{args.requests} requests ({len(tally.single)} single, {len(tally.batch)} batches of {args.batch_size}), "
        f"{args.concurrency} concurrent, {args.workers} worker(s), {os.cpu_count()} CPUs"
    )
    print()
    print("| requests/s | notes/s | p50 ms | p95 ms | p99 ms | max ms | errors | wrong token: 401 |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {figures['requests_per_s']} | {figures['notes_per_s']} | {lat['all']['p50']} | {lat['all']['p95']} "
        f"| {lat['all']['p99']} | {lat['all']['max']} | {n_errors} | {codes.get(401, 0)}/{args.wrong_token} |"
    )
    print()
    print("| kind | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for name in ("single", "batch"):
        print(
            f"| {name} | {lat[name]['p50']} | {lat[name]['p95']} | {lat[name]['p99']} | {lat[name]['max']} |"
        )
    print()
    print(
        f"server log: {figures['server_log_lines']} lines; {len(tally.phi_strings)} replaced strings looked for, "
        f"{len(leaked)} found"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    ok = n_errors == 0 and codes.get(401, 0) == args.wrong_token and not leaked
    if not ok:
        print(
            f"FAILED: errors {tally.errors}, wrong-token codes {codes}, PHI in log {len(leaked)}",
            file=sys.stderr,
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
