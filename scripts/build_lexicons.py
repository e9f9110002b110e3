"""Regenerate the bundled surrogate lexicons in ``src/phiscrub/resources/lexicons/`` from Faker.

Usage::

    python scripts/build_lexicons.py            # writes the lists and NOTICE
    python scripts/build_lexicons.py --check    # exit 1 if the committed lists differ

The lists are plain UTF-8 text, one entry per line, sorted and deduplicated. Top-level files hold
Latin-script values from several Western locales; ``es/`` holds Spanish/Catalan values and ``zh/``
Simplified Chinese values (the surrogate code picks them by language or script). Generated entries
(cities, companies, hospitals, streets) come from a seeded Faker, so a rerun with the same Faker
version reproduces the files byte for byte. Faker is MIT licensed; NOTICE carries its license.
Departments, Spanish/Catalan and French towns and a few street names are written by hand below.
``de/``, ``fr/`` and ``nl/`` hold the names and towns the German, French and Dutch rule packs read.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import unicodedata
import warnings
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

warnings.filterwarnings("ignore")  # Faker warns about deprecated locales we do not use.

from faker import Faker

OUT = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons"
SEED = 20240611

# Latin-script locales whose person names feed the top-level name lists.
NAME_LOCALES = (
    "en_US", "en_GB", "en_IE", "en_NZ", "es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "de_DE", "de_AT",
    "de_CH", "fr_FR", "fr_CA", "fr_CH", "nl_NL", "nl_BE", "it_IT", "pt_PT", "pt_BR", "sv_SE", "da_DK",
    "no_NO", "fi_FI", "pl_PL", "cs_CZ", "ga_IE", "hr_HR", "ro_RO",
)  # fmt: skip
# Locales with real city lists (sampled to keep the file small and not dominated by one country).
CITY_LOCALES = {
    "de_DE": 392, "de_AT": 188, "de_CH": 162, "nl_NL": 900, "nl_BE": 500, "it_IT": 900, "pt_PT": 150,
    "pl_PL": 200, "cs_CZ": 200, "da_DK": 300, "fi_FI": 200, "sk_SK": 200,
}  # fmt: skip
SPANISH_LOCALES = ("es_ES",)
# Language-pack lists (de/, fr/, nl/): given names, surnames and towns the rules of those packs read
# (phiscrub.detect.rules.intl_names / intl_places). Kept small: one language's locales each.
PACK_NAME_LOCALES = {
    "de": ("de_DE", "de_AT", "de_CH"),
    "fr": ("fr_FR", "fr_CH", "fr_CA"),
    "nl": ("nl_NL", "nl_BE"),
}
PACK_CITY_LOCALES = {"de": {"de_DE": 392, "de_AT": 188, "de_CH": 162}, "nl": {"nl_NL": 2424, "nl_BE": 250}}
ZH_LOCALE = "zh_CN"

_NAME_RE = re.compile(r"^[^\W\d_]{2,}(?:[-'][^\W\d_]{2,})*$")

# The larger German, Austrian and Swiss towns (facts; Faker's de_DE list holds districts and misses
# Köln, Düsseldorf, Leipzig ...).
GERMAN_TOWNS = """
Aachen Augsburg Bamberg Bayreuth Bergisch-Gladbach Berlin Bielefeld Bochum Bonn Bottrop Braunschweig Bremen
Bremerhaven Chemnitz Cottbus Darmstadt Dessau Dortmund Dresden Duisburg Düren Düsseldorf Erfurt Erlangen
Esslingen Flensburg Frankfurt Freiburg Fulda Fürth Gelsenkirchen Gera Gießen Görlitz Göttingen Gütersloh Hagen
Hamburg Hamm Hanau Hannover Heidelberg Heilbronn Herne Hildesheim Ingolstadt Jena Kaiserslautern Karlsruhe
Kassel Kiel Koblenz Köln Konstanz Krefeld Leipzig Leverkusen Lübeck Ludwigsburg Ludwigshafen Lüneburg
Magdeburg Mainz Mannheim Marburg Minden Moers Mönchengladbach Mülheim München Münster Neuss Nürnberg
Oberhausen Offenbach Oldenburg Osnabrück Paderborn Passau Pforzheim Potsdam Recklinghausen Regensburg
Remscheid Reutlingen Rosenheim Rostock Saarbrücken Salzgitter Schwerin Siegen Solingen Stralsund Stuttgart
Trier Tübingen Ulm Wiesbaden Witten Wolfsburg Worms Wuppertal Würzburg Zwickau Wien Graz Linz Salzburg
Innsbruck Klagenfurt Villach Wels Dornbirn Feldkirch Bregenz Zürich Genf Basel Bern Lausanne Winterthur
Luzern St.-Gallen Lugano Biel Thun Chur Schaffhausen Aarau Zug
"""
GERMAN_TOWN_PHRASES = (
    "Frankfurt am Main", "Frankfurt (Oder)", "Freiburg im Breisgau", "Halle (Saale)", "Bad Oeynhausen",
    "Bad Homburg", "Bad Kreuznach", "Bad Nauheim", "Bad Tölz", "Bad Reichenhall", "Bad Saarow", "Bad Segeberg",
    "Mülheim an der Ruhr", "Ludwigshafen am Rhein", "Offenbach am Main", "Garmisch-Partenkirchen",
    "Neustadt an der Weinstraße", "Rheda-Wiedenbrück", "Villingen-Schwenningen", "St. Gallen", "Sankt Augustin",
    "Wiener Neustadt", "Sankt Pölten", "St. Pölten",
)  # fmt: skip

# French and Belgian/Swiss French towns (facts; Faker's fr_FR has no town list).
FRENCH_TOWNS = """
Agen Aix-en-Provence Ajaccio Albi Alençon Amiens Angers Angoulême Annecy Antibes Arles Arras Aubervilliers
Auch Aurillac Auxerre Avignon Bastia Bayonne Beauvais Belfort Besançon Béziers Blois Bobigny Bordeaux
Boulogne-Billancourt Boulogne-sur-Mer Bourg-en-Bresse Bourges Brest Brive-la-Gaillarde Caen Calais Cannes
Carcassonne Cergy Chalon-sur-Saône Châlons-en-Champagne Chambéry Charleville-Mézières Chartres Châteauroux
Cherbourg Cholet Clermont-Ferrand Colmar Colombes Compiègne Créteil Dax Dieppe Dijon Dole Douai Dunkerque
Épinal Évreux Évry Fontainebleau Fréjus Gap Grenoble Guéret Haguenau Hyères Laval Le Havre Le Mans Lens
Lille Limoges Lorient Lourdes Lyon Mâcon Marseille Meaux Melun Metz Montauban Montbéliard Mont-de-Marsan
Montluçon Montpellier Montreuil Mulhouse Nancy Nanterre Nantes Narbonne Nevers Nice Nîmes Niort Orléans
Paris Pau Périgueux Perpignan Poitiers Quimper Reims Rennes Roanne Rodez Rouen Saint-Brieuc Saint-Denis
Saint-Étienne Saint-Malo Saint-Nazaire Saint-Quentin Saintes Sarreguemines Sète Soissons Strasbourg Tarbes
Thionville Toulon Toulouse Tourcoing Tours Troyes Valence Valenciennes Vannes Verdun Versailles Vichy
Villeurbanne Vitry-sur-Seine Genève Lausanne Neuchâtel Fribourg Sion Bruxelles Liège Namur Charleroi Mons
Montréal Québec
"""

# ---------------------------------------------------------------------------------------------
# Hand-written lists (facts, no license needed).

SPANISH_CATALAN_TOWNS = """
Albacete
Alcalá de Henares
Alcobendas
Alcorcón
Algeciras
Alicante
Almería
Amposta
Arenys de Mar
Ávila
Badajoz
Badalona
Badia del Vallès
Balaguer
Banyoles
Barakaldo
Barcelona
Berga
Bilbao
Blanes
Burgos
Cáceres
Cádiz
Caldes de Montbui
Calella
Cambrils
Canet de Mar
Cartagena
Castelldefels
Castelló de la Plana
Cerdanyola del Vallès
Cervera
Ciudad Real
Córdoba
Cornellà de Llobregat
Cuenca
Donostia
Dos Hermanas
El Prat de Llobregat
El Vendrell
Elche
Esplugues de Llobregat
Ferrol
Figueres
Fuenlabrada
Gavà
Getafe
Gijón
Girona
Granada
Granollers
Guadalajara
Huelva
Huesca
Igualada
Jaén
Jerez de la Frontera
L'Hospitalet de Llobregat
La Garriga
La Seu d'Urgell
Leganés
León
Lleida
Lloret de Mar
Logroño
Lorca
Lugo
Madrid
Málaga
Malgrat de Mar
Manresa
Marbella
Martorell
Mataró
Molins de Rei
Mollerussa
Mollet del Vallès
Montcada i Reixac
Móstoles
Murcia
Olot
Ourense
Oviedo
Palafrugell
Palau-solità i Plegamans
Palencia
Palma
Pamplona
Ponferrada
Pontevedra
Premià de Mar
Puigcerdà
Reus
Ripoll
Ripollet
Rubí
Sabadell
Salamanca
Salou
Salt
Sant Adrià de Besòs
Sant Boi de Llobregat
Sant Cugat del Vallès
Sant Feliu de Llobregat
Sant Joan Despí
Sant Just Desvern
Sant Quirze del Vallès
Sant Sadurní d'Anoia
Sant Vicenç dels Horts
Santa Coloma de Gramenet
Santa Perpètua de Mogoda
Santander
Santiago de Compostela
Segovia
Sevilla
Sitges
Solsona
Soria
Tàrrega
Tarragona
Terrassa
Teruel
Toledo
Tordera
Torredembarra
Torrejón de Ardoz
Torrelavega
Tortosa
Valencia
Valladolid
Valls
Vic
Vigo
Vila-seca
Viladecans
Vilafranca del Penedès
Vilanova i la Geltrú
Vitoria-Gasteiz
Zamora
Zaragoza
"""

CATALAN_STREETS = [
    "Aragó",
    "Balmes",
    "Consell de Cent",
    "Diputació",
    "Gran Via",
    "Mallorca",
    "Muntaner",
    "Provença",
    "Sants",
    "Sepúlveda",
    "Urgell",
    "València",
    "Villarroel",
    "Còrsega",
    "Rosselló",
    "Pujades",
    "Marina",
    "Sardenya",
    "Nàpols",
    "Girona",
    "Bruc",
    "Pau Claris",
    "Roger de Llúria",
    "Casanova",
    "Comte d'Urgell",
    "Entença",
    "Tarragona",
    "Numància",
    "Major",
    "Sant Antoni",
    "Sant Pere",
    "Sant Joan",
    "Santa Eulàlia",
    "Verdaguer",
    "Prat de la Riba",
    "Francesc Macià",
    "Lluís Companys",
    "Rambla Nova",
    "Mossèn Cinto",
    "Doctor Trueta",
    "Pere IV",
    "Llull",
    "Wad-Ras",
    "Pallars",
]
COMMON_STREET_NAMES = [
    "Main",
    "Oak",
    "Maple",
    "Pine",
    "Cedar",
    "Elm",
    "Washington",
    "Park",
    "Lake",
    "Hill",
    "Church",
    "High",
    "Spring",
    "Center",
    "Mill",
    "River",
    "Walnut",
    "Chestnut",
    "Willow",
    "Birch",
    "Sunset",
    "Highland",
    "Lincoln",
    "Jefferson",
    "Madison",
    "Franklin",
    "Adams",
    "Jackson",
    "Ridge",
    "Meadow",
    "Forest",
    "Valley",
    "Prospect",
    "Union",
    "School",
    "Market",
    "Water",
    "Bridge",
    "Summit",
    "Orchard",
    "Harbor",
    "College",
    "Cherry",
    "Poplar",
    "Hickory",
    "Magnolia",
    "Dogwood",
    "Laurel",
    "Sycamore",
    "Aspen",
    "Spruce",
    "Juniper",
    "Broad",
    "Front",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "North",
    "South",
    "East",
    "West",
]
ZH_STREET_SUFFIXES = ["路", "街", "大道", "大街", "中路", "东路", "西路", "南路", "北路", "巷"]

# Everyday occupations that clinical notes mention and Faker's job list lacks.
COMMON_PROFESSIONS = """
accountant
bank teller
barber
bartender
bus driver
carpenter
cashier
chef
cleaner
construction worker
cook
custodian
daycare worker
delivery driver
dental hygienist
electrician
factory worker
farmer
firefighter
fisherman
flight attendant
gardener
hairdresser
home health aide
homemaker
housekeeper
janitor
landscaper
lawyer
librarian
machinist
mail carrier
mechanic
nanny
nurse
nursing assistant
painter
paramedic
pharmacist
plumber
police officer
postal worker
real estate agent
receptionist
retail manager
roofer
salesperson
school teacher
secretary
security guard
social worker
software engineer
student
taxi driver
teacher
truck driver
waiter
waitress
warehouse worker
welder
"""

DEPARTMENTS_EN = """
4 West
5 East
6 North
7 South
Allergy and Immunology
Anesthesiology
Behavioral Health
Burn Unit
Cardiac Catheterization Laboratory
Cardiac Intensive Care Unit
Cardiac Surgery
Cardiology
Cardiothoracic Surgery
Case Management
Clinical Nutrition
Colorectal Surgery
Coronary Care Unit
Critical Care Medicine
Dermatology
Dialysis Unit
Emergency Department
Endocrinology
Endoscopy Suite
Family Medicine
Gastroenterology
General Medicine
General Surgery
Geriatrics
Gynecologic Oncology
Hematology
Hematology and Oncology
Hepatology
Hospice and Palliative Care
Hospital Medicine
Infectious Diseases
Intensive Care Unit
Internal Medicine
Interventional Radiology
Labor and Delivery
Medical Intensive Care Unit
Medical-Surgical Unit
Neonatal Intensive Care Unit
Nephrology
Neurocritical Care
Neurology
Neurosurgery
Nuclear Medicine
Obstetrics and Gynecology
Occupational Health
Occupational Therapy
Oncology
Ophthalmology
Oral and Maxillofacial Surgery
Orthopedic Surgery
Orthopedics
Otolaryngology
Outpatient Infusion Center
Pain Management
Palliative Care
Pathology
Pediatric Intensive Care Unit
Pediatrics
Physical Medicine and Rehabilitation
Physical Therapy
Plastic Surgery
Post-Anesthesia Care Unit
Primary Care
Psychiatry
Pulmonary Medicine
Pulmonology
Radiation Oncology
Radiology
Rehabilitation Unit
Respiratory Therapy
Rheumatology
Sleep Medicine
Social Work
Speech-Language Pathology
Sports Medicine
Step-Down Unit
Stroke Unit
Surgical Intensive Care Unit
Telemetry Unit
Thoracic Surgery
Transplant Surgery
Trauma Surgery
Urgent Care
Urology
Vascular Surgery
Wound Care Clinic
"""
DEPARTMENT_ABBREVIATIONS = """
CCU CICU CVICU ED ER GI ICU L&D MICU NICU OR PACU PICU SICU SDU TICU
"""
DEPARTMENTS_ES = """
Anestesiología
Cardiología
Cirugía General
Cirugía Vascular
Consultas Externas
Dermatología
Endocrinología
Farmacia Hospitalaria
Gastroenterología
Geriatría
Ginecología y Obstetricia
Hematología
Hospital de Día
Medicina Física y Rehabilitación
Medicina Intensiva
Medicina Interna
Nefrología
Neumología
Neurocirugía
Neurología
Oftalmología
Oncología Médica
Otorrinolaringología
Pediatría
Psiquiatría
Radiología
Rehabilitación
Reumatología
Traumatología
Unidad de Cuidados Intensivos
Unidad de Daño Cerebral
Unidad de Ictus
Unidad de Lesión Medular
Urgencias
Urología
Anestesiologia
Cardiologia
Cirurgia General
Consultes Externes
Dermatologia
Geriatria
Hospital de Dia
Medicina Física i Rehabilitació
Medicina Intensiva
Medicina Interna
Nefrologia
Pneumologia
Neurocirurgia
Neurologia
Oncologia Mèdica
Pediatria
Psiquiatria
Radiologia
Rehabilitació
Traumatologia
Unitat de Cures Intensives
Unitat de Dany Cerebral
Unitat d'Ictus
Unitat de Lesió Medul·lar
Urgències
"""
DEPARTMENTS_ZH = """
心内科 心血管内科 呼吸内科 消化内科 神经内科 肾内科 内分泌科 血液科 风湿免疫科 感染科 老年医学科 普外科 胃肠外科
肝胆外科 骨科 神经外科 心胸外科 泌尿外科 血管外科 整形外科 妇科 产科 儿科 新生儿科 眼科 耳鼻喉科 口腔科 皮肤科
肿瘤科 放疗科 康复医学科 急诊科 重症医学科 ICU CCU 麻醉科 影像科 放射科 超声科 病理科 检验科 中医科 疼痛科
精神心理科 全科医学科 营养科 透析中心 介入科
"""

# ---------------------------------------------------------------------------------------------


def is_latin(text: str) -> bool:
    """True when every letter of ``text`` is Latin script."""
    return any(c.isalpha() for c in text) and all(
        (not c.isalpha()) or "LATIN" in unicodedata.name(c, "") for c in text
    )


def is_han(text: str) -> bool:
    """True when every character is a CJK ideograph."""
    return bool(text) and all("CJK UNIFIED IDEOGRAPH" in unicodedata.name(c, "") for c in text)


def provider(fake: Faker, kind: str) -> object:
    """The Faker provider instance of ``kind`` (person, address, company, job) for a locale."""
    for prov in fake.get_providers():
        if f".{kind}." in type(prov).__module__ or type(prov).__module__.endswith(f".{kind}"):
            return prov
    raise LookupError(kind)


def attr(prov: object, name: str) -> list[str]:
    """A list attribute of a provider (weighted dicts give their keys), or []."""
    value = getattr(prov, name, None)
    if value is None:
        return []
    return [str(v) for v in value]


def name_ok(name: str) -> bool:
    """Single-token Latin names (hyphenated parts allowed); multi-word names are left out."""
    return bool(_NAME_RE.match(name)) and is_latin(name) and name[0].isupper()


def _particle_name(name: str) -> bool:
    """Surnames with a lower-case particle ("van den Berg", "de Vries", "von Arx") are kept too."""
    parts = name.split()
    return (
        1 < len(parts) <= 4
        and all(p.islower() and p.isalpha() for p in parts[:-1])
        and name_ok(parts[-1])
        and is_latin(name)
    )


def faker_for(locale: str, seed: int = SEED) -> Faker:
    """A seeded Faker instance, so generated entries are reproducible."""
    fake = Faker(locale)
    fake.seed_instance(seed)
    return fake


def generate(locale: str, method: str, n: int, seed: int = SEED, tries: int = 20) -> set[str]:
    """Up to ``n`` distinct values of ``Faker(locale).<method>()``."""
    fake = faker_for(locale, seed)
    out: set[str] = set()
    for _ in range(n * tries):
        out.add(str(getattr(fake, method)()))
        if len(out) >= n:
            break
    return out


def sample(items: Iterable[str], n: int, seed: int = SEED) -> list[str]:
    """A reproducible sample of at most ``n`` items (sorted first so order never matters)."""
    pool = sorted(set(items))
    if len(pool) <= n:
        return pool
    return sorted(random.Random(seed).sample(pool, n))


def clean_job(job: str) -> str | None:
    """Turn Faker's "Engineer, civil (contracting)" into "Civil engineer"; drop odd entries."""
    job = re.sub(r"\s*\([^)]*\)", "", job).strip()
    if not job or "/" in job or len(job) > 40:
        return None
    if ", " in job:
        head, _, tail = job.partition(", ")
        if "," in tail:
            return None
        job = f"{tail} {head[0].lower()}{head[1:]}"
    return job[0].upper() + job[1:]


