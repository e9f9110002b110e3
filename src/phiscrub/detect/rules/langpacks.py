"""Language packs: the words and shapes the DATE, CONTACT and ID rules need per language.

A :class:`LanguagePack` is data only (month and weekday spellings, cue words, identifier keywords,
national phone shapes); :mod:`phiscrub.detect.rules.intl` (DATE, CONTACT) and
:mod:`phiscrub.detect.rules.intl_ids` (ID) compile it into rules. Packs exist for
Spanish (``es``), Catalan (``ca``), German (``de``), French (``fr``), Dutch (``nl``) and Chinese
(``zh``; Chinese dates and identifiers have their own patterns, the pack holds the cue words).
English keeps its own, richer rule set in the kind modules.

Word lists are matched case-insensitively as whole words; accented and unaccented spellings are
both listed where notes use both (``número``/``numero``, ``març``/``marc``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, WEEKDAY_NAMES

__all__ = ["LANGUAGE_PACKS", "PACK_LANGUAGES", "LanguagePack", "normalize_lang"]


def normalize_lang(lang: str) -> str:
    """``"es-ES"``, ``"ES"``, ``"es_ES"`` -> ``"es"`` (lower case, region dropped)."""
    return lang.strip().lower().replace("_", "-").split("-", 1)[0]


@dataclass(frozen=True)
class LanguagePack:
    """Per-language vocabulary of the DATE, CONTACT and ID rules.

    Args:
        code: ISO 639-1 code.
        months: twelve tuples of full month-name spellings (January first).
        month_abbrs: twelve tuples of abbreviations (taken only next to a day number and a year,
            or before a year: ``mar`` is also "sea" in Spanish).
        weekdays: seven tuples of weekday spellings (Monday first); taken as part of a date only.
        day_suffix: regex of ordinal marks after the day number (``º``, ``er``, ``r``).
        day_month: regex joining day and month, spaces included (``" de "``, ``" d'"``, ``". "``).
        month_year: regex joining month and year, spaces included (``" de "``, ``" del "``, ``", "``).
        after_weekday: regex of a word between weekday and day (German ``den``).
        month_cues: words before a bare month name that make it a date (``desde marzo``).
        year_cues: words before a bare four-digit year that make it a date (``desde 2019``).
        day_cues: words before a numeric day/month without year (``el 3/12``, ``le 3/12``).
        phone_cues: words introducing a telephone number.
        fax_cues: words introducing a fax number.
        phone_pattern: regex alternatives of national phone shapes (each starts with a digit or
            ``(``), or empty.
        id_keywords: fine ID label -> words introducing an identifier of that kind.
        id_connectors: words allowed between an ID keyword and its value (``nº``, ``Nr.``).
    """

    code: str
    months: tuple[tuple[str, ...], ...] = ()
    month_abbrs: tuple[tuple[str, ...], ...] = ()
    weekdays: tuple[tuple[str, ...], ...] = ()
    day_suffix: str = ""
    day_month: str = r"[ \t]+"
    month_year: str = r",?[ \t]+"
    after_weekday: str = ""
    month_cues: tuple[str, ...] = ()
    year_cues: tuple[str, ...] = ()
    day_cues: tuple[str, ...] = ()
    phone_cues: tuple[str, ...] = ()
    fax_cues: tuple[str, ...] = ("fax", "telefax")
    phone_pattern: str = ""
    id_keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    id_connectors: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("months", "month_abbrs"):
            value = getattr(self, name)
            if value and len(value) != 12:
                raise ValueError(f"language pack {self.code}: {name} needs 12 entries")
        if self.weekdays and len(self.weekdays) != 7:
            raise ValueError(f"language pack {self.code}: weekdays needs 7 entries")


# --- Spanish -----------------------------------------------------------------------------------
_ES = LanguagePack(
    code="es",
    months=MONTH_NAMES["es"],
    month_abbrs=MONTH_ABBRS["es"],
    weekdays=WEEKDAY_NAMES["es"],
    day_suffix=r"(?:\.?º)?",
    day_month=r"(?:[ \t]+(?i:de)[ \t]+|[ \t]+)",
    month_year=r"(?:,?[ \t]+(?i:del?)[ \t]+|,?[ \t]+)",
    month_cues=("en", "desde", "hasta", "de", "durante", "el pasado", "principios de", "finales de",
                "mediados de", "a partir de"),
    year_cues=("en", "desde", "hasta", "año", "el año", "durante", "hacia", "en el", "del año", "finales de",
               "principios de", "mediados de", "a partir de", "antes de", "después de"),
    day_cues=("el", "día", "dia", "del", "desde el", "hasta el", "fecha", "fecha:"),
    phone_cues=("teléfono", "telefono", "tel", "tlf", "tfno", "telf", "móvil", "movil", "contacto",
                "llamar al", "teléfono de contacto", "tel. contacto"),
    fax_cues=("fax", "telefax"),
    id_keywords={
        "MEDICALRECORD": ("NHC", "N.H.C.", "historia clínica", "historia clinica", "número de historia",
                          "nº historia", "nº de historia clínica", "número de historia clínica", "H.C.", "HC",
                          "nº de historia", "NUHSA", "código de paciente", "id paciente"),
        "HEALTHPLAN": ("NASS", "nº SS", "nº de la Seguridad Social", "número de la Seguridad Social",
                       "número de afiliación", "nº de afiliación", "afiliación", "seguridad social",
                       "tarjeta sanitaria", "TSI", "CIP", "póliza", "poliza", "nº de póliza", "mutua",
                       "aseguradora", "nº de asegurado", "asegurado"),
        "SSN": ("DNI", "D.N.I.", "NIE", "N.I.E.", "NIF", "N.I.F.", "documento de identidad",
                "documento nacional de identidad"),
        "ACCOUNT": ("episodio", "nº de episodio", "nº episodio", "número de episodio", "nº de ingreso",
                    "número de ingreso", "factura", "nº de factura", "cuenta", "nº de cuenta", "IBAN"),
        "LICENSE": ("colegiado", "nº de colegiado", "nº colegiado", "NºCol", "Nº Col", "número de colegiado",
                    "col.",
                    "nº col.", "núm. col.", "colegiada", "licencia", "permiso de conducir"),
        "DEVICE": ("nº de serie", "número de serie", "n/s", "lote", "nº de lote", "modelo/serie"),
        "VEHICLE": ("matrícula", "matricula", "vehículo", "vehiculo", "ambulancia"),
        "BIOID": ("huella", "huella dactilar", "huella plantar", "biométrico", "biometrico"),
        "IDNUM": ("muestra", "nº de muestra", "petición", "peticion", "nº de petición", "informe",
                  "nº de informe", "código", "codigo", "referencia", "ref.", "expediente", "pasaporte",
                  "nº de pasaporte", "solicitud", "nº de solicitud", "identificador", "registro"),
    },
    id_connectors=("nº", "n.º", "n°", "no", "núm", "num", "número", "numero", "de", "del", "la", "el", "es",
                   "id", "código", "codigo"),
)  # fmt: skip

# --- Catalan -----------------------------------------------------------------------------------
_CA = LanguagePack(
    code="ca",
    months=MONTH_NAMES["ca"],
    month_abbrs=MONTH_ABBRS["ca"],
    weekdays=WEEKDAY_NAMES["ca"],
    day_suffix=r"(?:r|º)?",
    day_month=r"(?:[ \t]+(?i:de)[ \t]+|[ \t]+(?i:d)['’][ \t]?|[ \t]+)",
    month_year=r"(?:,?[ \t]+(?i:del?)[ \t]+|,?[ \t]+(?i:de[ \t]+l['’]any)[ \t]+|,?[ \t]+)",
    month_cues=("el", "al", "des de", "fins al", "fins a", "durant", "a principis de", "a finals de",
                "a mitjan", "a mitjans de", "de", "del", "aquest", "el passat", "l'any"),
    year_cues=("el", "al", "l'any", "any", "des de", "des del", "fins al", "fins a", "durant", "cap al",
               "a finals del", "a principis del", "l'", "a partir del", "abans del", "després del"),
    day_cues=("el", "dia", "del", "des del", "fins al", "data", "data:"),
    phone_cues=("telèfon", "telefon", "tel", "tlf", "tlfn", "mòbil", "mobil", "contacte", "trucar al"),
    fax_cues=("fax", "telefax"),
    id_keywords={
        "MEDICALRECORD": ("NHC", "N.H.C.", "història clínica", "historia clinica", "núm. història clínica",
                          "número d'història clínica", "núm. d'història clínica", "HC", "H.C.",
                          "codi de pacient", "id pacient"),
        "HEALTHPLAN": ("CIP", "TSI", "targeta sanitària", "targeta sanitaria", "NASS", "número d'afiliació",
                       "núm. d'afiliació", "afiliació", "seguretat social", "pòlissa", "polissa", "mútua",
                       "mutua", "asseguradora", "CatSalut"),
        "SSN": ("DNI", "D.N.I.", "NIE", "N.I.E.", "NIF", "document d'identitat"),
        "ACCOUNT": ("episodi", "núm. episodi", "número d'episodi", "núm. d'episodi", "núm. d'ingrés",
                    "número d'ingrés", "factura", "núm. de factura", "compte", "IBAN"),
        "LICENSE": ("col·legiat", "col.legiat", "collegiat", "NºCol", "Núm. Col", "núm. col·legiat", "núm. col.",
                    "col.",
                    "col·legiada", "llicència", "permís de conduir"),
        "DEVICE": ("núm. de sèrie", "número de sèrie", "sèrie", "lot", "núm. de lot"),
        "VEHICLE": ("matrícula", "matricula", "vehicle", "ambulància", "ambulancia"),
        "BIOID": ("empremta", "empremta dactilar", "empremta plantar", "biomètric", "biometric"),
        "IDNUM": ("mostra", "núm. de mostra", "petició", "peticio", "núm. de petició", "informe",
                  "núm. d'informe", "codi", "referència", "referencia", "ref.", "expedient", "passaport",
                  "sol·licitud", "identificador", "registre"),
    },
    id_connectors=("núm", "num", "número", "numero", "nº", "n.º", "n°", "de", "del", "d'", "la", "el", "és",
                   "id", "codi"),
)  # fmt: skip

# --- German ------------------------------------------------------------------------------------
_DE = LanguagePack(
    code="de",
    months=MONTH_NAMES["de"],
    month_abbrs=MONTH_ABBRS["de"],
    weekdays=WEEKDAY_NAMES["de"],
    day_month=r"(?:\.[ \t]*|[ \t]+)",
    after_weekday=r"den",
    month_cues=("im", "seit", "bis", "ab", "Anfang", "Ende", "Mitte", "von", "vom", "letzten", "diesen"),
    year_cues=("im Jahr", "im Jahre", "Jahr", "seit", "bis", "ab", "von", "Anfang", "Ende", "Mitte", "vor",
               "nach", "bis zum Jahr", "seit dem Jahr", "ED", "Erstdiagnose", "Z.n.", "zuletzt", "zuletzt im",
               "operiert", "diagnostiziert", "Geburtsjahr", "Jahrgang", "Jg.", "Baujahr", "Stand"),
    day_cues=("am", "vom", "bis zum", "seit dem", "ab dem", "Datum", "Datum:", "den", "geb.", "geb. am", "geboren am",
              "bis", "zum", "–", "-", "seit", "Stand", "Stand:", "Termin", "Termin:", "Aufnahme", "Aufnahme:",
              "Entlassung", "Entlassung:", "OP", "OP:", "OP-Datum:", "Befund vom", "Untersuchung vom"),
    phone_cues=("Telefon", "Tel", "Telefonnummer", "Handy", "Mobil", "Mobiltelefon", "Rufnummer", "Kontakt",
                "erreichbar unter", "Durchwahl"),
    fax_cues=("Fax", "Telefax", "Faxnummer"),
    phone_pattern=(
        r"0\d{2,4}(?:[ \t]?/[ \t]?|[ \-])\d{2,8}(?:[ \-]\d{1,5}){0,3}"
        r"|\(0\d{2,5}\)[ \t]?\d{2,8}(?:[ \-]\d{1,5}){0,3}"
    ),
    id_keywords={
        "MEDICALRECORD": ("Patientennummer", "Patienten-Nr.", "Pat.-Nr.", "Pat-Nr", "Patienten-ID", "Pat.-ID", "Pat-ID",
                          "Patient-ID", "Patienten-Nummer", "Pat.Nr.", "PatNr", "Pat. Nr.", "Patientenkennung",
                          "Patientenidentifikation", "PID", "Aktennummer", "Krankenblattnummer"),
        "HEALTHPLAN": ("Versichertennummer", "Versicherten-Nr.", "Vers.-Nr.", "KVNR", "KV-Nr.", "KV-Nr", "KV-Nummer",
                       "Versichertennr.", "Versicherten-ID", "eGK-Nr.", "eGK",
                       "Krankenversichertennummer", "Versicherungsnummer", "Krankenkasse", "Kassennummer",
                       "IK-Nummer", "Mitgliedsnummer"),
        "SSN": ("Sozialversicherungsnummer", "SV-Nummer", "SV-Nr.", "Rentenversicherungsnummer", "RV-Nummer",
                "RVNR", "Steuer-ID", "Steueridentifikationsnummer", "Personalausweisnummer",
                "Personalausweis"),
        "ACCOUNT": ("Fallnummer", "Fall-Nr.", "Fallnr", "Fallnr.", "Fall-ID", "Aufnahmenummer", "Aufnahme-Nr.",
                    "Aufnahmenr.", "Aufnahme-Nr", "Episodennummer", "Besuchsnummer", "Rechnungsnummer",
                    "Rechnungs-Nr.", "Konto", "Kontonummer", "IBAN", "Abrechnungsnummer"),
        "LICENSE": ("LANR", "Arztnummer", "BSNR", "Approbationsnummer", "Führerschein", "Führerscheinnummer"),
        "DEVICE": ("Seriennummer", "Serien-Nr.", "Chargennummer", "Charge", "Ch.-B.", "Gerätenummer",
                   "Geräte-ID", "Lot"),
        "VEHICLE": ("Kennzeichen", "Kfz-Kennzeichen", "amtliches Kennzeichen", "Fahrzeug", "RTW", "NAW"),
        "BIOID": ("Fingerabdruck", "Fußabdruck", "biometrische ID", "Biometrie-ID"),
        "IDNUM": ("Auftragsnummer", "Auftrags-Nr.", "Probennummer", "Proben-Nr.", "Befundnummer",
                  "Befund-Nr.", "Labornummer", "Labor-Nr.", "Einsendenummer", "Eingangsnummer", "Reisepass",
                  "Reisepassnummer", "Aktenzeichen", "Az.", "Kennnummer", "Kennung", "Referenz"),
    },
    id_connectors=("Nr", "Nummer", "No", "ID", "lautet", "ist", "der", "die", "des"),
)  # fmt: skip

# --- French ------------------------------------------------------------------------------------
_FR = LanguagePack(
    code="fr",
    months=MONTH_NAMES["fr"],
    month_abbrs=MONTH_ABBRS["fr"],
    weekdays=WEEKDAY_NAMES["fr"],
    day_suffix=r"(?:er|re|ER)?",
    month_cues=("en", "depuis", "jusqu'en", "début", "fin", "mi", "courant", "dès", "depuis le mois de",
                "au mois de", "le mois de", "mois de"),
    year_cues=("en", "depuis", "jusqu'en", "année", "l'année", "dès", "début", "fin", "courant", "vers",
               "avant", "après", "depuis l'année"),
    day_cues=("le", "du", "au", "depuis le", "jusqu'au", "date", "date:", "daté du", "Date :", "intervention :",
              "examen :", "consultation :", "prélèvement :", "naissance :", "entrée :", "sortie :", "séance du",
              "ce jour ("),
    phone_cues=("téléphone", "telephone", "tél", "tel", "portable", "mobile", "numéro de téléphone",
                "joignable au", "contact", "appeler le", "GSM"),
    fax_cues=("fax", "télécopie", "telecopie", "télécopieur", "telefax"),
    phone_pattern=r"0[1-9](?P<frsep>[ .\-])\d{2}(?:(?P=frsep)\d{2}){3}",
    id_keywords={
        "MEDICALRECORD": ("IPP", "identifiant patient", "identifiant permanent du patient", "n° de dossier",
                          "numéro de dossier", "dossier n°", "dossier médical", "n° patient",
                          "numéro patient",
                          "numéro d'identification du patient"),
        "HEALTHPLAN": ("n° d'assuré", "numéro d'assuré", "mutuelle", "n° de mutuelle", "n° adhérent",
                       "numéro d'adhérent", "carte vitale", "n° AMC", "contrat", "n° de contrat"),
        "SSN": ("NIR", "n° de sécurité sociale", "numéro de sécurité sociale", "n° de sécu", "n° sécu",
                "sécurité sociale", "securite sociale", "INS", "matricule INS", "carte d'identité",
                "n° de carte d'identité"),
        "ACCOUNT": ("NDA", "n° de séjour", "numéro de séjour", "séjour n°", "n° de facture", "facture",
                    "numéro de facture", "compte", "IBAN", "n° d'admission", "numéro d'admission"),
        "LICENSE": ("RPPS", "n° RPPS", "ADELI", "n° ADELI", "FINESS", "permis de conduire", "n° d'ordre",
                    "numéro d'ordre"),
        "DEVICE": ("n° de série", "numéro de série", "série", "n° de lot", "lot", "numéro de lot"),
        "VEHICLE": ("immatriculation", "plaque", "véhicule", "ambulance", "VSL"),
        "BIOID": ("empreinte", "empreinte digitale", "empreinte plantaire", "biométrique"),
        "IDNUM": ("n° d'échantillon", "échantillon", "prélèvement", "n° de prélèvement", "n° de demande",
                  "numéro de demande", "demande n°", "n° de compte rendu", "référence", "réf.", "passeport",
                  "n° de passeport", "identifiant", "code", "n° d'examen", "numéro d'examen"),
    },
    id_connectors=("n°", "no", "nº", "num", "numéro", "numero", "de", "du", "d'", "la", "le", "est", "id"),
)  # fmt: skip

# --- Dutch -------------------------------------------------------------------------------------
_NL = LanguagePack(
    code="nl",
    months=MONTH_NAMES["nl"],
    month_abbrs=MONTH_ABBRS["nl"],
    weekdays=WEEKDAY_NAMES["nl"],
    day_suffix=r"(?:ste|de|e)?",
    month_cues=("in", "sinds", "sedert", "tot", "vanaf", "begin", "eind", "half", "medio", "afgelopen"),
    year_cues=("in", "sinds", "sedert", "tot", "vanaf", "jaar", "het jaar", "begin", "eind", "medio", "voor",
               "na", "rond"),
    day_cues=("op", "d.d.", "dd", "van", "tot", "vanaf", "datum", "datum:"),
    phone_cues=("telefoon", "telefoonnummer", "tel", "mobiel", "mobiele nummer", "gsm", "bereikbaar op",
                "contact", "bellen naar", "telnr"),
    fax_cues=("fax", "faxnummer", "telefax"),
    phone_pattern=r"0\d{1,3}[ \-]\d{2,4}(?:[ ]?\d{2,4}){0,2}|\(0\d{1,3}\)[ ]?\d{2,4}(?:[ ]?\d{2,4}){0,2}",
    id_keywords={
        "MEDICALRECORD": ("patiëntnummer", "patientnummer", "patiëntnr", "patnr", "pat.nr.", "dossiernummer",
                          "ziekenhuisnummer", "ZIS-nummer", "registratienummer", "patiënt-ID"),
        "HEALTHPLAN": ("verzekeringsnummer", "verzekerdennummer", "polisnummer", "zorgverzekeraar",
                       "zorgverzekering", "UZOVI", "relatienummer"),
        "SSN": ("BSN", "burgerservicenummer", "sofinummer", "sofi-nummer", "paspoortnummer",
                "identiteitskaart", "ID-kaart"),
        "ACCOUNT": ("opnamenummer", "factuurnummer", "rekeningnummer", "IBAN", "DBC-nummer"),
        "LICENSE": ("BIG-nummer", "BIG", "BIG-registratie", "AGB-code", "AGB", "rijbewijs",
                    "rijbewijsnummer"),
        "DEVICE": ("serienummer", "lotnummer", "lot", "chargenummer", "apparaatnummer"),
        "VEHICLE": ("kenteken", "voertuig", "ambulance"),
        "BIOID": ("vingerafdruk", "voetafdruk", "biometrisch"),
        "IDNUM": ("monsternummer", "ordernummer", "aanvraagnummer", "labnummer", "referentie",
                  "referentienummer", "kenmerk", "identificatienummer", "verslagnummer", "paspoort"),
    },
    id_connectors=("nr", "nummer", "no", "is", "id", "code"),
)  # fmt: skip

# --- Chinese -----------------------------------------------------------------------------------
_ZH = LanguagePack(
    code="zh",
    phone_cues=("电话", "手机", "联系电话", "联系方式", "电话号码", "手机号", "手机号码", "座机", "热线"),
    fax_cues=("传真",),
    id_keywords={
        "MEDICALRECORD": ("住院号", "病案号", "病历号", "门诊号", "就诊卡号", "登记号", "患者ID", "病人ID",
                          "ID号", "住院病案号", "门诊病历号"),
        "HEALTHPLAN": ("医保卡号", "医保号", "社保卡号", "社保号", "医疗保险号", "保险号", "医保账号",
                       "参保号", "新农合号"),
        "SSN": ("身份证号", "身份证号码", "身份证", "公民身份号码"),
        "ACCOUNT": ("账号", "帐号", "账户", "发票号", "收据号", "缴费号", "流水号", "就诊号"),
        "LICENSE": ("执业证号", "执业证书编号", "执业证书号", "医师资格证号", "资格证书号", "驾驶证号",
                    "执业编号"),
        "DEVICE": ("序列号", "设备编号", "设备号", "批号", "型号序列号"),
        "VEHICLE": ("车牌", "车牌号", "车牌号码"),
        "BIOID": ("指纹编号", "指纹号", "掌纹编号", "虹膜编号", "足印编号", "生物识别号"),
        "IDNUM": ("护照号", "护照号码", "编号", "标本号", "检查号", "申请单号", "条码号", "报告编号", "工号",
                  "订单号", "检验号", "影像号", "样本号"),
    },
)  # fmt: skip

#: Packs by language code.
LANGUAGE_PACKS: dict[str, LanguagePack] = {p.code: p for p in (_ES, _CA, _DE, _FR, _NL, _ZH)}
#: Languages with a pack (besides English, which has its own rule set).
PACK_LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_PACKS)
