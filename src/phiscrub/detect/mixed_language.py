"""Is English plausible in a note decided to be in another language? (issue 28, item 10)

Under ``--lang auto`` a note goes to the rules of the language the identifier picks, and the
bundled English model is left out of every note not decided English. An English note that quotes
the patient at length in Spanish ("She says: \\"Me duele mucho la cabeza desde hace tres días...\\"")
is decided Spanish: the quote outweighs the English frame, and the note loses the model without a
word. :func:`english_plausible` says when that may have happened, so that ``redact`` lists the note
in ``warnings.jsonl`` (id and code only): the note has a quoted passage and its text outside the
quotes reads as English.
"""

from __future__ import annotations

import re

__all__ = ["MODEL_SKIPPED_WARNING", "english_plausible"]

#: The ``warnings.jsonl`` code of such a note.
MODEL_SKIPPED_WARNING = "model_skipped_english_plausible"

# A quoted passage on one line: straight, curly and angle quotes (12 characters or more, so that
# an apostrophe pair in "the patient's wife's" is rarely one).
_QUOTED = re.compile(r"\"[^\"\n]{12,}\"|“[^”\n]{12,}”|«[^»\n]{12,}»|(?<!\w)'[^'\n]{12,}'(?!\w)")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Words outside the quotes needed to read them at all.
MIN_WORDS_OUTSIDE = 3


def english_plausible(text: str) -> bool:
    """Whether ``text`` quotes a passage and reads as English outside its quotes."""
    from phiscrub.language import guess_language

    if _QUOTED.search(text) is None:
        return False
    rest = _QUOTED.sub(" ", text)
    if len(_WORD.findall(rest)) < MIN_WORDS_OUTSIDE:
        return False
    return guess_language(rest).code == "en"
