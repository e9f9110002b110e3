from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.augment import AUGMENT_METHODS, DagaAugmenter, build_augmenter
from phiscrub.augment.linearize import (
    TaggedSentence,
    delinearize,
    linearize,
    render,
    tagged_sentences,
)
from phiscrub.cli.augment import augment
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, MalformedSampleError
from phiscrub.io import JsonlWriter, read_corpus
from phiscrub.labels import fold
from phiscrub.text import sentences

# Synthetic notes; every span covers whole tokens so that the round trip is exact.
GOLD = [
    ("g1", "Seen by Dr. Ann Lee on 03/04/2020, stable.\nCall 555-303-9120 or  fax (555) 404-1234.",
     [("Ann Lee", "DOCTOR"), ("03/04/2020", "DATE"), ("555-303-9120", "PHONE"), ("(555) 404-1234", "FAX")]),
    ("g2", "Mr. Quill, 67 y/o, lives in Marlow Heights. No PHI in this sentence. MRN: 0042-17.",
     [("Quill", "PATIENT"), ("67", "AGE"), ("Marlow Heights", "CITY"), ("0042-17", "MEDICALRECORD")]),
    ("g3", "Paciente Wilhelmina Dorrance-Soto ingresó el 5 de mayo de 2021 en Hospital Fernhill.",
     [("Wilhelmina Dorrance-Soto", "PATIENT"), ("5 de mayo de 2021", "DATE"), ("Hospital Fernhill", "HOSPITAL")]),
    ("g4", "Ann Lee Bo Kim met on 1/2/21.",  # two adjacent entities of one type stay two
     [("Ann Lee", "PATIENT"), ("Bo Kim", "PATIENT"), ("1/2/21", "DATE")]),
]  # fmt: skip

NAMES = ["Ann Lee", "Bo Kim", "Cy Dunn", "Di Roe", "Ed Fox"]
DATES = ["03/04/2020", "5/6/21", "July 7, 2019", "1/2/2022", "12/12/2012"]
PHI = NAMES + DATES + [s for _, _, phi in GOLD for s, _ in phi]


def _doc(doc_id: str, text: str, phi: list[tuple[str, str]]) -> Document:
    spans, pos = [], 0
    for surface, label in phi:
        start = text.index(surface, pos)
        spans.append(Span(start, start + len(surface), label))
        pos = start + len(surface)
    return Document(doc_id, text, tuple(spans))


def _synthetic(n: int = 30) -> list[Document]:
    docs = []
    for i in range(n):
        name, date = NAMES[i % 5], DATES[(i * 3) % 5]
        if i % 2:
            docs.append(
                _doc(f"s{i}", f"Seen by Dr. {name} on {date}, stable.", [(name, "DOCTOR"), (date, "DATE")])
            )
        else:
            docs.append(_doc(f"s{i}", f"On {date} {name} was seen.", [(date, "DATE"), (name, "DOCTOR")]))
    return docs


def _tiny(**kwargs: object) -> DagaAugmenter:
    params: dict[str, object] = {"embed_dim": 32, "hidden": 64, "epochs": 30, "lr": 1e-2, "batch_size": 8}
    params.update(kwargs)
    return DagaAugmenter(**params)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def fitted() -> DagaAugmenter:
    return _tiny().fit(_synthetic(), seed=1)


def _check_invariant(doc: Document) -> None:
    doc.validate()
    for span in doc.spans:
        surface = doc.text[span.start : span.end]
        assert surface.strip() == surface and surface


def test_linearize_puts_a_tag_token_before_every_entity_word_and_marks_glued_words() -> None:
    doc = _doc("x", "Seen by Dr. Ann Lee on 3/4.", [("Ann Lee", "DOCTOR"), ("3/4", "DATE")])
    [[sent]] = tagged_sentences([doc], "coarse")
    assert linearize(sent) == [
        "Seen", "by", "Dr", "##.", "<B-NAME>", "Ann", "<I-NAME>", "Lee", "on",
        "<B-DATE>", "3", "<I-DATE>", "##/", "<I-DATE>", "##4", "##.",
    ]  # fmt: skip
    [[fine]] = tagged_sentences([doc], "fine")
    assert linearize(fine)[4] == "<B-DOCTOR>"