def initials(name: str) -> str:
    """Capital initials of the words of a name: "Riverside General Hospital" -> "RGH"."""
    return "".join(w[0] for w in re.findall(r"[^\W\d_]+", name) if w[0].isupper())


# ---------------------------------------------------------------------------------------------


def names_of(
    locales: Iterable[str],
    first_ok: Callable[[str], bool] = name_ok,
    last_ok: Callable[[str], bool] | None = None,
) -> tuple[set[str], set[str], set[str]]:
    """Female given names, male given names and surnames of ``locales`` that pass the filters
    (``last_ok`` defaults to ``first_ok``)."""
    keep_last = last_ok or first_ok
    female: set[str] = set()
    male: set[str] = set()
    last: set[str] = set()
    for loc in locales:
        person = provider(Faker(loc), "person")
        female |= {n for n in attr(person, "first_names_female") if first_ok(n)}
        male |= {n for n in attr(person, "first_names_male") if first_ok(n)}
        last |= {n for n in attr(person, "last_names") if keep_last(n)}
    return female, male, last


def pack_surname_ok(name: str) -> bool:
    """Language-pack surnames: single-token names or names with a lower-case particle."""
    return name_ok(name) or _particle_name(name)


def add_names(lists: dict[str, set[str]], prefix: str, names: tuple[set[str], set[str], set[str]]) -> None:
    """Store (female, male, last) names as ``<prefix>first_names_female`` etc."""
    female, male, last = names
    lists[f"{prefix}first_names_female"] = female
    lists[f"{prefix}first_names_male"] = male
    lists[f"{prefix}last_names"] = last


