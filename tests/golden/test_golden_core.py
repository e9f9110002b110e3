"""Golden tests of the redaction core: ``redact``, ``predict``, ``evaluate`` and ``reidentify`` on the
example data (``examples/notes``, ``examples/gold``) give the recorded output.

Same rules as ``test_golden.py`` (whose comparison this reuses): every file a command writes, plus its
stdout and stderr summary, is compared with ``tests/golden/data/<case>/``. These cases were recorded on
commit d24a7f9, before the issue-13 moves of io/, transform/ and cli/; where an intended change of
behaviour altered a recorded file, the commit that re-recorded it says why.

The default cases run the bundled ONNX model: its int8 arithmetic is deterministic for one batch
composition, and every case here runs one fixed batch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_golden import GOLD, NOTES, Case, _run, run_case

pytestmark = pytest.mark.usefixtures("one_torch_thread")

KEY = "golden-test-key-not-a-secret"
NOTES_ES = Path(__file__).parent / "notes_es"

CORE = [
    Case("redact-notes-default", lambda out, fx: [
        "redact", str(NOTES), "-o", str(out / "red")]),
    Case("redact-notes-rules-surrogate", lambda out, fx: [
        "redact", str(NOTES), "-o", str(out / "red"), "--rules-only", "--mode", "surrogate", "--key", KEY]),
    # Issue 29: --lang reaches the surrogates (Spanish names, day-first dates shifted as such).
    Case("redact-notes-es-surrogate", lambda out, fx: [
        "redact", str(NOTES_ES), "-o", str(out / "red"), "--rules-only", "--lang", "es", "--mode", "surrogate",
        "--key", KEY]),
    Case("redact-jsonl-mask-fine", lambda out, fx: [
        "redact", str(fx["jsonl"]), "-o", str(out / "red"), "--mode", "mask", "--labels", "fine",
        "--id-field", "id"]),
    Case("predict-gold-jsonl", lambda out, fx: [
        "predict", str(GOLD), "-o", str(out / "pred.jsonl"), "--format", "brat"]),
    Case("evaluate-gold-vs-pred", lambda out, fx: [
        "evaluate", "--gold", str(GOLD), "--pred", str(fx["pred"]), "--gold-format", "brat",
        "-o", str(out / "eval"), "--labels", "fine"]),
    Case("reidentify-notes", lambda out, fx: [
        "reidentify", str(fx["redacted"]), "--vault", str(fx["vault"]), "-o", str(out / "restored"),
        "--key", KEY]),
]  # fmt: skip


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The gold examples as JSONL, a prediction of them, and a surrogate run with its vault."""
    base = tmp_path_factory.mktemp("golden-core-inputs")
    fx: dict[str, Path] = {"jsonl": base / "gold.jsonl", "pred": base / "pred.jsonl"}
    _run(["convert", str(GOLD), str(fx["jsonl"]), "--from", "brat", "--to", "jsonl"])
    _run(["predict", str(GOLD), "-o", str(fx["pred"]), "--format", "brat"])
    fx["redacted"], fx["vault"] = base / "red", base / "vault.bin"
    _run(["redact", str(NOTES), "-o", str(fx["redacted"]), "--rules-only", "--mode", "surrogate", "--key", KEY,
          "--vault", str(fx["vault"])])  # fmt: skip
    return fx


@pytest.mark.parametrize("case", CORE, ids=[c.name for c in CORE])
def test_core_command_output_matches_golden(case: Case, fixtures: dict[str, Path], tmp_path: Path) -> None:
    run_case(case, fixtures, tmp_path)
