"""OpenAI's Files and Batches APIs through the openai SDK (economy mode's ProviderBatches for
openai, core/economy/batches_api.py).

The output and error files are read as a stream, line by line (a provider batch holds up to
50,000 answers): memory stays bounded by a line, whatever the file's size.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Final

from pydantic import ValidationError

from core.economy.batches_api import ENDED, INTENT_KEY, Answer, Created, ProviderBatchUnavailable, Status
from core.economy.policy import MAX_BYTES, MAX_REQUESTS, WINDOW_SECONDS
from core.listings.errors import ReviewError
from core.listings.prompt import render_prompt
from core.listings.providers.openai_chat import answer_from, chat_request, status_code_error
from core.listings.snapshot import decode_snapshot
from core.settings import Settings, SettingsError

ENDPOINT: Final = "/v1/chat/completions"
# An item's error code in the error file, as our bounded code.
ITEM_ERRORS = {"batch_expired": "MODEL_TIMEOUT", "batch_cancelled": "MODEL_TIMEOUT"}


class OpenAIBatches:
    """One configured OpenAI endpoint; the SDK is imported when the first client is built."""

    provider = "openai"
    max_requests = MAX_REQUESTS
    max_bytes = MAX_BYTES
    window_seconds = WINDOW_SECONDS

    def __init__(self, settings: Settings) -> None:
        import openai

        if settings.openai_api_key is None:
            raise SettingsError("OPENAI_API_KEY must be set to use economy mode")
        self.model = settings.openai_model
        self._client = openai.OpenAI(api_key=settings.openai_api_key.get_secret_value(),
                                     base_url=settings.openai_base_url, max_retries=0,
                                     timeout=openai.Timeout(settings.model_timeout, connect=10.0))

    def create(self, intent: str, requests: Sequence[tuple[str, str]]) -> Created:
        """Upload the JSONL of the requests the standard mode would send (our job id as
        custom_id) and create the batch, tagged with our intent id."""
        data = b"".join(_line(job_id, self.model, payload) for job_id, payload in requests)
        with _translated():
            uploaded = self._client.files.create(file=(f"{intent}.jsonl", data, "application/jsonl"),
                                                 purpose="batch")
            batch = self._client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT,
                                                completion_window="24h", metadata={INTENT_KEY: intent})
        return Created(batch.id, uploaded.id, datetime.fromtimestamp(batch.expires_at or 0, UTC))

    def find(self, intent: str, since: datetime) -> Created | None:
        """The list is newest first, so it is read only back to the intent's creation."""
        with _translated():
            for batch in self._client.batches.list(limit=100):
                if batch.created_at < since.timestamp() - 60:
                    return None
                if (batch.metadata or {}).get(INTENT_KEY) == intent:
                    return Created(batch.id, batch.input_file_id,
                                   datetime.fromtimestamp(batch.expires_at or 0, UTC))
        return None

    def status(self, provider_batch_id: str) -> Status:
        with _translated():
            batch = self._client.batches.retrieve(provider_batch_id)
        state = batch.status if batch.status in ENDED else "running"
        return Status(state, batch.output_file_id, batch.error_file_id)

    def answers(self, provider_batch_id: str, status: Status) -> Iterator[tuple[str, Answer]]:
        """The output file's answers, then the error file's."""
        for file_id in (status.output_file_id, status.error_file_id):
            if file_id is not None:
                yield from self._file_answers(file_id)

    def cancel(self, provider_batch_id: str) -> None:
        with _translated():
            self._client.batches.cancel(provider_batch_id)

    def _file_answers(self, file_id: str) -> Iterator[tuple[str, Answer]]:
        """Streamed: the SDK's raw response read line by line. A line that is not JSON or names
        no custom_id is left out: its item counts as unanswered."""
        with _translated(), self._client.files.with_streaming_response.content(file_id) as response:
            for text in response.iter_lines():
                line = _parsed(text)
                if isinstance(line, dict) and isinstance(line.get("custom_id"), str):
                    yield line["custom_id"], _answer(line)


def _answer(line: dict[str, Any]) -> Answer:
    response, error = line.get("response"), line.get("error")
    if isinstance(error, dict) or not isinstance(response, dict):
        code = error.get("code") if isinstance(error, dict) else None
        return ReviewError(ITEM_ERRORS.get(str(code), "AI_PROVIDER_UNAVAILABLE"))
    if response.get("status_code") != 200:
        return status_code_error(response.get("status_code"))
    return _validated(response.get("body"))


def _validated(body: Any) -> Answer:
    """Validated exactly as a direct call's answer (openai_chat.answer_from)."""
    from openai.types.chat import ChatCompletion

    try:
        return answer_from(ChatCompletion.model_validate(body))
    except ReviewError as error:
        return error
    except ValidationError:
        return ReviewError("AI_RESPONSE_INVALID")


def _parsed(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _line(job_id: str, model: str, payload: str) -> bytes:
    body = chat_request(model, render_prompt(decode_snapshot(payload)))
    line = {"custom_id": job_id, "method": "POST", "url": ENDPOINT, "body": body}
    return json.dumps(line, separators=(",", ":")).encode() + b"\n"


@contextmanager
def _translated() -> Iterator[None]:
    """Turn any SDK error into ProviderBatchUnavailable, by type only; `from None` keeps the SDK
    error (provider text) out of any traceback printed for it."""
    import openai

    try:
        yield
    except (openai.OpenAIError, ValueError) as error:
        failure = ProviderBatchUnavailable(type(error).__name__)
    else:
        return
    raise failure from None
