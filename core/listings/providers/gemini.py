"""The Gemini provider: one generateContent call per listing through the google-genai SDK.

Why it looks the way it does:
- The SDK never retries (one attempt): the job layer owns retries, so SDK retries would
  multiply attempts and overrun the review's time limit.
- The answer is constrained to a JSON schema and then validated again by ListingReview,
  because a schema is a request to the model, not a guarantee.
- Every failure becomes a ReviewError with a bounded code, created outside the `except`
  block so not even `__context__` carries SDK exceptions, provider text or the model's
  output towards logs or sellers.
"""

import importlib
import json
import math
import re
from typing import Any

from google import genai
from google.genai import errors, types

from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.prompt import FIELD_DESCRIPTIONS, PROMPT_VERSION, Prompt, render_prompt
from core.listings.providers.base import ProviderAnswer, retry_after_seconds
from core.listings.review import ListingReview, parse_review_json
from core.settings import Settings, SettingsError

__all__ = ["REVIEW_SCHEMA", "SDK_FAILURES", "GeminiProvider", "answer_from", "gemini_provider",
           "generation_config", "sdk_client"]


def _field(name: str, kind: types.Type, **more: Any) -> types.Schema:
    return types.Schema(type=kind, description=FIELD_DESCRIPTIONS[name], **more)


_STRING = types.Schema(type=types.Type.STRING)
# The camelCase ListingReview shape with each field's meaning; ListingReview still validates
# whatever comes back.
REVIEW_SCHEMA = types.Schema(
    type=types.Type.OBJECT,
    properties={
        "qualityScore": _field("qualityScore", types.Type.INTEGER, minimum=0, maximum=100),
        "missingFields": _field("missingFields", types.Type.ARRAY, items=_STRING),
        "issues": _field("issues", types.Type.ARRAY, items=_STRING),
        "suggestions": _field("suggestions", types.Type.ARRAY, items=_STRING),
        "requiresHumanReview": _field("requiresHumanReview", types.Type.BOOLEAN),
    },
    required=["qualityScore", "missingFields", "issues", "suggestions", "requiresHumanReview"],
)
_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)s\s*")  # protobuf Duration JSON: "7s", "0.5s"


def _transport_classes(name: str) -> tuple[type[Exception], ...]:
    """The SDK sends through httpx2 when it is installed, else httpx: catch whichever exist."""
    found: list[type[Exception]] = []
    for module in ("httpx", "httpx2"):
        try:
            found.append(getattr(importlib.import_module(module), name))
        except ImportError:
            continue
    return tuple(found)


_TIMEOUT_ERRORS = _transport_classes("TimeoutException")
_TRANSPORT_ERRORS = _transport_classes("TransportError")  # includes the timeouts
_UNAVAILABLE: tuple[type[Exception], ...] = (errors.ServerError, *_TRANSPORT_ERRORS)
# A 200 whose body is not JSON surfaces as one of these, depending on the SDK's code path.
_UNREADABLE: tuple[type[Exception], ...] = (errors.UnknownApiResponseError, json.JSONDecodeError)
SDK_FAILURES: tuple[type[Exception], ...] = (errors.APIError, *_UNREADABLE, *_TRANSPORT_ERRORS)


class GeminiProvider:
    """ReviewProvider backed by the Gemini API; one SDK client (connection pool) per provider."""

    name = "gemini"
    prompt_version = PROMPT_VERSION

    def __init__(self, *, api_key: str, base_url: str | None, model: str, timeout: float) -> None:
        self.model = model
        self._client = sdk_client(api_key, base_url, timeout)

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        """Review one listing; raises ReviewError, never an SDK or transport exception."""
        return answer_from(self._generate(render_prompt(draft), timeout))

    def _generate(self, prompt: Prompt, timeout: float) -> types.GenerateContentResponse:
        """Raise only after leaving `except`, so the SDK exception is not even the context."""
        config = generation_config(prompt, timeout)
        try:
            return self._client.models.generate_content(
                model=self.model, contents=prompt.user, config=config
            )
        except SDK_FAILURES as error:
            failure = _failure(error)
        raise failure from None


def sdk_client(api_key: str, base_url: str | None, timeout: float) -> genai.Client:
    """The SDK client of the Gemini API (also economy mode's, core/economy/gemini_batches.py)."""
    options = types.HttpOptions(
        base_url=base_url,
        timeout=_milliseconds(timeout),
        retry_options=types.HttpRetryOptions(attempts=1),
    )
    # vertexai=False: GOOGLE_GENAI_USE_VERTEXAI in the environment must not reroute us.
    return genai.Client(vertexai=False, api_key=api_key, http_options=options)


