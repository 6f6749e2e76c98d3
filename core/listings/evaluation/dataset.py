"""Labelled evaluation datasets, in our format or the reference article's, detected per line.

Ours:       {"id", "listing": {...}, "expect": {"requiresHumanReview", "scoreRange": [min, max],
                                               "concepts": [..], "forbiddenClaims": [..]}}
Reference:  {"id", "tags": [..], "listing": {...}, "expectations": {"requiresHumanReview",
             "acceptableScore": {"minimum", "maximum"}, "expectedConcepts": [..], "forbiddenClaims": [..]}}

A concept may list "|"-separated spellings. A forbidden claim may appear in the listing itself
(a seller writing "100% genuine" is exactly what the check is for): the grader looks for the
review asserting it, not quoting or doubting it.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InvalidBatchRequest
from core.listings.draft import ListingDraft, json_number, validate_draft

OUR_KEYS = frozenset({"id", "tags", "listing", "expect"})
REFERENCE_KEYS = frozenset({"id", "tags", "listing", "expectations"})
EXPECT_KEYS = frozenset({"requiresHumanReview", "scoreRange", "concepts", "forbiddenClaims"})
EXPECTATIONS_KEYS = frozenset({"requiresHumanReview", "acceptableScore", "expectedConcepts",
                               "forbiddenClaims"})
ID_MAX = 128
Problems = list[tuple[str, str]]


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
    tags: tuple[str, ...] = ()


def load_dataset(path: Path) -> list[EvalCase]:
    """Read and validate a dataset file; any problem raises InvalidBatchRequest naming lines."""
    return parse_dataset(read_dataset_text(path))


def read_dataset_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise InvalidBatchRequest(f"Cannot read {path}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise InvalidBatchRequest(f"{path} is not UTF-8 text; save the dataset as UTF-8 JSONL.") from None


def dataset_sha256(text: str) -> str:
    """Stored with every run so two runs are known to be over the same cases."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    problems: Problems = []
    data = _json_object(line, problems)
    if data is None:
        rows.extend(_rows(number, None, problems))
        return None
    case_id = _case_id(data.get("id"), problems)
    reference = "expectations" in data
    _unknown_keys(data, REFERENCE_KEYS if reference else OUR_KEYS, "", problems)
    tags = _phrases(data.get("tags", []), "tags", problems)
    draft = _listing(data.get("listing"), problems)
    expect = (_reference_expectation(data["expectations"], problems) if reference
              else _expectation(data.get("expect"), problems))
    rows.extend(_rows(number, case_id, problems))
    if problems or draft is None or expect is None or case_id is None:
        return None
    return EvalCase(case_id, number, draft, expect, tags)


def _rows(number: int, case_id: str | None, problems: Problems) -> list[dict[str, Any]]:
    """Error rows in the CLI's shape: line, itemId (when known), field, message."""
    where = {"line": number} | ({"itemId": case_id} if case_id else {})
    return [where | {"field": name, "message": message} for name, message in problems]


def _json_object(line: str, problems: Problems) -> dict[str, Any] | None:
    """Prices stay Decimal (parse_float) so 45.00 is reviewed exactly as a seller typed it."""
    try:
        data = json.loads(line, parse_float=json_number)
    except (json.JSONDecodeError, RecursionError) as error:
        problems.append(("line", f"not valid JSON ({getattr(error, 'msg', 'too deeply nested')}); "
                                 "write one JSON object per line."))
        return None
    if not isinstance(data, dict):
        problems.append(("line", "must be a JSON object with id, listing and expect (or expectations)."))
        return None
    return data


def _case_id(value: Any, problems: Problems) -> str | None:
    if isinstance(value, str) and value.strip() and len(value) <= ID_MAX:
        return value
    problems.append(("id", f"id is required: give each case a unique text id of 1-{ID_MAX} characters."))
    return None


