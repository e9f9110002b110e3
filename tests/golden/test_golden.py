"""Golden tests of the research-side commands: ``augment``, ``synth``, ``synth-eval``, ``convert`` and
``experiment`` on the example data (``examples/gold``, ``examples/notes``) give the recorded output.

Each case runs one command in-process (click's runner) and compares every file it writes, plus its
stdout and stderr summary, with ``tests/golden/data/<case>/``. They were recorded before the research
side was restructured (issue 13), so a move that changes behaviour fails here.

Comparison rules:

* text files (``.txt``, ``.ann``, ``.conll``, ``.xml``, ``.md``, ``.jsonl``) byte for byte, after the run's
  temporary folder is replaced by ``<TMP>`` and the repository root by ``<REPO>``;
* ``.json`` files as parsed JSON, with floats equal to 9 significant digits and timing keys (seconds,
  dates, versions, fingerprints of paths) dropped: restructuring may change float summation order,
  never a figure that a table shows; an experiment's echo of every ``TrainConfig`` default is dropped
  too (it grows with unrelated training features);
* stderr: progress-bar lines (tqdm) dropped, the rest byte for byte after normalisation;
* binary files (``.png``, model weights) are only checked to exist.

Regenerate after an intended change with ``PHISCRUB_UPDATE_GOLDEN=1 pytest tests/golden`` and say why
in the commit. The LLM augmenter is not here: it needs a llama.cpp server, whose sampled replies are
only reproducible for one build and thread count (see tests/augment/test_llm.py for its real tests).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli

pytestmark = pytest.mark.usefixtures("one_torch_thread")

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "data"
GOLD = REPO / "examples" / "gold"
NOTES = REPO / "examples" / "notes"
UPDATE = os.environ.get("PHISCRUB_UPDATE_GOLDEN") == "1"

_TEXT_SUFFIXES = {".txt", ".ann", ".conll", ".xml", ".md", ".jsonl", ".csv", ".tsv", ".toml"}
_BINARY_SUFFIXES = {".png", ".safetensors", ".bin", ".pt", ".npz", ".onnx", ".parquet"}
# Keys whose values are wall-clock times, dates, versions or hashes of paths: never reproducible.
_VOLATILE_KEY = re.compile(
    r"(^|_)(s|seconds|secs|time|elapsed|started|finished|date|created|version|fingerprint)$|_s$"
)
_SECONDS = re.compile(r"\d+(\.\d+)? s/")
_PROGRESS = re.compile(r"\r|\d+%\|| it/s|s/it|doc/s|note/s|letter/s")


def _normalise(text: str, tmp: Path) -> str:
    """The case's folder becomes ``<TMP>``, pytest's base folder ``<BASE>``, the repository ``<REPO>``."""
    return text.replace(str(tmp), "<TMP>").replace(str(tmp.parent), "<BASE>").replace(str(REPO), "<REPO>")


def _strip_json(value: Any) -> Any:
    if isinstance(value, dict):
        if "train" in value and "grid" in value:
            # An experiment's config echo: its train table lists every TrainConfig default, which
            # grows with unrelated features; the keys the grid sets are in grid.toml.
            value = {k: v for k, v in value.items() if k != "train"}
        value = {k: v for k, v in value.items() if k != "train_config"}  # a cell's copy of the same
        return {k: _strip_json(v) for k, v in value.items() if not _VOLATILE_KEY.search(str(k))}
    if isinstance(value, list):
        return [_strip_json(v) for v in value]
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.9g}")
    return value


def _stderr_summary(stderr: str, tmp: Path) -> str:
    """Stderr without progress bars (shown only after a delay, so not reproducible) and timings."""
    lines = [line for line in stderr.splitlines() if line.strip() and not _PROGRESS.search(line)]
    text = _SECONDS.sub("<T> s/", "\n".join(lines) + "\n")
    return _normalise(text, tmp)


def _outputs(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def _check_case(name: str, out_root: Path, stdout: str, stderr: str, tmp: Path) -> None:
    """Compare (or, with PHISCRUB_UPDATE_GOLDEN=1, record) every output of one case."""
    golden = GOLDEN / name
    produced: dict[str, str | None] = {}
    for rel, path in _outputs(out_root).items():
        if path.suffix in _BINARY_SUFFIXES:
            produced[rel] = None
        elif path.suffix == ".json":
            data = _strip_json(json.loads(_normalise(path.read_text(encoding="utf-8"), tmp)))
            produced[rel] = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        elif path.suffix in _TEXT_SUFFIXES:
            produced[rel] = _normalise(path.read_text(encoding="utf-8"), tmp)
        else:
            raise AssertionError(f"{name}: output {rel} has no comparison rule; add its suffix")
    produced["_stdout.txt"] = _normalise(stdout, tmp)
    produced["_stderr.txt"] = _stderr_summary(stderr, tmp)
    if UPDATE:
        if golden.exists():
            shutil.rmtree(golden)
        for rel, content in produced.items():
            target = golden / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("" if content is None else content, encoding="utf-8")
        (golden / "_binary.txt").write_text(
            "".join(f"{rel}\n" for rel, c in sorted(produced.items()) if c is None), encoding="utf-8"
        )
        return
    assert golden.is_dir(), f"no golden data for {name}; record it with PHISCRUB_UPDATE_GOLDEN=1"
    binary = set((golden / "_binary.txt").read_text(encoding="utf-8").split())
    expected = {rel for rel in _outputs(golden) if rel != "_binary.txt"}
    assert set(produced) == expected, f"{name}: output files differ"
    for rel, content in produced.items():
        if content is None:
            assert rel in binary, f"{name}: {rel} should be a text output"
            continue
        recorded = (golden / rel).read_text(encoding="utf-8")
        assert content == recorded, f"{name}: {rel} differs from the golden file"


def _run(args: list[str]) -> tuple[str, str]:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


@dataclass(frozen=True)
class Case:
    """One command: ``argv(tmp_out, fixtures)`` gives its arguments; every file under tmp_out is checked."""

    name: str
    argv: Callable[[Path, dict[str, Path]], list[str]]


# ---------------------------------------------------------------------------------------------- augment


def _augment_case(method: str) -> Case:
    return Case(f"augment-{method}", lambda out, fx: [
        "augment", str(GOLD), "-o", str(out / "aug.jsonl"), "--method", method, "--alpha", "2", "--seed", "7",
        "--corpus", "i2b2-2014"])  # fmt: skip


_AUG = [_augment_case(method) for method in ("phi", "context", "phicon", "mr")]
_AUG += [
    Case("augment-phi-es-brat", lambda out, fx: [
        "augment", str(GOLD), "-o", str(out / "aug"), "--method", "phi", "--lang", "es", "--to", "brat",
        "--include-original", "--seed", "1"]),
    Case("augment-daga", lambda out, fx: [
        "augment", str(GOLD), "-o", str(out / "aug.jsonl"), "--method", "daga", "--alpha", "2", "--seed", "3",
        "--daga-epochs", "2"]),
]  # fmt: skip

# ---------------------------------------------------------------------------------------------- convert

_OUT_NAME = {"jsonl": "out.jsonl", "conll": "out.conll", "i2b2": "out", "txt": "out"}


def _convert_case(to: str) -> Case:
    return Case(f"convert-brat-{to}", lambda out, fx: [
        "convert", str(GOLD), str(out / _OUT_NAME[to]), "--from", "brat", "--to", to])  # fmt: skip


_CONVERT = [_convert_case(to) for to in ("jsonl", "conll", "i2b2", "txt")]
_CONVERT += [
    Case("convert-brat-jsonl-coarse", lambda out, fx: [
        "convert", str(GOLD), str(out / "out.jsonl"), "--to", "jsonl", "--labels", "coarse"]),
    Case("convert-jsonl-brat", lambda out, fx: [
        "convert", str(fx["jsonl"]), str(out / "out"), "--from", "jsonl", "--to", "brat"]),
    Case("convert-conll-jsonl", lambda out, fx: [
        "convert", str(fx["conll"]), str(out / "out.jsonl"), "--from", "conll", "--to", "jsonl"]),
    Case("convert-i2b2-jsonl", lambda out, fx: [
        "convert", str(fx["i2b2"]), str(out / "out.jsonl"), "--from", "i2b2", "--to", "jsonl"]),
    Case("convert-placeholder-jsonl", lambda out, fx: [
        "convert", str(fx["placeholder"]), str(out / "out.jsonl"), "--from", "placeholder", "--to", "jsonl",
        "--seed", "5"]),
]  # fmt: skip

# ---------------------------------------------------------------------------------------------- synth

_SYNTH = [
    Case("synth-gold-hybrid", lambda out, fx: [
        "synth", str(GOLD), "-o", str(out / "synth.jsonl"), "--strategy", "hybrid", "--ratio", "0.5",
        "--mlm", str(fx["mlm"]), "--seed", "3", "--write-masked", str(out / "masked.jsonl")]),
    Case("synth-notes-privacy", lambda out, fx: [
        "synth", str(NOTES), "-o", str(out / "synth.jsonl"), "--profile", "privacy", "--mlm", str(fx["mlm"]),
        "--seed", "1"]),
    Case("synth-eval", lambda out, fx: [
        "synth-eval", str(GOLD), str(fx["synth"]), "--masked", str(fx["masked"]), "-o", str(out / "report"),
        "--encoder", str(fx["mlm"])]),
    Case("synth-eval-no-bertscore", lambda out, fx: [
        "synth-eval", str(GOLD), str(fx["synth"]), "-o", str(out / "report"), "--no-bertscore",
        "--ngram", "3"]),
]  # fmt: skip

# ---------------------------------------------------------------------------------------------- experiment

_EXPERIMENT = [
    Case("experiment-tiny", lambda out, fx: [
        "experiment", str(fx["grid"]), "-o", str(out / "exp")]),
]  # fmt: skip

CASES = _AUG + _CONVERT + _SYNTH + _EXPERIMENT


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Inputs the cases share: the gold examples in other formats, a tiny MLM, synth output, a grid."""
    base = tmp_path_factory.mktemp("golden-inputs")
    fx: dict[str, Path] = {}
    for fmt, name in (("jsonl", "gold.jsonl"), ("conll", "gold.conll"), ("i2b2", "gold-i2b2")):
        _run(["convert", str(GOLD), str(base / name), "--from", "brat", "--to", fmt])
        fx[fmt] = base / name
    placeholder = base / "placeholder"
    placeholder.mkdir()
    (placeholder / "p1.txt").write_text(
        "Patient [**Patient Name**] seen on [**2019-03-12**] at [**Hospital**].\n"
        "Call Dr. [**Doctor Last Name**] at [**Telephone/Fax**]. MRN [**Medical Record Number**].\n",
        encoding="utf-8",
    )
    fx["placeholder"] = placeholder
    fx["mlm"] = _tiny_mlm(base / "mlm")
    _run(["synth", str(GOLD), "-o", str(base / "synth.jsonl"), "--strategy", "hybrid", "--ratio", "0.5",
          "--mlm", str(fx["mlm"]), "--seed", "3", "--write-masked", str(base / "masked.jsonl")])  # fmt: skip
    fx["synth"], fx["masked"] = base / "synth.jsonl", base / "masked.jsonl"
    fx["grid"] = _grid(base, fx["jsonl"])
    return fx


