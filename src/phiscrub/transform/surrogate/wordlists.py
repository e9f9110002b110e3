"""Word lists and format tables of the surrogate engine (one concept: data, no logic).

Keyed redaction reads the name-form words (titles, suffixes, particles), street and web vocabularies;
seeded filling reads the weighted date, phone and identifier formats, the common US names and the
facility words. The bundled lexicons (names, towns, hospitals ...) are files under
``phiscrub/resources`` read through :func:`phiscrub.resources.load_lexicon`.
"""

from __future__ import annotations

# --- keyed redaction ---------------------------------------------------------------------------

NAME_LABELS = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "NAME"})
SHAPE_LABELS = frozenset(
    {"IDNUM", "MEDICALRECORD", "SSN", "ACCOUNT", "HEALTHPLAN", "LICENSE", "DEVICE", "VEHICLE", "BIOID", "ID"}
)
PICK_LEXICON = {
    "HOSPITAL": "hospitals",
    "ORGANIZATION": "companies",
    "CITY": "cities",
    "STATE": "states",
    "COUNTRY": "countries",
    "LOCATION": "cities",
    "DEPARTMENT": "departments",
    "PROFESSION": "professions",
}

TITLES = frozenset(
    [
        "dr",
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "prof",
        "sr",
        "sra",
        "srta",
        "dra",
        "sir",
        "rev",
        "fr",
        "mme",
        "mlle",
        "herr",
        "frau",
    ]
)
SUFFIXES = frozenset(
    [
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "md",
        "do",
        "phd",
        "rn",
        "np",
        "pa",
        "dds",
        "dmd",
        "pharmd",
        "lpn",
        "cnm",
        "crna",
        "facs",
        "facp",
        "mph",
        "msn",
        "bsn",
        "esq",
    ]
)
PARTICLES = frozenset(
    [
        "van",
        "von",
        "de",
        "del",
        "della",
        "der",
        "den",
        "la",
        "le",
        "da",
        "di",
        "du",
        "dos",
        "das",
        "y",
        "i",
        "bin",
        "al",
        "ter",
        "ten",
    ]
)
STREET_ABBR = {
    "street": "St", "avenue": "Ave", "road": "Rd", "drive": "Dr", "lane": "Ln", "boulevard": "Blvd",
    "court": "Ct", "place": "Pl", "terrace": "Ter", "circle": "Cir", "parkway": "Pkwy",
    "highway": "Hwy", "square": "Sq", "trail": "Trl", "way": "Way",
}  # fmt: skip
DIRECTIONS = frozenset(["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"])
KEEP_DOMAIN_LABELS = frozenset(
    [
        "www",
        "mail",
        "email",
        "smtp",
        "portal",
        "mychart",
        "my",
        "secure",
        "login",
        "patient",
        "patients",
        "health",
        "app",
    ]
)
PUBLIC_MAIL = frozenset(
    [
        "gmail",
        "yahoo",
        "hotmail",
        "outlook",
        "aol",
        "icloud",
        "protonmail",
        "live",
        "msn",
        "comcast",
        "verizon",
        "att",
    ]
)
# Generic words that stand in for any word of a URL path, so paths stay readable and carry nothing.
PATH_WORDS = (
    "about", "appointments", "billing", "care", "clinic", "contact", "education", "forms", "health", "home",
    "info", "login", "news", "patients", "portal", "records", "resources", "services", "staff", "visit",
)  # fmt: skip
KEEP_PATH_WORDS = frozenset(
    [
        "portal",
        "login",
        "patient",
        "patients",
        "health",
        "appointments",
        "records",
        "index",
        "html",
        "htm",
        "php",
        "aspx",
        "en",
        "es",
        "home",
        "forms",
        "results",
        "pay",
        "billing",
        "mychart",
        "signup",
        "register",
        "www",
    ]
)
SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "nhs", "edu", "gob"})

# --- seeded filling ----------------------------------------------------------------------------

