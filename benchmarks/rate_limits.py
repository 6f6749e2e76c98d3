"""Shared rate limits against a provider that enforces its own: real worker processes, the real
openai SDK and a local fake model that allows `--rpm` requests in any 60 s (a sliding window,
the strictest reading of "N per minute") and answers the rest with 429 + Retry-After.

A backlog larger than the run can serve is queued, then `--processes` x `--threads` workers
with LISTING_REVIEW_RATE_LIMITS=openai:gpt-4.1-mini=<rpm>rpm run for `--seconds` from the
first call. Printed: calls the fake accepted and refused in that time, throughput per minute
and its ratio to the limit, the share of calls refused (targets: >= 95 % of the limit, <= 1 %
refused), and from the database the jobs done and the attempts they spent (waiting for a
slot spends none). `--baseline` runs the same without our limit first, for comparison.

    python benchmarks/rate_limits.py [--seconds 120] [--rpm 120] [--processes 2] [--threads 8]

Uses a throwaway embedded PostgreSQL with a fresh database per run.
"""

import argparse
import dataclasses
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine  # noqa: E402

from benchmarks.provider_outage import counts, scalar, start_workers, stop_workers, wait_until  # noqa: E402
from core import schema  # noqa: E402
from core.batches.acceptance import accept_batch  # noqa: E402
from core.database import make_engine  # noqa: E402
from core.embedded_postgres import ensure_running  # noqa: E402
from core.embedded_postgres import stop as stop_embedded  # noqa: E402
from tasks.queue import DramatiqPgQueue  # noqa: E402
from tests.builders import items  # noqa: E402
from tests.fake_openai import Behaviour, FakeOpenAI  # noqa: E402

MODEL = "gpt-4.1-mini"


class SlowModel(FakeOpenAI):
    """The fake model answering after `latency` seconds, like a real one."""

    latency = 0.0

    def _next(self, request: dict, headers: dict[str, str]) -> Behaviour:
        return dataclasses.replace(super()._next(request, headers), delay=self.latency)


def run(home: Path, name: str, args: argparse.Namespace, limited: bool) -> dict[str, float | int]:
    url = ensure_running(home, database=name)
    engine = make_engine(url, pool_size=2)
    schema.upgrade(engine)
    jobs = math.ceil(args.rpm * args.seconds / 60 * 1.3) + 30
    env = {"LISTING_REVIEW_WORKER_PROCESSES": str(args.processes),
           "LISTING_REVIEW_WORKER_THREADS": str(args.threads), "OPENAI_MODEL": MODEL}
    if limited:
        env["LISTING_REVIEW_RATE_LIMITS"] = f"openai:{MODEL}={args.rpm}rpm"
    with SlowModel(rpm=args.rpm) as model:
        model.latency = args.latency
        accept_batch(engine, DramatiqPgQueue("listing-reviews"), owner="local", key=name,
                     items=items(jobs), max_items=jobs)
        workers = start_workers(url, model, home / "workers.log", env)
        try:
            return _measure(engine, model, args.seconds)
        finally:
            stop_workers(workers)
            engine.dispose()


def _measure(engine: Engine, model: SlowModel, seconds: float) -> dict[str, float | int]:
    limit = model.limit
    assert limit is not None
    wait_until(lambda: limit.admitted + limit.rate_limited > 0, 180)
    time.sleep(seconds)
    accepted, refused = limit.admitted, limit.rate_limited
    done = counts(engine)
    return {"accepted": accepted, "refused (429)": refused,
            "per minute": accepted / seconds * 60,
            "refused %": 100 * refused / max(1, accepted + refused),
            "jobs succeeded": done.get("SUCCEEDED", 0), "jobs failed": done.get("FAILED", 0),
            "jobs running at the end": done.get("RUNNING", 0),
            "attempts spent": scalar(engine, "select coalesce(sum(attempts), 0) from review_jobs")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="measured run after the first call")
    parser.add_argument("--rpm", type=int, default=120, help="the fake's limit and ours")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.3, help="the fake model's answer time (s)")
    parser.add_argument("--baseline", action="store_true", help="also run without our limit first")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="rate-limits-"))
    print(f"{args.processes} worker processes x {args.threads} threads, fake limit {args.rpm} rpm "
          f"(sliding 60 s), model latency {args.latency} s, {args.seconds:.0f} s from the first call")
    runs = [("no shared limit", False)] if args.baseline else []
    try:
        for number, (label, limited) in enumerate([*runs, (f"limit {args.rpm} rpm", True)]):
            figures = run(home, f"rate_limits_{number}", args, limited)
            shown = ", ".join(f"{key}: {_fmt(value)}" for key, value in figures.items())
            ratio = figures["per minute"] / args.rpm
            print(f"{label:16} {shown}, throughput/limit: {ratio:.3f}", flush=True)
    finally:
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)


def _fmt(value: float | int) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    main()
