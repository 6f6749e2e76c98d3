"""A batch's mode and the one rule that reads it from a caller (CLI, API, UI)."""

from collections.abc import Sequence
from typing import Literal, get_args
from uuid import UUID

from sqlalchemy import Connection

from core.errors import InvalidBatchRequest

BatchMode = Literal["standard", "economy"]
MODES: tuple[str, ...] = get_args(BatchMode)


# The providers whose Batch API economy mode speaks (core/economy/batches_api.py).
ECONOMY_PROVIDERS = frozenset({"openai", "gemini"})


def batch_mode(value: str | None, provider: str) -> BatchMode:
    """'standard' when not given; InvalidBatchRequest (nothing stored) for anything unknown, and
    for economy with a provider that has no Batch API here (its jobs would wait forever)."""
    mode = (value or "standard").strip().lower()
    if mode == "standard":
        return "standard"
    if mode != "economy":
        raise InvalidBatchRequest("'mode' must be 'standard' or 'economy'.")
    if provider not in ECONOMY_PROVIDERS:
        raise InvalidBatchRequest("Economy mode needs the openai or gemini provider "
                                  "(LISTING_REVIEW_PROVIDER); submit in standard mode instead.")
    return "economy"


def requested_mode(value: str | None, provider: str) -> BatchMode | None:
    """The mode the seller chose, checked as batch_mode checks it; None when they chose none
    (absent or blank): mode_for decides it once the accepted listings are counted."""
    if value is None or not value.strip():
        return None
    return batch_mode(value, provider)


def mode_for(requested: BatchMode | None, provider: str, items: int, min_items: int) -> BatchMode:
    """The seller's choice; without one, economy for a batch of at least `min_items` listings
    (LISTING_REVIEW_ECONOMY_MIN_ITEMS, 0 = never) when the provider has economy mode, else
    standard. Never an error: a seller who chose nothing asked for nothing unsupported."""
    if requested is not None:
        return requested
    return "economy" if 0 < min_items <= items and provider in ECONOMY_PROVIDERS else "standard"


def automatic_rule(provider: str, min_items: int) -> str | None:
    """What "no choice" means, in the upload page's words; None when it always means standard."""
    if min_items == 0 or provider not in ECONOMY_PROVIDERS:
        return None
    return f"Automatic: economy for {min_items:,}+ listings"


class HeldForProviderBatch:
    """The queue of an economy batch's jobs: no message is written; they wait (QUEUED) for the
    maintenance loop to send them in a provider batch (core/economy/submit.py)."""

    def enqueue(self, connection: Connection, job_ids: Sequence[UUID], delay_seconds: float = 0) -> None:
        """Nothing to write: the jobs' rows are the work list."""

    def enqueue_new_batch(self, connection: Connection, batch_id: UUID) -> None:
        """Nothing to write: the jobs' rows are the work list."""


HELD_FOR_PROVIDER_BATCH = HeldForProviderBatch()
