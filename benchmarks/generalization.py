"""Leave-one-set-out: how the offline reviewer does on an author it has not seen.

Each labelled set was written by a different author. For each set in turn, the learned risk
signal is trained (weights and threshold) on the other sets only and the set is reviewed twice:
by the rules alone and by the rules with that fold's learned signal. Figures per fold and pooled
over all folds: human-review recall, false-positive rate and score in range.

The rules were tuned on every set here (each set once its honest figures were taken), so no fold is
honest for the rules: the unseen figures are those of the fresh held-out sets
(sample_catalogs/heldout/README.md). What this
measures honestly is the learned signal: trained without the fold, its decision (threshold, least risk
weight) chosen on the other decision folds (DECISION_SETS), each scored by weights trained
without it. The decision folds are printed apart, with their own pooled row; learned alone is honest on
every fold.

    python benchmarks/generalization.py [--json]

It retrains the signal once per set, and each training refits once per set and per decision fold, so
its time grows with the cube of the number of sets (about 11 minutes with 22 sets on 2 cores).
"""

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.listings.evaluation.dataset import EvalCase, load_dataset
from core.listings.offline.learned import RiskModel
from core.listings.offline.reviewer import review_with_model
from core.listings.offline.training import DECISION_SETS, ROOT, TRAINING_SETS, LabelledSet, load_sets, train

TARGETS = "targets on unseen data: recall >= 90 %, false positives <= 15 %, in range >= 80 %"


@dataclass
class Tally:
    """Counts behind the three rates, so folds pool by adding counts, not averaging rates."""

    positives: int = 0
    caught: int = 0
    negatives: int = 0
    false_alarms: int = 0
    cases: int = 0
    in_range: int = 0

    def add(self, other: "Tally") -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def rates(self) -> dict[str, float]:
        return {"recall": _pct(self.caught, self.positives),
                "falsePositives": _pct(self.false_alarms, self.negatives),
                "inRange": _pct(self.in_range, self.cases), "cases": self.cases}


def _pct(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def tally(cases: list[EvalCase], model: RiskModel | None) -> Tally:
    counts = Tally()
    for case in cases:
        review = review_with_model(case.draft, model)
        low, high = case.expect.score_range
        needs = case.expect.requires_human_review
        counts.positives += needs
        counts.caught += needs and review.requires_human_review
        counts.negatives += not needs
        counts.false_alarms += not needs and review.requires_human_review
        counts.cases += 1
        counts.in_range += low <= review.quality_score <= high
    return counts


def fold_cases(name: str) -> list[EvalCase]:
    files = dict(TRAINING_SETS)[name]
    return [case for file in files for case in load_dataset(ROOT / file)]


def leave_one_set_out() -> dict[str, dict[str, dict[str, float]]]:
    """Every fold, then the other folds pooled and the decision folds pooled (never the two mixed)."""
    sets = load_sets()
    pooled = {group: {"rules": Tally(), "rules+learned": Tally(), "learned alone": Tally()}
              for group in ("pooled tuned", "pooled decision")}
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for held in sets:
        model = train([labelled for labelled in sets if labelled is not held])
        group = "pooled decision" if held.name in DECISION_SETS else "pooled tuned"
        figures[held.name] = _fold(held, model, pooled[group])
    for group, tallies in pooled.items():
        figures[group] = {name: counts.rates() for name, counts in tallies.items()}
    return figures


def learned_alone(held: LabelledSet, model: RiskModel) -> Tally:
    """The learned signal on its own (no rule sends anything to a person): honest on every fold,
    since it never saw the fold and sees no risk rule's verdict. It gives no score, so no range."""
    counts = Tally()
    for example in held.examples:
        flagged = model.flags(example.features)
        counts.positives += example.needs_review
        counts.caught += example.needs_review and flagged
        counts.negatives += not example.needs_review
        counts.false_alarms += not example.needs_review and flagged
    return counts


def _fold(held: LabelledSet, model: RiskModel, pooled: dict[str, Tally]) -> dict[str, dict[str, float]]:
    cases = fold_cases(held.name)
    counts = {"rules": tally(cases, None), "rules+learned": tally(cases, model),
              "learned alone": learned_alone(held, model)}
    for name, fold_counts in counts.items():
        pooled[name].add(fold_counts)
    decision = {"threshold": model.threshold, "minRiskWeight": model.min_risk_weight}
    return {name: tallied.rates() | decision for name, tallied in counts.items()}


def print_table(figures: dict[str, dict[str, dict[str, float]]]) -> None:
    header = (f"{'fold':13} {'n':>4} | {'rules: recall':>13} {'FP':>5} {'range':>5} | "
              f"{'+learned: recall':>16} {'FP':>5} {'range':>5} | {'learned alone: recall':>21} {'FP':>5} | "
              f"{'threshold':>9} {'min w':>5}")
    tuned = [fold for fold in figures if fold not in DECISION_SETS and fold != "pooled decision"]
    honest = [fold for fold in figures if fold in DECISION_SETS or fold == "pooled decision"]
    for title, folds in (("folds that never set the learned decision", tuned),
                         ("DECISION folds: each one's decision chosen on the others, weights trained "
                          "without it", honest)):
        print(title)
        print(header)
        for fold in folds:
            print(_row(fold, figures[fold]))
    print(TARGETS)


def _row(fold: str, by: dict[str, dict[str, float]]) -> str:
    rules, both, alone = by["rules"], by["rules+learned"], by["learned alone"]
    decision = f"{both['threshold']:>9} {both['minRiskWeight']:>5}" if "threshold" in both else ""
    return (f"{fold:13} {rules['cases']:>4} | {rules['recall']:>13} {rules['falsePositives']:>5} "
            f"{rules['inRange']:>5} | {both['recall']:>16} {both['falsePositives']:>5} "
            f"{both['inRange']:>5} | "
            f"{alone['recall']:>21} {alone['falsePositives']:>5} | {decision}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    figures = leave_one_set_out()
    if parser.parse_args().json:
        print(json.dumps(figures, indent=2))
    else:
        print_table(figures)


if __name__ == "__main__":
    main()
