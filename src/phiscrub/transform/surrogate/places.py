"""Places and organizations: hospitals, companies, towns, states, countries, departments, professions,
streets, rooms and other locations.

Keyed (redaction): picks from the bundled lexicons in the original's case pattern (short all-caps
abbreviations get abbreviations); streets keep number + name + suffix. Seeded (filling): names of
the note's language; English facility names made of common words ("St. Mary's", "Good Samaritan",
"Lakeside Nursing Home", "University of X Medical Center") and their initials ("SJH", "BMC"), bare
before "ED" / "LTC"; named wards ("Ellison 4") for rooms, departments and units; Catalan and Chinese
towns that agree with the province drawn next to them.
"""

from __future__ import annotations

import re
import string
from functools import cache
from importlib import resources

from phiscrub.resources import load_lexicon
from phiscrub.transform.surrogate.cues import SHORT_FACILITY_AFTER, UNIT_CUE
from phiscrub.transform.surrogate.draw import NoteDraw
from phiscrub.transform.surrogate.locale import locale_list
from phiscrub.transform.surrogate.source import Source, Streams, shape, shape_digit_runs, shape_like, weighted
from phiscrub.transform.surrogate.text import CJK, match_case, normalize_component
from phiscrub.transform.surrogate.wordlists import (
    CA_PROVINCE_TOWNS,
    DIRECTIONS,
    EN_STREET_SUFFIX,
    HOME_SUFFIXES,
    HOSPITAL_SUFFIXES,
    NOT_FACILITY_ACRONYMS,
    PICK_LEXICON,
    PLACE_WORDS,
    REHAB_SUFFIXES,
    SAINTS,
    STREET_ABBR,
    VIRTUE_NAMES,
    ZH_DISTRICTS,
    ZH_PROVINCE_CITIES,
)

__all__ = [
    "acronym",
    "draw_city",
    "draw_department",
    "draw_hospital",
    "draw_location",
    "draw_profession",
    "draw_state",
    "draw_street",
    "keyed_pick",
    "keyed_street",
    "ward",
]


# --- keyed ---------------------------------------------------------------------------------------


def keyed_pick(streams: Streams, fine: str, surface: str, folder: str | None = None) -> str:
    """A keyed pick from the fine label's bundled list, in the surface's case pattern.

    Short all-caps abbreviations ("MGH", "MICU", "MA") get an abbreviation back.
    """
    stripped = surface.strip()
    abbreviation = bool(re.fullmatch(r"[A-Z&]{2,6}", stripped))
    if fine == "STATE" and re.fullmatch(r"[A-Z]{2}", stripped):
        pool = load_lexicon("states_abbr")
    elif fine == "DEPARTMENT" and abbreviation:
        pool = load_lexicon("department_abbreviations")
    elif abbreviation and fine in ("HOSPITAL", "ORGANIZATION"):
        stream = streams("abbr", fine, stripped)
        for _ in range(20):
            new = "".join(c if c == "&" else stream.choice(string.ascii_uppercase) for c in stripped)
            if new != stripped:
                return surface.replace(stripped, new)
        return surface
    else:
        pool = load_lexicon(PICK_LEXICON.get(fine, "cities"), folder)
    target = normalize_component(stripped)
    stream = streams("pick", fine, target)
    new = stream.choice(pool)
    for _ in range(20):
        if normalize_component(new) != target:
            break
        new = stream.choice(pool)
    return surface.replace(stripped, match_case(stripped, new)) if stripped else surface


def keyed_street(streams: Streams, surface: str, folder: str | None = None) -> str:
    """House number (same digit count) + street name + suffix, tail numbers reshaped."""
    stripped = surface.strip()
    key = normalize_component(stripped)
    stream = streams("street", key)
    if CJK.search(stripped):
        return surface.replace(stripped, _zh_street(stripped, stream))
    first_word = re.match(r"^(C/|[^\W\d_]+\.?)", stripped)
    es_prefixes = {p.casefold() for p in load_lexicon("street_prefixes", "es")}
    if first_word and first_word.group(1).casefold() in es_prefixes:
        return surface.replace(stripped, _es_street(stripped, first_word.group(1), stream))
    m = re.match(r"^(\d+[A-Za-z]?)(\s+)(.*)$", stripped, re.DOTALL)
    number, gap, rest = (m.group(1), m.group(2), m.group(3)) if m else ("", "", stripped)
    cut = re.search(r",|\s#|\s\d", rest)
    name_part, tail = (rest[: cut.start()], rest[cut.start() :]) if cut else (rest, "")
    new_name = _street_name(name_part, stream, folder)
    new_number = shape_like(number, stream, nonzero_first=True) if number else ""
    result = new_number + gap + new_name + shape_digit_runs(tail, stream)
    if normalize_component(result) == key:
        result = new_number + gap + match_case(name_part, stream.choice(locale_list("street_names", folder)))
    return surface.replace(stripped, result) if stripped else surface


