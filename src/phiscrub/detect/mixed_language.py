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

from phiscrub.detect.pattern_data import pattern_data

_RX = pattern_data("mixed_language")


__all__ = ["MODEL_SKIPPED_WARNING", "english_plausible"]

#: The ``warnings.jsonl`` code of such a note.
MODEL_SKIPPED_WARNING = "model_skipped_english_plausible"

#: Words outside the quotes needed to read them at all.
MIN_WORDS_OUTSIDE = 3


def english_plausible(text: str) -> bool:
    """Whether ``text`` quotes a passage and reads as English outside its quotes."""
    from phiscrub.language import guess_language

    if _RX["QUOTED"].search(text) is None:
        return False
    rest = _RX["QUOTED"].sub(" ", text)
    if len(_RX["WORD"].findall(rest)) < MIN_WORDS_OUTSIDE:
        return False
    return guess_language(rest).code == "en"
