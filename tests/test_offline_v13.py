"""heuristic-v13: the rule shapes v14 and v15 showed the rules got wrong, each with a sentence written for
these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

from decimal import Decimal

import pytest

from core.listings.draft import ListingDraft
from core.listings.offline.listing import prepare
from core.listings.offline.reviewer import rule_families


def families(title: str, description: str, category: str, **attributes: str) -> tuple[str, ...]:
    return rule_families(ListingDraft(title, description, category, Decimal("25"), attributes))


@pytest.mark.parametrize(("title", "attributes"), [
    ("Soup pot 2,5 L", {"capacity": "2.5 L"}),  # a decimal comma
    ("Horse trailer, plated 1,800 kg", {"gross weight": "1800 kg"}),  # thousands
])
def test_a_number_written_with_a_comma_is_read_whole(title, attributes):
    assert "numeric-contradiction" not in families(title, "Clean, collection only.", "Home", **attributes)


def test_a_comma_number_that_really_differs_is_still_a_contradiction():
    assert "numeric-contradiction" in families("Soup pot 2,5 L", "Clean, collection only.", "Home",
                                               capacity="5 L")


def test_a_size_written_w_x_d_x_h_is_not_a_count():
    assert "numeric-contradiction" not in families(
        "Pair of bedside tables", "Each one W 45 x D 38 x H 60 cm, solid pine.", "Furniture", quantity="2")


@pytest.mark.parametrize(("title", "description"), [
    ("Trottinette électrique 36V", "La batterie est gonflée et chauffe à la charge."),
    ("Silla de coche grupo 1", "Tuvo un accidente leve, la base está agrietada."),
    ("Kinderwagen mit Wanne", "Die Bremse ist kaputt, sonst gut."),
])
def test_a_defect_on_a_safety_product_is_found_in_another_language(title, description):
    assert "safety-critical" in families(title, description, "Other", colour="black")


@pytest.mark.parametrize(("title", "description"), [
    ("Trottinette électrique 36V", "Très bon état, batterie neuve, jamais tombée."),
    ("Silla de coche grupo 1", "Sin golpes ni grietas, con manual."),
])
def test_a_foreign_denial_still_denies(title, description):
    assert "safety-critical" not in families(title, description, "Other", colour="black")


def test_glossary_words_become_english_and_english_words_are_left_alone():
    listing = prepare(ListingDraft("Bague en argent massif", "Sans poinçon, jamais portée.", "Bijoux",
                                   Decimal("40"), {}))
    assert listing.title == "ring en solid silver"
    assert listing.description == "without hallmark, never worn."
    english = "Set of 6 pieces for use with a pan, one veritable scotch glass"
    assert prepare(ListingDraft(english, english, "Home", Decimal("5"), {})).title == english


def test_injectables_a_clinic_holds_on_prescription_go_to_a_person():
    assert "regulated" in families("Lidocaine cartridges x 50", "Unopened, in date.", "Health", expiry="2029")
    assert "regulated" not in families("Anaesthetic gel for teething? No: a rubber teether", "Washed.",
                                       "Baby", colour="blue")


def test_a_chemical_without_its_label_goes_to_a_person():
    assert "regulated" in families("Pool chlorine tablets", "About 3 kg left.", "Garden",
                                   containers="decanted into a plain tub")
    assert "regulated" not in families("Pool chlorine tablets", "About 3 kg left, original tub.", "Garden",
                                       containers="original tub with label")


def test_a_speed_limiter_removed_on_an_e_bike_goes_to_a_person():
    assert "regulated" in families("E-bike 250W", "Speed limiter removed, does 40 km/h.", "Bikes",
                                   motor="250W")


@pytest.mark.parametrize("description", [
    "Dried out after the flood, motors turn.",
    "The lid interlock no longer engages, so it spins with the lid up.",
    "Inspection tag expired 2019, lifts fine.",
])
def test_flood_damage_a_failed_interlock_or_an_expired_inspection_tag_is_a_hazard(description):
    assert "safety-critical" in families("Mobility powerchair / bench centrifuge / patient hoist",
                                         description, "Mobility", colour="grey")


def test_a_bent_whisk_is_no_food_hazard_but_a_cracked_bowl_is():
    bent = families("Stand mixer 5L", "Whisk has one bent wire, bowl perfect.", "Kitchen", brand="Acme")
    cracked = families("Stand mixer 5L", "The bowl is cracked near the rim.", "Kitchen", brand="Acme")
    assert "safety-critical" not in bent
    assert "safety-critical" in cracked


def test_a_condition_claimed_halted_is_a_medical_claim():
    assert "medical-claim" in families("Hydrogen water jug", "It stopped my mother's arthritis getting "
                                       "worse.", "Health", capacity="1 L")


def test_missing_papers_stated_as_an_attribute_count_on_a_luxury_item():
    draft = ListingDraft("Rolex Oyster Perpetual", "Runs well, kept in a drawer.", "Watches", Decimal("4500"),
                         {"papers": "no", "box": "no"})
    assert "authenticity" in rule_families(draft)


def test_hallmarks_named_as_rubbed_are_no_evidence():
    assert "authenticity" in families("Solid silver tankard", "Heavy. The hallmarks are rubbed.", "Antiques",
                                      height="12 cm")


def test_the_contents_of_a_lock_up_name_nothing():
    assert "too-incomplete" in families("Contents of unit 12", "all must go", "Business")
