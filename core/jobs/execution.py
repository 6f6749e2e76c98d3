"""Running one job attempt: claim (short transaction), review (no transaction), fenced write.

Model failures are stored as safe codes. Storage failures are raised so the message is
redelivered later and the job stays recoverable; they never become model failures.
"""

import logging
import uuid
from enum import Enum

from sqlalchemy import Engine

from core.jobs.lifecycle import Attempt, claim_job, fenced_fail, fenced_succeed
from core.jobs.payload import decode_snapshot
from core.listings import service
from core.listings.errors import ReviewError

log = logging.getLogger(__name__)


class Outcome(str, Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    STALE = "stale"
    SKIPPED = "skipped"
    EXHAUSTED = "exhausted"


def execute_job(engine: Engine, job_id: uuid.UUID, max_attempts: int) -> Outcome:
    """One delivery of a job. Raises on storage failures (the caller's broker retries)."""
    with engine.begin() as connection:
        claim = claim_job(connection, job_id, max_attempts)
    if claim.attempt is None:
        outcome = Outcome.EXHAUSTED if claim.exhausted else Outcome.SKIPPED
        log.info("job attempt job_id=%s outcome=%s", job_id, outcome.value)
        return outcome
    outcome = _run_attempt(engine, claim.attempt)
    log.info("job attempt job_id=%s attempt=%d outcome=%s", job_id, claim.attempt.attempts,
             outcome.value)
    return outcome


def _run_attempt(engine: Engine, attempt: Attempt) -> Outcome:
    try:
        reviewed = service.review(decode_snapshot(attempt.payload), "job")
    except ReviewError as error:
        with engine.begin() as connection:
            stored = fenced_fail(connection, attempt, error.code)
        return Outcome.FAILED if stored else _stale(attempt)
    with engine.begin() as connection:
        stored = fenced_succeed(connection, attempt, reviewed.to_stored_result())
    return Outcome.SUCCEEDED if stored else _stale(attempt)


def _stale(attempt: Attempt) -> Outcome:
    log.warning("stale job write rejected job_id=%s attempt=%d", attempt.job_id, attempt.attempts)
    return Outcome.STALE
