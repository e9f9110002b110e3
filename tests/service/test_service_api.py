"""``phiscrub serve`` over real HTTP: a uvicorn server on 127.0.0.1 (subprocess) and httpx.

Auth, redact/detect for one note and batches, the same output as the Python API, size limits, and
privacy: no note text in the server log, in error bodies, or in 422 bodies; the key never echoed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import KEY, NOTE, NOTE_PHI, TOKEN, LiveServer, server_env, start_server

from phiscrub.deid import Deidentifier
from phiscrub.document import Document
from phiscrub.labels import fold

MAX_BODY = 20_000
MAX_BATCH = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The bundled model, auth on (token from the environment), a surrogate key, small limits."""
    log = tmp_path_factory.mktemp("serve") / "server.log"
    srv = start_server(log, ["--max-body-bytes", str(MAX_BODY), "--max-batch", str(MAX_BATCH)])
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c


@pytest.fixture(scope="module")
def reference() -> Deidentifier:
    """The Python API with the server's defaults, to compare outputs."""
    return Deidentifier(mode="placeholder", key=KEY).load()


def assert_no_phi(text: str) -> None:
    for phi in NOTE_PHI:
        assert phi not in text


# -- health, docs --------------------------------------------------------------------------------------


def test_healthz_needs_no_token_and_tells_no_secret(server: LiveServer) -> None:
    r = httpx.get(f"{server.url}/healthz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok"
    assert body["model"] is True and body["auth"] is True and body["surrogate"] is True
    assert (body["max_body_bytes"], body["max_batch"]) == (MAX_BODY, MAX_BATCH)
    assert TOKEN not in r.text and KEY not in r.text


def test_openapi_docs_are_served_from_the_server_itself(server: LiveServer) -> None:
    spec = httpx.get(f"{server.url}/openapi.json").json()
    assert {"/v1/redact", "/v1/detect", "/healthz"} <= set(spec["paths"])
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    page = httpx.get(f"{server.url}/docs").text
    assert "swagger-ui-bundle.js" in page
    assert "http://" not in page and "https://" not in page  # no CDN
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert httpx.get(f"{server.url}/static-offline-docs/{asset}").status_code == 200


# -- auth -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/redact", "/v1/detect"])
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": TOKEN},
    ],
    ids=["none", "wrong", "basic-scheme", "no-scheme"],
)
def test_requests_without_the_right_token_get_401(
    server: LiveServer, path: str, headers: dict[str, str]
) -> None:
    r = httpx.post(f"{server.url}{path}", json={"text": NOTE}, headers=headers)
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert r.json() == {"error": "missing or invalid bearer token"}


def test_token_prefix_or_extension_is_refused(server: LiveServer) -> None:
    for token in (TOKEN[:-1], TOKEN + "x", TOKEN.upper()):
        r = httpx.post(f"{server.url}/v1/redact", json={"text": NOTE}, headers=server.headers(token))
        assert r.status_code == 401


def test_refuses_to_start_without_a_token(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "phiscrub.cli", "serve", "--rules-only", "--port", "1"],
        env=server_env(token=None),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "PHISCRUB_SERVICE_TOKEN" in proc.stderr and "--insecure-no-auth" in proc.stderr


def test_an_invalid_option_fails_at_startup() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "phiscrub.cli", "serve", "--rules-only", "--resolve", "bogus", "--port", "1"],
        env=server_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "unknown resolve strategy 'bogus'" in proc.stderr


# -- redact and detect ------------------------------------------------------------------------------


def test_redact_one_note_as_the_python_api(client: httpx.Client, reference: Deidentifier) -> None:
    r = client.post("/v1/redact", json={"text": NOTE})
    assert r.status_code == 200
    body = r.json()
    want = reference.redact_one(Document("text", NOTE))
    assert body["text"] == want.result.text
    assert (body["id"], body["mode"], body["labels"], body["policy"]) == (
        "text",
        "placeholder",
        "coarse",
        "safe-harbor",
    )
    assert [(s["start"], s["end"], s["label"], s["source"]) for s in body["spans"]] == [
        (s.start, s.end, s.label, s.source) for s in want.spans
    ]
    # Offsets index the text sent and the redacted text; every known PHI string is covered.
    covered = {NOTE[s["start"] : s["end"]] for s in body["spans"]}
    assert set(NOTE_PHI) <= covered
    for s in body["spans"]:
        assert body["text"][s["out_start"] : s["out_end"]] == f"[{s['label']}]"
    assert_no_phi(body["text"])
    assert r.headers["cache-control"] == "no-store"


def test_mask_matches_the_python_api(client: httpx.Client) -> None:
    body = client.post("/v1/redact", json={"text": NOTE, "mode": "mask", "patient_id": "p1"}).json()
    assert body["mode"] == "mask"
    assert body["text"] == Deidentifier(mode="mask", key=KEY).redact(NOTE, patient_id="p1").text
    assert_no_phi(body["text"])


