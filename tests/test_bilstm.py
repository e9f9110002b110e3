"""The character + word BiLSTM-CRF backbone: trains, saves, loads, predicts exact offsets, keeps no PHI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from corpora import Part, generate_docs, make_doc, tiny_bilstm_config
from phiscrub.cli.app import cli
from phiscrub.detect.tagger import TaggerDetector, load_model_detector
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, ModelError
from phiscrub.evaluate.metrics import evaluate
from phiscrub.tagger.bilstm import encode_words, word_windows
from phiscrub.tagger.crf import CRF
from phiscrub.tagger.encoding import is_valid_bio, tag_set
from phiscrub.tagger.lstm import FastCRF, PaddedBiLSTM
from phiscrub.tagger.model import PhiTagger
from phiscrub.tagger.vocab import Vocab, normalize_word
from phiscrub.text import tokenize
from phiscrub.train import BiLstmTagger, TrainConfig, load_tagger, predict_words, train
from phiscrub.train.dataset import build_word_examples

# Made-up people, places and dates only (synthetic PHI).
FIRST = ("José", "Núria", "Ælfric", "Zoë", "Ångel", "Çelik", "Îsa", "Øyvind")
LAST = ("Ñúñez", "Gârcia", "Löwe", "Þórsson", "Dvořák", "Ünal", "Éclair", "Šimek")
CITIES = ("Sévilla", "Müllerdorf", "Łódźka", "Årvik")
CJK_NAMES = ("王小明", "李华", "张伟", "陈静")

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _accented_parts(rng: random.Random) -> list[Part]:
    return [
        ("Paciente ", None),
        (f"{rng.choice(FIRST)} {rng.choice(LAST)}", "PATIENT"),
        (" ingresó el ", None),
        (f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/20{rng.randint(10, 24)}", "DATE"),
        (" en ", None),
        (rng.choice(CITIES), "CITY"),
        (". Control en dos semanas.", None),
    ]


def _cjk_parts(rng: random.Random) -> list[Part]:
    return [
        ("患者", None),
        (rng.choice(CJK_NAMES), "PATIENT"),
        ("于", None),
        (f"20{rng.randint(10, 24)}年{rng.randint(1, 12)}月", "DATE"),
        ("入院。", None),
    ]


def accented_docs(n: int, seed: int) -> list[Document]:
    return generate_docs([f"acc{seed}-{i}" for i in range(n)], seed, _accented_parts)


def cjk_docs(n: int, seed: int) -> list[Document]:
    return generate_docs([f"cjk{seed}-{i}" for i in range(n)], seed, _cjk_parts)


@pytest.fixture(scope="module")
def corpus() -> list[Document]:
    return accented_docs(12, seed=1) + cjk_docs(8, seed=2)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory, corpus: list[Document]) -> Path:
    out = tmp_path_factory.mktemp("bilstm") / "model"
    result = train(corpus, corpus, tiny_bilstm_config(epochs=40, patience=6), out, progress=False)
    assert result.best_dev_f1 == 1.0
    return out


def test_training_lowers_the_loss_and_writes_a_marked_model_folder(
    model_dir: Path, corpus: list[Document]
) -> None:
    summary = json.loads((model_dir / "training.json").read_text())
    losses = [h["train_loss"] for h in summary["history"]]
    assert losses[-1] < 0.1 * losses[0]
    assert summary["config"]["encoder"] == "bilstm-crf"
    assert json.loads((model_dir / "config.json").read_text())["encoder"] == "bilstm-crf"
    assert json.loads((model_dir / "meta.json").read_text())["backbone"] == "bilstm-crf"
    assert sorted(p.name for p in model_dir.iterdir()) == [
        "config.json",
        "labels.json",
        "meta.json",
        "tagger.safetensors",
        "training.json",
        "vocab.json",
    ]


def test_the_vocabulary_holds_no_word_of_a_gold_span(model_dir: Path, corpus: list[Document]) -> None:
    words = set(json.loads((model_dir / "vocab.json").read_text(encoding="utf-8"))["words"])
    phi = {normalize_word(t.text) for d in corpus for s in d.spans for t in tokenize(d.surface(s))}
    assert phi and not words & phi
    assert {"paciente", "ingresó", "患", "入"} <= words
    assert normalize_word("12/05/2019") == "00/00/0000"


def test_predictions_have_exact_offsets_on_accented_and_cjk_text(
    model_dir: Path, corpus: list[Document]
) -> None:
    detector = load_model_detector(model_dir)
    assert isinstance(detector, TaggerDetector) and isinstance(detector.model, BiLstmTagger)
    # new made-up notes with unseen names and characters (unknown words and characters)
    fresh = accented_docs(6, seed=7) + cjk_docs(4, seed=8)
    fresh.append(make_doc("new", [("Paciente ", None), ("Ŵÿnne Ḱöhl", "PATIENT"), (" ingresó el ", None)]))
    for docs in (corpus, fresh):
        predicted = [d.with_spans(s) for d, s in zip(docs, detector.detect_many(docs, batch_size=3))]
        for doc, pred in zip(docs, predicted):
            for span in pred.spans:
                assert span.source == "model" and 0.0 < span.score <= 1.0
                surface = doc.text[span.start : span.end]
                assert surface == surface.strip() and surface
        assert evaluate(list(docs), predicted, "coarse").entity.f1 >= (1.0 if docs is corpus else 0.8)
    gold = {(s.start, s.end) for s in corpus[12].spans}
    assert {(s.start, s.end) for s in detector.detect(corpus[12])} == gold  # a CJK note


def test_save_load_round_trip_gives_identical_predictions(
    model_dir: Path, corpus: list[Document], tmp_path: Path
) -> None:
    model = load_tagger(model_dir)
    assert isinstance(model, BiLstmTagger)
    before = predict_words(model, corpus, batch_size=5)
    model.save(tmp_path / "copy")
    again = load_tagger(tmp_path / "copy")
    after = predict_words(again, corpus, batch_size=5)
    assert [p.tags for p in after] == [p.tags for p in before]
    assert [p.probs for p in after] == [p.probs for p in before]
    # other batch sizes pad differently: same tags, probabilities equal up to float rounding
    other = predict_words(again, corpus, batch_size=2)
    assert [p.tags for p in other] == [p.tags for p in before]
    for a, b in zip(other, before):
        assert a.probs == pytest.approx(b.probs, abs=1e-5)
    assert again.config == model.config and again.vocab == model.vocab
    model.save(tmp_path / "f16", dtype="float16")
    half = predict_words(load_tagger(tmp_path / "f16"), corpus)
    assert [p.tags for p in half] == [p.tags for p in before]
    quantized = load_tagger(model_dir, quantize=True)
    assert all(is_valid_bio(p.tags) for p in predict_words(quantized, corpus[:3]))


def test_the_transformer_loader_refuses_a_bilstm_folder(model_dir: Path) -> None:
    with pytest.raises(ModelError, match="load_tagger"):
        PhiTagger.load(model_dir)


def test_a_long_note_is_tagged_whole_across_windows(model_dir: Path) -> None:
    model = load_tagger(model_dir)
    parts: list[tuple[str, str | None]] = []
    for doc in accented_docs(60, seed=11):
        parts += [(doc.text[: doc.spans[0].start], None), (doc.surface(doc.spans[0]), "PATIENT")]
        parts += [(doc.text[doc.spans[0].end :] + " ", None)]
    long_doc = make_doc("long", parts)
    (pred,) = predict_words(model, [long_doc])
    assert len(pred.tags) == len(tokenize(long_doc.text)) > 10 * model.config.bilstm.window
    assert is_valid_bio(pred.tags)
    found = {(s.start, s.end) for s in pred.spans() if s.label == "NAME"}
    gold = {(s.start, s.end) for s in long_doc.spans}
    assert len(found & gold) >= 0.9 * len(gold)


def test_training_is_deterministic_for_a_seed(corpus: list[Document], tmp_path: Path) -> None:
    runs = [
        train(corpus, [], tiny_bilstm_config(max_steps=3), tmp_path / str(i), progress=False)
        for i in range(2)
    ]
    assert runs[0].history[0].train_loss == runs[1].history[0].train_loss
    a, b = (load_tagger(tmp_path / str(i)) for i in range(2))
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


def test_windows_cover_every_word_once_as_owner(corpus: list[Document]) -> None:
    vocab = Vocab.build(corpus)
    (doc,) = encode_words([Document("x", " ".join(["palabra"] * 50) + ".")], vocab, 30)
    windows, owners = word_windows(doc, 16, 4, sentence_aware=True)
    assert len(owners) == len(doc.tokens) == 51
    assert windows[0].words[0] == 0 and windows[-1].words[-1] == 50
    for w, owner in enumerate(owners):
        assert w in windows[owner].words
    assert all(len(win.words) <= 16 for win in windows)


def test_training_windows_start_with_a_valid_bio_tag(corpus: list[Document]) -> None:
    model = BiLstmTagger.from_documents(tiny_bilstm_config(bilstm_window=8, bilstm_overlap=3), corpus)
    examples = build_word_examples(corpus, model)
    assert len(examples) > len(corpus)
    for ex in examples:
        assert is_valid_bio([model.tags[i] for i in ex.labels])


def test_vocab_extension_keeps_known_indices(corpus: list[Document]) -> None:
    base = Vocab.build(corpus[:5])
    bigger = Vocab.build(corpus, base=base)
    assert bigger.words[: len(base.words)] == base.words and len(bigger.words) > len(base.words)
    assert bigger.chars[: len(base.chars)] == base.chars
    assert Vocab.from_dict(json.loads(json.dumps(bigger.to_dict()))) == bigger
    assert base.word_id("nunca-visto") == 1
    assert base.char_ids("abcdefghij", 4) == base.char_ids("abij", 10)


def test_fast_crf_matches_the_reference_crf() -> None:
    tags = tag_set("coarse")
    reference, fast = CRF(tags), FastCRF(tags)
    torch.manual_seed(0)
    with torch.no_grad():
        for p in reference.parameters():
            p.normal_()
    fast.load_state_dict(reference.state_dict())
    emissions = torch.randn(3, 6, len(tags), requires_grad=True)
    mask = torch.tensor([[1] * 6, [1] * 3 + [0] * 3, [1] + [0] * 5]).bool()
    labels = torch.tensor([[0, 1, 2, 0, 3, 4], [5, 6, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]])
    a, b = reference.nll(emissions, labels, mask), fast.nll(emissions, labels, mask)
    (ga,) = torch.autograd.grad(a, emissions)
    (gb,) = torch.autograd.grad(b, emissions)
    torch.testing.assert_close(a, b)
    torch.testing.assert_close(ga, gb)


def test_padded_bilstm_ignores_padding() -> None:
    torch.manual_seed(0)
    lstm = PaddedBiLSTM(5, 4)
    row = torch.randn(1, 3, 5)
    padded = torch.cat([row, torch.randn(1, 4, 5)], dim=1)
    alone = lstm(row, torch.tensor([3]))
    batch = lstm(torch.cat([padded, torch.randn(1, 7, 5)]), torch.tensor([3, 7]))
    torch.testing.assert_close(batch[0, :3], alone[0])
    torch.testing.assert_close(lstm.final(padded, torch.tensor([3])), lstm.final(row, torch.tensor([3])))


@pytest.mark.parametrize(
    "bad",
    [
        {"bilstm_window": 4},
        {"bilstm_overlap": 32},
        {"bilstm_dropout": 1.0},
        {"bilstm_singleton_unk": -0.1},
        {"bilstm_lr": 0.0},
        {"bilstm_hidden": 0},
        {"bilstm_max_word_chars": 1},
        {"bilstm_hiden": 10},
    ],
)
def test_bilstm_config_keys_are_validated(bad: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        TrainConfig.from_dict({"encoder": "bilstm-crf", **bad})


def test_cli_trains_and_predicts_with_the_bilstm(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(6):
        (notes / f"n{i}.txt").write_text(
            f"Patient [PATIENT] seen on [DATE] by Dr. [DOCTOR]. Note {i}.\n", encoding="utf-8"
        )
    model = tmp_path / "model"
    runner = CliRunner()
    args = ["train", "--train", str(notes), "--dev", str(notes), "--format", "placeholder", "-o", str(model)]
    args += [
        "--encoder",
        "bilstm-crf",
        "--epochs",
        "2",
        "--lr",
        "0.01",
        "--max-length",
        "24",
        "--threads",
        "1",
        "--patience",
        "7",
    ]
    result = runner.invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    saved = TrainConfig.from_json(model / "config.json")
    assert (saved.backbone, saved.bilstm.lr, saved.bilstm.window) == ("bilstm-crf", 0.01, 24)
    assert saved.patience == 7
    pred = tmp_path / "pred.jsonl"
    args = ["predict", str(notes), "--format", "placeholder", "-o", str(pred), "--model", str(model)]
    result = runner.invoke(cli, [*args, "--no-rules"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(pred.read_text(encoding="utf-8").splitlines()) == 6


def test_augmented_copies_do_not_inflate_word_counts() -> None:
    src = Document("d1", "Seen by Ana for a rash today.", (Span(8, 11, "DOCTOR"),))
    copy = Document(
        "d1#aug0", "Seen by Eva for a rash today.", (Span(8, 11, "DOCTOR"),), {"augmented_from": "d1"}
    )
    other = Document("d2", "A rash again.", ())
    vocab = Vocab.build([src, copy, other])
    counts = dict(zip(vocab.words, vocab.counts))
    # 'seen' is in one source (and its copy): still a singleton, so word dropout keeps seeing <unk>
    # on non-PHI words; 'rash' is in two sources; PHI words never enter the vocabulary.
    assert counts["seen"] == 1 and counts["rash"] == 2
    assert "ana" not in counts and "eva" not in counts
    singles = dict(zip(vocab.words, vocab.singletons()))
    assert singles["seen"] and not singles["rash"]
