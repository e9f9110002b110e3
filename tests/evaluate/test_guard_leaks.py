"""Guard leaks: gold PHI tokens the pipeline found with the clinical-context guard off and lost with it on."""

from __future__ import annotations

from collections import Counter

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.guard_leaks import guard_leaks, predict_with_and_without_guard

from ._builders import make_doc

# A made-up note: "MICU" is the note's unit (the guard drops it as a care unit) but the gold marks it
# as a hospital, so the guard loses one gold token; "80s" is a vital-sign decade the guard rightly
# drops (not PHI); "Foley" is a name the guard keeps; the date is gold but no detector proposes it.
_TEXT = "Transferred to MICU. HR 80s. Seen by Dr. Foley on 3/14/2019."


class _Fixed:
    """A detector proposing fixed surfaces where a note has them (never the date)."""

    name = "fixed"

    def detect(self, doc: Document) -> list[Span]:
        spans = [("MICU", "HOSPITAL"), ("80s", "AGE"), ("Foley", "DOCTOR")]
        found = [(doc.text.find(s), s, lab) for s, lab in spans]
        return [Span(i, i + len(s), lab, 0.9, "fixed") for i, s, lab in found if i >= 0]


def _gold() -> list[Document]:
    note = make_doc("n1", _TEXT, ("MICU", "HOSPITAL"), ("Foley", "DOCTOR"), ("3/14/2019", "DATE"))
    plain = make_doc("n2", "No PHI in this note, HR 80s.")
    return [note, plain]


def _deid(guard: bool = True) -> Deidentifier:
    return Deidentifier(model=None, detectors=[_Fixed()], policy="i2b2", propagate=False, guard=guard)


def test_guard_leaks_counts_gold_tokens_found_without_the_guard_and_lost_with_it() -> None:
    gold = _gold()
    deid = _deid()
    guarded, unguarded = predict_with_and_without_guard(deid, gold, batch_size=1)
    assert deid.config.guard is True  # unchanged by the unguarded selection
    assert deid.guard_counts == Counter({"care-unit": 1, "decade": 2})  # counted once, guard on only
    assert [d.id for d in guarded] == ["n1", "n2"]
    assert [_TEXT[s.start : s.end] for s in guarded[0].spans] == ["Foley"]
    assert [_TEXT[s.start : s.end] for s in unguarded[0].spans] == ["MICU", "80s", "Foley"]

    report = guard_leaks(gold, guarded, unguarded)
    location, name, date = (report.per_label[k] for k in ("LOCATION", "NAME", "DATE"))
    assert (location.gold_tokens, location.found_without_guard, location.leaked) == (1, 1, 1)
    assert location.rate == 1.0
    assert (name.gold_tokens, name.found_without_guard, name.leaked) == (1, 1, 0)
    assert name.rate == 0.0
    # The date is missed by the detectors, not by the guard: gold tokens, never a leak.
    assert date.gold_tokens > 0 and date.found_without_guard == 0 and date.leaked == 0
    assert report.total.leaked == 1
    assert report.total.gold_tokens == 2 + date.gold_tokens
    assert report.total.rate == pytest.approx(1 / report.total.gold_tokens)
    assert report.total.rate_of_found == 0.5
    # "80s" twice (n1, n2) and "MICU": removed; only the two decades are not PHI.
    assert (report.removed_tokens, report.removed_non_phi) == (3, 2)
    assert report.to_dict()["per_label"]["LOCATION"]["rate"] == 1.0


def test_guard_leaks_per_fine_label() -> None:
    gold = _gold()
    guarded, unguarded = predict_with_and_without_guard(_deid(), gold)
    fine = guard_leaks(gold, guarded, unguarded, "fine")
    assert fine.per_label["HOSPITAL"].leaked == 1
    assert fine.per_label["DOCTOR"].leaked == 0
    assert fine.granularity == "fine"


def test_no_guard_no_leak() -> None:
    gold = _gold()
    guarded, unguarded = predict_with_and_without_guard(_deid(guard=False), gold)
    assert guarded == unguarded
    report = guard_leaks(gold, guarded, unguarded)
    assert report.total.leaked == 0 and report.removed_tokens == 0


def test_default_rules_pipeline_finds_and_keeps_a_month_day_date() -> None:
    # The real rules (no model): a date next to a lab value is found and survives the guard.
    text = "WBC 13.1 (down from 16.0 10/1). Seen by Dr. Alan Grant on 03/12/2019. GCS 14/15."
    gold = [make_doc("r1", text, ("10/1", "DATE"), ("Alan Grant", "DOCTOR"), ("03/12/2019", "DATE"))]
    guarded, unguarded = predict_with_and_without_guard(Deidentifier(model=None, policy="i2b2"), gold)
    report = guard_leaks(gold, guarded, unguarded)
    assert report.total.leaked == 0
    assert report.per_label["DATE"].found_without_guard == report.per_label["DATE"].gold_tokens


def test_paired_texts_must_match() -> None:
    gold = _gold()
    other = [Document("n1", _TEXT + " changed")]
    with pytest.raises(InputFormatError):
        guard_leaks(gold, other, other)
