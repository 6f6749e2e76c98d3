"""heuristic-v39: a count named by its attribute ("blades": "5") read in prose with describing words between
("3 reversible blades") or the name first ("plate 122"), and an attribute naming the item's own length
against a title length close enough to be the same measure stated twice. Every listing was written for
these tests (none is taken from a dataset); each shape has counterparts that must not be read as a
contradiction."""

import pytest

from core.listings.offline.numeric import FAMILY as NUMERIC
from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Ceiling fan with light", "Three speeds, 4 reversible oak blades, remote.", {"blades": "5"}),
        ("Herb planter tower", "Stackable, 12 planting pockets, drip tray.", {"pockets": "16"}),
        ("Shoe rack 4-tier, white", "Flat-packed once, all fixings.", {"tiers": "5"}),
        ("Enamel sign plate 12", "Original fixing holes.", {"plate": "14"}),
        ("Garden bench seats 3", "Teak, oiled every spring.", {"seats": "2"}),
    ],
)
def test_a_named_count_said_otherwise_in_prose_is_a_contradiction(title, description, attributes):
    assert NUMERIC in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # the same count, with words between or the name first
        ("Ceiling fan with light", "Three speeds, 5 reversible oak blades.", {"blades": "5"}),
        ("Garden bench seats 3", "Teak, oiled every spring.", {"seats": "3"}),
        # a share, a unit or a year between or after the number is not a count of the named thing
        ("Water bottles, 24 per carton", "Unopened.", {"cartons": "2"}),
        ("Rock tumbler with 3 lb barrels", "Belts replaced.", {"barrels": "1"}),
        ("Desk lamp", "A 1975 lamp bought new in 2023.", {"bought": "2023"}),
        # a measure after the name is a size, not a count
        ("Bench seats 120cm wide", "Teak.", {"seats": "3"}),
        # a few of them described, a share, and parts that add up
        ("Dining table and 4 chairs", "Solid oak, 2 chairs have small scuffs.", {"chairs": "4"}),
        ("Tomato tins", "Four packs of 6 tins, best before next year.", {"tins": "24"}),
        ("Knife set", "3 chef knives and 2 paring knives, all sharp.", {"knives": "5"}),
    ],
)
def test_an_agreeing_count_a_share_a_unit_or_a_year_is_not_a_contradiction(title, description, attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "attributes"),
    [
        ("Aerial silk 9 metres, red", {"length": "11 m"}),
        ("Telescopic ladder 4.4m", {"height": "3.2 m"}),
        ("Mantel clock 11.5cm, brass", {"height": "15 cm"}),
        ("Sofa 7ft, grey", {"length": "180 cm"}),
    ],
)
def test_the_items_own_length_said_otherwise_in_the_title_is_a_contradiction(title, attributes):
    assert NUMERIC in families(title, "Used, in good order.", "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "attributes"),
    [
        # the same length in another unit
        ("Aerial silk 9 metres, red", {"length": "900 cm"}),
        # far apart: another part of the item
        ("Aluminium staging board 3.6m", {"width": "450 mm"}),
        # a side of a size, an end of a range, a number before the word "in"
        ("Rug 120 x 170 cm", {"width": "150 cm"}),
        ("Adjustable stand 90-150cm", {"height": "120 cm"}),
        ("Steak knives set of 6 in a wooden box", {"length": "8 cm"}),
        # a name that is not the item's own length
        ("Bandsaw 300mm", {"depth of cut": "200 mm"}),
        # feet and inches are one length; a side named in the title; another attribute states the title's
        ("Sit-on-top kayak 9ft 6in", {"length": "290 cm"}),
        ("Fridge freezer 55cm wide", {"height": "85 cm"}),
        ("Round garden table 120cm", {"diameter": "120 cm", "height": "74 cm"}),
        # a screen's diagonal is not its width
        ('Smart TV 55"', {"width": "123 cm"}),
    ],
)
def test_a_length_that_agrees_or_measures_something_else_is_not_a_contradiction(title, attributes):
    assert NUMERIC not in families(title, "Used, in good order.", "Home", "40", **attributes)
