"""Batch operations for the dashboard, against a real PostgreSQL: the CSV header on acceptance,
cancelling, retrying, recent batches and operations figures (exports: tests/test_exports.py)."""

import csv
import io
import json
import os
import socket
import uuid
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.acceptance import accept_batch
from core.batches.progress import get_summary
from core.batches.recent import list_batches
from core.batches.retry import retry_failed
from core.batches.submission import submit_catalog
from core.batches.verdicts import batch_state_text
from core.catalogs.check import check_catalog
from core.errors import BatchNotFound, InvalidBatchRequest
from core.jobs.cancel import cancel_unstarted
from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import claim_job
from core.operations.recording import record_recoveries, record_worker_heartbeat
from core.operations.stats import operations_snapshot
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tasks.recovery import recovery_pass, requeue_orphaned_messages
from tests.builders import items
from tests.processes import wait_for
from tests.test_schema_invariants import CANCELLED, NOW, insert_batch, insert_job

QUEUE = DramatiqPgQueue("listing-reviews")
REVIEW = {"qualityScore": 90, "missingFields": ["brand", "size"], "issues": ["Short title"],
          "suggestions": ["Add the size", "Name the brand"], "requiresHumanReview": False,
          "provider": "heuristic", "model": "rules", "promptVersion": "v1", "usage": None}
CSV_HEADER = "SKU,Title,Description,Category,Price,brand,attributes,Colour\n"
CSV_ROWS = [
    'S-1,Keyboard,Wireless keyboard with receiver,Computers,45.00,KeyPro,"{""size"": ""L""}",black\n',
    "S-2,Mouse,Wireless mouse in good condition,Computers,19.90,,,white\n",
    'S-3,=HYPERLINK("http://x"),"Cable, 2 m; works",Computers,5.5,Anker,,\n',
    "S-4,Monitor,27 inch monitor with stand,Computers,120,Dell,,\n",
]


def accept(engine: Engine, count: int, key: str = "k", owner: str = "local", **options):
    return accept_batch(engine, QUEUE, owner=owner, key=key, items=items(count), max_items=1000,
                        **options).batch_id


def submit(engine: Engine, settings: Settings, name: str, data: str | bytes, owner: str = "local"):
    body = data.encode("utf-8") if isinstance(data, str) else data
    return submit_catalog(engine, QUEUE, settings, owner=owner, filename=name, data=body).batch_id


def set_status(engine: Engine, batch_id: uuid.UUID, position: int, status: str, *,
               score: int = 90, code: str = "AI_RESPONSE_INVALID", ago: str = "0 seconds") -> None:
    updates = {
        "RUNNING": "status = 'RUNNING', execution_token = gen_random_uuid(), started_at = now(), "
                   "heartbeat_at = now()",
        "SUCCEEDED": "status = 'SUCCEEDED', result = cast(:result as jsonb), started_at = now(), "
                     "completed_at = now() - cast(:ago as interval), execution_token = null, "
                     "heartbeat_at = null",
        "FAILED": "status = 'FAILED', error_code = :code, error_message = 'Safe message.', "
                  "started_at = now(), completed_at = now() - cast(:ago as interval), "
                  "execution_token = null, heartbeat_at = null",
    }
    params = {"b": batch_id, "p": position, "result": json.dumps(REVIEW | {"qualityScore": score}),
              "code": code, "ago": ago}
    with engine.begin() as conn:
        conn.execute(text(f"update review_jobs set {updates[status]} "
                          "where batch_id = :b and item_position = :p"), params)


def statuses(engine: Engine, batch_id: uuid.UUID) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text("select status from review_jobs where batch_id = :b "
                                      "order by item_position"), {"b": batch_id}).scalars())


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


# --- schema: CANCELLED and the new columns ---------------------------------------------------

def test_cancelled_job_needs_no_start_and_is_terminal(engine: Engine):
    with engine.begin() as conn:
        insert_job(conn, **CANCELLED)
        insert_job(conn, **CANCELLED, started=NOW, attempts=1)
        count = conn.execute(text("select count(*) from review_jobs where status = 'CANCELLED' "
                                  "and completed_at is not null")).scalar()
    assert count == 2


