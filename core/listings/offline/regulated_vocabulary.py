"""Vocabulary of the regulated-goods and medical-claim families, as plain data tables.

Why tables: what a marketplace may not sell without a check (age, prescription, licence, permit) and
which health claims need evidence differ by market only in words; the two rules that read these
tables stay the same. Entries are regular-expression fragments matched as whole words,
case-insensitively; a denied mention does not count unless the table says its terms carry their
own negation.
"""

# --- Family: regulated or illegal goods -------------------------------------------------------------

# heuristic-v22: what is sold for a weapon, not the weapon ("shotgun cleaning rod", "air rifle pellets").
_OVER_SIX_PERCENT_PEROXIDE = "\\b(?:[7-9]|[1-9]\\d)(?:\\.\\d+)? ?% ?(?:hp\\b|hydrogen peroxide|h2o2)"
_OFF = "(?:off|none|no|removed|disabled|cleared|not (?:on|set|active|enabled|locked)|free|unlocked)\\b"
_LOCK_OFF = "(?![\\s:=-]*(?:is |was |has been |now |turned |switched )?" + _OFF + ")"
LOCKED_DEVICE_KIND = "possibly stolen or locked device"
# heuristic-v25: an attribute that names the lock and says it is off ("activation lock: off")
LOCK_ATTRIBUTE = "lock"
LOCK_OFF_VALUE = "^" + _OFF
_FOR_IT = ("(?![\\s-]*(?:[\\w-]+[\\s-]+)?(?:cleaning|cleaners?|rods?|kits?|slips?|cases?|bags?|sleeves?|"
           "cabinets?|safes?|racks?|key ?rings?|belts?|covers?|mounts?|stands?|boxes|tins?|holders?|targets?|"
           "pellets?|scopes?|slings?)\\b)")
# Goods a marketplace listing cannot sell without checks it cannot make (age, prescription, licence).
_PROTECTED_ANIMALS = ("(?:(?:barn|tawny|snowy|eagle|little|long-eared|short-eared) )?(?:owls?|hawks?|"
                      "falcons?|eagles?|kestrels?|buzzards?|red kites?|ospreys?|harriers?|sparrowhawks?|"
                      "peregrines?|goshawks?|merlins?|birds? of prey|kingfishers?|otters?|badgers?|"
                      "bitterns?)")
# heuristic-v13: a poison or chemical (CHEMICAL_WORDS) without the maker's label (UNLABELLED_TERMS).
_CHEMICAL = ("(?:(?:rat|mouse|rodent|mole) )?(?:poisons?|pesticides?|herbicides?|insecticides?|rodenticides?|"
             "weed ?killers?|slug pellets?|chemicals?|chlorine|acids?|caustic \\w+|bleach|solvents?|"
             "sheep ?dips?|fungicides?|organophosphates?)")
_UNLABELLED = ("(?:unlabel+ed|no labels?|without (?:a |its |the |any )?labels?|"
               "labels? (?:(?:are|is|have|has) )?(?:gone|missing|removed|faded|illegible|unreadable|"
               "worn off|came off)|decanted|repackaged|mixed together|in (?:a |an )?(?:unmarked|plain) "
               "(?:bags?|bottles?|tubs?|containers?|jars?))")
