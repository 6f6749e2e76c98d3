"""Retention with real PostgreSQL: only finished work past the period is purged, in chunks;
unfinished and parked work is never touched; done queue messages go after an hour; and only
`migrate` and `up` migrate (every other process refuses a schema that is behind, exit 2).
"""

import json
import threading
import uuid
from datetime import timedelta

import psycopg
import pytest
from sqlalchemy import Engine, text

from core.jobs.cancel import cancel_unstarted
from core.retention.purge import delete_done_messages, purge
from tasks.maintenance import start_maintenance_loop
from tests.test_batch_operations import accept, set_status
from tests.test_cli import run

OLD = "100 days"
RETENTION = timedelta(days=90)


def finished(engine: Engine, count: int, key: str, ago: str = OLD) -> uuid.UUID:
    batch_id = accept(engine, count, key=key)
    for position in range(1, count + 1):
        set_status(engine, batch_id, position, "FAILED", ago=ago)
    return batch_id


def batch_ids(engine: Engine) -> set[uuid.UUID]:
    with engine.connect() as conn:
        return set(conn.execute(text("select id from review_batches")).scalars())


def job_count(engine: Engine, batch_id: uuid.UUID) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select count(*) from review_jobs where batch_id = :b"),
                            {"b": batch_id}).scalar_one()


def test_purge_deletes_only_finished_batches_past_retention(engine: Engine):
    old, recent = finished(engine, 3, "old"), finished(engine, 3, "recent", ago="10 days")
    running = accept(engine, 3, key="running")
    set_status(engine, running, 1, "FAILED", ago=OLD)  # an old outcome in an unfinished batch
    report = purge(engine, RETENTION)
    assert (report.batches, report.jobs) == (1, 3)
    assert batch_ids(engine) == {recent, running}
    assert job_count(engine, old) == 0 and job_count(engine, running) == 3


def test_dry_run_counts_and_deletes_nothing(engine: Engine):
    old = finished(engine, 4, "old")
    report = purge(engine, RETENTION, dry_run=True)
    assert (report.batches, report.jobs, report.dry_run) == (1, 4, True)
    assert batch_ids(engine) == {old} and job_count(engine, old) == 4


def test_purge_works_in_chunks_of_about_the_given_size(engine: Engine):
    for number in range(5):
        finished(engine, 2, f"old-{number}")
    report = purge(engine, RETENTION, chunk_jobs=4)
    assert (report.batches, report.jobs, report.chunks) == (5, 10, 3)
    assert batch_ids(engine) == set()


def test_a_purged_batchs_retry_stays_and_forgets_its_origin(engine: Engine):
    old = finished(engine, 2, "old")
    with engine.begin() as conn:
        retry = conn.execute(text(
            "insert into review_batches (id, owner, idempotency_key, request_hash, retry_of) "
            "values (gen_random_uuid(), 'local', 'retry', repeat('a', 64), :old) returning id"),
            {"old": old}).scalar_one()
    purge(engine, RETENTION)
    with engine.connect() as conn:
        assert conn.execute(text("select retry_of from review_batches where id = :id"),
                            {"id": retry}).one() == (None,)


def test_jobs_parked_behind_a_provider_gate_are_never_purged(engine: Engine):
    waiting = accept(engine, 2, key="waiting")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set submitted_at = now() - interval '200 days' "
                          "where batch_id = :b"), {"b": waiting})
        conn.execute(text("insert into provider_gates (provider, model, state, reason, opened_at, "
                          "next_probe_at) "
                          "values ('p', 'm', 'open', 'unavailable', now(), now() + interval '1 hour')"))
        conn.execute(text("insert into provider_gate_waits (job_id, provider, model) "
                          "select id, 'p', 'm' from review_jobs where batch_id = :b"),
                     {"b": waiting})
    cancel_unstarted(engine, "local", finished(engine, 1, "old"))
    purge(engine, timedelta(hours=1))
    with engine.connect() as conn:
        parked = conn.execute(text("select count(*) from provider_gate_waits")).scalar_one()
    assert waiting in batch_ids(engine) and job_count(engine, waiting) == 2 and parked == 2


def test_done_queue_messages_older_than_an_hour_are_deleted(engine: Engine):
    rows = {"old_done": ("done", "2 hours"), "new_done": ("done", "5 minutes"),
            "old_queued": ("queued", "2 hours"), "old_consumed": ("consumed", "2 hours")}
    ids = {name: uuid.uuid4() for name in rows}
    with engine.begin() as conn:
        for name, (state, age) in rows.items():
            conn.execute(text("insert into dramatiq.queue (message_id, queue_name, state, mtime, message) "
                              "values (:id, 'q', cast(:state as dramatiq.state), "
                              "(now() at time zone 'UTC') - cast(:age as interval), '{}')"),
                         {"id": ids[name], "state": state, "age": age})
    assert delete_done_messages(engine) == 1
    with engine.connect() as conn:
        left = set(conn.execute(
            text("select message_id from dramatiq.queue where queue_name = 'q'")).scalars())
    assert left == {ids["new_done"], ids["old_queued"], ids["old_consumed"]}


def test_purge_command_reports_in_json(database_url: str, engine: Engine):
    finished(engine, 2, "old")
    dry = run("purge", "--older-than", "30d", "--dry-run", "--json", database_url=database_url)
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout) | {"cutoff": None} == {"cutoff": None, "batches": 1, "jobs": 2,
                                                          "chunks": 0, "dryRun": True}
    done = json.loads(run("purge", "--json", database_url=database_url).stdout)
    assert (done["batches"], done["jobs"], done["dryRun"]) == (1, 2, False)
    assert run("purge", "--older-than", "soon", database_url=database_url).returncode == 2


@pytest.mark.parametrize("command", [["worker"], ["ui"], ["api"], ["purge"], ["submit", "x.csv"]])
def test_only_migrate_and_up_migrate(empty_database_url: str, command: list[str]):
    result = run(*command, database_url=empty_database_url)
    assert result.returncode == 2 and "listing-review migrate" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    with psycopg.connect(empty_database_url) as conn:
        assert conn.execute("select to_regclass('alembic_version')").fetchone()[0] is None


def test_the_worker_maintenance_loop_cleans_the_queue_and_purges_on_its_own(engine: Engine):
    old = finished(engine, 2, "old")
    message = uuid.uuid4()
    with engine.begin() as conn:
        conn.execute(text("insert into dramatiq.queue (message_id, queue_name, state, mtime, message) "
                          "values (:id, 'q', 'done', (now() at time zone 'UTC') - interval '2 hours', "
                          "'{}')"), {"id": message})
    stop = threading.Event()
    thread = start_maintenance_loop(engine, 90, stop, tick=0.01)
    try:
        for _ in range(10_000):
            if old not in batch_ids(engine) and not _queued(engine, message):
                break
            stop.wait(0.01)
    finally:
        stop.set()
        thread.join()
    assert old not in batch_ids(engine) and not _queued(engine, message)


def _queued(engine: Engine, message_id: uuid.UUID) -> bool:
    with engine.connect() as conn:
        return conn.execute(text("select count(*) from dramatiq.queue where message_id = :id"),
                            {"id": message_id}).scalar_one() > 0
