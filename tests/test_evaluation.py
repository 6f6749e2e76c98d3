"""The eval command: dataset validation, scorecard arithmetic, the shipped dataset, and the CLI
run end to end with the heuristic reviewer and with the real openai SDK against a local fake.
"""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from core.errors import InvalidBatchRequest
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.evaluation import evaluate, load_dataset, parse_dataset
from core.listings.providers.base import ProviderAnswer
from core.listings.review import ListingReview
from tests.eval_cli import run_cli
from tests.fake_openai import FakeOpenAI

DATASET = Path(__file__).parent.parent / "sample_catalogs" / "eval_listings.jsonl"
REQUIRED_KINDS = (
    "safety-counterfeit", "safety-swollen-battery", "safety-recall", "safety-car-seat",
    "safety-medical", "safety-gold", "contradiction-capacity", "contradiction-condition",
    "contradiction-colour", "vague-", "complete-", "injection-",
)


def line(case_id: str, title: str = "Samsung Galaxy S21", *, human: bool = True,
         score_range: list[int] | None = None, concepts: list[str] | None = None,
         forbidden: list[str] | None = None, **listing: object) -> str:
    """One dataset line; keyword overrides replace listing fields."""
    return json.dumps({
        "id": case_id,
        "listing": {"title": title, "description": "Phone in used condition, screen intact.",
                    "category": "Phones", "price": "120.00", "attributes": {}} | listing,
        "expect": {"requiresHumanReview": human, "scoreRange": score_range or [0, 100],
                   "concepts": concepts or [], "forbiddenClaims": forbidden or []},
    })


def review(score: int, human: bool, *issues: str) -> ListingReview:
    return ListingReview(quality_score=score, issues=list(issues), requires_human_review=human)


