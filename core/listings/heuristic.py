"""The offline "heuristic" reviewer: fixed, explainable rules instead of a model.

Why rules: this reviewer is the default when no AI provider is configured, so it must be instant,
free, identical on every run (tests and re-reviews depend on that) and impossible to steer from
seller text. Every point taken off the score comes with an issue or a missing field a seller can
act on; seller text is only ever matched against the patterns below, never obeyed.
"""

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from core.listings.draft import ListingDraft
from core.listings.review import ListingReview

__all__ = ["review_listing"]

# --- Scoring -------------------------------------------------------------------------------------

MISSING_FIELD_PENALTY = 8
SHORT_DESCRIPTION_PENALTY = 15
BRIEF_DESCRIPTION_PENALTY = 8
SHORT_TITLE_PENALTY = 5
GENERIC_TITLE_PENALTY = 10
NO_ATTRIBUTES_PENALTY = 10
VAGUE_PHRASE_PENALTY = 5
VAGUE_PHRASE_PENALTY_CAP = 15
SHOUTING_PENALTY = 5
EXCLAMATION_PENALTY = 5
CONTRADICTION_PENALTY = 20
COLOUR_CONFLICT_PENALTY = CONTRADICTION_PENALTY  # as misleading as any other contradiction
FREE_PRICE_PENALTY = 10
INJECTION_PENALTY = 10
COUNTERFEIT_PENALTY = 40
UNVERIFIED_PENALTY = 15
BATTERY_HAZARD_PENALTY = 30
RECALL_PENALTY = 30
MEDICAL_CLAIM_PENALTY = 25
CHILD_SAFETY_PENALTY = 15
PRECIOUS_METAL_PENALTY = 10
LUXURY_PRICE_PENALTY = 20

# A listing that a person must clear first is not a good listing, however complete it looks:
# its score is capped (and the cap explained) instead of relying on penalties adding up.
SEVERE_RISK_SCORE_CAP = 40  # counterfeit, battery hazard, recall, medical claim
REVIEW_RISK_SCORE_CAP = 50  # authenticity, child safety or precious metal not verified
NO_CAP = 100

MIN_DESCRIPTION_CHARS = 40
MIN_DESCRIPTION_WORDS = 6
BRIEF_DESCRIPTION_WORDS = 15
MIN_TITLE_WORDS = 3
MIN_SHOUTING_LETTERS = 10
MAX_EXCLAMATIONS = 3
LUXURY_MIN_PRICE = Decimal("100")
MAX_MESSAGE_CHARS = 300
MAX_QUOTE_CHARS = 40
MAX_LIST_ITEMS = 50

# --- Category expectations -----------------------------------------------------------------------

# Battery-device keywords must not fire for their accessories ("Laptop Stands", "Phone Cases").
_NOT_ACCESSORY = (
    r"(?![\s_&-]*(?:accessor\w*|cases?|covers?|bags?|sleeves?|stands?|holders?|mounts?|"
    r"cables?|chargers?|parts|straps?|screen protectors?))"
)

# (category regex fragment, expected facts). Categories are split on ">", "/", "|" and the most
# specific segment that matches anything decides, so "Electronics > Phones" gets the phone list.
CATEGORY_EXPECTATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"shoes?|footwear|sneakers?|trainers?|boots?|sandals?|loafers?|heels",
     ("size", "colour", "condition")),
    (r"books?|novels?|textbooks?|paperbacks?|hardcovers?|comics?",
     ("author", "isbn")),
    (r"(?:smart|mobile|cell)?[\s-]?phones?" + _NOT_ACCESSORY + r"|mobiles?" + _NOT_ACCESSORY
     + r"|tablets?" + _NOT_ACCESSORY + r"|e-?readers?" + _NOT_ACCESSORY,
     ("brand", "model", "condition", "battery")),
    (r"laptops?" + _NOT_ACCESSORY + r"|notebook computers?|macbooks?|chromebooks?",
     ("brand", "model", "condition", "battery")),
    (r"(?:computer|laptop|pc|phone|mobile|tablet|gaming)[\s_&-]*accessor(?:y|ies)|headphones?|"
     r"earphones?|earbuds?|headsets?|keyboards?|mice|mouse|speakers?|webcams?|usb hubs?|docks?",
     ("brand", "model", "condition", "connectivity")),
    (r"electronics?|computers?|cameras?|consoles?|video games?|audio|tvs?|televisions?|"
     r"smartwatch(?:es)?|appliances?",
     ("brand", "model", "condition")),
    (r"clothing|clothes|apparel|fashion|dresses|dress|shirts?|t-shirts?|jackets?|coats?|jeans|"
     r"trousers|pants|sweaters?|hoodies?|knitwear|skirts?|suits?",
     ("size", "colour", "material", "condition")),
    (r"furniture|sofas?|couch(?:es)?|tables?|chairs?|desks?|wardrobes?|dressers?|beds?|"
     r"shelves|shelf|shelving|cabinets?|bookcases?",
     ("dimensions", "material", "condition")),
    (r"toys?|baby|babies|kids|children|child|nursery|infants?|toddlers?",
     ("age range", "safety standard")),
    (r"jewell?ery|jewelry|rings?|necklaces?|bracelets?|earrings?|pendants?|watch(?:es)?",
     ("material", "brand", "authenticity")),
)
FALLBACK_EXPECTATIONS: tuple[str, ...] = ("condition", "brand")
CATEGORY_SEPARATORS = re.compile(r"[>/|›»]")

