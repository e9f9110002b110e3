"""No PHI in any log (issue 14, part 7).

Every command runs on notes with known synthetic PHI, at the most verbose level (``-v -v``; every log
record at DEBUG is captured too), on good input and on error paths (a malformed JSONL line, a record
whose text is not a string, a note that is not UTF-8, BRAT spans whose recorded surface or offsets do
not match, a label that is itself a PHI string, a wrong vault key, bad HTTP requests). Everything a
user or an operator could see is collected: stdout, stderr, log records, exception tracebacks, and
for the subprocess runs (``redact``, ``serve``) the real process output. None of the PHI strings may
appear in any of it.

Commands: redact (rules only, the bundled model, surrogates, vault), reidentify, convert, evaluate
(scores and --leaks), train (tiny BiLSTM-CRF, one epoch), augment (phicon, mr), synth (tiny random
masked LM) and serve. All PHI is invented.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.io import BratWriter

NOTES = {
    "n1": "Seen by Dr. Zoltan Quenwick on 03/12/2019 at Larkfield Memorial Hospital.\n"
    "MRN 0048-2231. Call 617-555-0134 or write to zquenwick@example.org.\n",
    "n2": "Pt Hal Brixby, 93 years old, SSN 123-45-6789, lives at 41 Orchard Vale Road, Quarry Bend.\n"
    "Daughter Marisol Brixby visits on 2/3/2021.\n",
    "n3": "Follow-up with Dr. Quenwick in two weeks. No other identifiers.\n",
}
#: PHI surface -> label, for the gold spans.
PHI = {
    "Zoltan Quenwick": "DOCTOR",
    "03/12/2019": "DATE",
    "Larkfield Memorial Hospital": "HOSPITAL",
    "0048-2231": "MEDICALRECORD",
    "617-555-0134": "PHONE",
    "zquenwick@example.org": "EMAIL",
    "Hal Brixby": "PATIENT",
    "93": "AGE",
    "123-45-6789": "SSN",
    "41 Orchard Vale Road": "STREET",
    "Quarry Bend": "CITY",
    "Marisol Brixby": "RELATIVE",
    "2/3/2021": "DATE",
    "Quenwick": "DOCTOR",
}
#: The strings searched for in every output: each PHI value, and its distinctive words.
NEEDLES = sorted(
    {s for s in PHI if len(s) > 3} | {"Quenwick", "Zoltan", "Brixby", "Marisol", "Larkfield", "Orchard Vale"}
)
SECRET = "log-test-secret-9f2c"

#: (command, where) pairs checked, for the figure in docs/reliability.md.
CHECKED: list[str] = []


def gold_docs() -> list[Document]:
    docs = []
    for doc_id, text in NOTES.items():
        spans, taken = [], set()
        for surface, label in sorted(PHI.items(), key=lambda kv: -len(kv[0])):
            start = text.find(surface)
            while start >= 0:
                rng = set(range(start, start + len(surface)))
                if not rng & taken:
                    spans.append(Span(start, start + len(surface), label))
                    taken |= rng
                start = text.find(surface, start + 1)
        docs.append(Document(doc_id, text, tuple(spans)))
    return docs


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("logs")
    gold = root / "gold"
    BratWriter().write(gold_docs(), gold)
    # A BRAT note whose annotations are wrong: a surface that does not match (and is PHI), offsets past
    # the end, and a "label" that is a PHI string.
    bad = "Brixby seen again; call 617-555-0134.\n"
    (gold / "bad.txt").write_text(bad, encoding="utf-8")
    (gold / "bad.ann").write_text(
        "T1\tPATIENT 0 6\tQuenwick\nT2\tPHONE 24 99\t617-555-0134\nT3\tBrixby 0 6\tBrixby\nT4\tDATE x y\t03/12/2019\n",
        encoding="utf-8",
    )
    texts = root / "texts"
    texts.mkdir()
    for doc_id, text in NOTES.items():
        (texts / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    (texts / "latin1.txt").write_bytes("Caf\xe9 visit, Hal Brixby, 617-555-0134.\n".encode("latin-1"))
    records = root / "notes.jsonl"
    lines = [json.dumps({"id": k, "text": v, "author": "Zoltan Quenwick"}) for k, v in NOTES.items()]
    lines.insert(1, '{"id": "broken", "text": "Hal Brixby 617-555-0134')  # malformed JSON
    lines.insert(2, json.dumps({"id": "nontext", "text": {"name": "Marisol Brixby"}}))
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    key_file = root / "key"
    key_file.write_text(SECRET + "\n", encoding="utf-8")
    return {"root": root, "gold": gold, "texts": texts, "jsonl": records, "key": key_file}


def assert_no_phi(text: str, where: str) -> None:
    CHECKED.append(where)
    found = [needle for needle in NEEDLES if needle in text]
    assert not found, f"PHI in {where}: {found}"
    assert SECRET not in text, f"the secret in {where}"


@pytest.fixture()
def debug_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG)
    yield caplog


def invoke(
    caplog: pytest.LogCaptureFixture, *args: str | Path, env: dict[str, str] | None = None, expect: str = ""
) -> int:
    """Run ``phiscrub -v -v ARGS`` in process; check its output, log records and any traceback.

    ``expect``: a piece of the output that shows the path taken (an error path is really walked).
    """
    caplog.clear()
    result = CliRunner().invoke(cli, ["-v", "-v", *map(str, args)], env={"PHISCRUB_KEY": None, **(env or {})})
    seen = [result.output, result.stderr]
    seen += [rec.getMessage() for rec in caplog.records]
    seen += [repr(rec.args) for rec in caplog.records if rec.args]
    seen += ["".join(traceback.format_exception(rec.exc_info[1])) for rec in caplog.records if rec.exc_info]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        seen.append("".join(traceback.format_exception(result.exception)))
    assert_no_phi("\n".join(seen), f"{args[0]} {' '.join(str(a) for a in args[1:3])}")
    assert expect in result.output
    return result.exit_code


def test_redact_logs_no_phi(
    corpus: dict[str, Path], debug_logs: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    assert (
        invoke(
            debug_logs, "redact", corpus["texts"], "-o", tmp_path / "a", "--rules-only", expect="errors: 1"
        )
        == 1
    )
    code = invoke(debug_logs, "redact", corpus["jsonl"], "-o", tmp_path / "b", "--mode", "surrogate",
                  "--id-field", "id", "--key-file", corpus["key"], "--vault", tmp_path / "v", expect="errors: 2")  # fmt: skip
    assert code == 1  # the malformed line and the non-text record
    assert invoke(debug_logs, "reidentify", tmp_path / "b", "-o", tmp_path / "c", "--vault", tmp_path / "v",
                  "--key-file", corpus["key"]) == 0  # fmt: skip
    assert invoke(debug_logs, "reidentify", tmp_path / "b", "-o", tmp_path / "d", "--vault", tmp_path / "v",
                  env={"PHISCRUB_KEY": "wrong"}, expect="wrong key") == 2  # fmt: skip
    assert (
        invoke(debug_logs, "redact", corpus["gold"], "-o", tmp_path / "e", "--mode", "surrogate") == 2
    )  # no key


@pytest.mark.slow
def test_redact_with_the_bundled_model_in_a_subprocess_logs_no_phi(
    corpus: dict[str, Path], tmp_path: Path
) -> None:
    env = {"OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "always"}
    cmd = [
        sys.executable,
        "-m",
        "phiscrub.cli",
        "-v",
        "-v",
        "redact",
        str(corpus["texts"]),
        "-o",
        str(tmp_path / "m"),
    ]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, env={**_base_env(), **env}, timeout=300, check=False
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert_no_phi(proc.stdout + proc.stderr, "redact (subprocess, bundled model)")


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}


def test_convert_and_evaluate_log_no_phi(
    corpus: dict[str, Path], debug_logs: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    assert (
        invoke(
            debug_logs, "convert", corpus["gold"], tmp_path / "g.jsonl", "--to", "jsonl", expect="problems: 4"
        )
        == 0
    )
    assert invoke(debug_logs, "convert", corpus["gold"], tmp_path / "conll", "--to", "conll") == 0
    pred = tmp_path / "pred"
    BratWriter().write([d.with_spans(d.spans[::2]) for d in gold_docs()], pred)
    assert invoke(debug_logs, "evaluate", "--gold", corpus["gold"], "--pred", pred, "-o", tmp_path / "r") == 1
    assert invoke(debug_logs, "redact", corpus["gold"], "-o", tmp_path / "red", "--rules-only") == 0
    code = invoke(debug_logs, "evaluate", "--gold", corpus["gold"], "--pred", tmp_path / "red", "--leaks",
                  "-o", tmp_path / "leaks")  # fmt: skip
    assert code == 1  # the bad BRAT note's problems
    assert invoke(debug_logs, "evaluate", "--gold", tmp_path / "missing", "--pred", pred) == 2


@pytest.mark.slow
def test_train_augment_and_synth_log_no_phi(
    corpus: dict[str, Path], debug_logs: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    model = tmp_path / "model"
    code = invoke(debug_logs, "train", "--train", corpus["gold"], "--encoder", "bilstm-crf", "--epochs", "1",
                  "--seed", "0", "--labels", "coarse", "-o", model)  # fmt: skip
    assert code == 0
    for method in ("phicon", "mr"):
        code = invoke(debug_logs, "augment", corpus["gold"], "-o", tmp_path / f"{method}.jsonl", "--method", method,
                      "--alpha", "2")  # fmt: skip
        assert code == 0
    code = invoke(debug_logs, "synth", corpus["gold"], "-o", tmp_path / "synth.jsonl", "--mlm", _tiny_mlm(tmp_path),
                  "--strategy", "random", "--ratio", "0.5", "--profile", "privacy")  # fmt: skip
    assert code == 0
    code = invoke(
        debug_logs, "synth", corpus["texts"], "-o", tmp_path / "s2.jsonl", "--mlm", tmp_path / "nope"
    )
    assert code != 0


def _tiny_mlm(tmp_path: Path) -> Path:
    from transformers import BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(tmp_path / "mlm", kind="bert", max_positions=128)
    BertForMaskedLM(BertConfig.from_pretrained(folder)).save_pretrained(folder)
    return folder


@pytest.mark.slow
def test_serve_logs_no_phi(tmp_path: Path) -> None:
    service = Path(__file__).resolve().parents[1] / "service"
    sys.path.insert(0, str(service))
    try:
        from live_server import start_server
    finally:
        sys.path.remove(str(service))
    server = start_server(tmp_path / "serve.log", ["--rules-only", "--mode", "surrogate"])
    try:
        with server.client() as client:
            for text in NOTES.values():
                assert client.post("/v1/redact", json={"text": text}).status_code == 200
                assert client.post("/v1/detect", json={"text": text}).status_code == 200
            assert (
                client.post(
                    "/v1/redact", json={"notes": [{"id": "a", "text": t} for t in NOTES.values()]}
                ).status_code
                == 200
            )
            bad = client.post(
                "/v1/redact",
                content=b'{"text": "Hal Brixby 617-555-0134',
                headers={"content-type": "application/json"},
            )
            assert bad.status_code == 422
            assert_no_phi(bad.text, "serve 422 body")
            wrong = client.post("/v1/redact", json={"text": 5, "extra": "Zoltan Quenwick"})
            assert wrong.status_code == 422
            assert_no_phi(wrong.text, "serve 422 body (wrong type)")
            unauthorised = client.post(
                "/v1/redact", json={"text": NOTES["n1"]}, headers={"Authorization": "Bearer x"}
            )
            assert unauthorised.status_code == 401
    finally:
        server.stop()
    assert_no_phi(server.log(), "serve log")
