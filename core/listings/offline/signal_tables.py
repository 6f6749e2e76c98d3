"""Risk vocabulary: injections, counterfeit, battery, recall, medical and child-safety phrases."""

import re
from dataclasses import dataclass

from core.listings.offline.scoring import (
    BATTERY_HAZARD_PENALTY,
    COUNTERFEIT_PENALTY,
    MEDICAL_CLAIM_PENALTY,
    RECALL_PENALTY,
    REVIEW_RISK_SCORE_CAP,
    SEVERE_RISK_SCORE_CAP,
    UNVERIFIED_PENALTY,
)
from core.listings.offline.vocabulary import KNOWN_BRANDS, LUXURY_BRANDS

# --- Signals that need a person ------------------------------------------------------------------

INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
    r"(?:previous|prior|above|earlier|preceding|former|system|original)\s+"
    r"(?:instructions?|prompts?|"
    r"rules|directions|guidelines|messages?)"
    r"|\b(?:ignore|disregard)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:instructions?|rules|guidelines)\b"
    r"|\b(?:system|assistant|developer|user)\s*:\s*(?=(?:you|ignore|disregard|give|rate|score|"
    r"assign|set|mark|approve|always|never|do|the (?:listing|item|reviewer)|this (?:listing|item)))"
    r"|<\|?\s*(?:im_start|im_end|system|endoftext)\s*\|?>|\[\s*/?\s*(?:inst|system|sys)\s*\]"
    r"|\b(?:give|rate|score|assign|set|mark)\s+(?:this|it|the|my|me)?\s*"
    r"(?:listing|item|product|ad)?"
    r"\s*(?:an?\s+)?(?:quality[\s_]*)?(?:score|rating|grade)\s*(?:of|to|=|:|as)?\s*\d{1,3}"
    r"|\b(?:rate|score|grade)\s+(?:this|it|me|my listing|the listing)\s+"
    r"(?:a\s+|an\s+|as\s+)?\d{1,3}\b"
    r"|\b(?:quality[\s_]*score|requires[\s_]*human[\s_]*review|missing[\s_]*fields)\s*[:=]"
    r"|\byou\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:ai|assistant|reviewer|language model|llm|"
    r"chatgpt|gpt)\b"
    r"|\b(?:dear|attention|note to(?: the)?)\s+(?:ai|reviewer|assistant|llm|bot)\b"
    r"|\bdo\s*n[o']?t\s+(?:flag|report|penali[sz]e)\b"
    r"|\bnew\s+instructions?\s*:"
    r"|\b(?:must|should|has to)\s+be\s+(?:approved|accepted|rated\s+\d+|scored\s+\d+)\b",
    re.I)
SENTENCE_END = re.compile(r"[.!?\n]+")


@dataclass(frozen=True)
class Signal:
    """A phrase that sends the listing to a person, with what the seller is told."""

    pattern: re.Pattern[str]
    penalty: int
    issue: str  # "{match}" is replaced by the short matched phrase
    suggestion: str
    cap: int = REVIEW_RISK_SCORE_CAP  # highest score while a person has not cleared the risk
    scope: str = "all"  # which text is searched, see _SIGNAL_TEXT: context can make a word benign
    negatable: bool = False  # "never recalled" and "does not cure" are not claims


# Named conditions: claiming a product relieves or prevents one is a medical claim.
HEALTH_CONDITIONS = (
    "cancer", "tumou?rs?", "diabetes", "arthritis", "rheumatism", "rheumatoid", "gout",
    "fibromyalgia", "sciatica", "migraines?", "joint pain", "chronic pain", "nerve pain",
    "neuropathy", "tinnitus", "insomnia", "anxiety", "depression", "adhd", "autism", "asthma",
    "eczema", "psoriasis", "covid(?:-19)?", "hiv", "alzheimer'?s", "dementia", "parkinson'?s",
    "epilepsy", "heart disease", "high blood pressure", "hypertension", "cholesterol",
    "osteoporosis", "varicose veins", "hair loss", "obesity",
)
# Everyday complaints: only "cures" or "heals" them is a claim; "eases back pain" is ordinary.
MINOR_AILMENTS = (
    "pain", "acne", "scars", "wounds", "injuries", "headaches?", "colds?", "flu", "infections?",
    "diseases?", "illness(?:es)?", "everything", "all",
)
_CONDITION = r"(?:" + "|".join(HEALTH_CONDITIONS) + r")\b"
_AILMENT = r"(?:" + "|".join(HEALTH_CONDITIONS + MINOR_AILMENTS) + r")\b"
_STRONG_CLAIM = r"(?:cures?|cured|cure for|heals?|remedy for)"
# "treats for dogs" is a noun; the verb takes its object directly ("treats arthritis").
_CLAIM = (r"(?:treats?(?!\s+for\b)|treating|treatment for|prevents?|preventing|reverses?|relieves?|relieving|"
          r"relief (?:of|from|for)|alleviates?|eases?|fights?|reduces?|reducing|lowers?|"
          r"helps? (?:with|against)|therapy for|protects? against)")
