"""Build ``resources/lexicons/given_names_world.txt``: given names of communities the surrogate lists
(``first_names_*.txt``, Western Faker locales) leave out, for detection only.

The name rules and the clinical guard read a lower-case word as a given name when the bundled lists
hold it ("d/w kate", "daughter mary"); staff and families in US hospitals also carry South Asian, West
and East African, Turkish and Vietnamese names ("d/w anjali (fellow)"). This file adds the given names of
Faker's ``en_IN``, ``yo_NG``, ``sw``, ``tw_GH``, ``tr_TR`` and ``vi_VN`` person providers (MIT), folded to
ASCII where a note would write them so, keeping single Latin-script words of three or more letters.
Surrogates never draw from it. Rerun after a Faker upgrade:

    python scripts/build_given_names_world.py
"""

from __future__ import annotations

import importlib
import unicodedata
from pathlib import Path

import faker

LOCALES = ("en_IN", "yo_NG", "sw", "tw_GH", "tr_TR", "vi_VN")
OUT = (
    Path(__file__).resolve().parents[1]
    / "src"
    / "phiscrub"
    / "resources"
    / "lexicons"
    / "given_names_world.txt"
)


def _ascii(name: str) -> str:
    folded = unicodedata.normalize(
        "NFKD", name.replace("ı", "i").replace("İ", "I").replace("đ", "d").replace("Đ", "D")
    )
    return "".join(c for c in folded if not unicodedata.combining(c))


def given_names() -> set[str]:
    """Every given name of ``LOCALES``, ASCII-folded, single words of 3+ letters."""
    out: set[str] = set()
    for loc in LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{loc}").Provider
        for attr in ("first_names", "first_names_female", "first_names_male"):
            values = getattr(provider, attr, ())
            for name in values.keys() if isinstance(values, dict) else values:
                word = _ascii(name)
                if word.isascii() and word.isalpha() and len(word) >= 3 and word[0].isupper():
                    out.add(word)
    return out


def plain_words() -> set[str]:
    """Lower-case words a given name must not be: WordNet and clinical vocabulary, unless the Western
    given-name lists already hold the word ("Grace", "Mark")."""
    from phiscrub.detect.clinical_vocab import clinical_vocabulary
    from phiscrub.resources import load_lexicon

    vocab = clinical_vocabulary()
    western = {w.lower() for stem in ("first_names_female", "first_names_male") for w in load_lexicon(stem)}
    abbreviations = {a.lower() for a in vocab.abbreviations}
    return (set(vocab.wordnet) | set(vocab.clinical) | abbreviations | set(vocab.common)) - western


def main() -> int:
    OUT.write_text("", encoding="utf-8")  # the vocabulary below must not read an older build
    plain = plain_words()
    names = sorted(n for n in given_names() if n.lower() not in plain and n[1:].islower())
    OUT.write_text("".join(n + "\n" for n in names), encoding="utf-8")
    print(f"{len(names)} names (Faker {faker.VERSION}) -> {OUT.relative_to(OUT.parents[4])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