# Date templates by language, with weights. Variety here is what a tagger learns from.
DATE_FORMATS: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("{MM}/{DD}/{YYYY}", 20), ("{M}/{D}/{YYYY}", 14), ("{M}/{D}/{YY}", 8), ("{MM}/{DD}/{YY}", 3),
        ("{YYYY}-{MM}-{DD}", 10), ("{Month} {D}, {YYYY}", 10), ("{Mon} {D}, {YYYY}", 6),
        ("{D} {Mon} {YYYY}", 5), ("{DD}-{Mon}-{YYYY}", 3), ("{D}-{MON}-{YYYY}", 2),
        ("{Month} {Do}, {YYYY}", 3), ("{Do} of {Month} {YYYY}", 1), ("{MM}-{DD}-{YYYY}", 4),
        ("{M}/{D}", 5), ("{Month} {D}", 3), ("{Mon}. {D}", 1), ("{Month} {Do}", 1), ("{M}-{D}", 1),
        ("{DD}.{MM}.{YYYY}", 1), ("{MON} {D}, {YYYY}", 1), ("{Weekday}, {Month} {D}, {YYYY}", 1),
        ("{Wkd} {M}/{D}", 1), ("{YYYY}{MM}{DD}", 1), ("{D} {Month} {YYYY}", 2),
    ],
    "es": [
        ("{DD}/{MM}/{YYYY}", 30), ("{D}/{M}/{YYYY}", 14), ("{DD}/{MM}/{YY}", 8),
        ("{D} de {month:es} de {YYYY}", 14), ("{DD}-{MM}-{YYYY}", 8), ("{YYYY}-{MM}-{DD}", 4),
        ("{D}/{M}", 5), ("{D} de {month:es}", 5), ("{DD}.{MM}.{YYYY}", 3), ("{D} {mon:es} {YYYY}", 2),
        ("{D}-{mon:es}-{YYYY}", 1), ("{weekday:es} {D} de {month:es}", 1),
    ],
    "ca": [
        ("{DD}/{MM}/{YYYY}", 30), ("{D}/{M}/{YYYY}", 14), ("{DD}/{MM}/{YY}", 8),
        ("{D} {de:ca}{month:ca} de {YYYY}", 12), ("{D} {de:ca}{month:ca} del {YYYY}", 3),
        ("{DD}-{MM}-{YYYY}", 8), ("{YYYY}-{MM}-{DD}", 4), ("{D}/{M}", 5), ("{D} {de:ca}{month:ca}", 5),
        ("{DD}.{MM}.{YYYY}", 3), ("{weekday:ca} {D} {de:ca}{month:ca}", 1),
    ],
    "zh": [
        ("{YYYY}年{M}月{D}日", 40), ("{YYYY}-{MM}-{DD}", 30), ("{YYYY}/{M}/{D}", 8), ("{YYYY}.{MM}.{DD}", 5),
        ("{YYYY}年{MM}月{DD}日", 10), ("{M}月{D}日", 5), ("{YYYY}/{MM}/{DD}", 4),
    ],
}  # fmt: skip
#: Dates without a year, as running text writes them ("BCx 3/14", "since 4/7", "jan 3", "Mar 14th").
EN_MONTH_DAY: list[tuple[str, int]] = [
    ("{M}/{D}", 40), ("{MM}/{DD}", 5), ("{Mon} {D}", 12), ("{mon} {D}", 6), ("{Mon} {Do}", 6), ("{Month} {D}", 8),
    ("{Month} {Do}", 3), ("{M}-{D}", 3), ("{Mon}. {D}", 3), ("{MON} {D}", 1), ("{mon} {Do}", 2),
]  # fmt: skip
#: Dates after a diagnosis or procedure in a history list ("CABG 2004", "CVA 3/98", "dx'd 11/2019").
EN_HISTORY_FORMATS: list[tuple[str, int]] = [
    ("{YYYY}", 50), ("{M}/{YY}", 15), ("{MM}/{YY}", 4), ("{M}/{YYYY}", 10), ("{Month} {YYYY}", 8),
    ("{Mon} {YYYY}", 5), ("'{YY}", 4), ("{M}/{D}/{YY}", 4),
]  # fmt: skip
YEARISH_FORMATS: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("{YYYY}", 50),
        ("{M}/{YY}", 6),
        ("{MM}/{YY}", 2),
        ("{Month} {YYYY}", 16),
        ("{M}/{YYYY}", 8),
        ("{MM}/{YYYY}", 4),
        ("'{YY}", 4),
        ("{Season} {YYYY}", 4),
        ("{Mon} {YYYY}", 4),
        ("{Month}", 2),
        ("{M}/{D}/{YYYY}", 8),
        ("{Month} {D}, {YYYY}", 5),
    ],
    "es": [("{YYYY}", 50), ("{month:es} de {YYYY}", 20), ("{MM}/{YYYY}", 15), ("{DD}/{MM}/{YYYY}", 15)],
    "ca": [("{YYYY}", 50), ("{month:ca} de {YYYY}", 20), ("{MM}/{YYYY}", 15), ("{DD}/{MM}/{YYYY}", 15)],
    "zh": [("{YYYY}年", 45), ("{YYYY}年{M}月", 30), ("{YYYY}-{MM}", 10), ("{YYYY}年{M}月{D}日", 15)],
}
TIMED_FORMATS = {"en", "es", "ca", "zh"}  # when a clock time follows, write a full date