def _zh_street(stripped: str, stream: Source) -> str:
    pool = load_lexicon("street_names", "zh")
    m = re.match(r"^([\u3400-\u9fff]+)(.*)$", stripped, re.DOTALL)
    head, tail = (m.group(1), m.group(2)) if m else (stripped, "")
    new = stream.choice(pool)
    if new == head:
        new = stream.choice(pool)
    return new + shape_digit_runs(tail, stream)


def _es_street(stripped: str, prefix: str, stream: Source) -> str:
    """ "Calle Mayor, 12", "C/ de Balmes 3": the prefix kept, the name drawn, numbers reshaped."""
    rest = stripped[len(prefix) :]
    m = re.search(r"[\d,]", rest)
    tail = rest[m.start() :] if m else ""
    name = stream.choice(load_lexicon("street_names", "es"))
    connector = " de " if rest.lower().lstrip().startswith(("de ", "del ", "d'")) else " "
    new = f"{prefix}{connector}{name}"
    if tail and not tail.startswith(","):
        new += " "
    return match_case(stripped, new) + shape_digit_runs(tail.lstrip(), stream)


def _street_name(name_part: str, stream: Source, folder: str | None) -> str:
    """A street name with the original's direction word and suffix style ("N. Elm St.")."""
    words = name_part.split()
    direction = ""
    if len(words) > 1 and words[0].rstrip(".").lower() in DIRECTIONS:
        direction = words[0] + " "
        words = words[1:]
    suffix_new = ""
    if words:
        last = words[-1]
        bare = last.rstrip(".").lower()
        full_suffixes = {s.lower() for s in load_lexicon("street_suffixes")}
        abbr_values = {v.lower() for v in STREET_ABBR.values()}
        if len(words) > 1 and bare in abbr_values and (last.endswith(".") or bare not in full_suffixes):
            suffix_new = stream.choice(sorted(set(STREET_ABBR.values()))) + (
                "." if last.endswith(".") else ""
            )
        elif len(words) > 1 and bare in full_suffixes:
            suffix_new = stream.choice(sorted(k.title() for k in STREET_ABBR))
    name = stream.choice(locale_list("street_names", folder))
    new_name = direction + name + (" " + suffix_new if suffix_new else "")
    return match_case(name_part, new_name) if name_part else new_name


# --- seeded --------------------------------------------------------------------------------------


def draw_state(ctx: NoteDraw, before: str, after: str) -> str:
    """A state or province (a US abbreviation at times; Catalan and Chinese ones match the town)."""
    st = ctx.state
    if ctx.lang == "en" and ctx.rng.random() < 0.4:
        return ctx.rng.choice(load_lexicon("states_abbr"))
    if ctx.lang == "ca" and st.last_city and re.search(r"\[CITY\]\W{0,3}$", before):
        return next((p for p, towns in CA_PROVINCE_TOWNS.items() if st.last_city in towns), "Barcelona")
    if ctx.lang == "zh":
        st.last_state = ctx.rng.choice(sorted(ZH_PROVINCE_CITIES))
        return st.last_state
    return ctx.pick("states")


def draw_city(ctx: NoteDraw, before: str, after: str) -> str:
    """A town or city (Chinese ones in the province drawn just before)."""
    st = ctx.state
    if ctx.lang == "zh":
        after_state = bool(re.search(r"\[STATE\]\s*$", before)) and st.last_state in ZH_PROVINCE_CITIES
        if after_state and st.last_state is not None:
            city = ctx.rng.choice(ZH_PROVINCE_CITIES[st.last_state])
        else:
            city = ctx.pick("cities")
        suffix = city not in ZH_DISTRICTS and (after_state or ctx.rng.random() < 0.5)
        st.last_city = city + ("市" if suffix else "")
    else:
        st.last_city = ctx.pick("cities", before)
    return st.last_city


def draw_department(ctx: NoteDraw, before: str, after: str) -> str:
    """A department or service, or in English sometimes a named ward."""
    # English care-unit abbreviations (ICU, ED, PACU) are not drawn: they are not PHI in real notes,
    # and gold spans on them teach a tagger false positives. Named wards ("Ellison 4") are.
    if ctx.lang == "en" and ctx.rng.random() < 0.25:
        return ward(ctx)
    return ctx.pick("departments", before)


