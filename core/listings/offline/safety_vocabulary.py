"""Vocabulary of the safety-critical family, as plain data tables: which product classes protect,
carry, feed or power someone, which defects matter for each class, and what a reviewer says about it.

Why classes: a reviewer does not know every product, but knows that anything worn on the head,
holding a child, holding gas or pressure, keeping someone afloat or breathing, touching food or
running on mains must not be sold damaged, repaired, incomplete or of unknown history. A new
product is a word in its class; a new class is a row in each table. Entries are regular-expression
fragments matched as whole words, case-insensitively; denied mentions ("no cracks") do not count.
"""

import re

# --- Product classes, named in the title or category ------------------------------------------------

# heuristic-v24: a product word followed by what is made for it names an accessory ("BBQ cover", "helmet
# bag"), unless the accessory comes with the product ("BBQ with cover")
MADE_FOR_IT = re.compile(
    r"[\s-]+(?:(?!with\b|and\b|plus\b|inc\w*\b|&)[\w-]+[\s-]+)?(?:covers?|gloves|mitts?|aprons?|tool ?sets?|"
    r"utensils?|brushes|cleaners?|cleaning|books?|cookbooks?|mats?|tongs|skewers?|thermometers?|bags?|"
    r"cases?|hooks?|hangers?|wall mounts?|display stands?)\b", re.I)

SAFETY_PRODUCTS: dict[str, tuple[str, ...]] = {
    "head protection": (
        "helmets?", "helmuts?", "hemlets?", "riding hats?", "riding helmets?", "skull caps?", "crash hats?",
        "hard hats?", "bump caps?", "motorcycle lids?", "motorbike lids?", "visors? and helmets?"),
    "protective gear": (
        "climbing harness(?:es)?", "harness(?:es)?", "life jackets?", "life vests?", "lifejackets?",
        "pfds?", "buoyancy aids?", "carabiners?", "karabiners?", "climbing ropes?", "dynamic ropes?",
        "static ropes?",
        "rigging ropes?", "abseil(?:ing)? ropes?", "rescue ropes?", "safety ropes?",
        "belay devices?", "quickdraws?", "crampons?", "ice axes?", "avalanche (?:transceivers?|beacons?)",
        "body protectors?", "back protectors?", "air ?bag vests?",
        # heuristic-v22: a rider's airbag by its system's name, and race leathers
        "air ?bag (?:suits?|jackets?|systems?)", "d-?air", "tech-?air",
        "(?:race|racing|one[\\s-]piece) suits?", "smoke alarms?", "smoke detectors?",
        "carbon monoxide (?:alarms?|detectors?)", "co (?:alarms?|detectors?)", "fire extinguishers?",
        "fire blankets?", "safety goggles", "respirators?", "fall arrest\\w*", "lanyards? and harness\\w*",
        # heuristic-v7: named by its purpose: protects, rescues or signals in an emergency
        "safety (?!pins?\\b)(?!razors?\\b)[\\w-]+",
        "protective (?:gear|equipment|clothing|glasses|goggles|gloves|boots|pads?|visors?)",
        "rescue (?:ropes?|throw ?bags?|kits?|kni(?:fe|ves)|blankets?|boards?|tubes?|buoys?)",
        "life[\\s-]?saving", "emergency (?:beacons?|escape\\w*|ladders?|flares?)",
        "(?:personal )?locator beacons?", "epirbs?", "plbs?", "distress flares?",
        # heuristic-v14: climbing protection and flying or kiting gear, by the sport's own words
        "cams", "camming (?:devices?|units?)", "trad racks?",
        "climbing (?:gear|kit|racks?|equipment|protection)",
        "paragliders?", "paragliding", "hang ?gliders?", "(?:reserve )?parachutes?", "kitesurf\\w*",
        "kiteboard\\w*", "(?:surf|foil|power|lei|tube|bow|c) kites?", "kites? (?:and|\\+|&) bars?",
        "avy (?:transceivers?|beacons?)", "avalanche (?:gear|kit|probes?|airbags?)"),
    "breathing or diving equipment": (
        "scuba", "(?:dive|diving|scuba|first[\\s-]stage|second[\\s-]stage|breathing) regulators?",
        "(?:dive|diving|scuba) regs?",
        "regulators? (?:and|&) octo(?:pus)?", "octos?", "octopus(?:es)?", "dive computers?", "bcds?",
        "buoyancy compensators?", "wings? and backplates?", "dive (?:tanks?|cylinders?)",
        "scuba (?:tanks?|cylinders?)", "rebreathers?", "diving",
        "oxygen (?:tanks?|cylinders?|concentrators?)"),
    "gas or pressure equipment": (
        "gas", "lpg", "propane", "butane", "camping stoves?", "camp stoves?", "stoves?", "burners?",
        "hobs?", "bbqs?", "barbecues?", "wood ?burners?", "log ?burners?", "multi[\\s-]?fuel stoves?",
        "flues?", "paraffin heaters?", "oil lamps?", "blow ?lamps?", "barbeques?", "grills?",
        "patio heaters?", "gas heaters?",
        "boilers?", "blow ?torch(?:es)?", "gas bottles?", "gas cylinders?", "hoses? (?:and|&) regulators?",
        "pressure cookers?", "pressure canners?", "pressure washers?", "air compressors?", "air tanks?",
        "pressure vessels?", "soda ?streams?", "co2 (?:cylinders?|canisters?)",
        # heuristic-v13: a stove-top pot that builds steam pressure, a gas ring by its dish
        "moka (?:pots?|makers?)", "stove[\\s-]?top (?:espresso|coffee) (?:makers?|pots?)", "gas rings?",
        "paella (?:burners?|rings?|stoves?)", "autoclaves?"),
    "water safety equipment": (
        "kayaks?", "canoes?", "paddle ?boards?", "sups?", "dinghy", "dinghies", "inflatable boats?",
        "life ?rafts?", "swim (?:vests?|seats?|rings?|floats?)", "arm ?bands", "water wings",
        "pool floats?", "surf ?boards?", "wetsuits?", "boats?(?![\\s-]*shoes)", "outboards?"),
    "child product": (
        "car[\\s-]?seats?", "booster seats?", "child (?:bike |bicycle |cycle )?seats?", "infant seats?",
        "baby capsules?", "isofix (?:bases?|seats?)", "cribs?", "cots?", "cot beds?", "bassinets?",
        "moses baskets?", "playpens?", "play yards?", "high[\\s-]?chairs?", "baby gates?", "stair gates?",
        "baby carriers?", "slings? for (?:babies|baby)", "baby walkers?", "prams?", "strollers?",
        "pushchairs?", "buggies", "travel systems?", "bouncers?", "baby swings?", "baby monitors?",
        "changing tables?", "bath seats?", "baby baths?", "rattles?", "teethers?",
        "teething (?:toys?|rings?)",
        "baby toys?", "infant toys?", "toddler toys?", "newborn toys?", "cot mobiles?", "baby walkers?",
        "sleep(?:ing)? pods?", "baby nests?", "baby sleeping bags?", "balance bikes?",
        "kids'? (?:bikes?|scooters?|helmets?)", "children'?s (?:bikes?|scooters?|helmets?)",
        "magnetic (?:balls?|beads?)",
        "button batter(?:y|ies)", "dummy clips?", "baby bottles?",
        "(?:infant|baby|formula|follow[\\s-]on) milk",
        "(?:infant|baby) formula", "formula milk", "baby food"),
    # heuristic-v7: anything else made for a baby or toddler (a bundle of baby clothes with a hole is not a
    # hazard, an unknown model or a home repair on a baby product is)
    "other product for a baby or toddler": (
        "bab(?:y|ies)'?s?", "infants?'?", "toddlers?'?", "newborns?'?", "nursery"),
    "battery or electrical": (
        "fairy lights", "christmas lights", "led strips?", "light fittings?", "ceiling lights?",
        "chandeliers?",
        "fuse ?box(?:es)?", "consumer units?", "circuit breakers?", "bottle warmers?", "sterili[sz]ers?",
        "electric (?:tools?|mowers?|showers?)", "soldering stations?",
        "batter(?:y|ies)", "power banks?", "chargers?", "charging (?:cables?|leads?|bricks?)", "adapters?",
        "adaptors?", "power supply", "power supplies", "power bricks?", "psus?", "extension leads?",
        "extension cords?", "power strips?", "surge protectors?", "heaters?", "radiators?",
        "electric blankets?", "heated blankets?", "hair ?dryers?", "hair ?driers?", "straighteners?",
        "curling (?:irons?|wands?)", "kettles?", "toasters?", "microwaves?",
        "(?:steam|clothes|travel) irons?", "lamps?",
        "e-?bikes?", "electric bikes?", "e-?scooters?", "electric scooters?", "hoverboards?", "lithium",
        "li-?ion", "li-?po", "lipos?", "mains", "plugs?", "sockets?", "wiring", "transformers?",
        "inverters?", "soldering irons?", "heat guns?", "electric (?:fires?|heaters?|cookers?|ovens?)",
        "aquarium heaters?", "fan heaters?", "laptop chargers?", "usb chargers?",
        # heuristic-v7: fitted to the mains or overhead, and kitchen or home appliances by their purpose
        "(?:ceiling|extractor|pedestal|desk|tower|wall|bathroom) fans?", "appliances?", "fryers?",
        "deep[\\s-]fat fryers?"),
    "food contact equipment": (
        "baby bottles?", "feeding bottles?", "sippy cups?", "food containers?", "lunch ?box(?:es)?",
        "cookware", "frying pans?", "pans?",
        "(?<!plant )(?<!flower )(?<!garden )(?<!terracotta )(?<!paint )(?<!plant-)(?<!flower-)pots?",
        "saucepans?", "skillets?", "woks?", "non[\\s-]?stick",
        "cutting boards?", "chopping boards?", "blenders?", "juicers?", "food processors?", "mixers?",
        "air fryers?", "slow cookers?", "rice cookers?", "water filters?", "thermos", "flasks?",
        "water bottles?", "teats?", "dummies", "pacifiers?", "breast pumps?", "honey extractors?",
        "extractors?", "uncapping (?:trays?|tanks?)", "settling tanks?", "honey buckets?", "fermenters?",
        "brewing (?:kits?|kettles?|buckets?)", "mash tuns?", "stock ?pots?", "dehydrators?", "mincers?",
        "baking (?:trays?|tins?|sheets?)", "cake tins?", "casserole dish(?:es)?", "dutch ovens?",
        "food[\\s-]grade", "food[\\s-]safe", "tableware", "dinnerware", "crockery", "cutlery", "utensils?"),
    "load-bearing or climbing equipment": (
        "ladders?", "step ?ladders?", "scaffold\\w*", "trampolines?", "climbing frames?", "swing sets?",
        "hoists?", "winch(?:es)?", "tow (?:ropes?|straps?)", "ratchet straps?",
        # heuristic-v22: a hunter's seat strapped up a tree
        "(?:climbing |ladder |hang[\\s-]?on )?tree ?stands?", "(?:climbing|ladder|hang[\\s-]?on) stands?",
        "lifting (?:slings?|straps?|chains?)",
        "engine (?:hoists?|cranes?|stands?)", "car ramps?", "axle stands?", "work ?platforms?", "hammocks?"),
    # heuristic-v16: gym equipment that holds a lifter and the bar above them (a torn pad is wear; a pin
    # replaced by whatever bolt fitted is not)
    # heuristic-v24: light aimed at skin next to the eyes, and needles that go into it
    "laser or light skin device": (
        "(?:diode |home |at[\\s-]home )?laser hair (?:removal|removers?)", "laser epilators?",
        "diode lasers?",
        "ipl(?: devices?| machines?| hair removal| epilators?)?", "(?:tattoo|hair) removal lasers?"),
    "skin-piercing tool": (
        "derma ?rollers?", "derma ?pens?", "derma ?stamps?", "micro[\\s-]?needl(?:ing|ers?)",
        "tattoo needles?", "piercing (?:needles?|guns?)", "lancets?"),
    "lifting bench or rack": (
        "(?:weight|gym|incline|decline|adjustable|flat|fid|bench press) benche?s?",
        "squat (?:racks?|stands?)",
        "power (?:racks?|cages?)", "half racks?", "pull[\\s-]?up bars?", "dip stations?"),
    "power tool with a blade or guard": (
        "chainsaws?", "chain saws?", "angle grinders?", "circular saws?", "table saws?", "mitre saws?",
        "miter saws?", "band ?saws?", "saw ?benches?", "(?:panel|rip|radial[\\s-]arm|bench|sliding) saws?",
        "log splitters?", "wood chippers?", "nail guns?", "brush ?cutters?",
        "strimmers?", "lawn ?mowers?", "planers?", "routers? table"),
    "medical or mobility equipment": (
        "blood pressure monitors?", "thermometers?", "glucose (?:meters?|monitors?)", "nebuli[sz]ers?",
        "pulse oximeters?", "defibrillators?", "aeds?", "mobility scooters?", "wheelchairs?",
        "walking frames?",
        "rollators?", "crutches", "stair ?lifts?", "bed rails?", "patient hoists?", "tens machines?",
        "cpap (?:machines?|masks?)",
        # heuristic-v13: named by what it is for (a "Mobility" category, a "powerchair")
        "power ?chairs?", "powered wheelchairs?", "mobility(?: aids?| equipment)?", "care beds?",
        "profiling beds?", "hoist slings?", "commodes?", "shower chairs?",
        # heuristic-v17: bathroom aids that take a person's weight
        "shower stools?", "bath (?:stools?|seats?|boards?|lifts?|steps?)", "perching stools?",
        "toilet (?:frames?|(?:seat )?raisers?|surrounds?)", "grab (?:bars?|rails?|handles?)"),
    # heuristic-v6: classes by purpose: it warns of, guards against or holds back a fall, fire or crash
    "alarm or detector": (
        "(?:smoke|heat|fire|co|co2|carbon monoxide|gas|combustible gas|radon|flood) (?:and (?:co|heat|carbon "
        "monoxide) )?(?:alarms?|detectors?|sensors?)", "carbon monoxide", "home safety", "fire safety"),
    "structure that holds or guards a person": (
        "bunk ?beds?", "loft beds?", "high ?sleepers?", "mid ?sleepers?", "cabin beds?", "triple sleepers?",
        "bed guards?", "guard ?rails?", "safety rails?", "hand ?rails?", "banisters?", "balustrades?",
        "safety gates?", "window (?:restrictors?|guards?)", "restraints?", "safety harness(?:es)?"),
    "ride-on or board sports equipment": (
        "skate ?boards?", "long ?boards?", "penny boards?", "cruiser boards?", "skate", "skateboarding",
        "(?:kick |push |stunt )?scooters?", "roller ?skates?", "inline skates?", "roller ?blades?",
        "snow ?boards?", "skis", "go[\\s-]?karts?", "ride[\\s-]?ons?", "sledges?", "sleds?", "bmx",
        "balance boards?",
        # heuristic-v15: a bike's tools, stand or lights are not the bike
        "(?:bikes?|bicycles?)(?![\\s-]+(?:tools?|stands?|work ?stands?|racks?|locks?|lights?|pumps?|"
        "computers?|"
        "bags?|covers?|shoes|shorts|jerseys?|gloves|bells?|mirrors?|trainers?|books?|magazines?|posters?))"),
    "vehicle safety part": (
        "brake (?:pads?|discs?|rotors?|calipers?|shoes|lines?|hoses?)", "brakes", "tyres?", "tires?",
        "airbags?", "seat ?belts?", "steering (?:racks?|wheels?)", "wheel nuts",
        "tow(?:ing)? (?:bars?|hitch(?:es)?|balls?|eyes?)",
        "child locks?", "suspension (?:arms?|springs?)", "ball joints?", "(?:car|trolley|bottle) jacks?",
        "axle stands?",
        # heuristic-v25: what is clamped to a car's roof or tow bar
        "roof ?box(?:es)?", "roof (?:racks?|bars)", "(?:tow ?bar |roof |rear )?bike (?:racks?|carriers?)"),
}

