"""Keyed surrogates: consistency, name forms, shapes, ages, and never the original value."""

from __future__ import annotations

import ipaddress
import re

import pytest

from phiscrub.errors import ConfigError
from phiscrub.resources import load_lexicon
from phiscrub.transform.dates import parse_date
from phiscrub.transform.surrogates import SurrogateGenerator, normalize_component

KEY = b"unit-test-key"


@pytest.fixture(scope="module")
def gen() -> SurrogateGenerator:
    return SurrogateGenerator(KEY)


# -- keys and consistency ------------------------------------------------------------------------

SAMPLES = [
    ("PATIENT", "John Smith"),
    ("DATE", "03/12/2019"),
    ("MEDICALRECORD", "MRN-00482913"),
    ("PHONE", "(617) 555-0123"),
    ("EMAIL", "j.smith@lakeview-clinic.org"),
    ("CITY", "Springfield"),
    ("HOSPITAL", "Lakeview General Hospital"),
    ("STREET", "12 Elm Street"),
]


@pytest.mark.parametrize(("label", "surface"), SAMPLES)
def test_same_key_same_surrogate_and_other_key_other_surrogate(label: str, surface: str) -> None:
    one = SurrogateGenerator(KEY).surrogate(label, surface, patient_id="p1", doc_id="d1")
    again = SurrogateGenerator(KEY.decode()).surrogate(label, surface, patient_id="p1", doc_id="d1")
    other = SurrogateGenerator(b"another-key").surrogate(label, surface, patient_id="p1", doc_id="d1")
    assert one == again
    assert one != other


def test_patient_scope_depends_on_the_patient_and_global_scope_does_not() -> None:
    names = ["John Smith", "Mary Jones", "Robert Garcia", "Anna Lopez", "Peter Quist"]
    patient = SurrogateGenerator(KEY, "patient")
    assert [patient.name(n, patient_id="p1") for n in names] == [
        patient.name(n, patient_id="p1") for n in names
    ]
    assert [patient.name(n, patient_id="p1") for n in names] != [
        patient.name(n, patient_id="p2") for n in names
    ]
    glob = SurrogateGenerator(KEY, "global")
    assert [glob.name(n, patient_id="p1") for n in names] == [glob.name(n, patient_id="p2") for n in names]
    assert glob.date_offset(patient_id="p1") == glob.date_offset(patient_id="p2")


def test_generator_rejects_bad_configuration_and_hides_the_key() -> None:
    with pytest.raises(ConfigError):
        SurrogateGenerator(b"")
    with pytest.raises(ConfigError):
        SurrogateGenerator(KEY, "ward")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        SurrogateGenerator(KEY, date_shift_range=(30, 33))
    with pytest.raises(ConfigError):
        SurrogateGenerator(KEY, age_over_89="round")  # type: ignore[arg-type]
    assert "unit-test-key" not in repr(SurrogateGenerator(KEY))


# -- names -----------------------------------------------------------------------------------------


def _person(gen: SurrogateGenerator) -> tuple[str, str]:
    first, last = gen.name("John Smith", patient_id="p1").split(" ")
    return first, last


def test_name_variants_map_to_one_surrogate_person_in_matching_form(gen: SurrogateGenerator) -> None:
    first, last = _person(gen)
    expected = {
        "Smith": last,
        "SMITH": last.upper(),
        "smith": last.lower(),
        "J. Smith": f"{first[0]}. {last}",
        "Smith, John": f"{last}, {first}",
        "SMITH, JOHN": f"{last.upper()}, {first.upper()}",
        "JOHN SMITH": f"{first.upper()} {last.upper()}",
        "john smith": f"{first.lower()} {last.lower()}",
        "John S.": f"{first} {last[0]}.",
        "Smith's": f"{last}'s",
        "John Smith Jr.": f"{first} {last} Jr.",
        "JS": f"{first[0]}{last[0]}",
    }
    for surface, want in expected.items():
        assert gen.name(surface, patient_id="p1") == want, surface


def test_name_initial_of_the_surrogate_is_shared_by_full_names_and_initials(gen: SurrogateGenerator) -> None:
    first, _ = _person(gen)
    assert gen.name("J.", patient_id="p1") == f"{first[0]}."
    assert gen.name("J. A. Smith", patient_id="p1").startswith(f"{first[0]}. ")


