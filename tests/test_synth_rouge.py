"""ROUGE in synth-eval agrees with the rouge-score package (the figure NLG papers report)."""

from __future__ import annotations

import random

import pytest
from rouge_score import rouge_scorer, tokenizers

from phiscrub.synth.metrics import MASK_SYMBOL, lcs_length, rouge_l, rouge_n, word_tokens


class _Joined(tokenizers.Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return text.split(" ") if text else []


@pytest.mark.parametrize("seed", range(5))
def test_bit_parallel_rouge_l_equals_rouge_score_on_random_sequences(seed: int) -> None:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(rng.randint(3, 40))]
    ref = [rng.choice(vocab) for _ in range(rng.randint(0, 120))]
    cand = [t if rng.random() < 0.6 else rng.choice(vocab) for t in ref][: rng.randint(0, 120)]
    expected = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_Joined()).score(" ".join(ref), " ".join(cand))
    ours = rouge_l(cand, ref)
    assert ours.fmeasure == pytest.approx(expected["rougeL"].fmeasure)
    assert ours.precision == pytest.approx(expected["rougeL"].precision)
    assert lcs_length(cand, ref) == lcs_length(ref, cand)


@pytest.mark.parametrize(
    ("original", "synthetic"),
    [
        (
            "The patient was seen on 03/12/2019 at the clinic.",
            "The patient was admitted on 03/12/2019 to the ward.",
        ),
        ("Follow up in two weeks with cardiology.", "Follow up in three weeks with the cardiology team."),
        ("No chest pain. No shortness of breath.", "Mild chest pain, no fever."),
    ],
)
def test_rouge_on_ascii_letters_is_rouge_score_with_its_default_tokenizer(
    original: str, synthetic: str
) -> None:
    expected = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score(original, synthetic)
    cand, ref = word_tokens(synthetic), word_tokens(original)
    assert rouge_n(cand, ref, 1).fmeasure == pytest.approx(expected["rouge1"].fmeasure)
    assert rouge_n(cand, ref, 2).fmeasure == pytest.approx(expected["rouge2"].fmeasure)
    assert rouge_l(cand, ref).fmeasure == pytest.approx(expected["rougeL"].fmeasure)


def test_accented_words_and_masks_are_whole_tokens() -> None:
    ref = word_tokens("El médico revisó la analítica.")
    assert "médico" in ref
    masked = word_tokens("El [MASK] revisó la [MASK].")
    assert masked.count(MASK_SYMBOL) == 2
    # A mask matches nothing, not even another mask.
    assert rouge_n(masked, masked, 1).fmeasure == pytest.approx(3 / 5)
