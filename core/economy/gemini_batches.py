"""Gemini's batch mode through the google-genai SDK (economy mode's ProviderBatches for gemini,
core/economy/batches_api.py).

Requests are sent inline (POST models/{model}:batchGenerateContent), each the request the
standard path builds (generation_config: same prompt, same response schema) with our job id as
its `key` (metadata), the batch's display name our intent id. Inline requests are capped at
MAX_REQUESTS per batch job so the batch stays under Gemini's 20 MB inline limit; the answers
come back inline too, so reading them holds at most one batch job's answers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import TYPE_CHECKING, Any

from core.economy.batches_api import Answer, Created, ProviderBatchUnavailable, Status
from core.listings.errors import ReviewError
from core.listings.prompt import render_prompt
from core.listings.snapshot import decode_snapshot
from core.settings import Settings, SettingsError

if TYPE_CHECKING:
    from google.genai import types

# ~3 KB per review request: 5,000 stay well under the 20 MB of an inline batch.
MAX_REQUESTS = 5_000
# Gemini refuses an inline batch over 20 MB; reserve_jobs' estimate keeps to 16.
MAX_BYTES = 16 * 2**20
# Gemini's target is 24 hours, but a batch job expires only after 48 hours: the jobs are held
# that long plus an hour of polling slack.
WINDOW_SECONDS = 49 * 3600.0
TARGET = timedelta(hours=24)
# Gemini's job states onto the provider-neutral ones (batches_api.ENDED, else "running").
STATES = {"JOB_STATE_SUCCEEDED": "completed", "JOB_STATE_FAILED": "failed",
          "JOB_STATE_CANCELLED": "cancelled", "JOB_STATE_EXPIRED": "expired"}
# google.rpc codes of a failed item: DEADLINE_EXCEEDED is a timeout, the rest transient.
ITEM_ERRORS = {4: "MODEL_TIMEOUT", 8: "AI_RATE_LIMITED"}
# How many batch jobs a resumed intent looks through for its display name (only a crash
# between the provider's acceptance and our commit makes it look at all).
FIND_LIMIT = 1000


class GeminiBatches:
    """One configured Gemini endpoint; the SDK is imported when the client is built."""

    provider = "gemini"
    max_requests = MAX_REQUESTS
    max_bytes = MAX_BYTES
    window_seconds = WINDOW_SECONDS

    def __init__(self, settings: Settings) -> None:
        from core.listings.providers.gemini import sdk_client

        if settings.gemini_api_key is None:
            raise SettingsError("GEMINI_API_KEY must be set to use economy mode")
        self.model = settings.gemini_model
        self._timeout = settings.model_timeout
        self._client = sdk_client(settings.gemini_api_key.get_secret_value(), settings.gemini_base_url,
                                  settings.model_timeout)

    def create(self, intent: str, requests: Sequence[tuple[str, str]]) -> Created:
        inlined = [self._request(job_id, payload) for job_id, payload in requests]
        with _translated():
            job = self._client.batches.create(model=self.model, src=inlined, config={"display_name": intent})
        return _created(job)

    def find(self, intent: str, since: datetime) -> Created | None:
        """The newest FIND_LIMIT jobs are read whatever their order (Gemini does not document
        the list's), skipping those created before the intent."""
        with _translated():
            for job in islice(self._client.batches.list(config={"page_size": 100}), FIND_LIMIT):
                if job.display_name == intent and (job.create_time or since) >= since - timedelta(minutes=1):
                    return _created(job)
        return None

    def status(self, provider_batch_id: str) -> Status:
        with _translated():
            job = self._client.batches.get(name=provider_batch_id)
        state = STATES.get(job.state.value if job.state else "", "running")
        return Status(state, job.dest.file_name if job.dest else None, None)

    def answers(self, provider_batch_id: str, status: Status) -> Iterator[tuple[str, Answer]]:
        """The inlined answers, each keyed by its request's `key`; one without a key names no job."""
        with _translated():
            job = self._client.batches.get(name=provider_batch_id)
        for item in (job.dest.inlined_responses or []) if job.dest else []:
            key = (item.metadata or {}).get("key")
            if isinstance(key, str):
                yield key, _answer(item)

    def cancel(self, provider_batch_id: str) -> None:
        with _translated():
            self._client.batches.cancel(name=provider_batch_id)

    def _request(self, job_id: str, payload: str) -> types.InlinedRequest:
        from google.genai import types

        from core.listings.providers.gemini import generation_config

        prompt = render_prompt(decode_snapshot(payload))
        config = generation_config(prompt, self._timeout).model_copy(update={"http_options": None})
        return types.InlinedRequest(contents=prompt.user, config=config, metadata={"key": job_id})


def _answer(item: Any) -> Answer:
    """An item's answer validated as a direct call's (gemini.answer_from), or its bounded error."""
    from core.listings.providers.gemini import answer_from

    if item.error is not None or item.response is None:
        code = item.error.code if item.error is not None else None
        return ReviewError(ITEM_ERRORS.get(code or 0, "AI_PROVIDER_UNAVAILABLE"))
    try:
        return answer_from(item.response)
    except ReviewError as error:
        return error


def _created(job: Any) -> Created:
    if not job.name:
        raise ProviderBatchUnavailable("BatchJob")
    started = job.create_time or datetime.now(UTC)
    return Created(job.name, None, started + TARGET)


@contextmanager
def _translated() -> Iterator[None]:
    """Turn any SDK or transport error into ProviderBatchUnavailable, by type only; `from None`
    keeps the SDK error (provider text) out of any traceback printed for it."""
    from core.listings.providers.gemini import SDK_FAILURES

    failures: tuple[type[Exception], ...] = (*SDK_FAILURES, ValueError)
    try:
        yield
    except failures as error:
        failure = ProviderBatchUnavailable(type(error).__name__)
    else:
        return
    raise failure from None
