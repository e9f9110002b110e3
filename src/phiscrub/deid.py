"""The Python API behind ``phiscrub redact``: detect, resolve, transform."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from phiscrub.detect.base import Detector, detect_all, detect_batch
from phiscrub.document import Document, Span
from phiscrub.engine_config import DEFAULT_THRESHOLD, RESOURCE_FIELDS, Choices, DeidConfig
from phiscrub.keys import KEY_ENV_VAR, check_secret, resolve_key
from phiscrub.labels import fold
from phiscrub.modes import Mode as RedactMode
from phiscrub.policy import Policy, check_policy, default_policy
from phiscrub.redaction import Redaction

if TYPE_CHECKING:
    from phiscrub.detect.language_gate import LanguageGate
    from phiscrub.detect.site import SiteLists
    from phiscrub.detect.site_registry import Registry
    from phiscrub.transform.operators import Operator, Transformer

__all__ = [
    "DEFAULT_THRESHOLD",
    "KEY_ENV_VAR",
    "DeidConfig",
    "Deidentifier",
    "RedactMode",
    "Redaction",
    "batched",
    "resolve_key",
]

log = logging.getLogger(__name__)


class Deidentifier:
    """Find PHI in notes and replace it.

    The engine options are the fields of :class:`~phiscrub.engine_config.DeidConfig` (mode,
    labels, model, lexicon, propagate, resolve, age_over_89, lang, policy, threshold, guard,
    site_lists, registry, allow_list, locale, fictional_contacts, plugins), given as a config
    (``Deidentifier(config)``, :meth:`from_config`) or as keywords (``Deidentifier(mode="mask")``),
    and read back as :attr:`config`. Besides them, the constructor takes the things that are not
    options: the secret and detector or operator objects.

    ``mode``, ``labels``, ``policy`` and ``threshold`` are defaults: each call of :meth:`redact`
    (and :meth:`redact_many`) may choose others, with the same detectors, model and lists.

    Args:
        config: the engine options (default: the defaults); keywords in ``options`` override it.
        key: secret for surrogates (str or bytes); falls back to ``$PHISCRUB_KEY``. Required for
            ``surrogate`` mode; an empty or blank key is a :class:`~phiscrub.errors.ConfigError`
            (:mod:`phiscrub.keys`).
        detectors: explicit detectors; replaces the default rules and lexicon (the model is still
            added).
        extra_detectors: detectors, or names registered in :data:`phiscrub.registry.DETECTORS`
            (``"lexicon"``, a plugin's name), added to the default ones (or to ``detectors``).
        operators: per-label operators (fine or coarse label -> an operator or a name registered in
            :data:`phiscrub.registry.OPERATORS`: ``"keep"``, ``"mask"``, ``"placeholder"``,
            ``"surrogate"``, a plugin's name); the other labels get the mode's operator.
        options: fields of :class:`~phiscrub.engine_config.DeidConfig` by name. ``site_lists``,
            ``registry`` and ``allow_list`` may also be loaded objects (a
            :class:`~phiscrub.detect.site.SiteLists`, a
            :class:`~phiscrub.detect.site_registry.Registry`, a collection of terms), which are
            then used as they are and not part of :attr:`config`.

    Raises:
        ConfigError: an invalid option (named), or a key that is blank or missing in surrogate mode.
        TypeError: an unknown option.

    Example:
        >>> from phiscrub import Deidentifier
        >>> out = Deidentifier(mode="placeholder", model=None).redact("Seen by Dr. Alan Grant on 03/12/2019.")
        >>> out.text
        'Seen by Dr. [NAME] on [DATE].'
    """

    def __init__(
        self,
        config: DeidConfig | None = None,
        *,
        key: str | bytes | None = None,
        detectors: Sequence[Detector] | None = None,
        extra_detectors: Sequence[Detector | str] = (),
        operators: Mapping[str, Operator | str] | None = None,
        **options: Any,
    ) -> None:
        objects = {
            name: options.pop(name)
            for name in RESOURCE_FIELDS
            if name in options and not isinstance(options[name], (str, Path, type(None)))
        }
        base = config if config is not None else DeidConfig()
        self._config = replace(base, **options) if options else base
        self._objects: dict[str, Any] = objects  # site options given as loaded objects
        self.key = key
        self.detectors = detectors
        self.extra_detectors = extra_detectors
        self.operators = operators
        self._secret = resolve_key(key)
        check_secret(self._secret, self._config.mode)
        #: Counts of spans the guard dropped, by reason (no text).
        self.guard_counts: Counter[str] = Counter()
        self._detectors: list[Detector] | None = None
        self._transformers: dict[tuple[str, str, bytes | None], Transformer] = {}
        self._lock = threading.Lock()
        self._gate: LanguageGate | None = None
        self._site: tuple[SiteLists | None, Registry | None, frozenset[str]] | None = None

    @classmethod
    def from_config(
        cls,
        config: DeidConfig,
        *,
        key: str | bytes | None = None,
        detectors: Sequence[Detector] | None = None,
        extra_detectors: Sequence[Detector | str] = (),
        operators: Mapping[str, Operator | str] | None = None,
    ) -> Deidentifier:
        """A de-identifier with the options of ``config`` (nothing loaded yet; raises as the constructor)."""
        return cls(config, key=key, detectors=detectors, extra_detectors=extra_detectors, operators=operators)

    @property
    def config(self) -> DeidConfig:
        """The engine options (site options given as loaded objects are None here)."""
        return self._config

    def __repr__(self) -> str:  # never the key
        return f"Deidentifier({self._config!r})"

    def derive(self, **changes: Any) -> Deidentifier:
        """An unloaded de-identifier like this one (same key, detectors, operators, site objects)
        with ``changes``: options, or ``key``, ``detectors``, ``extra_detectors``, ``operators``."""
        given: dict[str, Any] = {
            "key": self.key,
            "detectors": self.detectors,
            "extra_detectors": self.extra_detectors,
            "operators": self.operators,
            **self._objects,
        }
        return Deidentifier(self._config, **{**given, **changes})

    def __getstate__(self) -> dict[str, Any]:  # sent to worker processes: no lock
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock())

    # -- lazy parts: nothing heavy is loaded in the constructor ------------------------------------
    @property
    def active_detectors(self) -> list[Detector]:
        """Detectors in use (rules, then the model if any); built on first use."""
        if self._detectors is None:
            if self.detectors is not None:
                dets = list(self.detectors)
            else:
                from phiscrub.detect.rules import default_detectors

                dets = list(default_detectors(lang=self._config.lang))
                if self._config.lexicon:
                    from phiscrub.detect.lexicon import LexiconDetector

                    dets.append(LexiconDetector(lang=self._config.lang))
            dets.extend(self._added_detectors(dets))  # to the defaults or to ``detectors``
            if self._config.model is not None:
                dets = self._with_model(dets, self._config.model)
            self._detectors = dets
        return self._detectors

    def _added_detectors(self, present: Sequence[Detector]) -> list[Detector]:
        """``extra_detectors`` (registered names resolved), then the installed plugins' detectors that
        ``present`` lacks (a service's per-option de-identifiers share its base's detectors)."""
        from phiscrub.registry import DETECTORS

        added: list[Detector] = [
            DETECTORS.get(d) if isinstance(d, str) else d  # type: ignore[misc]
            for d in self.extra_detectors
        ]
        if self._config.plugins:
            names = {getattr(d, "name", None) for d in [*present, *added]}
            for name, factory in sorted(DETECTORS.plugins().items()):
                if name not in names:
                    added.append(factory())  # type: ignore[arg-type]
                    log.info("plugin detector %s added", name)
        return added

    def _with_model(self, dets: list[Detector], model: str | Path) -> list[Detector]:
        """``dets`` plus the model; the bundled model only for notes of its languages (English)."""
        from phiscrub.detect.language_gate import LanguageGate, model_languages
        from phiscrub.detect.tagger import bundled_model_path, load_model_detector
        from phiscrub.language import LANG_MODES, normalize_lang

        bundled = bundled_model_path()
        if str(model) in ("default", "bundled") and bundled is None:
            log.warning("no model is bundled with this installation: detecting with rules only")
            return dets
        if str(model) == "bundled" and bundled is not None:
            model = bundled  # asked for by name: runs on every language
        langs = model_languages(model, bundled)
        lang = self._config.lang
        if langs is not None and lang not in LANG_MODES and normalize_lang(lang) not in langs:
            log.info("bundled model is for %s notes: rules alone for lang=%s", sorted(langs), lang)
            return dets
        from phiscrub.detect.fusion_policy import fuse_detectors

        detector: Detector = load_model_detector(model)
        if langs is not None and lang in LANG_MODES:
            detector = self._gate = LanguageGate(detector, langs, self.language_of)
        # A recipe's fusion.json (rules or model better alone for some labels on the
        # target dev): with the rules on, the other side's spans of those labels are left out.
        return fuse_detectors(dets, detector, None if str(model) == "default" else model)

    @property
    def site(self) -> tuple[SiteLists | None, Registry | None, frozenset[str]]:
        """The site lists, registry and allow list in use (loaded on first use, cached per file).

        Raises:
            ConfigError: a file that is missing, unreadable or malformed (named; no content).
        """
        if self._site is None:
            from phiscrub.detect.site_load import load_site_knowledge

            given = {name: self._site_option(name) for name in RESOURCE_FIELDS}
            self._site = load_site_knowledge(given["site_lists"], given["registry"], given["allow_list"])
        return self._site

    def _site_option(self, name: str) -> Any:
        """An option: the loaded object given for it (a site option), else its value in :attr:`config`."""
        return self._objects.get(name, getattr(self._config, name))

    @property
    def transformer(self) -> Transformer:
        """The transformer of the configured mode and labels; built on first use."""
        return self.transformer_for(self._config.mode, self._config.labels, self._secret)

    def transformer_for(self, mode: str, labels: str, secret: bytes | None) -> Transformer:
        """The transformer of ``mode`` at ``labels`` with ``secret``: built once per triple and kept
        (the other options are those of :attr:`config`).

        Raises:
            ConfigError: a blank secret, or surrogate mode without one.
        """
        check_secret(secret, mode)
        wanted = (mode, labels, secret)
        with self._lock:
            found = self._transformers.get(wanted)
            if found is None:
                from phiscrub.transform.operators import build_transformer

                cfg = self._config
                # The surrogate lists and date order follow the rule language (a note's own ``lang``
                # metadata wins per document); ``auto``/``default`` leave it to each note's metadata.
                found = build_transformer(
                    mode,  # type: ignore[arg-type]
                    granularity=labels,  # type: ignore[arg-type]
                    key=secret,
                    age_over_89=cfg.age_over_89,
                    lang=None if cfg.lang in ("auto", "default") else cfg.lang,
                    locale=cfg.locale,
                    fictional_contacts=cfg.fictional_contacts,
                    operators=self._label_operators(),
                )
                self._transformers[wanted] = found
            return found

    def _label_operators(self) -> dict[str, Operator] | None:
        """``operators`` with registered names resolved (None when none is given)."""
        if not self.operators:
            return None
        from phiscrub.registry import OPERATORS

        return {
            label: OPERATORS.get(op) if isinstance(op, str) else op  # type: ignore[misc]
            for label, op in self.operators.items()
        }

    def load(self) -> Deidentifier:
        """Build the detectors and the transformer now, loading the model if any.

        Call it before writing any output, so that a broken model folder or option fails the run
        at start-up rather than every note one by one.

        Returns:
            ``self``.

        Raises:
            ModelError: the model folder is missing files or does not load.
            ConfigError: invalid options of a detector or of the transformer.
        """
        _ = self.active_detectors
        _ = self.transformer
        _ = self.site
        return self

    # -- API ---------------------------------------------------------------------------------------
    def detect(
        self, doc: Document | str, *, policy: str | None = None, threshold: float | None = None
    ) -> list[Span]:
        """Return the resolved, non-overlapping PHI spans of ``doc`` (``policy`` and ``threshold``:
        this call's, default those of :attr:`config`)."""
        return self.detect_many([_as_doc(doc)], policy=policy, threshold=threshold)[0]

    def detect_many(
        self, docs: Sequence[Document], *, policy: str | None = None, threshold: float | None = None
    ) -> list[list[Span]]:
        """Detect PHI in a batch of documents (models run batched)."""
        tagged = [self.tagged(d) for d in docs]
        return [
            self.select(d, p, threshold, policy=policy) for d, p in zip(tagged, self.propose_many(tagged))
        ]

    def tagged(self, doc: Document) -> Document:
        """``doc`` carrying its language in ``metadata["lang"]``, decided once under :attr:`lang`."""
        from phiscrub.language import with_language

        return with_language(doc, self._config.lang)

    def language_of(self, doc: Document) -> str:
        """The language of ``doc`` under :attr:`lang` (its tag when :meth:`tagged` set one)."""
        from phiscrub.language import decide_language

        return decide_language(doc, self._config.lang)

    def propose_many(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Every detector's proposals for a batch: unresolved, unfiltered, with their scores.

        The detectors read a note through its normalized view (invisible characters removed,
        compatibility forms, names across a line break, spaced digits; :mod:`phiscrub.text_view`)
        and the spans come back in the note's own offsets.
        """
        from phiscrub.text_view import propose_on_views

        return propose_on_views([self.tagged(d) for d in docs], self._propose_plain)

    def prefetch(self, docs: Sequence[Document]) -> None:
        """Start the model's forward passes of a batch that a later call will detect or redact, in a
        thread of their own (``phiscrub redact`` reads one batch ahead, so the model works on the
        next batch while this one is selected, replaced and written). What is found is unchanged; a
        model that cannot start early, or a failure here, only loses the head start."""
        from phiscrub.text_view import seen_documents

        try:
            seen = [self.tagged(d) for d in seen_documents([self.tagged(d) for d in docs])]
            for det in self.active_detectors:
                start = getattr(det, "prefetch", None)
                if start is not None:
                    start(seen)
        except Exception as exc:  # noqa: BLE001 - an optimisation only: the batch is detected as usual
            log.debug("prefetch skipped (%s)", type(exc).__name__)

    def _propose_plain(self, docs: Sequence[Document]) -> list[list[Span]]:
        """:meth:`propose_many` on the text as given."""
        from phiscrub.progress import report, wants_progress

        proposals: list[list[Span]] = [[] for _ in docs]
        docs = [self.tagged(d) for d in docs]
        detectors = self.active_detectors
        # Long notes: one progress report per detector (counts only, see phiscrub.progress).
        loud = wants_progress(max((len(d.text) for d in docs), default=0))
        if not loud:  # short notes: the model's forward pass beside the rules (detect_all)
            for per_doc in detect_all(detectors, docs):
                for acc, spans in zip(proposals, per_doc):
                    acc.extend(spans)
            return proposals
        for k, det in enumerate(detectors):
            for acc, spans in zip(proposals, detect_batch(det, docs)):
                acc.extend(spans)
            report("detectors", k + 1, len(detectors))
        return proposals

    def select(
        self,
        doc: Document,
        proposals: Sequence[Span],
        threshold: float | None = None,
        *,
        policy: str | None = None,
        guard: bool | None = None,
    ) -> list[Span]:
        """The PHI spans of ``doc`` from its proposals: the selection steps of :mod:`phiscrub.select`
        (threshold, policy, propagate, resolve, guard, site).

        A higher threshold keeps a subset of the proposals, so with the ``merge`` strategy (the
        default) it never adds redacted characters before the guard (docs/model.md).

        Args:
            doc: the document the proposals index.
            proposals: spans from :meth:`propose_many`.
            threshold: overrides the configured threshold (e.g. to sweep it without detecting again).
            policy: overrides the configured policy.
            guard: overrides the configured guard (e.g. to measure what it drops).
        """
        from phiscrub.select import SelectContext, select_spans

        cfg = self._config
        doc = self.tagged(doc)
        has_site = any(self._site_option(name) is not None for name in RESOURCE_FIELDS)
        ctx = SelectContext(
            policy=self.policy_for(doc, policy),
            lang=self.language_of(doc),
            threshold=cfg.threshold if threshold is None else threshold,
            propagate=cfg.propagate,
            resolve=cfg.resolve,
            guard=cfg.guard if guard is None else guard,
            site=self.site if has_site else None,
            guard_counts=self.guard_counts,
        )
        return select_spans(doc, proposals, ctx)

    @property
    def steps(self) -> list[str]:
        """The names of the selection steps, in the order :meth:`select` runs them
        (:data:`phiscrub.select.STEPS`)."""
        from phiscrub.select import step_names

        return step_names()

    def policy_for(self, doc: Document, policy: str | None = None) -> Policy:
        """The PHI policy applied to ``doc``: ``policy``, else the configured one, else the default
        of its language.

        The language is the note's one decision (:meth:`language_of`), as for the rules
        (:func:`phiscrub.policy.default_policy`).
        """
        chosen = policy if policy is not None else self._config.policy
        if chosen is not None:
            return check_policy(chosen)
        return default_policy(self.language_of(doc))

    def labelled(self, spans: Iterable[Span], labels: str | None = None) -> tuple[Span, ...]:
        """``spans`` at the label granularity ``labels`` (default: the configured one), sorted; those
        whose label folds to nothing there (e.g. OTHER) are left out."""
        granularity = self._config.labels if labels is None else labels
        kept = []
        for s in spans:
            lab = fold(s.label, granularity)  # type: ignore[arg-type]
            if lab is not None:
                kept.append(s.with_label(lab) if granularity != "fine" else s)
        return tuple(sorted(kept))

    def redact(
        self, doc: Document | str, patient_id: str | None = None, **choices: Unpack[Choices]
    ) -> Redaction:
        """De-identify one note.

        Args:
            doc: a :class:`Document` or a plain string.
            patient_id: groups documents of one patient for consistent surrogates and date shifts;
                defaults to ``doc.metadata["patient_id"]``.
            choices: this call's ``mode``, ``labels``, ``policy``, ``threshold`` (None: the
                configured ones; the detectors, model and lists are the same whatever they are) and
                ``key`` (None: the de-identifier's secret); see
                :class:`~phiscrub.engine_config.Choices`.

        Returns:
            The :class:`Redaction`: ``.text`` is the rewritten text, ``.spans`` the PHI spans of the
            input, ``.result`` the rewritten Document (its spans point at the replacements).

        Raises:
            ConfigError: an invalid choice, or surrogate mode without a secret.
        """
        cfg, secret = self._call(choices)
        return self._redact_batch([_as_doc(doc)], patient_id, cfg, secret)[0]

    def redact_text(self, text: str, **choices: Unpack[Choices]) -> str:
        """The redacted text of ``text`` (:meth:`redact`'s ``.text``; the same keyword choices)."""
        return self.redact(text, **choices).text

    def redact_one(
        self, doc: Document, patient_id: str | None = None, **choices: Unpack[Choices]
    ) -> Redaction:
        """The same as :meth:`redact` (kept for older callers)."""
        return self.redact(doc, patient_id, **choices)

    def redact_many(
        self, docs: Iterable[Document], batch_size: int = 16, **choices: Unpack[Choices]
    ) -> Iterator[Redaction]:
        """Redact documents lazily in batches, preserving order; yields :class:`Redaction` records
        (the choices as in :meth:`redact`)."""
        cfg, secret = self._call(choices)
        for batch in batched(docs, batch_size):
            yield from self._redact_batch(batch, None, cfg, secret)

    def finish(self, doc: Document, proposals: Sequence[Span], **choices: Unpack[Choices]) -> Redaction:
        """:meth:`redact` from the note's proposals (:meth:`propose_many`), detected beforehand
        (the service detects the notes of concurrent requests together)."""
        cfg, secret = self._call(choices)
        spans = self.select(doc, proposals, cfg.threshold, policy=cfg.policy)
        return self._apply(doc, spans, None, cfg, secret)

    def _call(self, choices: Choices) -> tuple[DeidConfig, bytes | None]:
        """The config and the secret of one call: :attr:`config` with the choices given, checked."""
        key = choices.get("key")
        cfg = self._config.with_choices(**{k: v for k, v in choices.items() if k != "key"})
        secret = self._secret if key is None else resolve_key(key)
        check_secret(secret, cfg.mode)  # before any detection
        return cfg, secret

    def _redact_batch(
        self, batch: list[Document], patient_id: str | None, cfg: DeidConfig, secret: bytes | None
    ) -> list[Redaction]:
        found = self.detect_many(batch, policy=cfg.policy, threshold=cfg.threshold)
        return [self._apply(d, spans, patient_id, cfg, secret) for d, spans in zip(batch, found)]

    def _apply(
        self,
        doc: Document,
        spans: Sequence[Span],
        patient_id: str | None,
        cfg: DeidConfig,
        secret: bytes | None,
    ) -> Redaction:
        tagged = self.tagged(doc)  # the guess of detect_many, remembered (phiscrub.language)
        pid = patient_id if patient_id is not None else doc.metadata.get("patient_id")
        # The transformer reads the note's decided language (surrogate names, date order); the
        # output keeps the metadata the note came with.
        transformer = self.transformer_for(cfg.mode, cfg.labels, secret)
        result = transformer.apply(tagged, spans, patient_id=None if pid is None else str(pid))
        if result.metadata.get("lang") != doc.metadata.get("lang"):
            meta = {k: v for k, v in result.metadata.items() if k != "lang"}
            if "lang" in doc.metadata:
                meta["lang"] = doc.metadata["lang"]
            result = Document(result.id, result.text, result.spans, meta)
        return Redaction(
            original=doc,
            spans=self.labelled(spans, cfg.labels),
            result=result,
            lang=str(tagged.metadata["lang"]),
            model_skipped=self._model_skipped(doc, tagged),
            policy=self.policy_for(tagged, cfg.policy),
        )

    def _model_skipped(self, doc: Document, tagged: Document) -> bool:
        """Whether ``lang="auto"`` (or ``"default"``) left the gated model out of a note that reads as
        English outside its quotes (the language was guessed, not given in the metadata)."""
        if self._gate is None or self._gate.wanted(tagged):
            return False
        from phiscrub.detect.mixed_language import english_plausible
        from phiscrub.language import given_language

        return given_language(doc.metadata) is None and english_plausible(doc.text)


def _option_view(name: str) -> property:
    """A read-only attribute of a :class:`Deidentifier` that reads its config's field ``name``."""

    def get(self: Deidentifier) -> Any:
        return self._site_option(name)

    return property(get, doc=f"The configured ``{name}`` (read-only: ``config.{name}``).")


# ``deid.lang``, ``deid.threshold`` ...: the options read back by name, as before issue 26 (read-only;
# the library's own code reads ``deid.config``).
for _field in fields(DeidConfig):
    setattr(Deidentifier, _field.name, _option_view(_field.name))


def batched(docs: Iterable[Document], size: int) -> Iterator[list[Document]]:
    """Consecutive lists of at most ``size`` documents, lazily, in order."""
    batch: list[Document] = []
    for d in docs:
        batch.append(d)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _as_doc(doc: Document | str) -> Document:
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, str):
        return Document(id="text", text=doc)
    raise TypeError(f"expected Document or str, got {type(doc).__name__}")
