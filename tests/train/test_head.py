"""--init-from a model of other labels: fold (BIO-aware) or re-initialise its head."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("torch")

import torch

from phiscrub.cli.app import cli
from phiscrub.tagger.encoding import tag_set
from phiscrub.train.head import refit_head, tag_mapping

NAMES = ["Ana Ruiz", "Luis Gil", "Eva Sanz", "Pau Roca"]


def _corpus(root: Path, n: int = 8) -> Path:
    """Synthetic BRAT notes with fine labels (PATIENT, DOCTOR, DATE)."""
    root.mkdir()
    for i in range(n):
        pat, doc, day = NAMES[i % 4], NAMES[(i + 1) % 4], str(3 + i)
        text = f"Paciente {pat} visto por Dr. {doc} el {day} de marzo.\n"
        spans = [
            ("PATIENT", text.index(pat), text.index(pat) + len(pat)),
            ("DOCTOR", text.index(doc, text.index("Dr.")), text.index(doc, text.index("Dr.")) + len(doc)),
            ("DATE", text.index(f"{day} de"), text.index(" de marzo") + len(" de marzo")),
        ]
        (root / f"n{i}.txt").write_text(text, encoding="utf-8")
        ann = "".join(f"T{k}\t{lab} {s} {e}\t{text[s:e]}\n" for k, (lab, s, e) in enumerate(spans, 1))
        (root / f"n{i}.ann").write_text(ann, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def fine_model(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("head")
    corpus = _corpus(root / "gold")
    model = root / "fine"
    result = CliRunner().invoke(
        cli,
        ["train", "--train", str(corpus), "--labels", "fine", "--encoder", "bilstm-crf"]
        + ["--epochs", "2", "--seed", "0", "-o", str(model)],
    )
    assert result.exit_code == 0, result.output
    return corpus, model


def test_tag_mapping_is_bio_aware() -> None:
    groups = tag_mapping(tag_set("fine"), "coarse")
    fine = tag_set("fine")
    assert sorted(fine[i] for i in groups["B-NAME"]) == ["B-DOCTOR", "B-PATIENT", "B-RELATIVE", "B-USERNAME"]
    assert sorted(fine[i] for i in groups["I-NAME"]) == ["I-DOCTOR", "I-PATIENT", "I-RELATIVE", "I-USERNAME"]
    assert [fine[i] for i in groups["O"]] == ["O"]


def test_fold_merges_rows_and_takes_max_transitions(fine_model: tuple[Path, Path]) -> None:
    from phiscrub.train.trainer import load_tagger

    model = load_tagger(fine_model[1])
    old_tags, old_w, old_b = model.tags, model.head.weight.detach().clone(), model.head.bias.detach().clone()
    old_trans = model.crf.transitions.detach().clone()
    refit_head(model, "coarse", "fold")
    assert model.tags == tag_set("coarse")
    assert model.config.granularity == "coarse"
    rows = [old_tags.index(t) for t in ("B-DOCTOR", "B-PATIENT", "B-RELATIVE", "B-USERNAME")]
    j = model.tags.index("B-NAME")
    assert torch.allclose(model.head.weight[j], old_w[rows].mean(0))
    assert model.head.bias[j].item() == pytest.approx(old_b[rows].mean().item() + math.log(4), abs=1e-5)
    o_new, o_old = model.tags.index("O"), old_tags.index("O")
    assert model.crf.transitions[o_new, j].item() == pytest.approx(old_trans[o_old, rows].max().item())


def test_reinit_gives_a_fresh_head_of_the_new_size(fine_model: tuple[Path, Path]) -> None:
    from phiscrub.train.trainer import load_tagger

    model = load_tagger(fine_model[1])
    refit_head(model, "phicon5", "reinit")
    assert model.head.out_features == len(tag_set("phicon5"))
    assert float(model.crf.transitions.detach().abs().sum()) == 0.0


@pytest.mark.parametrize(("head", "ok"), [(None, False), ("fold", True), ("reinit", True)])
def test_train_init_from_fine_model_with_coarse_labels(
    fine_model: tuple[Path, Path], tmp_path: Path, head: str | None, ok: bool
) -> None:
    corpus, fine = fine_model
    out = tmp_path / "coarse"
    args = ["train", "--train", str(corpus), "--init-from", str(fine), "--labels", "coarse"]
    args += ["--epochs", "1", "-o", str(out)] + (["--head", head] if head else [])
    result = CliRunner().invoke(cli, args)
    if not ok:
        assert result.exit_code != 0
        assert "--head fold" in str(result.exception)
        return
    assert result.exit_code == 0, result.output
    labels = json.loads((out / "labels.json").read_text(encoding="utf-8"))
    assert labels["granularity"] == "coarse"
    assert labels["tags"] == list(tag_set("coarse"))
