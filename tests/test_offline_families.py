"""The offline reviewer's rule families, one general rule each, with sentences written for these tests
(not taken from any dataset): what must send a listing to a person, and the look-alikes that must not
(denials, evidence, quotation, ordinary products of a sensitive category).
"""

from decimal import Decimal

import pytest

from core.listings.draft import ListingDraft
from core.listings.evaluation.grader import covers, review_sentences
from core.listings.offline.matching import any_unnegated
from core.listings.offline.reviewer import review_by_rules, rule_families
from core.listings.offline.scoring import THIN_SCORE_CAP
from core.listings.review import ListingReview


def draft(title: str, description: str, category: str = "General", price: str = "30",
          **attributes: str) -> ListingDraft:
    return ListingDraft(title, description, category, Decimal(price), attributes)


def families(title: str, description: str, category: str = "General", price: str = "30",
             **attributes: str) -> tuple[str, ...]:
    return rule_families(draft(title, description, category, price, **attributes))


def review(title: str, description: str, category: str = "General", price: str = "30",
           **attributes: str) -> ListingReview:
    return review_by_rules(draft(title, description, category, price, **attributes))


# --- Matching: negation and quotation ------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "There are no dents anywhere on it.", "Never been dented, kept in a padded case.",
    "Free of dents and scratches.", "Dent-free body, checked under a lamp.",
])
def test_a_denied_word_is_not_a_mention(text: str):
    assert any_unnegated(("dents?", "dented"), [text]) == ""


def test_a_denial_ends_at_the_clause_so_a_later_mention_still_counts():
    assert any_unnegated(("dents?",), ["No scratches, but there is a dent near the hinge."]) == "dent"


def test_a_quoted_name_is_not_a_claim():
    assert any_unnegated(("gold",), ["Nail varnish in the shade 'Gold Rush', never opened."]) == ""
    assert any_unnegated(("gold",), ['Poster of the album "Gold" by the band, A2.']) == ""


# --- Family: safety-critical products ------------------------------------------------------------------


@pytest.mark.parametrize("title, description, category", [
    ("Giro ski helmet adult L",
     "Took one hard knock on an icy run; there is a hairline split by the visor clip.",
     "Winter sports"),
    ("Travel cot with mattress", "Folds fine but one of the side locking buttons has snapped off.",
     "Nursery"),
    ("Oil-filled radiator heater 2kW", "Works, though the flex is frayed where it enters the body.",
     "Heating"),
    ("Non-stick wok 30 cm", "Coating is peeling in the middle after years of use.", "Cookware"),
    ("Rear brake discs pair", "Came off my van at 60k miles, lip on the edge, some rust.", "Vehicle parts"),
    ("Kids bike helmet", "Bought it second-hand, not sure how old it is.", "Cycling"),
])
def test_a_hazard_on_a_safety_critical_product_sends_it_to_a_person(title, description, category):
    assert "safety-critical" in families(title, description, category, brand="Acme", condition="used")
    assert review(title, description, category, brand="Acme", condition="used").quality_score <= 40


@pytest.mark.parametrize("title, description", [
    ("E-scooter 36V", "Battery pack has swollen and pushes the deck plate up."),
    ("Portable charger 10000mAh", "Works, but the casing bulges slightly on one side."),
    ("Bedside lamp", "The cord has bare wires showing near the plug."),
])
def test_fire_hazards_are_severe(title, description):
    result = review(title, description, "Electronics", brand="Acme", condition="used")

    assert result.requires_human_review and result.quality_score <= 25


@pytest.mark.parametrize("title, description, category", [
    ("Giro ski helmet adult L", "No cracks or dents, never crashed, stored in its bag.", "Winter sports"),
    ("Travel cot with mattress", "All parts present, nothing missing, instructions included.", "Nursery"),
    ("Cast iron frying pan 26 cm", "Seasoned, no rust, no chips in the enamel.", "Cookware"),
    ("Phone charger 20W USB-C", "Missing the original box only; cable and plug are perfect.", "Electronics"),
    ("Cordless drill with battery", "Battery holds its charge well; includes two bits.", "Tools"),
])
def test_the_same_products_without_a_hazard_are_not_sent_to_a_person(title, description, category):
    assert not review(title, description, category, brand="Acme", condition="used").requires_human_review


def test_a_recall_is_severe_but_a_denied_recall_is_not():
    recalled = review("Baby sleeper rocker", "This one was part of the 2019 recall, sold for parts.", "Baby")
    denied = review("Baby sleeper rocker", "Checked the maker's site: this model was never recalled.", "Baby")

    assert recalled.requires_human_review and recalled.quality_score <= 25
    assert "safety-critical" not in rule_families(draft("Baby sleeper rocker", "Checked the maker's site: "
                                                         "this model was never recalled.", "Baby"))
    assert not any("recalled" in issue for issue in denied.issues)


# --- Family: authenticity ----------------------------------------------------------------------------


@pytest.mark.parametrize("title, description, category", [
    ("Autographed boxing glove", "Signed by the champion at a charity dinner.", "Sports memorabilia"),
    ("Victorian oil painting, antique frame", "Antique landscape, artist unknown, in the family for years.",
     "Art"),
    ("18k gold bangle", "Heavy bangle, solid gold, 21 g.", "Jewellery"),
    ("Designer tote bag", "100% authentic, bought on holiday.", "Bags"),
    ("Retro basketball trainers", "Totally legit pair, bought from a reseller, worn once.", "Trainers"),
])
def test_a_claim_without_evidence_needs_a_person(title, description, category):
    assert "authenticity" in families(title, description, category, condition="used")


