"""Crash recovery with real worker processes, the real openai SDK and a local fake model."""

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.pages import get_items_page
from core.catalogs.check import CatalogItem
from core.jobs.lifecycle import claim_job
from core.jobs.recovery import recover_stale_jobs
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tasks.recovery import QUERIES as RECOVERY_QUERIES
from tests.builders import draft
from tests.fake_openai import DEFAULT_REVIEW, FakeOpenAI
from tests.processes import WorkerGroup, server_up_for, wait_for, wait_for_summary

FAST_RECOVERY = {
    "LISTING_REVIEW_PROVIDER": "openai",
    "OPENAI_API_KEY": "test-key",
    "LISTING_REVIEW_WORKER_THREADS": "1",
    "LISTING_REVIEW_RECOVERY_INTERVAL": "0.3",
    "LISTING_REVIEW_JOB_LEASE": "5",
    "LISTING_REVIEW_RETRY_BASE_DELAY": "0.2",
    "LISTING_REVIEW_SHUTDOWN_WAIT": "1",
}
DEFAULT_LEASE = Settings.model_fields["job_lease"].default
DEFAULT_INTERVAL = Settings.model_fields["recovery_interval"].default


@pytest.fixture
def fake_model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def start_workers(database_url: str, fake_model: FakeOpenAI) -> Iterator:
    groups: list[WorkerGroup] = []

    def start(**overrides: str) -> WorkerGroup:
        group = WorkerGroup(database_url, **(FAST_RECOVERY | {"OPENAI_BASE_URL": fake_model.base_url}
                                             | overrides))
        groups.append(group)
        group.wait_ready()
        return group

    yield start
    for group in groups:
        group.close()


def submit(engine: Engine, count: int) -> uuid.UUID:
    batch = [CatalogItem(i, None, f"item-{i}", draft(title=f"Listing number {i}"))
             for i in range(1, count + 1)]
    return accept_batch(engine, DramatiqPgQueue("listing-reviews"), owner="local", key="k",
                        items=batch, max_items=1000).batch_id


def wait_for_hung_call(fake: FakeOpenAI, engine: Engine, batch_id: uuid.UUID, calls: int) -> None:
    """The hanging answer is taken by whichever request arrives first: wait until it has."""
    wait_for(lambda: len(fake.requests) >= calls, f"{calls} model call(s)")
    wait_for_summary(engine, batch_id, "a running job", lambda s: s.running >= 1)


def calls_for(fake: FakeOpenAI, item: int) -> int:
    title = f'"title": "Listing number {item}"'
    return sum(title in body["messages"][-1]["content"] for body in fake.requests)


