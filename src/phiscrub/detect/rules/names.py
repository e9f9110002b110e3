"""Name rules: names after titles, before credentials, and after field or signature labels.

Names are only taken next to a trigger, never as bare capitalised words, so eponyms
(``Parkinson's disease``, ``Foley catheter``, ``Glasgow Coma Scale``, ``Apgar``, ``Babinski``)
survive. The span excludes the title and the credential: ``Smith`` in ``Dr. Smith``, ``Jane Smith``
in ``Jane Smith, MD``.

* DOCTOR: ``Dr.``/``Dr``/``DR.``/``dr``/``Doctor``/``Prof.`` + name; name + ``, MD``/``, RN``/
  ``, NP``/``, PA-C``/``, DO`` (also chains: ``, MS, CGC``); ``Attending:``, ``PCP:``,
  ``Dictated by:``, ``Electronically signed by:``; a role word before a name (``paramedic Ann Lee``,
  ``RN Ivka Sarić``).
* PATIENT: ``Mr.``/``Mrs.``/``Ms.``/``Miss`` + name; ``Patient:``, ``Name:``, ``Pt:``, ``Re:``
  (also ``Surname, Given``); ``Pt Jane Roe`` (Title case); a name right before an age and sex
  (``Callum, 76 y/o``); ``Baby Boy Jones``.
* RELATIVE: kinship word + name (``her son, Mark``, ``wife Mary Jones``).

A candidate is a run of up to four name-like tokens in one case style (Title, UPPER, or lower
after a lower-case title), cut at the first stop word (``Dr. visit``, ``Mr. Coffee``, ``MR. No``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from phiscrub.detect.clinical_vocab import clinical_vocabulary, word_set
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern
from phiscrub.detect.rules.intl_names import pack_name_rules
from phiscrub.detect.rules.names_data import (
    BABY,
    CREDENTIAL_AMBIGUOUS_WORDS,
    CREDENTIAL_CHAIN_WORDS,
    CREDENTIAL_WORDS,
    CUE_PHRASES,
    DOCTOR_BY,
    DOCTOR_FIELDS,
    DOCTOR_TITLES,
    KIN_WORDS,
    NAME_STOPWORDS,
    PATIENT_FIELDS,
    PATIENT_TITLES,
    PT_WORDS,
    ROLE_CREDENTIALS,
    ROLE_WORDS,
    SIGNATURE_WORDS,
)
from phiscrub.detect.rules.names_roles import ROLE_NAME_RULES_EN
from phiscrub.errors import ConfigError

__all__ = ["NAME_RULES_EN", "NAME_STOPWORDS", "NameRule", "name_detector", "name_rules"]


def _style(tok: str) -> str:
    """Case style of a token: initial (``J.``), upper, lower or title."""
    if len(tok.rstrip(".")) == 1:
        return "initial" if tok[0].isupper() else "lower"
    if tok.isupper():
        return "upper"
    if tok[0].islower():
        return "lower"
    return "title"


def _scan_after(
    text: str,
    pos: int,
    *,
    lower_ok: bool,
    upper_ok: bool = True,
    comma_ok: bool = False,
    max_tokens: int = 4,
    first_ok: frozenset[str] = frozenset(),
) -> tuple[int, int] | None:
    """Collect name tokens from ``pos`` onward; return the span of the accepted tokens or None.

    With ``comma_ok`` a surname may be followed by ", Given" ("Kiuru, Varvara"); a first token in
    ``first_ok`` is taken although it is a stop word ("Mr. Day", "son May").
    """
    start = end = -1
    style = ""
    count = 0
    while count < max_tokens:
        # "Kiuru, Varvara": one comma after a lone surname when the trigger allows it.
        comma = comma_ok and count == 1 and text.startswith(", ", pos)
        m = _RX["TOKEN_RE"].match(text, pos + 1 if comma else pos)
        if m is None:
            break
        tok = m.group("tok")
        if count and text[m.start() : m.start("tok")] != " ":
            break  # name parts are separated by exactly one space; wider gaps are table columns
        st = _style(tok)
        # "Mr. Day", "son Rich March", "Pt: Autumn May": a word that is also a name, not before a day
        taken = (
            st in ("title", "upper")
            and tok.lower() in first_ok
            and count < 2
            and not re.match(r"[ \t]+\d", text[m.end() : m.end() + 3])
        )
        if st != "initial" and tok.lower() in NAME_STOPWORDS and not taken:
            break
        if (st == "lower" and not lower_ok) or (st == "upper" and not upper_ok):
            break
        if st != "initial":
            if style and st != style:
                break  # "Dr. Smith ICU", "DR SMITH Tuesday": a change of case ends the name
            style = st
        if start < 0:
            start = m.start("tok")
        end = m.end("tok")
        pos = m.end()
        count += 1
        if st == "lower" and count >= 2:
            break
    if not style:
        return None  # nothing but initials (or nothing at all)
    return (start, end)


def _scan_before(text: str, end: int, *, max_tokens: int = 3) -> tuple[int, int] | None:
    """Collect name tokens ending at ``end`` (right to left) for ``Jane Smith, MD``."""
    base = max(0, end - 80)
    toks = list(_RX["BACK_TOKEN_RE"].finditer(text, base, end))
    chosen: list[tuple[int, int]] = []
    style = ""
    expect_end = end
    for m in reversed(toks):
        s, e = m.start(), m.end()
        if text[e:expect_end] != ("" if expect_end == end else " "):
            break  # the name touches the credential part; its tokens are one space apart
        tok = m.group()
        st = _style(tok)
        if st == "lower" or (st != "initial" and tok.endswith(".")):
            break
        if tok.lower().rstrip(".") in NAME_STOPWORDS and st != "initial":
            break
        if st != "initial":
            if style and st != style:
                break
            style = st
        chosen.append((s, e))
        expect_end = s
        if len(chosen) >= max_tokens:
            break
    if not chosen or all(_style(text[s:e]) == "initial" for s, e in chosen):
        return None
    return (chosen[-1][0], chosen[0][1])


#: How to scan after one trigger: ``(label, lower_ok, upper_ok, max_gap, comma_ok)``.
NameMode = tuple[str, bool, bool, int, bool]


@dataclass(frozen=True)
class NameRule(PatternRule):
    """A trigger pattern; the name is scanned after the match (``after``) or before it (``before``).

    Args:
        direction: ``after`` (titles and field labels) or ``before`` (credentials).
        lower_ok: accept lower-case name tokens (only after lower-case titles: ``dr smith``).
        upper_ok: accept UPPER-case name tokens.
        max_gap: when positive, at most this many spaces between the trigger and the name.
        comma_ok: accept "Surname, Given" after the trigger.
        mode: ``match -> (label, lower_ok, upper_ok, max_gap, comma_ok)`` or None (drop the match):
            lets one pattern join several kinds of trigger (titles, field labels, role words ...)
            and still scan each kind's way.
    """

    direction: str = "after"
    lower_ok: bool = False
    upper_ok: bool = True
    max_gap: int = 0
    comma_ok: bool = False
    mode: Callable[[re.Match[str]], NameMode | None] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.direction not in ("after", "before"):
            raise ConfigError(f"rule {self.name or '?'}: direction must be 'after' or 'before'")

    def _accept(self, m: re.Match[str]) -> str | None:
        # A trigger the mode rejects must not hide what follows it ("Hospitalist: Dr. Coardi").
        if self.mode is not None and self.mode(m) is None:
            return None
        return super()._accept(m)

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every name found next to a trigger."""
        for m, matched_label in self.matches(text):
            if self.direction == "before":
                label = matched_label
                span = _scan_before(text, m.start())
            else:
                settings = (
                    self.mode(m)
                    if self.mode is not None
                    else (matched_label, self.lower_ok, self.upper_ok, self.max_gap, self.comma_ok)
                )
                if settings is None:
                    continue
                label, lower_ok, upper_ok, max_gap, comma_ok = settings
                # Lower-case names ("dr smith") only after a lower-case title.
                lower_ok = lower_ok and m.group().lstrip()[:1].islower()
                if max_gap and text[m.end() : m.end() + max_gap + 1].strip(" \t") == "":
                    continue  # the next word is further away than max_gap spaces
                span = _scan_after(
                    text,
                    m.end(),
                    lower_ok=lower_ok,
                    upper_ok=upper_ok,
                    comma_ok=comma_ok and label == "PATIENT",
                    first_ok=_SURNAME_STOPWORDS
                    if _honorific_or_kin(m) or label == "PATIENT"
                    else frozenset(),
                )
            if span is not None:
                yield span[0], span[1], label


