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

from phiscrub.cli._common import (
    corpus_option,
    corpus_out_format_option,
    input_argument,
    input_format_option,
    output_option,
    read_with_problems,
    seed_option,
    surrogate_lang_option,
)
from phiscrub.labels import Granularity

if TYPE_CHECKING:
    from phiscrub.augment.daga import DagaAugmenter
    from phiscrub.augment.llm import PromptKind
    from phiscrub.augment.llm_client import LLMSettings
    from phiscrub.document import Document

__all__ = ["augment"]

_IN_FORMATS = ["brat", "i2b2", "conll", "jsonl", "csv", "parquet", "placeholder"]


@click.command("augment")
@input_argument()
@output_option()
@click.option(
    "--method",
    type=click.Choice(["phi", "context", "phicon", "mr", "daga", "llm-oneshot", "llm-zeroshot"]),
    default="phicon",
    show_default=True,
    help="phi: surrogate swap; context: synonyms + insertion; phicon: both; mr: mention replacement; "
    "daga: new sentences from a language model trained on the input; llm-oneshot / llm-zeroshot: new "
    "notes from an OpenAI-compatible LLM (Kim et al.), prompts leak-guarded.",
)
@click.option(
    "--alpha",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Copies per document (daga: samples per input sentence with PHI; llm: notes per source note).",
)
@seed_option("Base seed (each copy gets its own stream).")
@input_format_option("--format", "--from", "src_fmt", choices=_IN_FORMATS)
@corpus_option()
@corpus_out_format_option()
@surrogate_lang_option("Surrogate language (phi); context augmentation edits English notes only.")
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
@click.option(
    "--llm-url",
    default=None,
    help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (llm methods; the only network use).",
)
@click.option("--llm-model", default="local", show_default=True, help="Model name sent to the endpoint.")
@click.option(
    "--llm-concurrency", type=click.IntRange(min=1), default=2, show_default=True, help="Requests in flight."
)
@click.option("--llm-max-tokens", type=click.IntRange(min=16), default=1024, show_default=True)
@click.option("--llm-temperature", type=click.FloatRange(0, 2), default=0.8, show_default=True)
@click.option("--llm-timeout", type=click.FloatRange(min=1), default=300.0, show_default=True)
@click.option("--llm-retries", type=click.IntRange(min=0), default=4, show_default=True)
@click.option(
    "--llm-attempts",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Tries per note when the reply is unusable (new sampling seed each time).",
)
@click.option(
    "--llm-cache",
    type=click.Path(path_type=Path),
    default=None,
    help="Reply cache folder (default: OUTPUT + '.llm-cache'); a rerun resumes from it.",
)
@click.option(
    "--llm-log",
    type=click.Path(path_type=Path),
    default=None,
    help="Token/cost log, JSONL (default: OUTPUT + '.llm-log.jsonl'); ids and counts only.",
)
@click.option("--price-prompt", type=click.FloatRange(min=0), default=0.0, help="Cost per 1M prompt tokens.")
@click.option(
    "--price-completion", type=click.FloatRange(min=0), default=0.0, help="Cost per 1M completion tokens."
)
@click.option(
    "--on-leak",
    type=click.Choice(["scrub", "skip", "fail"]),
    default="scrub",
    show_default=True,
    help="One-shot: when the leak guard still finds PHI in a scrubbed note, scrub it too, skip the note, "
    "or stop.",
)
@click.option(
    "--sentences/--notes",
    "split_sentences",
    default=False,
    show_default=True,
    help="llm: write one document per sentence (Kim et al.'s training unit) or whole notes.",
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
    llm_url: str | None,
    llm_model: str,
    llm_concurrency: int,
    llm_max_tokens: int,
    llm_temperature: float,
    llm_timeout: float,
    llm_retries: int,
    llm_attempts: int,
    llm_cache: Path | None,
    llm_log: Path | None,
    price_prompt: float,
    price_completion: float,
    on_leak: str,
    split_sentences: bool,
) -> None:
    """Write ALPHA augmented copies of every document of INPUT (file or folder) to OUTPUT.

    Copies are named "<id>#aug<k>"; their spans are re-validated and a failing copy is skipped and
    counted. Reader problems are reported by document and span id, never with note text.
    """
    from phiscrub.augment import AugmentStats, DagaAugmenter, augment_corpus, make_augmenter
    from phiscrub.io import get_writer

    if method.startswith("llm-") and not llm_url:
        raise click.UsageError("--llm-url is required for the llm methods (phiscrub never picks an endpoint)")
    docs, problems, _ = read_with_problems(input_path, src_fmt, corpus, seed)
    if method.startswith("llm-"):
        from phiscrub.augment.llm_client import LLMSettings

        settings = LLMSettings(
            url=cast(str, llm_url),
            model=llm_model,
            temperature=llm_temperature,
            max_tokens=llm_max_tokens,
            timeout_s=llm_timeout,
            max_retries=llm_retries,
            concurrency=llm_concurrency,
            price_prompt=price_prompt,
            price_completion=price_completion,
        )
        _augment_llm(
            method, settings, docs, alpha=alpha, seed=seed, lang=lang, attempts=llm_attempts,
            cache=llm_cache or Path(f"{output_path}.llm-cache"),
            log=llm_log or Path(f"{output_path}.llm-log.jsonl"),
            on_leak=on_leak, split_sentences=split_sentences, output_path=output_path, dst_fmt=dst_fmt,
            include_original=include_original, reader_problems=len(problems),
        )  # fmt: skip
        return
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


