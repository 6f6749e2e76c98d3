"""Review listings with any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama).

The model must answer with JSON matching REVIEW_SCHEMA; the answer is then validated again by
ListingReview, because not every compatible server enforces the schema. Every failure becomes a
ReviewError with a bounded code: SDK exceptions carry provider text (and sometimes echo the
request), so they are translated and dropped, never chained.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import openai

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
    from openai.types.shared_params import ResponseFormatJSONSchema

from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.prompt import FIELD_DESCRIPTIONS, PROMPT_VERSION, Prompt, render_prompt
from core.listings.providers.base import ProviderAnswer
from core.listings.providers.base import retry_after_seconds as retry_after
from core.listings.review import parse_review_json
from core.settings import Settings, SettingsError


def _described(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return schema | {"description": FIELD_DESCRIPTIONS[name]}


_TEXT_LIST = {"type": "array", "items": {"type": "string"}}
# Hand-written rather than ListingReview.model_json_schema(): strict structured outputs reject
# defaults and titles and need every property listed as required. Descriptions tell the model
# what each field means (strict mode keeps them).
REVIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "qualityScore": _described("qualityScore", {"type": "integer", "minimum": 0, "maximum": 100}),
        "missingFields": _described("missingFields", _TEXT_LIST),
        "issues": _described("issues", _TEXT_LIST),
        "suggestions": _described("suggestions", _TEXT_LIST),
        "requiresHumanReview": _described("requiresHumanReview", {"type": "boolean"}),
    },
    "required": ["qualityScore", "missingFields", "issues", "suggestions", "requiresHumanReview"],
    "additionalProperties": False,
}
RESPONSE_FORMAT: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {"name": "listing_review", "strict": True, "schema": REVIEW_SCHEMA},
}
# A cut-off or filtered answer is incomplete even if what arrived happens to parse. A denylist,
# not "stop" only, because some compatible servers report other or no finish reasons.
_INCOMPLETE = frozenset({"length", "content_filter"})


class OpenAIChatProvider:
    """One configured endpoint and model; the client is built once and reused across reviews."""

    def __init__(
        self, *, name: str, api_key: str, base_url: str | None, model: str, timeout: float
    ) -> None:
        self.name = name
        self.model = model
        self.prompt_version = PROMPT_VERSION
        # max_retries=0: the job layer retries, so the total of all attempts fits its deadline.
        self._client = openai.OpenAI(
            api_key=api_key, base_url=base_url, timeout=_timeout(timeout), max_retries=0
        )

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        """Raise outside the `except` block so the SDK error is not even the implicit context."""
        try:
            completion = self._complete(render_prompt(draft), timeout)
        except (openai.OpenAIError, ValueError) as error:
            failure = review_error(error)
        else:
            return answer_from(completion)
        raise failure

    def _complete(self, prompt: Prompt, timeout: float) -> ChatCompletion:
        """One Chat Completions call constrained to the review schema, deterministic-ish."""
        completion = self._client.chat.completions.create(**chat_request(self.model, prompt),
                                                          timeout=_timeout(timeout))
        return cast("ChatCompletion", completion)


def chat_request(model: str, prompt: Prompt) -> dict[str, Any]:
    """The body of one review's Chat Completions request: sent as is, or as one line of an
    economy batch's input file (core/economy), so both modes ask exactly the same."""
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": prompt.system},
        {"role": "user", "content": prompt.user},
    ]
    return {"model": model, "messages": messages, "response_format": RESPONSE_FORMAT, "temperature": 0}


def _timeout(seconds: float) -> openai.Timeout:
    """Connecting gets at most 10 s so an unreachable host fails fast.

    httpx timeouts bound each wait (connect, write, each read), not the whole call; a server
    that keeps trickling bytes is bounded only by the job layer's deadline.
    """
    return openai.Timeout(seconds, connect=min(10.0, seconds))


def review_error(error: openai.OpenAIError | ValueError) -> ReviewError:
    """Map an SDK failure to a bounded code; APITimeoutError is checked before its base class.

    ValueError: the SDK parses a 200 body outside its own error handling, so a malformed one
    surfaces as a JSONDecodeError (which holds the whole body).
    """
    if isinstance(error, ValueError):
        return ReviewError("AI_RESPONSE_INVALID")
    if isinstance(error, openai.RateLimitError):
        return ReviewError("AI_RATE_LIMITED", retry_after=retry_after(error.response.headers))
    if isinstance(error, openai.APITimeoutError):
        return ReviewError("MODEL_TIMEOUT")
    if isinstance(error, openai.APIConnectionError):
        return ReviewError("AI_PROVIDER_UNAVAILABLE")
    if isinstance(error, openai.APIStatusError):
        return status_code_error(error.status_code)
    return ReviewError("REVIEW_FAILED")


def status_code_error(status: object) -> ReviewError:
    """The bounded code of the HTTP status a request was refused with (directly, or as one item
    of an economy batch, core/economy)."""
    if status == 429:
        return ReviewError("AI_RATE_LIMITED")
    if isinstance(status, int) and status >= 500:
        return ReviewError("AI_PROVIDER_UNAVAILABLE")
    return ReviewError("REVIEW_FAILED")


def answer_from(completion: ChatCompletion) -> ProviderAnswer:
    """The validated review and token usage, or AI_RESPONSE_INVALID for any unusable answer."""
    review = parse_review_json(_content(completion))
    if review is None:
        raise ReviewError("AI_RESPONSE_INVALID")
    usage = getattr(completion, "usage", None)
    return ProviderAnswer(
        review=review,
        input_tokens=getattr(usage, "prompt_tokens", None),
        output_tokens=getattr(usage, "completion_tokens", None),
    )


def _content(completion: ChatCompletion) -> str | None:
    """The first choice's text if it is a complete, non-refused answer.

    The SDK does not validate response shapes, so a non-conforming server can leave fields
    missing; that is bad output, not a crash.
    """
    try:
        choice = completion.choices[0]
        message = choice.message
        if choice.finish_reason in _INCOMPLETE or getattr(message, "refusal", None):
            return None
        return message.content if isinstance(message.content, str) else None
    except (AttributeError, IndexError, TypeError):
        return None



def openai_provider(settings: Settings) -> OpenAIChatProvider:
    """OpenAI itself, or any compatible server named by OPENAI_BASE_URL."""
    if settings.openai_api_key is None:
        raise SettingsError("OPENAI_API_KEY must be set to use the openai provider")
    return OpenAIChatProvider(
        name="openai",
        api_key=settings.openai_api_key.get_secret_value(),
        base_url=settings.openai_base_url,
        model=settings.openai_model,
        timeout=settings.model_timeout,
    )


def ollama_provider(settings: Settings) -> OpenAIChatProvider:
    """Local Ollama via its OpenAI-compatible API; Ollama ignores the key, the SDK needs one."""
    return OpenAIChatProvider(
        name="ollama",
        api_key="ollama",
        base_url=settings.ollama_base_url,
        model=settings.ollama_model,
        timeout=settings.model_timeout,
    )
