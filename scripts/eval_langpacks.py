"""Per-language rule tables: recall and precision of the rules alone (no model) per language pack.

Sets (coarse labels, policy ``i2b2``, the default of every non-English language):

* ``es`` MEDDOCAN dev (BRAT gold, ``--corpus meddocan``; the Spanish rules were tuned on MEDDOCAN train,
  ``--sets es-meddocan-train``);
* ``k`` the Catalan/Spanish zero-shot notes ``zeroshot-notes/k`` (filled by ``phiscrub``'s own fill,
  seeds 12, 13, 14; each note scored with the rules of its language, as ``--lang auto`` would):
  ``k-dev`` = k-001..k-028, ``k-test`` = k-029..k-035;
* ``de``, ``fr``, ``nl``: the placeholder notes of ``tests/data/langpack-notes/<lang>/`` filled by the
  small filler below (three draws per note, seeds 1-3). Notes 001-015 (nl: 001-006) are the dev part the
  rules were tuned on (German also 031-038, written later in other styles: telegraphic, ALL CAPS, forms);
  016-030 (nl: 007-012) are the test part, not looked at while writing rules.
* ``de2``: 30 more German notes in other styles (039-068: case reports in flowing prose, Epikrise,
  Verlaufsberichte with many dates, Reha and MDK reports, Austrian and Swiss letters, notes with little or
  no PHI), written before the rules were read: ``de2-dev`` = 039-053, ``de2-test`` = 054-068 (scored
  before the German rules were tuned on ``de2-dev`` and after; its errors are not listed, ``--errors``
  takes dev sets only).
* ``es2``: 30 Spanish notes in styles unlike MEDDOCAN's case reports (informes de alta, urgencias,
  evolutivos, enfermería, interconsultas, radiología, derivación, quirófano, trabajo social, psiquiatría,
  pediatría; notes from Mexico, Argentina and Colombia), written before the Spanish rules were read:
  ``es2-dev`` = es-001..015, ``es2-test`` = es-016..030 (Spanish pool: double surnames, Spanish and Latin
  American addresses, DNI with its check letter, CURP, NUSS/CIP; a value takes the case of an ALL CAPS or
  all lower-case template line; an AGE span holds its unit, "45 años", as in MEDDOCAN).

The filler is self-contained (``phiscrub.transform.fill`` fills only en/es/ca/zh) and draws names
half from common names of the language and half from rare surnames and given names that are not in
the bundled lexicons, so a rule that only knows listed names cannot reach full recall.

Scores: binary token P/R (PHI or not, tokenizer ``phiscrub-word-v1``) and entity P/R/F1 (exact span
and coarse label), from :func:`phiscrub.evaluate.metrics.evaluate`.

Usage::

    python scripts/eval_langpacks.py                      # table of every set, markdown
    python scripts/eval_langpacks.py --sets de-dev fr-dev  # some sets
    python scripts/eval_langpacks.py --json out.json      # also write the scores
    python scripts/eval_langpacks.py --errors de-dev      # missed / spurious spans (dev sets only)

The "before" column of docs/crosslingual.md comes from the same script run against the rules of an
older commit: ``git worktree add /tmp/old <commit>`` then ``PYTHONPATH=/tmp/old/src python
scripts/eval_langpacks.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.evaluate.metrics import evaluate
from phiscrub.io import read_corpus
from phiscrub.labels import fold
from phiscrub.transform.fill import detect_lang, fill_text

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "tests" / "data" / "langpack-notes"
SHARED = ROOT.parent / "shared" / "data"
PLACEHOLDER_RE = re.compile(r"\[([A-Z][A-Z_]*)\]")


def _names(text: str) -> list[str]:
    """A pool list written as one comma-separated string."""
    return [n.strip() for n in text.split(",")]


# ------------------------------------------------------------------------------------------------
# Surrogate pools. "common" names are frequent names of the language; "rare" ones were checked to be
# absent from the bundled lexicons (resources/lexicons), so lexicon lookups cannot find them.
POOLS: dict[str, dict[str, list[str]]] = {
    "de": {
        "first_f": ["Anna", "Sabine", "Ursula", "Monika", "Petra", "Julia", "Katharina", "Renate", "Gisela",
                    "Lea", "Anneliese", "Hildegard", "Birgit", "Elfriede", "Marlene", "Wiebke", "Frauke",
                    "Roswitha", "Heidrun", "Almut"],
        "first_m": ["Klaus", "Peter", "Thomas", "Michael", "Hans", "Jürgen", "Wolfgang", "Stefan", "Dieter",
                    "Lukas", "Günter", "Horst", "Erwin", "Reinhold", "Volker", "Eckhard", "Hartmut", "Detlef",
                    "Gerold", "Wilfried"],
        "last_common": ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
                        "Schulz", "Hoffmann", "Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann",
                        "Schwarz", "Zimmermann", "Braun", "Krüger"],
        "last_rare": ["Ostermeier", "Wendtland", "Birkenstock", "Hellwege", "Quandtmeyer", "Oberhäuser",
                      "Dreesbach", "Kötterheinrich", "Pfannschmidt", "Rautenberg", "Senftleben", "Tiedemann",
                      "Uhlenbrock", "Wischnewski", "Zumkeller", "Brockhagen", "Eggersglüß", "Grabowski",
                      "Heitkamp", "Lüdecke"],
        "cities": ["Berlin", "Hamburg", "München", "Köln", "Frankfurt am Main", "Stuttgart", "Düsseldorf",
                   "Leipzig", "Dortmund", "Bremen", "Dresden", "Hannover", "Nürnberg", "Bielefeld", "Münster",
                   "Freiburg im Breisgau", "Heidelberg", "Rostock", "Kassel", "Regensburg", "Bad Oeynhausen",
                   "Garmisch-Partenkirchen", "Wien", "Graz", "Zürich", "Bern", "Gütersloh", "Lüneburg"],
        "street_names": ["Hauptstraße", "Bahnhofstraße", "Goethestraße", "Schillerstr.", "Mühlenweg",
                         "Am Lindenhof", "Kirchplatz", "Gartenstraße", "Lindenallee", "Bergstr.",
                         "Friedrich-Ebert-Straße", "Am Stadtpark", "Rosenweg", "Sonnenhang", "Schulstraße",
                         "Marktplatz", "Kastanienallee", "Ringstraße", "Dorfstr.", "Waldweg"],
        "hospitals": ["Klinikum {c}", "Universitätsklinikum {c}", "St. Marien-Krankenhaus", "Städtisches Klinikum {c}",
                      "Kreiskrankenhaus {c}", "Evangelisches Krankenhaus {c}", "Helios Klinikum {c}",
                      "Krankenhaus {c}", "Rehaklinik am Kurpark", "Klinikum rechts der Isar",
                      "Asklepios Klinik {c}", "Sana Klinikum {c}", "Charité", "Fachklinik {c}",
                      "Universitätsspital {c}", "Marienhospital {c}"],
        "orgs": ["AOK Bayern", "Techniker Krankenkasse", "Barmer", "DAK-Gesundheit", "IKK classic",
                 "Pflegedienst Sonnenschein", "Siemens AG", "Deutsche Rentenversicherung Bund",
                 "Berufsgenossenschaft Bau", "Labor Dr. Wisplinghoff", "MVZ Mitte", "Diakoniestation Nord",
                 "Seniorenresidenz Am Park", "Bestattungen Pietät", "Radiologie Nord"],
        "departments": ["Klinik für Kardiologie", "Innere Medizin", "Unfallchirurgie", "Stroke Unit",
                        "Zentrale Notaufnahme", "Neurologie"],
        "professions": ["Maurer", "Lehrerin", "Bankkaufmann", "Elektriker", "Krankenschwester", "Landwirt",
                        "Busfahrer", "Verkäuferin", "Ingenieur", "Bäcker", "Dachdecker", "Erzieherin"],
    },
    "fr": {
        "first_f": ["Marie", "Monique", "Françoise", "Catherine", "Nathalie", "Isabelle", "Sylvie", "Chantal",
                    "Jeanne", "Camille", "Odile", "Ghislaine", "Maryvonne", "Solange", "Huguette", "Bernadette",
                    "Clémence", "Armelle", "Gwenaëlle", "Yvette"],
        "first_m": ["Jean", "Pierre", "Michel", "Philippe", "Alain", "Patrick", "Nicolas", "Christophe",
                    "Jacques", "Louis", "Gérard", "Bernard", "Thierry", "Yannick", "Gwenaël", "Loïc", "Maxence",
                    "Anatole", "Rémi", "Jean-Claude"],
        "last_common": ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand",
                        "Leroy", "Moreau", "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David",
                        "Bertrand", "Roux", "Vincent", "Fournier"],
        "last_rare": ["Kerbrat", "Le Goff", "Quéméner", "Dufresnoy", "Bourdieu-Lacaze", "Chaussegros",
                      "Ferrandon", "Hennequin", "Labrousse", "Kerjean", "Penhoat", "Rigaudière", "Saint-Aubin",
                      "Tardivel", "Kerhervé", "Wattebled", "Esnault", "Guérineau", "Jacquemart", "Lestrade"],
        "cities": ["Paris", "Lyon", "Marseille", "Toulouse", "Nantes", "Bordeaux", "Lille", "Rennes",
                   "Strasbourg", "Montpellier", "Grenoble", "Dijon", "Angers", "Brest", "Limoges", "Tours",
                   "Clermont-Ferrand", "Saint-Étienne", "Aix-en-Provence", "Boulogne-Billancourt", "Quimper",
                   "Besançon", "Genève", "Lausanne", "Bruxelles", "Liège"],
        "street_names": ["rue de la République", "avenue Jean Jaurès", "boulevard Voltaire", "rue Victor Hugo",
                         "place de la Mairie", "chemin des Vignes", "allée des Tilleuls", "rue Pasteur",
                         "impasse des Lilas", "route de Lyon", "quai de la Loire", "rue du Général de Gaulle",
                         "avenue de la Gare", "rue des Écoles", "boulevard Saint-Michel"],
        "hospitals": ["CHU de {c}", "Hôpital {c}", "Centre hospitalier de {c}", "Clinique Saint-Joseph",
                      "Hôpital Saint-Louis", "Groupe hospitalier {c} Nord", "Hôpital privé de {c}",
                      "Clinique du Parc", "Hôpital Européen Georges-Pompidou", "CHR de {c}",
                      "Centre de rééducation fonctionnelle de {c}", "Hôpital de la Croix-Rousse",
                      "Clinique Pasteur", "CHU {c}", "Hôpital Nord"],
        "orgs": ["CPAM du Rhône", "MGEN", "Harmonie Mutuelle", "Cerballiance", "Biogroup", "Renault",
                 "SNCF", "La Poste", "Association ADMR", "EHPAD Les Glycines", "Résidence Les Tilleuls",
                 "Cabinet Imagerie Médicale du Centre", "CARSAT Bretagne", "Crédit Agricole"],
        "departments": ["Service de cardiologie", "Médecine interne", "Réanimation"],
        "professions": ["boulanger", "enseignante", "agriculteur", "infirmière", "maçon", "comptable",
                        "chauffeur routier", "secrétaire", "électricien", "aide-soignante", "ingénieur"],
    },
    "nl": {
        "first_f": ["Anna", "Maria", "Johanna", "Cornelia", "Wilhelmina", "Sanne", "Femke", "Anouk",
                    "Ingrid", "Marieke", "Gerda", "Hendrika", "Geertruida", "Truus", "Aaltje", "Jikke"],
        "first_m": ["Jan", "Pieter", "Hendrik", "Cornelis", "Willem", "Johannes", "Bram", "Daan", "Sjoerd",
                    "Gerrit", "Klaas", "Teun", "Wouter", "Joost", "Freerk", "Harm"],
        "last_common": ["de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Janssen",
                        "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Peters"],
        "last_rare": ["Oosterhuis", "Wijnbergen", "Hoekstra-Bouma", "Zwiers", "Brouwersma", "van Tongeren",
                      "Terpstra", "Kuipers-Ravelli", "Hazelhoff", "Schuitema", "Blankevoort", "Tjeenk",
                      "Veldkamp", "Rijkeboer", "Nijenhuis", "Overbeek"],
        "cities": ["Amsterdam", "Rotterdam", "Utrecht", "Den Haag", "Eindhoven", "Groningen", "Tilburg",
                   "Almere", "Breda", "Nijmegen", "Leeuwarden", "Zwolle", "Maastricht", "Alphen aan den Rijn",
                   "'s-Hertogenbosch", "Den Helder", "Antwerpen", "Gent"],
        "street_names": ["Kerkstraat", "Dorpsstraat", "Stationsweg", "Prinsengracht", "Molenweg",
                         "Laan van Meerdervoort", "Schoolstraat", "Julianalaan", "Marktplein", "Beukenlaan",
                         "Nieuwe Binnenweg", "Oudegracht"],
        "hospitals": ["Ziekenhuis {c}", "Universitair Medisch Centrum {c}", "Medisch Centrum {c}",
                      "Sint Antonius Ziekenhuis", "Rijnstate", "Isala", "Amphia Ziekenhuis", "Catharina Ziekenhuis",
                      "Albert Schweitzer ziekenhuis", "Revalidatiecentrum {c}", "UMC {c}"],
        "orgs": ["Zilveren Kruis", "CZ", "Menzis", "Thuiszorg West", "Kraamzorg De Eerste Week",
                 "Zorggroep Noorderbreedte", "Huisartsenpraktijk De Linde", "Verpleeghuis De Kloosterhof"],
        "departments": ["Cardiologie", "Interne Geneeskunde"],
        "professions": ["timmerman", "leraar", "verpleegkundige", "boer", "buschauffeur", "kapster"],
    },
    "es": {
        "first_f": _names(
            "María, Carmen, Ana, Isabel, Laura, Lucía, Pilar, Dolores, Rosa, Marta, Guadalupe, "
            "María José, Covadonga, Edurne, Arantxa, Maitane, Ainhoa, Yurena, Fuensanta, "
            "Xóchitl"
        ),
        "first_m": _names(
            "José, Antonio, Manuel, Francisco, Juan, Javier, Carlos, Miguel, Luis, José Luis, "
            "Juan Carlos, Xabier, Gumersindo, Unai, Gorka, Ibai, Asier, Joseba, Yamil, "
            "Abundio"
        ),
        "last_common": _names(
            "García, Rodríguez, González, Fernández, López, Martínez, Sánchez, Pérez, Gómez, "
            "Martín, Jiménez, Ruiz, Hernández, Díaz, Moreno, Álvarez, Romero, Torres, Ramírez, "
            "Flores"
        ),
        "last_rare": _names(
            "Arrizabalaga, Cienfuegos, Barrenechea, Olabarrieta, Sotomayor, Valdivieso, "
            "Zubizarreta, Betancourt, Urquiza, Iturbide, Piedrahíta, Arzuaga, Etxeberria, "
            "Lizarazu, Ugalde, Arriola, Oyarzábal, Echenique, Irigoyen, Pimentel, Echavarría, "
            "Landaverde, Ibarrola, de la Fuente"
        ),
        "cities": _names(
            "Madrid, Barcelona, Sevilla, Valencia, Zaragoza, Málaga, Bilbao, Valladolid, "
            "Oviedo, Salamanca, Toledo, Cáceres, Lugo, Albacete, Alcalá de Henares, "
            "Talavera de la Reina, Las Palmas de Gran Canaria, San Sebastián de los Reyes, "
            "Villanueva de la Serena, Ciudad de México, Guadalajara, Monterrey, Puebla, "
            "Buenos Aires, Rosario, Mar del Plata, Córdoba, Bogotá, Medellín, Cali, "
            "Barranquilla, Bucaramanga"
        ),
        "street_names": ["C/ Mayor", "Calle de Alcalá", "Avda. de la Constitución", "Paseo de la Castellana",
                         "Plaza de España", "Ronda de Toledo", "C/ San Vicente Mártir", "Camino Viejo de Leganés",
                         "Avenida de América", "Calle Real", "Travesía del Pilar", "Gran Vía",
                         "Av. Insurgentes Sur", "Av. Corrientes", "Calle Hidalgo", "Av. Rivadavia"],
        "hospitals": ["Hospital Universitario {c}", "Hospital General de {c}", "Centro de Salud {c}",
                      "Hospital Universitario La Paz", "Hospital Clínico San Carlos", "Clínica Santa Elena",
                      "Hospital Universitario Virgen del Rocío", "Complejo Hospitalario Universitario de {c}",
                      "Centro de Salud Las Calesas", "Hospital Italiano de Buenos Aires", "Sanatorio Güemes",
                      "Hospital General de Zona No. 46", "Clínica Las Américas", "Hospital San Vicente Fundación",
                      "Hospital de Clínicas José de San Martín", "CAP {c}", "Clínica Nuestra Señora del Pilar",
                      "Hospital Comarcal de {c}"],
        "orgs": ["Mapfre", "Sanitas", "Adeslas", "Asisa", "MUFACE", "Mercadona", "Renfe", "IMSS", "ISSSTE",
                 "OSDE", "Swiss Medical", "EPS Sura", "Nueva EPS", "Correos", "Cáritas Diocesana",
                 "Residencia Los Olivos", "Ayuntamiento de Getafe", "Construcciones Hermanos Ruiz S.L."],
        "departments": ["Servicio de Cardiología", "Medicina Interna", "Urgencias"],
        "professions": _names(
            "albañil, maestra, camionero, enfermera, administrativa, agricultor, electricista, "
            "abogada, peluquera, conductor de autobús, camarero, limpiadora, "
            "ingeniero de caminos, contable, cocinero, mecánico, taxista, "
            "profesora de secundaria, auxiliar de enfermería, pescador"
        ),
        "countries": _names(
            "Marruecos, Rumanía, Ecuador, Colombia, Venezuela, Perú, Bolivia, Paraguay, "
            "Francia, Alemania, Reino Unido, México, Chile, Uruguay, España, Italia, "
            "Estados Unidos"
        ),
    },
}  # fmt: skip

MONTHS = {
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"],
    "nl": ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"],
}  # fmt: skip
# Full-date formats (weights) and year-ish formats after "seit"/"depuis"/"sinds".
DATE_FORMATS = {
    "de": [("{DD}.{MM}.{YYYY}", 45), ("{D}.{M}.{YYYY}", 12), ("{DD}.{MM}.{YY}", 12), ("{D}. {Month} {YYYY}", 14),
           ("{DD}.{MM}.", 8), ("{D}. {Month}", 3), ("{YYYY}-{MM}-{DD}", 3), ("{DD}. {Mon}. {YYYY}", 3)],
    "fr": [("{DD}/{MM}/{YYYY}", 45), ("{D} {month} {YYYY}", 25), ("{DD}/{MM}/{YY}", 10), ("{DD}.{MM}.{YYYY}", 4),
           ("{D} {month}", 6), ("{DD}/{MM}", 5), ("{Do} {month} {YYYY}", 5)],
    "nl": [("{DD}-{MM}-{YYYY}", 40), ("{D} {month} {YYYY}", 25), ("{D}-{M}-{YYYY}", 12), ("{DD}-{MM}-{YY}", 8),
           ("{D} {month}", 8), ("{DD}/{MM}/{YYYY}", 7)],
    "es": [("{DD}/{MM}/{YYYY}", 40), ("{D} de {month} de {YYYY}", 20), ("{DD}-{MM}-{YY}", 8), ("{D}/{M}/{YYYY}", 8),
           ("{DD}/{MM}/{YY}", 8), ("{D} de {month}", 7), ("{DD}-{MM}-{YYYY}", 4), ("{DD}.{MM}.{YYYY}", 3),
           ("{D}-{Mon}-{YYYY}", 2)],
}  # fmt: skip
YEARISH = {
    "de": [("{YYYY}", 55), ("{Month} {YYYY}", 20), ("{MM}/{YYYY}", 25)],
    "fr": [("{YYYY}", 60), ("{month} {YYYY}", 30), ("{MM}/{YYYY}", 10)],
    "nl": [("{YYYY}", 60), ("{month} {YYYY}", 30), ("{MM}-{YYYY}", 10)],
    "es": [("{YYYY}", 50), ("{month} de {YYYY}", 30), ("{MM}/{YYYY}", 20)],
}
# Spanish: year forms after "en", "desde", "a principios/finales/mediados de", "hasta"; titles before names.
YEARISH_BEFORE_ES = re.compile(
    r"\b(?:en|desde|hasta|(?:principios|finales|mediados)\s+de)\s*\(?$", re.IGNORECASE
)
_ES_AGE_UNIT_RE = re.compile(r"[ \t]*(?i:años|año|meses|mes|semanas|días|a\.|a\b)")
TITLE_BEFORE_ES = re.compile(r"\b(?:Dr|Dra|Sr|Sra|Srta|D|Dña|Lic|señor|señora|Prof)\.?\s+$", re.IGNORECASE)
YEARISH_BEFORE = re.compile(
    r"(?:\b(?:seit|im|in|bis|ab|ED|Anfang|Mitte|Ende|Frühjahr|Sommer|Herbst|Winter|en|depuis|sinds|sedert|vanaf|Z\.n\.\s+\w+|zuletzt\s+im|diagnostiquée?\s+en|"
    r"Stent|Thymom-Resektion|BET \+ Radiatio\)?|traitée?\s+en|bekend met [\w ]+ sinds)\s*\(?)$",
    re.IGNORECASE,
)
TITLE_BEFORE = re.compile(
    r"(?:\b(?:Herrn?|Frau|Hr|Fr|Dr|Prof|med|PD|OÄ|OA|Dipl\.-Psych|Kollegen?|M|Mme|Mlle|Pr|Me|dhr|mevr|mw|"
    r"dr|prof|collega|heer)\.?)\s+$"
)
PHONES = {
    "de": [
        "0### #######",
        "0###/#######",
        "(0###) ######",
        "+49 ### #######",
        "01## #######",
        "0#### ######",
        "0##-####-###",
        "0### ### ## ##",
    ],
    "fr": ["0# ## ## ## ##", "0#.##.##.##.##", "+33 # ## ## ## ##", "0#-##-##-##-##"],
    "nl": ["0##-#######", "06-########", "+31 ## ### ####", "0## ### ####", "(0##) #######"],
    "es": [
        "+34 6## ### ###",
        "6## ### ###",
        "91 ### ## ##",
        "9## ## ## ##",
        "6########",
        "9## ######",
        "+52 33 #### ####",
        "55 #### ####",
        "(011) 4###-####",
        "+54 9 11 ####-####",
        "3## ### ####",
        "+57 3## ### ####",
        "60# ### ####",
    ],
}
IDS = {
    "MEDICALRECORD": {"de": ["########", "#######", "00######"], "fr": ["##########", "########"],
                      "nl": ["#######", "########"], "es": ["#######", "########", "HC-######", "##.###.###"]},
    "ACCOUNT": {"de": ["20########", "#########"], "fr": ["#########", "2#######"], "nl": ["########"]},
    "HEALTHPLAN": {"de": ["%#########"], "fr": ["# ## ## ## ### ### ##"], "nl": ["#########"],
                   "es": ["28/########/##", "## ######## ##", "%%%%##########", "%%%% # ###### ## #",
                          "## ## ## #### #", "##-########-#/##", "###########"]},
    "IDNUM": {"de": ["E-####-#####", "%##-######", "####/##", "########"], "fr": ["%##-#####", "########"],
              "nl": ["%-######", "########"], "es": ["28/######", "######", "##.###.###", "B##-#####", "##########"]},
    "LICENSE": {"de": ["#########"], "fr": ["###########"], "nl": ["########"]},
    "DEVICE": {"de": ["%%####", "%######"], "fr": ["%%#####", "######%"], "nl": ["%%####"]},
    "VEHICLE": {"de": ["%% %% ####", "%-%% ###"], "fr": ["%%-###-%%"], "nl": ["##-%%%-#"]},
    "SSN": {"de": ["## ###### % ###"], "fr": ["# ## ## ## ### ### ##"], "nl": ["BSN"]},
}  # fmt: skip


def _shape(rng: random.Random, shape: str) -> str:
    return "".join(
        str(rng.randint(0, 9)) if c == "#" else rng.choice("ABCDEFGHJKLMNPRSTUVWXZ") if c == "%" else c
        for c in shape
    )


def _bsn(rng: random.Random) -> str:
    while True:
        digits = [rng.randint(0, 9) for _ in range(8)]
        total = sum(d * w for d, w in zip(digits, range(9, 1, -1)))
        last = total % 11
        if last < 10 and digits[0] != 0:
            return "".join(map(str, digits)) + str(last)


def _date(rng: random.Random, lang: str, fmt: str) -> str:
    y = rng.randint(1935, 2024)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    month = MONTHS[lang][m - 1]
    do = "1er" if d == 1 else str(d)
    return (
        fmt.replace("{YYYY}", str(y)).replace("{YY}", f"{y % 100:02d}").replace("{MM}", f"{m:02d}")
        .replace("{M}", str(m)).replace("{DD}", f"{d:02d}").replace("{Do}", do).replace("{D}", str(d))
        .replace("{Month}", month).replace("{month}", month.lower()).replace("{Mon}", month[:3])
    )  # fmt: skip


def _line_case(text: str, start: int, end: int, value: str) -> str:
    """``value`` in upper (lower) case when the template line around ``start:end`` is all upper (lower) case."""
    line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    line = PLACEHOLDER_RE.sub("", text[line_start : line_end if line_end >= 0 else len(text)])
    letters = [c for c in line if c.isalpha()]
    if len(letters) < 6:
        return value
    if all(c.isupper() for c in letters):
        return value.upper()
    return value.lower() if all(c.islower() for c in letters) else value


def _weighted(rng: random.Random, items: list[tuple[str, int]]) -> str:
    return rng.choices([i for i, _ in items], [w for _, w in items])[0]


class Filler:
    """Fills one note's placeholders in language ``lang`` with seeded random surrogates."""

    def __init__(self, lang: str, rng: random.Random) -> None:
        self.lang = lang
        self.rng = rng
        self.pool = POOLS[lang]
        # One maker per label (arguments: the text before and after the placeholder).
        self._makers: dict[str, Callable[[str, str], str]] = {
            "PATIENT": self.titled_person,
            "DOCTOR": self.titled_person,
            "RELATIVE": self.titled_person,
            "USERNAME": self.username,
            "AGE": self.age,
            "DATE": self.date,
            "CITY": self.pool_choice("cities"),
            "HOSPITAL": self.hospital,
            "ORGANIZATION": self.pool_choice("orgs"),
            "DEPARTMENT": self.pool_choice("departments"),
            "PROFESSION": self.pool_choice("professions"),
            "ROOM": self.room,
            "STREET": self.street,
            "ZIP": self.zip_code,
            "PHONE": self.phone,
            "FAX": self.phone,
            "EMAIL": self.email,
        }
        if lang == "es":
            self._makers.update({"COUNTRY": self.pool_choice("countries"), "IDNUM": self.es_idnum})

    def surname(self) -> str:
        rng = self.rng
        key = "last_common" if rng.random() < 0.5 else "last_rare"
        name = rng.choice(self.pool[key])
        if self.lang == "es" and rng.random() < 0.5:  # two surnames, the second common or rare
            return f"{name} {rng.choice(self.pool[_weighted(rng, [('last_common', 1), ('last_rare', 1)])])}"
        if rng.random() < 0.1:
            name = f"{name}-{rng.choice(self.pool['last_common'])}"
        return name

    def person(self, titled: bool) -> str:
        rng = self.rng
        first = rng.choice(self.pool["first_f"] + self.pool["first_m"])
        last = self.surname()
        if titled:
            return _weighted(rng, [(last, 70), (f"{first} {last}", 20), (f"{first[0]}. {last}", 10)])
        return _weighted(
            rng, [(f"{first} {last}", 60), (last, 15), (f"{first[0]}. {last}", 10), (f"{last}, {first}", 15)]
        )

    def value(self, label: str, before: str, after: str) -> str:
        """A surrogate for a ``label`` placeholder; ``before``/``after`` are the text around it."""
        make = self._makers.get(label)
        if make is not None:
            return make(before, after)
        return self.identifier(label)

    def titled_person(self, before: str, after: str) -> str:
        return self.person(
            (TITLE_BEFORE_ES if self.lang == "es" else TITLE_BEFORE).search(before) is not None
        )

    def username(self, before: str, after: str) -> str:
        rng = self.rng
        first, last = rng.choice(self.pool["first_f"]), self.surname()
        return _weighted(rng, [(f"{first} {last}", 50), (f"{first[0]}. {last}", 20),
                               (f"{first[0].lower()}{last.lower().replace(' ', '')}", 30)])  # fmt: skip

    def age(self, before: str, after: str) -> str:
        rng = self.rng
        return str(
            rng.randint(1, 11)
            if re.match(r"\s*(?:Monate|mois|maanden|meses)", after)
            else rng.randint(19, 96)
        )

    def date(self, before: str, after: str) -> str:
        yearish = (YEARISH_BEFORE_ES if self.lang == "es" else YEARISH_BEFORE).search(before)
        formats = YEARISH if yearish else DATE_FORMATS
        return _date(self.rng, self.lang, _weighted(self.rng, formats[self.lang]))

    def hospital(self, before: str, after: str) -> str:
        rng = self.rng
        return rng.choice(self.pool["hospitals"]).replace("{c}", rng.choice(self.pool["cities"]))

    def pool_choice(self, key: str) -> Callable[[str, str], str]:
        """A maker that draws one entry of ``self.pool[key]``."""
        return lambda before, after: self.rng.choice(self.pool[key])

    def room(self, before: str, after: str) -> str:
        return _shape(self.rng, self.rng.choice(["###", "##", "#.##"]))

    def street(self, before: str, after: str) -> str:
        rng = self.rng
        street = rng.choice(self.pool["street_names"])
        num = str(rng.randint(1, 140)) + (rng.choice("abc") if rng.random() < 0.15 else "")
        if self.lang == "fr":
            return f"{num}{rng.choice([' ', ', ', ' bis '])}{street}"
        if self.lang == "es":
            return self.es_street(street, num)
        return f"{street} {num}"

    def es_street(self, street: str, num: str) -> str:
        """Spanish and Latin American addresses: 'C/ Mayor 5, 3º B', 'Calle 45 # 23-10', 'Carrera 7 No. 32-16'."""
        rng = self.rng
        if rng.random() < 0.15:
            kind = rng.choice(["Calle", "Carrera", "Cra.", "Cl."])
            return f"{kind} {rng.randint(1, 120)} {rng.choice(['#', 'No.', 'n.º'])} {rng.randint(1, 99)}-{rng.randint(1, 99)}"
        floor = _weighted(rng, [("", 50), (f", {rng.randint(1, 9)}º {rng.choice('ABCD')}", 25),
                                (f", {rng.randint(1, 9)}º {rng.choice(['izda.', 'dcha.'])}", 10),
                                (f", piso {rng.randint(1, 12)}, depto. {rng.choice('ABCD')}", 15)])  # fmt: skip
        return f"{street}{rng.choice([' ', ', ', ', nº '])}{num}{floor}"

    def es_idnum(self, before: str, after: str) -> str:
        """A Spanish/Latin American identifier shaped by its cue: DNI (with its check letter), NIE, CURP, C.C."""
        rng = self.rng
        cue = before[-14:].lower()
        if "curp" in cue:
            return _shape(rng, "%%%%######%%%%%%##")
        if "c.c." in cue or "cédula" in cue or "nie" in cue:
            return _shape(rng, rng.choice(["##########", "#.###.###.###", "##.###.###"]))
        if "dni" in cue:
            n = rng.randint(1_000_000, 99_999_999)
            return _weighted(rng, [(f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}", 60), (f"{n:,}".replace(",", "."), 25),
                                   (f"{n:08d}-{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}", 15)])  # fmt: skip
        return self.identifier("IDNUM")

    def zip_code(self, before: str, after: str) -> str:
        rng = self.rng
        if self.lang == "nl":
            return f"{rng.randint(1000, 9999)} {_shape(rng, '%%')}"
        if self.lang == "de" and rng.random() < 0.15:
            return str(rng.randint(1000, 9999))
        if self.lang == "es":  # Spanish codes start 01-52; a Mexican C.P. any five digits
            return (
                f"{rng.randint(1, 52):02d}{rng.randint(0, 999):03d}"
                if rng.random() < 0.75
                else f"{rng.randint(1000, 99999):05d}"
            )
        return f"{rng.randint(1, 98):02d}{rng.randint(0, 999):03d}"

    def phone(self, before: str, after: str) -> str:
        return _shape(self.rng, self.rng.choice(PHONES[self.lang]))

    def email(self, before: str, after: str) -> str:
        rng, lang = self.rng, self.lang
        first, last = rng.choice(self.pool["first_m"]), self.surname()
        norm = re.sub(r"[^a-z]", "", last.lower().replace("ü", "ue").replace("ö", "oe").replace("ä", "ae"))
        if lang == "es":
            plain = (
                unicodedata.normalize("NFKD", f"{first}.{last}").encode("ascii", "ignore").decode().lower()
            )
            return f"{plain.replace(' ', '')}@{rng.choice(['gmail.com', 'hotmail.com', 'salud.gob.mx', 'yahoo.com.ar'])}"
        return f"{first.lower()[:1]}.{norm}@{rng.choice(['praxis-', 'klinik-', 'cabinet-', 'gmail', 'web'])}{norm[:4]}.{lang if lang != 'nl' else 'nl'}"

    def identifier(self, label: str) -> str:
        """Identifier-like labels (a Dutch SSN is a valid BSN), and any other label: six digits."""
        rng = self.rng
        if label == "SSN" and self.lang == "nl":
            return _bsn(rng)
        if label in IDS:
            return _shape(rng, rng.choice(IDS[label][self.lang]))
        return _shape(rng, "######")

    def fill(self, text: str) -> tuple[str, list[Span]]:
        out: list[str] = []
        spans: list[Span] = []
        pos = 0
        length = 0
        for m in PLACEHOLDER_RE.finditer(text):
            out.append(text[pos : m.start()])
            length += m.start() - pos
            before = "".join(out)[-40:]
            value = self.value(m.group(1), before, text[m.end() : m.end() + 12])
            unit = 0
            if self.lang == "es":
                value = _line_case(text, m.start(), m.end(), value)
                # Spanish AGE spans hold the unit ("45 años", "11 meses", "74 a."): MEDDOCAN's convention,
                # the one the Spanish rules follow.
                um = _ES_AGE_UNIT_RE.match(text, m.end()) if m.group(1) == "AGE" else None
                unit = len(um.group()) if um else 0
            spans.append(Span(length, length + len(value) + unit, m.group(1)))
            out.append(value)
            length += len(value)
            pos = m.end()
        out.append(text[pos:])
        return "".join(out), spans


