"""Surrogates a reader cannot tell from the real note: the evaluation of issue 29.

Each note's gold spans are replaced with keyed surrogates (``phiscrub redact --mode surrogate`` does
the same to detected spans) and the script reports:

(a) the default detector's binary recall (a gold span counts as found when a predicted span of any
    label overlaps it) on the surrogate text against the original text, overall and per coarse
    label, and how often the coarse label of the prediction that finds a surrogate matches the gold
    coarse label; the gold spans are those the detector's policy keeps on the original (safe-harbor
    for English: a state name is not PHI there);
(b) the share of surrogates of each kind that pass the checks of issue 29: locale (US names, towns,
    streets, ZIP codes, valid US phones in an English note), kind (a facility keeps its head noun; a
    person never becomes a facility or a town; a town never becomes a facility) and coherence (the
    town before ", ST" lies in ST, the ZIP after "ST" is a ZIP of ST, a phone's area code serves the
    note's state);
(c) original values found anywhere in the output as whole words (case-insensitive): must be 0 (a
    year alone, which Safe Harbor keeps and the date shift may keep, and ages under 90 aside).

Corpora: the hard-forms notes (``shared/data/hardforms-notes/corpus.jsonl``, gold spans written out)
and, with ``--realworld``, the English real-world-style placeholder notes filled with seeded values
(``phiscrub.transform.fill``) whose fills are then replaced by keyed surrogates.

Run: ``python scripts/eval_surrogates.py`` (``--realworld ../shared/data/realworld-notes``,
``--no-model`` for the rules alone, ``--examples 4`` for before/after excerpts in Markdown,
``--json OUT`` for the figures). Nothing here reads or writes outside the corpus and OUT.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.labels import fold, to_fine
from phiscrub.policy import apply_policy
from phiscrub.transform.fill import fill_text
from phiscrub.transform.operators import build_transformer
from phiscrub.transform.surrogate.geo import (
    area_codes,
    is_valid_phone,
    state_code,
    town_states,
    towns_of_state,
    zips_of,
)
from phiscrub.transform.surrogate.kinds import is_town, known_names, read_facility, surface_kind
from phiscrub.transform.surrogate.locale import locale_list, resolve_locale
from phiscrub.transform.surrogate.text import normalize_component
from phiscrub.transform.surrogate.wordlists import NAME_LABELS

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "hardforms-notes" / "corpus.jsonl"
KEY = "eval-surrogates-key"
US = resolve_locale("en_US", None)
_STATE_AFTER = re.compile(r",[ \t]*([A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
_STATE_BEFORE = re.compile(r"\b([A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)\.?,?[ \t]{1,3}$")
_YEAR = re.compile(r"'?\d{2}|\d{4}")


# --- corpora ---------------------------------------------------------------------------------------


def hardforms(path: Path) -> list[Document]:
    """The hard-forms notes with their gold spans and patient ids."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            spans = tuple(Span(int(s["start"]), int(s["end"]), str(s["label"])) for s in row["spans"])
            meta = {"patient_id": row["patient_id"]} if row.get("patient_id") else {}
            docs.append(Document(row["id"], row["text"], spans, meta))
    return docs


def realworld(root: Path) -> list[Document]:
    """The real-world-style placeholder notes, filled with seeded English values (gold = the fills)."""
    docs = []
    for path in sorted(root.glob("r*/*.txt")):
        note = path.read_text(encoding="utf-8")
        doc_id = f"{path.parent.name}/{path.stem}"
        text, spans = fill_text(note, random.Random(doc_id), "en")
        docs.append(Document(doc_id, text, tuple(spans), {"lang": "en"}))
    return docs


def surrogates(docs: Sequence[Document], key: str) -> list[Document]:
    """Each note with its gold spans replaced by keyed surrogates (spans point at the surrogates)."""
    transformer = build_transformer("surrogate", "fine", key=key)
    return [transformer.apply(d, d.spans, patient_id=d.metadata.get("patient_id") or d.id) for d in docs]


