"""A batch's completion (review_batches.completed_at and final counts, migration 0009) is
written by PostgreSQL in the transaction of its last child's terminal write, and cannot be
written any other way; jobs per status (review_job_counts) stay exact through every change;
no row gets a default owner.
"""

import threading
import uuid

import pytest
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.progress import settle_finished_batches
from tests.test_schema_invariants import CANCELLED, NOW, RUNNING, insert_batch, insert_job

FAILED = {"status": "FAILED", "started": NOW, "completed": NOW, "code": "X"}
LIVE = RUNNING | {"token": uuid.uuid4()}


def member(conn: Connection, batch_id: uuid.UUID, position: int, **status) -> uuid.UUID:
    job_id = uuid.uuid4()
    insert_job(conn, id=job_id, key=None, batch=batch_id, item=f"i-{position}", position=position,
               **status)
    return job_id


def finish(conn: Connection, job_id: uuid.UUID, status: str = "CANCELLED") -> None:
    conn.execute(text("update review_jobs set status = cast(:s as text), completed_at = now(), "
                      "execution_token = null, "
                      "started_at = case when cast(:s as text) = 'FAILED' then now() end, "
                      "heartbeat_at = null, error_code = case when cast(:s as text) = 'FAILED' then 'X' end "
                      "where id = :id"), {"s": status, "id": job_id})


def completion(conn: Connection, batch_id: uuid.UUID):
    return conn.execute(text("select completed_at, succeeded, failed, cancelled from review_batches "
                             "where id = :id"), {"id": batch_id}).one()


