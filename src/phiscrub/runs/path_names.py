"""Whether the input's file and folder names look like PHI (``redact`` warns: code ``path_phi``).

Without ``--rename-outputs`` the names of the input become output paths and document ids, so a
run first runs its own detectors over each distinct path component (``Zebulon_Quackenbush_MRN
99887766``, ``visit``) and, when some look like PHI, warns with the code and a count only: the
warning must not repeat what it warns about.

The rules alone read them (names after a cue, identifiers, dates; no model pass over every name of a
big folder: 0.13 s for 200 names against 1.3 s with the model). A component is read with ``_``,
``-`` and ``.`` as spaces, and twice: as it is (an MRN, a date) and after ``Patient`` (a bare name
the rules only take after a cue). In the second reading only a name with a word that is not an English word in use counts, so ``Discharge
Summary`` or ``History And Physical`` are not names.
"""

from __future__ import annotations

import re

from phiscrub.deid import Deidentifier
from phiscrub.detect.english_words import lowercase_blocked
from phiscrub.document import Document
from phiscrub.io.source import Source
from phiscrub.io.text import TextFolderSource

__all__ = ["MAX_COMPONENTS", "PATH_PHI_CODE", "path_components", "phi_path_components"]

#: The warning code (no path text is ever printed with it).
PATH_PHI_CODE = "path_phi"
#: Distinct components checked at most (a folder of 100k notes: the first ones in listing order).
MAX_COMPONENTS = 2000

_SEPARATORS = re.compile(r"[_.\-]+")
_CUE = "Patient "


def path_components(source: Source) -> list[str]:
    """The distinct names an output would repeat: every folder and file stem of a folder's ``.txt``
    entries, or the stem of a single input file (names that are not UTF-8 are never used)."""
    if isinstance(source, TextFolderSource):
        seen: dict[str, None] = {}
        for e in source.entries():
            if e.problem == "bad_filename":
                continue
            for part in (*e.rel.parts[:-1], e.rel.stem):
                seen.setdefault(part, None)
        return list(seen)
    return [source.path.stem]


def phi_path_components(deid: Deidentifier, components: list[str]) -> int:
    """How many of ``components`` (the first :data:`MAX_COMPONENTS`) the detectors find PHI in."""
    checked = components[:MAX_COMPONENTS]
    words = [_SEPARATORS.sub(" ", c).strip() for c in checked]
    # A name's language cannot be guessed: the run's language, English under auto/default (one
    # detection call for both readings; no language guess per component).
    lang = deid.config.lang
    meta = {"lang": "en" if lang in ("auto", "default") else lang}
    docs = [Document(f"path-{i}", w, (), meta) for i, w in enumerate(words)]
    docs += [Document(f"cued-{i}", _CUE + w + ".", (), meta) for i, w in enumerate(words)]
    # The rules alone (names after the cue, IDs, dates): a model pass over every name of a big
    # folder would cost seconds before the first note.
    rules = deid.derive(model=None, extra_detectors=(), site_lists=None, registry=None, allow_list=None)
    found_spans = rules.detect_many(docs)
    bare, cued = found_spans[: len(words)], found_spans[len(words) :]
    blocked = lowercase_blocked()
    found = 0
    for w, plain, after_cue in zip(words, bare, cued):
        text = _CUE + w + "."
        names = (text[s.start : s.end] for s in after_cue if s.start >= len(_CUE))
        if plain or any(any(t.casefold() not in blocked for t in re.findall(r"[^\W\d_]+", n)) for n in names):
            found += 1
    return found
