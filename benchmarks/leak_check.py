"""How many gold PHI strings survive ``phiscrub redact --mode surrogate``?

Reads a gold corpus (any readable format), writes its notes as .txt files, runs the redact CLI in
surrogate mode (extra CLI options pass through), and counts the gold PHI strings still present in
the output as whole words, per label. Values that HIPAA Safe Harbor lets stay (ages under 90, a year
alone, a weekday) are not counted. Also checks determinism: a second run with the same key must give
identical files, a run with another key different ones.

Usage:
    python benchmarks/leak_check.py GOLD [--work build/leak] [-- extra redact options]
    python benchmarks/leak_check.py build/default-model/dev.jsonl -- --lexicon
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from phiscrub.io import read_corpus


def _safe_harbor(label: str, surface: str) -> bool:
    if label == "AGE":
        return surface.isdigit() and int(surface) < 90
    return label == "DATE" and (
        re.fullmatch(r"(19|20)\d\d|'\d\d", surface) is not None or surface.lower().endswith("day")
    )


def _redact(src: Path, out: Path, key: str, extra: list[str]) -> dict[str, str]:
    cmd = [
        sys.executable,
        "-m",
        "phiscrub.cli",
        "redact",
        str(src),
        "-o",
        str(out),
        "--mode",
        "surrogate",
        "--key",
        key,
    ]
    subprocess.run(cmd + extra, check=True, capture_output=True)
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out.glob("*.txt"))}


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("gold", type=Path)
    parser.add_argument("--work", type=Path, default=Path("build/leak"))
    args = parser.parse_args(argv)
    docs, problems = read_corpus(args.gold)
    if problems:
        raise SystemExit(f"{len(problems)} reading problems in {args.gold}")
    shutil.rmtree(args.work, ignore_errors=True)
    src = args.work / "in"
    src.mkdir(parents=True)
    names = {}
    for d in docs:
        name = re.sub(r"[^\w.-]", "_", d.id) + ".txt"
        names[d.id] = name
        (src / name).write_text(d.text, encoding="utf-8")
    a = _redact(src, args.work / "a", "key-1", extra)
    b = _redact(src, args.work / "b", "key-1", extra)
    c = _redact(src, args.work / "c", "key-2", extra)
    checked = 0
    leaks: Counter[str] = Counter()
    for d in docs:
        out = a[names[d.id]]
        for s in d.spans:
            surface = d.text[s.start : s.end]
            if _safe_harbor(s.label, surface):
                continue
            checked += 1
            if re.search(rf"(?<!\w){re.escape(surface)}(?!\w)", out):
                leaks[s.label] += 1
    print(
        f"documents: {len(docs)}; same key identical: {a == b}; other key differs in "
        f"{sum(a[k] != c[k] for k in a)} of {len(a)} files"
    )
    print(
        f"gold PHI strings checked: {checked}; still present: {sum(leaks.values())} "
        f"({sum(leaks.values()) / max(1, checked):.2%}); by label: {dict(sorted(leaks.items()))}"
    )


if __name__ == "__main__":
    main()
