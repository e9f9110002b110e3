"""Context augmentation (PHICON, Yue & Zhou 2020): change the words around PHI, never the PHI.

Two EDA-style edits (Wei & Zou 2019) of the background text, as in PHICON section 2:

* synonym replacement (SR): non-stop nouns, verbs, adjectives and adverbs are replaced by a WordNet
  synonym of the same part of speech ("met" -> "saw");
* random insertion (RI): a random adverb is inserted before a verb or an adjective, a random adjective
  before a noun ("She met" -> "She happily met").

As in EDA, each edit type makes ``n = max(1, int(p * number_of_words))`` edits per document (``p`` = 0.1
by default), fewer when fewer words qualify.

Offline resources (built by ``scripts/build_wordnet_resources.py`` from WordNet 3.0, license in
``resources/wordnet/LICENSE``): a lexicon of single-word lemmas with per-POS sense-tag counts, the
irregular inflections, a synonym table restricted to common senses and common words, a stopword list
(closed-class words, negations, laterality, month names, clinical shorthand), and lists of frequent
adverbs and adjectives to insert.

The part-of-speech tagger is deliberately simple, and honest about it: a most-frequent-tag tagger over
the WordNet lexicon (tag counts from the WordNet concordances), WordNet's morphology (``morphy`` suffix
rules plus the exception lists) for inflected forms, suffix guesses (``-ly``, ``-tion``, ``-ous`` ...) for
unknown words, and a few context rules (after a determiner prefer a noun or adjective, after "to" or a
modal or a subject pronoun prefer a verb, after an intensifier prefer an adjective). Function words are
tagged ``x`` and never edited. It is good enough to choose plausible synonyms and insertion points; it
is not a general-purpose tagger.

What is never edited, so that gold spans keep their text and their surroundings: any token inside a
PHI span and the token directly before and after each span (their casing is a strong cue for
names); stopwords; words that are not plain ASCII letters or are shorter than 3 letters; words glued
to other characters ("non-tender", "x-ray", "mg/dL", "www.site"); Title-case words in mid-sentence
(mostly names and brand names); irregularly inflected forms. Replacements keep the case pattern of the
word (lower, UPPER, Title), regular inflections are re-applied (-s, -es, -ed, -ing; synonyms with an
irregular or consonant-doubling inflection are not used), and "a"/"an" before the edit point keep
agreeing with the next word. Non-English notes are left as they are when ``lang="auto"``.
"""

from __future__ import annotations

import bisect
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.text import tokenize
from phiscrub.transform.fill import detect_lang
from phiscrub.transform.rewrite import apply_edits

__all__ = ["ContextAugmenter", "TaggedWord", "WordNetData", "inflect", "load_wordnet", "pos_tag"]

#: WordNet parts of speech: noun, verb, adjective, adverb; ``x`` function word; ``""`` anything else.
CONTENT_POS: tuple[str, ...] = ("n", "v", "a", "r")

# Inflection kinds: "" base form, "pl" noun plural, "3sg" verb -s, "past" verb -ed, "ger" verb -ing,
# "cmp"/"sup" adjective -er/-est, "irr" irregular (from the exception lists), "?" guessed from a suffix.
_REGULAR = ("", "pl", "3sg", "past", "ger")


def _undo(form: str, rules: str) -> tuple[tuple[str, str, str], ...]:
    """(suffix, ending, ``form``) of each space-separated ``suffix:ending`` rule that undoes ``form``."""
    pairs = (rule.partition(":") for rule in rules.split())
    return tuple((suffix, ending, form) for suffix, _, ending in pairs)


# WordNet's morphy detachment rules (``suffix:ending``, tried in this order), by the inflection they undo.
_RULES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "n": _undo("pl", "ses:s xes:x zes:z ches:ch shes:sh ies:y s:"),
    "v": _undo("3sg", "ies:y es:e es: s:") + _undo("past", "ied:y ed:e ed:") + _undo("ger", "ing:e ing:"),
    "a": _undo("cmp", "er: er:e") + _undo("sup", "est: est:e"),
}

