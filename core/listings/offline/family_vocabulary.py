"""Vocabulary of the rule families that send a listing to a person, as plain data tables.

Why tables: the rules that read them are few and general ("a safety-critical product described as
damaged", "a claim that needs evidence, with none given"); what varies from market to market is
only the words, so the words live here and a new product type, hazard or regulated good is a
one-line change, not a new rule. Entries are regular-expression fragments matched as whole words,
case-insensitively; a denied mention ("no cracks", "never recalled") does not count unless the
table says its terms carry their own negation.
"""

from core.listings.offline.vocabulary import LUXURY_BRANDS

# --- Family: authenticity, provenance, signatures and precious materials ---------------------------

# Works of art and collectables whose value is their maker: "original" or "by" such a work is a claim.
_ART_WORK = ("(?:paintings?|canvas(?:es)?|lithographs?|screen ?prints?|etchings?|sculptures?|watercolou?rs?|"
             "oil paintings?|drawings?|sketch(?:es)?|artworks?|pastels?|gouaches?|stencils?)")
ART_WORDS: tuple[str, ...] = (
    "paintings?", "artworks?", "oil on canvas", "acrylic on canvas", "canvas(?:es)?", "lithographs?",
    "etchings?", "screen ?prints?", "giclee", "sculptures?", "bronzes?", "watercolou?rs?", "street art",
    "fine art", "art", "limited edition prints?", "signed prints?", "artist proofs?",
)

# heuristic-v7: "its original case" says where an accessory came from, not that the item is genuine (and
# heuristic-v19: "its original labelled bottle").
_NOT_AN_ACCESSORY = ("(?![\\s-]+(?:[\\w-]+\\s+)?(?:box|boxes|case|carry case|packaging|manual|instructions|"
                     "receipt|paint|paintwork|finish|battery|charger|cable|lead|strap|lid|cover|bag|"
                     "dust ?bag|bottles?|jars?|tins?|containers?|tubs?|pots?|packets?|pouch(?:es)?|sachets?|"
                     "sleeve|tags?|labels?|accessories|keys?|owner|fittings?|screws?|stand|remote)\\b)")
# Claims that need evidence wherever they appear.
PROVENANCE_CLAIMS: tuple[str, ...] = (
    # "signed out of iCloud", "signed for": an account or a delivery, not a signature
    "(?<!tracked )(?<!tracked and )signed(?![\\s-]+(?:for|out|in|into|off|up|over|on to|onto|away)\\b)"
    # a service label or report signed by whoever did the work is a record, not an autograph
    "(?![\\s-]+by (?:the|our|an?|his|her|their|my) (?:[\\w-]+ )?(?:engineers?|technicians?|inspectors?|"
    "mechanics?|electricians?|fitters?|contractors?|installers?|vets?|doctors?|surveyors?|landlords?))",
    "hand[\\s-]?signed", "autograph(?:ed|s)?(?![\\s-]+(?:books?|albums?))",  # heuristic-v20: the album
    "authenticity guaranteed",
    "(?:is|are|it'?s|100 ?%|guaranteed|totally|completely|fully|definitely)\\s+(?:real|original|genuine|"
    "authentic|legit)(?![\\s-]+(?:leather|suede|wood|sheepskin|paper|parts?|box))" + _NOT_AN_ACCESSORY,
    # heuristic-v15: "genuine Lenovo 65W adapter" names a maker's own part, not an authenticity claim
    "genuine(?![\\s-]+(?:[\\w-]+\\s+){0,2}?(?:leather|suede|wood|sheepskin|paper|notes?|banknotes?|wool|silk|"
    "cotton|fur|down|horn|stone|parts?|accessor\\w*|oem|replacement|adapters?|adaptors?|chargers?|cables?|"
    "toners?|ink|cartridges?|batter(?:y|ies)|filters?|psus?|power (?:supply|supplies|bricks?)|spares?))",
    "authentic(?![\\s-]+(?:recipe|taste|flavou?r|style|look))",
    "certified (?:authentic|original|genuine|real|natural)",
    "original (?:painting|artwork|art|oil|watercolou?r|drawing|sketch)",
    "original (?:[\\w'-]+\\s+){1,2}?" + _ART_WORK, "first edition",
    # heuristic-v19: "UK provenance" on a plant is where its seed came from
    "1st edition", "antique", "(?<!uk )(?<!british )(?<!local )(?<!native )(?<!irish )provenance",
    "museum quality", "game[\\s-]worn", "match[\\s-]worn",
    # heuristic-v7: used or owned by someone famous, and a precious metal named so it cannot be a colour
    "(?:screen|film|production|set|stage|tour|race|player)[\\s-](?:used|worn|issued)",
    "(?:celebrity|famously)[\\s-]owned", "(?:once )?owned by (?:a |the )?(?:famous|celebrity|legendary)",
    "solid (?:gold|silver|platinum)", "sterling silver", "(?:9|10|14|18|22|24) ?(?:ct|carat|karat|kt) gold",
    "1[5-9]th century",  # heuristic-v15: not the 20th, a recent age no certificate is needed for
    # rarity and value claims: a scarce error or a fortune at auction needs an expert's certificate
    "only (?:a |about |around )?(?:few|handful|couple|\\d{1,3}|one|two|three|five|ten) (?:of them )?"
    "(?:are )?(?:known|exist\\w*|made|printed|minted|struck|recorded|in existence|left in the world)",
    "one of (?:only )?(?:a (?:few|handful)|\\d{1,3}) (?:known|made|printed|minted|in existence)",
    "(?:handful|few) (?:exist|known|in existence|in the world)",
    "worth (?:thousands|tens of thousands|hundreds|a fortune|a lot|big money|(?:over |at least )?[£$€]\\s?\\d"
    "[\\d,.]*k?)",
    "(?:plate|printing|mint|minting|die|strike|perforation|colour|color|inverted|missing colou?r) errors?",
    "error (?:stamps?|coins?|notes?|banknotes?|cards?|strikes?|print(?:ing)?s?)", "misprint(?:ed|s)?",
    "(?:extremely|incredibly|exceptionally|super|very|ultra|mega) rare(?![\\s-]+(?:holo|cards?|rarity|pull))",
    "(?:rarest|investment (?:grade|piece))",
)
# What evidence each kind of claim needs, so the review names it: (terms of the claim, note).
CLAIM_EVIDENCE_NOTES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("meteorites?", "tektites?", "moldavite", "fossil\\w*", "dinosaur", "trilobites?", "ammonites?",
      "megalodon", "mammoth", "ambers?", "opals?", "jade", "moon rocks?", "lunar"),
     "a meteorite, fossil or natural rarity needs a certificate from a recognised dealer or laboratory for "
     "authenticity verification of its origin; without it the certificate is missing and it may be a fake"),
    (("dynasty", "ming", "qing", "kangxi", "qianlong", "reign marks?", "georgian", "victorian", "edwardian",
      "regency", "art deco", "art nouveau", "period"),
     "an attribution to a dynasty, period or maker needs an expert appraisal and documented provenance: "
     "reign marks and styles are widely copied, so authenticity verification comes first"),
    (("signed", "signatures?", "autograph\\w*", "hand[\\s-]?signed", "game[\\s-]worn", "match[\\s-]worn"),
     "a signature or autograph needs a certificate of authenticity from a recognised authenticator, or its "
     "provenance stays unverified"),
    (("gold", "silver", "platinum", "sterling", "\\d+ ?(?:k|kt|ct|carat|karat)", "925", "750", "375",
      "diamonds?",
      "gemstones?", "rub(?:y|ies)", "sapphires?", "emeralds?", "pearls?"),
     "a precious metal or stone needs a hallmark, assay stamp or gem certificate, or a precious metal test "
     "(it may be plated), and the price should match the gold weight or carat"),
    (("antique", "provenance", "(?:1[5-9]|20)th century", "museum quality", "first edition", "1st edition"),
     "age and attribution need documented provenance or an expert appraisal"),
    (("rare", "errors?", "misprint\\w*", "known", "exist\\w*", "in existence", "worth", "rarest",
      "investment"),
     "a rarity or value claim (a known error, only a few in existence, worth thousands) needs an expert "
     "certificate from a recognised expertising body and provenance; until then the rarity claim is "
     "unverified"),
    (("original", "canvas", "paintings?", "artworks?", "prints?"),
     "an original artwork needs a certificate from the artist or their authentication body; without it the "
     "provenance is unknown and it may be a reproduction"),
)
BRAND_EVIDENCE_NOTE = ("a branded or luxury item needs a receipt, serial number or box and papers; without "
                       "them "
                       "the brand and authenticity are unverified")
# Claims that only mean a precious material on jewellery or watches ("silver phone" is a colour).
PRECIOUS_CLAIMS: tuple[str, ...] = (
    "solid (?:gold|silver|platinum)", "(?:9|10|14|18|22|24) ?(?:k|kt|ct|carat|karat)\\b",
    "sterling(?: silver)?",
    "925", "750", "375", "platinum", "gold", "silver", "diamonds?", "real gold", "pure gold",
    "gemstones?", "rub(?:y|ies)", "sapphires?", "emeralds?", "pearls?",
)
# heuristic-v14: the material disclosed as not precious ("faux pearls, glass", "gold tone clasp (not real
# gold)"): a precious word in such a listing names the look, not a claim.
PRECIOUS_DISCLAIMERS: tuple[str, ...] = (
    "faux", "imitation", "simulated", "not real (?:gold|silver|pearls?|diamonds?|platinum)",
    "glass (?:pearls?|beads?|stones?|gems?)", "costume jewell?ery", "(?:gold|silver)[\\s-]tone",
    "rhinestones?", "cubic zirconia", "base metal", "plastic pearls?",
)
# Plated, toned or coloured is a finish, not a precious-material claim.
NOT_A_FINISH = ("(?![\\s-]*(?:plated|tone|toned|filled|colou?r\\w*|effect|look|finish|pattern|style|vermeil|"
                "alumini?um|stainless|steel|plastic|titanium))")