@pytest.mark.parametrize("title, description, category", [
    ("Autographed boxing glove", "Signed at a charity dinner; comes with the event's certificate of "
     "authenticity and a photo.", "Sports memorabilia"),
    ("18k gold bangle", "Hallmarked 750 inside, 21 g, receipt from the jeweller.", "Jewellery"),
    ("Genuine leather belt, brown, 95 cm", "Full grain leather, brass buckle, worn a few times.",
     "Accessories"),
    ("Silver grey laptop sleeve 13 inch", "Neoprene sleeve in silver grey, zip works.",
     "Computer accessories"),
    ("Friendship bracelet 'Gold Rush'", "Woven cotton cord bracelet, adjustable knot.", "Jewellery"),
])
def test_evidence_materials_colours_and_quoted_names_are_not_claims(title, description, category):
    assert "authenticity" not in families(title, description, category, condition="used")


def test_an_admitted_imitation_is_severe_even_when_denied_in_the_same_breath():
    result = review("Quilted flap bag", "Not fake, a top quality copy, looks identical.", "Bags",
                    brand="Acme", condition="new")

    assert result.requires_human_review and result.quality_score <= 25


# --- Family: numeric contradictions --------------------------------------------------------------------


@pytest.mark.parametrize("title, description, attributes", [
    ("Samsung Galaxy Tab S8 128GB", "Tablet with 256GB storage, screen perfect.", {"storage": "128GB"}),
    ("Stand mixer 5.5 L bowl", "Big 4.3 L stainless bowl, all attachments.", {"brand": "Acme"}),
    ("Microwave 900W", "Solid microwave, 700 W output, turntable included.", {"brand": "Acme"}),
    ("Set of 6 dining chairs", "Oak chairs, sturdy.", {"quantity": "4"}),
    ("Hardtail mountain bike 19 inch frame", "Shimano gears, good tyres.", {"frame size": "17 inch"}),
    ("Road bike 2018 model", "Serviced last spring.", {"model year": "2015"}),
    ("Canon EOS 90D body", "Body only, shutter count 8k.", {"model": "EOS 80D"}),
    ("Dumbbell 12 kg", "Single cast iron dumbbell, 10 kg, rubber coated.", {"brand": "Acme"}),
])
def test_numbers_that_disagree_between_places_need_a_person(title, description, attributes):
    result = review_by_rules(draft(title, description, "Home", **attributes))

    assert "numeric-contradiction" in rule_families(draft(title, description, "Home", **attributes))
    assert result.requires_human_review and 10 <= result.quality_score <= 45


@pytest.mark.parametrize("title, description, attributes", [
    ("Portable SSD 1TB", "1000 GB USB-C drive, fast.", {"storage": "1 TB"}),
    ("Laptop 16GB RAM 512GB SSD", "16GB of memory and a 512GB drive.", {"ram": "16GB", "storage": "512GB"}),
    ("Kettle 2 kW", "2000 W rapid boil, 1.7 litre.", {"capacity": "1.7 L"}),
    ("Monitor 27 inch", "27\" IPS panel, 68.6 cm diagonal.", {"screen size": "27"}),
    ("Samsung Galaxy S22 5G", "Unlocked, 5G, weighs 167 g.", {"brand": "Samsung"}),
])
def test_the_same_value_written_two_ways_is_not_a_contradiction(title, description, attributes):
    assert "numeric-contradiction" not in families(title, description, "Electronics", **attributes)


# --- Family: condition contradictions -----------------------------------------------------------------


@pytest.mark.parametrize("title, description, condition", [
    ("Brand new rain jacket", "Worn on two hikes, small tear on the cuff.", "new"),
    ("Mint condition vinyl LP", "Plays through, a few scratches on side B.", "used"),
    ("Air fryer, unused", "Used a handful of times and cleaned.", "used"),
])
def test_a_condition_claim_contradicted_by_the_description_needs_a_person(title, description, condition):
    assert "condition-contradiction" in families(title, description, "Home", condition=condition)


def test_a_pristine_claim_with_only_denied_defects_is_no_contradiction():
    assert "condition-contradiction" not in families(
        "Mint condition rain jacket", "No tears, no stains and never faded.", "Clothing", condition="mint")


# --- Families: regulated goods and medical claims -----------------------------------------------------


@pytest.mark.parametrize("title, description, category", [
    ("Disposable vapes x5", "Mixed flavours, 20mg.", "Vaping"),
    ("Balisong trainer? no, live blade", "Real butterfly knife, sharp, will post.", "Knives"),
    ("Spare antibiotics", "Course of amoxicillin left over, unopened.", "Health"),
    ("Office 2021 Pro Plus", "Retail-looking key only, sent by email within minutes.", "Software"),
    ("Energy drink bundle", "12 cans, no ID needed, fast delivery.", "Food"),
])
def test_regulated_goods_need_a_person_and_score_as_prohibited(title, description, category):
    result = review(title, description, category, condition="new")

    assert "regulated" in rule_families(draft(title, description, category, condition="new"))
    assert result.requires_human_review and result.quality_score <= 25


