"""``--site-lists``, ``--registry``, ``--allow-list`` end to end: ``phiscrub redact`` and
``phiscrub predict`` on real files in a temporary folder, and the run fingerprint that makes
``--resume`` notice a changed list. All names are made up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.engine_config import DeidConfig
from phiscrub.runs.redact import InputOptions, RedactJob

NOTES = [
    {
        "id": "n1",
        "patient_id": "Q01",
        "text": "Mr. Tolliverr seen on Varnell 4 by orla penhaligon. MRN 441 9283. Lives in Dunmoor.",
    },
    {
        "id": "n2",
        "patient_id": "Q02",
        "text": "Mrs. Page transferred from QGH; seen by Dr. Tarrant. Hope to discharge to Dunmoor.",
    },
]
SECRETS = ["Tolliverr", "Varnell 4", "Penhaligon", "penhaligon", "441 9283", "Page", "QGH", "Tarrant"]


def _files(tmp_path: Path) -> dict[str, Path]:
    lists = tmp_path / "site"
    lists.mkdir()
    (lists / "facilities.txt").write_text("# facilities\nQuillmere General Hospital\nQGH\n")
    (lists / "units.txt").write_text("Varnell 4\n")
    (lists / "staff.txt").write_text("Orla Penhaligon\nHope Tarrant\n")
    (lists / "places.txt").write_text("Dunmoor\n")
    registry = tmp_path / "registry.csv"
    registry.write_text(
        "patient_id,first,last,mrn,dob\nQ01,Harwin,Tolliver,4419283,1941-03-14\nQ02,Bess,Page,3380117,\n"
    )
    allow = tmp_path / "allow.txt"
    allow.write_text("Dunmoor\n")
    notes = tmp_path / "notes.jsonl"
    notes.write_text("".join(json.dumps(n) + "\n" for n in NOTES))
    return {"lists": lists, "registry": registry, "allow": allow, "notes": notes}


def _site_args(f: dict[str, Path]) -> list[str]:
    return [
        "--site-lists", str(f["lists"]), "--registry", str(f["registry"]), "--allow-list", str(f["allow"]),
    ]  # fmt: skip


def test_redact_with_site_lists_registry_and_allow_list(tmp_path: Path) -> None:
    f = _files(tmp_path)
    out = tmp_path / "out"
    args = ["redact", str(f["notes"]), "-o", str(out), "--rules-only", "--patient-field", "patient_id"]
    result = CliRunner().invoke(cli, [*args, *_site_args(f)])
    assert result.exit_code == 0, result.output
    redacted = [json.loads(line)["text"] for line in (out / "notes.jsonl").read_text().splitlines()]
    joined = "\n".join(redacted)
    for secret in SECRETS:
        assert secret not in joined, secret
    assert joined.count("Dunmoor") == 2  # allow-listed
    assert "Hope to discharge" in joined  # a staff first name that is a word, sentence-initial
    standoff = [json.loads(line) for line in (out / "phi_spans.jsonl").read_text().splitlines()]
    assert any(row["source"].startswith("site") for row in standoff)
    for secret in SECRETS:  # the run's messages never hold list or registry content
        assert secret not in result.output


def test_redact_without_lists_misses_what_the_lists_find(tmp_path: Path) -> None:
    f = _files(tmp_path)
    out = tmp_path / "plain"
    result = CliRunner().invoke(cli, ["redact", str(f["notes"]), "-o", str(out), "--rules-only"])
    assert result.exit_code == 0, result.output
    assert "orla penhaligon" in (out / "notes.jsonl").read_text()  # a name the rules alone do not know


def test_predict_with_patient_field(tmp_path: Path) -> None:
    f = _files(tmp_path)
    pred = tmp_path / "pred.jsonl"
    args = ["predict", str(f["notes"]), "-o", str(pred), "--model", "none", "--patient-field", "patient_id"]
    result = CliRunner().invoke(cli, [*args, *_site_args(f)])
    assert result.exit_code == 0, result.output
    assert "2 of 2 documents name their patient" in result.output
    docs = [json.loads(line) for line in pred.read_text().splitlines()]
    surfaces = {d["text"][s["start"] : s["end"]] for d in docs for s in d["spans"]}
    assert {"Tolliverr", "441 9283", "Varnell 4", "orla penhaligon", "Page", "QGH"} <= surfaces
    assert "Dunmoor" not in surfaces


def test_unknown_list_file_is_a_usage_error(tmp_path: Path) -> None:
    f = _files(tmp_path)
    (f["lists"] / "wards.txt").write_text("Varnell 5\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["redact", str(f["notes"]), "-o", str(out), "--rules-only", "--site-lists", str(f["lists"])]
    )
    assert result.exit_code == 2
    assert "wards.txt" in result.output and "Varnell" not in result.output


def test_fingerprint_holds_digests_that_follow_the_content(tmp_path: Path) -> None:
    f = _files(tmp_path)
    settings = DeidConfig(
        model=None, site_lists=str(f["lists"]), registry=str(f["registry"]), allow_list=str(f["allow"])
    )
    job = RedactJob(f["notes"], tmp_path / "out", InputOptions(patient_field="patient_id"), settings)
    before = job.settings()
    assert all(len(before[k]) == 64 for k in ("site_lists", "registry", "allow_list"))
    assert "Penhaligon" not in json.dumps(before)
    (f["lists"] / "staff.txt").write_text("Orla Penhaligon\nHope Tarrant\nIdris Vantongeren\n")
    after = job.settings()
    assert after["site_lists"] != before["site_lists"]
    assert after["registry"] == before["registry"]
    plain = RedactJob(f["notes"], tmp_path / "out", InputOptions(), DeidConfig(model=None)).settings()
    assert "site_lists" not in plain  # runs without lists keep their fingerprint


def test_the_shell_example_of_the_docs_runs(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "site-lists.md").read_text(encoding="utf-8")
    block = doc.split("```bash\n", 1)[1].split("```", 1)[0]
    block = block.replace("phiscrub redact", f"{sys.executable} -m phiscrub.cli redact")
    subprocess.run(["bash", "-euc", block], cwd=tmp_path, check=True, capture_output=True)
    text = json.loads((tmp_path / "out" / "notes.jsonl").read_text())["text"]
    assert text == "Mr. [NAME] (MRN [ID]) seen on [LOCATION] by Dr. [NAME]."
