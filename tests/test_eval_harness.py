"""The evaluation harness beyond the scorecard: the reference dataset format, the deterministic
grader (negation, quotation, terms, synonyms), the model judge through the real openai SDK
against the fake, saved runs, `eval compare`, the eligibility verdict, and prompt v2's schema.
"""

import json
from pathlib import Path

import openai
import pytest

from core.listings.evaluation import parse_dataset
from core.listings.evaluation.grader import asserts, covers
from core.listings.evaluation.judge import JUDGE_SCHEMA, judge_prompt
from core.listings.evaluation.runner import RunResult
from core.listings.evaluation.scoring import consistency, score
from core.listings.prompt import PROMPT_VERSION, render_prompt
from core.listings.providers.openai_chat import REVIEW_SCHEMA
from core.listings.review import ListingReview
from tests.eval_cli import run_cli
from tests.fake_gemini import FakeGemini
from tests.fake_openai import FakeOpenAI, schema_problems

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
EXAMPLE = SAMPLES / "reference_format_example.jsonl"
LISTING = {"title": "Genuine pearl necklace", "description": "100% genuine pearls, 45 cm.",
           "category": "Jewellery", "price": 35, "attributes": {}}


def reference_line(case_id: str, **expectations: object) -> str:
    return json.dumps({"id": case_id, "tags": ["authenticity"], "listing": LISTING, "expectations": {
        "requiresHumanReview": True, "acceptableScore": {"minimum": 0, "maximum": 55},
        "expectedConcepts": ["authenticity verification"], "forbiddenClaims": ["100% genuine"],
    } | expectations})


def our_line(case_id: str) -> str:
    return json.dumps({"id": case_id, "listing": LISTING, "expect": {
        "requiresHumanReview": True, "scoreRange": [0, 55], "forbiddenClaims": ["100% genuine"]}})


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LISTING_REVIEW_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


# --- Dataset formats -------------------------------------------------------------------------------


def test_reference_and_our_format_are_detected_per_line_and_claims_in_the_listing_are_legal():
    cases = parse_dataset("\n".join([reference_line("ref"), our_line("ours")]))

    ref, ours = cases
    assert (ref.expect.score_range, ref.expect.concepts, ref.tags) == (
        (0, 55), ("authenticity verification",), ("authenticity",))
    assert ref.expect.forbidden_claims == ours.expect.forbidden_claims == ("100% genuine",)
    assert ref.expect.requires_human_review and ours.expect.score_range == (0, 55)


def test_reference_format_errors_name_its_own_fields():
    bad = reference_line("bad", acceptableScore={"minimum": 60, "maximum": 10}, expectedConcept=[])

    with pytest.raises(Exception) as caught:
        parse_dataset(bad)

    fields = {row["field"] for row in caught.value.rows}
    assert fields == {"expectations.acceptableScore", "expectations.expectedConcept"}


def test_the_shipped_reference_format_example_loads():
    cases = parse_dataset(EXAMPLE.read_text())
    assert len(cases) == 6 and all(case.tags for case in cases)


# --- Deterministic grader --------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", [
    "The 'genuine' claim is not supported.",
    'The seller says "100% genuine" but gives no proof.',
    "Authenticity is unverified: the listing claims to be 100% genuine.",
    "We cannot confirm the pearls are 100% genuine.",
    "There is no evidence that it is 100% genuine.",
])
def test_quoted_doubted_or_denied_claims_are_not_asserted(sentence: str):
    assert not asserts([sentence], "100% genuine") and not asserts([sentence], "genuine")


def test_a_plain_statement_asserts_the_claim():
    assert asserts(["These pearls are 100% genuine."], "100% genuine")
    assert asserts(["Good photos.", "The battery is fine."], "battery is fine")


@pytest.mark.parametrize(("review", "concept"), [
    ("Authenticity cannot be verified from the listing.", "authenticity verification"),
    ("This looks like a fake.", "counterfeit"),
    ("Add the dimensions of the table.", "size"),
    ("The swollen batteries are a fire hazard.", "battery swelling"),
    ("Say where the shirt comes from (its origin).", "provenance"),
])
def test_concepts_match_by_meaning_bearing_terms_stems_and_synonyms(review: str, concept: str):
    assert covers([review], concept)


