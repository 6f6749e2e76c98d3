"""Scoring evaluation runs: the scorecard (deterministic grader, and a model judge beside it
when one was asked for) and the per-sample grades saved with every run.

Quality rates (recall, precision, coverage, score range) are over valid responses only: an
invalid response is already counted once, in `valid_rate` and `error_codes`.

Per family: one rate over a whole dataset hides a reviewer that fails a whole kind of listing, so
recall, false positives and score in range are also given per dataset family (the `family:` tag
of a case) and per rule family that fired (reviewers made of rules say which fired).
"""

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from core.listings.evaluation.grader import asserts, covers, review_sentences
from core.listings.evaluation.runner import RunResult
from core.listings.providers.base import ReviewProvider


@dataclass(frozen=True)
class SampleGrade:
    """How one run of one case fared, by the deterministic grader (and the judge, if any)."""

    missing_concepts: tuple[str, ...]
    asserted_claims: tuple[str, ...]
    judge_missing_concepts: tuple[str, ...] | None
    judge_asserted_claims: tuple[str, ...] | None
    problems: tuple[str, ...]


@dataclass(frozen=True)
class CaseFailure:
    """Why one run of one case fell short, phrased for the report."""

    case_id: str
    run: int
    problems: tuple[str, ...]

    def to_json_dict(self) -> dict[str, Any]:
        return {"caseId": self.case_id, "run": self.run, "problems": list(self.problems)}


@dataclass(frozen=True)
class Scorecard:
    """Aggregate quality of a provider on a dataset; rates are None when nothing was measurable."""

    provider: str
    model: str
    prompt_version: str
    cases: int
    runs: int
    valid_responses: int
    valid_rate: float | None
    error_codes: dict[str, int]
    human_review_recall: float | None
    human_review_precision: float | None
    false_positive_rate: float | None
    forbidden_claim_violations: int
    concept_coverage: float | None
    score_in_range_rate: float | None
    consistency: float | None
    judge_concept_coverage: float | None
    judge_forbidden_claim_violations: int | None
    judge_errors: int | None
    grader_judge_disagreements: int | None
    latency_median_ms: float | None
    latency_p95_ms: float | None
    input_tokens: int | None
    output_tokens: int | None
    failures: list[CaseFailure] = field(default_factory=list)
    per_family: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, Any]:
        """camelCase like every other JSON the CLI prints; rates rounded for reading."""
        data = {camel(item.name): rounded(getattr(self, item.name))
                for item in fields(self) if item.name != "failures"}
        return data | {"failures": [failure.to_json_dict() for failure in self.failures]}


def score(results: list[RunResult], provider: ReviewProvider) -> Scorecard:
    valid = [result for result in results if result.review is not None]
    grades = {id(result): grade(result) for result in valid}
    judged = [result for result in valid if result.judged is not None]
    return Scorecard(
        provider=provider.name, model=provider.model, prompt_version=provider.prompt_version,
        cases=len({result.case.case_id for result in results}), runs=len(results),
        valid_responses=len(valid), valid_rate=_rate(len(valid), len(results)),
        error_codes=dict(Counter(r.error_code for r in results if r.error_code).most_common()),
        human_review_recall=_flag_rate(valid, expected=True),
        human_review_precision=_precision(valid),
        false_positive_rate=_flag_rate(valid, expected=False),
        forbidden_claim_violations=sum(len(grades[id(r)].asserted_claims) for r in valid),
        concept_coverage=_coverage([(r, grades[id(r)].missing_concepts) for r in valid]),
        score_in_range_rate=_mean([float(_in_range(result)) for result in valid]),
        consistency=consistency(results),
        judge_concept_coverage=_coverage([(r, grades[id(r)].judge_missing_concepts or ()) for r in judged]),
        judge_forbidden_claim_violations=_when(judged, sum(
            len(grades[id(r)].judge_asserted_claims or ()) for r in judged)),
        judge_errors=_judge_errors(valid),
        grader_judge_disagreements=_when(judged, sum(len(disagreements(grades[id(r)])) for r in judged)),
        latency_median_ms=_median([result.latency_ms for result in results]),
        latency_p95_ms=percentile([result.latency_ms for result in results], 95),
        input_tokens=_total([result.input_tokens for result in valid]),
        output_tokens=_total([result.output_tokens for result in valid]),
        failures=[CaseFailure(r.case.case_id, r.run, problems) for r in results
                  if (problems := _problems(r, grades.get(id(r))))],
        per_family=family_figures(valid),
    )


FAMILY_TAG = "family:"
NO_RULE = "(none fired)"


def family_figures(valid: list[RunResult]) -> dict[str, dict[str, dict[str, Any]]]:
    """Figures per dataset family tag and per rule family that fired (empty when not known)."""
    explained = any(result.rule_families for result in valid)
    return {"dataset": _figures_by(valid, _dataset_families),
            "rules": _figures_by(valid, lambda r: r.rule_families or (NO_RULE,)) if explained else {}}


def _dataset_families(result: RunResult) -> tuple[str, ...]:
    return tuple(tag.removeprefix(FAMILY_TAG) for tag in result.case.tags if tag.startswith(FAMILY_TAG))