HEDGE_KIND = "an unknown model or age the seller is unsure of"

# heuristic-v7: removable accessories whose damage or absence is no hazard on an appliance or power tool
# ("crumb tray missing", "turntable cracked", "grass box cracked"); a child product's tray stays a hazard.
_ACCESSORIES = (
    "(?:crumb )?trays?", "turntables?", "glass plates?", "grass (?:box(?:es)?|bags?|collectors?|catchers?)",
    "collectors?", "catchers?", "baskets?", "(?:carry |storage )?(?:bags?|cases?)", "remotes?",
    "remote controls?", "manuals?", "instructions", "attachments?", "nozzles?", "brush(?:es)?", "filters?",
    "accessor(?:y|ies)", "recipe books?", "crevice tools?", "spare (?:blades?|parts?)",
    "(?:k[\\s-])?beaters?", "dough hooks?", "whisks?",  # heuristic-v22: a mixer's tools
    "(?:rubber |plastic )?(?:feet|foot)",  # heuristic-v15: a missing rubber foot under a dock or a PSU
)
ACCESSORY_PARTS: dict[str, tuple[str, ...]] = {
    "battery or electrical": _ACCESSORIES, "mains-powered appliance": _ACCESSORIES,
    "power tool with a blade or guard": _ACCESSORIES,
}
# heuristic-v11: a dent in an appliance's casing or a lamp's shade is a looks defect, not a hazard (three
# authors' harmless fridges, lamps and kettles), unless it is in what holds the energy.
DENT_ONLY = (r"^(?:(?!\b(?:crack|split|broke|burn|scorch|melt|bulg|exposed|bare)).)*"
             r"\b(?:dent(?:s|ed)?|dinks?)\b")
