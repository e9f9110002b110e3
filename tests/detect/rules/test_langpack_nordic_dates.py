"""Nordic day-month dates without a cue word and their look-alikes (``intl_nordic_dates``); texts written for the tests."""

from __future__ import annotations

import pytest

from phiscrub.detect.rules.intl_nordic import nordic_date_rules
from phiscrub.detect.rules.intl_nordic_dates import nordic_day_month_rules

from ._langpack import overlaps, pack_coarse

# (language, text, expected DATE surface)
FOUND = [
    # DD.MM. / D.M. with a closing period: the period stays unless it also ends the sentence
    ("nb", "Innkomst 02.04. kl 16.10 via AMK", "02.04."),
    ("nb", "Innlagt 11.03., utskrives 18.03.\n\nDiagnose: NSTEMI", "11.03."),
    ("nb", "Metformin pause rundt kontrast, gjenopptatt 20.03.\nMobilisert.", "20.03"),
    ("nb", "PREDNISOLON 40 MG, DOSEN ØKT 20.2.\nSTATUS: SLITEN", "20.2"),
    ("nb", "ALAT 35  CA 15-3 64 (44 4.12.)", "4.12."),
    ("nn", "Innlagd 12.3. grunna fall i heimen.", "12.3."),
    ("da", "Indlagt 02.04. kl 16.10 via 112.", "02.04."),
    ("sv", "Inskriven 11.03., utskrivs 18.03.", "11.03."),
    # D.M / DD.M with ':' after, an event word before, 'kl' after
    ("nb", "Vektnedgang 4,1 kg. Ekko 15.3: EF ca 35 %, hypokinesi anteriort.", "15.3"),
    ("nb", "Fru Bakke, operert 3.4 med hemiprotese.", "3.4"),
    ("nb", "Kontroll 10.12 kl 09 på poliklinikken.", "10.12"),
    ("da", "Ekko 15.3: EF 35 %.", "15.3"),
    ("sv", "Eko 15.3: EF 35 %.", "15.3"),
    # DD.0M
    ("nb", "Lab ved utreise 20.03: Hb 12,1  Kreat 121", "20.03"),
    ("nb", "Kreftkoordinator kontaktet, møte avtalt 28.03 kl 13.", "28.03"),
    ("nb", "Samtale med pas. og datter Hanne 19.03: ønsker hjemmesykepleie.", "19.03"),
    ("da", "Møde aftalt 28.03 kl 13 med kommunen.", "28.03"),
    ("sv", "Möte bokat 28.03 kl 13 med kommunen.", "28.03"),
    # slash forms
    ("nb", "Telefonnotat 27/2 kl 10.40", "27/2"),
    ("nb", "Koronar angiografi ved VUS 18/3: signifikant restenose.", "18/3"),
    ("nb", "Pivmecillinam 400 mg x 3 (dag 8/10 totalt), t.o.m. 22/3. Delir bedret.", "22/3"),
    ("nb", "Kreat 156 12/3 -> 98 18/3.", "12/3"),
    ("nb", "Kreat 156 12/3 -> 98 18/3.", "18/3"),
    ("nb", "MR columna 12/1: progresjon metastase L3.", "12/1"),
    ("nb", "Kontroll i dag 12/3 hos fastlege.", "12/3"),
    ("nb", "Blodkultur 12/3: E. coli.", "12/3"),
    ("nb", "Henvist 12/3 av fastlege.", "12/3"),
    ("da", "Set i ambulatoriet d. 12/3 med tiltagende dyspnø.", "12/3"),
    ("da", "Telefonnotat 27/2 kl 10.40", "27/2"),
    ("sv", "Inkom 12/3 med andningsbesvär.", "12/3"),
    ("sv", "Telefonsamtal 27/2 kl 10.40 med dottern.", "27/2"),
    ("sv", "Blododling 12/3: E. coli.", "12/3"),
    ("nb", "Kontroll 5/10 hos fastlege.", "5/10"),
    ("nb", "Sykmeldt 12/3-15/3.", "12/3"),
    ("nb", "Sykmeldt 12/3-15/3.", "15/3"),
    ("nb", "Ferie 10.03-12.03, deretter kontroll.", "12.03"),
    # a weekday before joins the span
    ("nb", "Fra søndag 10.3 mer forvirret og urolig.", "søndag 10.3"),
    ("nb", "Falt fredag 8/3 i hjemmet.", "fredag 8/3"),
    ("nb", "Innlagt søndag 10.03.2024 med feber.", "søndag 10.03.2024"),
    ("nn", "Frå sundag 10.3 meir forvirra.", "sundag 10.3"),
    ("da", "Fra søndag d. 10/3 mere konfus.", "søndag d. 10/3"),
    ("sv", "Sedan söndag 10/3 mer förvirrad.", "söndag 10/3"),
    ("sv", "Sedan söndag den 10/3 mer förvirrad.", "söndag den 10/3"),
    # two-digit years
    ("nb", "Letrozol + Kisqali fra okt -23. Xgeva hver 4. uke.", "okt -23"),
    ("nb", "CAVE: Penicillin (utslett -98)", "-98"),
    ("nb", "CAVE: Penicillin (utslett -98, anafylaksi -05)", "-05"),
    ("da", "Behandling med Kisqali fra okt -23.", "okt -23"),
    ("da", "CAVE: Penicillin (udslæt -98)", "-98"),
    ("sv", "Behandling med Kisqali sedan okt -23.", "okt -23"),
    ("sv", "CAVE: Penicillin (utslag -98)", "-98"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), FOUND)