def test_batch_cannot_retry_itself_or_another_sellers_batch(engine: Engine):
    with engine.begin() as conn:
        own = insert_batch(conn, owner="seller-a")
        foreign = insert_batch(conn, owner="seller-b")
    for retry_of, constraint in ((own, "review_batches_retry_of_check"),
                                 (foreign, "review_batches_retry_of_fkey")):
        with pytest.raises(IntegrityError, match=constraint), engine.begin() as conn:
            conn.execute(text("update review_batches set retry_of = :r where id = :id"),
                         {"r": retry_of, "id": own})


def test_recovery_events_take_known_kinds_and_positive_counts(engine: Engine):
    for kind, count in (("restart", 1), ("stale_job", 0)):
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text("insert into recovery_events (kind, count) values (:k, :c)"),
                         {"k": kind, "c": count})


# --- acceptance records the CSV header --------------------------------------------------------

def source_columns(engine: Engine, batch_id: uuid.UUID):
    with engine.connect() as conn:
        return conn.execute(text("select source_columns from review_batches where id = :id"),
                            {"id": batch_id}).scalar()


def test_csv_submission_records_the_header_as_written(engine: Engine, settings: Settings):
    batch_id = submit(engine, settings, "shop.csv", CSV_HEADER + "".join(CSV_ROWS))
    assert source_columns(engine, batch_id) == ["SKU", "Title", "Description", "Category", "Price",
                                                "brand", "attributes", "Colour"]


def test_json_submission_records_no_header(engine: Engine, settings: Settings):
    listing = {"item_id": "J-1", "title": "Lamp", "description": "Desk lamp", "category": "Home",
               "price": "12.00"}
    batch_id = submit(engine, settings, "shop.json", json.dumps([listing]))
    assert source_columns(engine, batch_id) is None


def test_catalog_check_exposes_the_csv_header():
    data = (CSV_HEADER + CSV_ROWS[0]).encode()
    assert check_catalog(data, "a.csv", 10, 10**6).columns[:2] == ["SKU", "Title"]


# --- cancel -----------------------------------------------------------------------------------

def test_cancel_marks_only_queued_jobs_and_leaves_running_and_finished_alone(engine: Engine):
    batch_id = accept(engine, 5)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    set_status(engine, batch_id, 2, "FAILED")
    set_status(engine, batch_id, 3, "RUNNING")
    assert cancel_unstarted(engine, "local", batch_id) == 2
    assert statuses(engine, batch_id) == ["SUCCEEDED", "FAILED", "RUNNING", "CANCELLED", "CANCELLED"]
    summary = get_summary(engine, "local", batch_id)
    assert (summary.status, summary.cancelled, summary.completed_at) == ("RUNNING", 2, None)
    assert cancel_unstarted(engine, "local", batch_id) == 0


def test_batch_is_completed_once_the_running_job_ends_after_a_cancel(engine: Engine):
    batch_id = accept(engine, 3)
    set_status(engine, batch_id, 1, "RUNNING")
    cancel_unstarted(engine, "local", batch_id)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    summary = get_summary(engine, "local", batch_id)
    assert (summary.status, summary.succeeded, summary.cancelled) == ("COMPLETED", 1, 2)
    assert summary.completed_at is not None
    assert summary.to_json_dict()["cancelled"] == 2


def test_cancelling_everything_completes_the_batch_at_once(engine: Engine):
    batch_id = accept(engine, 2)
    assert cancel_unstarted(engine, "local", batch_id) == 2
    assert get_summary(engine, "local", batch_id).status == "COMPLETED"


def test_cancel_of_unknown_or_foreign_batch_is_not_found(engine: Engine):
    batch_id = accept(engine, 1, owner="seller-a")
    for owner, wanted in (("seller-b", batch_id), ("seller-a", uuid.uuid4())):
        with pytest.raises(BatchNotFound):
            cancel_unstarted(engine, owner, wanted)
    assert statuses(engine, batch_id) == ["QUEUED"]


