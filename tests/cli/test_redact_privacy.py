"""``phiscrub redact`` never writes a note in clear and says what went wrong (issue 18).

Every test runs the real command (``python -m phiscrub.cli`` in a subprocess, so exit codes are those
a shell sees) on real files. Exit codes: 0 all redacted, 1 some documents failed (written empty,
listed in errors.jsonl), 2 start-up error (nothing written), 3 the run stopped part-way (nothing of
the run kept).

Unreadable inputs: tests run as root, where ``chmod 000`` does not stop reading, so an unreadable
note is made another way: bytes that are not UTF-8, a fifo, a dangling symbolic link, and a link to
a folder, each named ``*.txt``.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.deid import Deidentifier
from phiscrub.document import Document
from phiscrub.errors import ConfigError

# Synthetic PHI only.
PHI_NOTE = "Seen by Dr. Zoltan Quenwick on 03/12/2019, MRN 0048-2231, call 617-555-0134.\n"
PHI_STRINGS = ("Quenwick", "03/12/2019", "0048-2231", "617-555-0134")


def _phiscrub(
    *args: str | Path,
    env: dict[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a subprocess, without ``$PHISCRUB_KEY`` unless ``env`` sets it."""
    full_env = {k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}
    full_env.update({"OMP_NUM_THREADS": "1", **(env or {})})
    cmd = [sys.executable, "-m", "phiscrub.cli", *map(str, args)]
    return subprocess.run(
        cmd, capture_output=True, text=True, env=full_env, timeout=300, preexec_fn=preexec_fn, check=False
    )


def _files(folder: Path) -> dict[str, bytes]:
    """Every regular file under ``folder`` (relative path -> bytes); hidden staging folders included."""
    if not folder.exists():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _assert_no_phi(*texts: str | bytes) -> None:
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        for phi in PHI_STRINGS:
            assert phi not in s


def _errors(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "errors.jsonl").read_text(encoding="utf-8").splitlines()]


# -- case 2: -o is an existing file -----------------------------------------------------------------


def test_output_that_is_an_existing_file_is_a_startup_error(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    target = tmp_path / "out"
    target.write_text("keep me", encoding="utf-8")
    r = _phiscrub("redact", tmp_path / "in", "-o", target, "--rules-only")
    assert r.returncode == 2
    assert "is a file" in r.stderr
    assert target.read_text(encoding="utf-8") == "keep me"


# -- case 3 and 5: unreadable, symlinked and dangling .txt entries in a folder ------------------------


def _make_entry(folder: Path, kind: str) -> str:
    """Create one ``.txt`` entry that cannot be read as a note; return the read-error code expected."""
    if kind == "not_utf8":
        (folder / "bad.txt").write_bytes(b"Zoltan Quenwick \xff\xfe 0048-2231")
        return "decode_error"
    if kind == "fifo":
        os.mkfifo(folder / "bad.txt")
        return "not_regular_file"
    if kind == "dangling_symlink":
        (folder / "bad.txt").symlink_to(folder / "no-such-target.txt")
        return "dangling_symlink"
    if kind == "link_to_folder":
        (folder.parent / "elsewhere").mkdir()
        (folder / "bad.txt").symlink_to(folder.parent / "elsewhere", target_is_directory=True)
        return "not_regular_file"
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["not_utf8", "fifo", "dangling_symlink", "link_to_folder"])
def test_unreadable_txt_in_a_folder_fails_that_document_only(tmp_path: Path, kind: str) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    (src / "c.txt").write_text(PHI_NOTE, encoding="utf-8")
    code = _make_entry(src, kind)
    out = tmp_path / "out"
    r = _phiscrub("redact", src, "-o", out, "--rules-only")
    assert r.returncode == 1, r.stderr
    assert _errors(out) == [{"id": "bad", "position": 1, "stage": "read", "error": code}]
    files = _files(out)
    assert files["bad.txt"] == b""  # written empty, never in clear
    assert b"[NAME]" in files["a.txt"] and b"[NAME]" in files["c.txt"]
    _assert_no_phi(r.stderr, *files.values())
    assert "errors: 1 (unreadable: 1, redaction failed: 0)" in r.stderr
    assert f"document bad cannot be read: {code}" in r.stderr