# ------------------------------------------------------------------------------------------------
SPLITS = {"de": 15, "fr": 15, "nl": 6, "es": 15}
FILL_SEEDS = (1, 2, 3)
# The second German set (notes 039-068, written later in other styles: case reports in prose, Epikrise,
# Verlaufsberichte, Reha and MDK reports, Austrian and Swiss letters): 039-053 dev, 054-068 test.
DE2_FIRST, DE2_CUT, DE2_LAST = 39, 53, 68


def _in_part(lang: str, part: str, num: int) -> bool:
    """Whether note ``num`` of ``lang`` belongs to ``part`` (``dev``, ``test``, ``dev2`` or ``test2``)."""
    if part in ("dev2", "test2"):
        return lang == "de" and (DE2_FIRST <= num <= DE2_CUT if part == "dev2" else DE2_CUT < num <= DE2_LAST)
    if lang == "de" and num >= DE2_FIRST:
        return False
    return (part == "dev") == (num <= SPLITS[lang] or num > 30)


def note_docs(lang: str, part: str) -> list[Document]:
    """Filled notes of ``lang`` (part ``dev``/``test``, German also ``dev2``/``test2``), three draws each."""
    docs = []
    for path in sorted((NOTES / lang).glob("*.txt")):
        num = int(path.stem.split("-")[1])
        if not _in_part(lang, part, num):
            continue
        text = path.read_text(encoding="utf-8")
        for seed in FILL_SEEDS:
            filled, spans = Filler(lang, random.Random(f"{path.stem}-{seed}")).fill(text)
            docs.append(Document(f"{path.stem}-s{seed}", filled, tuple(spans), metadata={"lang": lang}))
    return docs


