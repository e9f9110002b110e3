"""One language decision per note, made here and nowhere else.

Every part of the pipeline that depends on a note's language (the rule packs, the bundled model's
language gate, the default policy, the clinical guard, the surrogates) reads the code that
:func:`decide_language` wrote into the document's ``lang`` metadata (:func:`with_language`). Before
this module the language was guessed up to three times per note by two different rules and the
codes were normalized in five places; now :class:`~phiscrub.Deidentifier` tags each document once
and the others read the tag.

The decision, for a Deidentifier ``lang`` setting:

* a language code (``en``, ``es``, ``nb`` ...): that language for every note (the user said so);
* ``auto``: the note's ``lang``/``language`` metadata, else the guess;
* ``default`` (no ``--lang``): the metadata, else English unless the guess is *clearly* another
  language (:attr:`LanguageGuess.clear`), so that English results do not move while a German or
  Norwegian note no longer gets the English rules and model.

The guess is ``py3langid`` (a naive Bayes identifier over byte n-grams, trained on 97 languages,
model shipped in the wheel, no download) restricted to :data:`GUESS_LANGUAGES`, with three rules of
our own measured on the project's sets (``scripts/eval_langid.py``, ``docs/crosslingual.md``):
a note whose letters are a fifth Han characters is Chinese; a note with fewer than
:data:`SHORT_NOTE_WORDS` words is English unless the stop-word counter of
:mod:`phiscrub.langid` agrees with the identifier or the identifier is all but sure (short, ALL CAPS and
abbreviation-heavy English notes such as "PT 67 YO M W/ HX OF CHF" read as anything to an n-gram
model); Spanish and Catalan, which the identifier confuses on clinical text, are told apart by the
stop-word counter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from phiscrub.document import Document

__all__ = [
    "GUESS_LANGUAGES",
    "LANG_MODES",
    "SHORT_NOTE_WORDS",
    "LanguageGuess",
    "decide_language",
    "given_language",
    "guess_language",
    "language_of",
    "normalize_lang",
    "with_language",
]

#: Settings that are not a language: ``auto`` (metadata, else the guess) and ``default`` (metadata,
#: else English unless the note is clearly another language).
LANG_MODES: frozenset[str] = frozenset({"auto", "default"})

#: Languages the identifier may answer (py3langid codes; ``no`` is reported as ``nb``).
GUESS_LANGUAGES: tuple[str, ...] = (
    "en", "es", "ca", "de", "fr", "nl", "it", "pt", "no", "nn", "da", "sv", "fi", "is", "pl", "cs", "sk",
    "sl", "hr", "hu", "ro", "et", "lv", "lt", "el", "ru", "uk", "bg", "tr", "zh", "ja", "ko", "ar",
)  # fmt: skip
#: Notes with fewer words are English unless the stop words agree with the identifier.
SHORT_NOTE_WORDS = 40
#: A note is clearly not English when the identifier gives English at most ``1 -`` this.
CLEAR_PROBABILITY = 0.9
#: A short note is another language than English only when the stop words agree or the identifier
#: gives it at least this probability (no English variant of the project's sets reached it).
SURE_PROBABILITY = 0.99
# Region-free aliases: the codes people and tools write for the same language.
_ALIASES = {"no": "nb", "nob": "nb", "nno": "nn", "iw": "he", "in": "id", "eng": "en", "deu": "de",
            "ger": "de", "spa": "es", "fra": "fr", "fre": "fr", "nld": "nl", "dut": "nl", "dan": "da",
            "swe": "sv", "cat": "ca", "zho": "zh", "chi": "zh"}  # fmt: skip
# Norwegian, Danish and Swedish share many stop words: agreement within the family is enough.
_NORDIC = frozenset({"nb", "nn", "da", "sv"})
_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")
_MAX_CHARS = 20_000


def normalize_lang(lang: str) -> str:
    """``"es-ES"``, ``"ES"``, ``"es_ES"`` -> ``"es"``; ``"no"``/``"nob"`` -> ``"nb"``; modes unchanged."""
    code = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    return _ALIASES.get(code, code)


def given_language(metadata: Mapping[str, Any]) -> str | None:
    """The normalized ``lang`` (else ``language``) metadata of a note, or None when absent or a mode."""
    for key in ("lang", "language"):
        value = metadata.get(key)
        if isinstance(value, str) and value.strip():
            code = normalize_lang(value)
            return None if code in LANG_MODES else code
    return None


@dataclass(frozen=True)
class LanguageGuess:
    """What the text says about its language.

    Attributes:
        code: the most likely language (normalized; ``en`` when the text gives no evidence).
        probability: the identifier's probability for ``code`` among :data:`GUESS_LANGUAGES`.
        words: words of two letters or more read.
        clear: the note is clearly in ``code``: for another language than English, English has at
            most ``1 - CLEAR_PROBABILITY`` (a Norwegian note may split its probability between
            bokmål, nynorsk and Danish and still be clearly not English).
    """

    code: str
    probability: float
    words: int
    clear: bool


@lru_cache(maxsize=1)
def _identifier() -> Any:
    """py3langid's identifier, normalized probabilities, restricted to :data:`GUESS_LANGUAGES`.

    The model is decompressed in memory: py3langid's own loader streams it through a temporary file
    (68 MB), which fails on a full disk or under a file-size limit before a single note is read.
    """
    import io
    import lzma

    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    from py3langid.modelio import _to_array

    with (
        lzma.open(MODEL_DIR / MODEL_FILE) as src,
        np.load(io.BytesIO(src.read()), allow_pickle=False) as data,
    ):
        identifier = LanguageIdentifier(
            np.asarray(data["ptc"]),
            np.asarray(data["pc"]),
            data["classes"].tolist(),
            _to_array(data["nextmove"]),
            data["out_feat"].tolist(),
            norm_probs=True,
            tk_row=_to_array(data["nextmove_row"]),
        )
    identifier.set_languages(list(GUESS_LANGUAGES))
    return identifier


def _stopword_language(text: str) -> str | None:
    """The stop-word counter's pick among the languages it knows, or None without evidence."""
    from phiscrub.langid import LANGID_LANGUAGES, detect_language

    found = detect_language(text, LANGID_LANGUAGES, default="", min_word_len=2, min_evidence=1.0)
    return found or None


