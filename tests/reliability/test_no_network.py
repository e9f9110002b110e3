"""No network (issue 14, part 8): redact, train, augment (non-LLM) and synth work with outbound
connections blocked, and do not even try one.

Two guards:

* in this process, ``socket.socket.connect``/``connect_ex``/``sendto`` and ``socket.getaddrinfo`` are
  wrapped: anything but loopback and ``AF_UNIX`` is recorded and refused (``OSError``), so a library
  that swallows the error (a hub lookup with a fallback) is still caught by the record;
* a real ``phiscrub`` subprocess runs with the same guard installed by a ``sitecustomize`` module
  and, where the kernel allows it (``unshare -n``), in a network namespace with no interface but
  loopback.

The only network use phiscrub has is an LLM endpoint the user configures (``augment --llm-url``,
``llm-*`` methods); it is not exercised here.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.io import BratWriter

NOTE = "Seen by Dr. Zoltan Quenwick on 03/12/2019. MRN 0048-2231, call 617-555-0134. Lives in Quarry Bend.\n"
SPANS = {"Zoltan Quenwick": "DOCTOR", "03/12/2019": "DATE", "0048-2231": "MEDICALRECORD",
         "617-555-0134": "PHONE", "Quarry Bend": "CITY"}  # fmt: skip

#: The guard, as source: this test installs it in process, the subprocess through sitecustomize.
GUARD = r"""
import ipaddress, os, socket

_attempts = []
_log = os.environ.get("PHISCRUB_NET_GUARD_LOG")


