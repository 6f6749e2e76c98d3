"""The job state machine's writes: claim, then a token-fenced succeed or fail.

Repository functions take the caller's connection and never commit.
"""

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, TextClause

from core.jobs.status import TERMINAL_STATUSES
from core.listings.errors import SAFE_MESSAGES
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
EXHAUSTED = "EXECUTION_ATTEMPTS_EXHAUSTED"


@dataclass(frozen=True)
class Attempt:
    """A claimed job: the token is this attempt's right to write the outcome."""

    job_id: uuid.UUID
    token: uuid.UUID
    attempts: int
    payload: str
    submitted_at: datetime
    started_at: datetime


@dataclass(frozen=True)
class Claim:
    """What claiming found: an attempt to run, an exhausted job, or nothing to do."""

    attempt: Attempt | None
    exhausted: bool = False


def claim_job(
    connection: Connection, job_id: uuid.UUID, max_attempts: int, lease_seconds: float,
    unbudgeted_only: bool = False,
) -> Claim:
    """Start an attempt (new token, attempts + 1) unless the job is terminal, exhausted, or
    RUNNING with a heartbeat younger than the lease (someone is working on it); with
    `unbudgeted_only`, also unless its batch has a budget.
    """
    token = uuid.uuid4()
    row = connection.execute(QUERIES["claim_job"], {
        "id": job_id, "token": token, "max_attempts": max_attempts,
        "exhausted_message": SAFE_MESSAGES[EXHAUSTED], "lease_seconds": lease_seconds,
        "unbudgeted_only": unbudgeted_only,
    }).first()
    if row is None:
        return Claim(None)
    if row.status == "FAILED":
        return Claim(None, exhausted=True)
    return Claim(Attempt(row.id, token, row.attempts, row.payload, row.submitted_at, row.started_at))


def job_may_run(connection: Connection, job_id: uuid.UUID) -> bool:
    """Whether a delivery may still run the job (queries.sql job_may_run)."""
    params = {"id": job_id, "terminal": list(TERMINAL_STATUSES)}
    return bool(connection.execute(QUERIES["job_may_run"], params).scalar_one())


def fenced_succeed(connection: Connection, attempt: Attempt, result: dict[str, Any]) -> bool:
    """Store the result if this attempt still holds the token; False means stale."""
    return connection.execute(QUERIES["succeed_job"], succeed_params(attempt, result)).first() is not None


def succeed_statement() -> TextClause:
    """fenced_succeed's statement, for a caller that runs it inside another (one round trip)."""
    return QUERIES["succeed_job"]


def succeed_params(attempt: Attempt, result: dict[str, Any]) -> dict[str, object]:
    return {"id": attempt.job_id, "token": attempt.token, "result": json.dumps(result)}


def fenced_fail(connection: Connection, attempt: Attempt, code: str) -> bool:
    """Store a safe failure if this attempt still holds the token; False means stale."""
    params = {"id": attempt.job_id, "token": attempt.token, "code": code,
              "message": SAFE_MESSAGES[code]}
    return connection.execute(QUERIES["fail_job"], params).first() is not None


def fenced_release(connection: Connection, attempt: Attempt) -> bool:
    """Hand the job back (QUEUED) for a later retry; False means this attempt was replaced."""
    params = {"id": attempt.job_id, "token": attempt.token}
    return connection.execute(QUERIES["release_job"], params).first() is not None


def fenced_give_back(connection: Connection, attempt: Attempt) -> bool:
    """Hand the job back (QUEUED) with this attempt not counted; False means it was replaced."""
    params = {"id": attempt.job_id, "token": attempt.token}
    return connection.execute(QUERIES["give_back_job"], params).first() is not None