#: Stop words that are also surnames or given names: right after an honorific or a kinship word
#: ("Mr. Day", "Ms. Church", "Mrs. Young", "son May", "son Will") they are the name.
_SURNAME_STOPWORDS = frozenset(
    {"day", "may", "march", "april", "june", "july", "august", "will", "young", "church"}
    | {"ward", "rich", "hope"}
)


def _honorific_or_kin(m: re.Match[str]) -> bool:
    """The trigger is a title ("Mr.", "Dr") or a kinship word ("son"), with no separator after it."""
    word = m.groupdict().get("w")
    if word is None or (m.groupdict().get("sep") or "").strip() or m.groupdict().get("title"):
        return False
    kinds = _TRIGGER_KINDS.get(_norm(word), set())
    if "title" in kinds:
        return (word + (m.groupdict().get("dot") or "")) in DOCTOR_TITLES | PATIENT_TITLES
    return "kin" in kinds


def _norm(word: str) -> str:
    return " ".join(word.lower().split())


# Every trigger word, with the kinds it can be (a word may be several: "patient", "physician").
_TRIGGER_KINDS: dict[str, set[str]] = {}
for _kind, _words in (
    ("title", [t.rstrip(".") for t in DOCTOR_TITLES | PATIENT_TITLES]),
    ("by", DOCTOR_BY),
    ("sig", SIGNATURE_WORDS),
    ("doc", DOCTOR_FIELDS),
    ("pat", PATIENT_FIELDS),
    ("role", [*ROLE_WORDS, *ROLE_CREDENTIALS]),
    ("ptw", PT_WORDS),
    ("kin", KIN_WORDS),
    ("baby", BABY),
):
    for _w in _words:
        _TRIGGER_KINDS.setdefault(_norm(_w), set()).add(_kind)

