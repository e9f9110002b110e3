"""Masking strategies and priority profiles (Ren et al. 2025, section 3.4.3 and Table 11).

A strategy is a mixture ``{category: ratio}``. For each category, ``round(ratio * n)`` of the ``n``
*eligible* words of that category are drawn at random (the ratio is over eligible words, as in the
paper, not over all tokens); the union of the draws is masked. Categories:

* ``random``: any eligible word;
* ``nouns``, ``verbs``, ``adjectives``, ``adverbs``: eligible words with that WordNet part of speech;
* ``stopwords``: eligible stopwords;
* ``clinical``: plain single words of the medical lexicon (normally kept; only the ``diversity``
  profile masks a few of them, "clinical terms masking (limited)").

Named strategies: ``random``, ``nouns``, ``verbs``, ``stopwords`` (one category at ``ratio``) and
``hybrid`` (``nouns`` and ``stopwords``, each at ``ratio``). Profiles follow Table 11 (priority-based
guidelines): ``diversity`` (random masking mainly, a little clinical-term masking), ``clinical``
(clinical terms kept, stopwords extensively, some verbs/nouns), ``privacy`` (PHI always replaced,
detectors also run on labelled input, nouns extensively, verbs/stopwords medium).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from phiscrub.errors import ConfigError
from phiscrub.synth.features import Word

__all__ = [
    "CATEGORIES",
    "PROFILES",
    "STRATEGIES",
    "MaskingStrategy",
    "Profile",
    "category_members",
    "parse_mix",
    "select_masks",
]

#: Word categories a strategy can draw from.
CATEGORIES: tuple[str, ...] = ("random", "nouns", "verbs", "adjectives", "adverbs", "stopwords", "clinical")
#: Named strategies of the CLI.
STRATEGIES: tuple[str, ...] = ("random", "stopwords", "nouns", "verbs", "hybrid")
_POS = {"nouns": "n", "verbs": "v", "adjectives": "a", "adverbs": "r"}


@dataclass(frozen=True)
class MaskingStrategy:
    """A mixture of word categories and the share of each to mask.

    Args:
        ratios: category (see :data:`CATEGORIES`) -> ratio in ``[0, 1]``.
        name: a display name.

    Raises:
        ConfigError: unknown category or a ratio outside ``[0, 1]``.
    """

    ratios: Mapping[str, float]
    name: str = "custom"

    def __post_init__(self) -> None:
        for cat, ratio in self.ratios.items():
            if cat not in CATEGORIES:
                raise ConfigError(f"unknown masking category {cat!r}; use one of {', '.join(CATEGORIES)}")
            if not 0.0 <= ratio <= 1.0:
                raise ConfigError(f"masking ratio for {cat} must be in [0, 1], got {ratio}")
        object.__setattr__(self, "ratios", dict(self.ratios))

    @classmethod
    def named(cls, name: str, ratio: float) -> MaskingStrategy:
        """A named strategy (:data:`STRATEGIES`) at ``ratio``; ``hybrid`` is nouns + stopwords.

        Raises:
            ConfigError: unknown name or bad ratio.
        """
        if name == "hybrid":
            return cls({"nouns": ratio, "stopwords": ratio}, name=f"hybrid-{ratio:g}")
        if name not in STRATEGIES:
            raise ConfigError(f"unknown masking strategy {name!r}; use one of {', '.join(STRATEGIES)}")
        return cls({name: ratio}, name=f"{name}-{ratio:g}")

    def describe(self) -> str:
        """``nouns=0.5,stopwords=0.5`` (categories sorted)."""
        return ",".join(f"{k}={v:g}" for k, v in sorted(self.ratios.items()))


def parse_mix(text: str) -> MaskingStrategy:
    """Parse ``"nouns=0.5,stopwords=0.5"`` into a strategy.

    Raises:
        ConfigError: malformed item, unknown category or bad ratio.
    """
    ratios: dict[str, float] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        try:
            ratios[key.strip()] = float(value) if sep else float("nan")
        except ValueError:
            raise ConfigError(f"bad masking mix item {item.strip()!r}; write category=ratio") from None
        if ratios[key.strip()] != ratios[key.strip()]:
            raise ConfigError(f"bad masking mix item {item.strip()!r}; write category=ratio")
    if not ratios:
        raise ConfigError("empty masking mix")
    return MaskingStrategy(ratios, name=f"mix-{text.replace(' ', '')}")


def category_members(words: Sequence[Word], category: str) -> list[int]:
    """Indices of the words of ``category`` that the category may mask.

    Raises:
        ConfigError: unknown category.
    """
    if category == "random":
        return [i for i, w in enumerate(words) if w.eligible]
    if category == "stopwords":
        return [i for i, w in enumerate(words) if w.eligible and w.stopword]
    if category in _POS:
        pos = _POS[category]
        return [i for i, w in enumerate(words) if w.eligible and w.pos == pos]
    if category == "clinical":
        # Lower-case plain words only: abbreviations and capitalised drug names stay.
        return [
            i for i, w in enumerate(words) if w.role == "clinical" and w.text.isalpha() and w.text.islower()
        ]
    raise ConfigError(f"unknown masking category {category!r}; use one of {', '.join(CATEGORIES)}")


def select_masks(words: Sequence[Word], strategy: MaskingStrategy, rng: random.Random) -> list[int]:
    """Draw the words to mask: ``round(ratio * n)`` members of each category, united.

    Args:
        words: the letter's words (:attr:`LetterFeatures.words`).
        strategy: the mixture.
        rng: random source (seeded by the caller).

    Returns:
        Sorted word indices.
    """
    chosen: set[int] = set()
    for category in sorted(strategy.ratios):
        members = category_members(words, category)
        k = round(strategy.ratios[category] * len(members))
        if k:
            chosen.update(rng.sample(members, k))
    return sorted(chosen)


@dataclass(frozen=True)
class Profile:
    """A priority-based preset (Table 11).

    Attributes:
        name: ``diversity``, ``clinical`` or ``privacy``.
        strategy: the masking mixture.
        detect: PHI detection policy: ``auto`` (only letters without gold spans), ``always``.
        lexicon_detector: also run the name/place lexicon detector.
        top_k: sample each fill among the best ``top_k`` valid candidates (1: best only).
        note: the scenario, for help texts.
    """

    name: str
    strategy: MaskingStrategy
    detect: str = "auto"
    lexicon_detector: bool = False
    top_k: int = 1
    note: str = field(default="", compare=False)


#: The three profiles of Table 11.
PROFILES: dict[str, Profile] = {
    "diversity": Profile(
        "diversity",
        MaskingStrategy({"random": 0.5, "clinical": 0.1}, name="diversity"),
        top_k=3,
        note="model generalisation, pre-training, data augmentation",
    ),
    "clinical": Profile(
        "clinical",
        MaskingStrategy({"stopwords": 0.8, "verbs": 0.2, "nouns": 0.2}, name="clinical"),
        note="clinical education, QA and fine-tuning data: clinical terms kept",
    ),
    "privacy": Profile(
        "privacy",
        MaskingStrategy({"nouns": 0.8, "verbs": 0.5, "stopwords": 0.5}, name="privacy"),
        detect="always",
        lexicon_detector=True,
        note="open datasets, commercial deployment: PHI replaced, nouns masked extensively",
    ),
}