def _tiny_mlm(folder: Path) -> Path:
    """A tiny random BERT masked LM whose output bias makes "patient" its best word, "clinic" next."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(folder, kind="bert", max_positions=128)
    tok = AutoTokenizer.from_pretrained(folder)
    torch.manual_seed(0)
    model = BertForMaskedLM(BertConfig.from_pretrained(folder))
    with torch.no_grad():
        model.cls.predictions.bias[tok.convert_tokens_to_ids("patient")] += 50.0
        model.cls.predictions.bias[tok.convert_tokens_to_ids("clinic")] += 40.0
    model.save_pretrained(folder)
    return folder


def _grid(base: Path, train: Path) -> Path:
    """A 1 fraction x (none, phi, mr) x alpha 1 x 1 seed grid on the gold examples, tiny BERT, 1 epoch.

    The examples are both the training pool (as JSONL) and the test corpus (as BRAT): the grid only has
    to run the whole pipeline, its scores mean nothing."""
    from phiscrub.train.tiny import make_tiny_encoder

    encoder = make_tiny_encoder(base / "tiny-bert", kind="bert")
    grid = base / "grid.toml"
    grid.write_text(
        f"""name = "golden"
labels = "coarse"
keep_models = false

[grid]
fractions = [1.0]
methods = ["none", "phi", "mr"]
alphas = [1]
seeds = [1]

[data.train]
path = "{train}"
format = "jsonl"

[data.dev]
held_out = 0.34

[data.test.examples]
path = "{GOLD}"
format = "brat"

[train]
encoder = "{encoder}"
epochs = 1
batch_size = 2
max_length = 32
overlap = 4
lr = 3e-3
num_threads = 1
""",
        encoding="utf-8",
    )
    return grid


def run_case(case: Case, fixtures: dict[str, Path], tmp_path: Path) -> None:
    """Run one case into ``tmp_path/out`` and compare (or record) everything it wrote."""
    out = tmp_path / "out"
    out.mkdir()
    stdout, stderr = _run(case.argv(out, fixtures))
    _check_case(case.name, out, stdout, stderr, tmp_path)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_command_output_matches_golden(case: Case, fixtures: dict[str, Path], tmp_path: Path) -> None:
    run_case(case, fixtures, tmp_path)