CHEMICAL_WORDS: tuple[str, ...] = (_CHEMICAL,)
UNLABELLED_TERMS: tuple[str, ...] = (_UNLABELLED,)
UNLABELLED_CHEMICAL_KIND = "hazardous chemical without its label"
REGULATED_GOODS: dict[str, tuple[str, ...]] = {
    "age-restricted nicotine or tobacco": (
        "nicotine", "nic salts?", "e-?liquids?", "vape juice", "e-?juice", "vapes?", "vaping",
        "vape (?:kits?|pens?)",
        "e-?cigarettes?", "snus",
        "tobacco(?![\\s-]*(?:pipes?|pouch\\w*|tins?|jars?|box\\w*|humidors?|colou?r\\w*))",
        "cigarettes?(?![\\s-]*(?:lighters?|cases?|cards?|holders?|box\\w*|burns?|holes?|marks?|smoke|smell|"
        "(?:and match )?tests?))",  # heuristic-v21: the upholstery fire test
        # heuristic-v25: a pen turner's "cigar kit" is a pen shape
        "cigars?(?![\\s-]*(?:box\\w*|humidors?|cutters?|cases?|lighters?|ashtrays?|(?:pen )?kits?|pens?))"),
    "unlicensed home-made alcohol": (
        "home[\\s-]?(?:distilled|distilling|made (?:spirits?|vodka|gin|whisk(?:e)?y|rum|brandy|absinthe|"
        "liquor|alcohol|moonshine|poitin|poteen))", "moonshine", "poitin", "poteen", "hooch", "bootleg "
        "(?:alcohol|liquor|spirits?|vodka|whisk(?:e)?y)", "(?:own|my|our|home|homemade|backyard|garage|shed) "
        "stills?", "(?:double|triple)[\\s-]distilled (?:at home|myself|by me|in my)",
        "(?:distilled|made|brewed) (?:it )?(?:myself|at home|in my (?:garage|shed|kitchen))",
        "(?:homemade|home[\\s-]?made|hand[\\s-]?made|unlabell?ed) (?:vodka|gin|whisk(?:e)?y|rum|brandy|"
        "absinthe|spirits?|liquor|grappa|schnapps|slivovitz|raki|arak|apple brandy|cider brandy)",
        # heuristic-v18: the still run by the seller ("ran our cider through the pot still")
        "(?:ran|run|put) (?:it |our |my |the )?(?:[\\w-]+ )?through (?:the |our |my |a )?"
        "(?:pot |reflux )?still"),
    "alcohol": ("alcoholic (?:drinks?|beverages?)", "liquor",
                "(?:whisk(?:e)?y|vodka|tequila|bourbon|cognac|brandy|absinthe|mezcal|rum|gin|port|sherry|"
                "champagne|prosecco|wine)s? \\d+\\s?(?:cl|ml|l|litres?)\\b"
                "(?![\\s-]*(?:glass\\w*|decanters?|stones?|tumblers?|racks?|holders?|openers?|cool\\w*|"
                "labels?))",
                "(?:single malt|blended malt|cask strength)",
                "(?:aged|year[\\s-]old) (?:whisk(?:e)?y|scotch|rum|port)",
                "\\d{1,2}\\s?(?:yo|year old|years old) (?:whisk(?:e)?y|scotch|rum|bourbon|malt)",
                "(?:cases?|crates?|bottles?) of (?:[\\w'-]+\\s+){0,2}?(?:wine|beer|ale|lager|cider|prosecco|"
                "champagne|"
                "whisk(?:e)?y|vodka|gin|rum)",
                "bottles? of (?:wine|whisk(?:e)?y|vodka|gin|rum|champagne|brandy|cognac|tequila|beer)",
                "(?:single malt|blended) (?:scotch|whisk(?:e)?y)", "\\d+(?:\\.\\d+)?\\s?% abv"),
    "weapon": ("zombie kni(?:fe|ves)", "machetes?", "katanas?", "sword ?sticks?", "swords? canes?",
               "throwing (?:stars?|knives?|knife|axes?)", "shurikens?", "push daggers?",
               "knuckle kni(?:fe|ves)", "trench kni(?:fe|ves)", "(?:lipstick|belt buckle|credit card|"
               "disguised|hidden|concealed) kni(?:fe|ves)", "karambits?", "blowpipes?", "nunchaku?s?",
               "telescopic (?:batons?|truncheons?)",
               "extendable batons?", "air ?soft (?:guns?|rifles?|pistols?)", "bb guns?",
               "air (?:rifles?|pistols?|guns?)" + _FOR_IT, "crossbows?" + _FOR_IT,
               "(?:hunting|compound) bows? and broadheads",
               "switchblades?", "flick knives?", "flick knife", "gravity knives?", "gravity knife",
               "butterfly knives?", "butterfly knife", "balisongs?", "automatic knives?", "automatic knife",
               "auto knives?", "auto knife", "otf", "out[\\s-]the[\\s-]front", "knuckle[\\s-]?dusters?",
               # heuristic-v14: a model car's steering knuckles in brass are parts, not a weapon
               "brass knuckles(?![^.!?\\n]{0,40}\\b(?:diff\\w*|axles?|hubs?|servos?|steering|shocks?|"
               "links?))",
               "stun guns?", "tasers?", "pepper sprays?", "cs (?:gas|spray)",
               # heuristic-v21: pepper spray by another name
               "bear sprays?", "capsaicin sprays?", "(?:oc|pava) sprays?",
               # heuristic-v20: live cartridges by their calibre ("ten .303 rounds", "not deactivated")
               "(?:live|\\.\\d{2,3}|\\d{1,2}(?:\\.\\d{1,2})?\\s?mm) (?:cal(?:ibre|iber)? )?rounds",
               "not deactivated",
               # heuristic-v17: a stun device disguised as a torch
               "(?:stun|zap|shock) (?:torch(?:es)?|flashlights?|batons?|functions?|features?|buttons?|"
               "modes?)",
               "built[\\s-]in stun", "\\d{3,} ?kv\\b",
               "(?:self[\\s-]defen[cs]e|tactical|police)[^.!?\\n]{0,40}?\\bzappers?",
               # heuristic-v16: a knuckle duster by another name
               "(?:brass |metal |steel )?knuckle (?:trainers?|rings?|guards?)",
               "firearms?" + _FOR_IT, "handguns?" + _FOR_IT,
               "(?<!water )(?<!glue )(?<!nerf )(?<!toy )(?<!plastic )(?<!foam )(?<!cap )(?<!flintlock )"
               "(?<!sex )"  # heuristic-v20: the band
               "pistols?(?![\\s-]*grips?)" + _FOR_IT,
               "revolvers?" + _FOR_IT, "shotguns?" + _FOR_IT, "rifles?" + _FOR_IT,
               "(?<!box for )(?<!boxes for )(?<!storage for )ammunition",
               "ammo(?![\\s-]*(?:box\\w*|cans?|tins?|pouch\\w*))", "gunpowder",
               "knife for self[\\s-]defen[cs]e",
               "(?:for|great for|ideal for) self[\\s-]defen[cs]e",
               "self[\\s-]defen[cs]e (?:weapon|knife|tool)"),
    "firearm or firearm part": (
        "(?:lower|upper) receivers?", "stripped (?:lowers?|uppers?)",
        "80\\s?% (?:lowers?|receivers?|frames?)",
        "ar-?15s?", "ak-?47s?", "ar-?10s?", "glocks?", "unseriali[sz]ed", "no serial numbers? (?:on|stamped)",
        "ghost guns?", "(?<!surge )(?<!noise )(?<!spark )suppressors?", "bump stocks?", "auto sears?",
        "solvent traps?", "bolt carrier groups?", "firing pins?", "gun parts?",
        "(?:pistol|rifle|gun) barrels?",
        "(?:high[\\s-]capacity|extended|drum|pistol|rifle|ar|ak|glock) (?:mags?|magazines?)",
        "lower parts kits?",
        "(?:9|10) ?mm (?:rounds|ammo|cartridges)", "\\.22 (?:lr|rounds|ammo)", "12[\\s-]?(?:gauge|bore) "
        "(?:shells|cartridges)",
        # heuristic-v14: a shotgun named by its bore or build, not its cleaning kit or case
        "(?:12|16|20|28)[\\s-]?bore(?![\\s-]+(?:cleaning|cleaner|brush\\w*|rods?|snakes?|slips?|cases?|bags?|"
        "sleeves?|slips?|pull[\\s-]?through))",
        "(?:side[\\s-]by[\\s-]side|over[\\s-](?:and[\\s-])?under) (?:shotguns?|guns?|12|20|16|28)"),
    "explosives or fireworks": (
        "(?:display|professional|pro|category f[2-4]|f[2-4]|1\\.3g|1\\.4g|consumer|cake|aerial) fireworks?",
        "1\\.[34]g\\b", "(?:display|aerial|mortar|salute) shells",
        "fireworks? (?:cakes?|rockets?|shells?|mortars?|barrages?|displays?|packs?|boxes|for sale)",
        "category f[2-4]", "\\bf[34] (?:fireworks?|cakes?|rockets?|pyro\\w*)", "pyrotechnics?", "pyro",
        # heuristic-v14: the word on a crate, box or sign is not the goods
        "(?:(?:plastic|high) )?explosives?(?![\\s-]+(?:crates?|box(?:es)?|tins?|signs?|labels?|stencils?|"
        "chests?))",
        "detonators?", "blasting caps?", "det cord",
        "black powder",
        "gun ?powder", "(?:distress|marine|hand|parachute|rocket) flares?", "thunderflash\\w*",
        "smoke grenades?",
        "flash ?bangs?", "professional[\\s-]only", "(?:\\d+)[\\s-]shot (?:cakes?|barrages?)"),
    "protected wildlife": (
        "(?:elephant|mammoth|walrus|hippo|hippopotamus|whale|narwhal|warthog|real|genuine|solid|carved|"
        "antique|old) ivory", "ivory(?![\\s-]*(?:colou?r\\w*|tone\\w*|effect|white|finish|look|style|"
        "paint\\w*|coast|cream|lace|satin|silk|resin|faux|keys? replacement|imitation))"
        " (?:carvings?|netsukes?|okimonos?|figur\\w*|tusks?|statues?|bangles?|handles?|inlays?|carved|piece)",
        "tusks?", "rhino(?:ceros)? horns?", "(?:real|genuine|antique|natural) tortoise ?shell", "hawksbill",
        "pangolins?", "pangolin scales", "shark fins?", "bear (?:bile|claws?|paws?|gall\\w*)",
        "tiger (?:skins?|bones?|teeth|tooth|claws?|pelts?)", "(?:leopard|jaguar|cheetah|ocelot|snow leopard) "
        "(?:skins?|pelts?|furs?)", "cites[\\s-]?(?:listed|appendix|species|permits?)", "endangered species",
        "protected species",
        # heuristic-v7: eggs taken from wild birds, collected or blown
        "wild birds?'? eggs?", "(?:wild |blown |birds?'? )eggs? collections?", "egg collections?",
        "eggs? of (?:wild|protected|rare) birds", "blown (?:wild )?(?:birds?'? )?eggs",
        "(?:wild[\\s-]caught|live) (?:parrots?|tortoises?|turtles?|primates?|monkeys?)",
        # heuristic-v13: any animal taken from the wild ("caught in the wild last month")
        "(?:caught|trapped|taken|netted) (?:\\w+ )?(?:in|from|out of) the (?:wild|woods|forest|bush|hills)",
        "wild[\\s-](?:caught|trapped)",
        "(?:red|black) coral(?! (?:colou?r|pink|lipstick))",
        "taxidermy (?:owl|hawk|falcon|eagle|bird of prey)",
        # protected birds and mammals preserved whole, whichever way round the listing says it
        "(?:taxidermy|stuffed|mounted|preserved|cased) (?:[\\w-]+ )?" + _PROTECTED_ANIMALS,
        _PROTECTED_ANIMALS + "\\s+(?:taxidermy|mounts?|specimens?|skulls?|in a (?:glass )?(?:case|dome))"),
    "prescription medicine": (
        "prescription[\\s-]only", "contact lens(?:es)?(?![\\s-]*(?:cases?|solutions?|holders?|cleaners?))",
        "prescription (?:medicines?|medications?|drugs?|pills?|tablets?)",
        "rx only", "insulin(?![\\s-]*(?:cool\\w*|bags?|cases?|wallets?|pouch\\w*))", "antibiotics?",
        "amoxicillin", "opioids?", "morphine", "codeine", "oxycodone",
        "fentanyl", "tramadol", "diazepam", "valium", "xanax", "alprazolam", "benzodiazepines?",
        "sleeping pills", "anabolic steroids?", "testosterone (?:injections?|cypionate|enanthate)",
        # heuristic-v7: performance drugs by their usual names
        "steroids? (?:tablets|tabs|pills|injections?|cycles?|for (?:the )?gym)", "sarms?", "clenbuterol",
        # heuristic-v25: gym shorthand ("2 vials test e", "half a strip of clen")
        "test (?:e|c|p|enanthate|cyp|cypionate|prop)(?![\\w-])", "clen(?![\\w-])", "vials? of test\\b",
        "hgh",
        "(?:dianabol|anavar|winstrol|trenbolone|deca)\\b",
        "semaglutide", "ozempic", "wegovy", "mounjaro", "tirzepatide", "sildenafil", "viagra", "cialis",
        "tadalafil", "epi-?pens?", "adrenaline auto-?injectors?", "controlled (?:drugs?|substances?)",
        "left ?over (?:medication|medicine|pills|tablets)",
        # heuristic-v13: injectables a clinic or surgery holds under prescription
        "(?:local |dental )?ana?esthetics?(?! (?:gels?|sprays?|creams?))", "lidocaine", "lignocaine",
        "articaine", "botulinum(?: toxin)?", "botox", "dermal fillers?",
        "(?:lip|hyaluronic(?: acid)?) fillers?",
        # heuristic-v14: prescription retinoids
        "tretinoin", "isotretinoin", "(?:ro)?accutane", "prescription[\\s-]strength",
        "ketamine", "propofol", "(?:prescription|injectable|injection) (?:vials?|ampoules?)",
        # heuristic-v17: prescription-only by strength or by name (insulin pens, melatonin in the UK)
        "co-?codamol 30/500", "(?:flex|kwik|solo)pens?", "novorapid", "lantus", "humalog", "melatonin",
        "(?:left ?over|spare|unused) (?:from )?(?:my |his |her |their |mum'?s |dad'?s )?(?:late \\w+'?s? )?"
        "prescriptions?"),
    "veterinary medicine": ("flea (?:treatments?|drops|spot-?ons?)", "spot-?on (?:treatments?|pipettes?)",
                            "(?:de)?wormers?", "worming (?:tablets|treatments?)", "permethrin", "fipronil"),
    "illegal electronics or lasers": (
        "(?:signal|gps|phone|mobile|wi-?fi|cell) jammers?", "jammers? for",
        "(?:high[\\s-]power(?:ed)?|burning) "
        "lasers?(?: pointers?)?", "class (?:3b|4|iv) lasers?", "laser pointers? \\d{3,} ?mw",
        "\\d{3,} ?mw laser",
        "radar jammers?", "skimmers? for", "card skimmers?",
        # heuristic-v21: a jammer called what it does ("pocket signal blocker")
        "(?:signal|gps|phone|mobile|wi-?fi|cell) blockers?"),
    "identity document": (
        "(?:blank|fake|novelty|scannable|replacement|forged|stolen|spare) (?:[\\w-]+ )?(?:ids?|passports?|"
        "id cards?|driving licen[cs]es?)(?![\\s-]+(?:holders?|covers?|wallets?|cases?|photos?))",
        # heuristic-v17: a permit issued to one person (a disabled parking badge, a bus pass)
        "blue badges?(?![\\s-]+(?:holders?|covers?|wallets?))", "disabled (?:parking )?(?:badges?|permits?)",
        "(?:residents?'? )?parking permits?", "(?:senior|disabled|freedom) bus passe?s?",
        "(?:fake|forged) (?:documents?|diplomas?|degrees?)",
        # heuristic-v22: a certificate, card or test tag made out to whoever pays
        "(?:cards?|certificates?|certs?|tags?|licen[cs]es?|tickets?) (?:\\w+ ){0,3}?in any name",
        "any name you (?:like|want)"),
    LOCKED_DEVICE_KIND: (
        # heuristic-v25: a lock named to say it is off ("activation lock: off", "account lock: none, reset")
        "icloud[\\s-]?locked", "icloud lock" + _LOCK_OFF, "activation[\\s-]?lock(?:ed)?" + _LOCK_OFF,
        "(?:imei )?blacklisted",
        "(?:barred|blocked|blacklisted) imei", "imei (?:is )?(?:barred|blocked|blacklisted)",
        "(?:google|frp|account|mdm)[\\s-]?lock(?:ed)?" + _LOCK_OFF,
        "(?:can'?t|cannot|couldn'?t) (?:remove|sign out of|log out of|"
        "get past) (?:the )?(?:previous owner'?s? |owner'?s? )?(?:account|icloud|apple id|google account|"
        "lock)",
        "found (?:it|this|them) (?:on|in|at|by|outside|near)",
        # heuristic-v7: found in a public place, whatever it is
        "(?:found|picked up|picked (?:it|this|them) up) (?:it |this |them )?(?:on|in|at) "
        "(?:a |the )?(?:bus|train|tube|street|road|park|"
        "pub|bar|club|taxi|cab|beach|festival|gym|station|car park)",
        # heuristic-v17: the owner's marks removed ("sprayed over the hire company's name", "peeled the asset
        # tags"), and a bare "no questions" (with "asked" it is an evasion: CHECK_EVASION_TERMS)
        "(?:sprayed|painted) over (?:the |their |its )?(?:[\\w']+ )?(?:names?|stencils?|markings?|logos?|"
        "tags?)",
        "(?:peeled|removed|took off|ripped off|scratched off) (?:the |their |its )?"
        "(?:asset|property|security|hire) (?:tags?|labels?|stickers?|markings?)",
        "no questions(?! asked)(?! (?:about|on|re|regarding))",
        "(?:it'?s|was|is|maybe|might be|possibly|probably|"
        "may be) stolen", "fell off (?:the back of )?a (?:lorry|truck)", "no proof of ownership",
        "no (?:v5c?|logbook|log book|registration documents?|pink slip)(?! needed)\\b",
        "(?:rating|id|name|serial|data) plates? (?:have been |has been |was |were |are |is )?(?:ground|filed|"
        "scratched|removed|taken|prised) off",
        "(?:frame|serial|vin|chassis|engine) (?:number|no\\.?|plate) (?:has been |was |is )?(?:filed|ground|"
        "scratched|removed|missing|rubbed) ?(?:off|away)?"),
    "pirated content or account resale": (
        "pirated", "cracked (?:software|version|games?|apps?)",
        "(?:fully )?loaded (?:fire ?sticks?|firesticks?|"
        "kodi boxe?s?|android boxe?s?)", "jailbroken (?:fire ?sticks?|firesticks?|boxe?s?)", "iptv",
        "(?:free|all) (?:sky|sports|premium|movie) channels",
        # heuristic-v7: paid content promised free, on any device
        "fully loaded (?:[\\w-]+ ){0,2}?(?:sticks?|box(?:es)?|tv|streamers?|devices?)",
        "(?:all|every|premium|paid) (?:[\\w&,]+ ){0,4}?(?:channels?|sports?|movies|films|ppv)[^.!?]{0,25}?"
        "\\bfree\\b", "free (?:sports|movies|films|ppv|premium channels|channels)", "free forever",
        "(?:copied|burned|burnt|backup|pirate) (?:games|dvds|"
        "cds|copies)", "r4 cards?", "modded (?:switch|ps[2-5]|xbox|console)s? with (?:\\d+ )?games",
        # heuristic-v20: an account removed or signed out of before the sale is not sold with it
        "(?<!removed my )(?<!removed the )(?<!out of my )"
        "(?:steam|psn|epic games|fortnite|roblox|minecraft|xbox live|netflix|spotify|disney\\+?|"
        "world of warcraft|league of legends|valorant|instagram|tiktok|twitter) "
        "accounts?(?![\\s-]*(?:gift )?cards?)",
        "accounts? for sale", "selling (?:my |an? )?accounts?"),
    "live animal": (
        "pupp(?:y|ies)(?![\\s-]*(?:pads?|beds?|food|crates?|toys?|collars?|harness\\w*|training|pens?|chow))",
        "kittens?(?![\\s-]*(?:food|beds?|toys?|litter|collars?|heels?|mittens?))",
        "live (?:animals?|reptiles?|snakes?|birds?|insects?|chicks|hens|poultry|lizards?|spiders?|primates?)",
        "(?:baby|young) (?:rabbits|bunnies|guinea pigs|hamsters|parrots|tortoises|snakes|ferrets)",
        "(?:rabbits|bunnies|guinea pigs|hamsters|ferrets|tortoises) for sale"),
    # heuristic-v7: a psychoactive gas, or any product named in quotes with a wink (a coded sale)
    # heuristic-v12: product types sold for babies and children that safety regulators warn against as such
    "child product unsafe by design": (
        "(?:baby |infant |newborn )?sleep positioners?",
        "anti[\\s-]?roll (?:pillows?|wedges?|cushions?|bolsters?)",
        "(?:baby |infant |newborn )(?:sleep )?wedges?", "teething (?:necklaces?|bracelets?|anklets?)",
        "(?:amber|wooden|beech|silicone|hazelwood) (?:bead )?(?:teething )?(?:necklaces?|bracelets?|"
        "anklets?) for (?:baby|babies|infants?|toddlers?|little ones)",
        "(?:magnetic|magnet|neodymium) (?:balls|beads|spheres|cubes)",
        # heuristic-v16: weighted bedding sold for the very young (a weight they cannot push off)
        "weighted (?:blankets?|sleeping bags?|sleep sacks?|duvets?)[^.!?\\n]{0,30}?\\b(?:for|perfect for|"
        "ideal for) (?:babies|baby|infants?|toddlers?|newborns?)"),
    # heuristic-v12: unlicensed performance compounds sold "for research"
    "unlicensed research compound": (
        # heuristic-v20: "model MK-1602-50" is a power supply's part number
        "sarms?", "(?<!model )(?:rad|lgd|mk)[\\s-]?\\d{3,4}(?=\\W|$)(?!-\\d)"
        "(?![\\s-]*(?:mm|cm|ml|kg|g|w|v|hp|cc|series))",
        "research (?:chemicals?|peptides?|compounds?)", "(?:for )?research (?:purposes|use) only",
        "not for human (?:consumption|use)"),
    "psychoactive substance": (
        "nitrous(?: oxide)?", "laughing gas", "n2o", "nos (?:canisters?|tanks?|bottles?|cylinders?)",
        "(?:cream )?chargers?[^.!?]{0,60}?balloons?", "balloons?[^.!?]{0,60}?(?:cream )?chargers?",
        "(?:for|as|called|say|says) '[^'\\n]{2,30}'\\s*(?:😉|😜|😏|;-?\\)|wink)"),
    # heuristic-v21: a phone's identity rewritten, and another person's phone watched in secret
    "IMEI tampering": (
        "(?:chang(?:e|es|ed|ing)|rewrit(?:e|es|ing)|repair(?:s|ing)?|clean(?:s|ing)?) "
        "(?:the |your |any )?imei",
        "imei (?:change|changing|rewrite|rewriting|repair|cleaning|unblock\\w*)"),
    "covert surveillance of another person": (
        "(?:hidden|secret|invisible) (?:tracker|tracking|spy|monitoring) (?:apps?|software)",
        "spy ?(?:apps?|ware)", "stalkerware",
        "(?:read|see|check) (?:all )?(?:their|his|her|"
        "your (?:partner|wife|husband|girlfriend|boyfriend)'?s?) "
        "(?:messages|texts|whatsapps?|chats|emails)"),
    # heuristic-v7: tickets resold above their face value (touting)
    "ticket resale above face value": (
        "(?:double|triple|twice|three times|(?:\\d+(?:\\.\\d)?)\\s?x) (?:the |its |their )?face value",
        "(?:above|over|more than) (?:the |its |their )?face value", "face value \\+\\s?\\d+ ?%"),
    "drug": ("cannabis", "marijuana", "thc", "psilocybin", "magic mushrooms", "kratom",
             # heuristic-v14: psilocybin mushrooms sold as spores "for microscopy"
             "spore (?:syringes?|prints?|swabs?|vials?)", "golden teachers?", "cubensis",
             "liberty caps?",  # heuristic-v16: the wild psilocybin mushroom by its common name
             # heuristic-v18: cannabis baked in ("green butter", "canna butter")
             "canna[\\s-]?butter", "green butter", "space cakes?", "(?:thc|weed|cannabis) edibles?"),
    # heuristic-v18: wild fish, game and eggs the law keeps off the market
    "wild food taken unlawfully": (
        "(?:meant|supposed|required|have|had) to (?:put|throw|release|return) "
        "(?:them|it|these|those|the \\w+) back",
        "road[\\s-]?kill", "road casualt(?:y|ies)",
        "(?:clipped|hit|knocked (?:down|over)) (?:it|him|her|a \\w+) with (?:the|my|our) "
        "(?:car|van|land rover|truck|"
        "pick[\\s-]?up)", "(?:gulls?'?|wild birds?'?|seabirds?'?|plovers?'?) eggs"),
    # heuristic-v20: a find the law says must be reported, and money made to pass as real
    "unreported find": (
        "(?:not|haven'?t|have not|never|didn'?t|did not) (?:bothered )?(?:report(?:ed|ing)?|declared?) "
        "(?:it |them |this |these )?to the (?:flo|coroner|finds liaison(?: officer)?|museum)",
        "(?:the )?(?:farmer|landowner|land owner) (?:doesn'?t|does not|won'?t|will not|never) "
        "(?:know|knows)"),
    "counterfeit currency": (
        "pass(?:es|ed)? the (?:pen|uv|counterfeit(?: detector)?|marker) tests?",
        "no ['\"]?prop['\"]? (?:text|marking|writing|wording)",
        "(?:can'?t|cannot|couldn'?t) tell (?:them|it) apart from (?:the )?real"),
    # heuristic-v19: a poisonous plant offered to children, pets or grazing animals
    "poisonous plant near children or animals": (
        "(?:ricinus|castor oil plants?|yews?|taxus|foxgloves?|digitalis|oleanders?|nerium|laburnum|monkshood|"
        "aconitum|deadly nightshade|atropa|belladonna|datura|angel'?s trumpets?|brugmansia|ragwort)"
        "\\b[^.!?]{0,200}?\\b(?:children|kids|toddlers?|ponies|pony|horses?|paddock|livestock|sheep|cattle|"
        "pets?|dogs?|nibbl\\w+|chew\\w*|graz\\w+)\\b(?![\\s-]+(?:proof|safe))",),
    # heuristic-v18: foods that harm babies or pets, sold for them
    "food unsafe for babies or pets": (
        "honey\\b[^.!?]{0,80}?\\b(?:dummy|dummies|teething|\\d{1,2} months?|infants?|newborns?)",
        "(?:dummy|dummies|teething)\\b[^.!?]{0,80}?\\bhoney",
        "(?:xylitol|birch sugar)\\b[^.!?\\n]{0,120}?\\b(?:dogs?|pups?|puppies|pupcakes?|doggos?|pets?)",
        "(?:dogs?|pups?|puppies|pupcakes?|doggos?)\\b[^.!?\\n]{0,160}?\\b(?:xylitol|birch sugar)"),
    # heuristic-v14: traps banned for use on wild animals
    "banned trap": ("gin traps?", "leg[\\s-]?hold traps?", "jaw traps?", "pole traps?", "bird ?lime",
                    "gill[\\s-]?nets?"),  # heuristic-v16: nets that take salmon and sea trout illegally
    # heuristic-v14: tax-rebated fuel, which may not be used on the road
    "rebated fuel": ("red diesel", "rebated (?:fuel|diesel|gas ?oil)", "marked (?:diesel|gas ?oil)"),
    # heuristic-v16: a prepayment meter made to show credit nobody paid for
    "tampered utility meter": (
        "unlimited (?:credit|electric\\w*|gas|top[\\s-]?ups?)",
        "(?:bypass\\w*|tamper\\w*|rigged|hacked|fiddled) (?:the |a )?"
        "(?:electric\\w* |gas |prepay\\w* |smart )?meters?", "meter (?:keys? )?(?:hack|bypass|tamper)\\w*"),
    # heuristic-v16: things that belong to someone else (a landlord, the council, an employer)
    "property that is not the seller's": (
        "council[\\s-](?:issued|owned|property|supplied)", "not (?:mine|ours|really mine) to sell",
        "(?:he|she|they) (?:won'?t|will not|wouldn'?t|never) (?:miss|notice)",
        "belongs? to (?:the|my|our) (?:landlord|employer|council|work|company|school)"),
    # heuristic-v13: poisons and pool or garden chemicals decanted or mixed without the maker's label
    UNLABELLED_CHEMICAL_KIND: (
        _CHEMICAL + "\\b[^.!?\\n]{0,60}?\\b" + _UNLABELLED,
        "(?:unlabel+ed|unmarked|decanted|repackaged) (?:\\w+ )?" + _CHEMICAL),
    # heuristic-v13: a road vehicle altered to go faster than the law allows
    "illegally modified vehicle": (
        "de-?restrict(?:ed|ion)", "unlocked (?:top )?speed",
        # heuristic-v24: an app or code that lifts the legal speed ("unlocks it past 25 km/h")
        "speed unlock\\w*",
        "unlock\\w*\\b[^.!?\\n]{0,40}?\\b(?:past|beyond|above|over) (?:the )?"
        "(?:\\d{2} ?(?:km/?h|kph|mph)|legal|limit)",
        "(?:speed )?limiters? (?:removed|disabled|bypassed|taken off|unplugged|deleted)",
        "(?:removed|disabled|bypassed|unplugged|deleted) (?:the |its )?(?:speed )?limiters?",
        "(?:goes|does|reaches|tops out at|passes|hits) \\d{2} ?(?:km/?h|kph|mph) (?:instead of|not|rather "
        "than) (?:the (?:legal )?)?\\d{2}",
        # heuristic-v22: lights only emergency vehicles may show, plates made for cameras not to read, and
        # "track only" said with a wink
        "blue (?:led )?(?:strobes?|flashing lights?|emergency lights?|lights? bars?)",
        "(?:flash(?:es)?|looks?) like (?:the )?(?:police|an ambulance|emergency)",
        "(?:cameras?|anpr|speed cameras?) (?:can'?t|cannot|won'?t|will not|don'?t|do not) (?:read|see|pick)",
        "any reg(?:istration)? (?:made up|you (?:like|want))",
        "'?(?:track|off[\\s-]?road|race|show) (?:use )?only'? (?:of course |obviously )?(?:😉|😜|😏|;-?\\))"),
    "banned substance": ("paraquat", "gramoxone", "sodium chlorate", "strychnine",
                         # heuristic-v24: tooth whitening above the 6 % hydrogen peroxide a dentist may use
                         "(?:teeth|tooth) whiten\\w*[^.!?\\n]{0,80}?" + _OVER_SIX_PERCENT_PEROXIDE,
                         _OVER_SIX_PERCENT_PEROXIDE + "[^.!?\\n]{0,80}?\\b(?:teeth|tooth|whiten\\w*)",
                         # heuristic-v22: loose mercury, not the barometer or thermometer it came from
                         "quicksilver", "(?:liquid |loose |metallic |jar of |\\d+ ?k?g (?:of )?)mercury",
                         "(?:sodium |potassium )?cyanide",
    "arsenic(?! and old lace)",
                         "ddt", "(?:contains?|containing|with) mercury",
                         "mercury (?:chloride|compounds?|salts?)",
                         "mercuric", "calomel", "hydroquinone", "skin (?:lightening|bleaching|whitening)",
                         "(?:lightening|bleaching) creams?",
                         # heuristic-v18: a survey or test for asbestos is evidence, not asbestos
                         "asbestos(?![\\s-]+(?:surveys?|tests?|tested|free|checks?|checked|reports?))",
                         "lead[\\s-]based paint",
                         "banned (?:ingredients?|substances?|in the)"),
    "licence key resale": ("volume licen[cs]e", "mak keys?", "kms (?:keys?|activation)", "oem keys?",
                           "(?:product|licen[cs]e|activation|cd|software|windows|office) keys? only",
                           "lifetime (?:keys?|licen[cs]e|activation)", "activation keys?", "cd[\\s-]?keys?",
                           "(?:keys?|codes?)(?: only)?,? (?:sent|delivered|emailed) (?:by|via|within|in)",
                           "emailed keys?"),
}
# What a reviewer says about each kind of regulated good, so the issue names the rule that applies.
REGULATED_REASONS: dict[str, str] = {
    "age-restricted nicotine or tobacco": (
        "nicotine and tobacco products are age-restricted: they need age verification and may not be sold "
        "to minors"),
    "unlicensed home-made alcohol": (
        "home-distilled spirits are unlicensed alcohol: distilling without a licence is illegal in most "
        "countries, untested spirits carry a methanol risk, and alcohol needs age verification and cannot be "
        "posted freely"),
    "alcohol": "alcohol is age-restricted: it needs age verification and often a licence to sell",
    "weapon": ("weapons and restricted knives (automatic, gravity, butterfly) are subject to legal "
               "restrictions, incapacitant sprays and stun guns are prohibited weapons in many countries, "
               "and nothing may be marketed as a weapon for self-defence"),
    "firearm or firearm part": (
        "a regulated firearm part: receivers and other controlled parts must be serialised, and a licensed "
        "transfer with a background check is required"),
    "explosives or fireworks": (
        "explosives and professional-only fireworks are age-restricted, a licence is required to buy and "
        "store them, and they cannot be posted"),
    "protected wildlife": (
        "protected wildlife: ivory, protected species such as birds of prey, and other CITES-listed "
        "materials have trade restrictions; without a permit (a CITES or Article 10 certificate) or with the "
        "age undocumented they cannot be sold, and export needs CITES permits"),
    "prescription medicine": (
        "prescription-only medicine: resale of prescription and controlled drugs is not allowed, they cannot "
        "be resold, and storage such as the cold chain cannot be verified"),
    "veterinary medicine": (
        "veterinary medicines need a prescription or advice, and a treatment for one species can be toxic to "
        "another"),
    "child product unsafe by design": (
        "sleep positioners, anti-roll wedges, teething necklaces, weighted blankets for the very young and "
        "small powerful magnets are product types that safety regulators warn against for babies and "
        "children (suffocation, strangulation, choking or swallowing), whatever their condition"),
    "unlicensed research compound": (
        "SARMs and peptides sold 'for research only' are unlicensed medicines marketed for human use: their "
        "sale for that use is illegal in many countries"),
    "psychoactive substance": (
        "a psychoactive substance (nitrous oxide, 'laughing gas') sold for inhalation, or any item offered "
        "in "
        "coded words, is a regulated substance: its sale for that use is illegal"),
    "ticket resale above face value": (
        "reselling tickets above face value is restricted or banned for many events and breaches most "
        "ticket terms; the buyer may be refused entry"),
    "unreported find": (
        "a find of treasure (old coins, gold or silver) must be reported to the coroner or finds liaison "
        "officer, and the landowner has a share: an unreported find may not be sold"),
    "counterfeit currency": (
        "money printed to pass as real is counterfeit currency, whatever it is called"),
    "poisonous plant near children or animals": (
        "the plant is poisonous (castor oil seeds, yew, foxglove, oleander, laburnum): sold for a place "
        "where children or animals can eat it, it can kill"),
    "wild food taken unlawfully": (
        "wild salmon and sea trout that must be released, road-kill game, and wild birds' eggs may not be "
        "sold; "
        "game and fish need a licensed dealer or the right licence"),
    "food unsafe for babies or pets": (
        "honey must not be given to babies under 12 months (infant botulism), and xylitol (birch sugar) is "
        "poisonous to dogs"),
    "tampered utility meter": (
        "a prepayment meter or key altered to show credit nobody paid for is theft of energy; it may not "
        "be sold"),
    "property that is not the seller's": (
        "the seller says the item belongs to someone else (a landlord, the council, an employer): only its "
        "owner may sell it"),
    UNLABELLED_CHEMICAL_KIND: (
        "a poison or chemical sold without its original label has no hazard, first-aid or use instructions, "
        "and mixed chemicals can react; it may not be sold this way"),
    "illegally modified vehicle": (
        "a vehicle or its parts altered past the legal limits (an e-bike's speed or power, emergency "
        "lights, plates cameras cannot read) are not road legal, void the insurance and may not be sold for "
        "the road"),
    "banned trap": (
        "gin, leg-hold and pole traps are illegal to use on wild animals in most countries; a working one "
        "sold for use may not be listed"),
    "rebated fuel": (
        "red (rebated) diesel may not be used in road vehicles, and selling it needs registration as a "
        "dealer"),
    "drug": ("controlled drugs are a controlled substance and illegal to sell; home-made edibles also have "
             "no food-safety or dose checks"),
    "IMEI tampering": "changing a phone's IMEI is a crime in the UK and hides lost or stolen phones",
    "covert surveillance of another person": (
        "installing a hidden app to read another person's messages or track them without consent is illegal"),
    "illegal electronics or lasers": (
        "signal jammers and high-power lasers are illegal to sell or use in most countries"),
    "identity document": "identity documents cannot be sold, and fake ones are illegal",
    LOCKED_DEVICE_KIND: (
        "ownership unverified: a locked, blacklisted or found device may be lost or stolen property and "
        "cannot be used by a buyer"),
    "pirated content or account resale": (
        "pirated content, loaded streaming boxes and account resale infringe copyright or the platform's "
        "terms"),
    "live animal": ("live animals need welfare checks and often a licence, and many marketplaces prohibit "
                    "them"),
    "banned substance": (
        "a banned ingredient or substance (such as mercury in cosmetics) may not be sold, and an ingredient "
        "label is required; with no ingredient label it cannot be checked"),
    "licence key resale": (
        "software licence resale: volume, OEM or loose keys are usually not licensed for resale, and a price "
        "implausibly low for a licence suggests a grey-market key"),
}

