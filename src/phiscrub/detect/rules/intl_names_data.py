"""Words of the pack name rules (:mod:`.intl_names`): one :class:`NameWords` per language, and the
word sets the scanner and the PROFESSION rules consult.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["NAME_LANGUAGES", "NAME_WORDS", "NameWords"]


@dataclass(frozen=True)
class NameWords:
    """The words the name rules of one language need.

    Args:
        doctor_titles: titles of physicians and academics (``Dr.``, ``Prof.``, ``OA``); case-sensitive.
        person_titles: forms of address (``Herr``, ``Mme``, ``dhr.``); case-sensitive.
        patient_fields: field labels before a patient's name (a colon follows).
        doctor_fields: field labels before a clinician's name.
        relative_fields: field labels before a relative's name.
        kin: kinship and carer words before a relative's name (lower case; any case matches).
        roles: roles written after a name (``, Oberarzt``) or on the line below it.
        closings: closing formulas after which the next line holds a name.
        signed: words right before a signature name (``gez.``, ``signé``).
        particles: lower-case name particles (``von``, ``van``, ``de``).
        stopwords: words that end a name (lower case), on top of the English ones.
        lexicon: folder of the bundled name lists (``de``, ``fr``, ``nl``, ``es``).
        max_tokens: longest name in tokens.
    """

    doctor_titles: tuple[str, ...]
    person_titles: tuple[str, ...]
    patient_fields: tuple[str, ...]
    doctor_fields: tuple[str, ...]
    relative_fields: tuple[str, ...]
    kin: tuple[str, ...]
    roles: tuple[str, ...]
    closings: tuple[str, ...]
    signed: tuple[str, ...]
    particles: tuple[str, ...]
    stopwords: str
    lexicon: str
    max_tokens: int = 4


_DE = NameWords(
    doctor_titles=("Dr.", "Dr", "Dres.", "Prof.", "Prof", "PD", "Priv.-Doz.", "Doz.", "med.", "dent.", "rer.",
                   "nat.", "phil.", "univ.", "habil.", "h.c.", "Dipl.-Psych.", "Dipl.-Med.", "Dipl.-Ing.",
                   "OA", "OÄ", "CA", "Oberarzt", "Oberärztin", "Chefarzt", "Chefärztin", "Kollege", "Kollegin",
                   "Professor", "Professorin", "Doktor", "Dr.-Ing.", "M.Sc.", "B.Sc.", "Stationsarzt",
                   "Stationsärztin", "Assistenzarzt", "Assistenzärztin", "Notarzt", "Notärztin", "Hausarzt",
                   "Hausärztin", "Praxis", "Hausarztpraxis", "Arztpraxis", "Gemeinschaftspraxis", "FA", "FÄ"),
    person_titles=("Herr", "Herrn", "Hr.", "Hrn.", "Frau", "Fr.", "Fräulein", "Frl.", "Pat.", "Patient", "Patientin",
                   "Patienten", "Versicherte", "Versicherter", "Versicherten", "Klient", "Klientin"),
    patient_fields=("Patient", "Patientin", "Pat.", "Pat", "Name", "Nachname", "Vorname", "Name, Vorname",
                    "Patientenname", "Versicherter", "Versicherte", "Verstorbener", "Verstorbene", "Klient",
                    "Klientin", "Betr.", "Betreff", "Kind", "Mutter des Kindes", "Bewohner", "Bewohnerin"),
    doctor_fields=("Arzt", "Ärztin", "Behandler", "Behandlerin", "Operateur", "Operateurin", "Assistenz",
                   "Anästhesie", "Anästhesist", "Anästhesistin", "Untersucher", "Untersucherin", "Überweiser",
                   "Überweiserin", "Einsender", "Einsenderin", "Hausarzt", "Hausärztin", "Geburtshelfer",
                   "Geburtshelferin", "Hebamme", "Validiert", "Befundet", "Befundet von", "Vorgestellt durch",
                   "Unterschrift", "Diktiert", "Diktat", "Stationsarzt", "Stationsärztin", "Oberarzt",
                   "Oberärztin", "Chefarzt", "Chefärztin", "Assistenzarzt", "Assistenzärztin", "Pflegekraft",
                   "Bezugspflege", "Therapeut", "Therapeutin", "Logopädin", "Logopäde", "Physiotherapeut",
                   "Physiotherapeutin", "Psychologe", "Psychologin", "Sozialarbeiter", "Sozialarbeiterin",
                   "Facharzt", "Fachärztin", "Leichenschau durch", "Aufnehmender Arzt", "Entlassender Arzt",
                   "Verantwortlicher Arzt", "Erstellt von", "Gesehen von", "Zuweisung", "Zuweiser",
                   "Zuweiserin", "Pflege", "Notarzt", "Notärztin", "1. Assistenz", "2. Assistenz", "OP-Pflege",
                   "Instrumentierende", "Springer", "Hebamme", "Kinderarzt", "Kinderärztin"),
    relative_fields=("Mutter", "Vater", "Partner", "Partnerin", "Ehemann", "Ehefrau", "Ehepartner",
                     "Angehörige", "Angehöriger", "Angehörigen", "Betreuer", "Betreuerin", "Bezugsperson",
                     "Kontaktperson", "Notfallkontakt", "Sorgeberechtigte", "Lebensgefährte",
                     "Lebensgefährtin", "Tochter", "Sohn"),
    kin=("Tochter", "Sohn", "Ehefrau", "Ehemann", "Frau", "Mann", "Mutter", "Vater", "Schwester", "Bruder",
         "Neffe", "Neffen", "Nichte", "Enkel", "Enkelin", "Lebensgefährte", "Lebensgefährtin", "Partner",
         "Partnerin", "Betreuer", "Betreuerin", "Schwiegertochter", "Schwiegersohn", "Cousin", "Cousine",
         "Onkel", "Tante", "Großmutter", "Großvater", "Oma", "Opa", "Nachbarin", "Nachbar", "Freundin",
         "Freund", "Ehepartner", "Ehepartnerin", "Schwager", "Schwägerin", "Stiefsohn", "Stieftochter",
         "geschiedene Ehemann", "geschiedenen Ehemann", "geschiedene Ehefrau"),
    roles=("Oberarzt", "Oberärztin", "Chefarzt", "Chefärztin", "Assistenzarzt", "Assistenzärztin",
           "Stationsarzt", "Stationsärztin", "Facharzt", "Fachärztin", "Arzt", "Ärztin", "Hausarzt",
           "Hausärztin", "Sozialarbeiterin", "Sozialarbeiter", "MFA", "Gesundheits- und Krankenpflegerin",
           "Gesundheits- und Krankenpfleger", "Krankenpflegerin", "Krankenpfleger", "Pflegefachkraft",
           "Pflegefachfrau", "Pflegefachmann", "Hebamme", "Psychologin", "Psychologe", "Logopädin",
           "Logopäde", "Physiotherapeutin", "Physiotherapeut", "Ergotherapeutin", "Ergotherapeut",
           "Sekretariat", "Oberärztin Neurologie", "Assistenzarzt ZNA", "Funktionsoberarzt", "Funktionsoberärztin",
           "Arzt in Weiterbildung", "Ärztin in Weiterbildung", "PJ", "Famulant", "Famulantin", "D-Arzt",
           "Chefarztsekretariat", "Stationsleitung", "Pflegedienstleitung", "Case Managerin", "Case Manager",
           "Diätassistentin", "Berufsbetreuer", "Berufsbetreuerin", "FA", "FÄ", "Leitende Oberärztin",
           "Leitender Oberarzt", "Leitender Arzt", "Leitende Ärztin"),
    closings=("Mit freundlichen Grüßen", "Mit freundlichen kollegialen Grüßen", "Mit kollegialen Grüßen",
              "Mit freundlichem Gruß", "Mit besten Grüßen", "Mit kollegialem Gruß", "Freundliche Grüße",
              "Hochachtungsvoll", "MfG", "Mit freundlichen Grüssen", "Mit kollegialen Grüssen"),
    signed=("gez.", "gez", "gezeichnet", "unterschrieben von", "elektronisch signiert von", "signiert von",
            "diktiert von", "befundet von", "i.A.", "i. A.", "i.V.", "i. V."),
    particles=("von", "van", "vom", "zu", "von der", "van der", "van den", "de", "del", "da", "di", "le", "la",
               "ter", "ten", "auf der"),
    stopwords="""
        kollege kollegin kollegen kolleginnen doktor doktorin professor professorin med dent rer nat phil
        oberarzt oberärztin chefarzt chefärztin arzt ärztin patient patientin pat praxis klinik klinikum
        krankenhaus station ambulanz sprechstunde termin befund befunde bericht brief labor telefon tel fax
        frau herr herrn und oder mit von vom zum zur im am an auf aus bei nach seit bis für über unter vor
        der die das den dem des ein eine einer eines einem sie er es ihr ihre ihren seine seiner seinen wir
        heute gestern morgen datum nr nummer geb geboren gest name vorname nachname anschrift adresse
        wohnhaft versicherter versicherte kasse krankenkasse ist war wurde wird hat hatte sind waren wurden
        zimmer zi bett aufnahme entlassung verlegung notaufnahme intensivstation innere medizin chirurgie
        neurologie kardiologie radiologie pathologie psychiatrie pädiatrie geriatrie onkologie urologie
        gynäkologie orthopädie unfallchirurgie anästhesie anästhesiologie dermatologie nephrologie
        gastroenterologie pneumologie hämatologie rheumatologie allgemeinmedizin zahnmedizin sozialdienst
        pflege pflegedienst pflegeheim hausarzt hausärztin facharzt fachärztin assistenzarzt assistenzärztin
        stationsarzt stationsärztin rücksprache information informiert angehörige angehörigen betreuer
        betreuerin ehemann ehefrau tochter sohn mutter vater kind kinder schwester bruder sehr geehrte
        geehrter geehrten liebe lieber dank vielen grüße grüßen gruß mfg montag dienstag mittwoch
        donnerstag freitag samstag sonntag januar februar märz april mai juni juli august september oktober
        november dezember jahre jahren jahr monate monaten wochen tage tagen stunden uhr ca etwa links rechts
        beidseits bds re li o.g. og u.a. ua z.b. zb v.a. va ggf bzw dr med prof pd oa oä ca
        rehabilitation reha notarzt rettungsdienst rtw naw polizei betreuung vollmacht vorsorgevollmacht
        kontrolle wiedervorstellung nachsorge nachuntersuchung diagnose diagnosen therapie medikation
        anamnese verlauf procedere empfehlung beurteilung untersuchung sonographie röntgen mrt ct ekg
        echo labor labore laborwerte hb crp az ez bmi rr hf spo2 temp bz gcs nihss
        endokrinologie diabetologie angiologie hepatologie infektiologie intensivmedizin notfallmedizin
        palliativmedizin schmerzmedizin sportmedizin arbeitsmedizin neurochirurgie herzchirurgie
        gefäßchirurgie thoraxchirurgie viszeralchirurgie allgemeinchirurgie kinderchirurgie handchirurgie
        mkg hno augenheilkunde nuklearmedizin strahlentherapie labormedizin mikrobiologie hygiene
        humangenetik psychosomatik neuroradiologie senologie proktologie phlebologie allergologie
        leitende leitender geriatrische internistische chirurgische neurologische psychiatrische
        für fuer innere allgemeine zahnheilkunde
    """,
    lexicon="de",
)  # fmt: skip

_FR = NameWords(
    doctor_titles=("Dr", "Dr.", "Drs", "Docteur", "Docteure", "Pr", "Pr.", "Prof.", "Prof", "Professeur",
                   "Professeure", "DR", "PR"),
    person_titles=("M.", "Mme", "Mme.", "Mmes", "MM.", "Mlle", "Mlle.", "Monsieur", "Madame", "Mademoiselle",
                   "MME", "MONSIEUR", "MADAME", "Me"),
    patient_fields=("Patient", "Patiente", "Nom", "Nom de naissance", "Nom d'usage", "Nom marital",
                    "Prénom", "Nom et prénom", "Nom, prénom", "Enfant", "Défunt", "Défunte", "Assuré", "Assurée",
                    "Identité", "Résident", "Résidente", "Bénéficiaire", "Concerne", "Objet"),
    doctor_fields=("Médecin", "Médecin traitant", "Médecin demandeur", "Médecin prescripteur", "Prescripteur",
                   "Prescriptrice", "Opérateur", "Opératrice", "Aide", "Anesthésiste", "Biologiste",
                   "Psychiatre", "Sage-femme", "Obstétricien", "Obstétricien de garde", "Radiologue",
                   "Interne", "Externe", "Chirurgien", "Médecin senior", "Médecin responsable",
                   "Dossier présenté par", "Rédigé par", "Validé par", "Signé par", "Dicté par",
                   "Compte rendu rédigé par", "IDE", "Infirmier", "Infirmière", "Kinésithérapeute", "Cadre de santé",
                   "Assistante sociale", "Assistant social", "Référent", "Référente", "Praticien",
                   "Médecin expert", "Expert", "Vu par", "Examiné par", "Opérateur principal", "Présents"),
    relative_fields=("Mère", "Père", "Personne à prévenir", "Personne de confiance", "Conjoint", "Conjointe",
                     "Époux", "Épouse", "Tuteur", "Tutrice", "Curateur", "Curatrice", "Tiers", "Parent",
                     "Parents", "Représentant légal", "Accompagnant", "Accompagnante"),
    kin=("sa fille", "son fils", "son épouse", "son époux", "son mari", "sa femme", "sa mère", "son père",
         "sa sœur", "sa soeur", "son frère", "son neveu", "sa nièce", "sa compagne", "son compagnon",
         "sa petite-fille", "son petit-fils", "sa belle-fille", "son gendre", "sa tante", "son oncle",
         "sa cousine", "son cousin", "sa voisine", "son voisin", "sa conjointe", "son conjoint", "sa tutrice",
         "son tuteur", "sa curatrice", "son curateur", "sa mère,", "fille", "fils", "épouse", "époux", "mari",
         "mère", "père", "sœur", "frère", "neveu", "nièce", "compagne", "compagnon", "conjoint", "conjointe",
         "tiers", "sa grand-mère", "son grand-père"),
    roles=("IDE", "interne", "externe", "urgentiste", "radiologue", "pédiatre", "anesthésiste",
           "anesthésiste-réanimateur", "psychiatre", "chef de clinique", "praticien hospitalier",
           "assistante sociale", "assistant social", "médecin expert", "oncologue", "cardiologue",
           "médecin MPR", "kinésithérapeute", "sage-femme", "biologiste", "pneumologue", "neurologue",
           "chirurgien", "gériatre", "médecin traitant", "médecin généraliste", "infirmière", "infirmier",
           "aide-soignante", "aide-soignant", "cadre de santé", "diététicienne", "orthophoniste",
           "psychologue", "ergothérapeute", "secrétaire médicale", "dermatologue", "gastro-entérologue",
           "néphrologue", "rhumatologue", "endocrinologue", "médecin du travail", "pharmacien", "pharmacienne",
           "chef de service", "docteur en médecine", "PH", "CCA", "médecin"),
    closings=("Bien amicalement", "Bien cordialement", "Cordialement", "Bien confraternellement",
              "Confraternellement", "Amicalement", "sentiments confraternels", "sentiments distingués",
              "salutations distinguées", "Avec mes remerciements", "Respectueusement", "Sincères salutations"),
    signed=("signé", "signé par", "validé par", "rédigé par", "dicté par", "Je soussigné",
            "Je soussignée", "soussigné", "soussignée"),
    particles=("de", "du", "des", "de la", "d'", "le", "la", "van", "von", "ben", "el", "al"),
    stopwords="""
        docteur professeur madame monsieur mademoiselle patient patiente médecin service hôpital clinique
        chu cabinet consultation urgences unité chambre lit le la les un une des du de au aux et ou en dans
        pour par sur avec sans chez qui que dont il elle ils elles nous vous son sa ses leur leurs ce cette
        aujourd'hui hier demain date né née le nom prénom adresse tél tel téléphone fax ipp dossier
        lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril mai juin juillet
        août septembre octobre novembre décembre ans mois jours semaines heures
        cher chère chers confrère consœur collègue amie ami mes meilleurs sentiments salutations
        réanimation cardiologie neurologie radiologie pédiatrie psychiatrie oncologie médecine chirurgie
        gériatrie orthopédie traumatologie anesthésie néonatologie gynécologie obstétrique pneumologie
        diabétologie endocrinologie gastro-entérologie néphrologie dermatologie urologie rhumatologie
        interne garde senior référent traitant ide as aide-soignante
        ssr ehpad pmi cmp samu smur pompiers famille compte rendu ordonnance certificat copie
        directrice directeur président présidente maire ministre juge procureur préfet cadre responsable
        chef cheffe secrétaire sœur soeur frère
    """,
    lexicon="fr",
)  # fmt: skip

_NL = NameWords(
    doctor_titles=("dr.", "Dr.", "dr", "Dr", "drs.", "Drs.", "prof.", "Prof.", "prof", "Prof", "mr.", "ir.",
                   "DR.", "collega", "Collega", "weledelgeleerde heer", "weledelgeleerde vrouwe", "arts-assistent",
                   "Arts-assistent", "huisarts", "Huisarts", "internist", "Internist", "verpleegkundige",
                   "Verpleegkundige", "verloskundige", "Verloskundige",
                   "zeergeleerde heer", "zeergeleerde vrouwe"),
    person_titles=("dhr.", "Dhr.", "dhr", "Dhr", "mevr.", "Mevr.", "mevr", "Mevr", "mw.", "Mw.", "mej.", "Mej.",
                   "de heer", "De heer", "mevrouw", "Mevrouw", "meneer", "Meneer", "heer", "DHR.", "MEVR."),
    patient_fields=("Patiënt", "Patient", "Patiënte", "Naam", "Achternaam", "Voornaam", "Cliënt", "Client",
                    "Cliënte", "Betreft", "Bewoner", "Bewoonster", "Kind", "Overledene"),
    doctor_fields=("Operateur", "Assistent", "Anesthesioloog", "Aanvrager", "Verloskundige", "Gynaecoloog",
                   "Huisarts", "Behandelaar", "Arts", "Verwijzer", "Specialist", "Radioloog", "Cardioloog",
                   "Internist", "Neuroloog", "Longarts", "Chirurg", "Verpleegkundige", "Hoofdbehandelaar",
                   "Regiebehandelaar", "Opgesteld door", "Gezien door", "Ondertekend door", "Aan", "Arts-assistent",
                   "Supervisor", "Fysiotherapeut", "Psychiater", "Psycholoog"),
    relative_fields=("Contactpersoon", "Moeder", "Vader", "Partner", "Echtgenoot", "Echtgenote", "Wettelijk vertegenwoordiger",
                     "Mentor", "Curator", "Eerste contactpersoon", "Tweede contactpersoon"),
    kin=("dochter", "zoon", "echtgenoot", "echtgenote", "partner", "moeder", "vader", "broer", "zus", "zuster",
         "neef", "nicht", "kleinzoon", "kleindochter", "schoonzoon", "schoondochter", "vriendin", "vriend",
         "buurvrouw", "buurman", "mentor", "zijn moeder", "haar moeder", "zijn vrouw", "haar man",
         "zijn zoon", "haar zoon", "zijn dochter", "haar dochter", "man", "vrouw"),
    roles=("huisarts", "arts-assistent", "arts-assistent cardiologie", "SEH-arts", "verpleegkundige",
           "verpleegkundig specialist", "radioloog", "psychiater", "dermatoloog", "longarts", "cardioloog",
           "internist", "neuroloog", "chirurg", "gynaecoloog", "kinderarts", "anesthesioloog", "uroloog",
           "medisch maatschappelijk werker", "maatschappelijk werker", "fysiotherapeut", "verloskundige",
           "physician assistant", "AIOS", "ANIOS", "specialist ouderengeneeskunde", "geriater", "oncoloog",
           "psycholoog", "apotheker", "diëtist", "logopedist", "ergotherapeut", "arts"),
    closings=("Met vriendelijke groet", "Met vriendelijke groeten", "Met collegiale groet",
              "Met collegiale groeten", "Hoogachtend", "Vriendelijke groet", "Met hartelijke groet"),
    signed=("getekend", "ondertekend door", "gezien door", "w.g.", "wg"),
    particles=("van", "de", "der", "den", "van de", "van der", "van den", "ter", "ten", "te", "in 't", "'t",
               "op de", "in de", "uit de", "von", "le", "la", "du"),
    stopwords="""
        patiënt patiënte arts huisarts specialist ziekenhuis afdeling polikliniek kamer bed de het een en of
        van in op aan met voor bij door naar uit over tot om als dan die dat deze dit zijn haar hij zij wij
        u uw hun heer mevrouw meneer collega geachte beste datum geboren geb naam adres telefoon tel fax
        maandag dinsdag woensdag donderdag vrijdag zaterdag zondag januari februari maart april mei juni
        juli augustus september oktober november december jaar jaren maanden weken dagen uur
        cardiologie neurologie interne geneeskunde chirurgie radiologie psychiatrie dermatologie
        longziekten geriatrie verloskunde gynaecologie kindergeneeskunde seh ic spoedeisende hulp
        groet groeten vriendelijke collegiale hoogachtend dhr mevr dr prof drs
    """,
    lexicon="nl",
)  # fmt: skip

_ES = NameWords(
    doctor_titles=("Dr.", "Dra.", "Dr", "Dra", "DR.", "DRA.", "Prof.", "Profa.", "Doctor", "Doctora",
                   "doctor", "doctora", "Enf.", "Enfª", "Inf.", "Infª"),
    person_titles=("Sr.", "Sra.", "Srta.", "Sr", "Sra", "D.", "Dª.", "Dª", "Dña.", "Dña", "Don", "Doña", "Pac.",
                   "SR.", "SRA.", "Senyor", "Senyora", "Sra.ª"),
    patient_fields=("Paciente", "Nombre", "Apellidos", "Nombre y apellidos", "Apellidos y nombre", "Pacient",
                    "Nom", "Cognoms", "Nom i cognoms", "Usuario", "Usuaria", "Usuari", "Usuària"),
    doctor_fields=("Médico", "Médica", "Médico responsable", "Metge", "Metgessa", "Metge responsable",
                   "Logopeda", "Facultativo", "Facultativa", "Médico adjunto", "Metge adjunt", "Firmado",
                   "Firmado por", "Signat", "Signat per", "Enfermera", "Infermera", "Fisioterapeuta",
                   "Neuropsicòloga", "Neuropsicólogo", "Treballadora social", "Trabajadora social", "Remitente",
                   "Responsable", "Cirujano", "Anestesista", "Referent", "Referente", "Responsable clínico",
                   "Responsable clinico", "Remitido por", "Remitida por", "Remès per", "Remesa per", "Enviado por",
                   "Médico responsable del paciente", "Metge referent", "Doctor", "Doctora", "Professional",
                   "Profesional", "Terapeuta", "Supervisora", "Treballador social", "Trabajador social"),
    relative_fields=("Familiar", "Contacto", "Contacte", "Madre", "Padre", "Mare", "Pare", "Cuidador",
                     "Cuidadora", "Cuidador principal", "Cuidadora principal", "Persona de contacto",
                     "Persona de contacte"),
    kin=("hija", "hijo", "esposa", "esposo", "marido", "mujer", "madre", "padre", "hermana", "hermano",
         "sobrina", "sobrino", "nieta", "nieto", "pareja", "filla", "fill", "dona", "marit", "mare", "pare",
         "germana", "germà", "neboda", "nebot", "néta", "nét", "parella", "cuñada", "cuñado", "nuera", "yerno",
         "jove", "gendre", "cuidadora", "cuidador", "família", "familia", "la família", "la familia"),
    roles=("médico adjunto", "metge adjunt", "metgessa adjunta", "enfermera", "infermera", "logopeda",
           "fisioterapeuta", "neuropsicòloga", "neuropsicóloga", "trabajadora social", "treballadora social",
           "terapeuta ocupacional", "residente", "resident", "MIR", "médico residente", "neuróloga",
           "neurólogo", "neuròleg", "neuròloga", "psicóloga", "psicòloga", "supervisora"),
    closings=("Atentamente", "Un saludo", "Saludos cordiales", "Cordialmente", "Atentament", "Salutacions"),
    signed=("firmado por", "fdo.", "Fdo.", "firmat per", "signat per", "signat electrònicament per",
            "firmado electrónicamente por"),
    particles=("de", "del", "de la", "de los", "de las", "y", "i", "da", "dos", "das", "van", "von", "le"),
    stopwords="""
        paciente médico médica doctor doctora hospital servicio unidad planta habitación cama consulta
        urgencias el la los las un una unos unas y o de del en con sin por para a al que se su sus es fue
        ha hoy ayer mañana fecha nombre edad años meses días semanas horas domicilio teléfono tel
        lunes martes miércoles jueves viernes sábado domingo enero febrero marzo abril mayo junio julio
        agosto septiembre octubre noviembre diciembre pacient metge metgessa servei unitat habitació llit
        els les uns unes i amb sense per amb dia avui ahir data edat anys mesos dies setmanes hores
        dilluns dimarts dimecres dijous divendres dissabte diumenge gener febrer març maig juny juliol
        agost setembre novembre desembre neurología neurologia rehabilitación rehabilitació
        plaza calle avenida avda paseo carrer avinguda passeig plaça hospital clínica clinica centro
        servicio unidad sección oncología cirugía cardiología neumología pediatría urología dermatología
        oftalmología ginecología obstetricia psiquiatría radiología hematología nefrología urgencias
        medicina interna digestivo traumatología anestesiología reumatología endocrinología geriatría
        tras tel tfno teléfono email e-mail correo electrónico nºcol colegiado colegiada
    """,
    lexicon="es",
    max_tokens=5,
)  # fmt: skip

NAME_WORDS: dict[str, NameWords] = {"de": _DE, "fr": _FR, "nl": _NL, "es": _ES, "ca": _ES}

#: Languages with pack name rules.
NAME_LANGUAGES: tuple[str, ...] = tuple(NAME_WORDS)

#: English month and weekday abbreviations of the English stop words: given names elsewhere ("Jan").
ENGLISH_ABBREVIATIONS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "sun",
    ]
)

#: Nouns used as titles ("Ihre Patientin Renate X"): a single unlisted word after them is no name.
NOUN_TITLES = frozenset(
    [
        "pac.",
        "patient",
        "patientin",
        "patienten",
        "versicherte",
        "versicherter",
        "versicherten",
        "klient",
        "klientin",
        "pat.",
    ]
)

MONTH_WORDS = frozenset(
    [
        "januar",
        "februar",
        "märz",
        "april",
        "mai",
        "juni",
        "juli",
        "august",
        "september",
        "oktober",
        "november",
        "dezember",
        "avril",
        "mai",
        "juin",
        "août",
        "mei",
        "juni",
        "juli",
        "augustus",
    ]
)

CAP_PARTICLES = frozenset(
    {"le", "la", "de", "du", "des", "van", "von", "den", "der", "del", "da", "di", "ten", "ter"}
)

PARTICLES = frozenset({"van", "de", "von", "den", "der", "la", "del", "le", "du", "dos", "da", "y", "i"})

# PROFESSION after a work cue ("Bis zuletzt als Maurer tätig", "travaille comme boulanger", "werkzaam als
# timmerman", "trabajaba como minero"): the cue is required, a bare job word is never taken.
JOB_DE = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜa-zäöüß][a-zäöüß]+)*"

JOB_LOWER = r"[a-zà-öø-ÿ][a-zà-öø-ÿ'’\-]+"

PROFESSION_RES: dict[str, re.Pattern[str]] = {
    "de": re.compile(
        r"(?:\b(?:tätig|arbeitet|arbeitete|beschäftigt|angestellt|gearbeitet|zuletzt|beruflich|ehemaliger?|ehemals|"
        r"pensionierter?|berentete?r?|Ausbildung|arbeitete\s+er|arbeitete\s+sie|war|Versicherte|Versicherter)\b"
        r"[^\n;]{0,30}?\bals"
        r"|\bvon\s+Beruf|\bBeruf\s*:|\bTätigkeit\s*:|\bBerufstätigkeit\s*:)[ \t]+"
        rf"(?P<p>{JOB_DE})(?![\w\-])"
    ),
    "fr": re.compile(
        r"(?:\b[Tt]ravaill(?:e|ait|é)\s+(?:comme|en\s+tant\s+que)|\bexer[cç](?:e|ait)\s+(?:la\s+profession|le\s+métier)\s+d[e'’]"
        r"|\bprofession\s*:|\bmétier\s*:|\bde\s+profession|\bancien(?:ne)?|\best\s+(?=\S+\s+retraitée?\b))[ \t]*"
        rf"(?P<p>{JOB_LOWER}(?:[ ](?:de|d'|en|du)[ ]?{JOB_LOWER})?)(?![\w\-])"
    ),
    "nl": re.compile(
        r"(?:\b[Ww]erkzaam\s+als|\b[Ww]erkt\s+als|\b[Ww]erkte\s+als|\bberoep\s*:|\bvan\s+beroep|\bgepensioneerd)[ \t]+"
        rf"(?P<p>{JOB_LOWER})(?![\w\-])"
    ),
    "es": re.compile(
        r"(?:\b[Tt]rabaja(?:ba)?\s+(?:como|de)|\b[Tt]rabajó\s+como|\b[Tt]reballa(?:va)?\s+(?:com\s+a|de)|\bde\s+profesión|\bde\s+professió"
        r"|\bprofesión\s*:|\bprofessió\s*:|\bocupación\s*:|\bocupació\s*:|\bjubilad[oa]\s+de|\bjubilat\s+de)[ \t]+"
        rf"(?P<p>{JOB_LOWER}(?:[ ](?:de|d'|del)[ ]?{JOB_LOWER})?)(?![\w\-])"
    ),
}

#: Words after a work cue that are no profession ("ancien fumeur", "als Folge").
NOT_JOBS = frozenset(
    [
        "folge",
        "beispiel",
        "ursache",
        "grund",
        "erstes",
        "zweites",
        "nächstes",
        "letztes",
        "auch",
        "noch",
        "mit",
        "dem",
        "der",
        "die",
        "das",
        "ein",
        "eine",
        "fumeur",
        "fumeuse",
        "tabagique",
        "alcoolique",
        "buveur",
        "patient",
        "patiente",
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "du",
        "de",
        "en",
        "au",
        "van",
        "het",
        "een",
        "de",
        "en",
        "a",
        "la",
        "el",
        "los",
        "las",
        "un",
        "una",
        "en",
    ]
)