# One pass for all triggers: the word, an optional title period, then an optional separator and
# (after field labels) an optional title. Which kind of trigger it is gets decided in Python.
_TRIGGER_RE = re.compile(
    rf"(?<![\w\-])(?P<w>{trie_pattern(_TRIGGER_KINDS)})(?![\w\-])(?P<dot>\.?)"
    r"(?P<sep>[ \t]*[:\-–—,])?"
    r"(?P<title>[ \t]*(?:Dr|DR|Mr|Mrs|Ms|MR|MRS|MS)\.?(?=[ \t]))?"
)


def _field_start(m: re.Match[str]) -> bool:
    start = m.start()
    return start == 0 or _RX["FIELD_START_RE"].search(m.string, max(0, start - 2), start) is not None


_CREDENTIALS = trie_pattern(CREDENTIAL_WORDS, ignore_case=False)
_CREDENTIALS_AMBIGUOUS = trie_pattern(CREDENTIAL_AMBIGUOUS_WORDS, ignore_case=False)
_CREDENTIALS_CHAIN = trie_pattern(
    (*CREDENTIAL_WORDS, *CREDENTIAL_AMBIGUOUS_WORDS, *CREDENTIAL_CHAIN_WORDS), ignore_case=False
)
_CREDENTIALS_BARE = trie_pattern(
    (
        "MD",
        "M.D.",
        "DDS",
        "DMD",
        "PharmD",
        "CRNA",
        "FNP",
        "DNP",
        "PhD",
        "LICSW",
        "LCSW",
        "PA-C",
        "RN",
        "NP",
        "MSW",
        "LPN",
    ),
    ignore_case=False,
)

_RX = pattern_data("names", globals())


def _after_comma(m: re.Match[str]) -> bool:
    return m.string[max(0, m.start() - 2) : m.start()].rstrip(" \t").endswith(",")


_DOCTOR_MODE: NameMode = ("DOCTOR", False, True, 0, False)
_PATIENT_FIELD_MODE: NameMode = ("PATIENT", False, True, 0, True)
_ROLE_MODE: NameMode = ("DOCTOR", False, False, 1, False)
# "Pt Katalina Verdone, rm 598X" (no colon): Title-case names only ("PT EVAL" is therapy).
_PT_WORD_MODE: NameMode = ("PATIENT", False, False, 1, True)


def _trigger_mode(m: re.Match[str]) -> NameMode | None:
    """Decide what a trigger word is here, and how to scan for the name after it."""
    word = m.group("w")
    key = _norm(word)
    kinds = _TRIGGER_KINDS.get(key, set())
    sep = (m.group("sep") or "").strip()
    titled = m.group("title") is not None
    nxt = m.string[m.end() : m.end() + 1]
    # Dr. Smith / Mrs. Jones / dr smith (exact spellings; the name follows a space or "Dr.Smith").
    if (
        "title" in kinds
        and not sep
        and not titled
        and (nxt in (" ", "\t") or (m.group("dot") and nxt.isupper()))
    ):
        surface = word + m.group("dot")
        if surface in DOCTOR_TITLES:
            return ("DOCTOR", word[0].islower(), True, 0, False)
        if surface in PATIENT_TITLES:
            return ("PATIENT", word[0].islower(), True, 0, False)
    if m.group("dot") and "title" not in kinds:
        return None  # "with grandmother. Mom works": the sentence ended
    if "by" in kinds and sep != ",":
        return _DOCTOR_MODE  # "Electronically signed by: Jane Smith"
    if "sig" in kinds and sep in (":", "-", "–", "—"):
        return _DOCTOR_MODE  # "Electronically signed: Dr. Oiva Badel"
    if sep in (":", "-", "–", "—") and kinds & {"doc", "pat"} and _field_start(m):
        if "pat" in kinds:
            return _PATIENT_FIELD_MODE  # "Patient: Jane Roe", "Pt: ROE, JANE"
        # "cc:" in lower case is a copy list; "CC:" is the chief complaint.
        return _DOCTOR_MODE if key != "cc" or word == "cc" else None
    if titled:
        return None
    return _word_mode(m, word, key, kinds, sep)


