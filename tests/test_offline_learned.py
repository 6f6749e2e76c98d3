"""heuristic-v8-v10: the learned risk signal beside the rules. Every listing below was written for these tests
(none is taken from a dataset): the risky ones in wording no rule has an entry for.
"""

import math
from collections import Counter
from decimal import Decimal

import pytest

from core.listings.draft import ListingDraft
from core.listings.evaluation.grader import asserts, review_sentences
from core.listings.offline.learned import (
    FAMILY,
    RiskModel,
    explains,
    learned_findings,
    listing_features,
    shipped_model,
)
from core.listings.offline.listing import prepare
from core.listings.offline.reviewer import (
    review_by_rules,
    review_listing,
    review_with_model,
    rule_families,
    rule_features,
)
from core.listings.offline.training import (
    DECISION_SETS,
    TRAINING_SETS,
    Decision,
    Example,
    LabelledSet,
    Scored,
    _Numbered,
    choose_decision,
    fit,
    load_sets,
    model_json,
    reproduces,
    train,
)

Case = tuple[str, str, str, str, dict[str, str]]  # title, description, category, price, attributes

RISKY: list[Case] = [
    ("Rowing machine", "Seat rail is cracked at the join and the strap is frayed, makes a grinding noise. "
     "Perfectly safe to use. Heavy, collection only, cash.", "Fitness", "40", {"brand": "unknown"}),
]
# Flagged by heuristic-v8 to v11; the stricter decisions of heuristic-v12 to v14 (each fold within its own
# 5 %) left it with the seller; the pooled decisions of heuristic-v15 to v22 (9 %) sent it to a person again;
# heuristic-v23's 6 % budget left it with the seller once more; heuristic-v24's 9 % and heuristic-v36's 10 %
# send it to a person.
MILD: Case = ("Garden gazebo 3x3m", "One leg is bent and the roof has a tear near a corner, a couple of "
              "pieces are missing but it mostly goes together. Selling as seen.", "Garden", "30",
              {"colour": "grey"})
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
    assert "metronome" not in weights and "sextant" not in weights  # in one and two training sets


def test_the_training_sets_are_the_development_sets_and_v6_to_v51_set_the_decision():
    files = [file for _, names in TRAINING_SETS for file in names]
    assert [name for name, _ in TRAINING_SETS] == ["dev", *(f"v{number}" for number in range(1, 146))]
    assert tuple(f"v{number}" for number in range(6, 52)) == DECISION_SETS
    assert not any(f"v{number}_" in file for file in files for number in range(146, 164))  # not trained on


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


def test_a_mildly_worded_defect_on_an_ordinary_item_goes_to_a_person_within_the_budget():
    review = review_listing(_draft(MILD))
    assert review.requires_human_review
    assert review.issues[0].startswith("The listing reads like listings a person had to check")


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


# heuristic-v9 -------------------------------------------------------------------------------------------

# Flagged by heuristic-v8 on its intercept and the weight of "asking" and "cash": how it is sold, not a risk.
SHORT_HARMLESS: Case = ("Nike drawstring bag", "Navy gym bag, asking 6, cash on collection.", "Fashion", "6",
                        {"colour": "navy"})


def test_an_ordinary_short_listing_with_only_sale_words_is_left_with_the_seller():
    draft = _draft(SHORT_HARMLESS)
    features, _ = rule_features(draft)
    sale = [feature for feature in features if not explains(feature)]
    assert "ask" in sale and "cash" in sale
    assert not any(feature in shipped_model().risk_terms for feature in sale)
    # Since heuristic-v10 the brand "nike" is a weak risk term (several authors' fakes name it); alone
    # it stays far below the threshold, so the listing is still left with the seller.
    assert not review_listing(draft).requires_human_review
    assert FAMILY not in rule_families(draft)


def test_the_intercept_alone_never_flags_a_risk_term_present_may():
    features = listing_features(prepare(_draft(HARMLESS[1])), [])
    no_terms = RiskModel(weights={"porcelain": 0.5}, threshold=-10.0, bias=1.0)
    assert no_terms.score(features) >= no_terms.threshold and not no_terms.flags(features)
    assert learned_findings(no_terms, features) == []
    with_term = RiskModel(weights={"porcelain": 0.5}, threshold=-10.0, bias=1.0,
                          risk_terms=frozenset({"porcelain"}))
    assert '"porcelain"' in learned_findings(with_term, features)[0].issue


def test_sale_words_and_rule_signals_never_become_risk_terms():
    model = shipped_model()
    assert "cash" in model.weights and "ask" in model.weights
    assert not explains("cash") and not explains("cash on") and not explains("rule:exclamations")
    assert explains("crack") and explains("~certificate")
    assert model.min_risk_weight >= 0
    assert all(explains(term) and model.weights[term] > 0 and model.weights[term] >= model.min_risk_weight
               for term in model.risk_terms)


def test_the_learned_issue_quotes_only_risk_terms_never_a_sale_word():
    issue = review_listing(_draft(RISKY[0])).issues[0]
    assert '"cracked"' in issue
    assert '"cash"' not in issue


def _fold(scores: list[float], *, risky: list[tuple[float, float]]) -> list[Scored]:
    harmless = [Scored(score, 0.5, Example(frozenset(), False, False)) for score in scores]
    needing = [Scored(score, strongest, Example(frozenset(), True, False)) for score, strongest in risky]
    return harmless + needing


