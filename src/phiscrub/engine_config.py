"""The engine options of a de-identifier, once: :class:`DeidConfig`.

Every option of :class:`~phiscrub.deid.Deidentifier` is a field here, under one name, with its
default, its type, its check and its command-line flag. Everything else derives from this class:

* ``Deidentifier(**options)`` and :meth:`Deidentifier.from_config <phiscrub.deid.Deidentifier.from_config>`
  build one, :attr:`Deidentifier.config <phiscrub.deid.Deidentifier.config>` gives it back;
* :func:`phiscrub.config.load_config` reads it from a TOML or JSON file (``load_config(path, DeidConfig)``);
* the engine flags of ``phiscrub redact`` and ``phiscrub serve`` are declared from the
  :class:`Flag` in each field's metadata (:func:`phiscrub.cli._engine.engine_options`);
* :class:`~phiscrub.runs.redact.RedactJob`, :class:`~phiscrub.service.config.ServiceConfig` and
  :class:`~phiscrub.spark.SparkSettings` each hold one, beside their own run fields; a run's
  manifest fingerprint is derived from its fields.

Older spellings (``--rules-only``, ``--keep-ages``, ``keep_ages=`` of :func:`phiscrub.spark.redact`)
are mapped to fields in one place, :func:`from_options`.

The surrogate secret is not an option: it never sits in a config, a file of options, a fingerprint
or a log; it is passed beside the config (:mod:`phiscrub.keys`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypedDict

from phiscrub.config import check_fields
from phiscrub.errors import ConfigError
from phiscrub.labels import GRANULARITIES, is_native
from phiscrub.modes import MODES
from phiscrub.modes import Mode as RedactMode
from phiscrub.policy import POLICIES, check_policy

__all__ = [
    "DEFAULT_THRESHOLD",
    "LEGACY_FLAGS",
    "PER_CALL",
    "RESOURCE_FIELDS",
    "Choices",
    "DeidConfig",
    "Flag",
    "from_options",
]

#: Default of :attr:`DeidConfig.threshold`: recall first, only the least likely proposals are
#: dropped (see ``docs/model.md``, "The threshold knob").
DEFAULT_THRESHOLD = 0.1

#: The options a call may override (:meth:`phiscrub.deid.Deidentifier.redact`).
PER_CALL = ("mode", "labels", "policy", "threshold")


class Choices(TypedDict, total=False):
    """The keyword choices of one call of :meth:`phiscrub.deid.Deidentifier.redact` (and
    ``redact_many``, ``redact_text``, ``finish``): the :data:`PER_CALL` options, and the call's
    surrogate secret. None (or left out): the configured value."""

    mode: str | None
    labels: str | None
    policy: str | None
    threshold: float | None
    key: str | bytes | None


#: The options that may also be given as a loaded object to ``Deidentifier`` (a
#: :class:`~phiscrub.detect.site.SiteLists`, a :class:`~phiscrub.detect.site_registry.Registry`,
#: a collection of terms); in a config they are paths.
RESOURCE_FIELDS = ("site_lists", "registry", "allow_list")


@dataclass(frozen=True)
class Flag:
    """The command-line flag of an option (``phiscrub redact``, ``phiscrub serve``).

    Attributes:
        decls: the flag(s): ``--x`` (a value), ``--x/--no-x`` (a switch) or a lone ``--x`` of a
            bool field (set when given).
        help: help text.
        choices: the values allowed (a choice list in ``--help``).
        path: the value is an existing path (``file`` or ``any``); None: not a path.
        bounds: the range of a number.
    """

    decls: str
    help: str
    choices: tuple[str, ...] | None = None
    path: Literal["file", "any"] | None = None
    bounds: tuple[float, float] | None = None


def _meta(flag: Flag, check: Any = None) -> dict[str, Any]:
    """A field's metadata: its flag and, optionally, its own check (see :mod:`phiscrub.config`)."""
    return {"flag": flag} if check is None else {"flag": flag, "check": check}


