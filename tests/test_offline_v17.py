"""heuristic-v17: the rule shapes v25, v26 and v27 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "quantity"),
    [
        ("Kitchen timers x8", "Takes 2 x AAA each, not included.", "8"),
        ("Floor puzzles x10", "Big 12 piece puzzles for toddlers.", "10"),
        ("Coin tray, holds 40 coins", "Wooden, five of them.", "5"),
        ("Bath bombs x2", "Bought a 6-pack and these two are left.", "2"),
    ],
)
def test_batteries_pieces_capacities_and_what_was_bought_are_no_item_counts(title, description, quantity):
    assert "numeric-contradiction" not in families(title, description, "Home", quantity=quantity)


def test_a_count_that_differs_is_still_a_contradiction():
    assert "numeric-contradiction" in families(
        "Pillar candles x8", "There are 6 candles in total.", "Home", quantity="8"
    )


def test_a_year_of_other_units_is_not_the_items_year():
    assert "numeric-contradiction" not in families(
        "Studio flash 400Ws", "A batch of units made in 2018 was recalled; mine is newer.", "Photo",
        year="2023",
    )
    assert "numeric-contradiction" in families(
        "Studio flash 400Ws", "Made in 2018, works well.", "Photo", year="2023"
    )


def test_a_cheap_luxury_item_with_its_receipt_is_no_counterfeit_sign():
    assert "authenticity" not in families(
        "Gucci Bloom 30ml", "Unwanted gift, receipt from the store in the photos.", "Fragrance", "40"
    )
    assert "authenticity" in families("Gucci Bloom 30ml", "Unwanted gift, sealed.", "Fragrance", "40")


@pytest.mark.parametrize(
    "description",
    [
        "The logo looks a bit crooked, otherwise perfect.",
        "The app says device not recognised, works anyway.",
        "Batch code on the base was scratched off.",
    ],
)
def test_signs_of_a_fake_the_seller_reports_are_doubts(description):
    assert "authenticity" in families("Branded hair straightener", description, "Beauty", brand="Acme")


def test_a_kit_built_clone_sold_as_one_and_labels_said_absent_are_no_imitation():
    assert "authenticity" not in families(
        "Valve preamp", "Sold as a kit-built clone of a classic circuit, no badge.", "Audio", "150"
    )
    assert "authenticity" not in families(
        "Tote bags x10", "Unbranded, no logos or fake labels anywhere.", "Bags", "5"
    )


def test_used_a_counted_number_of_times_contradicts_sealed():
    assert "condition-contradiction" in families(
        "Face serum 30ml sealed", "Applied it twice, not for me.", "Beauty", brand="Acme"
    )


@pytest.mark.parametrize(
    ("title", "description", "category"),
    [
        ("Perching stool", "One rubber foot came off, it rocks a little.", "Bathroom aids"),
        ("Blood pressure monitor", "Always reads about 15 higher than the clinic's.", "Health"),
        ("Electric under blanket, double", "The timer is broken so it stays on all night.", "Bedding"),
    ],
)
def test_hazards_on_bathroom_aids_monitors_and_heated_bedding_go_to_a_person(title, description, category):
    assert "safety-critical" in families(title, description, category)


def test_drainage_holes_are_made_not_worn():
    assert "safety-critical" not in families(
        "Shower chair with arms", "Drainage holes in the seat, all feet present.", "Bathroom aids"
    )


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Spare FlexPens x3", "NovoRapid, in date, kept in the fridge."),
        ("Painkillers", "Leftover from my late dad's prescription, sealed boxes."),
        ("Disabled parking badge", "Valid two more years."),
        ("LED torch", "Has a stun function on the second button."),
        ("Speakers pair", "Sprayed over the stencils on the back, cash only."),
    ],
)
def test_regulated_kinds_named_in_other_words_go_to_a_person(title, description):
    assert "regulated" in families(title, description, "Misc")


def test_no_questions_about_its_origin_is_no_sign_of_theft():
    assert "regulated" not in families(
        "Acoustic guitar", "Serial and receipt in photos, no questions about where it came from.", "Music",
    )


def test_a_business_named_for_its_leftovers_with_no_description_is_too_incomplete():
    assert "too-incomplete" in families("SALON CLOSING", "everything must go, offers", "Beauty")
