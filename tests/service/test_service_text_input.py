"""Text the service cannot take as it comes (issue 28, item 10): a lone UTF-16 surrogate.

JSON lets a client send ``"\\ud800"``, which is no character: the server replaces it by U+FFFD on
input, as the command line does for JSONL (:func:`phiscrub.io.jsonl.replace_lone_surrogates`), one
code point for one so the offsets of the spans still index the text sent. A real server (rules only).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, start_server


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    srv: LiveServer = start_server(tmp_path_factory.mktemp("serve") / "server.log", ["--rules-only"])
    try:
        with srv.client() as c:
            yield c
    finally:
        srv.stop()


#: Raw JSON bodies (a Python str cannot be encoded with a lone surrogate, so the escapes are written out).
NOTE = "Seen by Dr. Zoltan Quenwick \\ud800 on 03/12/2019, call 617-555-0134."


@pytest.mark.parametrize("path", ["/v1/redact", "/v1/detect"])
def test_a_lone_surrogate_in_one_note_is_replaced_not_a_500(client: httpx.Client, path: str) -> None:
    r = client.post(path, content=f'{{"text": "{NOTE}"}}', headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    result = r.json()
    sent = NOTE.replace("\\ud800", "\ufffd")
    labels = {sent[s["start"] : s["end"]]: s["label"] for s in result["spans"]}
    assert labels.get("617-555-0134") == "CONTACT" and labels.get("03/12/2019") == "DATE"
    if path == "/v1/redact":
        assert "\ufffd" in result["text"] and "617-555-0134" not in result["text"]


def test_a_lone_surrogate_in_a_batch_spoils_no_other_note(client: httpx.Client, tmp_path: Path) -> None:
    body = (
        '{"notes": [{"id": "a", "text": "Call 617-555-0134."},'
        f' {{"id": "b\\udc80", "patient_id": "p\\udfff", "text": "{NOTE}"}},'
        ' {"id": "c", "text": "\\udbff MRN 0048-2231"}]}'
    )
    r = client.post("/v1/redact", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["id"] for x in results] == ["a", "b\ufffd", "c"]
    assert all("617-555-0134" not in x["text"] for x in results)
    assert results[2]["text"].startswith("\ufffd ")


def test_a_name_hidden_by_zero_width_spaces_is_replaced_by_the_service(client: httpx.Client) -> None:
    """The service detects through the same normalized view as the CLI (issue 28, item 4)."""
    r = client.post("/v1/redact", json={"text": "Patient Zeb\u200bulon Quack\u2060enbush was seen."})
    assert r.status_code == 200, r.text
    out = r.json()["text"]
    assert "ulon" not in out and "enbush" not in out and "[NAME]" in out
