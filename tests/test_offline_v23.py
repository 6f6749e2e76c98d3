"""heuristic-v23: the rule shapes v46, v47 and v48 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Rifle cleaning kit", "Rods, brushes and patches in a tin."),
        ("Air pistol .22", "Springer, sale on collection and I will see photo ID."),
        ("Steel cabinet", "Two locks, inner lockable box for ammunition."),
    ],
)
def test_a_weapons_accessories_and_one_sold_through_the_legal_check_are_not_flagged(title, description):
    assert "regulated" not in families(title, description, "Shooting")


def test_a_weapon_without_the_check_is_still_regulated():
    assert "regulated" in families("Air pistol .22", "Springer, collection only.", "Shooting")


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Power bank shell", "The cells swelled so I recycled them, empty case only."),
        ("Gas leak detector for caravans", "Tested, works, with batteries."),
        ("Log splitter 5 ton", "Splits rounds up to 25cm, both hand controls work."),
        ("Kenwood Chef A901", "Motor strong, K beater missing. UK plug, moulded."),
    ],
)
def test_hazards_that_are_gone_or_are_the_items_job_are_no_safety_risk(title, description):
    assert "safety-critical" not in families(title, description, "Appliances", "30")


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Log splitter 5 ton", "I cable-tied the lever down so it runs one-handed."),
        ("Smoke alarm pair", "Bought in 2015, both work."),
        ("Ladder stand for deer", "Left out at the farm for three seasons, straps fine."),
    ],
)
def test_a_held_down_control_an_old_alarm_and_weathered_straps_are_safety_risks(title, description):
    assert "safety-critical" in families(title, description, "Home", "60")


def test_a_year_of_service_in_the_title_is_not_the_model_year():
    title = "Leica M3 body, CLA'd 2023"
    assert "numeric-contradiction" not in families(title, "Shutter accurate.", "Cameras", "900", year="1957")


def test_a_denied_new_is_no_condition_claim():
    title, description = "Ex-display oven - NOT new", "Small scratch on the side."
    found = families(title, description, "Kitchen", "200", condition="ex-display")
    assert "condition-contradiction" not in found


def test_a_brand_shown_by_its_logo_at_a_fraction_of_the_price_is_doubtful():
    assert "authenticity" in families("Dyson hair dryer", "Has the logo and everything, half the price of an "
                                      "official one.", "Beauty", "120")


def test_loose_mercury_is_regulated_and_a_mercury_barometer_is_not():
    assert "regulated" in families("Jar of mercury, 1kg", "From old thermometers.", "Science")
    assert "regulated" not in families("Mercury barometer", "Banjo case, working.", "Antiques")


def test_waders_take_shoe_sizes():
    assert "numeric-contradiction" in families("Chest waders size 8", "Used twice.", "Fishing", size="EU 46")
