"""The clinical-context guard's vocabulary: word sets from the bundled medical lexicon and word lists.

:func:`clinical_vocabulary` builds, once, the lower-case word sets :mod:`phiscrub.detect.clinical`
weighs (care units and services, drugs, devices, clinical shorthand, abbreviations, eponyms,
WordNet common words, given names, surnames and place words); this module also holds the fixed
word lists of the guard's context cues (measurement, kinship, role and facility words, months,
credentials).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.errors import ConfigError

__all__ = [
    "CREDENTIALS",
    "ETHNICITY_WORDS",
    "FACILITY_WORDS",
    "LANGUAGE_WORDS",
    "MONTHS",
    "ClinicalVocabulary",
    "clinical_vocabulary",
    "is_clinical_word",
    "is_common_word",
    "stopwords",
    "word_set",
    "words_pattern",
]


@dataclass(frozen=True)
class ClinicalVocabulary:
    """Lower-case word sets the guard uses (built once from the bundled files)."""

    care_units: frozenset[str]
    clinical: frozenset[str]
    drugs: frozenset[str]
    abbreviations: frozenset[str]
    ambiguous: frozenset[str]
    common: frozenset[str]
    wordnet: frozenset[str]
    first_names: frozenset[str]
    names: frozenset[str]
    places: frozenset[str]


def _resource_text(folder: str, name: str) -> str:
    path = resources.files("phiscrub.resources").joinpath(folder, name)
    if not path.is_file():
        raise ConfigError(f"missing bundled file {folder}/{name}; reinstall phiscrub")
    return path.read_text(encoding="utf-8")


def _read_sections(name: str) -> dict[str, list[str]]:
    """The ``[section]`` lists of a bundled ``medical/`` file, lower-cased (``#`` comments skipped)."""
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in _resource_text("medical", name).splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            continue
        sections.setdefault(current, []).append(line.lower())
    return sections


def _read_lines(folder: str, name: str) -> list[str]:
    return [line.strip() for line in _resource_text(folder, name).splitlines() if line.strip()]


@cache
def clinical_vocabulary() -> ClinicalVocabulary:
    """The guard's vocabulary: bundled medical lexicon, eponyms, WordNet common words, name lists.

    Raises:
        ConfigError: a bundled file is missing.
    """
    from phiscrub.detect.lexicon import EPONYMS
    from phiscrub.resources import load_lexicon

    extra = _read_sections("clinical_context.txt")
    # The surrogate lists plus given names they leave out ("Anjali", "Oluwaseun"; detection only).
    first = frozenset(
        w.lower()
        for stem in ("first_names_female", "first_names_male", "given_names_world")
        for w in load_lexicon(stem)
    )
    last = frozenset(w.lower() for w in load_lexicon("last_names"))
    names = first | last
    clinical: set[str] = set()
    drugs: set[str] = set(extra.get("drugs", ()))
    for entry in _read_lines("medical", "drugs.txt"):
        low = entry.lower()
        # "insulin glargine": its words are drug words too
        drugs.update([low] if " " not in low else [w for w in low.split() if len(w) >= 4])
    clinical.update(drugs)
    for entry in _read_lines("medical", "terms.txt"):
        if " " not in entry:
            clinical.add(entry.lower())
    clinical.update(u.lower() for u in _read_lines("medical", "units.txt") if u.isalpha())
    for section in ("drugs", "devices", "shorthand"):
        clinical.update(extra.get(section, ()))
    clinical.update(EPONYMS)
    abbreviations = frozenset(_read_lines("medical", "abbreviations.txt"))
    care = set(extra.get("care_units", ()))
    care.update(d.lower() for d in load_lexicon("departments") if not any(c.isdigit() for c in d))
    care.update(d.lower() for d in load_lexicon("department_abbreviations"))
    # Drug and abbreviation entries that are also given names or surnames (Allegra, SARA, ALF)
    # are ambiguous: they weigh less than plain clinical words.
    ambiguous = frozenset((clinical | {a.lower() for a in abbreviations}) & names) - EPONYMS
    common: set[str] = set()
    wordnet: set[str] = set()
    for line in _read_lines("wordnet", "lexicon.tsv"):
        word, tags = line.split("\t")
        wordnet.add(word)
        if sum(int(t.split(":")[1]) for t in tags.split()) >= 3:
            common.add(word)
    places = frozenset(
        w.lower()
        for stem in ("cities", "states")
        for place in load_lexicon(stem)
        for w in place.split()
        if len(w) > 3
    )
    common.update(stopwords())
    return ClinicalVocabulary(
        care_units=frozenset(care),
        clinical=frozenset(clinical),
        drugs=frozenset(drugs),
        abbreviations=abbreviations,
        ambiguous=ambiguous,
        common=frozenset(common),
        wordnet=frozenset(wordnet),
        first_names=first,
        names=names,
        places=places,
    )


def is_clinical_word(word: str) -> bool:
    """True when ``word`` is a care unit, service, drug, device, abbreviation or clinical term.

    Abbreviations match case-sensitively (``MI`` yes, ``Mi`` no); other entries in any case.
    """
    v = clinical_vocabulary()
    low = word.lower()
    return low in v.care_units or low in v.clinical or word in v.abbreviations


def is_common_word(word: str) -> bool:
    """True when ``word`` is a common English word (a stop word or a WordNet word used 3+ times)."""
    return word.lower() in clinical_vocabulary().common


@cache
def stopwords() -> frozenset[str]:
    """The bundled English stop words (``resources/wordnet/stopwords.txt``)."""
    return frozenset(_read_lines("wordnet", "stopwords.txt"))


def words_pattern(items: str) -> str:
    """A regex alternation of the white-space separated ``items``, longest first, escaped; ``_`` inside
    an item stands for spaces or tabs (``status_post``)."""
    words = sorted(set(items.split()), key=len, reverse=True)
    return "|".join(re.escape(w).replace("_", r"[ \t]+") for w in words)


def word_set(items: str) -> frozenset[str]:
    return frozenset(items.split())


#: Words that make a span a named facility ("MERCY HOSPITAL", "St. Mary's Rehab").
FACILITY_WORDS = word_set(
    """
    hospital hospitals medical center centre clinic rehab rehabilitation infirmary health healthcare
    institute home manor hospice memorial university college school county general regional community
    sanatorium sanitarium nursing living care village gardens house lodge residence campus pavilion
    children's childrens hosp med ctr hlth univ
    """
)
#: Month names and abbreviations (lower case).
MONTHS = word_set(
    """
    jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july
    august september october november december
    """
)
#: Credentials and role suffixes written after a name ("Jane Kim, MSW"); as a span they name no one.
CREDENTIALS = word_set(
    """
    md do rn np pa pa-c dds dmd pharmd phd crna cnm lpn lvn lcsw licsw lmsw msw bsn msn dnp aprn fnp
    anp acnp agacnp nnp cna cma ccm cns cde cdces rnc rrt dpt pt ot otr otr/l slp ccc-slp rd rdn mph
    mba mha facs facp faan ccrn cen cpn ocn chpn
    """
)
#: Ethnicity, race and nationality words ("a 67 yo Hispanic male", "African American"): a patient's
#: description, no identifier; as a name span on their own they are dropped (reason ``ethnicity``).
ETHNICITY_WORDS = word_set(
    """
    asian hispanic caucasian african american african-american latino latina latinx latine white black
    non-hispanic nonhispanic native alaskan alaska pacific islander hawaiian middle eastern arab arabic
    chinese japanese korean vietnamese filipino filipina indian pakistani bangladeshi cambodian hmong
    laotian thai mexican puerto rican cuban dominican salvadoran guatemalan honduran haitian jamaican
    somali ethiopian nigerian ghanaian eritrean russian ukrainian polish italian irish german greek
    portuguese brazilian colombian venezuelan peruvian ecuadorian european euro-american afro-caribbean
    caribbean indigenous ashkenazi jewish sephardic amish samoan tongan marshallese micronesian
    chamorro navajo cherokee lakota hopi sioux ojibwe inuit aboriginal south southeast east asian
    sub-saharan scandinavian nordic slavic hispanic/latino hispanic-latino latin hmong nepalese nepali
    bhutanese burmese afghan iraqi syrian iranian persian turkish egyptian moroccan lebanese palestinian
    yemeni sudanese congolese kenyan liberian cameroonian senegalese cape verdean guyanese trinidadian
    bahamian barbadian belizean nicaraguan panamanian costa chilean argentinian argentine bolivian
    uruguayan paraguayan canadian british english scottish welsh french dutch belgian swiss austrian
    czech slovak hungarian romanian bulgarian serbian croatian bosnian albanian lithuanian latvian
    estonian finnish swedish norwegian danish icelandic armenian georgian azerbaijani kazakh uzbek
    tajik mongolian tibetan taiwanese indonesian malaysian singaporean sri lankan australian
    """
)
#: Languages, as in "Somali interpreter", "Nepali speaking": never an identifier.
LANGUAGE_WORDS = word_set(
    """
    spanish english french mandarin cantonese tagalog arabic hindi urdu punjabi bengali farsi dari
    pashto swahili amharic tigrinya oromo creole kreyol portuguese vietnamese russian korean japanese
    somali nepali karen chin burmese haitian polish italian german greek hebrew yiddish gujarati tamil
    telugu marathi khmer lao hmong thai ukrainian asl sign
    """
)
