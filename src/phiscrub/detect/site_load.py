"""Site knowledge in a :class:`~phiscrub.deid.Deidentifier`: loading it (once per file version) and
applying it to a note's final spans.

:func:`apply_site` runs after the threshold, the policy and the clinical guard: site-list and
registry matches are positive evidence from the hospital's own systems, so the guard never drops
them, but the policy still does what it does to any span (a ``STATE.txt`` list is not PHI under
Safe Harbor). They are merged into the spans without removing or shrinking any
(:func:`~phiscrub.detect.site.merge_site_spans`); the allow list comes last.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from phiscrub.detect.site import SiteLists, drop_allowed, load_allow_list, load_site_lists, merge_site_spans
from phiscrub.detect.site_registry import Registry
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

T = TypeVar("T")

if TYPE_CHECKING:
    from phiscrub.policy import Policy

__all__ = ["SiteKnowledge", "apply_site", "load_site_knowledge"]

#: Loaded site lists, registry and allow list.
SiteKnowledge = tuple[SiteLists | None, Registry | None, frozenset[str]]


def _stamp(path: Path) -> tuple[str, int, int]:
    """A file or folder's identity for the cache: resolved path, size and modification time."""
    try:
        st = path.stat()
    except OSError:
        return str(path), -1, -1
    if path.is_dir():
        files = [p.stat() for p in path.glob("*.txt")]
        return (
            str(path.resolve()),
            sum(f.st_size for f in files),
            max((f.st_mtime_ns for f in files), default=0),
        )
    return str(path.resolve()), st.st_size, st.st_mtime_ns


@lru_cache(maxsize=8)
def _cached_lists(stamp: tuple[str, int, int]) -> SiteLists:
    return load_site_lists(stamp[0])


@lru_cache(maxsize=4)
def _cached_registry(stamp: tuple[str, int, int]) -> Registry:
    return Registry.from_csv(stamp[0])


def load_site_knowledge(
    site_lists: str | Path | SiteLists | None,
    registry: str | Path | Registry | None,
    allow_list: str | Path | Collection[str] | None,
) -> SiteKnowledge:
    """Load what is given (paths once per file version and process, shared by de-identifiers).

    Raises:
        ConfigError: a missing, unreadable or malformed file (the message names it, never content).
    """
    lists = _given(site_lists, SiteLists, _cached_lists, "site lists {} does not exist", Path.exists)
    reg = _given(
        registry, Registry, _cached_registry, "registry {} does not exist or is not a file", Path.is_file
    )
    allowed = frozenset() if allow_list is None else load_allow_list(allow_list)
    return lists, reg, allowed


def _given(
    value: object,
    kind: type[T],
    load: Callable[[tuple[str, int, int]], T],
    missing: str,
    ok: Callable[[Path], bool],
) -> T | None:
    """``value`` itself when already loaded, else the cached load of its path (checked with ``ok``)."""
    if value is None or isinstance(value, kind):
        return value
    path = Path(value)  # type: ignore[arg-type]
    if not ok(path):
        raise ConfigError(missing.format(path))
    return load(_stamp(path))


def apply_site(doc: Document, spans: Sequence[Span], site: SiteKnowledge, policy: Policy) -> list[Span]:
    """``spans`` with the site lists' and registry's matches merged in, then the allow list applied."""
    from phiscrub.policy import apply_policy

    lists, reg, allowed = site
    found: list[Span] = []
    if lists is not None:
        found.extend(lists.spans(doc))
    if reg is not None:
        found.extend(reg.spans(doc))
    out = merge_site_spans(spans, apply_policy(doc.text, found, policy)) if found else list(spans)
    return drop_allowed(doc.text, out, allowed)
