"""Running a provider over evaluation cases through the production review service."""

import time
from dataclasses import dataclass

from core.listings import service
from core.listings.errors import ReviewError
from core.listings.evaluation.dataset import EvalCase
from core.listings.providers.base import ReviewProvider
from core.listings.review import ListingReview

MAX_REPEAT = 20


@dataclass(frozen=True)
class JudgeVerdict:
    """A model judge's reading of one review: coverage per concept, assertion per forbidden claim."""

    concepts: tuple[bool, ...]
    asserted: tuple[bool, ...]


@dataclass(frozen=True)
class RunResult:
    """One review of one case: the review, or the code of the ReviewError it raised."""

    case: EvalCase
    run: int
    latency_ms: float
    review: ListingReview | None = None
    error_code: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    judged: JudgeVerdict | None = None
    judge_error: str | None = None
    rule_families: tuple[str, ...] = ()  # which rule families fired, for reviewers made of rules

    @property
    def reviewed(self) -> ListingReview:
        """The review, for scoring that only looks at runs which produced one."""
        assert self.review is not None, "only runs without an error code are scored on their review"
        return self.review


def run_cases(cases: list[EvalCase], provider: ReviewProvider, timeout: float,
              repeat: int = 1) -> list[RunResult]:
    """Every case `repeat` times, sequentially, so latency is not distorted by contention."""
    if not 1 <= repeat <= MAX_REPEAT:
        raise ValueError(f"repeat must be 1-{MAX_REPEAT}")
    return [_run_once(case, run, provider, timeout)
            for run in range(1, repeat + 1) for case in cases]


def _run_once(case: EvalCase, run: int, provider: ReviewProvider, timeout: float) -> RunResult:
    """Through the production review service, so validation and error mapping are the real ones.

    Latency is timed here rather than taken from the outcome so failed calls (a timeout is a
    latency too) are measured the same way as successful ones.
    """
    started = time.perf_counter()
    try:
        outcome = service.review(case.draft, "sync", provider, timeout)
    except ReviewError as error:
        return RunResult(case, run, _elapsed_ms(started), error_code=error.code)
    return RunResult(case, run, _elapsed_ms(started), review=outcome.review,
                     input_tokens=outcome.input_tokens, output_tokens=outcome.output_tokens,
                     rule_families=_rule_families(provider, case))


def _rule_families(provider: ReviewProvider, case: EvalCase) -> tuple[str, ...]:
    """A rule-based reviewer can say which of its rule families fired; a model cannot."""
    explain = getattr(provider, "rule_families", None)
    return tuple(explain(case.draft)) if callable(explain) else ()


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