JEWELLERY_WORDS: tuple[str, ...] = (
    "jewell?ery", "jewelry",
    # silverware and plate: a "solid silver" tea set is a precious-metal claim like a ring
    "silverware", "tea (?:services?|sets?)", "coffee (?:services?|sets?)", "teapots?", "cutlery",
    "flatware", "canteens? of cutlery", "candlesticks?", "candelabr(?:a|um)s?", "salvers?", "goblets?",
    "tankards?", "cruets?", "napkin rings?", "trophies", "trophy", "hip flasks?", "snuff ?box(?:es)?",
    "vesta cases?", "cigarette cases?", "christening mugs?", "sugar bowls?", "milk jugs?", "cream jugs?",
    "rings?", "necklaces?", "bracelets?", "earrings?", "pendants?", "chains?",
    "bangles?", "brooch(?:es)?", "anklets?", "cufflinks?", "gems?(?:tones?)?",
    # heuristic-v21: a smartwatch's "silver" is the colour of its case
    "(?<!apple )(?<!galaxy )(?<!smart )(?<!pixel )(?<!fitness )(?<!gps )watch(?:es)?",
    "bullion", "sovereigns?", "krugerrands?", "britannias?", "ingots?",
    "(?:gold|silver|platinum) (?:bars?|coins?)",
)
EVIDENCE_TERMS: tuple[str, ...] = (
    "certificate", "coa", "certified by", "receipts?", "invoice", "proof of purchase", "hallmark\\w*",
    "assay\\w*", "stamped", "appraisal", "appraised", "valuation", "gia", "igi", "psa", "bgs", "cgc",
    "jsa", "beckett", "serial(?: number)?", "documentation", "documented", "box and papers", "papers",
    "letter of provenance", "authenticated by", "entrupy", "isbn", "catalogue raisonn\\w*", "graded",
    "part (?:number|no\\.?)", "mpn", "batch (?:code|number)",
    # heuristic-v14: proof shown in photos, date codes, a booking or order confirmation
    "date codes?", "(?:pcb|board|serial|hallmark|stamp|label|receipt) photos?",
    "photos? of (?:the )?(?:pcb|board|serial|hallmarks?|stamps?|labels?|receipt|papers|inside|date codes?)",
    "photos? of (?:him|her|them|me|the \\w+) signing", "(?:email|order|booking|purchase) confirmations?",
    # heuristic-v19: a signing's own traces (the shop's sticker, the event ticket, a photo with the author)
    "signed (?:copy|edition) stickers?", "(?:event|signing) tickets?",
    "photos? of [\\w ]{1,25}? with the (?:author|artist|player|band|singer|actor)",
)
# The seller doubts or cannot prove authenticity; these terms carry their own negation.
DOUBT_TERMS: tuple[str, ...] = (
    "no proof of authenticity", "can'?t verify", "cannot verify", "can not verify", "unable to verify",
    "not verified", "unverified", "authenticity (?:unknown|not guaranteed|unverified|not confirmed)",
    "unknown (?:authenticity|origin|provenance)", "(?:origin|provenance) unknown", "no hallmarks?",
    "not hallmarked", "unhallmarked", "unstamped", "not stamped", "no stamps?",
    "(?:i was|i've been|was) told (?:it'?s|it is)",
    # heuristic-v22: sold as the brand at a fraction of its price, or by its logo alone
    "(?:half|a third|a fraction of|a quarter of) (?:the )?(?:price|cost) of (?:an? |the )?"
    "(?:official|genuine|real|original) (?:ones?|versions?|units?)",
    "(?:has|with|got) the logos? and everything",
    # heuristic-v22: a relative's word as the only evidence ("definitely Moorcroft, my aunt said so")
    "(?:aunt|auntie|uncle|nan|nanna|gran|granny|grandad|grandma|grandpa|mum|dad|mother|father|friend|"
    "neighbour|husband|wife|brother|sister)s? (?:said|says|told (?:me|us)) so",
    "not sure (?:if |whether )?(?:it'?s |it is )?(?:real|authentic|genuine|original)",
    "(?:said|says|told me|claimed|claims|reckon(?:s|ed)?|supposedly|apparently|allegedly|believed to be|"
    "thought to be|attributed to)\\s+(?:that\\s+)?(?:it\\s+)?(?:was|is|it'?s|to be)?\\s*(?:an?\\s+)?"
    "(?:original|genuine|real|authentic|by)\\b",
    "don'?t know if (?:it'?s |it is )?(?:real|authentic|genuine|original)",
    # a material or origin inferred, not shown ("heavy so it must be solid silver")
    "(?:must|should|could|might|may|probably|surely) be (?:solid |real |pure |genuine |sterling )?"
    "(?:gold|silver|platinum|sterling|original|genuine|authentic|real|antique)",
    "(?:i think|i believe|i reckon|i guess|pretty sure|fairly sure|assume|assuming|guessing) "
    "(?:it'?s |it is |they'?re |they are )?(?:solid |real |pure |genuine )?(?:gold|silver|platinum|sterling|"
    "original|genuine|authentic|antique)",
    "(?:feels|looks|seems|weighs) (?:like )?(?:solid|real|pure|genuine) (?:gold|silver|platinum)",
    # marks that would prove it, unread
    "(?:marks?|hallmarks?|stamps?|signatures?|maker'?s marks?)\\b[^.;!?]{0,50}?(?:can'?t|cannot|could ?n'?t|"
    "unable to|hard to|impossible to) (?:read|make out|decipher|identify)",
    "(?:unreadable|illegible|indistinct|rubbed|worn) (?:hall)?marks?",
    # heuristic-v14: a family story for a precious metal, or no marks found
    "(?:said|says|told (?:me|us)|reckoned|always said)\\s+(?:that\\s+)?(?:it|they)\\s+(?:was|were|is|are)\\s+"
    "(?:solid |real |pure |genuine )?(?:gold|silver|sterling|platinum)",
    "(?:can'?t|couldn'?t|could not|cannot|unable to) find (?:any )?(?:hall)?marks?",
    # heuristic-v13: the marks named first ("the marks under the foot are rubbed", "hallmarks: worn"), and a
    # period or material believed rather than shown ("believed Georgian")
    "(?:hall)?marks?\\b[^.;!?]{0,30}?\\b(?:are |is |were |was |:\\s*)(?:too |very |badly |all )?(?:rubbed|"
    "worn|illegible|unreadable|unread|indistinct)",
    # heuristic-v17: signs of a fake the seller reports without seeing them ("logo a bit wonky", "the app says
    # device not recognised", "batch code scratched off")
    "logos? (?:is |looks |a bit |slightly |little )*(?:wonky|crooked|blurry|off[\\s-]cent(?:re|er)|misspelt|"
    "misspelled)",
    "(?:app|software|website) (?:says|shows|said) (?:the )?(?:device |product |serial )?(?:is )?(?:not "
    "recogni[sz]ed|unrecogni[sz]ed|not genuine|invalid)",
    # heuristic-v24: a code the maker's checker does not know ("batch code doesn't come up")
    "(?:batch|serial|lot) (?:codes?|numbers?)\\b[^.!?\\n]{0,20}?(?:does ?n[o']?t|doesnt|does not|won'?t|"
    "did ?n[o']?t|did not|isn'?t|is not|never) (?:come up|show up|verify|check out|match|register|scan)",
    "not recogni[sz]ed by (?:the )?(?:[\\w-]+ )?(?:checker|website|app|site|database)",
    "(?:batch|serial|date|lot) (?:codes?|numbers?) (?:on [\\w ]{1,20} )?(?:has been |have been |is |are |was "
    "|were )?(?:scratched|removed|cut|peeled|rubbed|scraped) (?:off|out|away)",
    # heuristic-v18: authenticity read off the look ("you can tell by the colours"), or bought from a "plug"
    "you can tell (?:by|from) (?:the )?(?:colou?rs?|stitching|weight|feel|smell|look|quality|glaze|pattern)",
    "(?:from|off|via|through) (?:my|a|the) plug\\b",
    "(?:believed|thought|reputed|reckoned|said) (?:to (?:be|date from) )?(?:an? )?(?:georgian|victorian|"
    "edwardian|regency|antique|genuine|original|authentic|solid (?:gold|silver)|sterling)",
    # heuristic-v16: the maker's name or mark said to be absent, and the brand asserted anyway
    "(?:no |without (?:a |any )?)(?:name|logo|brand(?:ing)?|markings?|maker'?s marks?|stamps?|labels?)\\b"
    "[^.!?\\n]{0,40}?\\bbut\\b[^.!?\\n]{0,20}?\\b(?:100 ?%|definitely|genuine|real|original|authentic|"
    "honestly)",
)
_PROOF = ("(?:box(?:es)? (?:or|and|&|nor) papers|certificates?|certs?|receipts?|papers|paperwork|"
          "proof of (?:purchase|authenticity)|"
          "invoices?|documentation|authenticity cards?|coa|serial(?: numbers?)?|serials|hallmarks?)")
_ARTICLES = "(?:(?:the|a|an|any|its|my|their|original)\\s+)*"
# Proof said to be missing; only matters where authenticity does (see AUTHENTICITY_SENSITIVE).
MISSING_PROOF_TERMS: tuple[str, ...] = (
    "(?:no|without)\\s+" + _ARTICLES + _PROOF,
    "(?:lost|misplaced|can'?t find|cannot find)\\s+" + _ARTICLES + _PROOF,
    "(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|never)\\s+(?:have|has|had|come with|came with|"
    "include|includes|get|got)\\s+" + _ARTICLES + _PROOF,
    _PROOF + "\\s*:?\\s+(?:(?:is|are|was|were|got|has been|have been)\\s+)?(?:not available|not provided|"
    "not supplied|to follow|lost|missing|misplaced|"
    "not included|unavailable|rubbed off|removed|scratched off|worn off|filed off|illegible|unreadable|"
    "obscured)",
)
AUTHENTICITY_SENSITIVE: tuple[str, ...] = (
    "meteorites?", "fossils?", "gemstones?", "dynasty",
    "designer", "signed", "autograph(?:ed|s)?", "memorabilia", "antiques?", "collectables?",
    "collectibles?", "swiss", *ART_WORDS,
    *JEWELLERY_WORDS, *LUXURY_BRANDS,
)
# The seller says the item is an imitation: counterfeit goods may not be sold.
# heuristic-v11: "fake" before a made-up thing may have one word between ("fake olive tree").
# heuristic-v17: labels and logos said to be absent ("no logos or fake labels anywhere") are no imitation.
IMITATION_DENIALS: tuple[str, ...] = (
    "no (?:[\\w-]+ (?:or|and|nor) )?(?:fake|counterfeit|copied|replica) (?:labels?|logos?|tags?|branding|"
    "badges?|claims?|reviews?)",
)
IMITATION_TERMS: tuple[str, ...] = (
    # heuristic-v20: an "official replica shirt" is the club's own fan kit
    "counterfeit", "(?<!official )replicas?(?![\\s-]+(?:[\\w-]+\\s+)?(?:shirts?|kits?|jerseys?|tops?))",
    "fake(?!\\s+(?:[\\w-]+\\s+)?(?:fur|leather|suede|plants?|flowers?|grass|"
    "foliage|greenery|ivy|"
    "succulents?|cactus|cacti|fruit|food|cakes?|candles?|books?|tattoos?|teeth|beards?|mo?ustaches?|"
    "eyelash\\w*|lashes|nails|tan|snow|blood|trees?))",
    "knock[\\s-]?offs?", "bootleg", "dupes?", "super ?fakes?", "same factory", "unauthori[sz]ed authentic",
    "(?:ua|1:1|aaa|top) batch", "(?:perfect|exact) (?:copy|copies|replica)", "look[\\s-]?alikes? of",
    "inspired by (?:the\\s+)?(?:" + "|".join(LUXURY_BRANDS) + ")",
    "(?:" + "|".join(LUXURY_BRANDS) + ")[\\s-]inspired",
    # heuristic-v24: a drive dock's "clone button" copies disks
    "(?<!disk )(?<!drive )(?<!ssd )(?<!hdd )(?<!offline )clones?(?!\\s+(?:troopers?|wars|commanders?|army|"
    "armies|tool|software|stamp|buttons?|function|mode|feature|station|dock))",
    # heuristic-v14: swap-app shorthand for a copy ("1:1 rep", "best batch", "cant tell the diff")
    "1:1 reps?", "best batch", "(?:can'?t|cannot|won'?t) tell the diff\\b",
    "reps? (?:hoodies?|sneakers?|shoes|trainers|jerseys?|kits?|shirts?|tees?|bags?|watch(?:es)?|jackets?|"
    "caps?)",
    # heuristic-v7: any "<quality> copy" and a copy praised as indistinguishable from the real one
    "(?:good|great|very good|excellent|perfect|decent|nice)[\\s-]quality (?:copy|copies|replica|fake)",
    "(?:looks?|feels?) (?:exactly |just )?(?:the )?same as (?:the )?(?:real|original|genuine|authentic)"
    "(?: one)?",
    "(?:can'?t|cannot|can not|won'?t|will not|nobody can) tell (?:the |any )?difference",
    "(?:aaa|a-grade|grade[\\s-]a|top[\\s-]quality|high[\\s-]quality|premium[\\s-]quality|best[\\s-]quality|"
    "super|mirror|unauthori[sz]ed|factory|1:1)\\s*(?:copy|copies|replica)",
    "copy (?:version|of (?:a |an |the )?(?:" + "|".join(LUXURY_BRANDS) + "))",
    "1:1\\s*(?:clone|version|quality|original|reproduction)",
    "mirror[\\s-]*(?:quality|grade|image)(?![\\s-]*(?:glass|finish|polish\\w*|shine|surface|reflection))",
)
# Contexts where an imitation word names the product's job: a detector of fakes, a scale model.
COUNTERFEIT_TOOL_TERMS: tuple[str, ...] = (
    # heuristic-v25: a decoy is fake by design ("dummy CCTV camera", "FAKE (deterrent)")
    "(?:fake|dummy|decoy|imitation)[\\s-]+(?:[\\w-]+[\\s-]+)?(?:cameras?|cctv|alarm boxes|bell boxes|"
    "sirens?)",
    "fake\\W+(?:[\\w-]+\\W+)?(?:deterrent|dummy|decoy)",
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
    # heuristic-v7: sold to look at, not to pass off ("decorative replica sword, display only")
    "display", "decorative", "ornament(?:al|s)?", "wall (?:art|hanging|mount(?:ed)?)",
)
BRAND_DISCLAIMERS: tuple[str, ...] = (
    "not official", "unofficial", "fan[\\s-]?made", "not licensed", "unlicensed",
    # heuristic-v14: a look-alike sold under its own name ("NOT the designer one, its own brand name")
    "not the (?:designer|branded|real|original|genuine) (?:one|version|product|item|brand)",
    "(?:its|their|with its|under its) own (?:brand|label|name)(?: name)?",
    "no affiliation", "not affiliated",  # heuristic-v16
    "(?:makes |making )?no claim (?:that )?(?:it is|it'?s|they are|they'?re|to be)",  # heuristic-v21
)
# heuristic-v21: a maker denied by name ("NOT Herman Miller, NOT Vitra"); matched with case, since a name is
# capitalised and "NOT Working" is not one.
# heuristic-v25: with an article or "genuine" between ("NOT an Airstream", "not a genuine Iwata")
NAMED_MAKER_DENIAL = (r"\b(?:[Nn]ot|NOT) (?:an? |a genuine |genuine |a real |an actual )?"
                      r"(?:by |made by |from )?"
                      r"(?!(?:Working|Included|Sure|Used|Tested|Sold|New|Boxed|Available|Original|Genuine|"
                      r"Real|Fake|Authentic)\b)[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?\b")