DENT_MATTERS_ON = (r"\b(?:batter(?:y|ies)|cells?|packs?|power ?banks?|\d+\s?mah|lipo|plugs?|cables?|leads?|"
                   r"cords?|wires?|wiring|sockets?)\b")
COSMETIC_DENT_PRODUCTS = frozenset({"battery or electrical", "mains-powered appliance"})
# heuristic-v12: a chip or crack on the outside of a pan or casserole is not where food touches it (two
# authors' enamelled pots with "the inside enamel intact").
FOOD_CONTACT_PRODUCT = "food contact equipment"
OFF_THE_FOOD_SURFACE = r"\b(?:outside|exterior|outer|underside|base|bottom|handles?|knobs?)\b"
# heuristic-v13: a bent whisk wire or a dented pan changes its shape, not what touches the food.
SHAPE_ONLY = (r"^(?:(?!\b(?:crack|chip|split|broke|rust|flak|peel|craz|burn|melt|hole|tear|torn)).)*"
              r"\b(?:bent|dent(?:s|ed)?|dinks?|warped|buckled|deformed|squashed|misshapen)\b")
# heuristic-v7: a class recognised from what the listing says about the item, not its name: anything rated
# in watts or run from the mains is electrical, whatever it is called.
PRODUCT_CLASS_CUES: dict[str, tuple[str, ...]] = {
    # heuristic-v21: a chip in toughened glass can shatter the whole pane, whatever the furniture is called
    "toughened glass": ("(?:toughened|tempered|safety) glass(?![\\s-]+(?:screen[\\s-]+)?protectors?)",),
    # heuristic-v14: anything charged from a lead has a battery that must not overheat
    "rechargeable device": ("rechargeable", "usb[\\s-]?(?:powered|charging|charged)", "charger incl\\w*",
                            # heuristic-v24: how it charges says it has a battery ("charges ok")
                            "charges (?:ok|okay|fine|fully|up|slow(?:ly)?|well)",
                            "(?:took|takes) (?:a )?(?:long|ages|forever) (?:time )?to charge"),
    "mains-powered appliance": (
        # heuristic-v17: heated bedding is a mains heater worn to sleep
        "(?:electric|heated) (?:throws?|blankets?|under[\\s-]?blankets?|over[\\s-]?blankets?)",
        "\\d+(?:\\.\\d+)?\\s?(?:w|watts?|kw)(?!/)", "mains(?:[\\s-](?:powered|operated|lead|cable|plug|"
        "voltage))?", "plugs? (?:it |them )?in", "unplug\\w*", "(?:uk|eu|us|3[\\s-]pin|three[\\s-]pin) plug",
        "(?:110|120|220|230|240)\\s?v(?:olts?)?"),
}

# --- Defects, by kind -----------------------------------------------------------------------------------

# "Leak" that names a test ("leak tested") is evidence, not a defect.
# heuristic-v25: nor a detector's job ("gas leak + CO alarm")
_DETECTOR = "(?:detect\\w*|alarms?|sensors?|testers?)"
_NOT_BESIDE_A_DETECTOR = "(?!\\s*(?:\\+|and|&|/)\\s*(?:[\\w-]+\\s+){0,2}" + _DETECTOR + ")"
_LEAK = ("leak(?:s|ing|ed|y|age)?(?![\\s-]+(?:test\\w*|check\\w*|proof|free|detect\\w*))"
         + _NOT_BESIDE_A_DETECTOR)
# heuristic-v7: a control that does nothing, heat that keeps rising
_EYEWEAR = ("(?:safety |protective |laser |ipl )?(?:goggles|glasses|eyewear|eye (?:protection|shields?|"
           "guards?))")