def k_docs(part: str) -> list[Document]:
    """The Catalan/Spanish zero-shot notes, filled by phiscrub's fill (language per note)."""
    docs = []
    for path in sorted((SHARED / "zeroshot-notes" / "k").glob("k-*.txt")):
        num = int(path.stem.split("-")[1])
        if (part == "dev") != (num <= 28):
            continue
        text = path.read_text(encoding="utf-8")
        lang = detect_lang(text)
        for seed in (12, 13, 14):
            filled, spans = fill_text(text, random.Random(f"{path.stem}-{seed}"), lang=lang)
            docs.append(Document(f"{path.stem}-s{seed}", filled, tuple(spans), metadata={"lang": lang}))
    return docs


def meddocan_docs(split: str) -> list[Document]:
    """MEDDOCAN ``split`` (BRAT), Spanish."""
    docs, _ = read_corpus(SHARED / "meddocan" / split, corpus="meddocan")
    return [Document(d.id, d.text, d.spans, metadata={"lang": "es"}) for d in docs]


SETS: dict[str, Callable[[], list[Document]]] = {
    "es-meddocan-train": lambda: meddocan_docs("train"),
    "es-meddocan-dev": lambda: meddocan_docs("dev"),
    "k-dev": lambda: k_docs("dev"),
    "k-test": lambda: k_docs("test"),
    "de-dev": lambda: note_docs("de", "dev"),
    "de-test": lambda: note_docs("de", "test"),
    "de2-dev": lambda: note_docs("de", "dev2"),
    "de2-test": lambda: note_docs("de", "test2"),
    "es2-dev": lambda: note_docs("es", "dev"),
    "es2-test": lambda: note_docs("es", "test"),
    "fr-dev": lambda: note_docs("fr", "dev"),
    "fr-test": lambda: note_docs("fr", "test"),
    "nl-dev": lambda: note_docs("nl", "dev"),
    "nl-test": lambda: note_docs("nl", "test"),
}


