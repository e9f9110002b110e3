"""Hand-computed cases for phiscrub.evaluate.metrics (synthetic PHI only).

Token lists in the comments are what ``phiscrub.text.tokenize`` (phiscrub-word-v1) yields.
"""

from __future__ import annotations

import random

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError, LabelError, SpanOffsetError
from phiscrub.evaluate import PRF, EvaluationResult, entities, evaluate, token_labels
from phiscrub.labels import Granularity, fold
from phiscrub.text import TOKENIZER_NAME, tokenize

from ._builders import make_doc

APPROX = pytest.approx

# "Pt John Doe seen 03/12/2019 by Dr Alice Smith ."
# tokens: Pt John Doe seen 03 / 12 / 2019 by Dr Alice Smith .   (14 tokens)
NOTE = "Pt John Doe seen 03/12/2019 by Dr Alice Smith."
NOTE_GOLD = (("John Doe", "PATIENT"), ("03/12/2019", "DATE"), ("Alice Smith", "DOCTOR"))


def assert_prf(prf: PRF, p: float, r: float, f1: float, tp: int, fp: int, fn: int) -> None:
    assert (prf.tp, prf.fp, prf.fn) == (tp, fp, fn)
    assert prf.precision == APPROX(p)
    assert prf.recall == APPROX(r)
    assert prf.f1 == APPROX(f1)


# ---------------------------------------------------------------------------------------- PRF


@pytest.mark.parametrize(
    ("tp", "fp", "fn", "p", "r", "f1"),
    [
        (0, 0, 0, 1.0, 1.0, 1.0),  # nothing to find, nothing predicted: perfect by convention
        (0, 3, 0, 0.0, 0.0, 0.0),  # nothing to find, 3 predicted: recall 0/0 -> 0.0
        (0, 0, 2, 0.0, 0.0, 0.0),  # 2 to find, nothing predicted: precision 0/0 -> 0.0
        (2, 0, 2, 1.0, 0.5, 2 / 3),  # 2*1*0.5/1.5
        (2, 3, 0, 0.4, 1.0, 4 / 7),  # 2*0.4/1.4
        (3, 1, 1, 0.75, 0.75, 0.75),
    ],
)
def test_prf_from_counts_applies_zero_division_convention(
    tp: int, fp: int, fn: int, p: float, r: float, f1: float
) -> None:
    assert_prf(PRF.from_counts(tp, fp, fn), p, r, f1, tp, fp, fn)


# ------------------------------------------------------------------------------ token labels


def test_token_gets_label_of_span_overlapping_any_character() -> None:
    # "Johnson seen ." -> Johnson(0-7) seen .; a span over "John" (0-4) still labels "Johnson".
    doc = Document("t1", "Johnson seen.", (Span(0, 4, "PATIENT"),))
    assert token_labels(doc, "coarse") == ["NAME", None, None]


def test_token_overlapped_by_two_spans_takes_the_one_covering_more_of_it() -> None:
    # "ID JD12345 ok": token JD12345 is 3-10; PATIENT covers 2 chars (3-5), IDNUM 5 chars (5-10).
    doc = Document("t2", "ID JD12345 ok", (Span(3, 5, "PATIENT"), Span(5, 10, "IDNUM")))
    assert token_labels(doc, "coarse") == [None, "ID", None]


def test_token_overlap_tie_goes_to_earlier_span() -> None:
    # "ab12 x": token ab12 (0-4); both spans cover 2 chars and are 2 long; the earlier start wins.
    doc = Document("t3", "ab12 x", (Span(2, 4, "IDNUM"), Span(0, 2, "PATIENT")))
    assert token_labels(doc, "fine") == ["PATIENT", None]


def _reference_token_labels(doc: Document, granularity: Granularity) -> list[str | None]:
    """Brute force: every token against every span, same tie-break as documented."""
    out: list[str | None] = []
    for tok in tokenize(doc.text):
        best: tuple[int, int, int, str] | None = None
        for span in doc.spans:
            label = fold(span.label, granularity)
            overlap = min(tok.end, span.end) - max(tok.start, span.start)
            if label is None or overlap <= 0:
                continue
            key = (overlap, span.end - span.start, -span.start, label)
            if best is None or key > best:
                best = key
        out.append(None if best is None else best[3])
    return out