# Attribute names that state a fact, matched as whole words in the normalised attribute name.
ATTRIBUTE_NAMES: dict[str, tuple[str, ...]] = {
    "size": ("size", "shoe size", "fit"),
    "colour": ("colour", "color", "colourway", "colorway", "shade"),
    "condition": ("condition", "state", "grade", "wear"),
    "brand": ("brand", "make", "manufacturer", "maker", "designer", "label", "publisher"),
    "model": ("model", "mpn", "part number", "series", "reference", "product line"),
    "battery": ("battery", "battery health", "battery life", "battery capacity", "battery cycles"),
    "connectivity": ("connectivity", "connection", "connections", "connector", "interface",
                     "ports", "bluetooth", "wireless", "wired"),
    "author": ("author", "authors", "writer", "by"),
    "isbn": ("isbn", "isbn10", "isbn13"),
    "material": ("material", "materials", "fabric", "metal", "composition", "upholstery"),
    "dimensions": ("dimensions", "dimension", "measurements", "size", "width", "height", "depth",
                   "length"),
    "age range": ("age range", "age", "ages", "age group", "recommended age", "suitable for"),
    "safety standard": ("safety standard", "safety", "standard", "certification", "certified",
                        "ce", "astm", "en 71"),
    "authenticity": ("authenticity", "certificate", "receipt", "proof of purchase", "serial",
                     "serial number", "papers", "provenance"),
    "expiry date": ("expiry", "expiry date", "expiration", "expires", "manufacture date",
                    "date of manufacture", "manufactured", "mfg", "production date"),
}

COLOUR_WORDS: dict[str, str] = {  # word -> colour family, so "navy" agrees with "blue"
    "black": "black", "white": "white", "ivory": "white", "cream": "white", "red": "red",
    "burgundy": "red", "maroon": "red", "crimson": "red", "blue": "blue", "navy": "blue",
    "teal": "blue", "turquoise": "blue", "green": "green", "olive": "green", "khaki": "green",
    "yellow": "yellow", "orange": "orange", "purple": "purple", "lilac": "purple",
    "lavender": "purple", "violet": "purple", "pink": "pink", "magenta": "pink", "coral": "pink",
    "brown": "brown", "beige": "brown", "tan": "brown", "camel": "brown", "grey": "grey",
    "gray": "grey", "charcoal": "grey", "graphite": "grey", "silver": "silver", "gold": "gold",
}
# Colour words that describe a part, not the item ("brown switches", "white laces").
_COLOUR_PART = (
    r"(?![\s-]+(?:switch(?:es)?|backlight|backlit|lights?|leds?|straps?|laces|lens(?:es)?|trim|"
    r"accents?|buttons?|stitching|soles?|lining|box|case|cables?|labels?|tags?|dial|hands|logo|"
    r"print|pattern|details?|detailing|piping|zips?|zippers?|handles?|hardware|keys|text))"
)

# Prose names many colours (trim, photos, packaging); only an explicit statement ("the colour is
# dark green") or a denial ("not navy") says what colour the item itself is.
COLOUR_STATEMENT = re.compile(
    r"\b(?:colou?r(?:way)?|shade)\s*(?:is|was|:|-)\s+([^.,;!?\n]{1,40})", re.I)
NEGATED_COLOUR = re.compile(
    r"\bnot\s+(?:an?\s+|in\s+)?(" + "|".join(COLOUR_WORDS) + r")\b"
    r"(?![\s-]*(?:plated|tone|toned|filled|colou?red|effect|look|finish))" + _COLOUR_PART, re.I)
WORD = re.compile(r"[a-z]+")

KNOWN_BRANDS = (
    "apple", "samsung", "google", "sony", "lg", "huawei", "xiaomi", "oneplus", "motorola", "nokia",
    "lenovo", "dell", "hp", "asus", "acer", "msi", "microsoft", "logitech", "razer", "bose",
    "sennheiser", "jbl", "beats", "anker", "keychron", "corsair", "canon", "nikon", "fujifilm",
    "panasonic", "philips", "dyson", "bosch", "nintendo", "playstation", "xbox", "garmin", "fitbit",
    "amazon", "kindle", "nike", "adidas", "puma", "reebok", "new balance", "asics", "converse",
    "vans", "birkenstock", "dr\\.? martens", "timberland", "levi'?s", "zara", "h&m", "uniqlo",
    "patagonia", "the north face", "barbour", "ralph lauren", "tommy hilfiger", "ikea", "lego",
    "pandora", "swarovski", "ray-ban", "longchamp", "herschel", "michael kors", "coach", "casio",
    "seiko", "fossil", "tissot", "maxi-cosi", "cybex", "britax", "chicco", "bugaboo", "stokke",
)
LUXURY_BRANDS = (
    "rolex", "omega(?![\\s-]*\\d)", "cartier", "louis vuitton", "gucci", "chanel", "herm[eè]s",
    "prada", "dior", "tiffany(?![\\s-]*(?:style|lamp))", "patek philippe", "audemars piguet",
    "breitling", "tag heuer", "bvlgari", "bulgari", "fendi", "balenciaga", "saint laurent", "ysl",
    "burberry", "givenchy", "versace", "moncler", "van cleef", "bottega veneta", "celine",
    "loewe", "goyard", "richard mille", "hublot",
)

# --- Text patterns that state a fact (searched after negations like "no box" are removed) --------

_CONDITION_NEW_STRONG = (
    r"\b(?:brand[\s-]new|new\s+(?:in|with)\s+(?:box|tags?|packaging)|new\s+and\s+sealed|"
    r"(?:factory[\s-])?sealed(?:\s+in\s+box)?|unopened|never\s+(?:been\s+)?(?:used|worn|opened)|"
    r"unused|unworn|bnib|bnwt|nwt|nib)\b"
)
_NOT_A_PART = (
    r"(?![\s-]+(?:batter(?:y|ies)|screens?|display|case|strap|band|laces|cable|charger|parts?|"
    r"pads?|tyres?|tires?|soles?|keyboard|balance|york|zealand|look|era|edition|model|version|"
    r"owner|generation|gen|arrivals?|home))"
)
_CONDITION_NEW_BARE = (
    r"(?<!like )(?<!like-)(?<!as )(?<!nearly )(?<!almost )(?<!near )(?<!needs )\bnew\b"
)
_CONDITION_USED = (
    r"(?<!never )(?<!not )(?<!be )(?<!is )(?<!are )\b(?:used|pre[\s-]?owned|second[\s-]?hand|"
    r"(?<!never )worn|like[\s-]new|as new|open[\s-]box|ex[\s-]display|ex[\s-]corporate)\b"
)
_CONDITION_REFURBISHED = r"\b(?:refurbished|refurb|renewed|reconditioned|remanufactured)\b"
CONDITION_CLASSES: dict[str, re.Pattern[str]] = {
    "new": re.compile(_CONDITION_NEW_STRONG + _NOT_A_PART, re.I),
    "used": re.compile(_CONDITION_USED, re.I),
    "refurbished": re.compile(_CONDITION_REFURBISHED, re.I),
}
NEW_IN_SHORT_FIELD = re.compile(_CONDITION_NEW_BARE + _NOT_A_PART, re.I)