def predict(docs: list[Document], setting: str | None = None, model: str | None = None) -> list[Document]:
    """Rules alone (the default name propagation, no model), each note in its own language.

    With ``setting`` (``default``, ``auto`` or a code), the notes lose their ``lang`` metadata and go
    through ``Deidentifier(lang=setting, model=model)``, as ``phiscrub redact [--lang X]`` would run
    them (issue 27: ``--setting default --model default`` is ``redact`` without ``--lang``).
    """
    if setting is not None:
        deid = Deidentifier(model=model, lang=setting, labels="fine")
        bare = [Document(d.id, d.text, d.spans) for d in docs]
        return [Document(d.id, d.text, tuple(spans)) for d, spans in zip(bare, deid.detect_many(bare))]
    by_lang: dict[str, Deidentifier] = {}
    out = []
    for d in docs:
        lang = str(d.metadata["lang"])
        deid = by_lang.setdefault(lang, Deidentifier(model=None, lang=lang, labels="fine"))
        out.append(Document(d.id, d.text, tuple(deid.detect(d))))
    return out


def score(name: str, setting: str | None = None, model: str | None = None) -> dict[str, object]:
    gold = SETS[name]()
    pred = predict(gold, setting, model)
    res = evaluate(gold, pred, "coarse")
    per_label = {
        lab: {"gold": s.gold_entities, "R": round(s.entity.recall, 3), "P": round(s.entity.precision, 3),
              "bin_R": round(s.binary_recall, 3)}
        for lab, s in res.per_label.items()
    }  # fmt: skip
    return {
        "set": name,
        "docs": len(gold),
        "gold_entities": res.entity.tp + res.entity.fn,
        "bin_P": res.binary.precision,
        "bin_R": res.binary.recall,
        "bin_F1": res.binary.f1,
        "ent_P": res.entity.precision,
        "ent_R": res.entity.recall,
        "ent_F1": res.entity.f1,
        "per_label": per_label,
    }