# --- (a) detector recall --------------------------------------------------------------------------


def _coarse(label: str) -> str:
    return fold(label, "coarse") or to_fine(label)


def detector_recall(
    originals: Sequence[Document], replaced: Sequence[Document], deid: Deidentifier
) -> dict[str, dict[str, float]]:
    """Binary recall per coarse label on the original and the surrogate text, and label agreement."""
    found: Counter[tuple[str, str]] = Counter()
    total: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    preds_orig = deid.detect_many(list(originals))
    preds_sur = deid.detect_many([Document(d.id, d.text, (), d.metadata) for d in replaced])
    policy = deid.policy or "safe-harbor"
    for orig, sur, p_orig, p_sur in zip(originals, replaced, preds_orig, preds_sur, strict=True):
        kept = set(apply_policy(orig.text, orig.spans, policy))
        for g_orig, g_sur in zip(sorted(orig.spans), sorted(sur.spans), strict=True):
            if g_orig not in kept:
                continue
            label = _coarse(g_orig.label)
            for key in (label, "ALL"):
                total[key] += 1
            hit_orig = [p for p in p_orig if p.start < g_orig.end and g_orig.start < p.end]
            hit_sur = [p for p in p_sur if p.start < g_sur.end and g_sur.start < p.end]
            for key in (label, "ALL"):
                found[(key, "original")] += bool(hit_orig)
                found[(key, "surrogate")] += bool(hit_sur)
            if hit_sur:
                for key in (label, "ALL"):
                    agree[key] += _coarse(hit_sur[0].label) == label
    return {
        key: {
            "spans": n,
            "recall_original": found[(key, "original")] / n,
            "recall_surrogate": found[(key, "surrogate")] / n,
            "label_agreement": agree[key] / max(1, found[(key, "surrogate")]),
        }
        for key, n in sorted(total.items())
    }


# --- (b) checks -----------------------------------------------------------------------------------


def original_kind(label: str, surface: str) -> str | None:
    """The kind the surrogate of ``surface`` must have (the surface decides before the label)."""
    fine = to_fine(label)
    kind = surface_kind(fine, surface, US)
    if kind is not None:
        return "person" if kind == "person" else kind
    if fine in NAME_LABELS:
        return "person"
    if fine in ("CITY", "LOCATION") and not re.search(r"\d", surface):
        return "city"
    if fine in ("HOSPITAL", "ORGANIZATION"):
        return "facility-name"
    return {"STATE": "state", "ZIP": "zip", "PHONE": "phone", "FAX": "phone", "STREET": "street"}.get(fine)


def _name_words(text: str) -> list[str]:
    """The folded name words of ``text``; initials ("J.", "JS", "J.S.") left out."""
    words = re.findall(r"[^\W\d_]+", text)
    return [normalize_component(w) for w in words if len(w) > 1 and not (w.isupper() and len(w) <= 3)]


def _is_person(text: str) -> bool:
    """Every name word is a given name or surname of the US lists (initials alone pass)."""
    return all(w in known_names("en_us") for w in _name_words(text))


def _is_full_name(text: str) -> bool:
    """A US given name then a US surname, as persons are named ("Mary Hill"; not "Butler" alone,
    which names many hospitals, nor "Good Shepherd")."""
    words = _name_words(text)
    first = {normalize_component(n) for n in locale_list("first_names_female", "en_us")}
    first |= {normalize_component(n) for n in locale_list("first_names_male", "en_us")}
    last = {normalize_component(n) for n in locale_list("last_names", "en_us")}
    return len(words) >= 2 and words[0] in first and words[-1] in last