def succeeded_items(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        done = conn.execute(text("select item_id from review_jobs where status = 'SUCCEEDED'"))
        return list(done.scalars())


def attempts_by_item(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(text("select item_id, attempts from review_jobs")).all())


def queue_states(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(text("select state::text, count(*) from dramatiq.queue group by 1")).all())


def page_all(engine: Engine, batch_id: uuid.UUID) -> list[dict]:
    """Every item, two per page, following nextAfter."""
    items, after = [], 0
    while after is not None:
        page = get_items_page(engine, "local", batch_id, after=after, limit=2, max_after=1000)
        items += [item.to_json_dict() for item in page.items]
        after = page.next_after
    return items


def test_killed_worker_recovers_without_reviewing_completed_work(
    engine: Engine, fake_model: FakeOpenAI, start_workers, tmp_path: Path
):
    # Given one item completes, the next blocks inside the model call (the only model slot), the
    # third waits for that slot in the process's other thread: claimed first (running) when the
    # gate is known closed, else queued (core/jobs/execution.py)
    fake_model.reply()
    fake_model.hang(60)
    batch_id = submit(engine, 3)
    worker = start_workers()
    wait_for_hung_call(fake_model, engine, batch_id, calls=2)
    wait_for_summary(engine, batch_id, "1 succeeded / 1 running / 1 waiting",
                     lambda s: s.succeeded == 1 and s.running >= 1 and s.running + s.queued == 2)
    completed = succeeded_items(engine)
    # When the worker is killed and a replacement starts; one remaining call is invalid
    worker.kill()
    during = wait_for_summary(engine, batch_id, "what the killed process left", lambda s: True)
    fake_model.reply_text("this is not a review")
    replacement = start_workers()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    # Then two succeeded, one failed safely, and the completed item was reviewed once (what the
    # killed process held was claimed again: a second attempt)
    assert (after.succeeded, after.failed) == (2, 1)
    assert sorted(attempts_by_item(engine).values()) == [1, 1 + (during.running - 1), 2]
    [number] = [int(item.removeprefix("item-")) for item in completed]
    assert attempts_by_item(engine)[f"item-{number}"] == 1 and calls_for(fake_model, number) == 1
    replacement.terminate()
    items = page_all(engine, batch_id)
    failed = [item for item in items if item["status"] == "FAILED"]
    assert [item["error"] for item in failed] == [
        {"code": "AI_RESPONSE_INVALID", "message": "The model did not produce a valid review."}]
    assert all(item["result"]["qualityScore"] == DEFAULT_REVIEW["qualityScore"]
               and item["result"]["provider"] == "openai"
               for item in items if item["status"] == "SUCCEEDED")
    evidence = {"during": during.to_json_dict(), "after": after.to_json_dict(), "items": items,
                "attempts": attempts_by_item(engine), "model_calls": len(fake_model.requests)}
    (tmp_path / "review-batches-process-evidence.json").write_text(json.dumps(evidence, indent=2))


def test_surviving_worker_group_finishes_a_killed_groups_work(
    engine: Engine, fake_model: FakeOpenAI, start_workers
):
    fake_model.hang(60)
    batch_id = submit(engine, 4)
    doomed = start_workers()
    wait_for_hung_call(fake_model, engine, batch_id, calls=1)
    survivor = start_workers(LISTING_REVIEW_WORKER_THREADS="2")
    doomed.kill()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (after.succeeded, after.failed) == (4, 0)
    assert survivor.process.poll() is None


def test_rate_limited_call_is_retried_after_retry_after_then_succeeds(
    engine: Engine, fake_model: FakeOpenAI, start_workers
):
    fake_model.status(429, headers={"Retry-After": "1"})
    batch_id = submit(engine, 1)
    start_workers()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (after.succeeded, attempts_by_item(engine)["item-1"]) == (1, 2)
    assert len(fake_model.requests) == 2


def test_transient_failures_become_terminal_when_attempts_run_out(
    engine: Engine, fake_model: FakeOpenAI, start_workers
):
    for _ in range(3):
        fake_model.status(503)
    batch_id = submit(engine, 1)
    start_workers()
    wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    item = page_all(engine, batch_id)[0]
    assert item["error"]["code"] == "AI_PROVIDER_UNAVAILABLE"
    assert attempts_by_item(engine)["item-1"] == 3 and len(fake_model.requests) == 3


def test_sigterm_mid_call_leaves_the_job_recoverable(
    engine: Engine, fake_model: FakeOpenAI, start_workers
):
    fake_model.hang(60)
    batch_id = submit(engine, 1)
    worker = start_workers()
    wait_for_hung_call(fake_model, engine, batch_id, calls=1)
    assert worker.terminate(timeout=30) == 0
    assert attempts_by_item(engine)["item-1"] == 1
    start_workers()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert after.succeeded == 1 and attempts_by_item(engine)["item-1"] == 2


def test_sixteen_threads_ack_every_message(engine: Engine, start_workers):
    batch_id = submit(engine, 600)
    start_workers(LISTING_REVIEW_PROVIDER="heuristic", LISTING_REVIEW_WORKER_THREADS="16")
    wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")

    wait_for(lambda: queue_states(engine) == {"done": 600}, "every message acked")


def test_database_restart_mid_batch_loses_and_duplicates_nothing(
    engine: Engine, fake_model: FakeOpenAI, start_workers, restart_database_server
):
    for _ in range(2):
        fake_model.hang(2)
    batch_id = submit(engine, 6)
    workers = start_workers(LISTING_REVIEW_WORKER_THREADS="2")
    wait_for_hung_call(fake_model, engine, batch_id, calls=2)
    restart_database_server(down_seconds=3)
    engine.dispose()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (after.succeeded, after.failed) == (6, 0)
    assert all(attempts <= 3 for attempts in attempts_by_item(engine).values())
    assert workers.process.poll() is None
    # Retries add messages of their own: every message, whichever, ends acked.
    wait_for(lambda: set(queue_states(engine)) == {"done"}, "every message acked")
    assert "You've found a bug in Dramatiq" not in workers.output()


def run_by_a_cut_off_worker(engine: Engine) -> uuid.UUID:
    """A RUNNING job whose last heartbeat is an hour old: its worker lost the database."""
    submit(engine, 1)
    with engine.begin() as conn:
        return conn.execute(text(
            "update review_jobs set status = 'RUNNING', attempts = 1, execution_token = gen_random_uuid(), "
            "started_at = now() - interval '1 hour', heartbeat_at = now() - interval '1 hour' "
            "returning id")).scalar_one()


def test_a_database_restart_counts_as_a_heartbeat_of_every_running_job(
    engine: Engine, restart_database_server
):
    # Given a job whose heartbeats stopped because the database went away (not its worker)
    job_id = run_by_a_cut_off_worker(engine)
    queue = DramatiqPgQueue("listing-reviews")
    # When recovery runs within a lease of the server's restart, nothing is released
    restart_database_server()
    engine.dispose()
    assert recover_stale_jobs(engine, queue, lease_seconds=600) == []
    with engine.begin() as conn:
        assert claim_job(conn, job_id, max_attempts=3, lease_seconds=600).attempt is None
    # Then once the server has been up for a lease, a job nobody beat for is released
    wait_for(lambda: server_up_for(engine, 0.5), "the server up for 0.5 s")
    assert recover_stale_jobs(engine, queue, lease_seconds=0.5) == [job_id]


def test_default_lease_recovers_a_killed_workers_job_on_a_surviving_worker(
    engine: Engine, fake_model: FakeOpenAI, start_workers
):
    # Given the default lease and interval, and a worker killed in the middle of a model call
    fake_model.hang(60)
    batch_id = submit(engine, 1)
    doomed = start_workers(LISTING_REVIEW_JOB_LEASE=str(DEFAULT_LEASE),
                           LISTING_REVIEW_RECOVERY_INTERVAL=str(DEFAULT_INTERVAL))
    wait_for_hung_call(fake_model, engine, batch_id, calls=1)
    survivor = start_workers(LISTING_REVIEW_JOB_LEASE=str(DEFAULT_LEASE),
                             LISTING_REVIEW_RECOVERY_INTERVAL=str(DEFAULT_INTERVAL))
    doomed.kill()
    # When its heartbeat ages past the lease, the survivor takes the job and completes it
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (after.succeeded, attempts_by_item(engine)["item-1"]) == (1, 2)
    assert survivor.process.poll() is None


def test_default_lease_and_interval_recover_a_dead_workers_job_within_ten_seconds():
    # A job is released once its last beat is a lease old, by a pass at most one interval later;
    # the last beat was at most one interval before the kill (README: Recovery without restarts).
    assert DEFAULT_LEASE + DEFAULT_INTERVAL < 10
    # A live worker's beat may be late by lease - interval before its jobs are taken.
    assert DEFAULT_LEASE - DEFAULT_INTERVAL >= 5


def function_scans(plan: dict) -> Iterator[dict]:
    if plan.get("Node Type") == "Function Scan":
        yield plan
    for child in plan.get("Plans", []):
        yield from function_scans(child)


def test_orphan_recovery_reads_the_lock_table_once_however_many_messages_are_consumed(engine: Engine):
    # Given three consumed messages whose consumer is gone (pg_locks copies the whole lock
    # table: read once per message, a pass took 0.5 s at 16 processes x 40 prefetched)
    submit(engine, 3)
    with engine.begin() as conn:
        conn.execute(text("update dramatiq.queue set state = 'consumed', mtime = now() - interval '1 hour'"))
        # When the orphan pass's plan is run
        query = RECOVERY_QUERIES["requeue_orphaned_messages"].text
        plan = conn.execute(text(f"explain (analyze, format json) {query}"),
                            {"queue_names": ["listing-reviews"], "grace_seconds": 1}).scalar_one()
    # Then pg_locks is scanned once, and all three were re-sent
    scans = [node for node in function_scans(plan[0]["Plan"]) if node["Function Name"] == "pg_lock_status"]
    assert [scan["Actual Loops"] for scan in scans] == [1]
    assert queue_states(engine) == {"queued": 3}