def _word_mode(m: re.Match[str], word: str, key: str, kinds: set[str], sep: str) -> NameMode | None:
    """The mode of a trigger word without a title after it: a role word, "Pt", "Baby Boy", kinship."""
    if "role" in kinds and sep in ("", ":", ","):
        if key.upper() in ROLE_CREDENTIALS:
            # "RN Ivka Sarić" (exact case, no comma: "Jane Roe, MD, Breast Imaging" is not one)
            if word in ROLE_CREDENTIALS and sep != "," and not _after_comma(m):
                return _ROLE_MODE
        else:
            return _ROLE_MODE
    if "ptw" in kinds and not sep and word in PT_WORDS and m.string[m.start() - 1 : m.start()] != "/":
        return _PT_WORD_MODE
    if "baby" in kinds and not sep and word in ("Baby Boy", "Baby Girl", "BABY BOY", "BABY GIRL"):
        return ("PATIENT", False, False, 0, False)
    if "kin" in kinds and sep in ("", ",", ":"):
        return ("RELATIVE", False, False, 0, False)
    return None


_CUE_RE = re.compile(rf"(?<![\w/\-])(?P<w>{trie_pattern(CUE_PHRASES)})(?![\w/\-])(?P<sep>[ \t]*:)?")
# Kinship words after which a bare first name in lower case (or in an ALL-CAPS line) is taken when it
# is on the bundled first-name list: "daughter mary called", "HUSBAND ALF AT BEDSIDE".
_KIN_RE = re.compile(rf"(?<![\w\-])(?P<w>{trie_pattern(KIN_WORDS)})(?:'s)?(?![\w\-])(?P<sep>[ \t]*[,:])?")


def _cue_token_ok(tok: str) -> bool:
    """A name token after a verb cue: an initial, a listed name, or an unknown capitalised word."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    if _RX["INITIAL_RE"].match(tok):
        return True
    low = tok.lower()
    if low in NAME_STOPWORDS or low in _TRIGGER_KINDS:
        return False
    vocab = clinical_vocabulary()
    if is_clinical_word(tok) or low in vocab.care_units:
        return False
    if low in vocab.names:
        return low not in vocab.common or low in vocab.first_names and len(low) > 3
    return low not in vocab.common


def _listed_or_initialed(toks: list[str]) -> bool:
    from phiscrub.detect.clinical import clinical_vocabulary

    names = clinical_vocabulary().names
    return any(_RX["INITIAL_RE"].match(t) for t in toks) or any(t.lower() in names for t in toks)


@dataclass(frozen=True)
class CueNameRule(PatternRule):
    """Names after verb cues (``per``, ``d/w``, ``paged``) or, in lower case, after kinship words.

    Args:
        kinship: the pattern is a kinship trigger; the name is one token from the first-name list
            (any case), which catches ``daughter mary`` where case carries no information.

    Tokens after a verb cue must each be an initial, a listed name that is not a common word, or a
    capitalised word that is neither a common English word nor clinical vocabulary (``per
    protocol``, ``paged ortho``, ``d/w pt`` are not names); at least one must not be an initial.
    """

    kinship: bool = False

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of each name after a cue."""
        from phiscrub.detect.clinical import clinical_vocabulary

        vocab = clinical_vocabulary()

        def listed_lower(pos: int, *, upper_ok: bool) -> tuple[int, int] | None:
            """One lower-case (or, with ``upper_ok``, ALL-CAPS) token from the first-name list."""
            tm = _RX["TOKEN_RE"].match(text, pos)
            if tm is None or text[pos : tm.start("tok")] not in (" ", "\t"):
                return None
            tok = tm.group("tok")
            low = tok.lower()
            if tok[:1].isupper() and not (upper_ok and tok.isupper()):
                return None  # Title case is the trigger rule's job
            if low in vocab.first_names and low not in vocab.common and low not in NAME_STOPWORDS:
                return tm.start("tok"), tm.end("tok")
            return None

        for m, label in self.matches(text):
            pos = m.end()
            if self.kinship:
                found = listed_lower(pos, upper_ok=True)
                if found is not None:
                    yield found[0], found[1], label
                continue
            span = _scan_after(text, pos, lower_ok=False, upper_ok=True, max_tokens=3)
            if span is None:
                # "d/w kate re: plan", "paged jen": a listed given name in lower case after a verb cue.
                found = listed_lower(pos, upper_ok=False)
                if found is not None:
                    yield found[0], found[1], label
                continue
            toks = [t.group("tok") for t in _RX["TOKEN_RE"].finditer(text, span[0], span[1])]
            if not toks or not all(_cue_token_ok(t) for t in toks):
                continue
            if all(_RX["INITIAL_RE"].match(t) for t in toks):
                continue
            if (
                all(t.isupper() for t in toks) or m.group("w").lower().endswith("per")
            ) and not _listed_or_initialed(toks):
                continue  # "PER PILLBOX", "per ARDSNet table": an unknown word is no name there
            yield span[0], span[1], label