@pytest.mark.parametrize("title, description, category", [
    ("Victorinox paring knife", "Kitchen knife, 8 cm blade, dishwasher safe.", "Kitchen"),
    ("Nicotine-free herbal tea", "Caffeine-free and nicotine-free blend, 40 bags.", "Food"),
    ("Mercury outboard motor cover", "Fits 9.9 hp engines, faded but intact.", "Boating"),
    ("Water pistol twin pack", "Two plastic water pistols for the garden.", "Toys"),
    ("Microsoft Office Home 2021 boxed", "Sealed retail box with the product key card inside.", "Software"),
])
def test_ordinary_products_of_sensitive_categories_are_not_regulated(title, description, category):
    assert "regulated" not in families(title, description, category, brand="Acme", condition="new")


def test_a_cure_claim_is_a_medical_claim_and_a_denied_one_is_not():
    claim = families("Herbal drops", "These drops reverse arthritis within a month.", "Health")
    denied = families("Herbal drops", "Nothing here treats arthritis; it is a flavouring.", "Health")

    assert "medical-claim" in claim and "medical-claim" not in denied


# --- Family: too incomplete to assess -----------------------------------------------------------------


@pytest.mark.parametrize("title, description, attributes", [
    ("Things for sale", "Message me.", {}),
    ("Bargain", "Good condition, offers.", {"condition": "good"}),
    ("Misc", "", {}),
])
def test_a_listing_that_names_nothing_is_too_incomplete(title, description, attributes):
    result = review_by_rules(draft(title, description, "Other", **attributes))

    assert result.requires_human_review and result.quality_score <= 15


@pytest.mark.parametrize("title, description, attributes", [
    ("Lamp", "Works.", {"brand": "Ikea"}),
    ("Garden bench", "Teak, seats two.", {}),
    ("Items for sale", "Ikea Kallax shelf unit, white, 77 x 147 cm, a few scuffs on the top.", {}),
])
def test_a_short_listing_that_names_its_item_is_weak_but_assessable(title, description, attributes):
    assert "too-incomplete" not in families(title, description, "Home", **attributes)


# --- Score model --------------------------------------------------------------------------------------


def test_more_missing_facts_and_a_shorter_description_score_lower():
    full = review("Nike Pegasus 40 running shoes", "Worn for about 80 km on roads, soles have plenty of "
                  "grip left, no tears, washed insoles, original box.", "Shoes", size="UK 9",
                  colour="black", condition="used")
    thin = review("Nike Pegasus 40 running shoes", "Worn a bit.", "Shoes")

    assert full.quality_score >= 80 and thin.quality_score < full.quality_score - 30


def test_a_hedged_description_costs_points_without_sending_it_to_a_person():
    sure = review("Carcassonne board game", "All tiles and meeples counted, box corners worn.",
                  "Toys & Games", publisher="Z-Man", condition="used")
    unsure = review("Carcassonne board game", "I think all tiles are there but haven't counted.",
                    "Toys & Games", publisher="Z-Man", condition="used")

    assert unsure.quality_score < sure.quality_score and not unsure.requires_human_review


# --- heuristic-v4: product classes, defects and claims by class, not by listing -------------------------
# Each sentence below was written for these tests; each case was missed or mis-scored by heuristic-v3.


@pytest.mark.parametrize("title, description, category", [
    ("Skate helmet size S", "Took a hard slam at the park and the foam inside is compressed now.",
     "Skateboarding"),
    ("Back protector for riding", "It did its job in a heavy fall last season, shell looks fine.",
     "Equestrian"),
    ("Group 2/3 booster seat", "It was in the car during a minor shunt at the lights, no marks.",
     "Baby & Kids"),
    ("Wooden activity rattle", "One of the wooden beads fell off, I kept it in the box.", "Toys"),
    ("Dive computer wrist unit", "Battery bay flooded once and it reads the depth wrong at times.", "Diving"),
    ("Buoyancy compensator jacket", "Not been serviced since I bought it, inflator sticking.", "Diving"),
    ("Portable gas heater", "Flame goes yellow and sooty after ten minutes.", "Heating"),
    ("Enamel stock pot 20 litre", "Rust spots inside the pot and the enamel is flaking near the rim.",
     "Homebrew"),
    ("Aluminium extension ladder", "One rung is buckled, I straightened it with a hammer.", "DIY"),
    ("Petrol chainsaw 45cc", "Chain brake won't engage any more, cuts well otherwise.", "Garden"),
    ("Inflatable paddle board", "Slow puncture in the rail, patched it with a bike kit.", "Watersports"),
    ("Wheelchair, folding", "The left brake slipping on slopes, footrest held on with tape.", "Mobility"),
    ("Group 1 car seat", "Was in my car when a van reversed into me, looks fine.", "Baby"),
    ("Power bank 10000mAh", "bit swolen on one side, still charges phones", "Electronics"),
    ("Pressure cooker 5L", "The seal is craked and steam comes out the side when cooking.", "Kitchen"),
])
def test_a_defect_on_any_safety_critical_class_sends_it_to_a_person(title, description, category):
    result = review(title, description, category, brand="Acme", condition="used")

    assert "safety-critical" in families(title, description, category, brand="Acme", condition="used")
    assert result.requires_human_review and result.quality_score <= 30


