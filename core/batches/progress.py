"""Batch progress, derived from the child jobs in one statement (the batch has no counters)."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine

from core.errors import BatchNotFound, storage_errors
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)


@dataclass(frozen=True)
class BatchSummary:
    batch_id: uuid.UUID
    submitted_at: datetime
    completed_at: datetime | None
    source_name: str | None
    source_format: str | None
    total: int
    queued: int
    running: int
    succeeded: int
    failed: int
    cancelled: int = 0

    @property
    def done(self) -> int:
        """Children in a terminal state (succeeded, failed or cancelled)."""
        return self.succeeded + self.failed + self.cancelled

    @property
    def status(self) -> str:
        """QUEUED while every child is queued, COMPLETED when all are terminal (succeeded,
        failed or cancelled), else RUNNING.
        """
        if self.queued == self.total:
            return "QUEUED"
        if self.succeeded + self.failed + self.cancelled == self.total:
            return "COMPLETED"
        return "RUNNING"

    def to_json_dict(self) -> dict:
        """The article's summary shape."""
        return {
            "batchId": str(self.batch_id),
            "submittedAt": iso(self.submitted_at),
            "completedAt": iso(self.completed_at),
            "status": self.status,
            "total": self.total,
            "queued": self.queued,
            "running": self.running,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "cancelled": self.cancelled,
            "sourceName": self.source_name,
        }


def read_summary(connection: Connection, owner: str, batch_id: uuid.UUID) -> BatchSummary:
    """Summary inside the caller's transaction; BatchNotFound for unknown or foreign ids."""
    row = connection.execute(QUERIES["batch_summary"], {"owner": owner, "batch_id": batch_id}).first()
    if row is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return BatchSummary(
        batch_id=row.id,
        submitted_at=row.submitted_at,
        completed_at=row.completed_at,
        source_name=row.source_name,
        source_format=row.source_format,
        total=row.total,
        queued=row.queued,
        running=row.running,
        succeeded=row.succeeded,
        failed=row.failed,
        cancelled=row.cancelled,
    )


def get_summary(engine: Engine, owner: str, batch_id: uuid.UUID) -> BatchSummary:
    """Current progress of one batch of `owner`."""
    with storage_errors(), engine.connect() as connection:
        return read_summary(connection, owner, batch_id)


def score_distribution(engine: Engine, owner: str, batch_id: uuid.UUID) -> list[tuple[int, int]]:
    """(bucket start, items) for the batch's successful reviews, in buckets of ten."""
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["score_distribution"],
                                  {"owner": owner, "batch_id": batch_id}).all()
    return [(row.bucket, row.items) for row in rows]
