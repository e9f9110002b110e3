"""The HTML reports in a real headless browser (Debian chromium + chromedriver, ``tests/browser.py``).

Opens the report of a real redact run and of a real evaluation from ``file://``, checks that the
SVG charts and highlights render with a size, that the page loads nothing from anywhere (the
Content-Security-Policy and the file itself), and saves ``docs/img/report-redact.png`` and
``docs/img/report-eval.png`` (the screenshots in docs/report.md). Fails, never skips, without
chromium: see ``.ci/system-deps``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from report_data import EVAL_PHI, RUN_PHI, evaluation, invoke, redact_run

from browser import chrome_driver, screenshot_path


def _rendered(driver: Any) -> dict[str, Any]:
    """Sizes of what the page drew, measured by the browser."""
    return dict(
        driver.execute_script(
            """
            const box = (el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
            return {
              charts: [...document.querySelectorAll('svg.chart')].map((el) => ({
                id: el.closest('[id]').id, size: box(el), empty: el.classList.contains('empty')})),
              bars: [...document.querySelectorAll('rect.bar')].map((el) => ({
                value: parseFloat(el.dataset.value), size: box(el)})),
              marks: [...document.querySelectorAll('mark')].map((el) => box(el)),
              resources: performance.getEntriesByType('resource').length,
              text: document.body.innerText,
            };
            """
        )
    )


def _screenshot(driver: Any, path: Path) -> None:
    """The whole page (up to 2,600 px high) as a PNG."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(1280, min(height + 16, 2600))
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


def _check(page: dict[str, Any], chart_ids: set[str], phi: tuple[str, ...]) -> None:
    assert chart_ids <= {c["id"] for c in page["charts"]}
    for chart in page["charts"]:
        assert chart["size"][0] > 100 and chart["size"][1] > 20, chart
    drawn = [b for b in page["bars"] if b["value"] > 0]
    assert drawn and all(b["size"][0] > 0 and b["size"][1] > 0 for b in drawn)
    assert page["marks"] and all(w > 0 and h > 0 for w, h in page["marks"])
    assert page["resources"] == 0  # nothing fetched: one self-contained file
    for s in phi:
        assert s not in page["text"]


@pytest.mark.parametrize("kind", ["redact", "eval"])
def test_report_renders_in_chromium(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # relative paths, as a user types them, in the screenshots
    html = Path(f"report-{kind}.html")
    if kind == "redact":
        run = redact_run(Path("."))
        invoke(["report", str(run.out), "-o", str(html), "--sample", "3", "--seed", "12"])
        charts, phi = {"chart-labels", "chart-sources", "chart-histogram"}, RUN_PHI
    else:
        ev = evaluation(Path("."))
        invoke(["report", str(ev.out), "-o", str(html), "--sample", "3"])
        charts, phi = {"chart-entity", "chart-token", "chart-fn", "chart-fp"}, EVAL_PHI
    with chrome_driver(1280, 900) as driver:
        driver.get(html.resolve().as_uri())
        assert driver.title.startswith("phiscrub ")
        page = _rendered(driver)
        _check(page, charts, phi)
        if kind == "redact":
            assert "Sampled notes" in page["text"] and "[NAME]" in page["text"]
        else:
            assert "False negatives and false positives" in page["text"] and "FN" in page["text"]
        _screenshot(driver, screenshot_path(f"report-{kind}.png", tmp_path))
