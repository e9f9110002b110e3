"""A small offline language identifier for clinical notes: stop words for Latin script, script for CJK.

Good enough to pick a rule pack per note (``lang="auto"``): each language has a few dozen frequent
function words (and a handful of clinical words); a word shared by several languages counts for
each of them in equal parts. A note whose letters are mostly Han characters is Chinese. Nothing is
downloaded and nothing is learned; the result is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["LANGID_LANGUAGES", "detect_language", "language_scores"]

_STOPWORDS: dict[str, str] = {
    "en": """the and of to in is was with for on that this are be at by from has have had not or an it he
        she his her patient were which no as but will been after denies history daily there they who
        without also""",
    "es": """el la los las de del y en con por para que se un una es al no su sus lo como más pero sin muy
        ya también paciente años presenta desde hasta días meses fue está ha sobre tras entre tiene
        refiere izquierda derecha tratamiento ingreso actualmente hace hay le según durante cuando""",
    "ca": """el la els les de del dels i en amb per que es un una és al no seva seu seus com més però sense
        molt ja també pacient anys presenta des fins dies mesos va està ha sobre després entre té
        refereix esquerra dreta tractament ingrés aquest aquesta hi ho pel pels fa actualment segons""",
    "de": """der die das und in mit von zu den dem des ist war ein eine einer nicht auf für bei nach seit im
        am sich wird wurde keine kein patient patientin jahre bis unter über aus als auch noch links
        rechts sowie bzw zur zum wir wurden""",
    "fr": """le la les de du des et en un une est dans pour par sur avec au aux ne pas qui que il elle son sa
        ses patient patiente ans depuis jusqu sans mais plus été était chez lors puis gauche droite
        traitement très aussi cette ce nous admis admise sorti sortie né née après antécédents examen""",
    "nl": """de het een en van in is met op voor te niet aan bij naar zijn was werd wordt die dat deze er ook
        geen patiënt patient jaar sinds tot na om als door over uit links rechts behandeling heeft had zij
        hij nog maar wij""",
    # Norwegian (bokmål with the common nynorsk forms), Danish, Swedish: issue 27's Nordic packs.
    "nb": """og i på med til av er som det en et for har ikke ble var fra etter ved hun han seg om de
        pasienten pasient år innlagt sykehus sykehuset fastlege ikkje vart frå sjukehus sjukehuset ho
        dei heime hjemme skal kan også uten eller mot hos nå bor alene ble blir fikk får litt mye
        tidligere uke uker dager døgn smerter feber kvalme innleggelse undersøkelse behandling sykdom
        hjem noen ingen etter siste ikkje vore kjent frisk plager""",
    "da": """og i på med til af er som det en et for har ikke blev var fra efter ved hun han sig om de
        patienten patient år indlagt sygehus sygehuset egen læge uden eller mod hos nu også skal kan
        hjem hjemme ingen bor alene fik får lidt meget tidligere uge uger dage døgn smerter feber
        kvalme indlæggelse undersøgelse behandling sygdom nogen efter sidste kendt rask gener""",
    "sv": """och i på med till av är som det en ett för har inte blev var från efter vid hon han sig om de
        patienten patient år inlagd sjukhus sjukhuset vårdcentral utan eller mot hos nu också ska kan
        hem hemma ingen bor ensam fick får lite mycket tidigare vecka veckor dagar dygn smärta smärtor
        feber illamående inläggning undersökning behandling sjukdom någon efter senaste känd frisk besvär""",
}
_WORDS: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in _STOPWORDS.items()}
# Letters (and letter pairs) typical of one or two of the languages; each hit counts half a word.
_MARKS: dict[str, str] = {
    "es": "ñ á í ó ú ¿ ¡",
    "ca": "à è ò ï l·l ç",
    "fr": "ê â î û ù ë œ ç è à",
    "de": "ä ö ü ß",
    "nl": "ij ë",
    "nb": "ø æ å",
    "da": "ø æ å",
    "sv": "ä ö å",
}
_MARK_RE = re.compile("|".join(sorted({m for ms in _MARKS.values() for m in ms.split()}, key=len)[::-1]))
_MARK_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _marks in _MARKS.items():
    for _m in _marks.split():
        _MARK_OWNERS[_m] = (*_MARK_OWNERS.get(_m, ()), _lang)
# word -> languages listing it
_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _set in _WORDS.items():
    for _w in _set:
        _OWNERS[_w] = (*_OWNERS.get(_w, ()), _lang)

#: Languages :func:`detect_language` can return.
LANGID_LANGUAGES: tuple[str, ...] = (*_STOPWORDS, "zh")

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")
# Words: letters, split at apostrophes ("l'hospital" -> "l", "hospital"); bracketed placeholders dropped.
_WORD = re.compile(r"[^\W\d_]+")
_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")
_MAX_CHARS = 20_000


def _evidence(text: str, min_word_len: int) -> tuple[dict[str, float], int, float]:
    """Stop-word hits per Latin-script language (typical letters at half a word), the number of
    words read, and the share of the letters that are Han characters."""
    sample = _PLACEHOLDER.sub(" ", text[:_MAX_CHARS])
    hits = dict.fromkeys(_STOPWORDS, 0.0)
    letters = len(_LETTER.findall(sample))
    han = len(_HAN.findall(sample)) / letters if letters else 0.0
    words = [w.lower() for w in _WORD.findall(sample) if len(w) >= min_word_len]
    if words:
        for w in words:
            owners = _OWNERS.get(w, ())
            for lang in owners:
                hits[lang] += 1.0 / len(owners)
        for m in _MARK_RE.finditer(sample.lower()):
            owners = _MARK_OWNERS[m.group()]
            for lang in owners:
                hits[lang] += 0.5 / len(owners)
    return hits, len(words), han


def language_scores(text: str, *, min_word_len: int = 1) -> dict[str, float]:
    """Evidence per language: stop-word hits per word (shared words split, typical letters counting
    half a word), ``zh`` by Han share.

    Args:
        text: the note (only its first 20,000 characters are read).
        min_word_len: words shorter than this are not read (2 keeps "c/d/i" from reading as Catalan).

    Returns:
        A score in ``[0, 1]`` for every language of :data:`LANGID_LANGUAGES`.
    """
    hits, n_words, han = _evidence(text, min_word_len)
    scores = {lang: min(1.0, hits[lang] / n_words) if n_words else 0.0 for lang in _STOPWORDS}
    scores["zh"] = han
    return scores


def detect_language(
    text: str,
    candidates: Iterable[str] | None = None,
    default: str = "en",
    *,
    min_word_len: int = 1,
    min_evidence: float = 0.0,
) -> str:
    """The most likely language of ``text``.

    Args:
        text: the note.
        candidates: languages to choose from (default: all of :data:`LANGID_LANGUAGES`).
        default: returned when the text gives no evidence (no letters, no known word).
        min_word_len: words shorter than this are not read.
        min_evidence: stop-word hits (typical letters at half a word) a language other than
            ``default`` needs to win; with less, ``default`` wins (short or telegraphic text).

    Returns:
        A language code; ``zh`` when at least a fifth of the letters are Han characters.
    """
    allowed = tuple(candidates) if candidates is not None else LANGID_LANGUAGES
    hits, n_words, han = _evidence(text, min_word_len)
    if "zh" in allowed and han >= 0.2:
        return "zh"
    latin = {
        lang: min(1.0, hits[lang] / n_words) if n_words else 0.0 for lang in allowed if lang in _STOPWORDS
    }
    if not latin or max(latin.values()) <= 0.0:
        return default
    # Ties go to the candidate listed first.
    best = max(latin, key=lambda lang: (latin[lang], -allowed.index(lang)))
    return default if best != default and hits[best] < min_evidence else best
