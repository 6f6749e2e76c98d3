"""Vocabulary of the five general rule families, as plain data tables.

Why tables: the rules below them are few and general ("a safety-critical product described as
damaged"); what varies from market to market is only the words, so the words live here and a new
product type or damage word is a one-line change, not a new rule.
"""

# Family 1: products where damage, missing parts, a recall or an unknown model can hurt someone.
SAFETY_PRODUCTS: dict[str, tuple[str, ...]] = {
    "protective gear": ("helmets?", "crash helmets?", "motorcycle helmets?", "bike helmets?",
                        "climbing harness(?:es)?", "harness(?:es)?", "life jackets?",
                        "life vests?", "buoyancy aids?", "carabiners?", "climbing ropes?",
                        "smoke alarms?", "smoke detectors?", "carbon monoxide (?:alarms?|detectors?)",
                        "fire extinguishers?"),
    "child product": ("car[\\s-]?seats?", "booster seats?", "infant seats?", "cribs?", "cots?",
                      "cot beds?", "bassinets?", "moses baskets?", "playpens?", "high[\\s-]?chairs?",
                      "baby gates?", "baby carriers?", "baby walkers?", "prams?", "strollers?",
                      "pushchairs?", "bouncers?", "baby monitors?"),
    "battery or electrical": ("batter(?:y|ies)", "power banks?", "chargers?", "charging cables?",
                              "adapters?", "power supply", "power supplies", "extension leads?",
                              "extension cords?", "power strips?", "heaters?", "space heaters?",
                              "electric blankets?", "heated blankets?", "hair ?dryers?",
                              "straighteners?", "curling irons?", "kettles?", "toasters?",
                              "microwaves?", "e-?bikes?", "electric bikes?", "e-?scooters?",
                              "electric scooters?", "hoverboards?", "vapes?", "e-?cigarettes?",
                              "lithium", "li-?ion", "mains", "plugs?", "sockets?", "wiring"),
    "food contact": ("baby bottles?", "feeding bottles?", "bottles?", "sippy cups?",
                     "food containers?", "lunch ?box(?:es)?", "cookware", "frying pans?",
                     "pans?", "pots?", "saucepans?", "non[\\s-]?stick", "cutting boards?",
                     "blenders?", "pressure cookers?", "air fryers?", "slow cookers?",
                     "water filters?", "thermos", "flasks?", "tupperware", "teats?", "dummies",
                     "pacifiers?", "breast pumps?"),
}
# What makes such a product unsafe to pass without a person looking.
SAFETY_HAZARDS: dict[str, tuple[str, ...]] = {
    "damage": ("cracked", "cracks?", "dented", "dents?", "damaged", "damage", "broken", "snapped",
               "frayed", "exposed wires?", "bare wires?", "burn(?:t|ed|ing)? marks?", "scorch\\w*",
               "melted", "sparks?", "sparking", "smok(?:es|ing)", "overheat\\w*", "shorts? out",
               "rust(?:y|ed)?", "corroded", "corrosion", "chipped", "peeling", "flaking", "leak\\w*",
               "swollen", "bulg\\w*", "dropped", "crash(?:ed)?", "accident", "impact", "faulty",
               "(?:does ?n[o']?t|doesnt|not) work(?:ing)?", "stopped working", "intermittent",
               "tape[ds]? up", "taped", "repaired with", "glued", "mould", "mold", "mouldy",
               "moldy", "stained"),
    "missing parts": ("missing", "incomplete", "parts? (?:not included|lost)", "lost the",
                      "without (?:the )?(?:straps?|buckles?|base|clips?|pads?|lid|guard|cover|"
                      "screws?|bolts?|fittings?|instructions|manual)"),
    "recall": ("recall(?:ed)?",),
    "unknown model or history": ("unknown (?:model|make|brand|history|age|origin)",
                                 "(?:model|make|brand|age|history) (?:is )?unknown",
                                 "no (?:labels?|markings?|model number)", "labels? (?:missing|removed)",
                                 "not sure (?:of |about |what )?(?:the )?(?:model|make|age|history)",
                                 "expired", "past (?:its )?expiry", "second[\\s-]?hand"),
}
# Words after "missing" that are packaging, not a part that keeps someone safe.
PACKAGING_WORDS: tuple[str, ...] = ("box", "packaging", "tags?", "receipt", "bag", "dust ?bag",
                                    "paperwork", "original box")

