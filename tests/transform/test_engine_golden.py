"""Golden outputs of the surrogate engine, byte for byte: keyed redaction and seeded filling.

Recorded before the engine was split into :mod:`phiscrub.transform.surrogate` (issue 13), so a move
that changes what redaction or filling writes fails here. Inputs come from the repository only:

* keyed: ``build_transformer("surrogate")`` on the gold spans of ``examples/gold`` (three scopes and
  options), and :class:`SurrogateGenerator` on a list of name, contact, place and date forms under
  every label;
* seeded: ``fill_text`` on placeholder versions of the gold notes (every gold span replaced by
  ``[LABEL]``) in each fill language and vocabulary, and ``draw_surrogate`` after typical contexts.

Regenerate after an intended change with ``PHISCRUB_UPDATE_GOLDEN=1 pytest tests/transform`` and say
why in the commit.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from phiscrub.document import Document
from phiscrub.io.brat import BratReader
from phiscrub.transform import build_transformer
from phiscrub.transform.fill import draw_surrogate, fill_text
from phiscrub.transform.surrogates import SurrogateGenerator

GOLDEN = Path(__file__).parent / "golden" / "engine.json"
GOLD = Path(__file__).resolve().parents[2] / "examples" / "gold"
UPDATE = os.environ.get("PHISCRUB_UPDATE_GOLDEN") == "1"

FORMS = [
    "John Smith", "SMITH, J.", "J. Smith", "Smith, John", "jsmith2", "John Smith's", "Dr. Jane O'Neil-Parker Jr.",
    "de la Cruz", "JS", "张伟", "José García López", "MRN-00482913", "(617) 555-0123", "+44 20 7946 0958",
    "j.smith@lakeview-clinic.org", "https://www.mychart.example-health.org/patients/login?id=123", "192.168.0.12",
    "fe80::1ff:fe23:4567:890a", "12 Elm Street", "45 N. Main St., Apt 3", "C/ Mayor, 12 3º", "北京市朝阳区建国路88号",
    "Room 12B", "03/12/2019", "March 3rd, 2019", "12 de març de 2019", "Spring 2019", "Tuesday", "92", "45",
    "MGH", "MA", "MICU", "02139", "123-45-6789", "Lakeview General Hospital", "Springfield", "nurse",
]  # fmt: skip
LABELS = [
    "PATIENT", "DOCTOR", "USERNAME", "NAME", "ID", "CONTACT", "LOCATION", "DATE", "AGE", "HOSPITAL", "STREET",
    "PHONE", "EMAIL", "URL", "IPADDRESS", "ZIP", "SSN", "ROOM", "CITY", "STATE", "DEPARTMENT", "PROFESSION",
]  # fmt: skip
CONTEXTS = [("", ""), ("Mr. ", ""), ("DOB: ", ""), ("since ", ""), ("daughter ", ""), ("per ", ""),
            ("", " months old"), ("SEEN BY ", " ON WARD"), ("cx from ", " ngtd"), ("CABG ", "")]  # fmt: skip


def _gold_docs() -> list[Document]:
    return sorted(BratReader().read(GOLD), key=lambda d: d.id)


def _placeholder_note(doc: Document) -> str:
    """The gold note with every gold span written as its ``[LABEL]`` placeholder."""
    out, pos = [], 0
    for span in sorted(doc.spans, key=lambda s: s.start):
        if span.start >= pos:
            out += [doc.text[pos : span.start], f"[{span.label}]"]
            pos = span.end
    return "".join(out) + doc.text[pos:]


def _keyed() -> dict[str, Any]:
    docs = _gold_docs()
    configs: dict[str, dict[str, Any]] = {
        "patient": {"key": "golden-key"},
        "global": {"key": "golden-key", "scope": "global", "age_perturb": 3, "date_shift_range": (7, 70)},
        "es-keep": {"key": b"other-key", "lang": "es", "age_over_89": "keep"},
    }
    out: dict[str, Any] = {}
    for name, options in configs.items():
        transformer = build_transformer("surrogate", "fine", **options)
        out[f"redact:{name}"] = {
            d.id: transformer.apply(d, d.spans, patient_id=d.id.split("-")[0]).text for d in docs
        }
    gen = SurrogateGenerator(b"golden-key", lang=None)
    out["forms"] = [
        gen.surrogate(
            label, form, patient_id="p1" if k % 2 else None, doc_id="d1", lang="es" if k % 5 == 0 else None
        )
        for k, (label, form) in enumerate((label, form) for label in LABELS for form in FORMS)
    ]
    return out


def _seeded() -> dict[str, Any]:
    notes = {d.id: _placeholder_note(d) for d in _gold_docs()}
    out: dict[str, Any] = {}
    for lang in ("en", "es", "ca", "zh", "auto"):
        for vocab in ("all", "train", "test"):
            for doc_id, note in notes.items():
                text, spans = fill_text(note, random.Random(f"{lang}:{vocab}:{doc_id}"), lang, vocab)
                out[f"fill:{lang}:{vocab}:{doc_id}"] = [text, [[s.start, s.end, s.label] for s in spans]]
    draws = []
    for label in [*LABELS, "MEDICALRECORD", "HEALTHPLAN", "VEHICLE", "DEVICE", "RELATIVE", "FAX", "COUNTRY"]:
        for lang in ("en", "es", "ca", "zh"):
            rng = random.Random(f"{label}:{lang}")
            draws += [draw_surrogate(label, rng, lang, before=b, after=a) for b, a in CONTEXTS]
    out["draws"] = draws
    return out


@pytest.mark.parametrize("part", ["keyed", "seeded"])
def test_engine_output_matches_golden(part: str) -> None:
    actual = _keyed() if part == "keyed" else _seeded()
    recorded: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
    if UPDATE:
        recorded[part] = actual
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(
            json.dumps(recorded, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
    expected = recorded[part]
    assert sorted(actual) == sorted(expected)
    for key, value in expected.items():
        assert actual[key] == value, key
