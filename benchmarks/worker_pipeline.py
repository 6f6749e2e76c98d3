"""Worker pipeline figures with real worker processes (`python -m cli.main worker`).

(a) dispatch latency: acceptance commit -> job claimed, idle worker (1 x 2, heuristic).
(b) pipeline efficiency at 1, 2, 4, 8 and 16 worker processes of 8 threads, with a simulated
    200 ms model (local OpenAI-compatible server): completed/s over the run divided by the
    physical limit (threads x processes / 0.2 s); dispatch p50 and the CPU one message costs
    across idle processes (every process wakes for every NOTIFY); CPU and transactions per
    item; efficiency against what this machine's CPU allows; and "before" (stock consumer,
    dramatiq's default prefetch of 2 per thread).
(c) per-job overhead with an instant model (heuristic): jobs/s per worker process.
Recovery after SIGKILL is benchmarks/recovery_time.py.

    python benchmarks/worker_pipeline.py [--quick] [--processes 1,2,4,8,16]

Uses DATABASE_URL if set (its tables are truncated between parts!), else a throwaway
embedded PostgreSQL with a fresh database per part. Commit times come from the database's
clock (`clock_timestamp()` on a separate, already open connection right after the commit:
an upper bound), so every latency is measured on one clock.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg

STOCK_WORKER = Path(__file__).resolve().with_name("stock_dramatiq_pg_worker.py")
REVIEWER_FLOOR = Path(__file__).resolve().with_name("reviewer_floor.py")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.notify_each import NotifyEachQueue  # noqa: E402
from core import schema  # noqa: E402
from core.batches.acceptance import accept_batch  # noqa: E402
from core.catalogs.check import CatalogItem  # noqa: E402
from core.database import make_engine  # noqa: E402
from core.embedded_postgres import _embedded, _running_as_root, ensure_running, pgdata_dir  # noqa: E402
from core.embedded_postgres import stop as stop_embedded  # noqa: E402
from core.listings.draft import ListingDraft  # noqa: E402
from tasks.queue import DramatiqPgQueue  # noqa: E402

QUEUE = "listing-reviews"
OWNER = "local"
MODEL_SECONDS = 0.2
DEADLINE_SECONDS = 120.0
MAX_CONNECTIONS = 600
# dramatiq-pg connections that have run a statement. Each worker process starts two consumers
# (the queue and its delay queue), whose first statements are LISTEN then a scan for pending
# messages on their listening connections; their consuming connections stay unused until a
# message arrives or a second has passed. So a new idle process adds two to this count.
DRAMATIQ_CONNECTIONS = ("select count(*) from pg_stat_activity where datname = current_database() "
                        "and application_name = 'dramatiq-pg' and query_start is not null")
CONNECTIONS = "select count(*) from pg_stat_activity where datname = current_database()"
REVIEW = {"qualityScore": 82, "missingFields": ["dimensions"],
          "issues": ["The description does not say which layout the keyboard has."],
          "suggestions": ["Add the keyboard layout, e.g. US or UK."], "requiresHumanReview": False}


# ---------------------------------------------------------------- the simulated model

class SlowModel:
    """An OpenAI-compatible chat.completions endpoint answering every request after `delay`."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.requests = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self) -> None:
        self._closing.set()  # wakes every hanging answer (the client sees a dropped connection)
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def answer(self, request: dict[str, Any]) -> dict[str, Any] | None:
        with self._lock:
            self.requests += 1
        if self._closing.wait(self.delay):
            return None
        return {
            "id": f"chatcmpl-bench-{time.monotonic_ns()}", "object": "chat.completion",
            "created": int(time.time()), "model": request.get("model", "fake"),
            "choices": [{"index": 0, "logprobs": None, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": json.dumps(REVIEW),
                                     "refusal": None}}],
            "usage": {"prompt_tokens": 123, "completion_tokens": 45, "total_tokens": 168},
        }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # 16+ clients connect at once; the default backlog of 5 drops SYNs