_FAILED_CONTROL = (
    "(?:does ?n[o']?t|doesnt|do ?n[o']?t|dont|did ?n[o']?t|didnt|won'?t|no longer) (?:really |actually |"
    "properly |always |seem to )?(?:do anything|do much|regulate|switch off|turn off|cut out|work properly)",
    "keeps? (?:getting|going|running) (?:hotter|hot)", "hotter and hotter",
    # heuristic-v17: a timer or auto-off that never switches it off
    "stays? on (?:all night|constantly|permanently|the whole (?:time|night)|for hours)",
    # heuristic-v24: a temperature dial that no longer sets anything ("spins round", "always on full")
    "(?:dial|knob|thermostat|control|temperature control)s? (?:just |now |only )?(?:spins?|turns?|goes) "
    "(?:round|around|freely|all the way round)",
    "(?:always|basically|stuck|permanently|constantly|just) on (?:full|max(?:imum)?|high(?:est)?)\\b",
)
_OVERHEATING = (
    "overheats?", "overheating",
    # a heat gun or an iron gets very hot by design: only "too hot" is a fault
    "(?:gets?|got|getting|runs?|ran) (?:far |much |way )?too hot", "(?:gets?|got) dangerously hot",
    "trips? the (?:fuse|breaker|electrics)",
    # heuristic-v7: the electrics themselves get warm
    "(?:controller|control|plug|cable|lead|cord|socket|adapter|adaptor|charger|battery|switch|wires?)s? "
    "(?:[\\w-]+ ){0,3}?(?:gets?|got|getting|runs?|goes|went) "
    "(?:really |very |quite |a bit |rather |slightly )?(?:warm|hot)",
    # heuristic-v14: one side heating up, or heat while charging
    "(?:side|part|end|corner|one side|back|front) (?:gets?|getting|runs?) (?:quite |very |really )?"
    "(?:hot|warm)",
    "(?:gets?|getting|got|runs?) (?:\\w+ )?(?:hot|warm)(?: hot)? (?:when|while) (?:charging|in use|on "
    "charge)",
)
OVERHEATING_KIND = "overheating or a failed control"
EYE_PROTECTION_KIND = "no eye protection"
PREVIOUS_USE_KIND = "previous use on someone's skin"
HOME_REPAIR_KIND = "a home repair"
# "Broken in" is worn in (boots, a saddle, a glove), not broken.
_BROKEN = "brok(?:ed|en?)(?![\\s-]+in\\b)"
SAFETY_HAZARDS: dict[str, tuple[str, ...]] = {
    "impact damage": (
        "dropped", "fell", "fallen",
        # heuristic-v11: a crash told by how it went ("went over the bars", "landed on my head")
        "(?:went|flew|came|going) over the (?:handle ?)?bars",
        "landed (?:on|with) (?:my|his|her|their|its|the) (?:head|face|helmet)",
        "(?:a|the|one|after a|had a|took a|two|some|several|big|hard|heavy)\\s+(?:[\\w-]+\\s+)?falls?"
        "(?![\\s-]*arrest)",
        "crash(?:ed|es)?(?![\\s-]*(?:helmets?|hats?|pads?|mats?|tests?|tested|rated))", "accidents?",
        "impacts?(?![\\s-]*(?:resist\\w*|protect\\w*|absorb\\w*|rated|rating|tested|standards?|zones?|"
        "liners?|foam))",
        "impacted", "collisions?", "knock(?:ed)?", "took (?:a|the|one) (?:knock|hit|bang|fall|tumble)",
        "hit (?:by|a|the)(?!\\s+road\\b)",
        "bump(?:ed|s)?(?![\\s-]*caps?)", "shunts?", "prang(?:ed)?", "fender[\\s-]?benders?",
        # heuristic-v18: a crash told as what happened ("someone reversed into us", "a little tumble in it")
        "(?:reversed|drove|backed|ran|crashed|went) into (?:us|me|our car|my car|the car|the back of us)",
        "rear[\\s-]ended", "tumbles? (?:in|wearing|with) (?:it|them)",
        "rear[\\s-]?ended", "(?:hit|ran|drove|backed|crashed|reversed|bumped|smashed) into",
        "write[\\s-]?off", "(?:car|road|traffic|bike) accidents?", "came off",
        "thrown off", "bang(?:ed)?(?![\\s-]*for)", "smash(?:ed)?", "written off", "wrecked",
        # heuristic-v7: a fall told as where it landed ("slipped off the seat onto the floor")
        "(?:slipped|slid|rolled|tipped|toppled|knocked) (?:off|over|down)",
        "(?:onto|on to) (?:the |a )?(?:floor|ground|concrete|tarmac|road|pavement|tiles)",
        "hit the (?:floor|ground|deck)"),
    "structural damage": (
        "cracked", "cracks?", "crak(?:ed|d)", "crack(?:d|ed)", "crazing", _BROKEN, "damm?aged?",
        "dammage",
        "dameged", "snaped", "hairline", "split(?![\\s-]+(?:into|level|system|screen|ring))",
        "splits(?![\\s-]+(?:into|up to|logs?|rounds|wood|timber))", "dented", "dents?", "damaged",
        "damage", "snapped", "bent", "warped", "frayed", "fraying", "torn", "chewed",
        "burn(?:t|ed|ing)? marks?", "scorch\\w*", "melted", "chipped", "chips? (?:on|in|to)", "bulg\\w*",
        # heuristic-v17: drainage and vent holes are made, not worn
        "(?<!drainage )(?<!drain )(?<!vent )(?<!air )(?<!ventilation )(?<!mounting )(?<!fixing )(?<!screw )"
        "holes? in", "(?:few|some|several|two|three|small|big|couple of) holes",
        "punctur\\w*", "(?:a|one|two|some|few|small|little|big|couple of) tears?",
        "tears? (?:in|near|on|along|at|by)", "ripped", "rips? (?:in|near|on|along)", "gash(?:es|ed)?",
        "delaminat\\w*", "perished", "crazed",
        "cracking (?:on|in|along|around|across|to|at)",
        "(?:some|slight|minor|visible|sidewall|surface) cracking",
        # heuristic-v7: common misspellings of damage words
        "craks?", "crakc\\w*", "brokn", "brokan", "borken", "dammage", "damge[ds]?", "dammged",
        # heuristic-v7: a sag or dip where something should be flat and firm
        "sag(?:s|ging|ged|gy)?", "dips? in the (?:middle|centre|center)", "(?:has|with) a dip",
        "compressed", "squashed", "crushed", "deformed", "buckled", "slat (?:is )?(?:loose|broken|cracked)"),
    "corrosion or a failing coating": (
        "rust(?:y|ed|ing)?", "corroded", "corrosion", "peeling", "flaking", "flakes?", "scratched coating",
        "coating (?:is )?(?:coming|worn|flaking|peeling) off",
        # heuristic-v14: mould that grows, not the mould a replica was cast from
        "(?<!from a )(?<!from the )(?<!in a )(?<!community )(?<!silicone )(?<!casting )mou?ld(?![\\s-]*(?:ed|"
        "made|cast))",
        "mouldy", "moldy",
        "worn (?:down|through|out)", "bald", "low tread", "pitted", "pitting", "tarnished inside"),
    "a leak or malfunction": (
        _LEAK, "drips?", "dripping",
               "(?:gas|steam|air|water|oil|fuel) (?:comes?|escapes?|leaks?|hisses|hissing|"
        "spits?|pours?) (?:out|from)", "lets? in (?:a (?:bit|little|cup) of )?water", "takes on water",
        "smells? (?:of )?gas",
        "bubbl(?:es|ing|ed)? (?:up )?(?:at|from|around|by) (?:the )?(?:valve|joint|hose|connection|regulator|"
        "fitting|seal|thread)",
        "(?:soap|soapy water|leak spray) (?:test )?(?:shows?|showed|makes?|made) bubbles",
        "free[\\s-]?flows?", "free[\\s-]?flowing", "reads? (?:slightly |a bit )?"
        "(?:high|low|wrong)",
        # heuristic-v17: a measuring device that is out by a stated amount
        "reads? (?:about |around |roughly |always |consistently )*\\d+ (?:points? |units? |mmhg |degrees? )?"
        "(?:higher|lower|too high|too low|out|over|under)",
        "(?:inaccurate|not accurate) (?:readings?|results?)",
        "slipping", "(?:brakes?|clutch|it) slips", "faulty",
        # heuristic-v24: a hydraulic brake that only works after pumping has air or a leak in it
        "needs? (?:pumping|a few pumps|to be pumped)", "(?:before|till|until) (?:it|they) (?:bites?|grabs?)",
        "(?:does ?n[o']?t|doesnt|do ?n[o']?t|dont|did ?n[o']?t|didnt|not) work(?:ing)?",
        "stopped working", "intermittent\\w*",
        *_FAILED_CONTROL,
        "cuts? out", "sticking", "jamming", "flood(?:ed|ing)", "seized(?: up)?", "seizing",
        # heuristic-v14: a release that sticks, a load that creeps down, a warning that lies
        "(?:is|are|feels?|gets?|got|a bit|bit|slightly|quite|gone|going) sticky",
        "(?:sinks?|creeps?|drifts?|lowers?|comes? down|goes? down|drops?) (?:back )?(?:down )?(?:slowly |"
        "gradually )?(?:overnight|by itself|on its own|by (?:the )?morning)",
        "(?:back )?on the (?:floor|ground) by (?:the )?morning",
        "(?:shows?|says|gives?) (?:a )?low bat\\w* (?:warning )?(?:with|on) (?:fresh|new)",

        # heuristic-v13: water got into it, a mechanism that gives up part way
        "flood[\\s-]?damaged?", "(?:from|in|after|during|by) (?:a |the )?floods?(?:\\s+claim)?",
        "water[\\s-]?damaged?", "stops? (?:half[\\s-]?way|part[\\s-]?way|mid[\\s-]?way)",
        "no longer (?:engages?|locks?|latches?|holds?|catches|grips?|stops?|brakes?|releases?)",
        # heuristic-v7: a part that slips or moves under load, a gauge in the red, a heater that does not heat
        "slips (?:when|under|if|out|down|sometimes|a bit|slightly|round)",
        "still (?:moves|slips)(?! (?:freely|smoothly|well))",
        "(?:is|are|feels?|seems?) (?:a bit |quite |very |rather |slightly |really |a little )?(?:weak|spongy|"
        "grabby|unreliable|temperamental)",
        "(?:gauge|needle|indicator|dial)\\b[^.;]{0,20}?(?:in|on|into) the (?:red|empty|recharge)",
        "(?:not|doesn'?t|does not|won'?t|no longer) (?:heat|warm)(?:ing)?(?: up)?",
        "water (?:ingress|inside|got in)", "condensation inside", "inaccurate\\w*", "error codes?",
        "(?:reads?|shows?|displays?) (?:[\\w-]+ ){0,3}?(?:wrong|incorrect(?:ly)?|inaccurate(?:ly)?)",
        "resets? (?:itself|randomly)",
        "(?:wo|does|do|did|will)(?:n'?t| not) (?:hold|seal|lock|latch|click|inflate|"
        "light|ignite|stay lit|tighten)", "hiss(?:es|ing)?", "loses? (?:pressure|air)", "deflates?",
        "deflating",
        "(?:yellow|orange|lazy|sooty) flames?",
        "flames? (?:is |goes |turns |burns )?(?:yellow|orange|sooty|lazy)",
        "soot(?:ing|y)?",
        "smells? (?:a bit |slightly |funny |strange )?(?:when|after) (?:lit|on|running|in use)",
        "(?:does ?n[o']?t|doesnt|won'?t|will not|not) (?:engage|disengage|release|stop the chain|cut out|"
        "shut off)",
        *_OVERHEATING),
    # heuristic-v7: on an appliance known only by its power rating, a failed control or overheating
    OVERHEATING_KIND: (*_FAILED_CONTROL, *_OVERHEATING),
    # heuristic-v24: a laser or flash device sold without the goggles it must be used with
    EYE_PROTECTION_KIND: (
        "(?:did ?n[o']?t|does ?n[o']?t|didnt|doesnt|did not|does not|never) (?:come|came|had|have|get|got) "
        "(?:with )?(?:the |any )?" + _EYEWEAR,
        "(?:no|without|missing|minus|lost) (?:the |any |its )?" + _EYEWEAR,
        _EYEWEAR + " (?:are |is |were |was )?(?:not included|missing|lost)",
        "(?:just |simply )?(?:close|shut) your eyes"),
    # heuristic-v24: a needle that has been in someone's skin cannot be made safe for the next person
    PREVIOUS_USE_KIND: (
        "used (?:it |them |each )?(?:a few times |a couple of times |once |twice |\\d+ times )?on "
        "(?:my |the |your |her |his |a |one )?(?:face|skin|scalp|body|legs?|arms?|clients?|customers?)",
        "(?:boiled|sterili[sz]ed|disinfected|cleaned|sanitised|sanitized) (?:it|them|the needles?|after)",
        "(?:needles?|pins?)\\b[^.;!?]{0,40}?\\b(?:bent|blunt|bent over|dull)\\b",
        "second[\\s-]?hand", "pre[\\s-]?owned", "(?<!never )(?<!not )(?<!never been )used\\b"),
    HOME_REPAIR_KIND: (
        # heuristic-v11: a safety device taken out of the circuit ("jumpered the sail switch")
        # heuristic-v22: a hold-to-run control held by a tie or a wedge ("cable-tied one lever down")
        "(?:cable[\\s-]?tied|zip[\\s-]?tied|taped|tied|wedged|jammed|clamped) (?:[\\w-]+ ){0,3}?(?:levers?|"
        "triggers?|switch(?:es)?|handles?|controls?|buttons?) (?:down|on|open|in|shut)",
        "(?:jumper(?:ed)?|bypass(?:ed)?|bridged|disabled|wired (?:out|around)) (?:the |a |its |their )?"
        "(?:[\\w-]+ )?(?:switch|sensor|thermostat|cut-?out|interlock|fuse|breaker|limiter|valve)",
        # heuristic-v15: an allen key taped under a cot is stored, not a repair
        "tape[ds]? up",
        "taped(?! (?:underneath|under(?:neath)? the|to the (?:underside|back|bottom|base)|inside))",
        "(?:insulation|electrical|duct|gaffer) tape", "repaired with",
        "(?:fixed|mended|patched|repaired) (?:it )?(?:myself|at home|with)", "patched", "epoxy",
        "(?:i |we )?(?:fix|fixes|mend|repair)(?:ed)? (?:it |them )?(?:with|using) (?:some |a bit of )?"
        "(?:glue|tape|super ?glue|cable ties?|zip ties?|string|wire|nails?|screws?)",
        "super ?glue", "glued", "bodged", "sealant", "re-?wired", "home[\\s-]?made repair",
        # heuristic-v7: put back together by the seller ("welded back on", "bolted back together")
        "(?:welded|bolted|screwed|tied|cable[\\s-]tied|riveted|stitched) back (?:on|together|up)",
        "(?:welded|cable[\\s-]tied) (?:it |them )?(?:up|together)",
        # heuristic-v25: a cracked part backed up with ties ("doubled it up with cable ties")
        "(?:doubled|backed|held|strapped|secured|bodged|fixed) (?:it |them )?(?:up |on |together |in place )?"
        "with (?:a couple of |some |a few |two |three )?(?:heavy[\\s-]duty )?(?:cable|zip) ties",
        # heuristic-v16: bent back or pinned by the owner ("straightened it with a mallet", "riveted where
        # they snapped", "put a bolt through instead")
        "(?:riveted|welded|bolted|glued|taped|splinted) where (?:it|they|one|the \\w+) (?:had )?(?:snapped|"
        "broke|"
        "cracked|split|sheared)", "straightened (?:it |them )?(?:back|out)\\b",
        "(?:put|stuck|used|pushed) (?:an? )?(?:[\\w-]+ )?(?:bolt|nail|screw|pin) (?:through )?instead",
        # heuristic-v14: a part swapped by the owner for something else ("replaced by me with kite line")
        "(?:replaced|spliced|re-?stitched|re-?sewn|re-?sewed|re-?laced) (?:[\\w-]+ ){0,3}?(?:by me|myself)",
        # heuristic-v22: a puncture plugged by the owner ("plugged at the roadside with a string kit")
        "plugged (?:it |the (?:hole|puncture|tyre|tire) )?(?:at the roadside|with|using|myself)",
        "string (?:plug )?kit", "(?:tyre|tire|puncture) plug(?:ged)?",
        "(?:replaced|swapped) (?:[\\w-]+ ){0,4}?with (?:some |a |an )?(?:[\\w-]+ )?(?:kite|fishing|generic|"
        "random|"
        "cheap|cheaper|non[\\s-]?original|aftermarket|hardware store) (?:line|string|cord|rope|parts?|"
        "bolts?)"),
    "loose or missing parts": (
        "missing", "misisng", "missng", "incomplete", "gone missing", "went missing",
        # heuristic-v25: a plug or adapter without its fuse, or pins loose in the socket
        "(?:do ?n[o']?t|dont|does ?n[o']?t|doesnt|did ?n[o']?t) (?:have|contain|come with) (?:a |any )?"
        "fuses?",
        "(?:no|without) (?:a |any )?fuses? (?:inside|in (?:it|them|the plug))", "unfused",
        "(?:sits?|sitting|are|is) (?:a bit |slightly |quite )?loose in (?:the |some |most )?sockets?",
        # heuristic-v7: a safety device said to be absent ("no flashback arrestors",
        # "without its safety catch")
        "(?:no|without|minus) (?:the |its |a |any )?(?:safety|protective|flashback|non[\\s-]?return) [\\w-]+",
        "(?:springs?|bolts?|screws?|pins?|clips?|straps?|buckles?|pads?|feet|foot|wheels?|guards?|caps?|"
        "parts?|"
        "pieces?|brackets?|stoppers?|bars?|interlocks?|catch(?:es)?|latch(?:es)?) (?:[\\w-]+ )?"
        "(?:are|is|has|have|had) (?:now |since )?(?:gone|disappeared)",
        "(?:falls?|fell|fallen|keeps? falling) (?:off|out)", "parts? (?:not included|lost)",
        "(?:is |are )?(?:falling|coming) (?:off|out|apart|loose)",
        "lost the",
        # heuristic-v14: a guard or part that came off and was never put back
        "(?:came|come|taken|took (?:it|them)) off (?:years|long|ages|months) ago",
        "removed (?:years|long|ages) ago",
        "(?:got|was|were|went|is|are) lost",
        "no longer (?:has|have|comes? with)", "came loose", "comes? loose", "loose (?:beads?|parts?|pieces?|"
        "slats?|screws?|bolts?|buckles?|straps?)",
        "(?:bead|part|piece|eye|button|wheel)s? (?:came|come|fell) "
        "(?:off|out|loose)", "wobbl\\w*",
        # heuristic-v17: a foot or tip gone from a frame that stands on it ("a foot came off, it rocks")
        "(?:rubber |plastic )?(?:feet|foot|ferrules?|tips?|stoppers?) (?:came|come|has come|fell|have come) "
        "off",
        "(?:it |they )?rocks? (?:on|when|a bit|a little|slightly)",
        "without (?:the |its )?(?:straps?|buckles?|base|clips?|chest clip|pads?|lid|guard|cover|screws?|"
        "bolts?|fittings?|instructions|manual|harness|hose|regulator)"),
    "an unknown model, age or history": (
        "unknown (?:model|make|brand|history|age|origin)", "(?:model|make|brand|age|history) (?:is )?unknown",
        "no (?:labels?|markings?|model (?:number|no))", "labels? (?:missing|removed|cut off)",
        "(?:not sure|no idea|don'?t know|dont know|unsure|can'?t say|cannot say)"
        " (?:(?:100 ?%|entirely|totally|completely|exactly|really) )?(?:sure )?"
        "(?:of |about |what |which |how old )?(?:the )?"
        "(?:model|make|age|year|history|it is|"
        "(?:bikes?|cars?|vehicles?|models?) (?:they|it|this|these) fits?)",
        "(?:fits?|fitment|compatib\\w*)\\s*[:=-]?\\s*(?:unknown|not known|unsure|\\?|tbc)",
        "(?:unknown|unsure|unconfirmed|unverified) (?:fitment|fit|compatibility)",
        "measure (?:yours|your own|before (?:buying|ordering|you buy))",
        "labels? (?:is |are )?(?:faded|unreadable|illegible|worn off)", "second[\\s-]?hand (?:from|off)",
        "expired", "past (?:its |their |the )?(?:expiry|use[\\s-]by)", "out of date", "out of test",
        # heuristic-v7: a date past without a year ("best before last March")
        "(?:best before|use by|expiry|expires?|expired|bb|bbe)\\s*:?\\s*(?:last|early last|in last) "
        "(?:year|month|week|spring|summer|autumn|winter|january|february|march|april|may|june|july|"
        "august|september|october|november|december)", "past (?:its |their |the )?best[\\s-]before",
        "(?:over |more than |about |around )?(?:[89]|[1-9]\\d|eight|nine|ten|eleven|twelve|fifteen|twenty)"
        "\\+? "
        "(?:years?|yrs) old", "(?:made|manufactured|produced|dated?|dot date|date code)\\s+(?:in\\s+|is\\s+)?"
        "(?:19\\d\\d|200\\d|201[0-5])"),
    # heuristic-v7: the seller hedges on what it is, how old it is or what it fits: a risk on any product
    # whose safety depends on its model and age ("dont know the exact model", "label has worn off")
    HEDGE_KIND: (
        "(?:not sure|no idea|don'?t know|do not know|unsure|not certain|can'?t tell|cannot tell)"
        "(?:\\s+[\\w'-]+){0,3}?\\s+(?:model|make|brand|age|year|history|origin|how old|fitment|"
        "what (?:it|they|this|these) (?:fits?|came off|(?:is|are) from|goes? on)|"
        "which (?:car|vehicle|van|bike|model|year|make) (?:it|they|this|these))",
        "labels?(?:\\s+[\\w'-]+){0,4}?\\s+(?:faded|unreadable|illegible|worn off|rubbed off|peeled off|"
        "(?:is|are|has|have) (?:gone|missing))",
        "unknown (?:model|make|brand|history|age|origin)",
        "(?:model|make|brand|age|history) (?:is )?unknown",
        # heuristic-v14: no maker and no safety mark on it
        "no (?:ce|ukca|ul|etl|bsi|kitemark|fcc|safety) (?:marks?|markings?|certification|labels?|stamps?)",
        "no brand(?: name)? on (?:it|them|the \\w+)"),
    "wear past its limit": (
        # heuristic-v22: straps and webbing left out in the weather for seasons
        "(?:left|kept|strapped|been) (?:out(?:side)?|up|to (?:a|an|the) (?:tree|oak)) (?:[\\w-]+ ){0,4}?"
        "(?:for |all )?(?:\\d+|two|three|four|five|several|many) (?:seasons|winters|years)",
        "never brought (?:it |them )?in",
        "(?:below|under|beneath|past|beyond|exceeds?|exceeding|exceeded|reached) (?:the )?(?:stamped |legal |"
        "safe |manufacturer'?s? |recommended )?(?:minimum|min\\b|(?:minimum|min|wear|service|discard|legal|"
        "safe|safety) (?:limit|line|marks?|thickness|depth|indicators?|level|spec(?:ification)?))",
        "(?:minimum|min\\.?|legal|safe) (?:thickness|tread|tread depth|depth)\\b[^.;!?]{0,30}?"
        "(?:not met|exceeded|passed|gone)",
        "wear (?:indicators?|bars?|lines?|marks?|grooves?) (?:showing|visible|reached|gone|flush)",
        "down to (?:the )?(?:metal|backing plates?|wear (?:bars?|indicators?|lines?)|cords?|canvas)",
        "(?:metal|cords?|canvas|steel belts?) (?:is |are )?(?:showing|visible)",
        "worn (?:thin|smooth|beyond|past|below|to the limit)", "lipped",
        # heuristic-v7: a few millimetres left, a lip on a disc
        "down to (?:about |around |roughly |only |just |under )?[0-3](?:\\.\\d)? ?mm",
        "(?:have|has|with) a lip", "scored (?:discs?|rotors?)",
        "tread (?:depth )?(?:is |of |at )?(?:about |around |only |just |under |below |roughly )?"
        "[0-1](?:\\.\\d)? ?mm"),
    "an overdue service or inspection": (
        # heuristic-v22: a service put off ("never got round to the service"), a system's own warning
        "never (?:got|gotten|get) (?:a)?round to (?:the |its |a )?(?:service|servicing|inspection|check)",
        "(?:warning|system|status|service) light (?:went|goes|is|turned|stays|shows) (?:red|on)",
        # heuristic-v11: the last check dated long ago ("last checked 2017", "last test stamp 03/19")
        "last (?:servic\\w*|check\\w*|test\\w*|inspect\\w*)(?: (?:stamp|date|tag|sticker|label))?"
        "(?: (?:was|says|reads|is|shows))?(?: (?:in|on|at|dated))? (?:\\d{1,2}\\s*[/.-]\\s*)?"
        "(?:19\\d\\d|200\\d|201\\d|0\\d|1\\d)(?![\\w/.-])",
        "overdue", "service (?:is |was )?(?:due|needed|required)", "needs? (?:a )?(?:service|servicing)",
        "not (?:been )?serviced", "never serviced", "no service (?:history|records?|paperwork)",
        "last servic\\w* (?:was )?(?:in )?(?:19\\d\\d|200\\d|201\\d)", "servic\\w* (?:in |back in )"
        "(?:19\\d\\d|200\\d|201\\d)", "hydro(?:static)?[\\s-]test (?:expired|due|overdue)",
        "out of (?:service|inspection)", "out of test",
        "(?:test|inspection|certification|requalification|calibration|loler|pat) "
        "(?:(?:date|tag|sticker|label|cert(?:ificate)?) )?(?:has |is |was )?"
        "(?:expired|lapsed|overdue|run out|ran out|passed)",
        "(?:expired|lapsed|overdue) (?:test|inspection|certification|requalification)",
        "past (?:its |the )?(?:test|inspection|requalification) "
        "date",
        # heuristic-v7: never had it checked ("never had it checked or updated", "hasn't been tested")
        "never (?:had (?:it|them) |been )?(?:checked|tested|inspected|serviced|calibrated|updated)",
        "(?:has|have|had)(?:n'?t| not) been (?:checked|tested|serviced|inspected|calibrated)",
        "never (?:been |had (?:it|them) )?(?:sent|taken|sent off|returned) (?:in |back |off )?(?:for|to) "
        "(?:a |its |any )?(?:check|service|inspection|test|calibration)",
        "needs? (?:a )?(?:re-?test|requalification|recertification|re-?inspection)"),
}
_PHYSICAL = ("impact damage", "structural damage", "corrosion or a failing coating", "a leak or malfunction",
             HOME_REPAIR_KIND, "loose or missing parts")
