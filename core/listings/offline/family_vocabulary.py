"""Vocabulary of the rule families that send a listing to a person, as plain data tables.

Why tables: the rules that read them are few and general ("a safety-critical product described as
damaged", "a claim that needs evidence, with none given"); what varies from market to market is
only the words, so the words live here and a new product type, hazard or regulated good is a
one-line change, not a new rule. Entries are regular-expression fragments matched as whole words,
case-insensitively; a denied mention ("no cracks", "never recalled") does not count unless the
table says its terms carry their own negation.
"""

from core.listings.offline.vocabulary import LUXURY_BRANDS

# --- Family: safety-critical products ---------------------------------------------------------------

# Products where damage, a missing part or an unknown history can hurt someone; named in the title
# or the category. Each kind lists the hazards that matter for it.
SAFETY_PRODUCTS: dict[str, tuple[str, ...]] = {
    "protective gear": ("helmets?", "climbing harness(?:es)?", "harness(?:es)?", "life jackets?",
                        "life vests?", "buoyancy aids?", "carabiners?", "climbing ropes?", "belay devices?",
                        "smoke alarms?", "smoke detectors?", "carbon monoxide (?:alarms?|detectors?)",
                        "fire extinguishers?", "safety goggles", "hard hats?"),
    "child product": ("car[\\s-]?seats?", "booster seats?", "child (?:bike |bicycle |cycle )?seats?",
                      "infant seats?", "baby capsules?", "cribs?", "cots?", "cot beds?", "bassinets?",
                      "moses baskets?", "playpens?", "play yards?",
                      "high[\\s-]?chairs?", "baby gates?", "stair gates?", "baby carriers?", "baby walkers?",
                      "prams?", "strollers?", "pushchairs?", "buggies", "bouncers?", "baby monitors?"),
    "battery or electrical": ("batter(?:y|ies)", "power banks?", "chargers?", "charging cables?",
                              "adapters?", "power supply", "power supplies", "extension leads?",
                              "extension cords?", "power strips?", "heaters?", "electric blankets?",
                              "heated blankets?", "hair ?dryers?", "straighteners?", "curling irons?",
                              "kettles?", "toasters?", "microwaves?", "lamps?", "e-?bikes?",
                              "electric bikes?", "e-?scooters?", "electric scooters?", "hoverboards?",
                              "lithium", "li-?ion", "lipo", "mains", "plugs?", "sockets?", "wiring"),
    "food contact": ("baby bottles?", "feeding bottles?", "sippy cups?", "food containers?",
                     "lunch ?box(?:es)?", "cookware", "frying pans?", "pans?", "pots?", "saucepans?",
                     "woks?", "non[\\s-]?stick", "cutting boards?", "chopping boards?", "blenders?",
                     "pressure cookers?", "air fryers?", "slow cookers?", "water filters?", "thermos",
                     "flasks?", "teats?", "dummies", "pacifiers?", "breast pumps?"),
    "vehicle safety part": ("brake (?:pads?|discs?|rotors?|calipers?|shoes|lines?|hoses?)", "brakes",
                            "tyres?", "tires?", "airbags?", "seat ?belts?", "steering (?:racks?|wheels?)",
                            "wheel nuts", "tow (?:bars?|hitch(?:es)?)", "child locks?"),
}
# Hazard words, by kind of hazard.
SAFETY_HAZARDS: dict[str, tuple[str, ...]] = {
    "damage": ("cracked", "cracks?", "hairline", "split", "splits", "dented", "dents?", "damaged",
               "damage", "broken", "snapped", "bent", "frayed", "torn", "burn(?:t|ed|ing)? marks?",
               "scorch\\w*", "melted", "rust(?:y|ed)?", "corroded", "corrosion", "chipped",
               "chips? (?:on|in|to)", "bulg\\w*", "peeling",
               "flaking", "flakes?", "scratched coating", "coating (?:is )?(?:coming|worn) off", "leak\\w*",
               "dropped", "fell", "fallen", "crash(?:ed)?", "accident", "impact", "faulty",
               "(?:does ?n[o']?t|doesnt|not) work(?:ing)?", "stopped working", "intermittent",
               "tape[ds]? up", "taped", "repaired with", "glued", "mould", "mold", "mouldy", "moldy",
               "worn (?:down|through|out)", "bald", "low tread"),
    "missing parts": ("missing", "incomplete", "parts? (?:not included|lost)", "lost the",
                      "(?:got|was|were|went|is|are) lost",
                      "no longer (?:has|have|comes? with)",
                      "without (?:the |its )?(?:straps?|buckles?|base|clips?|chest clip|pads?|lid|guard|"
                      "cover|screws?|bolts?|fittings?|instructions|manual|harness)"),
    "unknown history": ("unknown (?:model|make|brand|history|age|origin)",
                        "(?:model|make|brand|age|history) (?:is )?unknown",
                        "no (?:labels?|markings?|model number)", "labels? (?:missing|removed|cut off)",
                        "(?:not sure|no idea|don'?t know) (?:of |about |what |which |how old )?(?:the )?"
                        "(?:model|make|age|year|history|it is)",
                        "labels? (?:is |are )?(?:faded|unreadable|illegible|worn off)",
                        "expired", "past (?:its )?expiry", "out of date"),
}
# Which hazards matter for which kind: an unknown history matters for gear that protects once.
HAZARDS_BY_PRODUCT: dict[str, tuple[str, ...]] = {
    "protective gear": ("damage", "missing parts", "unknown history"),
    "child product": ("damage", "missing parts", "unknown history"),
    "battery or electrical": ("damage", "missing parts"),
    "food contact": ("damage",),
    "vehicle safety part": ("damage", "unknown history"),
}
# Words after "missing" that are packaging, not a part that keeps someone safe.
PACKAGING_WORDS: tuple[str, ...] = ("box", "packaging", "tags?", "receipt", "bag", "dust ?bag",
                                    "paperwork", "original box", "manual", "instructions")