def test_every_class_the_title_names_is_checked_not_only_the_first():
    """An outboard is water equipment (a missing part is not its hazard) and runs on a lithium battery
    (where it is)."""
    assert "safety-critical" in families("Electric outboard with lithium battery",
                                         "Charger is missing, runs fine.", "Boating", brand="Acme",
                                         condition="used")


@pytest.mark.parametrize("title, description", [
    ("Two-ring camping hob", "It smells of gas around the left knob whenever the cartridge is fitted."),
    ("Bench grinder", "You can see some bare copper where the flex enters the motor housing."),
])
def test_a_gas_smell_or_visible_copper_is_a_fire_hazard_on_any_product(title, description):
    result = review(title, description, "Workshop", brand="Acme", condition="used")

    assert result.requires_human_review and result.quality_score <= 20


@pytest.mark.parametrize("title, description, category", [
    ("Gas barbecue 3 burner", "Hose and regulator replaced last month, leak tested with soapy water.",
     "Garden"),
    ("Two-ring camping hob", "No smell of gas at all, the seals were renewed in spring.", "Outdoors"),
    ("Skate helmet size S", "Impact-absorbing liner, never dropped, no knocks, stickers on the back.",
     "Skateboarding"),
    ("Fire pit bowl 60 cm", "Steel bowl with surface rust on the outside, as they all get.", "Garden"),
    ("Passport holder, leather", "Holds two passports and four cards.", "Travel"),
    ("Fireworks card game", "Cooperative card game for 2-5 players, all cards present.", "Board games"),
    ("Ivory satin wedding dress", "Ivory colour, lace sleeves, worn once and dry cleaned.", "Clothing"),
    ("Rear-facing car seat", "Covers come off for washing, the newborn insert comes out, model Z2.", "Baby"),
])
def test_safe_mentions_of_risky_words_are_not_sent_to_a_person(title, description, category):
    assert not review(title, description, category, brand="Acme", condition="used").requires_human_review


@pytest.mark.parametrize("title, description, price", [
    ("Original Hockney lithograph", "Framed, from a house clearance, sold as found.", "300"),
    ("Industrial street scene painting", "My uncle said it was by Lowry, oil on board, framed.", "300"),
    ("Genuine Breitling Navitimer", "The serial number was filed off by a previous owner; keeps time.",
     "900"),
])
def test_art_hearsay_and_erased_evidence_are_authenticity_risks(title, description, price):
    result = review(title, description, "Art & Watches", price, condition="used")

    assert "authenticity" in families(title, description, "Art & Watches", price, condition="used")
    assert result.quality_score <= 35


def test_signed_for_delivery_is_a_postage_option_not_a_signature():
    assert "authenticity" not in families("Chef's knife 21 cm", "Sharp, no chips. Tracked, signed-for post "
                                          "only.", "Kitchen", brand="Acme", condition="used")


@pytest.mark.parametrize("title, description, category", [
    ("Stripped AR-10 upper receiver", "Billet aluminium, unfinished.", "Sporting Goods"),
    ("Box of 1.3G display shells", "Left from a show, 24 shells.", "Party"),
    ("Walrus ivory scrimshaw", "Carved scene of a whaling ship, old piece.", "Collectables"),
    ("GPS jammer for cars", "Plugs into the lighter socket.", "Car accessories"),
    ("Zombie knife 18 inch", "Serrated edge, with sheath.", "Outdoors"),
    ("Fishing knife", "Sharp filleting blade. No ID or age check needed, posted in plain packaging.",
     "Fishing"),
    ("Galaxy S21 128GB", "Google locked to the old owner, works as a music player.", "Phones"),
    ("Android TV box", "Fully loaded Kodi box, every film and match for free.", "Electronics"),
    ("Labrador puppies", "Two girls left, wormed and microchipped.", "Pets"),
    ("Scooter 125cc 2016", "Starts first time, no V5 as I lost it, cash on collection.", "Motorbikes"),
    ("Hybrid bike 19in", "The frame number was ground off by the last owner, rides well.", "Cycling"),
])
def test_regulated_classes_need_a_person(title, description, category):
    result = review(title, description, category, condition="new")

    assert "regulated" in families(title, description, category, condition="new")
    assert result.requires_human_review and result.quality_score <= 20


@pytest.mark.parametrize("title, description, category, family", [
    ("Half sovereign coin 1912", "Real gold, lovely detail, in a plastic flip.", "Coins", "authenticity"),
    ("Follow-on milk 800g x3", "All three tins are past their use-by date, unopened.", "Baby",
     "safety-critical"),
])
def test_bullion_and_infant_milk_belong_to_their_classes(title, description, category, family):
    assert family in families(title, description, category, condition="used")


@pytest.mark.parametrize("description", [
    "Our salve shrinks tumours within weeks.",
    "A few drops a day boosts your immune system against any virus.",
    "Asthma sufferers can come off their inhalers after a month.",
])
def test_medical_claims_by_verb_and_condition_need_a_person(description):
    assert "medical-claim" in families("Herbal salve 50 ml", description, "Wellness")


def test_advice_to_stop_medication_is_named_as_dangerous():
    result = review("Herbal salve 50 ml", "Asthma sufferers can come off their inhalers after a month.",
                    "Wellness")

    assert any("stop prescribed medication" in issue for issue in result.issues)