# heuristic-v21: the repair done or checked by a professional ("PAT tested", "by a qualified electrician")
PROFESSIONAL_WORK: tuple[str, ...] = (
    "pat[\\s-]?test(?:ed)?(?![\\s-]+(?:(?:date|sticker|cert\\w*) )?(?:has |is |was )?"
    "(?:expired|lapsed|overdue|due|failed))", "pat (?:passed|certificate|cert)",
    "(?:by|from) (?:a |an |our )?(?:qualified|registered|certified|approved|local)? ?(?:electrician|gas safe "
    "engineer)", "(?:qualified|registered|certified) electrician",
)
# Dates are compared with the current year by safety.py, so these kinds have no fixed words (DATED_KINDS).
PAST_DATE_KIND = "a replace-by or expiry date in the past"
# heuristic-v22: a helmet or hard hat made more than PROTECTIVE_SERVICE_YEARS ago ("the date wheel inside
# says 2014") is past the service life makers give it, damaged or not.
OLD_MANUFACTURE_KIND = "a manufacture date past its service life"
PROTECTIVE_SERVICE_YEARS = 5
# Which defects matter for which class: protective and life-support gear also by unknown history.
HAZARDS_BY_PRODUCT: dict[str, tuple[str, ...]] = {
    "head protection": (*_PHYSICAL, "an unknown model, age or history", HEDGE_KIND, PAST_DATE_KIND,
                        OLD_MANUFACTURE_KIND),
    "protective gear": (*_PHYSICAL, "wear past its limit", "an unknown model, age or history", HEDGE_KIND,
                        "an overdue service or inspection", PAST_DATE_KIND),
    "breathing or diving equipment": (*_PHYSICAL, "an overdue service or inspection",
                                      "an unknown model, age or history", HEDGE_KIND),
    "gas or pressure equipment": (*_PHYSICAL, "an overdue service or inspection", HEDGE_KIND),
    "water safety equipment": ("structural damage", "a leak or malfunction", HOME_REPAIR_KIND,
                               "an overdue service or inspection", HEDGE_KIND),
    "child product": (*_PHYSICAL, "an unknown model, age or history", HEDGE_KIND, PAST_DATE_KIND),
    "battery or electrical": ("structural damage", "a leak or malfunction", HOME_REPAIR_KIND,
                              "loose or missing parts", HEDGE_KIND),
    "food contact equipment": ("structural damage", "corrosion or a failing coating"),
    "load-bearing or climbing equipment": (*_PHYSICAL, "wear past its limit", HEDGE_KIND),
    "lifting bench or rack": (HOME_REPAIR_KIND,),
    "laser or light skin device": ("structural damage", "a leak or malfunction", EYE_PROTECTION_KIND,
                                   HOME_REPAIR_KIND),
    "skin-piercing tool": ("structural damage", PREVIOUS_USE_KIND),
    "power tool with a blade or guard": ("structural damage", "a leak or malfunction", HOME_REPAIR_KIND,
                                         "loose or missing parts", HEDGE_KIND),
    "medical or mobility equipment": ("structural damage", "a leak or malfunction", HOME_REPAIR_KIND,
                                      "loose or missing parts", "an overdue service or inspection",
                                      HEDGE_KIND),
    "alarm or detector": ("structural damage", "a leak or malfunction", "loose or missing parts",
                          "an unknown model, age or history", HEDGE_KIND, PAST_DATE_KIND,
                          OLD_MANUFACTURE_KIND),
    "structure that holds or guards a person": (*_PHYSICAL, "an unknown model, age or history", HEDGE_KIND),
    "ride-on or board sports equipment": ("structural damage", HOME_REPAIR_KIND, "a leak or malfunction",
                                          HEDGE_KIND),
    "other product for a baby or toddler": (HOME_REPAIR_KIND, "an unknown model, age or history", HEDGE_KIND,
                                            PAST_DATE_KIND),
    "mains-powered appliance": (OVERHEATING_KIND, HOME_REPAIR_KIND),
    "toughened glass": ("structural damage",),
    "rechargeable device": (OVERHEATING_KIND, HOME_REPAIR_KIND),
    "vehicle safety part": ("impact damage", "structural damage", "corrosion or a failing coating",
                            "wear past its limit", "a leak or malfunction", HOME_REPAIR_KIND,
                            "an unknown model, age or history", HEDGE_KIND),
}
# A replace-by, expiry or use-by date: past when its year is before the current one (read at review time,
# so an alarm dated "replace by 2022" is out of date from 2023 on). "{years}" is filled per review.
DATED_MANUFACTURE: tuple[str, ...] = (
    "(?:date (?:wheel|clock|stamp|code|label|sticker)|manufactured|manufacture date|mfd|mfg|dom|production "
    "date|made in|made|bought|purchased|fitted|installed)\\D{0,30}?\\b(?:{years})\\b",
)
DATED_EXPIRY: tuple[str, ...] = (
    "(?:replace(?:ment)?[\\s-]?(?:by|before|date|due)|expir(?:y|es|ed|ation)(?: date)?|"
    "use[\\s-]?by(?: date)?|exp\\.?|end[\\s-]of[\\s-]life|best before|service (?:due|by))"
    "\\s*(?:date\\s*)?[:=-]?\\s*(?:is\\s+|was\\s+|in\\s+)?"
    "(?:\\d{1,2}\\s*[/.-]\\s*)?(?:\\d{1,2}\\s*[/.-]\\s*)?(?:[a-z]{3,9}\\s+)?(?:{years})",
    "past (?:its |their |the )?(?:replace[\\s-]?by|replacement|expiry|use[\\s-]?by|end[\\s-]of[\\s-]life) "
    "(?:date|year)", "end[\\s-]of[\\s-]life (?:warning|signal|chirp\\w*|beep\\w*|mode)",
)
# Parts whose only job is to protect life or limb: severe damage to one is a safety risk on any product.
PROTECTIVE_PARTS: tuple[str, ...] = (
    "guard ?rails?", "safety rails?", "side rails?", "hand ?rails?", "bed rails?",
    "(?:blade|safety|hand|finger|chain|saw|fire|stair|bed|cot|wheel) guards?", "harness(?:es)?",
    "restraints?", "chin ?straps?", "seat ?belts?", "brakes?", "brake (?:pads?|cables?|levers?|discs?)",
    "(?<!tape )(?<!cassette )(?<!cd )decks?", "kingpins?", "rungs?", "stiles?", "locking pins?",
    "safety (?:catch(?:es)?|latch(?:es)?|locks?|switch(?:es)?|pins?|valves?|cut[\\s-]?outs?)",
    "tip[\\s-]?over switch(?:es)?", "safety (?:cables?|chains?|wires?|straps?|ropes?|lines?)",
    "load rating", "weight limit", "airbags?",
    # heuristic-v13: the switch that stops a machine when its lid or door opens
    "(?:lid |door |safety |guard )?interlocks?",
    # heuristic-v14: a saw's riving knife and crown guard, a kite's quick release
    "riving knife", "crown guards?", "quick[\\s-]?releases?", "chicken loops?",
    "buckles? (?:on|of) the harness",
)
PROTECTIVE_PART_DEFECTS = ("structural damage", "loose or missing parts", "a leak or malfunction",
                           HOME_REPAIR_KIND)

