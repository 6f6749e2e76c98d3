"""OpenAIChatProvider with the real openai SDK against a local fake server: parsing, the request
it sends, and how every failure becomes a bounded, text-free ReviewError.
"""

import json
import socket
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from core.listings.errors import ReviewError
from core.listings.prompt import PROMPT_VERSION
from core.listings.providers.openai_chat import (
    RESPONSE_FORMAT,
    REVIEW_SCHEMA,
    OpenAIChatProvider,
    ollama_provider,
    openai_provider,
    retry_after,
)
from core.listings.review import ListingReview
from core.settings import Settings, SettingsError
from tests.builders import draft
from tests.fake_openai import DEFAULT_REVIEW, FakeOpenAI

LEAK = "sk-leak-123"


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def provider(base_url: str, timeout: float = 2.0) -> OpenAIChatProvider:
    return OpenAIChatProvider(
        name="openai", api_key="sk-test", base_url=base_url, model="gpt-test", timeout=timeout
    )


def review_error(fake: FakeOpenAI, timeout: float = 2.0) -> ReviewError:
    with pytest.raises(ReviewError) as caught:
        provider(fake.base_url, timeout).review(draft(), timeout)
    return caught.value


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_valid_review_is_parsed_with_token_usage(fake: FakeOpenAI):
    fake.reply(DEFAULT_REVIEW, prompt_tokens=321, completion_tokens=54)

    answer = provider(fake.base_url).review(draft(), 2.0)

    assert answer.review == ListingReview.model_validate(DEFAULT_REVIEW)
    assert (answer.input_tokens, answer.output_tokens) == (321, 54)


def test_provider_identifies_model_and_prompt_version(fake: FakeOpenAI):
    chat = provider(fake.base_url)

    assert (chat.name, chat.model, chat.prompt_version) == ("openai", "gpt-test", PROMPT_VERSION)


def test_request_carries_schema_temperature_and_fenced_listing(fake: FakeOpenAI):
    provider(fake.base_url).review(draft(price="45.00"), 2.0)

    [sent] = fake.requests
    assert sent["model"] == "gpt-test"
    assert sent["response_format"] == RESPONSE_FORMAT
    assert sent["temperature"] == 0
    system, user = sent["messages"]
    assert system["role"] == "system" and "untrusted" in system["content"]
    assert user["role"] == "user"
    fenced = user["content"].split("<listing>", 1)[1].split("</listing>", 1)[0]
    assert '"price": 45.00' in fenced
    assert json.loads(fenced)["title"] == "Wireless keyboard"
    assert fake.headers[0]["authorization"] == "Bearer sk-test"


def test_schema_names_exactly_the_review_fields_and_requires_all():
    aliases = {info.alias for info in ListingReview.model_fields.values()}

    assert set(REVIEW_SCHEMA["properties"]) == aliases
    assert set(REVIEW_SCHEMA["required"]) == aliases
    assert REVIEW_SCHEMA["additionalProperties"] is False


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(lambda f: f.reply_text("this is not json"), id="invalid-json"),
        pytest.param(lambda f: f.reply(DEFAULT_REVIEW | {"qualityScore": 150}), id="score-150"),
        pytest.param(lambda f: f.reply(DEFAULT_REVIEW | {"extra": 1}), id="extra-field"),
        pytest.param(lambda f: f.reply({"qualityScore": 50}), id="missing-fields"),
        pytest.param(lambda f: f.reply_text("[1, 2]"), id="not-an-object"),
        pytest.param(lambda f: f.reply_text(""), id="empty"),
        pytest.param(lambda f: f.reply_text(None, refusal="I can't help"), id="refusal"),
        pytest.param(lambda f: f.reply_text(json.dumps(DEFAULT_REVIEW), finish_reason="length"),
                     id="cut-off"),
        pytest.param(lambda f: f.status(200, body={"id": "x", "object": "chat.completion"}),
                     id="no-choices"),
        pytest.param(lambda f: f.status(200, body="<html>proxy error"), id="malformed-body"),
    ],
)
def test_unusable_answers_are_ai_response_invalid(fake: FakeOpenAI, script):
    script(fake)

    error = review_error(fake)

    assert error.code == "AI_RESPONSE_INVALID" and not error.transient


def test_rate_limit_carries_retry_after_seconds(fake: FakeOpenAI):
    fake.status(429, headers={"Retry-After": "7"})

    error = review_error(fake)

    assert error.code == "AI_RATE_LIMITED" and error.retry_after == 7
    assert len(fake.requests) == 1, "the SDK must not retry on its own"