# heuristic-v14: a crate, tin or sign that only bears the word ("EXPLOSIVES crate ... completely empty").
CONTAINER_WORDS: tuple[str, ...] = ("crates?", "box(?:es)?", "tins?", "bottles?", "cases?", "jars?", "drums?",
                                    "cans?", "packets?", "signs?", "chests?")
EMPTY_TERMS: tuple[str, ...] = (
    "(?:completely|totally|all|sold|comes?|is|are) empty", "contents?:? (?:empty|none)", "no contents",
    "just (?:a|the) (?:box|crate|tin|case|sign|chest)")
# Offering to skip a legal check is a signal of its own; these terms carry their own negation.
# heuristic-v22: the item is a copy in another material, so the controlled one's papers do not apply.
NOT_THE_CONTROLLED_MATERIAL: tuple[str, ...] = (
    "not real (?:bone|ivory|horn|tortoise ?shell|coral|skin|fur|teeth|tooth|tusk)",
    "(?:resin|plastic|polyresin|polystone|ceramic|plaster) (?:cast|replica|copy|model|reproduction)",
    "(?:resin|plastic) (?:skull|tusk|horn|tooth|claw)s?",
)
# heuristic-v22: the check the law asks for, stated as how the sale is done ("transfer through my RFD", "I
# will see photo ID on collection"): a weapon or age-restricted item sold that way needs no person to look.
# heuristic-v25: a scale model of a tank or a gun has parts named like a weapon's ("ammunition racks")
SCALE_MODEL_TERMS: tuple[str, ...] = (
    "1 ?[:/] ?\\d{1,3}(?:th)?(?: scale)?", "scale models?", "(?:model|plastic|resin) kits?",
    "(?:still )?on (?:the )?sprues?",
    "airfix", "tamiya", "revell", "warhammer", "wargam\\w*")