def _unknown_keys(data: dict[str, Any], known: frozenset[str], prefix: str, problems: Problems) -> None:
    """A misspelt key ("concept") would otherwise silently mean "expect nothing"."""
    for key in sorted(set(data) - known):
        problems.append((f"{prefix}{key}", f"unknown key; use only {', '.join(sorted(known))}."))


def _listing(value: Any, problems: Problems) -> ListingDraft | None:
    """The same rules as a catalog upload, so the dataset never holds unreviewable listings."""
    if not isinstance(value, dict):
        problems.append(("listing", "listing is required: an object with title, description, "
                                    "category, price and attributes."))
        return None
    draft, found = validate_draft(value)
    problems.extend((f"listing.{problem.field}", problem.message) for problem in found)
    return draft


def _expectation(value: Any, problems: Problems) -> Expectation | None:
    if not isinstance(value, dict):
        problems.append(("expect", "expect is required: an object with requiresHumanReview, "
                                   "scoreRange, concepts and forbiddenClaims (or use the reference "
                                   "format's expectations)."))
        return None
    before = len(problems)
    _unknown_keys(value, EXPECT_KEYS, "expect.", problems)
    flag = _flag(value.get("requiresHumanReview"), "expect.", problems)
    score_range = _score_range(value.get("scoreRange"), problems)
    concepts = _phrases(value.get("concepts", []), "expect.concepts", problems)
    forbidden = _phrases(value.get("forbiddenClaims", []), "expect.forbiddenClaims", problems)
    return None if len(problems) > before else Expectation(flag, score_range, concepts, forbidden)


def _reference_expectation(value: Any, problems: Problems) -> Expectation | None:
    """The reference article's `expectations` object, read as-is."""
    if not isinstance(value, dict):
        problems.append(("expectations", "must be an object with requiresHumanReview, acceptableScore, "
                                         "expectedConcepts and forbiddenClaims."))
        return None
    before = len(problems)
    _unknown_keys(value, EXPECTATIONS_KEYS, "expectations.", problems)
    flag = _flag(value.get("requiresHumanReview"), "expectations.", problems)
    bounds = value.get("acceptableScore")
    pair = [bounds.get("minimum"), bounds.get("maximum")] if isinstance(bounds, dict) else None
    score_range = _score_range(pair, problems, "expectations.acceptableScore")
    concepts = _phrases(value.get("expectedConcepts", []), "expectations.expectedConcepts", problems)
    forbidden = _phrases(value.get("forbiddenClaims", []), "expectations.forbiddenClaims", problems)
    return None if len(problems) > before else Expectation(flag, score_range, concepts, forbidden)


def _flag(value: Any, prefix: str, problems: Problems) -> bool:
    if not isinstance(value, bool):
        problems.append((f"{prefix}requiresHumanReview", "must be true or false."))
    return value is True


def _score_range(value: Any, problems: Problems, name: str = "expect.scoreRange") -> tuple[int, int]:
    """[min, max] of whole scores within 0-100; bools are rejected although they are ints."""
    valid = (isinstance(value, list) and len(value) == 2
             and all(isinstance(bound, int) and not isinstance(bound, bool) for bound in value))
    if not valid or not 0 <= value[0] <= value[1] <= 100:
        problems.append((name, "must be a minimum and maximum, whole numbers 0 <= min <= max <= 100."))
        return (0, 100)
    return (value[0], value[1])


def _phrases(value: Any, name: str, problems: Problems) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value):
        return tuple(value)
    problems.append((name, "must be a list of non-blank phrases."))
    return ()


def _check_unique_ids(cases: list[EvalCase], rows: list[dict[str, Any]]) -> None:
    """Results are reported per id, so two cases sharing one would be indistinguishable."""
    first_line: dict[str, int] = {}
    for case in cases:
        if case.case_id in first_line:
            rows.append({"line": case.line, "itemId": case.case_id, "field": "id",
                         "message": f"duplicate id (first used on line {first_line[case.case_id]})."})
        first_line.setdefault(case.case_id, case.line)