def test_rate_limit_without_retry_after_leaves_it_to_the_job_layer(fake: FakeOpenAI):
    fake.status(429)

    assert review_error(fake).retry_after is None


def test_retry_after_reads_milliseconds_seconds_and_http_dates():
    in_30s = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)

    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({"retry-after": "2.5"}) == 2.5
    assert 28 <= retry_after({"retry-after": in_30s}) <= 30
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({"retry-after": "-3"}) is None
    assert retry_after({}) is None


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_provider_unavailable(fake: FakeOpenAI, status: int):
    fake.status(status)

    error = review_error(fake)

    assert error.code == "AI_PROVIDER_UNAVAILABLE" and error.transient
    assert len(fake.requests) == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_client_errors_are_review_failed(fake: FakeOpenAI, status: int):
    fake.status(status)

    error = review_error(fake)

    assert error.code == "REVIEW_FAILED" and not error.transient


def test_answer_slower_than_the_timeout_is_model_timeout(fake: FakeOpenAI):
    fake.hang(3)  # the answer would be a valid review: an error proves we stopped waiting first

    error = review_error(fake, timeout=0.5)

    assert error.code == "MODEL_TIMEOUT"


def test_refused_connection_is_provider_unavailable():
    chat = provider(f"http://127.0.0.1:{closed_port()}/v1")

    with pytest.raises(ReviewError) as caught:
        chat.review(draft(), 2.0)

    assert caught.value.code == "AI_PROVIDER_UNAVAILABLE"


def _leaky_error_body() -> dict:
    return {"error": {"message": f"Incorrect API key provided: {LEAK}", "type": "invalid",
                      "param": None, "code": LEAK}}


def assert_no_provider_text(error: ReviewError) -> None:
    shown = [str(error), error.message, repr(error), repr(error.args),
             "".join(traceback.format_exception(error)), json.dumps(error.to_json_dict())]
    assert not any(LEAK in text for text in shown)
    assert error.__cause__ is None and error.__context__ is None


@pytest.mark.parametrize(
    ("status", "code"),
    [(400, "REVIEW_FAILED"), (401, "REVIEW_FAILED"), (429, "AI_RATE_LIMITED"),
     (500, "AI_PROVIDER_UNAVAILABLE")],
)
def test_no_provider_text_escapes_from_http_errors(fake: FakeOpenAI, status: int, code: str):
    fake.status(status, headers={"x-detail": LEAK}, body=_leaky_error_body())

    error = review_error(fake)

    assert error.code == code, "the scripted status must be the one answered"
    assert_no_provider_text(error)


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(lambda f: f.status(401, body=f"plain text {LEAK}"), id="text-body"),
        pytest.param(lambda f: f.reply_text(f"{LEAK} not json"), id="invalid-json"),
        pytest.param(lambda f: f.reply(DEFAULT_REVIEW | {"qualityScore": 150, "issues": [LEAK]}),
                     id="schema"),
        pytest.param(lambda f: f.reply_text(None, refusal=LEAK), id="refusal"),
        pytest.param(lambda f: f.status(200, body=f"{LEAK} not json"), id="malformed-body"),
    ],
)
def test_no_provider_text_escapes_in_errors(fake: FakeOpenAI, script):
    script(fake)

    assert_no_provider_text(review_error(fake))


def test_openai_factory_uses_openai_settings(fake: FakeOpenAI):
    settings = Settings(OPENAI_API_KEY="sk-from-settings", OPENAI_BASE_URL=fake.base_url,
                        OPENAI_MODEL="gpt-configured", model_timeout=2)

    chat = openai_provider(settings)
    chat.review(draft(), 2.0)

    assert (chat.name, chat.model) == ("openai", "gpt-configured")
    assert fake.requests[0]["model"] == "gpt-configured"
    assert fake.headers[0]["authorization"] == "Bearer sk-from-settings"


def test_ollama_factory_uses_ollama_base_url_and_model(fake: FakeOpenAI):
    settings = Settings(OLLAMA_BASE_URL=fake.base_url, OLLAMA_MODEL="llama-test", model_timeout=2)

    chat = ollama_provider(settings)
    answer = chat.review(draft(), 2.0)

    assert (chat.name, chat.model) == ("ollama", "llama-test")
    assert answer.review.quality_score == DEFAULT_REVIEW["qualityScore"]
    assert fake.requests[0]["model"] == "llama-test"


def test_openai_factory_without_a_key_is_a_settings_error():
    with pytest.raises(SettingsError, match="OPENAI_API_KEY"):
        openai_provider(Settings(OPENAI_API_KEY=None))