def test_unrelated_text_does_not_cover_a_concept():
    assert not covers(["Add more photos of the back."], "authenticity verification")
    assert not covers(["The price seems fair."], "the of and")  # stop words alone mean nothing


# --- Consistency and verdict -----------------------------------------------------------------------


class Named:
    name, model, prompt_version = "scripted", "m", "v"


def test_consistency_is_the_share_of_cases_whose_repeats_agree():
    cases = parse_dataset("\n".join([our_line("a"), our_line("b")]))

    def result(case_index: int, run: int, flag: bool) -> RunResult:
        review = ListingReview(quality_score=10, requires_human_review=flag)
        return RunResult(cases[case_index], run, 1.0, review=review)

    results = [result(0, 1, True), result(1, 1, True), result(0, 2, True), result(1, 2, False)]

    assert consistency(results) == 0.5 and consistency(results[:2]) is None
    assert score(results, Named()).consistency == 0.5


def with_an_unmet_concept(tmp_path: Path) -> Path:
    """The example plus a case expecting a concept no reviewer names, so coverage stays below 100 %
    however good the offline reviewer gets."""
    dataset = tmp_path / "unmet_concept.jsonl"
    unmet = reference_line("unmet-concept", expectedConcepts=["zebra migration route"])
    dataset.write_text(EXAMPLE.read_text().rstrip("\n") + "\n" + unmet + "\n")
    return dataset


def test_verdict_thresholds_come_from_flags(home: Path, tmp_path: Path):
    dataset = with_an_unmet_concept(tmp_path)
    default = run_cli("eval", str(dataset), "--json")
    strict = run_cli("eval", str(dataset), "--json", "--min-concepts", "100")

    assert default.returncode == strict.returncode == 0, default.stderr + strict.stderr
    checks = {c["name"]: c for c in json.loads(strict.stdout)["verdict"]["checks"]}
    concepts = json.loads(strict.stdout)["metrics"]["conceptCoverage"]
    assert concepts < 1 and not checks["concept coverage"]["passed"]
    assert json.loads(strict.stdout)["verdict"]["eligible"] is False
    assert checks["concept coverage"]["threshold"] == ">= 100%"
    assert len(list((home / "eval-runs").iterdir())) == 2


def test_require_eligible_exits_1_only_when_the_verdict_is_not_eligible(tmp_path: Path):
    failing = run_cli("eval", str(with_an_unmet_concept(tmp_path)), "--min-concepts", "100",
                      "--require-eligible")
    passing = run_cli("eval", str(EXAMPLE), "--min-recall", "0", "--min-concepts", "0",
                      "--min-valid", "0", "--max-forbidden", "99", "--require-eligible")

    assert failing.returncode == 1 and "Verdict: NOT ELIGIBLE" in failing.stdout, failing.stderr
    assert passing.returncode == 0 and "Verdict: ELIGIBLE" in passing.stdout, passing.stderr


# --- Figures per family ----------------------------------------------------------------------------


def tagged_line(case_id: str, family: str, needs_review: bool, listing: dict[str, object]) -> str:
    return json.dumps({"id": case_id, "tags": [f"family:{family}", "kind"], "listing": listing,
                       "expectations": {"requiresHumanReview": needs_review,
                                        "acceptableScore": {"minimum": 0, "maximum": 100},
                                        "expectedConcepts": [], "forbiddenClaims": []}})


def test_figures_are_given_per_dataset_family_tag_and_per_rule_family_that_fired(tmp_path: Path):
    helmet = {"title": "Kask road cycling helmet size M", "description": "The shell is cracked above "
              "the left vent after a fall; straps fine.", "category": "Cycling",
              "price": 20, "attributes": {"brand": "Kask", "size": "M"}}
    dataset = tmp_path / "families.jsonl"
    dataset.write_text("\n".join([tagged_line("a", "sporting", True, helmet),
                                   tagged_line("b", "sporting", False, helmet),
                                   tagged_line("c", "books", False, LISTING | {"title": "Novel"})]))

    result = run_cli("eval", str(dataset), "--json")
    text = run_cli("eval", str(dataset))

    assert result.returncode == 0, result.stderr
    per_family = json.loads(result.stdout)["metrics"]["perFamily"]
    assert per_family["dataset"]["sporting"] == {"runs": 2, "needReview": 1, "humanReviewRecall": 1.0,
                                                 "falsePositiveRate": 1.0, "scoreInRangeRate": 1.0}
    assert set(per_family["dataset"]) == {"sporting", "books"}
    assert per_family["rules"]["safety-critical"]["runs"] == 2
    assert "Per dataset family" in text.stdout and "Per rule family that fired" in text.stdout


