"""Settings and counts of a synthesis run: :class:`SynthConfig` (with the Table 11 profiles and the CLI's
option rules) and :class:`SynthStats`, and where ``phiscrub synth`` writes those counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from phiscrub.config import check_fields, load_config
from phiscrub.errors import ConfigError
from phiscrub.synth.chunking import DEFAULT_MAX_LINES, DEFAULT_MAX_TOKENS
from phiscrub.synth.masking import PROFILES, MaskingStrategy, parse_mix

__all__ = [
    "DETECT_POLICIES",
    "FILL_LANGS",
    "PHI_MODES",
    "DetectPolicy",
    "PhiMode",
    "SynthConfig",
    "SynthStats",
    "stats_file_for",
]

PhiMode = Literal["surrogate", "refill"]
DetectPolicy = Literal["auto", "always", "never"]
#: What happens to PHI spans (:attr:`SynthConfig.phi`).
PHI_MODES: tuple[str, ...] = get_args(PhiMode)
#: When the detectors run (:attr:`SynthConfig.detect`).
DETECT_POLICIES: tuple[str, ...] = get_args(DetectPolicy)
#: Surrogate languages a letter may be written in (``lang`` metadata).
FILL_LANGS = ("en", "es", "ca", "zh")


@dataclass
class SynthStats:
    """Counts of a synthesis run (never any text).

    Attributes:
        letters: letters synthesized.
        words: words seen.
        eligible: eligible words.
        masked: words masked by the strategy.
        blanks: de-identification blanks refilled (or tried).
        phi_spans: PHI spans found (gold, detected, propagated).
        phi_surrogates: PHI spans replaced by surrogates.
        phi_refilled: PHI spans masked and refilled.
        slots: slots sent to the refiller.
        invalid: slots whose best prediction was invalid (subword, punctuation, empty).
        fallback: slots with no valid prediction at all (original kept / generic word).
        changed: masked words whose fill differs from the original word.
        spelling: spelling corrections.
        phi_leaks: original PHI surfaces still found in the output (should stay 0).
        seconds: wall time spent synthesizing.
    """

    letters: int = 0
    words: int = 0
    eligible: int = 0
    masked: int = 0
    blanks: int = 0
    phi_spans: int = 0
    phi_surrogates: int = 0
    phi_refilled: int = 0
    slots: int = 0
    invalid: int = 0
    fallback: int = 0
    changed: int = 0
    spelling: int = 0
    phi_leaks: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """A one-line summary (counts and rates only)."""
        per = self.seconds / self.letters if self.letters else 0.0
        rate = self.invalid / self.slots if self.slots else 0.0
        return (
            f"{self.letters} letters, {self.words} words ({self.eligible} eligible), {self.masked} masked, "
            f"{self.blanks} blanks, {self.phi_spans} PHI spans ({self.phi_surrogates} surrogates, "
            f"{self.phi_refilled} refilled); {self.slots} slots refilled, {self.invalid} invalid best "
            f"predictions ({rate:.1%}), {self.fallback} fallbacks, {self.changed} words changed, "
            f"{self.spelling} spelling fixes, {self.phi_leaks} PHI leaks; {per:.2f} s/letter"
        )

    def as_dict(self) -> dict[str, float]:
        """The counts as a dict."""
        return {k: float(v) if isinstance(v, float) else v for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class SynthConfig:
    """Settings of a synthesis run (a table loads with :func:`phiscrub.config.load_config`; a
    ``strategy`` table holds ``ratios`` and ``name``).

    Args:
        strategy: the masking mixture (:mod:`phiscrub.synth.masking`).
        phi: ``surrogate`` (every PHI span gets a labelled surrogate) or ``refill`` (detected PHI is
            masked and refilled; gold PHI still gets labelled surrogates).
        detect: ``auto`` runs the detectors on letters without gold spans, ``always`` on every
            letter (gold spans win overlaps), ``never`` uses gold spans only.
        detector_model: None for rules only (fast), ``"default"`` for the bundled tagger too, or a
            tagger model folder.
        lexicon_detector: also run the name/place lexicon detector.
        fill_blanks: refill de-identification blanks (``___``, ``[**...**]``).
        spellcheck: correct misspelled unmasked words (never clinical terms).
        top_k: pick each fill at random among the best ``top_k`` valid candidates (1: the best).
        max_lines: sentences per chunk.
        max_tokens: tokens per chunk.
        seed: base seed; each letter gets its own stream from it and the letter id.
        lang: surrogate language (``auto``: the letter's ``lang`` metadata, else detected).

    Raises:
        ConfigError: a bad value.
    """

    strategy: MaskingStrategy = field(default_factory=lambda: MaskingStrategy.named("random", 0.3))
    phi: PhiMode = "surrogate"
    detect: DetectPolicy = "auto"
    detector_model: str | None = None
    lexicon_detector: bool = False
    fill_blanks: bool = True
    spellcheck: bool = False
    top_k: int = 1
    max_lines: int = DEFAULT_MAX_LINES
    max_tokens: int = DEFAULT_MAX_TOKENS
    seed: int = 0
    lang: str = "auto"

    def __post_init__(self) -> None:
        check_fields(self)  # types, and phi / detect among PHI_MODES / DETECT_POLICIES
        if self.top_k < 1:
            raise ConfigError("top_k must be at least 1")
        if self.lang not in (*FILL_LANGS, "auto"):
            raise ConfigError(f"unknown surrogate language {self.lang!r}")

    @classmethod
    def from_profile(cls, name: str, **overrides: Any) -> SynthConfig:
        """The configuration of a Table 11 profile (``diversity``, ``clinical``, ``privacy``).

        Args:
            name: profile name.
            overrides: fields to set instead of the profile's.

        Raises:
            ConfigError: unknown profile, or an unknown or invalid override.
        """
        if name not in PROFILES:
            raise ConfigError(f"unknown profile {name!r}; use one of {', '.join(PROFILES)}")
        prof = PROFILES[name]
        base: dict[str, Any] = {
            "strategy": prof.strategy,
            "detect": prof.detect,
            "lexicon_detector": prof.lexicon_detector,
            "top_k": prof.top_k,
        }
        base.update(overrides)
        return load_config(base, cls)

    @classmethod
    def resolve(
        cls,
        profile: str | None = None,
        *,
        strategy: str | None = None,
        ratio: float | None = None,
        mix: str | None = None,
        detect: DetectPolicy | None = None,
        lexicon_detector: bool | None = None,
        top_k: int | None = None,
        **fields: Any,
    ) -> SynthConfig:
        """The configuration ``phiscrub synth`` options describe: a profile (or the defaults), its
        masking replaced by ``mix``, or by ``strategy``/``ratio`` (random 0.3 when neither a profile nor
        a strategy is given), and every option given (not None) set on top.

        Raises:
            ConfigError: unknown profile, strategy or bad mixture.
        """
        overrides: dict[str, Any] = dict(fields)
        if mix is not None:
            overrides["strategy"] = parse_mix(mix)
        elif strategy is not None or ratio is not None or profile is None:
            overrides["strategy"] = MaskingStrategy.named(
                strategy or "random", 0.3 if ratio is None else ratio
            )
        for key, value in (("detect", detect), ("lexicon_detector", lexicon_detector), ("top_k", top_k)):
            if value is not None:
                overrides[key] = value
        return cls.from_profile(profile, **overrides) if profile else load_config(overrides, cls)


def stats_file_for(output: str | Path) -> Path:
    """Where ``phiscrub synth -o OUTPUT`` writes its statistics: ``OUTPUT/stats.json`` for a folder
    output, else ``OUTPUT.stats.json``."""
    out = Path(output)
    return out / "stats.json" if out.is_dir() else out.with_name(out.name + ".stats.json")