def test_the_last_terminal_write_completes_the_batch_in_its_transaction(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        first, second = member(conn, batch_id, 1, **LIVE), member(conn, batch_id, 2)
        member(conn, batch_id, 3, **FAILED)
    with engine.begin() as conn:
        finish(conn, first, "FAILED")
        assert completion(conn, batch_id).completed_at is None
        finish(conn, second)
        done = completion(conn, batch_id)
    assert done.completed_at is not None and (done.succeeded, done.failed, done.cancelled) == (0, 2, 1)


def test_two_last_jobs_finishing_at_once_complete_the_batch(engine: Engine) -> None:
    """The second writer either waits for the first (and then sees its job terminal) or does
    not; either way, once both committed the batch is complete. A trigger that only looked
    for unfinished siblings in its own snapshot would see each other's job unfinished."""
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        first, second = member(conn, batch_id, 1), member(conn, batch_id, 2)
    finish_both_at_once(engine, first, second)
    with engine.connect() as conn:
        assert completion(conn, batch_id).completed_at is not None


def finish_both_at_once(engine: Engine, first: uuid.UUID, second: uuid.UUID) -> None:
    """`first` written in a transaction held open until `second`, in another session, has
    been written or waits for a lock; then both commit."""
    holder = engine.connect()
    holder.begin()
    finish(holder, first)
    written = threading.Event()
    other = threading.Thread(target=lambda: _finish_alone(engine, second, written))
    other.start()
    _wait_until_blocked_or(engine, written)
    holder.commit()
    holder.close()
    other.join(timeout=30)


def _finish_alone(engine: Engine, job_id: uuid.UUID, written: threading.Event | None = None,
                  commit: threading.Event | None = None) -> None:
    with engine.begin() as conn:
        finish(conn, job_id)
        if written is not None:
            written.set()
        if commit is not None:
            commit.wait(30)


def _wait_until_blocked_or(engine: Engine, written: threading.Event) -> None:
    """Until another session waits for a row lock held by the test, or has written its job."""
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT")
        for _ in range(10_000):
            waiting = conn.execute(text("select count(*) from pg_stat_activity "
                                        "where wait_event_type = 'Lock'")).scalar_one()
            if waiting or written.is_set():
                return
            conn.execute(text("select pg_sleep(0.01)"))
    raise AssertionError("the second writer neither waited nor wrote")


def test_terminal_writes_of_one_batch_do_not_wait_for_each_other(engine: Engine) -> None:
    """Two jobs of a batch with other jobs unfinished: the second terminal write commits while
    the first's transaction is still open (0009's trigger made it wait for the batch row)."""
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        jobs = [member(conn, batch_id, position) for position in range(1, 5)]
    holder = engine.connect()
    holder.begin()
    finish(holder, jobs[1])
    with engine.begin() as conn:
        conn.execute(text("set local lock_timeout = '20s'"))  # a wait fails instead of hanging
        finish(conn, jobs[2])
    holder.commit()
    holder.close()
    with engine.connect() as conn:
        assert completion(conn, batch_id).completed_at is None


def test_the_last_writers_of_many_batches_at_once_complete_every_batch(engine: Engine) -> None:
    """Every job of two batches at once, each in its own session held open until all eight
    have written or wait, ten times: every batch completes, with its counts and the completion
    time of its last job."""
    with engine.begin() as conn:
        batches = [insert_batch(conn) for _ in range(20)]
        jobs = [member(conn, batch_id, position) for batch_id in batches for position in range(1, 5)]
    for start in range(0, len(jobs), 8):
        _finish_together(engine, jobs[start:start + 8])
    with engine.connect() as conn:
        for batch_id in batches:
            done = completion(conn, batch_id)
            last = conn.execute(text("select max(completed_at) from review_jobs where batch_id = :id"),
                                {"id": batch_id}).scalar_one()
            assert (done.completed_at, done.cancelled) == (last, 4)


def _finish_together(engine: Engine, job_ids: list[uuid.UUID]) -> None:
    """Each job in its own session; none commits before every one has written or is waiting."""
    commit = threading.Event()
    written = [threading.Event() for _ in job_ids]
    threads = [threading.Thread(target=_finish_alone, args=(engine, job_id, done, commit))
               for job_id, done in zip(job_ids, written, strict=True)]
    for thread in threads:
        thread.start()
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT")
        for _ in range(10_000):
            waiting = conn.execute(text(
                "select count(*) from pg_stat_activity "
                "where wait_event_type = 'Lock' and datname = current_database()")).scalar_one()
            if waiting + sum(done.is_set() for done in written) >= len(job_ids):
                break
            conn.execute(text("select pg_sleep(0.01)"))
    commit.set()
    for thread in threads:
        thread.join(timeout=30)


BROKEN = {
    "completed with an unfinished child": "update review_batches set completed_at = now(), "
        "succeeded = 0, failed = 0, cancelled = 0 where id = :id",
    "counts without completion": "update review_batches set succeeded = 1 where id = :id",
}


@pytest.mark.parametrize("statement", BROKEN.values(), ids=BROKEN.keys())
def test_a_completion_cannot_be_written_by_hand(engine: Engine, statement: str):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        member(conn, batch_id, 1)
    with pytest.raises(IntegrityError) as caught, engine.begin() as conn:
        conn.execute(text(statement), {"id": batch_id})
    assert "review_batches_completion_guard" in str(caught.value)


def test_counts_without_a_completion_break_the_outcome_check(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
    with pytest.raises(IntegrityError, match="review_batches_outcome_check"), engine.begin() as conn:
        conn.execute(text("update review_batches set succeeded = 1 where id = :id"), {"id": batch_id})


def test_a_completion_is_never_rewritten_nor_born(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        member(conn, batch_id, 1, **CANCELLED)
        finish(conn, member(conn, batch_id, 2))
    with pytest.raises(IntegrityError, match="review_batches_completion_guard"), engine.begin() as conn:
        conn.execute(text("update review_batches set cancelled = 5 where id = :id"), {"id": batch_id})
    with pytest.raises(IntegrityError, match="review_batches_completion_guard"), engine.begin() as conn:
        conn.execute(text("insert into review_batches (id, owner, idempotency_key, request_hash, "
                          "completed_at, succeeded, failed, cancelled) values (gen_random_uuid(), "
                          "'s', 'k', repeat('a', 64), now(), 0, 0, 0)"))


@pytest.mark.parametrize("table", ["review_batches", "review_jobs"])
def test_a_row_without_an_owner_is_refused(engine: Engine, table: str):
    columns = {"review_batches": "(id, idempotency_key, request_hash) "
                                 "values (gen_random_uuid(), 'k', repeat('a', 64))",
               "review_jobs": "(id, idempotency_key, request_hash, payload, status) "
                              "values (gen_random_uuid(), 'k', repeat('a', 64), '{}', 'QUEUED')"}
    with pytest.raises(IntegrityError, match="owner"), engine.begin() as conn:
        conn.execute(text(f"insert into {table} {columns[table]}"))


def test_jobs_per_status_stay_exact_through_every_change(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        jobs = [member(conn, batch_id, position) for position in range(1, 6)]
        insert_job(conn, **LIVE)
    with engine.begin() as conn:
        finish(conn, jobs[0])
        finish(conn, jobs[1], "FAILED")
    with engine.begin() as conn:
        conn.execute(text("delete from review_jobs where id = :id"), {"id": jobs[2]})
    assert counted(engine) == actual(engine) == {"QUEUED": 2, "RUNNING": 1, "CANCELLED": 1, "FAILED": 1}
    with engine.begin() as conn:
        conn.execute(text("truncate review_jobs cascade"))
    assert counted(engine) == actual(engine) == {}


def counted(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        rows = conn.execute(text("select status, sum(count) from review_job_counts group by status"))
        return {status: count for status, count in rows if count}


def actual(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(text("select status, count(*) from review_jobs group by status")).all())


def test_the_safety_net_completes_a_batch_the_trigger_never_saw_finish(engine: Engine) -> None:
    """Jobs inserted already terminal fire no UPDATE trigger: maintenance's sweep completes
    their batch, and leaves unfinished and empty batches alone."""
    with engine.begin() as conn:
        finished, unfinished, empty = insert_batch(conn), insert_batch(conn), insert_batch(conn)
        member(conn, finished, 1, **FAILED)
        member(conn, finished, 2, **CANCELLED)
        member(conn, unfinished, 1, **FAILED)
        member(conn, unfinished, 2)
    assert settle_finished_batches(engine) == 1
    with engine.connect() as conn:
        done = completion(conn, finished)
        assert done.completed_at is not None and (done.succeeded, done.failed, done.cancelled) == (0, 1, 1)
        assert completion(conn, unfinished).completed_at is None
        assert completion(conn, empty).completed_at is None
    assert settle_finished_batches(engine) == 0
