"""No network, seen from the kernel (issue 28, item 1).

``test_no_network.py`` guards Python's ``socket`` module, so a native library that opens its own
sockets or files is invisible to it: ONNX Runtime's telemetry client did both (a queue in
``~/.cache/Microsoft/DeveloperTools/.onnxruntime/`` and a lookup of a Microsoft events host) on
every model run until phiscrub set ``ORT_DISABLE_TELEMETRY=1`` before importing it.

Here a real ``phiscrub redact`` with the bundled model (one process, then ``--workers 2``) runs
inside a network namespace with no interface but a down loopback (``unshare -n``) and under
``strace -ff``; the trace of every process must show

* no ``connect``/``sendto``/``sendmsg`` on an ``AF_INET``/``AF_INET6`` socket (tried, even if the
  namespace makes it fail), and
* no file opened for writing (``O_WRONLY``/``O_RDWR``/``O_CREAT``) outside the output folder and the
  run's temporary folder, except ``/dev/null`` and the POSIX semaphores ``multiprocessing`` keeps
  in ``/dev/shm``.

The child's environment has no ``ORT_DISABLE_TELEMETRY``: phiscrub has to set it itself. The test
skips, saying why, only where the kernel or the container refuses ``unshare -n`` or ``ptrace``
(``.ci/system-deps`` installs ``strace``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Made-up people only.
NOTES = (
    "Patient Alma Quill (MRN 4471982) was seen by Dr. Boris Sovik on 03/12/2019 in Quarry Bend.",
    "Celia Tamber, 54, called 617-555-0188 about her visit on 11/02/2020 with Dr. Dario Wexley.",
    "Discharge note for Zebulon Quackenbush. Follow up with Dr. Ines Marlowe at Fernhill Clinic.",
    "Mr. Otto Brennick reports chest pain since 04/07/2021. Lives at 12 Larkspur Lane, Quarry Bend.",
)

_RUN = "from phiscrub.cli.app import main; main()"
_TRACED = "trace=connect,sendto,sendmsg,/^(open|openat|openat2|creat)$"
#: ``openat(...) = 3</resolved/path>``: the path the kernel opened (strace -yy), whatever the cwd.
_OPENED = re.compile(r"^(?:open|openat|openat2|creat)\((?P<args>.*)\)\s+=\s+\d+<(?P<path>[^>]*)>")
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT")
_INET_FD = re.compile(r"^(?:sendto|sendmsg)\(\d+<(?:TCP|UDP|TCPv6|UDPv6|UDPLITE|UDPLITEv6|RAW|RAWv6):")
_ALLOWED_FILES = ("/dev/null",)
#: multiprocessing's named semaphores (``sem_open``), removed right after they are made.
_SEMAPHORE = re.compile(r"^/dev/shm/sem\.")


def _tool_or_skip() -> list[str]:
    """The ``unshare -n strace`` prefix, or a skip that says what this machine refuses."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (.ci/system-deps installs it)")
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"unshare -n is not permitted here: {probe.stderr.decode(errors='replace').strip()}")
    probe = subprocess.run(
        ["strace", "-f", "-qq", "-o", "/dev/null", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"ptrace is not permitted here: {probe.stderr.decode(errors='replace').strip()}")
    return ["unshare", "-n", "strace", "-ff", "-qq", "-yy", "-e", _TRACED, "-e", "signal=none"]


def _network(line: str) -> bool:
    """A traced call that reaches for an IPv4/IPv6 peer (not a Unix or netlink socket)."""
    if line.startswith("connect("):
        return re.search(r"sa_family=AF_INET6?\b", line) is not None
    if line.startswith(("sendto(", "sendmsg(")):
        return _INET_FD.match(line) is not None or "AF_INET" in line
    return False


def _violations(trace_files: list[Path], allowed_dirs: list[Path]) -> list[str]:
    """The network calls and out-of-place writes in an ``strace -ff -yy`` trace."""
    found = []
    roots = [str(d.resolve()) + os.sep for d in allowed_dirs]
    for trace in trace_files:
        for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
            if _network(line):
                found.append(f"{trace.name}: {line[:200]}")
            elif (opened := _OPENED.match(line)) and any(f in opened["args"] for f in _WRITE_FLAGS):
                path = opened["path"]
                if path in _ALLOWED_FILES or _SEMAPHORE.match(path) or path.startswith(tuple(roots)):
                    continue
                found.append(f"{trace.name}: write {path}")
    return found


@pytest.mark.parametrize("workers", [1, 2])
def test_model_redaction_opens_no_socket_and_writes_only_its_output(tmp_path: Path, workers: int) -> None:
    prefix = _tool_or_skip()
    notes, out, tmp, traces = (tmp_path / d for d in ("notes", "out", "tmp", "trace"))
    for folder in (notes, tmp, traces):
        folder.mkdir()
    for i in range(12):
        (notes / f"note{i:02d}.txt").write_text(NOTES[i % len(NOTES)] + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env.update(TMPDIR=str(tmp), PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1", PHISCRUB_THREADS="1")
    args = ["redact", str(notes), "-o", str(out), "--workers", str(workers), "--batch-size", "4"]
    done = subprocess.run(
        [*prefix, "-o", str(traces / "t"), sys.executable, "-c", _RUN, *args],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    written = sorted(p.name for p in out.glob("*.txt"))
    assert len(written) == 12
    text = (out / "note02.txt").read_text(encoding="utf-8")
    assert "Zebulon" not in text and "Quackenbush" not in text and "Marlowe" not in text
    trace_files = sorted(traces.iterdir())
    assert len(trace_files) > 1 + (workers > 1)  # one trace per process: the workers were traced
    everything = "\n".join(t.read_text(encoding="utf-8", errors="replace") for t in trace_files)
    # The bundled model really ran (through ONNX Runtime), so its native code was in the trace.
    assert re.search(r"onnxruntime[^\n]*\.so", everything) and "tagger.onnx" in everything
    bad = _violations(trace_files, [out, tmp])
    assert not bad, "\n".join(bad[:20])


#: Lines as strace 6 writes them: two inet connects, one UDP send, then calls that are allowed
#: (Unix and netlink sockets, a write in the output folder, a read, a semaphore) and one stray write.
_SAMPLE_TRACE = (
    'connect(5<UDP:[77]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}, 16) = -1',
    "connect(6<TCPv6:[78]>, {sa_family=AF_INET6, sin6_port=htons(443)}, 28) = -1 ENETUNREACH",
    'sendto(7<UDP:[79]>, "\\x12", 1, MSG_NOSIGNAL, NULL, 0) = 1',
    'connect(8<UNIX-STREAM:[80]>, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = 0',
    "sendto(9<NETLINK:[81]>, [{nlmsg_len=20}], 20, 0, NULL, 0) = 20",
    'openat(AT_FDCWD</w>, "out/a.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</w/out/a.txt>',
    'openat(AT_FDCWD</w>, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 5</etc/hosts>',
    'openat(AT_FDCWD</w>, "/dev/shm/sem.ab12", O_RDWR|O_CREAT|O_EXCL, 0600) = 6</dev/shm/sem.ab12>',
    'openat(AT_FDCWD</w>, "/home/u/.cache/x.db", O_RDWR|O_CREAT, 0644) = 3</home/u/.cache/x.db>',
)


def test_the_trace_reader_flags_inet_calls_and_stray_writes(tmp_path: Path) -> None:
    """The reader above, on lines as strace 6 writes them (so a pass means nothing was there)."""
    trace = tmp_path / "t.1"
    trace.write_text("\n".join(_SAMPLE_TRACE), encoding="utf-8")
    found = _violations([trace], [Path("/w/out")])
    assert [f.split(": ", 1)[1][:10] for f in found] == [
        "connect(5<",
        "connect(6<",
        "sendto(7<U",
        "write /hom",
    ]
