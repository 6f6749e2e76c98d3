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
    ],
)
def test_the_same_size_or_a_year_that_is_not_the_items_is_not_a_contradiction(title, description, attributes):
    assert NUMERIC not in families(title, description, "Sports", "60", **attributes)


def test_the_finding_names_the_two_places_and_the_years():
    draft = ListingDraft("2020 Yamaha P-125 piano", "I bought it new in 2014.", "Music", Decimal(300), {})
    issues = review_by_rules(draft).issues
    assert any('"2020" versus "2014"' in issue and "bought new in" in issue for issue in issues)