def test_cancelled_job_is_never_claimed(engine: Engine):
    batch_id = accept(engine, 1)
    cancel_unstarted(engine, "local", batch_id)
    with engine.begin() as conn:
        job_id = conn.execute(text("select id from review_jobs")).scalar_one()
        claim = claim_job(conn, job_id, max_attempts=3, lease_seconds=10)
    assert claim.attempt is None and not claim.exhausted
    assert statuses(engine, batch_id) == ["CANCELLED"]


def orphan_all_messages(engine: Engine) -> None:
    """Messages a dead consumer took a minute ago (nobody holds their advisory locks)."""
    with engine.begin() as conn:
        conn.execute(text("update dramatiq.queue set state = 'consumed', "
                          "mtime = (now() at time zone 'UTC') - interval '1 minute'"))


def message_states(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return sorted(conn.execute(text("select state::text from dramatiq.queue")).scalars())


def test_recovery_marks_orphaned_messages_of_cancelled_jobs_done(engine: Engine):
    batch_id = accept(engine, 2)
    cancel_unstarted(engine, "local", batch_id)
    orphan_all_messages(engine)
    assert requeue_orphaned_messages(engine, "listing-reviews", 1) == 0
    assert message_states(engine) == ["done", "done"]
    assert operations_snapshot(engine).recoveries_last_hour["orphan_message"] == 0


# --- retry ------------------------------------------------------------------------------------

def payloads(engine: Engine, batch_id: uuid.UUID) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(
            "select item_id, payload::text from review_jobs where batch_id = :b "
            "order by item_position"), {"b": batch_id})]


def test_retry_makes_a_linked_batch_of_only_the_failed_and_cancelled_items(engine: Engine):
    original = accept(engine, 5)
    for position, status in ((1, "SUCCEEDED"), (2, "FAILED"), (3, "SUCCEEDED"), (4, "FAILED")):
        set_status(engine, original, position, status)
    cancel_unstarted(engine, "local", original)
    retry = retry_failed(engine, QUEUE, "local", original, 1000)
    assert retry.created and retry.summary.total == 3 and retry.summary.status == "QUEUED"
    failed = [row for row in payloads(engine, original) if row[0] in ("item-2", "item-4", "item-5")]
    assert payloads(engine, retry.batch_id) == failed
    with engine.connect() as conn:
        assert conn.execute(text("select retry_of from review_batches where id = :id"),
                            {"id": retry.batch_id}).scalar() == original
        messages = conn.execute(text(
            "select count(*) from dramatiq.queue q join review_jobs j "
            "on j.id = (q.message->'args'->>0)::uuid where j.batch_id = :b"), {"b": retry.batch_id})
        assert messages.scalar() == 3


def test_a_batch_is_retried_only_once_it_is_complete(engine: Engine):
    original = accept(engine, 2)
    set_status(engine, original, 1, "FAILED")
    with pytest.raises(InvalidBatchRequest, match="still running"):
        retry_failed(engine, QUEUE, "local", original, 1000)


def test_retrying_twice_returns_the_same_retry_batch(engine: Engine):
    original = accept(engine, 3)
    for position in (1, 2, 3):
        set_status(engine, original, position, "FAILED")
    first = retry_failed(engine, QUEUE, "local", original, 1000)
    second = retry_failed(engine, QUEUE, "local", original, 1000)
    assert not second.created and second.batch_id == first.batch_id
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from review_batches")).scalar() == 2


def test_retry_keeps_the_source_file_for_the_fixup_download(engine: Engine, settings: Settings):
    original = submit(engine, settings, "shop.csv", CSV_HEADER + "".join(CSV_ROWS))
    set_status(engine, original, 2, "FAILED")
    cancel_unstarted(engine, "local", original)
    retry = retry_failed(engine, QUEUE, "local", original, 1000)
    assert retry.summary.source_name == "shop.csv"
    assert source_columns(engine, retry.batch_id) == source_columns(engine, original)


def test_retry_of_a_batch_without_failures_is_invalid(engine: Engine):
    original = accept(engine, 2)
    set_status(engine, original, 1, "SUCCEEDED")
    with pytest.raises(InvalidBatchRequest):
        retry_failed(engine, QUEUE, "local", original, 1000)


