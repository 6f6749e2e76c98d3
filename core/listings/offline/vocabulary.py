"""Vocabulary tables: what each category needs, how facts are spelled, brands and colours."""

import re

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
    r"\b(?:brand[\s-]new|(?<!like )(?<!as )(?<!nearly )(?<!almost )new\s+(?:in|with)\s+(?:box|tags?|"
    r"packaging)|"
    r"new\s+and\s+sealed|"
    r"(?:factory[\s-])?sealed(?:\s+in\s+box)?|unopened|never\s+(?:been\s+)?(?:used|worn|opened)|"
    r"unused|unworn|bnib|bnwt|nwt|"
    # "nib" is new-in-box, except a pen's nib ("M nib", "fine nib", "14k gold nib")
    r"(?<!\b[efmbx] )(?<!\b(?:ef|bb|xf) )(?<!fine )(?<!medium )(?<!broad )(?<!gold )(?<!steel )(?<!italic )"
    r"(?<!stub )(?<!flex )(?<!\dk )(?<!\dkt )(?<!\dct )nib"
    r"(?![\s-]*(?:sizes?|width|units?|holders?|writes?|is|has|was)\b))\b"
)
# heuristic-v14: one word may stand between ("new lithium battery", "new drive belts"), and more parts
_NOT_A_PART = (
    r"(?![\s-]+(?:[\w-]+\s+)?(?:batter(?:y|ies)|screens?|display|case|strap|band|laces|cable|charger|parts?|"
    r"pads?|tyres?|tires?|soles?|keyboard|belts?|bulbs?|blades?|brushes|bearings?|seals?|gaskets?|tubes?|"
    r"chains?|strings?|hoses?|filters?|springs?|fuses?|valves?|pumps?|grips?|handles?|tips|inner tubes?|"
    r"cartridges?|needles?|stylus|heads?|drives?|motors?|"
    r"balance|york|zealand|look|era|edition|model|version|"
    r"owner|generation|gen|arrivals?|home))"
)
_CONDITION_NEW_BARE = (
    r"(?<!like )(?<!like-)(?<!as )(?<!nearly )(?<!almost )(?<!near )(?<!needs )\bnew\b"
)
_CONDITION_USED = (
    # heuristic-v19: "before we used it" and "we don't sell used ones" say nothing of this item's use
    r"(?<!never )(?<!not )(?<!be )(?<!is )(?<!are )(?<!before we )(?<!before i )(?<!before anyone )(?<!sell )"
    r"\b(?:used|pre[\s-]?owned|second[\s-]?hand|"
    r"(?<!never )worn|like[\s-]new|as new|open[\s-]box|ex[\s-]display|ex[\s-]corporate|"
    # heuristic-v7: worn or unlabelled in so many words ("wore it twice", "took the tags off")
    r"wore (?:it|them|this|these)|(?:took|cut|taken) (?:the )?(?:tags?|labels?) off|"
    # heuristic-v24: used on a client in so many words ("did one client with it")
    r"(?:did|done|treated) (?:one|a|two|three|\d+|a few|a couple of) (?:clients?|customers?)|"
    r"used (?:it |them )?on (?:a |one |two |\d+ )?(?:clients?|customers?)|"
    r"(?:tags?|labels?) (?:removed|cut off|taken off))\b"
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

# Hedges: the seller does not know ("untested", "I think all pieces are there"), so neither can a buyer.
HEDGES = re.compile(
    r"\b(?:untested|not tested|(?:have ?n[o']?t|havent|did ?n[o']?t|didnt|not|never)\s+(?:been\s+)?(?:tested|"
    r"counted|checked|tried|played|run|started|plugged in|switched on|powered on)|i think|i believe|"
    r"should (?:still )?(?:work|be fine|be ok)|"
    r"probably (?:works|fine|ok)|(?:not sure|unsure) (?:if|whether) (?:it )?(?:works|complete|all))\b", re.I)
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
RAM_BEFORE = re.compile(r"\b(?:ram|memory)\s*[:\-]?\s*$", re.I)
# "16GB RAM 1TB SSD": a size followed by a drive word is storage even right after "RAM".
STORAGE_AFTER = re.compile(r"\s*(?:ssd|hdd|nvme|m\.2|emmc|storage|drive|flash)\b", re.I)
RAM_ATTRIBUTE = re.compile(r"\b(?:ram|memory|vram)\b")

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



CATEGORY_RULES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rf"\b(?:{pattern})\b", re.I), expected)
    for pattern, expected in CATEGORY_EXPECTATIONS
)
ATTRIBUTE_NAME_PATTERNS: dict[str, re.Pattern[str]] = {
    field: re.compile(r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b")
    for field, names in ATTRIBUTE_NAMES.items()
}
COLOUR = re.compile(r"\b(?:" + "|".join(COLOUR_WORDS) + r")\b" + _COLOUR_PART, re.I)

# Sentences aimed at the reviewer: cut out before any rule runs, and reported.
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

# (child product, facts a buyer needs before trusting it with a child): expected fields, not risks.
CHILD_SAFETY_EXPECTATIONS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"\b(?:car[\s-]?seats?|booster seats?|infant seats?|baby capsules?)\b"
                r"(?![\s-]*(?:covers?|cushions?|organi[sz]ers?|protectors?|belts?|gap))", re.I),
     ("safety standard", "expiry date")),
    (re.compile(r"\b(?:cribs?|cot beds?|travel cots?|bassinets?|moses baskets?|playpens?|play yards?|"
                r"baby walkers?|high[\s-]?chairs?|baby gates?|baby carriers?|baby bouncers?|toddler toys?|"
                r"baby toys?|infant toys?|teethers?|teething toys?|rattles?)\b", re.I),
     ("safety standard", "age range")),
)

