"""A seller's recent batches, newest first, a keyset page at a time (the dashboard's list)."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine

from core.batches.progress import BATCH_STATUSES, BatchSummary, progress_params, summary_from
from core.errors import InvalidBatchRequest, storage_errors
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
LIMIT_MAX = 100
# Each status filter walks the index that holds only the batches it can return.
_QUERY_BY_STATUS = {None: "recent_batches", "COMPLETED": "recent_completed_batches",
                    "QUEUED": "recent_unfinished_batches", "RUNNING": "recent_unfinished_batches"}


@dataclass(frozen=True)
class RecentBatches:
    """A page of batches; pass `next_before` back as `before` for the next (None: last page)."""

    items: list[BatchSummary]
    next_before: tuple[datetime, uuid.UUID] | None


def list_batches(
    engine: Engine, owner: str, *, status: str | None = None,
    before: tuple[datetime, uuid.UUID] | None = None, limit: int = 20,
) -> RecentBatches:
    """Batches of `owner` submitted before `before` (newest first), optionally only those whose
    derived status is `status`. Raises InvalidBatchRequest for an unknown status or a limit
    outside 1-100, StorageUnavailable when the database is down.
    """
    if status is not None and status not in BATCH_STATUSES:
        raise InvalidBatchRequest(f"status must be one of {', '.join(BATCH_STATUSES)}.")
    if not 1 <= limit <= LIMIT_MAX:
        raise InvalidBatchRequest(f"'limit' must be between 1 and {LIMIT_MAX}.")
    before_at, before_id = before if before is not None else (None, None)
    params = progress_params(owner=owner, status=status, before_at=before_at, before_id=before_id,
                             limit_plus_one=limit + 1)
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES[_QUERY_BY_STATUS[status]], params).all()
    items = [summary_from(row) for row in rows[:limit]]
    next_before = (items[-1].submitted_at, items[-1].batch_id) if len(rows) > limit else None
    return RecentBatches(items, next_before)
