"""Offline evaluation of a review provider against a labelled dataset of listings.

Why: prompts, models and rules change; a fixed set of listings with what a careful human
reviewer expects turns "does the new model review better?" into numbers that can be kept and
compared run to run. dataset: the two file formats; grader: the deterministic grading; judge:
the optional model judge; scoring: the scorecard; verdict: eligibility; runs: saved runs.
"""

from core.listings.evaluation.dataset import EvalCase, Expectation, load_dataset, parse_dataset
from core.listings.evaluation.runner import MAX_REPEAT, RunResult, run_cases
from core.listings.evaluation.scoring import Scorecard, score
from core.listings.providers.base import ReviewProvider

__all__ = ["MAX_REPEAT", "EvalCase", "Expectation", "RunResult", "Scorecard", "evaluate", "load_dataset",
           "parse_dataset", "run_cases", "score"]


def evaluate(cases: list[EvalCase], provider: ReviewProvider, timeout: float,
             repeat: int = 1) -> Scorecard:
    """Run the provider over the dataset and score what it answered."""
    return score(run_cases(cases, provider, timeout, repeat), provider)