def _note_state(doc: Document) -> str | None:
    """The first state the output note writes after a town or before a ZIP."""
    for span in doc.spans:
        fine = to_fine(span.label)
        if fine == "STATE":
            return state_code(doc.text[span.start : span.end])
        after = _STATE_AFTER.match(doc.text, span.end) if fine in ("CITY", "LOCATION") else None
        if after is not None and state_code(after.group(1)):
            return state_code(after.group(1))
        before = (
            _STATE_BEFORE.search(doc.text, max(0, span.start - 30), span.start) if fine == "ZIP" else None
        )
        if before is not None and state_code(before.group(1)):
            return state_code(before.group(1))
    return None


def _check_person(
    before: str, after: str, sur: Document, s: Span, state: str | None
) -> list[tuple[str, bool]]:
    no_place = read_facility(after) is None and (not is_town(after, US) or _is_person(after))
    return [("locale", _is_person(after)), ("kind", no_place)]


def _check_facility(
    before: str, after: str, sur: Document, s: Span, state: str | None
) -> list[tuple[str, bool]]:
    head, new = read_facility(before), read_facility(after)
    same = head is not None and new is not None and new.head == head.head
    return [("kind", same), ("locale", new is not None and not _is_full_name(new.stem))]


def _check_city(before: str, after: str, sur: Document, s: Span, state: str | None) -> list[tuple[str, bool]]:
    out = [("locale", normalize_component(after) in town_states()), ("kind", read_facility(after) is None)]
    m = _STATE_AFTER.match(sur.text, s.end)
    st = state_code(m.group(1)) if m is not None else None
    if st is not None:
        out.append(("coherence", after in towns_of_state(st) or after.title() in towns_of_state(st)))
    return out


def _check_zip(before: str, after: str, sur: Document, s: Span, state: str | None) -> list[tuple[str, bool]]:
    zip5 = after.strip()[:5]
    out = [("locale", bool(_states_of_zip(zip5)))]
    m = _STATE_BEFORE.search(sur.text, max(0, s.start - 30), s.start)
    st = state_code(m.group(1)) if m is not None else None
    if st is not None:
        out.append(("coherence", zip5 in zips_of(st)))
    return out


def _check_phone(
    before: str, after: str, sur: Document, s: Span, state: str | None
) -> list[tuple[str, bool]]:
    digits = re.sub(r"\D", "", after.split("x")[0].split("ext")[0])
    if len(digits) < 10:
        return []
    out = [("locale", is_valid_phone(digits[-10:], "US"))]
    if state is not None:
        out.append(("coherence", digits[-10:][:3] in area_codes(state)))
    return out


def _check_street(
    before: str, after: str, sur: Document, s: Span, state: str | None
) -> list[tuple[str, bool]]:
    streets = {normalize_component(n) for n in locale_list("street_names", "en_us")}
    return [("locale", bool({normalize_component(w) for w in re.findall(r"[^\W\d_]+", after)} & streets))]


def _check_named(
    before: str, after: str, sur: Document, s: Span, state: str | None
) -> list[tuple[str, bool]]:
    return [("kind", not _is_full_name(after))]


_CHECKS = {
    "person": _check_person,
    "facility": _check_facility,
    "city": _check_city,
    "state": lambda before, after, sur, s, state: [("locale", state_code(after) is not None)],
    "zip": _check_zip,
    "phone": _check_phone,
    "street": _check_street,
    "facility-name": _check_named,
    "organization": _check_named,
}


def check_note(orig: Document, sur: Document) -> Counter[tuple[str, str, bool]]:
    """(kind, check, passed) counts of one note's surrogates."""
    out: Counter[tuple[str, str, bool]] = Counter()
    note_state = _note_state(sur)
    for g, s in zip(sorted(orig.spans), sorted(sur.spans), strict=True):
        before, after = orig.text[g.start : g.end], sur.text[s.start : s.end]
        kind = original_kind(g.label, before)
        if kind in _CHECKS:
            for check, passed in _CHECKS[kind](before, after, sur, s, note_state):
                out[(kind, check, passed)] += 1
    return out


_ZIP_STATE: dict[str, str] = {}


