"""The Python API behind ``phiscrub redact``: detect, resolve, transform."""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from phiscrub.detect.base import Detector, detect_batch
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import GRANULARITIES, Granularity, fold, is_native
from phiscrub.modes import MODES
from phiscrub.modes import Mode as RedactMode
from phiscrub.policy import Policy, check_policy, default_policy

if TYPE_CHECKING:
    from phiscrub.detect.language_gate import LanguageGate
    from phiscrub.detect.site import SiteLists
    from phiscrub.detect.site_registry import Registry
    from phiscrub.transform.operators import Operator, Transformer

__all__ = [
    "DEFAULT_THRESHOLD",
    "KEY_ENV_VAR",
    "Deidentifier",
    "RedactMode",
    "Redaction",
    "batched",
    "resolve_key",
]

log = logging.getLogger(__name__)

#: Environment variable read for the surrogate secret when no key is passed.
KEY_ENV_VAR = "PHISCRUB_KEY"

#: Default of :attr:`Deidentifier.threshold`: recall first, only the least likely proposals are
#: dropped (see ``docs/model.md``, "The threshold knob").
DEFAULT_THRESHOLD = 0.1


@dataclass(frozen=True)
class Redaction:
    """One redacted note: the input, the PHI spans found in it, and the rewritten output.

    ``spans`` index ``original.text`` and carry labels at the Deidentifier's granularity; spans whose
    label folds to nothing at that granularity (e.g. OTHER) are not listed and not replaced.
    ``result.spans`` are the same spans, in the same order, pointing at the replacements.
    """

    original: Document
    spans: tuple[Span, ...]
    result: Document
    #: The note's language as decided once for it (:func:`phiscrub.language.decide_language`).
    lang: str | None = None
    #: Under ``lang="auto"``/``"default"`` the gated model was left out although the note reads as
    #: English outside a quoted passage (:func:`phiscrub.detect.mixed_language.english_plausible`).
    model_skipped: bool = False


def resolve_key(key: str | bytes | None) -> bytes | None:
    """Return the secret as bytes: the given key, else ``$PHISCRUB_KEY``, else None."""
    if key is None:
        key = os.environ.get(KEY_ENV_VAR) or None
    if key is None:
        return None
    return key.encode("utf-8") if isinstance(key, str) else key


