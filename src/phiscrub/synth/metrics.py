"""Quality and privacy metrics for synthetic letters, after Ren et al. (2025, sections 3.5 and 4).

Each synthetic letter is compared with the original letter it was generated from; when masked
letters (the generator's input, with mask tokens such as ``[MASK]``) are given, the same scores for
masked-vs-original form the *baseline*: a useful generator scores above the baseline and below 1.

Metrics (all computed here, no scoring package needed):

* **ROUGE-1/2/L** F-measure (and P/R) on word tokens: :func:`phiscrub.text.tokenize` tokens,
  lowercased, keeping tokens with at least one letter or digit (punctuation dropped, as in the
  ``rouge-score`` package). A mask token is one token that matches nothing.
* **BERTScore-style embedding similarity** (Zhang et al., 2020): contextual subword embeddings of a
  local Hugging Face encoder (default: the bundled all-MiniLM-L6-v2), each candidate token greedily
  matched to its most similar reference token by cosine similarity (precision), and the other way
  round (recall); F is their harmonic mean. No idf weighting and no baseline rescaling. Long letters
  are embedded in consecutive windows of at most ``window`` subwords. Mask tokens are shown to the
  encoder as its own mask token.
* **Readability** (English formulas): SMOG (McLaughlin, 1969), Flesch Reading Ease and
  Flesch-Kincaid Grade Level, with the heuristic syllable counter :func:`count_syllables`.
  Sentences come from :func:`phiscrub.text.sentences` (line breaks end sentences); words are
  tokens with at least one letter; a mask token counts as a one-syllable word.
* **Invalid prediction rate**: invalid predictions / masked words, from counts the generator left
  (``stats.json`` or per-document ``metadata["synth"]``, see :func:`load_synth_stats`); ``None``
  when there are none.
* **Information entropy**: Shannon entropy of the letter's unigram distribution of word tokens,
  in bits per token (every mask token is the same symbol).
* **Privacy check**: the share of the original's distinct PHI strings (gold spans, or detector spans
  when the original has none) that occur verbatim in the synthetic letter (case-sensitive, runs of
  whitespace collapsed, not inside a longer word unless the original has it so), and the share of the original's distinct word
  5-grams that occur in the synthetic letter.

Nothing here logs or returns note text: results hold ids, counts and scores only.
"""

from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.text import TOKENIZER_NAME, sentences, tokenize

if TYPE_CHECKING:
    import torch

__all__ = [
    "DEFAULT_MASK_PATTERN",
    "MASK_SYMBOL",
    "Comparison",
    "EmbeddingScorer",
    "InvalidCounts",
    "LetterResult",
    "Matching",
    "PrivacyCheck",
    "Readability",
    "Score",
    "SynthReport",
    "compare",
    "count_syllables",
    "evaluate_synthetic",
    "greedy_match",
    "lcs_length",
    "load_synth_stats",
    "match_documents",
    "ngrams",
    "phi_strings",
    "privacy_check",
    "readability",
    "readability_from_counts",
    "rouge_l",
    "rouge_n",
    "stats_path_for",
    "text_entropy",
    "to_markdown",
    "unigram_entropy",
    "word_tokens",
    "write_report",
]

#: Mask tokens of common masked language models (BERT ``[MASK]``, RoBERTa ``<mask>``, T5 sentinels).
DEFAULT_MASK_PATTERN = r"\[MASK\]|<mask>|<extra_id_\d+>"
#: The word token a mask becomes in :func:`word_tokens` (the project tokenizer never yields it).
MASK_SYMBOL = "<mask>"
#: Characters that may separate an original id from a suffix in a synthetic id (``doc1#synth0``).
ID_SEPARATORS = "#:@|/~_-. "
#: Metadata keys that may name the original document of a synthetic one.
SOURCE_ID_KEYS = ("source_id", "original_id")

_WORDLIKE = re.compile(r"\w")
_LETTER = re.compile(r"[^\W\d_]")


# -- tokens ---------------------------------------------------------------------------------------
def _mask_re(mask_pattern: str | None) -> re.Pattern[str] | None:
    if not mask_pattern:
        return None
    try:
        return re.compile(mask_pattern)
    except re.error as exc:
        raise ConfigError(f"bad mask pattern: {exc}") from None


def _segments(text: str, mask_pattern: str | None) -> list[str | None]:
    """Pieces of ``text`` between mask tokens, with ``None`` where a mask token stood."""
    rx = _mask_re(mask_pattern)
    if rx is None:
        return [text]
    out: list[str | None] = []
    pos = 0
    for m in rx.finditer(text):
        if m.end() == m.start():
            continue
        out.extend([text[pos : m.start()], None])
        pos = m.end()
    out.append(text[pos:])
    return out


