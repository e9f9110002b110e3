"""Names, keyed: a person's name mapped component by component, in the original form.

First names and surnames are mapped one component at a time, so "John Smith", "Smith", "SMITH",
"J. Smith", "Smith, John" and "jsmith" all point at one surrogate person, written in the original
form (initials, case, comma order, hyphenated parts, possessive 's). The surrogate's initial is a
keyed function of the original initial (so "J." and "John" agree); it always differs from the
original initial, so a surrogate never equals its original. First names keep their gender when the
bundled lists know it. Chinese names get Chinese surrogates of the same length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from phiscrub.resources import load_lexicon
from phiscrub.transform.surrogate.kinds import FACILITY_HEADS
from phiscrub.transform.surrogate.locale import locale_list
from phiscrub.transform.surrogate.source import Streams
from phiscrub.transform.surrogate.text import CJK, match_case, normalize_component
from phiscrub.transform.surrogate.wordlists import PARTICLES, SUFFIXES, TITLES, US_FEMALE, US_LAST, US_MALE

# A name word (letters, inner apostrophes: "O'Neil") and a possessive ending ("Smith's").
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_POSSESSIVE = re.compile(r"['’][sS]$")


#: Surnames that are facility head words: never drawn as surrogates.
_HEAD_WORDS = frozenset(h.casefold() for h in FACILITY_HEADS if " " not in h)


@dataclass(frozen=True)
class NameLexicon:
    """Name lists of one language, bucketed by normalized initial for initial-preserving picks."""

    buckets: dict[str, dict[str, tuple[str, ...]]]  # "f"/"m"/"u"/"last" -> letter -> names
    first_letters: tuple[str, ...]
    last_letters: tuple[str, ...]


def _bucket(names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for name in names:
        norm = normalize_component(name)
        # Plain one-part names only, so "John" never becomes "Hans-Michael"; never a facility word
        # ("Leslie Church" would read as a church).
        if norm and "a" <= norm[0] <= "z" and name.isalpha() and norm not in _HEAD_WORDS:
            out.setdefault(norm[0], []).append(name)
    return {k: tuple(v) for k, v in out.items()}


@cache
def name_lexicon(lang: str | None) -> NameLexicon:
    """The name lists of a lexicon folder (``en_us``, ``es``, ``de``, ...; None: the top-level
    multi-locale lists), bucketed by initial (read once)."""
    female = locale_list("first_names_female", lang)
    male = locale_list("first_names_male", lang)
    last = locale_list("last_names", lang)
    buckets = {
        "f": _bucket(female),
        "m": _bucket(male),
        "u": _bucket(sorted({*female, *male})),
        "last": _bucket(last),
    }
    first_letters = tuple(
        c for c in "abcdefghijklmnopqrstuvwxyz" if min(len(buckets[g].get(c, ())) for g in ("f", "m")) >= 5
    )
    last_letters = tuple(c for c in "abcdefghijklmnopqrstuvwxyz" if len(buckets["last"].get(c, ())) >= 10)
    return NameLexicon(buckets, first_letters, last_letters)


@cache
def name_sets() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Normalized female, male and surname sets (all languages) used to read a name's form."""
    female = {normalize_component(n) for n in load_lexicon("first_names_female")}
    male = {normalize_component(n) for n in load_lexicon("first_names_male")}
    last = {normalize_component(n) for n in load_lexicon("last_names")}
    for lang in ("es",):
        female |= {normalize_component(n) for n in load_lexicon("first_names_female", lang)}
        male |= {normalize_component(n) for n in load_lexicon("first_names_male", lang)}
        last |= {normalize_component(n) for n in load_lexicon("last_names", lang)}
    return frozenset(female), frozenset(male), frozenset(last)


