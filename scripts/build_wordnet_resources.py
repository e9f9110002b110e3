"""Derive the small WordNet-based lists that phiscrub ships (run after build_lexicons.py).

Needs WordNet 3.0 database files, e.g. Debian's ``wordnet-base`` (``/usr/share/wordnet``). Writes:

* ``resources/lexicons/ambiguous_names.txt``: name / place entries of the bundled lexicons that are
  also common English words (a WordNet lemma with at least two sense-tagged occurrences, a function word,
  or a month/season/virtue name): "Will", "Mark", "Hope", "Bill", "May", "Brown" ... The lexicon detector needs extra evidence
  before tagging these.
* ``resources/wordnet/`` (used by :mod:`phiscrub.augment.context`, PHICON context augmentation):

  - ``lexicon.tsv``: every single-word lower-case lemma with its parts of speech (``n v a r``) and
    how often each was sense-tagged in the WordNet concordances (``cntlist.rev``): ``word<TAB>n:55 v:3``.
    This is the lexicon of the most-frequent-POS tagger.
  - ``exceptions.tsv``: irregular inflections from ``*.exc`` (``form<TAB>pos<TAB>base``).
  - ``synonyms.tsv``: ``word<TAB>pos<TAB>syn1|syn2``: single-word, lower-case, sense-tagged lemmas
    sharing a synset with the word in its first sense or in one of its next two senses when that sense
    is common (tagged at least a quarter as often as the first). Rare senses and rare words are left
    out on purpose: they make most of EDA-style noise ("blood" -> "rakehell").
  - ``stopwords.txt``: closed-class function words, never edited.
  - ``insert_adverbs.txt`` / ``insert_adjectives.txt``: the most frequent adverbs and adjectives,
    negations and function words removed, drawn by random insertion.

Usage: python scripts/build_wordnet_resources.py [--wordnet /usr/share/wordnet]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEX = ROOT / "src" / "phiscrub" / "resources" / "lexicons"
WORDNET_OUT = ROOT / "src" / "phiscrub" / "resources" / "wordnet"


def _words(text: str) -> list[str]:
    """The whitespace-separated words of a long literal (kept as text so that it wraps)."""
    return text.split()


# Function words and modals that WordNet does not list but that collide with names.
FUNCTION_WORDS = _words("""
a an and are as at be but by can could did do does for from had has have he her him his i if in into is it
its may me might must my no nor not of on or our shall she should so than that the their them then there
these they this those to too up us was we were what when where which while who whom why will with would
yet you your
""") + _words("april june august summer autumn winter spring dawn joy faith hope patience charity")


POS_FILES = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def tagged_lemmas(wordnet: Path) -> Counter[str]:
    """Sum of sense-tagged counts per single-word lemma over the four POS indexes."""
    counts: Counter[str] = Counter()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            p_cnt = int(fields[3])
            counts[fields[0]] += int(fields[5 + p_cnt])
    return counts


# Closed-class words of English: the context augmenter never edits them, and the tagger tags them
# as function words before looking anything up. Negations, laterality, month and weekday names and
# common clinical shorthand are here too, because an edit of them changes what the note says
# ("left" -> "remaining", "bid" -> "offer", "march" -> "walk").
STOPWORDS = sorted(
    set(
        _words("""
a about above across after afterwards again against all almost alone along already also although always am
among amongst an and another any anybody anyone anything anyway anywhere are around as at be became because
become becomes becoming been before beforehand behind being below beside besides between beyond both but by
can cannot could did do does doing done down during each either else elsewhere enough etc even ever every
everybody everyone everything everywhere except few for former formerly from further had has have having he
hence her here hereafter hereby herein hers herself him himself his how however i if in indeed into is it its
itself just last latter latterly least less many may me meanwhile might mine more moreover most mostly much
must my myself namely neither never nevertheless next no nobody none noone nor not nothing now nowhere of off
often on once one only onto or other others otherwise our ours ourselves out over own per perhaps please
rather same several shall she should since so some somebody someone something sometime sometimes somewhere
still such than that the their theirs them themselves then thence there thereafter thereby therefore therein
thereupon these they this those though through throughout thru thus to together too toward towards under
until up upon us very via was we well were what whatever when whence whenever where whereafter whereas whereby
wherein whereupon wherever whether which while whither who whoever whole whom whose why will with within
without would yet you your yours yourself yourselves
is isn aren wasn weren hasn haven hadn doesn don didn won wouldn shan shouldn can couldn mustn mightn needn
ought let lets get gets got gotten getting go goes went gone going make makes made making say says said
first second third one two three four five six seven eight nine ten hundred thousand
yes no not non nil negative positive deny denies denied denying absent present without
left right bilateral bilaterally lateral medial anterior posterior upper lower proximal distal
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
monday tuesday wednesday thursday friday saturday sunday
mon tue tues wed thu thur thurs fri sat sun
today tomorrow yesterday tonight
am pm mr mrs ms dr miss sir madam
bid tid qid qd qhs qam qpm prn po iv im sq sc pr sl od os ou npo stat
pt pts hx dx rx tx sx fx yo yr yrs mg mcg ml kg cm mm hr hrs min mins sec
htn dm cad chf copd afib mi cva tia uti uri ekg ecg cxr ct mri er ed icu ccu or pacu ob gyn ent
""")
    )
)

# Never inserted: negations, words that need a complement or read as function words, participles, and
# adjectives that would invent a patient's origin, religion, politics or skin colour.
NO_INSERT = set(
    _words("""
