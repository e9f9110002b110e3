"""Consistent surrogates: the same PHI value always gets the same realistic stand-in.

Every choice is drawn from a keyed HMAC-SHA256 stream, so the same key and value (and the same
patient, with ``scope="patient"``) give the same surrogate in every document and every run, and a
different key gives different surrogates. Without the key the mapping cannot be recomputed.

What each kind of PHI becomes:

* names (PATIENT, DOCTOR, RELATIVE, USERNAME): first names and surnames are mapped one component at a
  time, so "John Smith", "Smith", "SMITH", "J. Smith", "Smith, John" and "jsmith" all point at one
  surrogate person, written in the original form (initials, case, comma order, hyphenated parts,
  possessive 's). The surrogate's initial is a keyed function of the original initial (so "J." and
  "John" agree); it always differs from the original initial, so a surrogate never equals its
  original. First names keep their gender when the bundled lists know it.
* dates: shifted back by a per-patient (else per-document) number of days, a multiple of 7, and
  written in the original format (:mod:`phiscrub.transform.dates`); unparseable dates get keyed
  digits of the same shape.
* identifiers, phones, fax numbers, ZIP codes: same shape (digits for digits, letters for letters,
  separators kept); US phone area and exchange codes never start with 0 or 1; IPv4 octets stay valid;
  e-mails and URLs keep their structure, scheme and top-level domain.
* ages over 89 become "90+" (HIPAA Safe Harbor); younger ages are kept, or moved a few years.
* places, organizations, professions, departments: keyed picks from the bundled lexicons, in the
  original case pattern; streets keep number + name + suffix; rooms keep their shape.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from phiscrub.errors import ConfigError
from phiscrub.labels import to_fine
from phiscrub.resources import load_lexicon
from phiscrub.transform.dates import parse_date

__all__ = ["Scope", "SurrogateGenerator", "normalize_component"]

Scope = Literal["patient", "global"]

NAME_LABELS = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "NAME"})
SHAPE_LABELS = frozenset(
    {"IDNUM", "MEDICALRECORD", "SSN", "ACCOUNT", "HEALTHPLAN", "LICENSE", "DEVICE", "VEHICLE", "BIOID", "ID"}
)
PICK_LEXICON = {
    "HOSPITAL": "hospitals",
    "ORGANIZATION": "companies",
    "CITY": "cities",
    "STATE": "states",
    "COUNTRY": "countries",
    "LOCATION": "cities",
    "DEPARTMENT": "departments",
    "PROFESSION": "professions",
}

_TITLES = frozenset(
    [
        "dr",
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "prof",
        "sr",
        "sra",
        "srta",
        "dra",
        "sir",
        "rev",
        "fr",
        "mme",
        "mlle",
        "herr",
        "frau",
    ]
)
_SUFFIXES = frozenset(
    [
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "md",
        "do",
        "phd",
        "rn",
        "np",
        "pa",
        "dds",
        "dmd",
        "pharmd",
        "lpn",
        "cnm",
        "crna",
        "facs",
        "facp",
        "mph",
        "msn",
        "bsn",
        "esq",
    ]
)
_PARTICLES = frozenset(
    [
        "van",
        "von",
        "de",
        "del",
        "della",
        "der",
        "den",
        "la",
        "le",
        "da",
        "di",
        "du",
        "dos",
        "das",
        "y",
        "i",
        "bin",
        "al",
        "ter",
        "ten",
    ]
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_CJK = re.compile(r"[\u3400-\u9fff]")
_IPV4 = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})((?:[:/]\d+)?)$")
_EMAIL = re.compile(r"^([^@\s]+)@([^@\s]+)$")
_URL = re.compile(
    r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<host>[^/?#:\s]+)(?P<port>:\d+)?(?P<rest>.*)$", re.DOTALL
)
_STREET_ABBR = {
    "street": "St", "avenue": "Ave", "road": "Rd", "drive": "Dr", "lane": "Ln", "boulevard": "Blvd",
    "court": "Ct", "place": "Pl", "terrace": "Ter", "circle": "Cir", "parkway": "Pkwy",
    "highway": "Hwy", "square": "Sq", "trail": "Trl", "way": "Way",
}  # fmt: skip
_DIRECTIONS = frozenset(["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"])
_KEEP_DOMAIN_LABELS = frozenset(
    [
        "www",
        "mail",
        "email",
        "smtp",
        "portal",
        "mychart",
        "my",
        "secure",
        "login",
        "patient",
        "patients",
        "health",
        "app",
    ]
)
_PUBLIC_MAIL = frozenset(
    [
        "gmail",
        "yahoo",
        "hotmail",
        "outlook",
        "aol",
        "icloud",
        "protonmail",
        "live",
        "msn",
        "comcast",
        "verizon",
        "att",
    ]
)
# Generic words that stand in for any word of a URL path, so paths stay readable and carry nothing.
_PATH_WORDS = (
    "about", "appointments", "billing", "care", "clinic", "contact", "education", "forms", "health", "home",
    "info", "login", "news", "patients", "portal", "records", "resources", "services", "staff", "visit",
)  # fmt: skip
_KEEP_PATH_WORDS = frozenset(
    [
        "portal",
        "login",
        "patient",
        "patients",
        "health",
        "appointments",
        "records",
        "index",
        "html",
        "htm",
        "php",
        "aspx",
        "en",
        "es",
        "home",
        "forms",
        "results",
        "pay",
        "billing",
        "mychart",
        "signup",
        "register",
        "www",
    ]
)
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "nhs", "edu", "gob"})


def normalize_component(text: str) -> str:
    """Casefolded, accent-stripped form of a name component ("José" and "JOSE" -> "jose")."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _ascii_letters(text: str) -> str:
    return "".join(c for c in normalize_component(text) if "a" <= c <= "z")


