"""``phiscrub augment``: parse the options, build the method from :mod:`phiscrub.augment.registry`, fit it
on the input, augment, write, and print the result's warnings and summary.

Per-document methods write ``alpha`` copies of each document; DAGA (``--method daga``) learns a language
model on the input and writes new documents, ``alpha`` samples per input sentence with PHI; the LLM
methods write ``alpha`` generated notes per source note.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from phiscrub.augment.registry import ALL_METHODS
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
from phiscrub.cli._options import Opt, options
from phiscrub.errors import ConfigError
from phiscrub.labels import GRANULARITIES, Granularity

if TYPE_CHECKING:
    from phiscrub.augment.llm_client import OnLeak

__all__ = ["augment"]

_IN_FORMATS = ["brat", "i2b2", "conll", "jsonl", "csv", "parquet", "placeholder"]

_EDIT_OPTIONS = (
    Opt("--sr p_sr", click.FloatRange(0, 1), 0.1, "Synonym share."),
    Opt("--ri p_ri", click.FloatRange(0, 1), 0.1, "Insertion share."),
    Opt("--mr-prob p_mr", click.FloatRange(0, 1), 0.5, "MR probability."),
)
_DAGA_OPTIONS = (
    Opt("--daga-epochs", click.IntRange(min=1), 10, "DAGA training epochs."),
    Opt("--daga-time-budget", click.FloatRange(min=0), help="Stop DAGA training after this many seconds."),
    Opt(
        "--daga-granularity",
        click.Choice(GRANULARITIES),
        "coarse",
        "Labels of the DAGA tags and of the generated spans.",
    ),
)
_LLM_OPTIONS = (
    Opt(
        "--llm-url",
        help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (llm methods; the only network use).",
    ),
    Opt("--llm-model", default="local", help="Model name sent to the endpoint."),
    Opt("--llm-concurrency", click.IntRange(min=1), 2, "Requests in flight."),
    Opt("--llm-max-tokens", click.IntRange(min=16), 1024),
    Opt("--llm-temperature", click.FloatRange(0, 2), 0.8),
    Opt("--llm-timeout", click.FloatRange(min=1), 300.0),
    Opt("--llm-retries", click.IntRange(min=0), 4),
    Opt(
        "--llm-attempts",
        click.IntRange(min=1),
        3,
        "Tries per note when the reply is unusable (new sampling seed each time).",
    ),
    Opt(
        "--llm-cache",
        click.Path(path_type=Path),
        help="Reply cache folder (default: OUTPUT + '.llm-cache'); a rerun resumes from it.",
    ),
    Opt(
        "--llm-log",
        click.Path(path_type=Path),
        help="Token/cost log, JSONL (default: OUTPUT + '.llm-log.jsonl'); ids and counts only.",
    ),
    Opt("--price-prompt", click.FloatRange(min=0), 0.0, "Cost per 1M prompt tokens.", show_default=False),
    Opt(
        "--price-completion",
        click.FloatRange(min=0),
        0.0,
        "Cost per 1M completion tokens.",
        show_default=False,
    ),
    Opt(
        "--on-leak",
        click.Choice(["scrub", "skip", "fail"]),
        "scrub",
        "One-shot: when the leak guard still finds PHI in a scrubbed note, scrub it too, skip the note, "
        "or stop.",
    ),
)


@click.command("augment")
@input_argument()
@output_option()
@click.option(
    "--method",
    type=click.Choice(list(ALL_METHODS)),
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
@options(*_EDIT_OPTIONS)
@options(*_DAGA_OPTIONS)
@options(*_LLM_OPTIONS)
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
    from phiscrub.augment import AugmentOptions, LLMOptions, build_augmenter
    from phiscrub.augment.chat import LLMSettings
    from phiscrub.io import get_writer

    llm = None
    if llm_url:
        settings = LLMSettings(
            url=llm_url, model=llm_model, temperature=llm_temperature, max_tokens=llm_max_tokens,
            timeout_s=llm_timeout, max_retries=llm_retries, concurrency=llm_concurrency,
            price_prompt=price_prompt, price_completion=price_completion,
        )  # fmt: skip
        llm = LLMOptions(
            settings, attempts=llm_attempts, cache_dir=llm_cache or Path(f"{output_path}.llm-cache"),
            log_path=llm_log or Path(f"{output_path}.llm-log.jsonl"), on_leak=cast("OnLeak", on_leak),
            split_sentences=split_sentences,
        )  # fmt: skip
    options = AugmentOptions(
        lang=lang, p_sr=p_sr, p_ri=p_ri, p_mr=p_mr, granularity=cast(Granularity, daga_granularity),
        daga={"epochs": daga_epochs, "time_budget_s": daga_time_budget}, llm=llm,
    )  # fmt: skip
    try:
        augmenter = build_augmenter(method, options)
    except ConfigError as err:
        raise click.UsageError(str(err)) from None
    docs, problems, _ = read_with_problems(input_path, src_fmt, corpus, seed)
    result = augmenter.fit(docs, seed=seed, progress=True).augment(docs, alpha, seed, progress=True)
    out_docs = (docs if include_original else []) + result.documents
    get_writer(dst_fmt).write(out_docs, output_path)
    for line in result.warnings():
        click.echo(line, err=True)
    summary = result.summary(len(out_docs), f"{output_path} ({dst_fmt})")
    click.echo(f"{summary}; reader problems: {len(problems)}", err=True)
