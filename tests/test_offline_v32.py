"""heuristic-v32: counts of things each of a stated weight or volume ("10 x 100g balls"), an attribute named
for what is counted ("packs": "18"), a weekend ticket with a word between ("weekend arena ticket"), and a
cordless item that is mains only, unless a part of it is (a base station, a charger). Every listing was
written for these tests (none is taken from a dataset); each shape has counterparts that must not be read as
a contradiction."""

import pytest

from core.listings.offline.features import FAMILY as FEATURE
from core.listings.offline.numeric import FAMILY as NUMERIC
from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Chunky wool 10 x 100g balls", "Same dye lot, smoke free home.", {"quantity": "6 balls"}),
        ("4 x 2.5kg cast iron weight plates", "Standard 1 inch hole, a bit of rust.", {"qty": "2"}),
        ("Trading card booster box 36 packs", "Sealed, stored out of the sun.", {"packs": "18"}),
        ("Lot of 50 football cards", "Mostly 2019 season.", {"cards": "30"}),
    ],
)
def test_counts_of_measured_things_and_counted_attributes_are_compared(title, description, attributes):
    assert NUMERIC in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # the parts of a kit, each counted, add up to the title's count
        ("Fire extinguishers x4", "Office kit: 2 x 2kg CO2 and 2 x 6 litre foam, serviced.", {}),
        # a size is not a count, and a count of the same things agrees
        ("Desk 120 x 60 cm", "Oak top, steel legs.", {"quantity": "1"}),
        ("Cola 24 x 330ml cans", "Best before next year.", {"cans": "24"}),
        # batteries are a part of the item, not what is sold
        ("Cordless drill set 3 pieces", "Drill, driver and case.", {"batteries": "2"}),
    ],
)
def test_a_kit_of_measured_parts_a_size_or_a_part_count_is_not_a_contradiction(title, description,
                                                                              attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Festival weekend arena ticket", "Can't go any more, official name change.",
         {"ticket type": "Sunday day ticket"}),
        ("Cordless hedge trimmer", "Corded only, 10m cable, blades sharp.", {}),
    ],
)
def test_a_weekend_day_ticket_and_a_corded_cordless_tool_are_contradictions(title, description,
                                                                          attributes):
    assert FEATURE in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Cordless phone twin set", "The base station is mains only, handsets charge on it."),
        ("Cordless drill 18V", "The charger is corded only, UK plug."),
        ("Cordless vacuum", "Docking station is mains only, wall bracket included."),
        ("Festival weekend camping ticket", "Full weekend, all three days."),
    ],
)
def test_a_part_that_is_mains_only_or_a_whole_weekend_is_not_a_contradiction(title, description):
    assert FEATURE not in families(title, description, "Home", "40")
