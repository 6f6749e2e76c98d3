"""Migrations and the invariants PostgreSQL enforces, each tried with a hand-written bad row."""

import uuid

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core import schema
from core.database import make_engine
from core.jobs.status import TERMINAL_STATUSES

HASH = "a" * 64


def insert_job(conn, **overrides) -> None:
    row = {"id": uuid.uuid4(), "owner": "local", "key": f"k-{uuid.uuid4()}", "hash": HASH,
           "status": "QUEUED", "started": None, "completed": None, "token": None, "result": None,
           "code": None, "batch": None, "item": None, "position": None, "attempts": 0,
           "heartbeat": None} | overrides
    conn.execute(text(
        "insert into review_jobs (id, owner, idempotency_key, request_hash, payload, status, "
        "started_at, completed_at, execution_token, result, error_code, batch_id, item_id, "
        "item_position, attempts, heartbeat_at) values (:id, :owner, :key, :hash, '{}', :status, "
        "cast(:started as timestamptz), cast(:completed as timestamptz), :token, "
        "cast(:result as jsonb), :code, :batch, :item, :position, :attempts, "
        "cast(:heartbeat as timestamptz))"), row)


def insert_batch(conn, batch_id=None, owner="local", key=None, hash_=HASH) -> uuid.UUID:
    batch_id = batch_id or uuid.uuid4()
    conn.execute(text("insert into review_batches (id, owner, idempotency_key, request_hash) "
                      "values (:id, :owner, :key, :hash)"),
                 {"id": batch_id, "owner": owner, "hash": hash_,
                  "key": f"b-{batch_id}" if key is None else key})
    return batch_id


NOW = "2026-01-01T00:00:00Z"
RUNNING = {"status": "RUNNING", "started": NOW, "heartbeat": NOW}
CANCELLED = {"status": "CANCELLED", "completed": NOW}
BAD_JOBS = {
    "unknown status": ({"status": "PAUSED", "started": NOW}, "review_jobs_status_check"),
    "terminal without completed_at": ({"status": "FAILED", "code": "X", "started": NOW},
                                      "review_jobs_terminal_completed_check"),
    "completed_at on a queued job": ({"completed": NOW}, "review_jobs_terminal_completed_check"),
    "success without result": ({"status": "SUCCEEDED", "completed": NOW, "started": NOW},
                               "review_jobs_result_check"),
    "result on a failed job": ({"status": "FAILED", "completed": NOW, "code": "X", "result": "{}",
                                "started": NOW}, "review_jobs_result_check"),
    "failure without error code": ({"status": "FAILED", "completed": NOW, "started": NOW},
                                   "review_jobs_error_check"),
    "error code on a queued job": ({"code": "X"}, "review_jobs_error_check"),
    "running without token": (RUNNING, "review_jobs_token_check"),
    "token on a queued job": ({"token": uuid.uuid4()}, "review_jobs_token_check"),
    "running never started": (RUNNING | {"started": None, "token": uuid.uuid4()},
                              "review_jobs_started_check"),
    "running without heartbeat": (RUNNING | {"heartbeat": None, "token": uuid.uuid4()},
                                  "review_jobs_heartbeat_check"),
    "negative attempts": ({"attempts": -1}, "review_jobs_attempts_check"),
    "blank owner": ({"owner": "  "}, "review_jobs_owner_check"),
    "empty key": ({"key": ""}, "review_jobs_key_check"),
    "bad request hash": ({"hash": "not-a-hash"}, "review_jobs_hash_check"),
    "neither standalone nor member": ({"key": None}, "review_jobs_membership_check"),
    "cancelled without completed_at": ({"status": "CANCELLED"},
                                       "review_jobs_terminal_completed_check"),
    "cancelled with a result": (CANCELLED | {"result": "{}"}, "review_jobs_result_check"),
    "cancelled with an error code": (CANCELLED | {"code": "CANCELLED_BY_SELLER"},
                                     "review_jobs_error_check"),
    "cancelled with a token": (CANCELLED | {"token": uuid.uuid4()}, "review_jobs_token_check"),
}


# A row every other constraint accepts, for each status the schema allows (completed_at aside).
VALID_JOBS = {
    "QUEUED": {},
    "RUNNING": RUNNING | {"token": uuid.uuid4()},
    "SUCCEEDED": {"status": "SUCCEEDED", "started": NOW, "result": "{}"},
    "FAILED": {"status": "FAILED", "started": NOW, "code": "X"},
    "CANCELLED": {"status": "CANCELLED"},
}


@pytest.mark.parametrize("status", list(VALID_JOBS))
def test_completed_at_goes_with_exactly_the_terminal_statuses_the_code_names(engine: Engine, status: str):
    """TERMINAL_STATUSES (bound into the batch progress SQL) and the schema agree."""
    completed = NOW if status in TERMINAL_STATUSES else None
    with engine.begin() as conn:
        insert_job(conn, **VALID_JOBS[status], completed=completed)
    flipped = None if completed else NOW
    with pytest.raises(IntegrityError, match="review_jobs_terminal_completed_check"), engine.begin() as conn:
        insert_job(conn, **VALID_JOBS[status], completed=flipped)


