"""People, seeded: the patient, doctors, relatives and user names of one note.

The patient is one invented person per note (gender from a title or the note's pronouns); doctors
and relatives are drawn or reused; relatives after a kinship word take its gender and sometimes the
patient's surname. The form follows the context: a surname after a title, "per K. JONES" after a
role cue (English), "daughter mary" after a kinship word, full names, "Smith, John", "J. Smith",
initials. Keyed names live in :mod:`phiscrub.transform.surrogate.names`.
"""

from __future__ import annotations

import string

from phiscrub.transform.surrogate.cues import (
    CREDENTIAL_AFTER,
    FEMALE_TITLE,
    KIN,
    KIN_BEFORE,
    MALE_KIN,
    MALE_TITLE,
    ROLE_CUE_BEFORE,
    TITLE_BEFORE,
)
from phiscrub.transform.surrogate.draw import NoteDraw, Person
from phiscrub.transform.surrogate.text import ascii_word

__all__ = ["draw_doctor", "draw_patient", "draw_relative", "draw_username", "render_person"]


def render_person(ctx: NoteDraw, p: Person, form: str) -> str:
    """A person in one form: full, middle, last, first, initial(s), comma, capitals, lower case."""
    if ctx.lang == "zh":
        return p.last + p.first  # Chinese notes write the full name
    last = p.last + (f" {p.second_last}" if p.second_last and form in ("full", "middle", "comma") else "")
    if form == "full":
        return f"{p.first} {last}"
    if form == "middle":
        middle = p.middle or ctx.rng.choice(ctx.lexicon("first_names_male"))
        return f"{p.first} {middle[0]}. {last}" if ctx.rng.random() < 0.7 else f"{p.first} {middle} {last}"
    if form == "last":
        return p.last
    if form == "first":
        return p.first
    if form == "initial":
        return f"{p.first[0]}. {p.last}"
    if form == "comma":
        return f"{last}, {p.first}"
    if form == "initials":
        return f"{p.first[0]}{p.last[0]}".upper() if ctx.rng.random() < 0.6 else f"{p.first[0]}.{p.last[0]}."
    if form == "initial_caps":  # "per J. SMITH", "K JONES"
        sep = ". " if ctx.rng.random() < 0.6 else " "
        return f"{p.first[0].upper()}{sep}{p.last.upper()}"
    if form == "caps_last":
        return p.last.upper()
    if form == "lower_first":  # "daughter mary"
        return p.first.lower()
    if form == "lower_full":
        return f"{p.first} {p.last}".lower()
    raise ValueError(form)


def draw_patient(ctx: NoteDraw, before: str, after: str) -> str:
    """The note's patient (one person per note), in a form the context asks for."""
    st = ctx.state
    if st.patient is None:
        gender = "f" if FEMALE_TITLE.search(before) else "m" if MALE_TITLE.search(before) else None
        st.patient = ctx.person(gender or st.patient_gender)
    titled = bool(TITLE_BEFORE.search(before))
    if titled:
        form = ctx.rng.choices(["last", "full", "initial"], [70, 25, 5])[0]
    elif ctx.lang == "en":
        form = ctx.rng.choices(
            [
                "full",
                "comma",
                "middle",
                "last",
                "first",
                "initial",
                "initials",
                "lower_first",
                "initial_caps",
            ],
            [45, 12, 10, 10, 8, 8, 7, 3, 2],
        )[0]
    else:
        form = ctx.rng.choices(
            ["full", "comma", "middle", "last", "first", "initial", "initials"], [45, 12, 10, 10, 8, 8, 7]
        )[0]
    return render_person(ctx, st.patient, form)


def draw_doctor(ctx: NoteDraw, before: str, after: str) -> str:
    """A doctor, new or already named in the note."""
    st = ctx.state
    if st.doctors and ctx.rng.random() < 0.4:
        person = ctx.rng.choice(st.doctors)
    else:
        person = ctx.person()
        st.doctors.append(person)
    en = ctx.lang == "en"
    if TITLE_BEFORE.search(before):
        form = ctx.rng.choices(["last", "full", "initial", "caps_last"], [60, 30, 10, 4 if en else 0])[0]
    elif CREDENTIAL_AFTER.search(after):
        form = ctx.rng.choices(["full", "middle", "initial", "initial_caps"], [60, 25, 15, 5 if en else 0])[0]
    elif en and ROLE_CUE_BEFORE.search(before):
        # "per K. JONES", "d/w J SMITH", "paged Smith": initial + surname in capitals is common here.
        form = ctx.rng.choices(
            ["initial_caps", "full", "last", "initial", "caps_last", "lower_full"],
            [30, 25, 15, 15, 10, 5],
        )[0]
    else:
        form = ctx.rng.choices(
            ["full", "last", "initial", "comma", "middle", "initial_caps"],
            [50, 15, 15, 10, 10, 6 if en else 0],
        )[0]
    return render_person(ctx, person, form)


def draw_relative(ctx: NoteDraw, before: str, after: str) -> str:
    """A relative of the kinship word's gender, sometimes with the patient's surname."""
    st = ctx.state
    # The kinship word nearest to the placeholder decides ("father: X, mother: [RELATIVE]").
    kin = [m.group() for m in KIN.finditer(before[-40:])]
    gender = None if not kin else "m" if MALE_KIN.fullmatch(kin[-1]) else "f"
    # A named kinship ("father", "母亲") reuses only a relative of that gender.
    known = [p for p in st.relatives if gender is None or p.gender == gender]
    if known and ctx.rng.random() < 0.5:
        person = ctx.rng.choice(known)
    else:
        share = st.patient.last if st.patient is not None and ctx.rng.random() < 0.5 else None
        person = ctx.person(gender, surname=share)
        st.relatives.append(person)
    if TITLE_BEFORE.search(before):
        return render_person(ctx, person, "last")
    if ctx.lang == "en" and KIN_BEFORE.search(before):
        # "daughter mary", "son John", "wife Ann Lee": real notes drop the capital often.
        form = ctx.rng.choices(["first", "full", "last", "initial", "lower_first", "lower_full"],
                                [40, 30, 8, 4, 15, 3])[0]  # fmt: skip
    else:
        form = ctx.rng.choices(["first", "full", "last", "initial"], [40, 45, 10, 5])[0]
    if person.last != (st.patient.last if st.patient else None) and form == "last":
        form = "full"
    return render_person(ctx, person, form)


def draw_username(ctx: NoteDraw, before: str, after: str) -> str:
    """A user name made of an invented person's name, reused at times within the note."""
    st = ctx.state
    if st.usernames and ctx.rng.random() < 0.4:
        return ctx.rng.choice(st.usernames)
    rng = ctx.rng
    if ctx.lang == "zh":
        letters = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 7)))
        name = rng.choice([letters + str(rng.randint(1, 9999)), letters, f"{letters}{rng.randint(10, 99)}"])
    else:
        p = ctx.person()
        first, last = ascii_word(p.first) or "x", ascii_word(p.last) or "y"
        name = rng.choice([
            first[0] + last, last + first[0], f"{first[0]}{last}{rng.randint(1, 99)}", f"{first}.{last}",
            f"{first[0]}{last[0]}{rng.randint(100, 9999)}", (first[0] + last).upper(), f"{first}_{last[0]}",
            f"{first[0]}{p.middle[:1].lower()}{last[:6]}",
        ])  # fmt: skip
    st.usernames.append(name)
    return name
