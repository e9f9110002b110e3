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

from phiscrub.detect.rules._common import followed_by_unit, text_after, text_before
from phiscrub.detect.rules.base import PatternRule, RuleDetector
from phiscrub.detect.rules.intl_ages import AGE_RULES_DE, AGE_RULES_FR, AGE_RULES_NL
from phiscrub.detect.rules.intl_nordic import NORDIC_AGE_RULES, NORDIC_LANGUAGES

__all__ = ["AGE_RULES_EN", "age_detector", "age_rules"]

_MAX_AGE = 125

_NOT_AGE_SEX_AFTER_RE = re.compile(
    r"\s*(?:fr\b|french|foley|cath|catheter|sheath|tube|ett|ngt|ng\b|picc|drain|chest\s+tube|suction|gauge"
    r"|needle|trach|stent|introducer|dilator|°|degrees?|orally|oral|axillary|rectal|tympanic|temporal"
    r"|nacl|kcl|hcl|saline|solution|urea)",
    re.IGNORECASE,
)
_NOT_AGE_SEX_BEFORE_RE = re.compile(
    r"(?:\b(?:t|temp|temperature|tmax|tm|tc|febrile|fever|afebrile|size|sized|of|to|placed|inserted"
    r"|exchanged|upsized|downsized|with|fio2|peep|rate|hr|rr|bp|hgb|k|na|cl|co2|bun|cr|plt|wbc|#|no\.?)"
    r"|[°#])[\s:=]*\Z",
    re.IGNORECASE,
)
_GESTATIONAL_RE = re.compile(
    r"\b(?:gestational|bone|corrected|adjusted|ga|developmental|mental|reading)\s*\Z", re.IGNORECASE
)
_WEEKS_AFTER_RE = re.compile(r"\s*(?:\+|weeks?|wks?|days?|d\b|/7)", re.IGNORECASE)

# Every alternative starts with the number (or "("), so ``re`` skips ahead to digits; the
# empty marker groups (old, yo, sex) tell the validator which form matched.
_AGE_NUMBER_RE = re.compile(
    r"(?P<n>\d{1,3})(?:"
    # 54-year-old, 54 year old, 54 years old, 54-yr-old, 3 months old, 18-month-old, 5 day old.
    r"(?:\s*-\s*|\s+|-)?(?i:years?|yrs?|y|months?|mos?|weeks?|wks?|days?)(?:\s*-\s*|\s+|-)(?i:old)\b(?P<old>)"
    # 54yo, 54 y/o, 54 y.o., 54 YO F, 54yoM.
    r"|\s*(?i:yo|y/o|y\.o\.?|yoa)(?:\s?[MF])?(?![\w/])(?P<yo>)"
    # 54M, 54 F, 54Y M (age-sex shorthand).
    r"|\s?(?:[yY]\.?\s?)?(?:[MF]|yr\s?[MF])(?![\w'’/°])(?P<sex>)"
    r")"
    # (54 yrs) / (54 y) after a date of birth or a name.
    r"|\(\s*(?P<paren>\d{1,3})\s*(?i:y|yrs?|years?|yo|y/o)\s*[),;]"
)
_AGE_WORD_RE = re.compile(
    # aged 54, age 54, Age: 54, AGE 54, at the age of 54, Age/Sex: 54/F.
    r"(?<![\w])(?i:aged|age|ages|age\s+of|age\s*/\s*sex|age\s*/\s*gender)\b\.?[\s:=]*(?P<word>\d{1,3})"
    r"(?![\w:/]|\.\d|/\d)"
    # in her 60s / in his early 70s.
    r"|(?<![\w])(?i:in\s+(?:his|her|their)\s+(?:early\s+|mid[\s\-]|late\s+)?)(?P<decade>\d0'?s)\b"
    # ages 64, 66 and 70 (the later numbers of a list)
    r"|(?<=\d)(?:,[ \t]*|[ \t]+and[ \t]+)(?P<more>\d{1,3})(?![\w.:/%])"
)


def _number_age_ok(m: re.Match[str]) -> bool:
    """``54M``/``54 F`` must not be a temperature, a catheter size or a lab/vital value."""
    value = m.group("n") or m.group("paren")
    if int(value) > _MAX_AGE:
        return False
    if m.group("sex") is None:
        return True
    if _NOT_AGE_SEX_AFTER_RE.match(text_after(m, 20)):
        return False
    return _NOT_AGE_SEX_BEFORE_RE.search(text_before(m, 16)) is None


_AGES_LIST_BEFORE_RE = re.compile(
    r"(?i)\b(?:ages?|aged)[ \t:]+\d{1,3}(?:(?:,[ \t]*|[ \t]+and[ \t]+)\d{1,3})*\Z"
)