@cache
def _gender_sets(folder: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """Folded female and male given names of one locale folder (en_us: with the commonest US ones)."""
    female = {normalize_component(n) for n in locale_list("first_names_female", folder)}
    male = {normalize_component(n) for n in locale_list("first_names_male", folder)}
    if folder == "en_us":
        female |= {normalize_component(n) for n in US_FEMALE}
        male |= {normalize_component(n) for n in US_MALE}
    return frozenset(female), frozenset(male)


@cache
def _us_first_leaning() -> frozenset[str]:
    """US given names that are no common US surname ("Mary", "Ellen"; not "Thomas", "Jordan")."""
    first = {normalize_component(n) for n in (*US_FEMALE, *US_MALE)}
    first |= {normalize_component(n) for n in locale_list("first_names_female", "en_us")}
    first |= {normalize_component(n) for n in locale_list("first_names_male", "en_us")}
    last = {normalize_component(n) for n in (*US_LAST, *locale_list("last_names", "en_us"))}
    return frozenset(first - last)


def _first_leaning(key: str) -> bool:
    """A lone word read as a given name although some locale lists it as a surname too: "his wife
    Mary" is Mary the given name (the multi-locale surname lists hold "Mary")."""
    return key in _us_first_leaning()


@cache
def _zh_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    return (
        load_lexicon("first_names_female", "zh"),
        load_lexicon("first_names_male", "zh"),
        load_lexicon("last_names", "zh"),
    )


@dataclass
class _NameWord:
    """One whitespace/comma-delimited word of a name, possibly hyphenated into parts."""

    parts: list[tuple[int, int]]  # character ranges of the alphabetic parts
    kind: str = "name"  # name | initial | title | suffix | particle
    role: str = "first"  # first | last


def _letter(streams: Streams, role: str, letter: str, lex: NameLexicon) -> str:
    """Keyed initial for an original initial; never the same letter."""
    pool = lex.first_letters if role == "first" else lex.last_letters
    options = [c for c in pool if c != letter]
    return options[streams("initial", role, letter).randrange(len(options))]


def keyed_name_component(streams: Streams, role: str, text: str, lang: str | None) -> str:
    """Surrogate of one name component (not an initial), in list form."""
    lex = name_lexicon(lang)
    norm = normalize_component(text)
    letter = _letter(streams, role, norm[:1], lex)
    if role == "last":
        pool = lex.buckets["last"][letter]
    else:
        gender = "u"
        # The locale's own lists first ("Joan" is a woman in en_US, a man in Catalan), then all.
        for female, male in (_gender_sets(lang), name_sets()[:2]):
            if norm in female and norm not in male:
                gender = "f"
            elif norm in male and norm not in female:
                gender = "m"
            if gender != "u":
                break
        pool = lex.buckets[gender].get(letter) or lex.buckets["u"][letter]
    # About the original's length ("Kaitlyn" -> a name of 5 to 9 letters, not "Ana"): the shape of
    # the note is kept, and short names read as abbreviations in clinical text.
    pool = _of_length(pool, len(norm))
    return pool[streams("name", role, norm).randrange(len(pool))]


def _of_length(pool: tuple[str, ...], length: int) -> tuple[str, ...]:
    """The names of ``pool`` within two letters of ``length`` (at least 4 when it is), else all."""
    key = (id(pool), length)
    found = _LENGTH_CACHE.get(key)
    if found is None:
        low = min(4, length)
        found = tuple(n for n in pool if abs(len(n) - length) <= 2 and len(n) >= low) or pool
        _LENGTH_CACHE[key] = found
    return found


_LENGTH_CACHE: dict[tuple[int, int], tuple[str, ...]] = {}


def keyed_initial(streams: Streams, role: str, letter: str, lang: str | None) -> str:
    """Keyed surrogate initial (upper case as listed) for an original initial letter."""
    return _letter(streams, role, normalize_component(letter)[:1], name_lexicon(lang))


def keyed_name(
    streams: Streams, surface: str, folder: str | None, roles: Mapping[str, str] | None = None
) -> str | None:
    """Surrogate for a person's name, component by component, in the original form.

    Args:
        streams: keyed sources of the consistency scope.
        surface: the name as written ("John Smith", "SMITH, J.", "张伟").
        folder: lexicon folder of the name lists (``"es"``, ``"zh"`` or None).
        roles: first/last roles of name words read from the note's other names (:func:`name_roles`).

    Returns:
        The surrogate, or None when the surface holds no name word (the caller reshapes it).
    """
    if CJK.search(surface):
        return _zh_name(streams, surface)
    words = _read_name(surface)
    if roles:
        _apply_roles(surface, words, roles)
    if not any(w.kind in ("name", "initial") for w in words):
        return None
    out: dict[tuple[int, int], str] = {}
    for word in words:
        if word.kind not in ("name", "initial"):
            continue
        for start, end in word.parts:
            text = surface[start:end]
            possessive = ""
            if len(text) > 3 and _POSSESSIVE.search(text):
                text, possessive = text[:-2], text[-2:]
            if word.kind == "initial" or len(text) == 1:
                new = keyed_initial(streams, word.role, text, folder)
            else:
                new = keyed_name_component(streams, word.role, text, folder)
            out[(start, end)] = match_case(text, new) + possessive
    pieces: list[str] = []
    pos = 0
    for (start, end), new in sorted(out.items()):
        pieces.append(surface[pos:start])
        pieces.append(new)
        pos = end
    pieces.append(surface[pos:])
    return "".join(pieces)


def name_roles(surface: str) -> dict[str, str]:
    """First/last role of each name part of a full name: ``{"john": "first", "smith": "last"}``.

    Only names of two or more name words (or the comma form) say something about roles; a lone
    word, initials and CJK names give ``{}``. Keys are :func:`normalize_component` forms.
    """
    if CJK.search(surface):
        return {}
    words = _read_name(surface)
    names = [w for w in words if w.kind == "name"]
    if len([w for w in words if w.kind in ("name", "initial")]) < 2:
        return {}
    out: dict[str, str] = {}
    for w in names:
        for start, end in w.parts:
            out.setdefault(normalize_component(_POSSESSIVE.sub("", surface[start:end])), w.role)
    return out


def _apply_roles(surface: str, words: list[_NameWord], roles: Mapping[str, str]) -> None:
    """Give a lone name word the role its parts have in the note's full names (all agreeing)."""
    names = [w for w in words if w.kind in ("name", "initial")]
    if len(names) != 1 or names[0].kind != "name":
        return
    found = {
        roles.get(normalize_component(_POSSESSIVE.sub("", surface[start:end])))
        for start, end in names[0].parts
    }
    role = found.pop() if len(found) == 1 else None
    if role is not None:
        names[0].role = role


def _split_words(surface: str) -> tuple[list[_NameWord], list[bool]]:
    """The name's words (hyphenated parts joined) and whether a comma comes before each."""
    words: list[_NameWord] = []
    comma_before: list[bool] = []
    prev_end = 0
    for m in _WORD.finditer(surface):
        start, end = m.start(), m.end()
        gap = surface[prev_end:start]
        if words and gap in ("-", "‐"):
            words[-1].parts.append((start, end))
        else:
            words.append(_NameWord([(start, end)]))
            comma_before.append("," in gap and bool(words[:-1]))
        prev_end = end
    return words, comma_before


def _word_text(surface: str, word: _NameWord) -> str:
    return normalize_component(surface[word.parts[0][0] : word.parts[-1][1]])


def _classify(surface: str, words: list[_NameWord], comma_before: list[bool]) -> None:
    """Mark titles, suffixes, particles and initials (the rest stay ``name``)."""
    n = len(words)
    for i, word in enumerate(words):
        text = _word_text(surface, word)
        if len(word.parts) != 1:
            continue
        start, end = word.parts[0]
        if text in TITLES and i == 0 and n > 1:
            word.kind = "title"
        elif (
            text in SUFFIXES
            and i > 0
            and (surface[start:end].isupper() or surface[end : end + 1] == "." or comma_before[i])
        ):
            word.kind = "suffix"
        elif text in PARTICLES and i < n - 1 and surface[start].islower():
            word.kind = "particle"
        elif len(text) == 1:
            word.kind = "initial"


def _as_initials(surface: str, words: list[_NameWord], names: list[_NameWord]) -> list[_NameWord] | None:
    """ "JS": a lone short all-caps word that is no known name is a pair of initials."""
    if len(names) != 1 or names[0].kind != "name" or len(names[0].parts) != 1:
        return None
    female, male, last = name_sets()
    s, e = names[0].parts[0]
    text = surface[s:e]
    if not (2 <= len(text) <= 3 and text.isupper()) or normalize_component(text) in female | male | last:
        return None
    idx = words.index(names[0])
    letters = [_NameWord([(s + k, s + k + 1)], "initial", "first") for k in range(len(text))]
    letters[-1].role = "last"
    return words[:idx] + letters + words[idx + 1 :]


def _read_name(surface: str) -> list[_NameWord]:
    """Split a name into words and decide each word's kind and role."""
    words, comma_before = _split_words(surface)
    _classify(surface, words, comma_before)
    names = [w for w in words if w.kind in ("name", "initial")]
    initials = _as_initials(surface, words, names)
    if initials is not None:
        return initials
    # Comma form "Smith, John": surname words before the first comma between name words.
    comma_at = next(
        (i for i, w in enumerate(words) if comma_before[i] and w.kind in ("name", "initial")), None
    )
    if comma_at is not None and any(w.kind in ("name", "initial") for w in words[:comma_at]):
        for i, w in enumerate(words):
            w.role = "last" if i < comma_at else "first"
        return words
    female, male, last = name_sets()
    if len(names) == 1:
        only = names[0]
        key = _word_text(surface, only)
        if only.kind == "initial":
            only.role = "first"
        else:
            known_first = key in female or key in male
            only.role = "first" if known_first and (key not in last or _first_leaning(key)) else "last"
        return words
    for k, w in enumerate(names):
        key = _word_text(surface, w)
        if k == 0:
            w.role = "first"
        elif k == len(names) - 1 or w.kind == "name" and key in last and key not in female | male:
            w.role = "last"
        else:
            w.role = "first"
    # Particles ("de la Cruz") stay as written; the surname after them is mapped.
    return words


def _zh_name(streams: Streams, surface: str) -> str:
    female, male, last = _zh_names()
    match = re.search(r"[\u3400-\u9fff]+", surface)
    if match is None:
        return surface
    text = match.group(0)
    cut = 2 if len(text) >= 3 and text[:2] in last else 1
    family, given = text[:cut], text[cut:]
    singles = tuple(s for s in last if len(s) == len(family) and s != family) or last
    new_family = _zh_pick(streams, singles, family, "zh-last")
    new_given = ""
    if given:
        pool = female if given in female and given not in male else male if given in male else female + male
        same_len = tuple(g for g in pool if len(g) == len(given) and g != given) or pool
        new_given = _zh_pick(streams, same_len, given, "zh-first")
    return surface[: match.start()] + new_family + new_given + surface[match.end() :]


def _zh_pick(streams: Streams, pool: Sequence[str], original: str, role: str) -> str:
    stream = streams(role, original)
    for _ in range(20):
        pick = stream.choice(pool)
        if pick != original:
            return pick
    return next(p for p in pool if p != original)