def _figures_by(valid: list[RunResult],
                keys: Callable[[RunResult], Iterable[str]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[RunResult]] = defaultdict(list)
    for result in valid:
        for key in keys(result):
            groups[key].append(result)
    return {key: _family_figures(groups[key]) for key in sorted(groups)}


def _family_figures(runs: list[RunResult]) -> dict[str, Any]:
    """The three figures a family is judged by, with the counts that make them readable."""
    return {"runs": len(runs), "needReview": sum(r.case.expect.requires_human_review for r in runs),
            "humanReviewRecall": rounded(_flag_rate(runs, expected=True)),
            "falsePositiveRate": rounded(_flag_rate(runs, expected=False)),
            "scoreInRangeRate": rounded(_mean([float(_in_range(r)) for r in runs]))}


def grade(result: RunResult) -> SampleGrade:
    """The deterministic grade of a valid run, with the judge's reading beside it."""
    expect, sentences = result.case.expect, review_sentences(result.reviewed)
    missing = tuple(c for c in expect.concepts if not covers(sentences, c))
    asserted = tuple(c for c in expect.forbidden_claims if asserts(sentences, c))
    verdict = result.judged
    judge_missing = None if verdict is None else tuple(
        c for c, covered in zip(expect.concepts, verdict.concepts, strict=True) if not covered)
    judge_asserted = None if verdict is None else tuple(
        c for c, said in zip(expect.forbidden_claims, verdict.asserted, strict=True) if said)
    return SampleGrade(missing, asserted, judge_missing, judge_asserted,
                       tuple(_review_problems(result, missing, asserted)))


def disagreements(sample: SampleGrade) -> list[str]:
    """Concepts and claims on which the grader and the judge read the review differently."""
    if sample.judge_missing_concepts is None or sample.judge_asserted_claims is None:
        return []
    concepts = set(sample.missing_concepts) ^ set(sample.judge_missing_concepts)
    claims = set(sample.asserted_claims) ^ set(sample.judge_asserted_claims)
    return sorted(f"concept {c}" for c in concepts) + sorted(f"claim {c}" for c in claims)


def consistency(results: list[RunResult]) -> float | None:
    """Share of cases whose repeated valid runs all gave the same human-review flag (None at 1 run)."""
    flags: dict[str, set[bool]] = defaultdict(set)
    runs = {result.run for result in results}
    if len(runs) < 2:
        return None
    for result in results:
        if result.review is not None:
            flags[result.case.case_id].add(result.review.requires_human_review)
    return _rate(sum(len(seen) == 1 for seen in flags.values()), len(flags))


def _when(judged: list[RunResult], total: int) -> int | None:
    """A judge figure only when a judge read something; otherwise None, not a misleading 0."""
    return total if judged else None


def _judge_errors(valid: list[RunResult]) -> int | None:
    asked = [result for result in valid if result.judged is not None or result.judge_error]
    return sum(result.judge_error is not None for result in asked) if asked else None


def _flag_rate(valid: list[RunResult], expected: bool) -> float | None:
    """Recall (expected=True) or false-positive rate (expected=False) of the human-review flag."""
    runs = [r for r in valid if r.case.expect.requires_human_review is expected]
    return _rate(sum(r.reviewed.requires_human_review for r in runs), len(runs))


def _precision(valid: list[RunResult]) -> float | None:
    """Of the runs a provider sent to a person, how many needed one."""
    flagged = [r for r in valid if r.reviewed.requires_human_review]
    return _rate(sum(r.case.expect.requires_human_review for r in flagged), len(flagged))


def _coverage(pairs: list[tuple[RunResult, tuple[str, ...]]]) -> float | None:
    """Mean fraction of expected concepts mentioned, over runs of cases that expect any."""
    return _mean([1 - len(missing) / len(r.case.expect.concepts)
                  for r, missing in pairs if r.case.expect.concepts])


def _in_range(result: RunResult) -> bool:
    low, high = result.case.expect.score_range
    return low <= result.reviewed.quality_score <= high


def _problems(result: RunResult, sample: SampleGrade | None) -> tuple[str, ...]:
    """Every way one run missed its expectation; empty when it met all of them."""
    if result.error_code:
        return (f"error {result.error_code}",)
    return sample.problems if sample else ()


def _review_problems(result: RunResult, missing: tuple[str, ...], asserted: tuple[str, ...]) -> list[str]:
    expect, review = result.case.expect, result.reviewed
    problems = []
    if review.requires_human_review != expect.requires_human_review:
        problems.append("missed human review" if expect.requires_human_review
                        else "flagged for human review without need")
    if not _in_range(result):
        problems.append(f"score {review.quality_score} outside {list(expect.score_range)}")
    if missing:
        problems.append(f"missing concepts: {', '.join(missing)}")
    if asserted:
        problems.append(f"forbidden claims: {', '.join(asserted)}")
    return problems


# --- Small statistics ------------------------------------------------------------------------------


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def percentile(values: list[float], percent: int) -> float | None:
    """Nearest-rank percentile: always a latency that was actually observed."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def _total(values: list[int | None]) -> int | None:
    """Summed tokens, or None when the provider reported none (the heuristic reviewer)."""
    reported = [value for value in values if value is not None]
    return sum(reported) if reported else None


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def rounded(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value