def word_tokens(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> list[str]:
    """Lowercased word tokens of ``text``; each mask token becomes :data:`MASK_SYMBOL`.

    Args:
        text: a letter.
        mask_pattern: regular expression of mask tokens; None or "" for none.

    Returns:
        Project tokens (``phiscrub-word-v1``) with at least one letter or digit, lowercased.
    """
    out: list[str] = []
    for seg in _segments(text, mask_pattern):
        if seg is None:
            out.append(MASK_SYMBOL)
            continue
        out.extend(t.text.lower() for t in tokenize(seg) if _WORDLIKE.search(t.text))
    return out


# -- ROUGE ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Score:
    """Precision, recall and F-measure of one comparison (candidate against reference).

    Args:
        precision: share of the candidate found in the reference.
        recall: share of the reference found in the candidate.
        fmeasure: harmonic mean of the two (0.0 when both are 0).
    """

    precision: float
    recall: float
    fmeasure: float

    @classmethod
    def from_pr(cls, precision: float, recall: float) -> Score:
        """Score with the F-measure computed from ``precision`` and ``recall``."""
        f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return cls(precision, recall, f)


def _unmatchable(tokens: Sequence[str], side: str) -> list[str]:
    """Replace each :data:`MASK_SYMBOL` by a string no other token equals."""
    return [f"\x00{side}{i}" if t == MASK_SYMBOL else t for i, t in enumerate(tokens)]


def ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Counts of the ``n``-grams of ``tokens`` (empty when there are fewer than ``n`` tokens).

    Args:
        tokens: a token sequence.
        n: the n-gram order (>= 1).
    """
    if n < 1:
        raise ConfigError(f"n-gram order must be >= 1, got {n}")
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def rouge_n(candidate: Sequence[str], reference: Sequence[str], n: int) -> Score:
    """ROUGE-N: clipped n-gram overlap of ``candidate`` with ``reference``.

    Args:
        candidate: candidate tokens (e.g. a synthetic letter), :data:`MASK_SYMBOL` matching nothing.
        reference: reference tokens (the original letter).
        n: n-gram order.

    Returns:
        P = overlap / candidate n-grams, R = overlap / reference n-grams, and F (0 when either is empty).
    """
    cand = ngrams(_unmatchable(candidate, "c"), n)
    ref = ngrams(_unmatchable(reference, "r"), n)
    overlap = sum((cand & ref).values())
    n_cand, n_ref = sum(cand.values()), sum(ref.values())
    return Score.from_pr(overlap / n_cand if n_cand else 0.0, overlap / n_ref if n_ref else 0.0)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences.

    Bit-parallel (Allison and Dix 1986; Hyyro 2004) on Python integers: O(len(a) * len(b) / wordsize),
    fast enough for whole letters.
    """
    if not a or not b:
        return 0
    match: dict[str, int] = {}
    for i, tok in enumerate(a):
        match[tok] = match.get(tok, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for tok in b:
        u = v & match.get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l(candidate: Sequence[str], reference: Sequence[str]) -> Score:
    """ROUGE-L: longest common subsequence of the two token sequences (whole letter, not per sentence).

    Args:
        candidate: candidate tokens, :data:`MASK_SYMBOL` matching nothing.
        reference: reference tokens.

    Returns:
        P = LCS / len(candidate), R = LCS / len(reference), and F.
    """
    lcs = lcs_length(_unmatchable(candidate, "c"), _unmatchable(reference, "r"))
    return Score.from_pr(
        lcs / len(candidate) if candidate else 0.0, lcs / len(reference) if reference else 0.0
    )


# -- readability ----------------------------------------------------------------------------------
# Silent endings: "-e" (not "-le"), "-es" (not after s/x/z/c/g: boxes, pages), "-ed" (not after t/d).
_SILENT_END = re.compile(r"(?:[^laeiouysxzcg]es|[^laeiouytd]ed|[^laeiouy]e)$")
# A silent "e" before "-ment" (manage-ment, state-ment; not ce-ment, el-e-ment).
_SILENT_EMENT = re.compile(r"(?<=[aeiouy][^aeiouyl])ement")
_VOWEL_GROUP = re.compile(r"[aeiouy]+")
# Vowel pairs usually spoken as two syllables: "-ia-" (not after c/s/t/g/x: special, Asia, ...),
# "-io-" (not in -tion, -sion, -cion, -gion, -xion), and a vowel before "-ing" (be-ing, go-ing).
_HIATUS = (
    re.compile(r"(?<![cstgx])ia"),
    re.compile(r"(?<![cstgx])io"),
    re.compile(r"[aeiouy](?=ing(?:s)?$)"),
)


def count_syllables(word: str) -> int:
    """Estimated number of syllables of an English word (heuristic; accents are stripped first).

    Vowel groups (``aeiouy``) are counted after dropping a silent final ``-e``/``-es``/``-ed`` (but
    not ``-le``, ``-ted``, ``-ses`` ...) and the silent ``e`` of ``-ement``; a few vowel pairs usually
    spoken apart add one. Words of at most three letters have one syllable. Every word has at least one
    syllable; a string without letters has none.

    Args:
        word: one word.
    """
    folded = unicodedata.normalize("NFKD", word)
    w = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    w = re.sub(r"[^a-z]", "", w)
    if not w:
        return 1 if _LETTER.search(word) else 0
    if len(w) <= 3:
        return 1
    w = _SILENT_EMENT.sub("ment", _SILENT_END.sub("", w))
    w = re.sub(r"^y", "", w)
    n = len(_VOWEL_GROUP.findall(w)) + sum(len(rx.findall(w)) for rx in _HIATUS)
    return max(1, n)


@dataclass(frozen=True)
class Readability:
    """Readability scores of one text and the counts behind them; scores are None without words.

    Args:
        smog: SMOG grade, ``1.0430 * sqrt(polysyllables * 30 / sentences) + 3.1291``.
        flesch_reading_ease: ``206.835 - 1.015 * words/sentences - 84.6 * syllables/words``.
        flesch_kincaid_grade: ``0.39 * words/sentences + 11.8 * syllables/words - 15.59``.
        words: word count.
        sentences: sentences holding at least one word.
        syllables: syllable count.
        polysyllables: words of three syllables or more.
    """

    smog: float | None
    flesch_reading_ease: float | None
    flesch_kincaid_grade: float | None
    words: int
    sentences: int
    syllables: int
    polysyllables: int


def readability_from_counts(words: int, n_sentences: int, syllables: int, polysyllables: int) -> Readability:
    """The three readability formulas from raw counts.

    Args:
        words: number of words.
        n_sentences: number of sentences.
        syllables: number of syllables.
        polysyllables: number of words with three syllables or more.
    """
    if words <= 0 or n_sentences <= 0:
        return Readability(None, None, None, max(words, 0), max(n_sentences, 0), syllables, polysyllables)
    wps = words / n_sentences
    spw = syllables / words
    return Readability(
        smog=1.0430 * math.sqrt(polysyllables * 30 / n_sentences) + 3.1291,
        flesch_reading_ease=206.835 - 1.015 * wps - 84.6 * spw,
        flesch_kincaid_grade=0.39 * wps + 11.8 * spw - 15.59,
        words=words,
        sentences=n_sentences,
        syllables=syllables,
        polysyllables=polysyllables,
    )


def readability(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> Readability:
    """SMOG, Flesch Reading Ease and Flesch-Kincaid Grade of ``text`` (English formulas).

    Args:
        text: a letter.
        mask_pattern: mask tokens, each counted as a one-syllable word; None for none.
    """
    words = n_sent = syllables = poly = 0
    for start, end in sentences(text):
        counts = []
        for seg in _segments(text[start:end], mask_pattern):
            if seg is None:
                counts.append(1)
                continue
            counts.extend(count_syllables(t.text) for t in tokenize(seg) if _LETTER.search(t.text))
        if counts:
            n_sent += 1
            words += len(counts)
            syllables += sum(counts)
            poly += sum(1 for c in counts if c >= 3)
    return readability_from_counts(words, n_sent, syllables, poly)


# -- entropy --------------------------------------------------------------------------------------
def unigram_entropy(tokens: Iterable[str]) -> float:
    """Shannon entropy of the unigram distribution of ``tokens``, in bits per token (0 when empty)."""
    counts = Counter(tokens)
    total = sum(counts.values())
    if not total:
        return 0.0
    return -sum(c / total * math.log2(c / total) for c in counts.values()) + 0.0


def text_entropy(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> float:
    """Unigram entropy of the word tokens of ``text`` (:func:`word_tokens`), bits per token."""
    return unigram_entropy(word_tokens(text, mask_pattern))


# -- privacy --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrivacyCheck:
    """How much of an original letter survives verbatim in another letter.

    Args:
        phi_total: distinct PHI strings of the original.
        phi_survived: how many of them occur verbatim in the other letter.
        ngram_total: distinct word n-grams of the original.
        ngram_survived: how many of them occur in the other letter.
        n: the n-gram order.
    """

    phi_total: int
    phi_survived: int
    ngram_total: int
    ngram_survived: int
    n: int = 5

    @property
    def phi_share(self) -> float | None:
        """Share of PHI strings that survived; None when the original has none."""
        return self.phi_survived / self.phi_total if self.phi_total else None

    @property
    def ngram_share(self) -> float | None:
        """Share of n-grams that survived; None when the original has fewer than ``n`` words."""
        return self.ngram_survived / self.ngram_total if self.ngram_total else None


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def phi_strings(doc: Document, spans: Iterable[Span] | None = None) -> list[str]:
    """Distinct PHI surfaces of ``doc`` (its spans, or ``spans``), whitespace-collapsed and stripped.

    Surfaces without any letter or digit are left out.

    Args:
        doc: the original letter.
        spans: spans to use instead of ``doc.spans``.
    """
    seen: dict[str, None] = {}
    for s in doc.spans if spans is None else spans:
        surface = _squash(doc.text[s.start : s.end]).strip()
        if surface and _WORDLIKE.search(surface):
            seen.setdefault(surface, None)
    return list(seen)


def privacy_check(
    original: str,
    phi: Sequence[str],
    other: str,
    n: int = 5,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
) -> PrivacyCheck:
    """Count the original's PHI strings and word n-grams that occur in ``other``.

    A PHI string survives when it occurs in ``other`` case-sensitively, with runs of whitespace
    collapsed on both sides, and not inside a longer word (unless the original has it only inside a
    longer word, as when an annotation cuts a word). N-grams are over :func:`word_tokens`
    (lowercased; an n-gram holding a mask token never survives).

    Args:
        original: the original letter.
        phi: its PHI strings (see :func:`phi_strings`).
        other: the synthetic (or masked) letter.
        n: n-gram order.
        mask_pattern: mask tokens.
    """
    squashed, squashed_original = _squash(other), _squash(original)
    distinct = list(dict.fromkeys(_squash(p).strip() for p in phi if p.strip()))
    survived = 0
    for p in distinct:
        bounded = re.compile(rf"(?<!\w){re.escape(p)}(?!\w)")
        # A span cut inside a word of the original is looked for as a plain substring.
        if bounded.search(squashed_original) is None:
            survived += p in squashed
        else:
            survived += bounded.search(squashed) is not None
    orig_grams = set(ngrams(_unmatchable(word_tokens(original, mask_pattern), "r"), n))
    other_grams = set(ngrams(_unmatchable(word_tokens(other, mask_pattern), "c"), n))
    return PrivacyCheck(len(distinct), survived, len(orig_grams), len(orig_grams & other_grams), n)


# -- embedding similarity -------------------------------------------------------------------------
def greedy_match(candidate: torch.Tensor, reference: torch.Tensor) -> Score:
    """BERTScore greedy matching of two sets of L2-normalised token embeddings.

    Args:
        candidate: ``(n_c, d)`` candidate token embeddings, unit length.
        reference: ``(n_r, d)`` reference token embeddings, unit length.

    Returns:
        P = mean over candidate tokens of the best cosine with a reference token, R the reverse, F.
        Empty sides score 0 (both empty: 1).
    """
    if candidate.shape[0] == 0 or reference.shape[0] == 0:
        both = candidate.shape[0] == 0 and reference.shape[0] == 0
        return Score(1.0, 1.0, 1.0) if both else Score(0.0, 0.0, 0.0)
    sim = candidate @ reference.T
    precision = float(sim.max(dim=1).values.mean())
    recall = float(sim.max(dim=0).values.mean())
    return Score.from_pr(precision, recall)


class EmbeddingScorer:
    """BERTScore-style similarity with a local Hugging Face encoder, batched, on CPU by default.

    Token embeddings are cached per distinct text, so a letter compared several times (with a
    synthetic and with a masked version) is embedded once. The encoder is loaded on first use.

    Args:
        encoder: a local encoder folder; None for the bundled all-MiniLM-L6-v2.
        batch_size: windows per forward pass.
        window: most subwords per window, special tokens included (capped by the model's limit).
        layer: hidden layer whose output is used (0 = embeddings, -1 = last); default last.
        mask_pattern: mask tokens, shown to the encoder as its own mask token.
        device: torch device name.
        progress: show a progress bar on stderr.
    """

    def __init__(
        self,
        encoder: str | Path | None = None,
        batch_size: int = 16,
        window: int = 256,
        layer: int = -1,
        mask_pattern: str | None = DEFAULT_MASK_PATTERN,
        device: str = "cpu",
        progress: bool = True,
    ) -> None:
        from phiscrub.hf import check_model_dir, quiet_transformers
        from phiscrub.train.model import default_encoder_path

        if batch_size < 1 or window < 3:
            raise ConfigError("batch_size must be >= 1 and window >= 3")
        self.encoder_path = check_model_dir(encoder) if encoder is not None else default_encoder_path()
        self.device = device
        self.batch_size = batch_size
        self.requested_window = window
        self.layer = layer
        self.mask_pattern = mask_pattern
        self.progress = progress
        self._quiet = quiet_transformers
        self._cache: dict[str, torch.Tensor] = {}
        self._loaded: tuple[Any, Any, int, tuple[list[int], list[int]]] | None = None

    def _load(self) -> tuple[Any, Any, int, tuple[list[int], list[int]]]:
        """Model, tokenizer, effective window and special ends; loaded on first use."""
        if self._loaded is None:
            from phiscrub.train.model import load_encoder

            model, tokenizer = load_encoder(self.encoder_path)
            model.eval().to(self.device)
            limit = int(getattr(model.config, "max_position_embeddings", 512) or 512)
            if getattr(model.config, "model_type", "") in ("roberta", "xlm-roberta", "camembert"):
                limit -= 2  # positions start after the padding index
            model_max = int(getattr(tokenizer, "model_max_length", limit) or limit)
            window = min(self.requested_window, limit, model_max)
            self._loaded = (model, tokenizer, window, self._special_ends(tokenizer))
        return self._loaded

    @property
    def model(self) -> Any:
        """The encoder (loaded on first use)."""
        return self._load()[0]

    @property
    def tokenizer(self) -> Any:
        """The encoder's fast tokenizer (loaded on first use)."""
        return self._load()[1]

    @property
    def window(self) -> int:
        """Effective window: the requested one capped by the model's position limit."""
        return self._load()[2]

    def _prepare(self, text: str) -> str:
        mask_token = getattr(self.tokenizer, "mask_token", None)
        if not mask_token or not self.mask_pattern:
            return text
        return "".join(mask_token if s is None else s for s in _segments(text, self.mask_pattern))

    def _special_ends(self, tokenizer: Any) -> tuple[list[int], list[int]]:
        """Special token ids the tokenizer puts before and after a single sequence (e.g. CLS, SEP)."""
        with self._quiet():
            plain = list(tokenizer("a", add_special_tokens=False)["input_ids"])
            full = list(tokenizer("a", add_special_tokens=True)["input_ids"])
        for i in range(len(full) - len(plain) + 1):
            if plain and full[i : i + len(plain)] == plain:
                return full[:i], full[i + len(plain) :]
        return [], []

    def _windows(self, ids: list[int]) -> list[tuple[list[int], list[int]]]:
        """Split subword ids into model inputs, each with the positions of its real tokens."""
        head, tail = self._load()[3]
        room = max(1, self.window - len(head) - len(tail))
        out = []
        for i in range(0, len(ids), room):
            chunk = ids[i : i + room]
            out.append((head + chunk + tail, list(range(len(head), len(head) + len(chunk)))))
        return out

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        if not texts:
            return []
        with self._quiet():
            enc = self.tokenizer([self._prepare(t) for t in texts], add_special_tokens=False)
        return [list(ids) for ids in enc["input_ids"]]

    def _embed_ids(self, ids_list: Sequence[list[int]], bar: Any) -> list[torch.Tensor]:
        """Unit-length token embeddings of pre-tokenized texts, windows batched by length."""
        import torch

        jobs: list[tuple[int, int, list[int], list[int]]] = []
        for k, ids in enumerate(ids_list):
            jobs.extend((k, w, full, keep) for w, (full, keep) in enumerate(self._windows(ids)))
        jobs.sort(key=lambda j: len(j[2]))  # similar lengths together: less padding
        parts: list[dict[int, torch.Tensor]] = [{} for _ in ids_list]
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        with torch.inference_mode():
            for i in range(0, len(jobs), self.batch_size):
                batch = jobs[i : i + self.batch_size]
                width = max(len(j[2]) for j in batch)
                input_ids = torch.full((len(batch), width), pad, dtype=torch.long)
                attention = torch.zeros((len(batch), width), dtype=torch.long)
                for r, (_, _, full, _) in enumerate(batch):
                    input_ids[r, : len(full)] = torch.tensor(full)
                    attention[r, : len(full)] = 1
                out = self.model(
                    input_ids=input_ids.to(self.device),
                    attention_mask=attention.to(self.device),
                    output_hidden_states=self.layer != -1,
                )
                hidden = out.last_hidden_state if self.layer == -1 else out.hidden_states[self.layer]
                hidden = hidden.float().cpu()
                for r, (k, w, _, keep) in enumerate(batch):
                    parts[k][w] = hidden[r, keep]
                bar.update(len(batch))
        dim = int(self.model.config.hidden_size)
        out_embs = []
        for k in range(len(ids_list)):
            pieces = [parts[k][w] for w in sorted(parts[k])]
            emb = torch.cat(pieces) if pieces else torch.zeros((0, dim))
            out_embs.append(torch.nn.functional.normalize(emb, dim=-1))
        return out_embs

    def _bar(self, total: int) -> Any:
        from tqdm import tqdm

        return tqdm(total=total, desc="embed", unit="window", file=sys.stderr, disable=not self.progress)

    def embed(self, texts: Sequence[str]) -> list[torch.Tensor]:
        """Unit-length contextual token embeddings of each text (special tokens left out); cached.

        Args:
            texts: the texts; repeats and texts seen before are embedded once.

        Returns:
            One ``(n_tokens, hidden)`` float tensor per text.
        """
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            ids = self._token_ids(todo)
            with self._bar(sum(len(self._windows(i)) for i in ids)) as bar:
                self._cache.update(zip(todo, self._embed_ids(ids, bar)))
        return [self._cache[t] for t in texts]

    def score(self, candidates: Sequence[str], references: Sequence[str], block: int = 32) -> list[Score]:
        """BERTScore P/R/F of each candidate against the reference at the same position.

        Pairs are embedded ``block`` at a time and each text's embeddings are dropped after its last
        pair (texts embedded before through :meth:`embed` are reused and kept), so memory stays
        bounded on large corpora; keep pairs sharing a text close together.

        Raises:
            ConfigError: the two sequences differ in length.
        """
        if len(candidates) != len(references):
            raise ConfigError(f"{len(candidates)} candidates but {len(references)} references")
        last_use: dict[str, int] = {}
        for i, (c, r) in enumerate(zip(candidates, references)):
            last_use[c] = last_use[r] = i
        todo = [t for t in last_use if t not in self._cache]
        ids = dict(zip(todo, self._token_ids(todo)))
        local: dict[str, torch.Tensor] = {}
        scores: list[Score] = []
        with self._bar(sum(len(self._windows(i)) for i in ids.values())) as bar:
            for start in range(0, len(candidates), block):
                stop = min(start + block, len(candidates))
                need = list(
                    dict.fromkeys(t for t in [*candidates[start:stop], *references[start:stop]] if t in ids)
                )
                need = [t for t in need if t not in local]
                local.update(zip(need, self._embed_ids([ids[t] for t in need], bar)))
                for c, r in zip(candidates[start:stop], references[start:stop]):
                    cand = self._cache[c] if c in self._cache else local[c]
                    ref = self._cache[r] if r in self._cache else local[r]
                    scores.append(greedy_match(cand, ref))
                for t in [t for t in local if last_use[t] < stop]:
                    del local[t]
        return scores

    def clear(self) -> None:
        """Forget the cached embeddings."""
        self._cache.clear()


# -- invalid prediction counts ----------------------------------------------------------------------
@dataclass(frozen=True)
class InvalidCounts:
    """Masked words a generator had to predict and how many predictions were invalid.

    Args:
        masked: masked words to predict.
        invalid: invalid predictions (punctuation, subword pieces, empty ...).
    """

    masked: int
    invalid: int

    @property
    def rate(self) -> float | None:
        """``invalid / masked``; None when nothing was masked."""
        return self.invalid / self.masked if self.masked else None

    @classmethod
    def parse(cls, value: Any) -> InvalidCounts | None:
        """Counts from a mapping with integer ``masked`` and ``invalid``; None when absent or malformed."""
        if not isinstance(value, Mapping):
            return None
        masked, invalid = value.get("masked"), value.get("invalid")
        ok = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (masked, invalid))
        return cls(int(masked), int(invalid)) if ok else None  # type: ignore[arg-type]


def stats_path_for(synthetic: str | Path) -> Path:
    """Where the generator's stats of a synthetic corpus live: ``FOLDER/stats.json`` for a folder;
    ``FILE.stats.json`` (written by ``phiscrub synth``) or else ``stats.json`` beside a file."""
    p = Path(synthetic)
    if p.is_dir():
        return p / "stats.json"
    own = p.with_name(p.name + ".stats.json")  # what ``phiscrub synth -o FILE`` writes
    return own if own.exists() else p.parent / "stats.json"


def load_synth_stats(path: str | Path) -> tuple[InvalidCounts | None, dict[str, InvalidCounts]]:
    """Read a generator's ``stats.json``.

    Accepted shape (every part optional)::

        {"masked": 120, "invalid": 31,
         "documents": {"doc1#synth0": {"masked": 60, "invalid": 15}, ...}}

    The totals may also sit under a ``"synth"`` or ``"totals"`` key.

    Args:
        path: the JSON file.

    Returns:
        The corpus totals (None when absent) and the per-document counts.

    Raises:
        InputFormatError: the file is not a JSON object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputFormatError(f"{path}: cannot read synthesis stats ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise InputFormatError(f"{path}: synthesis stats must be a JSON object")
    totals = InvalidCounts.parse(data)
    for key in ("synth", "totals"):
        totals = totals or InvalidCounts.parse(data.get(key))
    per_doc: dict[str, InvalidCounts] = {}
    docs = data.get("documents")
    if isinstance(docs, Mapping):
        for doc_id, value in docs.items():
            counts = InvalidCounts.parse(value)
            if counts is not None:
                per_doc[str(doc_id)] = counts
    return totals, per_doc


# -- pairing ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Matching:
    """Synthetic letters paired with their originals (and masked versions).

    Args:
        pairs: ``(original, synthetic, masked or None)`` in synthetic-corpus order.
        unmatched_synthetic: synthetic ids with no original.
        originals_without_synthetic: original ids no synthetic letter points to.
        unmatched_masked: masked ids with no original.
        originals_without_masked: paired original ids with no masked version (only with masked input).
    """

    pairs: list[tuple[Document, Document, Document | None]]
    unmatched_synthetic: tuple[str, ...] = ()
    originals_without_synthetic: tuple[str, ...] = ()
    unmatched_masked: tuple[str, ...] = ()
    originals_without_masked: tuple[str, ...] = ()


def _original_id(doc: Document, known: Mapping[str, Document]) -> str | None:
    """The original id of ``doc``: its own, a metadata source id, or the longest id prefix before a separator."""
    if doc.id in known:
        return doc.id
    for key in SOURCE_ID_KEYS:
        value = doc.metadata.get(key)
        if value is not None and str(value) in known:
            return str(value)
    for i in range(len(doc.id) - 1, 0, -1):
        if doc.id[i] in ID_SEPARATORS and doc.id[:i] in known:
            return doc.id[:i]
    return None


def match_documents(
    originals: Sequence[Document],
    synthetic: Sequence[Document],
    masked: Sequence[Document] | None = None,
) -> Matching:
    """Pair synthetic (and masked) letters with originals by id.

    A letter matches the original with the same id, else the one named by ``metadata["source_id"]``
    (or ``original_id``), else the original whose id is the longest prefix of the letter's id
    followed by a separator (``doc1#synth0`` → ``doc1``). Several synthetic letters may share an
    original. A synthetic letter's masked version is the masked letter with the same id, else the
    first masked letter of the same original.

    Args:
        originals: the original letters (ids should be unique; the first of a repeated id is kept).
        synthetic: the synthetic letters.
        masked: the masked letters, if any.
    """
    by_id: dict[str, Document] = {}
    for d in originals:
        by_id.setdefault(d.id, d)
    masked_by_id: dict[str, Document] = {}
    masked_by_orig: dict[str, Document] = {}
    unmatched_masked: list[str] = []
    for md in masked or ():
        masked_by_id.setdefault(md.id, md)
        oid = _original_id(md, by_id)
        if oid is None:
            unmatched_masked.append(md.id)
        else:
            masked_by_orig.setdefault(oid, md)
    pairs: list[tuple[Document, Document, Document | None]] = []
    unmatched: list[str] = []
    used: set[str] = set()
    no_masked: dict[str, None] = {}
    for s in synthetic:
        oid = _original_id(s, by_id)
        if oid is None:
            unmatched.append(s.id)
            continue
        used.add(oid)
        m: Document | None = None
        if masked is not None:
            m = masked_by_id.get(s.id) or masked_by_orig.get(oid)
            if m is None:
                no_masked.setdefault(oid, None)
        pairs.append((by_id[oid], s, m))
    return Matching(
        pairs=pairs,
        unmatched_synthetic=tuple(unmatched),
        originals_without_synthetic=tuple(i for i in by_id if i not in used),
        unmatched_masked=tuple(unmatched_masked),
        originals_without_masked=tuple(no_masked),
    )


# -- per-letter and corpus results ----------------------------------------------------------------
@dataclass(frozen=True)
class Comparison:
    """One letter (synthetic or masked) scored against its original.

    Args:
        rouge1: ROUGE-1.
        rouge2: ROUGE-2.
        rougeL: ROUGE-L.
        bertscore: embedding similarity, None when not computed.
        privacy: what of the original survives in the letter.
    """

    rouge1: Score
    rouge2: Score
    rougeL: Score
    bertscore: Score | None
    privacy: PrivacyCheck


def compare(
    candidate: str,
    original: str,
    phi: Sequence[str],
    bertscore: Score | None = None,
    n: int = 5,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
) -> Comparison:
    """ROUGE and privacy scores of ``candidate`` against ``original`` (BERTScore passed in, batched elsewhere).

    Args:
        candidate: the synthetic or masked letter.
        original: the original letter.
        phi: the original's PHI strings.
        bertscore: its embedding similarity, if computed.
        n: n-gram order of the privacy check.
        mask_pattern: mask tokens.
    """
    cand = word_tokens(candidate, mask_pattern)
    ref = word_tokens(original, mask_pattern)
    return Comparison(
        rouge1=rouge_n(cand, ref, 1),
        rouge2=rouge_n(cand, ref, 2),
        rougeL=rouge_l(cand, ref),
        bertscore=bertscore,
        privacy=privacy_check(original, phi, candidate, n=n, mask_pattern=mask_pattern),
    )


@dataclass(frozen=True)
class LetterResult:
    """All scores of one synthetic letter.

    Args:
        synthetic_id: the synthetic letter's id.
        original_id: its original's id.
        masked_id: its masked version's id, if any.
        phi_source: ``gold`` (the original's spans) or ``detector``.
        synthetic: synthetic vs original.
        baseline: masked vs original, if a masked version exists.
        readability: per text kind (``original``, ``synthetic``, ``masked``).
        entropy: bits per token per text kind.
        invalid: the generator's invalid-prediction counts for this letter, if known.
    """

    synthetic_id: str
    original_id: str
    masked_id: str | None
    phi_source: str
    synthetic: Comparison
    baseline: Comparison | None
    readability: dict[str, Readability]
    entropy: dict[str, float]
    invalid: InvalidCounts | None = None


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


@dataclass
class SynthReport:
    """Per-letter results, pairing counts and corpus averages of a synthetic corpus.

    Args:
        letters: one result per paired synthetic letter.
        matching: the pairing (ids only are reported).
        corpus_invalid: generator totals from ``stats.json``, used when no letter carries counts.
        config: settings to record (paths, encoder, ...).
    """

    letters: list[LetterResult]
    matching: Matching
    corpus_invalid: InvalidCounts | None = None
    config: dict[str, Any] = field(default_factory=dict)

    def invalid_counts(self) -> InvalidCounts | None:
        """Corpus counts: summed over letters that carry them, else the ``stats.json`` totals."""
        known = [r.invalid for r in self.letters if r.invalid is not None]
        if known:
            return InvalidCounts(sum(c.masked for c in known), sum(c.invalid for c in known))
        return self.corpus_invalid

    def averages(self) -> dict[str, dict[str, float | None]]:
        """Corpus means over letters: ``{"synthetic"|"masked"|"original": {metric: value}}``.

        ROUGE and BERTScore are F-measures (P and R under ``*_precision``/``*_recall`` for BERTScore)
        against the original; privacy shares are means of per-letter shares, and ``*_micro`` pools
        the counts.
        """
        out: dict[str, dict[str, float | None]] = {}
        for kind in ("synthetic", "masked"):
            comps = [r.synthetic if kind == "synthetic" else r.baseline for r in self.letters]
            got = [c for c in comps if c is not None]
            row: dict[str, float | None] = {}
            if got:
                row["rouge1"] = _mean(c.rouge1.fmeasure for c in got)
                row["rouge2"] = _mean(c.rouge2.fmeasure for c in got)
                row["rougeL"] = _mean(c.rougeL.fmeasure for c in got)
                for part in ("precision", "recall", "fmeasure"):
                    key = "bertscore" if part == "fmeasure" else f"bertscore_{part}"
                    row[key] = _mean(getattr(c.bertscore, part) if c.bertscore else None for c in got)
                row["phi_survival"] = _mean(c.privacy.phi_share for c in got)
                row["ngram_survival"] = _mean(c.privacy.ngram_share for c in got)
                phi_total = sum(c.privacy.phi_total for c in got)
                ng_total = sum(c.privacy.ngram_total for c in got)
                row["phi_survival_micro"] = (
                    sum(c.privacy.phi_survived for c in got) / phi_total if phi_total else None
                )
                row["ngram_survival_micro"] = (
                    sum(c.privacy.ngram_survived for c in got) / ng_total if ng_total else None
                )
            out[kind] = row
        for kind in ("synthetic", "masked", "original"):
            row = out.setdefault(kind, {})
            texts = [r for r in self.letters if kind in r.readability]
            if texts:
                for metric in ("smog", "flesch_reading_ease", "flesch_kincaid_grade"):
                    row[metric] = _mean(getattr(r.readability[kind], metric) for r in texts)
                row["entropy"] = _mean(r.entropy[kind] for r in texts)
        counts = self.invalid_counts()
        out["synthetic"]["invalid_rate"] = counts.rate if counts else None
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record: config, pairing ids and counts, corpus averages, per-letter values."""

        def comparison(c: Comparison | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {
                "rouge1": asdict(c.rouge1),
                "rouge2": asdict(c.rouge2),
                "rougeL": asdict(c.rougeL),
                "bertscore": asdict(c.bertscore) if c.bertscore else None,
                "privacy": {
                    **asdict(c.privacy),
                    "phi_share": c.privacy.phi_share,
                    "ngram_share": c.privacy.ngram_share,
                },
            }

        m = self.matching
        counts = self.invalid_counts()
        return {
            "config": self.config,
            "tokenizer": TOKENIZER_NAME,
            "pairs": len(self.letters),
            "matching": {
                "unmatched_synthetic": len(m.unmatched_synthetic),
                "originals_without_synthetic": len(m.originals_without_synthetic),
                "unmatched_masked": len(m.unmatched_masked),
                "originals_without_masked": len(m.originals_without_masked),
                "unmatched_synthetic_ids": list(m.unmatched_synthetic),
                "originals_without_synthetic_ids": list(m.originals_without_synthetic),
                "unmatched_masked_ids": list(m.unmatched_masked),
                "originals_without_masked_ids": list(m.originals_without_masked),
            },
            "invalid_predictions": asdict(counts) | {"rate": counts.rate} if counts else None,
            "averages": self.averages(),
            "letters": [
                {
                    "synthetic_id": r.synthetic_id,
                    "original_id": r.original_id,
                    "masked_id": r.masked_id,
                    "phi_source": r.phi_source,
                    "synthetic": comparison(r.synthetic),
                    "baseline": comparison(r.baseline),
                    "readability": {k: asdict(v) for k, v in r.readability.items()},
                    "entropy": dict(r.entropy),
                    "invalid": asdict(r.invalid) | {"rate": r.invalid.rate} if r.invalid else None,
                }
                for r in self.letters
            ],
        }


PhiDetector = Callable[[Sequence[Document]], list[list[Span]]]


def _default_detector(docs: Sequence[Document]) -> list[list[Span]]:
    from phiscrub.deid import Deidentifier

    return Deidentifier(mode="placeholder", model=None, policy="i2b2").detect_many(docs)


def evaluate_synthetic(
    originals: Sequence[Document],
    synthetic: Sequence[Document],
    masked: Sequence[Document] | None = None,
    *,
    scorer: EmbeddingScorer | None = None,
    phi_detector: PhiDetector | None = _default_detector,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
    ngram: int = 5,
    stats: tuple[InvalidCounts | None, Mapping[str, InvalidCounts]] | None = None,
    config: Mapping[str, Any] | None = None,
    progress: bool = True,
) -> SynthReport:
    """Score every synthetic letter against its original and, when given, the masked baseline.

    Args:
        originals: the original letters (with gold PHI spans when available).
        synthetic: the synthetic letters.
        masked: the masked letters (generator inputs), for the baseline.
        scorer: embedding scorer for BERTScore; None skips it (scores reported as None).
        phi_detector: finds PHI in originals without spans (default: phiscrub's rules); None counts
            only gold spans.
        mask_pattern: regular expression of mask tokens.
        ngram: n-gram order of the privacy check.
        stats: generator counts ``(totals, per-document)`` from :func:`load_synth_stats`; a
            document's ``metadata["synth"]`` counts take precedence.
        config: settings recorded in the report.
        progress: show a progress bar (stderr) over the letters.

    Returns:
        The :class:`SynthReport`.
    """
    _mask_re(mask_pattern)  # fail early on a bad pattern
    matching = match_documents(originals, synthetic, masked)
    totals, per_doc = stats if stats is not None else (None, {})
    need = {o.id: o for o, _, _ in matching.pairs if not o.spans}
    detected: dict[str, list[Span]] = {}
    if need and phi_detector is not None:
        docs = list(need.values())
        detected = dict(zip(need, phi_detector(docs)))
    phi: dict[str, tuple[str, list[str]]] = {}
    for o, _, _ in matching.pairs:
        if o.id not in phi:
            source = "gold" if o.spans else "detector"
            phi[o.id] = (source, phi_strings(o, detected.get(o.id, []) if not o.spans else None))
    bert_syn: list[Score | None] = [None] * len(matching.pairs)
    bert_mask: list[Score | None] = [None] * len(matching.pairs)
    if scorer is not None:
        # Each letter's comparisons side by side, so the scorer can drop an original once done.
        cands: list[str] = []
        refs: list[str] = []
        slots: list[tuple[int, bool]] = []
        for i, (o, s, m) in enumerate(matching.pairs):
            for text, is_masked in ((s.text, False), *(((m.text, True),) if m is not None else ())):
                cands.append(text)
                refs.append(o.text)
                slots.append((i, is_masked))
        for (i, is_masked), sc in zip(slots, scorer.score(cands, refs)):
            (bert_mask if is_masked else bert_syn)[i] = sc
    from tqdm import tqdm

    letters: list[LetterResult] = []
    bar = tqdm(matching.pairs, desc="score", unit="letter", file=sys.stderr, disable=not progress, delay=1.0)
    for i, (o, s, m) in enumerate(bar):
        source, strings = phi[o.id]
        texts = {"original": o.text, "synthetic": s.text} | ({"masked": m.text} if m is not None else {})
        invalid = InvalidCounts.parse(s.metadata.get("synth")) or per_doc.get(s.id)
        letters.append(
            LetterResult(
                synthetic_id=s.id,
                original_id=o.id,
                masked_id=m.id if m is not None else None,
                phi_source=source,
                synthetic=compare(s.text, o.text, strings, bert_syn[i], ngram, mask_pattern),
                baseline=compare(m.text, o.text, strings, bert_mask[i], ngram, mask_pattern)
                if m is not None
                else None,
                readability={k: readability(t, mask_pattern) for k, t in texts.items()},
                entropy={k: text_entropy(t, mask_pattern) for k, t in texts.items()},
                invalid=invalid,
            )
        )
    return SynthReport(letters, matching, totals, dict(config or {}))


# -- report -----------------------------------------------------------------------------------------
def _fmt(value: float | None, scale: float = 1.0, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value * scale:.{digits}f}"


_TABLE_ROWS: tuple[tuple[str, str, float, int, tuple[str, ...]], ...] = (
    ("ROUGE-1 F (%)", "rouge1", 100.0, 2, ("synthetic", "masked")),
    ("ROUGE-2 F (%)", "rouge2", 100.0, 2, ("synthetic", "masked")),
    ("ROUGE-L F (%)", "rougeL", 100.0, 2, ("synthetic", "masked")),
    ("BERTScore P", "bertscore_precision", 1.0, 4, ("synthetic", "masked")),
    ("BERTScore R", "bertscore_recall", 1.0, 4, ("synthetic", "masked")),
    ("BERTScore F", "bertscore", 1.0, 4, ("synthetic", "masked")),
    ("SMOG", "smog", 1.0, 2, ("synthetic", "masked", "original")),
    ("Flesch Reading Ease", "flesch_reading_ease", 1.0, 2, ("synthetic", "masked", "original")),
    ("Flesch-Kincaid Grade", "flesch_kincaid_grade", 1.0, 2, ("synthetic", "masked", "original")),
    ("Entropy (bits/token)", "entropy", 1.0, 3, ("synthetic", "masked", "original")),
    ("Invalid prediction rate", "invalid_rate", 1.0, 4, ("synthetic",)),
    ("PHI strings surviving (%)", "phi_survival", 100.0, 2, ("synthetic", "masked")),
    ("5-grams surviving (%)", "ngram_survival", 100.0, 2, ("synthetic", "masked")),
)


def to_markdown(report: SynthReport) -> str:
    """Markdown summary: pairing counts and one table of corpus averages (no text, ids only in JSON).

    Columns: the synthetic letters, the masked baseline, the originals; similarity rows compare each
    with the original, so the original column is empty there.
    """
    avg = report.averages()
    m = report.matching
    has_masked = any(r.baseline is not None for r in report.letters)
    order = report.letters[0].synthetic.privacy.n if report.letters else "n/a"
    lines = [
        "# Synthetic letter evaluation",
        "",
        f"- pairs (synthetic letter, original): {len(report.letters)}",
        f"- synthetic letters without original: {len(m.unmatched_synthetic)}",
        f"- originals without synthetic letter: {len(m.originals_without_synthetic)}",
    ]
    if has_masked or m.unmatched_masked or m.originals_without_masked:
        lines += [
            f"- masked letters without original: {len(m.unmatched_masked)}",
            f"- paired originals without masked letter: {len(m.originals_without_masked)}",
        ]
    lines += [
        f"- tokenizer: `{TOKENIZER_NAME}` (lowercased words); privacy n-gram order: {order}",
        "",
        "| Metric | Synthetic | Masked baseline | Original |",
        "|---|---:|---:|---:|",
    ]
    for name, key, scale, digits, kinds in _TABLE_ROWS:
        cells = []
        for kind in ("synthetic", "masked", "original"):
            if kind not in kinds or (kind == "masked" and not has_masked):
                cells.append("")
            else:
                cells.append(_fmt(avg.get(kind, {}).get(key), scale, digits))
        lines.append(f"| {name} | {' | '.join(cells)} |")
    lines += [
        "",
        "Similarity and survival rows: each letter against its original, mean over pairs.",
        "Readability: English formulas (SMOG, Flesch Reading Ease, Flesch-Kincaid Grade).",
        "",
    ]
    return "\n".join(lines)


def write_report(report: SynthReport, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (created when missing).

    Returns:
        ``(json_path, markdown_path)``.
    """
    folder = Path(out_dir)
    text = json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str)
    markdown = to_markdown(report)
    folder.mkdir(parents=True, exist_ok=True)
    json_path, md_path = folder / "report.json", folder / "report.md"
    json_path.write_text(text + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path
