"""Every user-path query at a small and a large history, in the same run, and their ratio.

Builds two databases with generate_series (tests/grown_history.py: one seller with 1,000
complete batches, a 10,000-item all-failed batch, 5,000 queued jobs; other sellers fill the
rest), then prints for each query p50/p95 over --runs runs, and one EXPLAIN (ANALYZE, BUFFERS)
summary (shared buffers touched, planned nodes of note), at both sizes with the ratio
large/small p95; the definitions before migration 0009 (benchmarks/history_before.sql) are
timed beside the rewrites as the baseline. Then retry and export of the 10,000-item batch, and
accept p95 idle against accept p95 while a purge deletes the large history's old batches.

    python -m benchmarks.history [--small 50000] [--large 1000000] [--runs 30]

Targets (issue 14): p95 < 20 ms at the large size, ratio < 2, retry of 10,000 failed items
< 500 ms, accept p95 during a purge within 2x of idle.
"""

import argparse
import json
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import Engine, TextClause, text
from sqlalchemy.engine import make_url

from core import embedded_postgres, schema
from core.batches.acceptance import accept_batch
from core.batches.admission import BATCH_ADMISSION
from core.batches.export import QUERIES as EXPORTS
from core.batches.pages import QUERIES as ITEMS
from core.batches.pages import VIEW_CLASSES
from core.batches.progress import QUERIES as BATCHES
from core.batches.progress import progress_params
from core.batches.retry import retry_failed, retry_key
from core.batches.verdicts import GOOD_SCORE_FROM
from core.database import make_engine
from core.downloads import download_bytes
from core.embedded_postgres import ensure_running
from core.jobs.cancel import QUERIES as JOBS
from core.jobs.cancel import cancel_unstarted
from core.operations.stats import QUERIES as OPERATIONS
from core.retention.purge import purge
from core.sql import load_queries
from tasks.queue import DramatiqPgQueue
from tests.builders import items
from tests.grown_history import BIG, GrownHistory, grow

BEFORE = load_queries(str(Path(__file__).with_name("history_before.sql")))
QUEUE = DramatiqPgQueue("listing-reviews")
P95_TARGET_MS, RATIO_TARGET, RETRY_TARGET_MS = 20.0, 2.0, 500.0
BEFORE_RUNS = 3
RETRY_RUNS = 3
Case = tuple[TextClause, dict[str, Any]]


def cases(history: GrownHistory) -> dict[str, Case]:
    """Every user-path query with the parameters of the grown history's heaviest seller."""
    page = {"before_at": None, "before_id": None, "limit_plus_one": 21}
    failed = {"owner": BIG, "batch_id": history.failed_batch}
    return {
        "recent_batches": (BATCHES["recent_batches"], progress_params(owner=BIG, status=None, **page)),
        "recent COMPLETED": (BATCHES["recent_completed_batches"],
                             progress_params(owner=BIG, status="COMPLETED", **page)),
        "recent RUNNING": (BATCHES["recent_unfinished_batches"],
                           progress_params(owner=BIG, status="RUNNING", **page)),
        "before: recent_batches": (BEFORE["recent_batches"],
                                   progress_params(owner=BIG, status=None, **page)),
        "before: recent RUNNING": (BEFORE["recent_batches"],
                                   progress_params(owner=BIG, status="RUNNING", **page)),
        "summary (complete 10k)": (BATCHES["batch_summary"], progress_params(**failed)),
        "before: summary (10k)": (BEFORE["batch_summary"], progress_params(**failed)),
        "summary (running)": (BATCHES["batch_summary"],
                              progress_params(owner=BIG, batch_id=history.running_batch)),
        "retry_source (10k)": (BATCHES["retry_source"], failed),
        "before: failed_items": (BEFORE["failed_items"], failed),
        "items page": (ITEMS["batch_items_page"], item_params(failed, "all") | {"after": 5000}),
        "items page failed": (ITEMS["batch_items_page"], item_params(failed, "failed") | {"after": 5000}),
        "export chunk": (EXPORTS["export_chunk"], failed | {
            "after": 5000, "limit": 1000, "fixup_only": False, "good_from": GOOD_SCORE_FROM}),
        "admission": (BATCH_ADMISSION, {"owner": BIG, "key": "new"}),
        "cancel (rolled back)": (JOBS["cancel_queued_batch_jobs"],
                                 {"owner": BIG, "batch_id": history.running_batch}),
        "ops jobs_by_status": (OPERATIONS["jobs_by_status"], {}),
        "before: jobs_by_status": (BEFORE["jobs_by_status"], {}),
        "ops oldest_queued": (OPERATIONS["oldest_queued"], {}),
        "ops failures_last_hour": (OPERATIONS["failures_last_hour"], {}),
        "ops completions/minute": (OPERATIONS["completions_per_minute"], {}),
        "ops queue_depth": (OPERATIONS["queue_depth"], {}),
    }