MODELLED_KINDS = frozenset(("weapon", "explosives or fireworks"))
CHECKED_KINDS = frozenset(("weapon", "alcohol", "age-restricted nicotine or tobacco"))
CHECK_STATED_TERMS: tuple[str, ...] = (
    "(?:transfer|sale|sold|done) (?:[\\w-]+ ){0,3}?(?:through|via|by) (?:an? |my |your |our |the )?"
    "(?:local )?(?:rfd|registered (?:firearms? )?dealer)",
    "(?:buyer|purchaser)s? (?:must|has to|needs? to) (?:be (?:over )?18|hold|have|show|produce)",
    "(?:i|we) (?:will|'ll|need to|must) (?:see|check|need|ask for) (?:your |a )?(?:photo )?"
    "(?:id|proof of age|certificate|licen[cs]e|fac|sgc)",
    "(?:fac|sgc|licen[cs]e|certificate) holders? only", "(?:over )?18s? only",
    "(?:on|upon) (?:production|sight) of (?:a |your )?(?:valid )?(?:fac|sgc|licen[cs]e|certificate|id)",
)
CHECK_EVASION_TERMS: tuple[str, ...] = (
    # heuristic-v25: the buyer told to pass as the seller at an ID check, or to get goods past customs
    "(?:say|pretend|tell them|claim|act like) (?:that )?you(?:'?re| are) me", "pretend to be me",
    "(?:use|show) my (?:id|driving licen[cs]e|passport|photo id)",
    "(?:does ?n'?t|doesnt|won'?t|will not|does not|never) shows? (?:up )?on (?:the )?(?:airport |customs )?"
    "(?:x-?rays?|scanners?)",
    "(?:rather not|don'?t want to|do not want to|avoid|without) (?:having to )?declar\\w*",
    "(?:hide|hidden|conceal\\w*|smuggl\\w*) (?:[\\w-]+ ){0,2}?(?:from|past|through) (?:customs|security|"
    "the police|scanners?|x-?rays?)",
    "no (?:id|age) (?:needed|required|checks?|verification)", "no age check", "no questions asked",
    "no (?:ffl|background checks?|licen[cs]es?|permits?|id|age checks?|prescriptions?|certificates?|cites "
    "permits?)\\b(?:\\s+(?:or|and|/)\\s+[\\w-]+(?:\\s+checks?)?)?(?:\\s+[\\w-]+){0,3}?\\s+"
    "(?:needed|required|necessary)", "without (?:an? )?(?:ffl|background checks?|licen[cs]es?|permits?)",
    "no prescription (?:needed|required)", "without (?:a )?prescription", "untraceable",
    # heuristic-v14: sold to dodge a check ("no one checks", "not sold here so stock up")
    "no ?one checks", "nobody checks", "(?:won'?t|never|will not) get (?:checked|caught)",
    "not (?:sold|available|legal|allowed) (?:here|in (?:the )?(?:uk|us|usa|eu|this country))",
    "no english (?:labels?|labelling|instructions|ingredients)",
    # heuristic-v18: a gas or electrical job offered without the registration the law asks for, and a buyer
    # told not to ask
    "not gas ?safe(?: registered)?",
    "saves? you (?:paying|getting|calling) (?:for )?an? (?:engineer|electrician|"
    "gas ?safe)", "do ?n'?t ask (?:where|how|questions)",
)

