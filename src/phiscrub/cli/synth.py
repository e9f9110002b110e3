"""``phiscrub synth``: synthetic letters that keep the clinical story, not the wording or the PHI.

Each letter's eligible words (not structure, clinical terms, numbers, patterns or PHI) are masked by a
strategy and refilled by a language model; PHI is replaced by labelled surrogates (or refilled), so a
labelled input gives a labelled output that ``phiscrub train`` accepts. Only counts are printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import click

from phiscrub.cli._common import (
    corpus_option,
    corpus_out_format_option,
    existing_path_option,
    input_argument,
    input_format_option,
    lexicon_option,
    output_option,
    read_with_problems,
    seed_option,
    surrogate_lang_option,
)

__all__ = ["synth"]

_IN_FORMATS = ["txt", "brat", "i2b2", "conll", "jsonl", "csv", "parquet", "placeholder"]


@click.command("synth")
@input_argument()
@output_option()
@click.option(
    "--strategy",
    type=click.Choice(["random", "stopwords", "nouns", "verbs", "hybrid"]),
    default=None,
    help="Words to mask (hybrid: nouns + stopwords, each at --ratio). Default: the profile's, else random.",
)
@click.option(
    "--ratio",
    type=click.FloatRange(0, 1),
    default=None,
    help="Share of the strategy's eligible words to mask [default: 0.3].",
)
@click.option("--mix", default=None, help="Custom mixture, e.g. 'nouns=0.5,stopwords=0.5,verbs=0.2'.")
@click.option(
    "--profile",
    type=click.Choice(["diversity", "clinical", "privacy"]),
    default=None,
    help="Priority preset (Ren et al. 2025, Table 11); --strategy/--ratio/--mix override its masking.",
)
@existing_path_option(
    "--mlm",
    "mlm_path",
    help="Refill model: a Hugging Face masked-LM folder or a .gguf file (default: bundled Gemma 3 270M GGUF).",
)
@click.option(
    "--phi",
    "phi_mode",
    type=click.Choice(["surrogate", "refill"]),
    default="surrogate",
    show_default=True,
    help="Detected PHI: labelled surrogates, or masked and refilled (gold PHI always gets surrogates).",
)
@click.option(
    "--detect",
    type=click.Choice(["auto", "always", "never"]),
    default=None,
    help="Run PHI detectors on unlabelled letters only (auto), on all, or never [default: auto; privacy: always].",
)
@click.option(
    "--model",
    "detector_model",
    default=None,
    help="Detector tagger: a model folder or 'default' (bundled); rules only when not given.",
)
@lexicon_option("Add the name/place lexicon detector.", default=None)
@click.option(
    "--fill-blanks/--keep-blanks", default=True, show_default=True, help="Refill ___ and [**...**]."
)
@click.option("--spellcheck", is_flag=True, help="Correct misspelled unmasked words (never clinical terms).")
@click.option("--top-k", type=click.IntRange(min=1), default=None, help="Sample fills among the best K.")
@click.option(
    "--max-lines", type=click.IntRange(min=1), default=41, show_default=True, help="Sentences per chunk."
)
@click.option(
    "--max-tokens", type=click.IntRange(min=1), default=256, show_default=True, help="Tokens per chunk."
)
@seed_option("Base seed (each letter gets its own stream).")
@input_format_option("--format", "--from", "src_fmt", choices=_IN_FORMATS)
@corpus_option()
@corpus_out_format_option()
@click.option(
    "--write-masked",
    "masked_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the masked letters (surrogates in, every slot as [MASK]) here, in the --to format: "
    "the baseline of synth-eval --masked.",
)
@surrogate_lang_option("Surrogate language.")
def synth(
    input_path: Path,
    output_path: Path,
    strategy: str | None,
    ratio: float | None,
    mix: str | None,
    profile: str | None,
    mlm_path: Path | None,
    phi_mode: str,
    detect: str | None,
    detector_model: str | None,
    lexicon: bool | None,
    fill_blanks: bool,
    spellcheck: bool,
    top_k: int | None,
    max_lines: int,
    max_tokens: int,
    seed: int,
    src_fmt: str | None,
    corpus: str | None,
    dst_fmt: str,
    masked_path: Path | None,
    lang: str,
) -> None:
    """Write a synthetic version of every letter of INPUT (file or folder) to OUTPUT.

    Letters read from a labelled format keep their PHI labelled (as surrogates); plain text gets the
    detectors' spans. Statistics (letters, masked words, invalid predictions, seconds per letter) go
    to stderr; no text is ever printed.
    """
    from phiscrub.io import get_writer
    from phiscrub.synth import SynthConfig, load_refiller
    from phiscrub.synth.pipeline import DetectPolicy, PhiMode
    from phiscrub.synth.run import labelled_format, run_synth

    config = SynthConfig.resolve(
        profile, strategy=strategy, ratio=ratio, mix=mix, detect=cast("DetectPolicy | None", detect),
        lexicon_detector=lexicon, top_k=top_k, phi=cast(PhiMode, phi_mode), detector_model=detector_model,
        fill_blanks=fill_blanks, spellcheck=spellcheck, max_lines=max_lines, max_tokens=max_tokens, seed=seed,
        lang=lang,
    )  # fmt: skip
    docs, problems, used = read_with_problems(input_path, src_fmt, corpus, seed)
    stats = run_synth(
        docs, config, load_refiller(mlm_path), get_writer(dst_fmt), output_path, masked_output=masked_path,
        labelled=labelled_format(used), progress=True,
    )  # fmt: skip
    masked = f" and their masked versions to {masked_path}" if masked_path is not None else ""
    click.echo(
        f"synth {config.strategy.describe()} (phi {config.phi}, seed {seed}): {stats.summary()}; wrote "
        f"{stats.letters} letters to {output_path} ({dst_fmt}){masked}; reader problems: {len(problems)}",
        err=True,
    )