# Shapes: '#' digit, '%' upper-case letter, '^' lower-case letter, '&' digit or upper-case letter.
ID_SHAPES: dict[str, dict[str, list[str]]] = {
    "MEDICALRECORD": {
        "en": ["#######", "########", "##-##-##", "%#######", "\\MR\\N-########", "00#######", "###-##-##",
               "%%######", "#########", "###-####"],
        "es": ["#######", "########", "%########", "##.###.###", "HC-######"],
        "zh": ["########", "ZY########", "#######", "##########"],
    },
    "IDNUM": {
        "en": ["#######", "%%-##-#####", "S##-#####", "%###-####", "ID\\N-####-#####", "########",
               "#####-%", "%%%######", "#-#######", "%##-######"],
        "es": ["########", "%%-######", "#######/##", "EP-#######"],
        "zh": ["##########", "%%########", "########"],
    },
    "SSN": {
        "en": ["###-##-####", "#########", "### ## ####"],
        "es": ["########%", "%#######%", "##.###.###-%"],
    },
    "HEALTHPLAN": {
        "en": ["%%%#########", "%#########", "#%%#-%%#-%%##", "%########", "####-####-####", "%%%-#####-##",
               "W#########"],
        "es": ["%%%% ##########", "%%%%##########", "#### #### #### ####", "ES########"],
        "zh": ["##########", "%%##########", "############"],
    },
    "ACCOUNT": {
        "en": ["########", "ACCT-#######", "##-#######", "%#########", "####-####-##", "#########"],
        "es": ["##########", "ES## #### #### ## ##########", "########"],
        "zh": ["##########", "################"],
    },
    "LICENSE": {
        "en": ["%%#######", "\\MD######", "%######", "R\\N-######", "##########", "%%-####-###", "%%#######"],
        "es": ["#########", "## ## #####", "######"],
        "zh": ["###############", "##############"],
    },
    "DEVICE": {
        "en": ["S\\N-%%##%####", "%%%######%", "####-%%%-####", "%%%###-#####", "##%%####", "%%&&&&&&&&"],
        "zh": ["%%##########", "S\\N########"],
    },
    "VEHICLE": {
        "en": ["#%%%###", "%%%-####", "%%% ####", "%%#-####", "#%%%##"],
        "es": ["#### %%%", "####-%%%", "%-####-%%"],
    },
    "BIOID": {
        "en": ["FP-########", "BIO-#####", "PS-####-###", "%%########", "FPR-####-####", "%%-######"],
        "zh": ["%%##########", "##########"],
    },
}  # fmt: skip
UNIT_SHAPES = ["##", "#", "###", "M-##", "Medic ##", "A##", "Unit ##"]
ZH_PLATE_PREFIX = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
PHONE_SHAPES: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("(N##) N##-####", 30), ("N##-N##-####", 30), ("N##.N##.####", 10), ("N##N######", 5),
        ("+1 N## N## ####", 5), ("1-N##-N##-####", 5), ("N##-N##-#### ext. ###", 3), ("(N##)N##-####", 5),
        ("N##-####", 4), ("N## N## ####", 3),
    ],
    "es": [
        ("9# ### ## ##", 25), ("6## ### ###", 25), ("+34 6## ## ## ##", 10), ("9########", 15),
        ("6########", 10), ("+34 9## ### ###", 10), ("93 ### ## ##", 5),
    ],
    "zh": [("1~#########", 40), ("1~# #### ####", 15), ("1~#-####-####", 5), ("0##-########", 20),
           ("0###-#######", 10), ("+86 1~# #### ####", 10), ("(0##)########", 5)],
}  # fmt: skip
MAIL_PROVIDERS = {
    "en": ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "aol.com", "icloud.com"],
    "es": ["gmail.com", "hotmail.com", "yahoo.es", "outlook.es", "telefonica.net"],
    "zh": ["163.com", "qq.com", "126.com", "sina.com", "foxmail.com"],
}
INSTITUTION_TLDS = {
    "en": ["org", "org", "com", "net", "edu"],
    "es": ["es", "cat", "org", "com"],
    "zh": ["cn", "com.cn", "com"],
}
URL_PATHS = ["", "", "/portal", "/patients", "/login", "/appointments", "/patient-portal", "/records",
              "/forms/intake", "/billing", "/en/home", "/resources/education"]  # fmt: skip