# --- Family: medical and health claims ---------------------------------------------------------------

# Named conditions: claiming a product relieves or prevents one is a medical claim.
HEALTH_CONDITIONS: tuple[str, ...] = (
    "cancer", "tumou?rs?", "diabetes", "arthritis", "rheumatism", "rheumatoid", "gout", "fibromyalgia",
    "sciatica", "migraines?", "joint pain", "chronic pain", "nerve pain", "neuropathy", "tinnitus",
    "insomnia", "anxiety", "depression", "adhd", "autism", "asthma", "eczema", "psoriasis",
    "covid(?:-19)?", "hiv", "alzheimer'?s", "dementia", "parkinson'?s", "epilepsy", "heart disease",
    "high blood pressure", "hypertension", "cholesterol", "osteoporosis", "varicose veins", "hair loss",
    "obesity", "blood sugar", "cancer cells", "immune system", "immunity", "kidney stones", "ulcers?",
    "acid reflux", "ibs", "irritable bowel", "thyroid", "menopause", "erectile dysfunction",
    "impotence", "infertility", "strokes?", "heart attacks?", "bronchitis", "candida", "lyme disease",
    "herpes",
    "shingles", "tumour cells", "tumor cells", "viral infections?", "dementia", "autoimmune \\w+",
    "blood clots?", "stomach ulcers?", "liver disease", "kidney disease", "glaucoma",
    "cataracts?",
    # infections: preventing or killing them is a medical claim, not a cleaning one
    "flu", "influenza", "colds? and flu", "viruses", "virus(?:es)? and bacteria", "viral infections?",
    "coronavirus(?:es)?", "norovirus", "chest infections?", "pneumonia", "measles", "chickenpox",
    "whooping cough", "tonsillitis", "sinusitis", "strep throat",
    "scoliosis", "sciatic\\w*", "hearing loss", "bad eyesight", "short[\\s-]?sightedness",
    # heuristic-v16: sleep apnoea, and animals' conditions a vet treats
    "(?:sleep )?apno?eas?", "laminitis", "sweet itch", "copd", "mange", "colic",
)
# Everyday complaints: only "cures" or "heals" them is a claim; "eases back pain" is ordinary.
MINOR_AILMENTS: tuple[str, ...] = (
    "pain", "acne", "scars", "wounds", "injuries", "headaches?",
    # heuristic-v16: "cures the cold draught" is about a door
    "colds?(?![\\s-]+(?:draughts?|drafts?|air|water|weather|rooms?|floors?|feet|hands|nights?|spots?|"
    "starts?))",
    "flu", "infections?",
    "diseases?", "illness(?:es)?", "everything", "all",
)
_CONDITION = "(?:" + "|".join(HEALTH_CONDITIONS) + ")\\b"
_AILMENT = "(?:" + "|".join(HEALTH_CONDITIONS + MINOR_AILMENTS) + ")\\b"
# heuristic-v18: curing meat ("dry cure", "cure your own bacon") is no medical claim
_STRONG_CLAIM = "(?<!dry )(?<!home )(?:cures?|cured|cure for|heals?|remedy for)(?![\\s-]+your own)"
# Verbs that only claim something medical with a named condition ("kills cancer cells", not "kills weeds").
_KILL_CLAIM = "(?:kills?|killing|destroys?|shrinks?|eliminates?|dissolves?|eradicates?|beats?)"
# "treats for dogs" is a noun; the verb takes its object directly ("treats arthritis").
_CLAIM = ("(?:treats?(?!\\s+for\\b)|treating|treatment for|prevents?|preventing|reverses?|relieves?|"
          "boosts?|boosting|strengthens?|repairs?|restores?|normali[sz]es?|balances?|"
          "relieving|relief (?:of|from|for)|alleviates?|eases?|fights?|reduces?|reducing|lowers?|"
          "helps? (?:with|against)|therapy for|protects? against|protects? (?:\\w+ ){0,3}?from|"
          "guards? against|wards? off|keeps? (?:\\w+ ){0,3}?(?:safe )?from|stops? (?:you |them )?(?:getting|"
          "catching)|immune to|"
          # heuristic-v13: a condition claimed halted ("stopped their cancer growing")
          "stop(?:s|ped|ping)?|halts?|halted|slows?|slowed|"
          # heuristic-v14: a condition claimed fixed ("fixes scoliosis")
          "fix(?:es|ed)?|corrects?|corrected|straighten(?:s|ed)?|"
          # heuristic-v25: a condition claimed gone ("cleared up my roommate's asthma")
          "clear(?:s|ed)? up|cleared|got rid of|gets? rid of)")
