"""Training the learned risk signal (learned.py) from the committed labelled sets, reproducibly.

    python -m core.listings.offline.training    # rewrites core/listings/offline/learned_weights.json

Each labelled set was written by a different author, so the training treats a set as the unit:
a feature is kept only when it appears in at least MIN_SETS sets (product names rarely do), and
the threshold is chosen on out-of-set scores (each set scored by weights trained without it), so
it is set for an author the weights have not seen, not for the listings they were fitted on.
The held-out sets still being written are never listed here.
"""

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from core.listings.draft import ListingDraft
from core.listings.evaluation.dataset import load_dataset
from core.listings.offline.learned import WEIGHTS_FILE, RiskModel
from core.listings.offline.reviewer import rule_features

ROOT = Path(__file__).resolve().parents[3]
HELDOUT = "sample_catalogs/heldout/"
TRAINING_SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("dev", ("sample_catalogs/eval_listings.jsonl", "sample_catalogs/reference_format_example.jsonl")),
    ("v1", (HELDOUT + "heldout_listings.jsonl",)),
    ("v2", (HELDOUT + "heldout_v2_listings.jsonl",)),
    ("v3", (HELDOUT + "heldout_v3_listings.jsonl",)),
    ("v4", (HELDOUT + "heldout_v4_listings.jsonl",)),
    ("v5", (HELDOUT + "heldout_v5_listings.jsonl",)),
    ("v6", (HELDOUT + "heldout_v6_listings.jsonl",)),
)
MIN_SETS = 3  # a feature must appear in this many authors' sets to get a weight
L2 = 0.003  # chosen with STEPS by pooled leave-one-set-out recall at the threshold below
STEPS = 300
LEARNING_RATE = 0.5
FALSE_POSITIVE_TARGET = 0.12  # harmless listings sent to a person (rules and signal), chosen before measuring
DECIMALS = 4  # weights are stored rounded, and the threshold is chosen on the rounded weights


@dataclass(frozen=True)
class Example:
    """One labelled listing as the trainer sees it."""

    features: frozenset[str]
    needs_review: bool
    rules_flag: bool  # the rules alone already send it to a person


@dataclass(frozen=True)
class LabelledSet:
    name: str
    examples: tuple[Example, ...]


def load_sets(root: Path = ROOT, names: Sequence[str] | None = None) -> list[LabelledSet]:
    """The training sets (all, or those named), each listing reviewed by the rules once."""
    return [LabelledSet(name, tuple(_examples(root, files)))
            for name, files in TRAINING_SETS if names is None or name in names]


def _examples(root: Path, files: tuple[str, ...]) -> list[Example]:
    cases = [case for file in files for case in load_dataset(root / file)]
    return [_example(case.draft, case.expect.requires_human_review) for case in cases]


def _example(draft: ListingDraft, needs_review: bool) -> Example:
    features, flagged = rule_features(draft)
    return Example(frozenset(features), needs_review, flagged)


def train(sets: Sequence[LabelledSet]) -> RiskModel:
    """Weights from all the sets; the threshold from each set scored by weights trained without it."""
    scored = [pair for held in sets for pair in _out_of_set(held, [s for s in sets if s is not held])]
    return replace(fit(sets), threshold=choose_threshold(scored))


def _out_of_set(held: LabelledSet, others: Sequence[LabelledSet]) -> list[tuple[float, Example]]:
    """Each listing of `held` scored by weights trained without it, as a new author would be."""
    model = fit(others)
    return [(model.score(example.features), example) for example in held.examples]


def fit(sets: Sequence[LabelledSet]) -> RiskModel:
    """L2-regularised logistic regression on feature presence, by a fixed number of full-batch
    gradient steps from zero: no randomness, so the same sets always give the same weights."""
    vocabulary = sorted(_shared_vocabulary(sets))
    examples = [example for labelled in sets for example in labelled.examples]
    presence, labels = _matrix(examples, vocabulary), np.array([e.needs_review for e in examples], float)
    weights, bias = np.zeros(len(vocabulary)), 0.0
    for _ in range(STEPS):
        error = 1 / (1 + np.exp(-(presence @ weights + bias))) - labels
        weights -= LEARNING_RATE * (presence.T @ error / len(labels) + L2 * weights)
        bias -= LEARNING_RATE * float(error.mean())
    rounded = {feature: round(float(weight), DECIMALS)
               for feature, weight in zip(vocabulary, weights, strict=True)}
    return RiskModel(weights=rounded, threshold=0.0, bias=round(bias, DECIMALS))


def _matrix(examples: Sequence[Example], vocabulary: list[str]) -> NDArray[np.float64]:
    column = {feature: index for index, feature in enumerate(vocabulary)}
    presence = np.zeros((len(examples), len(vocabulary)))
    for row, example in enumerate(examples):
        presence[row, [column[f] for f in example.features if f in column]] = 1.0
    return presence


def _shared_vocabulary(sets: Sequence[LabelledSet]) -> set[str]:
    """Features found in at least MIN_SETS different sets: the wording several authors share."""
    spread = Counter(f for labelled in sets for f in {f for e in labelled.examples for f in e.features})
    return {feature for feature, count in spread.items() if count >= MIN_SETS}


def choose_threshold(scored: Sequence[tuple[float, Example]]) -> float:
    """The lowest threshold at which the rules' flags plus the signal's keep the false-positive
    rate on harmless listings at or under FALSE_POSITIVE_TARGET; halfway between the two scores
    it separates, so neither sits on the edge."""
    harmless = [example for _, example in scored if not example.needs_review]
    allowed = math.floor(FALSE_POSITIVE_TARGET * len(harmless)) - sum(e.rules_flag for e in harmless)
    open_scores = sorted((score for score, example in scored
                          if not example.needs_review and not example.rules_flag), reverse=True)
    if allowed <= 0:
        return round(open_scores[0] + 1.0, DECIMALS) if open_scores else 0.0
    if len(open_scores) <= allowed:
        return min(open_scores, default=0.0)
    return round((open_scores[allowed - 1] + open_scores[allowed]) / 2, DECIMALS)


def model_json(model: RiskModel) -> str:
    """Sorted and rounded, so the same sets always give the same bytes."""
    data = {"about": "Learned risk weights; regenerate with: python -m core.listings.offline.training",
            "sets": [name for name, _ in TRAINING_SETS], "minSets": MIN_SETS,
            "bias": model.bias, "threshold": model.threshold, "weights": dict(sorted(model.weights.items()))}
    return json.dumps(data, indent=0, sort_keys=True) + "\n"


def main() -> None:
    WEIGHTS_FILE.write_text(model_json(train(load_sets())), encoding="utf-8")


if __name__ == "__main__":
    main()
