"""LLM one-/zero-shot augmentation helpers (Kim et al. 2024), the pure-Python parts.

Kim et al. never send PHI to the model: a gold note is first *scrubbed* (every PHI value becomes its
placeholder, "John" -> ``[PATIENT]``), then the prompt asks for a new PHI-removed synthetic report
that uses the placeholders (Appendix A: guidelines A.2 and task description A.3; the one-shot prompt
adds the scrubbed sample, the zero-shot prompt does not). The reply's placeholders are then filled
with surrogates, which become the gold spans, and notes are split into sentences for training.

This module holds every step except the HTTP call:

* :func:`scrub`: gold document -> placeholder text.
* :data:`GUIDELINES`, :data:`TASK_DESCRIPTION`, :func:`build_prompt`: OpenAI-style chat messages.
* :class:`LeakGuard`: a last check that no detector finds PHI in an outgoing prompt; raises
  :class:`~phiscrub.errors.LeakGuardError` (offsets and labels only) instead of sending.
* :meth:`LeakGuard.scrub`: placeholders over what the guard still finds (``--on-leak scrub``).
* :func:`parse_reply`: strip chatter and code fences, map near-miss placeholders (``[PATIENT NAME]``,
  ``<DATE>``, ``[MRN]``) to known ones, drop replies with placeholders outside the list;
  :func:`echoes_prompt` flags replies that copy the prompt.
* :func:`fill_reply`, :func:`to_sentence_documents`: surrogate fill and sentence split with spans.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from phiscrub.detect.base import Detector
from phiscrub.detect.lexicon import LexiconDetector
from phiscrub.detect.rules import default_detectors
from phiscrub.document import Document, Span, check_spans, sentence_ranges
from phiscrub.errors import ConfigError, LabelError, LeakGuardError
from phiscrub.labels import COARSE_LABELS, PLACEHOLDER_LABELS, Granularity, fold
from phiscrub.transform.fill import fill_text
from phiscrub.transform.rewrite import rewrite

__all__ = [
    "GUIDELINES",
    "KIM_PLACEHOLDERS",
    "LABEL_DESCRIPTIONS",
    "PLACEHOLDERS",
    "TASK_DESCRIPTION",
    "LeakGuard",
    "ParsedReply",
    "PromptKind",
    "build_prompt",
    "echoes_prompt",
    "fill_reply",
    "guidelines",
    "parse_reply",
    "placeholders_in",
    "scrub",
    "task_description",
    "to_sentence_documents",
]

PromptKind = Literal["zero-shot", "one-shot"]

#: Kim et al.'s 13 placeholders (Appendix A.3 list).
KIM_PLACEHOLDERS: tuple[str, ...] = (
    "AGE", "DATE", "DOCTOR", "HOSPITAL", "ID", "LOCATION", "MEDICALRECORD", "ORGANIZATION",
    "PATIENT", "PHONE", "PROFESSION", "USERNAME", "ZIP",
)  # fmt: skip

#: The 31 placeholders of the zero-shot notes (shared/data/zeroshot-notes/README.md), in that order.
PLACEHOLDERS: tuple[str, ...] = (
    "PATIENT", "RELATIVE", "DOCTOR", "USERNAME", "PROFESSION", "AGE", "DATE", "HOSPITAL",
    "DEPARTMENT", "ROOM", "ORGANIZATION", "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "LOCATION",
    "PHONE", "FAX", "EMAIL", "URL", "IPADDRESS", "MEDICALRECORD", "SSN", "HEALTHPLAN", "ACCOUNT",
    "LICENSE", "DEVICE", "VEHICLE", "BIOID", "IDNUM",
)  # fmt: skip

_NAME_RULES = (
    "Titles (Dr., Mr., Ms., etc.) do not have to be annotated. Information such as 'M.D.', 'R.N.' do "
    "not have to be annotated. If a name is possessive (e.g., [PATIENT]'s) do not annotate the 's"
)

#: One explanation per placeholder. Kim's wording (Appendix A.2) is kept verbatim for the labels we
#: share, except that HOSPITAL and LOCATION lose the parts we give their own placeholders (rooms and
#: floors -> [ROOM]/[DEPARTMENT]; cities, states, streets -> [CITY]/[STATE]/[STREET]) and Kim's typo
#: "It cludes" is dropped with the room clause. Kim's generic [ID] becomes our [IDNUM] plus the
#: specific identifier types it listed (i2b2 2014 guideline wording).
LABEL_DESCRIPTIONS: dict[str, str] = {
    "PATIENT": f"placeholder for specific names of a patient. {_NAME_RULES}",
    "RELATIVE": f"placeholder for specific names of a patient's family members or friends. {_NAME_RULES}",
    "DOCTOR": f"placeholder for specific doctor names. {_NAME_RULES}",
    "USERNAME": "Placeholder for a specific username that are initials followed by numbers (i.e., as4)",
    "PROFESSION": (
        "Placeholder for any job that is mentioned that is not held by someone on the medical staff "
        "should be tagged"
    ),
    "AGE": (
        "Placeholder for annotate all ages, not just those over 90, including those for patient's "
        "families if they are mentioned"
    ),
    "DATE": (
        "Placeholder for any calendar date, including years, seasons, months, and holidays except time of day"
    ),
    "HOSPITAL": (
        "placeholder for the names of medical organizations and of nursing homes where patients are "
        "treated and may also reside"
    ),
    "DEPARTMENT": "Placeholder for the names of hospital departments, wards, units and floors",
    "ROOM": "Placeholder for room and bed numbers of patients",
    "ORGANIZATION": "placeholder for specific named organizations",
    "STREET": "Placeholder for street addresses",
    "CITY": "Placeholder for names of cities and towns",
    "STATE": "Placeholder for names of states and provinces",
    "COUNTRY": "Placeholder for names of countries",
    "ZIP": "Placeholder for a specific zip code",
    "LOCATION": "Placeholder for other geographic locations such as building names, regions and landmarks",
    "PHONE": "Placeholder for a specific phone number",
    "FAX": "Placeholder for a specific fax number",
    "EMAIL": "Placeholder for a specific e-mail address",
    "URL": "Placeholder for a specific web address",
    "IPADDRESS": "Placeholder for a specific IP address",
    "MEDICALRECORD": "Placeholder for a medical record number",
    "SSN": "Placeholder for a social security number",
    "HEALTHPLAN": "Placeholder for a health plan or insurance member number",
    "ACCOUNT": "Placeholder for an account number",
    "LICENSE": "Placeholder for a license or certificate number",
    "DEVICE": "Placeholder for a device identifier or serial number",
    "VEHICLE": "Placeholder for a vehicle identifier or license plate",
    "BIOID": "Placeholder for a biometric identifier",
    "IDNUM": (
        "Placeholder for any other identity (e.g., ID number, employee number, order or accession "
        "number) of an individual"
    ),
    # Kim's own [ID], for prompts that use Kim's 13 labels.
    "ID": (
        "Placeholder for any identity (e.g., social security number, health plan number, account "
        "number, license number, vehicle ID, device ID, biometric ID, ID number) of an individual"
    ),
}


def _check_labels(labels: Sequence[str]) -> tuple[str, ...]:
    if not labels:
        raise ConfigError("the prompt needs at least one placeholder label")
    unknown = [lab for lab in labels if lab not in LABEL_DESCRIPTIONS]
    if unknown:
        raise LabelError(f"no guideline text for placeholder labels {unknown}")
    return tuple(dict.fromkeys(labels))


def guidelines(labels: Sequence[str] = PLACEHOLDERS) -> str:
    """Kim's Appendix A.2 guidelines for a set of placeholder labels.

    Raises:
        LabelError: a label has no description in :data:`LABEL_DESCRIPTIONS`.
        ConfigError: ``labels`` is empty.
    """
    labs = _check_labels(labels)
    entries = ",\n".join(f'  "[{lab}]": "{LABEL_DESCRIPTIONS[lab]}"' for lab in labs)
    return (
        "1. PHI (Personal Health Information) should be removed and annotated with PHI labels.\n"
        "2. Types of PHI labels and explanation:\n"
        "{\n" + entries + "\n}\n"
        "3. Only use PHI labels as described in section 2 and do not use any labels that are not "
        "included in this list.\n"
        "4. Use all of PHI labels in section 2."
    )


def task_description(labels: Sequence[str] = PLACEHOLDERS) -> str:
    """Kim's Appendix A.3 task description listing ``labels``.

    Raises:
        LabelError: unknown label.
        ConfigError: ``labels`` is empty.
    """
    labs = _check_labels(labels)
    return (
        "Make a PHI-removed synthetic patient report adhering to the above guidelines. Describe the "
        "patient's symptoms in detail, using precise medical terminologies. You must evenly use the "
        "labels from the following list.\n\n"
        "PHI labels list:\n\n{" + ", ".join(f"[{lab}]" for lab in labs) + "}."
    )


#: The guidelines for our 31 placeholders.
GUIDELINES: str = guidelines(PLACEHOLDERS)
#: The task description for our 31 placeholders.
TASK_DESCRIPTION: str = task_description(PLACEHOLDERS)

_SYSTEM = (
    "You write synthetic clinical notes for training de-identification models. Every PHI value is "
    "written as a placeholder label in square brackets; no real or realistic PHI ever appears."
)
# Kim 3.1: one-shot output is "similar in format to the original dataset but with different contexts".
_ONE_SHOT_HINT = "Follow the format of the sample note, but write about a different patient and context."


def build_prompt(
    kind: PromptKind, scrubbed_note: str | None = None, labels: Sequence[str] = PLACEHOLDERS
) -> list[dict[str, str]]:
    """Chat messages (system + user) for one zero-shot or one-shot generation.

    The user message is, as in Kim's Figure 4: the scrubbed sample (one-shot only, closed by
    ``[report end]`` as in Appendix A.1), the guidelines, then the task description.

    Args:
        kind: ``"zero-shot"`` (no sample) or ``"one-shot"`` (one scrubbed sample).
        scrubbed_note: the :func:`scrub` output; required for one-shot, must be None for zero-shot.
        labels: placeholder labels offered to the model.

    Returns:
        ``[{"role": "system", "content": ...}, {"role": "user", "content": ...}]``.

    Raises:
        ConfigError: unknown kind, or a sample missing/given against the kind.
        LabelError: unknown label.
    """
    guide = guidelines(labels)
    task = task_description(labels)
    if kind == "zero-shot":
        if scrubbed_note is not None:
            raise ConfigError("a zero-shot prompt takes no sample note")
        user = f"Guidelines:\n{guide}\n\nTask:\n{task}"
    elif kind == "one-shot":
        if not scrubbed_note or not scrubbed_note.strip():
            raise ConfigError("a one-shot prompt needs a scrubbed sample note")
        sample = scrubbed_note.rstrip()
        user = f"Sample patient note:\n{sample}\n[report end]\n\nGuidelines:\n{guide}\n\nTask:\n{task} {_ONE_SHOT_HINT}"
    else:
        raise ConfigError(f"unknown prompt kind {kind!r}; use zero-shot or one-shot")
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


# -- scrubbing -------------------------------------------------------------------------------------


def _merged(spans: Sequence[Span]) -> list[Span]:
    """Union overlapping spans (keeping the longest one's label) so no PHI character escapes."""
    out: list[Span] = []
    for span in sorted(spans):
        if out and span.start < out[-1].end:
            last = out[-1]
            label = last.label if len(last) >= len(span) else span.label
            out[-1] = Span(last.start, max(last.end, span.end), label, last.score, last.source)
        else:
            out.append(span)
    return out


def scrub(doc: Document, labels: Granularity = "fine") -> str:
    """Replace every gold span of ``doc`` with its ``[LABEL]`` placeholder.

    Labels are folded to ``labels`` (fine: ``[PATIENT]``, ``[DATE]``; coarse: ``[NAME]``); spans that
    fold to nothing (``OTHER``; AGE/PROFESSION under ``phicon5``) are not PHI and keep their text.
    Overlapping spans are merged first, so a partial overlap never leaves PHI characters behind.

    Raises:
        LabelError: a span has an unknown label.
        SpanOffsetError: a span ends past the text.
    """
    replacements: list[tuple[Span, str]] = []
    for span in _merged([s for s in doc.spans if fold(s.label, labels) is not None]):
        replacements.append((span, f"[{fold(span.label, labels)}]"))
    return rewrite(doc, replacements).text


# -- leak guard ------------------------------------------------------------------------------------


@dataclass
class LeakGuard:
    """Refuse outgoing prompts in which any detector still finds PHI.

    Placeholders (``[PATIENT]``, ``[NAME]`` ...) are blanked to spaces before detection (so offsets
    stay) and spans touching a placeholder are ignored: a placeholder is the absence of PHI.

    Args:
        detectors: detectors to run; None: the English rule detectors plus the name/city lexicon.
        min_score: ignore proposals scoring below this (default 0: anything found blocks).
        placeholders: labels whose ``[LABEL]`` form is masked.
    """

    detectors: Sequence[Detector] | None = None
    min_score: float = 0.0
    placeholders: Sequence[str] = (*PLACEHOLDER_LABELS, *COARSE_LABELS)
    _detectors: list[Detector] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._detectors = (
            [*default_detectors("en"), LexiconDetector("en")]
            if self.detectors is None
            else list(self.detectors)
        )
        alts = "|".join(sorted({re.escape(p) for p in self.placeholders}, key=len, reverse=True))
        self._placeholder_re = re.compile(rf"\[(?:{alts})\]")

    def find(self, text: str, doc_id: str = "prompt") -> list[Span]:
        """PHI spans the detectors find in ``text`` outside placeholders."""
        holes = [(m.start(), m.end()) for m in self._placeholder_re.finditer(text)]
        masked = list(text)
        for s, e in holes:
            masked[s:e] = " " * (e - s)
        probe = Document(doc_id, "".join(masked))
        found: set[Span] = set()
        for det in self._detectors:
            for span in det.detect(probe):
                if span.score < self.min_score or not probe.text[span.start : span.end].strip():
                    continue
                if any(span.start < e and s < span.end for s, e in holes):
                    continue
                found.add(Span(span.start, span.end, span.label))
        return sorted(found)

    def check(self, doc_id: str, messages: Sequence[Mapping[str, str]]) -> None:
        """Raise when any message content holds detected PHI; return None when clean.

        Offsets index the payload ``"\\n\\n".join(m["content"] for m in messages)``.

        Raises:
            LeakGuardError: naming ``doc_id``, the labels and offsets found (never the text).
        """
        labels: list[str] = []
        offsets: list[tuple[int, int]] = []
        base = 0
        for message in messages:
            content = message.get("content", "")
            for span in self.find(content, doc_id):
                labels.append(span.label)
                offsets.append((base + span.start, base + span.end))
            base += len(content) + 2
        if labels:
            raise LeakGuardError(doc_id, labels, offsets)

    def scrub(self, text: str, doc_id: str = "prompt", labels: Granularity = "fine") -> tuple[str, list[str]]:
        """Replace what the guard still finds in a scrubbed note by placeholders of the detected labels
        (folded to ``labels``); of overlapping finds, the first (longest at a start) wins.

        Returns:
            The further-scrubbed text and the labels of the spans replaced (possibly empty).
        """
        kept: list[tuple[Span, str]] = []
        for span in sorted(self.find(text, doc_id), key=lambda s: (s.start, -s.end)):
            if not kept or span.start >= kept[-1][0].end:
                kept.append((span, f"[{fold(span.label, labels) or span.label}]"))
        return rewrite(Document(doc_id, text), kept).text, [token[1:-1] for _, token in kept]


# -- reply parsing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedReply:
    """A cleaned LLM reply.

    Attributes:
        text: the note with canonical ``[LABEL]`` placeholders, or None when dropped.
        placeholders: count of each known label in ``text`` (after mapping).
        mapped: count of each near-miss token (as written, e.g. ``"[PATIENT NAME]"``) that was mapped.
        unknown: count of each placeholder-looking token that matched no known label.
        dropped: True when the reply is unusable (unknown placeholders, too short, no placeholder).
    """

    text: str | None
    placeholders: Counter[str]
    mapped: Counter[str]
    unknown: Counter[str]
    dropped: bool


# Common LLM spellings of our placeholders, by their compacted upper-case form (no spaces/_/-/').
_ALIASES: dict[str, str] = {
    "NAME": "PATIENT",
    "PATIENTNAME": "PATIENT",
    "PATIENTSNAME": "PATIENT",
    "PERSON": "PATIENT",
    "DOCTORNAME": "DOCTOR",
    "DOCTORSNAME": "DOCTOR",
    "PHYSICIAN": "DOCTOR",
    "PHYSICIANNAME": "DOCTOR",
    "PROVIDER": "DOCTOR",
    "MRN": "MEDICALRECORD",
    "MEDICALRECORDNUMBER": "MEDICALRECORD",
    "PHONENUMBER": "PHONE",
    "TELEPHONE": "PHONE",
    "FAXNUMBER": "FAX",
    "ADDRESS": "STREET",
    "STREETADDRESS": "STREET",
    "ID": "IDNUM",
    "IDNUMBER": "IDNUM",
    "ZIPCODE": "ZIP",
    "POSTCODE": "ZIP",
    "HOSPITALNAME": "HOSPITAL",
    "EMAILADDRESS": "EMAIL",
    "IP": "IPADDRESS",
    "SOCIALSECURITYNUMBER": "SSN",
    "FAMILYMEMBER": "RELATIVE",
    "DOB": "DATE",
}
_BRACKETED = re.compile(r"\[([^\[\]\n]{1,40})\]|<([^<>\n]{1,40})>|\{([^{}\n]{1,40})\}")
_LABELISH = re.compile(r"[A-Za-z][A-Za-z '’_\-]*")
_FENCE = re.compile(r"^\s*```[\w-]*\s*$", re.MULTILINE)
# A chatty opener ends its line with ":" or "!" ("Here is the report:", "Sure!"); a note line that
# happens to start with "OK" ("OK to discharge.") does not, and is kept.
_CHATTER = re.compile(
    r"^\s*(?:here(?:'s| is| are)|sure\b|certainly\b|of course\b|below is|okay\b|ok\b)[^\n]*[:!]\s*\n",
    re.IGNORECASE,
)
_REPORT_END = re.compile(r"\s*\[report end\]\s*$", re.IGNORECASE)


def _compact(name: str) -> str:
    return re.sub(r"[\s_\-'’]+", "", name.upper())


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (small strings only)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _resolve(name: str, known: Mapping[str, str]) -> str | None:
    """The known label a near-miss name stands for, or None.

    ``known`` maps compacted names to labels. Edit distance is at most 1 for names of up to 5
    letters and 2 for longer ones (``[SEX]`` must not become ``[SSN]``), and the closest match must
    be unique.
    """
    key = _compact(name)
    if key in known:
        return known[key]
    alias = _ALIASES.get(key)
    if alias is not None and _compact(alias) in known:
        return known[_compact(alias)]
    for suffix in ("NAME", "NUMBER", "NO"):
        if key.endswith(suffix) and key[: -len(suffix)] in known:
            return known[key[: -len(suffix)]]
    limit = 1 if len(key) <= 5 else 2
    scored = sorted((_distance(key, k), k) for k in known)
    if scored and scored[0][0] <= limit and (len(scored) == 1 or scored[1][0] > scored[0][0]):
        return known[scored[0][1]]
    return None


def _strip_wrapping(text: str) -> str:
    """Remove code fences, leading chatter ("Here is ...:") and Kim's ``[report end]`` marker."""
    fences = list(_FENCE.finditer(text))
    if len(fences) >= 2:
        # Keep what the first fenced block holds: models wrap the note and chat around it.
        text = text[fences[0].end() : fences[1].start()]
    elif len(fences) == 1:
        text = text[: fences[0].start()] + text[fences[0].end() :]
    text = text.strip("\n")
    while True:
        m = _CHATTER.match(text)
        if m is None:
            break
        text = text[m.end() :].lstrip("\n")
    return _REPORT_END.sub("", text).strip()


def parse_reply(
    text: str, known: Sequence[str] = PLACEHOLDERS, *, min_chars: int = 80, min_placeholders: int = 1
) -> ParsedReply:
    """Clean an LLM reply and normalise its placeholders to ``[LABEL]`` from ``known``.

    Near misses are mapped and counted: other case or spacing (``[patient]``, ``[ DATE ]``), other
    brackets (``<PATIENT>``, ``{PATIENT}``), common spellings (``[PATIENT NAME]``, ``[DOCTOR'S NAME]``,
    ``[MRN]``, ``[PHONE NUMBER]``, ``[ADDRESS]``, ``[ID]``, ``[NAME]``), and typos within a small edit
    distance. A square-bracketed all-capitals token that maps to nothing (``[TIME]``) makes the
    reply unusable: it would stay in the training text as an unlabelled pseudo-PHI token. Other
    bracketed text (``[sic]``, ``<5 mg>``) is kept as it is.

    Args:
        text: the raw reply.
        known: the placeholder labels the prompt offered.
        min_chars: shorter cleaned replies are dropped.
        min_placeholders: replies with fewer placeholders are dropped (they yield no gold spans).

    Returns:
        A :class:`ParsedReply`; ``text`` is None when ``dropped``.
    """
    index = {_compact(k): k for k in known}
    body = _strip_wrapping(text)
    placeholders: Counter[str] = Counter()
    mapped: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    pieces: list[str] = []
    pos = 0
    for m in _BRACKETED.finditer(body):
        inner = next(g for g in m.groups() if g is not None)
        square = m.group(1) is not None
        name = inner.strip()
        if not _LABELISH.fullmatch(name):
            continue
        label = _resolve(name, index)
        if label is None:
            letters = [c for c in name if c.isalpha()]
            if square and letters and all(c.isupper() for c in letters):
                unknown[m.group(0)] += 1
            continue
        token = f"[{label}]"
        if m.group(0) != token:
            mapped[m.group(0)] += 1
        placeholders[label] += 1
        pieces.append(body[pos : m.start()])
        pieces.append(token)
        pos = m.end()
    pieces.append(body[pos:])
    clean = "".join(pieces)
    dropped = bool(unknown) or len(clean) < min_chars or sum(placeholders.values()) < min_placeholders
    return ParsedReply(None if dropped else clean, placeholders, mapped, unknown, dropped)


# -- filling and sentences -------------------------------------------------------------------------


def echoes_prompt(reply: str, messages: Sequence[Mapping[str, str]], n: int = 6, limit: float = 0.3) -> bool:
    """True when more than ``limit`` of the reply's word ``n``-grams occur in the prompt.

    Small models often copy the guidelines or the one-shot sample instead of writing a new note;
    such a reply teaches nothing new (and a copied sample is not "a different patient and context").
    """

    def grams(text: str) -> list[tuple[str, ...]]:
        words = re.findall(r"\w+|\[[A-Z_]+\]", text.lower())
        return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]

    reply_grams = grams(reply)
    if not reply_grams:
        return False
    prompt_grams = set(grams("\n".join(m.get("content", "") for m in messages)))
    shared = sum(1 for g in reply_grams if g in prompt_grams)
    return shared / len(reply_grams) > limit