not never no nowhere hardly barely scarcely seldom rarely neither none nothing
so then there here how why when where as more most less least only even just too also again once twice
back away about around out up down off over along ahead aside forth apart else thus therefore hence however
instead rather quite pretty very much many several such other same different own certain particular
first last next previous former latter early late whole entire general new old young long short high low
right left good bad little big great small large
ago regardless later longer forever far forward afterward aloud anymore respectively maybe anyhow
able unable aware afraid dead mad funny fat given following filled existing known involved concerned
greater greatest larger smaller fourth fifty anti binomial hypothalamic tattered soviet jewish religious
political military national federal western southern literary musical moral domestic international
industrial economic financial commercial rural black white brown red green gray colored
gay democratic nuclear cultural northern suburban pursuant twelve twenty based located needed wounded legal
artistic famous
""")
)


def tag_counts(wordnet: Path) -> Counter[tuple[str, str, int]]:
    """Sense-tagged occurrences per (lemma, pos, sense number) from ``cntlist.rev``."""
    ss_type = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
    counts: Counter[tuple[str, str, int]] = Counter()
    for line in (wordnet / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, number, count = line.split()
        lemma, rest = key.split("%", 1)
        counts[(lemma, ss_type[rest[0]], int(number))] += int(count)
    return counts


def synset_words(wordnet: Path) -> dict[tuple[str, str], list[str]]:
    """The words of every synset, by (pos, offset), adjective markers like ``(a)`` removed."""
    words: dict[tuple[str, str], list[str]] = {}
    for name, pos in POS_FILES.items():
        for line in (wordnet / f"data.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            w_cnt = int(fields[3], 16)
            words[(pos, fields[0])] = [re.sub(r"\(\w+\)$", "", fields[4 + 2 * i]) for i in range(w_cnt)]
    return words


def sense_index(wordnet: Path) -> dict[tuple[str, str], list[str]]:
    """The synset offsets of every (lemma, pos), most frequent sense first."""
    senses: dict[tuple[str, str], list[str]] = {}
    for name, pos in POS_FILES.items():
        for line in (wordnet / f"index.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            synset_cnt, p_cnt = int(fields[2]), int(fields[3])
            senses[(fields[0], pos)] = fields[6 + p_cnt : 6 + p_cnt + synset_cnt]
    return senses


def _plain(word: str) -> bool:
    """A single lower-case ASCII word of two letters or more."""
    return len(word) >= 2 and word.isascii() and word.isalpha() and word.islower()


Lexicon = dict[str, dict[str, int]]
"""Sense-tagged counts per part of speech of every plain lemma: ``{"word": {"n": 55, "v": 3}}``."""


def lemma_freq(counts: Counter[tuple[str, str, int]]) -> Counter[tuple[str, str]]:
    """Sense-tagged occurrences per (lemma, pos), all senses together."""
    freq: Counter[tuple[str, str]] = Counter()
    for (lemma, pos, _number), count in counts.items():
        freq[(lemma, pos)] += count
    return freq


def plain_lexicon(senses: dict[tuple[str, str], list[str]], freq: Counter[tuple[str, str]]) -> Lexicon:
    """Every plain lemma with the tagged count of each of its parts of speech."""
    lexicon: Lexicon = defaultdict(dict)
    for lemma, pos in senses:
        if _plain(lemma):
            lexicon[lemma][pos] = freq[(lemma, pos)]
    return lexicon


def irregular_forms(wordnet: Path, lexicon: Lexicon) -> list[tuple[str, str, str]]:
    """(form, pos, base) of the ``*.exc`` files whose form is plain and whose base is in ``lexicon``."""
    exceptions: list[tuple[str, str, str]] = []
    for name, pos in POS_FILES.items():
        for line in (wordnet / f"{name}.exc").read_text(encoding="latin-1").splitlines():
            form, *bases = line.split()
            for base in bases:
                if _plain(form) and base in lexicon and pos in lexicon[base]:
                    exceptions.append((form, pos, base))
    return exceptions


def common_sense_synonyms(
    lemma: str,
    pos: str,
    offsets: list[str],
    counts: Counter[tuple[str, str, int]],
    freq: Counter[tuple[str, str]],
    words: dict[tuple[str, str], list[str]],
) -> list[str]:
    """Plain, tagged synonyms of ``lemma`` from its first sense and its next two common senses."""
    first = counts[(lemma, pos, 1)]
    found: list[str] = []
    for number, offset in enumerate(offsets[:3], start=1):
        if number > 1 and counts[(lemma, pos, number)] < max(2, first / 4):
            break
        for word in words[(pos, offset)]:
            usable = _plain(word) and word != lemma and word not in STOPWORDS and freq[(word, pos)] >= 1
            if usable and word not in found:
                found.append(word)
    return found


def synonym_table(
    senses: dict[tuple[str, str], list[str]],
    counts: Counter[tuple[str, str, int]],
    freq: Counter[tuple[str, str]],
    words: dict[tuple[str, str], list[str]],
) -> list[tuple[str, str, list[str]]]:
    """(lemma, pos, synonyms) of every plain non-stopword lemma that has synonyms."""
    synonyms: list[tuple[str, str, list[str]]] = []
    for (lemma, pos), offsets in senses.items():
        if not _plain(lemma) or lemma in STOPWORDS:
            continue
        found = common_sense_synonyms(lemma, pos, offsets, counts, freq, words)
        if found:
            synonyms.append((lemma, pos, found))
    return synonyms


def top_insertable(lexicon: Lexicon, pos: str, n: int) -> list[str]:
    """The ``n`` most frequent insertable words of ``pos`` (sorted alphabetically)."""
    ranked = sorted(
        (w for w, tags in lexicon.items() if pos in tags and len(w) >= 3),
        key=lambda w: (-lexicon[w][pos], w),
    )
    # Only words used mostly in this part of speech, so that "well" or "round" never come in.
    keep = [
        w
        for w in ranked
        if w not in STOPWORDS and w not in NO_INSERT and lexicon[w][pos] >= 0.8 * sum(lexicon[w].values())
    ]
    return sorted(keep[:n])


def build_context_resources(wordnet: Path, out: Path) -> dict[str, int]:
    """Write the context-augmentation files under ``out``; return the number of entries of each."""
    counts = tag_counts(wordnet)
    senses = sense_index(wordnet)
    words = synset_words(wordnet)
    freq = lemma_freq(counts)
    lexicon = plain_lexicon(senses, freq)
    exceptions = irregular_forms(wordnet, lexicon)
    synonyms = synonym_table(senses, counts, freq, words)

    out.mkdir(parents=True, exist_ok=True)
    (out / "lexicon.tsv").write_text(
        "".join(
            f"{w}\t{' '.join(f'{p}:{c}' for p, c in sorted(tags.items()))}\n"
            for w, tags in sorted(lexicon.items())
        ),
        encoding="utf-8",
    )
    (out / "exceptions.tsv").write_text(
        "".join(f"{f}\t{p}\t{b}\n" for f, p, b in sorted(set(exceptions))), encoding="utf-8"
    )
    (out / "synonyms.tsv").write_text(
        "".join(f"{w}\t{p}\t{'|'.join(syns)}\n" for w, p, syns in sorted(synonyms)), encoding="utf-8"
    )
    (out / "stopwords.txt").write_text("\n".join(STOPWORDS) + "\n", encoding="utf-8")
    adverbs, adjectives = top_insertable(lexicon, "r", 120), top_insertable(lexicon, "a", 200)
    (out / "insert_adverbs.txt").write_text("\n".join(adverbs) + "\n", encoding="utf-8")
    (out / "insert_adjectives.txt").write_text("\n".join(adjectives) + "\n", encoding="utf-8")
    return {
        "lexicon.tsv": len(lexicon),
        "exceptions.tsv": len(set(exceptions)),
        "synonyms.tsv": len(synonyms),
        "stopwords.txt": len(STOPWORDS),
        "insert_adverbs.txt": len(adverbs),
        "insert_adjectives.txt": len(adjectives),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    counts = tagged_lemmas(args.wordnet)
    common = {w for w, c in counts.items() if c >= 2 and w.isalpha()} | set(FUNCTION_WORDS)
    names: set[str] = set()
    for stem in ("first_names_female", "first_names_male", "last_names", "cities"):
        names.update((LEX / f"{stem}.txt").read_text(encoding="utf-8").splitlines())
    ambiguous = sorted({n for n in names if n and n.lower() in common})
    (LEX / "ambiguous_names.txt").write_text("\n".join(ambiguous) + "\n", encoding="utf-8")
    print(f"ambiguous_names.txt: {len(ambiguous)} entries")
    for name, n in build_context_resources(args.wordnet, WORDNET_OUT).items():
        print(f"wordnet/{name}: {n} entries")


if __name__ == "__main__":
    main()
