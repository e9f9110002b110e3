"""The service is no re-identification oracle (issue 28, item 2), over real HTTP (uvicorn on 127.0.0.1).

- its surrogates are not those of a batch run (``phiscrub redact``, the Python API) with the same
  ``PHISCRUB_KEY``: a token holder cannot send candidate names until one gives a surrogate seen in
  a released file;
- two tokens (two clients) get different surrogates and date shifts for the same note and the same
  patient id;
- each token has its own rate limit: 429 with ``Retry-After`` past it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import KEY, LiveServer, server_env, start_server

from phiscrub.deid import Deidentifier

TOKEN_A = "tenant-a-token-0c41"
TOKEN_B = "tenant-b-token-9e27"

#: Made-up PHI: a name and a date the rules find, one patient.
NOTE = "Patient Zebulon Quackenbush was admitted on 03/12/2019 by Dr. Alan Grant."
PATIENT = "MRN-000123"


def surrogate_text(client: httpx.Client, token: str, text: str = NOTE, patient: str | None = PATIENT) -> str:
    body: dict[str, str] = {"text": text, "mode": "surrogate"}
    if patient is not None:
        body["patient_id"] = patient
    r = client.post("/v1/redact", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    out = r.json()["text"]
    assert "Quackenbush" not in out and "03/12/2019" not in out
    return str(out)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Rules only, two tokens (one per line of the token file), the test key."""
    folder = tmp_path_factory.mktemp("tenants")
    token_file = folder / "tokens"
    token_file.write_text(f"# two clients\n{TOKEN_A}\n{TOKEN_B}\n", encoding="utf-8")
    srv = start_server(
        folder / "server.log",
        ["--rules-only", "--token-file", str(token_file)],
        token=None,
    )
    srv.token = TOKEN_A
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60.0) as c:
        yield c


def test_service_surrogates_are_not_those_of_a_batch_run_with_the_same_key(
    client: httpx.Client, tmp_path: Path
) -> None:
    served = surrogate_text(client, TOKEN_A)
    api = Deidentifier(mode="surrogate", key=KEY, model=None).redact(NOTE, patient_id=PATIENT).text
    assert served != api
    # Not one replacement in common: the name and the date of the batch run never come back.
    assert not (set(api.split()) - set(NOTE.split())) & set(served.split())
    # The command line, the same secret from $PHISCRUB_KEY, the same patient.
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "n1", "text": NOTE, "patient": PATIENT}) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "phiscrub.cli", "redact", str(notes), "-o", str(tmp_path / "out")]
        + ["--rules-only", "--mode", "surrogate", "--patient-field", "patient"],
        env=server_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    [line] = (tmp_path / "out" / "notes.jsonl").read_text(encoding="utf-8").splitlines()
    cli = json.loads(line)["text"]
    assert cli == api
    assert served != cli
    # Without a patient id either (the per-document date shift).
    assert (
        surrogate_text(client, TOKEN_A, patient=None)
        != Deidentifier(mode="surrogate", key=KEY, model=None).redact(NOTE).text
    )


def test_service_surrogates_come_from_the_derived_per_token_key(client: httpx.Client) -> None:
    from phiscrub.service.engine import service_key

    tenant = hashlib.sha256(TOKEN_A.encode()).hexdigest()
    derived = Deidentifier(mode="surrogate", key=service_key(KEY, tenant), model=None)
    assert surrogate_text(client, TOKEN_A) == derived.redact(NOTE, patient_id=PATIENT).text
    # Stable for one client: the same patient gets the same surrogates in every request.
    assert surrogate_text(client, TOKEN_A) == surrogate_text(client, TOKEN_A)


def test_two_tokens_get_different_surrogates_for_the_same_patient(client: httpx.Client) -> None:
    a, b = surrogate_text(client, TOKEN_A), surrogate_text(client, TOKEN_B)
    assert a != b
    name_a, name_b = a.split(" was admitted")[0], b.split(" was admitted")[0]
    assert name_a != name_b
    date_a, date_b = a.split("admitted on ")[1][:10], b.split("admitted on ")[1][:10]
    assert date_a != date_b  # another date shift for the "same" patient id
    # Placeholders do not depend on the client.
    ph = [
        client.post("/v1/redact", json={"text": NOTE}, headers={"Authorization": f"Bearer {t}"}).json()[
            "text"
        ]
        for t in (TOKEN_A, TOKEN_B)
    ]
    assert ph[0] == ph[1]


def test_rate_limit_per_token_answers_429_with_retry_after(tmp_path: Path) -> None:
    token_file = tmp_path / "tokens"
    token_file.write_text(f"{TOKEN_A},{TOKEN_B}\n", encoding="utf-8")
    srv = start_server(
        tmp_path / "limited.log",
        ["--rules-only", "--token-file", str(token_file), "--rate-limit", "3"],
        token=None,
    )
    try:
        with httpx.Client(base_url=srv.url, timeout=60.0) as c:
            a = {"Authorization": f"Bearer {TOKEN_A}"}
            codes = [c.post("/v1/detect", json={"text": NOTE}, headers=a).status_code for _ in range(4)]
            assert codes == [200, 200, 200, 429]
            r = c.post("/v1/redact", json={"text": NOTE}, headers=a)
            assert r.status_code == 429
            assert 1 <= int(r.headers["retry-after"]) <= 20
            assert r.json() == {"error": "rate limit of 3 requests per minute exceeded"}
            # Another token has its own budget; the health check needs none.
            b = {"Authorization": f"Bearer {TOKEN_B}"}
            assert c.post("/v1/detect", json={"text": NOTE}, headers=b).status_code == 200
            assert c.get("/healthz").json()["rate_limit"] == 3
            # A wrong token is still 401, not 429.
            wrong = {"Authorization": "Bearer not-a-token"}
            assert c.post("/v1/detect", json={"text": NOTE}, headers=wrong).status_code == 401
        log = srv.log()
        assert "POST /v1/redact 429" in log
        assert "Quackenbush" not in log and TOKEN_A not in log
    finally:
        srv.stop()