def test_retry_of_unknown_or_foreign_batch_is_not_found(engine: Engine):
    original = accept(engine, 1, owner="seller-a")
    set_status(engine, original, 1, "FAILED")
    for owner, wanted in (("seller-b", original), ("seller-a", uuid.uuid4())):
        with pytest.raises(BatchNotFound):
            retry_failed(engine, QUEUE, owner, wanted, 1000)


# --- recent batches ---------------------------------------------------------------------------

def backdate(engine: Engine, batch_id: uuid.UUID, minutes: int) -> None:
    with engine.begin() as conn:
        conn.execute(text("update review_batches set submitted_at = timestamptz '2026-01-01' "
                          "+ make_interval(mins => :m) where id = :id"), {"m": minutes, "id": batch_id})


def test_recent_batches_page_newest_first_by_keyset(engine: Engine):
    batch_ids = [accept(engine, 1, key=f"k{i}") for i in range(5)]
    for batch_id, minutes in zip(batch_ids, (1, 2, 3, 3, 4), strict=True):  # two share a submitted_at
        backdate(engine, batch_id, minutes)
    accept(engine, 1, key="other", owner="seller-b")
    expected = sorted(zip((1, 2, 3, 3, 4), batch_ids, strict=True), reverse=True)
    seen, before, pages = [], None, 0
    while True:
        page = list_batches(engine, "local", before=before, limit=2)
        seen += [item.batch_id for item in page.items]
        pages += 1
        if page.next_before is None:
            break
        before = page.next_before
    assert seen == [batch_id for _, batch_id in expected] and pages == 3


def test_recent_batches_filter_by_derived_status_and_report_outcomes(engine: Engine):
    plans = {
        "queued": [], "running": [(1, "RUNNING")], "all succeeded": [(1, "SUCCEEDED"), (2, "SUCCEEDED")],
        "some failed": [(1, "SUCCEEDED"), (2, "FAILED")], "all failed": [(1, "FAILED"), (2, "FAILED")],
        "cancelled": [(1, "SUCCEEDED")],
    }
    batch_ids = {}
    for name, changes in plans.items():
        batch_ids[name] = accept(engine, 2, key=name)
        for position, status in changes:
            set_status(engine, batch_ids[name], position, status)
    cancel_unstarted(engine, "local", batch_ids["cancelled"])

    def listed(status):
        return {item.batch_id: item for item in list_batches(engine, "local", status=status).items}

    assert set(listed("QUEUED")) == {batch_ids["queued"]}
    assert set(listed("RUNNING")) == {batch_ids["running"]}
    completed = listed("COMPLETED")
    assert {batch_state_text(item.status, item.failed, item.cancelled): item.batch_id
            for item in completed.values()} == {
        "Completed": batch_ids["all succeeded"], "Completed, 1 failed": batch_ids["some failed"],
        "Completed, 2 failed": batch_ids["all failed"], "Completed, 1 cancelled": batch_ids["cancelled"]}
    cancelled = completed[batch_ids["cancelled"]]
    assert (cancelled.total, cancelled.succeeded, cancelled.cancelled) == (2, 1, 1)
    assert cancelled.completed_at is not None
    running = listed("RUNNING")[batch_ids["running"]]
    assert (batch_state_text(running.status, running.failed, running.cancelled), running.completed_at,
            running.queued, running.running) == ("Running", None, 1, 1)


def test_recent_batches_reject_unknown_status_and_bad_limits(engine: Engine):
    for options in ({"status": "FAILED"}, {"limit": 0}, {"limit": 101}):
        with pytest.raises(InvalidBatchRequest):
            list_batches(engine, "local", **options)


# --- operations -------------------------------------------------------------------------------