def gemini_provider(settings: Settings) -> GeminiProvider:
    """The provider as configured; Settings already insists on the key when provider=gemini."""
    if settings.gemini_api_key is None:
        raise SettingsError("GEMINI_API_KEY must be set to use the gemini provider")
    return GeminiProvider(
        api_key=settings.gemini_api_key.get_secret_value(),
        base_url=settings.gemini_base_url,
        model=settings.gemini_model,
        timeout=settings.model_timeout,
    )


def answer_from(response: types.GenerateContentResponse) -> ProviderAnswer:
    """The validated review and usage of one answer (also each answer of a Gemini batch job,
    core/economy/gemini_batches.py); raises ReviewError."""
    input_tokens, output_tokens = _token_usage(response)
    return ProviderAnswer(_parse_review(response), input_tokens, output_tokens)


def generation_config(prompt: Prompt, timeout: float) -> types.GenerateContentConfig:
    """Deterministic JSON-only answers without thinking: reviews are short and must be cheap.
    Economy mode's batch requests carry the same config (core/economy/gemini_batches.py)."""
    return types.GenerateContentConfig(
        system_instruction=prompt.system,
        response_mime_type="application/json",
        response_schema=REVIEW_SCHEMA,
        temperature=0,
        thinking_config=types.ThinkingConfig(thinking_budget=0),
        http_options=types.HttpOptions(timeout=_milliseconds(timeout)),
    )


def _milliseconds(seconds: float) -> int:
    """The SDK takes whole milliseconds and reads 0 as "no timeout", so round up to >= 1."""
    return max(1, math.ceil(seconds * 1000))


def _failure(error: Exception) -> ReviewError:
    """The bounded code for an SDK or transport failure (timeouts before other transport errors)."""
    if isinstance(error, errors.ClientError) and error.code == 429:
        return ReviewError("AI_RATE_LIMITED", retry_after=_retry_after(error))
    if isinstance(error, _TIMEOUT_ERRORS):
        return ReviewError("MODEL_TIMEOUT")
    if isinstance(error, _UNAVAILABLE):
        return ReviewError("AI_PROVIDER_UNAVAILABLE")
    if isinstance(error, _UNREADABLE):
        return ReviewError("AI_RESPONSE_INVALID")
    return ReviewError("REVIEW_FAILED")


def _retry_after(error: errors.APIError) -> float | None:
    """A Retry-After header in seconds, else the RetryInfo delay Google puts in error details."""
    from_header = retry_after_seconds(getattr(error.response, "headers", None) or {})
    return from_header if from_header is not None else _retry_info(error.details)


def _retry_info(body: Any) -> float | None:
    """`retryDelay` ("7s") of a google.rpc.RetryInfo detail in a Google-style error body."""
    error = body.get("error", body) if isinstance(body, dict) else {}
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        if isinstance(detail, dict) and detail.get("@type") == _RETRY_INFO:
            return _duration_seconds(detail.get("retryDelay"))
    return None


def _duration_seconds(value: Any) -> float | None:
    """Seconds of a protobuf Duration in JSON ("7s", "0.5s"), else None."""
    match = _DURATION.fullmatch(value) if isinstance(value, str) else None
    return float(match.group(1)) if match else None


def _parse_review(response: types.GenerateContentResponse) -> ListingReview:
    """Blocked, cut-off, empty, non-JSON or off-schema answers are all AI_RESPONSE_INVALID."""
    review = parse_review_json(_answer_text(response))
    if review is None:
        raise ReviewError("AI_RESPONSE_INVALID") from None
    return review


def _answer_text(response: types.GenerateContentResponse) -> str | None:
    """The text of a candidate that finished normally; SAFETY or MAX_TOKENS text is partial."""
    candidates = response.candidates or []
    if not candidates or candidates[0].finish_reason not in (types.FinishReason.STOP, None):
        return None
    return response.text



def _token_usage(response: types.GenerateContentResponse) -> tuple[int | None, int | None]:
    """(prompt, answer) tokens when the API reported them; unknown usage stays None, not 0."""
    usage = response.usage_metadata
    if usage is None:
        return None, None
    return usage.prompt_token_count, usage.candidates_token_count
