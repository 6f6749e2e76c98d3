"""heuristic-v19: the rule shapes v31, v32 and v33 showed the rules got wrong, each with a sentence written
for these tests (none is taken from a dataset), and each shape's counterpart that must not change."""

import pytest

from tests.builders import families


def test_a_reproduction_said_to_be_one_claims_no_age():
    assert "authenticity" not in families(
        "Stone-effect birdbath", "Modern cast reproduction of an antique design, concrete.", "Garden", "150"
    )
    assert "authenticity" in families(
        "Stone birdbath", "Genuine antique, from a manor house.", "Garden", "150"
    )


@pytest.mark.parametrize(
    ("title", "description"),
    [
        ("Lawn feed 2kg", "Sealed in its original printed tub, use by 2028."),
        ("Native hedge mix x25", "Hazel and blackthorn, UK provenance, bare root."),
    ],
)
def test_an_original_container_and_a_plants_seed_origin_are_no_authenticity_claims(title, description):
    assert "authenticity" not in families(title, description, "Garden")


@pytest.mark.parametrize(
    "description",
    [
        "Unused, the printer was swapped before we used it.",
        "Unused, boxed; our shop does not sell used ones.",
    ],
)
def test_used_in_another_clause_is_no_wear_on_a_new_item(description):
    assert "condition-contradiction" not in families("Toner cartridge - new, sealed", description, "Office")


def test_a_signing_shown_by_its_sticker_and_ticket_is_evidenced():
    assert "authenticity" not in families(
        "Signed first novel", "Signed at the launch, signed copy sticker on the cover and the event ticket.",
        "Books",
    )


def test_a_length_left_on_a_roll_and_a_side_of_a_size_are_no_title_length():
    assert "numeric-contradiction" not in families(
        "Garden fleece 2M X 10M", "Half used.", "Garden", length="about 5m left"
    )


def test_a_set_of_books_counted_differently():
    assert "numeric-contradiction" in families(
        "Complete 9 book set", "All the paperbacks in a slipcase.", "Books", volumes="8"
    )


@pytest.mark.parametrize(
    ("title", "description", "family"),
    [
        ("Craft glue gun", "A blob of melted plastic on the cable, still heats.", "safety-critical"),
        ("Steel filing cabinet", "Its interlock rod has gone, so every drawer opens together.",
         "safety-critical"),
        ("Foxglove plants x6", "Lovely by the sandpit, the kids pick the flowers.", "regulated"),
    ],
)
def test_risks_named_in_other_words_go_to_a_person(title, description, family):
    assert family in families(title, description, "Misc")


def test_a_poisonous_plant_alone_is_no_risk():
    assert "regulated" not in families("Foxglove plants x6", "Tall spires, partial shade.", "Garden")