def test_symlinked_txt_in_a_folder_is_followed_and_redacted(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    target = tmp_path / "elsewhere.txt"
    target.write_text(PHI_NOTE, encoding="utf-8")
    (src / "linked.txt").symlink_to(target)
    out = tmp_path / "out"
    r = _phiscrub("redact", src, "-o", out, "--rules-only")
    assert r.returncode == 0, r.stderr
    assert not (out / "linked.txt").is_symlink()
    assert (out / "linked.txt").read_text(encoding="utf-8").startswith("Seen by Dr. [NAME] on [DATE]")
    assert target.read_text(encoding="utf-8") == PHI_NOTE
    assert _errors(out) == []


@pytest.mark.parametrize("kind", ["not_utf8", "fifo"])
def test_unreadable_single_txt_input_is_a_startup_error(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    _make_entry(folder, kind)
    out = tmp_path / "out"
    r = _phiscrub("redact", folder / "bad.txt", "-o", out, "--rules-only")
    assert r.returncode == 2
    assert str(folder / "bad.txt") in r.stderr
    assert not out.exists()
    _assert_no_phi(r.stderr)


# -- case 4: a full disk (a real per-file size limit: writes fail with EFBIG) -------------------------


def _limit_file_size() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))


def test_disk_full_stops_with_a_clear_error_and_leaves_no_output(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(3):  # small notes first: their outputs are written before the big one fails
        (src / f"a{i}.txt").write_text(PHI_NOTE, encoding="utf-8")
    (src / "z_big.txt").write_text(PHI_NOTE * 400, encoding="utf-8")
    out = tmp_path / "out"
    r = _phiscrub("redact", src, "-o", out, "--rules-only", preexec_fn=_limit_file_size)
    assert r.returncode == 3, r.stderr
    assert "EFBIG" in r.stderr and "the run stopped" in r.stderr
    assert f"no file of this run was kept in {out}" in r.stderr
    assert _files(out) == {}  # no partial output, not even in the staging folder
    _assert_no_phi(r.stdout, r.stderr)


def test_disk_full_keeps_the_previous_run_output_untouched(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    assert _phiscrub("redact", src, "-o", out, "--rules-only").returncode == 0
    before = _files(out)
    (src / "a.txt").write_text(PHI_NOTE * 400, encoding="utf-8")
    r = _phiscrub("redact", src, "-o", out, "--rules-only", preexec_fn=_limit_file_size)
    assert r.returncode == 3
    assert _files(out) == before


# -- case 6: ids must be unique ------------------------------------------------------------------------


def test_txt_and_upper_case_TXT_with_one_stem_is_a_startup_error(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    (src / "a.TXT").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    r = _phiscrub("redact", src, "-o", out, "--rules-only")
    assert r.returncode == 2
    assert "a.TXT and a.txt would get the same document id" in r.stderr
    assert not out.exists()


# -- case 7: an empty key ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "env"), [(["--key", ""], None), (["--key", "  "], None), ([], {"PHISCRUB_KEY": " "})]
)
def test_empty_or_blank_key_is_a_startup_error(
    tmp_path: Path, args: list[str], env: dict[str, str] | None
) -> None:
    (tmp_path / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    r = _phiscrub(
        "redact", tmp_path / "a.txt", "-o", out, "--rules-only", "--mode", "surrogate", *args, env=env
    )
    assert r.returncode == 2
    assert "empty or blank" in r.stderr
    assert not out.exists()


@pytest.mark.parametrize("key", ["", "   ", b"", b" \t"])
def test_empty_key_is_refused_by_the_deidentifier(key: str | bytes) -> None:
    with pytest.raises(ConfigError, match="empty or blank"):
        Deidentifier(mode="surrogate", key=key, model=None)
    with pytest.raises(ConfigError, match="empty or blank"):
        Deidentifier(mode="placeholder", key=key, model=None)


# -- case 8: a broken model folder ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def torch_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A torch model folder (``tagger.safetensors``): the bundled ONNX-only model's weights, rebuilt
    from its graph and saved as int8."""
    from phiscrub.detect.tagger import bundled_model_path
    from phiscrub.tagger.model import PhiTagger

    bundled = bundled_model_path()
    assert bundled is not None, "the repository bundles a model in phiscrub/resources/model"
    folder = tmp_path_factory.mktemp("torch") / "model"
    PhiTagger.load(bundled).save(folder, dtype="int8")
    return folder


def _broken_model(tmp_path: Path, how: str, torch_model: Path) -> Path:
    from phiscrub.detect.tagger import bundled_model_path

    bundled = bundled_model_path()
    assert bundled is not None, "the repository bundles a model in phiscrub/resources/model"
    folder = tmp_path / "model"
    shutil.copytree(bundled if "onnx" in how else torch_model, folder)
    weights = folder / "tagger.safetensors"
    if how == "truncated_onnx":
        onnx = folder / "tagger.onnx"
        onnx.write_bytes(onnx.read_bytes()[:100])
    elif how == "onnx_config_not_json":
        (folder / "onnx.json").write_text("{not json", encoding="utf-8")
    elif how == "missing_weights":
        weights.unlink()
    elif how == "truncated_weights":
        weights.write_bytes(weights.read_bytes()[:100])
    elif how == "labels_not_json":
        (folder / "labels.json").write_text("{not json", encoding="utf-8")
    elif how == "weights_do_not_fit":
        import torch
        from safetensors.torch import save_file

        save_file({"head.weight": torch.zeros(2, 2)}, str(weights))
    elif how == "no_folder":
        shutil.rmtree(folder)
    return folder


@pytest.mark.parametrize(
    ("how", "cause"),
    [
        ("missing_weights", "has no tagger.safetensors"),
        ("truncated_weights", "tagger.safetensors is not a readable safetensors file"),
        ("labels_not_json", "labels.json cannot be read as JSON"),
        ("weights_do_not_fit", "do not fit the model"),
        ("no_folder", "does not exist"),
        ("truncated_onnx", "cannot be loaded"),
        ("onnx_config_not_json", "onnx.json cannot be read"),
    ],
)
def test_broken_model_folder_fails_at_startup_with_its_cause(
    tmp_path: Path, how: str, cause: str, torch_model: Path
) -> None:
    model = _broken_model(tmp_path, how, torch_model)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    r = _phiscrub("redact", tmp_path / "in", "-o", out, "--model", model)
    assert r.returncode == 2, r.stderr
    assert "cannot load the model" in r.stderr and cause in r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists()


# -- case 9: an output folder that is, holds, or sits in the input --------------------------------------


@pytest.mark.parametrize(
    ("out_rel", "message"),
    [
        ("in", "is the input folder"),
        ("in/sub", "is inside the input folder"),
        ("in/sub/deeper", "is inside the input folder"),
        (".", "is inside the output folder"),
    ],
)
def test_output_folder_overlapping_the_input_is_refused_before_writing(
    tmp_path: Path, out_rel: str, message: str
) -> None:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    (src / "sub" / "b.txt").write_text(PHI_NOTE, encoding="utf-8")
    before = _files(tmp_path)
    r = _phiscrub("redact", src, "-o", tmp_path / out_rel, "--rules-only")
    assert r.returncode == 2
    assert message in r.stderr
    assert _files(tmp_path) == before  # no phi_spans.jsonl, nothing at all
    assert not (src / "sub" / "deeper").exists()


@pytest.mark.parametrize("name", ["phi_spans.jsonl", "errors.jsonl"])
def test_input_file_named_like_a_report_file_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(json.dumps({"text": PHI_NOTE}) + "\n", encoding="utf-8")
    r = _phiscrub("redact", tmp_path / name, "-o", tmp_path / "out", "--rules-only")
    assert r.returncode == 2
    assert "would clash" in r.stderr


def test_input_file_written_over_itself_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    r = _phiscrub("redact", tmp_path / "a.txt", "-o", tmp_path, "--rules-only")
    assert r.returncode == 2
    assert "would overwrite the input" in r.stderr
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == PHI_NOTE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


# -- messages that could echo user data -------------------------------------------------------------


def test_csv_without_a_header_row_is_refused_without_echoing_its_first_row(tmp_path: Path) -> None:
    src = tmp_path / "notes.csv"
    src.write_text('1,"Zoltan Quenwick, MRN 0048-2231"\n2,"seen 03/12/2019"\n', encoding="utf-8")
    r = _phiscrub("redact", src, "-o", tmp_path / "out", "--rules-only")
    assert r.returncode == 2
    assert "no column 'text' in the first row (2 columns)" in r.stderr
    _assert_no_phi(r.stdout, r.stderr)
    assert not (tmp_path / "out").exists()


# -- case 10: a document whose redaction fails ---------------------------------------------------------


def test_redaction_failure_is_counted_listed_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from phiscrub import deid as deid_module

    real_apply = deid_module.Deidentifier._apply

    def failing_apply(self: Deidentifier, doc, *args):  # type: ignore[no-untyped-def]
        if doc.id == "boom":
            # A third-party error whose message holds note text: it must not reach any output.
            raise RuntimeError(f"tokenizer choked on {doc.text!r}")
        return real_apply(self, doc, *args)

    monkeypatch.setattr(deid_module.Deidentifier, "_apply", failing_apply)
    src = tmp_path / "in"
    src.mkdir()
    for name in ("a", "boom", "c"):
        (src / f"{name}.txt").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only"])
    assert result.exit_code == 1
    assert "redacted 2 documents" in result.output
    assert "errors: 1 (unreadable: 0, redaction failed: 1)" in result.output
    assert _errors(out) == [{"id": "boom", "position": 1, "stage": "redact", "error": "RuntimeError"}]
    assert (out / "boom.txt").read_bytes() == b""
    assert "document boom failed: RuntimeError" in caplog.text
    _assert_no_phi(result.output, caplog.text, *_files(out).values())


@pytest.mark.parametrize(
    ("marker", "code"), [("malformed_json", "malformed_json"), ("line 2: 'Zoltan'", "read_error")]
)
def test_record_marked_with_a_read_error_is_written_empty_and_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str, code: str
) -> None:
    """The contract with the JSONL/CSV sources: ``metadata["read_error"]`` fails that record only;
    a marker that is not a short code (it could be a message) is listed as ``read_error``."""
    from phiscrub.io.shapes import JsonlSource

    real_documents = JsonlSource.documents

    def marking_documents(self: JsonlSource):  # type: ignore[no-untyped-def]
        for doc in real_documents(self):
            if doc.id == "n2":
                doc = Document(doc.id, doc.text, (), {**doc.metadata, "read_error": marker})
            yield doc

    monkeypatch.setattr(JsonlSource, "documents", marking_documents)
    src = tmp_path / "notes.jsonl"
    rows = [{"id": f"n{i}", "text": PHI_NOTE} for i in (1, 2, 3)]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only", "--id-field", "id"])
    assert result.exit_code == 1
    assert _errors(out) == [{"id": "n2", "position": 1, "stage": "read", "error": code}]
    got = [json.loads(line) for line in (out / "notes.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["text"] for g in got][1] == ""
    assert "[NAME]" in got[0]["text"] and "[NAME]" in got[2]["text"]
    _assert_no_phi(result.output, (out / "notes.jsonl").read_text(encoding="utf-8"))


def test_clean_run_exits_0_with_an_empty_error_list(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(PHI_NOTE, encoding="utf-8")
    out = tmp_path / "out"
    r = _phiscrub("redact", tmp_path / "in", "-o", out, "--rules-only")
    assert r.returncode == 0
    assert sorted(_files(out)) == ["a.txt", "errors.jsonl", "phi_spans.jsonl"]
    assert _errors(out) == []


def test_help_documents_the_exit_codes() -> None:
    r = _phiscrub("redact", "--help")
    assert r.returncode == 0
    for line in (
        "0  every document redacted",
        "1  some documents failed",
        "2  usage or start-up error",
        "3  the run stopped",
    ):
        assert line in r.stdout
