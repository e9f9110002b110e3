"""Operators: small strategy objects that decide the replacement text of one PHI span.

An operator is chosen per label (Presidio style) and called as
``operator.apply(surface, span, ctx) -> str``. A :class:`Transformer` runs them over a document's
spans and rewrites the text (:func:`phiscrub.transform.rewrite.rewrite`); :func:`build_transformer`
builds the usual ones from a mode name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import GRANULARITIES, Granularity, fold, is_native, to_fine
from phiscrub.modes import Mode
from phiscrub.transform.rewrite import rewrite

if TYPE_CHECKING:  # the surrogate engine is imported on use: placeholder and mask runs skip it
    from phiscrub.transform.surrogate.coherent import NoteGeo
    from phiscrub.transform.surrogates import Scope, SurrogateGenerator

__all__ = [
    "KeepOperator",
    "MaskOperator",
    "Mode",
    "Operator",
    "OperatorContext",
    "PlaceholderOperator",
    "SurrogateOperator",
    "Transformer",
    "build_transformer",
]

_GRANULARITIES = GRANULARITIES


@dataclass(frozen=True)
class OperatorContext:
    """What an operator may know besides the span: the document and the shared surrogate state.

    Attributes:
        doc_id: id of the document being rewritten.
        text: the document's original text (for context-aware operators).
        patient_id: the patient the document belongs to, or None.
        surrogates: the shared generator (surrogate mode), or None.
        lang: the document's language hint (``metadata["lang"]``), or None.
        name_roles: first/last roles of the name words of the document's full names
            (:meth:`SurrogateGenerator.name_roles`), so a lone "JOHN" maps like the "John" of
            "John Smith"; None outside surrogate mode.
        geo: the states of the note's towns, ZIP codes and phones
            (:meth:`SurrogateGenerator.note_geography`); None outside surrogate mode or US notes.
    """

    doc_id: str
    text: str
    patient_id: str | None = None
    surrogates: SurrogateGenerator | None = None
    lang: str | None = None
    name_roles: Mapping[str, str] | None = None
    geo: NoteGeo | None = None


@runtime_checkable
class Operator(Protocol):
    """Returns the replacement text for one span."""

    def apply(self, surface: str, span: Span, ctx: OperatorContext) -> str:
        """The replacement of ``surface`` (the text of ``span`` in ``ctx.text``)."""
        ...


@dataclass(frozen=True)
class PlaceholderOperator:
    """``[NAME]``, ``[DATE]``, ... at a label granularity (``[PATIENT]`` at ``fine``).

    Args:
        granularity: fine, coarse or phicon5 (labels folding to nothing keep their fine name).
        template: format with ``{label}``.
    """

    granularity: Granularity = "coarse"
    template: str = "[{label}]"

    def apply(self, surface: str, span: Span, ctx: OperatorContext) -> str:
        """The placeholder of the span's label."""
        label = fold(span.label, self.granularity) or to_fine(span.label)
        return self.template.format(label=label)


@dataclass(frozen=True)
class MaskOperator:
    """A fixed mask (``***``) or, with ``preserve_length``, one mask character per character.

    Args:
        char: the mask character.
        preserve_length: mask char-for-char (whitespace and line breaks kept so layout survives).
        length: mask length when not preserving length.
    """

    char: str = "*"
    preserve_length: bool = False
    length: int = 3

    def apply(self, surface: str, span: Span, ctx: OperatorContext) -> str:
        """The mask."""
        if self.preserve_length:
            return "".join(c if c.isspace() else self.char for c in surface)
        return self.char * self.length


@dataclass(frozen=True)
class SurrogateOperator:
    """A consistent realistic stand-in from the context's :class:`SurrogateGenerator`."""

    def apply(self, surface: str, span: Span, ctx: OperatorContext, attempt: int = 0) -> str:
        """The keyed surrogate of ``surface`` for the span's label (``attempt``: a redraw's number).

        Raises:
            ConfigError: the context has no surrogate generator (no key was given).
        """
        if ctx.surrogates is None:
            raise ConfigError("surrogate mode needs a key: use --key or the PHISCRUB_KEY env var")
        return ctx.surrogates.surrogate(
            span.label,
            surface,
            patient_id=ctx.patient_id,
            doc_id=ctx.doc_id,
            lang=ctx.lang,
            name_roles=ctx.name_roles,
            start=span.start,
            geo=ctx.geo,
            attempt=attempt,
        )


@dataclass(frozen=True)
class KeepOperator:
    """Leaves the text as it is (the span is still reported in the output)."""

    def apply(self, surface: str, span: Span, ctx: OperatorContext) -> str:
        """The surface unchanged."""
        return surface


