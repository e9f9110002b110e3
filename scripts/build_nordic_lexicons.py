"""Write the name and town lists of the Nordic packs (issue 27): ``resources/lexicons/{nb,da,sv}/``.

Given names and surnames are Faker's (MIT, see ``resources/lexicons/NOTICE``): ``no_NO`` for
Norwegian, ``da_DK`` for Danish, ``sv_SE`` for Swedish. Towns: Faker's ``da_DK`` and ``sv_SE`` city
lists plus the municipalities and hospital towns written below (Faker has no Norwegian town list).

Usage: ``python scripts/build_nordic_lexicons.py`` (needs ``faker``, a dev dependency).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons"
LOCALES = {"nb": "no_NO", "da": "da_DK", "sv": "sv_SE"}
TOWNS = {
    "nb": """Oslo Bergen Trondheim Stavanger Tromsø Kristiansand Drammen Fredrikstad Sandnes Sarpsborg Skien
        Bodø Ålesund Sandefjord Larvik Tønsberg Arendal Haugesund Porsgrunn Moss Hamar Halden Lillehammer Molde
        Kongsberg Gjøvik Harstad Horten Grimstad Alta Narvik Steinkjer Levanger Stjørdal Namsos Mosjøen Brønnøysund
        Hammerfest Vadsø Kirkenes Lillestrøm Jessheim Ski Asker Bærum Sandvika Lørenskog Elverum Kongsvinger
        Hønefoss Notodden Kragerø Mandal Flekkefjord Egersund Bryne Stord Leirvik Odda Voss Førde Florø Sogndal
        Nordfjordeid Volda Ørsta Kristiansund Orkanger Røros Oppdal Mo Finnsnes Sortland Svolvær Leknes Lofoten
        Tynset Fagernes Gol Geilo Rjukan Risør Tvedestrand Lyngdal Farsund Vennesla Søgne Ås Drøbak Nesodden
        Eidsvoll Raufoss Brumunddal Stange Trysil Otta Åndalsnes Ulsteinvik Fosnavåg Sunndalsøra Verdal Malvik
        Melhus Orkland Hitra Frøya Vardø Lakselv Karasjok Kautokeino Longyearbyen Ringerike Modum Vestby""",
    "da": """København Aarhus Odense Aalborg Esbjerg Randers Kolding Horsens Vejle Roskilde Herning Silkeborg
        Næstved Fredericia Viborg Køge Holstebro Taastrup Slagelse Hillerød Sønderborg Svendborg Hjørring Holbæk
        Frederikshavn Nørresundby Ringsted Haderslev Skive Ølstykke Nykøbing Falster Greve Kalundborg Ballerup
        Rødovre Lyngby Albertslund Hvidovre Glostrup Herlev Gentofte Frederiksberg Helsingør Thisted Aabenraa
        Tønder Ribe Varde Ringkøbing Grenaa Skanderborg Odder Hobro Middelfart Nyborg Faaborg Rønne Nakskov
        Bispebjerg Amager Vallensbæk Brøndby Hørsholm Farum Birkerød Frederikssund Nykøbing Mors""",
    "sv": """Stockholm Göteborg Malmö Uppsala Västerås Örebro Linköping Helsingborg Jönköping Norrköping Lund
        Umeå Gävle Borås Södertälje Eskilstuna Halmstad Växjö Karlstad Sundsvall Östersund Trollhättan Luleå
        Lidingö Borlänge Tumba Kristianstad Kalmar Falun Skövde Karlskrona Skellefteå Uddevalla Varberg Motala
        Nyköping Örnsköldsvik Kiruna Visby Ystad Trelleborg Landskrona Ängelholm Hässleholm Kungsbacka Alingsås
        Lerum Mölndal Kungälv Nacka Huddinge Solna Sollentuna Täby Danderyd Järfälla Norrtälje Enköping Sigtuna
        Katrineholm Mora Hudiksvall Söderhamn Sandviken Ludvika Avesta Arvika Kristinehamn Lidköping Mariestad
        Vänersborg Värnamo Ljungby Västervik Oskarshamn Piteå Boden Gällivare Haparanda Härnösand Kramfors""",
}

#: Town names of Faker's lists that are everyday words of the notes ("Egen læge", "Kontrol").
NOT_TOWNS = frozenset(
    [
        "Egen",
        "Hjem",
        "Skole",
        "Borger",
        "Kontrol",
        "Ved",
        "Over",
        "Under",
        "Nord",
        "Syd",
        "Øst",
        "Vest",
        "Mo",
        "Ny",
        "Gl",
    ]
)


def main() -> int:
    for lang, locale in LOCALES.items():
        person = importlib.import_module(f"faker.providers.person.{locale}").Provider
        address = importlib.import_module(f"faker.providers.address.{locale}").Provider
        folder = OUT / lang
        folder.mkdir(parents=True, exist_ok=True)
        lists = {
            "first_names_female": set(person.first_names_female),
            "first_names_male": set(person.first_names_male),
            "last_names": set(person.last_names),
            "cities": set(TOWNS[lang].split()) | set(getattr(address, "cities", ()) or ()),
        }
        if lang == "da":
            lists["cities"] |= {"Nykøbing Falster", "Nykøbing Mors"}
        lists["cities"] -= NOT_TOWNS
        for stem, words in lists.items():
            clean = sorted({w.strip() for w in words if w.strip() and not w.strip().isdigit()})
            (folder / f"{stem}.txt").write_text("\n".join(clean) + "\n", encoding="utf-8")
            print(f"{lang}/{stem}.txt: {len(clean)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
