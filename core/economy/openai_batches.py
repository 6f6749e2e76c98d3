"""OpenAI's Files and Batches APIs through the openai SDK: the only HTTP of economy mode.

Every SDK failure is raised as ProviderBatchUnavailable, by type only: SDK errors carry provider
text, which never reaches a log line or a stored error. The maintenance loop simply tries again
on its next pass.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from core.listings.prompt import render_prompt
from core.listings.providers.openai_chat import chat_request
from core.listings.snapshot import decode_snapshot
from core.settings import Settings, SettingsError

if TYPE_CHECKING:
    pass

ENDPOINT = "/v1/chat/completions"
# Our provider batch's id in the provider batch's metadata: how a resumed intent finds a batch
# the provider accepted before we could record it.
INTENT_KEY = "listing_review_intent"
# States after which the provider batch changes no more (its files are final).
ENDED = frozenset({"completed", "failed", "expired", "cancelled"})


class ProviderBatchUnavailable(Exception):
    """The provider did not answer usably; the step is tried again on a later pass."""


@dataclass(frozen=True)
class Created:
    provider_batch_id: str
    input_file_id: str
    expected_by: datetime


@dataclass(frozen=True)
class Status:
    state: str
    output_file_id: str | None
    error_file_id: str | None


class OpenAIBatches:
    """One configured OpenAI endpoint; the SDK is imported when the first client is built."""

    provider = "openai"

    def __init__(self, settings: Settings) -> None:
        import openai

        if settings.openai_api_key is None:
            raise SettingsError("OPENAI_API_KEY must be set to use economy mode")
        self.model = settings.openai_model
        self._client = openai.OpenAI(api_key=settings.openai_api_key.get_secret_value(),
                                     base_url=settings.openai_base_url, max_retries=0,
                                     timeout=openai.Timeout(settings.model_timeout, connect=10.0))

    def input_file(self, requests: Sequence[tuple[str, str]]) -> bytes:
        """The JSONL of (job id, stored payload) pairs: the request the standard mode would send,
        with our job id as custom_id."""
        return b"".join(_line(job_id, self.model, payload) for job_id, payload in requests)

    def create(self, intent: str, data: bytes) -> Created:
        """Upload the input file and create the batch, tagged with our intent id."""
        with _translated():
            uploaded = self._client.files.create(file=(f"{intent}.jsonl", data, "application/jsonl"),
                                                 purpose="batch")
            batch = self._client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                completion_window="24h", metadata={INTENT_KEY: intent})
        return Created(batch.id, uploaded.id, datetime.fromtimestamp(batch.expires_at or 0, UTC))

    def find(self, intent: str, since: datetime) -> Created | None:
        """The provider batch an earlier pass created for this intent, if any: the list is newest
        first, so it is read only back to the intent's creation."""
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
        return Status(batch.status, batch.output_file_id, batch.error_file_id)

    def lines(self, file_id: str | None) -> Iterator[Any]:
        """The JSON lines of an output or error file (none when there is no file). A line that is
        not JSON is left out: its item counts as unanswered (core/economy/results.py)."""
        if file_id is None:
            return iter(())
        with _translated():
            content = self._client.files.content(file_id).text
        return (parsed for parsed in map(_parsed, content.splitlines()) if parsed is not None)

    def cancel(self, provider_batch_id: str) -> None:
        with _translated():
            self._client.batches.cancel(provider_batch_id)


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
    """Turn any SDK error into ProviderBatchUnavailable, raised outside the `except` block so the
    SDK error (provider text) is not even its context."""
    import openai

    try:
        yield
    except (openai.OpenAIError, ValueError) as error:
        failure = ProviderBatchUnavailable(type(error).__name__)
    else:
        return
    raise failure