def add_name_lists(lists: dict[str, set[str]]) -> None:
    """Top-level (Latin-script, several locales), Spanish and Chinese person names."""
    add_names(lists, "", names_of(NAME_LOCALES))
    add_names(lists, "es/", names_of(("es_ES",)))
    add_names(lists, "zh/", names_of((ZH_LOCALE,), first_ok=is_han))


def add_place_lists(lists: dict[str, set[str]]) -> None:
    """Cities, states/provinces and countries (top-level, ``es/`` and ``zh/``)."""
    cities: set[str] = set()
    for loc, n in CITY_LOCALES.items():
        real = [c for c in attr(provider(Faker(loc), "address"), "cities") if is_latin(c)]
        cities |= set(sample(real, n))
    # English-style generated towns ("Port Melanie", "Lake Davidmouth"), as Faker makes them.
    cities |= {c for c in generate("en_US", "city", 2600) if is_latin(c)}
    cities |= {c for c in generate("en_GB", "city", 400, seed=SEED + 1) if is_latin(c)}
    es_towns = {t.strip() for t in SPANISH_CATALAN_TOWNS.splitlines() if t.strip()}
    es_address = provider(Faker("es_ES"), "address")
    es_provinces = set(attr(es_address, "states"))
    cities |= es_towns
    lists["cities"] = cities
    lists["es/cities"] = es_towns | es_provinces

    zh_address = provider(Faker(ZH_LOCALE), "address")
    lists["zh/cities"] = {c for c in attr(zh_address, "cities") if is_han(c)}
    lists["zh/states"] = {p for p in attr(zh_address, "provinces") if is_han(p)}

    us_address = provider(Faker("en_US"), "address")
    lists["states"] = set(attr(us_address, "states"))
    lists["states_abbr"] = set(attr(us_address, "states_abbr"))
    lists["es/states"] = es_provinces | set(attr(es_address, "regions"))

    lists["countries"] = {c for c in attr(us_address, "countries") if is_latin(c) and len(c) <= 40}
    lists["es/countries"] = {c for c in attr(es_address, "countries") if is_latin(c) and len(c) <= 40}
    lists["zh/countries"] = {c for c in attr(zh_address, "countries") if is_han(c)}