# Family 2: claims that need evidence, and the evidence that supports them.
PROVENANCE_CLAIMS: tuple[str, ...] = (
    "signed", "hand[\\s-]?signed", "autograph(?:ed|s)?", "authenticity guaranteed",
    "(?:is|are|it'?s|100 ?%|guaranteed|totally|completely|fully|definitely)\\s+(?:real|original|genuine|"
    "authentic)(?![\\s-]+(?:leather|suede|wood|sheepskin|paper|parts?|box))",
    "certified (?:authentic|original)", "original (?:painting|artwork|art|oil|watercolou?r|print)",
    "first edition", "1st edition", "antique", "provenance", "museum quality", "rare",
    "limited edition", "solid (?:gold|silver|platinum)", "(?:9|10|14|18|22|24) ?(?:k|kt|ct|carat|karat)\\b",
    "sterling(?: silver)?", "925", "750", "platinum", "diamonds?", "real gold", "real silver",
    "pure gold", "pure silver", "gemstones?", "rubies|ruby", "sapphires?", "emeralds?",
)
EVIDENCE_TERMS: tuple[str, ...] = (
    "certificate", "coa", "certified by", "receipt", "invoice", "proof of purchase", "hallmark\\w*",
    "assay\\w*", "stamped", "appraisal", "appraised", "valuation", "gia", "igi", "psa", "jsa",
    "beckett", "serial(?: number)?", "documentation", "documented", "papers", "letter of provenance",
    "authenticated by", "entrupy", "isbn", "catalogue raisonn\\w*",
)

# Family 3: quantities stated with a unit, per kind; one unit table per thing that can disagree.
NUMERIC_UNITS: dict[str, str] = {
    "storage capacity": r"(\d+(?:\.\d+)?)\s*(gb|tb)\b",
    "battery capacity": r"(\d{3,6})\s*(mah)\b",
    "volume": r"(\d+(?:\.\d+)?)\s*(l|litres?|liters?|ml)\b",
    "power": r"(\d+(?:\.\d+)?)\s*(w|watts?|kw)\b",
    "screen size": r"(\d{2}(?:\.\d)?)\s*(\"|-?inch(?:es)?|in\b)",
    "weight": r"(\d+(?:\.\d+)?)\s*(kg|g|lbs?)\b",
    "quantity": r"(?:set|pack|lot|box|bundle|case) of (\d+)()|(\d+)\s*(pcs|pieces|piece|pack|count|ct)\b",
}
# Attribute names that hold the same kind of value, so "quantity: 4" meets "set of 6".
NUMERIC_ATTRIBUTE_NAMES: dict[str, tuple[str, ...]] = {
    "quantity": ("quantity", "qty", "pieces", "count", "number of pieces", "pack size", "set size"),
    "year": ("year", "model year", "release year", "year of manufacture", "production year"),
}
YEAR = r"\b((?:19[5-9]|20[0-4])\d)\b"
# A model named in the title and in the model attribute: same word, different number.
MODEL_TOKEN = r"\b([a-z]{2,})[\s-]?(\d{1,4})\b"

# Family 4: the condition claimed, and the damage that contradicts it.
PRISTINE_CLAIMS: tuple[str, ...] = (
    "brand[\\s-]new", "new", "new with tags", "new in box", "sealed", "unopened", "unused", "mint",
    "mint condition", "like[\\s-]new", "as new", "perfect condition", "flawless", "pristine",
    "excellent condition", "immaculate", "no flaws", "nwt", "bnwt", "bnib",
)
CONDITION_DEFECTS: tuple[str, ...] = (
    "cracked", "cracks?", "broken", "torn", "tears?", "rips?", "ripped", "holes?", "stains?",
    "stained", "dents?", "dented", "chipped", "chips", "scratched", "(?:heavy|deep|many) scratch\\w*",
    "faulty", "(?:does ?n[o']?t|doesnt|not) (?:work|turn on|charge|power on)", "stopped working",
    "for parts", "spares or repairs", "water damage", "missing (?:buttons?|keys?|parts?|pieces?)",
    "dead pixels?", "worn out", "heavily worn", "fading", "faded", "pilling", "wear and tear",
)

# Family 5: below this, a reviewer cannot tell what is being sold or in what state.
MIN_ASSESSABLE_DESCRIPTION_WORDS = 3

# Shared: words that deny what follows ("no cracks", "never dropped", "free of damage").
NEGATION_WORDS: tuple[str, ...] = (
    "no", "not", "never", "nor", "without", "zero", "free of", "free from", "isn'?t", "wasn'?t",
    "aren'?t", "hasn'?t", "haven'?t", "doesn'?t", "don'?t", "didn'?t", "hardly any", "nothing",
    "none", "n't",
)
