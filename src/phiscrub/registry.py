"""Open registries of named components: detectors and operators, built in or from other packages.

A :class:`Registry` maps names to factories. Built-in entries are registered by the modules that
define them (lazily, so that listing names imports nothing heavy); another installed package adds
its own through a Python entry point, the way pytest and spaCy find their plugins::

    # the plugin's pyproject.toml
    [project.entry-points."phiscrub.detectors"]
    ward_codes = "my_hospital.phi:WardCodeDetector"

    [project.entry-points."phiscrub.operators"]
    initials = "my_hospital.phi:InitialsOperator"

An entry point names a factory: a class or function called with no arguments that returns a
:class:`~phiscrub.detect.base.Detector` (``name`` and ``detect(doc) -> list[Span]``) or an
:class:`~phiscrub.transform.operators.Operator` (``apply(surface, span, ctx) -> str``).

Detectors of the ``phiscrub.detectors`` group are added to the default pipeline of every
:class:`~phiscrub.Deidentifier` (``plugins=False`` leaves them
out); ``Deidentifier(extra_detectors=[...])`` adds detectors or registered names;
``Deidentifier(operators={"DATE": "keep"})`` replaces the operator of a label by an operator or a
registered name (``docs/extending.md``).

Written here rather than taken from a library: the standard library's
:func:`importlib.metadata.entry_points` does the discovery; what is left is a dictionary with a
decorator and clear errors.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from phiscrub.errors import ConfigError

__all__ = ["DETECTORS", "OPERATORS", "Registry"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class Registry(Generic[T]):
    """Names -> factories of one kind of component, open to other packages through entry points.

    Args:
        kind: what the entries are, for messages ("detector").
        group: the entry-point group other packages register in (``phiscrub.detectors``).
        builtins: called once, on first use, to register the built-in entries (keeps imports lazy).
    """

    def __init__(self, kind: str, group: str, builtins: Callable[[Registry[T]], None] | None = None) -> None:
        self.kind = kind
        self.group = group
        self._entries: dict[str, Callable[[], T]] = {}
        self._plugins: dict[str, Callable[[], T]] | None = None
        self._builtins = builtins

    def register(self, name: str) -> Callable[[Callable[[], T]], Callable[[], T]]:
        """Decorator: register a factory (a class or a function without arguments) under ``name``.

        Raises:
            ConfigError: ``name`` is taken.
        """

        def add(factory: Callable[[], T]) -> Callable[[], T]:
            self._check_free(name)
            self._entries[name] = factory
            return factory

        return add

    def add(self, name: str, factory: Callable[[], T]) -> None:
        """Register ``factory`` under ``name`` (the call form of :meth:`register`)."""
        self.register(name)(factory)

    def get(self, name: str) -> T:
        """A new component made by the factory registered as ``name``.

        Raises:
            ConfigError: no such name (the message lists the known ones).
        """
        self._load_builtins()
        factory = self._entries.get(name) or self.plugins().get(name)
        if factory is None:
            known = ", ".join(self.names()) or "none"
            raise ConfigError(f"unknown {self.kind} {name!r}; registered: {known}")
        return factory()

    def names(self) -> list[str]:
        """Every registered name, built-in and from installed packages, sorted."""
        self._load_builtins()
        return sorted({*self._entries, *self.plugins()})

    def plugins(self) -> dict[str, Callable[[], T]]:
        """The factories other installed packages registered (entry points), loaded once.

        A plugin that fails to import is skipped with a warning naming it (never the input).
        """
        if self._plugins is None:
            found: dict[str, Callable[[], T]] = {}
            for ep in entry_points(group=self.group):
                try:
                    found[ep.name] = ep.load()
                except Exception as exc:  # noqa: BLE001 - a broken plugin must not stop the run
                    log.warning(
                        "%s plugin %s (%s) cannot be loaded: %s",
                        self.kind,
                        ep.name,
                        ep.value,
                        type(exc).__name__,
                    )
            self._plugins = found
        return self._plugins

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def _check_free(self, name: str) -> None:
        if name in self._entries:
            raise ConfigError(f"{self.kind} {name!r} is registered already")

    def _load_builtins(self) -> None:
        if self._builtins is not None:
            builtins, self._builtins = self._builtins, None
            builtins(self)


def _builtin_detectors(registry: Registry[object]) -> None:
    from phiscrub.detect.rules import RULE_DETECTORS

    for name, factory in RULE_DETECTORS.items():
        registry.add(name, factory)  # type: ignore[arg-type]  # lang defaults to "en"

    def lexicon() -> object:
        from phiscrub.detect.lexicon import LexiconDetector

        return LexiconDetector()

    registry.add("lexicon", lexicon)


def _builtin_operators(registry: Registry[object]) -> None:
    from phiscrub.transform.operators import (
        KeepOperator,
        MaskOperator,
        PlaceholderOperator,
        SurrogateOperator,
    )

    registry.add("placeholder", PlaceholderOperator)
    registry.add("mask", MaskOperator)
    registry.add("surrogate", SurrogateOperator)
    registry.add("keep", KeepOperator)


#: Detector factories: the rule detectors (``date``, ``contact``, ``id``, ``location``, ``age``,
#: ``name``), ``lexicon``, and the ``phiscrub.detectors`` entry points of installed packages.
DETECTORS: Registry[object] = Registry("detector", "phiscrub.detectors", _builtin_detectors)
#: Operator factories: ``placeholder``, ``mask``, ``surrogate``, ``keep`` and the
#: ``phiscrub.operators`` entry points.
OPERATORS: Registry[object] = Registry("operator", "phiscrub.operators", _builtin_operators)
