"""A seller's recent batches, newest first, a keyset page at a time (the dashboard's list)."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from core.errors import InvalidBatchRequest, storage_errors
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
STATUSES = ("QUEUED", "RUNNING", "COMPLETED")
LIMIT_MAX = 100


@dataclass(frozen=True)
class BatchOverview:
    """One batch with its progress; `outcome` is None until the batch is COMPLETED."""

    batch_id: uuid.UUID
    submitted_at: datetime
    completed_at: datetime | None
    source_name: str | None
    status: str
    outcome: str | None
    total: int
    queued: int
    running: int
    succeeded: int
    failed: int
    cancelled: int

    @property
    def done(self) -> int:
        """Children in a terminal state (succeeded, failed or cancelled)."""
        return self.succeeded + self.failed + self.cancelled


@dataclass(frozen=True)
class RecentBatches:
    """A page of batches; pass `next_before` back as `before` for the next (None: last page)."""

    items: list[BatchOverview]
    next_before: tuple[datetime, uuid.UUID] | None


def list_batches(
    engine: Engine, owner: str, *, status: str | None = None,
    before: tuple[datetime, uuid.UUID] | None = None, limit: int = 20,
) -> RecentBatches:
    """Batches of `owner` submitted before `before` (newest first), optionally only those whose
    derived status is `status`. Raises InvalidBatchRequest for an unknown status or a limit
    outside 1-100, StorageUnavailable when the database is down.
    """
    if status is not None and status not in STATUSES:
        raise InvalidBatchRequest(f"status must be one of {', '.join(STATUSES)}.")
    if not 1 <= limit <= LIMIT_MAX:
        raise InvalidBatchRequest(f"'limit' must be between 1 and {LIMIT_MAX}.")
    before_at, before_id = before if before is not None else (None, None)
    params = {"owner": owner, "status": status, "before_at": before_at, "before_id": before_id,
              "limit_plus_one": limit + 1}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["recent_batches"], params).all()
    items = [_overview(row) for row in rows[:limit]]
    next_before = (items[-1].submitted_at, items[-1].batch_id) if len(rows) > limit else None
    return RecentBatches(items, next_before)


def outcome_of(status: str, succeeded: int, failed: int, cancelled: int) -> str | None:
    """How a finished batch ended; a seller's cancellation wins over the reviews' results."""
    if status != "COMPLETED":
        return None
    if cancelled:
        return "cancelled"
    if not failed:
        return "all succeeded"
    return "all failed" if not succeeded else "some failed"


def _overview(row: Any) -> BatchOverview:
    return BatchOverview(
        batch_id=row.id, submitted_at=row.submitted_at, completed_at=row.completed_at,
        source_name=row.source_name, status=row.status,
        outcome=outcome_of(row.status, row.succeeded, row.failed, row.cancelled),
        total=row.total, queued=row.queued, running=row.running, succeeded=row.succeeded,
        failed=row.failed, cancelled=row.cancelled,
    )
