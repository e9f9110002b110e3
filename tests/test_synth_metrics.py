"""Synthetic-letter metrics (phiscrub.synth.metrics) and the ``synth-eval`` command; synthetic PHI only."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.io import JsonlWriter
from phiscrub.synth.metrics import (
    MASK_SYMBOL,
    EmbeddingScorer,
    InvalidCounts,
    count_syllables,
    evaluate_synthetic,
    greedy_match,
    lcs_length,
    load_synth_stats,
    match_documents,
    phi_strings,
    privacy_check,
    readability,
    readability_from_counts,
    rouge_l,
    rouge_n,
    text_entropy,
    to_markdown,
    unigram_entropy,
    word_tokens,
)
from phiscrub.train.tiny import make_tiny_encoder

CAND = "The cat was found under the bed."
REF = "the cat was under the bed"


# -- ROUGE ------------------------------------------------------------------------------------------
def test_rouge_matches_hand_computed_values() -> None:
    cand, ref = word_tokens(CAND), word_tokens(REF)
    assert cand == ["the", "cat", "was", "found", "under", "the", "bed"]
    r1 = rouge_n(cand, ref, 1)  # overlap 6 of 7 candidate and 6 of 6 reference unigrams
    assert r1.precision == pytest.approx(6 / 7) and r1.recall == 1.0
    assert r1.fmeasure == pytest.approx(12 / 13)
    r2 = rouge_n(cand, ref, 2)  # the-cat, cat-was, under-the, the-bed: 4 of 6 and 4 of 5 bigrams
    assert (r2.precision, r2.recall) == pytest.approx((4 / 6, 4 / 5))
    assert r2.fmeasure == pytest.approx(16 / 22)
    rl = rouge_l(cand, ref)  # LCS = the cat was under the bed = 6
    assert (rl.precision, rl.recall, rl.fmeasure) == pytest.approx((6 / 7, 1.0, 12 / 13))
    assert rouge_l(["a", "b", "c", "d"], ["d", "c", "b", "a"]).fmeasure == pytest.approx(0.25)


def test_mask_tokens_count_but_never_match() -> None:
    masked = word_tokens("[MASK] cat was <mask> the bed")
    assert masked.count(MASK_SYMBOL) == 2
    both_masked = word_tokens("[MASK] cat")
    assert rouge_n(both_masked, both_masked, 1).fmeasure == pytest.approx(0.5)
    r1 = rouge_n(masked, word_tokens(REF), 1)  # cat was the bed: 4 of 6 candidate, 4 of 6 reference
    assert r1.fmeasure == pytest.approx(4 / 6)
    assert rouge_n([], word_tokens(REF), 1).fmeasure == 0.0


def test_bit_parallel_lcs_agrees_with_dynamic_programming() -> None:
    def dp(a: list[str], b: list[str]) -> int:
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
        return table[-1][-1]

    rng = random.Random(7)
    for _ in range(200):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 30))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 30))]
        assert lcs_length(a, b) == dp(a, b)


# -- readability ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("word", "syllables"),
    [
        ("cat", 1),
        ("table", 2),
        ("elephant", 3),
        ("university", 5),
        ("readability", 5),
        ("walked", 1),
        ("admitted", 3),
        ("hospital", 3),
        ("patient", 2),
        ("being", 2),
        ("management", 3),
        ("boxes", 2),
        ("previously", 4),
        ("fracture", 2),
        ("médico", 3),
        ("2019", 0),
    ],
)
def test_syllable_counter_on_common_words(word: str, syllables: int) -> None:
    assert count_syllables(word) == syllables


def test_flesch_scores_of_textbook_examples() -> None:
    # "The cat sat on the mat.": 6 one-syllable words in one sentence.
    cat = readability("The cat sat on the mat.")
    assert (cat.words, cat.sentences, cat.syllables) == (6, 1, 6)
    assert cat.flesch_reading_ease == pytest.approx(116.145)
    assert cat.flesch_kincaid_grade == pytest.approx(-1.45)
    # Wikipedia's Flesch example: reading ease 69 (16 words, 23 syllables).
    point = readability(
        "This sentence, taken as a reading passage unto itself, is being used to prove a point."
    )
    assert (point.words, point.syllables) == (16, 23)
    assert point.flesch_reading_ease == pytest.approx(69.0, abs=0.5)
    # Green Eggs and Ham: 5.7 words per sentence, 1.02 syllables per word, grade -1.3.
    seuss = readability_from_counts(words=2850, n_sentences=500, syllables=2907, polysyllables=0)
    assert seuss.flesch_kincaid_grade == pytest.approx(-1.3, abs=0.05)
    # The lowest possible grade: one-syllable one-word sentences, -3.4.
    assert readability_from_counts(10, 10, 10, 0).flesch_kincaid_grade == pytest.approx(-3.4)


def test_smog_of_thirty_sentences_follows_mclaughlin() -> None:
    text = "\n".join("The elephant is big." for _ in range(30))  # one polysyllable per sentence
    r = readability(text)
    assert (r.sentences, r.polysyllables) == (30, 30)
    assert r.smog == pytest.approx(1.0430 * math.sqrt(30) + 3.1291)
    # McLaughlin's hand method: sqrt of nearest perfect square (25) + 3 = 8.
    assert r.smog == pytest.approx(8.0, abs=1.0)
    assert readability("12 / 03").smog is None


# -- entropy ----------------------------------------------------------------------------------------
def test_entropy_of_known_distributions() -> None:
    assert unigram_entropy(["a", "b", "a", "b"]) == pytest.approx(1.0)
    assert unigram_entropy("abcd") == pytest.approx(2.0)
    assert unigram_entropy("aaab") == pytest.approx(-(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)))
    assert unigram_entropy([]) == 0.0
    assert text_entropy("Pain, pain; PAIN.") == 0.0
    assert text_entropy("[MASK] x [MASK] y") == pytest.approx(1.5)


# -- privacy ----------------------------------------------------------------------------------------
def test_privacy_shares_on_a_crafted_pair() -> None:
    original = Document(
        "n1",
        "Mr Alan Grant was seen at Mercy Hospital on 03/12/2019 by Dr Ellie Sattler for chest pain.",
        (Span(3, 13, "NAME"), Span(26, 40, "LOCATION"), Span(44, 54, "DATE"), Span(61, 74, "NAME")),
    )
    phi = phi_strings(original)
    assert phi == ["Alan Grant", "Mercy Hospital", "03/12/2019", "Ellie Sattler"]
    synthetic = "Mr Alan Grantham was seen at Mercy  Hospital on 03/12/2019 by Dr Ian Malcolm for chest pain."
    check = privacy_check(original.text, phi, synthetic, n=5)
    # "Alan Grant" is inside a longer word; the hospital survives across a double space; the date survives.
    assert (check.phi_total, check.phi_survived) == (4, 2)
    assert check.phi_share == pytest.approx(0.5)
    # Original: 19 words, 15 distinct 5-grams; the synthetic keeps those inside
    # "was seen at mercy hospital on 03 12 2019 by dr" (11 words: 7 five-grams).
    assert (check.ngram_total, check.ngram_survived) == (15, 7)
    same = privacy_check(original.text, phi, original.text)
    assert same.phi_share == 1.0 and same.ngram_share == 1.0
    assert privacy_check("too short", [], "too short").ngram_share is None
    # A gold span that cuts a word in the original is searched for as a plain substring.
    cut = Document("n2", "Seen by DrAlan Grant today.", (Span(10, 20, "NAME"),))
    assert privacy_check(cut.text, phi_strings(cut), cut.text).phi_share == 1.0
    assert privacy_check(cut.text, phi_strings(cut), "Seen by Dr Alan today.").phi_share == 0.0


# -- pairing and generator stats --------------------------------------------------------------------
def test_documents_pair_by_id_suffix_and_metadata() -> None:
    originals = [Document("doc-1", "a"), Document("doc-1-2", "b"), Document("doc3", "c")]
    synthetic = [
        Document("doc-1#synth0", "x"),
        Document("doc-1-2#synth0", "y"),
        Document("doc-1-2", "y2"),
        Document("other", "z", metadata={"source_id": "doc3"}),
        Document("stray#synth0", "w"),
    ]
    masked = [Document("doc-1#masked", "m"), Document("nowhere", "n")]
    m = match_documents(originals, synthetic, masked)
    assert [(o.id, s.id, x.id if x else None) for o, s, x in m.pairs] == [
        ("doc-1", "doc-1#synth0", "doc-1#masked"),
        ("doc-1-2", "doc-1-2#synth0", None),
        ("doc-1-2", "doc-1-2", None),
        ("doc3", "other", None),
    ]
    assert m.unmatched_synthetic == ("stray#synth0",)
    assert m.unmatched_masked == ("nowhere",)
    assert m.originals_without_masked == ("doc-1-2", "doc3")
    assert match_documents(originals, synthetic[:1]).originals_without_synthetic == ("doc-1-2", "doc3")


def test_invalid_rate_from_stats_file_and_metadata(tmp_path: Path) -> None:
    stats = tmp_path / "stats.json"
    stats.write_text(
        json.dumps({"masked": 40, "invalid": 10, "documents": {"a#s": {"masked": 8, "invalid": 2}}})
    )
    totals, per_doc = load_synth_stats(stats)
    assert totals == InvalidCounts(40, 10) and per_doc == {"a#s": InvalidCounts(8, 2)}
    originals = [Document("a", "The cat sat."), Document("b", "The dog ran.")]
    synthetic = [
        Document("a#s", "The cat ran."),
        Document("b#s", "The dog sat.", metadata={"synth": {"masked": 2, "invalid": 1}}),
    ]
    report = evaluate_synthetic(originals, synthetic, stats=(totals, per_doc), phi_detector=None)
    assert report.averages()["synthetic"]["invalid_rate"] == pytest.approx(3 / 10)
    only_totals = evaluate_synthetic(originals, synthetic[:1], stats=(totals, {}), phi_detector=None)
    assert only_totals.averages()["synthetic"]["invalid_rate"] == pytest.approx(0.25)
    none = evaluate_synthetic(originals, synthetic[:1], phi_detector=None)
    assert none.averages()["synthetic"]["invalid_rate"] is None
    assert "| Invalid prediction rate | n/a |" in to_markdown(none)


# -- embedding similarity ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def minilm() -> EmbeddingScorer:
    return EmbeddingScorer(batch_size=8, progress=False)


def test_bertscore_is_one_for_identical_texts_and_orders_paraphrases(minilm: EmbeddingScorer) -> None:
    letter = "The patient was admitted with chest pain and discharged home after three days."
    paraphrase = "The man was hospitalised with pain in the chest and went home three days later."
    unrelated = "Quarterly revenue of the mining company fell sharply in spring."
    same, para, other = minilm.score([letter, paraphrase, unrelated], [letter, letter, letter])
    assert same.fmeasure == pytest.approx(1.0, abs=1e-4)
    assert same.precision == pytest.approx(1.0, abs=1e-4) and same.recall == pytest.approx(1.0, abs=1e-4)
    assert 1.0 > para.fmeasure > other.fmeasure
    masked = minilm.score(
        ["The patient was [MASK] with [MASK] pain and [MASK] home after three [MASK]."], [letter]
    )
    assert masked[0].fmeasure < same.fmeasure


def test_long_letters_are_embedded_in_windows(tmp_path: Path) -> None:
    encoder = make_tiny_encoder(tmp_path / "enc", kind="roberta", max_positions=40)
    scorer = EmbeddingScorer(encoder, window=12, batch_size=3, progress=False)
    letter = " ".join(["the patient was seen by dr at the clinic and admitted"] * 6)
    (emb,) = scorer.embed([letter])
    ids = scorer.tokenizer(letter, add_special_tokens=False)["input_ids"]
    assert emb.shape[0] == len(ids) > 12
    (score,) = scorer.score([letter], [letter])
    assert score.fmeasure == pytest.approx(1.0, abs=1e-4)
    # Scoring block by block (dropping each text after its last pair) gives the one-shot scores.
    texts = ["the patient was seen", "seen by dr at the clinic", "admitted to the hospital", letter]
    cands, refs = (
        [texts[1], texts[2], texts[0], texts[3], texts[2]],
        [texts[0], texts[0], texts[3], texts[1], texts[0]],
    )
    fresh = EmbeddingScorer(encoder, window=12, batch_size=3, progress=False)
    blocked = fresh.score(cands, refs, block=2)
    assert not fresh._cache
    embs = dict(zip(texts, scorer.embed(texts)))
    for got, c, r in zip(blocked, cands, refs):
        want = greedy_match(embs[c], embs[r])
        assert (got.precision, got.recall) == pytest.approx((want.precision, want.recall), abs=1e-5)


# -- CLI --------------------------------------------------------------------------------------------
_LETTERS = {
    "n1": ("Mr Alan Grant was seen at Mercy Hospital on 03/12/2019 for chest pain and cough.", "Alan Grant"),
    "n2": (
        "Ms Ellie Sattler lives in Springfield and was discharged home after two days of rest.",
        "Ellie Sattler",
    ),
    "n3": (
        "Dr Ian Malcolm reviewed the fracture of the right ankle and planned surgery next week.",
        "Ian Malcolm",
    ),
}


def _write(path: Path, docs: list[Document]) -> None:
    JsonlWriter().write(docs, path)


def test_synth_eval_cli_end_to_end(tmp_path: Path) -> None:
    originals = []
    for doc_id, (text, name) in _LETTERS.items():
        start = text.index(name)
        originals.append(Document(doc_id, text, (Span(start, start + len(name), "NAME"),)))
    originals.append(
        Document("n4", "Seen by Dr. Alan Grant on 03/12/2019 at the clinic for a routine visit.")
    )
    synthetic = [
        Document("n1#synth0", _LETTERS["n1"][0].replace("chest pain", "a sore throat")),
        Document("n2#synth0", _LETTERS["n2"][0].replace("Ellie Sattler", "Jane Doe")),
        Document("n3#synth0", _LETTERS["n3"][0]),
        Document("n4#synth0", "Seen by Dr. [NAME] on [DATE] at the clinic for a routine visit."),
        Document("zz#synth0", "An orphan letter."),
    ]
    masked = [
        Document(d.id, " ".join("[MASK]" if len(w) > 4 else w for w in d.text.split())) for d in originals
    ]
    (tmp_path / "synth").mkdir()
    _write(tmp_path / "orig.jsonl", originals)
    _write(tmp_path / "synth" / "letters.jsonl", synthetic)
    _write(tmp_path / "masked.jsonl", masked)
    (tmp_path / "synth" / "stats.json").write_text(json.dumps({"masked": 20, "invalid": 5}))
    encoder = make_tiny_encoder(tmp_path / "enc")
    out = tmp_path / "report"
    args = ["synth-eval", str(tmp_path / "orig.jsonl"), str(tmp_path / "synth"), "--masked"]
    args += [str(tmp_path / "masked.jsonl"), "-o", str(out), "--encoder", str(encoder)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "| ROUGE-1 F (%) |" in result.output and "| BERTScore F |" in result.output
    for text, name in _LETTERS.values():
        assert name not in result.output and text[:20] not in result.output
    report = json.loads((out / "report.json").read_text())
    assert (out / "report.md").read_text().count("| ROUGE") == 3
    assert report["pairs"] == 4
    assert report["matching"]["unmatched_synthetic_ids"] == ["zz#synth0"]
    assert report["matching"]["originals_without_synthetic"] == 0
    assert report["invalid_predictions"] == {"masked": 20, "invalid": 5, "rate": 0.25}
    letters = {r["synthetic_id"]: r for r in report["letters"]}
    assert letters["n3#synth0"]["synthetic"]["rouge1"]["fmeasure"] == 1.0
    assert letters["n3#synth0"]["synthetic"]["bertscore"]["fmeasure"] == pytest.approx(1.0, abs=1e-4)
    assert letters["n2#synth0"]["synthetic"]["privacy"]["phi_share"] == 0.0
    assert letters["n1#synth0"]["synthetic"]["privacy"]["phi_share"] == 1.0
    # n4 has no gold spans: the rules find the name and the date, and neither survives.
    assert letters["n4#synth0"]["phi_source"] == "detector"
    assert letters["n4#synth0"]["synthetic"]["privacy"]["phi_total"] >= 2
    assert letters["n4#synth0"]["synthetic"]["privacy"]["phi_share"] == 0.0
    avg = report["averages"]
    assert 1.0 >= avg["synthetic"]["rouge1"] > avg["masked"]["rouge1"]
    assert avg["synthetic"]["entropy"] > avg["masked"]["entropy"]
    assert avg["original"]["smog"] is not None