_DAMAGED = (r"(?:swollen|swell(?:s|ed|ing)?(?: up)?|bulg(?:e|es|ed|ing)|bloated|puffy|"
            r"puff(?:s|ed|ing)?(?: up)?|expanded|expanding|leaking|leaks|leaked|damaged|overheats|"
            r"overheating|overheated|(?<!non[\s-])smok(?:ing|es)|caught fire|catches fire)")
# A word between "battery" and a damage word, but not a negation ("battery is not swollen") or a
# conjunction that moves on to another part ("battery good but screen damaged").
_GAP_WORD = (r"(?!(?:not|no|never|nor|but|and|or|yet|though|although|while|however|isnt|wasnt|"
             r"hasnt|doesnt)\b|[\w']*n't\b)[\w']+\s+")
# The battery itself, not a part named after it ("battery cover damaged").
_BATTERY = (r"batter(?:y|ies)\b(?![\s-]+(?:covers?|doors?|lids?|compartments?|flaps?|contacts?|"
            r"terminals?|indicators?|icons?|level|meters?|grips?))")
_PROOF_DOCUMENT = (r"(?:certificates?|certs?|receipts?|papers|paperwork|proof of (?:purchase|"
                   r"authenticity)|invoices?|documentation|authenticity cards?|coa)")
_ARTICLES = r"(?:(?:the|a|an|any|its|my|their|original)\s+)*"

