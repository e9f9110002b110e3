"""The one registry of augmentation methods: method name -> :class:`~phiscrub.augment.base.CorpusAugmenter`.

``phiscrub augment --method``, the experiment grids (``grid.methods``) and the Python API all build
their augmenters here, from one :class:`AugmentOptions`::

    augmenter = build_augmenter("mr", AugmentOptions(p_mr=0.3)).fit(docs, seed=1)
    result = augmenter.augment(docs, alpha=2, seed=1)
    result.documents, result.counts(), result.summary(len(result.documents), "out.jsonl")

Methods marked ``offline`` need nothing outside this machine; the LLM methods need an endpoint the user
configured (:class:`LLMOptions`). Each builder imports its method's module only when called, so torch (DAGA,
the masked-LM refill) is imported only by the methods that use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.augment.base import ChainAugmenter, CopyAugmenter, CorpusAugmenter, DocumentAugmenter
from phiscrub.augment.chat.settings import LLMSettings
from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity

if TYPE_CHECKING:
    from phiscrub.augment.llm import PromptKind
    from phiscrub.augment.llm_client import OnLeak

__all__ = [
    "ALL_METHODS",
    "AUGMENT_METHODS",
    "DOCUMENT_METHODS",
    "METHODS",
    "AugmentOptions",
    "LLMOptions",
    "Method",
    "build_augmenter",
    "document_augmenter",
]


@dataclass(frozen=True)
class LLMOptions:
    """The endpoint side of the LLM methods.

    Args:
        settings: an :class:`~phiscrub.augment.chat.LLMSettings`.
        attempts: tries per note when a reply is unusable.
        cache_dir: reply cache folder (None: no cache).
        log_path: usage log, JSONL (None: none).
        on_leak: ``scrub``, ``skip`` or ``fail`` (see :data:`~phiscrub.augment.llm_client.OnLeak`).
        split_sentences: one document per sentence instead of whole notes.
    """

    settings: LLMSettings
    attempts: int = 3
    cache_dir: Path | None = None
    log_path: Path | None = None
    on_leak: OnLeak = "scrub"
    split_sentences: bool = False


@dataclass(frozen=True)
class AugmentOptions:
    """Options of every augmentation method (each method reads its own).

    Args:
        lang: surrogate language of ``phi``/``phicon`` and of the LLM fill; context augmentation edits
            English notes only and, unless ``lang`` is ``en``, leaves notes that do not look English.
        p_sr: synonym-replacement share of words (``context``).
        p_ri: random-insertion share of words (``context``).
        p_mr: replacement probability per entity (``mr``).
        daga: keyword arguments of :class:`~phiscrub.augment.daga.DagaAugmenter` (granularity and
            id prefix excluded).
        granularity: label granularity of the DAGA tags and generated spans.
        run_tag: when set, ids of generated documents carry it (``daga-<tag>-<k>``) so runs with other
            seeds do not collide.
        llm: the endpoint options (LLM methods only).
        mlm: options of the masked-LM refill (``mlm``): ``model`` (a refill model path, see
            :func:`~phiscrub.synth.refill.load_refiller`; default: the bundled one), ``refiller`` (a
            :class:`~phiscrub.synth.refill.Refiller` object instead), ``profile`` and the other keyword
            arguments of :meth:`~phiscrub.synth.config.SynthConfig.resolve` (``lang`` comes from ``lang``).
    """

    lang: str = "auto"
    p_sr: float = 0.1
    p_ri: float = 0.1
    p_mr: float = 0.5
    daga: dict[str, Any] = field(default_factory=dict)
    granularity: Granularity = "coarse"
    run_tag: str | None = None
    llm: LLMOptions | None = None
    mlm: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the options an experiment fingerprints (lang, shares, DAGA sizes)."""
        return {"lang": self.lang, "p_sr": self.p_sr, "p_ri": self.p_ri, "p_mr": self.p_mr, "daga": self.daga}


