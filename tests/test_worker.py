"""A real `listing-review worker` process consumes accepted messages through dramatiq-pg."""

import json
import os
import signal
import uuid
from collections.abc import Callable, Iterator

import psutil
import psycopg
import pytest
from dramatiq import MessageProxy
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.pages import get_items_page
from core.database import plain_postgres_url
from tasks.broker import make_broker
from tasks.consumer import ReviewConsumer
from tasks.queue import DramatiqPgQueue, message_json
from tests.builders import items
from tests.processes import WorkerGroup, running, wait_for, wait_for_summary

QUEUE_NAME = "listing-reviews"
ORPHAN_DEADLINE_SECONDS = 30


@pytest.fixture
def start_worker(database_url: str) -> Iterator:
    groups: list[WorkerGroup] = []

    def start(processes: int = 1) -> WorkerGroup:
        group = WorkerGroup(database_url, LISTING_REVIEW_WORKER_THREADS="4",
                            LISTING_REVIEW_WORKER_PROCESSES=str(processes))
        groups.append(group)
        group.wait_ready(processes)
        return group

    yield start
    for group in groups:
        group.terminate()
        group.close()


def queue_states(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(text("select state::text, count(*) from dramatiq.queue group by 1")).all())


def test_accepted_batch_is_reviewed_by_a_real_worker(engine: Engine, start_worker):
    start_worker()
    accepted = accept_batch(engine, DramatiqPgQueue(QUEUE_NAME), owner="local", key="k",
                            items=items(20), max_items=1000)
    summary = wait_for_summary(engine, accepted.batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (summary.succeeded, summary.failed) == (20, 0)
    page = get_items_page(engine, "local", accepted.batch_id, limit=20, max_after=1000)
    results = [item.result for item in page.items]
    assert all(0 <= result["qualityScore"] <= 100 for result in results)
    assert {result["provider"] for result in results} == {"heuristic"}
    # The job row commits before dramatiq-pg acks its message: wait for the acks themselves.
    wait_for(lambda: queue_states(engine) == {"done": 20}, "every message acked")
    with engine.connect() as conn:
        attempts = conn.execute(text("select distinct attempts from review_jobs")).scalars().all()
    assert attempts == [1]


def test_worker_stops_cleanly_on_sigterm(start_worker):
    worker = start_worker()
    assert worker.terminate() == 0


def test_worker_processes_exit_when_their_supervisor_is_killed(start_worker):
    # Given a supervisor with two ready worker processes
    group = start_worker(processes=2)
    children = psutil.Process(group.process.pid).children(recursive=True)
    assert len([child for child in children if running(child)]) >= 2
    # When only the supervisor is killed: no cleanup of any kind runs in it
    os.kill(group.process.pid, signal.SIGKILL)
    group.process.wait(10)
    # Then every process it started stops on its own
    wait_for(lambda: not any(running(child) for child in children),
             "every orphaned worker process to exit", ORPHAN_DEADLINE_SECONDS)
    assert group.output().count("this worker process stops") == 2


def take_message(consumer: ReviewConsumer) -> MessageProxy:
    """The consumer's next message (it answers None while it waits for one)."""
    taken: list[MessageProxy | None] = []

    def took() -> bool:
        taken.append(next(consumer))
        return taken[-1] is not None

    wait_for(took, "the consumer to take the message")
    return taken[-1]


def test_an_ack_through_a_replaced_consumer_or_a_retried_ack_raises_nothing(
    engine: Engine, database_url: str
):
    # Given a message taken by a consumer that Dramatiq then replaced after a connection error
    with engine.begin() as conn:
        DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [uuid.uuid4()])
    broker = make_broker(database_url, threads=1)
    first = broker.consume(QUEUE_NAME, prefetch=1, timeout=1000)
    replacement = broker.consume(QUEUE_NAME, prefetch=1, timeout=1000)
    try:
        message = take_message(first)
        # When the worker thread acks it through the replacement, and the ack is retried
        replacement.ack(message)
        replacement.ack(message)
    finally:
        first.close()
        replacement.close()
        broker.close()
    # Then nothing escaped into Dramatiq (which would skip its after-ack hooks) and it is done
    assert queue_states(engine) == {"done": 1}


def test_a_notify_wakes_the_consumer_to_take_the_oldest_queued_message(engine: Engine, database_url: str):
    # Given a listening consumer, and a message queued without a NOTIFY (as dramatiq's requeue
    # of a stopping worker's prefetched messages leaves them)
    broker = make_broker(database_url, threads=1)
    consumer = broker.consume(QUEUE_NAME, prefetch=1, timeout=100)
    silent = uuid.uuid4()
    try:
        assert next(consumer) is None
        with engine.begin() as conn:
            conn.execute(text("insert into dramatiq.queue (queue_name, message_id, state, mtime, message) "
                              "values (:queue, :id, 'queued', now() - interval '1 minute', "
                              "cast(:message as jsonb))"),
                         {"queue": QUEUE_NAME, "id": silent,
                          "message": message_json(QUEUE_NAME, silent, uuid.uuid4(), 0, {})})
        # When another message is sent with its NOTIFY
        with engine.begin() as conn:
            DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [uuid.uuid4()])
        # Then the wake-up takes the oldest queued message, not the one the NOTIFY named
        assert take_message(consumer).message_id == str(silent)
    finally:
        consumer.close()
        broker.close()


