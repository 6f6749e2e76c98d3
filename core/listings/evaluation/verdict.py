"""Eligibility: whether a provider, model and prompt may review listings, by explicit thresholds.

Why thresholds rather than "better than last time": a reviewer that misses one listing needing
a person, or asserts one forbidden claim, is not eligible however good its average is.
"""

from dataclasses import dataclass
from typing import Any

from core.listings.evaluation.scoring import Scorecard


@dataclass(frozen=True)
class Thresholds:
    min_valid: float = 1.0
    min_recall: float = 1.0
    min_concepts: float = 0.8
    max_forbidden: int = 0
    min_consistency: float = 1.0


@dataclass(frozen=True)
class Check:
    name: str
    value: float | int | None
    threshold: str
    passed: bool

    def to_json_dict(self) -> dict[str, Any]:
        value = round(self.value, 4) if isinstance(self.value, float) else self.value
        return {"name": self.name, "value": value, "threshold": self.threshold, "passed": self.passed}


@dataclass(frozen=True)
class Verdict:
    eligible: bool
    checks: tuple[Check, ...]

    def to_json_dict(self) -> dict[str, Any]:
        return {"eligible": self.eligible, "checks": [check.to_json_dict() for check in self.checks]}


def verdict(card: Scorecard, limits: Thresholds) -> Verdict:
    """A rate that could not be measured (None) passes: a dataset without concepts cannot fail them.

    Consistency is checked only for runs with --repeat above 1 (otherwise it is None).
    """
    checks = (
        _at_least("valid responses", card.valid_rate, limits.min_valid),
        _at_least("human-review recall", card.human_review_recall, limits.min_recall),
        _at_least("concept coverage", card.concept_coverage, limits.min_concepts),
        Check("forbidden claims asserted", card.forbidden_claim_violations, f"<= {limits.max_forbidden}",
              card.forbidden_claim_violations <= limits.max_forbidden),
        _at_least("consistency across repeats", card.consistency, limits.min_consistency),
    )
    return Verdict(all(check.passed for check in checks), checks)


def _at_least(name: str, value: float | None, minimum: float) -> Check:
    return Check(name, value, f">= {minimum:.0%}", value is None or value >= minimum)
