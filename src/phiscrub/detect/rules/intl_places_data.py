"""Words of the pack LOCATION rules (:mod:`.intl_places`): one :class:`PlaceWords` per language,
and the word sets that end or reject a place or facility name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Any letter; an upper-case letter; a capitalised name word (hyphenated parts, apostrophes:
#: "Garmisch-Partenkirchen", "L'Hospitalet"); a house number ("12a", "3-5").
LETTER = r"[^\W\d_]"
UPPER = r"[A-ZÀ-ÖØ-Þ]"
CAP = rf"(?:{UPPER}['’])?{UPPER}{LETTER}*(?:['’]{LETTER}+)?(?:-{LETTER}+)*"
HOUSE_NUMBER = r"\d{1,4}(?:[ ]?[a-zA-Z](?![\w]))?(?:[ ]?[-/][ ]?\d{1,4}[a-z]?)?"


#: Capitalised words that are also towns of the lists but mostly ordinary words in notes.
TOWN_WORDS = frozenset(
    [
        "Essen",
        "Halle",
        "Hof",
        "Weil",
        "Bad",
        "Lauf",
        "Wesel",
        "Tours",
        "Sens",
        "Nice",
        "Gap",
        "Lens",
        "Mons",
        "Dole",
        "Sion",
        "Pau",
        "Bar",
        "Ham",
        "Born",
        "Kiel",
        "Mark",
        "Horn",
        "Rain",
        "Zell",
        "Marktl",
        "Wald",
        "Berg",
        "Au",
        "Lage",
        "Laer",
        "Werne",
        "Wehr",
        "Schwalbe",
        "Ede",
        "Best",
        "Beek",
        "Baarn",
        "Hoorn",
        "Weert",
        "Stein",
        "Oss",
        "Putten",
        "Epe",
        "Son",
        "Gemert",
        "Mol",
        "Hamme",
        "Lier",
        "Brecht",
        "Bree",
        "Boom",
        "Lede",
        "Geel",
        "Staden",
        "Deinze",
        "Asse",
        "Wijk",
        "Lot",
        "Vitry",
        "Ronse",
        "Zele",
        "Vise",
        "Ans",
        "Hal",
        "Mandeure",
        "Arles",
        "Bourges",
        "Valence",
    ]
)


@dataclass(frozen=True)
class PlaceWords:
    """Per-language words of the place rules."""

    zip_re: str
    street_re: str
    facility_re: str
    facility_after: str
    town_cues: tuple[str, ...]
    town_fields: tuple[str, ...]
    room_cues: tuple[str, ...]
    org_fields: tuple[str, ...]
    connectors: tuple[str, ...]
    facility_stop: tuple[str, ...]


_DE_STREET_SUFFIX = (
    r"(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|steig|pfad|chaussee|markt|graben|"
    r"promenade|stieg|twiete|kamp|wall|hang|anger|tor|brücke|hof|berg|feld|garten|park|siedlung|höhe)"
)

_DE = PlaceWords(
    zip_re=r"(?:(?:D|A|CH)-?[ ]?)?(?:\d{5}|\d{4})",
    street_re=(
        # Goethestraße 27 / Friedrich-Ebert-Straße 3 / Lange Straße 5 / Am Stadtpark 7 (address line).
        rf"(?P<st>(?:{UPPER}{LETTER}*-)*{UPPER}{LETTER}*{_DE_STREET_SUFFIX}(?![\w])|(?:{UPPER}{LETTER}*-)+(?:Straße|Strasse|Str\.|Weg|"
        rf"Allee|Platz|Gasse|Ring|Damm|Ufer|Chaussee|Markt|Steig|Pfad)(?![\w])|(?:{CAP}[ ])?(?:Straße|Strasse|Str\.|Weg|Allee|Platz|Gasse|Ring|Damm|Ufer|Chaussee|Markt)(?![\w])"
        rf"(?:[ ](?:des|der|am|an[ ]der|zum|zur)?[ ]?{CAP})?)(?:[ ]+(?P<n>{HOUSE_NUMBER}))?(?![\w,.]\d)"
        rf"|(?P<prep>(?:Am|An[ ]der|An[ ]den|Auf[ ]der|Auf[ ]dem|Im|In[ ]der|In[ ]den|Zum|Zur|Hinter[ ]der|Unter[ ]den|Alte[rs]?|Neue[rs]?)[ ]{CAP}(?:[ ]{CAP})?)[ ]+(?P<pn>{HOUSE_NUMBER})(?=[ \t]*(?:,|·|\||\n|\Z|[ \t]{{2}}|[ ]in[ ]))"
    ),
    facility_re=(
        r"(?:Universitätsklinikum|Uniklinikum|Universitätsmedizin|Universitätsspital|Universitätsklinik|"
        r"Städtisches Klinikum|Kreisklinikum|Bezirksklinikum|Kreiskrankenhaus|Kreisklinik|Kreiskliniken|"
        r"Landeskrankenhaus|Bezirkskrankenhaus|Stadtkrankenhaus|Kantonsspital|Regionalspital|Klinikum|Kliniken|"
        r"Krankenhaus|Fachklinik|Rehaklinik|Rehabilitationsklinik|Rehazentrum|Reha-Zentrum|Privatklinik|"
        r"Tagesklinik|Spital|Marienhospital|Josefs-Hospital|Hospital|Herzzentrum|Diakonissenkrankenhaus|"
        r"Evangelisches Krankenhaus|Katholisches Krankenhaus|Ev\. Krankenhaus|Kath\. Krankenhaus|"
        r"(?:Helios|Asklepios|Sana|Vivantes|Agaplesion|Alexianer|Schön|Median|Mediclin|MediClin|Rhön|Paracelsus|"
        r"Ameos|AMEOS|Vamed|Johanniter|Malteser|DRK|Diakonie|Artemed|Klinikverbund)(?:[ -](?:Klinikum|Klinik|Kliniken|"
        r"Krankenhaus|Fachklinik|Rehaklinik))?|Seniorenzentrum|Seniorenresidenz|Pflegeheim|Altenheim|"
        r"Seniorenheim|Hospiz|MVZ|Medizinisches Versorgungszentrum|Dialysezentrum|Gemeinschaftspraxis|"
        r"Radiologische Gemeinschaftspraxis|Pathologie|Labor|Pflegedienst|Diakoniestation|Sozialstation)"
    ),
    facility_after=r"(?:-Krankenhaus|-Klinik|-Klinikum|-Hospital|-Spital|[ ]Klinikum|[ ]Klinik|[ ]Krankenhaus|[ ]Hospital)",
    town_cues=("in", "aus", "nach", "wohnhaft in", "wohnhaft", "geboren in", "geb. in", "wohnt in", "lebt in",
               "ansässig in", "Praxis in", "bei", "von", "Raum", "Umgebung von", "Wohnort", "gebürtig aus"),
    town_fields=("Wohnort", "Ort", "Stadt", "Geburtsort", "PLZ/Ort", "PLZ, Ort", "Herkunft"),
    room_cues=("Zi.", "Zi", "Zimmer", "Zimmer-Nr.", "Zimmernummer", "Raum"),
    org_fields=("Krankenkasse", "Kostenträger", "Arbeitgeber", "Firma", "bei der Firma", "Versicherung",
                "Kasse", "Pflegekasse", "Berufsgenossenschaft", "Arbeitgeberin", "Träger"),
    connectors=("am", "an der", "im", "in der", "rechts der", "links der", "vor der", "auf der", "ob der",
                "St.", "Sankt", "Bad", "(Saale)", "a.", "a.d.", "v.d.", "(Oder)", "(Main)"),
    facility_stop=("für", "der", "des", "und", "mit", "am", "im", "in", "zu"),
)  # fmt: skip

_FR = PlaceWords(
    zip_re=r"(?:F-)?(?:0[1-9]|[1-8]\d|9[0-8])\d{3}",
    street_re=(
        r"(?P<st>(?:(?P<n>\d{1,4}(?:[ ]?(?:bis|ter|quater|[A-Ba-b]))?),?[ ]+)?"
        r"(?:rue|Rue|RUE|avenue|Avenue|av\.|Av\.|boulevard|Boulevard|bd|Bd|bld|place|Place|chemin|Chemin|allée|Allée|"
        r"impasse|Impasse|route|Route|quai|Quai|cours|Cours|square|Square|passage|Passage|voie|rond-point|"
        r"faubourg|Faubourg|esplanade|Esplanade|parvis|lotissement|Lotissement|résidence|Résidence|"
        r"sentier|cité|Cité|hameau|Hameau|montée|Montée|promenade|Promenade)"
        rf"[ ]+(?:(?:de[ ]la|du|des|de[ ]l['’]|d['’]|de|la|le|les|l['’])[ ]?)?(?:{CAP}|\d{{1,2}}(?:er|e)?[ ]{CAP})"
        rf"(?:[ ](?:(?:de[ ]la|du|des|de|d['’]|la|le|et|sur|en|l['’])[ ]?)?{CAP}){{0,4}})"
    ),
    facility_re=(
        r"(?:CHU|CHR|CHRU|CHIC|CHI|CHS|CH|AP-HP|APHP|HCL|AP-HM|Centre[ ]hospitalier(?:[ ]universitaire|[ ]régional|"
        r"[ ]intercommunal|[ ]spécialisé|[ ]général)?|Centre[ ]Hospitalier(?:[ ]Universitaire|[ ]Régional)?|"
        r"Hôpital(?:[ ]privé|[ ]Privé|[ ]d'instruction[ ]des[ ]armées|[ ]universitaire)?|HÔPITAL|Hôpitaux|Hopital|"
        r"Clinique|CLINIQUE|Polyclinique|Groupe[ ]hospitalier|Groupement[ ]hospitalier|Institut|Centre[ ]de[ ]rééducation"
        r"(?:[ ]fonctionnelle)?|Centre[ ]de[ ]réadaptation|Centre[ ]de[ ]lutte[ ]contre[ ]le[ ]cancer|Centre[ ]de[ ]dialyse|"
        r"Centre[ ]médico-psychologique|Centre[ ]de[ ]santé|Maison[ ]de[ ]santé|EHPAD|Ehpad|Résidence|Laboratoire|"
        r"Cabinet[ ]de[ ]radiologie|Cabinet[ ]d'imagerie|Centre[ ]d'imagerie|Centre[ ]de[ ]radiologie|SSR|CMP|"
        r"Association|association|Centre[ ]Léon[ ]Bérard)"
    ),
    facility_after=r"(?:)",
    town_cues=("à", "de", "d'", "originaire de", "domicilié à", "domiciliée à", "demeurant à", "né à", "née à",
               "Fait à", "fait à", "habite à", "vit à", "en provenance de", "région de", "près de",
               "juge des tutelles de", "CMP de"),
    town_fields=("Ville", "Commune", "Lieu de naissance", "Localité", "Domicile"),
    room_cues=("ch.", "chambre", "Chambre", "box", "Box"),
    org_fields=("Employeur", "Organisme", "Mutuelle", "Caisse", "Assurance", "Complémentaire", "l'association",
                "association", "EHPAD", "l'EHPAD", "Organisme payeur", "Mission confiée par la"),
    connectors=("de", "du", "des", "de la", "d'", "la", "le", "les", "sur", "en", "et", "lès", "sous", "Saint",
                "Sainte", "St", "Ste"),
    facility_stop=("de jour", "de semaine", "de nuit", "du jour", "de proximité"),
)  # fmt: skip

_NL = PlaceWords(
    zip_re=r"[1-9]\d{3}[ ]?(?!SA|SD|SS)[A-Z]{2}",
    street_re=(
        r"(?P<st>(?:(?:Laan|Plein|Weg|Dijk|Kade|Burgemeester|Burg\.|Prins|Prinses|Koningin|Koning|Sint|St\.|Nieuwe|Oude|"
        r"Lange|Korte|Hoge|Lage|Grote|Kleine|Eerste|Tweede)[ ](?:van[ ](?:de[ ]|der[ ]|den[ ])?|der[ ]|de[ ])?)?"
        rf"(?:{UPPER}{LETTER}*-)*{UPPER}{LETTER}*(?:straat|weg|laan|plein|gracht|kade|singel|dijk|dreef|hof|park|steeg|pad|"
        r"markt|plantsoen|baan|wal|burgwal|haven|kanaal|veld|pier|erf|brink|plaats|rijk|hout|boulevard|"
        r"binnenweg|buitenweg|zijde|straatweg|dam)(?![\w])"
        rf"|(?:Laan|Plein|Weg|Dijk|Kade)[ ](?:van[ ](?:de[ ]|der[ ]|den[ ])?|der[ ]|de[ ])?{CAP}(?:[ ]{CAP})?)"
        rf"(?:[ ]+(?P<n>{HOUSE_NUMBER}))?(?![\w,.]\d)"
    ),
    facility_re=(
        r"(?:Universitair[ ]Medisch[ ]Centrum|Academisch[ ]Ziekenhuis|Academisch[ ]Medisch[ ]Centrum|UMC|Medisch[ ]Centrum|"
        r"MC|Ziekenhuis|ziekenhuis|Streekziekenhuis|Revalidatiecentrum|Verpleeghuis|verpleeghuis|Zorgcentrum|"
        r"Woonzorgcentrum|Kliniek|Gasthuis|Huisartsenpraktijk|Huisartsenpost|Thuiszorg|Kraamzorg|Zorggroep|"
        r"Algemeen[ ]Ziekenhuis|AZ|UZ|Universitair[ ]Ziekenhuis)"
    ),
    facility_after=r"(?:[ ]Ziekenhuis|[ ]ziekenhuis|[ ]Gasthuis|[ ]Kliniek|[ ]MC|[ ]Medisch[ ]Centrum|[ ]Ziekenhuisgroep)",
    town_cues=("in", "te", "uit", "naar", "wonend te", "woonachtig te", "woonachtig in", "geboren te", "wonend in",
               "regio", "omgeving"),
    town_fields=("Woonplaats", "Plaats", "Geboorteplaats"),
    room_cues=("kamer", "Kamer", "kamernummer"),
    org_fields=("zorgverzekeraar", "Zorgverzekeraar", "verzekeraar", "Verzekeraar", "werkgever", "Werkgever",
                "Kraamzorg via", "verpleeghuis", "Verzekering"),
    connectors=("aan", "aan de", "aan den", "op", "den", "de", "bij", "'s", "Sint"),
    facility_stop=("de", "het", "van", "voor"),
)  # fmt: skip

_ES = PlaceWords(
    zip_re=r"(?:E-)?(?:0[1-9]|[1-4]\d|5[0-2])\d{3}",
    street_re=(
        r"(?P<st>(?:C/|c/|C\.|c\.|Calle|calle|CALLE|Avda\.|Avda|avda\.|Avenida|avenida|Avenido|Av\.|av\.|Pº|P\.º|Paseo|"
        r"paseo|Plaza|plaza|Pl\.|Pza\.|Plza\.|Ronda|ronda|Carretera|carretera|Ctra\.|ctra\.|Camino|camino|Travesía|"
        r"Urbanización|Urb\.|Glorieta|Carrer|carrer|Avinguda|avinguda|Passeig|passeig|Plaça|plaça|Pça\.|Rambla|rambla|"
        r"Travessera|Via|Camí|Passatge|Rbla\.|Pg\.)"
        rf"[ ]*(?:(?:de[ ]la|de[ ]los|de[ ]las|del|de|dels|de[ ]l['’´]|d['’´]|la|el|les|los)[ ]?)?(?:{CAP}|[a-zá-ú]{{3,}}|\d{{1,2}}[ ]de[ ]{CAP})"
        rf"(?:[ ](?:(?:de[ ]la|de[ ]los|del|de|d['’´]|y|i|la|el)[ ]?)?{CAP}){{0,4}}"
        r"(?:,?[ ]+(?:n[º°o]\.?[ ]?)?(?P<n>\d{1,4}(?:[-/]\d{1,4})?(?:[ ]?[A-Za-z](?![\w]))?|s/n)(?:,?[ ]\d{1,2}[º°ª]?(?:[ ]?[A-Za-z](?![\w])|[ ]?(?:dcha|izda|izq|der)\.?|[ -]\d{1,2}[º°ª]?(?![\d]))?(?:[ ]\d{1,2}[ªa](?![\w]))?(?![\d]))?"
        r"|[ ]km[ ]\d{1,3}(?:,\d{1,3})?)?)"
    ),
    facility_re=(
        r"(?:Hospital[ ]Universitario|Hospital[ ]Universitari|Hospital[ ]General[ ]Universitario|Hospital[ ]General|"
        r"Hospital[ ]Clínico[ ]Universitario|Hospital[ ]Clínico|Hospital[ ]Clínic|Hospital[ ]Comarcal|Hospital[ ]Materno-Infantil|"
        r"Hospital[ ]Infantil|Hospital[ ]Regional|Hospital|Clínica|Clinica|Centro[ ]de[ ]Salud|Centre[ ]de[ ]Salut|"
        r"Centro[ ]de[ ]Atención[ ]Primaria|CAP|CS|Complejo[ ]Hospitalario|Complexo[ ]Hospitalario|Consorci[ ]Sanitari|"
        r"Corporació[ ]Sanitària|Parc[ ]Sanitari|Institut|Instituto|Fundación|Fundació|Centro[ ]Médico|Centre[ ]Mèdic|"
        r"Residencia|Residència|Centre[ ]Sociosanitari|Centro[ ]Sociosanitario|Policlínica|Sanatorio|Mútua|Mutua)"
    ),
    facility_after=r"(?:)",
    town_cues=("en", "de", "a", "desde", "natural de", "vecino de", "vecina de", "residente en", "resident a",
               "veí de", "veïna de", "procedente de", "domiciliado en", "domiciliada en", "nacido en", "nacida en",
               "nascut a", "nascuda a", "viu a", "vive en"),
    town_fields=("Localidad", "Localidad/ Provincia", "Localidad/Provincia", "Provincia", "Municipio", "Ciudad",
                 "Población", "Lugar de nacimiento", "Població", "Localitat", "Municipi", "Comunidad Autónoma"),
    room_cues=("Habitación", "habitación", "Hab.", "hab.", "HAB", "HAB.", "Habitació", "habitació", "Box", "box", "Cama", "cama",
               "Llit", "llit"),
    org_fields=("Aseguradora", "Mutua", "Mútua", "Empresa", "Compañía", "Asseguradora"),
    connectors=("de", "del", "de la", "de les", "de los", "d'", "i", "y", "la", "el", "les", "Sant", "Santa",
                "San"),
    facility_stop=("de día", "de dia", "de referencia", "de referència"),
)  # fmt: skip

WORDS: dict[str, PlaceWords] = {"de": _DE, "fr": _FR, "nl": _NL, "es": _ES, "ca": _ES}

#: Words that end a place or facility name: the next address part, a contact label, a unit.
NAME_END_WORDS = frozenset(
    [
        "Calle",
        "C",
        "Avda",
        "Avenida",
        "Av",
        "Paseo",
        "Pº",
        "Plaza",
        "Pl",
        "Carrer",
        "Avinguda",
        "Passeig",
        "Plaça",
        "Ctra",
        "Carretera",
        "Camino",
        "Camí",
        "Rambla",
        "Ronda",
        "Rue",
        "Avenue",
        "Boulevard",
        "Bd",
        "Place",
        "Chemin",
        "Allée",
        "Route",
        "Quai",
        "Straße",
        "Strasse",
        "Str",
        "Weg",
        "Platz",
        "Allee",
        "Straat",
        "Laan",
        "Tel",
        "Tfno",
        "Telf",
        "Teléfono",
        "Telefono",
        "Tél",
        "Telefon",
        "Telefoon",
        "Fax",
        "Telefax",
        "Email",
        "E-mail",
        "Mail",
        "Correo",
        "Courriel",
        "Tlf",
        "Móvil",
        "Servicio",
        "Unidad",
        "Sección",
        "Departamento",
        "Dpto",
        "Servei",
        "Unitat",
        "Service",
        "Unité",
        "Abteilung",
        "Station",
        "Afdeling",
        "España",
        "Spain",
        "Espagne",
        "Deutschland",
        "Germany",
        "Frankreich",
        "France",
        "Nederland",
        "Belgique",
        "België",
        "Schweiz",
        "Suisse",
        "Österreich",
        "CEDEX",
        "Cedex",
        "Postfach",
        "BP",
        "CS",
    ]
)

#: Sentence words that may stand before a company name ("Trabajaba en X S.L.").
COMPANY_LEAD = frozenset(
    [
        "trabajaba",
        "trabaja",
        "trabajó",
        "treballava",
        "treballa",
        "arbeitet",
        "arbeitete",
        "travaille",
        "travaillait",
        "werkt",
        "werkte",
        "bei",
        "firma",
        "empresa",
        "en",
        "la",
        "el",
        "los",
        "las",
        "die",
        "der",
        "das",
        "le",
        "les",
        "de",
        "het",
        "chez",
        "für",
        "von",
        "vom",
        "zur",
        "zum",
        "con",
        "per",
        "por",
        "para",
        "mútua",
        "mutua",
        "aseguradora",
        "a",
        "al",
        "à",
        "y",
        "i",
        "und",
        "et",
        "krankenkasse",
        "kasse",
        "firma",
        "arbeitgeber",
        "versicherung",
        "zwischenbericht",
        "bericht",
        "an",
    ]
)

GENERIC_FACILITY = re.compile(
    r"Seniorenzentrum|Seniorenresidenz|Pflegeheim|Altenheim|Seniorenheim|Gemeinschaftspraxis|"
    r"Radiologische Gemeinschaftspraxis|Pathologie|Labor|Pflegedienst|Diakoniestation|Sozialstation|Dialysezentrum|"
    r"Laboratoire|Cabinet de radiologie|Cabinet d'imagerie|Centre d'imagerie|Centre de radiologie|"
    r"Centre médico-psychologique|Centre de dialyse|EHPAD|Ehpad|Résidence|Association|association|"
    r"Huisartsenpraktijk|Huisartsenpost|Thuiszorg|Kraamzorg|Zorggroep|Verpleeghuis|verpleeghuis|Zorgcentrum|"
    r"Woonzorgcentrum|Residencia|Residència|Mútua|Mutua|Fundación|Fundació"
)

NOT_TOWNS = frozenset(
    [
        "einheiten",
        "zellen",
        "stück",
        "euro",
        "eur",
        "ie",
        "ml",
        "mg",
        "personen",
        "patienten",
        "fälle",
        "jahre",
        "tage",
        "schritte",
        "punkte",
        "unités",
        "patients",
        "euros",
        "cas",
        "jours",
        "eenheden",
        "patiënten",
        "gevallen",
        "unidades",
        "pacientes",
        "casos",
    ]
)

NOT_NAMES = frozenset(
    [
        "für",
        "der",
        "die",
        "das",
        "des",
        "und",
        "mit",
        "am",
        "im",
        "in",
        "zu",
        "von",
        "vom",
        "zum",
        "zur",
        "a",
        "au",
        "aux",
        "à",
        "en",
        "et",
        "de",
        "du",
        "des",
        "la",
        "le",
        "les",
        "pour",
        "voor",
        "van",
        "het",
        "een",
        "en",
        "medizin",
        "innere",
        "station",
        "ambulanz",
        "notaufnahme",
        "verwaltung",
        "jour",
        "semaine",
        "nuit",
        "universitaire",
        "général",
        "générale",
        "del",
        "de",
        "la",
        "el",
        "para",
        "y",
        "servicio",
        "unidad",
        "planta",
        "día",
    ]
)
