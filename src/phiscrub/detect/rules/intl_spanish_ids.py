"""ID and phone rules of the Spanish and Catalan packs for Latin American and regional Spanish notes.

Written on the ``es2`` fresh notes (Argentina, Colombia, Chile, Mexico; Catalonia) and the ``es3`` ones
(Peru, Uruguay, Venezuela, Cuba; their registrations ``CMP``, ``RNE``, ``MPPS``, ``Reg. MSP`` are identifier
keywords of the pack, ``resources/langpacks/packs.json``). Each rule needs a keyword or a closed shape;
:func:`spanish_id_rules` joins the ID rules of the pack (:mod:`.intl_ids`):

* **national identity numbers** after their keyword, case kept (``CC 3.412.876``, ``C.C. 52418307``,
  ``RUT 12.345.678-5``, ``C.I. 4.567.890-1``, ``CUIL 20-28456789-3``, a Venezuelan ``C.I. V-12.345.678``)
  and a Chilean RUT by its shape;
* **a doctor's registration** (``M.P. 118.442``, ``Mat. 14.227``, ``RM 5-2381``, ``RM 25-0478/03``;
  after ``RM``, which is also the MRI, only the dash form);
* **a Catalan health card code with letters** after ``CIP`` (``CIP: ABCD 123456 01``);
* **ten-digit phone numbers** in groups (``55 5694 0312``, ``(604) 284 3317``, ``(0212) 555.47.80``) and
  **extensions** after their word (``Ext. 4418``);
* **episode codes** of a service, a year and a serial (``URG/24/018832``).
"""

from __future__ import annotations

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule

__all__ = ["spanish_id_rules"]

_RX = pattern_data("intl_spanish_ids")


def spanish_id_rules(lang: str) -> tuple[PatternRule, ...]:
    """The Latin American ID and phone rules of Spanish and Catalan (none for other languages)."""
    if lang not in ("es", "ca"):
        return ()
    return (
        PatternRule("SSN",        _RX["NATIONAL_ID_RE"], group="v",        score=0.85, name=f"national_id_latam_{lang}"),
        PatternRule("SSN",        _RX["RUT_SHAPE_RE"],                     score=0.8,  name=f"rut_shape_{lang}"),
        PatternRule("LICENSE",    _RX["LICENSE_RE"],     group=("v", "r"), score=0.85, name=f"license_latam_{lang}"),
        PatternRule("HEALTHPLAN", _RX["CIP_LETTERS_RE"], group="v",        score=0.85, name=f"cip_letters_{lang}"),
        PatternRule("PHONE",      _RX["PHONE_SHAPE_RE"],                   score=0.75, name=f"phone_groups_latam_{lang}"),
        PatternRule("PHONE",      _RX["EXTENSION_RE"],   group="v",        score=0.75, name=f"phone_extension_{lang}"),
        PatternRule("ACCOUNT",    _RX["EPISODE_CODE_RE"],                  score=0.8,  name=f"episode_code_{lang}"),
    )  # fmt: skip