def notifications(database_url: str, send: Callable[[], None], event: str = "enqueue") -> list[str]:
    """The payloads on the queue's channel for `event` that `send` caused, read up to a marker
    sent after it (a transaction's notifications arrive together at its commit, in order)."""
    channel = f"dramatiq.{QUEUE_NAME}.{event}"
    with psycopg.connect(plain_postgres_url(database_url), autocommit=True) as listener:
        listener.execute(f'listen "{channel}"')
        send()
        listener.execute("select pg_notify(%s, 'marker')", (channel,))
        payloads = []
        for notify in listener.notifies(timeout=30):
            if notify.payload == "marker":
                return payloads
            payloads.append(notify.payload)
    raise AssertionError("the marker notification never came")


def test_many_messages_written_at_once_send_one_wake_up_that_takes_them_all(
    engine: Engine, database_url: str
):
    # Given a listening consumer with room for every message
    broker = make_broker(database_url, threads=1)
    consumer = broker.consume(QUEUE_NAME, prefetch=50, timeout=100)
    try:
        assert next(consumer) is None

        # When 50 messages are written in one transaction
        def send() -> None:
            with engine.begin() as conn:
                DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [uuid.uuid4() for _ in range(50)])

        payloads = notifications(database_url, send)
        # Then one NOTIFY was sent, and the wake-up takes all 50
        assert len(payloads) == 1
        taken = {take_message(consumer).message_id for _ in range(50)}
        assert len(taken) == 50
    finally:
        consumer.close()
        broker.close()


def test_a_single_message_is_notified_as_dramatiq_pg_does(engine: Engine, database_url: str):
    job_id = uuid.uuid4()

    def send() -> None:
        with engine.begin() as conn:
            DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [job_id])

    (payload,) = notifications(database_url, send)
    with engine.connect() as conn:
        stored = conn.execute(text("select message from dramatiq.queue")).scalar_one()
    assert json.loads(payload) == stored and stored["args"] == [str(job_id)]


def test_messages_built_in_the_database_are_dramatiq_messages(engine: Engine):
    now, delayed = uuid.uuid4(), uuid.uuid4()
    with engine.begin() as conn:
        DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [now])
        DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [delayed], delay_seconds=30)
        rows = conn.execute(text("select queue_name, message from dramatiq.queue "
                                 "order by message->'options' ? 'eta'")).all()
    for (queue_name, stored), job_id in zip(rows, (now, delayed), strict=True):
        built = json.loads(message_json(queue_name, uuid.UUID(stored["message_id"]), job_id,
                                        stored["message_timestamp"], stored["options"]))
        assert stored == built
    assert [queue_name for queue_name, _ in rows] == [QUEUE_NAME, f"{QUEUE_NAME}.DQ"]
    assert rows[1].message["options"]["eta"] >= rows[1].message["message_timestamp"] + 30_000


@pytest.mark.parametrize("count", [1, 3])
def test_a_batchs_messages_written_from_its_rows_are_dramatiq_messages_with_one_notify(
    engine: Engine, database_url: str, count: int
):
    def send() -> None:
        accept_batch(engine, DramatiqPgQueue(QUEUE_NAME), owner="local", key=f"k-{count}",
                     items=items(count), max_items=count)

    payloads = notifications(database_url, send)
    with engine.connect() as conn:
        job_ids = conn.execute(text("select id from review_jobs order by item_position")).scalars().all()
        stored = conn.execute(text("select message from dramatiq.queue")).scalars().all()
    assert len(payloads) == 1 and len(stored) == count
    by_job = {message["args"][0]: message for message in stored}
    for job_id in job_ids:
        message = by_job[str(job_id)]
        assert message == json.loads(message_json(QUEUE_NAME, uuid.UUID(message["message_id"]), job_id,
                                                  message["message_timestamp"], {}))
    if count == 1:
        assert json.loads(payloads[0]) == stored[0]


def test_an_ack_marks_the_message_done_without_a_notify(engine: Engine, database_url: str):
    """dramatiq-pg notifies `dramatiq.<queue>.ack` on every ack; nothing listens, and every
    NOTIFY wakes every listening backend (two per worker process) at commit."""
    with engine.begin() as conn:
        DramatiqPgQueue(QUEUE_NAME).enqueue(conn, [uuid.uuid4()])
    broker = make_broker(database_url, threads=1)
    consumer = broker.consume(QUEUE_NAME, prefetch=1, timeout=100)
    try:
        message = take_message(consumer)
        assert notifications(database_url, lambda: consumer.ack(message), "ack") == []
    finally:
        consumer.close()
        broker.close()
    assert queue_states(engine) == {"done": 1}