def _word_age_ok(m: re.Match[str]) -> bool:
    """``age 54``: not gestational/bone age, and not followed by weeks/days (a gestational age)."""
    if m.group("decade") is not None:
        return True
    if m.group("more") is not None:
        return (
            int(m.group("more")) <= _MAX_AGE
            and _AGES_LIST_BEFORE_RE.search(m.string, max(0, m.start() - 40), m.start()) is not None
        )
    if int(m.group("word")) > _MAX_AGE or _GESTATIONAL_RE.search(text_before(m, 16)):
        return False
    return _WEEKS_AFTER_RE.match(text_after(m, 8, "word")) is None


# "diagnosed at 55", "died at 69", "walked at 13": an age at a life event.
_AGE_EVENT_RE = re.compile(
    r"(?<![\w])(?i:at|by|when\s+(?:he|she|they)\s+was|when\s+(?:he|she)\s+were)[ \t]+(?P<n>\d{1,3})(?![\w.:/%])"
)
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
    return _WEEKS_AFTER_RE.match(text, m.end()) is None and not followed_by_unit(text, m.end())


# "her son, 65, is at home" / "Ms. Ferris, 82, is relocating": an age in apposition.
_AGE_APPOSITION_RE = re.compile(
    # starts with the comma itself (a literal is the cheapest start); the word before is checked after
    r",(?<=[A-Za-z],)[ \t]+(?P<n>\d{1,3})(?=[ \t]*(?:,|;|—|–|\)|[ \t]-[ \t]|[ \t]+(?:is|was|lives|stays|who|and|at)\b))"
)
_APPOSITION_BEFORE_RE = re.compile(
    r"(?i)\b(?:son|daughter|wife|husband|mother|father|brother|sister|partner|spouse|friend|boyfriend|girlfriend"
    r"|grandson|granddaughter|niece|nephew|cousin|sibling|mr|mrs|ms|miss|pt|patient)\b\.?(?:[ \t]+[A-Z][\w'’\-]*){0,3}\Z"
)


def _apposition_ok(m: re.Match[str]) -> bool:
    return (
        int(m.group("n")) <= _MAX_AGE
        and _APPOSITION_BEFORE_RE.search(m.string, max(0, m.start() - 40), m.start()) is not None
    )


# Every _AGE_WORD_RE match is near "age"/"aged"/"ages" or "in his/her/their".
_AGE_WORD_ANCHOR = re.compile(
    r"(?<![A-Za-z])(?:[Aa][Gg][Ee]|[Ii][Nn][ \t]+(?:[Hh][Ii][Ss]|[Hh][Ee][Rr]|[Tt][Hh][Ee][Ii][Rr])\b)"
)

AGE_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("AGE", _AGE_NUMBER_RE,     name="age_number",     score=0.9, group=("n", "paren"), validator=_number_age_ok, not_after=r"[\w.,/\-]"),
    PatternRule("AGE", _AGE_WORD_RE,       name="age_word",       score=0.9, group=("word", "decade", "more"), validator=_word_age_ok, anchor=_AGE_WORD_ANCHOR, reach=(4, 40)),
    PatternRule("AGE", _AGE_EVENT_RE,      name="age_at_event",   score=0.6, group="n", validator=_age_event_ok),
    PatternRule("AGE", _AGE_APPOSITION_RE, name="age_apposition", score=0.6, group="n", validator=_apposition_ok),
)  # fmt: skip