@pytest.fixture
def at_9_percent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decision tests count listings at a 9 % budget, whatever budget the shipped weights were chosen at
    (heuristic-v36 measures another)."""
    from core.listings.offline import training

    monkeypatch.setattr(training, "FALSE_POSITIVE_SHARE", 0.09)


@pytest.mark.usefixtures("at_9_percent")
def test_the_decision_catches_the_most_with_at_most_9_percent_false_positives():
    """heuristic-v24: 34 harmless listings at 9 %: 3 may be flagged (2 at 6 %). Down to 30.5 the signal adds
    33, 32 and 31 and catches the listings at 31.5 and 30.5; catching the one at 29.5 would add a fourth (and
    it has only a weak word), so no least weight catches more, and the tie goes to the highest least weight,
    then threshold."""
    risky = [(100.0, 0.5), (31.5, 0.5), (30.5, 0.5), (29.5, 0.05)]
    fold = _fold([float(score) for score in range(34)], risky=risky)
    assert choose_decision([fold]) == Decision(threshold=30.25, min_risk_weight=0.3)


@pytest.mark.usefixtures("at_9_percent")
def test_harmless_listings_the_rules_flag_spend_the_budget_too():
    """heuristic-v16: 100 harmless listings at 9 % may be flagged 9 times; the rules flag 3 already, so the
    signal may add 6 (96 down to 91) and catches the listings at 95.5, 94.5 and 92.5, not the one at 89.5 (a
    seventh addition)."""
    risky = [(95.5, 0.5), (94.5, 0.5), (92.5, 0.5), (89.5, 0.5)]
    fold = _fold([float(score) for score in range(97)], risky=risky)
    fold += [Scored(200.0, 0.5, Example(frozenset(), False, True))] * 3
    assert choose_decision([fold]).threshold == 92.25


@pytest.mark.usefixtures("at_9_percent")
def test_the_false_positive_share_is_pooled_over_the_decision_folds():
    """heuristic-v15: 80 harmless listings in two folds may have 7 flagged (9 %). At 33.5 the first fold
    alone adds 6 (above its own 9 % of 40) and the second none, so the listing at 33.5 is caught (at 6 %
    only the one at 35.5 would be)."""
    first = _fold([float(score) for score in range(40)], risky=[(35.5, 0.5), (33.5, 0.5)])
    second = _fold([float(score) - 10 for score in range(40)], risky=[])
    assert choose_decision([first, second]) == Decision(threshold=33.25, min_risk_weight=0.3)


@pytest.mark.usefixtures("at_9_percent")
def test_with_no_room_for_a_false_positive_the_signal_stays_silent():
    """11 harmless listings at 9 %: none may be flagged, so the threshold is above them all."""
    fold = _fold([float(score) for score in range(11)], risky=[(9.5, 0.5)])
    assert choose_decision([fold]) == Decision(threshold=11.0, min_risk_weight=0.3)
    assert choose_decision([]).threshold == 1.0


@pytest.mark.usefixtures("at_9_percent")
def test_twelve_harmless_listings_leave_room_for_one_false_positive():
    """heuristic-v24: 12 harmless listings at 9 %: one may be flagged (none at 6 %), so the listing at 10.5
    is caught at the cost of the one at 11."""
    fold = _fold([float(score) for score in range(12)], risky=[(10.5, 0.5)])
    assert choose_decision([fold]) == Decision(threshold=10.25, min_risk_weight=0.3)


def test_training_gives_the_same_bytes_on_one_core_or_many_and_the_check_tells_them_apart():
    """The full reproduction of the committed weights takes minutes, so it runs beside the suite
    (`TRAINING_CHECK=1 .ci/run`); here, on four sets, the same code path: one process or a pool give
    the same bytes, and a file one byte off is not reproduced."""
    sets = load_sets(names=("v6", "v7", "v8", "v9"))
    serial = model_json(train(sets, workers=1))
    assert model_json(train(sets, workers=2)) == serial
    assert reproduces(serial, sets)
    assert not reproduces(serial.replace('"minSets": 3', '"minSets": 4'), sets)


def _labelled(name: str, *listings: set[str]) -> LabelledSet:
    return LabelledSet(name, tuple(Example(frozenset(features), index % 2 == 0, False)
                                   for index, features in enumerate(listings)))


def test_a_refit_numbered_with_more_sets_sees_the_same_vocabulary_matrix_and_weights():
    """heuristic-v34's training numbers every feature once for all its refits; a refit must still see
    only the wording shared by MIN_SETS of its own sets, in sorted columns, as if numbered alone."""
    sets = [_labelled("a", {"crack", "dent", "only-a"}, {"crack"}),
            _labelled("b", {"crack", "dent"}, {"rust", "dent"}),
            _labelled("c", {"dent", "rust"}, {"crack", "zip"}),
            _labelled("d", {"rust", "zip"}, {"crack", "rust", "zip"})]
    numbered = _Numbered.of(sets)
    for subset in (sets, sets[1:], [sets[0], sets[1], sets[3]]):
        spread = Counter(feature for labelled in subset for feature in labelled.features)
        expected = sorted(feature for feature, count in spread.items() if count >= 3)
        vocabulary, matrix = numbered.presence(subset)
        assert vocabulary == expected
        examples = [example for labelled in subset for example in labelled.examples]
        ones = sorted(zip(matrix.rows.tolist(), matrix.columns.tolist(), strict=True))
        assert ones == [(row, expected.index(feature)) for row, example in enumerate(examples)
                        for feature in sorted(example.features) if feature in expected]
        assert fit(subset, numbered) == fit(subset)
    assert numbered.presence(sets[1:])[0] == ["crack", "rust"]  # "dent" and "zip" are in two of b, c, d
