"""heuristic-v35: an item bought new before the year the listing dates it to, and a letter size in the title
against a size attribute that is one other letter size. Every listing was written for these tests (none is
taken from a dataset); each shape has counterparts that must not be read as a contradiction."""

from decimal import Decimal

import pytest

from core.listings.draft import ListingDraft
from core.listings.offline.numeric import FAMILY as NUMERIC
from core.listings.offline.reviewer import review_by_rules
from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("2020 Yamaha P-125 digital piano", "I bought it new in 2014, weighted keys all work.", {}),
        ("Espresso machine, nearly new", "Bought this brand new back in 2009.", {"year": "2021"}),
        ("Hiking jacket size M", "Worn on two trips.", {"size": "XL"}),
        ("Women's S running tights", "Reflective trims.", {"size": "Large"}),
        ("Paddock jacket XXL", "Warm and dry.", {"size": "s"}),
        ("Ski helmet size small", "One season.", {"size": "L (59-61cm)"}),
    ],
)
def test_a_purchase_before_the_items_year_or_another_letter_size_is_a_contradiction(title, description,
                                                                                     attributes):
    assert NUMERIC in families(title, description, "Sports", "60", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # bought new in the item's year or later, another item bought new, a year the item is valid until,
        # a year that dates work done on it
        ("2019 Toyota Yaris hybrid", "Bought it new in 2019 from the dealer.", {}),
        ("2015 Brompton M6L", "I bought it new in 2016 as an ex-display bike.", {}),
        ("2018 Honda Jazz", "I had one new in 2008 and loved it, so bought this one.", {}),
        ("Race seat, FIA valid until 2028", "Bought it new in 2023, no cracks.", {}),
        ("Rolex Datejust serviced 2024", "Bought it new in 1999, papers and box.", {}),
        ("Kayak roof bars for 2019+ Rav4", "Bought them new in 2018 for my old car.", {}),
        # the same letter size written another way, a size range, a product name, sizes not by letter
        ("Barbour jacket size M", "Waxed in spring.", {"size": "M (38-40in chest)"}),
        ("Men's Large fleece", "Warm.", {"size": "L"}),
        ("Mens L/XL hoodie", "Oversized fit.", {"size": "L"}),
        ("Ladies size S/M leggings", "Squat proof.", {"size": "M"}),
        ("Cycling jersey size XS-S", "Race fit.", {"size": "S"}),
        ("Google Pixel 3 XL 64GB", "Screen perfect.", {"size": "6.3 inch"}),
        ("Twin XL mattress topper", "Memory foam.", {"size": "L"}),
        ("Motorbike helmet size M", "Never dropped.", {"size": "57-58cm"}),
        ("XL dog bed", "Washable cover.", {"size": "XL"}),
        # from a review of the draft checks (invented listings): a model year sold the year before, a year
        # of an event, a service, a warranty, another item or a mileage; brands and product names with a
        # size letter in them, children's sizes, another item's size in a bundle
        ("2021 Toyota Tacoma TRD Off-Road", "Bought it new in 2020 from the dealer, one owner.", {}),
        ("Thule roof box, used on my 2018 Volvo XC60", "I bought it new in 2011, on three cars since.", {}),
        ("Vango tent, used at Glastonbury 2023", "Bought it new in 2018, no rips or holes.", {}),
        ("Rolex Submariner, serviced Jan 2024", "I bought it new in 1999, box and papers.", {}),
        ("Fridge freezer, warranty ends 2026", "Bought it new in 2021, moving house.", {}),
        ("2020 iPad Pro with Pencil", "The pencil is older, I bought them new in 2018.", {}),
        ("Honda CBR600F, only 2030 miles", "Bought it new in 2008, garaged all its life.", {}),
        ("Men's M&S lambswool jumper", "No bobbling.", {"size": "L"}),
        ("Men's L.L.Bean fleece jacket", "Barely worn.", {"size": "M"}),
        ("Men's S-Works Evade road helmet", "Never crashed.", {"size": "M"}),
        ("Women's medium rise skinny jeans", "Dark wash.", {"size": "XS"}),
        ("Compact size L-shaped corner desk", "Easy to flatpack.", {"size": "Small"}),
        ("Dog harness for XL Bully, padded", "Adjustable chest strap.", {"size": "L"}),
        ("Harley Davidson Sportster XL 883 jacket", "Official HD jacket.", {"size": "M"}),
        ("Ninja Foodi Dual Zone XL air fryer", "All baskets included.", {"size": "Large (9.5L)"}),
        ("Nike football shirt youth XL (fits adult S)", "Home kit.", {"size": "S (adult)"}),
        ("Mountain bike + free men's XL jersey", "Hydraulic brakes.", {"frame size": "M"}),
        ("Orthopaedic dog bed XL", "Suits a labrador.", {"dog size": "Large"}),
    ],
)
def test_the_same_size_or_a_year_that_is_not_the_items_is_not_a_contradiction(title, description, attributes):
    assert NUMERIC not in families(title, description, "Sports", "60", **attributes)


def test_the_finding_names_the_two_places_and_the_years():
    draft = ListingDraft("2020 Yamaha P-125 piano", "I bought it new in 2014.", "Music", Decimal(300), {})
    issues = review_by_rules(draft).issues
    assert any('"2020" versus "2014"' in issue and "bought new in" in issue for issue in issues)
