"""Lexicon detector: person and place names from the bundled lists, with ambiguity handling.

Names that are also common English words ("Will", "Mark", "Hope", "Bill", "May", "Brown"; the list
``ambiguous_names.txt`` is derived from WordNet) are tagged only with extra evidence: another name next
to them ("Will Brown" is not enough when both are ambiguous, "Will Pennington" is) or a cue word before
them ("daughter", "son", "wife", "named", ...). Eponyms and clinical words that are also surnames
(Parkinson, Foley, Glasgow ...) are never tagged alone. Casing matters: in a note written in mixed
case a candidate must be capitalised; in a note written all in upper or lower case, capitalisation
carries no information, so single words need a neighbour or a cue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.document import Document, Span
from phiscrub.resources import load_lexicon
from phiscrub.text import Token

_RX = pattern_data("lexicon")


__all__ = ["EPONYMS", "LexiconDetector"]

#: Clinical eponyms and terms that are also surnames/places: never tagged without a neighbour name.
EPONYMS = frozenset(
    [
        "addison",
        "alzheimer",
        "apgar",
        "babinski",
        "barrett",
        "bell",
        "bellevue",
        "broca",
        "brudzinski",
        "chvostek",
        "colles",
        "crohn",
        "cushing",
        "doppler",
        "down",
        "duchenne",
        "dupuytren",
        "epstein",
        "fallot",
        "foley",
        "gleason",
        "glasgow",
        "graves",
        "guillain",
        "hartmann",
        "hashimoto",
        "hodgkin",
        "holter",
        "horner",
        "huntington",
        "kaposi",
        "kawasaki",
        "kernig",
        "korsakoff",
        "lyme",
        "marfan",
        "meckel",
        "meniere",
        "murphy",
        "nissen",
        "osgood",
        "paget",
        "parkinson",
        "pap",
        "perthes",
        "raynaud",
        "reiter",
        "rinne",
        "romberg",
        "schatzki",
        "sjogren",
        "sjögren",
        "swan",
        "ganz",
        "tanner",
        "tourette",
        "trendelenburg",
        "turner",
        "virchow",
        "weber",
        "wernicke",
        "whipple",
        "wilms",
        "wilson",
        "wolff",
        "bart",
        "trousseau",
        "mallory",
        "weiss",
        "denver",
        "medicare",
        "medicaid",
    ]
)

# Words before a name that make even an ambiguous name likely ("her daughter Hope").
_CUES = frozenset(
    [
        "son",
        "daughter",
        "wife",
        "husband",
        "mother",
        "father",
        "brother",
        "sister",
        "spouse",
        "partner",
        "friend",
        "neighbor",
        "neighbour",
        "niece",
        "nephew",
        "aunt",
        "uncle",
        "grandson",
        "granddaughter",
        "grandmother",
        "grandfather",
        "caregiver",
        "named",
        "called",
        "patient",
        "pt",
        "mr",
        "mrs",
        "ms",
        "miss",
        "dr",
        "doctor",
        "nurse",
        "rn",
        "md",
        "attending",
        "resident",
        "fellow",
        "pcp",
        "contact",
        "guardian",
    ]
)


@dataclass
class LexiconDetector:
    """Propose PATIENT (names) and CITY spans from the bundled lexicons.

    Args:
        lang: lexicon language (``en`` uses the multi-locale top-level lists).
        names: tag person names.
        places: tag city names.
        score_single: score of a single-word match; multi-word matches score 0.8.
    """

    lang: str = "en"
    names: bool = True
    places: bool = True
    score_single: float = 0.6
    name: str = field(default="lexicon", init=False)

    @cached_property
    def _first(self) -> frozenset[str]:
        return frozenset(
            w.lower()
            for stem in ("first_names_female", "first_names_male")
            for w in load_lexicon(stem, self.lang)
        )

    @cached_property
    def _last(self) -> frozenset[str]:
        return frozenset(w.lower() for w in load_lexicon("last_names", self.lang))

    @cached_property
    def _ambiguous(self) -> frozenset[str]:
        return frozenset(w.lower() for w in load_lexicon("ambiguous_names")) | EPONYMS

    @cached_property
    def _cities(self) -> dict[str, list[tuple[str, ...]]]:
        """First word (lower) -> city names as word tuples, longest first."""
        index: dict[str, list[tuple[str, ...]]] = {}
        for city in load_lexicon("cities", self.lang):
            words = tuple(w.lower() for w in city.replace("-", " - ").split())
            if words:
                index.setdefault(words[0], []).append(words)
        for v in index.values():
            v.sort(key=len, reverse=True)
        return index

    def detect(self, doc: Document) -> list[Span]:
        """Return name and city spans found in ``doc``."""
        toks = [Token(m.group(), m.start(), m.end()) for m in _RX["WORD"].finditer(doc.text)]
        if not toks:
            return []
        upper = sum(t.text.isupper() for t in toks if len(t.text) > 1)
        lower = sum(t.text.islower() for t in toks)
        n = max(1, len(toks))
        flat_case = upper / n > 0.6 or lower / n > 0.9
        spans: list[Span] = []
        if self.names:
            spans.extend(self._names(doc.text, toks, flat_case))
        if self.places:
            spans.extend(self._places(doc.text, toks, flat_case))
        return spans

    # -- names -------------------------------------------------------------------------------------
    def _is_name(self, tok: Token) -> bool:
        low = tok.text.lower().rstrip("'’s") if tok.text.lower().endswith(("'s", "’s")) else tok.text.lower()
        if len(tok.text) == 2 and tok.text[1] == ".":
            return True  # an initial
        parts = low.split("-")
        return all(p in self._first or p in self._last for p in parts if p)

    def _cased(self, tok: Token, flat_case: bool) -> bool:
        return flat_case or tok.text[0].isupper()

    def _names(self, text: str, toks: list[Token], flat_case: bool) -> list[Span]:
        out: list[Span] = []
        i = 0
        while i < len(toks):
            tok = toks[i]
            if not (self._is_name(tok) and self._cased(tok, flat_case)):
                i += 1
                continue
            j = i
            # Extend over adjacent name tokens separated by a single space (or ", " in "Smith, John").
            while j + 1 < len(toks):
                gap = text[toks[j].end : toks[j + 1].start]
                nxt = toks[j + 1]
                if (
                    gap in (" ", ", ")
                    and "\n" not in gap
                    and self._is_name(nxt)
                    and self._cased(nxt, flat_case)
                ):
                    if gap == ", " and not (self._strong(nxt) and self._strong(toks[j])):
                        break
                    j += 1
                else:
                    break
            run = toks[i : j + 1]
            words = [t for t in run if not (len(t.text) == 2 and t.text[1] == ".")]
            strong = [t for t in words if self._strong(t)]
            cue = (
                i > 0
                and toks[i - 1].text.lower().rstrip(".") in _CUES
                and toks[i].start - toks[i - 1].end <= 2
            )
            sentence_start = i == 0 or bool(re.search(r"[.!?:\n]\s*$", text[toks[i - 1].end : tok.start]))
            accept = False
            if (
                words
                and len(run) >= 2
                and strong
                or words
                and cue
                or len(words) == 1
                and len(run) == 1
                and strong
                and not flat_case
                and not sentence_start
            ):
                accept = True
            elif len(words) == 1 and len(run) == 2 and strong:
                accept = True  # "J. Pennington"
            if accept and words:
                start = run[0].start if words[0] is run[0] or len(run) > 1 else words[0].start
                end = run[-1].end
                score = 0.8 if len(run) > 1 or cue else self.score_single
                out.append(Span(start, end, "PATIENT", score, f"{self.name}:name"))
            i = j + 1
        return out

    def _strong(self, tok: Token) -> bool:
        low = tok.text.lower()
        if low.endswith(("'s", "’s")):
            low = low[:-2]
        return (
            bool(low) and low not in self._ambiguous and all(p not in self._ambiguous for p in low.split("-"))
        )

    # -- places ------------------------------------------------------------------------------------
    def _places(self, text: str, toks: list[Token], flat_case: bool) -> list[Span]:
        out: list[Span] = []
        i = 0
        while i < len(toks):
            tok = toks[i]
            cands = self._cities.get(tok.text.lower()) if self._cased(tok, flat_case) else None
            matched = 0
            if cands:
                for words in cands:
                    k = len([w for w in words if w != "-"])
                    seq = toks[i : i + k]
                    same = len(seq) == k and tuple(t.text.lower() for t in seq) == tuple(
                        w for w in words if w != "-"
                    )
                    if same and all(self._cased(t, flat_case) for t in seq):
                        matched = k
                        break
            if matched:
                seq = toks[i : i + matched]
                prev = toks[i - 1].text.lower() if i > 0 else ""
                cue = prev in {"in", "from", "to", "at", "near", "of"}
                ambiguous = matched == 1 and not self._strong(tok)
                if (not ambiguous and (cue or not flat_case)) or (ambiguous and cue and not flat_case):
                    out.append(
                        Span(
                            seq[0].start,
                            seq[-1].end,
                            "CITY",
                            0.5 if matched == 1 else 0.7,
                            f"{self.name}:city",
                        )
                    )
                i += matched
            else:
                i += 1
        return out
