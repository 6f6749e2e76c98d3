"""A provider outage and a 429 storm over a queued backlog, with real worker processes, the real
openai SDK and a local fake model, at default settings (issue: "a provider outage must not fail
the backlog").

For each scenario (HTTP 500 for every call; HTTP 429 with `Retry-After: 1` for every call) the
backlog is submitted while the model is failing, the workers start, the failure lasts
`--outage` seconds, then the model answers again. Printed: jobs failed, model calls during the
outage, attempts spent by then, seconds from recovery to the first success and to the last job.
The baseline is the same scenario with the breaker effectively off
(LISTING_REVIEW_BREAKER_FAILURE_THRESHOLD=1000), run until every job is terminal or the outage
ends.

    python benchmarks/provider_outage.py [--jobs 300] [--outage 60]

Uses a throwaway embedded PostgreSQL with a fresh database per run. Times of recovery and
completion are read from the database's clock, so they are on one clock.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, text  # noqa: E402

from core import schema  # noqa: E402
from core.batches.acceptance import accept_batch  # noqa: E402
from core.database import make_engine  # noqa: E402
from core.embedded_postgres import ensure_running  # noqa: E402
from core.embedded_postgres import stop as stop_embedded  # noqa: E402
from tasks.queue import DramatiqPgQueue  # noqa: E402
from tests.builders import items  # noqa: E402
from tests.fake_openai import Behaviour, FakeOpenAI, _error_body  # noqa: E402

SCENARIOS = {"500 outage": (500, {}), "429 storm": (429, {"Retry-After": "1"})}
BASELINE = {"LISTING_REVIEW_BREAKER_FAILURE_THRESHOLD": "1000"}
DRAIN_DEADLINE_SECONDS = 600


class FlakyModel(FakeOpenAI):
    """The fake model: every request gets `failure` while it is set."""

    failure: Behaviour | None = None

    def _next(self, request: dict, headers: dict[str, str]) -> Behaviour:
        answer = super()._next(request, headers)
        return self.failure or answer


def start_workers(url: str, model: FlakyModel, log: Path, env: dict[str, str]) -> subprocess.Popen:
    inherited = {key: value for key, value in os.environ.items()
                 if not key.startswith(("LISTING_REVIEW_", "OPENAI_", "dramatiq_"))}
    settings = {"DATABASE_URL": url, "LISTING_REVIEW_PROVIDER": "openai", "OPENAI_API_KEY": "bench",
                "OPENAI_BASE_URL": model.base_url} | env
    return subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], cwd=ROOT,
                            env=inherited | settings, start_new_session=True,
                            stdout=log.open("a"), stderr=subprocess.STDOUT)


def stop_workers(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(conn.execute(text("select status, count(*) from review_jobs group by 1")).all())


def scalar(engine: Engine, sql: str, **params):
    with engine.connect() as conn:
        return conn.execute(text(sql), params).scalar_one()


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def run(home: Path, name: str, jobs: int, outage: float, status: int, headers: dict[str, str],
        env: dict[str, str]) -> dict[str, float | int | None]:
    url = ensure_running(home, database=name)
    engine = make_engine(url, pool_size=2)
    schema.upgrade(engine)
    with FlakyModel() as model:
        model.failure = Behaviour(status, _error_body(status), headers)
        accept_batch(engine, DramatiqPgQueue("listing-reviews"), owner="local", key=name,
                     items=items(jobs), max_items=jobs)
        workers = start_workers(url, model, home / "workers.log", env)
        try:
            return _measure(engine, model, jobs, outage)
        finally:
            stop_workers(workers)
            engine.dispose()


def _measure(engine: Engine, model: FlakyModel, jobs: int, outage: float) -> dict:
    wait_until(lambda: len(model.requests) > 0, 120)
    # The outage runs from the first failed call; a baseline whose jobs all failed stops early.
    wait_until(lambda: counts(engine).get("FAILED", 0) == jobs, outage)
    figures = {"calls during outage": len(model.requests),
               "attempts spent by recovery": scalar(engine, "select sum(attempts) from review_jobs")}
    model.failure = None
    recovered = scalar(engine, "select clock_timestamp()")
    wait_until(lambda: counts(engine).get("QUEUED", 0) + counts(engine).get("RUNNING", 0) == 0,
               DRAIN_DEADLINE_SECONDS)
    done = counts(engine)
    since = ("select extract(epoch from {}(completed_at) - :t)::float8 from review_jobs "
             "where status = 'SUCCEEDED' and completed_at >= :t")
    return figures | {
        "succeeded": done.get("SUCCEEDED", 0), "failed": done.get("FAILED", 0),
        "first success after recovery (s)": scalar(engine, since.format("min"), t=recovered),
        "last job after recovery (s)": scalar(engine, since.format("max"), t=recovered)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=300)
    parser.add_argument("--outage", type=float, default=60.0, help="seconds of failure")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="provider-outage-"))
    print(f"{args.jobs} queued jobs, {args.outage:.0f} s of failure, default settings "
          "(1 worker process x 2 threads, threshold 5, open 2 s, 3 attempts)")
    runs = [(scenario, label, env) for scenario in SCENARIOS
            for label, env in (("breaker", {}), ("baseline, breaker off", BASELINE))]
    try:
        for number, (scenario, label, env) in enumerate(runs):
            status, headers = SCENARIOS[scenario]
            figures = run(home, f"outage_{number}", args.jobs, args.outage, status, headers, env)
            shown = ", ".join(f"{key}: {_fmt(value)}" for key, value in figures.items())
            print(f"{scenario:11} {label:22} {shown}", flush=True)
    finally:
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    main()
