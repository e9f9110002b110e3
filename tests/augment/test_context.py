from __future__ import annotations

import random
import re

import pytest

from phiscrub.augment.context import ContextAugmenter, inflect, load_wordnet, pos_tag
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.text import tokenize

TEXT = (
    "HISTORY OF PRESENT ILLNESS\n"
    "The patient is a pleasant woman who reports severe chest pain and increasing shortness of breath. "
    "She met Nadia Veltkamp at the Ashgrove Memorial Hospital clinic and described the pain as sharp. "
    "Her husband Tobias Veltkamp drove her home on 11/02/2019 after a long visit. "
    "Nadia walked slowly to the small room, where the nurse quickly checked her blood pressure. "
    "She had an episode of nausea and a difficult night; her mother called 555-014-2211 twice.\n"
)
PHI = [
    ("Nadia Veltkamp", "PATIENT"),
    ("Ashgrove Memorial Hospital", "HOSPITAL"),
    ("Tobias Veltkamp", "RELATIVE"),
    ("11/02/2019", "DATE"),
    ("Nadia", "PATIENT"),
    ("555-014-2211", "PHONE"),
]


def _doc() -> Document:
    spans, pos = [], 0
    for surface, label in PHI:
        start = TEXT.index(surface, pos)
        spans.append(Span(start, start + len(surface), label))
        pos = start + len(surface)
    return Document("c1", TEXT, tuple(spans))


def _neighbours(doc: Document) -> list[tuple[str, str]]:
    """The token just before and just after each span."""
    toks = tokenize(doc.text)
    out = []
    for s in doc.spans:
        before = [t.text for t in toks if t.end <= s.start]
        after = [t.text for t in toks if t.start >= s.end]
        out.append((before[-1] if before else "", after[0] if after else ""))
    return out


def _stopword_sequence(text: str) -> list[str]:
    stop = load_wordnet().stopwords
    return [t.text for t in tokenize(text) if t.text.lower() in stop]


@pytest.mark.parametrize("seed", range(30))
def test_context_augmentation_never_touches_phi_or_its_neighbours(seed: int) -> None:
    doc = _doc()
    out = ContextAugmenter(p_sr=0.3, p_ri=0.3).augment(doc, random.Random(seed))
    assert [s.label for s in out.spans] == [s.label for s in doc.spans]
    assert [out.surface(s) for s in out.spans] == [doc.surface(s) for s in doc.spans]
    assert _neighbours(out) == _neighbours(doc)
    assert _stopword_sequence(out.text) == _stopword_sequence(doc.text)


def test_context_augmentation_changes_the_background_text() -> None:
    doc = _doc()
    texts = {ContextAugmenter().augment(doc, random.Random(s)).text for s in range(5)}
    assert doc.text not in texts and len(texts) == 5


def test_context_augmentation_is_deterministic_by_seed() -> None:
    doc = _doc()
    aug = ContextAugmenter()
    assert aug.augment(doc, random.Random(11)) == aug.augment(doc, random.Random(11))


def _case(word: str) -> str:
    if len(word) > 1 and word.isupper():
        return "upper"
    return "title" if word[0].isupper() else "lower"


@pytest.mark.parametrize("seed", range(15))
def test_synonym_replacement_keeps_case_and_token_count(seed: int) -> None:
    doc = _doc()
    out = ContextAugmenter(p_sr=0.5, p_ri=0.0).augment(doc, random.Random(seed))
    old, new = tokenize(doc.text), tokenize(out.text)
    assert len(old) == len(new)
    changed = [(a.text, b.text) for a, b in zip(old, new) if a.text != b.text]
    assert changed
    for a, b in changed:
        assert _case(a) == _case(b)
        assert a.lower() not in load_wordnet().stopwords


@pytest.mark.parametrize("seed", range(15))
def test_random_insertion_only_adds_listed_adverbs_and_adjectives(seed: int) -> None:
    doc = _doc()
    out = ContextAugmenter(p_sr=0.0, p_ri=0.3).augment(doc, random.Random(seed))
    old = [t.text for t in tokenize(doc.text)]
    new = [t.text for t in tokenize(out.text)]
    data = load_wordnet()
    allowed = set(data.adverbs) | set(data.adjectives)
    added = []
    i = 0
    for tok in new:  # old must be a subsequence of new; the rest are insertions
        if i < len(old) and tok == old[i]:
            i += 1
        else:
            added.append(tok)
    assert i == len(old) and added
    assert all(w.lower() in allowed for w in added)


