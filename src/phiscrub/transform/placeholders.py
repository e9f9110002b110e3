"""Read placeholder notes (``[PATIENT]``, ``[DATE]``, ...) as gold documents, filled with surrogates.

The zero-shot notes (Kim et al. 2024) write every PHI value as a bracketed label. The reader fills
each placeholder with a seeded surrogate of its type (:func:`phiscrub.transform.fill.fill_note`) and
records the span as gold, one or several draws per note.

The ``placeholder`` input format of :func:`phiscrub.io.get_reader`: this reader sits on top of the
fill engine, so it lives in ``transform/`` (in ``io/`` before issue 26, which made ``io`` import
``transform``); the package root (:mod:`phiscrub`) adds its factory to :data:`phiscrub.io.READERS`,
importing this module on first use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike, Reader
from phiscrub.io.text import iter_text_files
from phiscrub.transform.fill import FILL_LANGS, VOCABS, fill_note

__all__ = ["PlaceholderReader"]


class PlaceholderReader(Reader):
    """Read placeholder notes (``.txt``) and yield filled gold documents.

    Args:
        seed: base seed; each note and draw gets its own stream derived from it and the doc id.
        draws: surrogate draws per note; with more than one, ids become ``"<id>#<k>"`` (k from 0).
        lang: fill language, ``en``, ``es``, ``ca``, ``zh`` or ``auto`` (per note).
        encoding: file encoding.
        vocab: ``all``, ``train`` or ``test`` part of the open name lists (see :func:`fill_text`).

    Attributes:
        problems: :class:`phiscrub.io.base.Problem` objects: unknown placeholders (``unknown_label``,
            with output offsets of the first draw) and undecodable files (``decode_error``).

    Raises:
        ConfigError: ``draws`` < 1, unknown language or vocabulary.
    """

    format_name = "placeholder"

    def __init__(
        self, seed: int = 0, draws: int = 1, lang: str = "auto", encoding: str = "utf-8", vocab: str = "all"
    ) -> None:
        super().__init__()
        if draws < 1:
            raise ConfigError("draws must be at least 1")
        if lang not in FILL_LANGS:
            raise ConfigError(f"unknown fill language {lang!r}; use one of {', '.join(FILL_LANGS)}")
        if vocab not in VOCABS:
            raise ConfigError(f"unknown fill vocabulary {vocab!r}; use one of {', '.join(VOCABS)}")
        self.seed = seed
        self.draws = draws
        self.lang = lang
        self.encoding = encoding
        self.vocab = vocab

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield filled documents for a ``.txt`` file, or every ``.txt`` under a folder (sorted).

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        root = Path(path)
        if root.is_dir():
            for f in iter_text_files(root):
                yield from self._read_file(f, f.relative_to(root).with_suffix("").as_posix())
        elif root.is_file():
            yield from self._read_file(root, root.stem)
        else:
            raise InputFormatError(f"no such file or folder: {root}")

    def _read_file(self, path: Path, doc_id: str) -> Iterator[Document]:
        try:
            text = path.read_bytes().decode(self.encoding)
        except UnicodeDecodeError as err:
            self.report(doc_id, "decode_error", f"{path} is not {self.encoding} at byte {err.start}")
            return
        for k in range(self.draws):
            rng = random.Random(f"{self.seed}:{doc_id}:{k}")
            filled, spans, unknown, lang = fill_note(text, rng, self.lang, self.vocab)
            if k == 0:
                for start, end in unknown:
                    self.report(
                        doc_id, "unknown_label", "unknown placeholder left as text", start=start, end=end
                    )
            doc_key = doc_id if self.draws == 1 else f"{doc_id}#{k}"
            metadata = {"source": str(path), "lang": lang, "seed": self.seed, "draw": k}
            yield Document(doc_key, filled, tuple(spans), metadata)
