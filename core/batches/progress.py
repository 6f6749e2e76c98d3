"""Batch progress, derived from the child jobs in one statement (the batch has no counters)."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine

from core.economy.mode import BatchMode
from core.errors import BatchNotFound, storage_errors
from core.jobs.status import TERMINAL_STATUSES
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)
# What batch_progress can derive, in the order a batch goes through them.
BATCH_STATUSES = ("QUEUED", "RUNNING", "COMPLETED")


@dataclass(frozen=True)
class BatchSummary:
    """One batch with its progress as the batch_progress query derives it (status and done
    included): the only definition of both, so nothing recomputes them from the counts.
    """

    batch_id: uuid.UUID
    submitted_at: datetime
    completed_at: datetime | None
    source_name: str | None
    source_format: str | None
    status: str
    total: int
    queued: int
    running: int
    succeeded: int
    failed: int
    cancelled: int
    done: int
    name: str | None = None
    retry_of: uuid.UUID | None = None
    retry_of_label: str | None = None
    rejected_rows: int = 0
    mode: BatchMode = "standard"
    chain_label: str | None = None
    retry_depth: int = 0

    @property
    def display_name(self) -> str:
        """What the seller calls the batch, everywhere: its name; for an unnamed retry, "Retry of"
        (or "Retry 2 of", 3 ...: how many retries down) the name or file of the nearest batch up
        its chain with a name, else of the chain's first batch; else its file name; else the
        start of its id."""
        if self.name:
            return self.name
        if self.retry_of is not None:
            label = self.chain_label or short_label(self.retry_of)
            return f"Retry of {label}" if self.retry_depth <= 1 else f"Retry {self.retry_depth} of {label}"
        return self.source_name or short_label(self.batch_id)

    @property
    def retryable(self) -> bool:
        """Complete with failed or cancelled items: what retry_failed accepts."""
        return self.status == "COMPLETED" and self.failed + self.cancelled > 0

    def to_json_dict(self) -> dict[str, Any]:
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
            "name": self.name,
            "displayName": self.display_name,
            "retryOf": str(self.retry_of) if self.retry_of else None,
            "retryOfName": self.retry_of_label,
            "rejectedRows": self.rejected_rows,
            "mode": self.mode,
        }


def read_summary(connection: Connection, owner: str, batch_id: uuid.UUID) -> BatchSummary:
    """Summary inside the caller's transaction; BatchNotFound for unknown or foreign ids."""
    row = connection.execute(QUERIES["batch_summary"],
                             progress_params(owner=owner, batch_id=batch_id)).first()
    if row is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return summary_from(row)


def progress_params(**values: Any) -> dict[str, Any]:
    """Bind values for a query embedding batch_progress, which takes the terminal statuses
    from core/jobs/status.py rather than restating them.
    """
    return {"terminal": list(TERMINAL_STATUSES), **values}


def summary_from(row: Any) -> BatchSummary:
    """A BatchSummary from a row of a query that selects batch_labels and batch_progress."""
    return BatchSummary(
        batch_id=row.id, submitted_at=row.submitted_at, completed_at=row.completed_at,
        source_name=row.source_name, source_format=row.source_format, status=row.status,
        total=row.total, queued=row.queued, running=row.running, succeeded=row.succeeded,
        failed=row.failed, cancelled=row.cancelled, done=row.done, name=row.name,
        retry_of=row.retry_of, retry_of_label=row.parent_name or row.parent_source_name,
        rejected_rows=row.rejected_rows, mode=row.mode, retry_depth=row.retry_depth or 0,
        chain_label=(row.anchor_name or row.anchor_source_name or short_label(row.anchor_id)
                     if row.anchor_id is not None else None),
    )


def short_label(batch_id: uuid.UUID) -> str:
    """A batch with neither name nor file: "Batch" and the first 8 characters of its id."""
    return f"Batch {str(batch_id)[:8]}"


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


def settle_finished_batches(engine: Engine) -> int:
    """Complete any batch whose jobs are all terminal but which is not marked complete (the
    maintenance loop's safety net; the completion trigger should leave none); how many."""
    with engine.begin() as connection:
        return int(connection.execute(QUERIES["settle_finished_batches"]).scalar_one())
