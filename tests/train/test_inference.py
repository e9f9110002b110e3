"""Whole-document prediction: windows merged back so every word gets one tag, entities unsplit."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
import torch

from phiscrub.document import Document
from phiscrub.tagger.base import WordEmissions
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.encoding import encode_documents, is_valid_bio, special_affixes
from phiscrub.tagger.features import SHAPE_CLASSES
from phiscrub.tagger.inference import predict_words
from phiscrub.tagger.model import PhiTagger
from phiscrub.tagger.windows import plan_windows
from phiscrub.text import tokenize

from ._docs import synthetic_docs

TITLE = SHAPE_CLASSES.index("title")


def _model(encoder: Path, **changes: object) -> PhiTagger:
    config = TrainConfig(encoder=str(encoder), max_length=32, overlap=8, sentence_aware=False).replace(
        **changes
    )
    return PhiTagger.from_encoder(config).eval()


def _n_windows(model: PhiTagger, doc: Document) -> int:
    (enc,) = encode_documents([doc], model.tokenizer)
    prefix, suffix = special_affixes(model.tokenizer)
    return len(
        plan_windows(enc, model.config.max_length - len(prefix) - len(suffix), model.config.overlap, False)
    )


@pytest.mark.parametrize("use_crf", [True, False])
def test_an_entity_across_many_windows_is_one_span(use_crf: bool, tiny_minilm_dir: Path) -> None:
    model = _model(tiny_minilm_dir, use_crf=use_crf)
    tags = model.tags
    b_name, i_name = tags.index("B-NAME"), tags.index("I-NAME")

    def fake_forward(self: PhiTagger, batch: dict[str, torch.Tensor]) -> WordEmissions:
        # Capitalised words prefer I-NAME (then B-NAME), everything else prefers O.
        shape = batch["shape_ids"]
        em = torch.full((*shape.shape, len(tags)), -8.0)
        title = shape == TITLE
        em[..., 0] = torch.where(title, -4.0, 4.0)
        em[..., b_name] = torch.where(title, 0.0, -8.0)
        em[..., i_name] = torch.where(title, 1.0, -8.0)
        return WordEmissions(em, batch["word_mask"])

    model.forward = types.MethodType(fake_forward, model)  # type: ignore[method-assign]
    names = " ".join(["Quill", "Varga", "Zabel", "Pryce"] * 30)
    text = "the note says " + names + " and that is all for today"
    doc = Document("d", text)
    assert _n_windows(model, doc) >= 4
    (pred,) = predict_words(model, [doc])
    spans = pred.spans()
    start = text.index("Quill")
    assert [(s.start, s.end, s.label) for s in spans] == [(start, start + len(names), "NAME")]
    assert len(pred.tags) == len(tokenize(text)) and is_valid_bio(pred.tags)


def test_each_word_takes_the_window_where_it_is_farthest_from_a_cut(tiny_minilm_dir: Path) -> None:
    model = _model(tiny_minilm_dir, use_crf=False)
    tags = model.tags
    b_name, b_date = tags.index("B-NAME"), tags.index("B-DATE")
    tok = model.tokenizer
    begin_id, finish_id = tok.convert_tokens_to_ids("begin"), tok.convert_tokens_to_ids("finish")

    def fake_forward(self: PhiTagger, batch: dict[str, torch.Tensor]) -> WordEmissions:
        # B-DATE for words within 3 subwords of a cut window edge, B-NAME elsewhere.
        word_mask = batch["word_mask"]
        em = torch.zeros((*word_mask.shape, len(tags)))
        for row in range(word_mask.shape[0]):
            ids = batch["input_ids"][row]
            last = int(batch["attention_mask"][row].sum()) - 2  # last content position
            for pos, slot in enumerate(batch["sub_slot"][row].tolist()):
                if slot < 0:
                    continue
                left = pos - 1 if ids[1] != begin_id else 10**6
                right = last - pos if ids[last] != finish_id else 10**6
                em[row, slot, b_date if min(left, right) < 3 else b_name] = 5.0
        return WordEmissions(em, word_mask)

    model.forward = types.MethodType(fake_forward, model)  # type: ignore[method-assign]
    doc = Document("d", "begin " + " ".join(["word"] * 300) + " finish")
    assert _n_windows(model, doc) >= 10
    (pred,) = predict_words(model, [doc], batch_size=7)
    assert set(pred.tags) == {"B-NAME"}


def test_batching_and_document_grouping_do_not_change_predictions(tiny_minilm_dir: Path) -> None:
    model = _model(tiny_minilm_dir)
    with torch.no_grad():
        model.head.weight.normal_(0, 3)
    docs = synthetic_docs(6, seed=5) + [Document("empty", ""), Document("blank", " \n\t ")]
    together = predict_words(model, docs, batch_size=2)
    alone = [predict_words(model, [d], batch_size=64)[0] for d in docs]
    assert [p.tags for p in together] == [p.tags for p in alone]
    assert [p.doc_id for p in together] == [d.id for d in docs]
    assert together[-1].tags == [] and together[-1].spans() == []
    for p, d in zip(together, docs):
        assert len(p.tags) == len(p.probs) == len(tokenize(d.text))
        assert all(0.0 <= x <= 1.0 for x in p.probs)


def test_prediction_restores_training_mode(tiny_minilm_dir: Path) -> None:
    model = _model(tiny_minilm_dir).train()
    predict_words(model, synthetic_docs(1, seed=1))
    assert model.training
