"""A real ``phiscrub serve`` on 127.0.0.1 for the service and browser tests.

The server runs as a subprocess (``python -m phiscrub.cli serve``) on a free port, its stderr (the
server and access logs) captured in a file the tests read.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

__all__ = ["KEY", "NOTE", "NOTE_PHI", "TOKEN", "LiveServer", "free_port", "start_server"]

#: Bearer token of the test servers.
TOKEN = "test-token-7f3a9c"
#: Surrogate key of the test servers.
KEY = "service-test-surrogate-key-51d2"

#: A synthetic note and the PHI strings in it (none of them may reach a log or an error body).
NOTE = (
    "Patient John Smith (MRN 4455667) was seen by Dr. Alan Grant at Mercy Hospital on 03/12/2019.\n"
    "Call 617-555-0199 to follow up. He is a 93 year old retired carpenter."
)
NOTE_PHI = ("John Smith", "4455667", "Alan Grant", "Mercy Hospital", "03/12/2019", "617-555-0199")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    """A running ``phiscrub serve``."""

    proc: subprocess.Popen[bytes]
    url: str
    log_path: Path
    token: str | None

    def log(self) -> str:
        """Everything the server wrote to stderr so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def headers(self, token: str | None = None) -> dict[str, str]:
        """Authorization header with ``token`` (default: the server's)."""
        tok = token if token is not None else self.token
        return {} if tok is None else {"Authorization": f"Bearer {tok}"}

    def client(self) -> httpx.Client:
        """An httpx client on the server, with its token."""
        return httpx.Client(base_url=self.url, headers=self.headers(), timeout=60.0)

    def stop(self) -> None:
        """Stop the server (SIGTERM to its process group, then SIGKILL)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def server_env(token: str | None = TOKEN, key: str | None = KEY) -> dict[str, str]:
    """The environment of a test server: one thread per process, the given token and key only."""
    env = {k: v for k, v in os.environ.items() if k not in ("PHISCRUB_SERVICE_TOKEN", "PHISCRUB_KEY")}
    env.update({"OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"})
    if token is not None:
        env["PHISCRUB_SERVICE_TOKEN"] = token
    if key is not None:
        env["PHISCRUB_KEY"] = key
    return env


def start_server(
    log_path: Path, args: list[str], token: str | None = TOKEN, key: str | None = KEY, timeout: float = 120.0
) -> LiveServer:
    """Start ``phiscrub serve ARGS`` on a free port and wait until ``/healthz`` answers.

    Fails the test (with the log's tail) when the server exits or does not answer in time.
    """
    port = free_port()
    cmd = [sys.executable, "-m", "phiscrub.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env=server_env(token, key), start_new_session=True
        )
    server = LiveServer(proc, f"http://127.0.0.1:{port}", log_path, token)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"phiscrub serve exited with {proc.returncode}:\n{server.log()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=2.0).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.stop()
    pytest.fail(f"phiscrub serve did not answer in {timeout} s:\n{server.log()[-3000:]}")