def guess_language(text: str) -> LanguageGuess:
    """Guess the language of a note from its text (deterministic, offline).

    Args:
        text: the note; bracketed placeholders are ignored and only the first 20,000 characters read.
    """
    sample = _PLACEHOLDER.sub(" ", text[:_MAX_CHARS])
    letters = len(_LETTER.findall(sample))
    if letters and len(_HAN.findall(sample)) / letters >= 0.2:
        return LanguageGuess("zh", 1.0, letters, True)
    words = len(_WORD.findall(sample))
    if words == 0:
        return LanguageGuess("en", 0.0, 0, False)
    hits = _stopword_hits(sample)
    if _plainly_english(hits):
        # Most notes: English stop words outnumber every other language's many times over. The
        # identifier (0.9 s to load, about 1 ms a note) is kept for the others.
        return LanguageGuess("en", 1.0, words, True)
    ranked = _identifier().rank(sample.lower())
    raw, prob = ranked[0]
    p_en = next((float(p) for lang, p in ranked if lang == "en"), 0.0)
    code = normalize_lang(str(raw))
    if code == "nn" or code == "nb":
        code = "nn" if _nynorsk(sample) else "nb"
    stop = _stopword_language(sample)
    if code in ("es", "ca") and stop in ("es", "ca"):
        code = stop  # the stop words tell Spanish from Catalan better (k notes)
    support, english = _support(hits, code)
    short = words < SHORT_NOTE_WORDS
    agree = support >= 1.0 and support > english
    if code != "en" and short and not agree and (stop == "en" or prob < SURE_PROBABILITY):
        # Short, ALL CAPS and abbreviation-heavy notes: the n-gram model reads noise; English unless
        # the stop words say the same language or the identifier is all but certain.
        return LanguageGuess("en", float(prob), words, False)
    # "Clearly" another language (the default setting acts on it): English at most 0.1 and, for a
    # short note, two stop words of the language or an identifier all but certain ("ROS: neg except
    # per HPI" reads as Catalan to both on one stop word).
    strong = not short or support >= 2.0 or prob >= SURE_PROBABILITY
    clear = code == "en" or (p_en <= 1.0 - CLEAR_PROBABILITY and strong)
    return LanguageGuess(code, float(prob), words, clear)