@pytest.mark.parametrize("title, description, category, attributes", [
    ("Nikon 85mm f/1.4G portrait lens", "Sharp wide open, caps included.", "Photography",
     {"max aperture": "f/1.8"}),
    ("Samsung 55in QLED TV", "Crisp picture, 65-inch panel, wall bracket included.", "TVs",
     {"screen size": "55 in"}),
    ("Multipack of 24 AA batteries", "Sealed, long expiry.", "Electronics", {"quantity": "12"}),
])
def test_new_numeric_kinds_and_spellings_are_compared(title, description, category, attributes):
    assert "numeric-contradiction" in families(title, description, category, **attributes)


def test_a_saddles_girth_is_not_a_screen_size():
    assert "numeric-contradiction" not in families(
        '17" leather saddle', "Comes with a 50\" girth and leathers.", "Equestrian", seat="17 in")


@pytest.mark.parametrize("title, description, condition", [
    ("Factory sealed Monopoly", "I opened the box once to count the money, everything is there.", "new"),
    ("Brand new jigsaw 1000 pieces", "A few pieces are missing from the corner.", "new"),
])
def test_a_sealed_or_new_claim_against_an_opened_or_incomplete_item_is_a_contradiction(
        title, description, condition):
    assert "condition-contradiction" in families(title, description, "Games", condition=condition)


# --- heuristic-v4: thin listings score low, unassessable ones go to a person ------------------------------


@pytest.mark.parametrize("title, description", [
    ("Hammock", "used twice"), ("Cushion covers x4", "bit faded"),
    ("Old vinyl", "some scratched, havent played them"),
])
def test_an_honest_but_thin_listing_scores_in_the_weak_band_without_a_person(title, description):
    result = review_by_rules(ListingDraft(title, description, "Home", Decimal("10"), {}))

    assert not result.requires_human_review and 10 <= result.quality_score <= 55


@pytest.mark.parametrize("description", ["", "-", "n/a"])
def test_a_placeholder_description_with_no_specifics_is_too_incomplete(description):
    assert "too-incomplete" in families("Hammock", description, "Home")


# --- heuristic-v4: the review names the concept a human reviewer would name ------------------------------


@pytest.mark.parametrize("title, description, category, concept", [
    ("Skate helmet size S", "Took a hard slam and the foam inside is compressed now.", "Skateboarding",
     "helmet must be replaced after impact"),
    ("Enamel stock pot 20 litre", "Rust spots inside and the enamel is flaking near the rim.", "Homebrew",
     "flaking coating can contaminate food"),
    ("Walrus ivory scrimshaw", "Carved scene of a whaling ship.", "Collectables", "CITES restrictions"),
    ("Stripped AR-10 upper receiver", "Billet aluminium.", "Sporting Goods", "licensed transfer required"),
    ("Herbal salve 50 ml", "Our salve shrinks tumours within weeks.", "Wellness",
     "unsubstantiated medical claim"),
    ("Original Hockney lithograph", "Framed, from a house clearance.", "Art", "provenance unknown"),
    ("Stuff", "-", "Other", "item not identified"),
    ("Infant car seat", "The chest clip is missing, otherwise clean.", "Baby", "missing chest clip"),
    ("Regulator and octopus", "The octopus free-flows when face up, otherwise fine.", "Diving",
     "free-flow fault"),
])
def test_the_review_names_the_concept_by_class_and_defect(title, description, category, concept):
    assert covers(review_sentences(review(title, description, category)), concept)


# --- heuristic-v5: more classes, signals and look-alikes, by class and vocabulary ------------------------
# Each sentence below was written for these tests; each case was missed or mis-scored by heuristic-v4.


@pytest.mark.parametrize("title, description, category", [
    ("Rear brake pads for a hatchback", "Pulled at the last service, friction material is down to the "
     "backing plate on one side.", "Car Parts"),
    ("Pair of 17 inch car tyres", "Tread is under the legal limit now but they hold air, a track day spare.",
     "Wheels & Tyres"),
    ("Front brake caliper, left side", "Came out of a parts box. Fitment: unknown, check against yours.",
     "Car Parts"),
    ("Static rope 50 m for rigging", "Sheath is worn thin where it ran over the edge, otherwise sound.",
     "Climbing"),
])
def test_a_safety_part_worn_past_its_limit_or_of_unknown_fitment_goes_to_a_person(title, description,
                                                                                  category):
    assert "safety-critical" in families(title, description, category, brand="Acme", condition="used")


def test_a_safety_use_ruled_out_by_the_seller_is_not_a_hazard_but_without_it_still_is():
    description = "Expired and frayed at the tie-in point, {} for a climbing-wall cafe."

    assert "safety-critical" not in families("Old climbing harness", description.format("sold as decoration"),
                                             "Sports", brand="Acme", condition="used")
    assert "safety-critical" in families("Old climbing harness", description.format("handy spare"), "Sports",
                                         brand="Acme", condition="used")


@pytest.mark.parametrize("title, description, category", [
    ("Silver candlesticks pair", "They weigh a ton so they should be solid silver; the marks underneath "
     "are too worn to read.", "Antiques"),
    ("Sterling cutlery canteen, 6 settings", "House clearance find, I reckon it's sterling, no idea who made "
     "it.", "Antiques"),
    ("Inverted watermark stamp block", "One of only 12 known according to my uncle, worth thousands to the "
     "right collector.", "Stamps"),
    ("50p coin with a misprinted date", "These go for silly money online, misprint is clear.", "Coins"),
])
def test_inferred_materials_unread_marks_and_rarity_claims_need_evidence(title, description, category):
    assert "authenticity" in families(title, description, category, price="250")