def test_a_reviewer_that_cannot_name_rule_families_gets_no_rule_table():
    cases = parse_dataset(tagged_line("a", "toys", True, LISTING))
    review = ListingReview(quality_score=10, requires_human_review=True)
    results = [RunResult(cases[0], 1, 1.0, review=review)]

    assert score(results, Named()).per_family == {
        "dataset": {"toys": {"runs": 1, "needReview": 1, "humanReviewRecall": 1.0,
                             "falsePositiveRate": None, "scoreInRangeRate": 1.0}},
        "rules": {}}


# --- Saved runs and compare ------------------------------------------------------------------------


def test_runs_are_saved_and_compared_per_metric_and_per_case(tmp_path: Path, home: Path):
    dataset = tmp_path / "two.jsonl"
    dataset.write_text(reference_line("pearls") + "\n" + reference_line("pearls-2") + "\n")
    good = {"qualityScore": 30, "missingFields": [], "issues": ["Authenticity cannot be verified."],
            "suggestions": [], "requiresHumanReview": True}
    bad = good | {"issues": ["The pearls are 100% genuine."], "requiresHumanReview": False}
    with FakeOpenAI() as fake:
        for review in (good, good, good, bad):
            fake.reply(review, prompt_tokens=1000, completion_tokens=100)
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url, "OPENAI_MODEL": "gpt-4.1-mini"}
        first = json.loads(run_cli("eval", str(dataset), "--provider", "openai", "--json", **env).stdout)
        second = json.loads(run_cli("eval", str(dataset), "--provider", "openai", "--json", **env).stdout)

    folder = Path(first["runDir"])
    assert folder.parent == home / "eval-runs" and folder.name.endswith("-openai")
    summary = json.loads((folder / "summary.json").read_text())
    samples = [json.loads(line) for line in (folder / "samples.jsonl").read_text().splitlines()]
    assert (summary["promptVersion"], summary["model"]) == (PROMPT_VERSION, "gpt-4.1-mini")
    assert summary["datasetSha256"] == second["datasetSha256"] and len(summary["datasetSha256"]) == 64
    assert summary["metrics"]["costEstimateUsd"] == pytest.approx(2 * (1000 * 0.4 + 100 * 1.6) / 1e6)
    assert summary["metrics"]["latencyP95Ms"] >= summary["metrics"]["latencyMedianMs"] > 0
    assert [s["caseId"] for s in samples] == ["pearls", "pearls-2"] and samples[0]["tags"] == ["authenticity"]
    assert second["metrics"]["forbiddenClaimViolations"] == 1 and second["verdict"]["eligible"] is False

    compared = run_cli("eval", "compare", first["runDir"], Path(second["runDir"]).name, "--json")
    text = run_cli("eval", "compare", first["runDir"], second["runDir"])

    assert compared.returncode == 0, compared.stderr
    change = json.loads(compared.stdout)
    metrics = {row["metric"]: row for row in change["metrics"]}
    assert metrics["humanReviewRecall"] == {"metric": "humanReviewRecall", "a": 1.0, "b": 0.5,
                                            "change": -0.5, "trend": "worse"}
    assert change["sameDataset"] is True
    assert [(c["caseId"], c["status"]) for c in change["cases"]] == [("pearls-2", "broken")]
    assert "pearls-2: broken" in text.stdout and "humanReviewRecall" in text.stdout


def test_compare_refuses_unknown_runs_and_wrong_arity():
    missing = run_cli("eval", "compare", "no-such-run", "other")
    one = run_cli("eval", "compare", "only-one")

    assert missing.returncode == 1 and "No saved evaluation run 'no-such-run'" in missing.stderr
    assert one.returncode == 2 and "exactly two runs" in one.stderr
    assert "Traceback" not in missing.stderr + one.stderr


# --- Model judge -----------------------------------------------------------------------------------