MEDICAL_CLAIM_TERMS: tuple[str, ...] = (
    _STRONG_CLAIM + "\\s+(?:[\\w']+\\s+){0,3}?" + _AILMENT,
    _CLAIM + "\\s+(?:[\\w']+\\s+){0,3}?" + _CONDITION,
    _KILL_CLAIM + "\\s+(?:[\\w']+\\s+){0,3}?" + _CONDITION,
    _CONDITION + "(?:\\s+pain)?\\s+(?:relief|remedy|cure|treatment|therapy)",
    "(?:clinically|medically|scientifically)\\s+(?:proven|shown|tested and proven)",
    "(?:therapeutic|detox\\w*)\\b[^.!?\\n]{0,60}?\\b" + _CONDITION,
    # heuristic-v21: an organ detoxed, a hangover promised away
    "detox(?:es|ed|ing)? (?:the |your )?(?:liver|kidneys?|blood|body|lungs?)",
    "(?:no|won'?t (?:get|have) (?:a|any)|never (?:get|have) (?:a|any)) hangovers?",
    "hangover (?:cure|free|prevention|remedy)",
    _CONDITION + "[^.!?\\n]{0,60}?\\b(?:therapeutic|detox\\w*)",
    "anti-?viral(?![\\s-]+(?:tissues?|masks?|coatings?|filters?|software|drugs? (?:prescribed|from)))",
    "(?:virus|germ)[\\s-]?(?:killing|killer|fighting|busting)", "immune[\\s-]?boost(?:ing|er)",
    "safe (?:for|with) (?:babies|infants|newborns|toddlers) (?:in|on|to)[^.;!?]{0,30}?"
    "(?:diffus\\w*|skin|swallow\\w*|ingest\\w*|breath\\w*|inhal\\w*|rub\\w*)",
    "miracle\\s+(?:cure|remedy|treatment|oil|supplement|pills?|tea|water|healing|results?)",
    "miraculous(?:ly)?\\s+(?:heal\\w*|cure\\w*|results?)",
    # heuristic-v14: a remedy named for the condition, a sense claimed restored, rapid weight loss promised
    _CONDITION + "(?:\\s+[\\w'-]+)?\\s+(?:drops|pills|tablets|capsules|supplements?|remed(?:y|ies)|tea|"
    "tinctures?|oils?|sprays?|patches)",
    "(?:cured|healed|fixed|restored|saved) (?:mine|my (?:[\\w'-]+ ){0,2}?(?:hearing|eyesight|sight|memory|"
    "joints?|spine|skin|hair))",
    "(?:lost|lose|losing) \\d+ ?(?:kg|kgs|kilos?|lbs?|pounds|stone|cm|inch(?:es)?|dress sizes?) in "
    "(?:\\d+|a|one|two|three|four) (?:days?|weeks?)",
    # heuristic-v16: a condition claimed gone, and fat claimed burnt without effort
    _CONDITION + "[^.!?\\n]{0,30}?\\b(?:went away|cleared up|disappeared|vanished|(?:is|was|has) gone|"
    "shrank|shrunk)",  # heuristic-v20: "her tumour shrank"
    "against (?:any|all|every) (?:illness|disease|sickness)(?:es)?",
    "burns? (?:off )?(?:belly|stomach|tummy|body) fat",
    # heuristic-v13: ageing itself claimed reversed, and a prescribed treatment claimed unnecessary
    "revers(?:es?|ed|ing) (?:the )?(?:signs of )?(?:ageing|aging)(?: at (?:a |the )?cellular level)?",
    "(?:without|no (?:more |need (?:for|of) )|instead of) (?:any |(?:his|her|their|my|your) )?(?:antibiotics|"
    "medication|medicines?|painkillers|paracetamol|ibuprofen|calpol|a doctor|the doctor|the pediatrician|"
    "the paediatrician|the gp|the vet|a vet|cpap(?: machine)?|inhalers?)\\b",
)
# Advice to stop prescribed treatment: a medical claim, and a danger of its own that the review names.
STOP_MEDICATION_TERMS: tuple[str, ...] = (
    "(?:stop(?:s|ped|ping)?|quit(?:s|ting)?|replac(?:e|es|ed|ing)|instead of|c(?:o|a)me off|"
    "giv(?:e|en|ing) up|"
    "ditch(?:ed)?|threw away|throw away)\\s+(?:taking\\s+|using\\s+)?"
    "(?:(?:your|their|his|her|my|all|the)\\s+)?"
    "(?:medications?|medicines?|meds|insulin|prescriptions?|tablets|pills|inhalers?|chemo\\w*)",
)