def test_surrogates_differ_from_the_python_api_with_the_same_key(client: httpx.Client) -> None:
    """No re-identification oracle (issue 28): the service's surrogates are not a batch run's."""
    body = client.post("/v1/redact", json={"text": NOTE, "mode": "surrogate", "patient_id": "p1"}).json()
    batch_run = Deidentifier(mode="surrogate", key=KEY).redact_one(Document("text", NOTE), patient_id="p1")
    assert body["mode"] == "surrogate"
    assert body["text"] != batch_run.result.text
    theirs = {
        s.start: batch_run.result.text[o.start : o.end]
        for s, o in zip(batch_run.spans, batch_run.result.spans)
    }
    ours = {s["start"]: body["text"][s["out_start"] : s["out_end"]] for s in body["spans"]}
    for phi in NOTE_PHI:  # none of the batch run's replacements comes back
        start = NOTE.index(phi)
        assert ours[start] != theirs[start]
    assert_no_phi(body["text"])
    assert KEY not in json.dumps(body)


def test_redact_batch_keeps_order_ids_and_patient_surrogates(client: httpx.Client) -> None:
    notes = [
        {"id": "a", "text": "Seen by Dr. Alan Grant on 03/12/2019.", "patient_id": "p7"},
        {"text": "No identifiers in this sentence."},
        {"id": "c", "text": "Dr. Alan Grant called on 03/12/2019 again.", "patient_id": "p7"},
    ]
    r = client.post("/v1/redact", json={"notes": notes, "mode": "surrogate"})
    assert r.status_code == 200
    results = r.json()["results"]
    assert [x["id"] for x in results] == ["a", "1", "c"]
    assert results[1]["spans"] == [] and results[1]["text"] == notes[1]["text"]

    def replaced(result: dict, start: int) -> str:
        span = next(s for s in result["spans"] if s["start"] == start)
        return result["text"][span["out_start"] : span["out_end"]]

    # The same patient gets the same surrogate name and the same date shift in both notes.
    a, c = results[0], results[2]
    name_a, name_c = notes[0]["text"].index("Alan"), notes[2]["text"].index("Alan")
    assert replaced(a, name_a) == replaced(c, name_c) != "Alan Grant"
    date_a, date_c = notes[0]["text"].index("03/12"), notes[2]["text"].index("03/12")
    assert replaced(a, date_a) == replaced(c, date_c) != "03/12/2019"


def test_detect_one_note_and_a_batch(client: httpx.Client, reference: Deidentifier) -> None:
    one = client.post("/v1/detect", json={"text": NOTE}).json()
    assert "text" not in one  # detect answers spans only
    want = reference.detect(Document("text", NOTE))  # fine labels, folded to coarse by the service
    assert [(s["start"], s["end"], s["label"]) for s in one["spans"]] == [
        (s.start, s.end, fold(s.label, "coarse")) for s in want
    ]
    assert all(0.0 <= s["score"] <= 1.0 and s["source"] for s in one["spans"])
    batch = client.post(
        "/v1/detect", json={"notes": [{"text": NOTE}, {"id": "x", "text": "MRN 4455667"}]}
    ).json()
    assert [r["id"] for r in batch["results"]] == ["0", "x"]
    # Scores may differ in the last digits when notes are padded together in a batch.
    assert [(s["start"], s["end"], s["label"]) for s in batch["results"][0]["spans"]] == [
        (s["start"], s["end"], s["label"]) for s in one["spans"]
    ]
    assert [s["label"] for s in batch["results"][1]["spans"]] == ["ID"]


def test_labels_and_policy_options(client: httpx.Client) -> None:
    text = "Mr. John Smith is a 45 year old teacher from Ohio."
    fine = client.post("/v1/detect", json={"text": text, "labels": "fine", "policy": "i2b2"}).json()
    coarse = client.post("/v1/detect", json={"text": text, "labels": "coarse", "policy": "i2b2"}).json()
    assert [(s["start"], s["end"]) for s in fine["spans"]] == [
        (s["start"], s["end"]) for s in coarse["spans"]
    ]
    assert {s["label"] for s in coarse["spans"]} <= {"NAME", "AGE", "PROFESSION", "LOCATION"}
    assert any(s["label"] not in {"NAME", "AGE", "PROFESSION", "LOCATION"} for s in fine["spans"])

    def labels(policy: str) -> set[str]:
        body = client.post("/v1/redact", json={"text": text, "policy": policy}).json()
        assert body["policy"] == policy
        return {s["label"] for s in body["spans"]}

    # phicon5 has no AGE or PROFESSION: those are neither listed nor replaced.
    five = client.post("/v1/redact", json={"text": text, "labels": "phicon5", "policy": "i2b2"}).json()
    assert five["labels"] == "phicon5" and five["spans"]
    assert {s["label"] for s in five["spans"]} <= {"NAME", "LOCATION", "DATE", "ID", "CONTACT"}
    for s in five["spans"]:
        assert five["text"][s["out_start"] : s["out_end"]] == f"[{s['label']}]"
    assert "45 year old teacher" in five["text"]
    # An age of 45 is PHI under i2b2, not under Safe Harbor.
    assert "AGE" in labels("i2b2")
    assert "AGE" not in labels("safe-harbor")


# -- limits and errors ------------------------------------------------------------------------------


