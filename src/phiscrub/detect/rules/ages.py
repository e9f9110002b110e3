"""AGE rules. The PHI span is the number only (i2b2 convention): ``54`` in ``54-year-old``.

Covered: ``54 yo``, ``54yo``, ``54 y/o``, ``54 y.o.``, ``54-year-old``, ``54 years old``,
``aged 54``, ``age 54``, ``Age: 54``, ``Age/Sex: 54/F``, ``54M`` / ``54 F`` (age-sex shorthand),
``54Y M``, ``(54 yrs)``, ``3 months old``, ``18-month-old``, ``in her 60s``, and ages without a
number after an age cue (``Age: newborn``, ``age: 3 wks``). Durations
(``for 3 years``, ``x 2 years``), temperatures (``101 F``), catheter sizes (``16F Foley``) and
gestational ages (``gestational age 34 weeks``) are not ages.
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit, text_after, text_before
from phiscrub.detect.rules.base import PatternRule, RuleDetector
from phiscrub.detect.rules.intl_ages import AGE_RULES_DE, AGE_RULES_FR, AGE_RULES_NL
from phiscrub.detect.rules.intl_nordic import NORDIC_AGE_RULES, NORDIC_LANGUAGES

_RX = pattern_data("ages")


__all__ = ["AGE_RULES_EN", "age_detector", "age_rules"]

_MAX_AGE = 125


def _number_age_ok(m: re.Match[str]) -> bool:
    """``54M``/``54 F`` must not be a temperature, a catheter size or a lab/vital value."""
    value = m.group("n") or m.group("paren")
    if int(value) > _MAX_AGE:
        return False
    if m.group("sex") is None:
        return True
    if _RX["NOT_AGE_SEX_AFTER_RE"].match(text_after(m, 20)):
        return False
    return _RX["NOT_AGE_SEX_BEFORE_RE"].search(text_before(m, 16)) is None


def _word_age_ok(m: re.Match[str]) -> bool:
    """``age 54``: not gestational/bone age, and not followed by weeks/days (a gestational age)."""
    if m.group("decade") is not None:
        return True
    if m.group("more") is not None:
        return (
            int(m.group("more")) <= _MAX_AGE
            and _RX["AGES_LIST_BEFORE_RE"].search(m.string, max(0, m.start() - 40), m.start()) is not None
        )
    if int(m.group("word")) > _MAX_AGE or _RX["GESTATIONAL_RE"].search(text_before(m, 16)):
        return False
    return _RX["WEEKS_AFTER_RE"].match(text_after(m, 8, "word")) is None


_EVENT_WORDS = (
    r"(?i)\b(?:diagnos\w*|dx|died|death|cancer|ca|mi|stroke|onset|walked|walking|talked|words|sentences|sat|crawled"
    r"|moved|emigrated|immigrated|relocated|came\s+out|married|retired|menarche|menopause|quit|started|began"
    r"|adopted|arrested|hysterectomy|surgery|transplant|presented|deceased|passed|lost|visit|recheck|check)\b"
)
_EVENT_BEFORE_RE = re.compile(_EVENT_WORDS + r"[^\n.;]{0,25}\Z")


def _age_event_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if int(m.group("n")) > _MAX_AGE or _EVENT_BEFORE_RE.search(text, max(0, start - 40), start) is None:
        return False
    return _RX["WEEKS_AFTER_RE"].match(text, m.end()) is None and not followed_by_unit(text, m.end())


def _apposition_ok(m: re.Match[str]) -> bool:
    return (
        int(m.group("n")) <= _MAX_AGE
        and _RX["APPOSITION_BEFORE_RE"].search(m.string, max(0, m.start() - 40), m.start()) is not None
    )


AGE_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("AGE", _RX["AGE_NUMBER_RE"],     name="age_number",     score=0.9, group=("n", "paren"), validator=_number_age_ok, not_after=r"[\w.,/\-]"),
    PatternRule("AGE", _RX["AGE_WORD_RE"],       name="age_word",       score=0.9, group=("word", "decade", "more"), validator=_word_age_ok, anchor=_RX["AGE_WORD_ANCHOR"], reach=(4, 40)),
    PatternRule("AGE", _RX["AGE_EVENT_RE"],      name="age_at_event",   score=0.6, group="n", validator=_age_event_ok),
    PatternRule("AGE", _RX["AGE_APPOSITION_RE"], name="age_apposition", score=0.6, group="n", validator=_apposition_ok),
)  # fmt: skip


AGE_RULES_ES: tuple[PatternRule, ...] = (
    PatternRule("AGE", _RX["AGE_ES_RE"], name="age_es", score=0.9, group=("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"), not_after=r"[\w]"),
)  # fmt: skip

AGE_RULES_EN = AGE_RULES_EN + (
    PatternRule("AGE", _RX["AGE_EN_NONUMERIC_RE"], name="age_cue_no_years", score=0.8, group=("w", "n"), anchor=re.compile(r"[Aa][Gg][Ee]"), reach=(2, 24)),
)  # fmt: skip


def _age_is_ok(m: re.Match[str]) -> bool:
    value = m.group("n")
    return not value.isdigit() or int(value) <= _MAX_AGE


AGE_RULES_EN = AGE_RULES_EN + (
    PatternRule("AGE", _RX["AGE_IN_WORDS_RE"], name="age_in_words", score=0.85, group=("w", "a"), anchor=re.compile(r"(?i:old|aged?)\b"), reach=(60, 40)),
    PatternRule("AGE", _RX["AGE_IS_RE"], name="age_is", score=0.7, group="n", validator=_age_is_ok, anchor=re.compile(r"\b(?i:is|was)\b"), reach=(12, 60)),
)  # fmt: skip

_AGE_RULES: dict[str, tuple[PatternRule, ...]] = {
    "en": AGE_RULES_EN,
    "es": AGE_RULES_ES,
    "ca": AGE_RULES_ES,
    "de": AGE_RULES_DE,
    "fr": AGE_RULES_FR,
    "nl": AGE_RULES_NL,
    # Issue 27: the Nordic packs (detect/rules/intl_nordic.py).
    **dict.fromkeys(NORDIC_LANGUAGES, NORDIC_AGE_RULES),
}


def age_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The AGE rules for ``lang`` (English, Spanish, Catalan; German, French and Dutch from
    :mod:`.intl_ages`; other languages get none)."""
    return _AGE_RULES.get(lang, ())


def age_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``age`` with the AGE rules for ``lang``."""
    return RuleDetector("age", age_rules(lang))