@pytest.mark.parametrize("title, description", [
    ("Poteen, two bottles", "From my uncle's still in the hills, clear as water."),
    ("Grappa from my own still", "Bottled last autumn, very strong, collection or post."),
    ("Home-made absinthe", "Distilled it myself in the garage, bright green, plain bottle."),
])
def test_home_distilled_spirits_are_regulated(title, description):
    assert "regulated" in families(title, description, "Food & Drink", price="20")


@pytest.mark.parametrize("title, description", [
    ("Elderberry tincture 50ml", "Keeps the whole family safe from colds and flu all season."),
    ("Room mist with thyme oil", "Wards off influenza in a busy classroom, safe for toddlers to breathe in."),
    ("Anti-viral balm for kids", "Rub on the chest at bedtime."),
])
def test_claims_against_infections_are_medical_claims(title, description):
    assert "medical-claim" in families(title, description, "Health & Beauty", brand="Acme")


def test_a_claimed_safety_for_babies_is_named_in_the_review():
    result = review("Room mist with thyme oil", "Wards off influenza, safe for babies in a diffuser.",
                    "Health & Beauty", brand="Acme")

    assert any("safety for babies" in issue for issue in result.issues)


@pytest.mark.parametrize("title, description, category, attributes", [
    ("iPad Air 64GB blue", "Signed out of the Apple ID and reset; screen protector on since day one, no "
     "marks at all, charger included.", "Tablets", {"storage": "64GB", "condition": "used"}),
    ("Pilot Custom 74 fountain pen, F nib", "Used daily for a year, writes smoothly, cleaned and dried, "
     "comes in the gift box.", "Stationery", {"brand": "Pilot", "condition": "used"}),
    ("Antiviral tissues, 12 boxes", "Sealed boxes, 3-ply, past the shop date so selling cheap.",
     "Household", {"brand": "Acme", "quantity": "12"}),
    ("Box of 40 paperbacks", "40 books, mostly crime; 3 books have water marks on the edges.", "Books",
     {"condition": "used", "quantity": "40"}),
    ("Double mattress protector", "Double-sided quilting, washed at 60, fits 135 x 190.", "Bedroom",
     {"size": "double", "condition": "used"}),
])
def test_look_alikes_of_the_new_signals_stay_with_the_seller(title, description, category, attributes):
    assert not review(title, description, category, "40", **attributes).requires_human_review


@pytest.mark.parametrize("title, description, attributes", [
    ("Job lot 40 vinyl records", "Roughly 25 records in total, mostly 70s rock, sleeves worn.",
     {"condition": "used"}),
    ("Queen size bed frame, grey velvet", "Single bed frame in grey velvet, slats all there, bolts in a bag.",
     {"condition": "used"}),
])
def test_a_count_or_bed_size_that_disagrees_is_a_numeric_contradiction(title, description, attributes):
    assert "numeric-contradiction" in families(title, description, "Home", **attributes)


@pytest.mark.parametrize("description", ["pics say it all", "see photos", "as pictured", "dm me"])
def test_a_stand_in_description_on_an_unbranded_item_is_too_incomplete(description):
    assert "too-incomplete" in families("mixer", description, "Audio")


@pytest.mark.parametrize("title, description, attributes", [
    ("Dyson hair dryer", "-", {"brand": "Dyson", "condition": "used, works"}),
    ("Wooden bedside table", "Small marks on the top, collection only.", {"colour": "oak"}),
    ("Teak garden bench", "Weathered to silver, sturdy, two slats replaced last year.", {"material": "teak"}),
])
def test_a_thin_listing_is_capped_in_the_weak_band(title, description, attributes):
    result = review(title, description, "Home", **attributes)

    assert not result.requires_human_review and result.quality_score <= THIN_SCORE_CAP


def test_every_kind_of_defect_on_a_safety_product_is_named_not_only_the_first():
    result = review("Aluminium loft ladder", "One rail is bent near the hinge and the top hook is missing.",
                    "DIY", brand="Acme", condition="used")

    issue = next(issue for issue in result.issues if issue.startswith("Safety-critical"))
    assert "structural damage" in issue and "loose or missing parts" in issue and "top hook" in issue


@pytest.mark.parametrize("title, description", [
    ("Propane bottle 11kg", "Requalification date has lapsed, holds its contents fine."),
    ("LPG hose and regulator kit", "Soapy water test shows bubbles at the joint, otherwise tidy."),
])
def test_a_gas_container_out_of_test_or_bubbling_at_a_joint_goes_to_a_person(title, description):
    assert "safety-critical" in families(title, description, "Outdoor cooking", brand="Acme",
                                         condition="used")


def test_a_gas_regulator_is_gas_equipment_not_diving_equipment():
    result = review("Propane regulator with gauge", "Hose is cracked near the crimp.", "BBQ", brand="Acme")

    assert any(issue.startswith("Safety-critical gas or pressure equipment") for issue in result.issues)


@pytest.mark.parametrize("title", ["Cased tawny owl, Victorian", "Kestrel taxidermy mount",
                                   "Stuffed sparrowhawk on a branch"])
