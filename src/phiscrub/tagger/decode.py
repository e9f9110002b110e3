"""BIO-constrained decoding in numpy: Viterbi paths, posterior marginals, whole-document decoding.

Torch-free, so that the ONNX inference path (:mod:`phiscrub.detect.onnx_tagger`) and the torch path
(:mod:`phiscrub.tagger.inference`, :mod:`phiscrub.tagger.crf`) decode with the same code.

Invalid BIO transitions (``O -> I-X``, ``B-X -> I-Y``, ``I-X -> I-Y`` with X != Y, and
``start -> I-X``) get score minus infinity, so decoded tag sequences are always valid BIO.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, TypeVar

import numpy as np

from phiscrub.document import Document, Span
from phiscrub.tagger.encoding import tags_to_spans
from phiscrub.text import Token

__all__ = [
    "WordPrediction",
    "bio_constraints",
    "chunk_order",
    "constraint_scores",
    "decode_document",
    "decode_documents",
    "decode_in_groups",
    "keep_owned",
    "log_softmax",
    "marginals",
    "owned_scores",
    "viterbi_decode",
]

_NEG_INF = float("-inf")
#: Transition, start and end scores of a tag set (forbidden moves at minus infinity).
Transitions: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]
#: ``(doc_id, word tokens, (n_words, T) decoding scores)`` of one document.
ScoredDocument: TypeAlias = tuple[str, list[Token], np.ndarray]


def bio_constraints(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Allowed transitions of a BIO tag set.

    Returns:
        ``allowed[i, j]`` (True when tag j may follow tag i) and ``allowed_start[j]`` (True when a
        sequence may start with tag j).
    """
    n = len(tags)
    allowed = np.ones((n, n), dtype=bool)
    allowed_start = np.ones(n, dtype=bool)
    for j, tag in enumerate(tags):
        if not tag.startswith("I-"):
            continue
        allowed_start[j] = False
        for i, prev in enumerate(tags):
            # I-X may only follow B-X or I-X
            allowed[i, j] = prev in (f"B-{tag[2:]}", tag)
    return allowed, allowed_start


def constraint_scores(tags: Sequence[str]) -> Transitions:
    """Transition, start and end scores that only forbid invalid BIO (0 or minus infinity)."""
    allowed, allowed_start = bio_constraints(tags)
    trans = np.where(allowed, 0.0, _NEG_INF)
    start = np.where(allowed_start, 0.0, _NEG_INF)
    return trans, start, np.zeros(len(tags))


