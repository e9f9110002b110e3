"""US English forms of the sixth round's fresh dev set (``tests/data/fresh-notes/en4``: surgery,
oncology, pathology, dialysis, anticoagulation, prior-authorization letters): dates in the Korean
order, lower-case signature lines, townships and counties, a hospice "& Palliative Care", and the
look-alikes that are not PHI (specialty headings, peritoneal dialysis, languages after
"Interpreter:", French gauge, counts of lymph nodes, ranges of days, St John's wort). Made-up names only.

A positive row must survive the whole rules-only pipeline (guard and extend included); a negative
row must leave its look-alike in clear.
"""

from __future__ import annotations

import pytest

from phiscrub.deid import Deidentifier

from ._support import kept_surfaces

FOUND = [
    ("Re: message from spouse | Received: 2024. 8. 2. 07:51", "2024. 8. 2."),
    ("rtc 4-6 wk in person for 6mwt.\n\nt. quarrell md pulm\n", "t. quarrell"),
    ("f/u labs in 1 wk.\nj. okonkwo, rn\n", "j. okonkwo"),
    ("UNIT: Ostrander Dialysis - Pellham Township    Fri 10/4/24", "Pellham Township"),
    ("Moved here from Lower Vantry Twp. last year", "Lower Vantry Twp."),
    (
        "referral sent to Quenby Ridge Hospice & Palliative Care for eval",
        "Quenby Ridge Hospice & Palliative Care",
    ),
    ("Welfare check by Brennock PD last night", "Brennock PD"),
    ("Transferred to St Ansgar's for cath.", "St Ansgar's"),
]

NOT_FOUND = [
    ("HEPATOBILIARY ONCOLOGY CLINIC\nThu Jan 9, 2025", "HEPATOBILIARY ONCOLOGY CLINIC"),
    ("COLORECTAL SURGERY CLINIC - NEW PATIENT", "COLORECTAL SURGERY CLINIC"),
    ("S: Attended PD education class, strongly prefers home therapy", "Attended PD"),
    ("A/P: - Good PD candidate: residual renal fxn", "Good PD"),
    ("Interpreter: Arabic (Levantine) via 3-way video", "Arabic"),
    ("Interpreter: Vietnamese, in person", "Vietnamese"),
    ("Access under US guidance, 5 Fr sheath. 5 Fr Sos Omni to celiac.", "Sos Omni"),
    ("into pericolorectal tissue, 3/17 LN positive, LVI+", "3/17"),
    ("Dyspnea Borg 2/10 after 6MWT", "2/10"),
    ("PS articular surface 10 mm, size 4/5, LOT 4471", "4/5"),
    ("No fish oil or St John's wort.", "St John"),
    ("Hb 12. 3. 4. no change", "12. 3. 4."),
    ("since the D&C, changes pad q1-2h on days 1-3, passes clots", "1-3"),
    ("SVD, Apgar 9/10/10, wt 3450 g", "9/10/10"),
]


@pytest.mark.parametrize(("text", "surface"), FOUND)
def test_sixth_round_forms_are_found_and_kept(rules_only: Deidentifier, text: str, surface: str) -> None:
    assert surface in kept_surfaces(rules_only, text)


@pytest.mark.parametrize(("text", "surface"), NOT_FOUND)
def test_sixth_round_look_alikes_stay_in_clear(rules_only: Deidentifier, text: str, surface: str) -> None:
    assert not any(surface in kept or kept in surface for kept in kept_surfaces(rules_only, text))