def test_a_protected_bird_preserved_whole_is_protected_wildlife(title):
    result = review(title, "In a glass dome, feathers in good order, from a house clearance.", "Collectables")

    assert "regulated" in families(title, "In a glass dome, from a house clearance.", "Collectables")
    assert any("permit" in issue for issue in result.issues)


@pytest.mark.parametrize("title, description", [
    ("Kids' scooter helmet", "A couple of tears in the chin strap where the dog got it."),
    ("Garden swing set", "Two of the bolts have disappeared, it leans a bit when used."),
])
def test_tears_and_parts_that_have_gone_are_defects_of_a_safety_product(title, description):
    assert "safety-critical" in families(title, description, "Outdoor", brand="Acme", condition="used")


def test_a_defect_is_quoted_once_per_clause_with_the_part_it_is_on():
    result = review("Baby high chair", "There is a hairline crack across the tray; the crotch strap is "
                    "missing.", "Nursery", brand="Acme", condition="used")

    issue = next(issue for issue in result.issues if issue.startswith("Safety-critical"))
    assert issue.count("crack across the") == 1 and "the crotch strap is missing" in issue


# --- heuristic-v6: general shapes (any unit, any severe defect, a part's purpose, a claim's shape) ---------
# Each pair below is a case heuristic-v5 missed or flagged wrongly and its look-alike, both written for these
# tests: the rule must catch the first and leave the second alone.

Case = tuple[str, str, str, str, dict[str, str]]  # title, description, category, price, attributes


def case_families(case: Case) -> tuple[str, ...]:
    title, description, category, price, attributes = case
    return families(title, description, category, price, **attributes)


@pytest.mark.parametrize("contradiction, look_alike", [
    (("Rattan corner sofa set 2.4m x 1.8m", "Garden set; it measures 2.4 x 1.2m overall, cushions included.",
      "Garden", "250", {"colour": "grey"}),
     ("Marquee 3x6m, was 3x9m", "Originally 3x9m, the middle section was lost so it is now 3x6m.", "Garden",
      "200", {})),
    (("Wool runner rug 80 x 300 cm", "Hand-knotted runner, it is 80 x 240 cm, fringes intact.", "Rugs", "90",
      {}),
     ("Dining table 120 x 80 cm with 4 chairs", "Table 120 x 80 cm, each chair seat 45 x 45 cm.", "Furniture",
      "150", {})),
    (("Shed 8ft x 6ft, pent roof", "Tongue and groove shed, 8x4ft, felt roof redone.", "Garden", "150",
      {"size": "8ft x 6ft"}),
     ("Picture frame 30 x 40 cm", "Black frame 30 x 40 cm, posted in a box 35 x 45 cm.", "Frames", "8", {})),
    (("Canvas print 24 x 36 in", "Stretched canvas, 24 x 30 in, ready to hang.", "Art", "40", {}),
     ("Gazebo 3 x 3 m", "Available in 3x3 or 3x4.5 m, this one is the 3 x 3 m.", "Garden", "60", {})),
    (("Roller blind 120cm wide", "Blackout roller blind, 90cm wide, cord pull.", "Blinds", "15",
      {"width": "120cm"}),
     ("Curtains 168 x 229 cm", "Each panel 168cm wide and 229cm drop, 66 x 90 inches.", "Home", "30",
      {"drop": "90 in"})),
    (("2018 Ford Fiesta Zetec", "Manufactured in 2014, two owners, timing belt done.", "Cars", "5000",
      {"year": "2018"}),
     ("2019 road bike, Shimano", "Bought new in 2020 from the shop, serviced yearly.", "Bikes", "400",
      {"year": "2019"})),
    (("Cordless drill 18V with 2 batteries", "Brushless drill, strong.", "Tools", "60", {"voltage": "12V"}),
     ("Cordless drill 18V", "Comes with a 230V charger and two 18V batteries.", "Tools", "60",
      {"voltage": "18V"})),
    (("Mirrorless camera body 24MP", "Sensor is 20MP, shutter count 8k.", "Cameras", "400", {}),
     ("Duvet 13.5 tog king", "A 4.5 tog and a 9 tog that clip together to make 13.5 tog.", "Bedding", "40",
      {})),
    (("125cc scooter, learner legal", "Engine is 50cc, MOT till May.", "Motorbikes", "900", {}),
     ("Pair of 5 litre water carriers", "Both hold water, taps included.", "Camping", "12",
      {"quantity": "2"})),
])
def test_a_measure_stated_twice_differently_is_a_numeric_contradiction_but_changes_and_others_are_not(
        contradiction: Case, look_alike: Case):
    assert "numeric-contradiction" in case_families(contradiction)
    assert "numeric-contradiction" not in case_families(look_alike)


