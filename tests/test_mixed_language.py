"""An English note quoting the patient in another language (issue 28, item 10).

Under ``--lang auto`` (and ``default``) such a note is decided Spanish and the bundled English model
is left out of it; ``redact`` lists it in ``warnings.jsonl`` with its id and a code only. A real
``redact`` run with the bundled model on invented notes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.detect.mixed_language import MODEL_SKIPPED_WARNING, english_plausible

QUOTED = (
    'Pt seen today with her son. She says: "Me duele mucho la cabeza desde hace tres días y no puedo '
    'dormir, tengo miedo de que sea algo grave, mi madre tuvo un derrame cerebral." Plan: CT head.\n'
)
SPANISH = (
    'Paciente de 45 años que acude por cefalea. Refiere: "me duele mucho la cabeza desde ayer por la '
    'tarde". Exploración normal, sin fiebre, control en una semana.\n'
)
ENGLISH = "Pt seen today with her son. Headache for three days. Plan: CT head.\n"


@pytest.mark.parametrize(
    ("text", "plausible"),
    [(QUOTED, True), (SPANISH, False), (ENGLISH, False), ("Sin comillas. Cefalea.", False)],
)
def test_english_plausible_outside_quotes(text: str, plausible: bool) -> None:
    assert english_plausible(text) is plausible


@pytest.mark.parametrize("lang", ["auto", "default"])
def test_an_english_note_quoting_spanish_that_loses_the_model_is_listed(tmp_path: Path, lang: str) -> None:
    notes = tmp_path / "in"
    notes.mkdir()
    for name, text in (("quoted", QUOTED), ("spanish", SPANISH), ("english", ENGLISH)):
        (notes / f"{name}.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(notes), "-o", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "warnings.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r for r in rows if r.get("warning") == MODEL_SKIPPED_WARNING] == [
        {"id": "quoted", "position": 1, "stage": "detect", "warning": MODEL_SKIPPED_WARNING}
    ]


def test_no_such_warning_when_the_language_is_named(tmp_path: Path) -> None:
    notes = tmp_path / "in"
    notes.mkdir()
    (notes / "quoted.txt").write_text(QUOTED, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(notes), "-o", str(out), "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert not (out / "warnings.jsonl").exists() or MODEL_SKIPPED_WARNING not in (
        out / "warnings.jsonl"
    ).read_text(encoding="utf-8")
