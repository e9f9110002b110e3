"""``lang="auto"`` / ``"default"``: the rule pack of each document's language.

:class:`AutoLanguageRules` is one detector standing for the rule detectors of every language: per
document it reads the language decided once for the note (:func:`phiscrub.language.decide_language`;
:class:`~phiscrub.Deidentifier` has already written it into ``doc.metadata["lang"]``, so nothing is
guessed here) and runs that language's rule detectors. A language without a pack gets the
language-neutral rules (:func:`phiscrub.detect.rules.default_detectors`). Spans keep the sources of
the inner detectors (``rule:date``, ``rule:id`` ...).
"""

from __future__ import annotations

from collections.abc import Callable

from phiscrub.detect.base import Detector
from phiscrub.document import Document, Span
from phiscrub.language import decide_language

__all__ = ["AutoLanguageRules"]


class AutoLanguageRules:
    """Rule detectors chosen per document by language.

    Args:
        factory: ``lang -> detectors`` (normally :func:`phiscrub.detect.rules.default_detectors`).
        setting: ``auto`` (metadata, else the guess) or ``default`` (metadata, else English unless the
            note is clearly another language), for documents that reach it untagged.
    """

    name = "rules-auto"

    def __init__(self, factory: Callable[[str], list[Detector]], setting: str = "auto") -> None:
        self.factory = factory
        self.setting = setting
        self._by_lang: dict[str, list[Detector]] = {}

    def __repr__(self) -> str:
        return f"AutoLanguageRules(setting={self.setting!r})"

    def language_of(self, doc: Document) -> str:
        """The document's language: its tag, else decided now under :attr:`setting`."""
        return decide_language(doc, self.setting)

    def detectors_for(self, lang: str) -> list[Detector]:
        """The rule detectors of ``lang`` (built once per language)."""
        if lang not in self._by_lang:
            self._by_lang[lang] = self.factory(lang)
        return self._by_lang[lang]

    def detect(self, doc: Document) -> list[Span]:
        """Spans of the rule detectors of ``doc``'s language."""
        spans: list[Span] = []
        for det in self.detectors_for(self.language_of(doc)):
            spans.extend(det.detect(doc))
        return spans
