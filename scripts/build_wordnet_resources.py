"""Derive the small WordNet-based lists that phiscrub ships (run after build_lexicons.py).

Needs WordNet 3.0 database files, e.g. Debian's ``wordnet-base`` (``/usr/share/wordnet``). Writes:

* ``resources/lexicons/ambiguous_names.txt``: name / place entries of the bundled lexicons that are
  also common English words (a WordNet lemma with at least two sense-tagged occurrences, a function word,
  or a month/season/virtue name): "Will", "Mark", "Hope", "Bill", "May", "Brown" ... The lexicon detector needs extra evidence
  before tagging these.

Usage: python scripts/build_wordnet_resources.py [--wordnet /usr/share/wordnet]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEX = ROOT / "src" / "phiscrub" / "resources" / "lexicons"

# Function words and modals that WordNet does not list but that collide with names.
FUNCTION_WORDS = (
    """
a an and are as at be but by can could did do does for from had has have he her him his i if in into is it
its may me might must my no nor not of on or our shall she should so than that the their them then there
these they this those to too up us was we were what when where which while who whom why will with would
yet you your
""".split()
    + "april june august summer autumn winter spring dawn joy faith hope patience charity".split()
)


def tagged_lemmas(wordnet: Path) -> Counter[str]:
    """Sum of sense-tagged counts per single-word lemma over the four POS indexes."""
    counts: Counter[str] = Counter()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            p_cnt = int(fields[3])
            counts[fields[0]] += int(fields[5 + p_cnt])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    counts = tagged_lemmas(args.wordnet)
    common = {w for w, c in counts.items() if c >= 2 and w.isalpha()} | set(FUNCTION_WORDS)
    names: set[str] = set()
    for stem in ("first_names_female", "first_names_male", "last_names", "cities"):
        names.update((LEX / f"{stem}.txt").read_text(encoding="utf-8").splitlines())
    ambiguous = sorted({n for n in names if n and n.lower() in common})
    (LEX / "ambiguous_names.txt").write_text("\n".join(ambiguous) + "\n", encoding="utf-8")
    print(f"ambiguous_names.txt: {len(ambiguous)} entries")


if __name__ == "__main__":
    main()
