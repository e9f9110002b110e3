"""Real inputs for the report tests: a rules-only redact run and an evaluation, made-up PHI only.

Everything goes through the real command line (``phiscrub redact``, ``predict``, ``evaluate``,
``report``) in-process with click's runner.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result

from phiscrub.cli.app import cli

#: Notes of the redact run (folder input: ids are relative paths). Every PHI string here is one the
#: rules find, so none of it may survive into the redacted output.
NOTES: dict[str, str] = {
    "clinic/a1": "Seen by Dr. Zoltan Quenwick on 03/12/2019. Call 617-555-0134. MRN 99887766. "
    "Quenwick will follow up.",
    "clinic/a2": "Patient: Marisol Threnody, 84 years old. Email mthrenody@example.org. Seen 2021-07-14 "
    "at Wexhampton General Hospital.",
    "clinic/a3": "No PHI in this short note. Vitals stable.",
    "ward/b1": "Mr. Bartholomew Oxlade was admitted on 11/02/2020 to room 412. Contact his daughter at "
    "(212) 555-0199.",
    "ward/b2": "Dr. Ysolde Fenwright reviewed the chart on 01/05/2022. SSN 123-45-6789 on file.",
    "ward/b3": "Discharged on 12/24/2021. Follow-up with Dr. Quenwick in 2 weeks. <script>alert(1)</script>",
    "ward/b4": "Lives at 42 Larkspur Lane. Phone 617-555-0177.",
    "ward/b5": "",
}
#: The synthetic PHI strings of :data:`NOTES`.
RUN_PHI: tuple[str, ...] = (
    "Zoltan Quenwick",
    "Quenwick",
    "03/12/2019",
    "617-555-0134",
    "99887766",
    "Marisol Threnody",
    "mthrenody@example.org",
    "2021-07-14",
    "Wexhampton General Hospital",
    "Bartholomew Oxlade",
    "11/02/2020",
    "(212) 555-0199",
    "Ysolde Fenwright",
    "01/05/2022",
    "123-45-6789",
    "12/24/2021",
    "42 Larkspur Lane",
    "617-555-0177",
)
#: A file that is not UTF-8: the run fails it (decode_error) and writes it empty.
BAD_NOTE = ("ward/c9", b"Zoltan \xff Quenwick\n")

#: Gold notes of the evaluation: ``(id, text, [(surface, coarse label), ...])``. The rules miss the
#: bare name of g2 and the town of g3 (false negatives), find the unannotated date of g2 (a false
#: positive), and the name of g5 without the "Dr." the gold includes (a boundary error: both).
GOLD: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "g1",
        "Seen by Dr. Zoltan Quenwick on 03/12/2019. Call 617-555-0134.",
        [("Zoltan Quenwick", "NAME"), ("03/12/2019", "DATE"), ("617-555-0134", "CONTACT")],
    ),
    (
        "g2",
        "Marisol Threnody was admitted. MRN 99887766. Follow-up on 04/05/2020.",
        [("Marisol Threnody", "NAME"), ("99887766", "ID")],
    ),
    ("g3", "Patient reports no pain. Visited Wexhampton.", [("Wexhampton", "LOCATION")]),
    ("g4", "No PHI in this note.", []),
    (
        "g5",
        "Reviewed by Dr. Ysolde Fenwright on 01/05/2022.",
        [("Dr. Ysolde Fenwright", "NAME"), ("01/05/2022", "DATE")],
    ),
]
#: The synthetic PHI strings of :data:`GOLD`, the unannotated date included.
EVAL_PHI: tuple[str, ...] = (
    "Zoltan Quenwick",
    "03/12/2019",
    "617-555-0134",
    "Marisol Threnody",
    "99887766",
    "04/05/2020",
    "Wexhampton",
    "Ysolde Fenwright",
    "01/05/2022",
)


def invoke(args: list[str], expect: int | None = 0) -> Result:
    """Run ``phiscrub ARGS`` in-process; check its exit status unless ``expect`` is None."""
    result = CliRunner().invoke(cli, args)
    if expect is not None:
        assert result.exit_code == expect, (result.exit_code, result.output, result.exception)
    return result


def write_notes(folder: Path, notes: dict[str, str] | None = None, bad: bool = True) -> Path:
    """Write ``notes`` (default :data:`NOTES`) as ``.txt`` files, plus :data:`BAD_NOTE` if ``bad``."""
    for doc_id, text in (NOTES if notes is None else notes).items():
        path = folder / f"{doc_id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if bad:
        path = folder / f"{BAD_NOTE[0]}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(BAD_NOTE[1])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass(frozen=True)
class Run:
    """A redact run: its input folder and OUTDIR."""

    notes: Path
    out: Path


def redact_run(root: Path) -> Run:
    """Redact :data:`NOTES` (and the bad note) rules-only into ``root/out`` (exit 1: one failed)."""
    notes = write_notes(root / "notes")
    out = root / "out"
    invoke(["redact", str(notes), "-o", str(out), "--rules-only"], expect=1)
    return Run(notes, out)


@dataclass(frozen=True)
class Evaluation:
    """An evaluation: the gold corpus, the rules' predictions and the ``--out-dir`` folder."""

    gold: Path
    pred: Path
    out: Path


def write_gold(path: Path) -> Path:
    """:data:`GOLD` as a standoff JSONL corpus."""
    with path.open("w", encoding="utf-8") as fh:
        for doc_id, text, annotations in GOLD:
            spans, cursor = [], 0
            for surface, label in annotations:
                start = text.index(surface, cursor)
                spans.append({"start": start, "end": start + len(surface), "label": label})
                cursor = start + 1
            fh.write(json.dumps({"id": doc_id, "text": text, "spans": spans}) + "\n")
    return path


def evaluation(root: Path) -> Evaluation:
    """Predict :data:`GOLD` with the rules (``predict --model none``) and evaluate with ``--out-dir``."""
    gold = write_gold(root / "gold.jsonl")
    pred = root / "pred.jsonl"
    invoke(["predict", str(gold), "-o", str(pred), "--model", "none"])
    out = root / "eval"
    here = Path.cwd()
    os.chdir(root)  # where a default ./evaluation.* would land
    try:
        invoke(["evaluate", "--gold", str(gold), "--pred", str(pred), "--out-dir", str(out)])
    finally:
        os.chdir(here)
    return Evaluation(gold, pred, out)


def jsonl(path: Path) -> list[dict[str, object]]:
    """The objects of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