class Transformer:
    """Rewrites documents by applying an operator to each PHI span.

    Args:
        default: the operator for labels without their own.
        granularity: label granularity of the output spans; spans folding to None at this
            granularity (e.g. OTHER, or AGE at phicon5) are left untouched and not reported.
        operators: per-label operators, keyed by fine or coarse label (fine wins).
        surrogates: the shared surrogate generator, for surrogate operators.
        record_offsets: store ``metadata["source_offsets"]`` in the output documents.

    Raises:
        ConfigError: unknown granularity or operator label.
    """

    def __init__(
        self,
        default: Operator,
        *,
        granularity: Granularity = "coarse",
        operators: Mapping[str, Operator] | None = None,
        surrogates: SurrogateGenerator | None = None,
        record_offsets: bool = False,
    ) -> None:
        if granularity not in _GRANULARITIES and not is_native(granularity):
            raise ConfigError(
                f"unknown label granularity {granularity!r}; use fine, coarse, phicon5 or native:<corpus>"
            )
        self.default = default
        self.granularity: Granularity = granularity
        self.operators: dict[str, Operator] = {}
        for label, op in (operators or {}).items():
            try:
                to_fine(label)
            except LabelError as exc:
                raise ConfigError(f"operator given for unknown label {label!r}") from exc
            self.operators[label.upper()] = op
        self.surrogates = surrogates
        self.record_offsets = record_offsets

    def operator_for(self, label: str) -> Operator:
        """The operator of a label: its fine label's, else its coarse label's, else the default.

        A label no table knows (a corpus's own type, ``--labels native``) takes the default.
        """
        try:
            fine = to_fine(label)
        except LabelError:
            return self.default
        if fine in self.operators:
            return self.operators[fine]
        coarse = fold(fine, "coarse")
        if coarse is not None and coarse in self.operators:
            return self.operators[coarse]
        return self.default

    def apply(self, doc: Document, spans: Sequence[Span], patient_id: str | None = None) -> Document:
        """Rewrite ``doc`` at ``spans`` (non-overlapping) and return the new document.

        Args:
            doc: the document (its own spans are ignored; pass ``doc.spans`` to use them).
            spans: the PHI spans to replace.
            patient_id: the patient, for surrogate consistency and date offsets; defaults to
                ``doc.metadata["patient_id"]`` when present.

        Returns:
            A new document whose spans, at this transformer's granularity, cover the replacements.

        Raises:
            ValueError: spans overlap.
        """
        if patient_id is None and doc.metadata.get("patient_id") is not None:
            patient_id = str(doc.metadata["patient_id"])
        lang = doc.metadata.get("lang") or doc.metadata.get("language")
        if not lang and self.surrogates is not None:
            lang = self.surrogates.lang  # the Deidentifier's language when the note names none
        ordered = sorted(spans)
        roles = self._name_roles(doc, ordered) if self.surrogates is not None else None
        geo = None
        if self.surrogates is not None:
            replaced = [
                (s.start, s.end, to_fine(s.label))
                for s in ordered
                if fold(s.label, self.granularity) is not None
            ]
            geo = self.surrogates.note_geography(
                doc.text, replaced, patient_id=patient_id, lang=str(lang) if lang else None
            )
        ctx = OperatorContext(
            doc.id, doc.text, patient_id, self.surrogates, str(lang) if lang else None, roles, geo
        )
        replacements: list[tuple[Span, str]] = []
        # Surrogates depend on (label, surface) only within one note: compute each once (long notes
        # repeat the same names and dates thousands of times).
        memo: dict[tuple[str, str, str | None, str | None], str] = {}
        originals = _originals(doc.text, ordered) if self.surrogates is not None else frozenset()
        for span in ordered:
            if fold(span.label, self.granularity) is None:
                continue
            surface = doc.text[span.start : span.end]
            op = self.operator_for(span.label)
            if isinstance(op, SurrogateOperator):
                # A town, ZIP or phone also depends on the state of its place in the note.
                key = (span.label, surface, None if geo is None else geo.target(span.start),
                       None if geo is None else geo.town_of_zip.get(span.start))  # fmt: skip
                if key not in memo:
                    memo[key] = _not_an_original(op, surface, span, ctx, originals)
                replacements.append((span, memo[key]))
            else:
                replacements.append((span, op.apply(surface, span, ctx)))
        granularity = self.granularity
        return rewrite(
            doc,
            replacements,
            label_map=lambda label: fold(label, granularity),
            record_offsets=self.record_offsets,
        )

    def _name_roles(self, doc: Document, spans: Sequence[Span]) -> dict[str, str]:
        """Roles of the name words of ``doc``'s full names, the first full name in the text winning."""
        from phiscrub.transform.surrogates import NAME_LABELS

        assert self.surrogates is not None
        roles: dict[str, str] = {}
        seen: set[str] = set()
        for span in spans:
            fine = to_fine(span.label)
            if fine not in NAME_LABELS and fine != "USERNAME":
                continue
            surface = doc.text[span.start : span.end]
            if surface in seen:
                continue
            seen.add(surface)
            for part, role in self.surrogates.name_roles(surface).items():
                roles.setdefault(part, role)
        return roles


