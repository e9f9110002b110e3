"""``phiscrub redact``: de-identify a file, a folder, a JSONL, CSV or Parquet file."""

from __future__ import annotations

import json
import logging
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import click
from tqdm import tqdm
from typing_extensions import Self

from phiscrub.cli._common import (
    batch_size_option,
    input_argument,
    labels_option,
    lexicon_option,
    model_option,
    output_option,
    propagate_option,
    rules_lang_option,
)
from phiscrub.deid import KEY_ENV_VAR, Deidentifier, Redaction, batched
from phiscrub.document import Document
from phiscrub.errors import PhiscrubError

__all__ = ["redact"]

log = logging.getLogger(__name__)


@click.command()
@input_argument()
@output_option("out_dir", "Output folder.")
@click.option(
    "--mode",
    type=click.Choice(["placeholder", "mask", "surrogate"]),
    default="placeholder",
    show_default=True,
)
@labels_option("Label granularity of placeholders and of the standoff output.")
@click.option("--key", envvar=KEY_ENV_VAR, default=None, help=f"Surrogate secret (or ${KEY_ENV_VAR}).")
@click.option("--text-field", default="text", show_default=True, help="JSONL field holding the note.")
@click.option("--text-column", default="text", show_default=True, help="CSV/Parquet column holding the note.")
@click.option(
    "--id-field", default=None, help="JSONL field / column with the document id (default: position)."
)
@click.option("--patient-field", default=None, help="Field / column grouping notes of one patient.")
@model_option("Tagger model folder, or 'default' for the model bundled with phiscrub.")
@click.option("--rules-only", is_flag=True, help="Use the rule detectors only (no model, no lexicon).")
@lexicon_option("Add the lexicon detector (bundled name and city lists).")
@propagate_option()
@click.option("--resolve", "resolve_strategy", default="merge", show_default=True, help="Overlap strategy.")
@click.option("--keep-ages", is_flag=True, help="Keep ages over 89 (default: bucket them as 90+).")
@rules_lang_option(
    "Language of the rules: en, es, ca, de, fr, nl, zh, or auto (detected per document; "
    "other codes get the language-neutral rules only)."
)
@click.option("--audit-text", is_flag=True, help="Write the original PHI strings into the standoff file.")
@batch_size_option()
def redact(
    input_path: Path,
    out_dir: Path,
    mode: str,
    labels: str,
    key: str | None,
    text_field: str,
    text_column: str,
    id_field: str | None,
    patient_field: str | None,
    model: str,
    rules_only: bool,
    lexicon: bool,
    propagate: bool,
    resolve_strategy: str,
    keep_ages: bool,
    lang: str,
    audit_text: bool,
    batch_size: int,
) -> None:
    """De-identify INPUT (a .txt file, a folder of .txt, a JSONL, CSV or Parquet file) into OUTDIR.

    The output keeps the input's shape; OUTDIR/phi_spans.jsonl lists what was replaced (doc id,
    offsets into the original text, label, source) without the PHI strings unless --audit-text.
    """
    from phiscrub.io.shapes import open_source

    deid = Deidentifier(
        mode=mode,  # type: ignore[arg-type]
        labels=labels,  # type: ignore[arg-type]
        key=key,
        model=None if rules_only else model,
        lexicon=lexicon and not rules_only,
        propagate=propagate,
        resolve=resolve_strategy,
        age_over_89="keep" if keep_ages else "bucket",
        lang=lang,
    )
    source = open_source(
        input_path,
        text_field=text_field,
        text_column=text_column,
        id_field=id_field,
        patient_field=patient_field,
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()
    stats = {"documents": 0, "errors": 0}
    standoff = StandoffWriter(out_dir / "phi_spans.jsonl", audit_text=audit_text)
    total = getattr(source, "count", None)

    def transformed() -> Iterator[Document]:
        docs = source.documents()
        bar = tqdm(desc="redact", unit="doc", total=total, file=sys.stderr, delay=1.0, dynamic_ncols=True)
        try:
            for batch in batched(docs, batch_size):
                for original, red in _redact_batch(deid, batch):
                    stats["documents"] += 1
                    if red is None:
                        stats["errors"] += 1
                        # Never fall back to the original text: a failed note is written empty.
                        yield Document(original.id, "", (), dict(original.metadata))
                    else:
                        counts.update(s.label for s in red.spans)
                        standoff.write(red)
                        yield red.result
                    bar.update(1)
        finally:
            bar.close()

    with standoff:
        written = source.write(out_dir, transformed())
    per_label = ", ".join(f"{k}={v}" for k, v in sorted(counts.items())) or "none"
    click.echo(
        f"redacted {stats['documents']} documents into {out_dir} ({len(written)} files); "
        f"spans: {sum(counts.values())} ({per_label}); errors: {stats['errors']}",
        err=True,
    )
    if stats["errors"]:
        sys.exit(1)


def _redact_batch(deid: Deidentifier, batch: list[Document]) -> Iterator[tuple[Document, Redaction | None]]:
    """Redact a batch; on failure retry one by one so one bad note does not sink the batch."""
    try:
        results = list(deid.redact_many(batch, batch_size=len(batch)))
    except (PhiscrubError, ValueError) as exc:
        log.warning("batch failed (%s); retrying documents one by one", type(exc).__name__)
    else:
        yield from zip(batch, results)
        return
    for doc in batch:
        try:
            yield doc, deid.redact_one(doc)
        except (PhiscrubError, ValueError) as exc:
            # Only the exception type: its message could, in a third-party library, hold text.
            log.error("document %s failed: %s", doc.id, type(exc).__name__)
            yield doc, None


class StandoffWriter:
    """Writes OUTDIR/phi_spans.jsonl: one line per replaced span, original offsets, no PHI text.

    With ``audit_text=True`` the original string is added under ``"text"`` (the user asked for it).
    """

    def __init__(self, path: Path, audit_text: bool = False) -> None:
        self.path = path
        self.audit_text = audit_text
        self._fh: IO[str] | None = None

    def __enter__(self) -> Self:
        self._fh = self.path.open("w", encoding="utf-8")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            self._fh.close()

    def write(self, red: Redaction) -> None:
        assert self._fh is not None, "use StandoffWriter as a context manager"
        for span, out in zip(red.spans, red.result.spans):
            row: dict[str, object] = {
                "id": red.original.id,
                "start": span.start,
                "end": span.end,
                "label": span.label,
                "source": span.source,
                "out_start": out.start,
                "out_end": out.end,
            }
            if self.audit_text:
                row["text"] = red.original.text[span.start : span.end]
            self._fh.write(json.dumps(row, ensure_ascii=False) + "\n")