def en_last_names() -> list[str]:
    """Faker's en_US surnames, sorted (bases of street and hospital names)."""
    return sorted(attr(provider(Faker("en_US"), "person"), "last_names"))


def add_street_lists(lists: dict[str, set[str]], rng: random.Random) -> None:
    """Street names without the suffix, suffixes/prefixes separately (STREET = number + name + suffix)."""
    en_first = sorted(attr(provider(Faker("en_US"), "person"), "first_names"))
    lists["street_names"] = (
        set(COMMON_STREET_NAMES)
        | set(sample(en_last_names(), 900))
        | set(sample(en_first, 300, seed=SEED + 2))
    )
    lists["street_suffixes"] = {
        s for s in attr(provider(Faker("en_US"), "address"), "street_suffixes") if is_latin(s)
    }
    es_street_names = set(CATALAN_STREETS) | set(sample(lists["es/last_names"], 300))
    es_street_names |= {
        f"{f} {s}"
        for f, s in zip(
            sample(lists["es/first_names_male"], 80), sample(lists["es/last_names"], 80, seed=SEED + 3)
        )
    }
    lists["es/street_names"] = es_street_names
    lists["es/street_prefixes"] = set(attr(provider(Faker("es_ES"), "address"), "street_prefixes")) | {
        "Carrer",
        "Avinguda",
        "Passeig",
        "Plaça",
        "Rambla",
        "Ronda",
        "Travessera",
        "C/",
        "Avda.",
    }
    zh_address = provider(Faker(ZH_LOCALE), "address")
    zh_bases = sorted(lists["zh/cities"] | {d for d in attr(zh_address, "districts") if is_han(d)})
    lists["zh/street_names"] = {f"{b}{s}" for b in zh_bases for s in rng.sample(ZH_STREET_SUFFIXES, 3)}