def placeholders_in(text: str) -> list[str]:
    """Labels of known ``[LABEL]`` placeholders in a scrubbed note (the one-shot prompt offers them)."""
    return [m.group(1) for m in re.finditer(r"\[([A-Z][A-Z_]*)\]", text) if m.group(1) in LABEL_DESCRIPTIONS]


def fill_reply(parsed_text: str, rng: random.Random, lang: str = "en", doc_id: str = "llm") -> Document:
    """Fill a parsed reply's placeholders with surrogates; they become the gold spans.

    Args:
        parsed_text: :attr:`ParsedReply.text`.
        rng: the random source.
        lang: fill language (``en``, ``es``, ``ca``, ``zh``, ``auto``).
        doc_id: id of the new document.

    Raises:
        ConfigError: unknown language.
    """
    filled, spans = fill_text(parsed_text, rng, lang)
    doc = Document(doc_id, filled, tuple(spans), {"source": "llm"})
    return doc.validate()


def to_sentence_documents(doc: Document, *, only_with_phi: bool = False) -> list[Document]:
    """Split ``doc`` into one document per sentence, spans shifted to sentence offsets.

    Sentences come from :func:`phiscrub.document.sentence_ranges` (neighbours joined when a span
    crosses their boundary, so no span is ever cut). Ids are ``"<id>:s<k>"``; metadata keeps the parent
    id and the sentence's character offset in it.

    Args:
        doc: the note.
        only_with_phi: keep only sentences with at least one span (Kim et al.'s training sets).
    """
    out: list[Document] = []
    for k, (s, e) in enumerate(sentence_ranges(doc)):
        spans = tuple(sp.shifted(-s) for sp in doc.spans if s <= sp.start and sp.end <= e)
        if only_with_phi and not spans:
            continue
        text = doc.text[s:e]
        check_spans(doc.id, text, spans)
        out.append(
            Document(f"{doc.id}:s{k}", text, spans, {**doc.metadata, "parent_id": doc.id, "offset": s})
        )
    return out
