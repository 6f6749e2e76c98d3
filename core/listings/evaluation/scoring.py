"""Offline evaluation of a review provider against a labelled dataset of listings.

Why: prompts, models and rules change; a fixed set of listings with what a careful human
reviewer expects turns "does the new model review better?" into numbers that can be compared
run to run (validity, human-review recall, forbidden claims, concept coverage, score ranges,
latency and tokens).

Dataset: JSONL, one case a line (blank lines are skipped):
    {"id": "...", "listing": {title, description, category, price, attributes},
     "expect": {"requiresHumanReview": bool, "scoreRange": [min, max],
                "concepts": ["size", "expiry|manufacture date"], "forbiddenClaims": ["is authentic"]}}
A concept is found when any of its "|"-separated spellings occurs (case-insensitive) in the
review's missing fields, issues or suggestions; a forbidden claim is violated when its phrase
occurs there, so write claims as assertions ("is authentic"), not bare words that a correct
review also uses ("only list authentic items").
"""

import json
import math
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from decimal import Decimal
from pathlib import Path
from typing import Any

from core.errors import InvalidBatchRequest
from core.listings import service
from core.listings.draft import ListingDraft, validate_draft
from core.listings.errors import ReviewError
from core.listings.providers.base import ReviewProvider
from core.listings.review import ListingReview

CASE_KEYS = frozenset({"id", "listing", "expect"})
EXPECT_KEYS = frozenset({"requiresHumanReview", "scoreRange", "concepts", "forbiddenClaims"})
ID_MAX = 128
MAX_REPEAT = 20


# --- Dataset ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """What a careful human reviewer expects of a review of one listing."""

    requires_human_review: bool
    score_range: tuple[int, int]
    concepts: tuple[str, ...] = ()
    forbidden_claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalCase:
    """One labelled listing; `line` is kept so every report can point back into the file."""

    case_id: str
    line: int
    draft: ListingDraft
    expect: Expectation


def load_dataset(path: Path) -> list[EvalCase]:
    """Read and validate a dataset file; any problem raises InvalidBatchRequest naming lines."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise InvalidBatchRequest(f"Cannot read {path}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise InvalidBatchRequest(f"{path} is not UTF-8 text; save the dataset as UTF-8 JSONL.") from None
    return parse_dataset(text)


def parse_dataset(text: str) -> list[EvalCase]:
    """Every malformed line is reported at once, so a dataset is fixed in one pass."""
    rows: list[dict[str, Any]] = []
    cases = [_parse_line(number, line, rows) for number, line in enumerate(text.splitlines(), 1)
             if line.strip()]
    _check_unique_ids([case for case in cases if case], rows)
    if not rows and not cases:
        rows.append({"field": "dataset", "message": "the dataset has no cases; add one JSON object a line."})
    if rows:
        raise InvalidBatchRequest("The evaluation dataset is not valid; nothing was run.", rows=rows)
    return [case for case in cases if case]


def _parse_line(number: int, line: str, rows: list[dict[str, Any]]) -> EvalCase | None:
    """One case, or None with its problems appended to `rows`."""
    problems: list[tuple[str, str]] = []
    data = _json_object(line, problems)
    if data is None:
        rows.extend(_rows(number, None, problems))
        return None
    case_id = _case_id(data.get("id"), problems)
    _unknown_keys(data, CASE_KEYS, "", problems)
    draft = _listing(data.get("listing"), problems)
    expect = _expectation(data.get("expect"), problems)
    if draft is not None and expect is not None:
        _check_claims_not_quoted(draft, expect, problems)
    rows.extend(_rows(number, case_id, problems))
    if problems or draft is None or expect is None or case_id is None:
        return None
    return EvalCase(case_id, number, draft, expect)


def _rows(number: int, case_id: str | None, problems: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Error rows in the CLI's shape: line, itemId (when known), field, message."""
    where = {"line": number} | ({"itemId": case_id} if case_id else {})
    return [where | {"field": name, "message": message} for name, message in problems]


def _json_object(line: str, problems: list[tuple[str, str]]) -> dict[str, Any] | None:
    """Prices stay Decimal (parse_float) so 45.00 is reviewed exactly as a seller typed it."""
    try:
        data = json.loads(line, parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError) as error:
        problems.append(("line", f"not valid JSON ({getattr(error, 'msg', 'too deeply nested')}); "
                                 "write one JSON object per line."))
        return None
    if not isinstance(data, dict):
        problems.append(("line", "must be a JSON object with id, listing and expect."))
        return None
    return data


