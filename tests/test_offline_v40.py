"""heuristic-v40: an attribute and the title give the same label different numbers ("UK 14" against "UK 10",
"Grade 2" against "Grade 3", "A5" against "A4"). Every listing was written for these tests (none is taken from
a dataset); each shape has counterparts that must not be read as a contradiction."""

import pytest

from core.listings.offline.numeric import FAMILY as NUMERIC
from tests.builders import families


@pytest.mark.parametrize(
    ("title", "attributes"),
    [
        ("Linen midi dress UK 10, sage", {"size": "UK 14"}),
        ("Grade 3 piano exam book, unmarked", {"level": "Grade 2"}),
        ("Spiral notebooks A5, pack of 3", {"paper size": "A4"}),
        ("Paint tin Forest No.41 matt 2.5L", {"colour": "Forest No. 17"}),
        ("Pressure washer K7 with patio cleaner", {"model": "K3 Full Control"}),
    ],
)
def test_a_label_with_another_number_in_the_title_is_a_contradiction(title, attributes):
    assert NUMERIC in families(title, "Used a few times, works well.", "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "attributes"),
    [
        # the same number, a range holding it, or a whole number and its decimals
        ("Linen midi dress UK 10, sage", {"size": "UK 10"}),
        ("Wrap top UK 8-10", {"size": "UK 10"}),
        ("Smart charger v3 22kW", {"model": "v3.1"}),
        # a fraction after the number: the same plane written two ways
        ("Jack plane No. 4 1/2, restored", {"model": "No. 4 1/2"}),
        # a unit, a count or a price after the label is not a number on the label's scale
        ("Trolley jack 2 tonne, lift 380 mm", {"saddle height": "lift 90 mm to 380 mm"}),
        ("Kids books set 10", {"condition": "set 8 of 10 present"}),
        # an attribute naming what the item fits, or things counted with it, names other things
        ("Phone case for iPhone 14", {"compatible with": "iPhone 13, iPhone 14"}),
        ("Laminator A3 with pouches", {"pouches": "100 x A4"}),
        # a label only one place uses
        ("Road bike 56cm frame", {"gears": "Shimano 105"}),
    ],
)
def test_an_agreeing_label_a_unit_or_another_things_attribute_is_not_a_contradiction(title, attributes):
    assert NUMERIC not in families(title, "Used a few times, works well.", "Home", "40", **attributes)
