"""Norwegian, Danish and Swedish notes for the Nordic rule packs (issue 27, item 4): fill and score.

The notes of ``tests/data/langpack-notes/{nb,da,sv}/`` (ten per language, written before the Nordic
rules: epikrise/epikris, henvisning/remiss, journalnotat/journalanteckning, sykepleiernotat/
sygeplejenotat/omvårdnadsanteckning, poliklinisk/ambulant notat/mottagningsanteckning, home-care
notes; nb-005 and nb-008 in nynorsk) are filled by :class:`eval_langpacks.Filler` with the Nordic
pools below (three seeded draws per note; valid fødselsnummer / personnummer, CPR numbers with a
valid birth date) and scored with the rules alone, exactly as ``scripts/eval_langpacks.py`` scores
the other packs. Notes 001-005 are the development part, 006-010 the held-out test part.

Usage::

    python scripts/eval_nordic.py                        # nb-dev nb-test da-dev da-test sv-dev sv-test
    python scripts/eval_nordic.py --sets nb-dev --errors # missed / spurious spans of a dev set
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import eval_langpacks as E

NORDIC = ("nb", "da", "sv")


def _n(text: str) -> list[str]:
    return [x.strip() for x in text.split(",")]


E.POOLS.update({
    "nb": {
        "first_f": _n("Kari, Anne, Ingrid, Marit, Liv, Solveig, Hanne, Sigrid, Ragnhild, Tone, Guro, Eldbjørg, "
                      "Torunn, Åshild, Synnøve, Gudrun, Borghild, Oddny, Jorunn, Frøydis"),
        "first_m": _n("Ola, Per, Lars, Knut, Jan, Bjørn, Arne, Terje, Geir, Kjell, Tor, Håkon, Eivind, Øystein, "
                      "Trygve, Sverre, Audun, Ivar, Ragnvald, Torleif"),
        "last_common": _n("Hansen, Johansen, Olsen, Larsen, Andersen, Pedersen, Nilsen, Kristiansen, Jensen, "
                          "Karlsen, Johnsen, Pettersen, Eriksen, Berg, Haugen, Hagen, Johannessen, Andreassen, "
                          "Jacobsen, Dahl"),
        "last_rare": _n("Fjeldstad, Bråthen, Kvamme, Hegglund, Sæterdal, Myrvold, Tveitnes, Rønningen, Skjelbred, "
                        "Aasheim, Grøtterud, Hovland, Vestrheim, Skogstad, Bjørkli, Hjelmeland, Ulvestad, "
                        "Tjøstheim, Øvrebø, Lyngstad"),
        "cities": _n("Oslo, Bergen, Trondheim, Stavanger, Tromsø, Kristiansand, Drammen, Fredrikstad, Bodø, "
                     "Ålesund, Hamar, Lillehammer, Molde, Førde, Voss, Gjøvik, Harstad, Mo i Rana, Arendal, "
                     "Tønsberg, Sandnes, Haugesund, Kongsberg, Steinkjer"),
        "street_names": _n("Storgata, Kirkeveien, Parkveien, Skolegata, Bjørnstjerne Bjørnsons gate, Fjellveien, "
                           "Solbakken, Haugesvingen, Ringveien, Strandgata, Løkkeveien, Nedre Bakklandet"),
        "hospitals": _n("Haukeland universitetssjukehus, Oslo universitetssykehus, St. Olavs hospital, "
                        "Sykehuset {c}, {c} sykehus, Universitetssykehuset Nord-Norge, Sørlandet sykehus, "
                        "Diakonhjemmet sykehus, Lovisenberg Diakonale Sykehus, Sykehuset Innlandet, "
                        "{c} legekontor, Helse Førde, Ullevål sykehus, Rikshospitalet"),
        "orgs": ["NAV {c}"], "departments": ["Medisinsk avdeling"],
        "professions": _n("lærer, snekker, sykepleier, bonde, bussjåfør, elektriker, regnskapsfører, fisker"),
    },
    "da": {
        "first_f": _n("Anne, Kirsten, Hanne, Mette, Susanne, Lene, Pia, Lone, Inge, Birthe, Grethe, Bodil, "
                      "Jytte, Karen, Ditte, Signe, Ida, Freja, Vibeke, Tove"),
        "first_m": _n("Jens, Peter, Lars, Søren, Niels, Henrik, Jørgen, Poul, Ole, Mogens, Bent, Flemming, Kim, "
                      "Torben, Morten, Rasmus, Mads, Anders, Carsten, Preben"),
        "last_common": _n("Jensen, Nielsen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, "
                          "Jørgensen, Petersen, Madsen, Kristensen, Olsen, Thomsen, Christiansen, Poulsen, "
                          "Johansen, Møller, Mortensen"),
        "last_rare": _n("Brøndum, Kjærsgaard, Fuglsang, Lykkegaard, Skovbjerg, Dalsgaard, Overgaard, Bækgaard, "
                        "Holmgaard, Gydesen, Vestergaard, Thygesen, Kragelund, Nørgaard, Lindholm, Bisgaard, "
                        "Ravnkilde, Højer, Ottosen, Brixen"),
        "cities": _n("København, Aarhus, Odense, Aalborg, Esbjerg, Randers, Kolding, Horsens, Vejle, Roskilde, "
                     "Herning, Silkeborg, Næstved, Fredericia, Viborg, Holbæk, Svendborg, Hillerød, "
                     "Frederikshavn, Nykøbing Falster, Haderslev, Ringkøbing"),
        "street_names": _n("Vestergade, Østergade, Nørregade, Søndergade, Jernbanegade, Kirkevej, Skovvej, "
                           "Strandvejen, Bredgade, H.C. Andersens Boulevard, Lærkevej, Møllevangen"),
        "hospitals": _n("Rigshospitalet, Aarhus Universitetshospital, Odense Universitetshospital, "
                        "Regionshospitalet {c}, Sygehus Lillebælt, {c} Sygehus, Sjællands Universitetshospital, "
                        "Hvidovre Hospital, Bispebjerg Hospital, Aalborg Universitetshospital, Lægehuset {c}, "
                        "Sygehus Sønderjylland, Herlev Hospital"),
        "orgs": ["{c} Kommune"], "departments": ["Medicinsk afdeling"],
        "professions": _n("tømrer, lærer, buschauffør, landmand, elektriker, pædagog, sosu-assistent, smed"),
    },
    "sv": {
        "first_f": _n("Anna, Eva, Maria, Karin, Kristina, Lena, Sara, Ingrid, Birgitta, Margareta, Elisabeth, "
                      "Ulla, Gunilla, Ebba, Signe, Astrid, Maja, Agneta, Solveig, Inger"),
        "first_m": _n("Lars, Anders, Johan, Per, Erik, Karl, Nils, Mikael, Jan, Hans, Bengt, Gunnar, Sven, "
                      "Göran, Olof, Björn, Stig, Åke, Ulf, Leif"),
        "last_common": _n("Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, "
                          "Svensson, Gustafsson, Pettersson, Jonsson, Jansson, Hansson, Bengtsson, Lindberg, "
                          "Lindström, Lundgren, Berg, Axelsson"),
        "last_rare": _n("Hägglund, Wästerlund, Ljungqvist, Öhrvall, Bergkvist, Nordenskjöld, Fjällström, "
                        "Tornberg, Grönvall, Sandelin, Hedlund, Ekholm, Brännström, Wikander, Lagerqvist, "
                        "Rosenqvist, Åkesson, Östlund, Holmgren, Strandmark"),
        "cities": _n("Stockholm, Göteborg, Malmö, Uppsala, Västerås, Örebro, Linköping, Helsingborg, Jönköping, "
                     "Norrköping, Lund, Umeå, Gävle, Borås, Södertälje, Eskilstuna, Halmstad, Växjö, Karlstad, "
                     "Sundsvall, Östersund, Luleå, Kiruna, Visby"),
        "street_names": _n("Storgatan, Drottninggatan, Kungsgatan, Vasagatan, Skolvägen, Kyrkogatan, Björkvägen, "
                           "Strandvägen, Järnvägsgatan, Sveavägen, Ringvägen, Lilla Torget"),
        "hospitals": _n("Karolinska Universitetssjukhuset, Sahlgrenska Universitetssjukhuset, Skånes "
                        "universitetssjukhus, Akademiska sjukhuset, Länssjukhuset {c}, {c} lasarett, Sjukhuset i {c}, "
                        "Danderyds sjukhus, Vårdcentralen {c}, {c} vårdcentral, Norrlands universitetssjukhus, "
                        "Södersjukhuset, Capio Vårdcentral {c}"),
        "orgs": ["Försäkringskassan"], "departments": ["Medicinkliniken"],
        "professions": _n("undersköterska, lärare, snickare, busschaufför, elektriker, lantbrukare, barnskötare"),
    },
})  # fmt: skip
E.MONTHS.update(
    {
        "nb": _n(
            "januar, februar, mars, april, mai, juni, juli, august, september, oktober, november, desember"
        ),
        "da": _n(
            "januar, februar, marts, april, maj, juni, juli, august, september, oktober, november, december"
        ),
        "sv": _n(
            "januari, februari, mars, april, maj, juni, juli, augusti, september, oktober, november, december"
        ),
    }
)
E.DATE_FORMATS.update({
    "nb": [("{DD}.{MM}.{YYYY}", 45), ("{D}. {month} {YYYY}", 20), ("{DD}.{MM}.{YY}", 10), ("{D}.{M}.{YYYY}", 10),
           ("{D}. {month}", 6), ("{DD}.{MM}", 4), ("{YYYY}-{MM}-{DD}", 5)],
    "da": [("{DD}.{MM}.{YYYY}", 30), ("{D}/{M}-{YYYY}", 15), ("{DD}-{MM}-{YYYY}", 15), ("{D}. {month} {YYYY}", 20),
           ("{D}/{M}", 6), ("{D}. {month}", 6), ("{DD}.{MM}.{YY}", 8)],
    "sv": [("{YYYY}-{MM}-{DD}", 45), ("{D} {month} {YYYY}", 20), ("{D}/{M}", 8), ("{D} {month}", 7),
           ("{YY}{MM}{DD}", 5), ("{DD}.{MM}.{YYYY}", 5), ("{D}/{M} {YYYY}", 10)],
})  # fmt: skip
E.YEARISH.update(
    {
        "nb": [("{YYYY}", 55), ("{month} {YYYY}", 35), ("{MM}.{YYYY}", 10)],
        "da": [("{YYYY}", 55), ("{month} {YYYY}", 35), ("{MM}/{YYYY}", 10)],
        "sv": [("{YYYY}", 55), ("{month} {YYYY}", 35), ("{YYYY}-{MM}", 10)],
    }
)
E.PHONES.update(
    {
        "nb": ["## ## ## ##", "### ## ###", "+47 ### ## ###", "+47 ## ## ## ##", "########"],
        "da": ["## ## ## ##", "+45 ## ## ## ##", "########", "+45 ########"],
        "sv": [
            "0#-### ## ##",
            "07#-### ## ##",
            "+46 7# ### ## ##",
            "0##-## ## ##",
            "08-### ### ##",
            "07########",
        ],
    }
)
E.IDS["MEDICALRECORD"].update(
    {"nb": ["#######", "########"], "da": ["########"], "sv": ["########", "#######"]}
)
E.SPLITS.update({"nb": 5, "da": 5, "sv": 5})

_TITLES = E.re.compile(
    r"\b(?:Dr|dr|lege|overlege|overlæge|læge|läkare|överläkare|fastlege|sykepleier|sygeplejerske|"
    r"sjuksköterska|nevrokirurg|neurolog|fysioterapeut|sjukgymnast|diabetessjukepleiar|diabetessjuksköterska|"
    r"distriktsläkare|praktiserende læge)\.?\s+$"
)


def _fnr(rng: random.Random) -> str:
    while True:
        d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(1935, 2020)
        ind = rng.randint(0, 499) if y < 2000 else rng.randint(500, 999)
        digits = [int(c) for c in f"{d:02d}{m:02d}{y % 100:02d}{ind:03d}"]
        k1 = 11 - sum(a * b for a, b in zip(digits, (3, 7, 6, 1, 8, 9, 4, 5, 2))) % 11
        k1 = 0 if k1 == 11 else k1
        k2 = 11 - sum(a * b for a, b in zip([*digits, k1], (5, 4, 3, 2, 7, 6, 5, 4, 3, 2))) % 11
        k2 = 0 if k2 == 11 else k2
        if k1 < 10 and k2 < 10:
            body = "".join(map(str, digits))
            return E._weighted(rng, [(f"{body}{k1}{k2}", 60), (f"{body[:6]} {body[6:]}{k1}{k2}", 40)])


def _luhn(body: str) -> int:
    total = 0
    for i, c in enumerate(body):
        v = int(c) * (2 if i % 2 == 0 else 1)
        total += v - 9 if v > 9 else v
    return (10 - total % 10) % 10


def _personnummer(rng: random.Random) -> str:
    y, m, d = rng.randint(1935, 2020), rng.randint(1, 12), rng.randint(1, 28)
    body = f"{y % 100:02d}{m:02d}{d:02d}{rng.randint(0, 999):03d}"
    full = f"{body}{_luhn(body)}"
    return E._weighted(rng, [(f"{full[:6]}-{full[6:]}", 50), (f"{y // 100}{full[:6]}-{full[6:]}", 50)])


def _cpr(rng: random.Random) -> str:
    d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(0, 99)
    return f"{d:02d}{m:02d}{y:02d}{E._weighted(rng, [('-', 85), ('', 15)])}{rng.randint(0, 9999):04d}"


class NordicFiller(E.Filler):
    """:class:`eval_langpacks.Filler` with Nordic titles, ZIP codes, phones, e-mails and national IDs."""

    def titled_person(self, before: str, after: str) -> str:
        return self.person(_TITLES.search(before) is not None)

    def age(self, before: str, after: str) -> str:
        return str(self.rng.randint(19, 96))

    def zip_code(self, before: str, after: str) -> str:
        rng = self.rng
        return (
            f"{rng.randint(100, 999)} {rng.randint(10, 99)}"
            if self.lang == "sv"
            else f"{rng.randint(1, 9989):04d}"
        )

    def hospital(self, before: str, after: str) -> str:
        return self.rng.choice(self.pool["hospitals"]).replace("{c}", self.rng.choice(self.pool["cities"]))

    def email(self, before: str, after: str) -> str:
        rng = self.rng
        first, last = (
            rng.choice(self.pool["first_f"] + self.pool["first_m"]),
            rng.choice(self.pool["last_common"]),
        )
        plain = (first + "." + last).lower().translate(str.maketrans("æøåäö", "aoaao"))
        return f"{plain}@{rng.choice(['online.no', 'gmail.com', 'dadlnet.dk', 'regionh.dk', 'telia.se', 'vgregion.se'])}"

    def identifier(self, label: str) -> str:
        if label == "SSN":
            return {"nb": _fnr, "da": _cpr, "sv": _personnummer}[self.lang](self.rng)
        return super().identifier(label)


E.Filler = NordicFiller  # type: ignore[misc]  # note_docs builds its fillers through the module name
for _lang in NORDIC:
    E.SETS[f"{_lang}-dev"] = lambda _lang=_lang: E.note_docs(_lang, "dev")
    E.SETS[f"{_lang}-test"] = lambda _lang=_lang: E.note_docs(_lang, "test")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sets", nargs="*", default=[f"{lang}-{part}" for lang in NORDIC for part in ("dev", "test")]
    )
    ap.add_argument("--errors", action="store_true", help="list missed/spurious spans of the (dev) sets")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.errors:
        for name in args.sets:
            for line in E.errors(name):
                print(line)
        return 0
    extra = ["--json", str(args.json)] if args.json else []
    return E.main(["--sets", *args.sets, *extra])


if __name__ == "__main__":
    sys.exit(main())