def test_hyphenated_surnames_map_part_by_part(gen: SurrogateGenerator) -> None:
    garcia = gen.name("Garcia", patient_id="p1")
    lopez = gen.name("Lopez", patient_id="p1")
    assert gen.name("Garcia-Lopez", patient_id="p1") == f"{garcia}-{lopez}"
    assert gen.name("Ana Garcia-Lopez", patient_id="p1").endswith(f" {garcia}-{lopez}")


def test_accents_and_case_do_not_change_the_mapping(gen: SurrogateGenerator) -> None:
    assert gen.name("José Martínez") == gen.name("Jose Martinez")
    assert gen.name("JOSÉ MARTÍNEZ") == gen.name("Jose Martinez").upper()
    assert normalize_component("Martínez") == "martinez"


def test_titles_particles_and_credentials_inside_a_span_are_kept(gen: SurrogateGenerator) -> None:
    assert gen.name("Dr. John Smith", patient_id="p1") == "Dr. " + gen.name("John Smith", patient_id="p1")
    assert gen.name("Maria de la Cruz").split(" ")[1:3] == ["de", "la"]


@pytest.mark.parametrize(
    ("surface", "lexicon"), [("Margaret", "first_names_female"), ("Robert", "first_names_male")]
)
def test_first_names_keep_gender(gen: SurrogateGenerator, surface: str, lexicon: str) -> None:
    names = set(load_lexicon(lexicon))
    for pid in ("p1", "p2", "p3", "p4"):
        assert gen.name(f"{surface} Quist", patient_id=pid).split(" ")[0] in names


def test_usernames_and_email_local_parts_follow_the_person(gen: SurrogateGenerator) -> None:
    first, last = _person(gen)
    ascii_last = re.sub(r"[^a-z]", "", normalize_component(last))
    assert gen.surrogate("USERNAME", "jsmith", patient_id="p1") == f"{first[0].lower()}{ascii_last}"
    assert gen.surrogate("USERNAME", "John Smith", patient_id="p1") == f"{first} {last}"
    assert (
        gen.surrogate("EMAIL", "jsmith@gmail.com", patient_id="p1")
        == f"{first[0].lower()}{ascii_last}@gmail.com"
    )


def test_spanish_and_catalan_documents_draw_spanish_names(gen: SurrogateGenerator) -> None:
    spanish = set(load_lexicon("first_names_male", "es")) | set(load_lexicon("first_names_female", "es"))
    surnames = set(load_lexicon("last_names", "es"))
    for lang in ("es", "ca"):
        first, last = gen.surrogate("PATIENT", "Jordi Puig", patient_id="p1", lang=lang).split(" ")
        assert first in spanish and last in surnames


def test_chinese_names_get_chinese_surrogates(gen: SurrogateGenerator) -> None:
    for surface in ("张伟", "王秀英", "欧阳娜娜"):
        new = gen.name(surface)
        assert new != surface and len(new) >= 2
        assert all("\u4e00" <= c <= "\u9fff" for c in new)
    assert gen.name("张伟") == gen.name("张伟")


# -- never the original ------------------------------------------------------------------------------

NEVER_SAME = [
    ("PATIENT", s)
    for s in [
        "John Smith",
        "Smith",
        "J. Smith",
        "Smith, John",
        "JS",
        "Ode Varnum",
        "María García López",
        "张伟",
    ]
] + [
    ("DOCTOR", "Alder Quist"),
    ("RELATIVE", "Anna"),
    ("USERNAME", "jsmith22"),
    ("USERNAME", "qx7"),
    ("DATE", "03/12/2019"),
    ("DATE", "March 12th"),
    ("DATE", "Christmas"),
    ("DATE", "12 mars 2019"),
    ("MEDICALRECORD", "0012345"),
    ("SSN", "123-45-6789"),
    ("IDNUM", "S19-4523"),
    ("PHONE", "617-555-0123"),
    ("FAX", "+34 93 123 45 67"),
    ("ZIP", "02114"),
    ("EMAIL", "info@lakeview.org"),
    ("URL", "https://www.lakeview.org/portal"),
    ("IPADDRESS", "10.0.0.1"),
    ("HOSPITAL", "Lakeview General Hospital"),
    ("HOSPITAL", "LGH"),
    ("ORGANIZATION", "Acme Insurance"),
    ("CITY", "Springfield"),
    ("STATE", "MA"),
    ("STATE", "Ohio"),
    ("COUNTRY", "France"),
    ("STREET", "12 Elm Street"),
    ("LOCATION", "Lake Quist"),
    ("DEPARTMENT", "Cardiology"),
    ("DEPARTMENT", "MICU"),
    ("ROOM", "412B"),
    ("PROFESSION", "teacher"),
    ("DEVICE", "SN-AB12C3456"),
    ("VEHICLE", "7ABC123"),
    ("BIOID", "FP-20190312"),
    ("AGE", "92"),
    ("CITY", "北京"),
]


