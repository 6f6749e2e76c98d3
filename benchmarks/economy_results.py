"""Economy mode's answers are streamed, not read whole (issue 17): tracemalloc's peak while one
ended provider batch is polled (output file downloaded line by line through the real openai SDK,
validated, written in chunks of core/economy/results.CHUNK), at two sizes, beside the peak of
just reading the same output file whole (what the first slice did) measured in the same run.

A bounded writer's peak stays about the same from the small size to the large one; reading the
file whole grows with it. The fake server runs on a thread of this process and serves the file
from the bytes it already holds (allocated before tracing starts).

    python benchmarks/economy_results.py [--small 2000] [--large 20000]

Uses a throwaway embedded PostgreSQL.
"""

import argparse
import sys
import tracemalloc
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import openai
from sqlalchemy import Engine, text

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
# Long leases, no poll backoff: each call does its step at once and nothing else takes it.
POLICY = EconomyPolicy(lease_seconds=3600, first_poll_seconds=0, max_poll_seconds=0)
SUCCEEDED = text("select count(*) from review_jobs where status = 'SUCCEEDED'")


def peak_mib(run: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def ended_provider_batch(engine: Engine, fake: FakeOpenAI, batches: OpenAIBatches, count: int) -> str:
    """An economy batch of `count` sent and ended at the fake (its output file written), due for
    its poll; the output file's id."""
    accept_batch(engine, QUEUE, owner="bench", key=f"k-{uuid.uuid4()}", items=items(count),
                 max_items=count, mode="economy")
    fake.batches.plan.hold = True
    assert send_next_batch(engine, QUEUE, batches, POLICY)
    fake.batches.plan.hold = False
    output = batches.status(fake.batches.created[-1]).output_file_id
    with engine.begin() as connection:
        connection.execute(text("update provider_batches set next_poll_at = now() where state = 'submitted'"))
    assert output is not None
    return output


def measure(engine: Engine, fake: FakeOpenAI, count: int) -> tuple[float, float]:
    """(streamed poll's peak, whole read's peak) in MiB for a provider batch of `count`."""
    settings = Settings(database_url="postgresql://unused", provider="openai", openai_api_key="k",
                        openai_base_url=fake.base_url, model_timeout=120)
    batches = OpenAIBatches(settings)
    output = ended_provider_batch(engine, fake, batches, count)
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, max_retries=0)
    whole = peak_mib(lambda: client.files.content(output).text.splitlines())  # as the first slice did
    streamed = peak_mib(lambda: poll_next_batch(engine, QUEUE, batches, POLICY, settings.max_attempts))
    with engine.connect() as connection:
        done = connection.execute(SUCCEEDED).scalar_one()
    size = len(fake.batches.files[output]) / 2**20
    print(f"{count:>7,} answers ({size:5.1f} MiB file): streamed poll peak {streamed:5.1f} MiB; "
          f"reading the file whole {whole:5.1f} MiB; jobs succeeded so far {done:,}", flush=True)
    return streamed, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=2_000)
    parser.add_argument("--large", type=int, default=20_000)
    args = parser.parse_args()
    with scratch_database() as url, FakeOpenAI() as fake:
        engine = make_engine(url)
        small, small_whole = measure(engine, fake, args.small)
        large, large_whole = measure(engine, fake, args.large)
    print(f"growth {args.large // args.small}x the answers: streamed peak x{large / small:.2f}, "
          f"whole read x{large_whole / small_whole:.2f}")


if __name__ == "__main__":
    main()