def _case_id(value: Any, problems: list[tuple[str, str]]) -> str | None:
    if isinstance(value, str) and value.strip() and len(value) <= ID_MAX:
        return value
    problems.append(("id", f"id is required: give each case a unique text id of 1-{ID_MAX} characters."))
    return None


def _unknown_keys(data: dict[str, Any], known: frozenset[str], prefix: str,
                  problems: list[tuple[str, str]]) -> None:
    """A misspelt key ("concept") would otherwise silently mean "expect nothing"."""
    for key in sorted(set(data) - known):
        problems.append((f"{prefix}{key}", f"unknown key; use only {', '.join(sorted(known))}."))


def _listing(value: Any, problems: list[tuple[str, str]]) -> ListingDraft | None:
    """The same rules as a catalog upload, so the dataset never holds unreviewable listings."""
    if not isinstance(value, dict):
        problems.append(("listing", "listing is required: an object with title, description, "
                                    "category, price and attributes."))
        return None
    draft, found = validate_draft(value)
    problems.extend((f"listing.{problem.field}", problem.message) for problem in found)
    return draft


def _expectation(value: Any, problems: list[tuple[str, str]]) -> Expectation | None:
    if not isinstance(value, dict):
        problems.append(("expect", "expect is required: an object with requiresHumanReview, "
                                   "scoreRange, concepts and forbiddenClaims."))
        return None
    before = len(problems)
    _unknown_keys(value, EXPECT_KEYS, "expect.", problems)
    flag = value.get("requiresHumanReview")
    if not isinstance(flag, bool):
        problems.append(("expect.requiresHumanReview", "must be true or false."))
    score_range = _score_range(value.get("scoreRange"), problems)
    concepts = _phrases(value.get("concepts", []), "expect.concepts", problems)
    forbidden = _phrases(value.get("forbiddenClaims", []), "expect.forbiddenClaims", problems)
    if len(problems) > before:
        return None
    return Expectation(bool(flag), score_range, concepts, forbidden)


def _score_range(value: Any, problems: list[tuple[str, str]]) -> tuple[int, int]:
    """[min, max] of whole scores within 0-100; bools are rejected although they are ints."""
    valid = (isinstance(value, list) and len(value) == 2
             and all(isinstance(bound, int) and not isinstance(bound, bool) for bound in value))
    if not valid or not 0 <= value[0] <= value[1] <= 100:
        problems.append(("expect.scoreRange",
                         "must be [min, max] with whole numbers 0 <= min <= max <= 100."))
        return (0, 100)
    return (value[0], value[1])


def _phrases(value: Any, name: str, problems: list[tuple[str, str]]) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value):
        return tuple(value)
    problems.append((name, "must be a list of non-blank phrases."))
    return ()


def _check_claims_not_quoted(draft: ListingDraft, expect: Expectation,
                             problems: list[tuple[str, str]]) -> None:
    """A claim the seller wrote would be "violated" by a review that merely quotes it."""
    seller_text = "\n".join([draft.title, draft.description, draft.category,
                             *draft.attributes, *draft.attributes.values()]).lower()
    for claim in expect.forbidden_claims:
        if claim.lower() in seller_text:
            problems.append(("expect.forbiddenClaims", f'"{claim}" appears in the listing itself, so a '
                             "review quoting it would count as asserting it; choose a phrase only an "
                             "assertion would use."))


def _check_unique_ids(cases: list[EvalCase], rows: list[dict[str, Any]]) -> None:
    """Results are reported per id, so two cases sharing one would be indistinguishable."""
    first_line: dict[str, int] = {}
    for case in cases:
        if case.case_id in first_line:
            rows.append({"line": case.line, "itemId": case.case_id, "field": "id",
                         "message": f"duplicate id (first used on line {first_line[case.case_id]})."})
        first_line.setdefault(case.case_id, case.line)


# --- Running ---------------------------------------------------------------------------------------


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
                     input_tokens=outcome.input_tokens, output_tokens=outcome.output_tokens)


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


# --- Scoring ---------------------------------------------------------------------------------------


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
    """Aggregate quality of a provider on a dataset; rates are None when nothing was measurable.

    Quality rates (recall, precision, coverage, score range) are over valid responses only:
    an invalid response is already counted once, in `valid_rate` and `error_codes`.
    """

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
    latency_median_ms: float | None
    latency_p95_ms: float | None
    input_tokens: int | None
    output_tokens: int | None
    failures: list[CaseFailure] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        """camelCase like every other JSON the CLI prints; rates rounded for reading."""
        data = {_camel(item.name): _rounded(getattr(self, item.name))
                for item in fields(self) if item.name != "failures"}
        return data | {"failures": [failure.to_json_dict() for failure in self.failures]}