# A damaged battery ("battery has swollen", "bulging battery") but not a denial in between
# ("battery is not swollen") nor a conjunction that moves to another part ("battery good but ...").
_GAP = ("(?:(?!(?:not|no|never|nor|but|and|or|yet|though|although|while|however|isnt|wasnt|hasnt|"
        "doesnt)\\b|[\\w']*n't\\b)[\\w']+\\s+)")
_BATTERY = ("batter(?:y|ies)(?![\\s-]+(?:covers?|doors?|lids?|compartments?|flaps?|contacts?|terminals?|"
            "indicators?|icons?|level|meters?|grips?))")
_SWELLING = ("(?:swollen|swell(?:s|ed|ing)?(?: up)?|bulg(?:e|es|ed|ing)|bloated|puffy|puff(?:s|ed|ing)?"
             "(?: up)?|expanded|expanding|leaking|leaks|leaked|damaged|overheats|overheating|overheated|"
             "(?<!non[\\s-])smok(?:ing|es)|caught fire|catches fire)")
# Hazards that need no product word: fire and electric shock, and a recall, wherever they appear.
FIRE_HAZARDS: tuple[str, ...] = (
    "(?:swollen|swelling|bulging|bulged|bulge|bloated|puffy|puffed|expanded|leaking|damaged|overheating)"
    "\\s+" + _GAP + "{0,2}?" + _BATTERY,
    _BATTERY + "\\s+" + _GAP + "{0,3}?" + _SWELLING,
    "(?:exposed|bare|frayed|visible) (?:copper |live )?(?:wires?|wiring|cables?|conductors?)",
    "wires? (?:are |is )?(?:exposed|showing|poking out)", "sparking", "sparks (?:when|if|from|out|a bit)",
    "(?:gives?|gave) (?:off )?sparks", "burning smell", "smells? of burning", "caught fire", "catches fire",
    "(?:gives?|gave|giving) (?:me |you )?(?:an? )?(?:small |slight )?(?:electric(?:al)? )?shocks?",
)
# A battery product that swells is a fire risk even when the listing never says "battery".
SWELLING_TERMS: tuple[str, ...] = (
    "swollen", "swelling", "swelled", "puffy", "puffed(?: up)?", "puffing(?: up)?", "bulg\\w*", "bloated",
    "expanded", "expanding",
)
RECALL_TERMS: tuple[str, ...] = (
    "recalled", "recall notices?", "under (?:a |the )?recall", "product recall", "safety recall",
    "recall (?:list|campaign|programme|program)",
    "(?:part of|subject to|affected by|included in|covered by|listed in|named in)\\s+(?:a|an|the)\\s+"
    "(?:[\\w'-]+\\s+){0,2}?recall",
)

# --- Family: authenticity, provenance, signatures and precious materials ---------------------------