# heuristic-v19: an object called a reproduction, undenied, claims no age or origin of its own.
REPRODUCTION_WORDS: tuple[str, ...] = ("(?:modern |resin |cast |later )?reproductions?",)
# What a disclosed copy is called; struck from the text only when the copy is disclosed (authenticity.py).
DISCLOSED_COPY_WORDS: tuple[str, ...] = ("replicas?", "dupes?", "inspired", "clones?")
# heuristic-v7: the seller says plainly it is a copy of an object (no brand named): disclosed, not passed off.
REPLICA_DISCLOSURES: tuple[str, ...] = (
    "marked (?:as )?(?:a )?(?:copy|replica|reproduction)", "museum (?:shop )?(?:copy|replica|reproduction)",
    "(?:copy|replica|reproduction) from (?:a|the) museum(?: shop)?",  # heuristic-v22
    "(?:not|never) (?:a |an )?(?:real|genuine|original|authentic|solid|silver|gold|the real [\\w-]+)",
    "(?:officially |official [\\w-]+ )?licensed (?:[\\w-]+ )?(?:replica|copy|reproduction)",
    "(?:sold|described|listed) as (?:a )?(?:replica|copy|reproduction)", "(?:display|decoration) only",
    "for display", *BRAND_DISCLAIMERS,
    # heuristic-v17: a copy built from a kit, sold as one
    "sold as (?:a |an )?(?:home[\\s-]?built |home[\\s-]?made |diy |kit[\\s-]?built )?(?:clone|copy|replica)",
    "(?:home[\\s-]?built|home[\\s-]?made|diy|kit[\\s-]?built) (?:clone|copy|replica)",
)
# heuristic-v11: a brand named only to disclaim it ("fan made, NOT official Lucasfilm", two authors'
# cosplay props), unless the listing also says the copy passes for the real thing.
PASSING_OFF_TERMS: tuple[str, ...] = (
    "1\\s*:\\s*1", "mirror (?:quality|copy|grade|image)", "top (?:grade|quality|tier)", "aaa\\+?",
    "(?:nobody|no one|no-one|none) (?:can|could|will|would) (?:tell|notice|know)",
    "(?:identical|same) (?:to|as) (?:the )?(?:real|original|genuine|retail)", "super ?copy",
    "(?:ua|grade a) quality",
)
# heuristic-v7: packaging or an accessory of a luxury brand is sold cheap by nature ("empty watch box").
LUXURY_ACCESSORIES: tuple[str, ...] = (
    "empty", "box(?:es)?", "dust ?bags?", "packaging", "gift bags?", "shopping bags?", "carrier bags?",
    "ribbons?", "booklets?", "tags?", "catalogues?", "magazines?", "books?", "posters?",
)

# --- Family: contradictions on numbers --------------------------------------------------------------

# Quantities stated with a unit, per kind: (number, unit) groups. Units are converted to one base
# per kind (UNIT_SCALE) and values equal within rounding agree ("1 TB" and "1024 GB", "2 kW" and
# "2000 W", "15.6 in" and "39.6 cm").
# heuristic-v13: a value may group thousands ("2,700 kg") or use a decimal comma ("1,25 L"); read whole.
VALUE = r"(\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+|,\d{1,2}(?!\d))?)"
NUMERIC_UNITS: dict[str, str] = {
    # heuristic-v29: storage in words too ("64 gig", "2 terabytes"); heuristic-v31: "gig" only where it ends
    # a clause or names a storage part ("64 gig, no errors", "the 10 gig version"), not a gig played, a gig
    # bag, a network port or a data plan; "Gigabyte" (singular) after a number is a graphics card's maker
    "storage capacity": r"(?<![\d.,])" + VALUE + r"\s*(gb|tb|gigabytes|terabytes?|gig(?=\s*(?:[.,;:!?)]|$|"
                        r"(?:storage|ssd|hdd|drive|card|sd|micro ?sd|usb|sticks?|version|model)\b)))\b"
                        r"(?!\s*(?:of\s+)?(?:unified\s+)?(?:ram|memory|ddr\w*|lpddr\w*|vram|gddr\w*))",
    "battery capacity": r"(\d{3,6})\s*(mah)\b",
    "volume or capacity": r"(?<![\d.,])" + VALUE + r"\s*(l|litres?|liters?|ml|gal|gallons?)\b",
    # "w/" is "with" ("SD-2511 w/ nut dispenser"), and a number after a hyphen is a model code
    "power (wattage)": r"(?<![\d.,-])" + VALUE + r"\s*(w|watts?|kw)\b(?!/)",
    "screen size": r"(\d{2}(?:\.\d)?)\s*(\"|-?inch(?:es)?|(?<=\d)in\b)",
    "weight": r"(?<![\d.,])(?![2-6]g\b)" + VALUE + r"\s*(kg|g|lbs?)\b",  # "5G" is a network, not 5 g
    "maximum aperture": r"\bf\s*/\s*(\d{1,2}(?:\.\d{1,2})?)()(?![\d.])",
    "focal length": r"(?<![\d.-])(\d{2,4})\s*(mm)\b(?!\s*(?:-|to)\s*\d)",
    # heuristic-v6: more unit families, each a row
    "voltage": r"(?<![\d.,/-])(\d{1,3}(?:\.\d)?)\s*(v|volts?)\b(?!\s*(?:-|to|/)\s*\d)",
    "refresh rate": r"(?<![\d.-])(\d{2,3})\s*(hz)\b",
    "resolution (megapixels)": r"(?<![\d.])(\d{1,3}(?:\.\d)?)\s*(mp|megapixels?)\b",
    "engine size": r"(?<![\d.])(\d{2,4})\s*(cc)\b",
    "duvet tog rating": r"(?<![\d.])(\d{1,2}(?:\.\d)?)\s*(tog)\b",
    # heuristic-v7: engine power and light output, compared like any other unit
    "engine power rating": r"(?<![\d.])(\d{1,4}(?:\.\d)?)\s*(hp|bhp|ps)\b",
    "brightness": r"(?<![\d.])(\d{3,5})\s*(?:ansi\s*)?(lumens?|lm)\b",
    "people capacity": r"(?<![\d.])(\d{1,2})[\s-]?(man|person|people|berth|seater)\b",
    "mileage": r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{1,7})\s*(miles|mi|km|kms)\b",
    # heuristic-v33: the fineness of gold ("18ct gold" against "14ct gold"; not a diamond's carat weight) and
    # a motor's speed ("35000 RPM" against "20000 RPM"; not a turntable's "33/45 rpm")
    "gold fineness": r"(?<![\d.])(9|10|14|15|18|22|24)\s*(ct|k|kt|carat)\b(?=\s*(?:[a-z]+\s+){0,2}?gold\b)",
    "speed (rpm)": r"(?<![\d.,/])(\d{1,3}(?:,\d{3})+|\d{3,6})\s*(rpm)\b",
}
# Kinds only compared where the heading names a product they describe (a saddle's 48" girth is not
# a screen), and kinds compared between title and attributes only (a lens review names many apertures).
NUMERIC_SCOPE: dict[str, str] = {
    "screen size": r"\b(?:tvs?|televisions?|monitors?|displays?|screens?|laptops?|notebooks?|macbooks?|"
                   r"chromebooks?|tablets?|ipads?|phones?|iphones?|smartphones?|projectors?|imacs?|"
                   r"e-?readers?)\b",
    "focal length": r"\b(?:lens(?:es)?|cameras?|photography|telescopes?)\b",
    "maximum aperture": r"\b(?:lens(?:es)?|cameras?|photography)\b",
}
# Voltage and refresh rate: descriptions name chargers, mains and other inputs ("runs off 230 V too").
TITLE_AND_ATTRIBUTES_ONLY: frozenset[str] = frozenset({"maximum aperture", "focal length", "voltage",
                                                       "refresh rate", "mileage",
                                                       "speed (rpm)"})  # heuristic-v33: a spin, a disc
