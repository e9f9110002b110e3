"""Variable-length chunks of a letter (Ren et al. 2025, section 3.3.2).

A letter is split into sentences (:func:`phiscrub.text.sentences`, which also ends a sentence at each
line break, so a "line" here is a sentence). Sentences are added to the current chunk until it holds
``max_lines`` sentences or adding the next one would pass ``max_tokens`` tokens; a single sentence
longer than ``max_tokens`` (a medication list without full stops) is cut into pieces of at most
``max_tokens`` tokens at token boundaries.

Chunks are character ranges of the original text and never overlap; the text between them is only
whitespace. The synthesizer edits the letter in place through these ranges, so the letter is put
back together exactly around the edits.
"""

from __future__ import annotations

from dataclasses import dataclass

from phiscrub.errors import ConfigError
from phiscrub.text import sentences, tokenize

__all__ = ["DEFAULT_MAX_LINES", "DEFAULT_MAX_TOKENS", "Chunk", "chunk_text"]

#: The paper's values: 41 lines (where tokens per chunk stopped growing) and 256 tokens.
DEFAULT_MAX_LINES = 41
DEFAULT_MAX_TOKENS = 256


@dataclass(frozen=True)
class Chunk:
    """A half-open character range ``[start, end)`` of a letter.

    Attributes:
        start: first character.
        end: one past the last character.
        lines: number of sentences (or sentence pieces) in the chunk.
        tokens: number of :func:`phiscrub.text.tokenize` tokens in the chunk.
    """

    start: int
    end: int
    lines: int
    tokens: int


def _pieces(text: str, start: int, end: int, max_tokens: int) -> list[tuple[int, int, int]]:
    """A sentence as ``(start, end, tokens)`` pieces of at most ``max_tokens`` tokens each."""
    toks = tokenize(text[start:end])
    if len(toks) <= max_tokens:
        return [(start, end, len(toks))]
    out = []
    for k in range(0, len(toks), max_tokens):
        group = toks[k : k + max_tokens]
        out.append((start + group[0].start, start + group[-1].end, len(group)))
    return out


def chunk_text(
    text: str, max_lines: int = DEFAULT_MAX_LINES, max_tokens: int = DEFAULT_MAX_TOKENS
) -> list[Chunk]:
    """Group the sentences of ``text`` into chunks.

    Args:
        text: the letter.
        max_lines: most sentences per chunk.
        max_tokens: most tokens per chunk (``phiscrub-word-v1`` tokens).

    Returns:
        Chunks in text order; their ranges cover every non-whitespace character exactly once.

    Raises:
        ConfigError: ``max_lines`` or ``max_tokens`` below 1.
    """
    if max_lines < 1 or max_tokens < 1:
        raise ConfigError("max_lines and max_tokens must be at least 1")
    chunks: list[Chunk] = []
    cur_start = cur_end = -1
    cur_lines = cur_tokens = 0
    for s_start, s_end in sentences(text):
        for p_start, p_end, n_tok in _pieces(text, s_start, s_end, max_tokens):
            if cur_start >= 0 and (cur_lines >= max_lines or cur_tokens + n_tok > max_tokens):
                chunks.append(Chunk(cur_start, cur_end, cur_lines, cur_tokens))
                cur_start = -1
            if cur_start < 0:
                cur_start, cur_lines, cur_tokens = p_start, 0, 0
            cur_end = p_end
            cur_lines += 1
            cur_tokens += n_tok
    if cur_start >= 0:
        chunks.append(Chunk(cur_start, cur_end, cur_lines, cur_tokens))
    return chunks