# Claims that need evidence wherever they appear.
PROVENANCE_CLAIMS: tuple[str, ...] = (
    "signed", "hand[\\s-]?signed", "autograph(?:ed|s)?", "authenticity guaranteed",
    "(?:is|are|it'?s|100 ?%|guaranteed|totally|completely|fully|definitely)\\s+(?:real|original|genuine|"
    "authentic)(?![\\s-]+(?:leather|suede|wood|sheepskin|paper|parts?|box))",
    "genuine(?![\\s-]+(?:leather|suede|wood|sheepskin|paper|notes?|banknotes?|wool|silk|cotton|fur|down|horn|"
    "stone|parts?|accessor\\w*|oem|replacement))",
    "authentic(?![\\s-]+(?:recipe|taste|flavou?r|style|look))", "certified (?:authentic|original)",
    "original (?:painting|artwork|art|oil|watercolou?r|drawing|sketch)", "first edition",
    "1st edition", "antique", "provenance", "museum quality", "game[\\s-]worn", "match[\\s-]worn",
    "(?:1[5-9]|20)th century",
)
# Claims that only mean a precious material on jewellery or watches ("silver phone" is a colour).
PRECIOUS_CLAIMS: tuple[str, ...] = (
    "solid (?:gold|silver|platinum)", "(?:9|10|14|18|22|24) ?(?:k|kt|ct|carat|karat)\\b",
    "sterling(?: silver)?",
    "925", "750", "375", "platinum", "gold", "silver", "diamonds?", "real gold", "pure gold",
    "gemstones?", "rub(?:y|ies)", "sapphires?", "emeralds?", "pearls?",
)
# Plated, toned or coloured is a finish, not a precious-material claim.
NOT_A_FINISH = ("(?![\\s-]*(?:plated|tone|toned|filled|colou?r\\w*|effect|look|finish|pattern|style|vermeil|"
                "alumini?um|stainless|steel|plastic|titanium))")
JEWELLERY_WORDS: tuple[str, ...] = (
    "jewell?ery", "jewelry", "rings?", "necklaces?", "bracelets?", "earrings?", "pendants?", "chains?",
    "bangles?", "brooch(?:es)?", "anklets?", "cufflinks?", "gems?(?:tones?)?", "watch(?:es)?",
)
EVIDENCE_TERMS: tuple[str, ...] = (
    "certificate", "coa", "certified by", "receipts?", "invoice", "proof of purchase", "hallmark\\w*",
    "assay\\w*", "stamped", "appraisal", "appraised", "valuation", "gia", "igi", "psa", "bgs", "cgc",
    "jsa", "beckett", "serial(?: number)?", "documentation", "documented", "box and papers", "papers",
    "letter of provenance", "authenticated by", "entrupy", "isbn", "catalogue raisonn\\w*", "graded",
    "part (?:number|no\\.?)", "mpn", "batch (?:code|number)",
)
# The seller doubts or cannot prove authenticity; these terms carry their own negation.
DOUBT_TERMS: tuple[str, ...] = (
    "no proof of authenticity", "can'?t verify", "cannot verify", "can not verify", "unable to verify",
    "not verified", "unverified", "authenticity (?:unknown|not guaranteed|unverified|not confirmed)",
    "unknown (?:authenticity|origin|provenance)", "(?:origin|provenance) unknown", "no hallmarks?",
    "not hallmarked", "unhallmarked", "unstamped", "not stamped", "no stamps?",
    "(?:i was|i've been|was) told (?:it'?s|it is)",
    "not sure (?:if |whether )?(?:it'?s |it is )?(?:real|authentic|genuine|original)",
    "don'?t know if (?:it'?s |it is )?(?:real|authentic|genuine|original)",
)
_PROOF = ("(?:certificates?|certs?|receipts?|papers|paperwork|proof of (?:purchase|authenticity)|"
          "invoices?|documentation|authenticity cards?|coa)")
