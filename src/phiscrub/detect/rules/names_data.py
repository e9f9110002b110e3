"""Word lists of the English name rules (:mod:`.names`); NAME_STOPWORDS is also used by the language packs."""

from __future__ import annotations

# Words never taken as (part of) a name after a trigger (see NAME_STOPWORDS).
_STOPWORD_TEXT = """
    a an the and or nor but not no yes of on in at to from with without for per by via as is was were be been
    are am will would should could may might can has have had do does did this that these those it its he
    she they we you i me my his her their our your him them us who whom which what when where why how all
    any some each every other another same such than then there here also only just very more most less
    said says say saw seen see sees note notes noted visit visits appt appointment appointments office
    offices clinic clinics hospital hospitals service services team teams unit units floor ward room bed
    today tonight yesterday tomorrow now later soon again ago am pm next last first second night day
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april june july august september october november december jan feb mar apr
    jun jul aug sep sept oct nov dec
    patient patients pt pts client resident fellow intern attending physician physicians provider providers
    doctor doctors dr drs mr mrs ms miss mx prof professor nurse nurses nursing staff surgeon surgeons
    family primary care general internal emergency medicine medical surgery surgical cardiology neurology
    oncology radiology pathology nephrology pulmonology pulmonary psychiatry psychology pediatrics
    urology orthopedics orthopaedics dermatology gastroenterology endocrinology hematology rheumatology
    infectious disease diseases anesthesia anesthesiology obstetrics gynecology ophthalmology ent
    cardiothoracic vascular trauma critical palliative hospice rehab rehabilitation therapy
    gi ed er icu micu sicu ccu nicu picu or pacu ir cath lab labs
    md do rn np pa pac lpn cna crna dds dmd phd pharmd mph msn bsn dnp aprn fnp facs facc mbbs cgc lcsw
    licsw dpt otr slp rd rdn rt rrt emt ma ms mdiv bcc rdcs cpnp cnsc cphon ccrn ccm cnm ot pt psyd
    charge triage infusion research sending accepting receiving supervising covering consulting on-call
    night day evening primary bedside floor float home health hospice wound respite mother-baby l&d
    manager supervisor educator navigator coordinator practitioner station aide assistant director
    chaplain therapist technician tech specialist counselor worker veteran protocol spinal general local
    order orders recs recommendation recommendations aware notified updated paged called calling call
    plan follow up re copy cc signed dictated electronically reviewed review case discussed consult
    consulted consults consultation report reports result results name names number date time
    coffee clean bean right left both none unknown n/a na tbd pending same different new old
    home work school church store pharmacy insurance increase decrease continue start stop hold
    will would please thanks thank sincerely dear regards
    admitted discharged transferred refer referred referral
    mrn dob age sex exam dt dos acct ssn id rm ht wt bmi bp hr rr temp spo2 dx hx hpi ros
    stat prn po iv im sq bid tid qid qhs qd daily weekly monthly
    advisor telephone encounter line license shift progress tele collected employee medicaid medicare pager
    phone fax email mobile cell visit note signed routine admission assessment environmental acute request
    summary appeal certificate urgent expedited letter strain index consultant scribe access monitoring
    portal message financial healthy proband well active ill sick elderly young female male woman man boy
    girl infant child baby previously otherwise currently
"""

#: Words never taken as (part of) a name after a trigger, compared lower-case.
NAME_STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())
