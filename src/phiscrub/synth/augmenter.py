"""The masked-LM refill behind the corpus-level augmenter contract (:class:`~phiscrub.augment.base.CorpusAugmenter`).

:class:`MaskedLMAugmenter` makes ``alpha`` synthetic versions of every letter with a
:class:`~phiscrub.synth.pipeline.Synthesizer`: version ``k`` uses its own base seed (drawn from the run's
seed and ``k``), so versions differ and each is reproducible; the refiller model is loaded once and
shared by every version. The letters keep their PHI labelled (as surrogates), so the output is a gold
corpus like every other augmenter's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from phiscrub.augment.base import PretrainedAugmenter
from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.synth.pipeline import SynthConfig, Synthesizer, SynthStats
from phiscrub.synth.refill import Refiller, load_refiller

__all__ = ["MaskedLMAugmenter", "MaskedLMResult"]


@dataclass
class MaskedLMResult:
    """The result of :meth:`MaskedLMAugmenter.augment` (counts only).

    Attributes:
        documents: the synthetic letters, ids ``<id>#mlm<k>``.
        stats: the synthesis counts over every version.
        documents_in: input letters.
        alpha: versions per letter.
        seed: the run's seed.
    """

    documents: list[Document]
    stats: SynthStats
    documents_in: int
    alpha: int
    seed: int

    def counts(self) -> dict[str, Any]:
        """Letters in and out, and the synthesis counts."""
        return {
            "method": MaskedLMAugmenter.name,
            "kept": len(self.documents),
            "dropped": 0,
            "documents_in": self.documents_in,
            "documents_out": len(self.documents),
            **self.stats.as_dict(),
        }

    def warnings(self) -> list[str]:
        """Nothing is dropped; PHI leaks are worth a line."""
        if self.stats.phi_leaks:
            return [f"masked-LM refill: {self.stats.phi_leaks} original PHI surfaces still in the output"]
        return []

    def summary(self, written: int, destination: str) -> str:
        """Letters, versions and the synthesis counts."""
        return (
            f"augment mlm: {self.documents_in} documents in, {len(self.documents)} synthetic versions out "
            f"(alpha {self.alpha}, seed {self.seed}): {self.stats.summary()}; wrote {written} documents "
            f"to {destination}"
        )


class MaskedLMAugmenter(PretrainedAugmenter):
    """``alpha`` synthetic versions of every letter (Ren et al. 2025), as a corpus augmenter.

    Its ``fit`` learns nothing: the refiller is pretrained.

    Args:
        config: synthesis settings (its ``seed`` is replaced per version); defaults when None.
        refiller: the language model; the default refiller on first use when None.
    """

    name = "mlm"

    def __init__(self, config: SynthConfig | None = None, refiller: Refiller | None = None) -> None:
        self.config = config or SynthConfig()
        self.refiller = refiller

    @classmethod
    def from_options(cls, options: Mapping[str, Any], lang: str = "auto") -> MaskedLMAugmenter:
        """The augmenter the registry builds (``AugmentOptions.mlm``).

        Args:
            options: ``model`` (a refill model path; default: the bundled refiller, loaded on first
                use), ``refiller`` (a :class:`~phiscrub.synth.refill.Refiller` instead), ``profile``,
                and other keyword arguments of :meth:`SynthConfig.resolve`.
            lang: surrogate language of the letters.

        Raises:
            ConfigError: unknown profile or option, or a model path that does not exist.
        """
        rest = dict(options)
        model, refiller = rest.pop("model", None), rest.pop("refiller", None)
        if model is not None and refiller is not None:
            raise ConfigError("give the masked-LM refill a model path or a refiller, not both")
        try:
            config = SynthConfig.resolve(rest.pop("profile", None), lang=lang, **rest)
        except TypeError as err:
            raise ConfigError(f"unknown masked-LM refill option: {err}") from None
        return cls(config, refiller if model is None else load_refiller(model))

    def augment(
        self, docs: Sequence[Document], alpha: int, seed: int = 0, *, progress: bool = False
    ) -> MaskedLMResult:
        """``alpha`` synthetic versions of every letter, ids ``<id>#mlm<k>``.

        Raises:
            ConfigError: ``alpha`` < 1.
        """
        if alpha < 1:
            raise ConfigError("alpha must be at least 1")
        out: list[Document] = []
        stats = SynthStats()
        for k in range(alpha):
            config = replace(self.config, seed=_version_seed(seed, k))
            synth = Synthesizer(config, self.refiller)
            for doc in synth.synthesize_many(docs, progress=progress):
                meta = {
                    **doc.metadata,
                    "augmented_from": doc.id,
                    "augment_method": self.name,
                    "augment_copy": k,
                }
                out.append(Document(f"{doc.id}#mlm{k}", doc.text, doc.spans, meta))
            self.refiller = synth.refiller  # loaded once, shared by the next versions
            for key, value in synth.stats.__dict__.items():
                setattr(stats, key, getattr(stats, key) + value)
        return MaskedLMResult(out, stats, len(docs), alpha, seed)


def _version_seed(seed: int, k: int) -> int:
    digest = hashlib.sha256(f"mlm:{seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