def _path_or_none(value: Any, where: str) -> str | None:
    """A path option as a string (``Path`` accepted; None stays None)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Path):
        return str(value)
    raise ConfigError(f"config key {where!r} expects a path, got {type(value).__name__}")


def _path_field(decls: str, help: str, path: Literal["file", "any"]) -> Any:
    """The field of an optional path option (default None)."""
    return field(default=None, metadata=_meta(Flag(decls, help, path=path), _path_or_none))


def _model(value: Any, where: str) -> str | None:
    """The model option: a path, ``"default"``, ``"bundled"``, or None (also written ``"none"``:
    TOML has no null, and ``predict --model none`` spells it so)."""
    return None if value == "none" else _path_or_none(value, where)


def _labels(value: Any, where: str) -> str:
    if not isinstance(value, str) or (value not in GRANULARITIES and not is_native(value)):
        raise ConfigError(
            f"unknown label granularity {value!r} ({where}); use coarse, fine, phicon5 or native:<corpus>"
        )
    return value


def _mode(value: Any, where: str) -> str:
    if value not in MODES:  # a mode name is no secret: shown
        raise ConfigError(f"unknown mode {value!r} ({where}); use placeholder, mask or surrogate")
    return str(value)


def _policy(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"config key {where!r} expects str, got {type(value).__name__}")
    check_policy(value)
    return value


def _threshold(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ConfigError(f"{where} must lie in [0, 1], got {value!r}")
    return float(value)


@dataclass(frozen=True)
class DeidConfig:
    """Every engine option of a :class:`~phiscrub.deid.Deidentifier`, once (frozen, typed, hashable).

    Args:
        mode: ``placeholder`` (``[NAME]``), ``mask`` (``***``) or ``surrogate`` (realistic, keyed).
        labels: label granularity of placeholders and output spans: ``coarse``, ``fine`` or
            ``phicon5``, or a corpus-native scheme ``native:<corpus>``
            (:func:`phiscrub.labels.native_granularity`).
        model: a tagger model folder, ``"default"`` for the model bundled with the package, or None
            for no model (``"none"`` in a TOML file or on the command line). ``"default"`` without a bundled model logs a warning and runs without one.
            ``"default"`` runs the bundled model (English) only on English notes: for another
            ``lang`` the rules run alone, and with ``lang="auto"`` it is skipped per non-English
            document (:mod:`phiscrub.detect.language_gate`). ``"bundled"`` (the same model) and a
            model folder always run, whatever the language.
        lexicon: add the lexicon detector (bundled name and city lists) to the default detectors.
        propagate: tag every other occurrence of a detected name token in the same note
            (:mod:`phiscrub.detect.propagate`).
        resolve: overlap strategy name (see :mod:`phiscrub.resolve`).
        age_over_89: ``bucket`` turns ages over 89 into ``90+`` (HIPAA Safe Harbor); ``keep`` does not.
        lang: language of every note (``en``, ``es``, ``ca``, ``de``, ``fr``, ``nl``, ``zh`` ...;
            other codes get the language-neutral rules only), ``auto`` (per note:
            ``doc.metadata["lang"]``, else a guess) or ``default`` (per note: the metadata, else
            English unless the note is clearly another language). Decided once per note
            (:mod:`phiscrub.language`).
        policy: what counts as PHI: ``safe-harbor``, ``i2b2`` or ``strict`` (:mod:`phiscrub.policy`,
            ``docs/policy.md``). None: ``safe-harbor`` for English, ``i2b2`` for other languages.
        threshold: proposals whose (calibrated) score is below it are dropped before resolving;
            higher means fewer, surer spans. Default :data:`DEFAULT_THRESHOLD` (recall first).
        guard: drop spans that are clinical measurements or clinical vocabulary
            (:mod:`phiscrub.detect.clinical`).
        site_lists: the hospital's own lists: a folder of ``.txt`` lists or a ``.json`` file
            (``docs/site-lists.md``).
        registry: the patient registry CSV.
        allow_list: a file of terms never redacted (one per line).
        locale: surrogate locale (``en_US``, ``es_ES``, ``de_DE`` ...); None: from each note's
            language (``docs/surrogates.md``).
        fictional_contacts: surrogate phone numbers in the reserved fictional range (555-01xx).
        plugins: add the detectors other installed packages register under the
            ``phiscrub.detectors`` entry point (``docs/extending.md``).

    Raises:
        ConfigError: a value of the wrong type or out of range (named by its key, never its value
            for paths).
    """

    mode: RedactMode = field(
        default="placeholder",
        metadata=_meta(
            Flag("--mode", "placeholder ([NAME]), mask (***) or surrogate (keyed stand-ins).", choices=MODES),
            _mode,
        ),
    )
    labels: str = field(
        default="coarse",
        metadata=_meta(
            Flag(
                "--labels",
                "Label granularity of placeholders and output spans.",
                choices=tuple(sorted(GRANULARITIES)),
            ),
            _labels,
        ),
    )
    model: str | None = field(
        default="default",
        metadata=_meta(
            Flag(
                "--model",
                "Tagger model folder, 'default' (the bundled English model; rules alone for another --lang) "
                "or 'bundled' (that model on every language); 'none': rules only (as --rules-only, "
                "which also drops the lexicon).",
            ),
            _model,
        ),
    )
    lexicon: bool = field(
        default=False,
        metadata=_meta(
            Flag("--lexicon/--no-lexicon", "Add the lexicon detector (bundled name and city lists).")
        ),
    )
    propagate: bool = field(
        default=True,
        metadata=_meta(
            Flag("--propagate/--no-propagate", "Tag other occurrences of detected names in the same note.")
        ),
    )
    resolve: str = field(default="merge", metadata=_meta(Flag("--resolve", "Overlap strategy.")))
    age_over_89: Literal["bucket", "keep"] = field(
        default="bucket",
        metadata=_meta(
            Flag(
                "--age-over-89",
                "Ages over 89: bucket them as 90+ (HIPAA Safe Harbor) or keep them (also: --keep-ages).",
                ("bucket", "keep"),
            )
        ),
    )
    lang: str = field(
        default="default", metadata=_meta(Flag("--lang", "Language of the notes (docs/redact.md)."))
    )
    policy: str | None = field(
        default=None,
        metadata=_meta(
            Flag(
                "--policy",
                "What counts as PHI (docs/policy.md). Default: safe-harbor for English, i2b2 for other languages.",
                choices=tuple(POLICIES),
            ),
            _policy,
        ),
    )
    threshold: float = field(
        default=DEFAULT_THRESHOLD,
        metadata=_meta(
            Flag(
                "--threshold",
                "Drop proposed spans scoring below this (0-1): higher is fewer, surer spans (docs/model.md).",
                bounds=(0.0, 1.0),
            ),
            _threshold,
        ),
    )
    guard: bool = field(
        default=True,
        metadata=_meta(
            Flag(
                "--guard/--no-guard",
                "Drop spans that are clinical measurements or vocabulary (vitals, times, care units, drugs); English.",
            )
        ),
    )
    site_lists: str | None = _path_field(
        "--site-lists",
        "The site's own lists: a folder of facilities.txt, units.txt, staff.txt, places.txt (or "
        "LABEL.txt) or one .json {list: [entries]}; every match is PHI (docs/site-lists.md).",
        path="any",
    )
    registry: str | None = _path_field(
        "--registry",
        "Patient registry CSV (patient_id,first,last,mrn,dob,...): each note's patient (--patient-field) "
        "is found by name, MRN and date of birth. It is PHI: keep it protected.",
        path="file",
    )
    allow_list: str | None = _path_field(
        "--allow-list",
        "File of terms (one per line) never redacted: a span whose text is one of them is dropped.",
        path="file",
    )
    locale: str | None = field(
        default=None,
        metadata=_meta(
            Flag(
                "--locale",
                "Surrogate locale (en_US, es_ES, ca_ES, de_DE, fr_FR, nl_NL, zh_CN): where surrogate names, "
                "towns, streets and phones come from. Default: each note's language (English: en_US).",
            )
        ),
    )
    fictional_contacts: bool = field(
        default=False,
        metadata=_meta(
            Flag(
                "--fictional-contacts",
                "Surrogate phone and fax numbers in the reserved fictional range 555-0100..0199 "
                "(default: valid numbers with an area code of the note's state).",
            )
        ),
    )
    plugins: bool = field(
        default=True,
        metadata=_meta(
            Flag(
                "--plugins/--no-plugins",
                "Add the detectors installed packages register (phiscrub.detectors entry point).",
            )
        ),
    )

    def __post_init__(self) -> None:
        check_fields(self)

    def with_choices(self, **choices: Any) -> DeidConfig:
        """This config with the per-call choices that are not None (:data:`PER_CALL`) applied.

        Raises:
            ConfigError: an invalid choice.
        """
        given = {k: v for k, v in choices.items() if v is not None}
        unknown = sorted(set(given) - set(PER_CALL))
        if unknown:
            raise ConfigError(f"not a per-call choice: {', '.join(unknown)}")
        return replace(self, **given) if given else self

    @classmethod
    def flags(cls) -> dict[str, Flag]:
        """Field name -> its command-line flag, in field order."""
        return {f.name: f.metadata["flag"] for f in fields(cls) if "flag" in f.metadata}


#: The older command-line flags (and ``phiscrub.spark.redact`` keywords) that still work, as
#: parameter name -> (flag, help). :func:`from_options` maps them to fields.
LEGACY_FLAGS: dict[str, tuple[str, str]] = {
    "rules_only": ("--rules-only", "Use the rule detectors only (no model, no lexicon)."),
    "keep_ages": ("--keep-ages", "Keep ages over 89 (default: bucket them as 90+)."),
}


def from_options(options: Mapping[str, Any], base: DeidConfig | None = None) -> DeidConfig:
    """A config from option values by field name, plus the older spellings, mapped here only.

    ``rules_only`` (true: no model, no lexicon) and ``keep_ages`` (true: ``age_over_89="keep"``)
    win over the fields they set; the options not given keep the values of ``base`` (default:
    the defaults).

    Raises:
        ConfigError: an unknown option or an invalid value.
    """
    given = dict(options)
    rules_only = bool(given.pop("rules_only", False))
    keep_ages = bool(given.pop("keep_ages", False))
    names = {f.name for f in fields(DeidConfig)}
    unknown = sorted(set(given) - names)
    if unknown:
        raise ConfigError(f"unknown engine option(s): {', '.join(unknown)}")
    if rules_only:
        given.update(model=None, lexicon=False)
    if keep_ages:
        given["age_over_89"] = "keep"
    return replace(base or DeidConfig(), **given)