FACT_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.I)
    for name, pattern in {
        "size": r"\bsize\s*[:\-]?\s*(?:eu|us|uk|fr|it)?\s*\d{1,2}(?:[.,]5)?\b|"
                r"\b(?:eu|us|uk)\s*(?:size\s*)?\d{1,2}(?:[.,]5)?\b|"
                r"\bsize\s*[:\-]?\s*(?:xxs|xs|s|m|l|xl|xxl|xxxl|\dxl|small|medium|large|"
                r"extra[\s-]large|[a-z]\b)|\bone size\b|\bw\d{2}\s*l\d{2}\b|"
                r"\b(?:men'?s|women'?s|ladies'?|kids'?)\s+(?:xxs|xs|s|m|l|xl|xxl|small|medium|"
                r"large|\d{1,2})\b",
        "colour": r"\bcolou?r(?:way)?\s*[:\-]\s*\w|\b(?:" + "|".join(COLOUR_WORDS) + r")\b",
        "condition": _CONDITION_NEW_STRONG + "|" + _CONDITION_NEW_BARE + "|" + _CONDITION_USED
                     + "|" + _CONDITION_REFURBISHED
                     + r"|\b(?:mint|pristine|for parts|damaged|(?:excellent|very good|good|great|"
                       r"fair|poor|perfect|working|acceptable)\s+(?:condition|shape|order))\b|"
                       r"\bcondition\s*[:\-]\s*\w",
        "brand": r"\b(?:brand|made by|manufacturer)\s*[:\-]\s*\w|\b(?:"
                 + "|".join(KNOWN_BRANDS + LUXURY_BRANDS) + r")\b",
        "model": r"\bmodel(?:\s*(?:no\.?|number|name|#))?\s*[:\-#]\s*\w|\bmodel\s+[a-z]{0,4}-?\d|"
                 r"\b(?:iphone|ipad|macbook|imac|airpods|galaxy|pixel|xperia|thinkpad|ideapad|xps|"
                 r"inspiron|latitude|surface|zenbook|vivobook|pavilion|elitebook|spectre|"
                 r"playstation|ps[345]|xbox|switch|kindle|redmi|quietcomfort)\b|"
                 r"(?-i:\b[A-Z]{1,4}-?\d{2,5}[A-Z0-9]{0,4}\b)",
        "battery": r"\bbattery\b[^.\n]{0,30}?\d{1,3}\s*%|\d{1,3}\s*%\s*(?:battery|health|capacity)|"
                   r"\bbattery\s+(?:health|life|capacity|condition|cycles?|cycle count|holds)\b|"
                   r"\b\d{1,5}\s*battery\s+cycles?|\b(?:new|original|replaced)\s+battery\b|"
                   r"\bbattery\s+(?:was\s+|is\s+|has been\s+)?(?:replaced|new|original)\b|"
                   r"\bbattery\s+(?:is\s+|has\s+)?(?:swollen|dead|damaged|bulging)\b",
        "connectivity": r"\b(?:bluetooth|wireless|wired|usb(?:-?[ac])?|lightning|wi-?fi|"
                        r"2\.4\s*ghz|3\.5\s*mm|aux|hdmi|displayport|thunderbolt|nfc|jack)\b",
        "author": r"\bauthor\s*[:\-]?\s*\w|(?-i:\b[Bb]y\s+[A-Z][a-z]*\.?\s*[A-Z])",
        "isbn": r"\bisbn(?:-?1[03])?\s*[:\-]?\s*[\dx][\d\-\sx]{8,16}|"
                r"\b97[89][\-\s]?\d[\d\-\s]{8,14}\d\b",
        "material": r"\bmaterial\s*[:\-]\s*\w|\b(?:leather|suede|cotton|wool|merino|cashmere|silk|"
                    r"linen|polyester|nylon|denim|canvas|fleece|oak|pine|walnut|teak|mahogany|"
                    r"birch|beech|wood|wooden|metal|steel|stainless|aluminium|aluminum|glass|"
                    r"marble|"
                    r"plastic|velvet|rattan|bamboo|gold|silver|platinum|titanium|sterling|brass|"
                    r"copper|ceramic|porcelain|mesh|rubber|fabric|particleboard|mdf|plywood)\b",
        "dimensions": r"\bdimensions?\s*[:\-]?\s*\d|(?<![\d.,])\d{1,5}(?:[.,]\d{1,3})?\s*"
                      r"(?:cm|mm|m|in|\")?\s*[x×]\s*\d|\b(?:width|height|depth|length|wide|high|"
                      r"tall|deep|long)\b[^.\d\n]{0,12}\d{1,5}(?:[.,]\d{1,3})?\s*(?:cm|mm|m|in|"
                      r"inch(?:es)?|ft)\b|(?<![\d.,])\d{1,5}(?:[.,]\d{1,3})?\s*(?:cm|mm|in|"
                      r"inch(?:es)?|"
                      r"ft)\s+(?:wide|high|tall|deep|long|width|height|depth|length)\b",
        "age range": r"\b(?:ages?|aged|for)\s*:?\s*\d+\s*(?:\+|-|–|to|months?|years?|yrs?|m\b)|"
                     r"\b\d+\s*(?:\+|[-–]\s*\d+|to\s*\d+)\s*(?:months?|years?|yrs?|y|m)\b|"
                     r"\b\d+\s*(?:months?|years?|yrs?)\s*(?:\+|and up|and over|plus)|"
                     r"\bnewborn\b|\bfrom birth\b",
        "safety standard": r"\b(?:en\s?71|en\s?1888|en\s?716|en\s?1930|en\s?14988|"
                           r"astm(?:\s*f?\d+)?|"
                           r"ece\s*r\s*(?:44|129)|r44(?:/04)?|r129|i-size|ce[\s-]mark(?:ed)?|"
                           r"ce certified|cpsia|cpsc|ukca|bs\s*en\s*\d+|safety standards?)\b",
        "authenticity": r"\b(?:certificate of authenticity|authenticated|authenticity "
                        r"(?:card|certificate|guaranteed|verified)|receipt|proof of purchase|"
                        r"serial number|box and papers|entrupy)\b",
        "expiry date": r"\b(?:expir(?:y|es|ation)|manufactur\w*|made|mfg|production|dom|"
                       r"date of manufacture)\b[^.\n]{0,25}?\b(?:19|20)\d{2}\b",
    }.items()
}