def add_organization_lists(lists: dict[str, set[str]]) -> None:
    """Company names (top-level, ``es/`` and ``zh/``)."""
    companies: set[str] = set()
    for loc, n in (("en_US", 1200), ("en_GB", 300), ("de_DE", 150), ("fr_FR", 150), ("es_ES", 150)):
        companies |= {c for c in generate(loc, "company", n) if is_latin(c)}
    companies |= {c for c in attr(provider(Faker("nl_NL"), "company"), "large_companies") if is_latin(c)}
    lists["companies"] = companies
    lists["es/companies"] = {c for c in generate("es_ES", "company", 600) if is_latin(c)}
    lists["zh/companies"] = {c for c in generate(ZH_LOCALE, "company", 600) if is_han(c)}


# Kinds of English hospital names: "<base> <kind>".
HOSPITAL_KINDS = [
    "General Hospital",
    "Medical Center",
    "Memorial Hospital",
    "Regional Medical Center",
    "Community Hospital",
    "Clinic",
    "Health System",
    "Children's Hospital",
    "University Hospital",
    "Hospital",
    "Health Center",
    "Rehabilitation Hospital",
    "Cancer Center",
    "Heart Institute",
    "Infirmary",
    "Behavioral Health Center",
    "Veterans Affairs Medical Center",
    "Surgical Center",
    "Family Health Center",
    "Specialty Hospital",
    "Medical Group",
    "Healthcare",
]


