"""AGE rules. The PHI span is the number only (i2b2 convention): ``54`` in ``54-year-old``.

Covered: ``54 yo``, ``54yo``, ``54 y/o``, ``54 y.o.``, ``54-year-old``, ``54 years old``,
``aged 54``, ``age 54``, ``Age: 54``, ``Age/Sex: 54/F``, ``54M`` / ``54 F`` (age-sex shorthand),
``54Y M``, ``(54 yrs)``, ``3 months old``, ``18-month-old``, ``in her 60s``. Durations
(``for 3 years``, ``x 2 years``), temperatures (``101 F``) and catheter sizes (``16F Foley``) are
not ages.
"""

from __future__ import annotations

import re

from phiscrub.detect.rules._common import text_after, text_before
from phiscrub.detect.rules.base import PatternRule, RuleDetector

__all__ = ["AGE_RULES_EN", "age_detector", "age_rules"]

_NUM = r"(?<![\w.,/\-])(?P<a>\d{1,3})"


def _plausible(m: re.Match[str]) -> bool:
    return int(m.group("a")) <= 125


_NOT_AGE_SEX_AFTER_RE = re.compile(
    r"\s*(?:fr\b|french|foley|cath|catheter|sheath|tube|ett|ngt|ng\b|picc|drain|chest\s+tube|suction|gauge"
    r"|needle|trach|stent|introducer|dilator|°|degrees?|orally|oral|axillary|rectal|tympanic|temporal"
    r"|nacl|kcl|hcl|saline|solution|urea)",
    re.IGNORECASE,
)
_NOT_AGE_SEX_BEFORE_RE = re.compile(
    r"(?:\b(?:t|temp|temperature|tmax|tm|tc|febrile|fever|afebrile|size|sized|of|to|placed|inserted"
    r"|exchanged|upsized|downsized|with|fio2|peep|rate|hr|rr|bp|hgb|k|na|cl|co2|bun|cr|plt|wbc|#|no\.?)"
    r"|[°#])[\s:=]*$",
    re.IGNORECASE,
)


def _age_sex_ok(m: re.Match[str]) -> bool:
    """``54M``/``54 F``: reject temperatures, catheter sizes and lab or vital values."""
    if not _plausible(m):
        return False
    if _NOT_AGE_SEX_AFTER_RE.match(text_after(m, 20)):
        return False
    return _NOT_AGE_SEX_BEFORE_RE.search(text_before(m, 16)) is None


_GESTATIONAL_RE = re.compile(r"\b(?:gestational|bone|corrected|adjusted|ga|developmental|mental|reading)\s*$", re.I)


def _age_word_ok(m: re.Match[str]) -> bool:
    """``age 54``: not gestational/bone age, and not followed by weeks/days (a gestational age)."""
    if not _plausible(m):
        return False
    if _GESTATIONAL_RE.search(text_before(m, 16)):
        return False
    return re.match(r"\s*(?:\+|weeks?|wks?|days?|d\b|/7)", text_after(m, 8, "a"), re.IGNORECASE) is None


AGE_RULES_EN: tuple[PatternRule, ...] = (
    # 54-year-old, 54 year old, 54 years old, 54-yr-old, 3 months old, 18-month-old, 5 day old.
    PatternRule(
        "AGE",
        re.compile(
            rf"{_NUM}(?:\s*-\s*|\s+|-)?(?:years?|yrs?|y|months?|mos?|weeks?|wks?|days?)(?:\s*-\s*|\s+|-)old\b",
            re.IGNORECASE,
        ),
        group="a",
        validator=_plausible,
        score=0.95,
        name="n_year_old",
    ),
    # 54yo, 54 y/o, 54 y.o., 54 YO F, 54yoM.
    PatternRule(
        "AGE",
        re.compile(rf"{_NUM}\s*(?:yo|y/o|y\.o\.?|yoa)(?:\s?[MF])?(?![\w/])", re.IGNORECASE),
        group="a",
        validator=_plausible,
        score=0.95,
        name="n_yo",
    ),
    # aged 54, age 54, Age: 54, AGE 54, at the age of 54, Age/Sex: 54/F.
    PatternRule(
        "AGE",
        re.compile(
            r"\b(?:aged|age|ages|age\s+of|age\s*/\s*sex|age\s*/\s*gender|edad|âge|alter)\b\.?[\s:=]*(?P<a>\d{1,3})"
            r"(?![\w:/]|\.\d|/\d)",
            re.IGNORECASE,
        ),
        group="a",
        validator=_age_word_ok,
        score=0.9,
        name="age_word",
    ),
    # 54M, 54 F, 54Y M, 54 y F (age-sex shorthand).
    PatternRule(
        "AGE",
        re.compile(rf"{_NUM}\s?(?:[yY]\.?\s?)?(?:[MF]|yr\s?[MF])(?![\w'’/°])"),
        group="a",
        validator=_age_sex_ok,
        score=0.75,
        name="age_sex",
    ),
    # (54 yrs) / (54 y) / 54 y, after DOB or a name.
    PatternRule(
        "AGE",
        re.compile(rf"\(\s*(?P<a>\d{{1,3}})\s*(?:y|yrs?|years?|yo|y/o|a|años|anys)\s*[),;]", re.IGNORECASE),
        group="a",
        validator=_plausible,
        score=0.85,
        name="paren_years",
    ),
    # in her 60s / in his early 70s.
    PatternRule(
        "AGE",
        re.compile(r"\bin\s+(?:his|her|their|the)\s+(?:early\s+|mid[\s\-]|late\s+)?(?P<a>\d0'?s)\b", re.IGNORECASE),
        group="a",
        score=0.7,
        name="decade",
    ),
)


def age_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The AGE rules for ``lang`` (English; other languages get none for now)."""
    return AGE_RULES_EN if lang == "en" else ()


def age_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``age`` with the AGE rules for ``lang``."""
    return RuleDetector("age", age_rules(lang))
