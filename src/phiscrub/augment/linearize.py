"""DAGA's linearized sentence format (Ding et al. 2020): tagged sentences, linearize, delinearize, render.

A tag token is inserted before every entity word: ``seen by <B-NAME> John <I-NAME> Smith``. A word
written right after the previous one, with no space, carries the prefix :data:`GLUE` (``##``), so a
generated sentence is written back with the corpus's own spacing. See :mod:`phiscrub.augment.daga`
for the language model that learns and samples this format.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phiscrub.document import Document, Span
from phiscrub.errors import MalformedSampleError
from phiscrub.labels import Granularity
from phiscrub.text import sentences
from phiscrub.train.dataset import bio_tags

__all__ = [
    "BOS",
    "EOS",
    "GLUE",
    "PAD",
    "SPECIALS",
    "TAG_RE",
    "TaggedSentence",
    "delinearize",
    "linearize",
    "render",
    "tag_token",
    "tagged_sentences",
]

PAD = "<pad>"
BOS = "<bos>"
EOS = "<eos>"
#: Prefix of a word written with no space before it.
GLUE = "##"
#: The special tokens of the language model, in vocabulary order.
SPECIALS = (PAD, BOS, EOS)
TAG_RE = re.compile(r"<([BI])-([A-Z0-9_]+)>")


@dataclass(frozen=True)
class TaggedSentence:
    """One sentence as words with BIO tags.

    Attributes:
        words: the words (tokens of :func:`phiscrub.text.tokenize`).
        glued: per word, True when it follows the previous word with no space (False for the first).
        tags: per word, ``O``, ``B-X`` or ``I-X`` (a valid BIO sequence).
    """

    words: tuple[str, ...]
    glued: tuple[bool, ...]
    tags: tuple[str, ...]

    @property
    def has_phi(self) -> bool:
        """True when at least one word is part of an entity."""
        return any(tag != "O" for tag in self.tags)


def tag_token(tag: str) -> str:
    """The linearized token of a BIO tag: ``B-NAME`` -> ``<B-NAME>``."""
    return f"<{tag}>"


def tagged_sentences(
    docs: Iterable[Document], granularity: Granularity = "coarse", lowercase: bool = False
) -> list[list[TaggedSentence]]:
    """The sentences of every document as :class:`TaggedSentence` objects, one list per document.

    A word takes the tag of the span covering most of it (:func:`phiscrub.train.dataset.bio_tags`);
    an entity cut by a sentence boundary restarts with ``B-`` in the second sentence.

    Args:
        docs: gold documents.
        granularity: label granularity of the tags.
        lowercase: lower-case the words.

    Raises:
        LabelError: a span label is unknown.
    """
    out: list[list[TaggedSentence]] = []
    for doc in docs:
        tokens, tags = bio_tags(doc, granularity)
        per_doc: list[TaggedSentence] = []
        i = 0
        for start, end in sentences(doc.text):
            while i < len(tokens) and tokens[i].end <= start:
                i += 1
            j = i
            while j < len(tokens) and tokens[j].start < end:
                j += 1
            if j == i:
                continue
            words = [t.text.lower() if lowercase else t.text for t in tokens[i:j]]
            glued = [False] + [tokens[k].start == tokens[k - 1].end for k in range(i + 1, j)]
            sent_tags = list(tags[i:j])
            if sent_tags[0].startswith("I-"):
                sent_tags[0] = "B-" + sent_tags[0][2:]
            per_doc.append(TaggedSentence(tuple(words), tuple(glued), tuple(sent_tags)))
            i = j
        out.append(per_doc)
    return out


def linearize(sentence: TaggedSentence) -> list[str]:
    """The token sequence of a sentence for the language model (no ``<bos>``/``<eos>``).

    ``<B-X>``/``<I-X>`` goes before each entity word; a word glued to the previous one gets ``##``.
    """
    seq: list[str] = []
    for word, glued, tag in zip(sentence.words, sentence.glued, sentence.tags):
        if tag != "O":
            seq.append(tag_token(tag))
        seq.append(GLUE + word if glued else word)
    return seq


def delinearize(tokens: Sequence[str]) -> TaggedSentence:
    """Read a linearized sequence back as words, spacing and BIO tags.

    A word with no tag token before it is ``O``. ``##`` on the first word is ignored (a sentence starts
    with no space).

    Raises:
        MalformedSampleError: a tag token not followed by a word (at the end, or before another tag),
            an ``I-X`` that does not continue an entity of type ``X``, a special token inside the
            sequence, or no word at all.
    """
    words: list[str] = []
    glued: list[bool] = []
    tags: list[str] = []
    pending: str | None = None
    for tok in tokens:
        m = TAG_RE.fullmatch(tok)
        if m is not None:
            if pending is not None:
                raise MalformedSampleError("tag followed by a tag")
            pending = f"{m.group(1)}-{m.group(2)}"
            continue
        if tok in SPECIALS:
            raise MalformedSampleError("special token inside the sentence")
        tag = pending or "O"
        pending = None
        if tag.startswith("I-") and (not tags or tags[-1] == "O" or tags[-1][2:] != tag[2:]):
            raise MalformedSampleError("I- tag does not continue an entity of the same type")
        is_glued = tok.startswith(GLUE) and len(tok) > len(GLUE)
        words.append(tok[len(GLUE) :] if is_glued else tok)
        glued.append(is_glued and bool(words[:-1]))
        tags.append(tag)
    if pending is not None:
        raise MalformedSampleError("tag at the end of the sentence")
    if not words:
        raise MalformedSampleError("no word")
    return TaggedSentence(tuple(words), tuple(glued), tuple(tags))


def render(sentence: TaggedSentence) -> tuple[str, list[Span]]:
    """The text of a sentence (words joined by one space unless glued) and its entity spans.

    A span runs from its first word's start to its last word's end.

    Raises:
        MalformedSampleError: the tags are not a valid BIO sequence.
    """
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    open_start: int | None = None
    open_label = ""
    last_end = 0
    for k, (word, glued, tag) in enumerate(zip(sentence.words, sentence.glued, sentence.tags)):
        if k > 0 and not glued:
            parts.append(" ")
            pos += 1
        if tag.startswith("I-"):
            if open_start is None or open_label != tag[2:]:
                raise MalformedSampleError("I- tag does not continue an entity of the same type")
        else:
            if open_start is not None:
                spans.append(Span(open_start, last_end, open_label))
                open_start = None
            if tag != "O":
                open_start, open_label = pos, tag[2:]
        parts.append(word)
        pos += len(word)
        last_end = pos
    if open_start is not None:
        spans.append(Span(open_start, last_end, open_label))
    return "".join(parts), spans