@pytest.mark.parametrize("seed", range(20))
def test_edits_keep_a_and_an_agreeing(seed: int) -> None:
    text = "She had an episode of pain and an acute attack, then a long rest and a useful talk."
    doc = Document("d", text, ())
    out = ContextAugmenter(p_sr=1.0, p_ri=1.0).augment(doc, random.Random(seed)).text
    for article, word in re.findall(r"\b(an?) ([a-z]+)", out):
        assert (word[0] in "aeio") == (article == "an"), out


@pytest.mark.parametrize(
    "text",
    [
        "non-tender x-ray follow-up self-care",  # glued by hyphens
        "Tylenol and Lasix were given by Mercy staff.",  # Title case mid-sentence, stopwords, short words
        "BP 120/80, HR 72, WBC 9.1 in a mixed case line.",  # abbreviations in capitals in a mixed line
        "The HISTORY was taken from the chart.",  # a word in capitals in a mixed-case line
    ],
)
def test_words_that_must_not_be_edited_are_left_alone(text: str) -> None:
    doc = Document("d", text, ())
    aug = ContextAugmenter(p_sr=1.0, p_ri=0.0)
    for seed in range(5):
        out = aug.augment(doc, random.Random(seed)).text
        for keep in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)+|\b[A-Z][a-z]+\b(?<!^She)|\b[A-Z]{2,}\b", text):
            assert keep in out


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("History was taken from the chart.", r"(Account|Story) was"),  # sentence start keeps Title case
        (
            "PAST MEDICAL HISTORY:\nasthma",
            r"[A-Z]+ [A-Z]+ (ACCOUNT|STORY):\nasthma",
        ),  # a heading keeps capitals
        ("the history was taken", r"the (account|story) was"),
    ],
)
def test_replacements_take_the_case_of_the_word_they_replace(text: str, pattern: str) -> None:
    out = ContextAugmenter(p_sr=1.0, p_ri=0.0).augment(Document("d", text, ()), random.Random(0)).text
    assert re.search(pattern, out), out


def test_non_english_notes_are_left_unchanged_with_auto_language() -> None:
    text = "La paciente refiere dolor torácico desde hace tres días y fue ingresada con fiebre por la noche."
    doc = Document("es1", text, ())
    aug = ContextAugmenter(lang="auto")
    assert aug.augment(doc, random.Random(0)) == doc
    assert aug.non_english == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The patient reports severe pain.", {"patient": "n", "reports": "v", "severe": "a", "pain": "n"}),
        ("She quickly walked home.", {"She": "x", "quickly": "r", "walked": "v"}),
        ("He wants to increase the dose.", {"increase": "v", "dose": "n"}),
        ("The cold room was dark.", {"cold": "a", "room": "n", "was": "x"}),
        ("They denied fevers and chills.", {"fevers": "n", "chills": "n", "and": "x"}),
        ("Naproxenib 20 mg daily.", {"20": "", ".": ""}),
    ],
)
def test_pos_tagger_tags_common_clinical_words(text: str, expected: dict[str, str]) -> None:
    tags = {w.text: w.pos for w in pos_tag(text)}
    for word, pos in expected.items():
        assert tags[word] == pos, (word, tags[word])


def test_pos_tagger_finds_lemma_and_inflection() -> None:
    tags = {w.text: (w.lemma, w.form) for w in pos_tag("She reports that the studies were denied.")}
    assert tags["reports"] == ("report", "3sg")
    assert tags["studies"] == ("study", "pl")


@pytest.mark.parametrize(
    ("lemma", "form", "expected"),
    [
        ("deny", "past", "denied"),
        ("describe", "past", "described"),
        ("refuse", "ger", "refusing"),
        ("die", "ger", "dying"),
        ("see", "ger", "seeing"),
        ("box", "pl", "boxes"),
        ("study", "3sg", "studies"),
        ("play", "3sg", "plays"),
        ("admit", "past", None),  # doubling cannot be told from spelling: refuse to guess
        ("pain", "", "pain"),
        ("large", "cmp", None),
    ],
)
def test_inflect_regular_forms(lemma: str, form: str, expected: str | None) -> None:
    assert inflect(lemma, form) == expected


@pytest.mark.parametrize("kwargs", [{"p_sr": -0.1}, {"p_ri": 1.5}, {"lang": "es"}, {"lang": "zh"}])
def test_context_augmenter_rejects_bad_settings(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        ContextAugmenter(**kwargs)  # type: ignore[arg-type]


def test_bundled_wordnet_tables_are_loaded_and_consistent() -> None:
    data = load_wordnet()
    assert len(data.lexicon) > 50_000 and len(data.synonyms) > 10_000
    assert ("history", "n") in data.synonyms
    assert not data.stopwords & (set(data.adverbs) | set(data.adjectives))
    for (word, pos), syns in list(data.synonyms.items())[:2000]:
        assert pos in data.lexicon[word]
        assert word not in syns and all(s.isalpha() and s.islower() for s in syns)