def english_hospitals(lists: dict[str, set[str]], rng: random.Random) -> set[str]:
    """Generated "<base> <kind>" and saints' hospitals plus initials ("RGH")."""
    bases = sample((c for c in lists["cities"] if " " not in c and c.isascii()), 500, seed=SEED + 4)
    bases += sample((n for n in en_last_names() if n.isascii()), 300, seed=SEED + 5)
    hospitals: set[str] = set()
    for base in bases:
        for kind in rng.sample(HOSPITAL_KINDS, 6):
            hospitals.add(f"{base} {kind}")
    given = lists["first_names_female"] | lists["first_names_male"]
    saints = sample((n for n in given if n.isascii() and len(n) <= 8), 120, seed=SEED + 6)
    for saint in saints:
        hospitals.add(f"St. {saint}'s {rng.choice(['Hospital', 'Medical Center', 'Regional Hospital'])}")
        hospitals.add(f"Saint {saint} {rng.choice(['Hospital', 'Health Center', 'Medical Center'])}")
    hospitals |= {initials(h) for h in sample(hospitals, 400, seed=SEED + 7) if len(initials(h)) >= 3}
    return hospitals


def spanish_hospitals(lists: dict[str, set[str]]) -> set[str]:
    """Spanish/Catalan hospitals and health centres of every town and province, and of people."""
    es_people = sample(lists["es/last_names"], 150, seed=SEED + 8)
    es_hosp: set[str] = set()
    for town in sorted(lists["es/cities"]):
        es_hosp |= {
            f"Hospital Universitario de {town}",
            f"Hospital General de {town}",
            f"Hospital de {town}",
            f"Hospital Comarcal de {town}",
            f"Centro de Salud {town}",
            f"CAP {town}",
            f"Hospital Universitari de {town}",
            f"Centre Sociosanitari {town}",
        }
    for person in es_people:
        es_hosp |= {f"Clínica {person}", f"Hospital {person}", f"Institut {person}"}
    return es_hosp