ROOM_SHAPES = {"en": ["###", "####", "#%", "##-#", "%-###", "###%", "##", "###-#", "%###"],
                "es": ["###", "##", "###-%", "#.##", "%-##"], "zh": ["##", "#", "###", "##-#", "#%"]}  # fmt: skip
#: Street suffixes drawn for English fills, full and abbreviated (the keyed suffixes minus the rarer ones).
EN_STREET_SUFFIX = [
    (full.title(), STREET_ABBR[full])
    for full in ("street", "avenue", "road", "drive", "lane", "boulevard", "court", "place", "way", "terrace",
                 "circle", "parkway")
]  # fmt: skip

# The commonest US given names and surnames: real US notes are full of them ("daughter mary", "per
# J. SMITH"), and a tagger trained only on the 29-locale lists rarely sees a plain "Mary" or "Smith".
US_FEMALE = ("Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen",
              "Lisa", "Nancy", "Betty", "Sandra", "Margaret", "Ashley", "Kimberly", "Emily", "Donna", "Michelle",
              "Carol", "Amanda", "Melissa", "Deborah", "Stephanie", "Dorothy", "Rebecca", "Sharon", "Laura",
              "Cynthia", "Amy", "Kathleen", "Angela", "Shirley", "Brenda", "Emma", "Anna", "Pamela", "Nicole",
              "Ruth", "Katherine", "Christine", "Debra", "Rachel", "Carolyn", "Janet", "Maria", "Heather", "Diane",
              "Julie", "Joyce", "Evelyn", "Frances", "Joan", "Alice", "Jean", "Judy", "Gloria", "Rose", "Ann")  # fmt: skip
US_MALE = ("James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph", "Thomas", "Christopher",
            "Charles", "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Andrew", "Paul", "Joshua",
            "Kenneth", "Kevin", "Brian", "George", "Timothy", "Ronald", "Jason", "Edward", "Jeffrey", "Ryan",
            "Jacob", "Gary", "Nicholas", "Eric", "Jonathan", "Stephen", "Larry", "Justin", "Scott", "Brandon",
            "Benjamin", "Samuel", "Gregory", "Frank", "Raymond", "Patrick", "Jack", "Dennis", "Jerry", "Tyler",
            "Walter", "Peter", "Harold", "Douglas", "Henry", "Carl", "Arthur", "Roger", "Joe", "Bill")  # fmt: skip
US_LAST = ("Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
            "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
            "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
            "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
            "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Murphy",
            "Kelly", "Sullivan", "O'Brien", "Walsh", "McCarthy", "Doyle", "Ryan", "Cohen", "Patel", "Kim", "Chen",
            "Shah", "Reilly", "Fitzgerald", "Brennan", "Gallagher", "Quinn", "Burke", "Lynch")  # fmt: skip
#: Share of English person names drawn from the common-US lists above.
US_NAME_SHARE = 0.45