@pytest.mark.parametrize("contradiction, look_alike", [
    (("Leather armchair, like new", "Comfy chair. The seat cushion is torn along the seam and one leg is "
      "snapped.", "Furniture", "60", {}),
     ("Leather armchair, excellent condition", "Light scuffs on the arms and minor signs of use.",
      "Furniture", "60", {})),
    (("Kids desk", "Good size desk for homework, there is a burn mark on the top from a candle.", "Furniture",
      "20", {"condition": "A-grade"}),
     ("Wardrobe", "Excellent condition apart from a small chip on one door.", "Furniture", "60", {})),
    (("Office chair mesh back", "Excellent condition. Gas lift does not work so it sinks slowly.", "Office",
      "35", {}),
     ("Coffee table, as new", "No scratches, no stains, nothing broken.", "Furniture", "60", {})),
    (("Record player, perfect working order", "Plays all speeds. The lid hinge has snapped off.", "Audio",
      "45", {}),
     ("Espresso machine, like new", "The outer box is torn but the machine is untouched.", "Kitchen", "60",
      {})),
])
def test_a_good_condition_claim_against_severe_damage_is_a_contradiction_but_wear_and_packaging_are_not(
        contradiction: Case, look_alike: Case):
    assert "condition-contradiction" in case_families(contradiction)
    assert "condition-contradiction" not in case_families(look_alike)


@pytest.mark.parametrize("hazard, look_alike", [
    (("Heat alarm, mains wired", "Works but the unit says replace by 2019 on the label.", "DIY", "8", {}),
     ("Smoke alarm, 10 year battery", "Sealed unit, replace by 2094 printed on the back, tested.", "DIY",
      "10", {})),
    (("Loft bed with desk under", "Sturdy pine; the safety rail on the top is missing, we lost it moving.",
      "Kids", "70", {}),
     ("Cassette deck Sony", "Tape deck is broken, for spares.", "Audio", "10", {})),
    (("Garden trailer", "The tow hitch safety catch is broken, otherwise rolls fine.", "Garden", "50", {}),
     ("Kids bike 16 inch", "Minor paint chips on the frame, brakes checked and working.", "Bikes", "40", {})),
    (("Mobility walker", "The brakes don't work on the left handle.", "Mobility", "25", {}),
     ("Soup maker, new, box damaged", "The carton got squashed in the van, the maker inside is unused.",
      "Kitchen", "40", {"condition": "new (box damaged)"})),
    (("Longboard 42 inch", "The deck is split through near the rear truck, rides ok on flat ground.",
      "Sports", "25", {}),
     ("Heat gun 1800W with nozzle set", "Two settings. Let it cool on its stand after use, it gets really "
      "hot.", "Tools", "15", {})),
    (("Carbon monoxide detector", "Expiry 2020 on the sticker, beeps now and then.", "Home", "5", {}),
     ("Video baby monitor", "Looked up the model on the recall list: not affected. Camera and parent unit.",
      "Baby", "30", {"model": "BM100"})),
])
def test_a_protective_purpose_with_damage_or_a_past_date_is_safety_critical_but_look_alikes_are_not(
        hazard: Case, look_alike: Case):
    assert "safety-critical" in case_families(hazard)
    assert "safety-critical" not in case_families(look_alike)


@pytest.mark.parametrize("claim, look_alike", [
    (("Qing dynasty celadon bowl", "Inherited, has a six character mark on the base.", "Antiques", "600", {}),
     ("Art Deco style table lamp", "Modern reproduction in the Art Deco style, new bulb.", "Lighting", "120",
      {})),
    (("Victorian mahogany chest of drawers", "Solid piece, lovely patina, collection only.", "Antiques",
      "450", {}),
     ("Victorian style door knocker", "New cast iron, black.", "DIY", "125", {})),
    (("Baltic amber pendant stone", "Natural Baltic amber, certificate not provided.", "Minerals", "45", {}),
     ("Meteorite slice 40g", "Comes with the dealer's certificate of authenticity and receipt.", "Minerals",
      "150", {})),
    (("Gas boiler manual and spares", "Kangxi period vase also in the lot, see photo.", "DIY", "40", {}),
     ("Gas boiler service record", "Annual check signed by the engineer, all fine.", "DIY", "5", {})),
    (("Ammonite fossil 12cm", "Polished ammonite from Madagascar, a big one.", "Minerals", "140", {}),
     ("Fossil Gen 6 smartwatch", "Works perfectly, charger included.", "Watches", "120", {})),
])
def test_an_attribution_or_natural_rarity_needs_evidence_but_styles_and_evidenced_items_do_not(
        claim: Case, look_alike: Case):
    assert "authenticity" in case_families(claim)
    assert "authenticity" not in case_families(look_alike)


@pytest.mark.parametrize("undocumented, look_alike", [
    (("Spur-thighed tortoise with setup", "Lovely temperament. CITES paperwork was never provided by the "
      "breeder.", "Pets", "150", {}),
     ("Tortoise table with UV lamp", "Tortoise came with Article 10 certificate which is included.", "Pets",
      "150", {})),
    (("Grey parrot and cage", "Talks a lot, I haven't got the Article 10 certificate.", "Pets", "600", {}),
     ("Office 2021 software", "Install disc, no licence key sticker, for reinstall only.", "Software", "10",
      {})),
])
def test_a_controlled_item_without_its_legal_document_is_regulated_but_other_missing_papers_are_not(
        undocumented: Case, look_alike: Case):
    assert "regulated" in case_families(undocumented)
    assert "regulated" not in case_families(look_alike)


def test_a_heap_named_by_where_it_came_from_is_too_incomplete_but_a_named_item_is_not():
    assert "too-incomplete" in families("Loft clear out bits", "all sorts, ask", "Other", "20")
    assert "too-incomplete" not in families("Loft ladder 3 section", "Aluminium loft ladder, fits 2.8m "
                                            "ceiling, complete with fixings.", "DIY", "40")