def test_nordic_day_month_found(lang: str, text: str, surface: str) -> None:
    assert (surface, "DATE") in pack_coarse(lang, text)


# (language, text, look-alike surface that must not overlap a DATE span)
LEFT = [
    # clock times: after kl, after a date or a day word, in a time range
    ("nb", "Telefonnotat 27/2 kl 10.40", "10.40"),
    ("nb", "kl 22.30 ankommet MIO fra mottak.", "22.30"),
    ("nb", "INNLAGT 22.02.24 KL 21.05", "21.05"),
    ("nb", "Innlagt 14.03.2024 14.10 via legevakt.", "14.10"),
    ("nb", "Fra søndag 10.3 14.05 mer urolig.", "14.05"),
    ("nb", "Ekko i dag 13.05 på poliklinikken.", "13.05"),
    ("nb", "Dagkirurgi 14.10-15.30 uten komplikasjoner.", "14.10"),
    ("nb", "Dagkirurgi 14.10-15.30 uten komplikasjoner.", "15.30"),
    ("da", "Fået Pinex 1 g kl. 19.30 med god effekt.", "19.30"),
    ("sv", "Besök kl. 08.30. Patienten satt i stolen.", "08.30"),
    ("sv", "Kom klockan 10.05 med ambulans.", "10.05"),
    # decimals: a lab name before a dotted number, a trend arrow
    ("nb", "Lab: Hb 11.2  Na 136", "11.2"),
    ("nb", "Hb 11.2.", "11.2."),
    ("nb", "INR 1.05, CRP 6", "1.05"),
    ("nb", "KMI 30.6.", "30.6."),
    ("nb", "TnT 68 -> 10.05", "10.05"),
    ("sv", "Hb 11.02 och CRP 12.", "11.02"),
    # drug strengths, tumour markers, anatomy
    ("nb", "Entresto 24/26 mg 1 x 2 (ny)", "24/26"),
    ("nb", "Exforge 5/10 mg x 1", "5/10"),
    ("nb", "ALAT 35  CA 15-3 64", "15-3"),
    ("nb", "Frakturer costa 5-9 ve. lateralt.", "5-9"),
    # scores, scales and counts
    ("nb", "Pivmecillinam 400 mg x 3 (dag 8/10 totalt).", "8/10"),
    ("nb", "Urosepsis (E. coli, blodkultur 2/2 flasker).", "2/2"),
    ("nb", "Vekkbar, GCS 14/15 (V4).", "14/15"),
    ("nb", "Normale reflekser, kraft 4/5 bilat.", "4/5"),
    ("nb", "Kraft UE 4/5 bilat, redusert utholdenhet.", "4/5"),
    ("nb", "Smerter i hvile, VAS 7/10.", "7/10"),
    ("nb", "Peker på hofta, VAS ca 6/10.", "6/10"),
    ("nb", "Smerter NRS 3/10 etter Oxynorm.", "3/10"),
    ("nb", "Går 40 m, Borg 13, Borg dyspné 5/10 i hvile.", "5/10"),
    ("nb", "Lett kognitiv svikt, MMSE 24/30 i 2022.", "24/30"),
    ("nb", "Kisqali kur 3/6 gitt i dag.", "3/6"),
    ("nb", "Cellegift syklus 2/6 startet.", "2/6"),
    ("nb", "Nøytropeni grad 2/3 etter kur.", "2/3"),
    ("nb", "ECOG 1/2, vekt stabil.", "1/2"),
    ("nb", "Funksjonsscore 4/5 ved utreise, score 4/5.", "4/5"),
    ("nb", "Oppvåkning: bk 2/2 positive.", "2/2"),
    ("da", "Smerter, VAS 7/10, fået morfin.", "7/10"),
    ("da", "Vågen, GCS 14/15.", "14/15"),
    ("sv", "Smärta NRS 3/10 efter Alvedon.", "3/10"),
    ("sv", "Kognitiv svikt, MMSE 24/30.", "24/30"),
    # fractions, doses, blood pressure, round the clock
    ("nb", "Paracet 1/2 tablett ved behov.", "1/2"),
    ("nb", "Spist 2/3 av middagen.", "2/3"),
    ("nb", "Spist 1/2 brødskive til frokost.", "1/2"),
    ("nb", "Sobril 10 mg x 1/2 ved uro.", "1/2"),
    ("nb", "BT 130/80, puls 72.", "130/80"),
    ("nb", "Tilsyn 24/7 fra hjemmesykepleien.", "24/7"),
    ("da", "Panodil 1/2 tablet ved behov.", "1/2"),
    ("sv", "Alvedon 1/2 tablett vid behov, åt 2/3 av maten.", "2/3"),
    # 0-10 scales, ESAS symptoms, sections, criteria, durations
    ("nb", "Fallrisiko 5/10, ringeklokke innen rekkevidde.", "5/10"),
    ("nb", "ESAS: smerte 3, kvalme 2/10, angst 4.", "2/10"),
    ("nb", "Se prosedyre, punkt 3.2: tiltak.", "3.2"),
    ("nb", "Se retningslinjen kap. 4.2.", "4.2."),
    ("nb", "Oppfyller 3/3 kriterier for sepsis.", "3/3"),
    ("nb", "Insulinpumpe stoppet 3.4 timer.", "3.4"),
    ("nb", "Kommer i morgen 10.05 til kontroll.", "10.05"),
    # numbered headings, signed values in parentheses
    ("nb", "Epikrise\n2.1. Anamnese\nTidligere frisk.", "2.1."),
    ("nb", "ABG: pH 7,28 (BE -12)", "-12"),
    ("nb", "Vektnedgang (vekt -10)", "-10"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), LEFT)
