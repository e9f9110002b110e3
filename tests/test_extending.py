"""Extension points (issue 26, item 5): the registries, extra detectors, per-label operators, and a
third-party package's detector and operator found through entry points by a real ``phiscrub redact``.

The plugin is a real installed distribution as far as :mod:`importlib.metadata` can tell: a package
folder and its ``*.dist-info`` (``METADATA``, ``entry_points.txt``) on the ``PYTHONPATH`` of the
subprocess, which is what ``pip install`` leaves in ``site-packages``. All data is invented.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.registry import DETECTORS, OPERATORS, Registry

DOCS = Path(__file__).resolve().parents[1] / "docs" / "extending.md"

PLUGIN = '''
import re
from phiscrub.document import Span


class BadgeDetector:
    """Staff badge numbers of the (invented) hospital: "NG-BADGE 88213"."""

    name = "badges"
    pattern = re.compile(r"NG-BADGE \\d{5}")

    def detect(self, doc):
        return [Span(m.start(), m.end(), "IDNUM", 1.0, self.name) for m in self.pattern.finditer(doc.text)]


class Redacted:
    def apply(self, surface, span, ctx):
        return "[REDACTED]"
'''


def _plugin(folder: Path) -> Path:
    site = folder / "site"
    (site / "ng_plugin").mkdir(parents=True)
    (site / "ng_plugin" / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "ng_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ng-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[phiscrub.detectors]\nbadges = ng_plugin:BadgeDetector\n\n"
        "[phiscrub.operators]\nredacted = ng_plugin:Redacted\n",
        encoding="utf-8",
    )
    return site


def _env(site: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return env


def _python(code: str, site: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that sees the plugin package of ``site``."""
    return subprocess.run(
        [sys.executable, "-c", code], env=_env(site), capture_output=True, text=True, timeout=300, check=True
    )


def _redact(notes: Path, out: Path, site: Path | None) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "phiscrub.cli", "redact", str(notes), "-o", str(out), "--rules-only"],
        env=_env(site),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return (out / "n1.txt").read_text(encoding="utf-8")


def test_an_installed_plugin_detector_is_picked_up_by_phiscrub_redact(tmp_path: Path) -> None:
    site = _plugin(tmp_path)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_text("Badge NG-BADGE 88213 scanned on 03/12/2019.\n", encoding="utf-8")
    assert _redact(notes, tmp_path / "with", site) == "Badge [ID] scanned on [DATE].\n"
    assert _redact(notes, tmp_path / "without", None) == "Badge NG-BADGE 88213 scanned on [DATE].\n"


def test_plugin_operators_by_name_and_plugins_can_be_left_out(tmp_path: Path) -> None:
    site = _plugin(tmp_path)
    code = (
        "from phiscrub import Deidentifier\n"
        "from phiscrub.registry import DETECTORS, OPERATORS\n"
        "text = 'Badge NG-BADGE 88213, Dr. Alan Grant, 03/12/2019.'\n"
        "print('badges' in DETECTORS.names(), 'redacted' in OPERATORS.names())\n"
        "print(Deidentifier(model=None, operators={'NAME': 'redacted'}).redact(text).text)\n"
        "print(Deidentifier(model=None, plugins=False).redact(text).text)\n"
    )
    run = _python(code, site)
    assert run.stdout.splitlines() == [
        "True True",
        "Badge [ID], Dr. [REDACTED], [DATE].",
        "Badge NG-BADGE 88213, Dr. [NAME], [DATE].",
    ]


def test_a_broken_plugin_is_skipped_with_a_warning_that_names_it(tmp_path: Path) -> None:
    site = _plugin(tmp_path)
    (site / "ng_plugin" / "__init__.py").write_text(
        "raise ImportError('broken on purpose')\n", encoding="utf-8"
    )
    code = (
        "import logging; logging.basicConfig(level=logging.WARNING)\n"
        "from phiscrub import Deidentifier\n"
        "print(Deidentifier(model=None).redact('Seen on 03/12/2019.').text)\n"
    )
    run = _python(code, site)
    assert run.stdout.strip() == "Seen on [DATE]."
    assert "detector plugin badges (ng_plugin:BadgeDetector) cannot be loaded: ImportError" in run.stderr


def test_the_run_manifest_records_the_plugins(tmp_path: Path) -> None:
    """A resumed run must find the same plugins: their names are part of the run's fingerprint."""
    site = _plugin(tmp_path)
    code = (
        "import json\n"
        "from pathlib import Path\n"
        "from phiscrub.engine_config import DeidConfig\n"
        "from phiscrub.runs.redact import _engine_fingerprint\n"
        "print(json.dumps([_engine_fingerprint(DeidConfig(model=None, plugins=p))['plugins'] for p in (True, False)]))\n"
    )
    run = _python(code, site)
    assert json.loads(run.stdout) == [["badges"], False]


def test_extra_detectors_add_to_the_defaults_by_object_or_name() -> None:
    class Codes:
        name = "codes"

        def detect(self, doc: Document) -> list[Span]:
            start = doc.text.find("QX-77")
            return [] if start < 0 else [Span(start, start + 5, "IDNUM", 1.0, self.name)]

    text = "Code QX-77 for Dr. Alan Grant."
    deid = Deidentifier(model=None, extra_detectors=[Codes(), "lexicon"], plugins=False)
    assert deid.redact(text).text == "Code [ID] for Dr. [NAME]."
    assert [d.name for d in deid.active_detectors][-2:] == ["codes", "lexicon"]
    assert Deidentifier(model=None, plugins=False).redact(text).text == "Code QX-77 for Dr. [NAME]."


def test_unknown_names_are_clear_errors() -> None:
    with pytest.raises(ConfigError, match=r"unknown detector 'nope'; registered: .*date.*lexicon"):
        _ = Deidentifier(model=None, extra_detectors=["nope"]).active_detectors
    with pytest.raises(ConfigError, match=r"unknown operator 'nope'; registered: keep, mask"):
        _ = Deidentifier(model=None, operators={"DATE": "nope"}).transformer


def test_registry_register_get_names_and_duplicates() -> None:
    reg: Registry[object] = Registry("widget", "phiscrub.tests-no-such-group")

    @reg.register("a")
    class A:
        pass

    reg.add("b", lambda: "b made")
    assert reg.names() == ["a", "b"] and "a" in reg and list(reg) == ["a", "b"]
    assert isinstance(reg.get("a"), A) and reg.get("a") is not reg.get("a")  # a new one each time
    assert reg.get("b") == "b made"
    with pytest.raises(ConfigError, match="widget 'a' is registered already"):
        reg.add("a", A)
    assert set(DETECTORS.names()) >= {"date", "contact", "id", "location", "age", "name", "lexicon"}
    assert set(OPERATORS.names()) >= {"placeholder", "mask", "surrogate", "keep"}


def test_the_python_examples_of_the_docs_run() -> None:
    blocks = [b.split("```", 1)[0] for b in DOCS.read_text(encoding="utf-8").split("```python\n")[1:]]
    assert len(blocks) == 2
    for block in blocks:
        expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        run = subprocess.run(
            [sys.executable, "-c", block],
            env=_env(None),
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        assert run.stdout.splitlines() == expected