# A product said to be safe for the most vulnerable users: the review says that this safety is unproven.
VULNERABLE_SAFETY_TERMS: tuple[str, ...] = (
    "safe (?:for|with|around) (?:babies|baby|infants?|newborns?|toddlers?|(?:young )?children|kids|pregnant "
    "women|pregnancy)",
    "safe (?:in|during) pregnancy", "safe (?:while|when) (?:pregnant|breast ?feeding)",
    "(?:baby|infant)[\\s-]safe",
)

# --- heuristic-v6: a required legal document said to be missing -------------------------------------------

# Documents that exist only because the item is controlled: without one it may not be sold at all.
LEGAL_DOCUMENTS = ("(?:article|art\\.?)\\s?10(?: certificates?| certs?| papers| paperwork)?|"
                   "a10 (?:certificates?|certs?)|cites(?: permits?| certificates?| paperwork| papers|"
                   " documents?| docs?)?|annex a (?:certificates?|papers)|(?:firearms?|shotgun|fac|sgc) "
                   "certificates?|(?:export|import) permits?")
# Documents that only matter where the item is controlled (CONTROLLED_CONTEXT): a licence, permit or
# registration for a species or a weapon, not a software key or a car.
GENERAL_DOCUMENTS = ("licen[cs]es?|permits?|registration(?: documents?| papers| certificates?)?|paperwork|"
                     "papers|certificates?|certs?|microchip (?:paperwork|papers|registration|details)")