# Suffix guesses for words WordNet does not know (clinical vocabulary, mostly).
_SUFFIX_POS: tuple[tuple[str, str], ...] = (
    ("ly", "r"),
    ("ing", "v"),
    ("ed", "v"),
    ("tion", "n"),
    ("sion", "n"),
    ("ment", "n"),
    ("ness", "n"),
    ("ity", "n"),
    ("ism", "n"),
    ("itis", "n"),
    ("osis", "n"),
    ("emia", "n"),
    ("ectomy", "n"),
    ("otomy", "n"),
    ("ology", "n"),
    ("ous", "a"),
    ("ful", "a"),
    ("ive", "a"),
    ("able", "a"),
    ("ible", "a"),
    ("less", "a"),
    ("ic", "a"),
    ("al", "a"),
)
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "his", "her", "its", "their", "our",
                          "my", "your", "some", "any", "no", "each", "every", "another"})  # fmt: skip
_VERB_BEFORE = frozenset({"to", "will", "would", "can", "could", "shall", "should", "may", "might", "must", "do",
                          "does", "did"})  # fmt: skip
_PRONOUNS = frozenset({"i", "you", "he", "she", "it", "we", "they", "who", "which", "that"})
_INTENSIFIERS = frozenset({"very", "so", "too", "quite", "more", "most", "less", "least", "rather", "fairly",
                           "somewhat"})  # fmt: skip
_OPENERS = "([{\"'"
_CLOSERS = ",;:!?)]}\"'"
_SENTENCE_END = ".!?:;\n"
_VOWELS = "aeiou"


@dataclass(frozen=True)
class TaggedWord:
    """A token with its tag.

    Attributes:
        text: the token text.
        start: start offset in the text.
        end: end offset.
        pos: ``n``, ``v``, ``a``, ``r`` (WordNet parts of speech), ``x`` (function word) or ``""``
            (punctuation, numbers, unknown words).
        lemma: the WordNet lemma (lower case), or the lower-cased token when unknown.
        form: the inflection: ``""`` base, ``pl``, ``3sg``, ``past``, ``ger``, ``cmp``, ``sup``,
            ``irr`` (irregular), ``?`` (guessed).
    """

    text: str
    start: int
    end: int
    pos: str
    lemma: str
    form: str


@dataclass(frozen=True)
class WordNetData:
    """The bundled WordNet-derived tables (see ``scripts/build_wordnet_resources.py``)."""

    lexicon: Mapping[str, Mapping[str, int]]
    exceptions: Mapping[str, tuple[tuple[str, str], ...]]
    synonyms: Mapping[tuple[str, str], tuple[str, ...]]
    stopwords: frozenset[str]
    adverbs: tuple[str, ...]
    adjectives: tuple[str, ...]
    irregular: Mapping[str, frozenset[str]]


def _read(name: str) -> list[str]:
    path = resources.files("phiscrub.resources").joinpath("wordnet", name)
    if not path.is_file():
        raise ConfigError(f"missing bundled WordNet file wordnet/{name}; reinstall phiscrub")
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


@cache
def load_wordnet() -> WordNetData:
    """Load the bundled WordNet-derived tables (once; cached).

    Raises:
        ConfigError: a bundled file is missing.
    """
    lexicon: dict[str, dict[str, int]] = {}
    for line in _read("lexicon.tsv"):
        word, tags = line.split("\t")
        lexicon[word] = {pos: int(count) for pos, count in (t.split(":") for t in tags.split())}
    exceptions: dict[str, list[tuple[str, str]]] = defaultdict(list)
    irregular: dict[str, set[str]] = defaultdict(set)
    for line in _read("exceptions.tsv"):
        form, pos, base = line.split("\t")
        exceptions[form].append((pos, base))
        irregular[pos].add(base)
    synonyms: dict[tuple[str, str], tuple[str, ...]] = {}
    for line in _read("synonyms.tsv"):
        word, pos, syns = line.split("\t")
        synonyms[(word, pos)] = tuple(syns.split("|"))
    return WordNetData(
        lexicon=lexicon,
        exceptions={k: tuple(v) for k, v in exceptions.items()},
        synonyms=synonyms,
        stopwords=frozenset(_read("stopwords.txt")),
        adverbs=tuple(_read("insert_adverbs.txt")),
        adjectives=tuple(_read("insert_adjectives.txt")),
        irregular={k: frozenset(v) for k, v in irregular.items()},
    )


