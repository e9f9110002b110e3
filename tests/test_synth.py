"""Synthetic letters (phiscrub.synth, ``phiscrub synth``): chunking, features, masking, refill, privacy."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.io import JsonlReader
from phiscrub.synth import (
    MASK_TOKEN,
    STRATEGIES,
    HFMaskedLMRefiller,
    MaskingStrategy,
    RefillRequest,
    SpellChecker,
    SynthConfig,
    Synthesizer,
    category_members,
    chunk_text,
    extract_features,
    is_valid_word,
    parse_mix,
    select_masks,
)
from phiscrub.synth import STOPWORDS as STOPWORDS_EN
from phiscrub.text import tokenize
from phiscrub.transform.rewrite import apply_edits

# A synthetic letter (no real person): structure, doses, a sig code, numbers, PHI.
LETTER = (
    "DISCHARGE SUMMARY\n"
    "Chief Complaint: chest pain\n"
    "Patient: Alma Rivers        MRN: 4417823\n"
    "\n"
    "HISTORY OF PRESENT ILLNESS\n"
    "Mrs. Rivers is a 67 year old woman who was admitted to the ward on 03/12/2019 after she "
    "felt a sudden pressure in her chest while walking the dog. She denies fever. The pain "
    "improved with rest and she was very anxious about the new symptoms. Her daughter drove her "
    "to the hospital and stayed with her during the first night.\n"
    "\n"
    "HOSPITAL COURSE\n"
    "She was started on enoxaparin 40 mg/0.4 ml SC b.i.d. and aspirin 81 mg daily. Troponin peaked "
    "at 0.45 and the patient remained stable for the rest of the stay. She was seen by the care team "
    "each morning and her family visited every evening.\n"
    "Follow up with Dr. Owen Blake on 04/02/2019, phone 617-555-0142.\n"
)


def _gold_spans(text: str) -> list[Span]:
    spans = []
    for surface, label in [
        ("Alma Rivers", "PATIENT"),
        ("4417823", "MEDICALRECORD"),
        ("Rivers", "PATIENT"),
        ("67", "AGE"),
        ("03/12/2019", "DATE"),
        ("Owen Blake", "DOCTOR"),
        ("04/02/2019", "DATE"),
        ("617-555-0142", "PHONE"),
    ]:
        for m in re.finditer(r"(?<!\w)" + re.escape(surface) + r"(?!\w)", text):
            spans.append(Span(m.start(), m.end(), label))
    taken: list[Span] = []
    for s in sorted(spans, key=lambda s: -(s.end - s.start)):
        if not any(s.overlaps(t) for t in taken):
            taken.append(s)
    return sorted(taken)


GOLD = Document("letter-1", LETTER, tuple(_gold_spans(LETTER)))
PHI_SURFACES = ("Alma", "Rivers", "4417823", "03/12/2019", "Owen", "Blake", "04/02/2019", "617-555-0142")


@pytest.fixture(scope="module")
def mlm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random BERT masked LM whose output bias makes "patient" its best word, "clinic" next."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(tmp_path_factory.mktemp("mlm"), kind="bert", max_positions=128)
    tok = AutoTokenizer.from_pretrained(folder)
    torch.manual_seed(0)
    model = BertForMaskedLM(BertConfig.from_pretrained(folder))
    with torch.no_grad():
        model.cls.predictions.bias[tok.convert_tokens_to_ids("patient")] += 50.0
        model.cls.predictions.bias[tok.convert_tokens_to_ids("clinic")] += 40.0
    model.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def subword_mlm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny BERT masked LM that only ever predicts the subword "##a" (an invalid prediction)."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from phiscrub.train.tiny import make_tiny_encoder

    folder = make_tiny_encoder(tmp_path_factory.mktemp("mlm_sub"), kind="bert", max_positions=128)
    tok = AutoTokenizer.from_pretrained(folder)
    model = BertForMaskedLM(BertConfig.from_pretrained(folder))
    with torch.no_grad():
        model.cls.predictions.bias[:] = -50.0
        model.cls.predictions.bias[tok.convert_tokens_to_ids("##a")] = 50.0
    model.save_pretrained(folder)
    return folder


def _apply(text: str, changes: list[list[int]], out_text: str) -> str:
    """Rebuild the output from the original text and the recorded changes."""
    edits = [(a, b, out_text[c:d]) for a, b, c, d in changes]
    return apply_edits(Document("x", text), edits).text


# -- chunking -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("max_lines", "max_tokens"), [(1, 256), (3, 40), (41, 256), (5, 7)])
def test_chunks_cover_the_letter_in_order_within_limits(max_lines: int, max_tokens: int) -> None:
    chunks = chunk_text(LETTER, max_lines=max_lines, max_tokens=max_tokens)
    pos = 0
    for c in chunks:
        assert LETTER[pos : c.start].strip() == ""  # only whitespace between chunks
        assert c.lines <= max_lines and c.tokens <= max_tokens
        assert len(tokenize(LETTER[c.start : c.end])) == c.tokens
        pos = c.end
    assert LETTER[pos:].strip() == ""


def test_long_sentence_is_cut_at_max_tokens() -> None:
    text = " ".join(f"drug{i} 5 mg" for i in range(100))  # no sentence boundary, 300 tokens
    chunks = chunk_text(text, max_lines=41, max_tokens=64)
    assert len(chunks) == 5 and all(c.tokens <= 64 for c in chunks)
    with pytest.raises(ConfigError):
        chunk_text(text, max_lines=0)


# -- features -------------------------------------------------------------------------------------------


def test_features_keep_structure_clinical_terms_patterns_and_phi() -> None:
    feats = extract_features(LETTER, phi=GOLD.spans)
    role: dict[str, str] = {}
    for w in feats.words:
        role.setdefault(w.text, w.role)
    for word in ("DISCHARGE", "SUMMARY", "Chief", "Complaint", "MRN", "HOSPITAL", "COURSE"):
        assert role[word] == "structure", word
    for word in ("enoxaparin", "aspirin", "Troponin", "SC", "mg", "ml", "fever"):
        assert role[word] == "clinical", word
    for word in ("40", "mg/0.4", "b.i.d", "0.45", "81"):
        assert role[word] == "pattern", word
    for word in ("Alma", "4417823", "03/12/2019", "617-555-0142"):
        assert role[word] == "phi", word
    assert role["denies"] == "cue" and role["Mrs"] == "cue"
    for word in ("the", "woman", "walking", "anxious"):
        assert role[word] == "eligible", word
    nouns = {w.text for w in feats.words if w.eligible and w.pos == "n"}
    assert {"woman", "dog"} <= nouns
    assert all(w.stopword for w in feats.words if w.text in ("the", "was", "with"))


# -- masking --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", STRATEGIES)
@pytest.mark.parametrize("ratio", [0.0, 0.3, 0.5, 1.0])
def test_strategies_mask_only_eligible_words_at_the_ratio(name: str, ratio: float) -> None:
    words = extract_features(LETTER, phi=GOLD.spans).words
    strategy = MaskingStrategy.named(name, ratio)
    chosen = select_masks(words, strategy, random.Random(1))
    assert all(words[i].eligible for i in chosen)
    expected: set[int] = set()
    for category, r in strategy.ratios.items():
        members = category_members(words, category)
        picked = [i for i in chosen if i in set(members)]
        assert len(picked) == round(r * len(members)), category
        expected |= set(members)
    assert set(chosen) <= expected
    if ratio and name != "verbs":
        assert chosen


def test_mix_parsing_and_bad_values() -> None:
    mix = parse_mix("nouns=0.5, stopwords=0.5")
    assert mix.ratios == {"nouns": 0.5, "stopwords": 0.5}
    for bad in ("nouns", "nouns=x", "colours=0.5", "nouns=1.5", ""):
        with pytest.raises(ConfigError):
            parse_mix(bad)


# -- refill and the whole pipeline ---------------------------------------------------------------------


def test_is_valid_word() -> None:
    assert all(is_valid_word(w) for w in ("admitted", "a", "I", "x-ray", "patient's"))
    assert not any(is_valid_word(w) for w in ("", "##ing", ",", "r", "3", "[UNK]", "two words"))


def test_hf_refiller_predicts_each_slot_even_past_the_model_length(mlm_dir: Path) -> None:
    refiller = HFMaskedLMRefiller(mlm_dir, top_k=3)
    long_left = "the patient was seen " * 60  # spelled out character by character: > 128 positions
    requests = [RefillRequest(("The ", " was seen by ", ".")), RefillRequest((long_left, " and ", " today."))]
    out = refiller.refill(requests, random.Random(0))
    assert [len(r) for r in out] == [2, 2]
    assert all(cands[:2] == ["patient", "clinic"] for r in out for cands in r)


def test_preserved_words_never_change_and_changes_rebuild_the_output(mlm_dir: Path) -> None:
    config = SynthConfig(strategy=MaskingStrategy.named("random", 1.0), detect="never")
    synth = Synthesizer(config, HFMaskedLMRefiller(mlm_dir))
    out = synth.synthesize(GOLD)
    changes = out.metadata["synth"]["changes"]
    assert _apply(LETTER, changes, out.text) == out.text
    feats = extract_features(LETTER, phi=GOLD.spans)
    for w in feats.words:
        touched = any(a < w.end and w.start < b for a, b, _, _ in changes)
        if w.role in ("structure", "clinical", "pattern", "cue"):
            assert not touched, w.text
    # Every eligible word was masked and refilled by the biased model.
    assert synth.stats.masked == sum(1 for w in feats.words if w.eligible)
    assert synth.stats.invalid == 0 and synth.stats.fallback == 0
    assert "enoxaparin 40 mg/0.4 ml SC b.i.d. " in out.text and " aspirin 81 mg daily." in out.text
    assert out.text.startswith("DISCHARGE SUMMARY\nChief Complaint: chest pain\nPatient: ")
    assert "patient" in out.text.lower().split()


def test_labels_stay_valid_and_the_output_is_a_labelled_corpus(mlm_dir: Path, tmp_path: Path) -> None:
    synth = Synthesizer(
        SynthConfig(strategy=MaskingStrategy.named("hybrid", 0.5)), HFMaskedLMRefiller(mlm_dir)
    )
    out = synth.synthesize(GOLD)
    assert sorted(s.label for s in out.spans) == sorted(s.label for s in GOLD.spans)
    out.validate()
    for span in out.spans:
        surface = out.text[span.start : span.end]
        assert surface.strip() == surface and surface
        assert not any(orig == surface for orig in PHI_SURFACES)
    # The same patient keeps one surrogate within the letter.
    patient = [out.text[s.start : s.end] for s in out.spans if s.label == "PATIENT"]
    assert len(set(patient)) == 2 and patient[0].endswith(patient[1])
    from phiscrub.io import JsonlWriter

    JsonlWriter().write([out], tmp_path / "synth.jsonl")
    back = list(JsonlReader().read(tmp_path / "synth.jsonl"))
    assert back[0].text == out.text and back[0].spans == out.spans


@pytest.mark.parametrize("phi_mode", ["surrogate", "refill"])
def test_privacy_profile_never_lets_phi_survive(mlm_dir: Path, phi_mode: str) -> None:
    plain = Document("plain-1", LETTER)  # unlabelled: the detectors find the PHI
    config = SynthConfig.from_profile("privacy", phi=phi_mode)
    synth = Synthesizer(config, HFMaskedLMRefiller(mlm_dir))
    for doc in (plain, GOLD):
        out = synth.synthesize(doc, labelled=bool(doc.spans))
        for surface in PHI_SURFACES:
            assert surface not in out.text, surface
    assert synth.stats.phi_leaks == 0
    assert synth.stats.phi_refilled > 0 if phi_mode == "refill" else synth.stats.phi_refilled == 0


def test_determinism_by_seed(mlm_dir: Path) -> None:
    def run(seed: int) -> Document:
        config = SynthConfig(strategy=MaskingStrategy.named("random", 0.4), seed=seed, top_k=2)
        return Synthesizer(config, HFMaskedLMRefiller(mlm_dir)).synthesize(GOLD)

    a, b, c = run(7), run(7), run(8)
    assert a.text == b.text and a.spans == b.spans and a.metadata == b.metadata
    assert a.text != c.text


def test_invalid_predictions_are_counted_and_the_original_word_kept(subword_mlm_dir: Path) -> None:
    config = SynthConfig(strategy=MaskingStrategy.named("stopwords", 1.0), detect="never")
    synth = Synthesizer(config, HFMaskedLMRefiller(subword_mlm_dir, top_k=1))
    out = synth.synthesize(GOLD)
    assert synth.stats.masked > 10
    assert synth.stats.invalid == synth.stats.slots == synth.stats.fallback == synth.stats.masked
    non_phi = [c for c in out.metadata["synth"]["changes"] if not any(s.start == c[0] for s in GOLD.spans)]
    assert non_phi == []  # only the PHI changed


def test_blanks_are_refilled_or_kept(mlm_dir: Path) -> None:
    doc = Document("blank-1", "Patient is a ___ yo male seen at [**Hospital 123**] for a fall.")
    config = SynthConfig(strategy=MaskingStrategy.named("random", 0.0), detect="never")
    out = Synthesizer(config, HFMaskedLMRefiller(mlm_dir)).synthesize(doc)
    assert out.text == "Patient is a patient yo male seen at patient for a fall."
    kept = Synthesizer(
        SynthConfig(strategy=config.strategy, detect="never", fill_blanks=False), HFMaskedLMRefiller(mlm_dir)
    )
    assert kept.synthesize(doc).text == doc.text


def test_spellcheck_fixes_typos_but_not_clinical_terms(mlm_dir: Path) -> None:
    checker = SpellChecker()
    assert checker.correct("healhty") == "healthy"
    assert checker.correct("Healhty") == "Healthy"
    for word in ("tachycardic", "healthy", "enoxaparin", "Rivers"):
        assert checker.correct(word) is None, word
    doc = Document("typo-1", "He was previously healhty and tachycardic on enoxaparin.")
    config = SynthConfig(strategy=MaskingStrategy.named("random", 0.0), detect="never", spellcheck=True)
    out = Synthesizer(config, HFMaskedLMRefiller(mlm_dir)).synthesize(doc)
    assert out.text == "He was previously healthy and tachycardic on enoxaparin."


def test_cli_synth_writes_labelled_jsonl_and_prints_counts_only(mlm_dir: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_text(LETTER, encoding="utf-8")
    out_path = tmp_path / "synth.jsonl"
    result = CliRunner().invoke(
        cli,
        ["synth", str(notes), "-o", str(out_path), "--strategy", "hybrid", "--ratio", "0.5", "--mlm", str(mlm_dir),
         "--seed", "3", "--profile", "clinical"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1 and rows[0]["spans"]
    assert "nouns=0.5,stopwords=0.5" in result.output and "1 letters" in result.output
    for surface in ("Alma", "Rivers", "chest pressure", "walking the dog"):
        assert surface not in result.output
    for surface in PHI_SURFACES:
        assert surface not in rows[0]["text"]


def test_cli_write_masked_gives_the_generator_input_with_the_same_surrogates(
    mlm_dir: Path, tmp_path: Path
) -> None:
    gold = tmp_path / "gold.jsonl"
    from phiscrub.io import JsonlWriter

    JsonlWriter().write([GOLD], gold)
    out_path, masked_path = tmp_path / "synth.jsonl", tmp_path / "masked.jsonl"
    result = CliRunner().invoke(
        cli,
        ["synth", str(gold), "-o", str(out_path), "--write-masked", str(masked_path), "--strategy", "random",
         "--ratio", "0.5", "--mlm", str(mlm_dir)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    synthetic = list(JsonlReader().read(out_path))
    masked = list(JsonlReader().read(masked_path))
    stats = json.loads(Path(f"{out_path}.stats.json").read_text(encoding="utf-8"))
    assert [d.id for d in masked] == [d.id for d in synthetic] == ["letter-1"]
    syn, msk = synthetic[0], masked[0]
    assert msk.text.count(MASK_TOKEN) == stats["slots"] == stats["masked"] > 10
    for surface in PHI_SURFACES:
        assert surface not in msk.text
    # The masked letter carries the synthetic letter's surrogates; outside the masks the texts agree.
    assert [(s.label, msk.text[s.start : s.end]) for s in msk.spans] == [
        (s.label, syn.text[s.start : s.end]) for s in syn.spans
    ]
    pattern = "".join(
        "(\\w+)" if i % 2 else re.escape(piece) for i, piece in enumerate(re.split(r"(\[MASK\])", msk.text))
    )
    assert re.fullmatch(pattern, syn.text)
    assert "and their masked versions" in result.output and "chest" not in result.output


# A Spanish letter (no real person) with Spanish function words, a negation and laterality.
LETTER_ES = (
    "Paciente de 54 años que acude a la consulta por dolor en la rodilla derecha desde hace tres semanas. "
    "Refiere que el dolor empeora con la marcha y mejora con el reposo, sin fiebre ni otros síntomas. "
    "Se pauta tratamiento con paracetamol y se cita para control en un mes con los resultados."
)


def test_spanish_letters_use_the_spanish_stopwords_and_keep_negations() -> None:
    from phiscrub.synth import load_stopwords

    spanish = load_stopwords("es")
    assert {"de", "la", "que", "con", "el", "por"} <= spanish
    assert not {"sin", "ni", "no", "nunca"} & spanish  # negations are cues, never stopwords
    assert load_stopwords("en") == load_stopwords("xx") == STOPWORDS_EN
    es = {w.text: w for w in extract_features(LETTER_ES, lang="es").words}
    en = {w.text: w for w in extract_features(LETTER_ES, lang="en").words}
    for word in ("de", "la", "que", "con", "el"):
        assert es[word].stopword and es[word].eligible and not en[word].stopword, word
    assert es["sin"].role == es["ni"].role == es["derecha"].role == "cue"
    assert en["sin"].role == "eligible"
    assert not es["dolor"].stopword and es["dolor"].eligible


def test_stopword_strategy_on_a_spanish_letter_masks_only_spanish_function_words(mlm_dir: Path) -> None:
    from phiscrub.synth import load_stopwords

    config = SynthConfig(strategy=MaskingStrategy.named("stopwords", 1.0), detect="never")
    synth = Synthesizer(config, HFMaskedLMRefiller(mlm_dir))
    out, masked = synth.synthesize_pair(Document("es-1", LETTER_ES))
    spanish = load_stopwords("es")
    words = re.findall(r"\S+", LETTER_ES)
    masked_words = re.findall(r"\S+", masked.text)
    assert len(words) == len(masked_words)
    hidden = [w.strip(".,").lower() for w, m in zip(words, masked_words) if MASK_TOKEN in m]
    assert len(hidden) >= 15 and all(w in spanish for w in hidden)
    assert synth.stats.masked == len(hidden)
    assert " sin fiebre ni " in out.text and "rodilla derecha" in out.text


@pytest.mark.slow
def test_default_llm_refiller_fills_function_words_with_function_words() -> None:
    from phiscrub.synth import STOPWORDS, default_refiller

    text = "The patient was admitted to the ward with chest pain and was given aspirin."
    config = SynthConfig(strategy=MaskingStrategy.named("stopwords", 1.0), detect="never")
    synth = Synthesizer(config, default_refiller())
    out = synth.synthesize(Document("short-1", text))
    assert synth.stats.slots == synth.stats.masked == 7
    assert synth.stats.invalid == synth.stats.fallback == 0
    assert "admitted" in out.text and "chest pain" in out.text and "aspirin." in out.text
    fills = [out.text[c:d] for a, b, c, d in out.metadata["synth"]["changes"]]
    kept = synth.stats.masked - len(fills)  # fills equal to the original word make no change
    assert all(is_valid_word(f) for f in fills)
    assert kept + sum(f.lower() in STOPWORDS for f in fills) >= 4


def test_synthesis_propagation_is_recall_first_over_every_phi_surface() -> None:
    from phiscrub.detect.propagate import propagate_names
    from phiscrub.synth.phi import propagate

    text = "Mark Smith, MRN AB12345. Smith seen; mark the chart. ab12345 confirmed. will SMITH call."
    phi = [Span(0, 10, "PATIENT"), Span(16, 23, "MEDICALRECORD")]
    found = propagate(text, phi)
    surfaces = [(text[s.start : s.end], s.label, s.source) for s in sorted(found)]
    # every other mention of a surface (case-insensitive) and of the name's words ("mark" too)
    assert surfaces == [
        ("Smith", "PATIENT", "synth:propagated"),
        ("mark", "PATIENT", "synth:propagated"),
        ("ab12345", "MEDICALRECORD", "synth:propagated"),
        ("SMITH", "PATIENT", "synth:propagated"),
    ]
    assert not any(s.overlaps(p) for s in found for p in phi)
    # redaction's precision-first policy leaves the common word and the ID alone
    redaction = propagate_names(Document("d", text), phi)[len(phi) :]
    assert sorted(text[s.start : s.end] for s in redaction) == ["SMITH", "Smith"]