_NOT_HELD = ("(?:no|without|missing|lost|minus|(?:do|does|did)(?: not|n'?t) (?:have|has|come with|get)|"
             "haven'?t got|hasn'?t got|never (?:got|had|came with|received|gave (?:it|them|me)?(?: to me)?)|"
             "no longer (?:have|has)|can'?t find|cannot find|unable to (?:find|provide|supply))")
_GONE = ("(?:missing|lost|not included|not available|unavailable|unknown|"
         "never (?:provided|received|given|issued|came)|to follow|"
         "(?:was|were) never (?:given|provided|issued))")
_WORDS = "(?:\\s+[\\w'-]+){0,4}?\\s+"


def missing_document_terms(documents: str) -> tuple[str, ...]:
    """"I don't have her Article 10 certificate", "CITES papers: lost": the document is not held."""
    return (_NOT_HELD + _WORDS + "(?:" + documents + ")\\b",
            "(?:" + documents + ")\\s*(?::|-|is|are|was|were)?\\s*" + _GONE)


# Protected species and controlled items, named in the title or category.
CONTROLLED_CONTEXT: tuple[str, ...] = (
    "tortoises?", "turtles?", "terrapins?", "parrots?", "macaws?", "cockatoos?", "african greys?", "conures?",
    "reptiles?", "snakes?", "pythons?", "boas?", "lizards?", "geckos?", "chameleons?", "iguanas?",
    "primates?", "monkeys?", "corals?", "orchids?", "birds? of prey", "owls?", "hawks?", "falcons?",
    "eagles?",
    "ivory", "tusks?", "taxidermy", "skulls?", "pelts?", "furs?", "rhino", "exotic (?:pets?|animals?)",
    "air ?rifles?", "air ?pistols?", "air ?guns?", "rifles?", "shotguns?", "firearms?", "crossbows?",
    "deactivated (?:guns?|rifles?|pistols?|weapons?)", "ammunition", "ammo",
)
MISSING_DOCUMENT_KIND = "protected species or controlled item without its legal document"
MISSING_DOCUMENT_REASON = (
    "protected species and controlled items may only be sold with their legal document (an Article 10 or "
    "CITES certificate, a licence, permit or registration); without that paperwork the sale may be illegal")