def _doubles(word: str) -> bool:
    """Consonant-vowel-consonant ending: "-ed"/"-ing" may double the consonant ("admit" -> "admitted")."""
    return (
        len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS
    )


def inflect(lemma: str, form: str, *, strict: bool = True) -> str | None:
    """Regular inflection of a lemma, or None when it cannot be sure.

    Args:
        lemma: lower-case base form.
        form: ``""``, ``pl``, ``3sg``, ``past`` or ``ger``.
        strict: refuse consonant-vowel-consonant endings for ``past``/``ger``, whose doubling
            ("admit" -> "admitted", "visit" -> "visited") cannot be told from spelling.
    """
    if form == "":
        return lemma
    if form in ("pl", "3sg"):
        if lemma.endswith(("s", "x", "z", "ch", "sh")):
            return lemma + "es"
        if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
            return lemma[:-1] + "ies"
        return lemma + "s"
    if form in ("past", "ger") and strict and _doubles(lemma):
        return None
    if form == "past":
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
            return lemma[:-1] + "ied"
        return lemma + "ed"
    if form == "ger":
        if lemma.endswith("ie"):
            return lemma[:-2] + "ying"
        if lemma.endswith("e") and not lemma.endswith(("ee", "oe", "ye")) and len(lemma) > 2:
            return lemma[:-1] + "ing"
        return lemma + "ing"
    return None


def _analyses(word: str, data: WordNetData) -> list[tuple[str, str, str]]:
    """Every (pos, lemma, form) reading of a lower-case word."""
    out = [(pos, word, "") for pos in data.lexicon.get(word, {})]
    out += [(pos, base, "irr") for pos, base in data.exceptions.get(word, ())]
    for pos, rules in _RULES.items():
        for suffix, ending, form in rules:
            if not word.endswith(suffix) or len(word) - len(suffix) < 2:
                continue
            base = word[: -len(suffix)] + ending
            if pos not in data.lexicon.get(base, {}) or any(p == pos and b == base for p, b, _ in out):
                continue
            # Keep a reading only when inflecting the lemma back gives the word ("uses" is not "us"+"es").
            if form in _REGULAR and inflect(base, form, strict=False) != word:
                continue
            out.append((pos, base, form))
    return out


def _score(pos: str, lemma: str, form: str, word: str, prev: str | None, data: WordNetData) -> float:
    score = data.lexicon.get(lemma, {}).get(pos, 0) + 1.0
    if prev in _DETERMINERS:
        score *= 8.0 if pos in ("n", "a") else 0.1 if pos == "v" and form != "ger" else 1.0
    elif prev in _VERB_BEFORE:
        score *= 8.0 if pos == "v" and form == "" else 1.0
    elif prev in _PRONOUNS:
        score *= 8.0 if pos == "v" and form in ("", "3sg", "past", "irr") else 1.0
    elif prev in _INTENSIFIERS:
        score *= 8.0 if pos in ("a", "r") else 1.0
    if word.endswith("ly") and pos == "r":
        score *= 4.0
    return score


def _plain_word(token: str) -> bool:
    return token.isascii() and token.isalpha()


