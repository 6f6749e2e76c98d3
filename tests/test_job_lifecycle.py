"""Claim and token-fenced writes: the job state machine in SQL."""

import uuid

from sqlalchemy import Engine, text

from core.jobs.lifecycle import claim_job, fenced_fail, fenced_succeed
from core.jobs.standalone import submit_job
from tasks.queue import DramatiqPgQueue
from tests.builders import draft


def new_job(engine: Engine) -> uuid.UUID:
    _, job = submit_job(engine, DramatiqPgQueue("q"), owner="local", key=str(uuid.uuid4()),
                        draft=draft())
    return job.job_id


def claim(engine: Engine, job_id: uuid.UUID, max_attempts: int = 3, lease: float = 0.0):
    with engine.begin() as conn:
        return claim_job(conn, job_id, max_attempts, lease)


def row(engine: Engine, job_id: uuid.UUID):
    with engine.connect() as conn:
        return conn.execute(text("select * from review_jobs where id = :id"), {"id": job_id}).one()


def test_claim_starts_an_attempt_with_a_token(engine: Engine):
    job_id = new_job(engine)
    attempt = claim(engine, job_id).attempt
    stored = row(engine, job_id)
    assert (stored.status, stored.attempts, stored.execution_token) == ("RUNNING", 1, attempt.token)
    assert '"price": 45.00' in attempt.payload


def test_late_write_from_a_replaced_attempt_is_rejected(engine: Engine):
    job_id = new_job(engine)
    old = claim(engine, job_id).attempt
    new = claim(engine, job_id).attempt
    with engine.begin() as conn:
        assert fenced_succeed(conn, old, {"qualityScore": 1}) is False
        assert fenced_succeed(conn, new, {"qualityScore": 90}) is True
    stored = row(engine, job_id)
    assert (stored.status, stored.attempts, stored.result) == ("SUCCEEDED", 2, {"qualityScore": 90})


def test_terminal_job_is_skipped_on_redelivery(engine: Engine):
    job_id = new_job(engine)
    attempt = claim(engine, job_id).attempt
    with engine.begin() as conn:
        fenced_fail(conn, attempt, "AI_RESPONSE_INVALID")
    again = claim(engine, job_id)
    assert again.attempt is None and not again.exhausted
    assert row(engine, job_id).attempts == 1


def test_job_at_the_attempt_budget_fails_without_another_attempt(engine: Engine):
    job_id = new_job(engine)
    for _ in range(2):
        claim(engine, job_id, max_attempts=2)
    exhausted = claim(engine, job_id, max_attempts=2)
    stored = row(engine, job_id)
    assert exhausted.attempt is None and exhausted.exhausted
    assert (stored.status, stored.attempts, stored.error_code) == (
        "FAILED", 2, "EXECUTION_ATTEMPTS_EXHAUSTED")
    assert stored.execution_token is None and stored.completed_at is not None


def test_failure_stores_the_fixed_safe_message(engine: Engine):
    job_id = new_job(engine)
    attempt = claim(engine, job_id).attempt
    with engine.begin() as conn:
        assert fenced_fail(conn, attempt, "MODEL_TIMEOUT")
    stored = row(engine, job_id)
    assert (stored.error_code, stored.error_message) == (
        "MODEL_TIMEOUT", "The review exceeded its time limit.")