def _handler_for(model: SlowModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body are two writes: with Nagle on, the body waits for the client's
        # delayed ACK (~40 ms on Linux loopback), which would be counted as model time.
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = model.answer(json.loads(raw or b"{}"))
            if body is None:
                self.close_connection = True
                return
            data = json.dumps(body).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


# ---------------------------------------------------------------- worker processes

class WorkerGroup:
    """`python -m cli.main worker` in its own session: signals go to the whole group."""

    def __init__(self, url: str, log_path: Path, env: dict[str, str],
                 command: tuple[str, ...] = ("-m", "cli.main", "worker")) -> None:
        inherited = {key: value for key, value in os.environ.items()
                     if not key.startswith(("LISTING_REVIEW_", "OPENAI_", "GEMINI_", "OLLAMA_",
                                            "dramatiq_"))}
        self.env = inherited | {"DATABASE_URL": url} | env
        self.log = open(log_path, "a")  # noqa: SIM115 (kept open for the group's lifetime)
        self.log.write(f"\n=== worker group {env}\n")
        self.log.flush()
        self.process = subprocess.Popen([sys.executable, *command], cwd=ROOT,
                                        env=self.env, start_new_session=True, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        self.pgid = self.process.pid

    def kill(self) -> None:
        """SIGKILL the supervisor and every worker process at once."""
        _signal_group(self.pgid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL whatever of the group is left after `grace` seconds."""
        if self.process.poll() is None:
            _signal_group(self.pgid, signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        _signal_group(self.pgid, signal.SIGKILL)  # also any child the supervisor left behind
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass
        self.log.close()


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


class Bench:
    """Databases, worker groups and model servers of one run; `close` stops all of them."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.tmp = Path(tempfile.mkdtemp(prefix="worker-pipeline-"))
        self.log_path = self.tmp / "workers.log"
        self.external = os.environ.get("DATABASE_URL")
        self.home = None if self.external else self.tmp / "home"
        self.groups: list[WorkerGroup] = []
        self.models: list[SlowModel] = []
        self.engines: list = []

    def database(self, name: str) -> tuple[str, Any]:
        """A migrated, empty database for one part, and an engine on it."""
        url = self.external or self.embedded(name)
        engine = make_engine(url, pool_size=4)
        self.engines.append(engine)
        schema.upgrade(engine)
        if self.external:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("truncate review_jobs, review_batches, dramatiq.queue")
        return url, engine

    def embedded(self, name: str) -> str:
        """A database on the embedded server, which allows MAX_CONNECTIONS clients (16 worker
        processes of 8 threads hold about 300; PostgreSQL's default is 100) and loads
        pg_stat_statements (where the time of the largest run goes)."""
        url = ensure_running(self.home, database=name)
        with psycopg.connect(url, autocommit=True) as conn:
            if int(scalar(conn, "show max_connections")) >= MAX_CONNECTIONS:
                return url
            conn.execute(f"alter system set max_connections = {MAX_CONNECTIONS}")
            conn.execute("alter system set shared_preload_libraries = 'pg_stat_statements'")
        # pg_ctl restart keeps the server's command line (its socket directory).
        user = "embedded_postgres" if _running_as_root() else None
        _embedded().pg_ctl(["-w", "-m", "fast", "restart"], pgdata=pgdata_dir(self.home), user=user)
        return url

    def workers(self, url: str, processes: int, threads: int, *, stock: bool = False,
                **env: str) -> WorkerGroup:
        command = (str(STOCK_WORKER),) if stock else ("-m", "cli.main", "worker")
        group = WorkerGroup(url, self.log_path, {
            "LISTING_REVIEW_WORKER_PROCESSES": str(processes),
            "LISTING_REVIEW_WORKER_THREADS": str(threads),
            "LISTING_REVIEW_QUEUE_NAME": QUEUE,
        } | env, command)
        self.groups.append(group)
        return group

    def model(self, delay: float) -> SlowModel:
        model = SlowModel(delay)
        self.models.append(model)
        return model

    def close(self) -> None:
        for group in self.groups:
            try:
                group.stop(grace=3)
            except Exception as error:  # keep stopping the others
                print(f"warning: stopping worker group {group.pgid}: {error!r}", file=sys.stderr)
        for model in self.models:
            model.close()
        for engine in self.engines:
            engine.dispose()
        if self.home is not None:
            stop_embedded(self.home)
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------- helpers

def listing(i: int) -> ListingDraft:
    return ListingDraft(
        title=f"Listing {i} wireless keyboard",
        description=f"Used wireless keyboard number {i}. Includes its USB receiver. All keys work.",
        category="Computer accessories", price=Decimal("45.00"),
        attributes={"brand": "KeyPro", "condition": "used"})


def submit(engine, count: int, prefix: str = "item", queue: DramatiqPgQueue | None = None) -> uuid.UUID:
    items = [CatalogItem(i, None, f"{prefix}-{i}", listing(i)) for i in range(1, count + 1)]
    accepted = accept_batch(engine, queue or DramatiqPgQueue(QUEUE), owner=OWNER, key=str(uuid.uuid4()),
                            items=items, max_items=max(count, 1))
    return accepted.batch_id


def scalar(conn: psycopg.Connection, query: str, params: tuple = ()) -> Any:
    return conn.execute(query, params or None).fetchone()[0]


def wait_for(condition: Callable[[], bool], what: str, seconds: float = DEADLINE_SECONDS,
             every: float = 0.05) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise TimeoutError(f"timed out after {seconds:.0f} s waiting for {what}")


def wait_listening(conn: psycopg.Connection, processes: int, group: WorkerGroup,
                   baseline: int = 0) -> None:
    """Until `processes` more worker processes listen for messages on this database."""
    def ready() -> bool:
        if group.process.poll() is not None:
            raise RuntimeError(f"worker group exited with {group.process.returncode}; "
                               "see the worker log")
        return scalar(conn, DRAMATIQ_CONNECTIONS) >= baseline + 2 * processes

    wait_for(ready, f"{processes} listening worker process(es)", 60)
    time.sleep(0.2)


def unfinished(conn: psycopg.Connection, batch_id: uuid.UUID) -> int:
    return scalar(conn, "select count(*) from review_jobs where batch_id = %s "
                        "and status in ('QUEUED', 'RUNNING')", (batch_id,))


def wait_done(conn: psycopg.Connection, batch_id: uuid.UUID, every: float = 0.05,
              sample: Callable[[], None] | None = None) -> None:
    def done() -> bool:
        if sample is not None:
            sample()
        return unfinished(conn, batch_id) == 0

    wait_for(done, f"batch {batch_id} to finish", every=every)


def window(conn: psycopg.Connection, batch_id: uuid.UUID) -> tuple[int, int, float, float]:
    """(succeeded, total, seconds from first started_at to last completed_at, mean seconds
    from started_at to completed_at of one job)."""
    row = conn.execute(
        "select count(*) filter (where status = 'SUCCEEDED'), count(*), "
        "extract(epoch from max(completed_at) - min(started_at)), "
        "extract(epoch from avg(completed_at - started_at)) "
        "from review_jobs where batch_id = %s", (batch_id,)).fetchone()
    return row[0], row[1], float(row[2]), float(row[3])


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


# ---------------------------------------------------------------- (a) dispatch latency

def dispatch_latency(bench: Bench) -> None:
    count, pause = 50, 0.05
    url, engine = bench.database("bench_dispatch")
    group = bench.workers(url, 1, 2, LISTING_REVIEW_PROVIDER="heuristic")
    with psycopg.connect(url, autocommit=True) as clock:
        wait_listening(clock, 1, group)
        for i in range(3):  # warm-up: first claims pay for lazy imports and new connections
            wait_done(clock, submit(engine, 1, f"warm-{i}"), every=0.005)
        commits: list[tuple[uuid.UUID, datetime]] = []
        for _ in range(count):
            batch_id = submit(engine, 1)
            # After the commit, on another open connection: an upper bound of the commit time.
            commits.append((batch_id, scalar(clock, "select clock_timestamp()")))
            wait_done(clock, batch_id, every=0.005)
            time.sleep(pause)
        latencies = []
        for batch_id, committed in commits:
            started = scalar(clock, "select started_at from review_jobs where batch_id = %s",
                             (batch_id,))
            latencies.append((started - committed).total_seconds() * 1000)
    group.stop()
    p50, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    print(f"(a) dispatch latency, commit -> claim (started_at), idle worker 1 x 2, heuristic, "
          f"{count} single-item batches {int(pause * 1000)} ms apart")
    print(f"    p50 {p50:6.2f} ms   p95 {p95:6.2f} ms   min {min(latencies):6.2f} ms   "
          f"max {max(latencies):6.2f} ms   target p50 < 5 ms: {'met' if p50 < 5 else 'NOT met'}")
    print("    (commit time = clock_timestamp() right after the commit, an upper bound: a sample "
          "can read low, even below 0)")


# ---------------------------------------------------------------- CPU accounting

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int | str) -> list[str] | None:
    """/proc/<pid>/stat from field 3 (state) on; None when the process is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()


def _processes() -> list[list[str]]:
    return [fields for pid in os.listdir("/proc") if pid.isdigit()
            and (fields := _stat_fields(pid)) is not None]


def _cpu(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def our_cpu_seconds(session: int, postmaster: int | None) -> tuple[float, float, float]:
    """CPU time of the worker group (its session), of the PostgreSQL server (postmaster and
    its children, when it runs here) and of this script (model server, sampling)."""
    processes = _processes()
    workers = sum(_cpu(fields) for fields in processes if int(fields[3]) == session)
    database = sum(_cpu(fields) for fields in processes
                   if postmaster is not None and int(fields[1]) == postmaster)
    if postmaster is not None and (fields := _stat_fields(postmaster)) is not None:
        database += _cpu(fields)
    times = os.times()
    return workers, database, times.user + times.system


def machine_busy_seconds() -> float:
    """CPU-seconds the whole machine spent not idle, every process of every user."""
    values = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:9]]
    return (sum(values) - values[3] - values[4]) / CLOCK_TICKS  # minus idle and iowait


def postmaster_pid(conn: psycopg.Connection) -> int | None:
    """The server's postmaster when it runs on this machine (the parent of our backend)."""
    fields = _stat_fields(scalar(conn, "select pg_backend_pid()"))
    return int(fields[1]) if fields is not None else None


class CpuMeter:
    """CPU spent by our processes and by everything else on the machine over a window."""

    def __init__(self, group: "WorkerGroup", conn: psycopg.Connection) -> None:
        self.session, self.postmaster = group.pgid, postmaster_pid(conn)
        self.parts, self.busy, self.wall = self._now()

    def _now(self) -> tuple[tuple[float, float, float], float, float]:
        return our_cpu_seconds(self.session, self.postmaster), machine_busy_seconds(), time.monotonic()

    def read(self) -> dict[str, float]:
        """CPU-s of workers, database, script and all three (ours); left: CPU-s the machine
        left us (ours + idle); wall: seconds."""
        parts, busy, wall = self._now()
        spent = dict(zip(("workers", "database", "script"),
                         (now - then for now, then in zip(parts, self.parts, strict=True)), strict=True))
        ours = sum(spent.values())
        others, wall = (busy - self.busy) - ours, wall - self.wall
        return spent | {"ours": ours, "left": wall * (os.cpu_count() or 1) - max(0.0, others), "wall": wall}


TOP_STATEMENTS = """
select calls, mean_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 70)
from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
order by total_exec_time desc limit 5"""
# Every statement of the run, for the breakdown per item (--statements).
ALL_STATEMENTS = """
select calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 90)
from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
order by calls desc, query"""
# Every statement the run's processes (and this script's polls) ran, begin/commit included.
STATEMENT_CALLS = """
select coalesce(sum(calls), 0) from pg_stat_statements
where dbid = (select oid from pg_database where datname = current_database())"""


def reset_statements(conn: psycopg.Connection) -> bool:
    """Start pg_stat_statements afresh; False where the server does not load it."""
    try:
        conn.execute("create extension if not exists pg_stat_statements")
        conn.execute("select pg_stat_statements_reset()")
    except psycopg.Error:
        return False
    return True


def commits(conn: psycopg.Connection) -> int:
    return scalar(conn, "select xact_commit from pg_stat_database where datname = current_database()")


# ---------------------------------------------------------------- (b) pipeline efficiency

def dispatch_sample(conn: psycopg.Connection, engine, group: "WorkerGroup", count: int) -> dict[str, float]:
    """Single-item batches one at a time into idle processes: commit -> claim p50, and the
    database transactions one message costs (besides this script's own), which grow with
    processes when every process wakes for every NOTIFY and races for the message."""
    latencies, polls, before = [], [0], commits(conn)

    def done(batch_id: uuid.UUID) -> Callable[[], bool]:
        def check() -> bool:
            polls[0] += 1
            return unfinished(conn, batch_id) == 0
        return check

    for _ in range(count):
        batch_id = submit(engine, 1, "dispatch")
        committed = scalar(conn, "select clock_timestamp()")
        wait_for(done(batch_id), "a dispatched job to finish", every=0.005)
        started = scalar(conn, "select started_at from review_jobs where batch_id = %s", (batch_id,))
        latencies.append((started - committed).total_seconds() * 1000)
    own = polls[0] + 2 * count + 1  # the polls, two reads per message, the final count
    return {"dispatch_p50": statistics.median(latencies),
            "dispatch_transactions": (commits(conn) - before - own) / count}


def pipeline_run(bench: Bench, model: SlowModel, name: str, processes: int, threads: int,
                 count: int, stock: bool = False, **env: str) -> dict[str, float]:
    url, engine = bench.database(name)
    group = bench.workers(url, processes, threads, stock=stock, LISTING_REVIEW_PROVIDER="openai",
                          OPENAI_API_KEY="x", OPENAI_BASE_URL=model.base_url, **env)
    held, polls, connections = [0], [0], [0]
    with psycopg.connect(url, autocommit=True) as conn:
        wait_listening(conn, processes, group)
        queue = NotifyEachQueue(QUEUE) if stock else DramatiqPgQueue(QUEUE)
        wait_done(conn, submit(engine, processes * threads, "warm", queue))  # HTTP connections, imports
        figures = dispatch_sample(conn, engine, group, 10 if bench.quick else 20)

        def sample() -> None:
            polls[0] += 3
            held[0] = max(held[0], scalar(
                conn, "select count(*) from dramatiq.queue where state = 'consumed'"))
            connections[0] = max(connections[0], scalar(conn, CONNECTIONS))

        statements = reset_statements(conn)
        batch_id = submit(engine, count, queue=queue)
        meter, before = CpuMeter(group, conn), commits(conn)
        wait_done(conn, batch_id, every=0.05, sample=sample)
        cpu, transactions = meter.read(), commits(conn) - before - polls[0]
        succeeded, total, seconds, per_job = window(conn, batch_id)
        top = conn.execute(TOP_STATEMENTS).fetchall() if statements else []
        every = conn.execute(ALL_STATEMENTS).fetchall() if statements else []
        calls = scalar(conn, STATEMENT_CALLS) - polls[0] if statements else 0
    group.stop()
    if succeeded != total:
        print(f"    warning: {total - succeeded} of {total} jobs did not succeed")
    rate = count / seconds
    limit = processes * threads / MODEL_SECONDS
    return figures | {
        "rate": rate, "limit": limit, "ratio": rate / limit, "seconds": seconds,
        "held": held[0] / processes, "job_ms": per_job * 1000,
        "busy": count * per_job / (seconds * processes * threads),
        "connections": connections[0] - 1, "cpu_ms": cpu["ours"] * 1000 / count,
        "parts_ms": {part: cpu[part] * 1000 / count for part in ("workers", "database", "script")},
        "left_cores": cpu["left"] / cpu["wall"],
        "transactions": transactions / count, "statements": calls / count, "top": top,
        "every": every}


def machine_efficiency(result: dict[str, float], cpu_ms_alone: float) -> tuple[float, float]:
    """(ceiling, efficiency): the items/s the CPU left to us allows at the 1-process cost per
    item, and items/s over min(physical limit, that ceiling)."""
    ceiling = result["left_cores"] * 1000 / cpu_ms_alone
    return ceiling, result["rate"] / min(result["limit"], ceiling)


def print_pipeline(label: str, processes: int, threads: int, count: int,
                   result: dict[str, float]) -> None:
    print(f"    {label:<20} {processes:>2} x {threads:<2} {count:>5} items {result['seconds']:6.2f} s "
          f"{result['rate']:7.1f}/s  limit {result['limit']:5.0f}/s  ratio {result['ratio']:.2f}  "
          f"held/process <= {result['held']:.0f}  job {result['job_ms']:.0f} ms  "
          f"running per model slot {result['busy']:.0%}")
    parts = ", ".join(f"{part} {ms:.1f}" for part, ms in result["parts_ms"].items())
    print(f"    {'':<20} dispatch p50 {result['dispatch_p50']:6.2f} ms, "
          f"{result['dispatch_transactions']:5.1f} transactions/message idle   "
          f"pipeline: CPU {result['cpu_ms']:5.2f} ms/item ({parts}), "
          f"{result['transactions']:5.2f} transactions/item, {result['statements']:5.1f} statements/item, "
          f"cores left to us {result['left_cores']:.2f}, "
          f"{result['connections']} connections")


def print_statements(result: dict[str, Any], count: int) -> None:
    """Every statement of a run per item (this script's polls included: the sampling selects)."""
    for calls, query in result["every"]:
        print(f"      {calls / count:6.3f}/item  {query}")


def pipeline_efficiency(bench: Bench, series: list[int], statements: bool = False,
                        stock: bool = True) -> None:
    per_thread = 25 if bench.quick else 50  # items per model slot: 400 for 1 x 8, 800 for 2 x 8
    threads = 8
    model = bench.model(MODEL_SECONDS)
    print(f"(b) pipeline efficiency, {threads} threads per process, model answers after "
          f"{int(MODEL_SECONDS * 1000)} ms; ratio = completed/s (first started_at .. last "
          f"completed_at) / physical limit (threads x processes / 0.2 s)")
    results = {}
    for processes in series:
        count = per_thread * processes * threads
        results[processes] = pipeline_run(bench, model, f"bench_pipeline_{processes}", processes,
                                          threads, count)
        print_pipeline(f"{processes} process(es)", processes, threads, count, results[processes])
        if statements:
            print_statements(results[processes], count)
    largest = results[series[-1]]
    print(f"    where the database's time goes at {series[-1]} x {threads} (pg_stat_statements, by "
          "total time; a mean far above the statement's cost is waiting on row locks):")
    for calls, mean_ms, query in largest["top"]:
        print(f"      {calls:>6} calls  mean {mean_ms:8.2f} ms  {query}")
    floor_efficiency(model, threads, per_thread, results)
    alone = results[series[0]]
    print(f"    efficiency on this machine ({os.cpu_count()} CPUs, shared): items/s / min(physical "
          f"limit, ceiling); ceiling = cores left to us / CPU per item at {series[0]} process(es)")
    for processes, result in results.items():
        ceiling, efficiency = machine_efficiency(result, alone["cpu_ms"])
        print(f"    {processes:>2} x {threads}: ceiling {ceiling:6.1f}/s  efficiency {efficiency:.2f}  "
              f"CPU per item x{result['cpu_ms'] / alone['cpu_ms']:.2f} and transactions per item "
              f"x{result['transactions'] / alone['transactions']:.2f} of {series[0]} process(es)   "
              f"target >= 0.97: {'met' if efficiency >= 0.97 else 'NOT met'}")

    if stock:
        stock_run(bench, model, threads, per_thread, results)


def floor_run(model: SlowModel, processes: int, threads: int, per_thread: int) -> float:
    """Items/s of `processes` reviewer_floor.py processes started together: the same reviews
    through the same SDK and model server, with no queue and no database."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("OPENAI_")}
    floors = [subprocess.Popen([sys.executable, str(REVIEWER_FLOOR), "--threads", str(threads),
                                "--per-thread", str(per_thread)], cwd=ROOT, text=True,
                               env=env | {"OPENAI_BASE_URL": model.base_url},
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
              for _ in range(processes)]
    for floor in floors:
        if floor.stdout.readline().strip() != "ready":
            raise RuntimeError("reviewer_floor.py did not start")
    for floor in floors:
        floor.stdin.write("go\n")
        floor.stdin.flush()
    figures = [json.loads(floor.communicate(timeout=DEADLINE_SECONDS)[0]) for floor in floors]
    if any(figure["failed"] for figure in figures):
        print(f"    warning: {sum(figure['failed'] for figure in figures)} floor reviews failed")
    seconds = max(f["ended"] for f in figures) - min(f["started"] for f in figures)
    return sum(f["reviews"] for f in figures) / seconds


def floor_efficiency(model: SlowModel, threads: int, per_thread: int,
                     results: dict[int, dict[str, Any]]) -> None:
    """The pipeline beside its floor: what the same reviews reach with no queue and no database
    (benchmarks/reviewer_floor.py), run right after, at the same process counts."""
    print("    floor: the same reviews, SDK and model server, no queue, no database "
          "(benchmarks/reviewer_floor.py, processes started together)")
    for processes, result in results.items():
        rate = floor_run(model, processes, threads, per_thread)
        limit = processes * threads / MODEL_SECONDS
        print(f"    {processes:>2} x {threads}: floor {rate:6.1f}/s  ratio {rate / limit:.2f}   "
              f"pipeline {result['rate']:6.1f}/s  ratio {result['ratio']:.2f}   "
              f"pipeline / floor {result['rate'] / rate:.3f}")


def stock_run(bench: Bench, model: SlowModel, threads: int, per_thread: int,
              results: dict[int, dict[str, Any]]) -> None:
    """The "before" row: stock dramatiq-pg (its consumer, whose backoff never resets) with dramatiq's
    default prefetch of 2 x threads, in the same run and on the same model server."""
    count = per_thread * threads
    result = pipeline_run(bench, model, "bench_pipeline_before", 1, threads, count, stock=True,
                          LISTING_REVIEW_WORKER_PREFETCH=str(2 * threads))
    print_pipeline("before: stock", 1, threads, count, result)
    if 1 in results:
        print(f"    after / before at 1 x {threads}: {results[1]['ratio'] / result['ratio']:.2f}x")


# ---------------------------------------------------------------- (c) per-job overhead

def per_job_overhead(bench: Bench) -> None:
    count, processes, threads = (500 if bench.quick else 2000), 1, 8
    url, engine = bench.database("bench_overhead")
    group = bench.workers(url, processes, threads, LISTING_REVIEW_PROVIDER="heuristic")
    with psycopg.connect(url, autocommit=True) as conn:
        wait_listening(conn, processes, group)
        wait_done(conn, submit(engine, threads, "warm"))
        batch_id = submit(engine, count)
        wait_done(conn, batch_id, every=0.05)
        succeeded, total, seconds, _ = window(conn, batch_id)
    group.stop()
    rate = count / seconds
    print(f"(c) per-job overhead, instant model (heuristic), {processes} x {threads}, "
          f"{count} items")
    print(f"    {seconds:6.2f} s   {rate / processes:7.1f} jobs/s per worker process   "
          f"{1000 / rate:5.2f} ms wall per job   "
          f"{1000 * threads / rate:5.1f} ms thread-time per job"
          + ("" if succeeded == total else f"   ({total - succeeded} not succeeded!)"))


# ---------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="half the items in (b) and (c)")
    parser.add_argument("--processes", type=lambda text: [int(n) for n in text.split(",")],
                        default=[1, 2, 4, 8, 16], help="worker processes per run of (b), e.g. 1,2,4")
    parser.add_argument("--statements", action="store_true",
                        help="print every statement of each run of (b) with its calls per item")
    parser.add_argument("--only-pipeline", action="store_true", help="skip (a), (c) and the stock run")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run `finally` on SIGTERM too
    bench = Bench(args.quick)
    started = time.monotonic()
    try:
        database = "DATABASE_URL" if bench.external else "embedded PostgreSQL"
        print(f"worker pipeline benchmark ({'quick' if args.quick else 'full'}; "
              f"{os.cpu_count()} CPUs; {database})")
        if not args.only_pipeline:
            dispatch_latency(bench)
        pipeline_efficiency(bench, args.processes, args.statements, stock=not args.only_pipeline)
        if not args.only_pipeline:
            per_job_overhead(bench)
        print(f"total {time.monotonic() - started:.0f} s")
    except BaseException:
        _keep_log(bench)
        raise
    finally:
        bench.close()


def _keep_log(bench: Bench) -> None:
    """Copy the worker log out of the temporary directory before it is removed."""
    kept = Path(tempfile.gettempdir()) / f"worker-pipeline-{os.getpid()}.log"
    try:
        shutil.copy(bench.log_path, kept)
        print(f"worker log copied to {kept}", file=sys.stderr)
    except OSError:
        pass


if __name__ == "__main__":
    main()
