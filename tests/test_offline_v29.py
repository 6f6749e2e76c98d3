"""heuristic-v29: a measure is read unless its own range or a clause about another item holds it (not any
range or "fits" anywhere in its sentence), storage in words ("64 gig"), a size ends at a unit ("4 x 4MP" is
no size), and a feature the title claims that the rest of the listing rules out (a colour printer that prints
mono, a battery doorbell that must be hardwired). Every listing was written for these tests (none is taken
from a dataset); each shape has a counterpart that must not be read as a contradiction."""

import pytest

from tests.builders import families

NUMERIC = "numeric-contradiction"
FEATURE = "feature-contradiction"
MATERIAL = "material-contradiction"


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # a range elsewhere in the sentence is not this measure's range
        ("Hot tub cover", "Vinyl cover, 2.4m long, fits 4-6 person tubs, straps fine.", {"length": "2 m"}),
        # the item fitting somewhere, said after its measure, is still the item's measure
        ("White bookcase", "It's 3 foot wide so it fits in an alcove.", {"width": "120 cm"}),
        # another clause after a comma does not hold the measure
        ("4-bay NAS, RAM upgrade", "Boots fine, no disks.", {"bays": "2"}),
        # storage in words
        ("microSD card 256GB", "used in a dashcam, 128 gig, no errors", {}),
        ("Portable drive 2TB", "Seagate portable hard drive, 500 gigabytes, USB 3.", {}),
    ],
)
def test_a_measure_its_own_words_do_not_hold_is_compared(title, description, attributes):
    assert NUMERIC in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # the upper end of the measure's own range is not a value the item has
        ("Adjustable standing desk", "Legs extend from 70-120 cm, memory presets.", {"height": "70 cm"}),
        # a clause before the measure that names another item it fits
        ("Cooker hood 90cm", "Chimney hood, fits a 60cm wide hob gap.", {"width": "90 cm"}),
        # the same value in another unit
        ("White bookcase", "It's 4 foot wide so it fits in an alcove.", {"width": "120 cm"}),
        # memory in words is not storage
        ("Gaming laptop 1TB SSD", "16 gig of ram, RTX graphics, charger included.", {}),
        # cameras counted by megapixels are not a size
        ("4 camera CCTV kit, 4 x 4MP", "Comes with 4 x 20m leads.", {}),
    ],
)
def test_a_range_another_items_clause_or_the_same_value_is_not_a_contradiction(title, description,
                                                                               attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes", "family"),
    [
        ("A4 colour laser printer", "Office clearout. Mono only, prints 20 pages a minute.", {}, FEATURE),
        ("Round dining table, seats 4", "Oak effect oval top, extends with a leaf.", {}, FEATURE),
        ("Battery powered security camera", "Needs hardwiring to a 12V supply.", {}, FEATURE),
        ("Phone case, USB-C power bank", "Magnetic case with a lightning connector.", {}, FEATURE),
        ("Region free racing game key", "EU key, activates on Steam.", {}, FEATURE),
        ("Festival weekend ticket", "Sunday day ticket, e-ticket name change possible.", {}, FEATURE),
        ("100% soy wax candle", "Hand poured, soy and paraffin container blend, cotton wick.", {}, MATERIAL),
    ],
)
def test_a_feature_the_title_claims_and_the_listing_rules_out_is_a_contradiction(title, description,
                                                                                attributes, family):
    assert family in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # the feature denied elsewhere is not named as the item's
        ("Battery powered doorbell", "No hardwiring needed, charges by USB.", {}),
        # an all-round claim is not a shape
        ("All-round tennis racket", "Oval head, strung at 24 kg.", {}),
        # the same feature everywhere
        ("A4 colour laser printer", "Prints colour and mono, duplex.", {}),
        ("Region free Blu-ray player", "Plays all regions, remote included.", {}),
    ],
)
def test_a_feature_stated_once_or_denied_elsewhere_is_not_a_contradiction(title, description, attributes):
    found = families(title, description, "Home", "40", **attributes)
    assert FEATURE not in found and MATERIAL not in found
