"""An optional model judge: a second reading of each review, beside the deterministic grader.

Why both: the reference grades concept coverage with a model, so its figures are only comparable
with a judge's; the deterministic grader is free, repeatable and explainable. The judge goes
through the same SDKs and settings as the configured providers; its prompt (prompts/judge.txt)
carries its version on the first line, which is stored with every run. A judge that fails or
answers off-schema marks that sample JUDGE_FAILED; its text never reaches a report.
"""

import json
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any, Protocol

from core.listings.evaluation.dataset import EvalCase
from core.listings.evaluation.runner import JudgeVerdict, RunResult
from core.listings.prompt import PROMPTS
from core.listings.review import ListingReview
from core.settings import Settings, SettingsError

JUDGE_FAILED = "JUDGE_FAILED"


def _entries(flag: str, meaning: str) -> dict[str, Any]:
    item = {"type": "object", "additionalProperties": False, "required": ["index", flag],
            "description": f"The verdict on one numbered item: {meaning}.",
            "properties": {"index": {"type": "integer", "description": "The item's number as given."},
                           flag: {"type": "boolean", "description": meaning}}}
    return {"type": "array", "items": item, "description": "One entry per numbered item, each once."}


JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["concepts", "forbiddenClaims"],
    "description": "Per-concept coverage and per-claim assertion of one review.",
    "properties": {
        "concepts": _entries("covered", "true when the review covers this concept in meaning"),
        "forbiddenClaims": _entries("asserted", "true only when the review states this claim as true"),
    },
}


@cache
def judge_prompt() -> tuple[str, str]:
    """(version, system text) from prompts/judge.txt, whose first line is `version: ...`."""
    head, _, body = (PROMPTS / "judge.txt").read_text(encoding="utf-8").partition("\n")
    return head.removeprefix("version:").strip(), body.strip()


class Judge(Protocol):
    name: str
    model: str

    def ask(self, system: str, user: str, timeout: float) -> str | None: ...


def judge_results(results: list[RunResult], judge: Judge, timeout: float) -> list[RunResult]:
    """Each valid run with the judge's verdict (or JUDGE_FAILED) attached."""
    return [_judged(result, judge, timeout) if result.review else result for result in results]


def _judged(result: RunResult, judge: Judge, timeout: float) -> RunResult:
    verdict = parse_verdict(judge.ask(judge_prompt()[1], judge_message(result.case, result.reviewed),
                                      timeout), result.case)
    return replace(result, judged=verdict, judge_error=None if verdict else JUDGE_FAILED)


def judge_message(case: EvalCase, review: ListingReview) -> str:
    """The review fenced as data (`<` escaped so it cannot close the fence), then the items."""
    fenced = json.dumps(review.to_json_dict(), ensure_ascii=False).replace("<", "\\u003c")
    concepts = "\n".join(f"{n}. {c.replace('|', ' / ')}" for n, c in enumerate(case.expect.concepts))
    claims = "\n".join(f"{n}. {c}" for n, c in enumerate(case.expect.forbidden_claims))
    return (f"<review>\n{fenced}\n</review>\n\nExpected concepts:\n{concepts or '(none)'}\n\n"
            f"Forbidden claims:\n{claims or '(none)'}")


def parse_verdict(text: str | None, case: EvalCase) -> JudgeVerdict | None:
    """The verdict, or None unless every index is answered exactly once with a boolean."""
    try:
        data = json.loads(text or "")
        concepts = _flags(data["concepts"], "covered", len(case.expect.concepts))
        claims = _flags(data["forbiddenClaims"], "asserted", len(case.expect.forbidden_claims))
    except (ValueError, KeyError, TypeError):
        return None
    return JudgeVerdict(concepts, claims) if concepts is not None and claims is not None else None


def _flags(entries: list[dict[str, Any]], flag: str, count: int) -> tuple[bool, ...] | None:
    found = {entry["index"]: entry[flag] for entry in entries}
    if len(entries) != count or set(found) != set(range(count)):
        return None
    if not all(isinstance(value, bool) for value in found.values()):
        return None
    return tuple(found[index] for index in range(count))


# --- Judges through the provider SDKs --------------------------------------------------------------


class OpenAIJudge:
    """OpenAI or Ollama (OpenAI-compatible) with the strict judge schema."""

    def __init__(self, name: str, api_key: str, base_url: str | None, model: str) -> None:
        import openai

        self.name, self.model = name, model
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=0)

    def ask(self, system: str, user: str, timeout: float) -> str | None:
        import openai

        try:
            completion = self._client.chat.completions.create(
                model=self.model, temperature=0, timeout=timeout,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                response_format={"type": "json_schema", "json_schema": {
                    "name": "review_judgement", "strict": True, "schema": JUDGE_SCHEMA}})
            content = completion.choices[0].message.content
        except (openai.OpenAIError, ValueError, IndexError, AttributeError):
            return None
        return content if isinstance(content, str) else None


class GeminiJudge:
    """Gemini with the judge schema as its JSON response schema."""

    def __init__(self, api_key: str, base_url: str | None, model: str) -> None:
        from google import genai
        from google.genai import types

        self.name, self.model = "gemini", model
        options = types.HttpOptions(base_url=base_url, retry_options=types.HttpRetryOptions(attempts=1))
        self._client = genai.Client(vertexai=False, api_key=api_key, http_options=options)

    def ask(self, system: str, user: str, timeout: float) -> str | None:
        from google.genai import types

        config = types.GenerateContentConfig(
            system_instruction=system, response_mime_type="application/json", temperature=0,
            response_json_schema=_without_additional_properties(JUDGE_SCHEMA),
            http_options=types.HttpOptions(timeout=max(1, int(timeout * 1000))))
        try:
            return self._client.models.generate_content(model=self.model, contents=user, config=config).text
        except Exception:  # any SDK or transport failure is one bounded JUDGE_FAILED
            return None


def _without_additional_properties(schema: Any) -> Any:
    """Gemini's response schema has no additionalProperties; everything else carries over."""
    if isinstance(schema, dict):
        return {key: _without_additional_properties(value) for key, value in schema.items()
                if key != "additionalProperties"}
    return schema


def make_judge(name: str, settings: Settings) -> Judge:
    """The judge named on the command line, configured like the provider of that name."""
    builders: dict[str, Callable[[Settings], Judge]] = {
        "openai": _openai_judge, "ollama": _ollama_judge, "gemini": _gemini_judge}
    return builders[name](settings)


def _openai_judge(settings: Settings) -> Judge:
    if settings.openai_api_key is None:
        raise SettingsError("OPENAI_API_KEY must be set to use the openai judge")
    return OpenAIJudge("openai", settings.openai_api_key.get_secret_value(), settings.openai_base_url,
                       settings.openai_model)


def _ollama_judge(settings: Settings) -> Judge:
    return OpenAIJudge("ollama", "ollama", settings.ollama_base_url, settings.ollama_model)


def _gemini_judge(settings: Settings) -> Judge:
    if settings.gemini_api_key is None:
        raise SettingsError("GEMINI_API_KEY must be set to use the gemini judge")
    return GeminiJudge(settings.gemini_api_key.get_secret_value(), settings.gemini_base_url,
                       settings.gemini_model)