UNIT_SCALE: dict[str, float] = {
    "gb": 1, "tb": 1000, "gig": 1, "gigabyte": 1, "terabyte": 1000,
    "mah": 1, "l": 1000, "litre": 1000, "liter": 1000, "ml": 1, "w": 1, "watt": 1,
    "kw": 1000, '"': 25.4, "inch": 25.4, "inche": 25.4, "in": 25.4, "-inch": 25.4, "-inche": 25.4, "cm": 10,
    "mm": 1, "kg": 1000, "g": 1, "lb": 453.6, "mile": 1609, "mi": 1609, "km": 1000,
    "gal": 4546, "gallon": 4546,  # imperial; a US gallon is read too (UNIT_ALTERNATIVES)
}
# Units with two readings: a value agrees with another place if either reading does.
UNIT_ALTERNATIVES: dict[str, tuple[str, float]] = {"gal": ("us gal", 3785), "gallon": ("us gallon", 3785)}
# heuristic-v14: "50 ml (45 ml left)" and an attribute "remaining: 400 g" state what is left, not what is
# sold.
REMAINING_AFTER = r"\s*\)?\s*(?:left|remaining)\b"
REMAINING_NAME = r"\b(?:remaining|left|remains)\b"
SAME_VALUE_TOLERANCE = 0.05  # rounding and GB/GiB: within 5 % is the same value stated twice
# What a buyer cannot tell when a kind disagrees, for the review's message.
NUMERIC_NOTES: dict[str, str] = {
    "quantity": "how many items (tickets, pieces, units) are included, and so the price per item, is unclear",
    "size": "which size is sold (frame, wheel, screen or clothing size), and so the fit (rider height, "
            "body or room size), is unclear",
    "model number": "which model is being sold is unclear, and models differ in features and price",
    "shoe size": "which size is sold is unclear (UK and EU sizes that do not convert into each other), so "
                 "a buyer cannot tell whether it fits",
    "model year": "the age of the item is unclear, and age changes its value and safety",
    "bed size": "which size is sold, and so its dimensions and the bed or room it fits, is unclear",
    "overall size": "the item's size is unclear (the sizes differ beyond rounding), so a buyer cannot tell "
                  "whether it fits the space it is meant for",
    **{side: "a buyer cannot tell whether the item fits the space it is meant for"
       for side in ("width", "length", "height", "depth", "drop", "diameter")},
}
# Sizes: the title against size attributes only; descriptions list many other lengths.
# heuristic-v18: whole numbers only ("2400 x 1200mm" holds no "120")
SIZE_IN_TITLE = r"(?<![\d.])(\d{2,3}(?:\.\d)?)(?![\d.])\s*(cm|mm|\"|-?inch(?:es)?|in\b)"
SIZE_ATTRIBUTE_NAMES = (r"\b(?:frame size|frame|size|length|screen size|diagonal|wheel size|"
                        r"thickness|diameter)\b")  # heuristic-v18: a board's thickness, a pipe's diameter
SIZE_ATTRIBUTE_VALUE = r"(?<![\d.])(\d{2,3}(?:\.\d)?)(?![\d.])\s*(cm|mm|\"|-?inch(?:es)?|in\b)?"
# A size given as an age ("age 11-12", "3-4 years") is not a measure to compare with inches.
AGE_SIZE = r"\b(?:age[sd]?|years?|yrs?|months?|mths?|[0-9]+\s*[ym]\b)"
# A number followed by one of these is a measure, not a count ("a pair of 3 tonne stands").
MEASURE_UNIT_AFTER = (r"(?![.,]\d)(?!\s*(?:tonnes?|tons?|t\b|kg|g\b|lbs?|oz|mm|cm|m\b|metres?|meters?|ft|"
                      r"feet|in\b|inch|\"|'|l\b|litres?|liters?|ml|w\b|watts?|kw|v\b|volts?|amps?|a\b|mah|gb|"
                      r"tb|"
                      r"years?|yrs?|months?|%))")

# "chairs x4", "A4 x2": a count after what is counted (in a description, one line of a list of parts).
PART_COUNT = r"(?:(?<=[a-z])|(?<=[a-z]\d))\s+x\s?(\d{1,3})\b"
# heuristic-v17: what the seller once bought ("bought as a set of 4", "bought a 3-pack") is not what is sold.
_NOT_BOUGHT_AS = r"(?<!bought a )(?<!bought an )(?<!bought as a )(?<!came as a )(?<!came in a )"
_NOT_BATTERIES = r"(?!(?:aa|aaa|c|d|9v|pp3|button cells?|batter(?:y|ies)|cr\d+|lr\d+)\b)"
# "3 x elbows"; "65 x H 78 cm" is a size, not 65 of something; "takes 3 x AA" counts batteries, not items.
COUNT_TIMES = r"\b(\d{1,3})\s?x\s+(?=[a-z])(?![a-z]\s*\d)" + _NOT_BATTERIES
# heuristic-v32: a count of things each of a stated weight or volume ("10 x 100g balls", "2 x 6 tonne axle
# stands", "24 x 330ml cans"); lengths are left out, since "120 x 60 cm table" is a size.
COUNT_OF_MEASURED = (r"\b(\d{1,3})\s?x\s+\d+(?:\.\d+)?\s?(?:g|kg|ml|cl|l|litres?|liters?|oz|lbs?|tonnes?|"
                     r"tons?|t)\s+(?=[a-z])")
# Counts: "set of 6", "4-pack", "2x tickets", "x10"; number words are read as digits first.
QUANTITY_PATTERNS: tuple[str, ...] = (
    _NOT_BOUGHT_AS + r"\b(?:set|pack|multi-?pack|packet|lot|box|bundle|case|bag|tub|carton|tray|pair|block|"
    r"strip) of "
    r"(\d{1,3})\b" + MEASURE_UNIT_AFTER,
    # heuristic-v17: "a 9 piece puzzle" is one puzzle of 9 pieces
    _NOT_BOUGHT_AS + r"\b(\d{1,3})[\s-]?(?:pcs|pieces|piece(?![\s-]+[a-z])|pack|count|ct)\b",
    COUNT_TIMES, PART_COUNT, COUNT_OF_MEASURED,
)
NUMBER_WORDS: dict[str, str] = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}
# Things sold by the number: "50 holo cards" in a title, "about 35 cards in total" in a description.
_COUNTED = ("(?:cards?|items?|books?|paperbacks?|hardbacks?|novels?|records?|vinyls?|lps|singles|cds|dvds|"
            "blu-?rays?|games?|figures?|minifigures?|minifigs?|figurines?|comics?|magazines?|stamps?|coins?|"
            "banknotes?|bottles?|cans?|glasses|tumblers?|plates?|bowls?|mugs?|cups?|saucers?|tiles?|bricks?|"
            "balls?|pens?|pencils?|markers?|tickets?|plants?|cuttings?|bulbs?|seed packets?|spools?|skeins?|"
            "fat quarters?|marbles?|tins?|jars?|candles?|chairs?|stools?|cushions?|towels?|hangers?|prints?|"
            "postcards?|badges?|pins?|patches|keyrings?|key ?chains?|cartridges?|batteries|rolls?|sheets?|"
            "packs?|bars?|slabs?|boosters?|booster packs?|volumes?|vols?)")
TITLE_COUNT_PATTERNS: tuple[str, ...] = (
    # heuristic-v17: "holds 93 batteries" is a capacity
    # heuristic-v20: "London 2012 Olympic pins" names a year
    r"(?<![\d.,£$€/x-])(?<!holds )(?<!takes )(?<!fits )(?<!up to )\b(?!(?:19|20)\d\d\b)(\d{1,4})\s+"
    r"(?:[a-z'-]+\s+){0,2}?"
    + _COUNTED + r"\b",
)
# In a description only a stated total counts: "3 cards have creases" is a part of the lot, not its size.
DESCRIPTION_TOTAL_PATTERNS: tuple[str, ...] = (
    r"\b(?:about|around|approx\.?|approximately|roughly|total of|in total|altogether|there are|contains?|"
    r"comes with|includes?|consists of|made up of)\s+(\d{1,4})\s+(?:[a-z'-]+\s+){0,2}?" + _COUNTED + r"\b",
    r"\b(\d{1,4})\s+(?:[a-z'-]+\s+){0,2}?" + _COUNTED + r"\s+(?:in total|total|altogether|in all|all told)\b",
)
# Bed and bedding sizes by name: a "king" title over a "double" description is a different product.
BED_SIZE_SCOPE = (r"\b(?:mattress(?:es)?|beds?|bedsteads?|divans?|duvets?|quilts?|comforters?|toppers?|"
                  r"headboards?|bedding|(?:fitted |flat )?sheets?|bed ?frames?|bed ?linen|valances?)\b")
BED_SIZES: dict[str, str] = {
    "small single": "small single", "single": "single", "twin xl": "twin xl", "twin": "twin",
    "small double": "small double", "three quarter": "small double", "full(?=[\\s-]?size)": "double",
    "double": "double",
    "queen": "queen", "king": "king", "super ?king": "super king", "california king": "california king",
    "cal(?:ifornia)? king": "california king", "emperor": "emperor",
}
_BED_NOUN = ("(?:beds?|mattress(?:es)?|duvets?|quilts?|comforters?|toppers?|frames?|divans?|headboards?|"
             "sheets?|bedding|sets?|protectors?|valances?|bed ?frames?|bedsteads?)")
BED_SIZE_PATTERNS: tuple[str, ...] = tuple(
    rf"\b({name})(?:[\s-]?size(?:d)?)?(?![\s-]+(?:sided|layer\w*|stitch\w*|packs?|thick\w*|pocket|"
    rf"spring\w*|glazed|bunk|set of|pillow\w*))\s+(?:[\w-]+\s+){{0,3}}?{_BED_NOUN}\b" for name in BED_SIZES)
# heuristic-v32: an attribute named for what is counted, in the plural ("packs": "18", "cards": "50"), is a
# quantity too; batteries are a part of many items, not what is sold.
COUNTED_ATTRIBUTE_NAME = rf"(?!batteries$){_COUNTED}(?<=s)"
QUANTITY_ATTRIBUTE_NAMES: tuple[str, ...] = ("quantity", "qty", "pieces", "count", "number of pieces",
                                             "pack size", "set size", "number of tickets", "tickets",
                                             "sheets", "rolls", "units",  # heuristic-v18: sold by the sheet
                                             "volumes", "books")  # heuristic-v19: a set of books
YEAR_ATTRIBUTE_NAMES: tuple[str, ...] = ("year", "model year", "release year", "year of manufacture",
                                         "production year")
YEAR = r"\b((?:19[5-9]|20[0-4])\d)\b"
# heuristic-v22: a year right after work done on the item dates the work ("CLA'd 2024", "serviced 2023").
WORK_BEFORE_YEAR = (r"\b(?:cla'?d|serviced|service|restored|refurb\w*|rebuilt|recovered|reupholstered|"
                    r"rewired|overhauled|recapped|mot|new (?:battery|belts?|tyres?))\W*(?:in\s+)?$")