#: English stop-word hits that, at :data:`_ENGLISH_MARGIN` times any other language's, settle a note
#: (``scripts/eval_langid.py`` gives the same table with and without this shortcut; every note of
#: the ``benchmarks/vs_presidio.py`` sets takes it, so an English run never loads the identifier).
_ENGLISH_HITS = 3.0
_ENGLISH_MARGIN = 1.5


def _stopword_hits(text: str) -> dict[str, float]:
    """Stop-word hits per language (words of two letters or more), read once per note."""
    from phiscrub.langid import _evidence

    return _evidence(text, 2)[0]


def _plainly_english(hits: dict[str, float]) -> bool:
    """Whether English stop words alone settle the note: at least :data:`_ENGLISH_HITS` of them and
    :data:`_ENGLISH_MARGIN` times the hits of any other language (Nordic ones counted together)."""
    english = hits.get("en", 0.0)
    nordic = sum(hits.get(lang, 0.0) for lang in ("nb", "da", "sv"))
    other = max([nordic, *(v for k, v in hits.items() if k not in ("en", "nb", "da", "sv"))])
    return english >= _ENGLISH_HITS and english >= _ENGLISH_MARGIN * other


def _support(hits: dict[str, float], code: str) -> tuple[float, float]:
    """Stop-word hits of ``code`` (of the Nordic family together for a Nordic code: a word the three
    share counts a third for each) and of English."""
    langs = ("nb", "da", "sv") if code in _NORDIC else (code,)
    return sum(hits.get(lang, 0.0) for lang in langs), hits["en"]


# Nynorsk forms common in clinical notes that bokmål spells otherwise.
_NYNORSK = re.compile(
    r"\b(?:ikkje|eg|kva|korleis|frå|vart|sjukehus(?:et)?|sjukepleiar\w*|heime|ho|dei|vore)\b", re.IGNORECASE
)
_BOKMAL = re.compile(
    r"\b(?:ikke|jeg|hva|hvordan|fra|ble|sykehus(?:et)?|sykepleier\w*|hjemme|hun|de|vært)\b", re.IGNORECASE
)


def _nynorsk(text: str) -> bool:
    """Whether a Norwegian note is nynorsk rather than bokmål (typical word forms counted)."""
    return len(_NYNORSK.findall(text)) > len(_BOKMAL.findall(text))


def decide_language(doc: Document, setting: str = "default") -> str:
    """The one language of ``doc`` under a ``lang`` setting (a code, ``auto`` or ``default``).

    A code wins over the metadata (the user named the language of the run); ``auto`` and ``default``
    read the ``lang``/``language`` metadata first. Only then is the text guessed, once.
    """
    mode = normalize_lang(setting)
    if mode not in LANG_MODES:
        return mode
    given = given_language(doc.metadata)
    if given is not None:
        return given
    guess = _remembered_guess(doc.text)
    if mode == "auto" or guess.clear:
        return guess.code
    return "en"


@lru_cache(maxsize=64)
def _remembered_guess(text: str) -> LanguageGuess:
    """:func:`guess_language`, remembered for the last notes: a stage that gets the untagged note
    (the transformer after detection, a caller of ``propose_many`` then ``select``) reads the same
    guess instead of guessing again."""
    return guess_language(text)


def language_of(doc: Document, setting: str = "auto") -> str:
    """The language a tagged document carries (its ``lang`` metadata), else decided now."""
    return decide_language(doc, setting)


def with_language(doc: Document, setting: str = "default") -> Document:
    """``doc`` carrying its decided language in ``metadata["lang"]`` (the same object if it already does).

    Tagging an already tagged document changes nothing and guesses nothing, so every stage can
    call it.
    """
    code = decide_language(doc, setting)
    if doc.metadata.get("lang") == code:
        return doc
    return Document(doc.id, doc.text, doc.spans, {**doc.metadata, "lang": code})
