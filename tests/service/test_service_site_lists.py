"""``phiscrub serve --site-lists --registry --allow-list`` (issue 25, item 3: site knowledge in the service).

A real server (rules only) with a site-list folder, a registry and an allow list; the same notes
through the Python API with the same files must give the same spans, and without the files the
site's own names stay in clear (so the options are what finds them). All names are invented.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, start_server

from phiscrub.deid import Deidentifier
from phiscrub.document import Document

NOTES = [
    ("n1", "P77", "Pt transferred to Quenby Tower 4 from KRMH overnight; seen by Hollis."),
    ("n2", "P77", "yesterday ZEBRINA said she felt better; MRN 55-1234-9 checked."),
    ("n3", None, "Pt seen in Larchmont clinic, sodium stable."),
]


def _site(folder: Path) -> list[str]:
    lists = folder / "lists"
    lists.mkdir()
    (lists / "facilities.txt").write_text("Kestrel Ridge Medical Hospital\nKRMH\n", encoding="utf-8")
    (lists / "units.txt").write_text("Quenby Tower 4\n", encoding="utf-8")
    (lists / "staff.txt").write_text("Hollis Fenwright\n", encoding="utf-8")
    registry = folder / "registry.csv"
    registry.write_text(
        "patient_id,first,last,mrn,dob\nP77,Zebrina,Ortolano,551234 9,1950-03-02\n", encoding="utf-8"
    )
    allow = folder / "allow.txt"
    allow.write_text("Larchmont\n", encoding="utf-8")
    return ["--site-lists", str(lists), "--registry", str(registry), "--allow-list", str(allow)]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("site")
    return folder, _site(folder)


@pytest.fixture(scope="module")
def server(site: tuple[Path, list[str]]) -> Iterator[LiveServer]:
    folder, args = site
    srv = start_server(folder / "server.log", ["--rules-only", *args])
    yield srv
    srv.stop()


def _served(server: LiveServer) -> dict[str, list[tuple[int, int]]]:
    body = {"notes": [{"id": i, "text": t, **({"patient_id": p} if p else {})} for i, p, t in NOTES]}
    with httpx.Client(base_url=server.url, timeout=60.0) as client:
        res = client.post("/v1/detect", json=body, headers=server.headers())
    assert res.status_code == 200, res.text
    return {r["id"]: sorted((s["start"], s["end"]) for s in r["spans"]) for r in res.json()["results"]}


def test_the_service_finds_what_the_site_lists_and_registry_name(
    server: LiveServer, site: tuple[Path, list[str]]
) -> None:
    folder, _ = site
    served = _served(server)
    api = Deidentifier(
        model=None,
        site_lists=folder / "lists",
        registry=folder / "registry.csv",
        allow_list=folder / "allow.txt",
    )
    docs = [Document(i, t, (), {"patient_id": p} if p else {}) for i, p, t in NOTES]
    expected = {
        d.id: sorted((s.start, s.end) for s in spans) for d, spans in zip(docs, api.detect_many(docs))
    }
    assert served == expected
    covered = {i: "".join(t[a:b] + "|" for a, b in served[i]) for i, _, t in NOTES}
    for surface in ("Quenby Tower 4", "KRMH", "Hollis"):
        assert surface in covered["n1"]
    assert "ZEBRINA" in covered["n2"] and "55-1234-9" in covered["n2"]
    assert "Larchmont" not in covered["n3"]
    # Without the options, the rules alone leave the registry's name in clear (they do find "from
    # KRMH" by its shape: a hospital's capitals ending in H after "from").
    bare = Deidentifier(model=None).detect_many(docs)
    bare_cov = {d.id: "".join(d.text[s.start : s.end] + "|" for s in spans) for d, spans in zip(docs, bare)}
    assert "ZEBRINA" not in bare_cov["n2"]