def _local_host(host):
    if host in (None, "", "localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def _refuse(what, target):
    _attempts.append(f"{what} {target!r}")
    if _log:
        with open(_log, "a", encoding="utf-8") as fh:
            fh.write(f"{what} {target!r}\n")
    raise OSError(f"network blocked by the test guard: {what} {target!r}")


def _check(sock, address, what):
    if sock.family == getattr(socket, "AF_UNIX", None):
        return
    host = address[0] if isinstance(address, tuple) and address else address
    if not _local_host(host):
        _refuse(what, address)


_connect, _connect_ex, _sendto, _getaddrinfo = (
    socket.socket.connect, socket.socket.connect_ex, socket.socket.sendto, socket.getaddrinfo
)


def connect(self, address):
    _check(self, address, "connect")
    return _connect(self, address)


def connect_ex(self, address):
    _check(self, address, "connect_ex")
    return _connect_ex(self, address)


def sendto(self, data, *args):
    _check(self, args[-1], "sendto")
    return _sendto(self, data, *args)


def getaddrinfo(host, *args, **kwargs):
    if not _local_host(host.decode() if isinstance(host, bytes) else host):
        _refuse("getaddrinfo", host)
    return _getaddrinfo(host, *args, **kwargs)


def install():
    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
    socket.socket.sendto, socket.getaddrinfo = sendto, getaddrinfo


def uninstall():
    socket.socket.connect, socket.socket.connect_ex = _connect, _connect_ex
    socket.socket.sendto, socket.getaddrinfo = _sendto, _getaddrinfo
"""


@pytest.fixture()
def guard() -> Iterator[list[str]]:
    """The guard installed in this process; yields the list of refused attempts."""
    namespace: dict[str, Any] = {}
    exec(compile(GUARD, "<network guard>", "exec"), namespace)  # noqa: S102 - the guard's own source
    namespace["install"]()
    try:
        yield namespace["_attempts"]
    finally:
        namespace["uninstall"]()


def gold_folder(root: Path, n: int = 4) -> Path:
    docs = []
    for i in range(n):
        spans = [Span(NOTE.index(s), NOTE.index(s) + len(s), lab) for s, lab in SPANS.items()]
        docs.append(Document(f"n{i}", NOTE, tuple(spans)))
    BratWriter().write(docs, root / "gold")
    return root / "gold"


def test_the_guard_refuses_the_outside_and_lets_loopback_through(guard: list[str]) -> None:
    with socket.socket() as sock, pytest.raises(OSError, match="blocked"):
        sock.connect(("192.0.2.1", 80))  # TEST-NET-1, never routed
    with pytest.raises(OSError, match="blocked"):
        socket.getaddrinfo("example.org", 443)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
    assert guard == ["connect ('192.0.2.1', 80)", "getaddrinfo 'example.org'"]
    assert ipaddress.ip_address("::1").is_loopback


def cli_ok(*args: str | Path) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PHISCRUB_KEY": "net-test-key"})
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


@pytest.mark.slow
def test_redact_train_augment_synth_need_no_network(guard: list[str], tmp_path: Path) -> None:
    gold = gold_folder(tmp_path)
    cli_ok("redact", gold, "-o", tmp_path / "red")  # the bundled model and the rules
    assert "Quenwick" not in (tmp_path / "red" / "n0.txt").read_text(encoding="utf-8")
    cli_ok("redact", gold, "-o", tmp_path / "sur", "--mode", "surrogate", "--rules-only", "--lexicon")
    cli_ok(
        "train",
        "--train",
        gold,
        "--encoder",
        "bilstm-crf",
        "--epochs",
        "1",
        "--seed",
        "0",
        "-o",
        tmp_path / "m",
    )
    assert (tmp_path / "m").is_dir()
    for method in ("phicon", "mr"):
        cli_ok("augment", gold, "-o", tmp_path / f"{method}.jsonl", "--method", method)
    cli_ok("synth", gold, "-o", tmp_path / "synth.jsonl", "--mlm", _tiny_mlm(tmp_path), "--ratio", "0.3")
    rows = (tmp_path / "synth.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 4 and all(json.loads(r)["text"] for r in rows)
    assert guard == []  # nothing even tried to leave the machine


def _tiny_mlm(tmp_path: Path) -> Path:
    from transformers import BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(tmp_path / "mlm", kind="bert", max_positions=128)
    BertForMaskedLM(BertConfig.from_pretrained(folder)).save_pretrained(folder)
    return folder


def _namespace_prefix() -> list[str]:
    """``unshare -n`` (no network but loopback) when this kernel and user allow it, else nothing."""
    for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
        if shutil.which(prefix[0]) is None:
            return []
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=30, check=False)
        if probe.returncode == 0:
            return prefix
    return []


@pytest.mark.slow
def test_a_subprocess_without_network_redacts_and_trains(tmp_path: Path) -> None:
    gold = gold_folder(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GUARD + "\ninstall()\n", encoding="utf-8")
    attempts = tmp_path / "attempts.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "PHISCRUB_KEY"))}
    env.update({"PYTHONPATH": os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
                "PHISCRUB_NET_GUARD_LOG": str(attempts), "OMP_NUM_THREADS": "1", "PHISCRUB_KEY": "net-test-key"})  # fmt: skip
    prefix = _namespace_prefix()
    base = [*prefix, sys.executable, "-m", "phiscrub.cli"]
    runs = [
        ["redact", str(gold), "-o", str(tmp_path / "red"), "--mode", "surrogate"],
        [
            "train",
            "--train",
            str(gold),
            "--encoder",
            "bilstm-crf",
            "--epochs",
            "1",
            "-o",
            str(tmp_path / "m"),
        ],
        ["augment", str(gold), "-o", str(tmp_path / "aug.jsonl"), "--method", "phicon"],
    ]
    check = "import socket, sitecustomize; print(socket.getaddrinfo is sitecustomize.getaddrinfo)"
    assert subprocess.run([*prefix, sys.executable, "-c", check], env=env, capture_output=True, text=True,
                          timeout=60, check=False).stdout.strip() == "True"  # fmt: skip
    for args in runs:
        proc = subprocess.run(
            [*base, *args], env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert proc.returncode == 0, f"{args[0]}: {proc.stderr[-2000:]}"
    assert not attempts.exists() or attempts.read_text(encoding="utf-8") == ""
    assert "Quenwick" not in (tmp_path / "red" / "n0.txt").read_text(encoding="utf-8")
