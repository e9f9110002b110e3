"""The synthesizer: letter in, synthetic letter out (Ren et al. 2025, the whole of section 3).

For each letter:

1. **PHI.** Gold PHI spans of a labelled letter, plus the detectors' spans (unlabelled letters, or
   every letter when ``detect="always"``; a detected span that is exactly a medical lexicon term or
   abbreviation, like "TIA", is dropped), plus the other occurrences of their surfaces in the
   letter (and of the words of names) are the PHI. Gold PHI is always replaced by surrogates (random,
   seeded, consistent within the letter, never equal to the original) and stays labelled, so the
   output is a labelled corpus. Detected PHI gets a surrogate too (``phi="surrogate"``, labelled) or is
   masked and refilled by the language model (``phi="refill"``, unlabelled afterwards).
2. **Features** (:mod:`.features`) on the letter with surrogates: structure, clinical terms, gold
   entities, cues and patterns are kept; the other plain words are eligible.
3. **Masking** (:mod:`.masking`): the strategy draws eligible words.
4. **Refill** (:mod:`.refill`): the letter is cut into chunks (:mod:`.chunking`), each chunk's slots
   (masked words, PHI to refill, de-identification blanks) go to the refiller, and the first valid
   candidate wins; when none is valid the original word is kept (a blank stays a blank, refilled PHI
   gets a generic word). Fills take the case of the word they replace; "a"/"an" are made to agree.
5. **Post-processing** (:mod:`.postprocess`): optional spelling correction of unmasked eligible words.

The text is rewritten only at the slots, through :func:`phiscrub.transform.rewrite.apply_edits`, so
everything else (layout, numbers, punctuation, kept words) is byte for byte the original, and every
span of the output points at its new text.
"""

from __future__ import annotations

import bisect
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from phiscrub.detect.propagate import non_overlapping
from phiscrub.document import Document, Span
from phiscrub.labels import fold
from phiscrub.synth.chunking import chunk_text
from phiscrub.synth.config import FILL_LANGS, DetectPolicy, PhiMode, SynthConfig, SynthStats, stats_file_for
from phiscrub.synth.features import (
    LetterFeatures,
    extract_features,
)
from phiscrub.synth.masking import select_masks
from phiscrub.synth.phi import (
    ENTITY_META,
    GENERIC_FILLS,
    REFILL_SOURCE,
    coarse_label,
    is_phi_label,
    meta_entities,
    not_clinical,
    propagate,
    replace_phi,
    sentence_start,
    upper_context,
)
from phiscrub.synth.postprocess import SpellChecker, article_for, match_case
from phiscrub.synth.refill import Refiller, RefillRequest, default_refiller, is_valid_word
from phiscrub.transform.fill import detect_lang
from phiscrub.transform.rewrite import apply_edits

__all__ = [
    "GENERIC_FILLS",
    "MASK_TOKEN",
    "DetectPolicy",
    "PhiMode",
    "SynthConfig",
    "SynthStats",
    "Synthesizer",
    "stats_file_for",
    "synthesize",
]


#: The mask token of masked letters (:meth:`Synthesizer.synthesize_pair`); ``synth-eval`` knows it.
MASK_TOKEN = "[MASK]"
_ENTITY = "synth:entity"


@dataclass(frozen=True)
class _Slot:
    start: int
    end: int
    kind: str  # word | blank | phi
    original: str
    label: str = ""


def _with_progress(docs: Iterable[Document], progress: bool) -> Iterable[Document]:
    """The letters as given, or wrapped in a tqdm progress bar on stderr (counts only).

    Args:
        docs: the letters.
        progress: show the bar (its total is known when ``docs`` is a sequence).
    """
    if not progress:
        return docs
    from tqdm import tqdm

    total = len(docs) if isinstance(docs, Sequence) else None
    bar: Iterable[Document] = tqdm(docs, total=total, desc="synth", unit="letter", file=sys.stderr, delay=1.0)
    return bar