@pytest.mark.parametrize("seed", range(8))
def test_token_labels_match_brute_force_reference(seed: int) -> None:
    rng = random.Random(seed)
    words = ["Pt", "Zed", "Quill", "seen", "on", "07/04/2031", "MRN", "X99-123", ".", ",", "  "]
    text = " ".join(rng.choice(words) for _ in range(40))
    spans = []
    for _ in range(rng.randint(0, 15)):
        start = rng.randrange(len(text) - 1)
        end = rng.randint(start + 1, min(len(text), start + 12))
        spans.append(Span(start, end, rng.choice(["PATIENT", "DATE", "IDNUM", "CITY", "OTHER", "AGE"])))
    doc = Document(f"r{seed}", text, tuple(spans))
    for granularity in ("fine", "coarse", "phicon5"):
        assert token_labels(doc, granularity) == _reference_token_labels(doc, granularity)


def test_entities_strip_surrounding_whitespace_and_fold_labels() -> None:
    # " John Doe " at 2-12 strips to "John Doe" at 3-11.
    doc = Document("e1", "Pt  John Doe  seen", (Span(3, 13, "PATIENT"), Span(12, 14, "DATE")))
    assert doc.text[4:12] == "John Doe"
    # The all-space span (12-14) vanishes.
    assert entities(doc, "coarse") == {(4, 12, "NAME")}


# ------------------------------------------------------------------------ hand-computed cases


def test_perfect_match_scores_one_everywhere() -> None:
    gold = make_doc("d1", NOTE, *NOTE_GOLD)
    pred = make_doc("d1", NOTE, *NOTE_GOLD)
    res = evaluate([gold], [pred])
    # PHI tokens: John Doe (2) + 03 / 12 / 2019 (5) + Alice Smith (2) = 9; 3 entities.
    assert_prf(res.binary, 1, 1, 1, 9, 0, 0)
    assert_prf(res.token, 1, 1, 1, 9, 0, 0)
    assert_prf(res.entity, 1, 1, 1, 3, 0, 0)
    assert set(res.per_label) == {"DATE", "NAME"}
    name = res.per_label["NAME"]
    assert (name.gold_tokens, name.pred_tokens, name.gold_entities, name.pred_entities) == (4, 4, 2, 2)
    date = res.per_label["DATE"]
    assert (date.gold_tokens, date.pred_tokens, date.gold_entities, date.pred_entities) == (5, 5, 1, 1)
    for scores in res.per_label.values():
        assert scores.token.f1 == scores.entity.f1 == 1.0
        assert scores.binary_precision == scores.binary_recall == 1.0
    assert res.tokenizer == TOKENIZER_NAME
    assert res.granularity == "coarse"
    assert (res.n_docs, res.missing_pred_ids, res.extra_pred_ids) == (1, (), ())


def test_partial_overlap_halves_token_recall_and_zeroes_entity_f1() -> None:
    # tokens: John Doe was seen .   gold John Doe = NAME NAME; pred John = NAME only.
    text = "John Doe was seen."
    gold = make_doc("d1", text, ("John Doe", "PATIENT"))
    pred = make_doc("d1", text, ("John", "PATIENT"))
    res = evaluate([gold], [pred])
    # binary/token: tp 1 (John), fp 0, fn 1 (Doe) -> P 1, R 0.5, F1 2*0.5/1.5 = 2/3
    assert_prf(res.binary, 1.0, 0.5, 2 / 3, 1, 0, 1)
    assert_prf(res.token, 1.0, 0.5, 2 / 3, 1, 0, 1)
    # entity: (0,8,NAME) vs (0,4,NAME) -> tp 0, fp 1, fn 1 -> 0 everywhere
    assert_prf(res.entity, 0, 0, 0, 0, 1, 1)
    assert res.per_label["NAME"].binary_recall == 0.5
    assert res.per_label["NAME"].binary_precision == 1.0


def test_label_mismatch_is_binary_hit_but_token_and_entity_miss() -> None:
    # tokens: Seen on 2019 - 03 - 12 .   the date is 5 tokens; predicted as IDNUM (coarse ID).
    text = "Seen on 2019-03-12."
    gold = make_doc("d1", text, ("2019-03-12", "DATE"))
    pred = make_doc("d1", text, ("2019-03-12", "IDNUM"))
    res = evaluate([gold], [pred])
    assert_prf(res.binary, 1, 1, 1, 5, 0, 0)
    # token: 5 ID tokens are FP, 5 DATE tokens are FN, tp 0
    assert_prf(res.token, 0, 0, 0, 0, 5, 5)
    assert_prf(res.entity, 0, 0, 0, 0, 1, 1)
    date, ident = res.per_label["DATE"], res.per_label["ID"]
    # DATE: all 5 gold tokens predicted as some PHI -> binary recall 1; token recall 0.
    assert date.binary_recall == 1.0
    assert_prf(date.token, 0, 0, 0, 0, 0, 5)
    assert (date.gold_tokens, date.pred_tokens, date.gold_entities, date.pred_entities) == (5, 0, 1, 0)
    # ID: all 5 predicted tokens are gold PHI -> binary precision 1; token precision 0.
    assert ident.binary_precision == 1.0
    assert_prf(ident.token, 0, 0, 0, 0, 5, 0)
    assert (ident.gold_tokens, ident.pred_tokens, ident.gold_entities, ident.pred_entities) == (0, 5, 0, 1)