@pytest.mark.parametrize(("label", "surface"), NEVER_SAME)
@pytest.mark.parametrize("patient", ["p1", None])
def test_no_surrogate_equals_its_original(label: str, surface: str, patient: str | None) -> None:
    gen = SurrogateGenerator(KEY)
    new = gen.surrogate(label, surface, patient_id=patient, doc_id="d1")
    assert new != surface
    assert normalize_component(new) != normalize_component(surface)


# -- dates ------------------------------------------------------------------------------------------


def test_date_offset_is_a_multiple_of_seven_in_range() -> None:
    gen = SurrogateGenerator(KEY)
    offsets = {gen.date_offset(patient_id=f"p{i}") for i in range(60)}
    assert all(o % 7 == 0 and 28 <= o <= 364 for o in offsets)
    assert len(offsets) > 10
    assert SurrogateGenerator(KEY, date_shift_range=(7, 7)).date_offset(patient_id="x") == 7


def test_date_offset_is_per_patient_else_per_document() -> None:
    gen = SurrogateGenerator(KEY)
    assert gen.date_offset("p1", "d1") == gen.date_offset("p1", "d2")
    docs = {gen.date_offset(None, f"d{i}") for i in range(20)}
    assert len(docs) > 1


@pytest.mark.parametrize(
    ("first", "second"),
    [("03/01/2019", "03/11/2019"), ("March 1, 2019", "March 11, 2019"), ("2019-12-28", "2020-01-07")],
)
def test_dates_of_one_patient_keep_their_interval_and_weekday(first: str, second: str) -> None:
    import datetime as dt

    gen = SurrogateGenerator(KEY)

    def as_date(surface: str) -> dt.date:
        parsed = parse_date(surface)
        assert parsed is not None and parsed.year and parsed.month and parsed.day
        return dt.date(parsed.year, parsed.month, parsed.day)

    new_first = gen.date(first, patient_id="p1", doc_id="a")
    new_second = gen.date(second, patient_id="p1", doc_id="b")
    assert as_date(new_second) - as_date(new_first) == dt.timedelta(days=10)
    assert as_date(new_first).weekday() == as_date(first).weekday()
    offset = (as_date(first) - as_date(new_first)).days
    assert offset == gen.date_offset(patient_id="p1")


@pytest.mark.parametrize("surface", ["Tuesday", "TUESDAY", "Thu"])
def test_weekday_names_stay_the_same(surface: str) -> None:
    assert SurrogateGenerator(KEY).date(surface, patient_id="p1") == surface


def test_unparseable_dates_keep_their_shape() -> None:
    new = SurrogateGenerator(KEY).date("12 março 2019", doc_id="d1")
    assert re.fullmatch(r"\d\d março \d{4}", new) and new != "12 março 2019"


# -- shapes ------------------------------------------------------------------------------------------