class Synthesizer:
    """Turn letters into synthetic letters that keep their clinical story and structure.

    Args:
        config: the settings (:class:`SynthConfig`); defaults when None.
        refiller: the language model (:class:`~phiscrub.synth.refill.Refiller`); the default
            refiller (:func:`~phiscrub.synth.refill.default_refiller`) on first use when None.
        deidentifier: the PHI detector; a rules-only :class:`~phiscrub.deid.Deidentifier` (or with
            the configured model and lexicon) when None.

    Attributes:
        stats: :class:`SynthStats` accumulated over every call.
    """

    def __init__(
        self, config: SynthConfig | None = None, refiller: Refiller | None = None, deidentifier: Any = None
    ) -> None:
        self.config = config or SynthConfig()
        self._refiller = refiller
        self._deid = deidentifier
        self._spell: SpellChecker | None = None
        self.stats = SynthStats()

    @property
    def refiller(self) -> Refiller:
        """The refiller in use (built on first use)."""
        if self._refiller is None:
            self._refiller = default_refiller()
        return self._refiller

    @property
    def deidentifier(self) -> Any:
        """The PHI detector in use (built on first use)."""
        if self._deid is None:
            from phiscrub.deid import Deidentifier

            # i2b2 policy: every detected identifier is masked, ages and places included (the
            # letters' privacy does not follow the redaction default, docs/policy.md).
            self._deid = Deidentifier(
                mode="placeholder",
                model=self.config.detector_model,
                lexicon=self.config.lexicon_detector,
                policy="i2b2",
            )
        return self._deid

    # -- API ------------------------------------------------------------------------------------------
    def synthesize(self, doc: Document, labelled: bool | None = None) -> Document:
        """Synthesize one letter (see :meth:`synthesize_pair`, whose first item this returns).

        Args:
            doc: the letter.
            labelled: whether the letter comes with gold PHI.
        """
        return self.synthesize_pair(doc, labelled)[0]

    def synthesize_pair(self, doc: Document, labelled: bool | None = None) -> tuple[Document, Document]:
        """Synthesize one letter and give the masked letter the refiller saw as well.

        Args:
            doc: the letter; its spans with PHI labels are gold PHI, spans with other labels and
                ``metadata["entities"]`` are clinical entities to keep.
            labelled: whether the letter comes with gold PHI (decides detection under ``auto``);
                defaults to ``bool(doc.spans)``.

        Returns:
            ``(synthetic, masked)``. The synthetic letter: same id, its PHI spans on the surrogates,
            entity spans moved, and ``metadata["synth"]``: strategy, seed, PHI mode, counts, and
            ``changes``, the ``[old_start, old_end, new_start, new_end]`` offsets of every replaced
            range (PHI and refilled words), which map the input text onto the output text. The masked
            letter (the generator's input, the baseline of ``phiscrub synth-eval --masked``): same id,
            PHI already replaced by the same surrogates, every slot (masked word, blank, PHI to
            refill) written as :data:`MASK_TOKEN`, spans moved accordingly.
        """
        t0 = time.perf_counter()
        cfg = self.config
        rng = random.Random(f"{cfg.seed}:{doc.id}")
        gold, phi, entities = self._letter_phi(doc, bool(doc.spans) if labelled is None else labelled)
        gold_keys = {(s.start, s.end) for s in gold}
        originals = {doc.text[s.start : s.end].strip().lower() for s in phi}
        forbidden = set(originals)  # a fill must never bring back a PHI value or a word of a name
        for s in phi:
            if coarse_label(s.label) == "NAME":
                forbidden.update(w.lower() for w in re.findall(r"[^\W\d_]{2,}", doc.text[s.start : s.end]))

        lang = self._language(doc)
        doc1, stage1, n_sur, n_ref = replace_phi(
            doc, phi, gold_keys, entities, rng, lang, refill=cfg.phi == "refill"
        )
        phi1 = [s for s in doc1.spans if not s.source.startswith((_ENTITY, REFILL_SOURCE))]
        refill1 = [s for s in doc1.spans if s.source.startswith(REFILL_SOURCE)]
        ent1 = [s for s in doc1.spans if s.source.startswith(_ENTITY)]
        feats = extract_features(
            doc1.text, phi=phi1 + refill1, entities=ent1, blanks=cfg.fill_blanks, lang=lang
        )
        chosen = select_masks(feats.words, cfg.strategy, rng)
        slots = self._slots(doc1, feats, chosen, refill1)
        fills = self._refill(doc1.text, slots, forbidden, rng)
        edits = self._edits(doc1.text, feats, slots, fills, english=lang == "en")
        out = apply_edits(doc1, edits)
        text = out.text

        leaks = self._leaks(text, originals, out.spans)
        spans = [self._restore(s) for s in out.spans if not s.source.startswith((REFILL_SOURCE, ENTITY_META))]
        metadata = dict(doc.metadata)
        meta_ents = [s for s in out.spans if s.source == ENTITY_META]
        if "entities" in doc.metadata:
            metadata["entities"] = [[s.start, s.end, s.label] for s in meta_ents]
        n_masked = sum(1 for s in slots if s.kind == "word")
        metadata["synth"] = {
            "strategy": cfg.strategy.describe(),
            "seed": cfg.seed,
            "phi": cfg.phi,
            "masked": n_masked,
            "slots": len(slots),
            "changes": _changes(_compose(stage1, edits)),
        }
        self._count(feats, slots, len(phi), n_sur, n_ref, leaks, time.perf_counter() - t0)
        synthetic = Document(doc.id, text, tuple(spans), metadata).validate()
        return synthetic, self._masked_letter(doc, doc1, slots, cfg.strategy.describe())

    def _letter_phi(self, doc: Document, labelled: bool) -> tuple[list[Span], list[Span], list[Span]]:
        """The letter's gold PHI, all its PHI (gold, detected, propagated; sorted) and its entities."""
        cfg = self.config
        gold = [s for s in doc.spans if is_phi_label(s.label)]
        span_entities = [
            replace(s, source=f"{_ENTITY}|{s.source}") for s in doc.spans if not is_phi_label(s.label)
        ]
        detected: list[Span] = []
        if cfg.detect == "always" or (cfg.detect == "auto" and not labelled):
            detected = [s for s in self.deidentifier.detect(doc) if fold(s.label, "fine") is not None]
            detected = not_clinical(doc.text, detected)
        phi = sorted(gold + non_overlapping(detected, gold))
        phi = sorted(phi + propagate(doc.text, phi))
        entities = [e for e in span_entities + meta_entities(doc) if not any(e.overlaps(p) for p in phi)]
        return gold, phi, entities

    def _count(
        self,
        feats: LetterFeatures,
        slots: Sequence[_Slot],
        phi: int,
        n_sur: int,
        n_ref: int,
        leaks: int,
        secs: float,
    ) -> None:
        """Add one letter's counts to :attr:`stats`."""
        st = self.stats
        st.letters += 1
        st.words += len(feats.words)
        st.eligible += sum(1 for w in feats.words if w.eligible)
        st.masked += sum(1 for s in slots if s.kind == "word")
        st.blanks += sum(1 for s in slots if s.kind == "blank")
        st.phi_spans += phi
        st.phi_surrogates += n_sur
        st.phi_refilled += n_ref
        st.phi_leaks += leaks
        st.seconds += secs

    def _masked_letter(
        self, doc: Document, stage1: Document, slots: Sequence[_Slot], strategy: str
    ) -> Document:
        """The letter with surrogates and every slot written as :data:`MASK_TOKEN`."""
        masked = apply_edits(stage1, [(s.start, s.end, MASK_TOKEN) for s in slots])
        spans = [
            self._restore(s) for s in masked.spans if not s.source.startswith((REFILL_SOURCE, ENTITY_META))
        ]
        metadata = dict(doc.metadata)
        if "entities" in doc.metadata:
            metadata["entities"] = [
                [s.start, s.end, s.label] for s in masked.spans if s.source == ENTITY_META
            ]
        metadata["synth"] = {"strategy": strategy, "seed": self.config.seed, "masked_letter": True}
        return Document(doc.id, masked.text, tuple(spans), metadata).validate()

    def synthesize_many(
        self, docs: Iterable[Document], labelled: bool | None = None, progress: bool = False
    ) -> Iterator[Document]:
        """Synthesize letters lazily, in order.

        Args:
            docs: the letters.
            labelled: see :meth:`synthesize`.
            progress: show a tqdm progress bar on stderr (counts only).

        Yields:
            Each synthetic letter (:meth:`synthesize`).
        """
        for doc in _with_progress(docs, progress):
            yield self.synthesize(doc, labelled)

    def synthesize_pairs(
        self, docs: Iterable[Document], labelled: bool | None = None, progress: bool = False
    ) -> Iterator[tuple[Document, Document]]:
        """Like :meth:`synthesize_many`, yielding ``(synthetic, masked)`` pairs (:meth:`synthesize_pair`).

        Args:
            docs: the letters.
            labelled: see :meth:`synthesize`.
            progress: show a tqdm progress bar on stderr (counts only).

        Yields:
            Per letter, the synthetic letter and the same letter with every slot masked.
        """
        for doc in _with_progress(docs, progress):
            yield self.synthesize_pair(doc, labelled)

    # -- steps ----------------------------------------------------------------------------------------
    def _language(self, doc: Document) -> str:
        """The letter's language: the configured one, its ``lang`` metadata, else detected."""
        if self.config.lang != "auto":
            return self.config.lang
        meta = str(doc.metadata.get("lang") or "")
        return meta if meta in FILL_LANGS else detect_lang(doc.text)

    def _slots(
        self, doc: Document, feats: LetterFeatures, chosen: Sequence[int], refill: Sequence[Span]
    ) -> list[_Slot]:
        slots = [_Slot(feats.words[i].start, feats.words[i].end, "word", feats.words[i].text) for i in chosen]
        slots += [_Slot(s.start, s.end, "phi", doc.text[s.start : s.end], s.label) for s in refill]
        taken = [(s.start, s.end) for s in doc.spans]
        for start, end in feats.blanks:
            if not any(a < end and start < b for a, b in taken):
                slots.append(_Slot(start, end, "blank", doc.text[start:end]))
        return sorted(slots, key=lambda s: s.start)

    def _refill(
        self, text: str, slots: Sequence[_Slot], forbidden: set[str], rng: random.Random
    ) -> list[str | None]:
        """The fill of every slot (None: leave the slot's text)."""
        if not slots:
            return []
        cfg = self.config
        chunks = chunk_text(text, cfg.max_lines, cfg.max_tokens)
        starts = [c.start for c in chunks]
        groups: dict[int, list[int]] = {}
        for k, slot in enumerate(slots):
            c = max(0, bisect.bisect_right(starts, slot.start) - 1)
            groups.setdefault(c, []).append(k)
        requests: list[RefillRequest] = []
        order: list[list[int]] = []
        prev_end = 0
        for c in sorted(groups):
            members = groups[c]
            lo = max(chunks[c].start, prev_end)
            pieces = []
            pos = lo
            for k in members:
                pieces.append(text[pos : slots[k].start])
                pos = slots[k].end
            end = max(chunks[c].end, pos)
            pieces.append(text[pos:end])
            prev_end = pos
            requests.append(RefillRequest(tuple(pieces)))
            order.append(members)
        answers = self.refiller.refill(requests, rng)
        fills: list[str | None] = [None] * len(slots)
        st = self.stats
        for members, cands_per_slot in zip(order, answers):
            for k, cands in zip(members, cands_per_slot):
                slot = slots[k]
                st.slots += 1
                if not cands or not is_valid_word(cands[0]):
                    st.invalid += 1
                valid = [c for c in cands if is_valid_word(c) and c.lower() not in forbidden]
                if not valid:
                    st.fallback += 1
                    continue
                fills[k] = valid[0] if cfg.top_k == 1 else rng.choice(valid[: cfg.top_k])
        return fills

    def _edits(
        self,
        text: str,
        feats: LetterFeatures,
        slots: Sequence[_Slot],
        fills: Sequence[str | None],
        *,
        english: bool,
    ) -> list[tuple[int, int, str]]:
        """Text edits: the fills in the case of their place, agreeing articles, spelling fixes."""
        edits: dict[tuple[int, int], str] = {}
        final = self._fill_edits(text, slots, fills, edits)  # word start -> its text after the edits
        slot_starts = {s.start for s in slots}
        self._article_edits(text, feats, slots, final, slot_starts, edits)
        if self.config.spellcheck and english:  # the spelling lexicon is English
            self._spelling_edits(feats, slot_starts, edits)
        return [(s, e, new) for (s, e), new in sorted(edits.items())]

    def _fill_edits(
        self,
        text: str,
        slots: Sequence[_Slot],
        fills: Sequence[str | None],
        edits: dict[tuple[int, int], str],
    ) -> dict[int, str]:
        """Each fill in the case of its place (added to ``edits``); the text of every filled slot."""
        final: dict[int, str] = {}
        for slot, fill in zip(slots, fills):
            if fill is None:
                continue
            if slot.kind == "word":
                model = slot.original
            else:
                model = (
                    "XX"
                    if upper_context(text, slot.start)
                    else ("X" if sentence_start(text, slot.start) else "x")
                )
            new = match_case(model, fill, sentence_start=sentence_start(text, slot.start))
            final[slot.start] = new
            if new != text[slot.start : slot.end]:
                edits[(slot.start, slot.end)] = new
            if slot.kind == "word" and new.lower() != slot.original.lower():
                self.stats.changed += 1
        return final

    @staticmethod
    def _article_edits(
        text: str,
        feats: LetterFeatures,
        slots: Sequence[_Slot],
        final: dict[int, str],
        slot_starts: set[int],
        edits: dict[tuple[int, int], str],
    ) -> None:
        """ "a"/"an" before a filled slot agreeing with the fill (added to ``edits``)."""
        starts = [w.start for w in feats.words]
        for slot in slots:
            if slot.start not in final:
                continue
            i = bisect.bisect_left(starts, slot.start) - 1
            if i < 0:
                continue
            art = feats.words[i]
            art_text = final.get(art.start, art.text)
            if (
                art_text.lower() not in ("a", "an")
                or art.end >= slot.start
                or not text[art.end : slot.start].isspace()
            ):
                continue
            if art.role not in ("eligible", "cue") and art.start not in slot_starts:
                continue
            want = article_for(final[slot.start], art_text)
            if want != art_text:
                edits[(art.start, art.end)] = want

    def _spelling_edits(
        self, feats: LetterFeatures, slot_starts: set[int], edits: dict[tuple[int, int], str]
    ) -> None:
        """Spelling fixes of eligible words left as they were (added to ``edits``)."""
        if self._spell is None:
            self._spell = SpellChecker()
        counts = Counter(w.text.lower() for w in feats.words)
        repeated = frozenset(w for w, n in counts.items() if n > 1)
        for w in feats.words:
            if w.eligible and w.start not in slot_starts and (w.start, w.end) not in edits:
                fixed = self._spell.correct(w.text, repeated)
                if fixed is not None:
                    edits[(w.start, w.end)] = fixed
                    self.stats.spelling += 1

    @staticmethod
    def _restore(span: Span) -> Span:
        """Drop the synthesizer's source markers from an output span."""
        if span.source.startswith(_ENTITY + "|"):
            return replace(span, source=span.source.split("|", 1)[1])
        return span

    @staticmethod
    def _leaks(text: str, originals: set[str], spans: Sequence[Span]) -> int:
        """Original PHI surfaces (with three or more letters) still in the output text."""
        low = text.lower()
        n = 0
        for surface in originals:
            if sum(c.isalpha() for c in surface) < 3:
                continue
            if re.search(r"(?<!\w)" + re.escape(surface) + r"(?!\w)", low):
                n += 1
        return n


