"""Few-shot corpora (Amin et al. 2022, Definition 1): K labelled sentences covering every PHI label.

Definition 1 asks for ``K`` labelled sentences that contain each label of the label set at least
once. :func:`fewshot_sample` builds such a corpus from a labelled corpus:

1. every document is cut into sentences (:func:`phiscrub.text.sentences`; sentences that a PHI span
   crosses are joined) and becomes sentence-level documents with ids ``<doc>#s<n>`` (``n`` counts
   the document's sentences from 0), spans re-based on the sentence and folded to the granularity
   (``coarse`` by default: MEDDOCAN's OTHER types fold to nothing, i.e. to O);
2. a greedy set cover picks sentences until every label present in the corpus occurs at least once
   (each step takes the sentence with the most labels not yet covered; ties are broken by a seeded
   shuffle);
3. random sentences (same seed) fill the sample up to ``K``.

The same corpus, ``K`` and seed always give the same sample. When the cover alone needs more than
``K`` sentences, :class:`~phiscrub.errors.ConfigError` says how many are needed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from phiscrub.document import Document, Span, sentence_ranges
from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity, fold

__all__ = ["FewShotSample", "fewshot_sample", "label_counts", "sentence_documents"]


def sentence_documents(docs: Iterable[Document], granularity: Granularity = "coarse") -> list[Document]:
    """Cut documents into sentence-level documents with re-based, folded spans.

    Args:
        docs: labelled documents.
        granularity: label granularity of the output spans; spans whose label folds to nothing at
            that granularity (``OTHER``) are dropped.

    Returns:
        One document per sentence, id ``<doc id>#s<n>``, in corpus order. Metadata keeps the
        source id, the sentence number and its offsets in the source text (and ``lang`` when the
        source has one); never any text.
    """
    out: list[Document] = []
    for doc in docs:
        for n, (start, end) in enumerate(sentence_ranges(doc)):
            spans = []
            for s in doc.spans:
                if start <= s.start and s.end <= end:
                    label = fold(s.label, granularity)
                    if label is not None:
                        spans.append(Span(s.start - start, s.end - start, label, s.score, s.source))
            meta: dict[str, object] = {"source_id": doc.id, "sentence": n, "start": start, "end": end}
            if isinstance(doc.metadata.get("lang"), str):
                meta["lang"] = doc.metadata["lang"]
            out.append(Document(f"{doc.id}#s{n}", doc.text[start:end], tuple(spans), meta))
    return out


def label_counts(docs: Iterable[Document]) -> Counter[str]:
    """Entity counts per label over ``docs``."""
    counts: Counter[str] = Counter()
    for doc in docs:
        counts.update(s.label for s in doc.spans)
    return counts


@dataclass(frozen=True)
class FewShotSample:
    """A few-shot corpus and how it was drawn.

    Attributes:
        documents: the selected sentence documents, in corpus order.
        labels: the label set covered (every label present in the input), sorted.
        cover_ids: ids of the sentences chosen by the greedy cover, in the order chosen.
        pool_size: number of sentences the sample was drawn from.
        seed: the seed used.
        counts: entity counts per label in the sample.
    """

    documents: tuple[Document, ...]
    labels: tuple[str, ...]
    cover_ids: tuple[str, ...]
    pool_size: int
    seed: int
    counts: Counter[str] = field(default_factory=Counter)


def _greedy_cover(pool: Sequence[Document], order: Sequence[int], wanted: set[str]) -> list[int]:
    """Indices (into ``pool``) of a greedy cover of ``wanted``; ties go to the earlier in ``order``."""
    labels = [frozenset(s.label for s in pool[i].spans) for i in range(len(pool))]
    uncovered = set(wanted)
    chosen: list[int] = []
    while uncovered:
        best, gain = -1, 0
        for i in order:
            g = len(labels[i] & uncovered)
            if g > gain:
                best, gain = i, g
        if best < 0:  # cannot happen: every wanted label occurs in the pool
            raise ConfigError(f"labels {sorted(uncovered)} occur in no sentence")
        chosen.append(best)
        uncovered -= labels[best]
    return chosen


def fewshot_sample(
    docs: Iterable[Document],
    k: int,
    *,
    seed: int = 0,
    granularity: Granularity = "coarse",
    phi_only: bool = False,
) -> FewShotSample:
    """Draw a K-sentence few-shot corpus containing every PHI label of ``docs`` at least once.

    Args:
        docs: a labelled corpus (whole notes or sentences).
        k: number of sentences to draw.
        seed: seed of the tie-breaking shuffle and of the random fill.
        granularity: label granularity of the sample (``coarse``: the 7 types of Amin et al.).
        phi_only: fill only with sentences holding at least one PHI span.

    Returns:
        The sample (see :class:`FewShotSample`).

    Raises:
        ConfigError: ``k`` < 1, ``k`` larger than the available sentences, or smaller than the
            number of sentences the label cover needs (the message gives that number).
    """
    if k < 1:
        raise ConfigError(f"k must be at least 1, got {k}")
    pool = sentence_documents(docs, granularity)
    wanted = set(label_counts(pool))
    rng = random.Random(seed)
    order = list(range(len(pool)))
    rng.shuffle(order)
    cover = _greedy_cover(pool, order, wanted)
    if len(cover) > k:
        raise ConfigError(
            f"k={k} is too small: covering all {len(wanted)} labels ({', '.join(sorted(wanted))}) "
            f"takes {len(cover)} sentences; use k >= {len(cover)}"
        )
    chosen = set(cover)
    rest = [i for i in order if i not in chosen and (pool[i].spans or not phi_only)]
    if len(cover) + len(rest) < k:
        kind = "sentences with PHI" if phi_only else "sentences"
        raise ConfigError(f"k={k} is larger than the corpus: it has {len(cover) + len(rest)} {kind}")
    chosen.update(rest[: k - len(cover)])
    selected = tuple(pool[i] for i in sorted(chosen))
    return FewShotSample(
        documents=selected,
        labels=tuple(sorted(wanted)),
        cover_ids=tuple(pool[i].id for i in cover),
        pool_size=len(pool),
        seed=seed,
        counts=label_counts(selected),
    )