@pytest.mark.parametrize("granularity", ["fine", "coarse", "phicon5"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_round_trip_on_gold_docs_reproduces_text_and_spans_modulo_spacing(
    granularity: str, lowercase: bool
) -> None:
    docs = [_doc(i, t, p) for i, t, p in GOLD]
    per_doc = tagged_sentences(docs, granularity, lowercase)  # type: ignore[arg-type]
    for doc, sents in zip(docs, per_doc):
        ranges = sentences(doc.text)
        assert len(sents) == len(ranges)
        for sent, (lo, hi) in zip(sents, ranges):
            assert delinearize(linearize(sent)) == sent
            text, spans = render(sent)
            source = re.sub(r"\s+", " ", doc.text[lo:hi])
            assert text == (source.lower() if lowercase else source)
            gold = [
                (re.sub(r"\s+", " ", doc.surface(s)), fold(s.label, granularity))  # type: ignore[arg-type]
                for s in doc.spans
                if lo <= s.start < hi and fold(s.label, granularity) is not None  # type: ignore[arg-type]
            ]
            got = [(text[s.start : s.end], s.label) for s in spans]
            assert got == [(g.lower() if lowercase else g, lab) for g, lab in gold]


def test_an_entity_cut_by_a_sentence_boundary_restarts_with_b() -> None:
    doc = Document("x", "Dr. Ann\nLee came.", (Span(4, 11, "DOCTOR"),))
    [sents] = tagged_sentences([doc])
    assert [s.tags for s in sents] == [("O", "O", "B-NAME"), ("B-NAME", "O", "O")]


@pytest.mark.parametrize(
    ("tokens", "reason"),
    [
        (["seen", "by", "<B-NAME>"], "tag at the end"),
        (["seen", "<I-NAME>", "Lee"], "I- tag does not continue"),
        (["<I-NAME>", "Lee", "came"], "I- tag does not continue"),
        (["<B-DATE>", "3", "<I-NAME>", "Lee"], "I- tag does not continue"),
        (["seen", "<B-NAME>", "<I-NAME>", "Lee"], "tag followed by a tag"),
        (["<B-NAME>", "<B-NAME>", "Lee"], "tag followed by a tag"),
        (["seen", "<eos>", "by"], "special token"),
        ([], "no word"),
        (["<B-NAME>"], "tag at the end"),
    ],
)
def test_malformed_sequences_are_rejected(tokens: list[str], reason: str) -> None:
    with pytest.raises(MalformedSampleError, match=reason):
        delinearize(tokens)


@pytest.mark.parametrize(
    ("tokens", "text", "entities"),
    [
        (
            ["seen", "by", "<B-NAME>", "Ann", "<I-NAME>", "Lee", "##."],
            "seen by Ann Lee.",
            [("Ann Lee", "NAME")],
        ),
        (["<B-NAME>", "Ann", "<B-NAME>", "Bo"], "Ann Bo", [("Ann", "NAME"), ("Bo", "NAME")]),
        (["on", "<B-DATE>", "3", "<I-DATE>", "##/", "<I-DATE>", "##4"], "on 3/4", [("3/4", "DATE")]),
        (["##(", "<B-ID>", "##12", "##)"], "(12)", [("12", "ID")]),  # a glued first word starts the line
        (["plain", "words"], "plain words", []),
    ],
)
def test_well_formed_sequences_render_to_text_and_spans(
    tokens: list[str], text: str, entities: list[tuple[str, str]]
) -> None:
    got_text, spans = render(delinearize(tokens))
    assert got_text == text
    assert [(got_text[s.start : s.end], s.label) for s in spans] == entities


def test_render_rejects_tags_that_are_not_bio() -> None:
    with pytest.raises(MalformedSampleError):
        render(TaggedSentence(("a", "b"), (False, False), ("O", "I-NAME")))


def test_tiny_lm_generates_mostly_well_formed_sentences_with_valid_spans(fitted: DagaAugmenter) -> None:
    docs = fitted.generate(60, seed=2)
    report = fitted.last_report_
    assert report is not None and report.generated == 60
    assert (
        report.kept + report.dropped_malformed + report.dropped_duplicate_of_train + report.dropped_repeat
        == 60
    )
    assert report.dropped_malformed <= 12
    assert report.kept_with_phi >= 1 and report.entities["NAME"] >= 1 and report.entities["DATE"] >= 1
    train = {d.text for d in _synthetic()}
    seen = set()
    for doc in docs:
        assert doc.id.startswith("daga-") and doc.metadata["method"] == "daga"
        _check_invariant(doc)
        assert {s.label for s in doc.spans} <= {"NAME", "DATE"}
        for line in doc.text.split("\n"):
            assert line not in train and line not in seen  # no copies of training sentences, no repeats
            seen.add(line)
    assert sum(len(d.text.split("\n")) for d in docs) == report.kept == len(seen)
    assert sum(len(d.spans) for d in docs) == sum(report.entities.values())


def test_generation_is_deterministic_by_seed(fitted: DagaAugmenter) -> None:
    again = _tiny().fit(_synthetic(), seed=1)
    assert again.losses_ == fitted.losses_
    a, b, c = fitted.generate(40, seed=5), again.generate(40, seed=5), fitted.generate(40, seed=6)
    assert a == b and a != c
    assert fitted.generate(40, seed=random.Random(9)) == again.generate(40, seed=random.Random(9))
    other = _tiny().fit(_synthetic(), seed=2)
    assert other.losses_ != fitted.losses_


def test_documents_group_sentences_one_per_line(fitted: DagaAugmenter) -> None:
    fitted.sentences_per_doc_ = 3
    try:
        docs = fitted.generate(60, seed=3, id_prefix="syn")
    finally:
        fitted.sentences_per_doc_ = 1
    assert [d.id for d in docs] == [f"syn-{k}" for k in range(len(docs))]
    assert all(1 <= len(d.text.split("\n")) <= 3 for d in docs) and len(docs[0].text.split("\n")) == 3
    for doc in docs:
        _check_invariant(doc)


def test_fit_learns_sentences_per_doc_and_keeps_a_share_of_sentences_without_phi() -> None:
    text = "Seen by Dr. Ann Lee. No PHI here. Nothing here either. Dr. Bo Kim agreed."
    doc = _doc("x", text, [("Ann Lee", "DOCTOR"), ("Bo Kim", "DOCTOR")])
    none = _tiny(epochs=1, o_fraction=0.0).fit([doc, doc])
    every = _tiny(epochs=1, o_fraction=1.0).fit([doc])
    assert (none.phi_sentences_, none.train_sentences_, none.sentences_per_doc_) == (4, 4, 2)
    assert (every.phi_sentences_, every.train_sentences_) == (2, 4)


def test_long_sentences_are_left_out_of_training() -> None:
    docs = [_doc("a", "Dr. Ann Lee.", [("Ann Lee", "DOCTOR")]),
            _doc("b", "Dr. Bo Kim saw the patient today at noon.", [("Bo Kim", "DOCTOR")])]  # fmt: skip
    aug = _tiny(epochs=1, max_len=8).fit(docs)
    assert (aug.train_sentences_, aug.skipped_long_) == (1, 1)
    with pytest.raises(ConfigError):
        _tiny(epochs=1, max_len=3).fit(docs)


def test_time_budget_zero_trains_no_epoch_and_generation_still_accounts_for_every_sample() -> None:
    aug = _tiny(time_budget_s=0.0).fit(_synthetic(10))
    assert aug.epochs_run_ == 0 and aug.losses_ == []
    docs = aug.generate(20, seed=0)
    r = aug.last_report_
    assert r is not None
    assert r.generated == 20 == r.kept + r.dropped_malformed + r.dropped_duplicate_of_train + r.dropped_repeat
    assert sum(r.reasons.values()) == r.dropped_malformed
    for doc in docs:
        _check_invariant(doc)


@pytest.mark.parametrize(
    "kwargs",
    [{"hidden": 0}, {"epochs": 0}, {"lr": 0.0}, {"temperature": 0.0}, {"o_fraction": 1.5}, {"dropout": 1.0},
     {"time_budget_s": -1.0}, {"granularity": "tiny"}, {"sentences_per_doc": 0}, {"threads": 0}],
)  # fmt: skip
def test_bad_parameters_are_config_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        DagaAugmenter(**kwargs)  # type: ignore[arg-type]


def test_generate_before_fit_and_fit_without_phi_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        DagaAugmenter().generate(1)
    with pytest.raises(ConfigError):
        _tiny(epochs=1).fit([Document("x", "No PHI in this note.")])


def test_registry_builds_daga() -> None:
    assert "daga" in AUGMENT_METHODS
    aug = build_augmenter("daga")
    assert isinstance(aug, DagaAugmenter) and aug.name == "daga"


def test_cli_daga_writes_readable_jsonl_and_reports_counts(tmp_path: Path) -> None:
    src = tmp_path / "gold.jsonl"
    JsonlWriter().write([_doc(i, t, p) for i, t, p in GOLD], src)
    out = tmp_path / "daga.jsonl"
    args = [str(src), "-o", str(out), "--method", "daga", "--alpha", "1", "--daga-epochs", "2", "--seed", "3"]
    result = CliRunner().invoke(augment, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    docs, problems = read_corpus(out)
    assert not problems
    for doc in docs:
        assert doc.id.startswith("daga-")
        _check_invariant(doc)
    m = re.search(
        r"(\d+) sentences with PHI.*generated (\d+) samples: kept (\d+) .*dropped (\d+) malformed, (\d+) "
        r"duplicates of training, (\d+) repeats",
        result.stderr,
    )
    assert m is not None, result.stderr
    phi, generated, kept, malformed, dup, rep = map(int, m.groups())
    assert phi == 6 and generated == phi  # alpha 1: one sample per input sentence with PHI
    assert kept + malformed + dup + rep == generated
    assert sum(len(d.text.split("\n")) for d in docs) == kept
    # Counts and paths only (short numbers such as an age could match the progress bar's rate).
    assert not any(surface in result.output for surface in PHI if len(surface) > 3)
