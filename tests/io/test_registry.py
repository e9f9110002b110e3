"""The io registry: format names, detection, read_corpus, and the lazily imported placeholder reader."""

from __future__ import annotations

import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import phiscrub.io as pio
from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike, Reader


@pytest.mark.parametrize(
    ("fmt", "reader", "writer"),
    [
        ("brat", pio.BratReader, pio.BratWriter),
        ("i2b2", pio.I2b2Reader, pio.I2b2Writer),
        ("conll", pio.ConllReader, pio.ConllWriter),
        ("jsonl", pio.JsonlReader, pio.JsonlWriter),
        ("txt", pio.TextReader, pio.TextWriter),
        ("csv", pio.CsvReader, pio.CsvWriter),
        ("parquet", pio.ParquetReader, pio.ParquetWriter),
    ],
)
def test_registry_builds_readers_and_writers_by_name(fmt: str, reader: type, writer: type) -> None:
    assert isinstance(pio.get_reader(fmt), reader)
    assert isinstance(pio.get_writer(fmt), writer)
    assert pio.get_reader(fmt, corpus="meddocan").corpus == "meddocan"


def test_common_options_are_ignored_by_readers_that_do_not_take_them() -> None:
    reader = pio.get_reader("brat", corpus=None, seed=3)
    assert isinstance(reader, pio.BratReader) and reader.corpus is None
    assert isinstance(pio.get_reader("csv", seed=1, text_column="body"), pio.CsvReader)
    with pytest.raises(ConfigError):
        pio.get_reader("brat", text_column="body")


def test_unknown_format_names_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        pio.get_reader("docx")
    with pytest.raises(ConfigError):
        pio.get_writer("placeholder")


def test_importing_io_does_not_import_transform() -> None:
    code = "import sys, phiscrub.io; assert not any(m.startswith('phiscrub.transform') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_placeholder_reader_is_imported_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakePlaceholderReader(Reader):
        def __init__(self, seed: int = 0) -> None:
            super().__init__()
            self.seed = seed

        def read(self, path: PathLike) -> Iterator[Document]:
            yield Document("p", "[PATIENT]")

    fake = types.ModuleType("phiscrub.transform.placeholders")
    fake.PlaceholderReader = FakePlaceholderReader  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "phiscrub.transform.placeholders", fake)
    reader = pio.get_reader("placeholder", seed=5, corpus="meddocan")  # corpus: not taken, dropped
    assert isinstance(reader, FakePlaceholderReader) and reader.seed == 5 and reader.corpus is None


def _make(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "target", "fmt"),
    [
        ({"a.txt": "x", "a.ann": ""}, ".", "brat"),
        ({"a.txt": "x", "a.ann": ""}, "a.txt", "brat"),
        ({"a.txt": "x", "a.ann": ""}, "a.ann", "brat"),
        ({"a.xml": "<ROOT/>"}, ".", "i2b2"),
        ({"a.xml": "<ROOT/>"}, "a.xml", "i2b2"),
        ({"a.jsonl": "{}"}, "a.jsonl", "jsonl"),
        ({"d/a.ndjson": "{}"}, ".", "jsonl"),
        ({"a.conll": "Ode B-PATIENT\n"}, "a.conll", "conll"),
        ({"a.tsv": "Ode\tB-PATIENT\nis\tO\n"}, "a.tsv", "conll"),
        ({"a.tsv": "id\ttext\n1\tOde\n"}, "a.tsv", "csv"),
        ({"a.bio": "Ode B-PATIENT\n"}, ".", "conll"),
        ({"a.txt": "x", "b/c.txt": "y"}, ".", "txt"),
        ({"a.txt": "x"}, "a.txt", "txt"),
        ({"a.csv": "text\nx\n"}, "a.csv", "csv"),
    ],
)
def test_detect_format(tmp_path: Path, files: dict[str, str], target: str, fmt: str) -> None:
    root = _make(tmp_path, files)
    assert pio.detect_format(root / target) == fmt


@pytest.mark.parametrize("files", [{"a.md": "x"}, {}])
def test_detect_format_fails_on_unknown_content(tmp_path: Path, files: dict[str, str]) -> None:
    root = _make(tmp_path, files)
    with pytest.raises(InputFormatError):
        pio.detect_format(root)
    with pytest.raises(InputFormatError):
        pio.detect_format(root / "missing.txt")


def test_read_corpus_detects_the_format_and_returns_problems(tmp_path: Path) -> None:
    root = _make(
        tmp_path,
        {
            "a.txt": "Zoë Quenwick, 53 años",
            "a.ann": "T1\tNOMBRE_SUJETO_ASISTENCIA 0 12\tZoë Quenwick\nT2\tEDAD_SUJETO_ASISTENCIA 14 21\t53 años\n"
            "T3\tFECHAS 14 99\tx\n",
        },
    )
    docs, problems = pio.read_corpus(root, corpus="meddocan")
    assert [(s.label, docs[0].surface(s)) for s in docs[0].spans] == [
        ("PATIENT", "Zoë Quenwick"),
        ("AGE", "53 años"),
    ]
    assert [(p.doc_id, p.kind, p.span_id) for p in problems] == [("a", "span_offset", "T3")]
    docs, problems = pio.read_corpus(root, fmt="txt")
    assert docs[0].spans == () and problems == []