def test_extra_false_positive_lowers_precision_only() -> None:
    # tokens: John Doe called 555 - 0100 .   gold John Doe; pred John Doe + 555-0100 (3 tokens).
    text = "John Doe called 555-0100."
    gold = make_doc("d1", text, ("John Doe", "PATIENT"))
    pred = make_doc("d1", text, ("John Doe", "PATIENT"), ("555-0100", "PHONE"))
    res = evaluate([gold], [pred])
    # binary/token: tp 2, fp 3 -> P 2/5 = 0.4, R 1, F1 2*0.4/1.4 = 4/7
    assert_prf(res.binary, 0.4, 1.0, 4 / 7, 2, 3, 0)
    assert_prf(res.token, 0.4, 1.0, 4 / 7, 2, 3, 0)
    # entity: tp 1, fp 1 -> P 0.5, R 1, F1 2/3
    assert_prf(res.entity, 0.5, 1.0, 2 / 3, 1, 1, 0)
    contact = res.per_label["CONTACT"]
    # Nothing to find for CONTACT but 3 predicted: recall 0/0 -> 0.0 (not vacuous), precision 0/3.
    assert_prf(contact.token, 0, 0, 0, 0, 3, 0)
    assert contact.binary_precision == 0.0
    assert contact.binary_recall == 0.0
    assert_prf(res.per_label["NAME"].token, 1, 1, 1, 2, 0, 0)


@pytest.mark.parametrize(
    ("granularity", "token_tp", "token_fp", "token_fn", "entity_f1", "labels"),
    [
        # coarse: PATIENT and DOCTOR both fold to NAME -> the 2 tokens and the entity match.
        ("coarse", 2, 0, 0, 1.0, {"NAME"}),
        ("phicon5", 2, 0, 0, 1.0, {"NAME"}),
        # fine: PATIENT != DOCTOR -> 2 FP (DOCTOR) + 2 FN (PATIENT), entity 0.
        ("fine", 0, 2, 2, 0.0, {"DOCTOR", "PATIENT"}),
    ],
)
def test_granularity_folding_decides_whether_patient_and_doctor_match(
    granularity: str, token_tp: int, token_fp: int, token_fn: int, entity_f1: float, labels: set[str]
) -> None:
    text = "Seen by Alice Smith today."
    gold = make_doc("d1", text, ("Alice Smith", "PATIENT"))
    pred = make_doc("d1", text, ("Alice Smith", "DOCTOR"))
    res = evaluate([gold], [pred], granularity=granularity)  # type: ignore[arg-type]
    assert_prf(res.binary, 1, 1, 1, 2, 0, 0)  # PHI either way
    assert (res.token.tp, res.token.fp, res.token.fn) == (token_tp, token_fp, token_fn)
    assert res.entity.f1 == entity_f1
    assert set(res.per_label) == labels
    assert res.granularity == granularity


def test_other_label_is_dropped_from_both_sides() -> None:
    # tokens: John Doe , male , seen .   "male" is OTHER (e.g. MEDDOCAN sex) -> not PHI.
    text = "John Doe, male, seen."
    gold = make_doc("d1", text, ("John Doe", "PATIENT"), ("male", "OTHER"))
    pred = make_doc("d1", "John Doe, male, seen.", ("John Doe", "PATIENT"))
    res = evaluate([gold], [pred])
    assert_prf(res.binary, 1, 1, 1, 2, 0, 0)
    assert_prf(res.entity, 1, 1, 1, 1, 0, 0)
    assert set(res.per_label) == {"NAME"}
    # And a predicted OTHER against nothing is no false positive.
    res2 = evaluate([make_doc("d1", text)], [make_doc("d1", text, ("male", "OTHER"))])
    assert_prf(res2.binary, 1, 1, 1, 0, 0, 0)
    assert res2.per_label == {}


@pytest.mark.parametrize(("granularity", "recall"), [("coarse", 0.0), ("phicon5", 1.0)])
def test_phicon5_drops_age(granularity: str, recall: float) -> None:
    # tokens: Age 72 .  gold AGE on "72"; nothing predicted. AGE is not PHI under phicon5.
    text = "Age 72."
    res = evaluate([make_doc("d1", text, ("72", "AGE"))], [make_doc("d1", text)], granularity)  # type: ignore[arg-type]
    assert res.binary.recall == recall


