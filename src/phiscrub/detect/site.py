"""Site knowledge: the lists every hospital deployment has (its facilities, wards, staff, towns).

A :class:`SiteLists` is loaded from a folder of plain-text files, one entry per line (``#``
comments and blank lines ignored), or from one JSON file ``{list name: [entries]}``:

================  ===========================================================
``facilities``    HOSPITAL (hospitals, clinics, buildings, their abbreviations)
``units``         DEPARTMENT (wards, units: "Tallis 3", "Corrigan ICU")
``staff``         DOCTOR (staff names, "First Last" or "Last, First")
``places``        CITY (local towns, neighbourhoods)
``<LABEL>``       that fine label (:data:`phiscrub.labels.FINE_LABELS`), e.g. ``ORGANIZATION.txt``
================  ===========================================================

Every occurrence of an entry, in the forms of :mod:`phiscrub.detect.site_variants`, is a span
with source ``site`` and score 1.0 (:meth:`SiteLists.spans`); matching runs one Aho-Corasick
automaton over all entries (:mod:`phiscrub.detect.site_match`), so large lists cost little.
The patient registry is :mod:`phiscrub.detect.site_registry`; the allow list (terms never
redacted) is :func:`load_allow_list`.

The files are PHI themselves (staff names; the registry above all): they are never logged, and
errors name files, line numbers and counts only (``docs/site-lists.md``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.detect.site_match import PhraseMatcher, Variant, best_hits
from phiscrub.detect.site_variants import PERSON_LABELS, entry_variants, name_variants, person_parts
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import FINE_LABELS

__all__ = [
    "LIST_LABELS",
    "SITE_SOURCE",
    "SiteLists",
    "allow_key",
    "content_digest",
    "drop_allowed",
    "load_allow_list",
    "load_site_lists",
    "merge_site_spans",
    "read_entries",
]

#: Source of the spans of the site lists.
SITE_SOURCE = "site"

#: The named lists and their labels; any other list is named by its fine label.
LIST_LABELS: dict[str, str] = {
    "facilities": "HOSPITAL",
    "units": "DEPARTMENT",
    "staff": "DOCTOR",
    "places": "CITY",
}


def list_label(name: str, where: str) -> str:
    """The label of the list ``name`` (a file stem or a JSON key).

    Raises:
        ConfigError: neither a named list nor a fine label (the message names ``where``).
    """
    label = LIST_LABELS.get(name.lower())
    if label is not None:
        return label
    if name.upper() in FINE_LABELS:
        return name.upper()
    raise ConfigError(
        f"site list {where}: unknown list {name!r}; use {', '.join(LIST_LABELS)} or a fine label "
        f"({', '.join(FINE_LABELS)})"
    )


def read_entries(lines: Iterable[str]) -> list[str]:
    """The entries of a list file's lines: stripped, without blank lines and ``#`` comments."""
    out = []
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            out.append(entry)
    return out


