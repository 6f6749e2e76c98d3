"""Economy mode at 10,000 listings (issue 17): acceptance, sending the provider batch, and writing
its answers back, each beside a floor measured in the same run.

- accept (median of 3): an economy batch (no queue message) vs. the same listings in standard mode (one
  message each): the ratio shows what holding the jobs for the provider saves.
- submit: claiming the jobs and building + uploading the JSONL + creating the provider batch
  (send_next_batch against tests/fake_openai.py through the real openai SDK), and the file's size.
- results: one poll of the ended provider batch (download, validate, fenced writes, a few
  hundred failed lines re-queued in standard mode) as items per second, vs. the floor: one
  set-based UPDATE writing a stored result into as many jobs (the least the database can do).
- peak: tracemalloc's peak during that poll, in a run of its own (tracing slows Python down).
  The fake server runs on a thread of this process: its reply buffers count too.

    python benchmarks/economy_scale.py [--items 10000] [--failed 300]

Uses a throwaway embedded PostgreSQL.
"""

import argparse
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Engine, text

from benchmarks.economy_results import peak_mib
from benchmarks.scratch import scratch_database
from core.batches.acceptance import accept_batch
from core.database import make_engine
from core.economy.openai_batches import OpenAIBatches
from core.economy.policy import EconomyPolicy
from core.economy.poll import poll_next_batch
from core.economy.submit import send_next_batch
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.builders import items
from tests.fake_openai import FakeOpenAI

QUEUE = DramatiqPgQueue("listing-reviews")
OWNER = "bench"
# Long leases, no poll backoff: each call does its step at once and nothing else takes it.
POLICY = EconomyPolicy(lease_seconds=3600, first_poll_seconds=0, max_poll_seconds=0)
FLOOR = text("""
update review_jobs set status = 'SUCCEEDED', started_at = now(), completed_at = now(), attempts = 1,
  execution_token = null,
  result = jsonb_build_object('qualityScore', 82, 'requiresHumanReview', false,
    'missingFields', jsonb_build_array('dimensions'), 'issues', jsonb_build_array('No layout given'),
    'suggestions', jsonb_build_array('Add the layout'), 'provider', 'openai-batch',
    'model', 'gpt-4.1-mini', 'promptVersion', 'v1',
    'usage', jsonb_build_object('inputTokens', 123, 'outputTokens', 45))
where batch_id = :batch_id
""")


def seconds(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def accept(engine: Engine, count: int, mode: str) -> uuid.UUID:
    return accept_batch(engine, QUEUE, owner=OWNER, key=f"{mode}-{uuid.uuid4()}", items=items(count),
                        max_items=count, mode=mode).batch_id  # type: ignore[arg-type]


def ended_provider_batch(engine: Engine, fake: FakeOpenAI, batches: OpenAIBatches) -> None:
    """Let the fake end the newest provider batch (it writes its files on this retrieval), and
    make it due: what polling then does is what gets measured."""
    fake.batches.plan.hold = False
    batches.status(fake.batches.created[-1])
    with engine.begin() as connection:
        connection.execute(text("update provider_batches set next_poll_at = now() where state = 'submitted'"))


def sent(engine: Engine, fake: FakeOpenAI, batches: OpenAIBatches) -> float:
    """Send the accepted economy batch (held at the provider, then ended); the send's seconds."""
    fake.batches.plan.hold = True
    took = seconds(lambda: send_next_batch(engine, QUEUE, batches, POLICY))
    ended_provider_batch(engine, fake, batches)
    return took


def poll(engine: Engine, batches: OpenAIBatches, max_attempts: int) -> None:
    assert poll_next_batch(engine, QUEUE, batches, POLICY, max_attempts)


def measure(engine: Engine, fake: FakeOpenAI, count: int, failed: int) -> None:
    settings = Settings(database_url="postgresql://unused", provider="openai", openai_api_key="k",
                        openai_base_url=fake.base_url, model_timeout=120)
    batches = OpenAIBatches(settings)
    fake.batches.plan.failed_items = failed
    standard_accept = statistics.median(seconds(lambda: accept(engine, count, "standard")) for _ in range(3))
    economy_accept = statistics.median(seconds(lambda: accept(engine, count, "economy")) for _ in range(3))
    print(f"accept {count:,} (median of 3): economy {economy_accept:.2f} s, standard {standard_accept:.2f} s "
          f"(economy/standard {economy_accept / standard_accept:.2f})", flush=True)
    send = sent(engine, fake, batches)
    size = len(fake.batches.files[fake.batches.batches[fake.batches.created[-1]]["input_file_id"]])
    print(f"submit {count:,} requests: {send:.2f} s, input file {size / 2**20:.1f} MiB", flush=True)
    write = seconds(lambda: poll(engine, batches, settings.max_attempts))
    floor_batch = accept(engine, count, "standard")
    with engine.begin() as connection:
        floor = seconds(lambda: connection.execute(FLOOR, {"batch_id": floor_batch}))
    print(f"results {count:,} ({failed} failed, re-queued): {write:.2f} s = {count / write:,.0f} items/s; "
          f"floor (one UPDATE) {floor:.2f} s = {count / floor:,.0f} items/s; "
          f"writer/floor {write / floor:.1f}", flush=True)
    accept(engine, count, "economy")
    sent(engine, fake, batches)
    peak = peak_mib(lambda: poll(engine, batches, settings.max_attempts))
    print(f"result writer peak (tracemalloc, fake server included): {peak:.1f} MiB for {count:,} items")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--failed", type=int, default=300)
    args = parser.parse_args()
    with scratch_database() as url, FakeOpenAI() as fake:
        measure(make_engine(url), fake, args.items, args.failed)


if __name__ == "__main__":
    main()