def test_missing_prediction_counts_as_no_spans_and_is_reported() -> None:
    # d1: "John Doe was seen." gold John Doe, predicted exactly -> tp 2 tokens, 1 entity.
    # d2: "Jane Roe called." gold Jane Roe, no prediction -> fn 2 tokens, 1 entity.
    d1 = make_doc("d1", "John Doe was seen.", ("John Doe", "PATIENT"))
    d2 = make_doc("d2", "Jane Roe called.", ("Jane Roe", "PATIENT"))
    res = evaluate([d1, d2], [d1])
    assert res.missing_pred_ids == ("d2",)
    assert res.extra_pred_ids == ()
    assert res.n_docs == 2
    # tp 2, fn 2 -> P 1, R 0.5, F1 2/3
    assert_prf(res.binary, 1, 0.5, 2 / 3, 2, 0, 2)
    assert_prf(res.token, 1, 0.5, 2 / 3, 2, 0, 2)
    assert_prf(res.entity, 1, 0.5, 2 / 3, 1, 0, 1)


def test_prediction_without_gold_counts_as_false_positives_and_is_reported() -> None:
    d1 = make_doc("d1", "John Doe was seen.", ("John Doe", "PATIENT"))
    d3 = make_doc("d3", "Call 555-0100 now.", ("555-0100", "PHONE"))
    res = evaluate([d1], [d1, d3])
    assert res.extra_pred_ids == ("d3",)
    assert res.n_docs == 2
    # d1 tp 2; d3: 555 - 0100 = 3 FP tokens -> P 2/5, R 1, F1 4/7; entity tp 1, fp 1.
    assert_prf(res.binary, 0.4, 1.0, 4 / 7, 2, 3, 0)
    assert_prf(res.entity, 0.5, 1.0, 2 / 3, 1, 1, 0)


def test_empty_corpora_score_one_by_convention() -> None:
    res = evaluate([], [])
    assert res.n_docs == 0
    for prf in (res.binary, res.token, res.entity):
        assert_prf(prf, 1, 1, 1, 0, 0, 0)
    assert res.per_label == {}


def test_documents_without_phi_on_either_side_score_one() -> None:
    doc = make_doc("d1", "Patient stable, afebrile.")
    res = evaluate([doc], [doc])
    assert_prf(res.token, 1, 1, 1, 0, 0, 0)


def test_text_mismatch_raises_input_format_error_naming_the_doc_only() -> None:
    gold = make_doc("note-7", "John Doe was seen.", ("John Doe", "PATIENT"))
    pred = make_doc("note-7", "John Doe was seen today.", ("John Doe", "PATIENT"))
    with pytest.raises(InputFormatError) as info:
        evaluate([gold], [pred])
    assert info.value.doc_id == "note-7"
    assert "note-7" in str(info.value)
    assert "John" not in str(info.value)  # no note text in errors


def test_multi_doc_scores_are_micro_averaged_not_macro() -> None:
    # dA: "John Doe was seen." gold John Doe, predicted exactly: 1 entity tp, 2 token tp -> F1 1.0
    # dB: "Ann Lee, Bob Ray and Cy Fox met." gold 3 names (6 tokens), nothing predicted -> F1 0.0
    # macro over docs would be (1.0 + 0.0) / 2 = 0.5.
    # micro entity: tp 1, fn 3 -> P 1, R 1/4, F1 2*0.25/1.25 = 0.4
    # micro token:  tp 2, fn 6 -> P 1, R 2/8, F1 0.4
    da = make_doc("dA", "John Doe was seen.", ("John Doe", "PATIENT"))
    text_b = "Ann Lee, Bob Ray and Cy Fox met."
    db_gold = make_doc("dB", text_b, ("Ann Lee", "PATIENT"), ("Bob Ray", "PATIENT"), ("Cy Fox", "DOCTOR"))
    db_pred = make_doc("dB", text_b)
    res = evaluate([da, db_gold], [db_pred, da])  # order of predictions does not matter
    assert_prf(res.entity, 1.0, 0.25, 0.4, 1, 0, 3)
    assert_prf(res.token, 1.0, 0.25, 0.4, 2, 0, 6)
    assert_prf(res.binary, 1.0, 0.25, 0.4, 2, 0, 6)
    assert res.per_label["NAME"].gold_entities == 4


