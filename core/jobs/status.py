"""Reading one job (standalone or a batch member) for its owner."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine

from core.errors import JobNotFound, storage_errors
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)
# The statuses a job never leaves (review_jobs_terminal_completed_check pairs exactly these with
# completed_at). SQL that needs them takes them as a bind parameter, never a literal list.
TERMINAL_STATUSES = ("SUCCEEDED", "FAILED", "CANCELLED")
JOB_STATUSES = ("QUEUED", "RUNNING", *TERMINAL_STATUSES)
# The terminal statuses a seller may send again in a retry batch (everything but a success).
RETRYABLE_STATUSES = ("FAILED", "CANCELLED")


@dataclass(frozen=True)
class JobStatus:
    job_id: uuid.UUID
    batch_id: uuid.UUID | None
    item_id: str | None
    status: str
    submitted_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    attempts: int
    result: dict[str, Any] | None
    error_code: str | None
    error_message: str | None

    def to_json_dict(self) -> dict[str, Any]:
        error = {"code": self.error_code, "message": self.error_message} if self.error_code else None
        return {
            "jobId": str(self.job_id),
            "batchId": str(self.batch_id) if self.batch_id else None,
            "itemId": self.item_id,
            "status": self.status,
            "submittedAt": iso(self.submitted_at),
            "startedAt": iso(self.started_at),
            "completedAt": iso(self.completed_at),
            "attempts": self.attempts,
            "result": self.result,
            "error": error,
        }


def read_job(connection: Connection, owner: str, job_id: uuid.UUID) -> JobStatus:
    """The job inside the caller's transaction; JobNotFound for unknown or foreign ids."""
    row = connection.execute(QUERIES["get_job"], {"id": job_id, "owner": owner}).first()
    if row is None:
        raise JobNotFound(f"No review job {job_id} was found for this seller.")
    return JobStatus(
        job_id=row.id, batch_id=row.batch_id, item_id=row.item_id, status=row.status,
        submitted_at=row.submitted_at, started_at=row.started_at, completed_at=row.completed_at,
        attempts=row.attempts, result=row.result, error_code=row.error_code,
        error_message=row.error_message,
    )


def get_job(engine: Engine, owner: str, job_id: uuid.UUID) -> JobStatus:
    with storage_errors(), engine.connect() as connection:
        return read_job(connection, owner, job_id)