def _match_case(original: str, new: str) -> str:
    """Write ``new`` in the case pattern of ``original`` (UPPER, lower, or as listed)."""
    letters = [c for c in original if c.isalpha()]
    if not letters:
        return new
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return new.upper()
    if all(c.islower() for c in letters):
        return new.lower()
    if len(letters) == 1:
        return new.upper() if letters[0].isupper() else new.lower()
    return new


class _Stream:
    """Deterministic pseudo-random integers from HMAC-SHA256(key, parts || block counter)."""

    def __init__(self, key: bytes, parts: Sequence[str]) -> None:
        self._key = key
        self._msg = "\x1f".join(parts).encode("utf-8")
        self._block = 0
        self._buf = b""

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("empty range")
        if len(self._buf) < 8:
            block = self._msg + b"\x1e" + str(self._block).encode()
            self._buf += hmac.new(self._key, block, hashlib.sha256).digest()
            self._block += 1
        value = int.from_bytes(self._buf[:8], "big")
        self._buf = self._buf[8:]
        return value % n

    def choice(self, seq: Sequence[str]) -> str:
        return seq[self.below(len(seq))]


@dataclass(frozen=True)
class _NameLexicon:
    """Name lists of one language, bucketed by normalized initial for initial-preserving picks."""

    buckets: dict[str, dict[str, tuple[str, ...]]]  # "f"/"m"/"u"/"last" -> letter -> names
    first_letters: tuple[str, ...]
    last_letters: tuple[str, ...]