def pos_tag(text: str) -> list[TaggedWord]:
    """Tag every token of ``text`` (:func:`phiscrub.text.tokenize`) with a WordNet part of speech.

    A most-frequent-tag tagger with morphology and a few context rules (see the module docstring).
    """
    data = load_wordnet()
    tokens = tokenize(text)
    lows = [t.text.lower() for t in tokens]
    readings = [
        _analyses(low, data) if _plain_word(t.text) and low not in data.stopwords else []
        for t, low in zip(tokens, lows)
    ]
    order = {p: k for k, p in enumerate(CONTENT_POS)}
    best: list[tuple[str, str, str] | None] = []
    for i, (tok, low) in enumerate(zip(tokens, lows)):
        prev = lows[i - 1] if i > 0 and _plain_word(tokens[i - 1].text) else None
        best.append(
            max(
                readings[i],
                key=lambda c: (_score(c[0], c[1], c[2], low, prev, data), -order[c[0]], c[2] == ""),
            )
            if readings[i]
            else None
        )
    out: list[TaggedWord] = []
    for i, (tok, low) in enumerate(zip(tokens, lows)):
        if not _plain_word(tok.text):
            out.append(TaggedWord(tok.text, tok.start, tok.end, "", low, ""))
            continue
        if low in data.stopwords:
            out.append(TaggedWord(tok.text, tok.start, tok.end, "x", low, ""))
            continue
        choice = best[i]
        if choice is None:
            guess = next((pos for suffix, pos in _SUFFIX_POS if low.endswith(suffix) and len(low) > 4), "")
            out.append(TaggedWord(tok.text, tok.start, tok.end, guess, low, "?" if guess else ""))
            continue
        pos, lemma, form = choice
        prev = lows[i - 1] if i > 0 else None
        if prev in _DETERMINERS and pos in ("n", "a"):
            # "the cold room": an adjective when the next word is tagged a noun, a noun otherwise.
            nxt = best[i + 1] if i + 1 < len(tokens) else None
            want = "a" if nxt is not None and nxt[0] == "n" else "n"
            alternatives = [c for c in readings[i] if c[0] == want]
            if want != pos and alternatives:
                pos, lemma, form = max(alternatives, key=lambda c: _score(c[0], c[1], c[2], low, prev, data))
        out.append(TaggedWord(tok.text, tok.start, tok.end, pos, lemma, form))
    return out


def _match_case(model: str, word: str) -> str:
    """``word`` in the case pattern of ``model`` (lower, UPPER, Title)."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _article_ok(article: str | None, word: str) -> bool:
    """Whether "a"/"an" (if any) still agrees with ``word`` (first-letter rule; "u" counts as neither)."""
    if article == "a":
        return word[0] not in _VOWELS and word[0] != "h"
    if article == "an":
        return word[0] in "aeio"
    return True


def _upper_line(text: str, offset: int) -> bool:
    """Whether the line around ``offset`` is mostly (over 80 %) upper-case letters."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    letters = [c for c in text[start : end if end >= 0 else len(text)] if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) > 0.8 * len(letters)


def _protected(words: Sequence[TaggedWord], spans: Sequence[Span]) -> set[int]:
    """Indices of the tokens inside a span or directly before or after one."""
    starts = [w.start for w in words]
    ends = [w.end for w in words]
    out: set[int] = set()
    for span in spans:
        left = bisect.bisect_right(ends, span.start) - 1  # last token ending at or before the span
        right = bisect.bisect_left(starts, span.end)  # first token starting at or after its end
        out.update(range(max(0, left), min(len(words), right + 1)))
    return out