SIGNALS: tuple[Signal, ...] = (
    Signal(
        re.compile(
            r"\b(?:counterfeit|replicas?|fake(?!\s+(?:fur|leather|suede|plants?|flowers?|grass|"
            r"foliage|greenery|ivy|succulents?|cactus|cacti|fruit|food|cakes?|candles?|books?|"
            r"tattoos?|teeth|beards?|mo?ustaches?|eyelash\w*|lashes|nails|tan|snow|blood|trees?))|"
            r"knock[\s-]?offs?|bootleg|dupes?|"
            r"inspired by (?:the\s+)?(?:" + "|".join(LUXURY_BRANDS) + r")|"
            r"(?:" + "|".join(LUXURY_BRANDS) + r")[\s-]inspired|"
            r"(?<!disk )(?<!drive )(?<!ssd )(?<!hdd )clones?(?!\s+(?:troopers?|wars|commanders?|"
            r"army|armies|tool|software|stamp))|"
            r"(?:aaa|a-grade|grade[\s-]a|top[\s-]quality|high[\s-]quality|premium[\s-]quality|"
            r"best[\s-]quality|super|mirror|unauthori[sz]ed|factory|1:1)\s*(?:copy|copies|replica)|"
            r"copy (?:version|of (?:a |an |the )?(?:" + "|".join(LUXURY_BRANDS) + r"))|"
            r"1:1\s*(?:clone|version|quality|original|reproduction)|"
            r"mirror[\s-]*(?:quality|grade|image)(?![\s-]*(?:glass|finish|polish\w*|shine|"
            r"surface|reflection)))\b", re.I),
        COUNTERFEIT_PENALTY,
        'The listing mentions "{match}", which points to a counterfeit or imitation item; '
        "a reviewer must check it before it can be listed.",
        "Only list genuine items: remove replicas and copies, and add proof of authenticity "
        "(receipt, serial number or certificate) for branded goods.",
        cap=SEVERE_RISK_SCORE_CAP,
        scope="counterfeit",
    ),
    Signal(
        re.compile(
            r"\b(?:no proof of authenticity|can'?t verify|cannot verify|can not verify|"
            r"unable to verify|not verified|unverified|"
            r"authenticity (?:unknown|not guaranteed|unverified|not confirmed)|unknown "
            r"(?:authenticity|origin|provenance)|(?:origin|provenance) unknown|"
            r"no hallmarks?|not hallmarked|unhallmarked|"
            r"(?:i was|i've been|was) told (?:it'?s|it is)|"
            r"not sure (?:if |whether )?(?:it'?s |it is )?(?:real|authentic|genuine|original)|"
            r"don'?t know if (?:it'?s |it is )?(?:real|authentic|genuine|original))\b", re.I),
        UNVERIFIED_PENALTY,
        'Authenticity or origin is not verified ("{match}"); a reviewer will check the item '
        "before it is listed.",
        "Add proof of origin such as a receipt, serial number, hallmark or certificate, "
        "or remove claims you cannot back up.",
    ),
    Signal(
        re.compile(
            r"\b(?:(?:no|without)\s+" + _ARTICLES + _PROOF_DOCUMENT + r"|"
            r"(?:lost|misplaced|can'?t find|cannot find)\s+" + _ARTICLES + _PROOF_DOCUMENT + r"|"
            r"(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|never)\s+(?:have|has|had|"
            r"come with|came with|include|includes|get|got)\s+" + _ARTICLES + _PROOF_DOCUMENT
            + r"|" + _PROOF_DOCUMENT + r"\s+(?:(?:is|are|was|were|got|has been|have been)\s+)?"
            r"(?:lost|missing|misplaced|not included|unavailable))\b", re.I),
        UNVERIFIED_PENALTY,
        'The proof of authenticity is missing ("{match}") for an item where it matters; a '
        "reviewer will check the item before it is listed.",
        "Add proof of origin such as a receipt, serial number, hallmark or certificate, "
        "or remove claims you cannot back up.",
        scope="proof",
    ),
    Signal(
        re.compile(
            r"\b(?:swollen|swelling|bulging|bulged|bulge|bloated|puffy|puffed|expanded|leaking|"
            r"damaged|overheating)\s+(?:" + _GAP_WORD + r"){0,2}?" + _BATTERY + r"|"
            r"\b" + _BATTERY + r"\s+(?:" + _GAP_WORD + r"){0,3}?" + _DAMAGED + r"\b",
            re.I),
        BATTERY_HAZARD_PENALTY,
        'The battery is described as damaged ("{match}"); swollen or leaking lithium batteries are '
        "a fire risk, so a reviewer must decide whether it can be sold and shipped.",
        "Have a damaged battery replaced or removed before selling and say so; otherwise list the "
        "item for parts only and state the battery hazard clearly.",
        cap=SEVERE_RISK_SCORE_CAP,
        negatable=True,
    ),
    Signal(
        re.compile(r"\b(?:recalled|recall notices?|under (?:a |the )?recall|product recall|"
                   r"safety recall|recall (?:list|campaign|programme|program)|"
                   r"(?:part of|subject to|affected by|included in|covered by|listed in|named in)"
                   r"\s+(?:a|an|the)\s+(?:[\w'-]+\s+){0,2}?recall)\b", re.I),
        RECALL_PENALTY,
        'The item is described as recalled ("{match}"); recalled products may not be sold for '
        "safety reasons, so a reviewer will check it.",
        "Check the manufacturer's recall notice; list the item only if it was repaired or replaced "
        "under the recall, and say so.",
        cap=SEVERE_RISK_SCORE_CAP,
        negatable=True,
    ),
    Signal(
        re.compile(
            r"\b" + _STRONG_CLAIM + r"\s+(?:\w+\s+){0,3}?" + _AILMENT + r"|"
            r"\b" + _CLAIM + r"\s+(?:[\w']+\s+){0,3}?" + _CONDITION + r"|"
            r"\b" + _CONDITION + r"(?:\s+pain)?\s+(?:relief|remedy|cure|treatment|therapy)\b|"
            r"\b(?:clinically|medically|scientifically)\s+(?:proven|shown|tested and proven)\b|"
            r"\b(?:therapeutic|detox\w*)\b[^.!?\n]{0,60}?\b" + _CONDITION + r"|"
            r"\b" + _CONDITION + r"[^.!?\n]{0,60}?\b(?:therapeutic|detox\w*)\b|"
            r"\bmiracle\s+(?:cure|remedy|treatment|oil|supplement|pills?|tea|water|healing|"
            r"results?)\b|\bmiraculous(?:ly)?\s+(?:heal\w*|cure\w*|results?)\b", re.I),
        MEDICAL_CLAIM_PENALTY,
        'The listing makes a medical claim ("{match}"); health claims that a product cures, '
        "relieves or treats illness need review and are usually not allowed.",
        "Remove claims that the item cures, heals or treats conditions; describe only what it is, "
        "what it contains and how it is used.",
        cap=SEVERE_RISK_SCORE_CAP,
        negatable=True,
    ),
)

