"""heuristic-v29 to v32 (v31's rules ship in v32): a measure is read unless its own range or a clause
about another item holds it (not any range or "fits" anywhere in its sentence), storage in words ("64 gig"),
a size ends at a unit ("4 x 4MP" is no size), and a feature the title claims that the rest of the listing
rules out (a colour printer that prints mono only, a battery doorbell that must be hardwired). Every listing
was written for these tests (none is taken from a dataset); each shape has counterparts that must not be read
as a contradiction, v30's from a review of v29 that found them flagged."""

import pytest

from core.listings.offline.features import FAMILY as FEATURE
from core.listings.offline.material import FAMILY as MATERIAL
from core.listings.offline.numeric import FAMILY as NUMERIC
from tests.builders import families


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
        ("Battery powered security camera", "Needs hardwiring to a 12V supply.", {}, FEATURE),
        ("Cordless hedge trimmer", "Mains only, 10m cable, sharp blades.", {}, FEATURE),
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


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # heuristic-v30: a range with a unit on each end, in capitals too
        ("Telescopic window pole", "Length 150cm - 210cm, locks at any point.", {"length": "150 cm"}),
        ("ADJUSTABLE DESK", "HEIGHT 70 TO 120 CM, MEMORY BUTTONS.", {"height": "70 cm"}),
        # a place named right after the measure is another thing's size
        ("Rug", "It sat in our 300 cm wide living room.", {"width": "160 cm"}),
        ("Bed frame double", "A 135 cm wide mattress fits with room to spare.", {"width": "150 cm"}),
        # a bracket right after a measure qualifies it
        ("Extending dining table 120 x 80 cm", "Opens to 160 x 80 cm (extended), seats 6.", {}),
        # "gig" played, a network port, a data plan
        ("Zoom H5 recorder with 32GB SD card", "Used for 4 gigs and a few rehearsals.", {}),
        ("Synology NAS 2x4TB", "Has a 2.5 gig ethernet port, fans quiet.", {}),
        ("iPhone 13 128GB unlocked", "Works fine on my 30 gig a month SIM.", {}),
    ],
)
def test_a_range_with_units_a_place_a_qualifier_or_a_gig_played_is_not_a_contradiction(title, description,
                                                                                        attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


def test_a_size_at_the_end_of_a_sentence_is_still_read():
    # heuristic-v30: v29's end of a size refused the full stop after its unit
    assert NUMERIC in families("Apex shed 8x6ft.", "Measured it: 6x4ft, base included.", "Garden", "40")


@pytest.mark.parametrize(
    ("title", "description"),
    [
        # heuristic-v30: another item, a habit or an accessory named elsewhere does not rule a title claim out
        ("Cordless drill 18V with 2 batteries", "Upgraded from my old corded drill, this one is great."),
        ("Ring Video Doorbell 3, battery powered", "Can be hardwired to your wiring or run on the battery."),
        ("Cordless hedge trimmer", "Mains powered charger included."),
        ("Lightning to USB-C adapter", "Plugs into a Lightning port iPhone."),
        ("iPhone 15 128GB, USB-C", "Comes with a Lightning cable adapter for my old car lead."),
        ("Lightning McQueen remote control car", "Rechargeable, USB-C port, goes fast."),
        ("Colour laser printer HP M479", "Light use, I printed black and white only."),
        ("Colour laser printer Brother", "Black only toner left, colours need replacing."),
        ("Region free DVD player", "Collection or postage to UK only."),
        ("Festival weekend ticket", "Only going Saturday but a day ticket was dearer anyway."),
        ("100% soy wax candle, lavender", "Burns cleaner than paraffin candles."),
        ("Round extending dining table", "Seats 4, or 6 as an oval with the leaf in."),
    ],
)
def test_a_title_claim_beside_another_items_words_is_not_a_contradiction(title, description):
    found = families(title, description, "Home", "40")
    assert FEATURE not in found and MATERIAL not in found


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # heuristic-v31: a list of specs is not a range; v29 and v30 read "5kg - 120cm" as one
        ("Arc floor lamp 150cm tall", "Specs: 5kg - 120cm tall - E27 bulb.", {"height": "150 cm"}),
        ("Pine wardrobe", "Solid, 2 doors - 120cm wide, hanging rail.", {"width": "90 cm"}),
        # storage as sellers write it: "gig" before a storage word, "cms" and "mtrs" on sizes
        ("microSD card 128GB", "Sandisk, the 64 gig version, used in a dashcam.", {}),
        # a SIM-free phone's storage is still its storage
        ("iPhone 13 128GB", "64GB SIM free, unlocked, battery 88%.", {}),
        ("Rug 160x230cm", "Wool rug, measures 160x200cms.", {}),
        ("Gazebo 3x3m", "Pop up gazebo, 3x4.5mtrs, sides included.", {}),
    ],
)
def test_a_list_of_specs_and_units_as_sellers_write_them_are_compared(title, description, attributes):
    assert NUMERIC in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # heuristic-v31: a range to a second end, in words
        ("Electric standing desk", "Height: 70cm up to 120cm, memory presets.", {"height": "120 cm"}),
        ("Telescopic ladder", "Length 1.2m closed - extends up to 3.8m.", {"length": "3.8 m"}),
        # a former state or the packed size after a comma
        ("Oak worktop offcut", "Oak worktop 3m long, cut down to fit my kitchen.", {"length": "2.4 m"}),
        ("Coffee table 120 x 60 x 45cm", "Never assembled. 125 x 62 x 12cm, when boxed.", {}),
        # a gig played, a gig bag, a network card, a graphics card's maker, a SIM's data
        ("Zoom H6 recorder with 32GB SD card", "Used at 1 gig only, mint.", {}),
        ("Yamaha keyboard with 8GB USB stick", "Comes with 1 gig bag and the stand.", {}),
        ("Synology DS920+ 4x4TB", "Added a 10 gig NIC last year.", {}),
        ("Gaming PC 1TB SSD", "RTX 3060 Gigabyte Eagle OC, 16GB RAM.", {}),
        ("iPhone 13 128GB", "Comes with a SIM that has 5 gig of data left.", {}),
    ],
)
def test_ranges_in_words_former_states_and_other_gigs_are_not_contradictions(title, description, attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description"),
    [
        # heuristic-v31: another item or a comparison in the clause before the ruling-out words
        ("Colour laser printer", "Replaces my old mono laser, prints fine."),
        ("Cordless hoover", "Far better than one that needs hardwiring."),
        ("Region free Blu-ray player", "Unlike the 3DS which was region locked, plays anything."),
        ("100% soy wax candle", "Cleaner than any soy-paraffin blend."),
        # a part of the item, a cost, a setting
        ("Colour laser printer", "The mono toner only has 20% left."),
        ("Colour laser printer", "Mono printing only costs 1p a page."),
        ("Cordless phone twin set", "Base station is mains only, handsets charge on it."),
        ("Cordless drill 18V", "The charger is corded only, UK plug."),
        ("Region free DVD player", "Set to UK region out of the box, code in the manual."),
        ("100% soy wax candle", "My own soy blend of lavender and cedar oils."),
        # cables and adapters name both ports
        ("USB C - Lightning cable 2m", "Lightning connector end, braided."),
    ],
)
def test_another_item_a_part_or_a_setting_does_not_rule_a_title_claim_out(title, description):
    found = families(title, description, "Home", "40")
    assert FEATURE not in found and MATERIAL not in found