# heuristic-v35: an item cannot have been bought new long before the year it is dated: "I bought it new in
# 2011" under "2019 Binder incubator" or "year: 2019". Only "it" or "this" is bought, as "mine" or "them"
# may be another item ("I had mine new in 2010, this is its replacement"), and a title year counts only
# where it dates the item: first in the title or before "model", not a range of models ("2019+", "2015-2018").
BOUGHT_NEW_IN_YEAR = (r"\b(?:bought|purchased|got|ordered|acquired|had)\s+(?:(?:it|this)\s+)?(?:brand\s+)?"
                      r"new\s+(?:in|back in)\s+((?:19[5-9]|20[0-4])\d)\b")
DATING_TITLE_YEAR = (r"^\W*((?:19[5-9]|20[0-4])\d)\b(?!\s*(?:[+/\-–]|on\b|onwards\b|to\b))|"
                     r"\b((?:19[5-9]|20[0-4])\d)\s+model\b")
MODEL_YEAR_SOLD_EARLY = 1  # a "2021" model is on sale in 2020: a year earlier is no contradiction
# heuristic-v35: a clothing or helmet size by letter in the title ("size M", "mens L", "jacket XL", "S/M")
# against a size attribute that is one letter size ("S"). A single letter counts only after "size" or a
# wearer and not before "&", "." or "-" (M&S, L.L.Bean, S-Works, L-shaped); a bare "XL" only last in the
# title or before punctuation or "with", since "XL Bully", "Sportster XL 883" and "XL air fryer" are names.
# Children's sizes are another scale; "dog size", "frame size" or "helmet size" may be another item's in a
# bundle ("men's XL jersey + bike, frame size: M").
LETTER_SIZES: tuple[str, ...] = ("xxs", "xs", "s", "m", "l", "xl", "xxl", "xxxl")
LETTER_SIZE_NAMES: dict[str, str] = {"small": "s", "medium": "m", "large": "l", "extra large": "xl",
                                     "extra-large": "xl", "2xl": "xxl", "3xl": "xxxl"}
_LONG_LETTER_SIZE = r"xxs|xs|xl|xxl|xxxl|[23]xl"
_LETTER_SIZE = r"(s|m|l|" + _LONG_LETTER_SIZE + ")"
_SIZE_NAME = r"(s|m|l|" + _LONG_LETTER_SIZE + r"|small|medium|large|extra[\s-]large)"
_OR_NEXT_SIZE = r"(?:\s*[/-]\s*" + _LETTER_SIZE + r")?\b(?![&.\-]\w)"  # "S/M", "XS-S": both sizes
TITLE_LETTER_SIZE = (r"\b(?:size|sz)\s*[:\-]?\s*" + _SIZE_NAME + _OR_NEXT_SIZE + "|"
                     r"\b(?:men'?s|women'?s|ladies'?)\s+" + _LETTER_SIZE + _OR_NEXT_SIZE + "|"
                     r"(?<!twin )(?<!iphone )(?<![\d/] )(?<![\d/])\b(" + _LONG_LETTER_SIZE + ")"
                     + _OR_NEXT_SIZE + r"(?=\s*$|\s*[,;:(|]|\s+(?:with|w/))")
ATTRIBUTE_LETTER_SIZE = r"\s*" + _SIZE_NAME + r"\s*(?:\([^)]*\))?\s*"
LETTER_SIZE_ATTRIBUTE_NAMES: tuple[str, ...] = ("size", "clothing size", "garment size")
# A model named in the title and in the model attribute: same word, different number.
MODEL_TOKEN = r"\b([a-z]{2,})[\s-]?(\d{1,4}[a-z]{0,2})\b"
# heuristic-v16: a model named by a letter ("Model D"), in the title against the model attribute.
MODEL_LETTER = r"\bmodel\s+([a-z])\b"
# heuristic-v21: a phone or device variant ("S22 Ultra" against "S22+"): the base model with its variant word.
MODEL_VARIANT = (r"\b([a-z]{0,3}\d{1,4}[a-z]?)(?!\w)\s*"
                 r"(\+|plus|ultra|pro max|pro|max|mini|lite|fe|edge)?(?!\w)")
# heuristic-v21 and v22: what the item is made of or how it is cut, claimed in the title or a material
# attribute, and the words elsewhere that rule that claim out.
_SURFACE_ONLY = ("veneer(?:ed)?", "chipboard", "mdf", "particle ?board", "laminate(?:d)?",
                 "(?:foil|vinyl|paper) wrap\\w*")
_LESSER_CERAMICS = ("stoneware", "earthenware", "terracotta", "melamine")
_FIBRES = ("cashmere", "wool", "merino", "silk", "cotton", "linen", "alpaca", "mohair")
_ANY_FIBRE = ("(?:" + "|".join(_FIBRES) + "|nylon|polyamide|polyester|acrylic|viscose|rayon|elastane|spandex|"
              "lycra|modal|lyocell|angora)")
EXCLUSIVE_MATERIALS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("solid (?:oak|pine|walnut|teak|mahogany|beech|ash|maple|cherry|elm|birch|wood|hardwood|timber)",
     _SURFACE_ONLY),
    ("solid (?:brass|copper|silver|gold)", ("(?:silver|gold|brass|copper)[\\s-]plated", "epns")),
    ("bone china", _LESSER_CERAMICS), ("porcelain", _LESSER_CERAMICS),
    ("stoneware", ("porcelain", "bone china")),
    ("(?:real|genuine|100 ?%|full[\\s-]grain|top[\\s-]grain) leather",
     ("pu leather", "faux leather", "bonded leather", "leatherette", "vegan leather", "pleather",
      "leather[\\s-](?:look|effect)", "polyurethane")),
    ("floor[\\s-]length|maxi", ("knee[\\s-]length", "midi", "mini dress",
                                "(?:sits|ends|stops|falls) (?:just )?(?:on|at|above|below) the knee")),
    *((f"100 ?% {fibre}|pure {fibre}", (f"(?<![\\d.])[1-9]\\d? ?% {fibre}", f"{fibre}[\\s-](?:blend|mix)"))
      for fibre in _FIBRES),
    # heuristic-v29: a wax claimed pure and a blend or paraffin named
    ("(?:100 ?%|pure) (?:soy|beeswax|coconut)(?: wax)?",
     ("(?:soy|wax)[\\s/-]paraffin", "paraffin (?:wax )?blend(?!\\s+of)",
      "(?:soy|wax|container)[\\s-](?:paraffin )?blend(?!\\s+of)")),
)
# heuristic-v33: a pure fibre claimed and a label naming another fibre at a share ("70% wool 30% nylon");
# read unless a part of the garment is named before it (a waistband, a pom pom, a lining), which
# FIBRE_LABEL_PARTS holds.
FIBRE_LABELS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (f"100 ?% {fibre}|pure {fibre}", (f"(?<![\\d.])[1-9]\\d? ?% (?!{fibre}){_ANY_FIBRE}",))
    for fibre in _FIBRES)
FIBRE_LABEL_PARTS = (r"\b(?:lining|lined|filling|padding|trim|cuffs?|waist\s?band|ribbing|rib|binding|tape|"
                     r"elastic|pom\s?poms?|patch(?:es)?|handles?|sole|upper|hood|collar|embroidery|thread)\b")
# "King cab version also available": another version on offer, not the item.
_NOT_ANOTHER_VERSION = r"(?!\s+(?:version|model|one)s?\s+(?:also|available))"
# heuristic-v29: features of which an item has one, claimed in the title, and the words elsewhere that name
# another (features.py). Each row is read as written: the claim, then what rules it out. heuristic-v30: only
# statements about the item rule a claim out ("mono only", "needs hardwiring"), not words that can name a
# habit, an accessory or another item ("printed black and white only", "corded charger", "UK only" postage);
# "X to Y" names an adapter, not the item's port; a shape claim was dropped (a round table extends to an
# oval). heuristic-v31: the connector rows were dropped (cables, adapters and chargers name both ports).
# heuristic-v32: "mains only" and "corded only" stay; a part named before them is read by OTHER_ITEM_CLAUSE.
EXCLUSIVE_FEATURES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("colou?r (?:laser|printer|printing|mfp|copier|screen|display|lcd)",
     ("mono(?:chrome)? (?!toner|printing|prints?|cartridges?)(?:[a-z0-9]+ )?(?:only|laser|printer|copier|mfp|"
      "screen|display|lcd)", "gr[ae]y (?:lcd|screen|display)")),
    ("battery[\\s-](?:powered|operated)|wire[\\s-]?free|no wiring|cordless",
     ("(?:needs?|requires?|must be)(?: to be)? hard[\\s-]?wir(?:ed|ing)", "hard[\\s-]?wired only",
      "mains only", "corded only")),
    ("region[\\s-]free|all regions",
     ("region[\\s-]locked", "(?:eu|eur|europe|european|us|usa|uk|asia|na|latam|row) (?:key|region only)")),
    ("weekend (?:[a-z]+ )?(?:ticket|pass|wristband|camping)",  # heuristic-v32: "weekend arena ticket"
     ("(?:friday|saturday|sunday|single|one)[\\s-]day (?:ticket|pass)",)),
    # heuristic-v33: a fill, an edition, a cab, a pressing, a concentration, a decoder, a motor count, a fuel,
    # a stairlift's rail
    ("(?<!hybrid )(?:(?:goose|duck) down|down[\\s-](?:filled|jacket|parka|coat|sleeping bag|duvet)|"
     "\\d{3} fill)",
     tuple(f"{fill}(?!\\s+(?:in|on|at|to|around)\\s+the)" for fill in (
         "primaloft", "synthetic (?:fill|filling|insulation|down)", "hollow ?fib(?:re|er)",
         "polyester (?:fill|filling|wadding)", "down[\\s-]alternative", "faux down"))),
    ("disc (?:edition|version|console)|with (?:a )?disc drive",
     ("digital (?:edition|version|only)(?!\\s+(?:code|game|download|of))", "^\\s*digital\\s*$",
      "no disc drive")),
    ("double[\\s-]cab", tuple(f"{cab}[\\s-]cab{_NOT_ANOTHER_VERSION}" for cab in ("single", "king", "extra",
                                                                                  "regular"))),
    ("single[\\s-]cab", tuple(f"{cab}[\\s-]cab{_NOT_ANOTHER_VERSION}" for cab in ("double", "crew"))),
    ("(?:1st|first|original) (?:uk |us )?press(?:ing)?",
     ("reissue", "re-?press(?:ing)?", "later press(?:ing)?")),
    ("elixir|eau de parfum|\\bedp\\b|extrait", ("eau de toilette", "\\bedt\\b")),
    ("eau de toilette|\\bedt\\b", ("eau de parfum", "\\bedp\\b")),
    ("dcc sound|sound[\\s-]fitted", ("dcc[\\s-]ready", "no decoder")),
    ("(?:dual|twin)[\\s-]motor", ("single[\\s-]motor(?!\\s+(?:mode|setting|option))",)),
    ("petrol(?![\\s-](?:blue|green|colou?r|pump|station|can|tank|cap|generator|inverter))",
     ("(?:electric|mains) (?:230|240) ?v(?!\\s*(?:sockets?|outlets?|outputs?))", "corded electric")),
    ("straight stair ?lift", ("curved (?:stair ?lift|rail|track)",)),
)
# heuristic-v31: words before a ruling-out word, in its clause, that put it on another item or in a
# comparison ("replaces my old mono laser", "cleaner than a soy-paraffin blend", "unlike the 3DS which was
# region locked"): not a statement about the item sold. heuristic-v32: or on a part that is powered apart
# from the item ("base station is mains only", "the charger is corded only").
OTHER_ITEM_CLAUSE = (r"\b(?:old|older|previous|than|unlike|replaces?|replaced|replacing|upgraded from|"
                     r"also sell|swap|swaps|instead of|compared to|works with|other|base|station|dock|"
                     r"docking|charger|charging|cradle|hub|bridge|adapter|psu|power supply|"
                     # heuristic-v33: other things for sale, a comparison, a former state, a record's parts
                     r"also (?:have|selling|got|available)|like|inspired|dupe|"
                     r"as (?:long|good|strong) as|originally|previously|was|converted|sleeve|inner|insert|"
                     r"poster)\b")
