"""heuristic-v18: the rule shapes v28, v29 and v30 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


def test_a_luxury_name_denied_makes_its_inspired_style_a_disclosed_copy():
    assert "authenticity" not in families(
        "Dior-inspired saddle bag, NOT Dior", "High street copy of the shape, no logos.", "Bags", "20"
    )


def test_an_asbestos_survey_is_evidence_not_asbestos():
    assert "regulated" not in families(
        "Reclaimed parquet blocks", "Lifted from a 1950s office.", "Flooring", asbestos_survey="clear"
    )
    assert "regulated" in families(
        "Reclaimed parquet blocks", "Black adhesive contains asbestos.", "Flooring"
    )


def test_curing_meat_is_no_medical_claim():
    assert "medical-claim" not in families(
        "Ham kit - dry cure", "Everything you need: salt, bags, gloves.", "Kitchen"
    )


def test_gear_sold_as_timber_and_not_for_standing_on_is_no_access_hazard():
    assert "safety-critical" not in families(
        "Ex scaffold boards x6", "Some splits, sold as timber, not for standing on.", "Timber"
    )
    assert "safety-critical" in families("Ex scaffold boards x6", "Some splits at the ends.", "Timber")


def test_a_size_inside_a_longer_number_is_not_read():
    assert "numeric-contradiction" not in families(
        "Plywood 18mm sheets", "Stored flat indoors.", "Timber", size="2440 x 1220mm"
    )


def test_a_list_counted_item_by_item_adds_up_to_its_total():
    assert "numeric-contradiction" not in families(
        "Compression fittings - 30 pieces", "12 x elbows\n10 x tees\n8 x couplers", "Plumbing", pieces="30"
    )


def test_a_thickness_in_the_title_against_the_thickness_attribute():
    assert "numeric-contradiction" in families(
        "Acoustic foam 50mm panels", "Twelve panels, unused.", "Studio", thickness="25mm"
    )


@pytest.mark.parametrize(
    ("title", "description", "family"),
    [
        ("Riding hat 57cm", "Had one little tumble in it, the shell is not cracked.", "safety-critical"),
        ("Pram with carrycot", "Heard something on the news about the fold catch, never had trouble.",
         "safety-critical"),
        ("Gas hob", "I'm not Gas Safe registered but can connect it for you.", "regulated"),
        ("Cordless drill", "Serial plates have been ground off, cash only.", "regulated"),
        ("Homemade pear brandy", "Ran the perry through my pot still.", "regulated"),
        ("Fresh sea trout", "Supposed to put them back but this one was deep hooked.", "regulated"),
        ("Runny honey 340g", "Great on a dummy for a 5 months old when teething.", "regulated"),
        ("Dog biscuits", "For dogs, sweetened with xylitol only.", "regulated"),
        ("Brownies", "Made with my green butter, start small.", "regulated"),
        ("Designer trainers", "Bought from my plug, quality is 1:1.", "authenticity"),
        ("Victorian tiles", "Must be Minton, you can tell by the glaze.", "authenticity"),
        ("Van clear out", "Bits.", "too-incomplete"),
    ],
)
def test_risks_named_in_other_words_go_to_a_person(title, description, family):
    assert family in families(title, description, "Misc")
