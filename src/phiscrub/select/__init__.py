"""The selection stage: from every detector's proposals to the PHI spans of a note.

Detectors propose; this stage decides. It is one ordered list of named steps (:data:`STEPS`), each a
function ``(doc, spans, ctx) -> spans``, run by :func:`select_spans` (the way spaCy runs its named
pipes). In order:

=============  ==================================================================================
``threshold``  proposals scoring below the threshold go (recall first: the default is low)
``policy``     spans that are not PHI under the note's policy go (:mod:`phiscrub.policy`)
``propagate``  every other occurrence of a kept name or place in the note is added
               (:mod:`phiscrub.detect.propagate`)
``resolve``    overlapping spans become one set (:mod:`phiscrub.resolve`)
``guard``      English notes: clinical measurements and vocabulary go (:mod:`phiscrub.detect.clinical`)
``site``       the site lists' and registry's matches are merged in, then the allow list applies
               (:mod:`phiscrub.detect.site_load`)
=============  ==================================================================================

A step that its settings switch off returns the spans unchanged. The order matters and is tested:
the threshold only ever removes proposals, so a higher threshold never adds a redacted character
before the guard; the site lists come after the guard so that nothing the hospital listed is dropped.
:class:`~phiscrub.Deidentifier` builds the :class:`SelectContext` of a note and calls
:func:`select_spans`; :attr:`Deidentifier.steps <phiscrub.Deidentifier.steps>` names the steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from phiscrub.document import Document, Span

if TYPE_CHECKING:
    from phiscrub.detect.site_load import SiteKnowledge
    from phiscrub.policy import Policy

__all__ = ["STEPS", "SelectContext", "Step", "select_spans", "step_names"]


@dataclass
class SelectContext:
    """What the steps need to know about one note's selection.

    Attributes:
        policy: the note's PHI policy.
        lang: the note's language (one decision per note, :mod:`phiscrub.language`).
        threshold: proposals scoring below it are dropped.
        propagate: run the ``propagate`` step.
        resolve: the overlap strategy of the ``resolve`` step.
        guard: run the ``guard`` step (English notes only).
        site: the site lists, registry and allow list, or None (the ``site`` step does nothing).
        guard_counts: counts of the guard's drops by reason (no text), updated in place.
    """

    policy: Policy
    lang: str
    threshold: float
    propagate: bool = True
    resolve: str = "merge"
    guard: bool = True
    site: SiteKnowledge | None = None
    guard_counts: Counter[str] = field(default_factory=Counter)


#: One step of the selection.
Step = Callable[[Document, list[Span], SelectContext], list[Span]]


def threshold_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """Drop proposals scoring below the threshold."""
    return [s for s in spans if s.score >= ctx.threshold]


def policy_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """Drop spans that are not PHI under the note's policy."""
    from phiscrub.policy import apply_policy

    return apply_policy(doc.text, spans, ctx.policy)


def propagate_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """Add the other occurrences of kept names and places.

    From the kept proposals themselves, not their resolved union: a name merged into a longer span
    of another label still propagates, and fewer proposals (a higher threshold) can only mean fewer
    propagated names.
    """
    if not ctx.propagate:
        return spans
    from phiscrub.detect.propagate import propagate_names

    return propagate_names(doc, spans)


def resolve_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """Resolve overlaps with the context's strategy."""
    from phiscrub.resolve import resolve

    return resolve(spans, ctx.resolve)


def guard_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """English notes: drop clinical measurements and vocabulary. i2b2 and strict annotate generic
    department names ("Cardiology") and bare weekdays, so they keep them."""
    if not ctx.guard or ctx.lang != "en":
        return spans
    from phiscrub.detect.clinical import guard

    return guard(doc, spans, ctx.guard_counts, keep_generic=ctx.policy != "safe-harbor")


def extend_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """English notes: widen a facility or organisation span over the rest of its name
    ("[Red Oak] Pulmonary Specialists", "[Valley Ortho] PC"); spans only grow."""
    if ctx.lang != "en":
        return spans
    from phiscrub.select.extend import extend_names

    return extend_names(doc.text, spans)


def site_step(doc: Document, spans: list[Span], ctx: SelectContext) -> list[Span]:
    """Merge in the site lists' and registry's matches (never removing or shrinking a span), then
    drop what the allow list names."""
    if ctx.site is None:
        return spans
    from phiscrub.detect.site_load import apply_site

    return apply_site(doc, spans, ctx.site, ctx.policy)


#: The selection steps, in the order they run.
STEPS: tuple[tuple[str, Step], ...] = (
    ("threshold", threshold_step),
    ("policy", policy_step),
    ("propagate", propagate_step),
    ("resolve", resolve_step),
    ("guard", guard_step),
    ("extend", extend_step),
    ("site", site_step),
)


def step_names(steps: Sequence[tuple[str, Step]] = STEPS) -> list[str]:
    """The names of ``steps``, in order."""
    return [name for name, _ in steps]


def select_spans(
    doc: Document, proposals: Sequence[Span], ctx: SelectContext, steps: Sequence[tuple[str, Step]] = STEPS
) -> list[Span]:
    """Run ``steps`` in order over ``proposals`` of ``doc``."""
    spans = list(proposals)
    for _, step in steps:
        spans = step(doc, spans, ctx)
    return spans