# Negated or unknown mentions are not facts: "no box", "unknown brand", "size: n/a".
NEGATED_BEFORE = re.compile(
    r"\b(?:no|without|missing|lost|unknown|unsure of|not sure (?:of|about)|"
    r"(?:do|does|did)(?:n't|nt| not) (?:have|has|come with|include)|never (?:had|came with))\s+"
    r"(?:the\s+|a\s+|an\s+|any\s+|original\s+)*[\w-]+", re.I)
NEGATED_AFTER = re.compile(
    r"\b\w[\w-]{0,30}\s*[:\-]?\s*(?:unknown|not sure|unsure|not known|not stated|n/a|none)\b",
    re.I)
PLACEHOLDER_VALUES = frozenset(
    {"", "-", "--", "?", "n/a", "na", "none", "unknown", "not sure", "unsure", "tbd", "tba",
     "idk", "various", "other", "null", "nil"})

# --- Text quality ---------------------------------------------------------------------------------

VAGUE_PHRASES = re.compile(
    r"\b(?:good condition|great condition|works? fine|works? great|works? well|see (?:photos|pics|"
    r"pictures|images)|as[\s-]is|great item|nice item|must see|must have|great deal)\b", re.I)
# Title words that do not tell one listing from another; with category nouns ("table", "phone")
# a title made only of these names the kind of item, not the item.
GENERIC_TITLE_WORDS = frozenset({
    "a", "an", "the", "and", "of", "for", "with", "sale", "selling", "lot", "job", "joblot",
    "bundle", "item", "items", "stuff", "things", "set", "pair", "used", "new", "old", "good",
    "nice", "great", "cheap", "bargain", "quick", "misc", "various", "assorted", "my", "x",
})
TITLE_WORD = re.compile(r"[\w'&+-]+")
STORAGE_CAPACITY = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(gb|tb)\b(?!\s*(?:of\s+)?(?:unified\s+)?(?:ram|memory|ddr\w*|"
    r"lpddr\w*|vram|gddr\w*))", re.I)
RAM_BEFORE = re.compile(r"\b(?:ram|memory)\s*[:\-]?\s*$", re.I)
RAM_ATTRIBUTE = re.compile(r"\b(?:ram|memory|vram)\b")

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
class _Signal:
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

SIGNALS: tuple[_Signal, ...] = (
    _Signal(
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
    _Signal(
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
    _Signal(
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
    _Signal(
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
    _Signal(
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
    _Signal(
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

FIELD_EXAMPLES: dict[str, str] = {
    "size": "Size: EU 42", "colour": "Colour: black", "condition": "Condition: used - light scuffs",
    "brand": "Brand: Sony", "model": "Model: WH-1000XM4", "battery": "Battery health: 87%",
    "connectivity": "Connectivity: Bluetooth 5.0, USB-C", "author": "Author: Jane Austen",
    "isbn": "ISBN: 9780141439518", "material": "Material: solid oak",
    "dimensions": "Dimensions: 120 x 60 x 75 cm", "age range": "Age range: 3+ years",
    "safety standard": "Safety standard: EN 71 (toys) or ECE R129 (car seats)",
    "authenticity": "Authenticity: receipt and serial number available",
    "expiry date": "Expiry date: 2027-06",
}


# --- Prepared listing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Listing:
    """The draft as the rules see it: normalised, with reviewer-directed sentences cut out."""

    title: str
    description: str
    category: str
    price: Decimal
    attributes: tuple[tuple[str, str], ...]  # (normalised name, value)
    injections: tuple[str, ...]
    raw: str  # everything the seller wrote, injections included, for risk signals
    facts: str  # text that can state facts: negations and placeholder values removed

    @property
    def text(self) -> str:
        """Title and description, the free text a buyer reads."""
        return f"{self.title}\n{self.description}"


@dataclass(frozen=True)
class _Finding:
    """One explained deduction: every penalty carries the message that justifies it."""

    penalty: int
    issue: str = ""
    suggestion: str = ""
    missing_field: str = ""
    human_review: bool = False
    cap: int = NO_CAP  # highest score the listing can get while this finding stands


def review_listing(draft: ListingDraft) -> ListingReview:
    """Review one listing with fixed rules; the same draft always gets the same review.

    Seller text is only matched, never followed, so instructions hidden in a listing cannot raise
    the score: they are cut out before scoring and reported as an issue of their own.
    """
    listing = _prepare(draft)
    findings = [finding for rule in _RULES for finding in rule(listing)]
    return _to_review(findings)


def _to_review(findings: list[_Finding]) -> ListingReview:
    """The score is 100 minus the explained penalties, capped while a risk awaits a person."""
    findings = findings + _cap_findings(findings)
    penalty = sum(finding.penalty for finding in findings)
    return ListingReview(
        quality_score=max(0, min(100, 100 - penalty)),
        missing_fields=_unique(finding.missing_field for finding in findings),
        issues=_unique(finding.issue for finding in findings),
        suggestions=_unique(finding.suggestion for finding in findings),
        requires_human_review=any(finding.human_review for finding in findings),
    )


def _cap_findings(findings: list[_Finding]) -> list[_Finding]:
    """The points a risk cap removes, explained, so a capped score is never a silent number."""
    cap = min((finding.cap for finding in findings), default=NO_CAP)
    excess = 100 - sum(finding.penalty for finding in findings) - cap
    if excess <= 0:
        return []
    return [_Finding(
        excess,
        issue=f"The score is capped at {cap} until a reviewer clears the safety or authenticity "
              "risk above; a listing with an open risk is not a good listing, however complete.",
    )]


def _unique(messages: Iterable[str]) -> list[str]:
    """Keep first-seen order (rule order) so output is deterministic and free of repeats."""
    kept = dict.fromkeys(_clip(message) for message in messages if message.strip())
    return list(kept)[:MAX_LIST_ITEMS]


def _clip(message: str) -> str:
    """Messages are shown in tables; keep each one readable and within the stored limit."""
    message = " ".join(message.split())
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 1] + "…"


def _quote(fragment: str) -> str:
    """A short lower-case excerpt: messages name what matched, never repeat the seller's text."""
    words = " ".join(fragment.replace('"', "'").split()).lower()
    return words if len(words) <= MAX_QUOTE_CHARS else words[: MAX_QUOTE_CHARS - 1].rstrip() + "…"


def _prepare(draft: ListingDraft) -> _Listing:
    """Normalise once and cut reviewer-directed sentences out of every field before any rule."""
    names = [_normalise(str(name)) for name in draft.attributes]
    values = [_normalise(str(value)) for value in draft.attributes.values()]
    raw = [_normalise(draft.title), _normalise(draft.description), _normalise(draft.category),
           *names, *values]
    cleaned, injections = _strip_injections_all(raw)
    count = len(names)
    keys = [_attribute_key(name) for name in cleaned[3:3 + count]]
    attributes = tuple(zip(keys, cleaned[3 + count:], strict=False))
    return _Listing(
        title=cleaned[0], description=cleaned[1], category=cleaned[2], price=draft.price,
        attributes=attributes, injections=injections, raw="\n".join(raw),
        facts=_fact_text(cleaned[0], cleaned[1], attributes),
    )


def _normalise(text: str) -> str:
    """Fold look-alike characters so "don’t" and full-width letters match the same patterns."""
    text = unicodedata.normalize("NFKC", text)
    return text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')


def _attribute_key(name: str) -> str:
    """"Shoe_Size (EU)" -> "shoe size eu", so names match synonyms as whole words."""
    return " ".join(re.sub(r"[^\w]+|_", " ", name.lower()).split())


def _strip_injections_all(texts: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Clean every field and collect each distinct reviewer-directed phrase once, in order."""
    cleaned, hits = [], []
    for text in texts:
        text, found = _strip_injections(text)
        cleaned.append(text)
        hits.extend(found)
    return cleaned, tuple(dict.fromkeys(hits))


def _strip_injections(text: str) -> tuple[str, list[str]]:
    """Remove whole sentences aimed at the reviewer, so they can neither help nor be scored."""
    matches = list(INJECTION.finditer(text))
    spans = [_sentence_span(text, match.start(), match.end()) for match in matches]
    return _remove_spans(text, spans), [_quote(match.group()) for match in matches]


def _sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around a match: from the previous sentence end to the next one."""
    left = max(text.rfind(mark, 0, start) for mark in ".!?\n") + 1
    after = SENTENCE_END.search(text, end)
    return left, after.end() if after else len(text)


def _remove_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Cut possibly overlapping spans, leaving a space so neighbouring words never merge."""
    pieces, cursor = [], 0
    for start, end in sorted(spans):
        pieces.append(text[cursor:max(cursor, start)])
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    return " ".join(pieces)


def _fact_text(title: str, description: str, attributes: tuple[tuple[str, str], ...]) -> str:
    """Where a fact may be stated; "no box" or "size: unknown" must not count as stating it."""
    pairs = [f"{name}: {value}" for name, value in attributes if _is_real(value)]
    text = "\n".join([title, description, *pairs])
    return NEGATED_AFTER.sub(" ", NEGATED_BEFORE.sub(" ", text))


def _is_real(value: str) -> bool:
    """Placeholders such as "n/a" or "unknown" are not answers."""
    return value.strip().strip(".").lower() not in PLACEHOLDER_VALUES


# --- Completeness ---------------------------------------------------------------------------------


def _missing_fields(listing: _Listing) -> list[_Finding]:
    """Each fact buyers of this category look for, and that is stated nowhere, costs points."""
    return [_missing(field) for field in _expected_fields(listing) if not _states(listing, field)]


def _missing(field: str) -> _Finding:
    """A missing field with an example of how to add it."""
    return _Finding(
        MISSING_FIELD_PENALTY,
        missing_field=field,
        suggestion=f'Add the {field} as an attribute or in the description, for example '
                   f'"{FIELD_EXAMPLES[field]}".',
    )


def _expected_fields(listing: _Listing) -> tuple[str, ...]:
    """Category expectations plus what child-safety items always need, without repeats."""
    fields = list(_category_fields(listing.category))
    fields += [field for _, required in _child_safety_items(listing) for field in required]
    return tuple(dict.fromkeys(fields))


def _category_fields(category: str) -> tuple[str, ...]:
    """The most specific category segment that matches decides; unknown ones get the fallback."""
    for segment in reversed(CATEGORY_SEPARATORS.split(category)):
        fields = [field for pattern, expected in _CATEGORY_RULES if pattern.search(segment)
                  for field in expected]
        if fields:
            return tuple(dict.fromkeys(fields))
    return FALLBACK_EXPECTATIONS


def _states(listing: _Listing, field: str) -> bool:
    """A fact counts as given in a named attribute or clearly in the title or description."""
    names = _ATTRIBUTE_NAME_PATTERNS[field]
    named = any(names.search(name) and _is_real(value) for name, value in listing.attributes)
    return named or bool(FACT_PATTERNS[field].search(listing.facts))


# --- Text quality ---------------------------------------------------------------------------------


def _short_description(listing: _Listing) -> list[_Finding]:
    """Buyers decide from the description; a line or two cannot cover condition and flaws."""
    text = " ".join(listing.description.split())
    chars, words = len(text), len(text.split())
    if chars < MIN_DESCRIPTION_CHARS or words < MIN_DESCRIPTION_WORDS:
        penalty, size = SHORT_DESCRIPTION_PENALTY, "very short"
    elif words < BRIEF_DESCRIPTION_WORDS:
        penalty, size = BRIEF_DESCRIPTION_PENALTY, "brief"
    else:
        return []
    return [_Finding(
        penalty,
        issue=f"The description is {size} ({_count(chars, 'character')}, "
              f"{_count(words, 'word')}); describe the "
              "condition, what is included and any flaws.",
        suggestion="Write a few sentences: the exact condition and any defects, what is included, "
                   "and how long and how the item was used.",
    )]


def _short_title(listing: _Listing) -> list[_Finding]:
    """Search matches on title words, so a one- or two-word title is rarely found."""
    words = len(listing.title.split())
    if words >= MIN_TITLE_WORDS or _is_generic_title(listing.title):
        return []  # a generic title is reported once, by _generic_title
    return [_Finding(
        SHORT_TITLE_PENALTY,
        issue=f"The title is very short ({_count(words, 'word')}), so buyers "
              "searching for this item are unlikely to find it.",
        suggestion="Use a title with brand, item type, model and one key detail such as size, "
                   "colour or capacity.",
    )]


def _generic_title(listing: _Listing) -> list[_Finding]:
    """A title of only category nouns and filler ("Used phone") matches every search equally."""
    if not _is_generic_title(listing.title):
        return []
    return [_Finding(
        GENERIC_TITLE_PENALTY,
        issue=f'The title only names the kind of item ("{_quote(listing.title)}"), so buyers '
              "cannot tell this item from any other.",
        suggestion="Use a title with brand, item type, model and one key detail such as size, "
                   "colour or capacity.",
    )]


def _is_generic_title(title: str) -> bool:
    """Every word is filler or a category noun: nothing names this particular item."""
    words = TITLE_WORD.findall(title.lower())
    return bool(words) and all(_is_generic_word(word) for word in words)


def _is_generic_word(word: str) -> bool:
    """Filler, or a noun that only names a category such as "table" or "headphones"."""
    return word in GENERIC_TITLE_WORDS or any(
        pattern.fullmatch(word) for pattern, _ in _CATEGORY_RULES)


def _no_attributes(listing: _Listing) -> list[_Finding]:
    """Buyers filter by item specifics; a listing with none drops out of every filtered search."""
    if any(_is_real(value) for _, value in listing.attributes):
        return []
    return [_Finding(
        NO_ATTRIBUTES_PENALTY,
        issue="The listing has no item specifics (attributes), so it is missing from searches "
              "that filter by brand, size, colour or condition.",
        suggestion="Add item specifics as attributes, for example brand, model, size, colour, "
                   "material and condition.",
    )]


def _vague_phrases(listing: _Listing) -> list[_Finding]:
    """Stock phrases like "works fine" tell a buyer nothing they can rely on."""
    phrases = list(dict.fromkeys(_quote(m.group()) for m in VAGUE_PHRASES.finditer(listing.text)))
    if not phrases:
        return []
    quoted = ", ".join(f'"{phrase}"' for phrase in phrases[:4])
    return [_Finding(
        min(VAGUE_PHRASE_PENALTY_CAP, VAGUE_PHRASE_PENALTY * len(phrases)),
        issue=f"The text relies on vague phrases ({quoted}) instead of specifics.",
        suggestion="Replace vague phrases with specifics: name any scratches or wear, say what "
                   "you tested, and list what is included.",
    )]


def _count(number: int, noun: str) -> str:
    """"1 word", "2 words": messages are read by sellers, so get the grammar right."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _shouting_title(listing: _Listing) -> list[_Finding]:
    """An all-capitals title reads as shouting and is harder to scan in results."""
    letters = [char for char in listing.title if char.isalpha()]
    if len(letters) < MIN_SHOUTING_LETTERS or not all(char.isupper() for char in letters):
        return []
    return [_Finding(
        SHOUTING_PENALTY,
        issue="The title is written entirely in capital letters, which reads as shouting.",
        suggestion="Write the title in normal sentence or title case.",
    )]


def _exclamations(listing: _Listing) -> list[_Finding]:
    """Runs of exclamation marks look like pressure selling and add no information."""
    count = listing.text.count("!")
    if count <= MAX_EXCLAMATIONS and "!!" not in listing.text:
        return []
    return [_Finding(
        EXCLAMATION_PENALTY,
        issue=f"The listing uses {count} exclamation marks, which looks like pressure selling.",
        suggestion="Remove extra exclamation marks and let specific details sell the item.",
    )]


# --- Contradictions -------------------------------------------------------------------------------


def _capacity_conflict(listing: _Listing) -> list[_Finding]:
    """A title saying 512 GB and a description saying 128 GB leaves buyers guessing."""
    sources = [(source, caps) for source, caps in _capacity_sources(listing) if caps]
    if not _any_disjoint([capacities for _, capacities in sources]):
        return []
    return _inconsistency(
        "storage capacity", [(source, sorted(caps)) for source, caps in sources],
        CONTRADICTION_PENALTY, "Check the storage capacity on the device and state the same "
                               "value in the title, description and attributes.")


def _capacity_sources(listing: _Listing) -> list[tuple[str, frozenset[str]]]:
    """Storage per place it is stated; RAM sizes are left out because they differ legitimately."""
    values = " ".join(value for name, value in listing.attributes if not RAM_ATTRIBUTE.search(name))
    return [("title", _capacities(listing.title)),
            ("description", _capacities(listing.description)),
            ("attributes", _capacities(values))]


def _capacities(text: str) -> frozenset[str]:
    """Storage sizes in one canonical spelling, so "1TB" and "1024 GB" agree."""
    found = set()
    for match in STORAGE_CAPACITY.finditer(text):
        if not RAM_BEFORE.search(text[max(0, match.start() - 10):match.start()]):
            found.add(_canonical_capacity(Decimal(match.group(1)), match.group(2).upper()))
    return frozenset(found)


def _canonical_capacity(amount: Decimal, unit: str) -> str:
    """Whole terabytes written in GB (1000 or 1024 per TB) are shown as TB."""
    for per_tb in (1000, 1024):
        if unit == "GB" and amount >= per_tb and amount % per_tb == 0:
            amount, unit = amount / per_tb, "TB"
    return f"{amount.normalize():f} {unit}"


def _any_disjoint(groups: list[frozenset[str]]) -> bool:
    """Two places conflict when they share no value at all ("512 GB + 1 TB" vs "1 TB" agree)."""
    return any(not (a & b) for i, a in enumerate(groups) for b in groups[i + 1:])


def _condition_conflict(listing: _Listing) -> list[_Finding]:
    """"New" in one place and "used" in another is a common cause of returns."""
    found = [(source, classes) for source, classes in _condition_sources(listing) if classes]
    new_in = {source for source, classes in found if "new" in classes}
    other_in = {source for source, classes in found if classes - {"new"}}
    if not any(a != b for a in new_in for b in other_in):
        return []
    return _inconsistency(
        "condition", [(source, sorted(classes)) for source, classes in found],
        CONTRADICTION_PENALTY, "State one condition (new, used or refurbished) and use it in "
                               "the title, description and condition attribute.")


def _condition_sources(listing: _Listing) -> list[tuple[str, frozenset[str]]]:
    """Bare "new" only counts in short fields; in prose it often describes a part."""
    condition_names = _ATTRIBUTE_NAME_PATTERNS["condition"]
    attribute = " ".join(v for n, v in listing.attributes if condition_names.search(n))
    return [("title", _condition_classes(listing.title, short_field=True)),
            ("description", _condition_classes(listing.description, short_field=False)),
            ("condition attribute", _condition_classes(attribute, short_field=True))]


def _condition_classes(text: str, short_field: bool) -> frozenset[str]:
    """Which of new / used / refurbished a piece of text claims."""
    classes = {name for name, pattern in CONDITION_CLASSES.items() if pattern.search(text)}
    if short_field and NEW_IN_SHORT_FIELD.search(text):
        classes.add("new")
    return frozenset(classes)


def _colour_conflict(listing: _Listing) -> list[_Finding]:
    """A red item titled "black" misleads buyers who filter or skim by colour."""
    sources = [(source, words) for source, words in _colour_sources(listing) if words]
    denied = _denied_colours(listing)
    families = [frozenset(COLOUR_WORDS[word] for word in words) for _, words in sources]
    if not denied and not _any_disjoint(families):
        return []
    stated = dict(sources)
    stated["description"] = stated.get("description", ()) + tuple(f"not {w}" for w in denied)
    return _inconsistency(
        "colour", [(source, list(words)) for source, words in stated.items() if words],
        COLOUR_CONFLICT_PENALTY, "State one colour and use it in the title, the description "
                                 "and the colour attribute.")


def _inconsistency(subject: str, stated: list[tuple[str, list[str]]], penalty: int,
                   suggestion: str) -> list[_Finding]:
    """One finding naming what each place says, so the seller sees which field to correct."""
    detail = "; ".join(f"{source}: {', '.join(values)}" for source, values in stated)
    return [_Finding(penalty, issue=f"The {subject} is inconsistent ({detail}).",
                     suggestion=suggestion)]


def _colour_sources(listing: _Listing) -> list[tuple[str, tuple[str, ...]]]:
    """Colour words per place; the description counts only where it states the colour."""
    stated = " ".join(NEGATED_COLOUR.sub(" ", match.group(1))
                      for match in COLOUR_STATEMENT.finditer(listing.description))
    return [("title", _colour_words(listing.title)),
            ("colour attribute", _colour_words(_colour_attribute(listing))),
            ("description", _colour_words(stated))]


def _colour_words(text: str) -> tuple[str, ...]:
    """Colour words as written ("navy"), in order and without repeats, for the message."""
    return tuple(dict.fromkeys(match.group().lower() for match in _COLOUR.finditer(text)))


def _colour_attribute(listing: _Listing) -> str:
    """The values of every colour-like attribute ("colour", "colourway", "shade")."""
    colour_names = _ATTRIBUTE_NAME_PATTERNS["colour"]
    return " ".join(value for name, value in listing.attributes if colour_names.search(name))


def _denied_colours(listing: _Listing) -> list[str]:
    """Colours the description denies ("not navy") although the title or attribute uses them."""
    named = set(WORD.findall(f"{listing.title} {_colour_attribute(listing)}".lower()))
    denied = {match.group(1).lower() for match in NEGATED_COLOUR.finditer(listing.description)}
    return sorted(denied & named)


# --- Signals for human review ---------------------------------------------------------------------


def _text_signals(listing: _Listing) -> list[_Finding]:
    """Risky phrases anywhere the seller wrote, including sentences cut out as injections."""
    findings = []
    for signal in SIGNALS:
        match = _signal_match(signal, _SIGNAL_TEXT[signal.scope](listing))
        if match:
            issue = signal.issue.replace("{match}", _quote(match))
            findings.append(_Finding(signal.penalty, issue, signal.suggestion, human_review=True,
                                     cap=signal.cap))
    return findings


def _signal_match(signal: _Signal, text: str) -> str:
    """The first match that is not denied just before it ("never recalled"), or ""."""
    for match in signal.pattern.finditer(text):
        before = text[max(0, match.start() - 30):match.start()]
        if not (signal.negatable and NEGATION_BEFORE.search(before)):
            return match.group()
    return ""


def _all_text(listing: _Listing) -> str:
    """Everything the seller wrote, injections included: a risk stays a risk wherever it is."""
    return listing.raw


def _counterfeit_text(listing: _Listing) -> str:
    """Seller text without counterfeit words that name the product's job, not its origin.

    A detector pen exists to find fake notes and a scale model is a replica by design; these
    words are only benign when the title or category says that is what the item is, and a
    "replica" naming a known brand stays suspect even when it is called a toy.
    """
    text = COUNTERFEIT_TOOL.sub(" ", listing.raw)
    heading = f"{listing.title}\n{listing.category}"
    if COUNTERFEIT_TOOL.search(heading):
        text = FAKE_CURRENCY.sub(" ", text)
    if REPLICA_MODEL_CONTEXT.search(heading) and not ANY_BRAND.search(listing.raw):
        text = REPLICA_WORD.sub(" ", text)
    return text


def _proof_text(listing: _Listing) -> str:
    """A missing receipt only matters where authenticity does; a used mug needs none."""
    sensitive = (_is_jewellery(listing) or LUXURY_BRAND.search(listing.raw)
                 or AUTHENTICITY_SENSITIVE.search(listing.raw))
    return listing.raw if sensitive else ""


def _child_safety_items(listing: _Listing) -> list[tuple[str, tuple[str, ...]]]:
    """Items where a missing safety detail can hurt a child, with the details they need."""
    text = f"{listing.raw}\n{listing.category}"
    return [(match.group(), required) for pattern, required in CHILD_SAFETY_ITEMS
            if (match := pattern.search(text))]


def _child_safety(listing: _Listing) -> list[_Finding]:
    """Car seats, cribs and toddler toys with unknown safety details need a person to look."""
    items = _child_safety_items(listing)
    missing = [field for _, required in items for field in required if not _states(listing, field)]
    concern = CHILD_SAFETY_CONCERN.search(listing.raw) if items else None
    if not items or not (missing or concern):
        return []
    details = list(dict.fromkeys(missing)) + ([f'"{_quote(concern.group())}"'] if concern else [])
    return [_Finding(
        CHILD_SAFETY_PENALTY,
        issue=f'This is a child-safety item ("{_quote(items[0][0])}") with missing or uncertain '
              f"safety details ({', '.join(details)}); a reviewer will check it.",
        suggestion="For child-safety items state the safety standard, the age or weight range, the "
                   "expiry or manufacture date and any accident history.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )]


def _precious_metal(listing: _Listing) -> list[_Finding]:
    """Gold, silver or diamond claims on jewellery need a hallmark or certificate to be trusted."""
    if not _is_jewellery(listing):
        return []
    metal = PRECIOUS_METAL.search(listing.raw)
    if not metal or _metal_verified(listing):
        return []
    return [_Finding(
        PRECIOUS_METAL_PENALTY,
        issue=f'The listing mentions "{_quote(metal.group())}" but gives no hallmark, certificate '
              "or karat; a reviewer will verify the precious-metal claim.",
        suggestion='Add a "hallmark" or "karat" attribute (for example 18K / 750) or a '
                   "certificate reference for the metal or stones.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )]


def _is_jewellery(listing: _Listing) -> bool:
    """Metal words only mean precious metal on jewellery; a "silver phone" is just a colour."""
    in_title = JEWELLERY_CONTEXT.search(f"{listing.title}\n{listing.category}")
    return bool(in_title or WATCH_CATEGORY.search(listing.category))


def _metal_verified(listing: _Listing) -> bool:
    """A hallmark/karat/certificate attribute, or a stamp mentioned without negation."""
    named = any(METAL_PROOF_NAMES.search(name) and _is_real(value)
                for name, value in listing.attributes)
    return named or bool(METAL_PROOF_TEXT.search(listing.facts))


def _price_checks(listing: _Listing) -> list[_Finding]:
    """A zero price is usually a mistake; a luxury brand far below value suggests a fake."""
    findings = []
    if listing.price == 0:
        findings.append(_Finding(
            FREE_PRICE_PENALTY,
            issue="The price is 0.",
            suggestion="Confirm the item is meant to be free, or set the real price.",
        ))
    brand = LUXURY_BRAND.search(listing.raw)
    if brand and listing.price < LUXURY_MIN_PRICE:
        findings.append(_luxury_price(listing.price, brand.group()))
    return findings


def _luxury_price(price: Decimal, brand: str) -> _Finding:
    """Luxury goods priced like everyday goods are a classic counterfeit pattern."""
    return _Finding(
        LUXURY_PRICE_PENALTY,
        issue=f'The price ({price}) is unusually low for a "{_quote(brand)}" item; a reviewer will '
              "check its authenticity.",
        suggestion="Add proof of authenticity (receipt, serial number or certificate) and explain "
                   "the low price, for example damage or missing parts.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )


def _injection(listing: _Listing) -> list[_Finding]:
    """Reviewer-directed text was removed before scoring; tell the seller and never reward it."""
    if not listing.injections:
        return []
    return [_Finding(
        INJECTION_PENALTY,
        issue="The listing text contains instructions aimed at the reviewer "
              f'("{listing.injections[0]}"); remove them.',
        suggestion="Describe only the item; instructions to the reviewer are ignored and cannot "
                   "change the score.",
    )]


# --- Compiled tables and rule order ---------------------------------------------------------------

_CATEGORY_RULES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rf"\b(?:{pattern})\b", re.I), expected)
    for pattern, expected in CATEGORY_EXPECTATIONS
)
_ATTRIBUTE_NAME_PATTERNS: dict[str, re.Pattern[str]] = {
    field: re.compile(r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b")
    for field, names in ATTRIBUTE_NAMES.items()
}
_COLOUR = re.compile(r"\b(?:" + "|".join(COLOUR_WORDS) + r")\b" + _COLOUR_PART, re.I)
_SIGNAL_TEXT: dict[str, Callable[[_Listing], str]] = {
    "all": _all_text,
    "counterfeit": _counterfeit_text,
    "proof": _proof_text,
}

# Safety first, then contradictions, then completeness and style; this order is the output order.
_RULES: tuple[Callable[[_Listing], list[_Finding]], ...] = (
    _text_signals,
    _child_safety,
    _precious_metal,
    _price_checks,
    _injection,
    _capacity_conflict,
    _condition_conflict,
    _colour_conflict,
    _short_description,
    _short_title,
    _generic_title,
    _no_attributes,
    _vague_phrases,
    _shouting_title,
    _exclamations,
    _missing_fields,
)
