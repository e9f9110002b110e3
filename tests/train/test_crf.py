"""CRF and constrained Viterbi: never an invalid BIO sequence, exact against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from phiscrub.tagger.crf import CRF, bio_constraints, constraint_scores, marginals, viterbi_decode
from phiscrub.tagger.encoding import is_valid_bio, tag_set

TAGS = ("O", "B-DATE", "I-DATE", "B-NAME", "I-NAME")


@pytest.mark.parametrize(
    ("prev", "nxt", "allowed"),
    [
        ("O", "I-NAME", False),
        ("O", "B-NAME", True),
        ("B-NAME", "I-NAME", True),
        ("I-NAME", "I-NAME", True),
        ("B-DATE", "I-NAME", False),
        ("I-DATE", "I-NAME", False),
        ("I-DATE", "B-NAME", True),
        ("I-NAME", "O", True),
    ],
)
def test_bio_transition_table(prev: str, nxt: str, allowed: bool) -> None:
    table, _ = bio_constraints(TAGS)
    assert table[TAGS.index(prev), TAGS.index(nxt)] == allowed


def test_sequences_cannot_start_inside_an_entity() -> None:
    _, start = bio_constraints(TAGS)
    assert [TAGS[j] for j in range(len(TAGS)) if not start[j]] == ["I-DATE", "I-NAME"]


def _valid_paths(n: int) -> list[tuple[int, ...]]:
    return [p for p in itertools.product(range(len(TAGS)), repeat=n) if is_valid_bio([TAGS[i] for i in p])]


def _path_score(
    path: tuple[int, ...], em: np.ndarray, trans: np.ndarray, start: np.ndarray, end: np.ndarray
) -> float:
    score = start[path[0]] + em[0, path[0]] + end[path[-1]]
    for t in range(1, len(path)):
        score += trans[path[t - 1], path[t]] + em[t, path[t]]
    return float(score)


def _random_crf_scores(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    crf = CRF(TAGS)
    with torch.no_grad():
        for p in crf.parameters():
            p.copy_(torch.from_numpy(rng.normal(size=p.shape)))
    return crf.numpy_scores()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [1, 2, 4])
def test_viterbi_finds_the_best_valid_path(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    em = rng.normal(scale=3.0, size=(n, len(TAGS)))
    trans, start, end = _random_crf_scores(rng)
    best = max(_valid_paths(n), key=lambda p: _path_score(p, em, trans, start, end))
    assert tuple(viterbi_decode(em, trans, start, end)) == best


@pytest.mark.parametrize("use_crf_scores", [True, False])
def test_decoding_random_emissions_is_always_valid_bio(use_crf_scores: bool) -> None:
    rng = np.random.default_rng(7)
    tags = tag_set("coarse")
    for trial in range(200):
        n = int(rng.integers(1, 40))
        # emissions that strongly prefer I- tags everywhere: the constraints must still win
        em = rng.normal(scale=5.0, size=(n, len(tags)))
        em[:, [i for i, t in enumerate(tags) if t.startswith("I-")]] += 20.0
        if use_crf_scores:
            crf = CRF(tags)
            with torch.no_grad():
                for p in crf.parameters():
                    p.copy_(torch.from_numpy(rng.normal(scale=3.0, size=p.shape)))
            trans, start, end = crf.numpy_scores()
        else:
            trans, start, end = constraint_scores(tags)
        path = viterbi_decode(em, trans, start, end)
        assert len(path) == n and is_valid_bio([tags[i] for i in path]), trial


def test_crf_batch_decode_is_valid_and_respects_lengths() -> None:
    torch.manual_seed(0)
    crf = CRF(TAGS)
    em = torch.randn(3, 6, len(TAGS)) * 4
    mask = torch.tensor([[1] * 6, [1] * 3 + [0] * 3, [1] + [0] * 5], dtype=torch.bool)
    paths = crf.decode(em, mask)
    assert [len(p) for p in paths] == [6, 3, 1]
    assert all(is_valid_bio([TAGS[i] for i in p]) for p in paths)


@pytest.mark.parametrize("seed", range(3))
def test_marginals_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 3
    em = rng.normal(size=(n, len(TAGS)))
    trans, start, end = _random_crf_scores(rng)
    paths = _valid_paths(n)
    weights = np.array([np.exp(_path_score(p, em, trans, start, end)) for p in paths])
    expected = np.zeros((n, len(TAGS)))
    for p, w in zip(paths, weights):
        for t, tag in enumerate(p):
            expected[t, tag] += w
    expected /= weights.sum()
    got = marginals(em, trans, start, end)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0)


def test_log_partition_matches_brute_force_with_padding() -> None:
    torch.manual_seed(1)
    crf = CRF(TAGS)
    with torch.no_grad():
        for p in crf.parameters():
            p.normal_()
    em = torch.randn(2, 4, len(TAGS))
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]], dtype=torch.bool)
    got = crf.log_partition(em, mask)
    trans, start, end = crf.numpy_scores()
    for b, n in enumerate([4, 2]):
        e = em[b, :n].double().numpy()
        scores = [_path_score(p, e, trans, start, end) for p in _valid_paths(n)]
        assert got[b].item() == pytest.approx(float(np.logaddexp.reduce(scores)), rel=1e-5)


def test_gold_path_score_is_finite_and_nll_positive() -> None:
    crf = CRF(TAGS)
    em = torch.randn(1, 4, len(TAGS))
    gold = torch.tensor([[TAGS.index("B-NAME"), TAGS.index("I-NAME"), 0, TAGS.index("B-DATE")]])
    nll = crf.nll(em, gold, torch.ones(1, 4, dtype=torch.bool))
    assert torch.isfinite(nll) and nll.item() > 0


def test_crf_learns_a_toy_problem() -> None:
    """Emissions + CRF trained on two toy sequences: NLL drops and Viterbi recovers the gold tags."""
    torch.manual_seed(0)
    gold = torch.tensor(
        [
            [0, 3, 4, 4, 0, 1, 2, 0],
            [3, 4, 0, 0, 1, 2, 2, 0],
        ]
    )
    mask = torch.ones_like(gold, dtype=torch.bool)
    emissions = torch.nn.Parameter(torch.zeros(2, 8, len(TAGS)))
    crf = CRF(TAGS)
    opt = torch.optim.Adam([emissions, *crf.parameters()], lr=0.1)
    losses = []
    for _ in range(60):
        loss = crf.nll(emissions, gold, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0]
    assert all(np.isfinite(losses))
    assert crf.decode(emissions.detach(), mask) == gold.tolist()
    # forbidden transitions get no gradient and stay at minus infinity in the scores
    trans, _, _ = crf.scores()
    assert torch.isinf(trans[0, TAGS.index("I-NAME")])


@pytest.mark.parametrize(("n_tags", "length", "seed"), [(5, 1, 0), (5, 60, 1), (15, 600, 2), (63, 40, 3)])
def test_scaled_marginals_match_log_space_marginals(n_tags: int, length: int, seed: int) -> None:
    from phiscrub.tagger.crf import _marginals_log, _marginals_scaled

    rng = np.random.default_rng(seed)
    emissions = rng.normal(0, 5, (length, n_tags))
    transitions = rng.normal(0, 2, (n_tags, n_tags))
    transitions[rng.random((n_tags, n_tags)) < 0.3] = -np.inf
    start, end = rng.normal(0, 1, n_tags), rng.normal(0, 1, n_tags)
    fast = _marginals_scaled(emissions, transitions, start, end)
    assert fast is not None
    np.testing.assert_allclose(fast, _marginals_log(emissions, transitions, start, end), atol=1e-9)


def test_marginals_fall_back_to_log_space_on_extreme_scores() -> None:
    from phiscrub.tagger.crf import _marginals_log, _marginals_scaled, marginals

    emissions = np.array([[0.0, -5000.0], [-5000.0, 0.0], [0.0, -5000.0]])
    transitions = np.array([[0.0, -4000.0], [-4000.0, 0.0]])
    start = end = np.zeros(2)
    assert _marginals_scaled(emissions, transitions, start, end) is None
    np.testing.assert_allclose(
        marginals(emissions, transitions, start, end), _marginals_log(emissions, transitions, start, end)
    )
