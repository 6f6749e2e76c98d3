"""Retrying a completed batch's failed (and cancelled) listings as a new linked batch.

Only FAILED and CANCELLED items are sent again, with their snapshots exactly as first
accepted; successes are never reviewed twice. A batch is retried once it is complete, so the
set is final, and at most once (unique index review_batches_retry_of_key): retries form one
chain X -> retry(X) -> retry(retry(X)) ... Asking to retry any batch of a chain goes forward
to the chain's newest batch, so a seller never loops back to an old retry: a running newest
batch is returned as it is, a finished one with failures is retried, one with nothing left to
retry is returned as it is. The idempotency key is derived from the batch being retried, so
asking twice (a double click, two tabs) gives the same retry batch.
"""

import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from sqlalchemy import Connection, Engine

from core import telemetry
from core.batches.acceptance import (
    AcceptedBatch,
    SourceFile,
    batch_columns,
    check_count,
    store_batch,
)
from core.batches.progress import BatchSummary, read_summary
from core.costs.budget import BudgetInput, budget_of, checked_budget
from core.errors import BatchNotFound, InvalidBatchRequest, storage_errors
from core.identity.oversight import audit
from core.identity.sellers import Identity
from core.jobs.queue import JobQueue
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
# created: a new retry batch; running: the chain's newest batch is still being reviewed;
# nothing_left: the chain's newest batch finished with nothing failed or cancelled.
RetryReason = Literal["created", "running", "nothing_left"]
RETRY_REASONS: tuple[RetryReason, ...] = ("created", "running", "nothing_left")


@dataclass(frozen=True)
class RetryOutcome(AcceptedBatch):
    """The batch a retry request leads to (`summary`), and why that one (`reason`)."""

    reason: RetryReason = "created"

    @property
    def message(self) -> str:
        """The outcome in a seller's words (the UI, CLI and API say the same)."""
        name = self.summary.display_name
        if self.reason == "created":
            return f"Retrying {self.summary.total:,} listing(s) in a new batch, \"{name}\"."
        if self.reason == "running":
            return (f"The newest retry, \"{name}\", is still running: follow it, and retry once it "
                    "is complete if anything fails.")
        return f"Nothing left to retry: the newest retry, \"{name}\", has no failed or cancelled listing."

    def to_json_dict(self) -> dict[str, Any]:
        return super().to_json_dict() | {"reason": self.reason, "message": self.message}


def retry_key(batch_id: uuid.UUID) -> str:
    """The idempotency key of the retry of `batch_id` (one retry per batch and seller)."""
    return f"retry-{batch_id}"


def retry_failed(
    engine: Engine, queue: JobQueue, owner: str, batch_id: uuid.UUID, max_items: int,
    budget: BudgetInput = None, acting: Identity | None = None,
) -> RetryOutcome:
    """Go to the newest batch of `batch_id`'s retry chain: retry it as a new batch
    (retry_of = that batch) of its FAILED and CANCELLED items, accepted atomically with its
    queue messages, when it is complete with some; otherwise return it (created=False) with
    reason "running" or "nothing_left". The retry's budget is `budget` (USD, e.g. raised after
    items ended as BUDGET_EXCEEDED) or else the retried batch's. When `acting` is an operator
    retrying another seller's batch, the audit row (naming the batch retried) is written in the
    retry's own transaction, and only when the retry is created: asking again is no new action.

    Raises BatchNotFound for unknown or foreign ids; InvalidBatchRequest when `batch_id` was
    never retried and is still running or has nothing failed (or more than `max_items` did);
    StorageUnavailable when the database is down.
    """
    amount = checked_budget(budget)
    newest = _newest_of_chain(engine, owner, batch_id)
    if newest.batch_id != batch_id and not newest.retryable:
        return _outcome(AcceptedBatch(False, newest))
    if newest.status != "COMPLETED":
        raise InvalidBatchRequest("This batch is still running: retry its failures once it is complete.")
    if not newest.retryable:
        raise InvalidBatchRequest("No listing of this batch failed: there is nothing to retry.")
    return _outcome(_accept_retry(engine, queue, owner, newest, max_items, amount, acting))


def _outcome(accepted: AcceptedBatch) -> RetryOutcome:
    """Why a retry request leads to this batch: it was just created, it is still running, or
    it is finished with nothing left to retry."""
    if accepted.created:
        reason: RetryReason = "created"
    else:
        reason = "running" if accepted.summary.status != "COMPLETED" else "nothing_left"
    return RetryOutcome(created=accepted.created, summary=accepted.summary, reason=reason)


def _newest_of_chain(engine: Engine, owner: str, batch_id: uuid.UUID) -> BatchSummary:
    """The newest batch of the chain starting at `batch_id`, in one statement (then its summary)."""
    with storage_errors(), engine.connect() as connection:
        newest = connection.execute(QUERIES["newest_of_chain"],
                                    {"owner": owner, "batch_id": batch_id}).scalar_one_or_none()
        if newest is None:
            raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
        return read_summary(connection, owner, newest)


@telemetry.counts_acceptance
def _accept_retry(engine: Engine, queue: JobQueue, owner: str, batch: BatchSummary,
                  max_items: int, budget: Decimal | None, acting: Identity | None) -> AcceptedBatch:
    """Accept the retry of `batch` like any batch (one transaction, idempotent by its key), its
    jobs and their messages copied inside the database: snapshots and fingerprints are already
    checked and stored, and 10,000 rows through Python cost more than the copy (their garbage
    alone, 30-50 ms a collection). Its budget is `budget` when given (a raised one), else the
    retried batch's. The operator's audit row goes in with the new batch's jobs."""
    with storage_errors(), engine.connect() as connection:
        failed = connection.execute(QUERIES["retry_source"],
                                    {"owner": owner, "batch_id": batch.batch_id}).one()
        budget = budget or budget_of(connection, owner, batch.batch_id)
    check_count(failed.items, max_items)
    source = SourceFile(failed.source_name, failed.source_format, failed.source_columns, failed.column_map)
    copy = {"owner": owner, "batch_id": batch.batch_id}

    def insert_jobs(connection: Connection, retry_id: uuid.UUID) -> None:
        connection.execute(QUERIES["copy_retry_jobs"], copy | {"retry_id": retry_id})
        audit(connection, acting, "retry", batch.batch_id, owner)

    return store_batch(
        engine, queue, owner=owner, key=retry_key(batch.batch_id), request_hash=failed.identity,
        columns=batch_columns(source, batch.batch_id, None, None, budget), insert_jobs=insert_jobs)