# Spanish and Catalan (MEDDOCAN convention: the span holds the number *and* its unit, "45 años",
# "14 meses", "recién nacida"). A bare "3 años" is usually a duration ("hace 3 años", "a los 3 años
# del diagnóstico"), so a cue must come first: a person noun + "de" ("varón de", "niña de"),
# "edad:", "tiene/tenía", or "de edad" right after.
_ES_NUMBER_WORDS = (
    r"un|una|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince"
    r"|dieciséis|dieciseis|diecisiete|dieciocho|diecinueve|veinte|veinti\w+|treinta|cuarenta|cincuenta"
    r"|sesenta|setenta|ochenta|noventa|cien|ciento|"
    # Catalan
    r"quatre|cinc|sis|set|vuit|nou|deu|onze|dotze|tretze|catorze|quinze|setze|disset|divuit|dinou|vint"
    r"|trenta|quaranta|cinquanta|seixanta|setanta|vuitanta|noranta"
)
_ES_QTY = rf"(?:\d{{1,3}}(?:[.,]5)?|(?:{_ES_NUMBER_WORDS})(?:\s+y\s+(?:{_ES_NUMBER_WORDS}))?)"
_ES_UNIT = (
    r"(?:años|año|anys|any|a\.?|meses|mes|mesos|semanas|semana|setmanes|setmana|días|dias|día|dia|dies)"
)
_ES_AGE = rf"{_ES_QTY}\s*{_ES_UNIT}(?:\s+y\s+(?:medio|{_ES_QTY}\s*{_ES_UNIT}))?"
_ES_NEWBORN = r"(?:recién|recien|nou)\s+nacid[oa]s?|nounat|nounada|neonato|neonata"
_ES_PERSON = (
    r"varón|varon|mujer|hombre|paciente|niña|niño|nena|nen|noi|noia|home|dona|lactante|joven|adolescente"
    r"|anciano|anciana|señor|señora|sra\.?|sr\.?|femenin[oa]|masculin[oa]|caucasian[oa]|gestante"
    r"|primigesta|secundigesta|multípara|multipara|bebé|bebe|pte"
)
# Kin words before an age ("Hermano de 3 años", "su hija de 12 años").
_ES_KIN = r"herman[oa]|hij[oa]|sobrin[oa]|niet[oa]|prim[oa]|germà|germana|fill|filla"
# A person line ("Paciente X Y, 74 a.", "pac. X (76 a)"): the age after the name on the same line.
_ES_PERSON_LINE = r"paciente|pac\.|nombre|usuari[oa]|persona\s+usuaria"
# Not an age: a duration ("de 3 años de evolución"), the "de" of "de edad"/"de vida" excepted.
_ES_NOT_DURATION = r"(?!\s+(?i:de\s+(?!edad\b|vida\b)|del\b|d'|tras\b|después\b|despues\b|antes\b))"
_AGE_ES_RE = re.compile(
    # varón de 45 años / mujer, de 3 meses / paciente de 14 meses de edad
    rf"(?i:\b(?:{_ES_PERSON})\b,?\s+(?:de|d'|con)\s+)(?P<a>{_ES_AGE})(?![\w])"
    # Edad: 45 años / Edat: 45 / Edad: recién nacida
    rf"|(?i:\b(?:edad|edat)\s*:?\s*)(?P<b>{_ES_AGE}|\d{{1,3}}(?![\d.,/:])|{_ES_NEWBORN})(?![\w])"
    # tiene 45 años / tenía 3 meses / cumplió 80 años
    rf"|(?i:\b(?:tiene|tenía|tenia|té|tenia|cumplió|cumplio|cumple|contaba\s+con)\s+)(?P<c>{_ES_AGE})(?![\w])"
    # 45 años de edad / 3 meses de vida
    rf"|(?P<d>{_ES_AGE})(?=\s+(?i:de\s+edad|d'edat|de\s+vida)\b)"
    # a recién nacido as the subject: "Recién nacida a término" at the start of a sentence / after a cue
    rf"|(?i:\b(?:paciente|se\s+trata\s+de\s+una?|ingresa\s+una?)\s+)(?P<e>{_ES_NEWBORN})\b"
    # the age at an event: "a los 14 años, menarquia", "fumador desde los 12 años" (years only: "a los 6
    # meses" is mostly follow-up; not "a los 3 años del diagnóstico", "a los 2 años de seguimiento")
    rf"|(?i:\b(?:a|desde|hasta)\s+los\s+)(?P<f>{_ES_QTY}\s*(?i:años|anys))(?![\w])"
    rf"(?!\s+(?i:de|del|d'|tras|después|despues|posteriores|siguientes|previos|antes|más|mas)\b)"
    # an apposition after a person word: "Paciente mujer, 44 años, derivada", "sexo femenino, 23 años,"
    rf"|(?i:\b(?:{_ES_PERSON}),\s+)(?P<g>{_ES_QTY}\s*(?i:años|meses|anys|mesos))(?=\s*[,.;)])"
    # "Hermano de 3 años", "su hija de 12 años"
    rf"|(?i:\b(?:{_ES_KIN})\s+de\s+)(?P<h>\d{{1,3}}\s*(?i:años|meses|anys|mesos)){_ES_NOT_DURATION}(?![\w])"
    # "varón de 76." / "Paciente de 45, ..." (a bare number after a person noun, ending the clause)
    rf"|(?i:\b(?:varón|varon|mujer|hombre|niña|niño|paciente)\s+de\s+)(?P<i>\d{{1,3}})(?=[ \t]*[.,;)](?!\d)|[ \t]*$)"
    # "Name, DNI 123, de 48 años": an age after a comma and "de" (not a duration: "de 3 años de evolución")
    rf"|(?<=,)\s+de\s+(?P<j>\d{{1,3}}\s*(?i:años|meses|anys|mesos)){_ES_NOT_DURATION}(?![\w])"
    # "Paciente X Y, 74 a., IQ cadera", "pac. X (76 a)": the age after a name on a person line
    rf"|(?i:\b(?:{_ES_PERSON_LINE}))[^\n,(]{{1,60}}[,(][ \t]*(?P<k>\d{{1,3}}[ \t]*(?i:años|a\.?))(?=[ \t]*[,.;)])"
    # "F. nacimiento: 14/05/1932 (91 años)": the age in brackets after a date of birth
    rf"|(?i:nacimiento|naixement|nac\.|F\.?[ \t]?N\.?)[ \t]*:?[ \t]*\d{{1,2}}[/.\-]\d{{1,2}}[/.\-]\d{{2,4}}[ \t]*\([ \t]*"
    rf"(?P<l>\d{{1,3}}[ \t]*(?i:años|anys|a\.?))(?=[ \t]*\))",
    re.MULTILINE,
)