def test_judge_through_the_openai_sdk_is_scored_beside_the_grader(tmp_path: Path):
    dataset = tmp_path / "one.jsonl"
    dataset.write_text(reference_line("pearls", expectedConcepts=["authenticity verification", "length"]))
    review = {"qualityScore": 30, "missingFields": [], "issues": ["Authenticity cannot be verified."],
              "suggestions": [], "requiresHumanReview": True}
    # Scripted judge: covers both concepts (the grader finds only the first) and no claim asserted.
    judgement = {"concepts": [{"index": 0, "covered": True}, {"index": 1, "covered": True}],
                 "forbiddenClaims": [{"index": 0, "asserted": False}]}
    with FakeOpenAI() as fake:
        fake.reply(review)
        fake.reply_text(json.dumps(judgement))
        result = run_cli("eval", str(dataset), "--provider", "openai", "--judge", "openai", "--json",
                         OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake.base_url)

    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    metrics = summary["metrics"]
    assert (metrics["conceptCoverage"], metrics["judgeConceptCoverage"]) == (0.5, 1.0)
    assert (metrics["judgeForbiddenClaimViolations"], metrics["judgeErrors"]) == (0, 0)
    assert metrics["graderJudgeDisagreements"] == 1
    assert summary["judgePromptVersion"] == judge_prompt()[0] == "eval-judge-v1"
    judge_request = fake.requests[1]
    assert judge_request["response_format"]["json_schema"]["schema"] == JUDGE_SCHEMA
    assert "<review>" in judge_request["messages"][1]["content"] and fake.rejected == []
    sample = json.loads((Path(summary["runDir"]) / "samples.jsonl").read_text())
    assert sample["graderJudgeDisagreements"] == ["concept length"]


def test_an_off_schema_judge_answer_is_a_counted_judge_failure(tmp_path: Path):
    dataset = tmp_path / "one.jsonl"
    dataset.write_text(reference_line("pearls"))
    with FakeOpenAI() as fake:
        fake.reply()
        fake.reply_text(json.dumps({"concepts": [], "forbiddenClaims": []}))  # indices missing
        result = run_cli("eval", str(dataset), "--provider", "openai", "--judge", "openai", "--json",
                         OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake.base_url)

    metrics = json.loads(result.stdout)["metrics"]
    assert (metrics["judgeErrors"], metrics["judgeConceptCoverage"]) == (1, None)


# --- Prompt v2 and the schemas the fakes check -----------------------------------------------------


def test_prompt_v2_carries_the_general_human_review_rule():
    from core.listings.draft import validate_draft

    draft, _ = validate_draft(LISTING)
    system = render_prompt(draft).system

    assert PROMPT_VERSION == "listing-review-v2"
    assert "unsafe, misleading or\n  illegal, or is too incomplete to assess" in system


def test_every_schema_we_send_is_strict_and_described():
    assert schema_problems(REVIEW_SCHEMA) == [] and schema_problems(JUDGE_SCHEMA) == []


def test_the_fake_openai_refuses_an_undescribed_or_non_strict_schema():
    bare = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
            "additionalProperties": False}
    with FakeOpenAI() as fake:
        client = openai.OpenAI(api_key="k", base_url=fake.base_url, max_retries=0)
        for strict, schema in ((True, bare), (False, REVIEW_SCHEMA)):
            with pytest.raises(openai.BadRequestError):
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}],
                                               response_format={"type": "json_schema", "json_schema": {
                                                   "name": "x", "strict": strict, "schema": schema}})

    assert fake.rejected == [["schema.a has no description"],
                             ["response_format must be a strict json_schema"]]


def test_one_run_through_each_fake_end_to_end():
    with FakeOpenAI() as fake_openai, FakeGemini() as fake_gemini:
        through_openai = run_cli("eval", str(EXAMPLE), "--provider", "openai", "--json",
                                 OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=fake_openai.base_url)
        through_gemini = run_cli("eval", str(EXAMPLE), "--provider", "gemini", "--json",
                                 GEMINI_API_KEY="g-test", GEMINI_BASE_URL=fake_gemini.base_url)

    for result, fake in ((through_openai, fake_openai), (through_gemini, fake_gemini)):
        assert result.returncode == 0, result.stderr
        metrics = json.loads(result.stdout)["metrics"]
        assert (metrics["runs"], metrics["validResponses"]) == (6, 6) and fake.rejected == []
    assert json.loads(through_gemini.stdout)["metrics"]["costEstimateUsd"] is not None