_ARTICLES = "(?:(?:the|a|an|any|its|my|their|original)\\s+)*"
# Proof said to be missing; only matters where authenticity does (see AUTHENTICITY_SENSITIVE).
MISSING_PROOF_TERMS: tuple[str, ...] = (
    "(?:no|without)\\s+" + _ARTICLES + _PROOF,
    "(?:lost|misplaced|can'?t find|cannot find)\\s+" + _ARTICLES + _PROOF,
    "(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|never)\\s+(?:have|has|had|come with|came with|"
    "include|includes|get|got)\\s+" + _ARTICLES + _PROOF,
    _PROOF + "\\s+(?:(?:is|are|was|were|got|has been|have been)\\s+)?(?:lost|missing|misplaced|"
    "not included|unavailable)",
)
AUTHENTICITY_SENSITIVE: tuple[str, ...] = (
    "designer", "signed", "autograph(?:ed|s)?", "memorabilia", "antiques?",
    "original (?:painting|artwork|art)",
    *JEWELLERY_WORDS, *LUXURY_BRANDS,
)
# The seller says the item is an imitation: counterfeit goods may not be sold.
IMITATION_TERMS: tuple[str, ...] = (
    "counterfeit", "replicas?", "fake(?!\\s+(?:fur|leather|suede|plants?|flowers?|grass|foliage|greenery|ivy|"
    "succulents?|cactus|cacti|fruit|food|cakes?|candles?|books?|tattoos?|teeth|beards?|mo?ustaches?|"
    "eyelash\\w*|lashes|nails|tan|snow|blood|trees?))",
    "knock[\\s-]?offs?", "bootleg", "dupes?",
    "inspired by (?:the\\s+)?(?:" + "|".join(LUXURY_BRANDS) + ")",
    "(?:" + "|".join(LUXURY_BRANDS) + ")[\\s-]inspired",
    "(?<!disk )(?<!drive )(?<!ssd )(?<!hdd )clones?(?!\\s+(?:troopers?|wars|commanders?|army|armies|tool|"
    "software|stamp))",
    "(?:aaa|a-grade|grade[\\s-]a|top[\\s-]quality|high[\\s-]quality|premium[\\s-]quality|best[\\s-]quality|"
    "super|mirror|unauthori[sz]ed|factory|1:1)\\s*(?:copy|copies|replica)",
    "copy (?:version|of (?:a |an |the )?(?:" + "|".join(LUXURY_BRANDS) + "))",
    "1:1\\s*(?:clone|version|quality|original|reproduction)",
    "mirror[\\s-]*(?:quality|grade|image)(?![\\s-]*(?:glass|finish|polish\\w*|shine|surface|reflection))",
)
# Contexts where an imitation word names the product's job: a detector of fakes, a scale model.
COUNTERFEIT_TOOL_TERMS: tuple[str, ...] = (
    "(?:counterfeit|fake|forged|forgery)\\s+(?:(?:bank\\s*)?notes?\\s+|banknotes?\\s+|money\\s+|bills?\\s+|"
    "currency\\s+|cash\\s+|coins?\\s+)?(?:detectors?|detection|checkers?|testers?|scanners?|verifiers?)",
    "(?:detects?|detecting|checks?|checking|spots?|spotting)\\s+(?:for\\s+)?(?:counterfeit|fake|forged)",
)
FAKE_CURRENCY_TERMS: tuple[str, ...] = (
    "(?:counterfeit|fake|forged)\\s+(?:bank\\s*)?(?:notes?|banknotes?|bills?|money|currency|coins?)",
)
REPLICA_MODEL_TERMS: tuple[str, ...] = (
    "scale models?", "model kits?", "die[\\s-]?cast", "1\\s*[:/]\\s*(?:[2-9]|\\d{2,3})", "props?", "cosplay",
    "costumes?", "miniatures?", "figurines?", "action figures?", "toys?", "museum replica",
    "model (?:cars?|ships?|trains?|planes?|aircraft|boats?|tanks?)",
)

# --- Family: regulated or illegal goods -------------------------------------------------------------