# What a reviewer says about each class, so the issue names the risk a person would name.
SAFETY_REASONS: dict[str, str] = {
    "laser or light skin device": (
        "a hair-removal laser or flash device can blind: it must be used with the eye protection made for "
        "it, and a fault in its power or cooling can burn the skin"),
    "skin-piercing tool": (
        "needles that have been in someone's skin carry blood-borne infection risk and cannot be sterilised "
        "at home; bent needles tear the skin"),
    "toughened glass": (
        "a chip or crack in toughened glass weakens the whole pane, which can shatter without warning"),
    "head protection": (
        "helmets and riding hats must be replaced after any impact, fall or crash, because impact damage to "
        "the shell or liner is often invisible, so they should not be reused; rider safety depends on it"),
    "protective gear": (
        "protective and life-saving equipment with damage, a missing part or an unknown history cannot be "
        "trusted to work in an emergency"),
    "breathing or diving equipment": (
        "this is life-support equipment: a free-flow fault, a leak or a service long overdue can be fatal, "
        "so it needs a documented service before reuse"),
    "gas or pressure equipment": (
        "a damaged hose, regulator, seal, flue or firebox can leak gas or carbon monoxide or fail under "
        "pressure, a fire and explosion risk; the hose and regulator must be replaced"),
    "water safety equipment": (
        "a crack, leak or repair in buoyancy or water equipment can let in water and sink it; buoyancy "
        "safety must be checked"),
    "child product": (
        "child safety (an infant or child product): damage, "
        "repairs, loose small parts (a choking hazard), a missing part or an unknown "
        "history can injure a child or cause entrapment, and car seats involved in a collision or crash must "
        "be replaced"),
    "battery or electrical": (
        "an electrical hazard: damaged or repaired cables and batteries can cause electric shock or fire, as "
        "can a damaged power cord; a non-original charger should be named"),
    "food contact equipment": (
        "food safety: rust, cracks or a flaking coating on a food-contact surface can contaminate food"),
    "lifting bench or rack": (
        "a bench or rack holds a lifter under a loaded bar: a pin, bolt or weld the owner improvised can "
        "fail "
        "under load"),
    "load-bearing or climbing equipment": (
        "ladders, trampolines and lifting, towing or climbing gear that is bent, cracked, repaired or "
        "incomplete can collapse or fail under load"),
    "power tool with a blade or guard": (
        "a power tool with a damaged or missing guard, blade, switch or cable can cause serious injury"),
    "medical or mobility equipment": (
        "medical and mobility equipment that reads wrong, is damaged or is overdue a service can harm the "
        "person relying on it"),
    "alarm or detector": (
        "an alarm or detector that is damaged, faulty or past its replace-by date may not warn anyone of "
        "smoke, fire or carbon monoxide: an end-of-life alarm is not reliable and must be replaced, not "
        "resold"),
    "structure that holds or guards a person": (
        "a bed, rail, gate or restraint that holds or guards a person and is broken, repaired or missing a "
        "guard rail is a fall risk, above all for children"),
    "ride-on or board sports equipment": (
        "a cracked deck or frame, a bent or broken truck, kingpin or fork, or a home repair can fail under "
        "the rider: rider safety depends on it"),
    "other product for a baby or toddler": (
        "child safety: a product for a baby or toddler of unknown model or age, past its date or repaired at "
        "home may not meet current safety standards"),
    "mains-powered appliance": (
        "an electrical hazard: a mains appliance that overheats or whose thermostat or switch fails can "
        "cause a fire or burns"),
    "rechargeable device": (
        "a battery fire hazard: a rechargeable device that overheats or was repaired at home can catch fire "
        "while charging or against the skin"),
    "protective part": (
        "a part whose job is to protect life or limb (a guard, rail, harness, restraint, brake or deck) that "
        "is broken, missing or not working is a safety risk whatever the product"),
    "vehicle safety part": (
        "a worn, damaged or crash-involved safety-critical part can fail on the road: brake safety depends "
        "on a part within its minimum thickness or tread limit and of known fitment for the vehicle"),
}
# Words after "missing" that are packaging, not a part that keeps someone safe.
PACKAGING_WORDS: tuple[str, ...] = ("box", "packaging", "tags?", "receipt", "bag", "dust ?bag",
                                    "(?:carry )?case",
                                    "paperwork", "original box", "manual", "instructions")

