"""German language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from phiscrub import Deidentifier
from phiscrub.document import Document

from ._langpack import overlaps, pack_coarse, pack_found

#: A nursing note written all in lower case (German capitalises every noun; here nothing is).
_LOWER_NOTE = (
    "pflege spätdienst rosenthal zi. 12\n\nfr. vogl heute nachmittag deutlich wacher, isst 1/2 portion, "
    "trinkmenge ca 900 ml\nmobi mit physio + rollator bis zur tür, danach erschöpft. sturzrisiko hoch\n"
    "ab 18 uhr wieder zunehmend unruhig, sucht ihre katze. reorientiert, tochter renate telefonisch dazugeholt "
    "-> beruhigt sich\nhaut: hämatom li hüfte unverändert, sakral intakt\n21:15 schläft\n\nsr. birgit\n"
)

POSITIVE = [
    # Titled and role names (the title stays outside the span).
    ("Sehr geehrter Herr Kollege Meier,", "Meier", "NAME"),
    ("An Herrn Dr. med. Klaus Müller-Wagner, Facharzt für Allgemeinmedizin", "Klaus Müller-Wagner", "NAME"),
    ("Chefarzt: Prof. Dr. med. Ostermeier", "Ostermeier", "NAME"),
    ("Rücksprache mit Fr. Dr. Hellwege erfolgt.", "Hellwege", "NAME"),
    ("Die Tochter, Frau Anna Wendtland, fand die Patientin.", "Anna Wendtland", "NAME"),
    ("Hr. K. Schmidt wurde informiert.", "K. Schmidt", "NAME"),
    ("PD Dr. Eggersglüß hat befundet.", "Eggersglüß", "NAME"),
    ("Patient: Klein, Thomas, geb. 01.02.1950", "Klein, Thomas", "NAME"),
    ("Patientin: Frau Renate Obernkirchner", "Renate Obernkirchner", "NAME"),
    ("Einsender: Dr. med. Tiedemann, Gastroenterologische Praxis", "Tiedemann", "NAME"),
    ("lebt mit seiner Ehefrau Anna Lüdecke in einem Haus", "Anna Lüdecke", "NAME"),
    ("Mit freundlichen Grüßen\n\nSabine Kröger\nOberärztin", "Sabine Kröger", "NAME"),
    ("Bericht folgt.\nHans Ostermeier, Assistenzarzt ZNA", "Hans Ostermeier", "NAME"),
    ("gez. Grabowski, Renate", "Grabowski, Renate", "NAME"),
    (
        "Prof. Dr. med. K. Schmidt            Dr. med. Wendtland            Hans Dreesbach",
        "Hans Dreesbach",
        "NAME",
    ),
    ("Besuch von Frau von der Heydt heute.", "von der Heydt", "NAME"),
    ("Übergabe an Frühdienst.\n\nskroeger, Gesundheits- und Krankenpflegerin", "skroeger", "NAME"),
    ("HAUSARZT: DR. OSTERMEIER, KÖLN", "OSTERMEIER", "NAME"),
    ("RÜCKFRAGEN: STATIONSARZT WENDTLAND, TEL. 030 1234567", "WENDTLAND", "NAME"),
    (
        "vielen Dank für die Überweisung Ihrer Patientin Renate Hellwege, geb. 3.4.1950",
        "Renate Hellwege",
        "NAME",
    ),
    ("Anästhesie: Dr. Koch / Pflege: Sabine Lüdecke", "Sabine Lüdecke", "NAME"),
    ("Zuweisung: Hausarztpraxis Dreesbach / Tiedemann, Köln", "Tiedemann", "NAME"),
    # Dates with month names and day-dot forms, relative years.
    ("Wien, 01.03.\nDr. X", "01.03.", "DATE"),
    ("Mammakarzinom ED 2016, seitdem rezidivfrei", "2016", "DATE"),
    ("Aufnahme am 3. Mai 2019 über die ZNA.", "3. Mai 2019", "DATE"),
    ("Kontrolle am 03.05. in der Ambulanz.", "03.05.", "DATE"),
    ("Rostock, den 07.12.\n", "07.12.", "DATE"),
    ("Entlassung am 03.05.19 nach Hause.", "03.05.19", "DATE"),
    ("Vorhofflimmern seit Mai 2015 bekannt.", "Mai 2015", "DATE"),
    ("Z.n. Mammakarzinom, ED im Jahr 2016.", "2016", "DATE"),
    ("Geb.-Datum: 12.03.1950", "12.03.1950", "DATE"),
    # Postal codes with town, streets.
    ("Hauptstraße 5, 10115 Berlin", "Hauptstraße 5", "LOCATION"),
    ("Hauptstraße 5, 10115 Berlin", "10115", "LOCATION"),
    ("Hauptstraße 5, 10115 Berlin", "Berlin", "LOCATION"),
    ("Bahnhofstr. 12a\n80331 München", "Bahnhofstr. 12a", "LOCATION"),
    ("wohnhaft Friedrich-Ebert-Straße 3, 50667 Köln", "Friedrich-Ebert-Straße 3", "LOCATION"),
    ("Am Stadtpark 7 · 36295 Kassel", "Am Stadtpark 7", "LOCATION"),
    ("A-1010 Wien, Stephansplatz 1", "A-1010", "LOCATION"),
    ("Marktplatz 15 · 8001 Zürich", "Zürich", "LOCATION"),
    ("wohnhaft in Gütersloh seit Jahren", "Gütersloh", "LOCATION"),
    ("Köln, den 3. Mai 2019", "Köln", "LOCATION"),
    # Hospitals and clinics.
    ("Verlegung ins Klinikum Nürnberg zur PCI.", "Klinikum Nürnberg", "LOCATION"),
    (
        "Universitätsklinikum Heidelberg, Klinik für Kardiologie",
        "Universitätsklinikum Heidelberg",
        "LOCATION",
    ),
    ("Aufnahme im Kreiskrankenhaus Lüneburg.", "Kreiskrankenhaus Lüneburg", "LOCATION"),
    ("Reha im St. Marien-Krankenhaus geplant", "St. Marien-Krankenhaus", "LOCATION"),
    ("Helios Klinikum Berlin-Buch", "Helios Klinikum Berlin-Buch", "LOCATION"),
    ("Versorgung durch den Pflegedienst Sonnenschein 1x täglich", "Sonnenschein", "LOCATION"),
    ("Pat. auf Zi. 214 verlegt.", "214", "LOCATION"),
    ("Krankenkasse: Techniker Krankenkasse", "Techniker Krankenkasse", "LOCATION"),
    # Phones and identifiers.
    ("Tel. 030 12345678", "030 12345678", "CONTACT"),
    ("Rückruf unter (0761) 270-12345 erbeten", "(0761) 270-12345", "CONTACT"),
    ("Fallnummer: 2019004567", "2019004567", "ID"),
    ("Pat.-Nr.: 00458721", "00458721", "ID"),
    ("PID 7784512", "7784512", "ID"),
    ("Einlieferung mit RTW HB-VZ 906", "HB-VZ 906", "ID"),
    # Ages and professions.
    ("Patient: Meyer, Gisela, ca. 58 Jahre", "58", "AGE"),
    ("Der 67-jährige Patient stellte sich vor.", "67", "AGE"),
    ("Patientin: Frau Weber, 79 J., Zi. 12", "79", "AGE"),
    ("Der Patient ist 54 Jahre alt.", "54", "AGE"),
    ("Bis zuletzt als Dachdecker tätig.", "Dachdecker", "PROFESSION"),
    # Forms of the second note set (de2-dev): prose, report fields, Austrian and Swiss letters.
    ("Herrn Webers Ehefrau begleitet ihn heute.", "Weber", "NAME"),
    ("Monika Grabowski wurde am Vortag verlegt.", "Monika Grabowski", "NAME"),
    ("Bericht folgt.\n\nK. Neumann\nFachärztin für Innere Medizin", "K. Neumann", "NAME"),
    ("Rücksprache mit der Neurochirurgie (Dienstarzt Schneider).", "Schneider", "NAME"),
    ("Versicherte/r: Stefan Wischnewski", "Stefan Wischnewski", "NAME"),
    ("Gesetzliche Betreuerin: D. Weber, Aufgabenkreis Gesundheit", "D. Weber", "NAME"),
    ("Gutachterin: V. Wendtland, Pflegefachkraft", "V. Wendtland", "NAME"),
    ("Rehabilitand: Herr Ostermeier", "Ostermeier", "NAME"),
    ("Vorstand: Primar Dr. Wendtland", "Wendtland", "NAME"),
    ("Geb.: 23.02.1962; Untersuchung: 26.04.; Untersucher: X", "26.04.", "DATE"),
    ("Pflegegrad 3 ab Antragstellung am 13.03.\nEmpfehlungen: keine", "13.03.", "DATE"),
    ("Kassel, am 01.02.2003\n\nSehr geehrter Herr Kollege!", "Kassel", "LOCATION"),
    (
        "Eine Frührehabilitation in der Rehaklinik am Kurpark ist angefragt.",
        "Rehaklinik am Kurpark",
        "LOCATION",
    ),
    ("Auftraggeber: Deutsche Rentenversicherung Bund", "Deutsche Rentenversicherung Bund", "LOCATION"),
    ("Versicherungsnummer: 17 873277 L 938", "17 873277 L 938", "ID"),
    ("Die 85 J. alte Versicherte erlitt einen Schlaganfall.", "85", "AGE"),
    ("Eine 45 Jahre alte Patientin stellte sich vor.", "45", "AGE"),
    ("Bitte um Termin, Pat. ist 81 und bislang nie endoskopiert worden.", "81", "AGE"),
    ("die Kinder (32 und 41 Jahre) leben nicht mehr im Haushalt", "32", "AGE"),
    ("die Kinder (32 und 41 Jahre) leben nicht mehr im Haushalt", "41", "AGE"),
    ("Er ist gelernter Maurer und lebt allein.", "Maurer", "PROFESSION"),
    ("Er ist als Busfahrer tätig.", "Busfahrer", "PROFESSION"),
    ("Die Rentnerin, früher als Verkäuferin tätig, stürzte.", "Verkäuferin", "PROFESSION"),
    ("Nach dem Abschluss Ausbildung zum Elektriker.", "Elektriker", "PROFESSION"),
    ("Der Patient, pensionierter Lehrer, wohnt allein.", "Lehrer", "PROFESSION"),
    ("Die Kostenzusage der Barmer steht noch aus.", "Barmer", "LOCATION"),
    ("Auftraggeber: IKK classic", "IKK classic", "LOCATION"),
    ("zuständig ist die Berufsgenossenschaft Bau", "Berufsgenossenschaft Bau", "LOCATION"),
    ("Er arbeitet seit 22 Jahren als Busfahrer bei den Stadtwerken Ulm.", "Stadtwerken Ulm", "LOCATION"),
    ("Die Weiterbehandlung übernimmt dort Marlene Zumkeller.", "Marlene Zumkeller", "NAME"),
    ("Die Tochter sowie der Sohn J. Rautenberg wurden informiert.", "J. Rautenberg", "NAME"),
    # A signed field with its date before the name; plural titles listing names.
    ("Validiert: 15.07.2024, A. Zimmermann", "A. Zimmermann", "NAME"),
    ("Befundet: 03.05.23 14:10, Lea Uhlenbrock-Schröder", "Lea Uhlenbrock-Schröder", "NAME"),
    ("Befund durch Dres. Müller und Schmidt, Köln", "Müller", "NAME"),
    ("Befund durch Dres. Müller und Schmidt, Köln", "Schmidt", "NAME"),
    # Forms of independently written ward notes: day-months with a closing period (one-digit month too),
    # after "ab"/"einschl." or before a clock time.
    ("Sturz im häuslichen Umfeld am 10.3., Prellung li. Hüfte", "10.3.", "DATE"),
    ("CRP am 15.03. 96 mg/l, am 19.3. 31 mg/l", "19.3.", "DATE"),
    ("Cefpodoxim 200 mg 1-0-1 bis einschl. 22.03.. Krea 1,4 mg/dl", "22.03.", "DATE"),
    ("Umstellung auf Amoxicillin p.o. ab 23.01.. Darunter Besserung", "23.01.", "DATE"),
    ("Telefonnotiz  08.05.  16:20 Uhr\n\nAnruf der Tochter", "08.05.", "DATE"),
    ("ob die Entlassung am Fr (10.5.) stattfindet", "10.5.", "DATE"),
    # Buildings, named wards, a hospital abbreviation after a unit word.
    ("Chefärztin Dr. Albrecht\nHaus C, Station Rosenthal\n", "Haus C", "LOCATION"),
    ("Chefärztin Dr. Albrecht\nHaus C, Station Rosenthal\n", "Station Rosenthal", "LOCATION"),
    ("OP-Datum: 16.04.2024     Saal 3, Zentral-OP Haus A\n", "Haus A", "LOCATION"),
    ("Thrombektomie, Angio-Suite Hebelbau UG", "Hebelbau", "LOCATION"),
    ("Aufnahme Pränatalstation (Station Eichhorn)", "Station Eichhorn", "LOCATION"),
    ("Anforderung: Unfallchirurgie, Station Sonnenblick\n", "Station Sonnenblick", "LOCATION"),
    ("pflege spätdienst rosenthal zi. 12\n", "rosenthal", "LOCATION"),
    ("pflege spätdienst rosenthal zi. 12\n", "12", "LOCATION"),
    ("Aufnahme Kreißsaal KTM – 14.02.2024, 23:15 Uhr", "KTM", "LOCATION"),
    # Care homes, stations and a practice named by a place keep their word; towns without a list.
    ("Kurzzeitpflege im Seniorenzentrum Lindenhof, Denzlingen.", "Seniorenzentrum Lindenhof", "LOCATION"),
    ("Kurzzeitpflege im Seniorenzentrum Lindenhof, Denzlingen.", "Denzlingen", "LOCATION"),
    ("Pflegedienst (Diakoniestation Elztal) 2x tägl.", "Diakoniestation Elztal", "LOCATION"),
    (
        "Dr. med. Reinhard Schuler\nGemeinschaftspraxis am Markt\nMarktplatz 7",
        "Gemeinschaftspraxis am Markt",
        "LOCATION",
    ),
    ("Zuweisung: NEF, Notarzt Dr. Kessler (RD Waldkirch)", "Waldkirch", "LOCATION"),
    ("Zuweisung durch Fr. Dr. Baumgärtner, Kirchzarten, wg. RR-Werten", "Kirchzarten", "LOCATION"),
    ("Polytrauma nach Motorradunfall bei Gutach (ISS 22)", "Gutach", "LOCATION"),
    ("1. SS 2019 Sectio bei BEL in Hochried, komplikationslos.", "Hochried", "LOCATION"),
    ("Rentner, ehem. Schlosser bei Hoffmann Fördertechnik. Raucher.", "Hoffmann Fördertechnik", "LOCATION"),
    ("Baslerstr. 48\n79540 Lörrach\nDeutschland\n\nLiestal, 29. Januar 2024", "Deutschland", "LOCATION"),
    # A given name in brackets, a care role before a name, a ward signature, a nickname, lower-case notes.
    ("Anruf von Tochter Fr. Maurer (Ingrid), Tel. 0160 9182 447", "Ingrid", "NAME"),
    ("Ehemann anwesend, aufgeklärt\n\nDr. Ostertag / Hebamme Lene\n", "Lene", "NAME"),
    ("Hörgerät li. fehlt seit Verlegung.\n\nWendt, Stat. 4B\n", "Wendt", "NAME"),
    ('Pat. ("Heiner", möchte so angesprochen werden) nachts 2x Atemnot', "Heiner", "NAME"),
    (_LOWER_NOTE, "vogl", "NAME"),
    (_LOWER_NOTE, "renate", "NAME"),
    (_LOWER_NOTE, "birgit", "NAME"),
    # Second fresh set: bare day-months with their closing period (lab headers, entries, ranges, weekdays).
    ("Sonographie 14.2.: kein Erguss", "14.2.", "DATE"),
    ("Kontrolle frühestens 18.04. vormittags", "18.04.", "DATE"),
    ("Parameter    Einheit    03.02.    05.02.    Ref.\n", "05.02.", "DATE"),
    ("\n22.11. sd\n15:00 pat. schläft", "22.11.", "DATE"),
    ("Quick-Einstellung: 4.6. 1,3 / 9.6. 1,9", "9.6.", "DATE"),
    ("Pause von Ramipril (12.10.-19.10.) ohne Folgen", "19.10.", "DATE"),
    ("Zusage Tagespflege ab Do., 16.05., Fahrdienst", "Do., 16.05.", "DATE"),
    # Addresses with a four-digit postcode or a street of any shape, datelines, towns in brackets.
    ("Primar Dr. Anton Gruber\nSpitalweg 4, 6380 Going  |  Tel. +43 5358 2211", "Going", "LOCATION"),
    ("wohnhaft: Ahornweg 9, 6380 Going\nAufenthalt", "6380", "LOCATION"),
    ("Hausärztin\nDorf 22\n6342 Niederndorf\n\nKufstein, 3. März 2024", "Dorf 22", "LOCATION"),
    ("Hausärztin\nDorf 22\n6342 Niederndorf\n\nKufstein, 3. März 2024", "Niederndorf", "LOCATION"),
    ("Hausärztin\nDorf 22\n6342 Niederndorf\n\nKufstein, 3. März 2024", "Kufstein", "LOCATION"),
    ("Zur Info an Dr. Hechenberger (Wildschönau), Fax folgt", "Wildschönau", "LOCATION"),
    ("Station Lärche\nCH-9000 Gallusberg, Spitalgasse 2 | T 071", "Gallusberg", "LOCATION"),
    # Named clinics, practices, institutes and homes; care services; hospital acronyms.
    ("Z.n. Cholezystektomie (2015, Klinik am Hirschberg), sonst leer", "Klinik am Hirschberg", "LOCATION"),
    ("Z.n. TEP li. (2012, Chirurgische Klinik Tannheim)", "Chirurgische Klinik Tannheim", "LOCATION"),
    ("Erstversorgung in der Notfallpraxis Hallein, danach Transfer", "Notfallpraxis Hallein", "LOCATION"),
    ("Thorax vom 02.03.2024 (Röntgeninstitut Seewinkel)", "Röntgeninstitut Seewinkel", "LOCATION"),
    ("derzeit Reha Buchenhöhe\n- Hausarzt fragt nach INR", "Buchenhöhe", "LOCATION"),
    ("Rollator über Sanitätshaus Kögl bestellt", "Sanitätshaus Kögl", "LOCATION"),
    ("Kontrolle in der Herzinsuffizienzambulanz BKW in 6 Wochen", "BKW", "LOCATION"),
    ("Sozialdienst BKW, Durchwahl 2231\nNachsorge im BKW geplant", "BKW", "LOCATION"),
    # Lower-case ward headers and four-digit phone groups after a slash.
    ("pflegeverlauf zirbe zi 14\n\n03.05. fd\n", "zirbe", "LOCATION"),
    ("pflegeverlauf zirbe zi 14\n\n03.05. fd\n", "14", "LOCATION"),
    ("Tochter wohnt in Linz (Tel. 0172 / 5 61 20 84), PG 3", "0172 / 5 61 20 84", "CONTACT"),
    # Ward fields and a ward after a nurse's role; staff with an initial after a role; signatures.
    ("Eintritt: 04.03.2024   Station: Pilatus\n", "Pilatus", "LOCATION"),
    ("Anfordernde Station: Edelraute (Innere), Dr. Kofler", "Edelraute", "LOCATION"),
    ("Entlassung 12.02.2024, Station Herbstrose\nAufnahmezahl: 2024/1", "Station Herbstrose", "LOCATION"),
    ("Ausgefüllt: Eva Moser, Pflegefachkraft, Zirbe\n", "Zirbe", "LOCATION"),
    ("Untersucher: Dr. K. Lang   Assistenz: Pfl. T. Brunner\n", "T. Brunner", "NAME"),
    ("Operateur: Dr. Aigner   Instrumentierung: S. Mayrhofer\n", "S. Mayrhofer", "NAME"),
    ("Befund telefonisch übermittelt, entgegengenommen DGKP Lukas.\n", "Lukas", "NAME"),
    ("Kurzzeitpflege organisiert.\n\nK. Wallner, Sozialdienst BKW, Durchwahl 2231\n", "K. Wallner", "NAME"),
    ("Nachbar versorgt die Katze.\n\nHuber\n", "Huber", "NAME"),
    ('betr. Hr. Pichler, Josef ("Sepp"), z.Zt. Reha', "Sepp", "NAME"),
    # Lower-case nursing notes: titles without a period, hand signs, relatives before a call verb.
    (_LOWER_NOTE + "10:15 visite oä kofler: infusion weiter\nhz tk\n", "kofler", "NAME"),
    (_LOWER_NOTE + "10:15 visite oä kofler: infusion weiter\nhz tk\n", "tk", "NAME"),
    (_LOWER_NOTE + "13:20 ehefrau burgl ruft an, fragt nach\n", "burgl", "NAME"),
    (_LOWER_NOTE + 'fragt ob "der sepperl" heute kommt\n', "sepperl", "NAME"),
    # Towns after a street, a company's legal form or a titled person; extensions; services in brackets;
    # named areas; initials; an Austrian state closing an address; a practice named by a place.
    ("Sturz in der Wohnung (Birkenweg 7b, Bruckmühl) gegen 6 Uhr", "Bruckmühl", "LOCATION"),
    ("Arbeitgeber: Huber Holzbau GmbH, Feldkirchen   UV-Träger: BG", "Feldkirchen", "LOCATION"),
    ("Medikation lt. Hausarzt (Dr. med. Auer, Bad Endorf):\n", "Bad Endorf", "LOCATION"),
    (
        "Kontakt: Sohn Hr. Karl Dengg, Kiefersfelden-Mühlau, Tel. 0171 2233445",
        "Kiefersfelden-Mühlau",
        "LOCATION",
    ),
    ("K. Wallner, Sozialdienst, Durchwahl -2231\n", "-2231", "CONTACT"),
    ("amb. Pflegedienst (Hilfe zuhause Mangfalltal) 2x tgl.", "Hilfe zuhause Mangfalltal", "LOCATION"),
    ("Skiunfall im Skigebiet Spitzingsee, Sturz auf die Schulter", "Spitzingsee", "LOCATION"),
    ("Befund-CD (beschriftet M.H.) mitgegeben", "M.H.", "NAME"),
    ("Wohnhaft: Dorfstraße 3, 6336 Langkampfen, Tirol\nSV-Nr.", "Tirol", "LOCATION"),
    ("Erstabklärung in der Walk-in-Praxis Wörgl bei Fieber", "Walk-in-Praxis Wörgl", "LOCATION"),
    # A town named with its lake, a hospital in a capitals header, a capitalised surname in a patient field.
    ("Lebt allein in Gstadt am Chiemsee (Seeweg 2), Treppe", "Gstadt am Chiemsee", "LOCATION"),
    ("ZENTRALLABOR LKH GRIESKIRCHEN - KUMULATIVBEFUND\n", "LKH GRIESKIRCHEN", "LOCATION"),
    ("Pat.: OBERLECHNER ANTON  geb. 01.02.1940  m\n", "OBERLECHNER", "NAME"),
    ("Pat.: OBERLECHNER Anton, geb. 01.02.1940\n", "Anton", "NAME"),
]

NEGATIVE = [
    # Doses, labs, scores, ICD and OPS codes, clock times.
    "ASS 100 mg 1-0-0, Ramipril 5 mg 1-0-0",
    "Troponin T hs 187 ng/l, im Verlauf 412 ng/l.",
    "Leukozyten 10000/µl, CRP 12 mg/l, Hb 13.11 g/dl",
    "NSTEMI (I21.4) bei koronarer 3-Gefäßerkrankung",
    "Eingriff: Offene Spaltung (OPS 5-056.40)",
    "Heparin 25000 IE über 24 h i.v.",
    "Wiedervorstellung um 10:15 Uhr in der Sprechstunde.",
    "Barthel-Index bei Verlegung 35 Punkte.",
    # "Dr." and titles without a name, month words used as words, eponyms.
    "Der Titel Dr. med. wird geführt.",
    "Herr Kollege, vielen Dank für die Überweisung.",
    "Sehr geehrte Frau Doktor,",
    "Babinski bds. negativ, Lasègue links positiv.",
    "Morbus Parkinson seit Jahren bekannt.",
    "Die Patientin wurde in die Klinik für Innere Medizin verlegt.",
    "Aufnahme in der Klinik am Abend.",
    "Kontrolle in 3 Monaten beim Hausarzt.",
    "seit 3 Jahren rezidivierende Beschwerden",
    "Fr. 12:00 Uhr Visite",
    "Patient in gutem AZ und EZ.",
    "Im Verlauf 2 Tage fieberfrei.",
    "Am Ende 5 Einheiten Insulin.",
    "Untersuchung im Rahmen der Vorsorge.",
    "Gehen mit Rollator über 150 m möglich.",
    "Kalium 5,4 mmol/l, Natrium 138 mmol/l",
    "Fußheberschwäche KG 4/5 rechts",
    "Befund: L-AB 123 positiv",
    "Patient wurde mobilisiert.",
    "Der Patient Zustand nach Sturz.",
    # Near misses of the de2-dev forms.
    "Aufnahme im Krankenhaus am Vortag.",
    "Zuweisendes Krankenhaus: siehe unten.",
    "Weiterbehandelnde Klinik: siehe Überweisung.",
    "Morbus Crohn wurde endoskopisch gesichert.",
    "INR: 1.12 unter Phenprocoumon",
    "Kalium: 4.12 mmol/l",
    "Ehemaliger Raucher, 20 py.",
    "Der Patient war 3 Wochen in Reha.",
    "Pat. ist 81 kg schwer.",
    "Pat. ist 2,5 m tief gestürzt.",
    "Beschwerden seit 3 und 5 Jahren.",
    "Metformin als Therapie bei Diabetes mellitus.",
    "Als Folge bei Sturz eine Prellung.",
    "Versorgung mit Max Dosis.",
    "AOK-Versicherte werden gesondert erfasst.",
    # Near misses of the fresh ward-note forms: decimals, scores, fractions, clock times, number wards,
    # "Haus" without a letter, nouns after "bei"/"in", departments named by their field.
    "Hb 10.3",
    "Hb stabil bei 10.3 g/dl",
    "Hb von 9.8 - 10.3.",
    "Kraft re. Arm 3/5, re. Bein 4/5",
    "NRS 5/10 (gestern 7/10)",
    "Tag 4/7 Ampicillin/Sulbactam",
    "Anruf um 16:20 Uhr",
    "Rückverlegung auf Station 4B",
    "Verlegung auf Station Nord",
    "Pat. möchte nach Hause, Haus mit Treppe.",
    "Haus- und Familienarzt informiert",
    "Metamizol bei Bedarf",
    "Operation in Vollnarkose, Lagerung in Rückenlage",
    "Exanthem bei Säuglingen und bei Scharlach",
    "Verlegung in Pflegeheim geplant",
    "Medizinische Klinik II (Geriatrie)",
    "RD informiert, Polizei vor Ort",
    "Hebamme informiert",
    # Near misses of the second set's forms: numbered headings, sections, lab values, doses, times,
    # clinics named by a department, practices named by a doctor, clinical acronyms after a unit word.
    "2.1. Anamnese",
    "siehe Kap. 4.2. und Abb. 3.1.",
    "Kalium 4.1. im Verlauf",
    "Dosis 12.5. mg",
    "Medizinische Klinik Innere, Station 4",
    "Aufnahme in der Notaufnahme, Schockraum CT",
    "Kontrolle im EKG und im MRT",
    "Verlegung in Reha geplant, Antrag gestellt",
    "Entlassung aus der Klinik am Wochenende.",
    "Station: Intensiv\n",
    "Verlegung auf Station: Chirurgie\n",
    "Pflegefachkraft, Station\n",
    "Befund mit Pfl. Anleitung besprochen",
    # Common nouns with a street ending, a pager number, an empty bracket after a service.
    "Gehen mit Rollator 20 m, Konzentrator über Nacht",
    "Fahrtauglichkeit (Pkw, Traktor) ab 6 Wochen, Anstieg auf 890",
    "Monitoring 72 h, danach Verlegung",
    "Dienstarzt Neurologie (Piepser 4417)",
    "amb. Pflegedienst (Grundpflege morgens)",
    "Befund o.B., bei Pat. O.B.",
    "Kaffee am Nachmittag in Ruhe am Tisch",
    "KLINIKUM ABTEILUNG CHIRURGIE\n",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_german_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("de", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_german_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("de", text) == set()


def test_german_month_word_after_a_title_is_a_surname() -> None:
    text = "Im Mai kam Frau Mai zur Kontrolle."
    hits = overlaps("de", text, "Frau Mai")
    assert hits == [("Mai", "PATIENT")]
    assert ("Mai", "DATE") in pack_coarse("de", "Erstdiagnose im Mai, Kontrolle folgt.")
    assert overlaps("de", "Frau Mai 2019 gesehen", "Mai 2019") == [("Mai 2019", "DATE")]


def test_german_genitive_s_stays_outside_the_name() -> None:
    found = pack_coarse("de", "Herrn Heitkamps Ehefrau rief an. Frau Kochs Tochter kam.")
    assert {("Heitkamp", "NAME"), ("Koch", "NAME")} <= found
    assert not {("Heitkamps", "NAME"), ("Kochs", "NAME")} & found
    # A listed surname ending in s keeps it.
    assert ("Fuchs", "NAME") in pack_coarse("de", "Frau Fuchs Tochter rief an.")


IDS = [
    ("Fallnummer: 2019004567", "2019004567", "ACCOUNT"),
    ("Aufnahmenr. 4477812", "4477812", "ACCOUNT"),
    ("Pat.-Nr.: 00458721", "00458721", "MEDICALRECORD"),
    ("Pat.-ID: 4471235", "4471235", "MEDICALRECORD"),
    ("PID 7784512", "7784512", "MEDICALRECORD"),
    ("KV-Nr.: A123456789", "A123456789", "HEALTHPLAN"),
    ("Versichertennummer D144985531", "D144985531", "HEALTHPLAN"),
    ("LANR 123456789", "123456789", "LICENSE"),
    # Austrian and Swiss numbers of the second fresh set.
    ("Aufnahmezahl: 2024/007731", "2024/007731", "ACCOUNT"),
    ("AHV-Nr. 756.1234.5678.97   Pat.-Nr. 55120", "756.1234.5678.97", "SSN"),
    ("SVNR 1234010180\n", "1234010180", "SSN"),
    ("Rentenvers.-Nr. 12 150380 M 022   Kostenträger: DRV", "12 150380 M 022", "SSN"),
]


@pytest.mark.parametrize(("text", "surface", "label"), IDS)
def test_german_identifiers_get_their_kind(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_found("de", text)


@pytest.mark.parametrize(
    "text", ["Validiert: 15.07.2024, Befund unauffällig", "Diktiert: 03.05.2023, geschrieben: 04.05.2023"]
)
def test_german_signed_field_date_without_a_name(text: str) -> None:
    """A date in a signed field is a date; the word after it is no name unless it reads as one."""
    assert {label for _, label in pack_coarse("de", text)} == {"DATE"}


def test_german_plural_title_leaves_partner_alone() -> None:
    found = pack_coarse("de", "Praxis Dres. med. Weber und Partner")
    assert ("Weber", "NAME") in found
    assert not {surface for surface, _ in found} & {"Partner", "Weber und Partner"}
    # A comma after the listed names is not one more name ("Dres. A und B, Köln").
    assert ("Köln", "NAME") not in pack_coarse("de", "Befund durch Dres. Müller und Schmidt, Köln")


def test_german_lone_surname_repeats_a_titled_name() -> None:
    """The default name propagation finds a bare surname in prose once a titled form named it."""
    text = "Herr Tiedemann wurde am 03.02.2024 übernommen.\n\nNach Stabilisierung konnte Tiedemann extubiert werden."
    deid = Deidentifier(model=None, lang="de")
    found = [(text[s.start : s.end], s.start) for s in deid.detect(Document("de-prop", text))]
    assert ("Tiedemann", text.rindex("Tiedemann")) in found


def test_german_shortened_compound_is_no_name() -> None:
    """ "OA Allgemein- und Viszeralchirurgie": the first part of a shortened compound after a title."""
    found = pack_coarse("de", "Dr. Emre Yilmaz, OA Allgemein- und Viszeralchirurgie")
    assert ("Emre Yilmaz", "NAME") in found
    assert not {surface for surface, _ in found} & {"Allgemein", "Allgemein-"}


def test_german_lower_case_names_need_a_lower_case_note() -> None:
    """Lower-case names are read only in a note written in lower case, and not after "fr." as Freitag."""
    assert not {label for _, label in pack_coarse("de", "Visite fr. früh, danach Tochter renate angerufen.")}
    found = pack_coarse("de", _LOWER_NOTE.replace("fr. vogl", "fr. früh"))
    assert ("früh", "NAME") not in found
    assert ("renate", "NAME") in found


def test_german_practice_named_by_a_doctor_is_no_place() -> None:
    """ "Hausarztpraxis Brandl, Monika": the doctor's name is for the name rules, not a practice name."""
    found = pack_coarse("de", "Zuweisung: Hausarztpraxis Brandl, Monika")
    assert not any(label == "LOCATION" for _, label in found)
