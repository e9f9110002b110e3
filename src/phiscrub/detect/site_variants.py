"""Surface variants of site-list entries: the forms a name, a facility or a ward takes in notes.

A person ("Daniel Rice"): the full name, "Rice, Daniel", "D. Rice" / "D Rice" / "D.Rice", and
the first and last names alone (weak when they are English words, see
:mod:`phiscrub.detect.site_match`). A place or facility: the entry itself (an abbreviation such as
"NMC" only in capitals), the name without its trailing facility words ("Willowmere" of
"Willowmere Manor"), and a building's name followed by a floor ("Tallis 3" from "Tallis Building"
or from a ward "Tallis 5").
"""

from __future__ import annotations

from collections.abc import Iterator

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.site_match import Kind, Variant, is_ambiguous_word

_RX = pattern_data("site_variants")


__all__ = ["BUILDING_WORDS", "PERSON_LABELS", "entry_variants", "name_variants", "person_parts"]

#: Labels whose entries are people's names (name variants instead of phrase variants).
PERSON_LABELS = frozenset({"DOCTOR", "PATIENT", "RELATIVE", "USERNAME"})

#: Last words that make an entry a building whose floors are wards ("Tallis Building" -> "Tallis 3").
BUILDING_WORDS = frozenset({"building", "bldg", "tower", "pavilion", "wing", "annex", "annexe", "block"})

_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "md", "rn", "np", "do", "phd"})


def person_parts(entry: str) -> tuple[str, str] | None:
    """``(first, last)`` of a staff entry: "First [Middle] Last" or "Last, First [Middle]".

    A one-word entry is returned as ``("", word)``; an empty one as None.
    """
    entry = _RX["TITLES"].sub("", entry.strip().rstrip(","))
    if "," in entry:
        last, _, rest = entry.partition(",")
        firsts = [w for w in rest.split() if w.lower().strip(",") not in _SUFFIXES]
        if not last.strip():
            return None
        return (firsts[0] if firsts else "", " ".join(last.split()))
    words = [w for w in entry.split() if w.lower().strip(",") not in _SUFFIXES]
    if not words:
        return None
    if len(words) == 1:
        return "", words[0]
    return words[0], words[-1]


def _lone(word: str) -> Kind | None:
    """The kind of a lone first or last name: None (too short), weak (an English word) or strong."""
    if len(word.replace(".", "")) < 2:
        return None
    return Kind.WEAK if is_ambiguous_word(word.lower()) else Kind.STRONG


def name_variants(
    first: str, last: str, label: str, rank: int = 0, full: str | None = None, lone: bool = True
) -> Iterator[tuple[str, Variant]]:
    """Surfaces of a person's name with their variants (see the module docstring).

    Args:
        first: given name ("" for none).
        last: family name.
        label: label of every variant (DOCTOR, PATIENT...).
        rank: rank of the full forms; lone names and initials rank after them.
        full: the entry as written (a middle name included), also a strong form.
        lone: add the first and last names alone (False: full forms only).
    """
    strong = Variant(label, Kind.STRONG, rank)
    if full:
        yield full, strong
    if first and last:
        yield f"{first} {last}", strong
        yield f"{last}, {first}", strong
        yield f"{last},{first}", strong
        initial = first[0].upper()
        forms = [f"{initial}. {last}", f"{initial}.{last}"]
        if initial not in "AI":  # "A Stone", "I Will" are English before they are names
            forms.append(f"{initial} {last}")
        for form in forms:
            yield form, Variant(label, Kind.INITIAL, rank + 1)
    if not lone:
        return
    for word in (first, last):
        kind = _lone(word) if word else None
        if kind is not None:
            yield word, Variant(label, kind, rank + 2)


def _strip_facility_words(entry: str) -> str:
    """``entry`` without its trailing facility words ("Willowmere Manor" -> "Willowmere")."""
    from phiscrub.detect.clinical_vocab import FACILITY_WORDS

    words = entry.split()
    while len(words) > 1 and words[-1].lower() in FACILITY_WORDS:
        words.pop()
    return " ".join(words)


def entry_variants(entry: str, label: str, rank: int = 0) -> Iterator[tuple[str, Variant]]:
    """Surfaces of a place, facility or ward entry with their variants (see the module docstring).

    Floor variants of wards and buildings are labelled DEPARTMENT when the list's label is
    HOSPITAL or DEPARTMENT (a floor of a building is a ward), else the list's label.
    """
    entry = " ".join(entry.split())
    if not entry:
        return
    words = entry.split()
    if _RX["ABBREVIATION"].match(entry) and len(words) == 1:
        yield entry, Variant(label, Kind.UPPER, rank)
        return
    one_word_ambiguous = len(words) == 1 and is_ambiguous_word(entry.lower())
    yield entry, Variant(label, Kind.WEAK if one_word_ambiguous else Kind.STRONG, rank)
    floor_label = "DEPARTMENT" if label in ("HOSPITAL", "DEPARTMENT") else label
    unit = _RX["UNIT_FLOOR"].match(entry)
    if unit is not None and not unit.group(1)[-1].isdigit():
        yield unit.group(1), Variant(floor_label, Kind.FLOOR, rank + 1)
    if len(words) > 1 and words[-1].lower() in BUILDING_WORDS:
        yield " ".join(words[:-1]), Variant(floor_label, Kind.FLOOR, rank + 1)
    stem = _strip_facility_words(entry)
    if stem != entry and len(stem) >= 4 and label in ("HOSPITAL", "ORGANIZATION"):
        ambiguous = " " not in stem and is_ambiguous_word(stem.lower())
        yield stem, Variant(label, Kind.WEAK if ambiguous else Kind.STRONG, rank + 2)
