"""What the submit and poll steps ask of a provider's Batch API (openai_batches.py,
gemini_batches.py): one interface, so the exactly-once order, the polling and the writing of
results are written once for every provider.

Every SDK failure is raised as ProviderBatchUnavailable, by type only: SDK errors carry provider
text, which never reaches a log line or a stored error. The maintenance loop tries again on its
next pass.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer

# The provider-neutral states a provider batch is reported in (OpenAI's names; Gemini's
# JOB_STATE_* are mapped onto them): "running" until it ends in one of ENDED.
ENDED = frozenset({"completed", "failed", "expired", "cancelled"})
# Our provider batch's id travels with the provider batch (OpenAI metadata, Gemini display
# name): how a resumed intent finds a batch the provider accepted before we could record it.
INTENT_KEY = "listing_review_intent"
# Each request's prompt and response schema beside its listing, in bytes (about 3 KB measured;
# core/economy/queries.sql reserve_jobs estimates a provider batch's size with it).
REQUEST_OVERHEAD_BYTES = 4096

Answer = ProviderAnswer | ReviewError


class ProviderBatchUnavailable(Exception):
    """The provider did not answer usably; the step is tried again on a later pass."""


@dataclass(frozen=True)
class Created:
    provider_batch_id: str
    input_file_id: str | None
    expected_by: datetime


@dataclass(frozen=True)
class Status:
    """`state` is one of ENDED or "running"; the files (or None) hold the answers."""

    state: str
    output_file_id: str | None
    error_file_id: str | None


class ProviderBatches(Protocol):
    """One configured provider's Batch API."""

    provider: str
    model: str
    max_requests: int
    max_bytes: int  # the provider's limit on one provider batch's input, with a margin
    window_seconds: float  # how long the provider may hold the jobs (recovery leaves them alone)

    def create(self, intent: str, requests: Sequence[tuple[str, str]]) -> Created:
        """Send (job id, stored payload) pairs as one provider batch tagged with `intent`."""

    def find(self, intent: str, since: datetime) -> Created | None:
        """The provider batch an earlier pass created for `intent` (created after `since`)."""

    def status(self, provider_batch_id: str) -> Status: ...

    def answers(self, provider_batch_id: str, status: Status) -> Iterator[tuple[str, Answer]]:
        """(job id, validated answer or bounded error) of each answered item, read as a stream."""

    def cancel(self, provider_batch_id: str) -> None: ...
