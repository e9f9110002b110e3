"""Per-request choices (issue 26, item 2): the service's one Deidentifier gets each request's mode,
labels and policy on the call; no Deidentifier is built per option set."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from live_server import KEY, NOTE

from phiscrub import deid as deid_module
from phiscrub.deid import Deidentifier
from phiscrub.engine_config import DeidConfig
from phiscrub.service.app import create_app
from phiscrub.service.config import ServiceConfig
from phiscrub.service.engine import Engine

CHOICES: list[dict[str, Any]] = [
    {},
    {"mode": "mask"},
    {"labels": "fine"},
    {"policy": "strict"},
    {"mode": "mask", "labels": "phicon5", "policy": "i2b2"},
    {"mode": "surrogate"},
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(ServiceConfig(engine=DeidConfig(model=None), auth=False), KEY).load()


@pytest.fixture(scope="module")
def client(engine: Engine) -> Iterator[TestClient]:
    with TestClient(create_app(engine.config, engine)) as c:
        yield c


def test_per_request_choices_build_no_deidentifier(
    client: TestClient, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[object] = []
    real_init = deid_module.Deidentifier.__init__

    def counting_init(self: Deidentifier, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(deid_module.Deidentifier, "__init__", counting_init)
    for choices in CHOICES:
        assert client.post("/v1/redact", json={"text": NOTE, **choices}).status_code == 200
        detect = {k: v for k, v in choices.items() if k != "mode"}  # /v1/detect takes no mode
        assert client.post("/v1/detect", json={"text": NOTE, **detect}).status_code == 200
    assert built == []
    assert not hasattr(engine, "_cache")


@pytest.mark.parametrize("choices", CHOICES[:-1], ids=str)
def test_per_request_choices_answer_as_a_deidentifier_built_with_them(
    client: TestClient, choices: dict[str, Any]
) -> None:
    want = Deidentifier(model=None, **{"labels": "coarse", **choices}).redact(NOTE)
    body = client.post("/v1/redact", json={"text": NOTE, **choices}).json()
    assert body["text"] == want.text
    assert [(s["start"], s["end"], s["label"]) for s in body["spans"]] == [
        (s.start, s.end, s.label) for s in want.spans
    ]
    assert body["policy"] == want.policy
    detect = {k: v for k, v in choices.items() if k != "mode"}
    found = client.post("/v1/detect", json={"text": NOTE, **detect}).json()
    assert [(s["start"], s["end"], s["label"]) for s in found["spans"]] == [
        (s.start, s.end, s.label) for s in want.spans
    ]


def test_surrogate_requests_use_the_client_key_not_the_secret(client: TestClient, engine: Engine) -> None:
    body = client.post("/v1/redact", json={"text": NOTE, "mode": "surrogate"}).json()
    assert body["text"] != Deidentifier(model=None, mode="surrogate", key=KEY).redact(NOTE).text
    tenant_key = engine.tenant_key("")  # auth off: the one anonymous client
    assert tenant_key is not None
    assert body["text"] == Deidentifier(model=None, mode="surrogate", key=tenant_key).redact(NOTE).text