def _shape(text: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize(
    ("label", "surface"),
    [
        ("MEDICALRECORD", "MRN-00482913"),
        ("MEDICALRECORD", "4471982"),
        ("SSN", "123-45-6789"),
        ("ACCOUNT", "ACCT 0048-213"),
        ("HEALTHPLAN", "1EG4-TE5-MK72"),
        ("LICENSE", "md12345"),
        ("DEVICE", "PJN123456H"),
        ("VEHICLE", "KX19 BMV"),
        ("BIOID", "FP-20190312-0042"),
        ("IDNUM", "S19-4523"),
        ("ZIP", "02114-3321"),
        ("ZIP", "SW1A 1AA"),
        ("PHONE", "(617) 555-0123"),
        ("PHONE", "617.555.0123 x204"),
        ("FAX", "+44 20 7946 0958"),
        ("PHONE", "138 1234 5678"),
        ("ROOM", "412B"),
        ("ROOM", "ICU-12"),
    ],
)
def test_identifiers_and_numbers_keep_their_shape(label: str, surface: str) -> None:
    gen = SurrogateGenerator(KEY)
    new = gen.surrogate(label, surface, patient_id="p1")
    assert _shape(new) == _shape(surface)
    assert new != surface


@pytest.mark.parametrize(
    "surface", ["(617) 555-0123", "617-555-0123", "6175550123", "+1 617 555 0123", "1-617-555-0123"]
)
def test_us_phone_area_and_exchange_codes_do_not_start_with_0_or_1(surface: str) -> None:
    for i in range(40):
        new = SurrogateGenerator(KEY).phone(surface, patient_id=f"p{i}")
        digits = re.sub(r"\D", "", new)
        if len(digits) == 11:
            assert digits[0] == "1"
            digits = digits[1:]
        assert digits[0] not in "01" and digits[3] not in "01"


@pytest.mark.parametrize("surface", ["10.0.0.1", "192.168.14.22", "8.8.8.8", "172.16.254.3/24"])
def test_ip_addresses_stay_valid(surface: str) -> None:
    for i in range(20):
        new = SurrogateGenerator(KEY).ip(surface, patient_id=f"p{i}")
        address, _, suffix = new.partition("/")
        ipaddress.IPv4Address(address)
        assert [len(o) for o in address.split(".")] == [len(o) for o in surface.partition("/")[0].split(".")]
        assert suffix == surface.partition("/")[2]


@pytest.mark.parametrize(
    ("surface", "tld"),
    [("j.smith@lakeview-clinic.org", ".org"), ("nurse22@mail.quist.co.uk", ".co.uk"), ("x@y.com", ".com")],
)
def test_emails_keep_local_at_domain_and_tld(surface: str, tld: str) -> None:
    new = SurrogateGenerator(KEY).email(surface)
    assert re.fullmatch(r"[^@\s]+@[^@\s]+", new)
    assert new.endswith(tld) and new != surface
    assert new.split("@")[1] != surface.split("@")[1]


@pytest.mark.parametrize(
    ("surface", "scheme", "tld"),
    [
        ("https://www.lakeview.org/patients/portal", "https://", ".org"),
        ("http://quistclinic.com/login?id=42", "http://", ".com"),
        ("www.varnum-health.net", "", ".net"),
    ],
)
def test_urls_keep_scheme_and_tld(surface: str, scheme: str, tld: str) -> None:
    new = SurrogateGenerator(KEY).url(surface)
    assert new.startswith(scheme) and new != surface
    host = new[len(scheme) :].split("/")[0]
    assert host.endswith(tld)


# -- ages and lexicon picks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("surface", "mode", "expected"),
    [
        ("92", "bucket", "90+"),
        ("104", "bucket", "90+"),
        ("90", "bucket", "90+"),
        ("89", "bucket", "89"),
        ("45", "bucket", "45"),
        ("92", "keep", "92"),
        ("sixty", "bucket", "sixty"),
    ],
)
def test_ages_over_89_become_90_plus(surface: str, mode: str, expected: str) -> None:
    assert SurrogateGenerator(KEY, age_over_89=mode).age(surface) == expected  # type: ignore[arg-type]


def test_age_perturbation_moves_young_ages_a_little() -> None:
    gen = SurrogateGenerator(KEY, age_perturb=3)
    for age in (0, 5, 45, 88, 89):
        new = int(gen.age(str(age), patient_id="p1"))
        assert new != age and abs(new - age) <= 3 and 0 <= new <= 89
    assert gen.age("93") == "90+"


