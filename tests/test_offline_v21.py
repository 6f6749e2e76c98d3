"""heuristic-v21: the rule shapes v37, v38 and v39 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "family"),
    [
        ("Car GPS blocker", "Plugs into the lighter socket, nobody can track the van.", "regulated"),
        ("Bear spray", "Unused can from a hiking trip in Alberta.", "regulated"),
        ("Unlock service", "We can change the IMEI on most handsets, quick turnaround.", "regulated"),
        ("Tablet for your partner", "Secret monitoring app on it so you can read his messages.", "regulated"),
        ("Herbal tea blend", "A cup a day detoxes the liver, 40 bags.", "medical-claim"),
        ("Party tablets", "Take two before going out and you won't get a hangover.", "medical-claim"),
    ],
)
def test_regulated_goods_and_health_claims_by_other_names(title, description, family):
    assert family in families(title, description, "Misc")


def test_the_upholstery_fire_test_is_no_tobacco():
    found = families("Armchair, re-covered", "New fabric passes the cigarette and match test.", "Furniture")
    assert "regulated" not in found


def test_a_smartwatchs_silver_is_a_colour_and_a_watchs_silver_a_claim():
    assert "authenticity" not in families("Galaxy Watch 5 silver 44mm", "Works, two straps.", "Wearables",
                                          price="90")
    assert "authenticity" in families("Ladies silver watch", "Lovely little watch.", "Jewellery", price="90")


@pytest.mark.parametrize(
    ("title", "description", "price"),
    [
        ("Egg chair replica", "Not Fritz Hansen, a good replica in grey wool.", "300"),
        ("Lounge chair (replica)", "Bought as a replica, we make no claim it is the designer one.", "300"),
        ("Cartier-style bangle", "Reproduction in plated brass, lovely weight.", "25"),
    ],
)
def test_a_copy_said_to_be_one_claims_no_brand(title, description, price):
    assert "authenticity" not in families(title, description, "Home", price=price)


def test_branded_goods_claimed_original_in_bulk_need_proof():
    title, description = "Samsung 45W chargers", "Original Samsung chargers, white box, trade welcome."
    assert "authenticity" in families(title, description, "Phone Accessories", price="6")
    assert "authenticity" not in families(title, description + " Invoice from the distributor.",
                                          "Phone Accessories", price="6")


def test_a_repair_a_professional_tested_is_no_home_repair():
    lamp = "Vintage desk lamp"
    assert "safety-critical" not in families(lamp, "Rewired, PAT tested last month.", "Lighting", "60")
    assert "safety-critical" in families(lamp, "Rewired it myself, new flex.", "Lighting", "60")


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Standing lamp", "The switch near the base gets rather warm after a while."),
        ("Old valve radio", "Lovely sound, the plug crackles when you move the flex."),
        ("Extension reel 25m", "The cable was cut so I joined it with a chocolate block, works fine."),
        ("Glass shelving unit", "Tempered glass shelves, one has a small chip on the edge."),
    ],
)
def test_electrics_that_heat_or_crackle_and_chipped_toughened_glass_are_unsafe(title, description):
    assert "safety-critical" in families(title, description, "Home", price="30")


def test_a_chipped_glass_screen_protector_is_no_safety_glass():
    description = "Tempered glass screen protectors, one has a chip on the corner."
    assert "safety-critical" not in families("Screen protectors x3", description, "Phones", "5")


def test_solid_wood_described_as_veneer_is_a_material_contradiction():
    assert "material-contradiction" in families("Solid walnut sideboard", "Walnut veneer on an MDF carcass, "
                                                 "three drawers.", "Furniture", price="150")
    assert "material-contradiction" not in families("Solid walnut sideboard", "Solid walnut throughout, no "
                                                     "veneer.", "Furniture", price="150")


def test_a_different_variant_of_the_same_model_is_a_contradiction():
    assert "numeric-contradiction" in families("iPhone 14 Pro Max 256GB", "Used, battery 88%.", "Phones",
                                               price="500", model="iPhone 14 Plus")
    assert "numeric-contradiction" not in families("iPhone 14 Pro Max 256GB", "Used, battery 88%.", "Phones",
                                                   price="500", model="iPhone 14 Pro Max")


def test_a_size_attribute_is_the_items_own_size_in_any_unit():
    assert "numeric-contradiction" in families("Runner rug 10ft x 3ft", "Wool, hall runner.", "Home",
                                               size="60 x 200 cm")
    assert "numeric-contradiction" not in families("Runner rug 10ft x 3ft", "Wool, hall runner.", "Home",
                                                   size="300 x 90 cm")
    assert "numeric-contradiction" not in families("Play mats 1m x 1m x 2cm", "Foam, 12 of them.", "Toys",
                                                   size="100 x 100 x 2 cm")