# --- Hazards whatever the product: fire, shock, gas, recall ---------------------------------------------

# A damaged battery ("battery has swollen", "bulging battery") but not a denial in between
# ("battery is not swollen") nor a conjunction that moves to another part ("battery good but ...").
_GAP = ("(?:(?!(?:not|no|never|nor|but|and|or|yet|though|although|while|however|isnt|wasnt|hasnt|"
        "doesnt)\\b|[\\w']*n't\\b)[\\w']+\\s+)")
_BATTERY = ("(?:batter(?:y|ies)|(?:battery|li-?ion|li-?po|lipo|lithium) (?:packs?|cells?)|lipos?)"
            "(?![\\s-]+(?:covers?|doors?|lids?|compartments?|flaps?|contacts?|"
            "terminals?|indicators?|icons?|level|meters?|grips?|of cards))")
_SWELLING = ("(?:swol+[ae]n|swell(?:s|ed|ing)?(?: up)?|bulg(?:e|es|ed|ing)|bloated|puffy|puff(?:s|ed|ing)?"
             "(?: up)?|expanded|expanding|leaking|leaks|leaked|damaged|overheats|overheating|overheated|"
             "(?<!non[\\s-])smok(?:ing|es)|caught fire|catches fire|gets? (?:very |really )?hot)")
