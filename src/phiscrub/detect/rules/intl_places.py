"""LOCATION rules of the language packs: German, French, Dutch, Spanish and Catalan.

* **ZIP + city**: ``10115 Berlin``, ``D-80331 München``, ``A-1010 Wien``, ``8001 Zürich`` (4 digits only
  before a listed town or in an address line), ``75013 Paris``, ``69003 LYON CEDEX``, ``1012 AB
  Amsterdam``, ``28036 Madrid``; the code is ZIP, the town CITY.
* **streets**: ``Hauptstraße 5``, ``Bahnhofstr. 12a``, ``Friedrich-Ebert-Straße 3``, ``Am Stadtpark 7``
  (prepositional names only in an address line); ``12 rue de la Paix``, ``3, avenue Jean Jaurès``,
  ``rue Pasteur``; ``Kerkstraat 3``, ``Laan van Meerdervoort 45``; ``C/ Mayor 5``, ``Calle del Pez, 28``,
  ``Avda. de América 3``, ``Carrer de Balmes 12``, ``Passeig de Gràcia 5``.
* **hospitals and care homes**: a facility word and the name after it (``Klinikum Nürnberg``,
  ``Universitätsklinikum Heidelberg``, ``Kreiskrankenhaus Lüneburg``, ``Helios Klinikum Berlin``,
  ``St. Marien-Krankenhaus``; ``CHU de Rennes``, ``Hôpital Saint-Louis``, ``Clinique du Parc``,
  ``Centre hospitalier de Dax``; ``Ziekenhuis Gelderse Vallei``, ``UMC Utrecht``, ``Sint Antonius
  Ziekenhuis``; ``Hospital Universitario de Getafe``, ``Hospital Universitari de Bellvitge``,
  ``Centro de Salud Los Alpes``). A facility word alone (``in der Klinik``, ``Klinik für Innere Medizin``,
  ``Hôpital de jour``) is not a name.
* **towns after a cue**: a town of the bundled lists after ``in``/``aus``/``wohnhaft in``, ``à``/
  ``originaire de``, ``te``/``uit``, ``en``/``natural de``, after a field label (``Wohnort:``,
  ``Localidad:``), or opening a dateline (``Köln, den 3. Mai 2019``, ``Paris, le ...``).
* **rooms** after ``Zi.``/``Zimmer``, ``ch.``/``chambre``, ``kamer``, ``habitación``;
  **organizations** after ``Krankenkasse:``, ``Kostenträger:``, ``Arbeitgeber:``, ``Firma``,
  ``Employeur :``, ``Organisme :``, ``zorgverzekeraar:``, ``Aseguradora:``;
  **countries** of the Spanish list in Spanish address fields (``País: España``, ``28036 Madrid, España``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.langpacks import normalize_lang

__all__ = ["PLACE_LANGUAGES", "listed_town", "pack_location_rules"]

PLACE_LANGUAGES: tuple[str, ...] = ("de", "fr", "nl", "es", "ca")

_L = r"[^\W\d_]"
_UP = r"[A-ZÀ-ÖØ-Þ]"
# A capitalised name word (hyphenated parts, apostrophes: "Garmisch-Partenkirchen", "L'Hospitalet").
_CAP = rf"(?:{_UP}['’])?{_UP}{_L}*(?:['’]{_L}+)?(?:-{_L}+)*"
_NUM = r"\d{1,4}(?:[ ]?[a-zA-Z](?![\w]))?(?:[ ]?[-/][ ]?\d{1,4}[a-z]?)?"


def _read(folder: str, stem: str) -> tuple[str, ...]:
    path = resources.files("phiscrub.resources").joinpath("lexicons", folder, f"{stem}.txt")
    if not path.is_file():
        return ()
    return tuple(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


#: Capitalised words that are also towns of the lists but mostly ordinary words in notes.
_TOWN_WORDS = frozenset(
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


@cache
def _towns() -> frozenset[str]:
    towns: set[str] = set()
    for folder in ("de", "fr", "nl"):
        towns.update(_read(folder, "cities"))
    towns.update(_read("es", "cities"))
    towns.update(_read("es", "cities_ca"))
    return frozenset(t for t in towns if len(t) > 2 and t not in _TOWN_WORDS)


def listed_town(name: str) -> bool:
    """True when ``name`` is a town of the bundled German, French, Dutch, Spanish or Catalan lists."""
    return name in _towns() or name.title() in _towns()


@cache
def _countries() -> frozenset[str]:
    return frozenset(c for c in _read("es", "countries") if len(c) > 3)


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
        rf"(?P<st>(?:{_UP}{_L}*-)*{_UP}{_L}*{_DE_STREET_SUFFIX}(?![\w])|(?:{_UP}{_L}*-)+(?:Straße|Strasse|Str\.|Weg|"
        rf"Allee|Platz|Gasse|Ring|Damm|Ufer|Chaussee|Markt|Steig|Pfad)(?![\w])|(?:{_CAP}[ ])?(?:Straße|Strasse|Str\.|Weg|Allee|Platz|Gasse|Ring|Damm|Ufer|Chaussee|Markt)(?![\w])"
        rf"(?:[ ](?:des|der|am|an[ ]der|zum|zur)?[ ]?{_CAP})?)(?:[ ]+(?P<n>{_NUM}))?(?![\w,.]\d)"
        rf"|(?P<prep>(?:Am|An[ ]der|An[ ]den|Auf[ ]der|Auf[ ]dem|Im|In[ ]der|In[ ]den|Zum|Zur|Hinter[ ]der|Unter[ ]den|Alte[rs]?|Neue[rs]?)[ ]{_CAP}(?:[ ]{_CAP})?)[ ]+(?P<pn>{_NUM})(?=[ \t]*(?:,|·|\||\n|\Z|[ \t]{{2}}|[ ]in[ ]))"
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
        rf"[ ]+(?:(?:de[ ]la|du|des|de[ ]l['’]|d['’]|de|la|le|les|l['’])[ ]?)?(?:{_CAP}|\d{{1,2}}(?:er|e)?[ ]{_CAP})"
        rf"(?:[ ](?:(?:de[ ]la|du|des|de|d['’]|la|le|et|sur|en|l['’])[ ]?)?{_CAP}){{0,4}})"
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
        rf"(?:{_UP}{_L}*-)*{_UP}{_L}*(?:straat|weg|laan|plein|gracht|kade|singel|dijk|dreef|hof|park|steeg|pad|"
        r"markt|plantsoen|baan|wal|burgwal|haven|kanaal|veld|pier|erf|brink|plaats|rijk|hout|boulevard|"
        r"binnenweg|buitenweg|zijde|straatweg|dam)(?![\w])"
        rf"|(?:Laan|Plein|Weg|Dijk|Kade)[ ](?:van[ ](?:de[ ]|der[ ]|den[ ])?|der[ ]|de[ ])?{_CAP}(?:[ ]{_CAP})?)"
        rf"(?:[ ]+(?P<n>{_NUM}))?(?![\w,.]\d)"
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
        rf"[ ]*(?:(?:de[ ]la|de[ ]los|de[ ]las|del|de|dels|de[ ]l['’´]|d['’´]|la|el|les|los)[ ]?)?(?:{_CAP}|[a-zá-ú]{{3,}}|\d{{1,2}}[ ]de[ ]{_CAP})"
        rf"(?:[ ](?:(?:de[ ]la|de[ ]los|del|de|d['’´]|y|i|la|el)[ ]?)?{_CAP}){{0,4}}"
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

_WORDS: dict[str, PlaceWords] = {"de": _DE, "fr": _FR, "nl": _NL, "es": _ES, "ca": _ES}


# ------------------------------------------------------------------------------------------------
# A capitalised word; "St." and "Ste." keep their period before the next word ("St. Gallen").
_CAP_TOKEN_RE = re.compile(rf"(?:(?:St|Ste|Bd)\.(?=[ ]\w)|{_CAP})(?![/\w])")
#: Words that end a place or facility name: the next address part, a contact label, a unit.
_NAME_END_WORDS = frozenset(
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


def _name_after(text: str, pos: int, connectors: tuple[str, ...], max_tokens: int = 5) -> int:
    """End of a run of capitalised words (with connectors between them) starting at ``pos``, or ``pos``."""
    cap = _CAP_TOKEN_RE
    end = pos
    count = 0
    i = pos
    while count < max_tokens:
        m = cap.match(text, i)
        if m is None or m.group().rstrip(".") in _NAME_END_WORDS:
            break
        end = m.end()
        count += 1
        i = end
        if not text.startswith(" ", i) or text.startswith("  ", i):
            break
        nxt = i + 1
        moved = False
        for c in sorted(connectors, key=len, reverse=True):
            if text.startswith(c + " ", nxt) and cap.match(text, nxt + len(c) + 1):
                i = nxt + len(c) + 1
                moved = True
                break
            if c.endswith("'") and text.startswith(c, nxt) and cap.match(text, nxt + len(c)):
                i = nxt + len(c)
                moved = True
                break
        if not moved:
            if cap.match(text, nxt):
                i = nxt
            else:
                break
    return end


def _town_prefix(text: str, start: int, end: int, towns: frozenset[str]) -> int:
    """End of the longest listed town at the start of ``text[start:end]``, or -1."""
    best = -1
    for m in re.finditer(r"(?=[ ,]|\Z)", text[start : end + 1]):
        cut = start + m.start()
        if cut > start and cut <= end and text[start:cut] in towns:
            best = cut
    return best


@dataclass(frozen=True)
class PackPlaceRule(PatternRule):
    """Address, facility, town, room and organization triggers of one language (see module doc)."""

    lang: str = "de"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        words = _WORDS[self.lang]
        towns = _towns()
        for m in self.pattern.finditer(text):
            kind = m.lastgroup
            if kind == "zip":
                yield from self._zip(text, m, words, towns)
            elif kind == "fac":
                span = self._facility(text, m, words)
                if span is not None:
                    yield (
                        span[0],
                        span[1],
                        "HOSPITAL" if _is_hospital(text[span[0] : span[1]]) else "ORGANIZATION",
                    )
            elif kind == "fac_after":
                # "Kinderklinik Asklepios Klinik Regensburg": a facility word inside the run starts the
                # name proper, which goes on after the run.
                inner = _facility_word(self.lang).search(text, m.start("fac_after") + 1, m.end("fac_after"))
                span = self._facility(text, inner, words) if inner is not None else None
                if span is not None and span[1] > m.end("fac_after"):
                    yield span[0], span[1], "HOSPITAL"
                else:
                    yield m.start("fac_after"), m.end("fac_after"), "HOSPITAL"
            elif kind == "town":
                yield from self._town(text, m, words, towns)
            elif kind == "townf":
                end = _name_after(text, m.end(), words.connectors, 4)
                if end > m.end():
                    yield m.end(), end, "CITY"
            elif kind == "company":
                start = m.start()
                for word in re.finditer(r"\S+", m.group()):
                    if word.group().lower() not in _COMPANY_LEAD:
                        break
                    start = m.start() + word.end() + 1
                if start < m.end():
                    yield start, m.end(), "ORGANIZATION"
            elif kind == "zipf":
                yield m.start("zipfv"), m.end("zipfv"), "ZIP"
            elif kind == "room":
                yield m.start("roomv"), m.end("roomv"), "ROOM"
            elif kind == "org":
                end = _name_after(text, m.end(), words.connectors, 4)
                if end > m.end():
                    yield m.end(), end, "ORGANIZATION"
            elif kind == "country":
                yield m.start("ctry"), m.end("ctry"), "COUNTRY"

    def _zip(
        self, text: str, m: re.Match[str], words: PlaceWords, towns: frozenset[str]
    ) -> Iterator[tuple[int, int, str]]:
        code_start, code_end = m.span("zipv")
        city_start = m.end()
        city_end = _name_after(text, city_start, words.connectors, 4)
        if city_end <= city_start:
            if self.lang == "nl":
                yield code_start, code_end, "ZIP"  # "1012 AB" is a postcode by its shape alone
            return
        city = text[city_start:city_end]
        listed = city in towns or city.title() in towns
        if not listed:
            # "Pamplona Tfno", "Madrid Servicio": the listed town at the start is the town.
            cut = _town_prefix(text, city_start, city_end, towns)
            if cut > 0:
                city_end, listed = cut, True
        digits = sum(c.isdigit() for c in m.group("zipv"))
        line_start = text.rfind("\n", 0, code_start) + 1
        before = text[line_start:code_start]
        address_line = (
            before.strip() == ""
            or re.search(r"(?:,|·|\||–|-|\d[a-z]?)[ \t]*\Z", before) is not None
            or re.search(r"(?i)(?:CP|C\.P\.|PLZ|code postal|postcode)[: .]*\Z", before) is not None
        )
        if self.lang == "nl":
            listed = True  # "1012 AB" is a postcode by its shape alone
        if digits == 4 and self.lang != "nl" and not (listed and address_line):
            return
        if not (listed or address_line):
            return
        if not listed and city.lower() in _NOT_TOWNS:
            return
        yield code_start, code_end, "ZIP"
        yield city_start, city_end, "CITY"

    def _facility(self, text: str, m: re.Match[str], words: PlaceWords) -> tuple[int, int] | None:
        start = m.start("facw")
        # A service word ("Pflegedienst", "Laboratoire", "Huisartsenpraktijk") is no part of the name.
        generic = _GENERIC_FACILITY.fullmatch(m.group("facw")) is not None
        pos = m.end("facw")
        after = text[pos : pos + 20]
        after = after.lower()
        for stop in words.facility_stop:
            if after.startswith((" " + stop + " ", " " + stop + "\n")) or after == " " + stop:
                return None
        # Connecting word between the facility word and the name ("CHU de Rennes", "Hospital del Mar").
        conn = re.match(
            r"[ ](?:de[ ]la|de[ ]l['’]|de[ ]los|de[ ]les|du|des|de|del|d['’]|van[ ]de|van|am|an[ ]der|im|in|"
            r"rechts[ ]der|links[ ]der|St\.|Sankt|Saint-|Sainte-|Sant|San|Santa|la|le|les|el|Maria|Marien)?[ ]?",
            text[pos:],
        )
        name_pos = pos + (conn.end() if conn else 0)
        if conn is not None and conn.group().strip().endswith("-"):
            name_pos = pos + conn.end()
        if conn is not None and conn.group().strip() == "" and not text.startswith(" ", pos):
            return None
        first = text[name_pos : name_pos + 40].split(" ")[0].strip(".,;:()")
        if first.lower() in words.facility_stop or first.lower() in _NOT_NAMES:
            return None
        end = _name_after(text, name_pos, words.connectors, 4)
        if end <= name_pos:
            return None
        if conn is not None and conn.group().strip():
            # "Complejo Hospitalario de Navarra", "CHU de Rennes": the town ends the name.
            cut = _town_prefix(text, name_pos, end, _towns())
            if cut > 0:
                end = cut
        name = text[name_pos:end]
        if name.lower() in _NOT_NAMES:
            return None
        return (name_pos if generic else start), end

    def _town(
        self, text: str, m: re.Match[str], words: PlaceWords, towns: frozenset[str]
    ) -> Iterator[tuple[int, int, str]]:
        start, end = m.span("townv")
        if text[start:end] in towns or text[start:end].title() in towns:
            yield start, end, "CITY"


#: Sentence words that may stand before a company name ("Trabajaba en X S.L.").
_COMPANY_LEAD = frozenset(
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
_GENERIC_FACILITY = re.compile(
    r"Seniorenzentrum|Seniorenresidenz|Pflegeheim|Altenheim|Seniorenheim|Gemeinschaftspraxis|"
    r"Radiologische Gemeinschaftspraxis|Pathologie|Labor|Pflegedienst|Diakoniestation|Sozialstation|Dialysezentrum|"
    r"Laboratoire|Cabinet de radiologie|Cabinet d'imagerie|Centre d'imagerie|Centre de radiologie|"
    r"Centre médico-psychologique|Centre de dialyse|EHPAD|Ehpad|Résidence|Association|association|"
    r"Huisartsenpraktijk|Huisartsenpost|Thuiszorg|Kraamzorg|Zorggroep|Verpleeghuis|verpleeghuis|Zorgcentrum|"
    r"Woonzorgcentrum|Residencia|Residència|Mútua|Mutua|Fundación|Fundació"
)
_NOT_TOWNS = frozenset(
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
_NOT_NAMES = frozenset(
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
_HOSPITAL_WORDS = re.compile(
    r"(?i)klinik|krankenhaus|hospital|spital|hôpital|hopital|clinique|chu\b|chr\b|ch\b|centre hospitalier|"
    r"ziekenhuis|gasthuis|medisch centrum|umc\b|\bmc\b|kliniek|hospit|clínica|clinica|centro de salud|"
    r"centre de salut|\bcap\b|herzzentrum|rehazentrum|revalidatie|rééducation|réadaptation|institut|uz\b|az\b"
)


def _is_hospital(name: str) -> bool:
    return _HOSPITAL_WORDS.search(name) is not None


def _trigger_re(code: str, w: PlaceWords) -> re.Pattern[str]:
    towns = sorted(_towns(), key=len, reverse=True)
    town_alt = trie_pattern(towns, ignore_case=False)
    cue_alt = trie_pattern(w.town_cues, ignore_case=False)
    field_alt = trie_pattern(w.town_fields, ignore_case=True)
    room_alt = trie_pattern(w.room_cues, ignore_case=False)
    org_alt = trie_pattern(w.org_fields, ignore_case=False)
    zip_sep = r",?[ ]" if code != "nl" else r"(?![\w])[ ]?"
    zip_follow = r"(?=,?[ ]?[A-ZÀ-ÖØ-Þ'])" if code != "nl" else r"(?:(?=[A-ZÀ-ÖØ-Þ'])|(?=[\n,.;)]|\Z))"
    parts = [
        rf"(?P<zip>(?<![\w.,/+\-])(?P<zipv>{w.zip_re})(?![\w.,/\-]\d){zip_sep}{zip_follow}[ ]?)",
        (
            rf"(?P<zipf>(?<![\w])(?:CP|C\.P\.|C\.P|Código[ ]postal|Codi[ ]postal|Code[ ]postal|PLZ|Postleitzahl|"
            rf"Postcode)[ \t]*[:.]?[ \t]*(?P<zipfv>{w.zip_re})(?![\w\-]))"
        ),
        rf"(?P<fac>(?<![\w\-])(?P<facw>{w.facility_re})(?![\w\-]))",
        (
            rf"(?P<town>(?:(?<![\w\-]){cue_alt}[ ]+|(?:^|(?<=\n))[ \t]*(?={town_alt},[ ]?(?:den[ ]|le[ ]|el[ ]|\d))|"
            rf"(?<=\w),[ ](?={town_alt}(?:[ \t]*(?:\n|\Z|,[ ]|\(|·|\||\.(?:\s|\Z))|[ ]-[ ]))|[ ]-[ ](?={town_alt}))"
            rf"(?P<townv>{town_alt})(?![\w\-]))"
        ),
        rf"(?P<townf>(?:^|(?<=\n)|(?<=[ ]{{2}}))[ \t]*{field_alt}[ \t]*:[ \t]*(?=[A-ZÀ-ÖØ-Þ]))",
        rf"(?P<room>(?<![\w\-]){room_alt}[ \t:]*(?:Nr\.?[ ]?|n[º°o]\.?[ ]?)?(?P<roomv>(?:[A-Z]-?)?\d{{1,4}}(?:[.\-/]\d{{1,3}})?(?:-?[A-Z]\b|[a-z]\b)?)(?![\w.,]\d|[\w]))",
        (
            rf"(?P<company>(?<![\w\-.]){_CAP}(?:[ ](?:{_CAP}|y|i|e|et|und|en|&|asociados|associats|hijos|fills)){{0,5}}"
            r",?[ ](?:S\.L\.U\.|S\.L\.L\.|S\.L\.|S\.A\.U\.|S\.A\.|S\.Coop\.|S\.C\.|SLU|SL|SA|GmbH(?:[ ]&[ ]Co\.[ ]KG)?|"
            r"AG|e\.V\.|gGmbH|SARL|SAS|EURL|B\.V\.|N\.V\.|BV|NV|VOF|Ltd\.?)(?![\w]))"
        ),
        rf"(?P<org>(?<![\w\-]){org_alt}[ \t]*:?[ \t]+(?=[A-ZÀ-ÖØ-Þ]))",
    ]
    if code in ("es", "ca"):
        countries = trie_pattern(sorted(_countries(), key=len, reverse=True), ignore_case=False)
        parts.append(
            rf"(?P<country>(?:(?i:Pa[ií]s)(?:[ ]de[ ](?:nacimiento|origen|residencia|naixement|procedència|procedencia))?[ \t]*:[ \t]*|(?<=\w),[ ]|\((?=(?:{countries})\))|(?<![\w\-])(?:a|en|de|desde|resideix[ ]a|reside[ ]en|natural[ ]de|procedent[ ]de|procedente[ ]de|originari[ ]de|originario[ ]de|originaria[ ]de)[ ])(?P<ctry>{countries})(?![\w\-]))"
        )
    if w.facility_after != r"(?:)":
        parts.append(
            rf"(?P<fac_after>(?<![\w\-])(?:(?:St\.|Sint|Sankt|Sankt-)[ ]?)?{_CAP}(?:[ ]{_CAP}){{0,2}}{w.facility_after})(?![\w\-])"
        )
    return re.compile("|".join(parts), re.MULTILINE)


@cache
def _facility_word(code: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\-])(?P<facw>{_WORDS[code].facility_re})(?![\w\-])")


@dataclass(frozen=True)
class PackStreetRule(PatternRule):
    """Streets of one language; the whole street with its number is one STREET span."""

    lang: str = "de"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        for m, _label in self.matches(text):
            if "prep" in m.re.groupindex and m.group("prep") is not None:
                yield m.start("prep"), m.end("pn"), "STREET"
                continue
            start, end = m.span("st")
            num = m.group("n") if "n" in m.re.groupindex else None
            if self.lang in ("de", "nl") and num is not None:
                end = m.end("n")
            if self.lang in ("de", "nl") and num is None and not _street_cue(text, start):
                continue
            if (
                self.lang == "fr"
                and num is None
                and not text[start].islower()
                and not _street_cue(text, start)
            ):
                continue
            yield start, end, "STREET"


_STREET_CUE_RE = re.compile(
    r"(?i)(?:in[ ]der|in[ ]die|an[ ]der|wohnhaft|adresse:?|anschrift:?|aan[ ]de|op[ ]de|adres:?|demeurant|"
    r"domicilié(?:e)?|habite|domicile[ ]?:|,|·|\n|in)[ \t]*\Z"
)


def _street_cue(text: str, start: int) -> bool:
    return _STREET_CUE_RE.search(text, max(0, start - 20), start) is not None or start == 0


@cache
def pack_location_rules(lang: str) -> tuple[PatternRule, ...]:
    """The LOCATION rules of ``lang`` (``de``, ``fr``, ``nl``, ``es``, ``ca``; empty for others)."""
    code = normalize_lang(lang)
    words = _WORDS.get(code)
    if words is None:
        return ()
    return (
        PackStreetRule(
            "STREET",
            re.compile(rf"(?<![\w\-]){words.street_re}"),
            not_after=r"[\w\-]",
            score=0.8,
            name=f"street_{code}",
            lang=code,
        ),
        PackPlaceRule(
            "CITY",
            _trigger_re(code, words),
            extra_labels=("ZIP", "HOSPITAL", "ORGANIZATION", "ROOM", "COUNTRY"),
            score=0.8,
            name=f"places_{code}",
            lang=code,
        ),
    )