def ward(ctx: NoteDraw) -> str:
    """A named ward: a surname and a floor, as big hospitals name them ("Ellison 4", "Blake 7")."""
    rng = ctx.rng
    surname = "Blake"
    for _ in range(20):
        cand = rng.choice(ctx.en_list("last_names"))
        if cand.isascii() and cand.isalpha() and 3 <= len(cand) <= 9:
            surname = cand
            break
    n = rng.randint(1, 22)
    form = rng.choices(["plain", "letter", "side", "dash"], [70, 10, 12, 8])[0]
    if form == "letter":
        return f"{surname} {n}{rng.choice('ABCD')}"
    if form == "side":
        return f"{surname} {n} {rng.choice(['North', 'South', 'East', 'West'])}"
    if form == "dash":
        return f"{surname}-{n}"
    return f"{surname} {n}"


def draw_hospital(ctx: NoteDraw, before: str, after: str) -> str:
    """A hospital or care-home name; in English often one made of common words ("St. Mary's",
    "Good Samaritan", "Lakeside Nursing Home", "University of Ohio Medical Center", "SJH")."""
    if ctx.lang != "en":
        return ctx.pick("hospitals", before)
    rng = ctx.rng
    if rng.random() < 0.4:
        return ctx.pick("hospitals", before)
    # Before "ED", "LTC", "Cancer Center" the name stands alone ("Mercy ED", "St. Luke's LTC").
    bare = bool(SHORT_FACILITY_AFTER.match(after))
    kind = rng.choices(
        ["saint", "virtue", "place", "rehab", "university", "home", "acronym"],
        [22, 16, 14, 10, 8, 12, 18],
    )[0]
    if kind == "acronym":
        return facility_acronym(ctx)
    if kind == "rehab" and not bare:
        stem = rng.choice([rng.choice(ctx.part(PLACE_WORDS)), town(ctx), surname(ctx)])
        return f"{stem} {rng.choice(REHAB_SUFFIXES)}"
    if kind == "university" and not bare:
        where = rng.choice(load_lexicon("states")) if rng.random() < 0.6 else town(ctx)
        return rng.choice(
            [
                f"University of {where} Medical Center",
                f"University of {where} Hospital",
                f"{where} University Hospital",
                f"University of {where} Health",
            ]
        )
    if kind == "home" and not bare:
        stem = rng.choice(ctx.part(PLACE_WORDS)) if rng.random() < 0.7 else surname(ctx)
        return f"{stem} {rng.choice(HOME_SUFFIXES)}"
    virtues, places = ctx.part(VIRTUE_NAMES), ctx.part(PLACE_WORDS)
    stem = saint(ctx) if kind == "saint" else rng.choice(virtues) if kind == "virtue" else ""
    stem = stem or rng.choice(places)
    suffix = "" if bare else weighted(rng, HOSPITAL_SUFFIXES)
    return f"{stem} {suffix}" if suffix else stem


def saint(ctx: NoteDraw) -> str:
    rng = ctx.rng
    prefix = rng.choice(["St.", "St.", "St.", "St", "Saint"])
    name = rng.choice(ctx.part(SAINTS))
    return f"{prefix} {name}{chr(39) + 's' if rng.random() < 0.55 else ''}"


def town(ctx: NoteDraw) -> str:
    for _ in range(20):
        town = ctx.rng.choice(ctx.en_list("cities"))
        if town.isascii() and len(town.split()) <= 2:
            return town
    return "Springfield"


def surname(ctx: NoteDraw) -> str:
    for _ in range(20):
        name = ctx.rng.choice(ctx.en_list("last_names"))
        if name.isascii() and name.isalpha():
            return name
    return "Lahey"


def facility_acronym(ctx: NoteDraw) -> str:
    """Initials of a facility name ("BMC", "SJH", "GSMC"); never a care-unit or clinical acronym."""
    rng = ctx.rng
    clinical = clinical_acronyms()
    for _ in range(20):
        stem = rng.choice(
            [
                saint(ctx),
                rng.choice(ctx.part(VIRTUE_NAMES)),
                rng.choice(ctx.part(PLACE_WORDS)),
                town(ctx),
            ]
        )
        suffix = rng.choice(["Hospital", "Medical Center", "Medical Center", "General Hospital", "Health",
                             "Memorial Hospital", "Regional Hospital"])  # fmt: skip
        acro = acronym(f"{stem} {suffix}")
        if not 2 <= len(acro) <= 5 or acro in NOT_FACILITY_ACRONYMS:
            continue
        if acro in clinical and not acro.endswith(("H", "MC")):
            continue
        return acro
    return "SJH"


