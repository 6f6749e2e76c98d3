"""Retry of a 10,000-item all-failed batch (core/batches/retry.py: the new batch, its jobs and
their queue messages in one transaction) with the queue as it is (tasks/queue.py: messages built
in the database, one NOTIFY per enqueue) against the queue before (benchmarks/notify_each.py:
built in Python and copied in, a NOTIFY per message), alternating in the same run on the same
server; each retry is undone before the next.

    python benchmarks/retry_cost.py [--items 10000] [--runs 7]

Target (issue 14): retry of 10,000 failed items < 500 ms. Uses a throwaway embedded PostgreSQL.
"""

import argparse
import statistics
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, text  # noqa: E402

from benchmarks.notify_each import NotifyEachQueue  # noqa: E402
from benchmarks.scratch import scratch_database  # noqa: E402
from core.batches.acceptance import accept_batch  # noqa: E402
from core.batches.retry import retry_failed, retry_key  # noqa: E402
from core.catalogs.check import CatalogItem  # noqa: E402
from core.database import make_engine  # noqa: E402
from core.listings.draft import ListingDraft  # noqa: E402
from tasks.queue import DramatiqPgQueue  # noqa: E402

QUEUE_NAME, OWNER, TARGET_MS = "listing-reviews", "bench", 500.0
QUEUES = {"before (COPY, NOTIFY per message)": NotifyEachQueue(QUEUE_NAME),
          "after (built in SQL, one NOTIFY)": DramatiqPgQueue(QUEUE_NAME)}
FAIL_ALL = text("""
update review_jobs set status = 'FAILED', started_at = now(), completed_at = now(),
  error_code = 'REVIEW_FAILED', error_message = 'The review failed.', attempts = 1
where batch_id = :batch_id""")
UNDO = ["delete from review_jobs where batch_id in (select id from review_batches where owner = :o "
        "and idempotency_key = :k)",
        "delete from review_batches where owner = :o and idempotency_key = :k",
        "delete from dramatiq.queue"]


def listing(i: int) -> ListingDraft:
    return ListingDraft(title=f"Listing {i} wireless keyboard",
                        description=f"Used wireless keyboard number {i}. Includes its USB receiver.",
                        category="Computer accessories", price=Decimal("45.00"),
                        attributes={"brand": "KeyPro", "condition": "used"})


def failed_batch(engine: Engine, count: int) -> uuid.UUID:
    items = [CatalogItem(i, None, f"item-{i}", listing(i)) for i in range(1, count + 1)]
    accepted = accept_batch(engine, DramatiqPgQueue(QUEUE_NAME), owner=OWNER, key="failed",
                            items=items, max_items=count)
    with engine.begin() as connection:
        connection.execute(FAIL_ALL, {"batch_id": accepted.batch_id})
        connection.execute(text("delete from dramatiq.queue"))
    return accepted.batch_id


def retry_ms(engine: Engine, queue: DramatiqPgQueue, batch_id: uuid.UUID, count: int) -> float:
    started = time.perf_counter()
    retry_failed(engine, queue, OWNER, batch_id, count)
    elapsed = (time.perf_counter() - started) * 1000
    with engine.begin() as connection:
        for statement in UNDO:
            connection.execute(text(statement), {"o": OWNER, "k": retry_key(batch_id)})
    return elapsed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(engine: Engine, items: int, runs: int) -> None:
    batch_id = failed_batch(engine, items)
    for queue in QUEUES.values():
        retry_ms(engine, queue, batch_id, items)  # warm: plans, caches
    samples: dict[str, list[float]] = {name: [] for name in QUEUES}
    for _ in range(runs):
        for name, queue in QUEUES.items():
            samples[name].append(retry_ms(engine, queue, batch_id, items))
    print(f"retry of {items:,} failed items, {runs} runs each, alternating:")
    for name, values in samples.items():
        verdict = "met" if statistics.median(values) < TARGET_MS else "NOT met"
        print(f"  {name:<32} median {statistics.median(values):6.0f} ms  p95 "
              f"{percentile(values, 0.95):6.0f} ms   target median < {TARGET_MS:.0f} ms: {verdict}")
    before, after = (statistics.median(values) for values in samples.values())
    print(f"  after / before (median): {after / before:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with scratch_database() as url:
        run(make_engine(url), args.items, args.runs)


if __name__ == "__main__":
    main()
