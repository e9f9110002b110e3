"""Cost of the site knowledge (``--site-lists``, ``--registry``) with large lists.

For 10,000 and 100,000 generated entries (made-up names from random syllables: a quarter
facilities, a quarter units, a quarter staff, a quarter places) and a registry of as many generated
patients, it measures:

* loading: reading the files and building the Aho-Corasick automaton of every entry's variants
  (what a run pays once, at start-up);
* matching: :meth:`SiteLists.spans` and :meth:`Registry.spans` over 100 generated notes of about
  500 words, each naming a few list entries and its own patient.

Usage:
    python benchmarks/site_lists.py [--sizes 10000,100000] [--notes 100] [--out build/site_lists.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from phiscrub.detect.site import load_site_lists
from phiscrub.detect.site_registry import Registry
from phiscrub.document import Document

_SYLLABLES = re.findall(
    r"\S+", "ka lo ver min dra tes qua bel sor nik pha rum zel ost wen gar mil tor bri anx"
)
_FILLER = re.findall(
    r"\S+",
    "Patient tolerated the procedure well without complications and was monitored overnight . "
    "Vital signs remained stable with no fever , heart rate in the seventies and pressures normal . "
    "Plan to continue current medications , advance diet as tolerated and reassess in the morning . ",
)


def _word(rng: random.Random, parts: int = 3) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(parts)).capitalize()


def make_lists(n: int, rng: random.Random) -> dict[str, list[str]]:
    """``n`` made-up entries, a quarter in each list."""
    q = n // 4
    return {
        "facilities": [f"{_word(rng)} {rng.choice(['Hospital', 'Clinic', 'Building'])}" for _ in range(q)],
        "units": [f"{_word(rng)} {rng.randint(1, 9)}" for _ in range(q)],
        "staff": [f"{_word(rng, 2)} {_word(rng)}" for _ in range(q)],
        "places": [_word(rng) for _ in range(n - 3 * q)],
    }


def make_registry(n: int, rng: random.Random) -> str:
    """A registry CSV of ``n`` made-up patients."""
    rows = ["patient_id,first,last,mrn,dob"]
    for i in range(n):
        dob = f"19{rng.randint(20, 99)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        rows.append(f"P{i},{_word(rng, 2)},{_word(rng)},{rng.randint(1_000_000, 9_999_999)},{dob}")
    return "\n".join(rows) + "\n"


def make_notes(
    lists: dict[str, list[str]], registry: Registry, count: int, rng: random.Random
) -> list[Document]:
    """``count`` notes of about 500 words naming a few entries and their own patient."""
    pids = list(registry.patients)
    docs = []
    for i in range(count):
        pid = rng.choice(pids)
        rec = registry.patients[pid]
        words = [rng.choice(_FILLER) for _ in range(480)]
        for name in ("facilities", "units", "staff", "places"):
            words.insert(rng.randrange(len(words)), rng.choice(lists[name]))
        words.insert(rng.randrange(len(words)), f"Mr. {rec.last} (MRN {rec.mrn})")
        docs.append(Document(f"n{i}", " ".join(words), (), {"patient_id": pid}))
    return docs


def measure(n: int, notes: int) -> dict[str, float]:
    """Load and match figures for ``n`` entries and ``n`` patients (peak RSS: this process's)."""
    rng = random.Random(n)
    lists = make_lists(n, rng)
    with tempfile.TemporaryDirectory() as tmp:
        lists_path = Path(tmp) / "site-lists.json"
        lists_path.write_text(json.dumps(lists))
        reg_path = Path(tmp) / "registry.csv"
        reg_path.write_text(make_registry(n, rng))
        t0 = time.perf_counter()
        site = load_site_lists(lists_path)
        _ = site.matcher
        t1 = time.perf_counter()
        registry = Registry.from_csv(reg_path)
        _ = registry.everyone
        t2 = time.perf_counter()
    docs = make_notes(lists, registry, notes, rng)
    t3 = time.perf_counter()
    found = sum(len(site.spans(d)) for d in docs)
    t4 = time.perf_counter()
    found_reg = sum(len(registry.spans(d)) for d in docs)
    t5 = time.perf_counter()
    return {
        "entries": n,
        "keys": len(site.matcher),
        "load_lists_s": t1 - t0,
        "load_registry_s": t2 - t1,
        "match_lists_ms_per_note": 1000 * (t4 - t3) / notes,
        "match_registry_ms_per_note": 1000 * (t5 - t4) / notes,
        "spans_lists": found,
        "spans_registry": found_reg,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    """Measure every size and write the markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--notes", type=int, default=100)
    ap.add_argument("--out", type=Path, default=Path("build/site_lists.md"))
    ap.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one is not None:  # one size in this process: its peak RSS is its own
        sys.stdout.write(json.dumps(measure(args.one, args.notes)))
        return
    rows = []
    for n in args.sizes.split(","):
        cmd = [sys.executable, __file__, "--one", n, "--notes", str(args.notes)]
        rows.append(json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout))
    lines = [
        f"Python {platform.python_version()}, {args.notes} notes of about 500 words",
        "",
        (
            "| entries (and patients) | automaton keys | load lists (s) | load registry (s) "
            "| match lists (ms/note) | match registry (ms/note) | peak RSS (MB) |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['entries']:,} | {r['keys']:,} | {r['load_lists_s']:.2f} | {r['load_registry_s']:.2f} "
            f"| {r['match_lists_ms_per_note']:.2f} | {r['match_registry_ms_per_note']:.2f} | {r['peak_rss_mb']:.0f} |"
        )
    text = "\n".join(lines) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
