"""Shared pieces of the CLI commands: reading with problem reports, and the options several commands take.

Each option decorator declares one option (names, type, default, help) once; a command states only what
differs (its own help text, a default). Attributes left at ``None`` (but ``default``) are not passed to
click, so each option is exactly what the plain ``click.option`` it replaces gave.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
from tqdm import tqdm

from phiscrub.document import Document
from phiscrub.io.base import Problem
from phiscrub.labels import GRANULARITIES

__all__ = [
    "CORPUS_HELP",
    "CORPUS_OUTPUT_HELP",
    "CORPUS_OUT_FORMATS",
    "LABEL_GRANULARITIES",
    "SURROGATE_LANGS",
    "batch_size_option",
    "choice_option",
    "corpus_option",
    "corpus_out_format_option",
    "draws_option",
    "existing_path_option",
    "guard_option",
    "input_argument",
    "input_format_option",
    "labels_option",
    "lexicon_option",
    "model_option",
    "output_option",
    "policy_option",
    "propagate_option",
    "read_with_problems",
    "rules_lang_option",
    "seed_option",
    "surrogate_lang_option",
    "threshold_option",
]

F = TypeVar("F", bound=Callable[..., Any])

#: Formats a labelled corpus can be written in by ``augment`` and ``synth`` (``--to``).
CORPUS_OUT_FORMATS: list[str] = ["jsonl", "brat", "i2b2", "conll", "csv", "parquet"]

#: Label granularities of ``--labels`` (coarse: the 7 PHI types).
LABEL_GRANULARITIES: list[str] = sorted(GRANULARITIES)

#: Surrogate languages of ``augment`` and ``synth`` (``--lang``); ``auto`` detects per document.
SURROGATE_LANGS: list[str] = ["auto", "en", "es", "ca", "zh"]

#: Help of ``-o/--output`` for a labelled corpus written in the ``--to`` format.
CORPUS_OUTPUT_HELP = "Output file (jsonl, csv, parquet) or folder (brat, i2b2, conll)."

#: Help of ``--corpus`` where the command reads one input corpus.
CORPUS_HELP = "Label mapping of the input: meddocan, i2b2-2006, i2b2-2014, ..."


def _option(*param_decls: str, **attrs: Any) -> Callable[[F], F]:
    """``click.option`` without the attributes that are ``None`` (click's own "not given"), but ``default``.

    A ``default`` that is passed is kept even when ``None``: a ``--flag/--no-flag`` with ``default=None``
    gives ``None`` when not given, whereas one without a default gives ``False``.

    Args:
        param_decls: Option names and, optionally, the parameter name.
        attrs: ``click.Option`` attributes; those set to ``None``, ``default`` excepted, are dropped.
    """
    return click.option(*param_decls, **{k: v for k, v in attrs.items() if v is not None or k == "default"})


def choice_option(*param_decls: str, choices: Sequence[str], default: str, help: str) -> Callable[[F], F]:
    """An option taking one of ``choices``, with its default shown in the help.

    Args:
        param_decls: Option names and, optionally, the parameter name.
        choices: The accepted values.
        default: The value when the option is not given.
        help: Help text.
    """
    return click.option(
        *param_decls, type=click.Choice(list(choices)), default=default, show_default=True, help=help
    )


def input_argument(name: str = "input_path", metavar: str | None = "INPUT") -> Callable[[F], F]:
    """The input corpus argument: an existing file or folder.

    Args:
        name: Parameter name passed to the command function.
        metavar: Name shown in the usage line (``None``: the upper-cased ``name``).
    """
    return click.argument(name, metavar=metavar, type=click.Path(exists=True, path_type=Path))


def existing_path_option(
    *param_decls: str,
    help: str | None = None,
    required: bool = False,
    multiple: bool = False,
    file_okay: bool = True,
    dir_okay: bool = True,
) -> Callable[[F], F]:
    """An option naming an existing file or folder (a corpus, a model, a config).

    Args:
        param_decls: Option names and, optionally, the parameter name.
        help: Help text.
        required: Whether the option must be given.
        multiple: Whether the option is repeatable (the value is then a tuple).
        file_okay: Whether a file is accepted.
        dir_okay: Whether a folder is accepted.
    """
    path = click.Path(exists=True, file_okay=file_okay, dir_okay=dir_okay, path_type=Path)
    # An optional single path defaults to None; a required or repeatable one has no default.
    default: dict[str, Any] = {} if required or multiple else {"default": None}
    return _option(*param_decls, type=path, help=help, required=required, multiple=multiple, **default)


def output_option(
    dest: str = "output_path",
    help: str = CORPUS_OUTPUT_HELP,
    *,
    required: bool = True,
    default: Path | None = None,
    folder: bool = False,
    long: str = "--output",
) -> Callable[[F], F]:
    """``-o/--output``: where the command writes its result.

    Args:
        dest: Parameter name passed to the command function.
        help: Help text (what is written there).
        required: Whether the option must be given.
        default: Default path when not required, shown in the help (``None``: none).
        folder: Whether only a folder (not a file) is accepted.
        long: The long name (``--output``; ``--out`` where a command has always called it so).
    """
    given: dict[str, Any] = {} if required else {"default": default}
    return _option(
        "-o",
        long,
        dest,
        required=required,
        type=click.Path(file_okay=not folder, path_type=Path),
        show_default=True if default is not None else None,
        help=help,
        **given,
    )


def input_format_option(
    *param_decls: str, help: str = "Input format (default: guess).", choices: Sequence[str] | None = None
) -> Callable[[F], F]:
    """The format of an input corpus; not given: guessed from the path.

    Args:
        param_decls: Option names and parameter name (default ``--format``, passed as ``fmt``).
        help: Help text.
        choices: Accepted format names (``None``: any name; the reader registry checks it).
    """
    return _option(
        *(param_decls or ("--format", "fmt")),
        type=click.Choice(list(choices)) if choices is not None else None,
        default=None,
        help=help,
    )


def corpus_option(*param_decls: str, help: str = CORPUS_HELP) -> Callable[[F], F]:
    """The label mapping of an input corpus (``meddocan``, ``i2b2-2014``, ...).

    Args:
        param_decls: Option names and parameter name (default ``--corpus``).
        help: Help text.
    """
    return _option(*(param_decls or ("--corpus",)), default=None, help=help)


def labels_option(
    help: str | None = None, *, default: str | None = "coarse", native: bool = False
) -> Callable[[F], F]:
    """``--labels``: the label granularity (coarse, fine, phicon5; ``native`` where allowed).

    Args:
        help: Help text (``None``: none).
        default: Default granularity, shown in the help (``None``: no default).
        native: Also offer ``native``: the corpus's own labels (with ``--corpus``).
    """
    return _option(
        "--labels",
        type=click.Choice([*LABEL_GRANULARITIES, "native"] if native else LABEL_GRANULARITIES),
        default=default,
        show_default=True if default is not None else None,
        help=help,
    )


def seed_option(help: str | None = None, *, default: int | None = 0) -> Callable[[F], F]:
    """``--seed``: the base seed of a run.

    Args:
        help: Help text (what the seed drives; ``None``: none).
        default: Default seed, shown in the help (``None``: no default).
    """
    return _option(
        "--seed",
        type=int,
        default=default,
        show_default=True if default is not None else None,
        help=help,
    )


def draws_option() -> Callable[[F], F]:
    """``--draws``: surrogate draws per note when the input is placeholder notes."""
    return click.option(
        "--draws", default=1, show_default=True, help="Surrogate draws per note for placeholder input."
    )


def corpus_out_format_option() -> Callable[[F], F]:
    """``--to``: the format a labelled corpus is written in (one of :data:`CORPUS_OUT_FORMATS`)."""
    return click.option(
        "--to", "dst_fmt", type=click.Choice(CORPUS_OUT_FORMATS), default="jsonl", show_default=True
    )


def surrogate_lang_option(help: str) -> Callable[[F], F]:
    """``--lang``: the surrogate language (one of :data:`SURROGATE_LANGS`, default ``auto``).

    Args:
        help: Help text.
    """
    return click.option(
        "--lang", type=click.Choice(SURROGATE_LANGS), default="auto", show_default=True, help=help
    )


def rules_lang_option(help: str | None = None) -> Callable[[F], F]:
    """``--lang``: the language of the notes (default ``default``: per note, English unless the note
    is clearly another language, which is then handled as under ``auto``; :mod:`phiscrub.language`).

    Args:
        help: Help text (``None``: none).
    """
    return _option("--lang", default="default", show_default=True, help=help)


def model_option(help: str) -> Callable[[F], F]:
    """``--model``: the tagger model folder, or ``default`` for the bundled model.

    Args:
        help: Help text.
    """
    return click.option("--model", default="default", show_default=True, help=help)


def lexicon_option(help: str, *, default: bool | None = False) -> Callable[[F], F]:
    """``--lexicon/--no-lexicon``: add the lexicon detector.

    Args:
        help: Help text.
        default: Default, shown in the help (``None``: not given, the command's config decides).
    """
    return _option(
        "--lexicon/--no-lexicon",
        default=default,
        show_default=True if default is not None else None,
        help=help,
    )


def _on_by_default(decl: str, help: str) -> Callable[[F], F]:
    """A ``--x/--no-x`` flag that is on unless turned off."""
    return click.option(decl, default=True, show_default=True, help=help)


def propagate_option() -> Callable[[F], F]:
    """``--propagate/--no-propagate``: tag other occurrences of detected names in the same note."""
    return _on_by_default(
        "--propagate/--no-propagate", "Tag other occurrences of detected names in the same note."
    )


def policy_option(help: str | None = None, *, default: str | None = None) -> Callable[[F], F]:
    """``--policy``: what counts as PHI (:mod:`phiscrub.policy`); not given: ``default``, or (None)
    the language's default.

    Args:
        help: Help text (``None``: the standard one).
        default: Default policy, shown in the help (``None``: by language).
    """
    from phiscrub.policy import POLICIES

    return _option(
        "--policy",
        type=click.Choice(list(POLICIES)),
        default=default,
        show_default=True if default is not None else None,
        help=help
        or "What counts as PHI (docs/policy.md). Default: safe-harbor for English, i2b2 for other languages.",
    )


def guard_option() -> Callable[[F], F]:
    """``--guard/--no-guard``: the clinical-context guard (:mod:`phiscrub.detect.clinical`)."""
    return _on_by_default(
        "--guard/--no-guard",
        "Drop spans that are clinical measurements or vocabulary (vitals, times, care units, drugs); English.",
    )


def threshold_option() -> Callable[[F], F]:
    """``--threshold``: drop proposed spans whose calibrated score is below it (recall/precision knob)."""
    from phiscrub.deid import DEFAULT_THRESHOLD

    return click.option(
        "--threshold",
        type=click.FloatRange(0.0, 1.0),
        default=DEFAULT_THRESHOLD,
        show_default=True,
        help="Drop proposed spans scoring below this (0-1): higher is fewer, surer spans (docs/model.md).",
    )


def batch_size_option() -> Callable[[F], F]:
    """``--batch-size``: documents per detection batch (default 16)."""
    return click.option("--batch-size", default=16, show_default=True, type=int)


def read_with_problems(
    path: Path, fmt: str | None, corpus: str | None = None, seed: int = 0, draws: int = 1
) -> tuple[list[Document], list[Problem], str]:
    """Read one corpus with a progress bar; print each reading problem (ids and offsets only).

    Args:
        path: Corpus file or folder.
        fmt: Reader name (``None``: guessed from the path).
        corpus: Label mapping of the corpus.
        seed: Seed of the surrogate fill (placeholder input).
        draws: Surrogate draws per note (placeholder input).

    Returns:
        The documents, the problems, and the format actually used.
    """
    from phiscrub.io import detect_format, get_reader

    used = fmt or detect_format(path)
    opts: dict[str, object] = {"corpus": corpus, "seed": seed}
    if used == "placeholder":
        opts["draws"] = draws
    reader = get_reader(used, **opts)
    docs = list(tqdm(reader.read(path), desc="read", unit="doc", file=sys.stderr, delay=1.0))
    for problem in reader.problems:
        click.echo(f"problem: {problem}", err=True)
    return docs, list(reader.problems), used
