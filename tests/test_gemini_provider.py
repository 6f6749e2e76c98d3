"""GeminiProvider through the real google-genai SDK against a local fake of the Gemini API.

Why the real SDK: what matters is how the SDK really behaves on the wire (request shape, error
classes, retries, timeouts); a mocked SDK would only restate our assumptions.
"""

import socket
import traceback
from collections.abc import Iterator

import pytest

from core.listings.errors import SAFE_MESSAGES, ReviewError
from core.listings.prompt import FIELD_DESCRIPTIONS, PROMPT_VERSION, render_prompt
from core.listings.providers.gemini import REVIEW_SCHEMA, GeminiProvider, gemini_provider
from core.listings.review import ListingReview
from core.settings import Settings, SettingsError
from tests.builders import draft
from tests.fake_gemini import DEFAULT_REVIEW, GENERATE_PATH, FakeGemini

MODEL = "gemini-2.5-flash"
LEAK = "sk-leak-123"
REVIEW = {
    "qualityScore": 64,
    "missingFields": ["keyboard layout"],
    "issues": ["The title does not name the brand."],
    "suggestions": ["Add the brand KeyPro to the title."],
    "requiresHumanReview": False,
}


@pytest.fixture
def fake() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


def provider(base_url: str, timeout: float = 5.0) -> GeminiProvider:
    return GeminiProvider(api_key="test-key", base_url=base_url, model=MODEL, timeout=timeout)


def failure(fake: FakeGemini, timeout: float = 5.0) -> ReviewError:
    with pytest.raises(ReviewError) as caught:
        provider(fake.base_url).review(draft(), timeout)
    return caught.value


def google_error(code: int, status: str, message: str = "quota", details: list | None = None):
    """A Google-style error body, as the real API sends it."""
    return {"error": {"code": code, "message": message, "status": status, "details": details or []}}


# --- Success -------------------------------------------------------------------------------------


def test_valid_answer_becomes_a_review_with_token_usage(fake):
    fake.reply(REVIEW, input_tokens=412, output_tokens=37)

    answer = provider(fake.base_url).review(draft(), timeout=5)

    assert answer.review == ListingReview.model_validate(REVIEW)
    assert (answer.input_tokens, answer.output_tokens) == (412, 37)


def test_provider_identifies_itself():
    gemini = provider("http://127.0.0.1:9")

    assert (gemini.name, gemini.model, gemini.prompt_version) == ("gemini", MODEL, PROMPT_VERSION)


def test_request_carries_schema_system_prompt_fenced_listing_and_no_thinking(fake):
    provider(fake.base_url).review(draft(), timeout=7.2)

    [request] = fake.requests
    body, prompt = request.body, render_prompt(draft())
    config = body["generationConfig"]
    assert GENERATE_PATH.fullmatch(request.path).group("model") == MODEL
    assert request.headers["x-goog-api-key"] == "test-key"
    assert request.headers["X-Server-Timeout"] == "8"  # the per-review timeout, rounded up
    assert body["systemInstruction"]["parts"] == [{"text": prompt.system}]
    assert body["contents"] == [{"parts": [{"text": prompt.user}], "role": "user"}]
    assert '<listing>\n{"title": "Wireless keyboard"' in prompt.user
    assert '"price": 45.00,' in prompt.user
    assert config["responseMimeType"] == "application/json"
    assert config["temperature"] == 0
    assert _thinking_budget(config["thinkingConfig"]) == 0
    assert config["responseSchema"]["type"] == "OBJECT"
    assert config["responseSchema"]["properties"]["qualityScore"]["type"] == "INTEGER"
    assert config["responseSchema"]["properties"]["issues"] == {
        "type": "ARRAY", "items": {"type": "STRING"}, "description": FIELD_DESCRIPTIONS["issues"]
    }
    assert config["responseSchema"]["properties"]["requiresHumanReview"] == {
        "type": "BOOLEAN", "description": FIELD_DESCRIPTIONS["requiresHumanReview"]
    }


def _thinking_budget(thinking_config: dict) -> int:
    """SDK 3.x sends `thinking_budget` (the API accepts both proto JSON spellings)."""
    return thinking_config.get("thinkingBudget", thinking_config.get("thinking_budget"))


def test_schema_requires_exactly_the_review_fields():
    aliases = set(ListingReview.model_json_schema(by_alias=True)["properties"])

    assert set(REVIEW_SCHEMA.properties) == aliases
    assert set(REVIEW_SCHEMA.required) == aliases