#: Labels whose surrogates may equal another original of the note on purpose (shifted dates keep
#: intervals, ages under 90 are kept) and that are never redrawn; dates without a digit ("June",
#: "Spring", "Tuesday") carry no interval and are.
_NO_REDRAW = frozenset({"DATE", "AGE"})


def _redrawable(fine: str, surface: str) -> bool:
    return fine not in _NO_REDRAW or (fine == "DATE" and not re.search(r"\d", surface))


_MAX_REDRAWS = 8


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _originals(text: str, spans: Sequence[Span]) -> frozenset[str]:
    """The note's original values (folded words joined by one space), dates and ages aside."""
    out = set()
    for span in spans:
        try:
            fine = to_fine(span.label)
        except LabelError:
            fine = span.label
        if _redrawable(fine, text[span.start : span.end]):
            words = _words(text[span.start : span.end])
            if words:
                out.add(" ".join(words))
    return frozenset(out)


def _writes_an_original(value: str, originals: frozenset[str]) -> bool:
    """Whether ``value`` holds an original value of the note as a run of whole words."""
    words = _words(value)
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + 8) + 1):
            if " ".join(words[i:j]) in originals:
                return True
    return False


def _not_an_original(
    op: SurrogateOperator, surface: str, span: Span, ctx: OperatorContext, originals: frozenset[str]
) -> str:
    """The surrogate of ``surface``, drawn again (a few times at most) while it would write another
    original value of the same note: "John" -> "Mary" in a note whose relative is Mary would leave
    an original value in the output."""
    value = op.apply(surface, span, ctx)
    try:
        fine = to_fine(span.label)
    except LabelError:
        fine = span.label
    attempt = 0
    while _redrawable(fine, surface) and attempt < _MAX_REDRAWS and _writes_an_original(value, originals):
        attempt += 1
        value = op.apply(surface, span, ctx, attempt)
    return value


def build_transformer(
    mode: Mode,
    granularity: Granularity = "coarse",
    key: bytes | str | None = None,
    age_over_89: Literal["bucket", "keep"] = "bucket",
    operators: Mapping[str, Operator] | None = None,
    *,
    scope: Scope = "patient",
    date_shift_range: tuple[int, int] = (28, 364),
    age_perturb: int = 0,
    lang: str | None = None,
    locale: str | None = None,
    fictional_contacts: bool = False,
    mask_char: str = "*",
    mask_preserve_length: bool = False,
    record_offsets: bool = False,
) -> Transformer:
    """A :class:`Transformer` for a mode.

    Args:
        mode: ``placeholder`` (``[NAME]``), ``mask`` (``***``) or ``surrogate`` (keyed stand-ins).
        granularity: output label granularity (and placeholder names).
        key: the secret for surrogate mode (bytes or text). The library does not read the
            environment; the CLI passes ``--key`` or ``PHISCRUB_KEY``.
        age_over_89: ``bucket`` ("90+") or ``keep``, surrogate mode.
        operators: per-label overrides (fine or coarse label -> operator).
        scope: surrogate consistency scope, ``patient`` or ``global``.
        date_shift_range: days, smallest and largest shift back (surrogate mode).
        age_perturb: move ages of 89 and under by up to this many years (surrogate mode).
        lang: language of the notes (surrogate lists, date order) when a note's metadata names none.
        locale: surrogate locale (``en_US``, ``es_ES``, ...); None: from each note's language.
        fictional_contacts: phones in the reserved 555-01xx range (surrogate mode).
        mask_char: mask character (mask mode).
        mask_preserve_length: mask char-for-char (mask mode).
        record_offsets: store ``metadata["source_offsets"]`` in the output.

    Raises:
        ConfigError: unknown mode or granularity, or surrogate mode without a key.
    """
    if granularity not in _GRANULARITIES and not is_native(granularity):
        raise ConfigError(
            f"unknown label granularity {granularity!r}; use fine, coarse, phicon5 or native:<corpus>"
        )
    surrogates: SurrogateGenerator | None = None
    default: Operator
    if mode == "placeholder":
        default = PlaceholderOperator(granularity)
    elif mode == "mask":
        default = MaskOperator(mask_char, preserve_length=mask_preserve_length)
    elif mode == "surrogate":
        if key is None or len(key) == 0:
            raise ConfigError("surrogate mode needs a key: use --key or the PHISCRUB_KEY env var")
        from phiscrub.transform.surrogates import SurrogateGenerator

        surrogates = SurrogateGenerator(
            key,
            scope,
            date_shift_range=date_shift_range,
            age_over_89=age_over_89,
            age_perturb=age_perturb,
            lang=lang,
            locale=locale,
            fictional_contacts=fictional_contacts,
        )
        default = SurrogateOperator()
    else:
        raise ConfigError(f"unknown transform mode {mode!r}; use placeholder, mask or surrogate")
    return Transformer(
        default,
        granularity=granularity,
        operators=operators,
        surrogates=surrogates,
        record_offsets=record_offsets,
    )