def _compose(
    first: Sequence[tuple[int, int, str]], second: Sequence[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """Edits of the original text equal to ``first`` then ``second`` (``second`` in ``first``'s output).

    ``second`` never cuts into a replacement of ``first``: it either covers one exactly or lies
    outside every one.
    """
    regions: list[tuple[int, int, int, int]] = []  # original start/end, intermediate start/end
    out: dict[tuple[int, int], str] = {}
    delta = 0
    for start, end, new in sorted(first):
        regions.append((start, end, start + delta, start + delta + len(new)))
        out[(start, end)] = new
        delta += len(new) - (end - start)
    mid_starts = [r[2] for r in regions]

    def original(pos: int) -> int:
        i = bisect.bisect_right(mid_starts, pos) - 1
        if i < 0:
            return pos
        o_start, o_end, m_start, m_end = regions[i]
        return o_start if pos == m_start else o_end + (pos - m_end)

    for start, end, new in second:
        i = bisect.bisect_right(mid_starts, start) - 1
        if i >= 0 and regions[i][2] == start and regions[i][3] == end:
            out[(regions[i][0], regions[i][1])] = new
        else:
            out[(original(start), original(end))] = new
    return [(a, b, new) for (a, b), new in sorted(out.items())]


def _changes(edits: Sequence[tuple[int, int, str]]) -> list[list[int]]:
    """``[old_start, old_end, new_start, new_end]`` of each edit (offsets only, never text)."""
    out = []
    delta = 0
    for start, end, new in edits:
        out.append([start, end, start + delta, start + delta + len(new)])
        delta += len(new) - (end - start)
    return out


def synthesize(
    docs: Iterable[Document],
    config: SynthConfig | None = None,
    refiller: Refiller | None = None,
    labelled: bool | None = None,
) -> tuple[list[Document], SynthStats]:
    """Synthesize a corpus in memory.

    Args:
        docs: the letters.
        config: settings; defaults when None.
        refiller: the language model; the default refiller when None.
        labelled: see :meth:`Synthesizer.synthesize`.

    Returns:
        The synthetic letters and the run's statistics.
    """
    synth = Synthesizer(config, refiller)
    out = list(synth.synthesize_many(docs, labelled))
    return out, synth.stats
