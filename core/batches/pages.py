"""Keyset pages of a batch's items, in accepted order (positions never change)."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Engine

from core.errors import BatchNotFound, InvalidBatchRequest, storage_errors
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)
LIMIT_MAX = 100
DEFAULT_LIMIT = 25
ItemFilter = Literal["failed", "human_review"]


@dataclass(frozen=True)
class BatchItem:
    item_id: str
    job_id: uuid.UUID
    position: int
    status: str
    submitted_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    result: dict[str, Any] | None
    error_code: str | None
    error_message: str | None

    def to_json_dict(self) -> dict[str, Any]:
        """The article's item shape."""
        error = {"code": self.error_code, "message": self.error_message} if self.error_code else None
        return {
            "itemId": self.item_id,
            "jobId": str(self.job_id),
            "status": self.status,
            "submittedAt": iso(self.submitted_at),
            "startedAt": iso(self.started_at),
            "completedAt": iso(self.completed_at),
            "result": self.result,
            "error": error,
        }


@dataclass(frozen=True)
class ItemsPage:
    batch_id: uuid.UUID
    items: list[BatchItem]
    next_after: int | None

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "batchId": str(self.batch_id),
            "items": [item.to_json_dict() for item in self.items],
            "nextAfter": self.next_after,
        }


def get_items_page(
    engine: Engine, owner: str, batch_id: uuid.UUID, *, after: int = 0,
    limit: int = DEFAULT_LIMIT, max_after: int, only: ItemFilter | None = None,
) -> ItemsPage:
    """Items with position > `after`, at most `limit`; `next_after` is None on the last page.
    `only` keeps failures ("failed") or reviews asking for a human ("human_review").

    Raises InvalidBatchRequest for out-of-range paging and BatchNotFound for unknown ids.
    """
    if not 0 <= after <= max_after:
        raise InvalidBatchRequest(f"'after' must be between 0 and {max_after}.")
    if not 1 <= limit <= LIMIT_MAX:
        raise InvalidBatchRequest(f"'limit' must be between 1 and {LIMIT_MAX}.")
    params = {"owner": owner, "batch_id": batch_id, "after": after, "limit_plus_one": limit + 1,
              "only": only}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["batch_items_page"], params).all()
    if not rows:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    items = [_item(row) for row in rows if row.id is not None]
    next_after = items[limit - 1].position if len(items) > limit else None
    return ItemsPage(batch_id, items[:limit], next_after)


def _item(row: Any) -> BatchItem:
    return BatchItem(
        item_id=row.item_id, job_id=row.id, position=row.item_position, status=row.status,
        submitted_at=row.submitted_at, started_at=row.started_at, completed_at=row.completed_at,
        result=row.result, error_code=row.error_code, error_message=row.error_message,
    )
