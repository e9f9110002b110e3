"""Widen a facility or organisation span over the rest of its own name (recall first).

A detector often finds the distinctive half of a practice's name and stops before the words that
make it a practice: ``[Red Oak] Pulmonary Specialists``, ``[Harbor View] Skilled Nursing``,
``[Valley Ortho] PC``, ``[Blue Sky] Women's Health``. The words left in clear still point to one
place. This step extends a HOSPITAL, ORGANIZATION, DEPARTMENT or generic LOCATION span to the right
over a run of words that continues the name: every word a service, head or company word
(``Pulmonary``, ``Skilled``, ``Nursing``, ``Associates``, ``PC``), the run ending on a head or
company word, on the same line, written in the name's case (Title, ALL CAPS or all lower case:
``d/c to [cedar bend] family practice``). A span that already ends on a hospital, centre,
institute or clinic word is whole (``Stout Medical Center Emergency Department``: the department
is no part of the name). A span only grows, but for an unpaired bracket at its edge or inside it
(``(419-555-0147``, ``cedar glen (celina``), which is dropped or split at; no word is removed, so
the step can only raise recall.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from phiscrub.calendar import WEEKDAY_ABBRS, WEEKDAY_NAMES
from phiscrub.detect.clinical_vocab import word_set
from phiscrub.document import Span

__all__ = ["EXTENDABLE_LABELS", "extend_names"]

#: The labels whose spans may grow over a trailing name word.
EXTENDABLE_LABELS = frozenset({"HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION"})
#: Town labels whose span grows only over a facility's head, and then names that facility
#: ("[Larkspur] House", "[Riverbend] VNA": the model read the distinctive word as a town).
_TOWN_LABELS = frozenset({"CITY"})

#: Company forms that end a name ("Valley Ortho PC", "Apex Medical Supply LLC").
_COMPANY = word_set(
    "pc p.c. pllc llc l.l.c. inc inc. corp corp. ltd ltd. llp pa p.a. co co. group associates partners"
    " collaborative cooperative co-op alliance consortium"
)
#: Heads of a business or body rather than a place of care ("Brazos Drug", "Henrietta ISD").
_ORG_HEADS = word_set(
    """
    drug drugs isd roofing plumbing metal supply electric construction welding trucking landscaping
    insurance transit foods logistics church ministries academy bank agency plan
    """
)
#: Words that end a practice's or facility's name (the business heads above included).
_HEADS = _ORG_HEADS | word_set(
    """
    hospital hosp hosp. clinic clinics center centre institute hospice manor infirmary rehab
    rehabilitation nursing care healthcare health specialists specialist physicians associates partners
    group services pharmacy therapy imaging radiology laboratory labs lab medicine practice surgery
    surgeons orthopedics orthopaedics cardiology neurology urology oncology dermatology pediatrics
    gastroenterology pulmonology nephrology dialysis network system systems living residence home
    counseling shelter recovery wellness house lodge vna med
    """
)
#: Heads after which the name is whole: what follows is a department of the place ("Stout Medical
#: Center Emergency Department", "Valley Rehabilitation Institute Primary Care").
_CLOSING = word_set("hospital hosp hosp. center centre institute infirmary manor hospice clinic")
#: Words that may stand inside the rest of the name before its head ("Skilled", "Women's", "Family").
_INNER = word_set(
    """
    skilled family primary urgent internal general medical surgical physical occupational speech
    behavioral mental women's womens children's childrens men's pediatric senior assisted memory
    heart lung kidney wound vein spine sleep eye pain cancer pulmonary cardiac cardiovascular
    vascular neuro ortho orthopedic orthopaedic sports home health care community regional
    dental vision hearing infusion diagnostic diagnostics medical rehab nursing and & of sheet heating
    cooling electrical auto body visiting nurse nurses
    """
)
#: In an all-lower-case note, a lone one of these after a name describes the place, no part of its name.
_GENERIC_TAIL = word_set("clinic clinics shelter center centre home office services care health")
_WORD_RE = re.compile(r"[ \t]+([A-Za-z][A-Za-z'’.&]*|&)")


@cache
def _all_heads() -> frozenset[str]:
    from phiscrub.detect.rules.facility_data import FACILITY_SUFFIXES

    last = {h.split()[-1].lower() for h in FACILITY_SUFFIXES}
    return _HEADS | _COMPANY | frozenset(last)


def _cased_like(word: str, case: str) -> bool:
    """The word is written as the span is: ALL CAPS, Title Case or all lower case."""
    if word in ("&", "and", "of"):
        return True
    if case == "upper":
        return word.isupper()
    return word.islower() if case == "lower" else word[0].isupper()


def _case(surface: str) -> str | None:
    """How a name is written: ``upper``, ``lower`` (an all-lower-case note: "d/c to cedar bend family
    practice"), ``title``, or None (no letters, or not starting with one)."""
    letters = [c for c in surface if c.isalpha()]
    if not letters or not surface[:1].isalpha():
        return None
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    return "title" if surface[0].isupper() else None


def _tail(text: str, span: Span, *, person: bool = False) -> int:
    """The end of the name words that continue ``span``, or ``span.end`` when none do (a person's span
    only when its own last word is a head or service word)."""
    surface = text[span.start : span.end]
    case = _case(surface)
    if case is None:
        return span.end
    heads = _all_heads()
    last = surface.split()[-1].lower().rstrip(".,")
    if person and (last not in heads and last not in _INNER or last in ("and", "of", "&")):
        return span.end
    if last in _CLOSING:
        return span.end  # already whole: what follows is a department ("... Center Emergency")
    end = pos = span.end
    for _ in range(4):
        m = _WORD_RE.match(text, pos)
        if m is None:
            break
        word = m.group(1)
        low = word.lower().rstrip(".") if word.lower() not in _COMPANY else word.lower()
        if not _cased_like(word, case) or (low not in heads and low not in _INNER):
            break
        if low in ("ed", "er") and re.fullmatch(r"[A-Z]{2,6}", surface):
            break  # "MVH ED": the facility's abbreviation names it, its ED is a department
        pos = m.end()
        if low in heads:  # the company forms are heads too
            end = pos
    tail = text[span.end : end].split()
    if case == "lower" and len(tail) == 1 and tail[0].rstrip(".") in _GENERIC_TAIL:
        return span.end  # "f/u at scott and sons clinic": in lower case a lone "clinic" describes
    if tail and text[end - 1] == "." and tail[-1].lower() not in _COMPANY:
        end -= 1  # a sentence's full stop, not the company's "Inc."
    return end


# A floor or wing number after a building or unit ("FROM: NMC WHITCOMBE 3", "to Tallis 6 acute rehab"):
# one or two digits that end the line or a field, or come before a unit word (not "Mercy 2 days ago").
_FLOOR_RE = re.compile(
    r"[ \t]+\d{1,2}[A-Za-z]?(?=[ \t]*(?:\n|\Z|[,;)]|[ \t]{2}|[ \t]+(?i:acute|rehab|north|south|east|west"
    r"|icu|step-?down|unit|floor|tele|telemetry|med|surg|ortho|neuro|cardiac|oncology|vs|or|and)\b))"
)
# A suite, apartment or unit after a street address: "2250 Commerce Blvd, Suite 300", "412 Pine Ln Apt B".
_SUITE_RE = re.compile(
    r",?[ \t]*(?:Suite|Ste\.?|STE\.?|SUITE|Apt\.?|APT\.?|Unit|UNIT|#)[ \t]*#?[A-Za-z0-9-]{1,5}(?![\w-])"
)
# A weekday right before a date: "appt Mon 3/10 0940", "Tuesday, 3/4" (the calendar's English names).
_WEEKDAYS = sorted(
    {w.lower() for table in (WEEKDAY_NAMES["en"], WEEKDAY_ABBRS["en"]) for day in table for w in day},
    key=len,
    reverse=True,
)
_WEEKDAY_BEFORE_RE = re.compile(rf"(?<![\w/])(?:{'|'.join(_WEEKDAYS)})\.?,?[ \t]\Z", re.IGNORECASE)
# A middle initial after a name in a header field: "PT NAME: HALL,LEROY D   UNIT#", "ATT: ONEIL,SEAMUS P".
_MIDDLE_INITIAL_RE = re.compile(r"[ \t][A-Z]\.?(?=[ \t]{2,}|[ \t]*\n|[ \t]*\Z|[ \t]*[,;|])")
# A place in brackets right after a facility: "St. Columba's (Ostrander)", "Mercy (Grand Rapids, 2 h)".
_PAREN_PLACE_RE = re.compile(r"[ \t]*\((?P<place>[A-Z][a-z'’]+(?:[ \t][A-Z][a-z'’]+){0,2})(?=[),])")
#: Labels of a person whose span may have run into the name of a practice ("Hargreave, Wickham Urology").
_PERSON_LABELS = frozenset({"DOCTOR", "PATIENT", "RELATIVE", "NAME", "PERSON", "USERNAME"})


def _floor_end(text: str, label: str, end: int) -> int:
    """The end of a floor number right after a building or unit span ending at ``end``, or ``end``."""
    if label.upper() not in ("HOSPITAL", "DEPARTMENT", "LOCATION"):
        return end
    m = _FLOOR_RE.match(text, end)
    return end if m is None else m.end()


# A facility's capitals in brackets right after a clinician: "PCP: Dr. Zamarripa (IPFC)".
_PAREN_ABBR_RE = re.compile(r"[ \t]*\((?P<abbr>[A-Z]{3,5})\)")


def _paren_facility(text: str, span: Span) -> Span | None:
    """Three to five capitals in brackets after a clinician's name, not a service or clinical
    abbreviation ("(IPFC)", not "(GI)", "(CHF)", "(PCP)"), as a HOSPITAL span."""
    if span.label.upper() != "DOCTOR":
        return None
    m = _PAREN_ABBR_RE.match(text, span.end)
    if m is None:
        return None
    from phiscrub.detect.clinical_vocab import clinical_vocabulary
    from phiscrub.detect.rules.names_data import NAME_STOPWORDS

    abbr = m.group("abbr")
    vocab = clinical_vocabulary()
    if abbr in vocab.abbreviations or abbr.lower() in vocab.clinical or abbr.lower() in NAME_STOPWORDS:
        return None
    from phiscrub.detect.rules.commonwealth import no_one_named

    if no_one_named(abbr):
        return None  # "Dr Keogh (RMO)", "(CPN)": a grade, not a place
    return Span(m.start("abbr"), m.end("abbr"), "HOSPITAL", span.score, source="extend")


# A specialty or service closing a bracket: "(Adult Inpatient Psychiatry)", "(Cardiac Surgery)".
_SERVICE_END_RE = re.compile(r"(?:iatry|ology|ics|medicine|surgery|services?)\Z", re.IGNORECASE)


def _paren_place(text: str, span: Span) -> Span | None:
    """A town or area in brackets right after a facility span, as a LOCATION span."""
    if span.label.upper() not in ("HOSPITAL", "ORGANIZATION", "DEPARTMENT"):
        return None
    m = _PAREN_PLACE_RE.match(text, span.end)
    if m is None:
        return None
    from phiscrub.detect.rules.places_en_cities import plain_word

    words = m.group("place").split()
    if _SERVICE_END_RE.search(words[-1]):
        return None  # "(Adult Inpatient Psychiatry)": a service, not where it is
    kind = len(words) == 1 or words[-1].lower() in _INNER
    if kind and all(plain_word(w) for w in words):
        return None  # "(Primary Care)", "(Rehab)": a kind of place, not where it is
    return Span(m.start("place"), m.end("place"), "LOCATION", span.score, source="extend")


def _town_facility(text: str, span: Span, nxt: int) -> Span:
    """A town span followed by a facility's head, widened over it and relabelled as that facility; one
    followed by a floor number is a unit ("Ashby 3 neuro icu", "Greer 4  |")."""
    floor = _floor_end(text, "DEPARTMENT", span.end)
    if span.end < floor <= nxt and not text[span.start : span.end].isdigit():
        return replace(span, end=floor, label="DEPARTMENT")
    end = _tail(text, span)
    if end <= span.end or end > nxt:
        return span
    last = text[span.end : end].split()[-1].lower().rstrip(".")
    if last not in _HEADS and last not in _COMPANY:
        return span
    return replace(span, end=end, label="ORGANIZATION" if last in _COMPANY | _ORG_HEADS else "HOSPITAL")


def _middle_initial(text: str, span: Span) -> int:
    """The end of a middle initial right after a person's name written in capitals or with a comma
    ("HALL,LEROY D"), or ``span.end``."""
    surface = text[span.start : span.end]
    if not (surface.isupper() or "," in surface):
        return span.end
    m = _MIDDLE_INITIAL_RE.match(text, span.end)
    return span.end if m is None else m.end()


def _balanced(text: str, spans: list[Span]) -> list[Span]:
    """Spans without an unpaired bracket: a leading "(" is dropped ("(419-555-0147" ->
    "419-555-0147"), a span holding an unclosed "(" is split at it ("cedar glen (celina" -> "cedar
    glen", "celina")."""
    out: list[Span] = []
    for span in spans:
        surface = text[span.start : span.end]
        if "(" not in surface or ")" in surface:
            out.append(span)
            continue
        cut = span.start + surface.index("(")
        left = text[span.start : cut].rstrip()
        right = text[cut + 1 : span.end].lstrip()
        if left:
            out.append(replace(span, end=span.start + len(left)))
        if right:
            out.append(replace(span, start=span.end - len(right)))
    return out


def extend_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without unpaired brackets, every facility or organisation span widened over the rest of
    its name (and its floor number), a town span read as a facility widened over the facility's head
    (or its floor), a middle initial added to a name in a header field, a suite or apartment joined to
    its street, a weekday joined to the date after it, and a town in brackets after a facility (or a
    facility's capitals in brackets after a clinician) added."""
    ordered = sorted(_balanced(text, list(spans)), key=lambda s: (s.start, s.end))
    out: list[Span] = []
    for i, span in enumerate(ordered):
        nxt = ordered[i + 1].start if i + 1 < len(ordered) else len(text)
        label = span.label.upper()
        if label in EXTENDABLE_LABELS | _PERSON_LABELS:
            end = _tail(text, span, person=label not in EXTENDABLE_LABELS)
            end = _floor_end(text, span.label, end)
            if label in _PERSON_LABELS and end == span.end:
                end = _middle_initial(text, span)
            if end > span.end and end <= nxt:
                span = replace(span, end=end)
        elif label in _TOWN_LABELS:
            span = _town_facility(text, span, nxt)
        elif label == "STREET":
            suite = _SUITE_RE.match(text, span.end)
            if suite is not None and suite.end() <= nxt:
                span = replace(span, end=suite.end())
        elif label == "DATE":
            weekday = _WEEKDAY_BEFORE_RE.search(text, max(0, span.start - 12), span.start)
            prev = out[-1].end if out else 0
            if weekday is not None and weekday.start() >= prev:
                span = replace(span, start=weekday.start())
        out.append(span)
        place = _paren_place(text, span) or _paren_facility(text, span)
        if place is not None and place.end <= nxt:
            out.append(place)
    return out