# Goods a marketplace listing cannot sell without checks it cannot make (age, prescription, licence).
REGULATED_GOODS: dict[str, tuple[str, ...]] = {
    "age-restricted nicotine or tobacco": (
        "nicotine", "nic salts?", "e-?liquids?", "vape juice", "e-?juice", "vapes?", "vaping",
        "vape (?:kits?|pens?)",
        "e-?cigarettes?", "snus",
        "tobacco(?![\\s-]*(?:pipes?|pouch\\w*|tins?|jars?|box\\w*|humidors?|colou?r\\w*))",
        "cigarettes?(?![\\s-]*(?:lighters?|cases?|cards?|holders?|box\\w*))",
        "cigars?(?![\\s-]*(?:box\\w*|humidors?|cutters?|cases?|lighters?|ashtrays?))"),
    "alcohol": ("alcoholic (?:drinks?|beverages?)", "liquor",
                "bottles? of (?:wine|whisk(?:e)?y|vodka|gin|rum|champagne|brandy|cognac|tequila|beer)",
                "(?:single malt|blended) (?:scotch|whisk(?:e)?y)", "\\d+(?:\\.\\d+)?\\s?% abv"),
    "weapon": ("switchblades?", "flick knives?", "flick knife", "gravity knives?", "gravity knife",
               "butterfly knives?", "butterfly knife", "balisongs?", "automatic knives?", "automatic knife",
               "auto knives?", "auto knife", "otf", "out[\\s-]the[\\s-]front", "knuckle[\\s-]?dusters?",
               "brass knuckles", "stun guns?", "tasers?", "pepper sprays?", "cs (?:gas|spray)",
               "firearms?", "handguns?", "(?<!water )(?<!glue )(?<!nerf )(?<!toy )pistols?(?![\\s-]*grips?)",
               "revolvers?", "shotguns?", "rifles?(?![\\s-]*(?:scopes?|bags?|cases?|slings?))",
               "ammunition", "ammo(?![\\s-]*(?:box\\w*|cans?|tins?|pouch\\w*))", "gunpowder",
               "knife for self[\\s-]defen[cs]e",
               "(?:for|great for|ideal for) self[\\s-]defen[cs]e",
               "self[\\s-]defen[cs]e (?:weapon|knife|tool)"),
    "prescription medicine": (
        "prescription[\\s-]only", "prescription (?:medicines?|medications?|drugs?|pills?|tablets?)",
        "rx only", "insulin(?![\\s-]*(?:cool\\w*|bags?|cases?|wallets?|pouch\\w*))", "antibiotics?",
        "amoxicillin", "opioids?", "morphine", "codeine", "oxycodone",
        "fentanyl", "tramadol", "diazepam", "valium", "xanax", "alprazolam", "benzodiazepines?",
        "sleeping pills", "anabolic steroids?", "testosterone (?:injections?|cypionate|enanthate)",
        "semaglutide", "ozempic", "wegovy", "mounjaro", "tirzepatide", "sildenafil", "viagra", "cialis",
        "tadalafil", "epi-?pens?", "adrenaline auto-?injectors?", "controlled (?:drugs?|substances?)",
        "left ?over (?:medication|medicine|pills|tablets)"),
    "veterinary medicine": ("flea (?:treatments?|drops|spot-?ons?)", "spot-?on (?:treatments?|pipettes?)",
                            "(?:de)?wormers?", "worming (?:tablets|treatments?)", "permethrin", "fipronil"),
    "drug": ("cannabis", "marijuana", "thc", "psilocybin", "magic mushrooms", "kratom"),
    "banned substance": ("(?:contains?|containing|with) mercury", "mercury (?:chloride|compounds?|salts?)",
                         "mercuric", "calomel", "hydroquinone", "skin (?:lightening|bleaching|whitening)",
                         "(?:lightening|bleaching) creams?", "asbestos", "lead[\\s-]based paint",
                         "banned (?:ingredients?|substances?|in the)"),
    "licence key resale": ("volume licen[cs]e", "mak keys?", "kms (?:keys?|activation)", "oem keys?",
                           "(?:product|licen[cs]e|activation|cd|software|windows|office) keys? only",
                           "lifetime (?:keys?|licen[cs]e|activation)", "activation keys?", "cd[\\s-]?keys?",
                           "(?:keys?|codes?)(?: only)?,? (?:sent|delivered|emailed) (?:by|via|within|in)",
                           "emailed keys?"),
}
# Offering to skip a legal check is a signal of its own; these terms carry their own negation.
CHECK_EVASION_TERMS: tuple[str, ...] = (
    "no (?:id|age) (?:needed|required|checks?|verification)", "no age check", "no questions asked",
    "no prescription (?:needed|required)", "without (?:a )?prescription", "untraceable",
)

# --- Family: medical and health claims ---------------------------------------------------------------