def document_augmenter(method: str, options: AugmentOptions) -> DocumentAugmenter:
    """The per-document method ``phi``, ``context``, ``phicon`` (PHI then context) or ``mr``.

    Raises:
        ConfigError: another method name, or bad parameters.
    """
    from phiscrub.augment.context import ContextAugmenter
    from phiscrub.augment.mention import MentionReplacementAugmenter
    from phiscrub.augment.phi import PhiAugmenter

    context_lang = "en" if options.lang == "en" else "auto"
    if method == "phi":
        return PhiAugmenter(options.lang)
    if method == "context":
        return ContextAugmenter(options.p_sr, options.p_ri, context_lang)
    if method == "phicon":
        steps: list[DocumentAugmenter] = [
            PhiAugmenter(options.lang),
            ContextAugmenter(options.p_sr, options.p_ri, context_lang),
        ]
        return ChainAugmenter(steps, name="phicon")
    if method == "mr":
        return MentionReplacementAugmenter(options.p_mr)
    raise ConfigError(f"{method!r} is not a per-document augmentation method")


#: The per-document methods (:func:`document_augmenter`), each wrapped in a :class:`CopyAugmenter`.
DOCUMENT_METHODS: tuple[str, ...] = ("phi", "context", "phicon", "mr")


def _copies(method: str) -> Callable[[AugmentOptions], CorpusAugmenter]:
    return lambda options: CopyAugmenter(document_augmenter(method, options))


def _daga(options: AugmentOptions) -> CorpusAugmenter:
    from phiscrub.augment.daga import DagaAugmenter

    prefix = f"daga-{options.run_tag}" if options.run_tag else "daga"
    return DagaAugmenter(granularity=options.granularity, id_prefix=prefix, **options.daga)


def _mlm(options: AugmentOptions) -> CorpusAugmenter:
    from phiscrub.synth.augmenter import MaskedLMAugmenter

    return MaskedLMAugmenter.from_options(options.mlm, lang=options.lang)


def _llm(kind: PromptKind) -> Callable[[AugmentOptions], CorpusAugmenter]:
    def build(options: AugmentOptions) -> CorpusAugmenter:
        from phiscrub.augment.llm_client import LLMAugmenter

        llm = options.llm
        if llm is None:
            raise ConfigError("--llm-url is required for the llm methods (phiscrub never picks an endpoint)")
        return LLMAugmenter(kind, llm, lang=options.lang)

    return build


@dataclass(frozen=True)
class Method:
    """A registered method: its builder, and whether it runs without any endpoint."""

    name: str
    build: Callable[[AugmentOptions], CorpusAugmenter]
    offline: bool = True


#: Every augmentation method, in the order the CLI lists them.
METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        *(Method(name, _copies(name)) for name in DOCUMENT_METHODS),
        Method("daga", _daga),
        Method("mlm", _mlm),
        Method("llm-oneshot", _llm("one-shot"), offline=False),
        Method("llm-zeroshot", _llm("zero-shot"), offline=False),
    )
}

#: Methods that need no endpoint (the experiment grids accept these).
AUGMENT_METHODS: tuple[str, ...] = tuple(name for name, m in METHODS.items() if m.offline)

#: Every method name (``phiscrub augment --method``).
ALL_METHODS: tuple[str, ...] = tuple(METHODS)


def build_augmenter(method: str, options: AugmentOptions | None = None) -> CorpusAugmenter:
    """The corpus augmenter of a registered method (fit it, then call ``augment``).

    Raises:
        ConfigError: unknown method, bad parameters, or an LLM method without :class:`LLMOptions`.
    """
    spec = METHODS.get(method)
    if spec is None:
        raise ConfigError(f"unknown augmentation method {method!r}; use one of {', '.join(ALL_METHODS)}")
    return spec.build(options if options is not None else AugmentOptions())