# --- heuristic-v7: details a listing already gives, named back to the seller ---------------------------

# What a careful reviewer tells a seller to keep: each detail stated (a fact field through FACT_PATTERNS,
# or these words, undenied), named as a buyer would name it. Order is the output order.
STATED_FACT_FIELDS: tuple[tuple[str, str], ...] = (
    ("condition", "condition described"), ("model", "model identified"), ("size", "size given"),
    ("dimensions", "dimensions given"), ("material", "material stated"), ("safety standard",
                                                                          "safety standard stated"),
    ("battery", "battery condition stated"),
)
STATED_DETAILS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("working condition tested", ("works?", "working", "tested", "runs? (?:well|fine|smoothly)",
                                  "starts? (?:first|every)", "fires? up", "powers? on")),
    ("accessories and included items listed", ("comes with", "included", "includes", "including",
                                               "supplied with", "complete with",
                                               "plus (?:the |a |its )?[\\w-]+")),
    ("wear disclosed", ("wear", "worn", "scuffs?", "scuffed", "scratch(?:es|ed)?", "marks?", "chips?",
                        "dents?", "stains?", "fading", "faded", "bobbling", "pilling")),
    ("service history", ("servic(?:ed|e history|e records?|e book)", "maintained", "maintenance")),
    ("receipt included", ("receipts?", "invoices?", "proof of purchase")),
    ("recall checked", ("checked (?:it |the [\\w-]+ )?(?:against|on|with) (?:the |a )?[\\w-]* ?recall",
                        "no (?:open |outstanding )?recalls?",
                        "not (?:on|part of|in|subject to) (?:any|a|the) recall",
                        "recall (?:list|check)[^.;]{0,30}?(?:clear|not (?:listed|affected))")),
    ("quantity stated", ("set of \\d+", "pack of \\d+", "\\d+[\\s-]?(?:pcs|pieces|pack)", "pair",
                         "quantity")),
    ("capacity stated", ("\\d+(?:\\.\\d+)?\\s?(?:l|litres?|liters?|ml|gb|tb|mah)", "capacity")),
    ("power rating stated", ("\\d+(?:\\.\\d+)?\\s?(?:w|watts?|kw|v|volts?)", "power")),
    ("weight stated", ("\\d+(?:\\.\\d+)?\\s?(?:kg|g|lbs?|oz|grams?)", "weight")),
)
MAX_STATED_DETAILS = 6
# A condition described by the flaws it does not have or by how much it was used ("no holes, no fading",
# "read once", "used for two summers"): read in the seller's own text, since facts drop denials.
CONDITION_DESCRIBED = re.compile(
    r"\b(?:no|never|without|zero)\s+(?:[\w-]+\s+){0,2}?(?:holes?|fading|stains?|marks?|scratch\w*|chips?|"
    r"chipped|cracks?|dents?|rust|tears?|rips?|damage|wear|scuffs?|wobble|pilling|bobbling|drift|"
    r"been down|dropped|issues?|faults?|problems?)\b|"
    r"\b(?:read|worn|used|washed|played|ridden|driven|wore)\s+(?:it\s+|them\s+)?(?:once|twice|a few times|"
    r"a couple of times|\d+ times|for (?:a|one|two|three|\d+|about|around|only) \w+)", re.I)
