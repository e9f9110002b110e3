"""A real headless browser for the browser tests: Debian ``chromium`` driven by ``chromium-driver``.

Shared by every test that loads a page (the review page of ``phiscrub serve``, the HTML reports).
``.ci/system-deps`` installs both packages; the README test command runs it first. Nothing is
downloaded at test time: a missing browser, driver or selenium is a test failure, never a skip.

Usage::

    from browser import chrome_driver

    with chrome_driver() as driver:
        driver.get(url)
        driver.save_screenshot("docs/img/page.png")
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

__all__ = ["CHROMEDRIVER", "CHROMIUM", "chrome_driver", "new_chrome_driver"]

#: The Debian ``chromium`` binary (override with ``$PHISCRUB_CHROMIUM``).
CHROMIUM = Path(os.environ.get("PHISCRUB_CHROMIUM", "/usr/bin/chromium"))
#: The Debian ``chromium-driver`` binary (override with ``$PHISCRUB_CHROMEDRIVER``).
CHROMEDRIVER = Path(os.environ.get("PHISCRUB_CHROMEDRIVER", "/usr/bin/chromedriver"))

_INSTALL_HINT = "run .ci/system-deps (apt-get install chromium chromium-driver)"


def _require_binaries() -> None:
    """Fail the calling test, loudly, when the browser or its driver is not installed."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not (p.is_file() and os.access(p, os.X_OK))]
    if missing:
        pytest.fail(f"headless browser test needs {', '.join(missing)}: {_INSTALL_HINT}", pytrace=False)


def new_chrome_driver(width: int = 1280, height: int = 900) -> Any:
    """A selenium headless Chrome driver on the Debian chromium; the caller must ``quit()`` it.

    Selenium Manager is never used (it would download a browser): the driver path is given.

    Args:
        width: window width in CSS pixels (screenshots have this size).
        height: window height in CSS pixels.

    Raises:
        pytest.fail.Exception: chromium, chromedriver or selenium is missing.
    """
    _require_binaries()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("browser tests need selenium: pip install -e '.[dev]'", pytrace=False)
    profile = tempfile.mkdtemp(prefix="phiscrub-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI containers run as root, where the sandbox cannot start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    # Remove the profile with the driver.
    quit_driver = driver.quit

    def quit_and_clean() -> None:
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


@contextmanager
def chrome_driver(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """:func:`new_chrome_driver` as a context manager: the browser is closed on exit."""
    driver = new_chrome_driver(width, height)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot_path(name: str, tmp_path: Path) -> Path:
    """Where a browser test saves its screenshot ``name``.

    ``docs/img/<name>`` when ``PHISCRUB_UPDATE_SCREENSHOTS=1`` (to refresh the docs' pictures), else the
    test's own temporary folder, so a test run leaves the checkout clean. The screenshot is taken and
    checked either way.
    """
    if os.environ.get("PHISCRUB_UPDATE_SCREENSHOTS") == "1":
        return Path(__file__).resolve().parents[1] / "docs" / "img" / name
    return tmp_path / name