FIRE_HAZARDS: tuple[str, ...] = (
    "(?:swol+[ae]n|swelling|bulging|bulged|bulge|bloated|puffy|puffed|expanded|leaking|damaged|overheating)"
    "\\s+" + _GAP + "{0,2}?" + _BATTERY,
    _BATTERY + "\\s+" + _GAP + "{0,3}?" + _SWELLING,
    "(?:exposed|bare|frayed|visible|showing) (?:copper |live )?(?:wires?|wiring|cables?|conductors?|copper)",
    "wires? (?:are |is )?(?:exposed|showing|poking out)",
    # heuristic-v19: a mains lead that has melted or burnt ("melted plastic on the cable")
    "melted (?:plastic |insulation )?(?:on|into|onto) (?:the |its )?(?:cable|lead|cord|plug|flex)",
    "(?:cable|lead|cord|plug|flex) (?:has |is |was )?(?:melted|scorched|burnt)",
    "(?:see|showing|shows|visible)\\s+(?:a (?:bit|little) "
    "of |some )?(?:the )?(?:bare )?(?:copper|inner wires?|wires? inside)", "sparking",
    # heuristic-v22: a clockwork toy's flint sparks by design
    "sparks (?:when|if|from|out|a bit)(?! (?:wound|you wind|it walks|pushed|rolled))",
    "(?:gives?|gave) (?:off )?sparks", "burning smell", "smells? of burning", "caught fire", "catches fire",
    "(?:gives?|gave|giving) (?:me |you )?(?:an? )?(?:small |slight )?(?:electric(?:al)? )?shocks?",
    "smell (?:of )?gas", "smells? (?:of |like )?gas",
    # heuristic-v22: a gas leak detector finds leaks by design
    "gas (?:leaks?|smell)(?![\\s-]+(?:detectors?|alarms?|sensors?|testers?|test\\w*|sprays?))"
    + _NOT_BESIDE_A_DETECTOR,
    "leak(?:s|ing)? gas",
    # heuristic-v13: what burns named ("smell like burnt plastic", "a hot electrical smell")
    "smel+(?:s|ed|t)? (?:a bit |slightly |strongly )?(?:of |like )?(?:burnt|burning|melting|melted|hot) "
    "(?:plastic|rubber|electrics?|electrical|wires?|wiring|insulation)",
    "(?:burnt|burning|melting|melted|hot) (?:plastic|rubber|electrical|wire|wiring) smell",
    # heuristic-v21: the electrics crackle, or a cut lead joined at home
    "(?:switch|plug|socket|flex|wiring)\\b[^.!?\\n]{0,40}?\\bcrackl(?:es|ing|ed)",
    "(?:with|using|in) (?:a |an )?chocolate block", "chocolate block (?:in|inside|wrapped|taped|joint)",
    # heuristic-v25: a mains lead joined with a connector block or wrapped in tape, and dry ice sealed in
    "(?:with|using|in) (?:a |an )?(?:connector|terminal|choc) block",
    "(?:joined|spliced|connected) (?:[\\w-]+ ){0,4}?with (?:a |an )?(?:connector|terminal|wago|crimp)",
    "(?:wrapped|wound|taped) (?:up )?(?:in|with) (?:electrical|insulating|insulation|pvc) tape",
    "dry ice\\b[^.!?\\n]{0,60}?\\b(?:air[\\s-]?tight|sealed|clip[\\s-]?lock|screw[\\s-]?top)",
    "(?:cut|chopped) (?:off )?so (?:i |we )?(?:joined|spliced|wired|connected)",
)
# heuristic-v15: a sentence that says the failed part was replaced ("the old battery started to swell so Apple
# replaced it") tells a hazard that is gone.
FIRE_RESOLVED = (r"\b(?:replaced|swapped (?:out|for)|new (?:battery|cells?|pack) (?:fitted|installed)|"
                 r"(?:old|previous|original) (?:battery|cells?|pack)|"
                 # heuristic-v22: the swollen cells gone ("took them to the battery recycling")
                 r"recycl\w*|disposed of|no (?:battery|cells?) (?:in it|included|fitted))\b")
# A battery product that swells is a fire risk even when the listing never says "battery".
# heuristic-v24: water in a device with a lithium battery ("fell in the bath", "dried it in rice") can short
# the cell later, whatever it does now
WATER_INGRESS_TERMS: tuple[str, ...] = (
    "(?:fell|fallen|dropped|went|gone|been|was) (?:it |them )?(?:in|into) (?:the |a )?(?:bath|water|toilet|"
    "loo|sink|pool|sea|river|lake|puddle|washing machine)",
    "(?:put|dried|left|kept|sat|sitting|stuck) (?:it |them )?(?:out )?in (?:a bag of |a bowl of |a tub of "
    "|some |dry |uncooked )?rice",
    "(?:liquid|water)[\\s-](?:damaged?|ingress)", "got (?:soaked|submerged|drenched)",
)
SWELLING_TERMS: tuple[str, ...] = (
    "swol+[ae]n", "swel+ed", "swelling", "swelled", "puffy", "puffed(?: up)?", "puffing(?: up)?",
    "(?:a bit|slightly|quite|gone|going|getting|sits?|sitting|looks?|looking|bit) (?:a bit |slightly "
    ")?fat(?:ter)?",
    "bulg\\w*", "bloated",
    "expanded", "expanding",
)
RECALL_TERMS: tuple[str, ...] = (
    # heuristic-v11: told of a recall and kept it ("a letter about some recall on this model")
    "(?:letters?|emails?|notices?|messages?|warnings?) (?:about|regarding|re|of) (?:a |an |the |some )?"
    "(?:[\\w'-]+ ){0,2}?recall",
    "recall (?:on|for|of) (?:this|that|these|those|our|my|the) (?:model|one|unit|batch)",
    "(?:the|a|some|that) recall (?:thing|issue|stuff|business)",
    "recalled", "recall notices?", "under (?:a |the )?recall", "product recall", "safety recall",
    # heuristic-v18: heard of a problem with the model and never checked ("something on the news about the
    # handle")
    "(?:something|a story|an item|a report|a thing|stuff) (?:on|in) the news about",
    "recall (?:list|campaign|programme|program)", "open recall", "recall (?:was )?(?:never )?(?:done|fixed)",
    "(?:part of|subject to|affected by|included in|covered by|listed in|named in)\\s+(?:a|an|the)\\s+"
    "(?:[\\w'-]+\\s+){0,2}?recall",
)

# heuristic-v25: the maker's remedy said to be done anywhere ("recall repair done" in the title)
RECALL_REMEDIED: tuple[str, ...] = (
    "recall (?:repair|remedy|fix|work) (?:was |has been )?(?:done|fitted|carried out|completed)",
    "(?:had|got|received) the (?:free )?(?:recall )?(?:repair|remedy|fix|modification)",
    "repaired (?:by|under) (?:the )?(?:manufacturer|maker|recall)",
)
# A recall mentioned as checked and cleared ("checked the serial against the recall list, not listed").
RECALL_CLEARED = (r"\b(?:checked|verified|looked up|"
                  r"not (?:listed|affected|included|on (?:it|the list)|part of|subject)|"
                  r"isn'?t (?:listed|affected|included|on)|aren'?t (?:listed|affected|included)|unaffected|"
                  r"doesn'?t apply|does not apply|no (?:open |outstanding )?recalls?|all clear|"
                  # heuristic-v22: the maker's remedy done ("sent off for the repair kit and fitted it")
                  r"(?:repair|recall|remedy|fix) kit|fitted (?:it|them|the (?:kit|fix|repair|remedy))|"
                  r"(?:remedy|repair|fix) (?:was |has been )?(?:done|fitted|carried out|completed))\b")

# The seller rules out the use the class is safety-critical for ("not for climbing", "display only"): the
# item is sold as material, a prop or a decoration, so its wear is not a hazard a person must clear.
SAFETY_USE_DISCLAIMERS: tuple[str, ...] = (
    "not (?:suitable |to be used |intended |sold )?(?:for|as) (?:climbing|abseiling|mountaineering|"
    "life[\\s-]?safety(?: use)?|safety use|personal protection|(?:diving|lifting|towing|climbing) use|"
    "lifting|towing|diving|(?:child|baby|infant) use|use with (?:children|babies))",
    "do(?: not|n'?t) use (?:it |them |this |these )?(?:for|as|in) (?:climbing|life[\\s-]?safety|"
    "protection|lifting|towing|diving|a (?:helmet|harness|lifejacket))",
    "(?:display|decorati\\w*|ornamental|prop|props|craft|crafts|crafting|upcycling|costume) "
    "(?:use |purposes? |piece )?only",
    "(?:sold|offered) (?:as|for) (?:display|decoration|a prop|crafts?|crafting|upcycling|scrap|material|"
    "timber|wood|firewood)",
    # heuristic-v18: retired from access use and said so ("not for standing on")
    "not for (?:standing on|walking on|climbing on|any access(?: use)?|access(?: use)?)",
    "any life[\\s-]?safety use",
    # heuristic-v14: a costume piece or prop replica protects nobody
    "cosplay", "(?:fan[\\s-]made|prop|costume|display|film|movie|screen) replicas?",
    # heuristic-v15: a doll's car seat or pram is a toy, and says so
    "dolls?'? (?:car seats?|prams?|pushchairs?|buggies|strollers?|cots?|beds?|high ?chairs?|carriers?)",
    "not for (?:real|actual|human) (?:babies|baby|children|use)", "(?:for|fits) dolls",
    # heuristic-v16: sold as not working, for its parts: nobody buys it to use as it is (a fire hazard
    # still counts: _fire_hazard reads no disclaimer)
    "spares (?:or|and|&|/) repairs?", "(?:for|as) (?:spares|parts)(?: only)?\\b(?! (?:available|included))",
    "not (?:sold )?as a working (?:machine|appliance|item|unit|product)",
)
# The dated kinds: their words, with "{years}" filled per review by the years at least this many years back.
DATED_KINDS: dict[str, tuple[tuple[str, ...], int]] = {
    PAST_DATE_KIND: (DATED_EXPIRY, 0),
    OLD_MANUFACTURE_KIND: (DATED_MANUFACTURE, PROTECTIVE_SERVICE_YEARS),
}