# heuristic-v33: an attribute named for a feature the title names, whose value says the item lacks it
# ("bluetooth": "no" under "Bose A20 with Bluetooth"); names where "no" is the good answer are left out.
ATTRIBUTE_SAYS_NO = r"^\s*(?:no|none|not included|not fitted|without|missing)\s*[.!]?\s*$"
TITLE_DENIES_AFTER = (r"(?:\w+\W+){0,2}?(?:not|no|without|missing|excluded|none|lost|removed|required|needed|"
                      r"separately|optional)\b")
# What the title must say for a feature to be claimed: "with X", "built-in X", "inc. X", "+ X", or X is one
# of the features a title names only when the item has it.
FEATURE_CLAIM_BEFORE = (r"(?:with|w/|built[\s-]in|inc\.?|incl\.?|including|includes|\+|plus)\s+"
                        r"(?:[\w-]+\s+){0,2}?")
NAMED_FEATURES = r"^(?:bluetooth|wi-?fi|gps|nfc|sat ?nav|dab|isofix|4g|5g|airplay|chromecast|alexa)$"
NO_IS_GOOD_NAMES = (r"\b(?:damage[ds]?|marks?|scratch(?:es)?|stains?|faults?|issues?|defects?|problems?|"
                    r"smok\w*|pets?|rips?|tears?|holes?|dents?|cracks?|chips?|wear|repairs?|accidents?|offers?|"
                    r"swaps?|trades?|returns?|postage|delivery|collection|reserve|finance|rust|warranty|"
                    r"assembly|instructions?)\b")
# heuristic-v16: shoe sizes in UK and EU numbering, compared as EU sizes where footwear is sold; US sizes
# differ for men and women, so they are left out. Within one size is the same size rounded.
SHOE_SCOPE = (r"\b(?:shoes?|boots?|trainers?|sneakers?|heels|sandals?|loafers?|brogues?|slippers?|footwear|"
              r"cleats|wellies|wellingtons?|plimsolls?|clogs?|mules|waders)\b")
SHOE_SIZE = r"\b(uk|eu|eur)\s*(?:size\s*)?(\d{1,2}(?:\.5)?)(?![\d.])"
HALF_SIZE = r"(\d)\s*(?:½|1/2)"  # heuristic-v33: "UK 8 1/2" and "8½" are 8.5
# heuristic-v22: a bare "size 9" in an adult shoe's title is a UK size (children's sizes are numbered apart).
BARE_SHOE_SIZE = r"\bsize\s*(\d{1,2}(?:\.5)?)(?![\d.])"
CHILDRENS_SCOPE = r"\b(?:kids?|child(?:ren)?'?s?|junior|infants?|toddlers?|boys?'?|girls?'?|baby)\b"
CHILDRENS_TITLE = CHILDRENS_SCOPE + r"|\b(?:youth|age\s*\d)\b"  # heuristic-v35: no adult letter sizes
# heuristic-v22: the age a toy or garment is for, in the title and the age attribute, as its lower bound in
# months ("18m+", "5-9 years", "3+"); lower bounds within AGE_TOLERANCE of each other are one range.
AGE_ATTRIBUTE_NAMES = r"^(?:age|ages|age range|suitable for|recommended age|for ages?)$"
AGE_BOUND = (r"(?<![\d.])(\d{1,2})\s*(?:(m|mths?|months?)\b\s*\+?|(?:\s*(?:-|–|to)\s*\d{1,2}\s*)?"
             r"(?:y|yrs?|years?)\b|\s*\+)")
AGE_TOLERANCE = 0.45
EU_FROM: dict[str, float] = {"uk": 33.5, "eu": 0.0, "eur": 0.0}
SHOE_SIZE_TOLERANCE = 1.0 / 40  # a size either way, relative to an adult EU size
# heuristic-v16: a length in the title in feet and inches ("10'6", "6ft") or metres, against a length
# attribute in any unit: the same board or table measured twice, differently.
TITLE_LENGTH = (r"(?<![\d.x×])(?<!x )(?<!× )(?<!by )(\d{1,2})\s*(?:'|ft\b|feet\b|foot\b)"
                r"\s*(?:(\d{1,2})(?![\d.])\s*(?:\"|in\b|inch\w*)?)?"
                r"(?!\s*(?:x|×|by)\s*\d)")
TITLE_METRIC_LENGTH = (r"(?<![\d.x×])(?<!x )(?<!× )(?<!by )(\d{1,3}(?:\.\d{1,2})?)\s*(m|cm)\b"
                       r"(?!\s*(?:x|×|by)\s*\d)")
METRIC_LENGTH = r"(\d+(?:\.\d+)?)\s*(mm|cm|m)\b"  # in a length attribute, where no dimension competes
# heuristic-v21: attributes that state the item's own overall size, not a part's or the packaging's.
OWN_SIZE_NAMES = r"(?:size|dimensions?|measurements?|overall (?:size|dimensions?))"
LENGTH_ATTRIBUTE_NAMES = r"^(?:length|overall length|board length|total length|diameter)$"  # v22: diameter
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
    # heuristic-v25: a book or workbook written in (not an "annotated edition" or a highlighting palette)
    "(?:some|a bit of|a little|light|lots of|heavy|pencil|pen|my|their) highlighting",
    "highlighting (?:on|in|throughout)",
    "highlighted (?:in (?:pen|pencil|places)|throughout|passages|pages|sections)",
    "annotations? (?:in|on|throughout)", "annotated (?:in (?:pen|pencil)|throughout|by (?:me|hand))",
    "written in (?:pen|pencil|ink|biro|marker)", "notes in (?:the )?margins?",
    "(?:done|filled in|completed|answered) in (?:pen|pencil)",
    "(?:is|are|was|were|went|gone|now) missing", "(?:one|two|a few|some|several|a couple)(?: of)? (?:the )?"
    "[\\w-]+ (?:are |is )?missing", "punched", "played with", "(?:been )?assembled", "(?:been )?built",
    "damaged", "damage", "repaired", "patched", "glued",
)
# A sealed claim is contradicted by any sign the seal was broken.
SEALED_CLAIMS: tuple[str, ...] = (
    "sealed", "factory sealed", "unopened", "shrink[\\s-]?wrapped",
    "nisb", "misb", "new in sealed box", "never (?:been )?opened",
    "still in (?:the )?(?:cellophane|shrink ?wrap)",
)
# heuristic-v14: "never swatched" claimed, "swatched twice" told: the same verb, done after all.
NEVER_DONE_CLAIM = r"\bnever (?:been |ever )?(worn|ridden|driven|flown|\w{3,}ed)\b"
DONE_AFTER_ALL = (r"\b{verb}\b(?: (?:it|them|this|these|her|him))?[^.!?\n]{{0,12}}?\b"
                  r"(?:once|twice|three times|"
                  r"a (?:few|couple(?: of)?) times|\d+ times|a (?:few|couple of) (?:days|weeks|months))\b")
OPENED_TERMS: tuple[str, ...] = (
    "opened", "unsealed", "seal (?:is |was )?broken", "open(?:ed)? (?:it|the box|the seal)",
    "took (?:it )?out",
    "checked (?:the )?contents", "punched",
    # heuristic-v22: make-up tried on the skin is no longer sealed
    "swatched", "swatch(?:ed)? (?:it|them|\\d+|a few|some)",
    # heuristic-v14: opened in so many words ("I did open one of the bags"), or a seal cut
    "(?:did|have|had|i|we) open(?:ed)?\\b",
    "seals? (?:is |are |was |were )?(?:slit|cut|split|torn|lifted|peeled)",
    # heuristic-v17: used a counted number of times, or some of it gone ("sprayed 20 times", "85ml left")
    "(?:sprayed|spritzed|swatched|applied|used|tried|worn) (?:it |them )?"
    "(?:maybe |about |around |only |just )?(?:once|twice|\\d+ times|a (?:few|couple(?: of)?) times)",
    "\\d+ ?ml (?:left|remaining)",
)

# --- Family: too incomplete to assess ---------------------------------------------------------------

# Below this many words, with no item specifics and a title that only names a category ("Phone"), nobody
# can tell what is sold or in what state; a named item ("Hammock", "used twice") is thin, not unassessable.
MIN_ASSESSABLE_DESCRIPTION_WORDS = 3
PRICED_THIN_DESCRIPTION_WORDS = 8  # heuristic-v22: at most this many words at UNASSESSABLE_MIN_PRICE or more
# heuristic-v28: a description of a few words that sends the buyer elsewhere for the details (a message, the
# photos, an offer) leaves the listing itself saying nothing a buyer can check, whatever the title names.
DEFERRED_DESCRIPTION_WORDS = 8
DEFERRED_DETAILS = (r"\b(?:dm|pm|inbox|msg|message (?:me|for)|ask|enquire|see (?:pics?|photos?|pictures?|"
                    r"images?)|as (?:pic|photo|pictured)|offers?|ono|details on request|"
                    r"for (?:more )?(?:info|details))\b")