class ScriptedProvider:
    """Answers by listing title: a ProviderAnswer, or raises the scripted ReviewError."""

    name = "scripted"
    model = "script-1"
    prompt_version = "test-v1"

    def __init__(self, answers: dict[str, ProviderAnswer | ReviewError]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        self.calls.append(draft.title)
        answer = self.answers[draft.title]
        if isinstance(answer, ReviewError):
            raise answer
        return answer


@pytest.fixture
def scripted() -> tuple[list, ScriptedProvider]:
    """Four cases: one met, one missed in every way, one false positive, one invalid answer."""
    cases = parse_dataset("\n".join([
        line("met", "A", score_range=[0, 40], concepts=["battery", "fire|hazard"],
             forbidden=["battery is fine"]),
        line("missed", "B", score_range=[0, 50], concepts=["recall", "battery"],
             forbidden=["battery is fine"]),
        line("false-positive", "C", human=False, score_range=[70, 100]),
        "",
        line("invalid", "D", human=False),
    ]))
    provider = ScriptedProvider({
        "A": ProviderAnswer(review(30, True, "The swollen battery is a Fire hazard."), 10, 2),
        "B": ProviderAnswer(review(80, False, "The battery is fine."), 5, 1),
        "C": ProviderAnswer(review(90, True)),
        "D": ReviewError("AI_RESPONSE_INVALID"),
    })
    return cases, provider


def test_scorecard_counts_recall_claims_concepts_ranges_and_errors(scripted):
    cases, provider = scripted

    card = evaluate(cases, provider, timeout=1.0)

    assert (card.cases, card.runs, card.valid_responses, card.valid_rate) == (4, 4, 3, 0.75)
    assert card.error_codes == {"AI_RESPONSE_INVALID": 1}
    assert card.human_review_recall == 0.5  # A flagged, B not
    assert card.human_review_precision == 0.5  # A needed it, C did not
    assert card.false_positive_rate == 1.0  # the only valid "no review" case was flagged
    assert card.forbidden_claim_violations == 1
    assert card.concept_coverage == 0.75  # A 2/2, B 1/2; C expects none and is left out
    assert card.score_in_range_rate == pytest.approx(2 / 3)
    assert (card.input_tokens, card.output_tokens) == (15, 3)
    assert card.latency_median_ms is not None and card.latency_p95_ms >= card.latency_median_ms
    problems = {failure.case_id: failure.problems for failure in card.failures}
    assert "met" not in problems
    assert problems["missed"] == ("missed human review", "score 80 outside [0, 50]",
                                  "missing concepts: recall", "forbidden claims: battery is fine")
    assert problems["false-positive"] == ("flagged for human review without need",)
    assert problems["invalid"] == ("error AI_RESPONSE_INVALID",)


def test_repeat_runs_every_case_again_and_json_is_camel_case(scripted):
    cases, provider = scripted

    card = evaluate(cases, provider, timeout=1.0, repeat=2)

    assert (card.cases, card.runs) == (4, 8) and provider.calls == ["A", "B", "C", "D"] * 2
    data = card.to_json_dict()
    assert data["errorCodes"] == {"AI_RESPONSE_INVALID": 2} and data["validRate"] == 0.75
    assert {"caseId": "invalid", "run": 2, "problems": ["error AI_RESPONSE_INVALID"]} in data["failures"]


def test_tokens_are_none_when_the_provider_reports_none():
    provider = ScriptedProvider({"A": ProviderAnswer(review(90, True))})

    card = evaluate(parse_dataset(line("only", "A")), provider, timeout=1.0)

    assert card.input_tokens is None and card.output_tokens is None and card.concept_coverage is None


def test_a_number_no_decimal_can_hold_is_a_line_problem_not_a_crash():
    with pytest.raises(InvalidBatchRequest) as caught:
        parse_dataset('{"id": "x", "listing": {"price": 1e99999999999999999999}}')
    assert [(row["line"], row["field"]) for row in caught.value.rows] == [(1, "line")]
    assert "Number out of range" in caught.value.rows[0]["message"]


def test_malformed_lines_are_all_reported_with_line_and_field():
    text = "\n".join([
        line("ok"),
        "{not json",
        json.dumps({"id": "no-expect", "listing": json.loads(line("x"))["listing"]}),
        line("bad-values", price="12 EUR", score_range=[80, 20]),
        line("ok"),
        line("quoted-is-legal", forbidden=["screen intact"]),
        json.dumps({"id": "typo", "listing": json.loads(line("x"))["listing"],
                    "expect": {"requiresHumanReview": "yes", "scoreRange": [0, 100], "concept": []}}),
    ])

    with pytest.raises(InvalidBatchRequest) as caught:
        parse_dataset(text)

    found = {(row["line"], row["field"]) for row in caught.value.rows}
    assert found == {
        (2, "line"), (3, "expect"), (4, "listing.price"), (4, "expect.scoreRange"), (5, "id"),
        (7, "expect.concept"), (7, "expect.requiresHumanReview"),
    }
    assert {row["itemId"] for row in caught.value.rows if row["line"] == 4} == {"bad-values"}


def test_empty_and_unreadable_datasets_are_refused(tmp_path: Path):
    with pytest.raises(InvalidBatchRequest, match="not valid"):
        parse_dataset("\n  \n")
    with pytest.raises(InvalidBatchRequest, match="Cannot read"):
        load_dataset(tmp_path / "missing.jsonl")


def test_shipped_dataset_covers_the_required_kinds_and_categories():
    cases = load_dataset(DATASET)
    ids = [case.case_id for case in cases]
    categories = {case.draft.category.split(">")[0].strip() for case in cases}
    prices = [json.loads(text, parse_float=Decimal)["listing"]["price"]
              for text in DATASET.read_text().splitlines()]

    assert len(cases) >= 28 and len(categories) >= 8
    assert [kind for kind in REQUIRED_KINDS if not any(i.startswith(kind) for i in ids)] == []
    assert {True, False} == {case.expect.requires_human_review for case in cases}
    assert {str, Decimal} <= {type(price) for price in prices}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved runs go to a fresh LISTING_REVIEW_HOME per test, never the user's data directory."""
    monkeypatch.setenv("LISTING_REVIEW_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_cli_eval_of_the_shipped_dataset_prints_the_scorecard_json():
    result = run_cli("eval", str(DATASET), "--json")

    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    card = summary["metrics"] | {"failures": summary["failures"], "provider": summary["provider"]}
    assert card["provider"] == "heuristic" and card["cases"] == card["runs"] >= 28
    assert card["validRate"] == 1.0 and card["errorCodes"] == {}
    assert card["inputTokens"] is None and card["outputTokens"] is None
    assert 0 <= card["humanReviewRecall"] <= 1 and 0 <= card["conceptCoverage"] <= 1
    assert all({"caseId", "run", "problems"} == set(failure) for failure in card["failures"])


def test_cli_eval_prints_a_readable_scorecard():
    result = run_cli("eval", str(DATASET), "--repeat", "2")

    assert result.returncode == 0, result.stderr
    assert "human-review recall" in result.stdout and "latency p95" in result.stdout
    assert "consistency (repeats)" in result.stdout and "Verdict: " in result.stdout


def test_cli_eval_exit_codes_for_bad_dataset_settings_and_repeat(tmp_path: Path):
    dataset = tmp_path / "bad.jsonl"
    dataset.write_text(line("ok") + "\n" + line("bad", score_range=[0, 101]) + "\n")

    bad_dataset = run_cli("eval", str(dataset))
    no_key = run_cli("eval", str(DATASET), "--provider", "openai")
    bad_repeat = run_cli("eval", str(DATASET), "--repeat", "21")

    assert bad_dataset.returncode == 1
    assert "line 2, itemId bad, field expect.scoreRange" in bad_dataset.stderr
    assert no_key.returncode == 2 and "OPENAI_API_KEY" in no_key.stderr
    assert bad_repeat.returncode == 2 and "1 to 20" in bad_repeat.stderr
    assert "Traceback" not in bad_dataset.stderr + no_key.stderr + bad_repeat.stderr


def test_cli_eval_through_the_openai_sdk_sums_tokens(tmp_path: Path):
    dataset = tmp_path / "three.jsonl"
    dataset.write_text("\n".join(line(f"case-{n}", f"Phone {n}") for n in (1, 2, 3)) + "\n")
    with FakeOpenAI() as fake:
        for n in (1, 2, 3):
            fake.reply(prompt_tokens=100 * n, completion_tokens=10 * n)
        result = run_cli("eval", str(dataset), "--provider", "openai", "--json",
                         OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake.base_url,
                         LISTING_REVIEW_MODEL_TIMEOUT="10")

    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    card = summary["metrics"] | {"provider": summary["provider"]}
    assert (card["provider"], card["runs"], card["validResponses"]) == ("openai", 3, 3)
    assert (card["inputTokens"], card["outputTokens"]) == (600, 60)
    assert len(fake.requests) == 3
