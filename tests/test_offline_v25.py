"""heuristic-v25: the rule shapes v58 to v63 showed the rules got wrong, each with a sentence written for
these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Pen turning bushings", "Bushings for cigar kits and slimlines.", {}),
        ("Tablet 64GB", "Reset to factory settings, signed out.", {"activation lock": "off"}),
        ("Smart hub", "Reset, removed from my app.", {"account lock": "none"}),
        ("1:72 Spitfire model kit", "Parts on sprues, with bombs and ammunition decals.", {}),
    ],
)
def test_a_pen_kit_a_lock_said_off_and_a_scale_model_are_not_regulated(title, description, attributes):
    assert "regulated" not in families(title, description, "Hobbies", "20", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Tablet 64GB", "Works fine.", {"activation lock": "on"}),
        ("Box of ammunition", ".22 rounds, 50.", {}),
    ],
)
def test_a_lock_that_is_on_and_real_ammunition_still_are(title, description, attributes):
    assert "regulated" in families(title, description, "Hobbies", "20", **attributes)


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Home built cargo trailer", "In the style of a vintage caravan, replica panels. NOT an Eriba."),
        ("Handmade candles", "No fake claims here, just wax and wicks."),
        ("Dummy CCTV camera x2", "Flashing LED, no camera inside, a deterrent."),
        ("Shed deterrent", "FAKE (deterrent) siren box with a blinking light."),
    ],
)
def test_a_disclosed_copy_a_denied_fake_claim_and_a_decoy_are_no_counterfeits(title, description):
    assert "authenticity" not in families(title, description, "Home", "30")


def test_a_fake_branded_item_is_still_a_counterfeit():
    assert "authenticity" in families("Fake Rolex", "Looks real, runs well.", "Watches", "60")


@pytest.mark.parametrize(
    ("title", "description", "found"),
    [
        ("Gas leak + CO alarm, 12V", "New in box, sensor dated 2034.", False),
        ("Camping stove", "Small gas leak at the hose, still lights.", True),
        ("Tumble dryer", "Was on the recall list; the recall repair was done by the maker.", False),
        ("Tumble dryer", "It was on the recall list for the door seal.", True),
    ],
)
def test_a_detectors_job_and_a_remedied_recall_are_no_hazards(title, description, found):
    assert ("safety-critical" in families(title, description, "Home", "40")) is found


@pytest.mark.parametrize(
    "description",
    [
        "Extension lead joined halfway with a connector block, wrapped in electrical tape.",
        "Got 5kg of dry ice left, it is in a sealed cool box in my car.",
    ],
)
def test_a_taped_joint_in_a_lead_and_sealed_dry_ice_are_fire_or_explosion_risks(description):
    assert "safety-critical" in families("Party leftovers", description, "Events", "20")


def test_a_roof_box_held_on_with_cable_ties_is_a_safety_risk():
    description = "A clamp snapped so I doubled it up with cable ties, fine on the motorway."
    assert "safety-critical" in families("Roof box 400L", description, "Car Accessories", "80")


@pytest.mark.parametrize(
    ("description", "found"),
    [
        ("They don't have a fuse in them and they sit loose in the socket.", True),
        ("Each has a 5A fuse fitted, pins firm in the socket.", False),
    ],
)
def test_plug_adapters_without_a_fuse_are_a_safety_risk(description, found):
    assert ("safety-critical" in families("Travel plug adapters x2", description, "Travel", "6")) is found


@pytest.mark.parametrize(
    ("title", "description", "kind"),
    [
        ("Salt lamp", "It cleared up my asthma within a week.", "medical-claim"),
        ("Match tickets x2", "They are in my name, just say you're me at the gate.", "regulated"),
        ("Cabin case", "Hidden pocket that doesn't show up on the x-ray.", "regulated"),
        ("Gym bundle", "Belt, straps and 2 vials of test e.", "regulated"),
    ],
)
def test_a_cure_claimed_passing_as_the_seller_hiding_from_scanners_and_gym_drugs_go_to_a_person(
        title, description, kind):
    assert kind in families(title, description, "Other", "30")


def test_an_unused_workbook_written_in_is_not_unused():
    description = "Some highlighting and answers done in pencil."
    found = families("Revision workbooks x3 - unused", description, "Books", "6")
    assert "condition-contradiction" in found