#: Words that open such a line and name no one.
_SUBJECT_STOP = word_set(
    """
    pt patient he she they it this today tonight family wife husband mother father son daughter dtr
    sister brother child baby infant mom dad resident fellow intern nurse doctor team everyone
    pain swelling bleeding symptoms symptom weakness numbness tingling itching redness drainage discomfort
    anxiety depression confusion dizziness vomiting diarrhea cramping soreness stiffness tremor fatigue
    """
)


def _person_words_ok(m: re.Match[str]) -> bool:
    """No word of the name is a pronoun, a kin or role word, clinical vocabulary or a date word."""
    from phiscrub.detect.rules.places_en_cities import clinical_or_calendar

    clinical = clinical_vocabulary().clinical
    words = m.group("n").split()
    return not any(
        w.lower() in _SUBJECT_STOP or w.lower() in clinical or clinical_or_calendar(w) for w in words
    )


def _patient_title(m: re.Match[str]) -> bool:
    return m.group("pt") is not None


def _doctor_title(m: re.Match[str]) -> bool:
    return m.group("dr") is not None


NAME_RULES_EN: tuple[PatternRule, ...] = (
    # Titles, field labels, signature phrases, role words, "Pt", kinship words: one pass.
    NameRule("DOCTOR",   _TRIGGER_RE,          name="trigger",    score=0.85, mode=_trigger_mode, extra_labels=("PATIENT", "RELATIVE")),
    NameRule("DOCTOR",   _RX["CREDENTIAL_RE"], name="credential", score=0.85, direction="before", anchor=_RX["CREDENTIAL_ANCHOR_RE"], reach=(8, 0)),
    NameRule("PATIENT",  _RX["AGE_AFTER_RE"],  name="before_age", score=0.7,  direction="before", anchor=_RX["AGE_ANCHOR_RE"], reach=(8, 12)),
    CueNameRule("DOCTOR",   _CUE_RE,        name="verb_cue",   score=0.7),
    CueNameRule("RELATIVE", _KIN_RE,        name="kin_lower",  score=0.7,  kinship=True),
    PatternRule("PATIENT",  _RX["PT_INITIAL_RE"], name="pt_initial", score=0.7,  group="i"),
    PatternRule("PATIENT",  _RX["TITLE_INITIAL_RE"], name="title_initial", score=0.7, group="i", validator=_patient_title),
    PatternRule("DOCTOR",   _RX["TITLE_INITIAL_RE"], name="title_initial_dr", score=0.7, group="i", validator=_doctor_title),
    PatternRule("DOCTOR",   _RX["TRAINEE_RE"], name="trainee", score=0.7, group="n", validator=_person_words_ok),
    PatternRule("PATIENT",  _RX["VISIT_SUBJECT_RE"], name="visit_subject", score=0.6, group="n", validator=_person_words_ok),
    *ROLE_NAME_RULES_EN,
)  # fmt: skip


def name_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The name rules for ``lang``: English titles and labels, or the pack rules of ``de``, ``fr``,
    ``nl``, ``es`` and ``ca`` (:mod:`.intl_names`); other languages get none."""
    if lang == "en":
        return NAME_RULES_EN
    return pack_name_rules(lang)


def name_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``name`` with the name rules for ``lang``."""
    return RuleDetector("name", name_rules(lang))
