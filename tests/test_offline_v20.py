"""heuristic-v20: the rule shapes v34, v35 and v36 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Sex Pistols tour poster 1977", "Original, pinholes in the corners."),
        ("Retro console boxed", "Original power supply, model MK-1602-50, tested."),
        ("Handheld PC 256GB", "Removed my Steam account, factory reset."),
        ("Club replica home shirt 2004", "Worn, sponsor print cracked."),
        ("Autograph album, blank", "Leather cover, unused pages."),
    ],
)
def test_names_part_numbers_and_fan_kit_are_no_regulated_or_fake_goods(title, description):
    found = families(title, description, "Misc")
    assert "regulated" not in found and "authenticity" not in found


def test_a_year_in_the_title_is_no_count():
    assert "numeric-contradiction" not in families(
        "Euro 1996 enamel badges set", "Set of 8 badges, all clasps good.", "Collectables", quantity="8"
    )


def test_a_block_of_stamps_counted_differently():
    assert "numeric-contradiction" in families(
        "Definitives block of 6", "Mint strip of four.", "Stamps"
    )


@pytest.mark.parametrize(
    ("title", "description", "family"),
    [
        ("Vintage cartridges x5", "Display only, they are not deactivated.", "regulated"),
        ("Roman coins x3", "Detector finds, never reported them to the FLO.", "regulated"),
        ("Film prop £10 notes", "They pass the pen test at the shop.", "regulated"),
        ("Lucky charm", "My aunt's tumour shrank after a month of wearing it.", "medical-claim"),
        ("Party bits", "Left from the night.", "too-incomplete"),
    ],
)
def test_risks_named_in_other_words_go_to_a_person(title, description, family):
    assert family in families(title, description, "Misc")