def _read_text(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{what} {path} cannot be read: {type(exc).__name__}") from None


#: Keys of a JSON entry object that hold other names of the same thing.
ALIAS_KEYS = ("abbreviations", "aliases")


def _entry_forms(entry: object, where: str) -> list[str]:
    """The names of one JSON entry: a string, or ``{"name": ..., "abbreviations": [...]}``
    (``aliases`` too), each name an entry of the list."""
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        unknown = set(entry) - {"name", *ALIAS_KEYS}
        others = [entry.get(key, []) for key in ALIAS_KEYS]
        if not unknown and all(isinstance(o, list) and all(isinstance(x, str) for x in o) for o in others):
            return [entry["name"], *(x for o in others for x in o)]
    raise ConfigError(
        f"site lists {where} is neither a string nor an object "
        f'{{"name": "...", "abbreviations": ["..."], "aliases": ["..."]}}'
    )


@dataclass
class SiteLists:
    """Named lists of entries, each with its label; matched in notes by :meth:`spans`.

    Args:
        lists: list name -> entries, in file order.
        labels: list name -> fine label (default: from the name, :data:`LIST_LABELS`).
    """

    lists: Mapping[str, Sequence[str]]
    labels: Mapping[str, str] = field(default_factory=dict)
    _matcher: PhraseMatcher | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.lists = {name: tuple(entries) for name, entries in self.lists.items()}
        self.labels = {name: self.labels.get(name) or list_label(name, name) for name in self.lists}

    def __len__(self) -> int:
        return sum(len(v) for v in self.lists.values())

    @classmethod
    def from_folder(cls, folder: str | Path) -> SiteLists:
        """Load every ``*.txt`` of ``folder`` (other files are ignored).

        Raises:
            ConfigError: a file whose stem is neither a named list nor a fine label, or unreadable.
        """
        root = Path(folder)
        lists: dict[str, list[str]] = {}
        for path in sorted(root.glob("*.txt")):
            list_label(path.stem, str(path))  # an unknown stem fails here, naming the file
            lists[path.stem] = read_entries(_read_text(path, "site list").splitlines())
        if not lists:
            raise ConfigError(f"site lists folder {root} holds no .txt list")
        return cls(lists)

    @classmethod
    def from_json(cls, path: str | Path) -> SiteLists:
        """Load a JSON object ``{list name: [entries]}``.

        Raises:
            ConfigError: not such an object, an unknown list name, or unreadable.
        """
        try:
            data = json.loads(_read_text(Path(path), "site lists"))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"site lists {path} is not valid JSON (line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"site lists {path} must hold a JSON object {{list name: [entries]}}")
        lists: dict[str, list[str]] = {}
        for name, entries in data.items():
            list_label(str(name), f"{path} key")
            if not isinstance(entries, list):
                raise ConfigError(f"site lists {path}: list {name!r} is not a list")
            lists[str(name)] = read_entries(
                [
                    form
                    for i, entry in enumerate(entries)
                    for form in _entry_forms(entry, f"{path}: list {name!r} entry {i}")
                ]
            )
        return cls(lists)

    # -- matching ----------------------------------------------------------------------------------
    @property
    def matcher(self) -> PhraseMatcher:
        """The automaton of every entry's variants; built on first use."""
        if self._matcher is None:
            matcher = PhraseMatcher()
            for name, entries in self.lists.items():
                label = self.labels[name]
                for entry in entries:
                    for key, variant in _variants(entry, label):
                        matcher.add(key, variant)
            self._matcher = matcher.build()
        return self._matcher

    def spans(self, doc: Document | str) -> list[Span]:
        """Every occurrence of a list entry in ``doc`` (overlapping spans possible; source ``site``)."""
        text = doc.text if isinstance(doc, Document) else doc
        return [Span(h.start, h.end, h.label, 1.0, SITE_SOURCE) for h in best_hits(self.matcher.find(text))]


def _variants(entry: str, label: str) -> list[tuple[str, Variant]]:
    if label in PERSON_LABELS:
        parts = person_parts(entry)
        if parts is None:
            return []
        first, last = parts
        return list(name_variants(first, last, label, full=entry))
    return list(entry_variants(entry, label))


def load_site_lists(source: str | Path | SiteLists) -> SiteLists:
    """A :class:`SiteLists` from a folder of ``.txt`` lists or a ``.json`` file (or as given).

    Raises:
        ConfigError: the path does not exist, is another kind of file, or a list is invalid.
    """
    if isinstance(source, SiteLists):
        return source
    path = Path(source)
    if path.is_dir():
        return SiteLists.from_folder(path)
    if path.is_file() and path.suffix.lower() == ".json":
        return SiteLists.from_json(path)
    if path.is_file():
        raise ConfigError(f"site lists {path}: give a folder of .txt lists or a .json file")
    raise ConfigError(f"site lists {path} does not exist")


def load_allow_list(source: str | Path | Iterable[str]) -> frozenset[str]:
    """The allow list: terms (one per line, ``#`` comments) that are never redacted, normalised.

    Raises:
        ConfigError: the file cannot be read.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise ConfigError(f"allow list {path} does not exist or is not a file")
        source = read_entries(_read_text(path, "allow list").splitlines())
    return frozenset(allow_key(t) for t in source if allow_key(t))


def allow_key(surface: str) -> str:
    """The form surfaces and allow-list terms are compared in: case-folded, spaces collapsed."""
    return " ".join(surface.replace("\u2019", "'").casefold().split())


def content_digest(path: str | Path | None) -> str | None:
    """SHA-256 of a file's bytes, or of a folder's files (names and bytes); None for None.

    What a run's manifest records of its site lists, registry and allow list: a change of content
    changes the digest, and the content itself is never written.
    """
    if path is None:
        return None
    p = Path(path)
    digest = hashlib.sha256()
    if p.is_dir():
        for f in sorted(q for q in p.rglob("*") if q.is_file()):
            digest.update(f.relative_to(p).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(f.read_bytes()).digest())
    elif p.is_file():
        digest.update(p.read_bytes())
    else:
        return "missing"
    return digest.hexdigest()


def merge_site_spans(spans: Sequence[Span], site: Sequence[Span]) -> list[Span]:
    """``spans`` (resolved, non-overlapping) with the site spans merged in: never fewer characters.

    Overlapping spans merge into their union (:func:`phiscrub.resolve.resolve`, ``merge``), so
    adding site knowledge never removes a span nor shrinks one. A merged span takes the label of
    its longest site span when that covers at least half of it: the site's own lists say better
    than a model whether "Daniel Rice" is staff or a patient.
    """
    if not site:
        return list(spans)
    from phiscrub.resolve import resolve

    merged = resolve([*spans, *site], "merge")
    ordered = sorted(site, key=lambda s: (s.start, -(s.end - s.start)))
    out: list[Span] = []
    j = 0
    for span in merged:
        while j < len(ordered) and ordered[j].end <= span.start:
            j += 1
        inside = []
        for s in ordered[j:]:
            if s.start >= span.end:
                break
            if s.start >= span.start and s.end <= span.end:
                inside.append(s)
        if inside:
            best = max(inside, key=lambda s: s.end - s.start)
            if 2 * (best.end - best.start) >= span.end - span.start and best.label != span.label:
                span = span.with_label(best.label)
        out.append(span)
    return out


def drop_allowed(text: str, spans: Iterable[Span], allowed: frozenset[str]) -> list[Span]:
    """``spans`` without those whose surface is an allow-listed term (case-insensitive)."""
    if not allowed:
        return list(spans)
    return [s for s in spans if allow_key(text[s.start : s.end]) not in allowed]
