"""MaskedLMAugmenter: the masked-LM refill behind the corpus-level augmenter contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phiscrub.augment import AUGMENT_METHODS, AugmentOptions, CorpusAugmenter, build_augmenter
from phiscrub.errors import ConfigError
from phiscrub.io import read_corpus
from phiscrub.synth import MaskingStrategy, SynthConfig
from phiscrub.synth.augmenter import MaskedLMAugmenter
from phiscrub.synth.refill import HFMaskedLMRefiller

pytestmark = pytest.mark.usefixtures("one_torch_thread")

GOLD = Path(__file__).resolve().parents[1] / "examples" / "gold"


@pytest.fixture(scope="module")
def refiller(tmp_path_factory: pytest.TempPathFactory) -> HFMaskedLMRefiller:
    """A tiny random BERT masked LM (it knows nothing: the pipeline is under test, not the model)."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(tmp_path_factory.mktemp("mlm"), kind="bert", max_positions=128)
    torch.manual_seed(0)
    BertForMaskedLM(BertConfig.from_pretrained(folder)).save_pretrained(folder)
    return HFMaskedLMRefiller(folder, top_k=5)


def _augmenter(refiller: HFMaskedLMRefiller) -> MaskedLMAugmenter:
    return MaskedLMAugmenter(SynthConfig(strategy=MaskingStrategy.named("random", 0.5)), refiller)


def test_alpha_versions_per_letter_keep_labels_and_valid_spans(refiller: HFMaskedLMRefiller) -> None:
    docs = read_corpus(GOLD, "brat")[0]
    augmenter = _augmenter(refiller)
    assert isinstance(augmenter, CorpusAugmenter)
    result = augmenter.fit(docs, seed=1).augment(docs, alpha=2, seed=1)
    assert sorted(d.id for d in result.documents) == sorted(f"{d.id}#mlm{k}" for d in docs for k in (0, 1))
    by_id = {d.id: d for d in docs}
    for out in result.documents:
        source = by_id[out.metadata["augmented_from"]]
        assert [s.label for s in out.spans] == [s.label for s in source.spans]
        assert all(out.text[s.start : s.end].strip() for s in out.spans)
    counts = result.counts()
    assert counts["documents_out"] == 2 * len(docs) and counts["letters"] == 2 * len(docs)
    assert "augment mlm: 3 documents in, 6 synthetic versions out" in result.summary(6, "out.jsonl")


def test_versions_differ_and_a_seed_reproduces_them(refiller: HFMaskedLMRefiller) -> None:
    docs = read_corpus(GOLD, "brat")[0][:1]
    first = _augmenter(refiller).augment(docs, alpha=2, seed=3).documents
    again = _augmenter(refiller).augment(docs, alpha=2, seed=3).documents
    assert [d.text for d in first] == [d.text for d in again]
    assert first[0].text != first[1].text


def test_registry_builds_the_masked_lm_refill(refiller: HFMaskedLMRefiller) -> None:
    docs = read_corpus(GOLD, "brat")[0][:1]
    options = AugmentOptions(mlm={"refiller": refiller, "strategy": "random", "ratio": 0.5})
    built = build_augmenter("mlm", options)
    assert "mlm" in AUGMENT_METHODS and built.name == "mlm"
    direct = _augmenter(refiller).augment(docs, alpha=1, seed=2).documents
    assert [d.text for d in built.fit(docs).augment(docs, alpha=1, seed=2).documents] == [
        d.text for d in direct
    ]
    with pytest.raises(ConfigError):
        build_augmenter("mlm", AugmentOptions(mlm={"no_such_option": 1}))


def test_building_methods_imports_no_torch() -> None:
    code = (
        "import sys\n"
        "from phiscrub.augment import ALL_METHODS, build_augmenter\n"
        "for m in ALL_METHODS:\n"
        "    if m not in ('llm-oneshot', 'llm-zeroshot'):\n"
        "        build_augmenter(m)\n"
        "print(sorted(m for m in ('torch', 'transformers', 'llama_cpp') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