def test_body_over_the_limit_gets_413_json(client: httpx.Client) -> None:
    r = client.post("/v1/redact", json={"text": NOTE * (MAX_BODY // len(NOTE) + 1)})
    assert r.status_code == 413
    assert r.json() == {"error": f"request body over the limit of {MAX_BODY} bytes"}
    # Sent in chunks, without a Content-Length: refused as the body passes the limit.
    chunks = (NOTE.encode() for _ in range(MAX_BODY // len(NOTE) + 2))
    r = client.post("/v1/redact", content=chunks, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert_no_phi(r.text)


def test_batch_over_the_limit_gets_413(client: httpx.Client) -> None:
    r = client.post("/v1/redact", json={"notes": [{"text": "x"}] * (MAX_BATCH + 1)})
    assert r.status_code == 413
    assert r.json() == {"error": f"more than {MAX_BATCH} notes in one request"}


@pytest.mark.parametrize(
    "payload",
    [
        {"text": NOTE, "mode": "John Smith"},  # bad option value
        {"text": NOTE, "notes": [{"text": NOTE}]},  # both shapes
        {"notes": [{"text": NOTE, "Alan Grant": "03/12/2019"}]},  # unknown key (PHI in the key)
        {"text": ["John Smith", "617-555-0199"]},  # wrong type
        {"notes": [{"id": "Mercy Hospital " * 30, "text": NOTE}]},  # id too long
    ],
    ids=["mode", "both", "extra-key", "type", "long-id"],
)
def test_422_does_not_echo_the_input(client: httpx.Client, payload: dict) -> None:
    r = client.post("/v1/redact", json=payload)
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "invalid request" and body["detail"]
    assert all(set(d) == {"type", "loc", "msg"} for d in body["detail"])
    assert_no_phi(r.text)


def test_invalid_json_gets_422_without_the_body(client: httpx.Client) -> None:
    r = client.post(
        "/v1/redact",
        content=b'{"text": "John Smith 617-555-0199',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422
    assert r.json()["detail"][0]["type"] == "json_invalid"
    assert_no_phi(r.text)


def test_surrogate_mode_without_a_key_is_refused(tmp_path: Path) -> None:
    srv = start_server(tmp_path / "nokey.log", ["--rules-only", "--workers", "2"], key=None)
    try:
        with srv.client() as c:
            assert c.get("/healthz").json()["surrogate"] is False
            r = c.post("/v1/redact", json={"text": NOTE, "mode": "surrogate"})
            assert r.status_code == 400 and "no surrogate key" in r.json()["error"]
            # Two worker processes answer the same as one, from the configuration they inherit.
            for _ in range(4):
                body = c.post("/v1/redact", json={"text": NOTE, "mode": "mask"}).json()
                assert "Dr. ***" in body["text"]
                assert_no_phi(body["text"])
    finally:
        srv.stop()


def test_token_file_and_insecure_mode(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("file-token-123\n", encoding="utf-8")
    srv = start_server(tmp_path / "file.log", ["--rules-only", "--token-file", str(token_file)], token=None)
    try:
        body = {"text": NOTE}
        assert httpx.post(f"{srv.url}/v1/detect", json=body).status_code == 401
        assert (
            httpx.post(f"{srv.url}/v1/detect", json=body, headers=srv.headers("file-token-123")).status_code
            == 200
        )
    finally:
        srv.stop()
    srv = start_server(tmp_path / "open.log", ["--rules-only", "--insecure-no-auth"], token=None)
    try:
        assert httpx.get(f"{srv.url}/healthz").json()["auth"] is False
        assert httpx.post(f"{srv.url}/v1/detect", json={"text": NOTE}).status_code == 200
        assert "serving without authentication" in srv.log()
    finally:
        srv.stop()


# -- logs -------------------------------------------------------------------------------------------


def test_server_log_has_counts_and_no_note_text(server: LiveServer, client: httpx.Client) -> None:
    client.post("/v1/redact", json={"text": NOTE})
    client.post("/v1/detect", json={"notes": [{"text": NOTE}, {"text": NOTE}]})
    client.post("/v1/redact", json={"text": NOTE, "mode": "John Smith"})  # 422
    client.post("/v1/redact", content=b'{"text": "Alan Grant', headers={"Content-Type": "application/json"})
    client.post("/v1/redact", json={"text": NOTE * 300})  # 413
    httpx.post(f"{server.url}/v1/redact", json={"text": NOTE})  # 401
    client.get("/John%20Smith/617-555-0199")  # 404, PHI in the URL
    # the access line is written after the response is sent: wait for the last request's line
    deadline = time.monotonic() + 10
    while "GET - 404" not in (log := server.log()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "POST /v1/redact 200" in log and "notes=1 spans=" in log
    assert "POST /v1/detect 200" in log and "notes=2 spans=" in log
    for status in ("422", "413", "401"):
        assert f"POST /v1/redact {status}" in log
    assert "GET - 404" in log
    for phi in (*NOTE_PHI, "John", "Smith", "Grant", "Mercy", "carpenter"):
        assert phi not in log
    assert TOKEN not in log and KEY not in log