# Facility names built from common words: what real US notes call their hospitals and homes.
SAINTS = ("Mary", "Joseph", "Luke", "Elizabeth", "Francis", "Vincent", "Anne", "John", "Mark", "Peter", "Paul",
           "Michael", "Jude", "Catherine", "Agnes", "Anthony", "Clare", "Margaret", "Patrick", "Rose", "Theresa",
           "Raphael", "Barnabas", "Cloud", "Charles", "Dominic", "Helena", "Monica", "Thomas", "Bernard")  # fmt: skip
VIRTUE_NAMES = ("Good Samaritan", "Mercy", "Sacred Heart", "Holy Cross", "Providence", "Baptist", "Methodist",
                 "Presbyterian", "Beth Israel", "Holy Family", "Our Lady of Lourdes", "Hope", "Grace", "Trinity",
                 "Good Shepherd", "Covenant", "Christ", "Bethany", "Resurrection", "Shriners", "Genesis",
                 "Advent", "Faith", "Charity", "Harmony", "Unity", "Liberty", "Heritage", "Pilgrim")  # fmt: skip
PLACE_WORDS = ("Lakeside", "Riverside", "Hillcrest", "Fairview", "Parkview", "Bayview", "Brookside", "Meadowbrook",
                "Cedar Ridge", "Pine Ridge", "Oak Hill", "Maple Grove", "Sunrise", "Valley", "Mountain View",
                "Highland", "Westwood", "Northside", "Seaside", "Harbor", "Spring Hill", "Green Meadows",
                "Evergreen", "Willow Creek", "Lakeview", "Rivercrest", "Brookhaven", "Pleasant Valley", "Sunnyside",
                "Crestview", "Elmwood", "Golden Valley", "Silver Lake", "Twin Rivers", "Bay State", "Cape Cod",
                "North Shore", "South Shore", "Eastside", "Parkside", "Woodland", "Summit", "Pinewood", "Clearwater",
                "Stonebridge", "Autumn Ridge", "Briarwood", "Fox Run", "Heather Hill", "Rolling Hills")  # fmt: skip
HOSPITAL_SUFFIXES = [("Hospital", 30), ("Medical Center", 25), ("Regional Medical Center", 8), ("Health", 5),
                      ("Memorial Hospital", 6), ("Community Hospital", 6), ("Health Center", 5), ("", 15)]  # fmt: skip
HOME_SUFFIXES = ["Nursing Home", "Nursing and Rehab", "Rehab and Nursing Center", "Manor", "Senior Living",
                  "Skilled Nursing Facility", "Care Center", "Healthcare Center", "Assisted Living", "House",
                  "Rehabilitation and Nursing", "Gardens", "Village", "Hospice House"]  # fmt: skip
REHAB_SUFFIXES = ["Rehab", "Rehab", "Rehabilitation Hospital", "Rehab Center", "Rehabilitation Center",
                   "Rehabilitation Institute"]  # fmt: skip
# Care units and services that must never be drawn as a facility acronym (they are not PHI).
NOT_FACILITY_ACRONYMS = frozenset({
    "ICU", "CCU", "MICU", "SICU", "NICU", "PICU", "CICU", "CVICU", "TICU", "ED", "ER", "OR", "PACU", "SNF", "LTC",
    "LTAC", "LTACH", "IRF", "ALF", "ACU", "ECU", "EMU", "PCU", "IMC", "IMU", "MSU", "CDU", "ICN", "SCN", "L&D",
    "GI", "ENT", "OB", "PT", "OT", "RN", "MD", "NP", "PA", "DO", "CT", "MRI", "EKG", "ECG", "EEG", "EMS", "VNA",
    "DME", "PCP", "HCP", "DNR", "DNI", "MOLST", "POLST", "IV", "PO", "PRN", "ADL", "CHF", "COPD", "CAD", "HTN",
    "CKD", "ESRD", "AKI", "UTI", "MI", "CVA", "TIA", "PE", "DVT", "BMP", "CBC", "ABG", "VBG", "CMP", "LFT", "INR",
    "PTT", "TSH", "UA", "CXR", "KUB", "TTE", "TEE", "EGD", "ERCP", "PEG", "NGT", "OGT", "ETT", "TLC", "PICC",
    "CVC", "VAC", "SCD", "NSR", "SVT", "VT", "VF", "RVR", "AFIB", "SOB", "CP", "HA", "LOC", "AMS", "GCS", "CAM",
    "BPH", "BID", "TID", "QID", "QHS", "NPO", "DM", "HLD", "OSA", "BMI", "CPR", "ACLS", "BLS", "MVC", "GSW",
})  # fmt: skip

