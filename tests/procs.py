"""Test helper: the ``multiprocessing`` spawn children of a process, read from ``/proc`` (Linux)."""

from __future__ import annotations

from pathlib import Path


def spawned_children(pid: int, *, zombies: bool = True) -> dict[int, int]:
    """The spawned children of ``pid`` (``spawn_main`` in their command line, so not the resource
    tracker): niceness by process id; ``zombies=False`` leaves out the exited, unreaped ones."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": state, ppid, ...
        if int(fields[1]) == pid and b"spawn_main" in cmdline and (zombies or fields[0] != "Z"):
            out[int(entry.name)] = int(fields[16])  # the 19th field of stat: nice
    return out
