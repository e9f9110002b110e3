"""The surrogate engine: one set of per-label generators over a randomness source.

Each label family has one module holding its generators, keyed and seeded side by side, sharing the
family's word lists, shape drawing and case handling:

* :mod:`.names` (keyed names) and :mod:`.people` (seeded people);
* :mod:`.contacts`: phones, faxes, e-mails, URLs, IP addresses, user names;
* :mod:`.identifiers`: record numbers and other identifiers, ZIP codes, rooms;
* :mod:`.places`: hospitals, organizations, towns, states, departments, professions, streets;
* :mod:`.when`: dates and ages.

The randomness comes from a :class:`~.source.Source`: keyed (HMAC of key, scope, label and
original value: :class:`phiscrub.transform.surrogates.SurrogateGenerator`, for redaction, the same
original always gets the same surrogate) or seeded (:class:`random.Random`: placeholder filling and
augmentation, :mod:`phiscrub.transform.fill`). Keyed generators take the original and keep its
form; seeded generators take the text around a placeholder and draw what the context asks for
(:class:`~.draw.NoteDraw` keeps one note's invented people and dates coherent).

Data: :mod:`.wordlists` (word lists and format tables) and :mod:`.cues` (context patterns).
"""
