"""The detector settings shared by ``phiscrub redact``, ``phiscrub serve`` and :mod:`phiscrub.spark`.

Each of them builds :class:`~phiscrub.deid.Deidentifier` objects from the same detector options
(model, lexicon, propagation, overlap strategy, ages, rule language, threshold, guard); those live
here once, with the one mapping from settings to a de-identifier (:meth:`DetectorSettings.deidentifier`).
The per-run or per-request options (mode, label granularity, key, policy) are passed to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.deid import DEFAULT_THRESHOLD, Deidentifier

__all__ = ["DetectorSettings"]


@dataclass(frozen=True)
class DetectorSettings:
    """The detector options of a de-identifier (see :class:`~phiscrub.deid.Deidentifier`).

    Args:
        model: tagger model folder, ``"default"`` (the bundled model) or None (rules only).
        lexicon: add the lexicon detector.
        propagate: tag other occurrences of detected names in the same note.
        resolve: overlap strategy.
        age_over_89: ``bucket`` (ages over 89 become ``90+``) or ``keep``.
        lang: language of the notes (``auto``: per note; ``default``: per note, English unless
            clearly another language, issue 27).
        threshold: drop proposed spans scoring below it.
        guard: drop clinical measurements and vocabulary.
        site_lists: the site's lists (a folder of ``.txt`` or a ``.json`` file; docs/site-lists.md).
        registry: the patient registry CSV.
        allow_list: file of terms never redacted.
        locale: surrogate locale (None: each note's language; docs/surrogates.md).
        fictional_contacts: surrogate phones in the reserved 555-01xx range.
    """

    model: str | None = "default"
    lexicon: bool = False
    propagate: bool = True
    resolve: str = "merge"
    age_over_89: str = "bucket"
    lang: str = "default"
    threshold: float = DEFAULT_THRESHOLD
    guard: bool = True
    site_lists: str | None = None
    registry: str | None = None
    allow_list: str | None = None
    locale: str | None = None
    fictional_contacts: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> DetectorSettings:
        """The settings of the command-line options (``--rules-only`` drops the model and lexicon).

        Args:
            options: the parameters ``model``, ``rules_only``, ``lexicon``, ``propagate``,
                ``resolve_strategy``, ``keep_ages``, ``lang``, ``threshold``, ``guard``, ``site_lists``,
                ``registry`` and ``allow_list``; a missing one takes its default.
        """
        rules_only = bool(options.get("rules_only", False))
        model = options.get("model", "default")
        return cls(
            None if rules_only or model is None else str(model),
            bool(options.get("lexicon", False)) and not rules_only,
            bool(options.get("propagate", True)),
            str(options.get("resolve_strategy", "merge")),
            "keep" if options.get("keep_ages") else "bucket",
            str(options.get("lang", "default")),
            float(options.get("threshold", DEFAULT_THRESHOLD)),
            bool(options.get("guard", True)),
            site_lists=_path(options.get("site_lists")),
            registry=_path(options.get("registry")),
            allow_list=_path(options.get("allow_list")),
            locale=None if options.get("locale") is None else str(options.get("locale")),
            fictional_contacts=bool(options.get("fictional_contacts", False)),
        )

    def deidentifier(
        self,
        *,
        mode: str = "placeholder",
        labels: str = "coarse",
        key: str | bytes | None = None,
        policy: str | None = None,
        model: str | Path | None | bool = True,
        detectors: Sequence[Any] | None = None,
    ) -> Deidentifier:
        """An unloaded :class:`~phiscrub.deid.Deidentifier` with these settings.

        Args:
            mode: ``placeholder``, ``mask`` or ``surrogate``.
            labels: label granularity.
            key: surrogate secret.
            policy: what counts as PHI (None: the language's default).
            model: the model to load instead of :attr:`model` (``True``: :attr:`model`).
            detectors: detectors already built, shared instead of building new ones.

        Raises:
            ConfigError: an invalid option (mode, labels, key, policy, threshold).
        """
        return Deidentifier(
            mode=mode,  # type: ignore[arg-type]
            labels=labels,  # type: ignore[arg-type]
            key=key,
            model=self.model if model is True else model or None,
            detectors=detectors,
            lexicon=self.lexicon,
            propagate=self.propagate,
            resolve=self.resolve,
            age_over_89=self.age_over_89,  # type: ignore[arg-type]
            lang=self.lang,
            policy=policy,
            threshold=self.threshold,
            guard=self.guard,
            site_lists=self.site_lists,
            registry=self.registry,
            allow_list=self.allow_list,
            locale=self.locale,
            fictional_contacts=self.fictional_contacts,
        )


def _path(value: Any) -> str | None:
    """An option's path as a string (None stays None)."""
    return None if value is None else str(value)
