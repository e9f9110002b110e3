"""``phiscrub augment``: write ``alpha`` augmented copies of a labelled corpus (PHICON, mention replacement).

DAGA (``--method daga``) is corpus-level: it learns a language model on the input and writes new
documents, ``alpha`` samples per input sentence with PHI, instead of copies of each document.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click
from tqdm import tqdm

from phiscrub.cli._common import read_with_problems
from phiscrub.labels import Granularity

if TYPE_CHECKING:
    from phiscrub.augment.daga import DagaAugmenter
    from phiscrub.document import Document

__all__ = ["augment"]

_IN_FORMATS = ["brat", "i2b2", "conll", "jsonl", "csv", "parquet", "placeholder"]
_OUT_FORMATS = ["jsonl", "brat", "i2b2", "conll", "csv", "parquet"]


@click.command("augment")
@click.argument("input_path", metavar="INPUT", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    "output_path",
    required=True,
    type=click.Path(path_type=Path),
    help="Output file (jsonl, csv, parquet) or folder (brat, i2b2, conll).",
)
@click.option(
    "--method",
    type=click.Choice(["phi", "context", "phicon", "mr", "daga"]),
    default="phicon",
    show_default=True,
    help="phi: surrogate swap; context: synonyms + insertion; phicon: both; mr: mention replacement; "
    "daga: new sentences from a language model trained on the input.",
)
@click.option(
    "--alpha",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Copies per document (daga: samples per input sentence with PHI).",
)
@click.option("--seed", default=0, show_default=True, help="Base seed (each copy gets its own stream).")
@click.option(
    "--format",
    "--from",
    "src_fmt",
    type=click.Choice(_IN_FORMATS),
    default=None,
    help="Input format (default: guess).",
)
@click.option(
    "--corpus", default=None, help="Label mapping of the input: meddocan, i2b2-2006, i2b2-2014, ..."
)
@click.option("--to", "dst_fmt", type=click.Choice(_OUT_FORMATS), default="jsonl", show_default=True)
@click.option(
    "--lang",
    type=click.Choice(["auto", "en", "es", "ca", "zh"]),
    default="auto",
    show_default=True,
    help="Surrogate language (phi); context augmentation edits English notes only.",
)
@click.option(
    "--sr", "p_sr", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="Synonym share."
)
@click.option(
    "--ri", "p_ri", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="Insertion share."
)
@click.option(
    "--mr-prob", "p_mr", type=click.FloatRange(0, 1), default=0.5, show_default=True, help="MR probability."
)
@click.option(
    "--daga-epochs", type=click.IntRange(min=1), default=10, show_default=True, help="DAGA training epochs."
)
@click.option(
    "--daga-time-budget",
    type=click.FloatRange(min=0),
    default=None,
    help="Stop DAGA training after this many seconds.",
)
@click.option(
    "--daga-granularity",
    type=click.Choice(["fine", "coarse", "phicon5"]),
    default="coarse",
    show_default=True,
    help="Labels of the DAGA tags and of the generated spans.",
)
@click.option("--include-original", is_flag=True, help="Also write the source documents (D + alpha D_aug).")
def augment(
    input_path: Path,
    output_path: Path,
    method: str,
    alpha: int,
    seed: int,
    src_fmt: str | None,
    corpus: str | None,
    dst_fmt: str,
    lang: str,
    p_sr: float,
    p_ri: float,
    p_mr: float,
    daga_epochs: int,
    daga_time_budget: float | None,
    daga_granularity: str,
    include_original: bool,
) -> None:
    """Write ALPHA augmented copies of every document of INPUT (file or folder) to OUTPUT.

    Copies are named "<id>#aug<k>"; their spans are re-validated and a failing copy is skipped and
    counted. Reader problems are reported by document and span id, never with note text.
    """
    from phiscrub.augment import AugmentStats, DagaAugmenter, augment_corpus, make_augmenter
    from phiscrub.io import get_writer

    docs, problems, _ = read_with_problems(input_path, src_fmt, corpus, seed)
    if method == "daga":
        granularity = cast(Granularity, daga_granularity)
        daga = DagaAugmenter(epochs=daga_epochs, time_budget_s=daga_time_budget, granularity=granularity)
        _augment_daga(daga, docs, alpha, seed, output_path, dst_fmt, include_original, len(problems))
        return
    augmenter = make_augmenter(method, lang=lang, p_sr=p_sr, p_ri=p_ri, p_mr=p_mr)
    assert not isinstance(augmenter, DagaAugmenter)  # daga returned above; this narrows the type
    fit = getattr(augmenter, "fit", None)
    if fit is not None:
        fit(docs)
    stats = AugmentStats()
    copies = augment_corpus(docs, augmenter, alpha, seed, stats)
    progress = tqdm(
        copies, total=len(docs) * alpha, desc=f"augment {method}", unit="doc", file=sys.stderr, delay=1.0
    )
    out_docs = (docs if include_original else []) + list(progress)
    get_writer(dst_fmt).write(out_docs, output_path)
    skipped_lang = sum(getattr(step, "non_english", 0) for step in getattr(augmenter, "steps", (augmenter,)))
    for reason, count in sorted(stats.reasons.items()):
        click.echo(f"skipped {count} copies: {reason}", err=True)
    if skipped_lang:
        click.echo(f"context augmentation left {skipped_lang} non-English copies unchanged", err=True)
    click.echo(
        f"augment {method}: {stats.documents_in} documents in, {stats.documents_out} augmented copies out "
        f"(alpha {alpha}, seed {seed}), {stats.skipped} skipped; wrote {len(out_docs)} documents to "
        f"{output_path} ({dst_fmt}); reader problems: {len(problems)}",
        err=True,
    )


def _augment_daga(
    daga: DagaAugmenter,
    docs: list[Document],
    alpha: int,
    seed: int,
    output_path: Path,
    dst_fmt: str,
    include_original: bool,
    reader_problems: int,
) -> None:
    """Fit DAGA on the corpus, sample ``alpha`` x (sentences with PHI) sentences, write the documents."""
    from phiscrub.augment import DagaReport
    from phiscrub.io import get_writer

    daga.fit(docs, seed=seed, progress=True)
    n = alpha * daga.phi_sentences_
    report = DagaReport()
    generated = daga.generate(n, seed=seed, report=report)
    out_docs = (docs if include_original else []) + generated
    get_writer(dst_fmt).write(out_docs, output_path)
    for reason, count in sorted(report.reasons.items()):
        click.echo(f"dropped {count} malformed samples: {reason}", err=True)
    click.echo(
        f"augment daga: {len(docs)} documents in, {daga.phi_sentences_} sentences with PHI, "
        f"{daga.train_sentences_} training sentences ({daga.skipped_long_} too long), "
        f"{daga.epochs_run_} epochs; generated {report.generated} samples: kept {report.kept} "
        f"({report.kept_with_phi} with PHI), dropped {report.dropped_malformed} malformed, "
        f"{report.dropped_duplicate_of_train} duplicates of training, {report.dropped_repeat} repeats; "
        f"wrote {len(out_docs)} documents ({report.documents} new) to {output_path} ({dst_fmt}) "
        f"(alpha {alpha}, seed {seed}); reader problems: {reader_problems}",
        err=True,
    )