# A title of filler alone ("Item for sale", "stuff") does not say what is sold; with a description
# this short nothing else does either.
UNIDENTIFIED_DESCRIPTION_WORDS = 15
# heuristic-v7: the seller says they cannot say what the item is or what it fits: with a short description
# and no brand or model, nothing identifies it.
UNIDENTIFIED_HEDGES: tuple[str, ...] = (
    "(?:don'?t|dont|do not|didn'?t|did not) know what (?:it|they|this|these|that|those) (?:is|are|was|were|"
    "fits?|goes? on|came off|(?:is|are) for|do(?:es)?)",
    "(?:no idea|not sure|unsure|no clue|not certain) what (?:it|they|this|these|that|those) (?:is|are|was|"
    "were|fits?|goes? on|came off|(?:is|are) for|do(?:es)?)",
    "unknown (?:item|items|object|parts?|use|purpose)",
    "(?:mystery|unidentified) (?:item|items|object|parts?)",
)
FILLER_TITLE_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "and", "of", "for", "with", "sale", "selling", "lot", "job", "joblot", "bundle",
    "item", "items", "stuff", "things", "thing", "misc", "various", "assorted", "my", "x",
    "used", "new", "old", "good", "nice", "great", "cheap", "bargain", "quick", "offers", "ono", "obo",
    "dm", "me", "pm", "message", "details", "see", "description", "inside", "collection", "only",
    # heuristic-v11: a class so broad a buyer cannot tell what is sold ("Motor", "Tools", "Estate sale lot")
    "motor", "motors", "engine", "engines", "machine", "machines", "machinery", "tools", "parts", "spares",
    "equipment", "gear", "estate", "clearance", "combo", "offer", "mystery", "pallet", "pallets",
    # containers and heaps name how things are packed, not what they are ("box of stuff")
    "box", "boxes", "bag", "bags", "crate", "tub", "load", "loads", "bits", "bobs", "odds", "ends", "pile",
    "heap", "mixed", "random", "sorts", "kinds", "everything", "anything", "some", "all",
    # where a heap came from is not what is in it ("bits from garage clearance", "loft clear out")
    "from", "garage", "loft", "attic", "shed", "cellar", "basement", "house", "clear", "out", "clearout",
    "clear-out", "declutter", "decluttering", "moving", "move", "spare", "leftover", "leftovers", "surplus",
    # heuristic-v13: the place a lot was cleared from ("Contents of unit 7", "lock-up contents")
    "contents", "unit", "units", "lockup", "lock-up", "container",
    # heuristic-v14: swap-forum and barn-clearance shorthand ("FS: box of bits", "[H] parts [W] $$$", "wtt")
    "fs", "ft", "wtt", "wts", "wtb", "h", "w", "hmu", "list", "barn", "yard", "workshop", "outbuilding",
    # heuristic-v16: a market stall's leftovers, a kit of nothing named, an order only its buyer knows
    "stall", "kit", "custom", "order", "orders", "reserved", "commission",
    # heuristic-v17: a business's leftovers named by the business ("SALON CLOSING", "Pharmacy bits")
    "salon", "pharmacy", "shop", "warehouse", "stockroom", "closing", "closedown", "closure", "cartons",
    "carton", "stock", "bunch",
    # heuristic-v18: a van's leftovers, and a whole class of goods named as the item ("Electrical")
    # heuristic-v20: the occasion a heap came from ("Wedding stuff", "PARTY job lot", "Event kit")
    "wedding", "party", "event", "events",
    "van", "lots", "electrical", "electricals", "electronics", "household", "homeware", "homewares",
})

# A description that stands in for one ("as pic", "see photos", "-", "ask"): the seller wrote nothing a
# buyer can read, so it counts as no description at all. Matched against the whole description.
PLACEHOLDER_DESCRIPTIONS: tuple[str, ...] = (
    "as (?:per )?(?:pics?|pix|pictures?|pictured|photos?|photographed|images?|seen|shown)",
    "see (?:the )?(?:pics?|pix|pictures?|photos?|images?|title|above|attached)",
    "(?:pics?|pix|pictures?|photos?) (?:says?|speaks?|tells?) (?:it all|for (?:it|them)sel(?:f|ves))",
    "what you see is what you get", "wysiwyg", "self[\\s-]?explanatory", "no description",
    "nothing (?:to|else to) (?:say|add)", "ask(?: me)?(?: for (?:details|info))?", "any questions?(?: ask)?",
    "(?:dm|pm|msg|message|inbox|text|call)(?: me)?(?: for (?:details|info|more))?", "n/?a", "tbc", "tba",
    "info to follow", "details to follow", "x+", "[-_.*?!~=/]+",
    # heuristic-v14: sold as it is, with nothing said of what it is ("As found. Offers.")
    "as (?:found|is|seen)(?:[\\s.,!]+(?:offers|ono|no offers|cash only|collection only|no returns))*",
)

# --- Shared ------------------------------------------------------------------------------------------

# Words that deny what follows ("no cracks", "never dropped", "free of damage").
# heuristic-v11: an attribute that answers with a denial ("accidents: none") says there were none.
DENIAL_VALUE = r"\s*(?:none|no|nil|never|zero|0|nothing)\s*\.?\s*"
NEGATION_WORDS: tuple[str, ...] = (
    "no", "not", "never", "nor", "without", "zero", "free of", "free from", "isn'?t", "wasn'?t",
    "aren'?t", "hasn'?t", "haven'?t", "doesn'?t", "don'?t", "didn'?t", "hardly any", "nothing",
    "none", "n't",
)

# --- heuristic-v6: generic measures, conditions and claim shapes ------------------------------------------

# Length units to millimetres: a dimension ("3m x 6m", "168 x 229cm", "6'x4'", "66x90\"") is compared
# after conversion, whatever unit each place uses.
LENGTH_UNITS: dict[str, float] = {
    "mm": 1, "cm": 10, "cms": 10, "m": 1000, "mtr": 1000, "mtrs": 1000, "metres": 1000, "meters": 1000,
    "metre": 1000, "meter": 1000, "in": 25.4, "ins": 25.4, "inch": 25.4, "inches": 25.4, '"': 25.4,
    "ft": 304.8, "feet": 304.8, "foot": 304.8,
    "'": 304.8,
}
# One length unit, captured (heuristic-v31: "cms", "mtrs" and "ins" as sellers write them).
LENGTH_UNIT = r"(mm|cms?|mtrs?|m|metres?|meters?|inch(?:es)?|ins?|ft|feet|foot|\"|')"
# A side label that may follow a number ("168cm wide x 183cm drop").
_SIDE = r"(?:\s*(?:wide|width|w|long|length|l|high|height|h|deep|depth|d|drop|tall))?"
# Two or three numbers joined by x/×/by, each with an optional unit; the last unit applies to all.
# heuristic-v29: a size ends at a number or a unit, not inside a word ("4 x 4MP" is four cameras).
DIMENSION = (r"(?<![\d.,])(\d+(?:\.\d+)?)\s*" + LENGTH_UNIT + r"?" + _SIDE + r"\s*(?:x|×|\*|by)\s*"
             r"(\d+(?:\.\d+)?)\s*" + LENGTH_UNIT + r"?" + _SIDE
             + r"(?:\s*(?:x|×|\*|by)\s*(\d+(?:\.\d+)?)\s*" + LENGTH_UNIT + r"?)?(?!\.?\d|[a-z])")
# heuristic-v27: an attribute that is one number and its unit ("capacity: 85Ah"; a bare count takes the last
# word of its name as the unit: "channels: 4") is compared with the title's and the description's numbers in
# that unit. A general unit measures many parts of one item (a "305 mm" blade, a "150 mm" depth of cut) or
# many things at once (years, days), so it is compared only where a word of the attribute's name stands
# beside the number.
ATTRIBUTE_MEASURE = VALUE + r"\s*(?:-\s*)?([a-z]{2,12}|[a-rt-z])?\.?\s*"  # not "1970s": a decade
# An attribute named for a share, a sum or a reading ("per pack", "total carat", "tested capacity") states
# something other than what the title counts or rates.
QUALIFIED_NAME = (r"\b(?:per|each|total|tested|measured|actual|remaining|left|min|minimum|max|"
                  r"maximum)\b")
GENERAL_UNITS: frozenset[str] = frozenset({
    *LENGTH_UNITS, "kg", "g", "lb", "oz", "rpm", "x", "pc", "piece", "item", "unit", "set", "pack", "part",
    "year", "yr", "month", "week", "day", "hour", "hr", "h", "min", "minute", "sec", "second", "time",
    "size", "quantity", "qty", "number", "no", "count", "total", "age", "model", "version", "edition",
    "level", "grade",
})
# heuristic-v39: a count named by its attribute ("blades": "5") is read in prose with up to two words between
# the number and the name ("3 reversible blades", "24 planting sites") or the name before the number ("plate
# 122", "seats 8"). The words between describe the thing counted; a share or a link word does not.
COUNT_WORDS_BETWEEN = 2
COUNT_BETWEEN_EXCLUDED = r"(?:per|each|for|from|with|and|the|into|than)"
# A share of the count ("packs of 6 tins", "3 drawers each") or a few of the things described ("2 chairs have
# scuffs", "two bays hold my drives") is not the count of the item.
COUNT_SHARE_BEFORE = r"\b(?:of|x|per|each|every)\s*$"
COUNT_PART_AFTER = (r"\s+(?:each|per|apiece|a piece|have|has|had|are|were|is|was|need|needs|show|shows|"
                    r"hold|holds|missing|work|works|working|don't|do not)\b")
# heuristic-v39: an attribute named for the item's own length ("length", "height", "overall height")
# against the title's lengths in any unit: a buyer reads two lengths in one listing as the same measure
# stated twice when neither is more than MEASURE_MIX_UP_RATIO times the other ("9 metres" / "11 m"), and as
# different parts when they are further apart ("staging board 3.6m" / "width: 450 mm").
MAIN_MEASURE_NAME = r"(?:(?:overall|total)[\s_-]+)?(?:length|width|height|depth|diameter|thickness)"
# "9ft 6in" is one length: the inches after feet are added to them.
FEET_AND_INCHES = r"(?:\s*(\d{1,2}(?:\.\d+)?)\s*(?:in|inch|inches|\")(?![\w']))?"
MEASURE_MIX_UP_RATIO = 1.75
NAME_BESIDE_WORDS = 3  # how near, in words, the name must stand to a number in a general unit
NAME_STOPWORDS: frozenset[str] = frozenset({"the", "and", "with", "for"})
# A single measure named by the side it measures ("drop: 229cm", "183cm drop", "height 30 cm").
NAMED_SIDES: dict[str, str] = {
    "width": "wide|width|w", "length": "long|length|l", "height": "high|height|h|tall",
    "depth": "deep|depth|d", "drop": "drop", "diameter": "diameter|dia",
}
# A clause about something other than the item as sold: its packaging, a former state, an alternative
# size, another item it fits: its numbers are not claims about the item, so they are never compared.
# heuristic-v29: in prose, words of another item or a space it suits count before the measure ("fits a 60cm
# gap"), not after it ("4 foot wide so fits in a small room"), and a range is one the measure is part of
# ("150-190 cm", "1.5 to 2 m", "~2 m"), not any range in its sentence ("1.5m long, seats 2-3").
OTHER_MEASURE_EITHER_SIDE = (
    r"\b(?:box|package|packaging|parcel|carton|postage|shipping|now|available|options?|also|or|max(?:imum)?|"
    r"min(?:imum)?|approx\w*|about|around|upgrad\w*)\b")
# heuristic-v31: a former state or the packed size is named after a comma too ("3m long, cut down to fit",
# "125 x 62 x 12cm, when boxed"): these words are read over the whole window after the measure.
FORMER_STATE = (r"\b(?:boxed|packed|was|were|previously|originally|used to be|converted|cut down|shortened|"
                r"altered|extended)\b")
OTHER_ITEM_BEFORE = (r"\b(?:fits?|fitting|suits?|suitable|compatible|for (?:a|an|the|up to)|up to|room|space|"
                     r"(?:from|between)\s+\d)\b")
# heuristic-v30: either end may carry its unit ("150cm - 210cm", "70 TO 120 CM"); a place named right after
# the measure is another thing's size ("our 300 cm wide living room", "a 135 cm wide mattress fits").
# heuristic-v31: the unit on the first end is a length unit ("5kg - 120cm tall" is a list, not a range), and
# "70cm up to 120cm" or "1.2m closed - extends up to 3.8m" is a range too.
RANGE_BEFORE = rf"(?:\d\s*(?:{LENGTH_UNIT}\s*)?(?:-|–|to)|\d\s*and|~)\s*$"
RANGE_AFTER = r"\s*(?:-|–|to|(?:[a-z–-]+\s+){0,3}?(?:up\s+)?to)\s*\d"
OTHER_ITEM_AFTER = (r"^\s*(?:[a-z]+\s+){0,2}?(?:room|gap|alcove|space|mattress|opening|recess|doorway|hole|"
                    r"aperture)s?\b")