def viterbi_decode(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> list[int]:
    """Best tag path for one sequence.

    Args:
        emissions: ``(n, T)`` scores (log-probabilities or CRF emissions).
        transitions: ``(T, T)`` scores of tag j following tag i (minus infinity: forbidden).
        start: ``(T,)`` scores of starting with each tag.
        end: ``(T,)`` scores of ending with each tag.

    Returns:
        ``n`` tag indices; empty for an empty sequence.
    """
    n = emissions.shape[0]
    if n == 0:
        return []
    emissions = emissions.astype(np.float64, copy=False)
    transitions = transitions.astype(np.float64, copy=False)
    back = np.empty((n, emissions.shape[1]), dtype=np.int64)
    score = start + emissions[0]
    for t in range(1, n):
        cand = score[:, None] + transitions  # (prev, next)
        back[t] = cand.argmax(axis=0)
        score = cand[back[t], np.arange(cand.shape[1])] + emissions[t]
    score = score + end
    best = int(score.argmax())
    path = [best]
    for t in range(n - 1, 0, -1):
        best = int(back[t, best])
        path.append(best)
    path.reverse()
    return path


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    top = x.max(axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(x - top).sum(axis=axis, keepdims=True)) + top
    squeezed: np.ndarray = np.squeeze(out, axis=axis)
    return squeezed


def marginals(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray:
    """Posterior probability of each tag at each position (forward-backward).

    Same arguments as :func:`viterbi_decode`; returns an ``(n, T)`` array whose rows sum to 1
    (invalid BIO tags at a position get probability 0 when every path to them is forbidden).
    """
    n, n_tags = emissions.shape
    if n == 0:
        return np.zeros((0, n_tags))
    emissions = emissions.astype(np.float64, copy=False)
    fast = _marginals_scaled(emissions, transitions, start, end)
    if fast is not None:
        return fast
    return _marginals_log(emissions, transitions, start, end)


def _finite_exp(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """exp(x - max) with -inf -> 0; the shift cancels in the normalised products below."""
    finite = np.where(np.isfinite(x), x, -np.inf)
    top = finite.max(axis=axis, keepdims=axis is not None) if np.isfinite(finite).any() else 0.0
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(under="ignore", over="ignore"):
        result: np.ndarray = np.exp(finite - top)
    return result


def _marginals_scaled(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray | None:
    """Forward-backward in probability space with per-step scaling (fast: one mat-vec a step).

    Returns None when a scaling factor underflows to 0 (extreme scores); the caller then uses the
    log-space version, which is exact but slower.
    """
    n = emissions.shape[0]
    em = _finite_exp(emissions, axis=1)
    trans = _finite_exp(transitions)
    alpha = np.empty_like(em)
    beta = np.empty_like(em)
    a = _finite_exp(start) * em[0]
    for t in range(n):
        if t:
            a = (alpha[t - 1] @ trans) * em[t]
        z = a.sum()
        if not (z > 0 and np.isfinite(z)):
            return None
        alpha[t] = a / z
    b = _finite_exp(end)
    for t in range(n - 1, -1, -1):
        if t < n - 1:
            b = trans @ (em[t + 1] * beta[t + 1])
        z = b.sum()
        if not (z > 0 and np.isfinite(z)):
            return None
        beta[t] = b / z
    post = alpha * beta
    norm = post.sum(axis=1, keepdims=True)
    if not np.all(norm > 0):
        return None
    clipped: np.ndarray = np.clip(post / norm, 0.0, 1.0)
    return clipped


def _marginals_log(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray:
    """Forward-backward in log space (exact for any score range)."""
    n, n_tags = emissions.shape
    alpha = np.empty((n, n_tags))
    beta = np.zeros((n, n_tags))
    alpha[0] = start + emissions[0]
    for t in range(1, n):
        alpha[t] = _logsumexp(alpha[t - 1][:, None] + transitions, axis=0) + emissions[t]
    beta[n - 1] = end
    for t in range(n - 2, -1, -1):
        beta[t] = _logsumexp(transitions + (emissions[t + 1] + beta[t + 1])[None, :], axis=1)
    log_z = _logsumexp(alpha[n - 1] + end, axis=0)
    with np.errstate(under="ignore"):
        # rounding can push a certain tag a hair above 1
        post: np.ndarray = np.clip(np.exp(alpha + beta - log_z), 0.0, 1.0)
    return post


@dataclass(frozen=True)
class WordPrediction:
    """Predicted BIO tag and probability of every word of one document.

    Args:
        doc_id: the document id.
        tokens: the word tokens (:func:`phiscrub.text.tokenize`).
        tags: one BIO tag per word (valid BIO).
        probs: softmax probability of each chosen tag.
    """

    doc_id: str
    tokens: list[Token]
    tags: list[str]
    probs: list[float]

    def spans(self, source: str = "model") -> list[Span]:
        """The predicted character spans (score: mean word probability)."""
        return tags_to_spans(self.tokens, self.tags, self.probs, source=source)


def _softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probs: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
    return probs


def log_softmax(scores: np.ndarray) -> np.ndarray:
    """Log-probabilities over the last axis (the decoding scores of a tagger without a CRF)."""
    shifted = scores - scores.max(axis=-1, keepdims=True)
    out: np.ndarray = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return out


def decode_document(
    doc_id: str,
    tokens: list[Token],
    scores: np.ndarray,
    tags: Sequence[str],
    transitions: Transitions,
    use_crf: bool,
) -> WordPrediction:
    """Decode the word scores of one whole document into BIO tags and tag probabilities.

    Args:
        doc_id: the document id.
        tokens: its word tokens.
        scores: ``(n_words, T)`` decoding scores (CRF emissions, or log-probabilities without a CRF).
        tags: the tag names.
        transitions: transition, start and end scores (forbidden moves at minus infinity).
        use_crf: True: probabilities are the CRF's posterior marginals; False: softmax probabilities.
    """
    trans, start, end = transitions
    path = viterbi_decode(scores, trans, start, end)
    # CRF: posterior marginals (calibrated under the chain); softmax: the word's own probability.
    table = marginals(scores, trans, start, end) if use_crf else _softmax(scores)
    probs = table[np.arange(len(path)), path] if path else np.zeros(0)
    return WordPrediction(
        doc_id=doc_id, tokens=tokens, tags=[tags[i] for i in path], probs=[float(p) for p in probs]
    )


#: Word positions (documents x longest document) decoded together by :func:`decode_documents`.
_DECODE_CELLS = 16_384


def decode_documents(
    items: Sequence[ScoredDocument],
    tags: Sequence[str],
    transitions: Transitions,
    use_crf: bool,
) -> list[WordPrediction]:
    """:func:`decode_document` for many documents: the same tags and (up to rounding) probabilities.

    Viterbi and the CRF forward-backward step through the documents side by side (documents of
    similar length together, at most :data:`_DECODE_CELLS` word positions at a time), so numpy runs
    one step per position of the longest document of a group instead of one per word of each
    document: the per-step overhead, not arithmetic, is what decoding short notes costs.

    Args:
        items: ``(doc_id, tokens, scores)`` per document, ``scores`` of shape ``(n_words, T)``.
        tags, transitions, use_crf: as for :func:`decode_document`.
    """
    out: list[WordPrediction | None] = [None] * len(items)
    order = sorted(range(len(items)), key=lambda i: items[i][2].shape[0])
    k = 0
    while k < len(order):
        group = [order[k]]
        longest = max(items[order[k]][2].shape[0], 1)
        while k + len(group) < len(order):
            nxt = max(items[order[k + len(group)]][2].shape[0], 1)
            if nxt * (len(group) + 1) > _DECODE_CELLS:
                break
            group.append(order[k + len(group)])
            longest = nxt
        k += len(group)
        if longest <= 1 or len(group) == 1:
            for i in group:
                out[i] = decode_document(*items[i], tags, transitions, use_crf)
            continue
        for i, pred in zip(group, _decode_group([items[i] for i in group], tags, transitions, use_crf)):
            out[i] = pred
    return [p for p in out if p is not None]


def _decode_group(
    items: Sequence[ScoredDocument], tags: Sequence[str], transitions: Transitions, use_crf: bool
) -> list[WordPrediction]:
    trans, start, end = (np.asarray(x, dtype=np.float64) for x in transitions)
    lengths = np.array([it[2].shape[0] for it in items])
    n_docs, longest, n_tags = len(items), int(lengths.max()), len(tags)
    em = np.zeros((n_docs, longest, n_tags))
    for b, it in enumerate(items):
        em[b, : lengths[b]] = it[2]
    paths = _viterbi_many(em, lengths, trans, start, end)
    tables: list[np.ndarray | None]
    if use_crf:
        tables = _marginals_scaled_many(em, lengths, trans, start, end)
    else:
        tables = [_softmax(em[b, : lengths[b]]) if lengths[b] else None for b in range(n_docs)]
    preds = []
    for b, (doc_id, tokens, scores) in enumerate(items):
        n = int(lengths[b])
        if n == 0:
            preds.append(decode_document(doc_id, tokens, scores, tags, transitions, use_crf))
            continue
        path = paths[b, :n]
        table = tables[b]
        if table is None:  # a scaling factor underflowed: the exact single-document route
            table = marginals(scores, trans, start, end)
        probs = table[np.arange(n), path]
        preds.append(
            WordPrediction(
                doc_id=doc_id,
                tokens=tokens,
                tags=[tags[i] for i in path],
                probs=[float(p) for p in probs],
            )
        )
    return preds


def _viterbi_many(
    em: np.ndarray, lengths: np.ndarray, trans: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray:
    """:func:`viterbi_decode` of ``(B, N, T)`` emissions, document b using its first ``lengths[b]`` rows."""
    n_docs, longest, n_tags = em.shape
    back = np.zeros((n_docs, longest, n_tags), dtype=np.int64)
    score = start[None, :] + em[:, 0]
    final = score.copy()
    rows = np.arange(n_docs)
    for t in range(1, longest):
        cand = score[:, :, None] + trans[None, :, :]  # (B, prev, next)
        best = cand.argmax(axis=1)
        back[:, t] = best
        score = np.take_along_axis(cand, best[:, None, :], axis=1)[:, 0, :] + em[:, t]
        ends = lengths - 1 == t
        final[ends] = score[ends]
    last = (final + end[None, :]).argmax(axis=1)
    paths = np.zeros((n_docs, longest), dtype=np.int64)
    cur = np.zeros(n_docs, dtype=np.int64)
    for t in range(longest - 1, -1, -1):
        cur = np.where(lengths - 1 == t, last, cur)
        paths[:, t] = cur
        if t:
            cur = np.where(t <= lengths - 1, back[rows, t, cur], cur)
    return paths


def _marginals_scaled_many(
    em: np.ndarray, lengths: np.ndarray, trans: np.ndarray, start: np.ndarray, end: np.ndarray
) -> list[np.ndarray | None]:
    """:func:`_marginals_scaled` of ``(B, N, T)`` emissions; None for a document whose scaling
    underflowed (the caller then takes the exact route)."""
    n_docs, longest, _ = em.shape
    valid = np.arange(longest)[None, :] < lengths[:, None]  # (B, N)
    top = em.max(axis=2)
    top = np.where(valid & np.isfinite(top), top, 0.0)
    with np.errstate(under="ignore", over="ignore"):
        e = np.exp(em - top[:, :, None]) * valid[:, :, None]
    t_exp = _finite_exp(trans)
    alpha = np.zeros_like(e)
    beta = np.zeros_like(e)
    ok = np.ones(n_docs, dtype=bool)
    with np.errstate(all="ignore"):
        a = _finite_exp(start)[None, :] * e[:, 0]
        for t in range(longest):
            if t:
                a = (alpha[:, t - 1] @ t_exp) * e[:, t]
            z = a.sum(axis=1)
            live = valid[:, t]
            ok &= ~live | ((z > 0) & np.isfinite(z))
            alpha[:, t] = np.where(live[:, None], a / np.where(live, z, 1.0)[:, None], 0.0)
        end_exp = _finite_exp(end)
        b = np.zeros_like(e[:, 0])
        for t in range(longest - 1, -1, -1):
            if t < longest - 1:
                b = (e[:, t + 1] * beta[:, t + 1]) @ t_exp.T
            b = np.where((lengths - 1 == t)[:, None], end_exp[None, :], b)
            z = b.sum(axis=1)
            live = valid[:, t]
            ok &= ~live | ((z > 0) & np.isfinite(z))
            beta[:, t] = np.where(live[:, None], b / np.where(live, z, 1.0)[:, None], 0.0)
        post = alpha * beta
        norm = post.sum(axis=2, keepdims=True)
    out: list[np.ndarray | None] = []
    for k in range(n_docs):
        n = int(lengths[k])
        if not ok[k] or not np.all(norm[k, :n] > 0):
            out.append(None)
            continue
        out.append(np.clip(post[k, :n] / norm[k, :n], 0.0, 1.0))
    return out


class Window(Protocol):
    """What window ownership reads of a window (subword or word windows alike)."""

    @property
    def doc_index(self) -> int:
        """Index of the window's document."""
        ...

    @property
    def window_index(self) -> int:
        """Index of the window in its document."""
        ...

    @property
    def words(self) -> list[int]:
        """Document word index of each slot."""
        ...


_W = TypeVar("_W", bound=Window)


def keep_owned(
    scores: list[np.ndarray],
    owners: Sequence[Sequence[int]],
    chunk: Sequence[Window],
    window_scores: np.ndarray,
) -> None:
    """Copy into ``scores`` (one ``(n_words, T)`` array per document) the rows of the words each window owns.

    Args:
        scores: per-document word score tables, filled in place.
        owners: per document, the owner window of each word
            (:func:`~phiscrub.tagger.windows.document_windows`).
        chunk: a batch of windows.
        window_scores: ``(len(chunk), slots, T)`` scores of the batch.
    """
    for row, ex in enumerate(chunk):
        own = owners[ex.doc_index]
        for slot, w in enumerate(ex.words):
            if own[w] == ex.window_index:
                scores[ex.doc_index][w] = window_scores[row, slot]


def owned_scores(
    examples: Sequence[_W],
    owners: Sequence[Sequence[int]],
    n_words: Sequence[int],
    n_tags: int,
    run: Callable[[list[_W]], np.ndarray],
    size: Callable[[_W], int],
    batch_size: int,
    token_budget: int | None = None,
    progress: bool = False,
) -> list[np.ndarray]:
    """Per-word scores of whole documents from their windows, each word from the window owning it.

    Windows are run shortest first, so a batch is padded only to its own longest window; the
    order is restored through their document and window indices (:func:`keep_owned`). Shared by
    every inference path (torch transformer, BiLSTM, ONNX).

    Args:
        examples: the windows of all documents.
        owners: per document, the owner window of each word.
        n_words: words of each document.
        n_tags: tags of the tagger.
        run: ``(len(chunk), slots, n_tags)`` decoding scores of a batch of windows.
        size: the length of a window that its batch is padded to.
        batch_size: at most this many windows per batch.
        token_budget: when set, fewer windows per batch so that windows x longest <= budget.
        progress: report ``model windows`` counts (:mod:`phiscrub.progress`).

    Returns:
        One ``(n_words, n_tags)`` float64 array per document.
    """
    scores = [np.zeros((n, n_tags), dtype=np.float64) for n in n_words]
    done = 0
    for rows in chunk_order(examples, size, batch_size, token_budget):
        chunk = [examples[i] for i in rows]
        keep_owned(scores, owners, chunk, run(chunk))
        done += len(rows)
        if progress:
            from phiscrub.progress import report

            report("model windows", done, len(examples))
    return scores


def chunk_order(
    examples: Sequence[_W], size: Callable[[_W], int], batch_size: int, token_budget: int | None = None
) -> list[list[int]]:
    """The batches :func:`owned_scores` runs, as window indices: shortest windows first, at most
    ``batch_size`` windows per batch and, with ``token_budget``, windows x longest <= budget."""
    order = sorted(range(len(examples)), key=lambda i: size(examples[i]))
    out: list[list[int]] = []
    b = 0
    while b < len(order):
        rows = batch_size
        if token_budget is not None:
            longest = size(examples[order[min(b + batch_size, len(order)) - 1]])
            rows = max(1, min(batch_size, token_budget // max(longest, 1)))
        out.append(order[b : b + rows])
        b += rows
    return out


#: Documents encoded and scored at once by :func:`decode_in_groups`: bounds memory on large corpora.
DOC_GROUP = 64


def decode_in_groups(
    docs: Sequence[Document],
    score: Callable[[Sequence[Document]], list[tuple[list[Token], np.ndarray]]],
    tags: Sequence[str],
    transitions: Transitions,
    use_crf: bool,
) -> list[WordPrediction]:
    """Word predictions of many documents, :data:`DOC_GROUP` at a time: ``score`` then :func:`decode_documents`.

    Args:
        docs: the documents.
        score: per document of a group, its tokens and ``(n_words, T)`` decoding scores.
        tags, transitions, use_crf: as for :func:`decode_document`.
    """
    out: list[WordPrediction] = []
    for s in range(0, len(docs), DOC_GROUP):
        part = docs[s : s + DOC_GROUP]
        items = [(doc.id, tokens, scores) for doc, (tokens, scores) in zip(part, score(part))]
        out += decode_documents(items, tags, transitions, use_crf)
    return out
