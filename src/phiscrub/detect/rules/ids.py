"""ID rules: SSN, MEDICALRECORD, ACCOUNT, HEALTHPLAN, LICENSE, DEVICE, VEHICLE, BIOID, IDNUM.

Apart from SSNs, an identifier is recognised by the words right before it: ``MRN: 0048-2231``,
``Acct # A7731902``, ``member ID XKQ-44718``, ``serial 4471-22-K``. The value is an alphanumeric
token with at least one digit (optionally with ``-`` and ``.`` separators); pure decimals,
fractions, dates and numbers followed by a unit are never taken, so doses and lab values stay.
The label comes from the context word. Two weak fallbacks (score < 0.5) take ID-shaped tokens
without context: long digit runs and letter-digit codes such as ``S24-18832``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from phiscrub.detect.rules._common import followed_by_unit
from phiscrub.detect.rules.base import PatternRule, RuleDetector

__all__ = ["ID_KEYWORDS", "ID_RULES_EN", "ID_RULES_NEUTRAL", "id_detector", "id_rules"]

# --- the value --------------------------------------------------------------------------------
# First chunk: letters/digits with inner separators, containing a digit. Optional further chunks
# separated by one space must be UPPER/digits with a digit ("7ABC 123", "1EG4 TE5 MK72").
_CHUNK = r"(?=[A-Za-z0-9.\-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|[\-.](?=[A-Za-z0-9])){1,39}"
_MORE = r"(?-i:(?:[ ](?=[A-Z0-9\-]*\d)[A-Z0-9]{3,}(?:-[A-Z0-9]+)*){0,2})"
_VALUE = rf"{_CHUNK}{_MORE}"
_VALUE_END = r"(?![\w]|[\-.][A-Za-z0-9])"
_ITEM_RE = re.compile(rf"(?<![\w\-.]){_CHUNK}{_MORE}{_VALUE_END}")
_LIST_SEP = r"\s*(?:,|;|&|/|\band\b|\bthrough\b|\bthru\b|\bto\b)\s*"

# Between the context word and the value: "MRN: ", "Medical Record #: ", "MRN (our system): ",
# "member no. ", "license number is ", "serial/UDI: ", "(serial ".
_CONNECT = (
    r"(?:\s*\([^()\n\d]{1,30}\))?[ \t:#=.\-]*"
    r"(?:(?:no|nr|num|number|numbers|id|ids|is|was|code|#)\.?[ \t:#=.\-]*){0,2}"
    r"(?:\n[ \t]*)?\(?[ \t]*"
)

_DATE_SHAPE_RE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}")
_DECIMAL_RE = re.compile(r"\d*\.\d+(?:[\-/]\d*\.?\d+)?")
_FRACTION_RE = re.compile(r"\d{1,3}/\d{1,3}")


def _value_ok(value: str) -> bool:
    """Reject values that are measurements, fractions or dates rather than identifiers."""
    if sum(ch.isalnum() for ch in value) < 3:
        return False
    return not (
        _DECIMAL_RE.fullmatch(value)
        or _FRACTION_RE.fullmatch(value)
        or _DATE_SHAPE_RE.fullmatch(value)
    )


def _context_value_ok(m: re.Match[str]) -> bool:
    first = _ITEM_RE.match(m.string, m.start("v"), m.end("v"))
    value = first.group() if first else m.group("v")
    return _value_ok(value) and not followed_by_unit(m.string, m.end("v"))


#: Context words per label (case-insensitive, whole words). Order does not matter; longest wins.
ID_KEYWORDS: dict[str, tuple[str, ...]] = {
    "MEDICALRECORD": (
        "MRN", "MR#", "MR #", "MR no", "MR number", "medical record", "medical record number",
        "medical record no", "medical record #", "med rec", "med rec #", "record number", "record no",
        "record #", "hospital number", "hospital no", "hosp no", "hospital #", "chart", "chart #",
        "chart number", "chart no", "patient chart #", "patient ID", "pt ID", "patient number",
        "patient no", "EMPI", "MPI", "NHS number", "NHS no", "client ID", "resident ID",
        "hospice ID", "agency ID", "program ID", "pharmacy patient ID", "REMS patient ID", "unit no",
    ),
    "ACCOUNT": (
        "acct", "acct #", "acct no", "account", "account number", "account no", "account #",
        "billing account", "billing acct", "hospital account", "encounter", "encounter #",
        "encounter number", "encounter no", "visit/account", "encounter/account", "encounter/acct",
        "claim", "claim #", "claim no", "claim number", "claim account", "FIN", "CSN", "HAR",
        "billing #", "billing number", "invoice", "invoice #", "card ID", "copay card ID",
        "utility account", "rental acct", "rental reference", "patient account",
    ),
    "HEALTHPLAN": (
        "member ID", "member", "member no", "member number", "member #", "subscriber ID",
        "subscriber", "subscriber #", "policy", "policy number", "policy no", "policy #",
        "insurance ID", "insurance #", "insurance number", "insurance member ID", "ins ID", "ins",
        "plan ID", "plan #", "health plan", "health plan ID", "health plan no", "health plan number",
        "health plan #", "Medicare", "Medicare ID", "Medicare number", "Medicare #", "MBI",
        "Medicare MBI", "Medicaid", "Medicaid ID", "Medicaid number", "Medicaid #",
        "beneficiary ID", "Medicare beneficiary ID", "payer ID", "HIC", "HICN", "insurer member ID",
    ),
    "LICENSE": (
        "license", "licence", "license number", "license no", "license #", "lic", "lic #", "lic no",
        "DEA", "DEA number", "DEA #", "DEA no", "DEA registration", "NPI", "NPI #", "NPI number",
        "driver's license", "drivers license", "driver license", "driver lic", "DL", "DL #", "CDL",
        "CDL #", "state license", "medical license", "state medical license", "nursing license",
        "RN license", "NP license", "PT license", "board certification", "certification",
        "certification number", "registry no", "registry number", "examiner registry no",
    ),
    "DEVICE": (
        "serial", "serial number", "serial numbers", "serial no", "serial #", "S/N", "SN",
        "lot/serial", "serial/UDI", "UDI", "device ID", "device serial", "device SN", "pump ID",
        "pump serial", "controller ID", "controller serial", "transmitter ID", "asset tag",
        "implant identifier", "lot", "lot #", "lot no", "lot number", "catalog/lot", "generator SN",
        "generator serial", "IPG serial", "cycler SN", "model/serial",
    ),
    "VEHICLE": (
        "plate", "plates", "plate number", "plate #", "license plate", "licence plate", "tag number",
        "VIN", "vehicle ID", "veh ID", "vehicle", "vehicle plate", "tail number", "tail #",
        "medic unit", "ambulance", "ambulance unit", "patrol car", "tractor unit", "forklift unit",
        "transport unit", "EMS unit", "rescue unit", "bus",
    ),
    "BIOID": (
        "palm scan ID", "palm scan", "palm-vein", "palm vein", "palm-vein scan", "palm-vein ID",
        "palm-vein biometric ID", "fingerprint", "fingerprint ID", "fingerprint record",
        "fingerprint template", "footprint", "footprint record", "footprint ID", "biometric",
        "biometric ID", "biometric template", "biometric login", "biometric record", "AFIS",
        "AFIS fingerprint ID", "iris scan", "retina scan", "retinal scan", "voiceprint",
        "dosing biometric ID", "biometric dosing ID",
    ),
    "IDNUM": (
        "identifier", "accession", "accession number", "accession numbers", "accession no",
        "accession #", "acc", "acc #", "lab accession", "path accession", "case accession",
        "radiology accession", "image accession", "job", "job #", "job ID", "job number", "job no",
        "specimen", "specimens", "specimen ID", "specimen #", "specimen number", "specimen no",
        "specimen labels", "spec", "spec #", "order", "order #", "order number", "order no",
        "case", "case #", "case number", "case no", "linked cases", "index case", "lab case",
        "lab case #", "requisition", "requisition form", "requisition #", "req", "req #",
        "study ID", "study #", "study number", "subject ID", "study subject ID", "protocol",
        "protocol #", "Rx#", "Rx #", "Rx number", "Rx no", "prescription #", "prescription number",
        "CLIA", "CLIA #", "CLIA ID", "CAP #", "CAP number", "ticket", "ticket #", "reference",
        "reference number", "reference #", "reference no", "ref", "ref #", "ref no", "confirmation",
        "confirmation #", "confirmation number", "incident", "incident #", "incident number",
        "incident no", "report number", "report #", "report no", "event ID", "log ID",
        "event log ID", "session ID", "document ID", "doc ID", "employee ID", "employee number",
        "employee #", "staff ID", "badge", "badge #", "DOC #", "DOC number", "inmate number",
        "inmate #", "booking #", "booking number", "run number", "run #", "certificate",
        "certificate no", "certificate number", "certificate #", "approval", "approval #",
        "approval number", "auth", "auth #", "auth ref", "authorization", "authorization number",
        "authorization #", "authorization no", "prior authorization", "interpreter ID", "kit",
        "kit #", "kit number", "specimen kit/serial #", "tracking", "tracking number", "tracking #",
        "shipment tracking", "work order", "unit #", "unit number", "band #", "band number",
        "BB ID band #", "query ID", "image ID", "scan ID", "record ID", "biometry record ID",
        "form", "form #", "form number", "transfer form", "file number", "claim file number",
        "transport number", "pathology", "surgical pathology no", "pathology no", "autopsy no",
        "autopsy #", "lab ID", "NCPDP", "store #", "store number", "veteran ID", "passport",
        "passport number", "visit ID", "call ID", "referral ID", "e-referral ID", "referral",
        "referral order #", "sample ID", "sample", "swab", "trial ID", "participant ID",
        "review #", "investigation #", "intake number", "intake #", "cytology", "flow cytometry",
        "cytogenetics", "molecular", "report", "registration number", "registration", "group",
        "group #", "group no", "group number", "PBM case #", "denial reference",
        "case reference number", "reference number for this call", "UNOS waitlist referral ID",
        "REMS ID", "injection log ID", "complaint filed #", "docket", "docket #", "ID #", "ID no",
        "image exchange ID", "license and fingerprint record",
    ),
}

# Context words that turn a generic "ID" or "number" into a health-plan identifier.
_PLAN_CONTEXT = (
    "insurance", "insurer", "payer", "plan", "member", "medicare", "medicaid", "coverage", "subscriber",
    "policy", "ins",
)
_VEHICLE_CONTEXT = (
    "ambulance", "medic", "ems", "van", "transport", "vehicle", "truck", "bus", "helicopter", "squad",
    "rescue", "tractor", "forklift", "sedan", "car", "motorcycle", "pickup", "suv", "driver", "drove",
)


def _kw_alt(words: Iterable[str]) -> str:
    alts = sorted({w for w in words}, key=lambda w: (-len(w), w))
    return "|".join(r"\s+".join(re.escape(p) for p in w.split()) for w in alts)


def _context_rule(label: str, words: Iterable[str], score: float, name: str, *, lists: bool = False,
                  context: tuple[str, ...] = (), exclude: tuple[str, ...] = (), window: int = 40) -> PatternRule:
    """A rule matching ``<context word> <connector> <value>`` and emitting the value."""
    value = rf"{_VALUE}(?:{_LIST_SEP}{_VALUE}{_VALUE_END}){{0,8}}" if lists else _VALUE
    pattern = re.compile(rf"(?<![\w\-/])(?:{_kw_alt(words)})(?![\w]){_CONNECT}(?P<v>{value}){_VALUE_END}", re.IGNORECASE)
    return PatternRule(
        label,
        pattern,
        group="v",
        item=_ITEM_RE if lists else None,
        validator=_context_value_ok,
        context=context,
        exclude_context=exclude,
        window=window,
        score=score,
        name=name,
    )


# --- SSN ---------------------------------------------------------------------------------------
_SSN_RE = re.compile(r"(?<![\w\-/.])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w\-/]|\.\d)")
_SSN_CTX_RE = re.compile(
    r"\b(?:SSN|SS#|SS\s+#|SS\s+no\.?|social\s+security(?:\s+(?:number|no\.?|#))?)(?![\w])"
    r"(?:\s*\([^()\n\d]{1,30}\))?[\s:#=.\-]*(?:(?:no|number|is|was)\.?[\s:#=.\-]*)?\(?\s*"
    r"(?P<v>(?!000|666|9\d\d)\d{3}[\s\-]?\d{2}[\s\-]?\d{4}|[Xx*]{3}-?[Xx*]{2}-?\d{4})(?![\w\-/]|\.\d)",
    re.IGNORECASE,
)

# --- context-free fallbacks (weak) -----------------------------------------------------------------
# Letter-digit codes with a hyphen and at least 4 digits: S24-18832, SP-24-01234, 4471-22-K.
_CODE_HYPHEN_RE = re.compile(
    r"(?<![\w\-/.#])(?=[A-Za-z0-9\-]*[A-Za-z])(?=(?:[A-Za-z\-]*\d){4})[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w\-/]|\.\w)"
)
# Letters then 5+ digits: A7731902, SP2401234.
_CODE_ALNUM_RE = re.compile(r"(?<![\w\-/.#])[A-Za-z]{1,4}\d{5,}[A-Za-z0-9]*(?![\w\-/]|\.\w)")
# 7+ digit runs (not phone-shaped, not amounts with separators).
_DIGITS_RE = re.compile(r"(?<![\w\-/.,#$])\d{7,}(?![\w\-/]|[.,]\d)")


def _fallback_ok(m: re.Match[str]) -> bool:
    return not followed_by_unit(m.string, m.end())


ID_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("SSN", _SSN_RE, score=0.95, name="ssn"),
    PatternRule("IDNUM", _CODE_HYPHEN_RE, validator=_fallback_ok, score=0.45, name="code_hyphen"),
    PatternRule("IDNUM", _CODE_ALNUM_RE, validator=_fallback_ok, score=0.45, name="code_alnum"),
    PatternRule("IDNUM", _DIGITS_RE, validator=_fallback_ok, score=0.4, name="digit_run"),
)

ID_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("SSN", _SSN_CTX_RE, group="v", score=0.95, name="ssn_context"),
    _context_rule("MEDICALRECORD", ID_KEYWORDS["MEDICALRECORD"], 0.9, "mrn"),
    _context_rule("ACCOUNT", ID_KEYWORDS["ACCOUNT"], 0.9, "account"),
    _context_rule("HEALTHPLAN", ID_KEYWORDS["HEALTHPLAN"], 0.9, "healthplan"),
    _context_rule("LICENSE", ID_KEYWORDS["LICENSE"], 0.9, "license"),
    _context_rule("DEVICE", ID_KEYWORDS["DEVICE"], 0.9, "device"),
    _context_rule("VEHICLE", ID_KEYWORDS["VEHICLE"], 0.9, "vehicle"),
    _context_rule(
        "VEHICLE", ("unit", "unit #", "registration", "car", "truck", "van", "tag"), 0.85, "vehicle_unit",
        context=_VEHICLE_CONTEXT, window=40,
    ),
    _context_rule("BIOID", ID_KEYWORDS["BIOID"], 0.9, "bioid"),
    _context_rule("IDNUM", ID_KEYWORDS["IDNUM"], 0.8, "idnum", lists=True),
    # A bare "ID" is a health-plan number next to insurance words, a generic identifier otherwise.
    _context_rule("HEALTHPLAN", ("ID", "ID #", "number", "no"), 0.85, "plan_id", context=_PLAN_CONTEXT),
    _context_rule("IDNUM", ("ID",), 0.75, "generic_id", exclude=_PLAN_CONTEXT),
    # "<word> #: value" for any other word (Store #, Visit/Account #), rooms and beds left to locations.
    PatternRule(
        "IDNUM",
        re.compile(
            rf"(?<![\w])(?!(?:room|rm|bed|apt|apartment|suite|ste|floor|fl|bay|visit|cycle|day|dose|week|pod"
            rf"|step|line|item|page|pg|question|problem|size|tube|lead|channel|gravida|para|trial|attempt"
            rf"|session|tab|tablet|cap|pill|refill|refills|qty|quantity|disp)\b)[A-Za-z]{{2,20}}\s?#[ \t:]*"
            rf"(?P<v>{_VALUE}){_VALUE_END}",
            re.IGNORECASE,
        ),
        group="v",
        validator=_context_value_ok,
        score=0.7,
        name="word_hash",
    ),
)


def id_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The ID rules for ``lang``: shape rules always, context-word rules for ``en``."""
    if lang == "en":
        return ID_RULES_NEUTRAL + ID_RULES_EN
    return ID_RULES_NEUTRAL


def id_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``id`` with the ID rules for ``lang``."""
    return RuleDetector("id", id_rules(lang))