def draw_profession(ctx: NoteDraw, before: str, after: str) -> str:
    """A profession, lower-case inside a sentence."""
    job = ctx.pick("professions", before)
    if ctx.lang == "zh":
        return job
    line_start = before.rstrip(" \t") == "" or before.rstrip(" \t").endswith(("\n", ":", "："))
    return job if line_start else job[0].lower() + job[1:]


def draw_street(ctx: NoteDraw, before: str, after: str) -> str:
    """A street address in the note's language."""
    rng = ctx.rng
    if ctx.lang == "zh":
        return rng.choice(load_lexicon("street_names", "zh")) + f"{rng.randint(1, 999)}号"
    if ctx.lang in ("es", "ca"):
        if ctx.lang == "ca":
            # Catalan names carry their preposition ("de Balmes", "d'Aragó"); "C/" drops it.
            name = rng.choice(load_lexicon("street_names_ca", "ca"))
            prefix = rng.choice(["Carrer", "Carrer", "C/", "Avinguda", "Passeig", "Plaça", "Rambla"])
            if prefix == "C/":
                name = re.sub(r"^(?:de(?:l|ls| la| les)?\s|d['’])", "", name)
                name = name[:1].upper() + name[1:]
        else:
            name = rng.choice(load_lexicon("street_names", "es"))
            prefix = rng.choice(["Calle", "C/", "Avda.", "Avenida", "Paseo", "Plaza"])
        number = rng.randint(1, 350)
        tail = rng.choice(
            [
                "",
                "",
                f", {rng.randint(1, 8)}º {rng.randint(1, 4)}ª",
                f", {rng.randint(1, 8)}-{rng.randint(1, 4)}",
            ]
        )
        return f"{prefix} {name}, {number}{tail}" if rng.random() < 0.5 else f"{prefix} {name} {number}{tail}"
    name = rng.choice(ctx.en_list("street_names"))
    full, abbr = rng.choice(EN_STREET_SUFFIX)
    suffix = rng.choice([full, abbr, abbr + "."])
    direction = rng.choice(["", "", "", "", "N. ", "S. ", "East ", "W "])
    number = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
    unit = rng.choice(["", "", "", "", f", Apt {shape(rng, rng.choice(['#', '##', '#%', '###']))}",
                       f" #{rng.randint(1, 40)}", f", Unit {rng.randint(1, 20)}"])  # fmt: skip
    return f"{number} {direction}{name} {suffix}{unit}"


def draw_location(ctx: NoteDraw, before: str, after: str) -> str:
    """Another location: a park, road, square, station, school, or a named ward near a unit word."""
    rng = ctx.rng
    if ctx.lang == "zh":
        city = ctx.pick("cities")
        return rng.choice(
            [
                f"{city}广场",
                f"{city}公园",
                f"{city}火车站",
                rng.choice(load_lexicon("street_names", "zh")),
            ]
        )
    if ctx.lang in ("es", "ca"):
        town = ctx.pick("cities")
        return rng.choice(
            [town, f"Parque de {town}", f"Plaza de {town}", f"Playa de {town}", f"Estación de {town}"]
        )
    unit_context = bool(UNIT_CUE.search(before[-30:]))
    if rng.random() < (0.35 if unit_context else 0.08):
        return ward(ctx)
    surname = rng.choice(ctx.en_list("last_names"))
    town = ctx.pick("cities")
    return rng.choice([
        town, f"Route {rng.randint(1, 299)}", f"I-{rng.randint(5, 99)}", f"{surname} Park", f"{town} Mall",
        f"Lake {surname}", f"{surname} Community Center", f"Highway {rng.randint(1, 120)}",
        f"{town} Beach", f"{surname} Elementary School",
    ])  # fmt: skip


@cache
def clinical_acronyms() -> frozenset[str]:
    """Upper-case clinical abbreviations of the bundled medical lexicon (read once)."""
    path = resources.files("phiscrub.resources").joinpath("medical", "abbreviations.txt")
    words = path.read_text(encoding="utf-8").split() if path.is_file() else []
    return frozenset(w for w in words if w.isupper()) | NOT_FACILITY_ACRONYMS


def acronym(name: str) -> str:
    """ "St. Joseph's Hospital" -> "SJH", "Bay State Medical Center" -> "BSMC" (stop words dropped)."""
    words = [w for w in re.findall(r"[A-Za-z]+", name) if w.lower() not in ("of", "the", "and", "s", "at")]
    return "".join(w[0].upper() for w in words)