# An attribute named for any of these ("box size", "fits", "max load") states another thing's measure.
OTHER_MEASURE_CONTEXT = rf"{OTHER_MEASURE_EITHER_SIDE}|{FORMER_STATE}|{OTHER_ITEM_BEFORE}"
# heuristic-v7: a size the seller says they measured ("measured it, 180 x 120 cm", "footprint is ..."):
# compared with the size stated in the title or attributes even when no side matches.
MEASURED_CONTEXT = (r"\b(?:measured|measures|measuring|footprint|actual (?:size|dimensions)|"
                    r"(?:overall|external|outside) (?:size|dimensions)|tape measure)\b")
# heuristic-v7: the description calls the item by another model number ("selling my TM5" under "TM6").
# A clause that names another item is not a claim about this one (OTHER_MEASURE_CONTEXT too).
OTHER_MODEL_CONTEXT = (r"\b(?:fits?|for|with|compatible|replaces?|replaced|instead|unlike|than|vs|versus|"
                       r"like|also|or|same as|upgrade to)\b")
# A year stated for the item itself in prose ("first registered 2016", "made in 2016", "a 2016 model").
ITEM_YEAR_PHRASES = (
    # heuristic-v17: "units made in 2019" are other units
    r"(?<!units )(?<!ones )(?<!those )(?<!batches )(?<!others )"
    r"\b(?:first registered|registered|reg(?:istration)? date|manufactured|made|built|produced|"
    r"model year|year of manufacture|date of manufacture|dated)\s*(?:in\s+|:\s*)?((?:19[5-9]|20[0-4])\d)\b",
    r"\b((?:19[5-9]|20[0-4])\d)\s+(?:model|build|plate|registration)\b",
)
# Condition claims that a severe defect contradicts: good, but not "new" (GOOD_CONDITION_CLAIMS), read in
# the title, a condition attribute or an unqualified description sentence.
GOOD_CONDITION_CLAIMS: tuple[str, ...] = (
    "excellent(?: condition| order| working order)?", "like new", "as new", "perfect (?:condition|order|"
    "working order|shape)", "flawless", "a[\\s-]?grade", "grade[\\s-]?a", "immaculate", "pristine",
    "mint", "(?:very|really|great|fantastic|superb) (?:good )?condition", "near(?:ly)? new", "showroom",
    # heuristic-v7: a working claim is contradicted by a fault stated elsewhere
    "(?:fully|100 ?%|perfectly) working", "works (?:perfectly|flawlessly|100 ?%)",
    "(?:perfect|full) working order",
    "tested (?:and )?(?:fully )?working",
)
# Where a claim in the description is qualified in its own sentence ("excellent apart from a tear").
CLAIM_QUALIFIERS = (r"\b(?:apart from|except|other than|bar|but|aside from|besides|considering|for (?:its|the"
                    r"ir) age|otherwise|however|though|although|barring|save for)\b")
# Damage that no honest "excellent" or "like new" hides; mild wear ("light scuffs") is not here.
SEVERE_DEFECTS: tuple[str, ...] = (
    "torn", "tears? (?:in|on|to|along)", "rips? (?:in|on)", "ripped", "shredded", "cracked",
    "cracks? (?:in|on|across|along|running)", "broken", "snapped", "split (?:in|on|along|seam)",
    "burn(?:t|ed)?(?: marks?)?",
    "scorch\\w*", "stain(?:s|ed)?", "water[\\s-]damaged?", "mou?ld(?:y)?", "damp damage", "rotten", "rot",
    "not working", "(?:does ?n[o']?t|doesnt|won'?t) (?:work|turn on|switch on|power on|charge|start)",
    "stopped working", "smashed", "shattered", "holes? (?:in|on)", "chewed", "(?:is|are|was|were) "
    "missing", "missing (?:a |one |two |the )?(?:legs?|feet|foot|doors?|drawers?|handles?|wheels?|parts?|"
    "pieces?|cushions?|keys?|buttons?|lid|screen|glass)", "seized", "rusted through", "dented", "bent",
    "delaminat\\w*", "peeling", "infest\\w*", "moth[\\s-]?(?:eaten|holes?)", "faulty",
)
# A soft word before a defect makes it wear, not damage ("small stain", "light mark").
MILD_BEFORE = (r"\b(?:tiny|small|slight|slightly|light|lightly|minor|little|faint|barely|hairline|"
               r"cosmetic)\s+$")
# The defect is on the packaging, not the item ("box damaged", "outer box got crushed").
PACKAGING_SUBJECT = (r"\b(?:box|boxes|packaging|carton|outer|sleeve|wrapping|packet|tags?|bag|case|"
                     r"cellophane)\b(?:\s+[\w']+){0,3}\s*$")

# Attributions to a period, dynasty or maker that make an object valuable: a claim that needs an expert.
DYNASTY_ATTRIBUTIONS: tuple[str, ...] = (
    "ming", "qing", "kangxi", "qianlong", "yongzheng", "xuande", "chenghua", "jiajing", "wanli", "daoguang",
    "tang dynasty", "song dynasty", "yuan dynasty", "han dynasty", "joseon", "goryeo", "meiji", "edo period",
    "ancient (?:roman|greek|egyptian)", "pre[\\s-]?columbian", "egyptian antiquit\\w*",
)
PERIOD_ATTRIBUTIONS: tuple[str, ...] = (
    "georgian", "victorian", "edwardian", "regency", "william iv", "art deco", "art nouveau",
    "louis (?:xiv|xv|xvi)", "biedermeier", "arts (?:and|&) crafts",
)
# heuristic-v7: a decade named as the item's origin ("real 1960s", "60s original") on an item priced like
# a valuable, in a listing that calls it genuine or rare (ERA_CLAIM_MARKERS): an era a person must confirm.
ERA_ATTRIBUTIONS: tuple[str, ...] = ("(?:18[0-9]0|19[0-7]0)'?s", "(?:[2-7]0)'?s", "pre[\\s-]?war",
                                     "(?:victorian|edwardian|wartime) era")
ERA_CLAIM_MARKERS: tuple[str, ...] = ("real", "genuine", "authentic", "rare", "rarest", "grails?",
                                      "holy grail", "museum")
# heuristic-v7: evidence said to be lost in its own sentence ("it had a certificate but we cannot find it").
LOST_EVIDENCE = (r"\b(?:lost|misplaced|mislaid|can'?t find|cannot find|could(?:n'?t| not) find|"
                 r"no longer (?:have|has|got)|gone missing|went missing|threw (?:it|them) (?:away|out)|"
                 r"thrown (?:away|out))\b")
# A period word that describes a style, a reproduction or a building, not the object's origin.
ATTRIBUTION_DISCLAIMERS: tuple[str, ...] = (
    "style", "styled", "inspired", "reproductions?", "repro", "replicas?", "copy", "copies",
    "in the manner of", "after", "modern", "new", "reissue", "reprint", "look", "effect", "design", "themed",
    "homes?", "houses?",
    "terrace\\w*", "dynasty warriors",
)
# Natural rarities valued by their origin; genuine ones come with a certificate or a dealer's papers.
NATURAL_RARITIES: tuple[str, ...] = (
    "meteorites?", "tektites?", "moldavite", "fossil(?:s|i[sz]ed)?(?![\\s-]+(?:gen\\b|watch\\w*|smart\\w*|"
    "hybrid|bags?|wallets?|purses?|brand|grant|q\\b))", "dinosaur (?:teeth|tooth|bones?|claws?|eggs?)",
    "trilobites?", "ammonites?", "megalodon", "mammoth (?:teeth|tooth|bones?|hair)",
    "(?:baltic|natural|genuine|raw) ambers?", "gemstones?", "loose (?:diamonds?|sapphires?|rubies|emeralds?)",
    "opals?", "(?:natural|cultured|freshwater|akoya|south sea|tahitian|saltwater) pearls?",
    "jade(?:ite)?(?![\\s-]+(?:green|colou?r\\w*|plants?|effect|look))", "nephrite",
    "moon rocks?", "lunar (?:meteorites?|rocks?)",
)
# heuristic-v21: branded goods claimed original or genuine, sold in bulk or out of any retail packaging: how
# counterfeit accessories (chargers, screens, parts) are sold.
ORIGINAL_CLAIMS: tuple[str, ...] = ("original", "genuine", "oem", "authentic")
BULK_OR_PLAIN_PACKING: tuple[str, ...] = (
    "no retail (?:box|boxes|packaging|pack)", "white box(?:ed)?",
    "plain (?:poly ?bags?|box(?:es)?|packaging)",
    "unboxed", "(?:wrapped|sealed) in film", "bulk (?:available|stock|lot|pack(?:ed)?|buy|prices?)",
    "in bulk", "trade (?:price|welcome|enquiries)", "\\d+ available", "(?:job|wholesale) lot",
)
GENUINENESS_CLAIMS: tuple[str, ...] = (
    "certified", "genuine", "authentic", "real", "natural", "original", "guaranteed",
)
# Proof said to be unavailable in words after it ("certificate not available").
PROOF_UNAVAILABLE = (r"(?:certificates?|certs?|coa|papers|paperwork|documents?|documentation|receipts?|"
                     r"provenance)\s+(?:(?:is|are|was|were)\s+)?(?:not available|not provided|not supplied|"
                     r"none|n/?a|to follow|unknown|gone|not with (?:it|them))")
# Cosmetic marks on a finish ("minor paint chips") are wear, not structural damage.
COSMETIC_DAMAGE = (r"\b(?:paint|paintwork|cosmetic|lacquer|finish|decals?|stickers?|stone|gelcoat)\w*\s+"
                   r"(?:[\w-]+\s+)?"
                   r"(?:chips?|chipped|scuffs?|scuffed|scratch\w*|marks?|crazing|crazed)\b"
                   # heuristic-v7: the other way round ("dents in the paint"), and a small split in a seat
                   # cover or cushion, which is upholstery, not the structure
                   r"|\b(?:dents?|dinks?|chips?|scuffs?|scratch\w*|marks?)\s+(?:[\w-]+\s+){0,2}?(?:in|on|"
                   r"to)\s+"
                   r"(?:the\s+)?(?:paint|paintwork|lacquer|finish)\b"
                   r"|\b(?:seat|saddle|cushion|upholstery|fabric|cover|padding)s?\s+(?:[\w'-]+\s+){0,3}?"
                   r"(?:small|little|minor|slight|tiny)\s+(?:split|tear|rip)\b")
# A defect quoted with its clause that is about the packaging ("box damaged", "outer box got crushed").
PACKAGING_DAMAGE = (r"^(?:[\w'-]+\s+){0,3}?(?:outer |retail |original )?(?:box|boxes|packaging|carton|sleeve|"
                    r"wrapping|packet|cellophane)\b(?:\s+[\w'-]+){0,3}?\s+(?:got\s+|is\s+|was\s+|has been\s+|"
                    r"been\s+)?(?:damaged|crushed|torn|dented|split|ripped|squashed|broken|bashed|battered|"
                    r"opened|scuffed|missing)\b")
