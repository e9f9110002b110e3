from __future__ import annotations

import subprocess
import sys

import phiscrub


def test_all_is_sorted_and_importable() -> None:
    assert phiscrub.__all__ == sorted(phiscrub.__all__)
    for name in phiscrub.__all__:
        assert getattr(phiscrub, name) is not None


def test_importing_phiscrub_does_not_import_torch() -> None:
    code = (
        "import sys, phiscrub; phiscrub.Deidentifier(model=None).redact('x'); print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_deidentifier_redacts_a_string() -> None:
    out = phiscrub.Deidentifier(model=None).redact("Seen by Dr. Alan Grant on 03/12/2019.")
    assert out.text == "Seen by Dr. [NAME] on [DATE]."
    assert [out.text[s.start : s.end] for s in out.result.spans] == ["[NAME]", "[DATE]"]
