"""Secrets and reversibility (issue 14, part 6): ``redact --vault``, ``reidentify``, ``--key-file``.

The real commands run on real files (rules only: the model is not the point). All PHI is invented.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli._secrets import KEY_ON_COMMAND_LINE_WARNING
from phiscrub.cli.app import cli
from phiscrub.runs.vault import MAGIC, VaultError, read_vault

SECRET = "correct horse battery staple 7"
NOTES = {
    "n1": "Seen by Dr. Zoltan Quenwick on 03/12/2019.\r\nMRN 0048-2231, call 617-555-0134.\r\n",
    "sub/n2": "Pt Hal Brixby (DOB 2/3/1941), SSN 123-45-6789, e-mail hbrixby@example.org. Café on Elm.\n",
    "n3": "No identifiers in this one.\n",
}
PHI = ("Quenwick", "03/12/2019", "0048-2231", "617-555-0134", "Brixby", "2/3/1941", "123-45-6789", "hbrixby")


def notes_folder(root: Path) -> Path:
    folder = root / "notes"
    for doc_id, text in NOTES.items():
        path = folder / f"{doc_id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return folder


def run(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PHISCRUB_KEY": None, **(env or {})})
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.output
    )
    return result.exit_code, result.output


@pytest.fixture()
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.key"
    path.write_text(SECRET + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("mode", ["surrogate", "placeholder", "mask"])
def test_redact_then_reidentify_gives_the_original_bytes(tmp_path: Path, key_file: Path, mode: str) -> None:
    notes = notes_folder(tmp_path)
    out, vault, back = tmp_path / "out", tmp_path / "run.vault", tmp_path / "back"
    code, log = run(
        "redact", notes, "-o", out, "--rules-only", "--mode", mode, "--vault", vault, "--key-file", key_file
    )
    assert code == 0, log
    red = (out / "n1.txt").read_text(encoding="utf-8")
    assert "Quenwick" not in red and "0048-2231" not in red
    code, log = run("reidentify", out, "-o", back, "--vault", vault, "--key-file", key_file)
    assert code == 0, log
    for doc_id, text in NOTES.items():
        assert (back / f"{doc_id}.txt").read_bytes() == text.encode("utf-8")
    assert "re-identified 3 documents" in log


def test_jsonl_records_come_back_with_every_string(tmp_path: Path) -> None:
    src = tmp_path / "notes.jsonl"
    records = [
        {"id": "a1", "text": NOTES["n1"], "author": "Dr. Zoltan Quenwick"},
        {"id": "a2", "text": NOTES["sub/n2"], "author": "Hal Brixby"},
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out, vault, back = tmp_path / "out", tmp_path / "v", tmp_path / "back"
    env = {"PHISCRUB_KEY": SECRET}
    code, log = run("redact", src, "-o", out, "--rules-only", "--id-field", "id", "--vault", vault, env=env)
    assert code == 0, log
    assert "Quenwick" not in (out / "notes.jsonl").read_text(encoding="utf-8")
    code, log = run("reidentify", out, "-o", back, "--vault", vault, env=env)
    assert code == 0, log
    got = [json.loads(line) for line in (back / "notes.jsonl").read_text(encoding="utf-8").splitlines()]
    assert got == records


def test_a_wrong_key_fails_cleanly_and_writes_nothing(tmp_path: Path, key_file: Path) -> None:
    notes = notes_folder(tmp_path)
    out, vault, back = tmp_path / "out", tmp_path / "v", tmp_path / "back"
    assert run("redact", notes, "-o", out, "--rules-only", "--vault", vault, "--key-file", key_file)[0] == 0
    code, log = run("reidentify", out, "-o", back, "--vault", vault, env={"PHISCRUB_KEY": SECRET + "x"})
    assert code == 2 and "wrong key" in log and not back.exists()
    with pytest.raises(VaultError):
        read_vault(vault, b"another secret")
    docs, info = read_vault(vault, SECRET.encode())
    assert set(docs) == {"n1", "sub/n2"} and info["output"] == "."  # n3 had nothing to replace


def test_an_altered_vault_or_output_is_refused(tmp_path: Path, key_file: Path) -> None:
    notes = notes_folder(tmp_path)
    out, vault = tmp_path / "out", tmp_path / "v"
    assert run("redact", notes, "-o", out, "--rules-only", "--vault", vault, "--key-file", key_file)[0] == 0
    raw = bytearray(vault.read_bytes())
    raw[-5] ^= 1
    (tmp_path / "bad.vault").write_bytes(bytes(raw))
    code, log = run(
        "reidentify", out, "-o", tmp_path / "b1", "--vault", tmp_path / "bad.vault", "--key-file", key_file
    )
    assert code == 2 and "altered" in log
    (out / "n1.txt").write_text("Seen by somebody else entirely.\n", encoding="utf-8")
    code, log = run("reidentify", out, "-o", tmp_path / "b2", "--vault", vault, "--key-file", key_file)
    assert code == 1 and "n1" in log and "Quenwick" not in log
    assert (tmp_path / "b2" / "sub" / "n2.txt").read_bytes() == NOTES["sub/n2"].encode("utf-8")


def test_the_vault_holds_no_plaintext_phi_and_is_private(tmp_path: Path, key_file: Path) -> None:
    notes = notes_folder(tmp_path)
    vault = tmp_path / "v"
    assert (
        run(
            "redact", notes, "-o", tmp_path / "out", "--rules-only", "--vault", vault, "--key-file", key_file
        )[0]
        == 0
    )
    raw = vault.read_bytes()
    assert raw.startswith(MAGIC)
    for secret_text in (*PHI, SECRET, "Zoltan", "Hal"):
        assert secret_text.encode("utf-8") not in raw
        assert secret_text.encode("utf-16-le") not in raw
    assert vault.stat().st_mode & 0o077 == 0  # readable by its owner only


def test_no_vault_unless_asked_and_none_without_a_secret(tmp_path: Path) -> None:
    notes = notes_folder(tmp_path)
    code, _ = run("redact", notes, "-o", tmp_path / "out", "--rules-only")
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "errors.jsonl",
        "n1.txt",
        "n3.txt",
        "phi_spans.jsonl",
        "sub",
    ]
    code, log = run("redact", notes, "-o", tmp_path / "out2", "--rules-only", "--vault", tmp_path / "v")
    assert code == 2 and "--vault needs a secret" in log and not (tmp_path / "v").exists()


def test_the_key_is_never_echoed_and_a_typed_key_warns(tmp_path: Path, key_file: Path) -> None:
    notes = notes_folder(tmp_path)
    out = tmp_path / "typed"
    code, log = run("redact", notes, "-o", out, "--rules-only", "--mode", "surrogate", "--key", SECRET)
    assert code == 0 and KEY_ON_COMMAND_LINE_WARNING in log
    code, quiet = run("redact", notes, "-o", tmp_path / "env", "--rules-only", "--mode", "surrogate",
                      env={"PHISCRUB_KEY": SECRET})  # fmt: skip
    assert code == 0 and KEY_ON_COMMAND_LINE_WARNING not in quiet
    code, from_file = run("redact", notes, "-o", tmp_path / "file", "--rules-only", "--mode", "surrogate",
                          "--key-file", key_file)  # fmt: skip
    assert code == 0 and KEY_ON_COMMAND_LINE_WARNING not in from_file
    # The same secret by any route gives the same surrogates; it is in no output, log or file.
    assert (tmp_path / "env" / "n1.txt").read_bytes() == (tmp_path / "file" / "n1.txt").read_bytes()
    for text in (log, quiet, from_file):
        assert SECRET not in text
    for path in (tmp_path / "typed").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes()
    code, both = run("redact", notes, "-o", tmp_path / "both", "--key", SECRET, "--key-file", key_file)
    assert code == 2 and SECRET not in both


def test_a_killed_then_resumed_run_still_gives_a_complete_vault(tmp_path: Path, key_file: Path) -> None:
    """SIGKILL after a few batches, ``--resume --vault``: the vault covers the replayed batches too."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from phiscrub.runs.manifest import MANIFEST_NAME, WORK_DIR_NAME

    notes = tmp_path / "many"
    notes.mkdir()
    texts = {f"n{i:03d}": NOTES["n1"].replace("0048-2231", f"0048-{i:04d}") * 40 for i in range(120)}
    for doc_id, text in texts.items():
        (notes / f"{doc_id}.txt").write_bytes(text.encode("utf-8"))
    out, vault, back = tmp_path / "out", tmp_path / "v", tmp_path / "back"
    args = ["redact", str(notes), "-o", str(out), "--rules-only", "--mode", "surrogate", "--batch-size", "2",
            "--vault", str(vault), "--key-file", str(key_file)]  # fmt: skip
    env = {**{k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}, "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "phiscrub.cli", *args]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manifest = out / WORK_DIR_NAME / MANIFEST_NAME
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if manifest.exists() and manifest.read_bytes().count(b"\n") >= 4:  # header + 3 batches
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.002)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    assert not vault.exists()
    resumed = subprocess.run(
        [*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert resumed.returncode == 0 and "resumed from an interrupted run" in resumed.stderr, resumed.stderr
    code, log = run("reidentify", out, "-o", back, "--vault", vault, "--key-file", key_file)
    assert code == 0, log
    for doc_id, text in texts.items():
        assert (back / f"{doc_id}.txt").read_bytes() == text.encode("utf-8")
