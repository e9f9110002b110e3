"""The default English model shipped inside the package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.tagger import bundled_model_path
from phiscrub.io import read_corpus

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

pytestmark = pytest.mark.slow


def test_bundled_model_is_present_and_small() -> None:
    folder = bundled_model_path()
    assert folder is not None
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert size <= 25 * 2**20


def test_default_deidentifier_removes_every_gold_phi_string_of_the_examples() -> None:
    gold, problems = read_corpus(EXAMPLES / "gold", fmt="brat")
    assert not problems and len(gold) == 3
    deid = Deidentifier(mode="surrogate", key="test-key")
    for doc in gold:
        out = deid.redact(doc).text
        for span in doc.spans:
            surface = doc.text[span.start : span.end]
            if _kept_by_safe_harbor(span.label, surface):
                continue
            assert not re.search(rf"(?<!\w){re.escape(surface)}(?!\w)", out), (doc.id, span.label, span.start)


def _kept_by_safe_harbor(label: str, surface: str) -> bool:
    """Not PHI under the default policy (safe-harbor: ages under 90, states, countries, professions),
    or a year alone or a weekday, which may stay as they are."""
    from phiscrub.policy import is_phi

    if not is_phi(label, "safe-harbor", surface):
        return True
    return label == "DATE" and (re.fullmatch(r"(19|20)\d\d", surface) is not None or surface.endswith("day"))


def test_default_model_finds_untitled_names_and_places() -> None:
    text = "Lives with her daughter Margarethe Oyelaran in Castlebrook. Seen at Kesterwood Medical Center."
    spans = Deidentifier(model="default").detect(text)
    labels = {text[s.start : s.end]: s.label for s in spans}
    assert any("Margarethe" in k for k in labels)
    assert any("Kesterwood" in k for k in labels)


def test_bundled_model_is_onnx_and_the_default_path_imports_neither_torch_nor_transformers(
    tmp_path: Path,
) -> None:
    folder = bundled_model_path()
    assert folder is not None
    assert (folder / "tagger.onnx").is_file() and not (folder / "tagger.safetensors").exists()
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("Patient Alma Quill was seen on 03/04/2019. Plan: rest.\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from phiscrub.cli.app import cli\n"
        f"for args in (['redact', {str(notes)!r}, '-o', {str(tmp_path / 'out')!r}],\n"
        f"             ['predict', {str(notes)!r}, '-o', {str(tmp_path / 'pred.jsonl')!r}]):\n"
        "    try:\n"
        "        cli.main(args, standalone_mode=False)\n"
        "    except SystemExit as exc:\n"
        "        assert not exc.code, exc.code\n"
        "from phiscrub import Deidentifier\n"
        "d = Deidentifier()\n"
        "d.redact('Seen by Dr. Alan Grant on 03/12/2019.')\n"
        # The default lang ("default", issue 27) gates the model per note: the tagger is the gate's inner one.
        "assert type(getattr(d.active_detectors[-1], 'inner', d.active_detectors[-1])).__name__ == 'OnnxTaggerDetector'\n"
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules, 'torch imported'\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "out" / "a.txt").is_file() and (tmp_path / "pred.jsonl").is_file()