# Named conditions: claiming a product relieves or prevents one is a medical claim.
HEALTH_CONDITIONS: tuple[str, ...] = (
    "cancer", "tumou?rs?", "diabetes", "arthritis", "rheumatism", "rheumatoid", "gout", "fibromyalgia",
    "sciatica", "migraines?", "joint pain", "chronic pain", "nerve pain", "neuropathy", "tinnitus",
    "insomnia", "anxiety", "depression", "adhd", "autism", "asthma", "eczema", "psoriasis",
    "covid(?:-19)?", "hiv", "alzheimer'?s", "dementia", "parkinson'?s", "epilepsy", "heart disease",
    "high blood pressure", "hypertension", "cholesterol", "osteoporosis", "varicose veins", "hair loss",
    "obesity", "blood sugar",
)
# Everyday complaints: only "cures" or "heals" them is a claim; "eases back pain" is ordinary.
MINOR_AILMENTS: tuple[str, ...] = (
    "pain", "acne", "scars", "wounds", "injuries", "headaches?", "colds?", "flu", "infections?",
    "diseases?", "illness(?:es)?", "everything", "all",
)
_CONDITION = "(?:" + "|".join(HEALTH_CONDITIONS) + ")\\b"
_AILMENT = "(?:" + "|".join(HEALTH_CONDITIONS + MINOR_AILMENTS) + ")\\b"
_STRONG_CLAIM = "(?:cures?|cured|cure for|heals?|remedy for)"
# "treats for dogs" is a noun; the verb takes its object directly ("treats arthritis").
_CLAIM = ("(?:treats?(?!\\s+for\\b)|treating|treatment for|prevents?|preventing|reverses?|relieves?|"
          "relieving|relief (?:of|from|for)|alleviates?|eases?|fights?|reduces?|reducing|lowers?|"
          "helps? (?:with|against)|therapy for|protects? against|controls?|regulates?)")
MEDICAL_CLAIM_TERMS: tuple[str, ...] = (
    _STRONG_CLAIM + "\\s+(?:\\w+\\s+){0,3}?" + _AILMENT,
    _CLAIM + "\\s+(?:[\\w']+\\s+){0,3}?" + _CONDITION,
    _CONDITION + "(?:\\s+pain)?\\s+(?:relief|remedy|cure|treatment|therapy)",
    "(?:clinically|medically|scientifically)\\s+(?:proven|shown|tested and proven)",
    "(?:therapeutic|detox\\w*)\\b[^.!?\\n]{0,60}?\\b" + _CONDITION,
    _CONDITION + "[^.!?\\n]{0,60}?\\b(?:therapeutic|detox\\w*)",
    "miracle\\s+(?:cure|remedy|treatment|oil|supplement|pills?|tea|water|healing|results?)",
    "miraculous(?:ly)?\\s+(?:heal\\w*|cure\\w*|results?)",
    "(?:stop|quit|replace|instead of)\\s+(?:taking\\s+)?(?:your\\s+)?(?:medications?|medicines?|meds|insulin|"
    "prescriptions?)",
)

# --- Family: contradictions on numbers --------------------------------------------------------------

# Quantities stated with a unit, per kind: (number, unit) groups. Units are converted to one base
# per kind (UNIT_SCALE) and values equal within rounding agree ("1 TB" and "1024 GB", "2 kW" and
# "2000 W", "15.6 in" and "39.6 cm").
NUMERIC_UNITS: dict[str, str] = {
    "storage capacity": r"(?<![\d.])(\d+(?:\.\d+)?)\s*(gb|tb)\b(?!\s*(?:of\s+)?(?:unified\s+)?(?:ram|memory|"
                        r"ddr\w*|lpddr\w*|vram|gddr\w*))",
    "battery capacity": r"(\d{3,6})\s*(mah)\b",
    "volume": r"(\d+(?:\.\d+)?)\s*(l|litres?|liters?|ml)\b",
    "power": r"(\d+(?:\.\d+)?)\s*(w|watts?|kw)\b",
    "screen size": r"(\d{2}(?:\.\d)?)\s*(\"|-?inch(?:es)?)",
    "weight": r"(?<![\d.])(?![2-6]g\b)(\d+(?:\.\d+)?)\s*(kg|g|lbs?)\b",  # "5G" is a network, not 5 g
}
UNIT_SCALE: dict[str, float] = {
    "gb": 1, "tb": 1000, "mah": 1, "l": 1000, "litre": 1000, "liter": 1000, "ml": 1, "w": 1, "watt": 1,
    "kw": 1000, '"': 25.4, "inch": 25.4, "inche": 25.4, "in": 25.4, "-inch": 25.4, "-inche": 25.4, "cm": 10,
    "mm": 1, "kg": 1000, "g": 1, "lb": 453.6,
}
SAME_VALUE_TOLERANCE = 0.05  # rounding and GB/GiB: within 5 % is the same value stated twice
# Sizes: the title against size attributes only; descriptions list many other lengths.
SIZE_IN_TITLE = r"(\d{2,3}(?:\.\d)?)\s*(cm|mm|\"|-?inch(?:es)?|in\b)"
SIZE_ATTRIBUTE_NAMES = r"\b(?:frame size|frame|size|length|screen size|diagonal|wheel size)\b"
SIZE_ATTRIBUTE_VALUE = r"(\d{2,3}(?:\.\d)?)\s*(cm|mm|\"|-?inch(?:es)?|in\b)?"
# Counts: "set of 6", "4-pack", "2x tickets", "x10"; number words are read as digits first.
QUANTITY_PATTERNS: tuple[str, ...] = (
    r"\b(?:set|pack|lot|box|bundle|case) of (\d{1,3})\b",
    r"\b(\d{1,3})[\s-]?(?:pcs|pieces|piece|pack|count|ct)\b",
    r"\b(\d{1,3})\s?x\s+(?=[a-z])", r"(?<=[a-z])\s+x\s?(\d{1,3})\b",
)
NUMBER_WORDS: dict[str, str] = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}
QUANTITY_ATTRIBUTE_NAMES: tuple[str, ...] = ("quantity", "qty", "pieces", "count", "number of pieces",
                                             "pack size", "set size", "number of tickets", "tickets")
