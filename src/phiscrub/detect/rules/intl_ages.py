"""AGE rules of the German, French and Dutch packs (the number only, as in the English rules).

A bare "3 Jahre" / "3 ans" / "3 jaar" is usually a duration ("seit 3 Jahren", "depuis 3 ans",
"sinds 3 jaar"), so an age needs a cue:

* German: ``67-jährige``, ``67jähriger``, ``67 J.`` after a comma, parenthesis or ``Alter``,
  ``67 Jahre alt``, ``im Alter von 67 Jahren``, ``Alter: 67``, ``, 67 Jahre,`` in a header
  (``Klient: Herr X, 70 Jahre, Station 3A``), ``(Alter: 7 Monate)``, ``die 85 J. alte Versicherte``,
  ``Pat. ist 81 und ...``, ``die Kinder (32 und 41 Jahre)``;
* French: ``âgé de 67 ans``, ``patiente de 67 ans``, ``M. X, 67 ans``, ``Âge : 67 ans``, ``(67 ans)``,
  ``67 ans,`` at a header's end, ``enfant de 9 mois``;
* Dutch: ``67-jarige``, ``67 jaar oud``, ``, 67 jaar``, ``leeftijd: 67``, ``(67 jaar)``.
"""

from __future__ import annotations

import re

from phiscrub.detect.rules.base import PatternRule

__all__ = ["AGE_RULES_DE", "AGE_RULES_FR", "AGE_RULES_NL"]


def _n(name: str) -> str:
    return rf"(?P<{name}>\d{{1,3}})"


_AGE_DE_RE = re.compile(
    rf"(?<![\d.,]){_n('a')}[ \t]?-?[ \t]?(?:jährige[nrms]?|jährig|Jähriger|Jährige|-Jährige[nr]?)(?![\w])"
    rf"|(?:,(?:[ \t]*(?:ca\.|etwa|circa))?|\(|(?i:Alter)[ \t]*:?|(?i:Alter[ \t]+von)|\bist|\bwar|\bwird)[ \t]*{_n('b')}[ \t]*"
    r"(?:J\.|Jahre(?:n)?|Jahr|Jr\.|Lj\.|LJ|a\b|Monate|Monaten|Mon\.)(?=[\s,;.)]|\Z)(?![ \t]+(?:lang|her|zuvor|später|nach|vor)\b)"
    rf"|(?i:Alter)[ \t]*:[ \t]*{_n('c')}(?![\d.,])"
    rf"|(?<![\d.,]){_n('d')}[ \t]*(?:Jahre|J\.)[ \t]+alte?[nrms]?\b"
    # "Pat. ist 81 und ...": a bare number after a patient word and "ist"/"war".
    rf"|(?:\bPat\.|\bPatient(?:in)?|\bVersicherte[r]?)[ \t]+(?:ist|war)[ \t]+{_n('i')}(?![\d.,]|[ \t]*[^\W\d_]*[%/°])"
    r"(?=[ \t]+(?:und|,)|[ \t]*[,.;)]|\Z)"
    # "die Kinder (32 und 41 Jahre)", "Kinder im Alter von 5 und 8 Jahren": both numbers.
    rf"|(?:\(|(?i:Alter[ \t]+von))[ \t]*{_n('j')}[ \t]*(?:und|,|/|bzw\.)[ \t]*{_n('k')}[ \t]*(?:Jahre(?:n)?|J\.)(?=[\s,;.)]|\Z)"
)
_AGE_FR_RE = re.compile(
    rf"(?:(?i:âgée?|agée?|âgé\(e\))[ \t]+de[ \t]+|(?i:patiente?|homme|femme|enfant|garçon|fille|nourrisson|"
    rf"monsieur|madame|adolescente?|sujet|nouveau-né|bébé|retraitée?)[ \t]+de[ \t]+|(?i:âge)[ \t]*:[ \t]*|,[ \t]*|\([ \t]*|"
    rf"\b(?:a|avait)[ \t]+){_n('e')}[ \t]*(?:ans|an|mois)\b(?![ \t]+(?:plus[ \t]+tard|auparavant|après))"
)
_AGE_NL_RE = re.compile(
    rf"(?<![\d.,]){_n('f')}[ \t]?-?[ \t]?(?:jarige|jarig)\b"
    rf"|(?:,|\(|(?i:leeftijd)[ \t]*:?|\bis|\bwas)[ \t]*{_n('g')}[ \t]*(?:jaar|jr\.?|maanden)\b(?![ \t]+(?:geleden|later|lang)\b)"
    rf"|(?<![\d.,]){_n('h')}[ \t]*jaar[ \t]+oud\b"
)


def _rule(pattern: re.Pattern[str], code: str) -> PatternRule:
    groups = tuple(g for g in pattern.groupindex if len(g) == 1)
    return PatternRule("AGE", pattern, group=groups, score=0.85, name=f"age_{code}")


AGE_RULES_DE: tuple[PatternRule, ...] = (_rule(_AGE_DE_RE, "de"),)
AGE_RULES_FR: tuple[PatternRule, ...] = (_rule(_AGE_FR_RE, "fr"),)
AGE_RULES_NL: tuple[PatternRule, ...] = (_rule(_AGE_NL_RE, "nl"),)
