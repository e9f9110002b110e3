"""The review page of ``phiscrub serve`` in a real headless browser (Debian chromium + chromedriver).

Loads ``/`` from a real server on 127.0.0.1, opens and pastes a note, checks the highlighted spans,
the legend, the span details and the redacted text against the API, switches mode, downloads the
result, and takes a screenshot (``docs/img/review-page.png`` with ``PHISCRUB_UPDATE_SCREENSHOTS=1``). Fails (never skips) without chromium: see
``tests/browser.py`` and ``.ci/system-deps``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import NOTE, NOTE_PHI, TOKEN, LiveServer, start_server

from browser import chrome_driver, screenshot_path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    srv = start_server(tmp_path_factory.mktemp("page") / "server.log", [])
    yield srv
    srv.stop()


def wait_for(what: Callable[[], Any], timeout: float = 30.0, message: str = "condition") -> Any:
    """Poll ``what`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {message}")


def api(server: LiveServer, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/v1/redact", json=body, headers=server.headers(), timeout=60)
    r.raise_for_status()
    return r.json()


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.execute_script(f"return document.getElementById('{element_id}').textContent"))


def marks(driver: Any, pane: str) -> list[tuple[str, str]]:
    found = driver.find_elements("css selector", f"#{pane} mark.phi")
    return [(m.get_attribute("data-label"), m.get_attribute("textContent")) for m in found]


def runs(driver: Any) -> int:
    """Runs the page has finished (``data-runs`` of the status line)."""
    return int(driver.execute_script("return document.getElementById('status').dataset.runs || '0'"))


def act_and_wait(driver: Any, action: Callable[[], Any]) -> str:
    """Do ``action`` (which starts a run), wait until that run finished; return the status line."""
    before = runs(driver)
    action()
    wait_for(lambda: runs(driver) > before, message="the page's answer")
    return text_of(driver, "status")


def sign_in_and_open(driver: Any, server: LiveServer, note_file: Path) -> dict[str, Any]:
    """A wrong token shows nothing; the right one is kept in sessionStorage; opening a file runs it."""
    driver.get(server.url + "/")
    assert driver.title == "phiscrub review"
    wait_for(lambda: "token required" in text_of(driver, "server"), message="the server status")
    assert driver.find_element("id", "auth-row").is_displayed()

    # A wrong token: the page says so and shows nothing.
    driver.find_element("id", "token").send_keys("not-the-token")
    driver.find_element("id", "note").send_keys("Seen by Dr. Alan Grant.")
    assert "401" in act_and_wait(driver, driver.find_element("id", "run").click)
    assert marks(driver, "original") == []

    # The right token, kept in this tab's sessionStorage only; open a file (runs at once).
    driver.find_element("id", "token").clear()
    driver.find_element("id", "token").send_keys(TOKEN)
    assert driver.execute_script("return sessionStorage.getItem('phiscrub.token')") == TOKEN
    assert driver.execute_script("return localStorage.length") == 0
    status = act_and_wait(driver, lambda: driver.find_element("id", "file").send_keys(str(note_file)))
    want = api(server, text=NOTE, mode="placeholder", labels="coarse")
    assert status.startswith(f"{len(want['spans'])} PHI span(s) found, policy safe-harbor, mode placeholder")
    assert driver.find_element("id", "note").get_attribute("value") == NOTE
    return want


def check_highlights_and_legend(driver: Any, want: dict[str, Any]) -> None:
    """Every span of the API is highlighted with its label; one colour per label, counted in the legend."""
    assert marks(driver, "original") == [(s["label"], NOTE[s["start"] : s["end"]]) for s in want["spans"]]
    assert set(NOTE_PHI) <= {t for _, t in marks(driver, "original")}
    assert text_of(driver, "original") == NOTE
    assert text_of(driver, "redacted") == want["text"]
    assert [t for _, t in marks(driver, "redacted")] == [f"[{s['label']}]" for s in want["spans"]]
    colour = driver.execute_script(
        "const c = {}; for (const m of document.querySelectorAll('#original mark.phi'))"
        " c[m.dataset.label] = getComputedStyle(m).backgroundColor; return c;"
    )
    assert len(set(colour.values())) == len(colour)
    legend = {c.get_attribute("data-label"): c for c in driver.find_elements("css selector", "#legend .chip")}
    assert set(legend) == {s["label"] for s in want["spans"]}
    for label, chip in legend.items():
        count = sum(s["label"] == label for s in want["spans"])
        assert chip.get_attribute("textContent") == f"{label} {count}"
        swatch = driver.execute_script(
            "return getComputedStyle(arguments[0]).backgroundColor",
            chip.find_element("css selector", ".swatch"),
        )
        assert swatch == colour[label]


def check_details(driver: Any, want: dict[str, Any]) -> int:
    """Clicking a span shows its label, source and score; returns the span's index."""
    index = next(i for i, s in enumerate(want["spans"]) if NOTE[s["start"] : s["end"]] == "Mercy Hospital")
    driver.find_element("css selector", f'#original mark[data-index="{index}"]').click()
    span = want["spans"][index]
    field = lambda k: driver.find_element("css selector", f'#details dd[data-field="{k}"]').text
    assert (field("label"), field("source"), field("score")) == (
        span["label"],
        span["source"],
        f"{span['score']:.3f}",
    )
    assert field("replaced by") == f"[{span['label']}]"
    return index


def check_switches(driver: Any, server: LiveServer, want: dict[str, Any], index: int) -> None:
    """Switching mode runs again; a pasted note runs with another policy; back to the first note."""
    from selenium.webdriver.support.ui import Select

    def select(element_id: str, value: str) -> None:
        Select(driver.find_element("id", element_id)).select_by_value(value)

    assert "mode mask" in act_and_wait(driver, lambda: select("mode", "mask"))
    assert text_of(driver, "redacted") == api(server, text=NOTE, mode="mask", labels="coarse")["text"]

    pasted = "Mr. John Smith is a 45 year old teacher from Ohio, seen on 04/05/2021."
    driver.find_element("id", "note").clear()
    driver.find_element("id", "note").send_keys(pasted)
    assert "mode placeholder" in act_and_wait(driver, lambda: select("mode", "placeholder"))
    assert "policy i2b2" in act_and_wait(driver, lambda: select("policy", "i2b2"))
    want2 = api(server, text=pasted, mode="placeholder", policy="i2b2", labels="coarse")
    assert text_of(driver, "redacted") == want2["text"]
    assert ("AGE", "45") in marks(driver, "original")

    # The screenshot of docs/service.md: the first note, a span selected.
    driver.find_element("id", "note").clear()
    driver.find_element("id", "note").send_keys(NOTE)
    assert "policy safe-harbor" in act_and_wait(driver, lambda: select("policy", ""))
    act_and_wait(driver, driver.find_element("id", "run").click)
    assert text_of(driver, "redacted") == want["text"]
    driver.find_element("css selector", f'#original mark[data-index="{index}"]').click()


def test_review_page_highlights_redacts_and_downloads(server: LiveServer, tmp_path: Path) -> None:
    note_file = tmp_path / "clinic-note.txt"
    note_file.write_text(NOTE, encoding="utf-8")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with chrome_driver(1440, 1000) as driver:
        driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
        )
        want = sign_in_and_open(driver, server, note_file)
        check_highlights_and_legend(driver, want)
        index = check_details(driver, want)

        # Download the redacted text.
        driver.find_element("id", "download-text").click()
        got = wait_for(lambda: list(downloads.glob("clinic-note.redacted.txt")), message="the download")
        wait_for(lambda: got[0].read_text(encoding="utf-8") == want["text"], message="the whole download")

        check_switches(driver, server, want, index)

        # Everything the page loaded came from this server.
        loaded = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert loaded and all(u.startswith(server.url + "/") for u in loaded)

        shot = screenshot_path("review-page.png", tmp_path)
        shot.parent.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
