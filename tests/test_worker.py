"""A real `listing-review worker` process consumes accepted messages through dramatiq-pg."""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.pages import get_items_page
from core.batches.progress import BatchSummary, get_summary
from tasks.queue import DramatiqPgQueue
from tests.builders import items

QUEUE_NAME = "listing-reviews"
DEADLINE_SECONDS = 90


@pytest.fixture
def worker(database_url: str) -> Iterator[subprocess.Popen]:
    env = os.environ | {"DATABASE_URL": database_url, "LISTING_REVIEW_WORKER_THREADS": "4"}
    process = subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    yield process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


def wait_until_completed(engine: Engine, batch_id: uuid.UUID) -> BatchSummary:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        summary = get_summary(engine, "local", batch_id)
        if summary.status == "COMPLETED":
            return summary
        time.sleep(0.2)
    raise AssertionError(f"batch not completed in {DEADLINE_SECONDS} s: {summary}")


def test_accepted_batch_is_reviewed_by_a_real_worker(engine: Engine, worker: subprocess.Popen):
    accepted = accept_batch(engine, DramatiqPgQueue(QUEUE_NAME), owner="local", key="k",
                            items=items(20), max_items=1000)
    summary = wait_until_completed(engine, accepted.batch_id)
    assert (summary.succeeded, summary.failed) == (20, 0)
    page = get_items_page(engine, "local", accepted.batch_id, limit=20, max_after=1000)
    results = [item.result for item in page.items]
    assert all(0 <= result["qualityScore"] <= 100 for result in results)
    assert {result["provider"] for result in results} == {"heuristic"}
    with engine.connect() as conn:
        states = conn.execute(text("select state::text, count(*) from dramatiq.queue group by 1")).all()
        attempts = conn.execute(text("select distinct attempts from review_jobs")).scalars().all()
    assert dict(states) == {"done": 20}
    assert attempts == [1]


def test_worker_stops_cleanly_on_sigterm(worker: subprocess.Popen):
    time.sleep(3)
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(60) == 0