YEAR_ATTRIBUTE_NAMES: tuple[str, ...] = ("year", "model year", "release year", "year of manufacture",
                                         "production year")
YEAR = r"\b((?:19[5-9]|20[0-4])\d)\b"
# A model named in the title and in the model attribute: same word, different number.
MODEL_TOKEN = r"\b([a-z]{2,})[\s-]?(\d{1,4}[a-z]{0,2})\b"
# A model or set code ("75192", "QE55Q60B"): three digits or more; measurements are not codes.
MODEL_CODE = r"\b(?!(?:19|20)\d\d\b)(?!\d+[a-z]{1,3}\b)(?=[a-z-]*(?:\d[a-z-]*){3})[a-z0-9-]{4,}\b"

# --- Family: condition contradictions ---------------------------------------------------------------

PRISTINE_CLAIMS: tuple[str, ...] = (
    "mint", "mint condition", "perfect condition", "flawless", "pristine", "immaculate", "no flaws",
    "sealed", "unopened", "unused", "never used", "nwt", "bnwt", "bnib",
)
CONDITION_DEFECTS: tuple[str, ...] = (
    "cracked", "cracks?", "broken", "torn", "tears?", "rips?", "ripped", "holes?", "stains?", "stained",
    "dents?", "dented", "chipped", "chips", "scratched", "scratch(?:es)?", "scuff(?:s|ed)?",
    "faulty", "(?:does ?n[o']?t|doesnt|not) (?:work|turn on|charge|power on)", "stopped working",
    "for parts", "spares or repairs", "water damage", "missing (?:buttons?|keys?|parts?|pieces?)",
    "dead pixels?", "worn out", "heavily worn", "fading", "faded", "pilling", "wear and tear",
)

# --- Family: too incomplete to assess ---------------------------------------------------------------

# Below this many words, with no item specifics, nobody can tell what is sold or in what state.
MIN_ASSESSABLE_DESCRIPTION_WORDS = 3
# A title of filler alone ("Item for sale", "stuff") does not say what is sold; with a description
# this short nothing else does either.
UNIDENTIFIED_DESCRIPTION_WORDS = 15
FILLER_TITLE_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "and", "of", "for", "with", "sale", "selling", "lot", "job", "joblot", "bundle",
    "item", "items", "stuff", "things", "thing", "misc", "various", "assorted", "my", "x",
    "used", "new", "old", "good", "nice", "great", "cheap", "bargain", "quick", "offers", "ono", "obo",
    "dm", "me", "pm", "message", "details", "see", "description", "inside", "collection", "only",
})

# --- Shared ------------------------------------------------------------------------------------------

# Words that deny what follows ("no cracks", "never dropped", "free of damage").
NEGATION_WORDS: tuple[str, ...] = (
    "no", "not", "never", "nor", "without", "zero", "free of", "free from", "isn'?t", "wasn'?t",
    "aren'?t", "hasn'?t", "haven'?t", "doesn'?t", "don'?t", "didn'?t", "hardly any", "nothing",
    "none", "n't",
)