class ContextAugmenter:
    """PHICON context augmentation: WordNet synonym replacement and random insertion outside PHI.

    Args:
        p_sr: share of the document's words to replace by a synonym (EDA's alpha_sr); 0 turns SR off.
        p_ri: share of the document's words to add by random insertion (EDA's alpha_ri); 0 turns RI off.
        lang: ``en`` (edit every note) or ``auto`` (leave notes that do not look English as they are:
            the resources are English).

    Attributes:
        non_english: notes left unchanged because they did not look English (``lang="auto"``).

    Raises:
        ConfigError: a probability outside ``[0, 1]`` or another language.
    """

    name = "context"
    keeps_surfaces = True

    def __init__(self, p_sr: float = 0.1, p_ri: float = 0.1, lang: str = "en") -> None:
        for value in (p_sr, p_ri):
            if not 0.0 <= value <= 1.0:
                raise ConfigError("context augmentation probabilities must be in [0, 1]")
        if lang not in ("en", "auto"):
            raise ConfigError(f"context augmentation is English only (lang 'en' or 'auto'), not {lang!r}")
        self.p_sr = p_sr
        self.p_ri = p_ri
        self.lang = lang
        self.non_english = 0

    @property
    def unchanged(self) -> int:
        """Notes left as they were (see ``non_english``)."""
        return self.non_english

    def fit(self, docs: Sequence[Document]) -> ContextAugmenter:
        """Nothing to learn: the word lists are built in; return self."""
        return self

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """A copy of ``doc`` with synonyms replaced and words inserted; PHI spans keep their text."""
        if self.lang == "auto" and detect_lang(doc.text) != "en":
            self.non_english += 1
            return Document(doc.id, doc.text, doc.spans, dict(doc.metadata))
        data = load_wordnet()
        text = doc.text
        words = pos_tag(text)
        protected = _protected(words, doc.spans)
        n_words = sum(1 for w in words if w.text.isalpha())

        def article(i: int) -> str | None:
            if i == 0:
                return None
            low = words[i - 1].text.lower()
            return low if low in ("a", "an") and words[i - 1].end < words[i].start else None

        replace: list[tuple[int, list[str]]] = []
        insert: list[tuple[int, tuple[str, ...]]] = []
        for i, w in enumerate(words):
            case = self._edit_case(text, w, i in protected)
            if case is None:
                continue
            art = article(i)
            if w.pos in CONTENT_POS and w.form in _REGULAR:
                options = self._synonyms(w, art, data)
                if options:
                    replace.append((i, options))
            if case == "title":
                continue  # sentence-initial: an insertion would need the first word re-cased
            pool: tuple[str, ...] = ()
            if w.pos in ("v", "a") and w.form != "?":
                pool = data.adverbs
            elif w.pos == "n" and w.form in ("", "pl") and self._starts_noun_phrase(words, i):
                pool = data.adjectives
            pool = tuple(p for p in pool if p != w.lemma and _article_ok(art, p))
            if pool:
                insert.append((i, pool))

        edits: list[tuple[int, int, str]] = []
        for i, choices in self._pick(replace, self.p_sr, n_words, rng):
            w = words[i]
            edits.append((w.start, w.end, _match_case(w.text, rng.choice(choices))))
        for i, choices in self._pick(insert, self.p_ri, n_words, rng):
            w = words[i]
            edits.append((w.start, w.start, _match_case(w.text, rng.choice(choices)) + " "))
        out = apply_edits(doc, edits)
        return Document(doc.id, out.text, out.spans, dict(doc.metadata))

    @staticmethod
    def _pick(
        items: Sequence[tuple[int, Sequence[str]]], p: float, n_words: int, rng: random.Random
    ) -> list[tuple[int, Sequence[str]]]:
        """EDA's count: ``max(1, int(p * n_words))`` edits, at most one per candidate, in text order."""
        if p <= 0 or not items:
            return []
        n = min(len(items), max(1, int(p * n_words)))
        return sorted(rng.sample(items, n), key=lambda item: item[0])

    @staticmethod
    def _edit_case(text: str, w: TaggedWord, protected: bool) -> str | None:
        """The word's case pattern when it may be edited (``lower``/``upper``/``title``), else None."""
        if protected or len(w.text) < 3 or not _plain_word(w.text):
            return None
        before = text[w.start - 1] if w.start > 0 else " "
        after = text[w.end] if w.end < len(text) else " "
        after2 = text[w.end + 1] if w.end + 1 < len(text) else " "
        if not (before.isspace() or before in _OPENERS):
            return None
        if not (after.isspace() or after in _CLOSERS or (after == "." and after2.isspace())):
            return None
        if w.text.islower():
            return "lower"
        if w.text.isupper():
            # Capitals in a capitalised line (a heading) are words; in a mixed-case line, abbreviations.
            return "upper" if _upper_line(text, w.start) else None
        if w.text[0].isupper() and w.text[1:].islower():
            head = text[: w.start].rstrip(" \t" + _OPENERS)
            # Title case only at the start of a sentence or line; elsewhere it is most likely a name.
            return "title" if not head or head[-1] in _SENTENCE_END else None
        return None

    @staticmethod
    def _starts_noun_phrase(words: Sequence[TaggedWord], i: int) -> bool:
        """No noun, adjective or unknown word right before (so "blood pressure" is left whole)."""
        if i == 0:
            return True
        prev = words[i - 1]
        if prev.pos in ("n", "a"):
            return False
        return not (prev.pos == "" and prev.text.isalpha())

    @staticmethod
    def _synonyms(w: TaggedWord, article: str | None, data: WordNetData) -> list[str]:
        """Synonyms of ``w`` inflected like it, without irregular ones and agreeing with "a"/"an"."""
        irregular = data.irregular.get(w.pos, frozenset())
        low = w.text.lower()
        out = []
        for syn in data.synonyms.get((w.lemma, w.pos), ()):
            if w.form and syn in irregular:
                continue
            new = inflect(syn, w.form)
            if new and new != low and _article_ok(article, new):
                out.append(new)
        return out