def test_nordic_day_month_look_alike_left(lang: str, text: str, surface: str) -> None:
    assert [hit for hit in overlaps(lang, text, surface) if hit[1] == "DATE"] == []


@pytest.mark.parametrize("lang", ["de", "fr", "es", "nl", "en"])
def test_nordic_day_month_rules_only_for_nordic_languages(lang: str) -> None:
    assert nordic_date_rules(lang) == ()


@pytest.mark.parametrize("lang", ["nb", "nn", "da", "sv"])
def test_nordic_day_month_rules_are_wired(lang: str) -> None:
    names = {rule.name for rule in nordic_date_rules(lang)}
    assert {f"day_month_nordic_{lang}", f"month_yy_nordic_{lang}", f"paren_yy_nordic_{lang}"} <= names


def test_german_note_keeps_its_cue_rule() -> None:
    # "Ekko 15.3:" is a Nordic form; a German note without a cue word keeps the number.
    assert pack_coarse("de", "Echo 15.3: EF 35 %.") == set()


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Innkomst 02.04. kl 16.10", "02.04."),
        ("Innlagt 11.03., utskrives 18.03.", "11.03."),
        ("Innlagt 11.03., utskrives 18.03.", "18.03"),
        ("(44 4.12.)", "4.12."),
        ("SIDEN 20.2.\nSTATUS", "20.2"),
        ("gjenopptatt 20.03. Mobilisert", "20.03"),
    ],
)
def test_nordic_closing_period_stays_unless_it_ends_the_sentence(text: str, surface: str) -> None:
    found = {text[s:e] for rule in nordic_day_month_rules("nb") for s, e, _ in rule.find(text)}
    assert surface in found