@dataclass
class Deidentifier:
    """Find PHI in notes and replace it.

    Args:
        mode: ``placeholder`` (``[NAME]``), ``mask`` (``***``) or ``surrogate`` (realistic, keyed).
        labels: label granularity of placeholders and output spans: ``coarse``, ``fine`` or ``phicon5``,
            or a corpus-native scheme ``native:<corpus>`` (:func:`phiscrub.labels.native_granularity`).
        key: secret for surrogates (str or bytes); falls back to ``$PHISCRUB_KEY``. Required for
            ``surrogate`` mode; an empty or blank key is a :class:`~phiscrub.errors.ConfigError`.
        model: a tagger model folder, ``"default"`` for the model bundled with the package, or None
            for no model. ``"default"`` without a bundled model logs a warning and runs without one.
            ``"default"`` runs the bundled model (English) only on English notes: for another
            ``lang`` the rules run alone, and with ``lang="auto"`` it is skipped per non-English
            document (:mod:`phiscrub.detect.language_gate`). ``"bundled"`` (the same model) and a
            model folder always run, whatever the language.
        detectors: explicit detectors; replaces the default rules and lexicon (the model is still
            added).
        lexicon: add the lexicon detector (bundled name and city lists) to the default detectors.
        propagate: tag every other occurrence of a detected name token in the same note
            (:mod:`phiscrub.detect.propagate`).
        resolve: overlap strategy name (see :mod:`phiscrub.resolve`).
        age_over_89: ``bucket`` turns ages over 89 into ``90+`` (HIPAA Safe Harbor); ``keep`` does not.
        lang: language of every note (``en``, ``es``, ``ca``, ``de``, ``fr``, ``nl``, ``zh`` ...; other
            codes get the language-neutral rules only), ``auto`` (per note: ``doc.metadata["lang"]``,
            else a guess) or ``default`` (per note: the metadata, else English unless the note is
            clearly another language). Decided once per note (:mod:`phiscrub.language`) and carried
            in the document's ``lang`` metadata to the rules, the model gate, the policy, the guard
            and the surrogates.
        policy: what counts as PHI: ``safe-harbor``, ``i2b2`` or ``strict`` (:mod:`phiscrub.policy`,
            ``docs/policy.md``). None: ``safe-harbor`` for English, ``i2b2`` for other languages
            (with ``lang="auto"``, per document).
        threshold: proposals whose (calibrated) score is below it are dropped before resolving;
            higher means fewer, surer spans. Default :data:`DEFAULT_THRESHOLD` (recall first).
        guard: drop spans that are clinical measurements or clinical vocabulary (vitals, times,
            scores, care units, drugs: :mod:`phiscrub.detect.clinical`), for ``lang="en"``; generic
            department names and bare weekdays are kept under the ``i2b2`` and ``strict`` policies. Counts
            of dropped spans by reason accumulate in :attr:`guard_counts` (no text).
        site_lists: the hospital's own lists (facilities, units, staff, places): a folder of ``.txt``
            lists, a ``.json`` file or a :class:`~phiscrub.detect.site.SiteLists`
            (``docs/site-lists.md``). Their matches are added after the threshold, policy and guard.
        registry: the patient registry (a CSV path or a
            :class:`~phiscrub.detect.site_registry.Registry`): each note's patient
            (``doc.metadata["patient_id"]``) is found by name, MRN, date of birth and the other columns.
        allow_list: terms never redacted (a file, one per line, or a collection of strings): a final
            span whose surface is one of them (case-insensitive) is dropped.
        locale: surrogate locale (``en_US``, ``es_ES``, ``de_DE``, ``fr_FR``, ``nl_NL``, ...): where
            surrogate names, towns, streets and phones come from; None: from each note's language
            (``lang`` metadata, else ``lang``; English is ``en_US``). See ``docs/surrogates.md``.
        fictional_contacts: surrogate phone numbers in the reserved fictional range (555-01xx)
            instead of valid numbers of the note's state.
        extra_detectors: detectors, or names registered in :data:`phiscrub.registry.DETECTORS`
            (``"lexicon"``, a plugin's name), added to the default ones (or to ``detectors``).
        operators: per-label operators (fine or coarse label -> an operator or a name registered in
            :data:`phiscrub.registry.OPERATORS`: ``"keep"``, ``"mask"``, ``"placeholder"``,
            ``"surrogate"``, a plugin's name); the other labels get ``mode``'s operator.
        plugins: add the detectors other installed packages register under the
            ``phiscrub.detectors`` entry point (``docs/extending.md``).

    Example:
        >>> from phiscrub import Deidentifier
        >>> out = Deidentifier(mode="placeholder", model=None).redact("Seen by Dr. Alan Grant on 03/12/2019.")
        >>> out.text
        'Seen by Dr. [NAME] on [DATE].'
    """

    mode: RedactMode = "placeholder"
    labels: Granularity = "coarse"
    key: str | bytes | None = field(default=None, repr=False)
    model: str | Path | None = "default"
    detectors: Sequence[Detector] | None = None
    lexicon: bool = False
    propagate: bool = True
    resolve: str = "merge"
    age_over_89: Literal["bucket", "keep"] = "bucket"
    lang: str = "default"
    policy: str | None = None
    threshold: float = DEFAULT_THRESHOLD
    guard: bool = True
    site_lists: str | Path | SiteLists | None = None
    registry: str | Path | Registry | None = None
    allow_list: str | Path | Collection[str] | None = None
    locale: str | None = None
    fictional_contacts: bool = False
    extra_detectors: Sequence[Detector | str] = ()
    operators: Mapping[str, Operator | str] | None = None
    plugins: bool = True
    guard_counts: Counter[str] = field(default_factory=Counter, init=False, repr=False, compare=False)
    _detectors: list[Detector] | None = field(default=None, init=False, repr=False)
    _transformer: Transformer | None = field(default=None, init=False, repr=False)
    _gate: LanguageGate | None = field(default=None, init=False, repr=False)
    _site: tuple[SiteLists | None, Registry | None, frozenset[str]] | None = field(
        default=None, init=False, repr=False
    )

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"unknown mode {self.mode!r}; use placeholder, mask or surrogate")
        if self.labels not in GRANULARITIES and not is_native(self.labels):
            raise ConfigError(
                f"unknown label granularity {self.labels!r}; use coarse, fine, phicon5 or native:<corpus>"
            )
        secret = resolve_key(self.key)
        if secret is not None and not secret.strip():
            # An empty secret would make every surrogate guessable (and failed each note later on).
            raise ConfigError(
                f"the surrogate key is empty or blank: pass a non-empty key= / --key or ${KEY_ENV_VAR}"
            )
        if self.mode == "surrogate" and secret is None:
            raise ConfigError(f"surrogate mode needs a secret: pass key= / --key, or set ${KEY_ENV_VAR}")
        if self.policy is not None:
            check_policy(self.policy)
        if isinstance(self.threshold, bool) or not 0.0 <= self.threshold <= 1.0:
            raise ConfigError(f"threshold must lie in [0, 1], got {self.threshold!r}")

    # -- lazy parts: nothing heavy is loaded in the constructor ------------------------------------
    @property
    def active_detectors(self) -> list[Detector]:
        """Detectors in use (rules, then the model if any); built on first use."""
        if self._detectors is None:
            if self.detectors is not None:
                dets = list(self.detectors)
            else:
                from phiscrub.detect.rules import default_detectors

                dets = list(default_detectors(lang=self.lang))
                if self.lexicon:
                    from phiscrub.detect.lexicon import LexiconDetector

                    dets.append(LexiconDetector(lang=self.lang))
            dets.extend(self._added_detectors(dets))  # to the defaults or to ``detectors``
            if self.model is not None:
                dets = self._with_model(dets, self.model)
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
        if self.plugins:
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
        if langs is not None and self.lang not in LANG_MODES and normalize_lang(self.lang) not in langs:
            log.info("bundled model is for %s notes: rules alone for lang=%s", sorted(langs), self.lang)
            return dets
        from phiscrub.detect.fusion_policy import fuse_detectors

        detector: Detector = load_model_detector(model)
        if langs is not None and self.lang in LANG_MODES:
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

            self._site = load_site_knowledge(self.site_lists, self.registry, self.allow_list)
        return self._site

    @property
    def transformer(self) -> Transformer:
        """The transformer for ``mode``; built on first use."""
        if self._transformer is None:
            from phiscrub.transform.operators import build_transformer

            # The surrogate lists and date order follow the rule language (a note's own ``lang``
            # metadata wins per document); ``auto``/``default`` leave it to each note's metadata.
            self._transformer = build_transformer(
                self.mode,
                granularity=self.labels,
                key=resolve_key(self.key),
                age_over_89=self.age_over_89,
                lang=None if self.lang in ("auto", "default") else self.lang,
                locale=self.locale,
                fictional_contacts=self.fictional_contacts,
                operators=self._label_operators(),
            )
        return self._transformer

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
    def detect(self, doc: Document | str) -> list[Span]:
        """Return the resolved, non-overlapping PHI spans of ``doc``."""
        return self.detect_many([_as_doc(doc)])[0]

    def detect_many(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Detect PHI in a batch of documents (models run batched)."""
        tagged = [self.tagged(d) for d in docs]
        return [self.select(d, p) for d, p in zip(tagged, self.propose_many(tagged))]

    def tagged(self, doc: Document) -> Document:
        """``doc`` carrying its language in ``metadata["lang"]``, decided once under :attr:`lang`."""
        from phiscrub.language import with_language

        return with_language(doc, self.lang)

    def language_of(self, doc: Document) -> str:
        """The language of ``doc`` under :attr:`lang` (its tag when :meth:`tagged` set one)."""
        from phiscrub.language import decide_language

        return decide_language(doc, self.lang)

    def propose_many(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Every detector's proposals for a batch: unresolved, unfiltered, with their scores.

        The detectors read a note through its normalized view (invisible characters removed,
        compatibility forms, names across a line break, spaced digits; :mod:`phiscrub.text_view`)
        and the spans come back in the note's own offsets.
        """
        from phiscrub.text_view import propose_on_views

        return propose_on_views([self.tagged(d) for d in docs], self._propose_plain)

    def _propose_plain(self, docs: Sequence[Document]) -> list[list[Span]]:
        """:meth:`propose_many` on the text as given."""
        from phiscrub.progress import report, wants_progress

        proposals: list[list[Span]] = [[] for _ in docs]
        docs = [self.tagged(d) for d in docs]
        detectors = self.active_detectors
        # Long notes: one progress report per detector (counts only, see phiscrub.progress).
        loud = wants_progress(max((len(d.text) for d in docs), default=0))
        for k, det in enumerate(detectors):
            for acc, spans in zip(proposals, detect_batch(det, docs)):
                acc.extend(spans)
            if loud:
                report("detectors", k + 1, len(detectors))
        return proposals

    def select(self, doc: Document, proposals: Sequence[Span], threshold: float | None = None) -> list[Span]:
        """The PHI spans of ``doc`` from its proposals: the selection steps of :mod:`phiscrub.select`
        (threshold, policy, propagate, resolve, guard, site).

        Proposals scoring below the threshold are dropped first, then those that are not PHI under
        the document's policy; names among the rest are propagated and overlaps resolved. A higher
        threshold keeps a subset of the proposals, so with the ``merge`` strategy (the default) it
        never adds redacted characters before the guard (whose name-edge trimming of merged spans is
        the one exception, docs/model.md). The site lists' and registry's spans come last (after
        the guard, under the policy) and are merged in without removing or shrinking any span; the
        allow list then drops the spans whose surface it lists.

        Args:
            doc: the document the proposals index.
            proposals: spans from :meth:`propose_many`.
            threshold: overrides :attr:`threshold` (e.g. to sweep it without detecting again).
        """
        from phiscrub.select import SelectContext, select_spans

        doc = self.tagged(doc)
        has_site = self.site_lists is not None or self.registry is not None or self.allow_list is not None
        ctx = SelectContext(
            policy=self.policy_for(doc),
            lang=self.language_of(doc),
            threshold=self.threshold if threshold is None else threshold,
            propagate=self.propagate,
            resolve=self.resolve,
            guard=self.guard,
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

    def policy_for(self, doc: Document) -> Policy:
        """The PHI policy applied to ``doc``: :attr:`policy`, else the default of its language.

        The language is the note's one decision (:meth:`language_of`), as for the rules
        (:func:`phiscrub.policy.default_policy`).
        """
        if self.policy is not None:
            return check_policy(self.policy)
        return default_policy(self.language_of(doc))

    def redact(self, doc: Document | str, patient_id: str | None = None) -> Document:
        """De-identify one note.

        Args:
            doc: a :class:`Document` or a plain string.
            patient_id: groups documents of one patient for consistent surrogates and date shifts;
                defaults to ``doc.metadata["patient_id"]``.

        Returns:
            A new Document with the rewritten text; its spans point at the replacements.
        """
        return self.redact_one(_as_doc(doc), patient_id).result

    def redact_many(self, docs: Iterable[Document], batch_size: int = 16) -> Iterator[Redaction]:
        """Redact documents lazily in batches, preserving order; yields :class:`Redaction` records."""
        for batch in batched(docs, batch_size):
            yield from self._redact_batch(batch)

    def redact_one(self, doc: Document, patient_id: str | None = None) -> Redaction:
        """Redact one document and return the full :class:`Redaction` record."""
        return self._apply(doc, self.detect(doc), patient_id)

    def _redact_batch(self, batch: list[Document]) -> Iterator[Redaction]:
        for d, spans in zip(batch, self.detect_many(batch)):
            yield self._apply(d, spans, None)

    def _apply(self, doc: Document, spans: Sequence[Span], patient_id: str | None) -> Redaction:
        tagged = self.tagged(doc)  # the guess of detect_many, remembered (phiscrub.language)
        pid = patient_id if patient_id is not None else doc.metadata.get("patient_id")
        kept = []
        for s in spans:
            lab = fold(s.label, self.labels)
            if lab is not None:
                kept.append(s.with_label(lab) if self.labels != "fine" else s)
        # The transformer reads the note's decided language (surrogate names, date order); the
        # output keeps the metadata the note came with.
        result = self.transformer.apply(tagged, spans, patient_id=None if pid is None else str(pid))
        if result.metadata.get("lang") != doc.metadata.get("lang"):
            meta = {k: v for k, v in result.metadata.items() if k != "lang"}
            if "lang" in doc.metadata:
                meta["lang"] = doc.metadata["lang"]
            result = Document(result.id, result.text, result.spans, meta)
        lang = str(tagged.metadata["lang"])
        skipped = self._model_skipped(doc, tagged)
        return Redaction(
            original=doc, spans=tuple(sorted(kept)), result=result, lang=lang, model_skipped=skipped
        )

    def _model_skipped(self, doc: Document, tagged: Document) -> bool:
        """Whether ``lang="auto"`` (or ``"default"``) left the gated model out of a note that reads as
        English outside its quotes (the language was guessed, not given in the metadata)."""
        if self._gate is None or self._gate.wanted(tagged):
            return False
        from phiscrub.detect.mixed_language import english_plausible
        from phiscrub.language import given_language

        return given_language(doc.metadata) is None and english_plausible(doc.text)


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