@pytest.mark.parametrize(
    ("label", "surface", "check"),
    [
        ("CITY", "SPRINGFIELD", str.isupper),
        ("CITY", "springfield", str.islower),
        ("HOSPITAL", "LAKEVIEW GENERAL HOSPITAL", str.isupper),
        ("STATE", "MA", lambda s: s in load_lexicon("states_abbr")),
        ("STATE", "Ohio", lambda s: s in load_lexicon("states")),
        ("COUNTRY", "France", lambda s: s in load_lexicon("countries")),
        ("DEPARTMENT", "MICU", lambda s: s in load_lexicon("department_abbreviations")),
        ("HOSPITAL", "LGH", lambda s: re.fullmatch(r"[A-Z]{3}", s) is not None),
        ("STREET", "12 Elm Street", lambda s: re.fullmatch(r"[1-9]\d [^\d]+ [A-Z][a-z]+", s) is not None),
        (
            "STREET",
            "1200 N. Main St., Apt 4",
            lambda s: re.fullmatch(r"\d{4} N\. .+ [A-Za-z]+\., Apt \d", s) is not None,
        ),
        (
            "STREET",
            "C/ Mallorca 245, 3r 2a",
            lambda s: re.fullmatch(r"C/ .+ [1-9]\d\d, [1-9]r [1-9]a", s) is not None,
        ),
        ("CITY", "北京", lambda s: s in load_lexicon("cities", "zh")),
    ],
)
def test_lexicon_picks_keep_case_and_form(label: str, surface: str, check: object) -> None:
    new = SurrogateGenerator(KEY).surrogate(label, surface, patient_id="p1")
    assert callable(check) and check(new), new


def test_coarse_labels_are_handled_by_form() -> None:
    gen = SurrogateGenerator(KEY)
    assert "@" in gen.surrogate("CONTACT", "a.b@quist.org")
    assert gen.surrogate("CONTACT", "10.1.2.3").count(".") == 3
    assert _shape(gen.surrogate("ID", "AB-1234")) == "AA-9999"
    assert gen.surrogate("NAME", "John Smith") == gen.name("John Smith")


# -- issue 18, case 4: case- and form-insensitive name keys --------------------------------------


@pytest.mark.parametrize("surface", ["John", "JOHN", "john"])
def test_case4_lone_first_name_in_any_case_maps_like_the_full_name(
    gen: SurrogateGenerator, surface: str
) -> None:
    roles = gen.name_roles("John Smith")
    first, _ = gen.name("John Smith", patient_id="p1").split(" ")
    got = gen.name(surface, patient_id="p1", roles=roles)
    assert got.casefold() == first.casefold()
    assert got == {"John": first, "JOHN": first.upper(), "john": first.lower()}[surface]


def test_case4_name_roles_come_from_full_names_only(gen: SurrogateGenerator) -> None:
    assert gen.name_roles("John Smith") == {"john": "first", "smith": "last"}
    assert gen.name_roles("SMITH, JOHN") == {"smith": "last", "john": "first"}
    assert gen.name_roles("Anne-Marie Smith-Jones") == {
        "anne": "first",
        "marie": "first",
        "smith": "last",
        "jones": "last",
    }
    assert gen.name_roles("Smith") == {}
    assert gen.name_roles("Dr. Smith") == {}


def test_case4_comma_form_and_full_name_map_token_by_token(gen: SurrogateGenerator) -> None:
    first, last = gen.name("John Smith", patient_id="p1").split(" ")
    assert gen.name("SMITH, JOHN", patient_id="p1") == f"{last.upper()}, {first.upper()}"


def test_case4_hyphenated_names_get_per_part_consistent_surrogates(gen: SurrogateGenerator) -> None:
    anne, smith = gen.name("Anne Smith", patient_id="p1").split(" ")
    marie, jones = gen.name("Marie Jones", patient_id="p1").split(" ")
    assert gen.name("Anne-Marie Smith-Jones", patient_id="p1") == f"{anne}-{marie} {smith}-{jones}"
    assert gen.name("ANNE-MARIE SMITH-JONES", patient_id="p1") == f"{anne}-{marie} {smith}-{jones}".upper()


def test_case4_invalid_date_is_shifted_like_the_months_last_day(gen: SurrogateGenerator) -> None:
    clamped = gen.date("02/28/2019", patient_id="p1")
    assert gen.date("02/30/2019", patient_id="p1") == clamped
    assert parse_date(clamped) is not None