@pytest.mark.parametrize("name", list(BAD_JOBS))
def test_job_check_constraints_reject_bad_rows(engine: Engine, name: str):
    overrides, constraint = BAD_JOBS[name]
    with pytest.raises(IntegrityError, match=constraint), engine.begin() as conn:
        insert_job(conn, **overrides)


def test_membership_must_be_complete(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
    for partial in ({"batch": batch_id}, {"batch": batch_id, "item": "a"},
                    {"batch": batch_id, "item": "a", "position": 1}):
        with pytest.raises(IntegrityError), engine.begin() as conn:
            insert_job(conn, **partial)


def test_member_positions_start_at_one(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_job(conn, key=None, batch=batch_id, item="a", position=0)


def test_item_ids_and_positions_are_unique_per_batch(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        insert_job(conn, key=None, batch=batch_id, item="a", position=1)
    for duplicate in ({"item": "a", "position": 2}, {"item": "b", "position": 1}):
        with pytest.raises(IntegrityError), engine.begin() as conn:
            insert_job(conn, key=None, batch=batch_id, **duplicate)


def test_member_job_must_belong_to_its_batch_owner(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn, owner="seller-a")
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_job(conn, key=None, owner="seller-b", batch=batch_id, item="a", position=1)


def test_member_job_needs_an_existing_batch(engine: Engine):
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_job(conn, key=None, batch=uuid.uuid4(), item="a", position=1)


def test_idempotency_keys_are_unique_per_owner(engine: Engine):
    with engine.begin() as conn:
        insert_job(conn, key="same")
        insert_job(conn, key="same", owner="other")
        insert_batch(conn, key="same")
        insert_batch(conn, key="same", owner="other")
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_job(conn, key="same")
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_batch(conn, key="same")


def test_batch_check_constraints(engine: Engine):
    for bad in ({"owner": ""}, {"key": ""}, {"hash_": "x" * 64}):
        with pytest.raises(IntegrityError), engine.begin() as conn:
            insert_batch(conn, **bad)


BAD_BATCH_WORKFLOW = {
    "blank name": ("name = '   '", "review_batches_name_check"),
    "name with a control character": ("name = E'a\\nb'", "review_batches_name_check"),
    "rejected rows without their report": ("rejected_rows = 2", "review_batches_rejected_check"),
    "report without rejected rows": ("rejected_report = '[]'", "review_batches_rejected_check"),
    "negative rejected rows": ("rejected_rows = -1, rejected_report = '[]'", "review_batches_rejected_check"),
    "report that is not a list": ("rejected_rows = 1, rejected_report = '{}'",
                                  "review_batches_rejected_report_check"),
    "column map that is not an object": ("column_map = '[]'", "review_batches_column_map_check"),
}


@pytest.mark.parametrize("name", list(BAD_BATCH_WORKFLOW))
def test_batch_workflow_columns_reject_bad_values(engine: Engine, name: str):
    assignment, constraint = BAD_BATCH_WORKFLOW[name]
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
    with pytest.raises(IntegrityError, match=constraint), engine.begin() as conn:
        conn.execute(text(f"update review_batches set {assignment} where id = :id"), {"id": batch_id})


def test_a_batch_is_retried_at_most_once(engine: Engine):
    with engine.begin() as conn:
        original = insert_batch(conn)
        first = insert_batch(conn)
        second = insert_batch(conn)
        conn.execute(text("update review_batches set retry_of = :original where id = :first"),
                     {"original": original, "first": first})
    with pytest.raises(IntegrityError, match="review_batches_retry_of_key"), engine.begin() as conn:
        conn.execute(text("update review_batches set retry_of = :original where id = :second"),
                     {"original": original, "second": second})


def test_migration_from_v1_keeps_an_existing_standalone_job(empty_database_url: str):
    engine = make_engine(empty_database_url)
    try:
        schema.upgrade(engine, "0001_review_jobs")
        job_id = uuid.uuid4()
        with engine.begin() as conn:
            conn.execute(text(
                "insert into review_jobs (id, idempotency_key, request_hash, payload, status) "
                "values (:id, 'legacy-key', :hash, '{\"price\": 45.00}', 'QUEUED')"),
                {"id": job_id, "hash": HASH})
        schema.upgrade(engine)
        with engine.connect() as conn:
            row = conn.execute(text("select owner, idempotency_key, batch_id, payload::text, status "
                                    "from review_jobs where id = :id"), {"id": job_id}).one()
        assert tuple(row) == ("local", "legacy-key", None, '{"price": 45.00}', "QUEUED")
        assert schema.current_revision(engine) == schema.head_revision()
    finally:
        engine.dispose()


def test_migrating_twice_is_a_no_op(database_url: str):
    engine = make_engine(database_url)
    try:
        schema.upgrade(engine)
        assert schema.current_revision(engine) == schema.head_revision()
    finally:
        engine.dispose()