# Context that makes a counterfeit word benign: a tool that detects fakes, a scale model or prop.
COUNTERFEIT_TOOL = re.compile(
    r"\b(?:counterfeit|fake|forged|forgery)\s+(?:(?:bank\s*)?notes?\s+|banknotes?\s+|money\s+|"
    r"bills?\s+|currency\s+|cash\s+|coins?\s+)?(?:detectors?|detection|checkers?|testers?|"
    r"scanners?|verifiers?)\b|\b(?:detects?|detecting|checks?|checking|spots?|spotting)\s+"
    r"(?:for\s+)?(?:counterfeit|fake|forged)\b", re.I)
FAKE_CURRENCY = re.compile(
    r"\b(?:counterfeit|fake|forged)\s+(?:bank\s*)?(?:notes?|banknotes?|bills?|money|currency|"
    r"coins?)\b", re.I)
REPLICA_MODEL_CONTEXT = re.compile(
    r"\b(?:scale models?|model kits?|die[\s-]?cast|1\s*[:/]\s*(?:[2-9]|\d{2,3})\b|props?|"
    r"cosplay|costumes?|miniatures?|figurines?|action figures?|toys?|museum replica|"
    r"model (?:cars?|ships?|trains?|planes?|aircraft|boats?|tanks?))\b", re.I)
REPLICA_WORD = re.compile(r"\breplicas?\b", re.I)
# Where a missing receipt or certificate matters: jewellery, watches, luxury and collectables.
AUTHENTICITY_SENSITIVE = re.compile(
    r"\b(?:designer|signed|autograph(?:ed|s)?|memorabilia|antiques?|original (?:painting|artwork|"
    r"art))\b", re.I)
NEGATION_BEFORE = re.compile(
    r"\b(?:no|not(?!\s+(?:only|just)\b)|never|nor|without|isn'?t|wasn'?t|hasn'?t|doesn'?t|"
    r"didn'?t)\s+"
    r"(?:[\w']+\s+){0,2}$", re.I)

# (item regex, facts a buyer needs before trusting it with a child)
CHILD_SAFETY_ITEMS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"\b(?:car[\s-]?seats?|booster seats?|infant seats?|baby capsules?)\b"
                r"(?![\s-]*(?:covers?|cushions?|organi[sz]ers?|protectors?|belts?|gap))", re.I),
     ("safety standard", "expiry date")),
    (re.compile(r"\b(?:cribs?|cot beds?|travel cots?|bassinets?|moses baskets?|playpens?|"
                r"play yards?)\b", re.I),
     ("safety standard", "age range")),
    (re.compile(r"\b(?:baby walkers?|high[\s-]?chairs?|baby gates?|baby carriers?|"
                r"baby bouncers?)\b", re.I),
     ("safety standard", "age range")),
    (re.compile(r"\b(?:toddler toys?|baby toys?|infant toys?|teethers?|teething toys?|rattles?)\b",
                re.I),
     ("age range", "safety standard")),
)
CHILD_SAFETY_CONCERN = re.compile(
    r"\b(?:unknown|not sure|unsure|no label|label (?:missing|removed)|missing label|expired|"
    r"past (?:its )?expiry|(?<!never )(?<!not )(?:been|was|were|involved)\s+in\s+an?\s+(?:car\s+)?"
    r"(?:accident|crash|collision)|(?:accident|crash) damage|(?<!never )(?<!not )crashed)\b", re.I)

# Jewellery nouns count in title or category; "watch" only as a category, so a gold-coloured
# smartwatch listed under electronics is not treated as a precious-metal claim.
JEWELLERY_CONTEXT = re.compile(
    r"\b(?:jewell?ery|jewelry|rings?|necklaces?|bracelets?|earrings?|pendants?|chains?|bangles?|"
    r"brooch(?:es)?|anklets?|cufflinks?|gems?(?:tones?)?)\b", re.I)
WATCH_CATEGORY = re.compile(r"\bwatch(?:es)?\b", re.I)
PRECIOUS_METAL = re.compile(
    r"\b(?:gold|silver|platinum|diamonds?|sterling)\b(?![\s-]*(?:tone|toned|colou?r(?:ed)?|plated|"
    r"filled|effect|look|finish|alumini?um|stainless|steel|plastic))", re.I)
METAL_PROOF_NAMES = re.compile(
    r"\b(?:hallmarks?|certificate|certification|karat|carat|purity|fineness|assay|stamp|gia|igi)\b")
METAL_PROOF_TEXT = re.compile(
    r"\b(?:hallmark(?:ed|s)?|stamped|assay(?:ed)?|certificate|certified|gia|igi)\b", re.I)
LUXURY_BRAND = re.compile(r"\b(?:" + "|".join(LUXURY_BRANDS) + r")\b", re.I)
ANY_BRAND = re.compile(r"\b(?:" + "|".join(KNOWN_BRANDS + LUXURY_BRANDS) + r")\b", re.I)
