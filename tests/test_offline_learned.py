"""heuristic-v8: the learned risk signal beside the rules. Every listing below was written for these tests
(none is taken from a dataset): the risky ones in wording no rule has an entry for.
"""

import math
from decimal import Decimal

from core.listings.draft import ListingDraft
from core.listings.evaluation.grader import asserts, review_sentences
from core.listings.offline.learned import FAMILY, WEIGHTS_FILE, RiskModel, shipped_model
from core.listings.offline.reviewer import (
    review_by_rules,
    review_listing,
    review_with_model,
    rule_families,
    rule_features,
)
from core.listings.offline.training import (
    TRAINING_SETS,
    Example,
    choose_threshold,
    load_sets,
    model_json,
    train,
)

Case = tuple[str, str, str, str, dict[str, str]]  # title, description, category, price, attributes

RISKY: list[Case] = [
    ("Rowing machine", "Seat rail is cracked at the join and the strap is frayed, makes a grinding noise. "
     "Perfectly safe to use. Heavy, collection only, cash.", "Fitness", "40", {"brand": "unknown"}),
    ("Garden gazebo 3x3m", "One leg is bent and the roof has a tear near a corner, a couple of pieces are "
     "missing but it mostly goes together. Selling as seen.", "Garden", "30", {"colour": "grey"}),
]
HARMLESS: list[Case] = [
    ("Wooden bookcase, oak veneer", "Five shelves, measured 180 x 80 x 30 cm, all shelves and pins "
     "included. Smoke-free home, clean, photos show the finish.", "Furniture", "45",
     {"colour": "oak", "condition": "used"}),
    ("Set of 6 dinner plates", "White porcelain, 27 cm, bought last year, no chips, dishwasher safe. Boxed.",
     "Kitchen", "18", {"colour": "white", "condition": "used"}),
]


def _draft(case: Case) -> ListingDraft:
    title, description, category, price, attributes = case
    return ListingDraft(title, description, category, Decimal(price), attributes)


def test_the_committed_weights_load_with_a_finite_threshold():
    model = shipped_model()
    assert len(model.weights) > 100
    assert math.isfinite(model.threshold) and math.isfinite(model.bias)
    assert all(math.isfinite(weight) for weight in model.weights.values())


def test_product_names_carry_no_weight_only_wording_several_authors_share():
    """A feature needs MIN_SETS authors' sets, so a family name seen in one set has no weight."""
    weights = shipped_model().weights
    assert "crack" in weights
    assert "rowing" not in weights and "gazebo" not in weights


def test_the_training_sets_are_the_committed_dev_sets_only():
    files = [file for _, names in TRAINING_SETS for file in names]
    assert len(TRAINING_SETS) == 7
    assert not any("v7" in file for file in files)


def test_the_same_listing_always_gets_the_same_review_and_risk():
    draft = _draft(RISKY[0])
    features, _ = rule_features(draft)
    assert review_listing(draft) == review_listing(draft)
    assert shipped_model().score(features) == shipped_model().score(rule_features(draft)[0])


def test_a_risky_listing_in_wording_no_rule_knows_is_sent_to_a_person():
    for case in RISKY:
        draft = _draft(case)
        assert not review_by_rules(draft).requires_human_review
        review = review_listing(draft)
        assert review.requires_human_review
        assert FAMILY in rule_families(draft)
        assert review.quality_score <= 35


def test_the_learned_issue_quotes_the_sellers_words_and_asserts_no_claim():
    review = review_listing(_draft(RISKY[0]))
    issue = review.issues[0]
    assert issue.startswith("The listing reads like listings a person had to check")
    assert '"cracked"' in issue
    assert not asserts(review_sentences(review), "safe to use")


def test_a_harmless_listing_is_left_with_the_seller():
    for case in HARMLESS:
        draft = _draft(case)
        assert not review_listing(draft).requires_human_review
        assert FAMILY not in rule_families(draft)


def test_the_signal_stays_silent_when_a_rule_already_sent_the_listing_to_a_person():
    draft = ListingDraft("Child car seat", "The harness buckle is cracked and the seat was in a crash.",
                         "Baby", Decimal("20"), {"brand": "unknown"})
    review = review_listing(draft)
    assert review.requires_human_review
    assert FAMILY not in rule_families(draft)
    assert not any(issue.startswith("The listing reads like") for issue in review.issues)


def test_a_model_at_an_unreachable_threshold_leaves_the_rules_review_unchanged():
    silent = RiskModel(weights=shipped_model().weights, threshold=math.inf)
    draft = _draft(RISKY[0])
    assert review_with_model(draft, silent) == review_by_rules(draft)


def test_the_threshold_keeps_false_positives_within_the_target_counting_the_rules_own():
    """25 harmless listings at 12 %: 3 may be flagged; one already is by the rules, so the signal
    may add two, and the threshold falls between the second and third highest open scores."""
    harmless = [(float(score), Example(frozenset(), False, False)) for score in range(24)]
    flagged_by_rules = [(100.0, Example(frozenset(), False, True))]
    risky = [(50.0, Example(frozenset(), True, False))]
    threshold = choose_threshold(harmless + flagged_by_rules + risky)
    assert threshold == 21.5
    assert sum(score >= threshold for score, _ in harmless) == 2


def test_the_training_command_reproduces_the_committed_weights_byte_for_byte():
    assert model_json(train(load_sets())) == WEIGHTS_FILE.read_text(encoding="utf-8")