def evaluate(cases: list[EvalCase], provider: ReviewProvider, timeout: float,
             repeat: int = 1) -> Scorecard:
    """Run the provider over the dataset and score what it answered."""
    return score(run_cases(cases, provider, timeout, repeat), provider)


def score(results: list[RunResult], provider: ReviewProvider) -> Scorecard:
    valid = [result for result in results if result.review is not None]
    return Scorecard(
        provider=provider.name, model=provider.model, prompt_version=provider.prompt_version,
        cases=len({result.case.case_id for result in results}), runs=len(results),
        valid_responses=len(valid), valid_rate=_rate(len(valid), len(results)),
        error_codes=dict(Counter(r.error_code for r in results if r.error_code).most_common()),
        human_review_recall=_flag_rate(valid, expected=True),
        human_review_precision=_precision(valid),
        false_positive_rate=_flag_rate(valid, expected=False),
        forbidden_claim_violations=sum(len(_violations(result)) for result in valid),
        concept_coverage=_mean([c for r in valid if (c := _coverage(r)) is not None]),
        score_in_range_rate=_mean([float(_in_range(result)) for result in valid]),
        latency_median_ms=_median([result.latency_ms for result in results]),
        latency_p95_ms=_percentile([result.latency_ms for result in results], 95),
        input_tokens=_total([result.input_tokens for result in valid]),
        output_tokens=_total([result.output_tokens for result in valid]),
        failures=[failure for result in results if (failure := _failure(result))],
    )


def _flag_rate(valid: list[RunResult], expected: bool) -> float | None:
    """Recall (expected=True) or false-positive rate (expected=False) of the human-review flag."""
    runs = [r for r in valid if r.case.expect.requires_human_review is expected]
    return _rate(sum(r.reviewed.requires_human_review for r in runs), len(runs))


def _precision(valid: list[RunResult]) -> float | None:
    """Of the runs a provider sent to a person, how many needed one."""
    flagged = [r for r in valid if r.reviewed.requires_human_review]
    return _rate(sum(r.case.expect.requires_human_review for r in flagged), len(flagged))


def _review_text(review: ListingReview) -> str:
    """Where concepts and claims are looked for: everything the seller is shown, lower-cased."""
    return "\n".join([*review.missing_fields, *review.issues, *review.suggestions]).lower()


def _mentions(text: str, concept: str) -> bool:
    return any(spelling.strip().lower() in text for spelling in concept.split("|") if spelling.strip())


def _missing_concepts(result: RunResult) -> list[str]:
    text = _review_text(result.reviewed)
    return [concept for concept in result.case.expect.concepts if not _mentions(text, concept)]


def _coverage(result: RunResult) -> float | None:
    """Fraction of expected concepts mentioned; None when the case expects none."""
    concepts = result.case.expect.concepts
    if not concepts:
        return None
    return 1 - len(_missing_concepts(result)) / len(concepts)


def _violations(result: RunResult) -> list[str]:
    text = _review_text(result.reviewed)
    return [claim for claim in result.case.expect.forbidden_claims if claim.lower() in text]


def _in_range(result: RunResult) -> bool:
    low, high = result.case.expect.score_range
    return low <= result.reviewed.quality_score <= high


def _failure(result: RunResult) -> CaseFailure | None:
    """Every way one run missed its expectation, or None when it met all of them."""
    problems = [f"error {result.error_code}"] if result.error_code else _review_problems(result)
    return CaseFailure(result.case.case_id, result.run, tuple(problems)) if problems else None


def _review_problems(result: RunResult) -> list[str]:
    expect, review = result.case.expect, result.reviewed
    problems = []
    if review.requires_human_review != expect.requires_human_review:
        problems.append("missed human review" if expect.requires_human_review
                        else "flagged for human review without need")
    if not _in_range(result):
        problems.append(f"score {review.quality_score} outside {list(expect.score_range)}")
    if missing := _missing_concepts(result):
        problems.append(f"missing concepts: {', '.join(missing)}")
    if violations := _violations(result):
        problems.append(f"forbidden claims: {', '.join(violations)}")
    return problems


# --- Small statistics ------------------------------------------------------------------------------


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _percentile(values: list[float], percent: int) -> float | None:
    """Nearest-rank percentile: always a latency that was actually observed."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def _total(values: list[int | None]) -> int | None:
    """Summed tokens, or None when the provider reported none (the heuristic reviewer)."""
    reported = [value for value in values if value is not None]
    return sum(reported) if reported else None


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _rounded(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value