def errors(name: str) -> Iterator[str]:
    """Missed and spurious coarse entities of a dev set (for tuning; never run on test sets)."""
    if not name.endswith(("-dev", "-train")):
        raise SystemExit("--errors is for dev sets only")
    gold = SETS[name]()
    for g, p in zip(gold, predict(gold)):

        def ents(spans: list[Span]) -> set[tuple[int, int, str]]:
            return {(s.start, s.end, lab) for s in spans if (lab := fold(s.label, "coarse"))}

        ge, pe = ents(list(g.spans)), ents(list(p.spans))
        for s, e, lab in sorted(ge - pe):
            yield f"{g.id}\tMISS\t{lab}\t{g.text[s:e]!r}\t{g.text[max(0, s - 30) : s]!r}"
        for s, e, lab in sorted(pe - ge):
            yield f"{g.id}\tSPUR\t{lab}\t{g.text[s:e]!r}\t{g.text[max(0, s - 30) : s]!r}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sets", nargs="*", default=[s for s in SETS if s != "es-meddocan-train"], choices=list(SETS)
    )
    ap.add_argument("--json", type=Path)
    ap.add_argument("--errors", choices=[s for s in SETS if s.endswith(("-dev", "-train"))])
    ap.add_argument(
        "--setting", help="drop the notes' lang metadata and run with this --lang (default, auto, de ...)"
    )
    ap.add_argument("--model", default=None, help="with --setting: the model ('default': the bundled one)")
    args = ap.parse_args(argv)
    if args.errors:
        for line in errors(args.errors):
            print(line)
        return 0
    rows = [score(s, args.setting, args.model) for s in args.sets]
    print(
        "| set | notes | gold entities | binary token P | binary token R | entity P | entity R | entity F1 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['set']} | {r['docs']} | {r['gold_entities']} | {r['bin_P']:.3f} | {r['bin_R']:.3f} | "
            f"{r['ent_P']:.3f} | {r['ent_R']:.3f} | {r['ent_F1']:.3f} |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