def test_predicted_span_with_surrounding_whitespace_still_matches_entity() -> None:
    text = "Pt  John Doe  seen."
    gold = Document("d1", text, (Span(4, 12, "PATIENT"),))
    pred = Document("d1", text, (Span(3, 13, "PATIENT"),))
    assert gold.text[4:12] == "John Doe"
    res = evaluate([gold], [pred])
    assert_prf(res.entity, 1, 1, 1, 1, 0, 0)


def test_duplicate_identical_spans_count_once() -> None:
    text = "John Doe was seen."
    gold = make_doc("d1", text, ("John Doe", "PATIENT"))
    pred = Document("d1", text, (Span(0, 8, "PATIENT"), Span(0, 8, "PATIENT")))
    assert_prf(evaluate([gold], [pred]).entity, 1, 1, 1, 1, 0, 0)


@pytest.mark.parametrize("side", ["gold", "pred"])
def test_duplicate_doc_ids_on_one_side_raise(side: str) -> None:
    doc = make_doc("dup-1", "John Doe was seen.", ("John Doe", "PATIENT"))
    gold, pred = ([doc, doc], [doc]) if side == "gold" else ([doc], [doc, doc])
    with pytest.raises(InputFormatError, match="dup-1"):
        evaluate(gold, pred)


def test_span_past_the_text_raises_span_offset_error() -> None:
    gold = Document("d1", "short", (Span(0, 50, "PATIENT"),))
    with pytest.raises(SpanOffsetError):
        evaluate([gold], [])


def test_unknown_granularity_raises_config_error_even_for_empty_input() -> None:
    with pytest.raises(ConfigError):
        evaluate([], [], granularity="medium")  # type: ignore[arg-type]


def test_unknown_label_raises_label_error() -> None:
    gold = Document("d1", "John Doe", (Span(0, 4, "SPACESHIP"),))
    with pytest.raises(LabelError):
        evaluate([gold], [])


@pytest.mark.parametrize("seed", range(6))
def test_counts_are_consistent_on_random_corpora(seed: int) -> None:
    # Invariants that hold whatever the spans: the token counts add up to the gold/pred supports,
    # a label-correct token is also a binary hit, and evaluating gold against itself is perfect.
    rng = random.Random(seed)
    labels = ["PATIENT", "DOCTOR", "DATE", "IDNUM", "CITY", "PHONE", "AGE", "OTHER"]
    gold_docs, pred_docs = [], []
    for i in range(5):
        text = " ".join(rng.choice(["Zed", "Quill", "seen", "12/03/2040", "ZX-991", ","]) for _ in range(30))

        def rand_spans(text: str) -> tuple[Span, ...]:
            out = []
            for _ in range(rng.randint(0, 6)):
                start = rng.randrange(len(text) - 1)
                out.append(
                    Span(start, rng.randint(start + 1, min(len(text), start + 15)), rng.choice(labels))
                )
            return tuple(out)

        gold_docs.append(Document(f"g{i}", text, rand_spans(text)))
        pred_docs.append(Document(f"g{i}", text, rand_spans(text)))
    res: EvaluationResult = evaluate(gold_docs, pred_docs, "coarse")
    gold_tokens = sum(s.gold_tokens for s in res.per_label.values())
    pred_tokens = sum(s.pred_tokens for s in res.per_label.values())
    assert res.token.tp + res.token.fn == gold_tokens == res.binary.tp + res.binary.fn
    assert res.token.tp + res.token.fp == pred_tokens == res.binary.tp + res.binary.fp
    assert res.token.tp <= res.binary.tp
    assert res.token.tp == sum(s.token.tp for s in res.per_label.values())
    assert res.entity.tp + res.entity.fn == sum(s.gold_entities for s in res.per_label.values())
    for prf in (res.binary, res.token, res.entity):
        assert 0.0 <= prf.precision <= 1.0 and 0.0 <= prf.recall <= 1.0 and 0.0 <= prf.f1 <= 1.0
    self_res = evaluate(gold_docs, gold_docs, "coarse")
    for prf in (self_res.binary, self_res.token, self_res.entity):
        assert prf.f1 == 1.0 and prf.fp == prf.fn == 0


def test_result_to_dict_is_plain_data() -> None:
    gold = make_doc("d1", NOTE, *NOTE_GOLD)
    res = evaluate([gold], [])
    d = res.to_dict()
    assert d["missing_pred_ids"] == ["d1"]
    assert d["tokenizer"] == TOKENIZER_NAME
    assert d["binary"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "tp": 0, "fp": 0, "fn": 9}
    assert d["per_label"]["NAME"]["gold_tokens"] == 4
    assert d["per_label"]["NAME"]["token"]["fn"] == 4
