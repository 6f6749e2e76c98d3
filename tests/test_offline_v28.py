"""heuristic-v28: a description of a few words that sends the buyer to a message, the photos or an offer for
the details is too incomplete to assess. Every listing was written for these tests (none is taken from a
dataset); each shape has a counterpart that stays with the seller."""

import pytest

from tests.builders import families

INCOMPLETE = "too-incomplete"


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        ("Pond pump", "works. dm for info", {}),
        ("Roof bars", "Fit most cars. Message me.", {"condition": "used"}),
        ("Space heater", "heater for sale, collection only, ono", {}),
        ("Drum pedals", "a few pedals. offers", {}),
    ],
)
def test_a_few_words_that_send_the_buyer_elsewhere_are_too_incomplete(title, description, attributes):
    assert INCOMPLETE in families(title, description, "Home", "40", **attributes)


@pytest.mark.parametrize(
    ("title", "description", "attributes"),
    [
        # item specifics say what it is
        ("Pond pump", "works. dm for info", {"brand": "Oase", "model": "Aquamax 4000"}),
        # a description long enough to say something itself
        ("Pond pump", "Runs quietly, filter sponge replaced in May, 4000 litres an hour, ask if needed.", {}),
        # a thin description that does not send the buyer elsewhere is weak, not unassessable
        ("Hammock", "used twice", {}),
    ],
)
def test_specifics_a_real_description_or_no_deferral_leave_it_with_the_seller(title, description, attributes):
    assert INCOMPLETE not in families(title, description, "Garden", "20", **attributes)