def chinese_hospitals(lists: dict[str, set[str]], rng: random.Random) -> set[str]:
    """Chinese city and provincial hospitals."""
    numerals = "一二三四五六七八九"
    zh_hosp: set[str] = set()
    for city in sorted(lists["zh/cities"]):
        zh_hosp |= {
            f"{city}市人民医院",
            f"{city}市中心医院",
            f"{city}市中医院",
            f"{city}市儿童医院",
            f"{city}市妇幼保健院",
            f"{city}医科大学附属第一医院",
            f"{city}医科大学附属第二医院",
        }
        zh_hosp |= {f"{city}市第{numerals[i]}人民医院" for i in rng.sample(range(9), 3)}
    for prov in sorted(lists["zh/states"]):
        zh_hosp.add(f"{prov}省人民医院")
    return zh_hosp


def add_hospital_lists(lists: dict[str, set[str]], rng: random.Random) -> None:
    """Hospitals (top-level, ``es/`` and ``zh/``), drawing from ``rng`` in a fixed order."""
    lists["hospitals"] = english_hospitals(lists, rng)
    lists["es/hospitals"] = spanish_hospitals(lists)
    lists["zh/hospitals"] = chinese_hospitals(lists, rng)


def add_profession_lists(lists: dict[str, set[str]]) -> None:
    """Professions and departments (top-level, ``es/`` and ``zh/``)."""
    jobs = {clean_job(j) for j in attr(provider(Faker("en_US"), "job"), "jobs")}
    lists["professions"] = {j for j in jobs if j} | {
        p.strip()[0].upper() + p.strip()[1:] for p in COMMON_PROFESSIONS.splitlines() if p.strip()
    }
    lists["es/professions"] = {
        j for j in attr(provider(Faker("es_ES"), "job"), "jobs") if is_latin(j) and len(j) <= 40
    }
    lists["zh/professions"] = {
        j for j in attr(provider(Faker(ZH_LOCALE), "job"), "jobs") if "/" not in j and len(j) <= 12
    }
    lists["departments"] = {d.strip() for d in DEPARTMENTS_EN.splitlines() if d.strip()}
    lists["department_abbreviations"] = set(DEPARTMENT_ABBREVIATIONS.split())
    lists["es/departments"] = {d.strip() for d in DEPARTMENTS_ES.splitlines() if d.strip()}
    lists["zh/departments"] = set(DEPARTMENTS_ZH.split())


