"""Terminal writes of one batch's jobs from many sessions at once, three ways alternating in
the same run on the same server:
- before: 0009's completion trigger (every terminal write locks the batch row), the provider
  call counted in the result transaction (one hot row per minute, 16 shards);
- 0015's trigger (only a possibly-last write locks the batch row), the call still counted in
  the transaction;
- now: 0015's trigger, the call tallied by the process (core/provider_gate/call_tally.py).

Each session runs the worker's result transaction over and over (the token-fenced succeed
with its triggers, commit; core.jobs.lifecycle) on RUNNING jobs of one batch, until every job
is terminal. Prints per configuration the median over rounds of: completions/s, transaction
p50/p95, and the sessions waiting for a lock (pg_locks sampled); then now/before.

    python benchmarks/batch_completion.py [--sessions 16] [--jobs 2000] [--rounds 3]

Uses a throwaway embedded PostgreSQL.
"""

import argparse
import importlib
import queue
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, text  # noqa: E402

from benchmarks.scratch import scratch_database  # noqa: E402
from core.database import make_engine  # noqa: E402
from core.jobs.lifecycle import Attempt, fenced_succeed  # noqa: E402
from core.provider_gate.call_tally import CallTally  # noqa: E402
from core.provider_gate.rate_limits import CallCounts, count_calls  # noqa: E402

MIGRATION = importlib.import_module("migrations.versions.0015_concurrent_completions")
# name: (completion trigger, the call counted in the result transaction?)
CONFIGURATIONS = {"before: 0009 trigger, count in transaction": (MIGRATION.LOCK_EVERY_TIME, True),
                  "0015 trigger, count in transaction": (MIGRATION.COMPLETE, True),
                  "now: 0015 trigger, count tallied": (MIGRATION.COMPLETE, False)}
RESULT = {"qualityScore": 82, "missingFields": [], "issues": [], "suggestions": [],
          "requiresHumanReview": False}
NOW = "2026-01-01T00:00:00Z"

RUNNING_BATCH = text("""
with batch as (
  insert into review_batches (id, owner, idempotency_key, request_hash)
  values (:batch_id, 'bench', :key, repeat('a', 64)) returning id
)
insert into review_jobs (id, owner, idempotency_key, request_hash, payload, status, started_at,
  heartbeat_at, execution_token, batch_id, item_id, item_position, attempts)
select gen_random_uuid(), 'bench', null, repeat('a', 64), '{}', 'RUNNING', now(), now(),
  gen_random_uuid(), batch.id, 'item-' || n, n, 1
from batch, generate_series(1, :jobs) n
returning id, execution_token
""")

LOCK_WAITERS = text("select count(*) from pg_locks where not granted")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def running_batch(engine: Engine, jobs: int) -> tuple[uuid.UUID, list[Attempt]]:
    batch_id = uuid.uuid4()
    with engine.begin() as connection:
        rows = connection.execute(RUNNING_BATCH, {"batch_id": batch_id, "key": str(batch_id),
                                                  "jobs": jobs}).all()
    return batch_id, [Attempt(row.id, row.execution_token, 1, "{}", None, None)  # type: ignore[arg-type]
                      for row in rows]


def succeed_all(engine: Engine, attempts: list[Attempt], sessions: int,
                in_transaction: bool) -> tuple[list[float], float]:
    """Every attempt's result transaction, from `sessions` threads; (latencies ms, seconds)."""
    tally = CallTally(engine)
    work: queue.SimpleQueue[Attempt] = queue.SimpleQueue()
    for attempt in attempts:
        work.put(attempt)
    latencies: list[float] = []

    def session() -> None:
        mine = []
        while True:
            try:
                attempt = work.get_nowait()
            except queue.Empty:
                break
            started = time.perf_counter()
            if not in_transaction:
                tally.add("openai", "bench-model", False, 168)
            with engine.begin() as connection:
                if in_transaction:
                    minute = int(time.time() // 60) * 60
                    count_calls(connection, CallCounts("openai", "bench-model", minute, 1, 0, 168))
                fenced_succeed(connection, attempt, RESULT)
            mine.append((time.perf_counter() - started) * 1000)
        latencies.extend(mine)

    threads = [threading.Thread(target=session) for _ in range(sessions)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, time.perf_counter() - started


def sample_waiters(engine: Engine, stop: threading.Event, samples: list[int]) -> None:
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT")
        while not stop.wait(0.005):
            samples.append(connection.execute(LOCK_WAITERS).scalar_one())


def one_round(engine: Engine, trigger: str, in_transaction: bool, jobs: int,
              sessions: int) -> dict[str, float]:
    with engine.begin() as connection:
        connection.exec_driver_sql(trigger)
    batch_id, attempts = running_batch(engine, jobs)
    stop, waiters = threading.Event(), list[int]()
    sampler = threading.Thread(target=sample_waiters, args=(engine, stop, waiters))
    sampler.start()
    latencies, seconds = succeed_all(engine, attempts, sessions, in_transaction)
    stop.set()
    sampler.join()
    with engine.connect() as connection:
        complete = connection.execute(text("select completed_at is not null from review_batches "
                                           "where id = :id"), {"id": batch_id}).scalar_one()
    if not complete:
        raise SystemExit(f"the batch was not completed by {trigger[:60]}")
    return {"rate": jobs / seconds, "p50": statistics.median(latencies),
            "p95": percentile(latencies, 0.95), "waiting": statistics.mean(waiters or [0])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with scratch_database() as url:
        run(make_engine(url, pool_size=args.sessions + 2), args)


def run(engine: Engine, args: argparse.Namespace) -> None:
    print(f"{args.sessions} sessions succeed the {args.jobs} RUNNING jobs of one batch "
          f"(fenced succeed + commit each); median of {args.rounds} rounds, configurations alternating")
    results: dict[str, list[dict[str, float]]] = {name: [] for name in CONFIGURATIONS}
    for _ in range(args.rounds):
        for name, (trigger, in_transaction) in CONFIGURATIONS.items():
            results[name].append(one_round(engine, trigger, in_transaction, args.jobs, args.sessions))
    medians = {name: {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
               for name, rounds in results.items()}
    for name, figures in medians.items():
        print(f"  {name:<44} {figures['rate']:7.0f} completions/s   transaction p50 "
              f"{figures['p50']:6.2f} ms  p95 {figures['p95']:6.2f} ms   sessions waiting for a "
              f"lock (mean) {figures['waiting']:5.2f}")
    before, *_, now = medians.values()
    print(f"  now / before: completions/s x{now['rate'] / before['rate']:.2f}, "
          f"p95 x{now['p95'] / before['p95']:.2f}")


if __name__ == "__main__":
    main()