def _augment_llm(
    method: str,
    settings: LLMSettings,
    docs: list[Document],
    *,
    alpha: int,
    seed: int,
    lang: str,
    attempts: int,
    cache: Path,
    log: Path,
    on_leak: str,
    split_sentences: bool,
    output_path: Path,
    dst_fmt: str,
    include_original: bool,
    reader_problems: int,
) -> None:
    """Generate ``alpha`` notes per source note with the LLM endpoint and write them."""
    from phiscrub.augment.llm_client import ChatClient, LLMStats, OnLeak, llm_augment
    from phiscrub.io import get_writer

    client = ChatClient(settings, cache_dir=cache, log_path=log)
    stats = LLMStats()
    kind: PromptKind = "one-shot" if method == "llm-oneshot" else "zero-shot"
    with tqdm(total=len(docs), desc=f"augment {method}", unit="note", file=sys.stderr, delay=1.0) as bar:
        generated = list(
            llm_augment(
                docs, kind, client, seed=seed, lang=lang, notes_per_source=alpha, max_attempts=attempts,
                on_leak=cast(OnLeak, on_leak), split_sentences=split_sentences, stats=stats,
                progress=bar.update,
            )
        )  # fmt: skip
    out_docs = (docs if include_original else []) + generated
    get_writer(dst_fmt).write(out_docs, output_path)
    for reason, count in sorted(stats.replies_dropped.items()):
        click.echo(f"dropped {count} replies: {reason}", err=True)
    if stats.guard_scrubbed:
        labels = ", ".join(f"{lab} {n}" for lab, n in sorted(stats.guard_spans.items()))
        click.echo(
            f"leak guard: scrubbed residual PHI in {stats.guard_scrubbed} notes before sending ({labels})",
            err=True,
        )
    click.echo(
        f"augment {method}: {stats.sources} source notes, {stats.requests} requests "
        f"({client.cache_hits} from cache, {client.retries} retries), {stats.blocked} blocked by the leak "
        f"guard, {sum(stats.replies_dropped.values())} replies dropped, {stats.mapped} placeholders mapped; "
        f"{stats.generated} notes generated ({stats.missing} missing), wrote {len(out_docs)} documents to "
        f"{output_path} ({dst_fmt}); tokens: {client.prompt_tokens} prompt + {client.completion_tokens} "
        f"completion, cost {client.cost:.4f}; reader problems: {reader_problems}",
        err=True,
    )