def add_pack_lists(lists: dict[str, set[str]]) -> None:
    """Names and towns of the German, French and Dutch language packs (``de/``, ``fr/``, ``nl/``)."""
    for code, locales in PACK_NAME_LOCALES.items():
        add_names(lists, f"{code}/", names_of(locales, last_ok=pack_surname_ok))
    for code, city_locales in PACK_CITY_LOCALES.items():
        towns: set[str] = set()
        for loc, n in city_locales.items():
            towns |= set(
                sample((c for c in attr(provider(Faker(loc), "address"), "cities") if is_latin(c)), n)
            )
        lists[f"{code}/cities"] = towns
    lists["de/cities"] |= set(GERMAN_TOWNS.split()) | set(GERMAN_TOWN_PHRASES)
    lists["fr/cities"] = set(FRENCH_TOWNS.split())


def build() -> dict[str, set[str]]:
    """All lists, keyed by relative file name (without ``.txt``).

    One ``random.Random(SEED)`` feeds the steps that draw from it (streets, then hospitals), in this
    order, so the output stays byte for byte the same.
    """
    lists: dict[str, set[str]] = {}
    rng = random.Random(SEED)
    add_name_lists(lists)
    add_place_lists(lists)
    add_street_lists(lists, rng)
    add_organization_lists(lists)
    add_hospital_lists(lists, rng)
    add_profession_lists(lists)
    add_pack_lists(lists)
    return lists


def render(entries: set[str]) -> str:
    """One entry per line, sorted, trailing newline."""
    clean = sorted({e.strip() for e in entries if e.strip() and "\n" not in e})
    return "\n".join(clean) + "\n"


def notice() -> str:
    """Provenance and Faker's MIT license text."""
    version = metadata.version("faker")
    license_text = ""
    dist = metadata.distribution("faker")
    for file in dist.files or []:
        if file.name.upper().startswith("LICENSE"):
            license_text = Path(str(file.locate())).read_text(encoding="utf-8")
            break
    pack_locales = {loc for locs in PACK_NAME_LOCALES.values() for loc in locs}
    locales = ", ".join(sorted(set(NAME_LOCALES) | set(CITY_LOCALES) | pack_locales | {ZH_LOCALE}))
    return (
        "phiscrub surrogate lexicons\n"
        "===========================\n\n"
        f"Generated by scripts/build_lexicons.py from Faker {version} (https://github.com/joke2k/faker)\n"
        f"locales: {locales}; seed {SEED}.\n"
        "Name, country, state and job lists are taken from Faker's locale data; city, company, street\n"
        "and hospital entries are generated with a seeded Faker or from Faker's names; departments,\n"
        "Spanish/Catalan, German and French towns and some street names are written by hand in the script.\n"
        "de/, fr/ and nl/ hold the given names, surnames and towns of the German, French and Dutch\n"
        "language packs (Faker de_DE/de_AT/de_CH, fr_FR/fr_CH/fr_CA, nl_NL/nl_BE).\n"
        "Every entry is synthetic surrogate material, not data about any person.\n\n"
        "Faker license (MIT)\n"
        "-------------------\n\n" + license_text.strip() + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) every list and NOTICE; print sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    files = {f"{name}.txt": render(entries) for name, entries in build().items()}
    files["NOTICE"] = notice()
    stale = []
    total = 0
    for rel, content in sorted(files.items()):
        path = args.out / rel
        total += len(content.encode("utf-8"))
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != content:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8", newline="\n")
        print(f"{rel:40s} {content.count(chr(10)):6d} lines")
    print(f"total {total / 1e6:.2f} MB")
    if stale:
        print("stale: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
