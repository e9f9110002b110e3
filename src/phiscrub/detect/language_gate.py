"""Keep a model to the languages it was trained on.

The model bundled with phiscrub was trained on English notes only. On Spanish (MEDDOCAN dev) and
German notes it adds many false positives to the language's rules (binary token precision 0.990 ->
0.709 and 0.978 -> 0.668, ``docs/crosslingual.md``), so a :class:`~phiscrub.Deidentifier` with the
bundled model runs it only on notes of its languages: for a fixed other ``lang`` the model is left
out, and under ``lang="auto"`` :class:`LanguageGate` skips it per document. A model folder passed
explicitly is always used.

The bundled model's languages are the ``languages`` list of its ``meta.json``; without one, English.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from phiscrub.detect.base import Detector, detect_batch
from phiscrub.document import Document, Span
from phiscrub.language import normalize_lang

__all__ = ["BUNDLED_DEFAULT_LANGUAGES", "LanguageGate", "model_languages"]

#: Languages of the bundled model when its ``meta.json`` names none.
BUNDLED_DEFAULT_LANGUAGES: frozenset[str] = frozenset({"en"})


def model_languages(model: str | Path, bundled: Path | None) -> frozenset[str] | None:
    """The languages a model is kept to: the bundled model's, or None (any) for an explicit folder.

    Args:
        model: the ``model`` argument of :class:`~phiscrub.Deidentifier` (``"default"`` or a folder).
        bundled: the bundled model folder (:func:`phiscrub.detect.tagger.bundled_model_path`).
    """
    if str(model) != "default" or bundled is None:
        return None
    meta = bundled / "meta.json"
    found = json.loads(meta.read_text(encoding="utf-8")).get("languages") if meta.is_file() else None
    if not isinstance(found, list) or not found:
        return BUNDLED_DEFAULT_LANGUAGES
    return frozenset(normalize_lang(str(x)) for x in found)


class LanguageGate:
    """A detector run only on documents whose language is one of ``languages``.

    Args:
        inner: the detector (normally a model); its ``name`` is kept.
        languages: ISO 639-1 codes the inner detector is run on.
        language_of: a document's language: the one decision the rules and the policy use
            (:meth:`phiscrub.Deidentifier.language_of`, read from the document's ``lang`` tag).
    """

    def __init__(
        self, inner: Detector, languages: frozenset[str], language_of: Callable[[Document], str]
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.languages = languages
        self.language_of = language_of

    def __repr__(self) -> str:
        return f"LanguageGate({self.inner!r}, languages={sorted(self.languages)!r})"

    def wanted(self, doc: Document) -> bool:
        """Whether ``doc`` is in one of the inner detector's languages."""
        return normalize_lang(self.language_of(doc)) in self.languages

    def detect(self, doc: Document) -> list[Span]:
        """The inner detector's spans for a document of its languages, else none."""
        return self.inner.detect(doc) if self.wanted(doc) else []

    def prefetch(self, docs: Sequence[Document]) -> None:
        """Let the inner detector start on the wanted documents of a batch it will see next."""
        start = getattr(self.inner, "prefetch", None)
        if start is not None:
            start([d for d in docs if self.wanted(d)])

    def detect_many(self, docs: Sequence[Document]) -> list[list[Span]]:
        """:meth:`detect` for a batch; the inner detector runs batched on the wanted documents."""
        keep = [i for i, d in enumerate(docs) if self.wanted(d)]
        out: list[list[Span]] = [[] for _ in docs]
        found = detect_batch(self.inner, [docs[i] for i in keep]) if keep else []
        for i, spans in zip(keep, found):
            out[i] = list(spans)
        return out
