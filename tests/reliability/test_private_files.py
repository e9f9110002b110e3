"""Files holding PHI in clear are private, and a vault's KDF cannot be edited (issue 28, items 7, 10).

Real ``redact``/``reidentify`` runs (rules only) on invented notes; modes are read from the files.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.runs.vault import MAGIC

SECRET = "correct horse battery staple 7"
NOTES = {
    "n1": "Seen by Dr. Zoltan Quenwick on 03/12/2019. MRN 0048-2231.\n",
    "sub/n2": "Pt Hal Brixby (DOB 2/3/1941), call 617-555-0134.\n",
    "n3": "Nothing here.\n",
}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PHISCRUB_KEY": None})
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.output
    )
    return result.exit_code, result.output


@pytest.fixture()
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    for doc_id, text in NOTES.items():
        path = folder / f"{doc_id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture()
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.key"
    path.write_text(SECRET + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.fixture(autouse=True)
def _usual_umask() -> object:
    """Run under the common 022 umask, so that 0644 is what an unprotected file gets."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_reidentify_output_is_0600_in_0700_folders(tmp_path: Path, notes: Path, key_file: Path) -> None:
    out, vault, back = tmp_path / "out", tmp_path / "run.vault", tmp_path / "back"
    assert run("redact", notes, "-o", out, "--rules-only", "--vault", vault, "--key-file", key_file)[0] == 0
    code, log = run("reidentify", out, "-o", back, "--vault", vault, "--key-file", key_file)
    assert code == 0, log
    assert (back / "n1.txt").read_text(encoding="utf-8") == NOTES["n1"]
    files = [p for p in back.rglob("*") if p.is_file()]
    assert files and all(mode(p) == 0o600 for p in files), {str(p): oct(mode(p)) for p in files}
    folders = [back, *(p for p in back.rglob("*") if p.is_dir())]
    assert all(mode(p) == 0o700 for p in folders), {str(p): oct(mode(p)) for p in folders}


def test_reidentify_tightens_an_existing_output_folder(tmp_path: Path, key_file: Path) -> None:
    src = tmp_path / "notes.jsonl"
    src.write_text(json.dumps({"id": "a", "text": NOTES["n1"]}) + "\n", encoding="utf-8")
    out, vault, back = tmp_path / "out", tmp_path / "v", tmp_path / "back"
    back.mkdir(mode=0o755)
    os.chmod(back, 0o755)
    assert run("redact", src, "-o", out, "--rules-only", "--vault", vault, "--key-file", key_file)[0] == 0
    code, log = run("reidentify", out, "-o", back, "--vault", vault, "--key-file", key_file)
    assert code == 0, log
    assert mode(back) == 0o700 and mode(back / "notes.jsonl") == 0o600


def test_audit_text_standoff_is_0600_in_a_0700_folder(tmp_path: Path, notes: Path) -> None:
    out = tmp_path / "out"
    code, log = run("redact", notes, "-o", out, "--rules-only", "--audit-text")
    assert code == 0, log
    standoff = out / "phi_spans.jsonl"
    assert "Quenwick" in standoff.read_text(encoding="utf-8")  # it does hold PHI strings
    assert mode(standoff) == 0o600 and mode(out) == 0o700


def test_without_audit_text_the_outputs_keep_the_usual_modes(tmp_path: Path, notes: Path) -> None:
    out = tmp_path / "out"
    assert run("redact", notes, "-o", out, "--rules-only")[0] == 0
    assert mode(out / "phi_spans.jsonl") == 0o644 and mode(out / "n1.txt") == 0o644


def test_audit_text_parts_are_private_while_the_run_goes_on(
    tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run stopped before placing its output keeps its parts (with PHI strings): 0600 in 0700."""
    import phiscrub.runs.redact as runs

    def fail(staging: Path, out_dir: Path) -> None:
        standoff = staging / "phi_spans.jsonl"
        assert mode(standoff) == 0o600 and mode(staging) == 0o700 and mode(staging.parent) == 0o700
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runs, "_commit", fail)
    out = tmp_path / "out"
    code, log = run("redact", notes, "-o", out, "--rules-only", "--audit-text", "--batch-size", "1")
    assert code != 0 and "--resume" in log, log
    work = out / ".phiscrub-run"
    parts = sorted((work / "parts").iterdir())
    assert len(parts) == 3 and any(b"Quenwick" in p.read_bytes() for p in parts)
    assert all(mode(p) == 0o600 for p in [*parts, work / "manifest.jsonl"])
    assert mode(work) == 0o700 and mode(work / "parts") == 0o700


def test_a_vault_with_edited_kdf_parameters_is_refused_with_exit_2(
    tmp_path: Path, notes: Path, key_file: Path
) -> None:
    out, vault = tmp_path / "out", tmp_path / "run.vault"
    assert run("redact", notes, "-o", out, "--rules-only", "--vault", vault, "--key-file", key_file)[0] == 0
    raw = vault.read_bytes()
    header, sealed = raw[len(MAGIC) :].split(b"\n", 1)
    fields = json.loads(header)
    for edit in ({"n": 2**30}, {"r": 1}, {"p": 64}):
        edited = tmp_path / "edited.vault"
        edited.write_bytes(MAGIC + json.dumps({**fields, **edit}, sort_keys=True).encode() + b"\n" + sealed)
        back = tmp_path / f"back-{next(iter(edit))}"
        code, log = run("reidentify", out, "-o", back, "--vault", edited, "--key-file", key_file)
        assert code == 2, log
        assert "key-derivation parameters" in log and "Traceback" not in log
        assert not back.exists()
