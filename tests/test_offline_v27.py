"""heuristic-v27: an attribute that states one number in its unit ("capacity: 85Ah", "channels: 4") against
the title's and the description's numbers in that unit. Every listing was written for these tests (none is
taken from a dataset); each shape has a counterpart that must not be read as a contradiction."""

from decimal import Decimal

import pytest

from core.listings.draft import ListingDraft
from core.listings.offline.numeric import FAMILY as NUMERIC
from core.listings.offline.reviewer import review_by_rules
from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Leisure battery 110Ah AGM", "Used for two seasons on the caravan.", {"capacity": "85Ah"}),
        ("16 channel NVR recorder", "Reset to factory, HDMI out.", {"channels": "8"}),
        ("3 drawer filing cabinet", "Keys included, runners smooth.", {"drawers": "4"}),
        ("Garden hose reel, 30 m", "Wall bracket. Comes with 15 m of hose.", {"hose length": "30 m"}),
        ("Petrol mower", "Self propelled, 16 inch cutting deck, mulching plug.", {"cutting width": "46 cm"}),
        ("EV charging cable Type 2", "Kept in the boot bag, 16A single phase.", {"current": "32A"}),
    ],
)
def test_an_attribute_the_title_or_description_states_otherwise_is_a_contradiction(title, description,
                                                                                    attributes):
    assert NUMERIC in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # the same value, in another length unit within rounding
        ("Petrol mower", "Self propelled, 18 inch cutting deck.", {"cutting width": "46 cm"}),
        # a general unit measures many parts: a blade is not the depth of cut
        ("Mitre saw 305mm blade", "Laser works, clamp included.", {"depth of cut": "90 mm"}),
        # a share, a reading or a limit is not what the title counts or rates
        ("Cable ties, 20 bags", "Black, UV resistant.", {"per bag": "100"}),
        ("Leisure battery 100Ah", "Capacity tested last week.", {"tested capacity": "92Ah"}),
        ("Air compressor 24 litre", "Runs at 8.5 bar for the spray gun.", {"max pressure": "8 bar"}),
        # the upper end of a range, a fraction, a decade and the next item are not values of this one
        ("Rollator", "Seat height 55 cm, for user height 150-190 cm.", {"seat height": "55 cm"}),
        ("Mortiser", "1/4, 3/8 and 1/2 chisels included.", {"chisels": "4"}),
        ("80s denim jacket", "Classic fit, good condition.", {"era": "1980s"}),
        ("Lithium battery 100Ah", "Selling as I upgraded to 200Ah.", {"capacity": "100Ah"}),
        # a number the name does not stand beside, and a name in another phrase
        ("Trekking bike", "28 inch wheels, aluminium frame. Rack and lights.", {"frame": "52 cm"}),
    ],
)
def test_the_same_value_another_part_a_share_a_range_or_another_item_are_no_contradiction(title, description,
                                                                                           attributes):
    assert NUMERIC not in families(title, description, "Home", "40", **attributes)


def test_the_issue_names_each_place_and_the_values_it_states():
    review = review_by_rules(ListingDraft("16 channel NVR recorder", "Reset to factory.", "Security",
                                         Decimal("60"), {"channels": "8"}))
    issue = next(issue for issue in review.issues if "Numeric contradiction" in issue)
    assert "16 channel" in issue and "channels attribute: 8" in issue
    assert review.requires_human_review