def _states_of_zip(zip5: str) -> list[str]:
    if not _ZIP_STATE:
        from phiscrub.transform.surrogate.geo import us_states

        for st in us_states():
            for z in zips_of(st):
                _ZIP_STATE[z] = st
    return [_ZIP_STATE[zip5]] if zip5 in _ZIP_STATE else []


# --- (c) survivors --------------------------------------------------------------------------------


def survivors(orig: Document, sur: Document) -> Counter[str]:
    """Labels of original values written anywhere in the output (a year alone and ages aside)."""
    out: Counter[str] = Counter()
    for g in orig.spans:
        fine = to_fine(g.label)
        value = orig.text[g.start : g.end].strip()
        if fine == "AGE" or (fine == "DATE" and _YEAR.fullmatch(value)):
            continue
        if not value:
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", sur.text, re.IGNORECASE):
            # In any case but as a lower-case common word ("his hope is" for the surname Hope).
            if m.group(0) == value or not m.group(0).islower():
                out[fine] += 1
                break
    return out


# --- report ---------------------------------------------------------------------------------------


def examples(originals: Sequence[Document], replaced: Sequence[Document], n: int) -> str:
    """Markdown: the original and surrogate line of the first ``n`` lines holding three spans or more."""
    rows = ["| original | surrogate |", "|---|---|"]
    for orig, sur in zip(originals, replaced, strict=True):
        for line_o, line_s in zip(orig.text.splitlines(), sur.text.splitlines(), strict=False):
            if len(rows) - 2 >= n:
                return "\n".join(rows)
            start = orig.text.find(line_o)
            spans = [g for g in orig.spans if start <= g.start and g.end <= start + len(line_o)]
            if len(spans) >= 3 and len(line_o) <= 160:
                rows.append(f"| {line_o.strip().replace('|', '/')} | {line_s.strip().replace('|', '/')} |")
    return "\n".join(rows)


def evaluate(docs: Sequence[Document], key: str, deid: Deidentifier | None) -> dict[str, object]:
    """The figures (a), (b), (c) of one corpus."""
    replaced = surrogates(docs, key)
    checks: Counter[tuple[str, str, bool]] = Counter()
    survived: Counter[str] = Counter()
    for orig, sur in zip(docs, replaced, strict=True):
        checks += check_note(orig, sur)
        survived += survivors(orig, sur)
    shares: dict[str, dict[str, str]] = {}
    for kind, check in sorted({(k, c) for k, c, _ in checks}):
        ok, bad = checks[(kind, check, True)], checks[(kind, check, False)]
        shares.setdefault(kind, {})[check] = f"{ok}/{ok + bad}"
    report: dict[str, object] = {"notes": len(docs), "checks": shares, "survivors": dict(survived)}
    if deid is not None:
        report["recall"] = detector_recall(docs, replaced, deid)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report as JSON (and Markdown examples with ``--examples``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="hard-forms corpus.jsonl")
    ap.add_argument("--realworld", type=Path, default=None, help="realworld-notes folder (filled, English)")
    ap.add_argument("--key", default=KEY, help="surrogate key (any; the figures hold for every key)")
    ap.add_argument("--no-model", action="store_true", help="recall of the rules alone")
    ap.add_argument("--no-recall", action="store_true", help="skip (a), the detector runs")
    ap.add_argument("--examples", type=int, default=0, help="print N before/after lines (Markdown)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    deid = (
        None
        if args.no_recall
        else Deidentifier(mode="placeholder", model=None if args.no_model else "default")
    )
    docs = hardforms(args.corpus)
    if args.examples:
        print(examples(docs, surrogates(docs, args.key), args.examples))
        return 0
    report: dict[str, object] = {"hardforms": evaluate(docs, args.key, deid)}
    if args.realworld is not None:
        report["realworld"] = evaluate(realworld(args.realworld), args.key, None)
    text = json.dumps(report, indent=1, sort_keys=True)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
