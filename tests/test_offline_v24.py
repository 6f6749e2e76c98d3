"""heuristic-v24: the rule shapes v49, v50 and v51 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Tablet 10 inch", "Dropped it in the sink, dried it out in rice, seems fine now. Charges ok."),
        ("Bluetooth speaker", "Rechargeable. Went in the pool at a party but still plays."),
    ],
)
def test_water_in_a_battery_device_is_a_fire_risk(title, description):
    assert "safety-critical" in families(title, description, "Electronics")


def test_a_battery_device_that_never_got_wet_is_not():
    description = "Never been in water, charges ok, screen perfect."
    assert "safety-critical" not in families("Tablet 10 inch", description, "Electronics")


@pytest.mark.parametrize(
    "description",
    [
        "The heat knob just turns round freely now, so I switch it off at the wall.",
        "Works, but it is basically on full all the time.",
    ],
)
def test_a_heater_whose_temperature_control_no_longer_sets_anything_is_a_safety_risk(description):
    assert "safety-critical" in families("Oil-filled heater 2kW", description, "Home", "20")


def test_a_brake_that_works_only_after_pumping_is_a_safety_risk():
    description = "Good tyres. Back brake needs pumping before it does anything."
    assert "safety-critical" in families("Mountain bike hydraulic discs", description, "Cycling", "150")


@pytest.mark.parametrize(
    ("title", "description", "found"),
    [
        ("IPL hair removal handset", "Three levels. Never had goggles with it, I just look away.", True),
        ("IPL hair removal handset", "Three power levels, both pairs of goggles in the box.", False),
        ("Derma pen 12 pin", "Used on my face twice then cleaned it, cartridges included.", True),
        ("Derma pen 12 pin", "Sealed in the box, unused, spare cartridges sealed.", False),
    ],
)
def test_skin_lasers_without_eye_protection_and_used_needles_are_safety_risks(title, description, found):
    assert ("safety-critical" in families(title, description, "Beauty", "45")) is found


@pytest.mark.parametrize(
    ("title", "found"),
    [
        ("Gas BBQ cover, large", False),
        ("Motorbike helmet bag", False),
        ("Gas BBQ with cover", True),
    ],
)
def test_a_cover_or_bag_made_for_a_safety_product_is_not_that_product(title, found):
    description = "Two small holes, one toggle missing."
    assert ("safety-critical" in families(title, description, "Garden", "15")) is found


@pytest.mark.parametrize(
    ("title", "description", "found"),
    [
        ("Whitening kit", "Trays and gel syringes, 18% hydrogen peroxide for your teeth at home.", True),
        ("Teeth whitening strips", "Peroxide-free, 28 strips.", False),
        ("Hair developer 12%", "Hydrogen peroxide cream developer, salon size 1 litre.", False),
    ],
)
def test_tooth_whitening_above_the_dentists_limit_is_regulated(title, description, found):
    assert ("regulated" in families(title, description, "Beauty", "20")) is found


def test_a_speed_unlock_is_an_illegal_modification():
    description = "The app unlock takes it past 25 km/h, mine did 38."
    assert "regulated" in families("Electric scooter with speed unlock", description, "Scooters", "200")


def test_a_batch_code_the_makers_checker_does_not_know_is_an_authenticity_doubt():
    description = "Genuine, bought at a car boot. The batch code won't come up on the brand's checker site."
    assert "authenticity" in families("Chanel No 5 100ml", description, "Fragrance", "25")


@pytest.mark.parametrize(
    ("title", "found"),
    [("SSD dock with clone button", False), ("Clone of the designer lamp", True)],
)
def test_a_drives_clone_button_is_no_counterfeit(title, found):
    assert ("authenticity" in families(title, "Works well.", "Computers", "20")) is found


def test_a_new_kit_used_on_a_client_is_not_new():
    description = "Did two clients with it, rest unused."
    found = families("NEW nail gel kit", description, "Beauty", "20", condition="new")
    assert "condition-contradiction" in found
