"""``lang="auto"``: pick the rule pack of each document's language.

:class:`AutoLanguageRules` is one detector standing for the rule detectors of every language: per
document it reads the language from ``doc.metadata["lang"]`` when that names a rule language, else
guesses it with :func:`phiscrub.crosslingual.langid.detect_language` (stop words; Chinese by
script), and runs that language's rule detectors. Spans keep the sources of the inner detectors
(``rule:date``, ``rule:id`` ...).
"""

from __future__ import annotations

from collections.abc import Callable

from phiscrub.crosslingual.langid import LANGID_LANGUAGES, detect_language
from phiscrub.detect.base import Detector
from phiscrub.detect.rules.langpacks import normalize_lang
from phiscrub.document import Document, Span

__all__ = ["AutoLanguageRules"]


class AutoLanguageRules:
    """Rule detectors chosen per document by language.

    Args:
        factory: ``lang -> detectors`` (normally :func:`phiscrub.detect.rules.default_detectors`).
        languages: languages that may be chosen; others found in metadata are re-detected.
        default: language used when the text gives no evidence.
    """

    name = "rules-auto"

    def __init__(
        self,
        factory: Callable[[str], list[Detector]],
        languages: tuple[str, ...] = LANGID_LANGUAGES,
        default: str = "en",
    ) -> None:
        self.factory = factory
        self.languages = languages
        self.default = default
        self._by_lang: dict[str, list[Detector]] = {}

    def __repr__(self) -> str:
        return f"AutoLanguageRules(languages={self.languages!r})"

    def language_of(self, doc: Document) -> str:
        """The document's rule language: its ``lang`` metadata if usable, else a detected one."""
        given = doc.metadata.get("lang")
        if isinstance(given, str) and normalize_lang(given) in self.languages:
            return normalize_lang(given)
        return detect_language(doc.text, self.languages, default=self.default)

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