def _bucket(names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for name in names:
        norm = normalize_component(name)
        # Plain one-part names only, so "John" never becomes "Hans-Michael".
        if norm and "a" <= norm[0] <= "z" and name.isalpha():
            out.setdefault(norm[0], []).append(name)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _name_lexicon(lang: str | None) -> _NameLexicon:
    female = load_lexicon("first_names_female", lang)
    male = load_lexicon("first_names_male", lang)
    last = load_lexicon("last_names", lang)
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
    return _NameLexicon(buckets, first_letters, last_letters)


@cache
def _name_sets() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
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


class SurrogateGenerator:
    """Keyed, consistent surrogate values for PHI surfaces.

    Args:
        key: the secret (bytes, or text encoded as UTF-8); required and non-empty.
        scope: ``"patient"``: mappings also depend on the patient id when one is given, so the same
            name in two patients' notes gets two surrogates; ``"global"``: one mapping everywhere
            (dates then share one offset too).
        date_shift_range: smallest and largest shift back in days; the shift is a multiple of 7.
        age_over_89: ``"bucket"`` writes ages over 89 as "90+"; ``"keep"`` leaves them.
        age_perturb: move ages of 89 and under by up to this many years (0: keep them).
        lang: language of the surrogate lists (``"es"``/``"ca"`` Spanish-Catalan, None default);
            Chinese surfaces always get Chinese surrogates.

    Raises:
        ConfigError: empty key, unknown scope, or a bad range.
    """

    def __init__(
        self,
        key: bytes | str,
        scope: Scope = "patient",
        *,
        date_shift_range: tuple[int, int] = (28, 364),
        age_over_89: Literal["bucket", "keep"] = "bucket",
        age_perturb: int = 0,
        lang: str | None = None,
    ) -> None:
        if isinstance(key, str):
            key = key.encode("utf-8")
        if not key:
            raise ConfigError("surrogate mode needs a non-empty key: use --key or the PHISCRUB_KEY env var")
        if scope not in ("patient", "global"):
            raise ConfigError(f"unknown surrogate scope {scope!r}; use patient or global")
        lo, hi = date_shift_range
        if lo < 0 or hi < lo or math.ceil(lo / 7) > hi // 7:
            raise ConfigError(f"date_shift_range {date_shift_range} holds no positive multiple of 7")
        if age_over_89 not in ("bucket", "keep"):
            raise ConfigError(f"age_over_89 must be 'bucket' or 'keep', not {age_over_89!r}")
        if age_perturb < 0:
            raise ConfigError("age_perturb must be >= 0")
        self._key = key
        self.scope: Scope = scope
        self.date_shift_range = (lo, hi)
        self.age_over_89 = age_over_89
        self.age_perturb = age_perturb
        self.lang = lang

    def __repr__(self) -> str:  # never show the key
        return f"SurrogateGenerator(scope={self.scope!r}, lang={self.lang!r})"

    # ---------------------------------------------------------------------------------------
    # plumbing

    def _scope(self, patient_id: str | None) -> tuple[str, ...]:
        if self.scope == "patient" and patient_id is not None:
            return ("patient", patient_id)
        return ("global",)

    def _stream(self, *parts: str) -> _Stream:
        return _Stream(self._key, parts)

    def _lang_folder(self, surface: str, lang: str | None = None) -> str | None:
        if _CJK.search(surface):
            return "zh"
        lang = lang or self.lang
        if lang and lang.lower()[:2] in ("es", "ca"):
            return "es"
        return None

    # ---------------------------------------------------------------------------------------
    # dispatch

    def surrogate(
        self,
        label: str,
        surface: str,
        *,
        patient_id: str | None = None,
        doc_id: str | None = None,
        lang: str | None = None,
        name_roles: Mapping[str, str] | None = None,
    ) -> str:
        """A surrogate for ``surface`` of PHI type ``label`` (fine, coarse or corpus label).

        Args:
            label: the PHI label; coarse labels (NAME, ID, CONTACT, LOCATION) are handled by form.
            surface: the original text.
            patient_id: the patient the note belongs to (consistency scope and date offset).
            doc_id: the document, for the date offset when there is no patient id.
            lang: language hint of the document (date order, word lists).
            name_roles: roles of the note's name words (:meth:`name_roles`), for names.
        """
        fine = to_fine(label)
        if not surface.strip():
            return surface
        if fine in NAME_LABELS:
            return self.name(surface, patient_id=patient_id, lang=lang, roles=name_roles)
        if fine == "USERNAME":
            if re.search(r"[\s,]", surface.strip()) or _CJK.search(surface):
                return self.name(surface, patient_id=patient_id, lang=lang, roles=name_roles)
            return self.handle(surface, patient_id=patient_id)
        if fine == "DATE":
            return self.date(surface, patient_id=patient_id, doc_id=doc_id, lang=lang)
        if fine == "AGE":
            return self.age(surface, patient_id=patient_id)
        if fine in ("PHONE", "FAX"):
            return self.phone(surface, patient_id=patient_id)
        if fine == "EMAIL":
            return self.email(surface, patient_id=patient_id)
        if fine == "URL":
            return self.url(surface, patient_id=patient_id)
        if fine == "IPADDRESS":
            return self.ip(surface, patient_id=patient_id)
        if fine == "CONTACT":
            if "@" in surface:
                return self.email(surface, patient_id=patient_id)
            if "://" in surface or surface.lower().startswith("www."):
                return self.url(surface, patient_id=patient_id)
            if _IPV4.match(surface.strip()):
                return self.ip(surface, patient_id=patient_id)
            return self.phone(surface, patient_id=patient_id)
        if fine == "ZIP" or fine in SHAPE_LABELS:
            return self.shape(surface, patient_id=patient_id, label=fine)
        if fine == "STREET":
            return self.street(surface, patient_id=patient_id, lang=lang)
        if fine == "ROOM":
            return self.room(surface, patient_id=patient_id)
        if fine == "LOCATION" and re.search(r"\d", surface):
            if re.match(r"^\s*\d+[A-Za-z]?\s+[^\W\d_]", surface):
                return self.street(surface, patient_id=patient_id, lang=lang)
            return self.shape(surface, patient_id=patient_id, label=fine)
        if fine in PICK_LEXICON:
            return self.pick(fine, surface, patient_id=patient_id, lang=lang)
        return self.shape(surface, patient_id=patient_id, label=fine)

    # ---------------------------------------------------------------------------------------
    # names

    def _letter(self, role: str, letter: str, scope: tuple[str, ...], lex: _NameLexicon) -> str:
        """Keyed initial for an original initial; never the same letter."""
        pool = lex.first_letters if role == "first" else lex.last_letters
        options = [c for c in pool if c != letter]
        return options[self._stream(*scope, "initial", role, letter).below(len(options))]

    def _component(self, role: str, text: str, scope: tuple[str, ...], lang: str | None) -> str:
        """Surrogate of one name component (not an initial), in list form."""
        lex = _name_lexicon(lang)
        norm = normalize_component(text)
        letter = self._letter(role, norm[:1], scope, lex)
        if role == "last":
            pool = lex.buckets["last"][letter]
        else:
            female, male, _last = _name_sets()
            gender = "u"
            if norm in female and norm not in male:
                gender = "f"
            elif norm in male and norm not in female:
                gender = "m"
            pool = lex.buckets[gender].get(letter) or lex.buckets["u"][letter]
        return pool[self._stream(*scope, "name", role, norm).below(len(pool))]

    def _initial(self, role: str, letter: str, scope: tuple[str, ...], lang: str | None) -> str:
        return self._letter(role, normalize_component(letter)[:1], scope, _name_lexicon(lang))

    def name(
        self,
        surface: str,
        *,
        patient_id: str | None = None,
        lang: str | None = None,
        roles: Mapping[str, str] | None = None,
    ) -> str:
        """Surrogate for a person's name, component by component, in the original form.

        Components are keyed by their case- and accent-folded form, so "John", "JOHN" and "john"
        get one surrogate, written in each original's case; hyphenated parts are mapped one by one.

        Args:
            surface: the name as written ("John Smith", "SMITH, J.", "张伟").
            patient_id: consistency scope (with ``scope="patient"``).
            lang: document language; Spanish/Catalan documents (or a generator built with such a
                ``lang``) draw from the Spanish/Catalan lists, Chinese names always from Chinese ones.
                Consistency holds within one list, i.e. within one language.
            roles: first/last roles of name words read from the note's other names
                (:meth:`name_roles`): a lone word ("JOHN") takes the role it has in a full name of
                the same note ("John Smith") instead of a guess from the name lists.
        """
        scope = self._scope(patient_id)
        if _CJK.search(surface):
            return self._zh_name(surface, scope)
        folder = self._lang_folder(surface, lang)
        words = self._read_name(surface)
        if roles:
            self._apply_roles(surface, words, roles)
        if not any(w.kind in ("name", "initial") for w in words):
            return self.shape(surface, patient_id=patient_id, label="NAME")
        out: dict[tuple[int, int], str] = {}
        for word in words:
            if word.kind not in ("name", "initial"):
                continue
            for start, end in word.parts:
                text = surface[start:end]
                possessive = ""
                if len(text) > 3 and re.search(r"['’][sS]$", text):
                    text, possessive = text[:-2], text[-2:]
                if word.kind == "initial" or len(text) == 1:
                    new = self._initial(word.role, text, scope, folder)
                else:
                    new = self._component(word.role, text, scope, folder)
                out[(start, end)] = _match_case(text, new) + possessive
        pieces: list[str] = []
        pos = 0
        for (start, end), new in sorted(out.items()):
            pieces.append(surface[pos:start])
            pieces.append(new)
            pos = end
        pieces.append(surface[pos:])
        return "".join(pieces)

    def name_roles(self, surface: str) -> dict[str, str]:
        """First/last role of each name part of a full name: ``{"john": "first", "smith": "last"}``.

        Only names of two or more name words (or the comma form) say something about roles; a
        lone word, initials and CJK names give ``{}``. Keys are :func:`normalize_component` forms.
        """
        if _CJK.search(surface):
            return {}
        words = self._read_name(surface)
        names = [w for w in words if w.kind == "name"]
        if len([w for w in words if w.kind in ("name", "initial")]) < 2:
            return {}
        out: dict[str, str] = {}
        for w in names:
            for start, end in w.parts:
                out.setdefault(normalize_component(re.sub(r"['’][sS]$", "", surface[start:end])), w.role)
        return out

    @staticmethod
    def _apply_roles(surface: str, words: list[_NameWord], roles: Mapping[str, str]) -> None:
        """Give a lone name word the role its parts have in the note's full names (all agreeing)."""
        names = [w for w in words if w.kind in ("name", "initial")]
        if len(names) != 1 or names[0].kind != "name":
            return
        found = {
            roles.get(normalize_component(re.sub(r"['’][sS]$", "", surface[start:end])))
            for start, end in names[0].parts
        }
        role = found.pop() if len(found) == 1 else None
        if role is not None:
            names[0].role = role

    def _read_name(self, surface: str) -> list[_NameWord]:
        """Split a name into words and decide each word's kind and role."""
        female, male, last = _name_sets()
        tokens = [(m.start(), m.end()) for m in _WORD.finditer(surface)]
        words: list[_NameWord] = []
        comma_before: list[bool] = []  # whether a comma separates this word from the previous one
        prev_end = 0
        for start, end in tokens:
            gap = surface[prev_end:start]
            if words and gap in ("-", "‐"):
                words[-1].parts.append((start, end))
            else:
                words.append(_NameWord([(start, end)]))
                comma_before.append("," in gap and bool(words[:-1]))
            prev_end = end

        def norm(word: _NameWord) -> str:
            return normalize_component(surface[word.parts[0][0] : word.parts[-1][1]])

        def followed_by_period(word: _NameWord) -> bool:
            end = word.parts[-1][1]
            return surface[end : end + 1] == "."

        n = len(words)
        for i, word in enumerate(words):
            text = norm(word)
            single = len(word.parts) == 1
            if single and text in _TITLES and i == 0 and n > 1:
                word.kind = "title"
            elif (
                single
                and text in _SUFFIXES
                and i > 0
                and (
                    surface[word.parts[0][0] : word.parts[0][1]].isupper()
                    or followed_by_period(word)
                    or comma_before[i]
                )
            ):
                word.kind = "suffix"
            elif single and text in _PARTICLES and i < n - 1 and surface[word.parts[0][0]].islower():
                word.kind = "particle"
            elif single and len(text) == 1:
                word.kind = "initial"
        names = [w for w in words if w.kind in ("name", "initial")]
        # "JS": a lone short all-caps word that is no known name is a pair of initials.
        if len(names) == 1 and names[0].kind == "name" and len(names[0].parts) == 1:
            s, e = names[0].parts[0]
            text = surface[s:e]
            key = normalize_component(text)
            if 2 <= len(text) <= 3 and text.isupper() and key not in female | male | last:
                idx = words.index(names[0])
                letters = [_NameWord([(s + k, s + k + 1)], "initial", "first") for k in range(len(text))]
                letters[-1].role = "last"
                return words[:idx] + letters + words[idx + 1 :]
        # Comma form "Smith, John": surname words before the first comma between name words.
        comma_at = next(
            (i for i, w in enumerate(words) if comma_before[i] and w.kind in ("name", "initial")), None
        )
        if comma_at is not None and any(w.kind in ("name", "initial") for w in words[:comma_at]):
            for i, w in enumerate(words):
                w.role = "last" if i < comma_at else "first"
            return words
        if len(names) == 1:
            only = names[0]
            key = norm(only)
            if only.kind == "initial":
                only.role = "first"
            elif key in last or key not in female | male:
                only.role = "last"
            else:
                only.role = "first"
            return words
        for k, w in enumerate(names):
            key = norm(w)
            if k == 0:
                w.role = "first"
            elif k == len(names) - 1 or w.kind == "name" and key in last and key not in female | male:
                w.role = "last"
            else:
                w.role = "first"
        # Particles ("de la Cruz") stay as written; the surname after them is mapped.
        return words

    def _zh_name(self, surface: str, scope: tuple[str, ...]) -> str:
        female, male, last = _zh_names()
        match = re.search(r"[\u3400-\u9fff]+", surface)
        if match is None:
            return surface
        text = match.group(0)
        cut = 2 if len(text) >= 3 and text[:2] in last else 1
        family, given = text[:cut], text[cut:]
        singles = tuple(s for s in last if len(s) == len(family) and s != family) or last
        new_family = self._zh_pick(singles, family, scope, "zh-last")
        new_given = ""
        if given:
            pool = (
                female if given in female and given not in male else male if given in male else female + male
            )
            same_len = tuple(g for g in pool if len(g) == len(given) and g != given) or pool
            new_given = self._zh_pick(same_len, given, scope, "zh-first")
        return surface[: match.start()] + new_family + new_given + surface[match.end() :]

    def _zh_pick(self, pool: Sequence[str], original: str, scope: tuple[str, ...], role: str) -> str:
        stream = self._stream(*scope, role, original)
        for _ in range(20):
            pick = stream.choice(pool)
            if pick != original:
                return pick
        return next(p for p in pool if p != original)

    def handle(self, surface: str, *, patient_id: str | None = None) -> str:
        """Surrogate for a user name or e-mail local part ("jsmith2" -> "mlawson7"), ASCII only.

        Name-like pieces map through the same components as :meth:`name`, so "jsmith" and
        "John Smith" stay one surrogate person.
        """
        scope = self._scope(patient_id)
        female, male, last = _name_sets()
        lex = _name_lexicon(None)

        def first(text: str) -> str:
            return _ascii_letters(self._component("first", text, scope, None)) or "x"

        def surname(text: str) -> str:
            return _ascii_letters(self._component("last", text, scope, None)) or "x"

        def letter(c: str, role: str = "first") -> str:
            return self._letter(role, c.lower(), scope, lex)

        alpha_runs = re.findall(r"[A-Za-z]+", surface)

        def piece(run: str, index: int) -> str:
            low = run.lower()
            if len(low) == 1:
                return letter(low)
            # "john.smith": the first of several runs reads as a first name when it is one.
            if low in female | male and (low not in last or (index == 0 and len(alpha_runs) > 1)):
                return first(low)
            if low in last and len(low) > 2:
                return surname(low)
            if len(low) >= 4 and low[1:] in last:
                return letter(low[0]) + surname(low[1:])
            if len(low) >= 4 and low[:-1] in last:
                return surname(low[:-1]) + letter(low[-1])
            return self._shape_text(run, self._stream(*scope, "handle", low), keep_case=False).lower()

        out: list[str] = []
        index = 0
        for m in re.finditer(r"[A-Za-z]+|\d+|.", surface, re.DOTALL):
            run = m.group(0)
            if run.isalpha() and run.isascii():
                out.append(_match_case(run, piece(run, index)))
                index += 1
            elif run.isdigit():
                out.append(self._shape_text(run, self._stream(*scope, "handle-digits", run)))
            else:
                out.append(run)
        result = "".join(out)
        return result if result != surface else self.shape(surface, patient_id=patient_id, label="USERNAME")

    # ---------------------------------------------------------------------------------------
    # dates and ages

    def date_offset(self, patient_id: str | None = None, doc_id: str | None = None) -> int:
        """Days to move this patient's (else document's) dates back: a multiple of 7 in range."""
        if self.scope == "global":
            parts: tuple[str, ...] = ("date-offset", "global")
        elif patient_id is not None:
            parts = ("date-offset", "patient", patient_id)
        elif doc_id is not None:
            parts = ("date-offset", "doc", doc_id)
        else:
            parts = ("date-offset", "global")
        lo, hi = math.ceil(self.date_shift_range[0] / 7), self.date_shift_range[1] // 7
        lo = max(lo, 1)
        return 7 * (lo + self._stream(*parts).below(hi - lo + 1))

    def date(
        self,
        surface: str,
        *,
        patient_id: str | None = None,
        doc_id: str | None = None,
        lang: str | None = None,
    ) -> str:
        """The date moved back by :meth:`date_offset`, in its original format.

        A year alone, a season or a weekday name may come out unchanged (the shift moves a mid-year
        reference day, and whole weeks keep weekdays). Dates that cannot be parsed get keyed digits
        of the same shape, never the original.
        """
        offset = self.date_offset(patient_id, doc_id)
        parsed = parse_date(surface, lang=lang or self.lang)
        if parsed is not None:
            return parsed.shift(-offset)
        scope = self._scope(patient_id)
        stream = self._stream(*scope, "date-fallback", doc_id or "", surface)
        for _ in range(20):
            out: list[str] = []
            for m in re.finditer(r"\d+|\D", surface):
                run = m.group(0)
                # Keep numbers plausible: years stay years, days/months stay small.
                if run.isdigit() and len(run) == 4 and 1900 <= int(run) <= 2099:
                    out.append(str(1950 + stream.below(76)))
                elif run.isdigit() and len(run) == 2 and int(run) <= 31:
                    out.append(str(10 + stream.below(19)))
                elif run.isdigit() and len(run) == 1:
                    out.append(str(1 + stream.below(9)))
                elif run.isdigit():
                    out.append(self._shape_text(run, stream))
                else:
                    out.append(run)
            result = "".join(out)
            if not re.search(r"\d", surface):
                result = self._shape_text(surface, stream)
            if result != surface:
                return result
        return self.shape(surface, patient_id=patient_id, label="DATE")

    def age(self, surface: str, *, patient_id: str | None = None) -> str:
        """Ages over 89 -> "90+" (unless ``age_over_89="keep"``); others kept or moved by ``age_perturb``."""
        match = re.search(r"\d+", surface)
        if match is None:
            return surface
        value = int(match.group(0))
        if value > 89:
            if self.age_over_89 == "keep":
                return surface
            new = "90+"
        elif self.age_perturb > 0:
            stream = self._stream(*self._scope(patient_id), "age", str(value))
            deltas = [d for d in range(-self.age_perturb, self.age_perturb + 1) if d and 0 <= value + d <= 89]
            if not deltas:
                return surface
            new = str(value + deltas[stream.below(len(deltas))])
        else:
            return surface
        return surface[: match.start()] + new + surface[match.end() :]

    # ---------------------------------------------------------------------------------------
    # shapes

    def _shape_text(
        self,
        text: str,
        stream: _Stream,
        *,
        keep_case: bool = True,
        nonzero_first: bool = False,
    ) -> str:
        """Digits -> keyed digits, Latin letters -> keyed ASCII letters (same case), rest kept."""
        out: list[str] = []
        first_digit = True
        for c in text:
            if c.isdigit() and c.isascii():
                if nonzero_first and first_digit:
                    out.append(str(1 + stream.below(9)))
                else:
                    out.append(str(stream.below(10)))
                first_digit = False
            elif c.isalpha() and not _CJK.match(c):
                new = chr(ord("a") + stream.below(26))
                out.append(new.upper() if (c.isupper() and keep_case) else new)
            else:
                out.append(c)
        return "".join(out)

    def _shape_digits(self, text: str, stream: _Stream) -> str:
        """Each digit run -> keyed digits of the same length (no leading zero); letters kept."""
        out = []
        for m in re.finditer(r"\d+|\D+", text):
            run = m.group(0)
            out.append(self._shape_text(run, stream, nonzero_first=True) if run.isdigit() else run)
        return "".join(out)

    def shape(self, surface: str, *, patient_id: str | None = None, label: str = "ID") -> str:
        """Same-shape keyed replacement (identifiers, ZIP codes, anything without a better rule)."""
        stream = self._stream(*self._scope(patient_id), "shape", label, surface)
        ssn = label == "SSN" and re.fullmatch(r"\d{3}-?\d{2}-?\d{4}", surface)
        for _ in range(20):
            result = self._shape_text(surface, stream, nonzero_first=bool(ssn) or label == "ZIP")
            if ssn and result[:3] in ("000", "666") or (ssn and result[0] == "9"):
                continue
            if result != surface:
                return result
        return self._shape_text(surface, stream) if surface.strip() else surface

    def phone(self, surface: str, *, patient_id: str | None = None) -> str:
        """Same-shape phone/fax number; country code kept; US area/exchange codes start 2-9."""
        stream = self._stream(*self._scope(patient_id), "phone", surface)
        digits = [i for i, c in enumerate(surface) if c.isdigit()]
        keep: set[int] = set()
        stripped = surface.lstrip()
        if stripped.startswith("+") and digits:
            # "+44 20 ...", "+(1) 617 ...", "+ 1-617-...": the country code may sit in brackets.
            run = re.match(r"\+\s*\(?\s*(\d+)", stripped)
            code = run.group(1) if run is not None else ""
            n_keep = (
                len(code)
                if len(code) <= 3 and len(digits) > len(code) + 6
                else (1 if code.startswith("1") else 2)
            )
            keep = set(digits[:n_keep]) if code else set()
        elif len(digits) == 11 and surface[digits[0]] == "1":
            keep = {digits[0]}
        ext = re.search(r"(?i)(x|ext\.?|extension)\s*\d+\s*$", surface)
        main = [i for i in digits if i not in keep and (ext is None or i < ext.start())]
        constrained: set[int] = set()
        if len(main) == 10 and (not keep or "".join(surface[i] for i in keep) == "1"):
            constrained = {main[0], main[3]}
        elif len(main) == 7:
            constrained = {main[0]}
        for _ in range(20):
            chars = list(surface)
            for i in digits:
                if i in keep:
                    continue
                chars[i] = str(2 + stream.below(8)) if i in constrained else str(stream.below(10))
            result = "".join(chars)
            if result != surface:
                return result
        return result

    def ip(self, surface: str, *, patient_id: str | None = None) -> str:
        """A valid IPv4 address with octets of the same widths (IPv6 and others: same shape)."""
        stream = self._stream(*self._scope(patient_id), "ip", surface)
        m = _IPV4.match(surface.strip())
        if m is None:
            hexed = []
            for c in surface:
                if c in "0123456789abcdef":
                    hexed.append("0123456789abcdef"[stream.below(16)])
                elif c in "ABCDEF":
                    hexed.append("0123456789ABCDEF"[stream.below(16)])
                else:
                    hexed.append(c)
            return "".join(hexed)
        for _ in range(20):
            octets = []
            for k in range(4):
                width = len(m.group(k + 1))
                lo, hi = {1: (0, 9), 2: (10, 99), 3: (100, 254)}[width]
                if k == 0:
                    lo, hi = max(lo, 1), min(hi, 223)
                value = lo + stream.below(hi - lo + 1)
                if k == 0 and value == 127:
                    value = 126
                octets.append(str(value))
            result = ".".join(octets) + m.group(5)
            lead = surface[: len(surface) - len(surface.lstrip())]
            result = lead + result + surface[len(surface.rstrip()) :]
            if result != surface:
                return result
        return result

    def _domain(self, host: str, scope: tuple[str, ...]) -> str:
        labels = host.split(".")
        keep_tail = 1
        if len(labels) >= 3 and labels[-2].lower() in _SECOND_LEVEL and len(labels[-1]) == 2:
            keep_tail = 2
        words = [w for w in load_lexicon("last_names") if w.isascii() and w.isalpha() and len(w) >= 4]
        out = []
        for i, label in enumerate(labels):
            if (
                i >= len(labels) - keep_tail
                or label.lower() in _KEEP_DOMAIN_LABELS
                or label.lower() in _PUBLIC_MAIL
                and i == len(labels) - keep_tail - 1
            ):
                out.append(label)
            else:
                parts = []
                for part in label.split("-"):
                    stream = self._stream(*scope, "domain", part.lower())
                    new = stream.choice(words).lower()
                    if new == part.lower():
                        new = stream.choice(words).lower()
                    parts.append(_match_case(part, new) if part else part)
                out.append("-".join(parts))
        return ".".join(out)

    def email(self, surface: str, *, patient_id: str | None = None) -> str:
        """local@domain.tld with a new local part and domain; the top-level domain is kept."""
        m = _EMAIL.match(surface.strip())
        if m is None:
            return self.shape(surface, patient_id=patient_id, label="EMAIL")
        scope = self._scope(patient_id)
        local = self.handle(m.group(1), patient_id=patient_id)
        result = f"{local}@{self._domain(m.group(2), scope)}"
        lead = surface[: len(surface) - len(surface.lstrip())]
        return lead + result + surface[len(surface.rstrip()) :]

    def url(self, surface: str, *, patient_id: str | None = None) -> str:
        """Same scheme and top-level domain; other host labels and path words replaced."""
        m = _URL.match(surface.strip())
        if m is None:
            return self.shape(surface, patient_id=patient_id, label="URL")
        scope = self._scope(patient_id)
        host = self._domain(m.group("host"), scope)
        rest_out = []
        for piece in re.finditer(r"[A-Za-z]+|\d+|.", m.group("rest"), re.DOTALL):
            text = piece.group(0)
            if text.isalpha() and text.lower() not in _KEEP_PATH_WORDS:
                stream = self._stream(*scope, "url-path", text.lower())
                word = stream.choice(_PATH_WORDS) if len(text) >= 3 else self._shape_text(text, stream)
                text = _match_case(text, word)
            elif text.isdigit():
                text = self._shape_text(text, self._stream(*scope, "url-digits", text))
            rest_out.append(text)
        result = (m.group("scheme") or "") + host + (m.group("port") or "") + "".join(rest_out)
        if result == surface.strip():
            result = (m.group("scheme") or "") + self._shape_text(
                m.group("host"), self._stream(*scope, "host")
            )
            result += "".join(rest_out)
        lead = surface[: len(surface) - len(surface.lstrip())]
        return lead + result + surface[len(surface.rstrip()) :]

    # ---------------------------------------------------------------------------------------
    # places and other lexicon labels

    def pick(
        self, label: str, surface: str, *, patient_id: str | None = None, lang: str | None = None
    ) -> str:
        """A keyed pick from the label's bundled list, in the surface's case pattern.

        Short all-caps abbreviations ("MGH", "MICU", "MA") get an abbreviation back.
        """
        scope = self._scope(patient_id)
        stripped = surface.strip()
        folder = self._lang_folder(surface, lang)
        fine = to_fine(label)
        abbreviation = bool(re.fullmatch(r"[A-Z&]{2,6}", stripped))
        if fine == "STATE" and re.fullmatch(r"[A-Z]{2}", stripped):
            pool = load_lexicon("states_abbr")
        elif fine == "DEPARTMENT" and abbreviation:
            pool = load_lexicon("department_abbreviations")
        elif abbreviation and fine in ("HOSPITAL", "ORGANIZATION"):
            stream = self._stream(*scope, "abbr", fine, stripped)
            for _ in range(20):
                new = "".join(c if c == "&" else chr(ord("A") + stream.below(26)) for c in stripped)
                if new != stripped:
                    return surface.replace(stripped, new)
            return surface
        else:
            pool = load_lexicon(PICK_LEXICON.get(fine, "cities"), folder)
        stream = self._stream(*scope, "pick", fine, normalize_component(stripped))
        target = normalize_component(stripped)
        new = stream.choice(pool)
        for _ in range(20):
            if normalize_component(new) != target:
                break
            new = stream.choice(pool)
        return surface.replace(stripped, _match_case(stripped, new)) if stripped else surface

    def street(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """House number (same digit count) + street name + suffix, tail numbers reshaped."""
        scope = self._scope(patient_id)
        stripped = surface.strip()
        key = normalize_component(stripped)
        stream = self._stream(*scope, "street", key)
        if _CJK.search(stripped):
            pool = load_lexicon("street_names", "zh")
            m = re.match(r"^([\u3400-\u9fff]+)(.*)$", stripped, re.DOTALL)
            head, tail = (m.group(1), m.group(2)) if m else (stripped, "")
            new = stream.choice(pool)
            if new == head:
                new = stream.choice(pool)
            return surface.replace(stripped, new + self._shape_digits(tail, stream))
        first_word = re.match(r"^(C/|[^\W\d_]+\.?)", stripped)
        es_prefixes = {p.casefold() for p in load_lexicon("street_prefixes", "es")}
        if first_word and first_word.group(1).casefold() in es_prefixes:
            prefix = first_word.group(1)
            rest = stripped[len(prefix) :]
            m = re.search(r"[\d,]", rest)
            tail = rest[m.start() :] if m else ""
            pool = load_lexicon("street_names", "es")
            name = stream.choice(pool)
            connector = " de " if rest.lower().lstrip().startswith(("de ", "del ", "d'")) else " "
            new = f"{prefix}{connector}{name}"
            if tail and not tail.startswith(","):
                new += " "
            result = _match_case(stripped, new) + self._shape_digits(tail.lstrip(), stream)
            return surface.replace(stripped, result)
        m = re.match(r"^(\d+[A-Za-z]?)(\s+)(.*)$", stripped, re.DOTALL)
        number, gap, rest = (m.group(1), m.group(2), m.group(3)) if m else ("", "", stripped)
        cut = re.search(r",|\s#|\s\d", rest)
        name_part, tail = (rest[: cut.start()], rest[cut.start() :]) if cut else (rest, "")
        words = name_part.split()
        direction = ""
        if len(words) > 1 and words[0].rstrip(".").lower() in _DIRECTIONS:
            direction = words[0] + " "
            words = words[1:]
        suffix_new = ""
        if words:
            last = words[-1]
            bare = last.rstrip(".").lower()
            full_suffixes = {s.lower() for s in load_lexicon("street_suffixes")}
            abbr_values = {v.lower() for v in _STREET_ABBR.values()}
            if len(words) > 1 and bare in abbr_values and (last.endswith(".") or bare not in full_suffixes):
                suffix_new = stream.choice(sorted(set(_STREET_ABBR.values()))) + (
                    "." if last.endswith(".") else ""
                )
            elif len(words) > 1 and bare in full_suffixes:
                suffix_new = stream.choice(sorted(k.title() for k in _STREET_ABBR))
        name = stream.choice(load_lexicon("street_names", self._lang_folder(surface, lang)))
        new_name = direction + name + (" " + suffix_new if suffix_new else "")
        new_name = _match_case(name_part, new_name) if name_part else new_name
        new_number = self._shape_text(number, stream, nonzero_first=True) if number else ""
        result = new_number + gap + new_name + self._shape_digits(tail, stream)
        if normalize_component(result) == key:
            result = new_number + gap + _match_case(name_part, stream.choice(load_lexicon("street_names")))
        return surface.replace(stripped, result) if stripped else surface

    def room(self, surface: str, *, patient_id: str | None = None) -> str:
        """Room/bed: tokens with digits reshaped, single letters remapped, words kept."""
        stream = self._stream(*self._scope(patient_id), "room", surface)
        for _ in range(20):
            out = []
            for m in re.finditer(r"[A-Za-z0-9]+|.", surface, re.DOTALL):
                token = m.group(0)
                if any(c.isdigit() for c in token) or (len(token) == 1 and token.isalpha()):
                    out.append(self._shape_text(token, stream, nonzero_first=token[0] != "0"))
                else:
                    out.append(token)
            result = "".join(out)
            if result != surface:
                return result
        return self.shape(surface, patient_id=patient_id, label="ROOM")