def item_params(failed: dict[str, Any], view: str) -> dict[str, Any]:
    """A 50-item page of the 10,000-item batch in one view (core/batches/pages.py's parameters)."""
    return failed | {"classes": list(VIEW_CLASSES[view]), "good_from": GOOD_SCORE_FROM, "limit_plus_one": 51}


def timed(engine: Engine, query: TextClause, params: dict[str, Any], runs: int) -> list[float]:
    """Milliseconds per execution (rows fetched), each in a transaction rolled back."""
    samples = []
    with engine.connect() as connection:
        for _ in range(runs):
            started = time.perf_counter()
            connection.execute(query, params).all()
            samples.append((time.perf_counter() - started) * 1000)
            connection.rollback()
    return samples


def explained(engine: Engine, query: TextClause, params: dict[str, Any]) -> str:
    """Shared buffers hit+read and the nodes that matter, from one EXPLAIN (ANALYZE, BUFFERS)."""
    with engine.connect() as connection:
        raw = connection.execute(text("explain (analyze, buffers, format json) " + query.text),
                                 params).scalar_one()
        connection.rollback()
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    buffers = plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)
    return f"{buffers:>7} buf  {', '.join(sorted(_notable(plan))) or 'index only'}"


def _notable(node: dict[str, Any]) -> set[str]:
    found = set()
    if node["Node Type"] in ("Seq Scan", "BitmapAnd"):
        found.add(f"{node['Node Type']} {node.get('Relation Name', '')}".strip())
    if node.get("Parent Relationship") == "SubPlan":
        found.add("SubPlan")
    for child in node.get("Plans", []):
        found |= _notable(child)
    return found


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(engine: Engine, history: GrownHistory, runs: int,
            small: dict[str, tuple[float, float, str]] | None = None) -> dict[str, tuple[float, float, str]]:
    """Each case `runs` times (the pre-0009 definitions BEFORE_RUNS times: seconds each at
    millions of jobs); with the small size's results, each row is printed as it is measured."""
    results = {}
    for name, (query, params) in cases(history).items():
        samples = timed(engine, query, params, BEFORE_RUNS if name.startswith("before") else runs)
        results[name] = (statistics.median(samples), percentile(samples, 0.95),
                         explained(engine, query, params))
        if small is not None:
            print_row(name, small[name], results[name])
    return results


def once_ms(action: Callable[[], Any]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def retry_ms(engine: Engine, history: GrownHistory) -> tuple[float, float]:
    """Retry of the 10,000-item failed batch (a new batch and its messages), each undone:
    median and slowest of RETRY_RUNS (one run alone swung by 100 ms)."""
    samples = []
    for _ in range(RETRY_RUNS):
        undo_retry(engine, history)
        samples.append(once_ms(lambda: retry_failed(engine, QUEUE, BIG, history.failed_batch, 10_000)))
    undo_retry(engine, history)
    return statistics.median(samples), max(samples)


def undo_retry(engine: Engine, history: GrownHistory) -> None:
    """Delete the retry of the failed batch and every queue message, if there are any."""
    key = {"o": BIG, "k": retry_key(history.failed_batch)}
    with engine.begin() as connection:
        connection.execute(text("delete from review_jobs where batch_id in (select id from review_batches "
                                "where owner = :o and idempotency_key = :k)"), key)
        connection.execute(text("delete from review_batches where owner = :o and idempotency_key = :k"), key)
        connection.execute(text("delete from dramatiq.queue"))


def cancel_ms(engine: Engine) -> float:
    """Cancel of a 10,000-item batch with one job running (its completion trigger included)."""
    accepted = accept_batch(engine, QUEUE, owner=BIG, key=f"cancel-{time.monotonic_ns()}",
                            items=items(10_000), max_items=10_000)
    with engine.begin() as connection:
        connection.execute(text("update review_jobs set status = 'RUNNING', started_at = now(), "
                                "heartbeat_at = now(), execution_token = gen_random_uuid(), attempts = 1 "
                                "where batch_id = :b and item_position = 1"), {"b": accepted.batch_id})
    return once_ms(lambda: cancel_unstarted(engine, BIG, accepted.batch_id))


def export_ms(engine: Engine, history: GrownHistory) -> float:
    return once_ms(lambda: download_bytes(engine, BIG, history.failed_batch, "csv"))


def accept_p95(engine: Engine, count: int,
               during: Callable[[], Any] | None = None) -> tuple[float, int, Any]:
    """p95 ms of accepting up to `count` batches of 100 listings, optionally while `during`
    runs (and what it returned)."""
    done = threading.Event()
    outcome: dict[str, Any] = {}
    worker = None
    if during is not None:
        worker = threading.Thread(target=lambda: (outcome.update(result=during()), done.set()))
        worker.start()
    samples, prefix = [], f"accept-{time.monotonic_ns()}"
    for number in range(count):
        samples.append(once_ms(lambda n=number: accept_batch(
            engine, QUEUE, owner="accepting", key=f"{prefix}-{n}", items=items(100), max_items=100)))
        if during is not None and done.is_set() and number >= count // 2:
            break
    if worker is not None:
        worker.join()
    return percentile(samples, 0.95), len(samples), outcome.get("result")


def age_of_oldest(engine: Engine, jobs: int) -> timedelta:
    """The retention age at which a purge deletes about `jobs` jobs, oldest batches first."""
    with engine.connect() as connection:
        age: timedelta = connection.execute(text("""
            select current_timestamp - min(completed_at) from (
              select completed_at, sum(succeeded + failed + cancelled) over (
                order by completed_at, id) as jobs_so_far
              from review_batches where completed_at is not null) oldest
            where jobs_so_far >= :jobs"""), {"jobs": jobs}).scalar_one()
    return age


def database(server_url: str, name: str) -> Engine:
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"drop database if exists {name} with (force)")
        admin.execute(f"create database {name}")
    engine = make_engine(make_url(server_url).set(database=name).render_as_string(hide_password=False))
    schema.upgrade(engine)
    return engine