#: Catalan notes draw from the hand-written Catalan lists (``lexicons/es/<name>_ca.txt``) with these
#: probabilities, else from the Spanish lists (Catalan hospitals see many Spanish names).
CA_SHARE: dict[str, float] = {
    "first_names_female": 0.6,
    "first_names_male": 0.6,
    "last_names": 0.6,
    "cities": 0.85,
    "hospitals": 0.85,
    "departments": 1.0,
    "professions": 1.0,
}
# Catalan towns by province (for "[CITY] ([STATE])"); towns not listed are in Barcelona.
CA_PROVINCE_TOWNS: dict[str, tuple[str, ...]] = {
    "Girona": ("Girona", "Figueres", "Blanes", "Olot", "Salt", "Palafrugell", "Banyoles", "Ripoll",
               "Puigcerdà", "Lloret de Mar", "Sant Feliu de Guíxols", "La Bisbal d'Empordà"),
    "Lleida": ("Lleida", "Balaguer", "Tàrrega", "Mollerussa", "Solsona", "La Seu d'Urgell", "Tremp", "Sort",
               "Vielha"),
    "Tarragona": ("Tarragona", "Reus", "Tortosa", "Valls", "Cambrils", "Salou", "Amposta", "El Vendrell",
                  "Torredembarra", "Falset", "Móra d'Ebre", "Gandesa"),
}  # fmt: skip
# Chinese cities of the bundled list by province; municipalities and SARs get districts.
ZH_PROVINCE_CITIES: dict[str, tuple[str, ...]] = {
    "北京市": ("朝阳区", "海淀区", "东城区", "西城区", "丰台区"), "上海市": ("浦东新区", "徐汇区", "静安区", "黄浦区"),
    "天津市": ("和平区", "南开区", "河西区"), "重庆市": ("渝中区", "江北区", "沙坪坝区"),
    "香港特别行政区": ("九龙", "新界", "港岛"), "澳门特别行政区": ("氹仔", "路环", "澳门半岛"),
    "广东省": ("广州", "深圳", "东莞", "佛山", "惠州", "汕尾", "潮州"), "安徽省": ("合肥", "六安", "巢湖", "马鞍山"),
    "江苏省": ("南京", "张家港", "海门", "淮安"), "湖北省": ("武汉", "大冶", "宜都", "潜江", "荆门"),
    "辽宁省": ("沈阳", "兴城", "北镇", "辽阳", "阜新"), "广西壮族自治区": ("南宁", "合山", "柳州", "梧州"),
    "贵州省": ("贵阳", "六盘水", "关岭"), "内蒙古自治区": ("呼和浩特", "兴安盟", "通辽"), "福建省": ("福州", "宁德", "永安"),
    "河北省": ("石家庄", "辛集", "邯郸"), "黑龙江省": ("哈尔滨", "齐齐哈尔"), "湖南省": ("长沙", "嘉禾"), "台湾省": ("台北",),
    "新疆维吾尔自治区": ("乌鲁木齐",), "甘肃省": ("兰州",), "四川省": ("成都",), "西藏自治区": ("拉萨",), "云南省": ("昆明",),
    "浙江省": ("杭州",), "山西省": ("太原",), "山东省": ("济南",), "海南省": ("海口",), "青海省": ("西宁",),
    "陕西省": ("西安",), "宁夏回族自治区": ("银川",), "吉林省": ("长春",), "河南省": ("郑州",), "江西省": ("南昌",),
}  # fmt: skip
ZH_DISTRICTS = frozenset(c for k in ("北京市", "上海市", "天津市", "重庆市", "香港特别行政区", "澳门特别行政区")
                          for c in ZH_PROVINCE_CITIES[k])  # fmt: skip
VOWEL_START = tuple("aeiouàèéíïòóúüh")
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"

CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
