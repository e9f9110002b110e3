"""The selection stage (issue 26, item 3): one ordered list of named steps, each ``(doc, spans, ctx)
-> spans``, run by :func:`phiscrub.select.select_spans` for :meth:`Deidentifier.select`."""

from __future__ import annotations

from collections import Counter

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.select import STEPS, SelectContext, select_spans, step_names

TEXT = "Seen by Dr. Zoltan Quenwick in Boston on 03/12/2019; GCS 14/15; Quenwick to call back. Texas."


def test_the_steps_and_their_order() -> None:
    assert step_names() == ["threshold", "policy", "propagate", "resolve", "guard", "extend", "site"]
    assert Deidentifier(model=None).steps == step_names()


def test_deidentifier_select_is_the_pipeline_with_the_note_s_context() -> None:
    deid = Deidentifier(model=None)
    doc = Document("n1", TEXT)
    (proposals,) = deid.propose_many([doc])
    ctx = SelectContext(policy="safe-harbor", lang="en", threshold=deid.threshold)
    assert select_spans(doc, proposals, ctx) == deid.select(doc, proposals)
    found = {TEXT[s.start : s.end] for s in deid.select(doc, proposals)}
    assert {"Zoltan Quenwick", "Boston", "03/12/2019", "Quenwick"} <= found  # "Quenwick" alone: propagated
    assert "14/15" not in found and "Texas" not in found  # the guard's score, the policy's state


def test_each_step_reads_its_switch_from_the_context() -> None:
    doc = Document("n1", "GCS 14/15 seen by Dr. Zoltan Quenwick; Quenwick agrees")
    spans = [
        Span(4, 9, "DATE", 0.9, "model"),
        Span(22, 37, "DOCTOR", 0.9, "model"),
        Span(39, 47, "DOCTOR", 0.05, "model"),
    ]
    counts: Counter[str] = Counter()
    off = SelectContext(policy="i2b2", lang="en", threshold=0.0, propagate=False, guard=False)
    assert select_spans(doc, spans, off) == sorted(spans)
    on = SelectContext(policy="i2b2", lang="en", threshold=0.1, guard_counts=counts)
    kept = select_spans(doc, spans, on)
    assert [doc.text[s.start : s.end] for s in kept] == [
        "Zoltan Quenwick",
        "Quenwick",
    ]  # threshold, propagate
    assert counts == Counter({"ratio": 1})  # the guard dropped the score, counted without text
    # the guard is for English notes only
    german = SelectContext(policy="i2b2", lang="de", threshold=0.0, propagate=False)
    assert doc.text[4:9] in [doc.text[s.start : s.end] for s in select_spans(doc, spans, german)]


def test_a_custom_list_of_steps_runs_in_its_order() -> None:
    doc = Document("n1", "Seen by Dr. Alan Grant")
    spans = [Span(12, 22, "DOCTOR", 0.9, "model")]
    seen: list[str] = []

    def spy(name: str):  # type: ignore[no-untyped-def]
        def step(d: Document, s: list[Span], ctx: SelectContext) -> list[Span]:
            seen.append(name)
            return s

        return step

    steps = [(name, spy(name)) for name, _ in STEPS[::-1]]
    ctx = SelectContext(policy="safe-harbor", lang="en", threshold=0.1)
    assert select_spans(doc, spans, ctx, steps) == spans
    assert seen == step_names()[::-1]