def test_factory_builds_the_configured_provider(fake, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    settings = Settings(
        provider="gemini", GEMINI_API_KEY="settings-key", GEMINI_BASE_URL=fake.base_url,
        GEMINI_MODEL="gemini-test", model_timeout=5,
    )

    answer = gemini_provider(settings).review(draft(), timeout=5)

    assert answer.review == ListingReview.model_validate(DEFAULT_REVIEW)
    assert GENERATE_PATH.fullmatch(fake.requests[0].path).group("model") == "gemini-test"
    assert fake.requests[0].headers["x-goog-api-key"] == "settings-key"


def test_factory_without_a_key_is_a_settings_error(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)

    with pytest.raises(SettingsError, match="GEMINI_API_KEY"):
        gemini_provider(Settings(provider="heuristic"))


# --- Invalid answers -----------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["not json {", "", "[1, 2]", "```json\n{}\n```"])
def test_answer_that_is_not_a_json_object_is_invalid(fake, raw):
    fake.reply_text(raw)

    assert failure(fake).code == "AI_RESPONSE_INVALID"


@pytest.mark.parametrize(
    "review",
    [
        REVIEW | {"qualityScore": "64"},
        REVIEW | {"qualityScore": 101},
        REVIEW | {"issues": "one issue"},
        REVIEW | {"requiresHumanReview": "no"},
        REVIEW | {"verdict": "ok"},
        {key: value for key, value in REVIEW.items() if key != "requiresHumanReview"},
    ],
)
def test_answer_off_the_review_schema_is_invalid(fake, review):
    fake.reply(review)

    assert failure(fake).code == "AI_RESPONSE_INVALID"


@pytest.mark.parametrize(
    "body",
    [
        {"promptFeedback": {"blockReason": "SAFETY"}},
        {"candidates": [{"finishReason": "SAFETY", "index": 0}]},
        {"candidates": [{"content": {"parts": [{"text": '{"qualityScore": 5'}], "role": "model"},
                         "finishReason": "MAX_TOKENS", "index": 0}]},
        "this is not json",
    ],
)
def test_blocked_cut_off_or_unreadable_response_is_invalid(fake, body):
    fake.status(200, body=body)

    assert failure(fake).code == "AI_RESPONSE_INVALID"


# --- Provider errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "details", "retry_after"),
    [
        ({"Retry-After": "7"}, [], 7.0),
        ({}, [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12.5s"}], 12.5),
        ({"Retry-After": "3"}, [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                 "retryDelay": "40s"}], 3.0),
        ({}, [], None),
        ({"Retry-After": "soon"}, [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                    "retryDelay": "later"}], None),
    ],
)
def test_rate_limit_is_transient_with_the_delay_the_provider_asked_for(
    fake, headers, details, retry_after
):
    fake.status(429, headers, google_error(429, "RESOURCE_EXHAUSTED", details=details))

    error = failure(fake)

    assert (error.code, error.retry_after) == ("AI_RATE_LIMITED", retry_after)
    assert error.transient
    assert len(fake.requests) == 1  # the SDK did not retry on its own


@pytest.mark.parametrize(("code", "status"), [(500, "INTERNAL"), (503, "UNAVAILABLE")])
def test_server_error_is_provider_unavailable_without_sdk_retries(fake, code, status):
    fake.status(code, body=google_error(code, status))

    error = failure(fake)

    assert (error.code, error.transient) == ("AI_PROVIDER_UNAVAILABLE", True)
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("code", "status"), [(400, "INVALID_ARGUMENT"), (403, "PERMISSION_DENIED")]
)
def test_other_client_error_is_a_permanent_review_failure(fake, code, status):
    fake.status(code, body=google_error(code, status))

    error = failure(fake)

    assert (error.code, error.transient) == ("REVIEW_FAILED", False)


def test_no_answer_within_the_timeout_is_model_timeout(fake):
    fake.hang(3)  # the answer would be a valid review: an error proves we stopped waiting first

    error = failure(fake, timeout=1)

    assert error.code == "MODEL_TIMEOUT"
    assert len(fake.requests) == 1


def test_nothing_listening_is_provider_unavailable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    with pytest.raises(ReviewError) as caught:
        provider(f"http://127.0.0.1:{port}").review(draft(), timeout=2)

    assert caught.value.code == "AI_PROVIDER_UNAVAILABLE"


# --- Nothing from the provider leaks -------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    [
        lambda fake: fake.status(429, body=google_error(429, "RESOURCE_EXHAUSTED", LEAK)),
        lambda fake: fake.status(500, body=google_error(500, "INTERNAL", LEAK)),
        lambda fake: fake.status(400, body=google_error(400, "INVALID_ARGUMENT", LEAK)),
        lambda fake: fake.status(403, body=f"<html>{LEAK}</html>"),
        lambda fake: fake.status(200, body=f"{{not json {LEAK}"),
        lambda fake: fake.reply_text(f"{{\"issues\": [\"{LEAK}\"]"),
        lambda fake: fake.reply(REVIEW | {"qualityScore": LEAK}),
    ],
)
def test_no_provider_text_reaches_the_raised_error(fake, script):
    script(fake)

    error = failure(fake)

    assert error.message == SAFE_MESSAGES[error.code]
    assert error.__cause__ is None and error.__context__ is None
    rendered = [str(error), repr(error), error.message, repr(error.args), str(error.to_json_dict())]
    rendered.append("".join(traceback.format_exception(error)))
    assert not any(LEAK in text for text in rendered)