AGE_RULES_ES: tuple[PatternRule, ...] = (
    PatternRule("AGE", _AGE_ES_RE, name="age_es", score=0.9, group=("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"), not_after=r"[\w]"),
)  # fmt: skip

# English ages without a number, after an explicit age cue only ("Age: newborn", "age: 3 wks").
_AGE_EN_NONUMERIC_RE = re.compile(
    r"(?<![\w])(?i:age)\s*:\s*(?:(?P<w>(?i:newborn|neonate))\b|(?P<n>\d{1,3})\s*(?i:months?|mos?|weeks?|wks?|days?|d)\b)"
)
AGE_RULES_EN = AGE_RULES_EN + (
    PatternRule("AGE", _AGE_EN_NONUMERIC_RE, name="age_cue_no_years", score=0.8, group=("w", "n"), anchor=re.compile(r"[Aa][Gg][Ee]"), reach=(2, 24)),
)  # fmt: skip

# Ages in words (issue 28, item 10): "a ninety-five year old", "aged ninety-two", and a bare number
# said of the patient ("Pt is 95.", "She was 91 and"). Safe-harbor reads the value
# (phiscrub.policy.age_in_years) and keeps those up to 89, as for digits.
_EN_ONES = r"one|two|three|four|five|six|seven|eight|nine"
_EN_NUMBER = (
    r"(?:(?:(?:one|a)[ \t]+)?hundred(?:[ \t]+and)?[ \t-]+)?"
    rf"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ \t]*-[ \t]*|[ \t]+)(?:{_EN_ONES})\b"
    r"|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
    r"|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    rf"|{_EN_ONES})"
    r"|(?:(?:one|a)[ \t]+)?hundred"
)
_AGE_IN_WORDS_RE = re.compile(
    # ninety-five year old, ninety five-year-old, ninety-five years old
    rf"(?<![\w-])(?P<w>{_EN_NUMBER})(?:[ \t]*-[ \t]*|[ \t]+)(?:years?|yrs?)(?:[ \t]*-[ \t]*|[ \t]+)old\b"
    # aged ninety-five, at the age of ninety-two
    rf"|(?<![\w])(?:aged|age[ \t]+of)[ \t]+(?P<a>(?>{_EN_NUMBER}))\b(?![ \t-]*(?:weeks?|wks?|days?|months?|mos?)\b)",
    re.IGNORECASE,
)
_AGE_IS_RE = re.compile(
    # Pt is 95. / Patient was ninety-one, / She is 92 and lives alone
    rf"(?<![\w])(?i:pt\.?|patient|he|she)[ \t]+(?i:is|was)[ \t]+(?:(?i:now)[ \t]+)?(?P<n>\d{{1,3}}|(?i:{_EN_NUMBER}))"
    r"(?=[ \t]*(?:[,;]|\.(?!\d)|$|[ \t]+(?i:and|today|now|but|with|yrs?|years?)\b))",
    re.MULTILINE,
)


def _age_is_ok(m: re.Match[str]) -> bool:
    value = m.group("n")
    return not value.isdigit() or int(value) <= _MAX_AGE


AGE_RULES_EN = AGE_RULES_EN + (
    PatternRule("AGE", _AGE_IN_WORDS_RE, name="age_in_words", score=0.85, group=("w", "a"), anchor=re.compile(r"(?i:old|aged?)\b"), reach=(60, 40)),
    PatternRule("AGE", _AGE_IS_RE, name="age_is", score=0.7, group="n", validator=_age_is_ok, anchor=re.compile(r"\b(?i:is|was)\b"), reach=(12, 60)),
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