def build(server_url: str, name: str, jobs: int) -> tuple[Engine, GrownHistory]:
    engine = database(server_url, name)
    started = time.perf_counter()
    history = grow(engine, jobs)
    print(f"built {history.jobs:,} jobs in {time.perf_counter() - started:.0f} s", flush=True)
    return engine, history


HEADER = (f"{'query':<24} {'p50 small':>9} {'p95 small':>9} {'p50 large':>9} {'p95 large':>9} "
          f"{'ratio':>6}  target  EXPLAIN at large (buffers, nodes)")


def print_row(name: str, small: tuple[float, float, str], large: tuple[float, float, str]) -> None:
    (p50s, p95s, _), (p50l, p95l, plan) = small, large
    ratio = p95l / p95s if p95s else float("inf")
    verdict = "-" if name.startswith("before") else (
        "ok" if p95l < P95_TARGET_MS and ratio < RATIO_TARGET else "MISSED")
    print(f"{name:<24} {p50s:>9.2f} {p95s:>9.2f} {p50l:>9.2f} {p95l:>9.2f} {ratio:>6.2f}  "
          f"{verdict:<6}  {plan}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=50_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp()) / "home"
    url = ensure_running(home)
    server = make_url(url).set(database="postgres").render_as_string(hide_password=False)
    server = server.replace("postgresql+psycopg://", "postgresql://")
    try:
        run(server, args)
    finally:
        embedded_postgres.stop(home)
        shutil.rmtree(home.parent, ignore_errors=True)


def run(server: str, args: argparse.Namespace) -> None:
    engine, history = build(server, "lr_history_small", args.small)
    small = (measure(engine, history, args.runs), retry_ms(engine, history),
             export_ms(engine, history), cancel_ms(engine))
    engine, history = build(server, "lr_history_large", args.large)
    print(HEADER, flush=True)
    measure(engine, history, args.runs, small[0])
    print(f"(ms; sizes {args.small:,} and {args.large:,} jobs; targets p95 < {P95_TARGET_MS} ms at the "
          f"large size and ratio < {RATIO_TARGET}; 'before' rows: the pre-0009 definitions, "
          f"{BEFORE_RUNS} runs)")
    large = (None, retry_ms(engine, history), export_ms(engine, history), cancel_ms(engine))
    (retry_small, slowest_small), (retry_large, slowest_large) = small[1], large[1]
    met = "ok" if retry_large < RETRY_TARGET_MS else "MISSED"
    print(f"{'retry of 10,000 failed items':<40} small {retry_small:8.0f} ms  large {retry_large:8.0f} ms  "
          f"ratio {retry_large / retry_small:5.2f}  target < {RETRY_TARGET_MS:.0f} ms: {met} (median of "
          f"{RETRY_RUNS}; slowest {slowest_small:.0f} and {slowest_large:.0f} ms)", flush=True)
    for label, index in (("export (CSV) of the 10,000-item batch", 2), ("cancel of 10,000 (one running)", 3)):
        print(f"{label:<40} small {small[index]:8.0f} ms  large {large[index]:8.0f} ms  "
              f"ratio {large[index] / small[index]:5.2f}", flush=True)
    idle, _, _ = accept_p95(engine, 40)
    older_than = age_of_oldest(engine, min(1_000_000, history.jobs // 2))
    started = time.perf_counter()
    busy, accepted, purged = accept_p95(engine, 400, lambda: purge(engine, older_than))
    print(f"purge of the large history: {purged.batches:,} batches, {purged.jobs:,} jobs in "
          f"{purged.chunks:,} chunks, {time.perf_counter() - started:.0f} s")
    met = "ok" if busy / idle < 2 else "MISSED"
    print(f"accept 100 listings p95: idle {idle:.1f} ms, during the purge {busy:.1f} ms over "
          f"{accepted} batches (ratio {busy / idle:.2f}, target < 2: {met})")


if __name__ == "__main__":
    main()