def test_operations_snapshot_after_a_scripted_scenario(engine: Engine):
    # Given a batch of 6: two reviewed this minute, one failed long ago, one running, two queued
    batch_id = accept(engine, 6)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    set_status(engine, batch_id, 2, "FAILED", code="MODEL_TIMEOUT")
    set_status(engine, batch_id, 3, "FAILED", code="AI_RESPONSE_INVALID", ago="2 hours")
    set_status(engine, batch_id, 4, "RUNNING")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set submitted_at = now() - interval '10 minutes' "
                          "where batch_id = :b and item_position = 5"), {"b": batch_id})
        conn.execute(text("update dramatiq.queue set state = 'consumed' where message_id in "
                          "(select message_id from dramatiq.queue limit 2)"))
        conn.execute(text("insert into recovery_events (kind, count, recorded_at) "
                          "values ('stale_job', 7, now() - interval '2 hours')"))
    # and two workers, one of which stopped heartbeating five minutes ago
    live, gone = uuid.uuid4(), uuid.uuid4()
    record_worker_heartbeat(engine, live, "host-a", 101)
    record_worker_heartbeat(engine, gone, "host-b", 202)
    with engine.begin() as conn:
        conn.execute(text("update worker_processes set heartbeat_at = now() - interval '5 minutes', "
                          "started_at = now() - interval '6 minutes' where id = :id"), {"id": gone})
    record_recoveries(engine, "stale_job", 2)
    with engine.begin() as conn:
        record_recoveries(conn, "orphan_message", 1)
        record_recoveries(conn, "orphan_message", 0)
    # When an operator opens the page
    snapshot = operations_snapshot(engine)
    # Then
    assert snapshot.queue_depth == {"queued": 4, "consumed": 2, "rejected": 0, "done": 0}
    assert snapshot.jobs_by_status == {"QUEUED": 2, "RUNNING": 1, "SUCCEEDED": 1, "FAILED": 2,
                                       "CANCELLED": 0}
    assert snapshot.failures_last_hour == {"MODEL_TIMEOUT": 1}
    assert 600 <= snapshot.oldest_queued_age_seconds < 3600
    minutes = [minute for minute, _ in snapshot.completions_per_minute]
    assert len(minutes) == 60 and all(b - a == timedelta(minutes=1) for a, b in pairwise(minutes))
    assert minutes[-1] <= snapshot.taken_at < minutes[-1] + timedelta(minutes=1)
    assert sum(count for _, count in snapshot.completions_per_minute) == 2
    assert snapshot.active_workers == 1
    assert [(w.worker_id, w.hostname, w.pid) for w in snapshot.workers] == [(live, "host-a", 101)]
    assert snapshot.recoveries_last_hour == {"stale_job": 2, "orphan_message": 1}


def test_operations_snapshot_of_an_idle_system(engine: Engine):
    snapshot = operations_snapshot(engine)
    assert snapshot.oldest_queued_age_seconds is None
    assert (snapshot.active_workers, snapshot.workers) == (0, [])
    assert set(snapshot.jobs_by_status.values()) == {0} and snapshot.failures_last_hour == {}
    assert len(snapshot.completions_per_minute) == 60
    assert snapshot.taken_at.tzinfo is not None
    assert snapshot.taken_at > datetime(2020, 1, 1, tzinfo=UTC)


def server_age_seconds(engine: Engine) -> float:
    with engine.connect() as conn:
        return float(conn.execute(text(
            "select extract(epoch from current_timestamp - pg_postmaster_start_time())")).scalar_one())


def test_recovery_pass_records_its_worker_and_what_it_recovered(engine: Engine, settings: Settings):
    # Given a job whose worker stopped heartbeating an hour ago, and an orphaned message
    batch_id = accept(engine, 2)
    set_status(engine, batch_id, 1, "RUNNING")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set heartbeat_at = now() - interval '1 hour' "
                          "where status = 'RUNNING'"))
    orphan_all_messages(engine)
    worker_id = uuid.uuid4()
    # (nothing is released within a lease of the server's start: this test may run first)
    wait_for(lambda: server_age_seconds(engine) > settings.job_lease, "the server to be a lease old")
    # When one worker runs two recovery passes
    queue = DramatiqPgQueue(settings.queue_name)
    recovery_pass(engine, queue, InFlight(), settings, worker_id)
    recovery_pass(engine, queue, InFlight(), settings, worker_id)
    # Then it shows once as active, and each recovery is counted once
    snapshot = operations_snapshot(engine)
    assert [(w.worker_id, w.hostname, w.pid) for w in snapshot.workers] == [
        (worker_id, socket.gethostname(), os.getpid())]
    assert snapshot.recoveries_last_hour == {"stale_job": 1, "orphan_message": 2}
    assert statuses(engine, batch_id) == ["QUEUED", "QUEUED"]
