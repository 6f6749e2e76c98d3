"""The floor under worker_pipeline.py's efficiency: one process of N threads reviewing through
the same provider code, SDK and local model server as a worker, with no queue and no database.

What this reaches on the machine is what the worker pipeline could reach if every statement,
hand-off and Dramatiq step cost nothing; worker_pipeline.py runs it beside the pipeline (as
many processes at once as the pipeline row) and prints the pipeline's share of it.

    python benchmarks/reviewer_floor.py --threads 8 --per-thread 50   # OPENAI_BASE_URL set

Prints "ready" once every thread has made one call (imports, HTTP connections), waits for a
line on stdin (so that several processes start together), then prints one JSON line:
{"started": epoch seconds, "ended": epoch seconds, "reviews": n, "failed": n}.
"""

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.worker_pipeline import listing
from core.listings import service
from core.listings.errors import ReviewError
from core.listings.providers.openai_chat import OpenAIChatProvider


def reviews(provider: OpenAIChatProvider, first: int, count: int, failed: list[int]) -> None:
    for i in range(first, first + count):
        try:
            service.review(listing(i), "job", provider, 30.0)
        except ReviewError:
            failed.append(i)


def run_threads(provider: OpenAIChatProvider, threads: int, per_thread: int,
                failed: list[int]) -> tuple[float, float]:
    workers = [threading.Thread(target=reviews, args=(provider, t * per_thread, per_thread, failed))
               for t in range(threads)]
    started = time.time()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return started, time.time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--per-thread", type=int, default=50)
    args = parser.parse_args()
    provider = OpenAIChatProvider(name="openai", api_key="x", base_url=os.environ["OPENAI_BASE_URL"],
                                  model="gpt-4.1-mini", timeout=30.0)
    failed: list[int] = []
    run_threads(provider, args.threads, 1, failed)  # imports, one HTTP connection per thread
    print("ready", flush=True)
    sys.stdin.readline()
    started, ended = run_threads(provider, args.threads, args.per_thread, failed)
    print(json.dumps({"started": started, "ended": ended, "reviews": args.threads * args.per_thread,
                      "failed": len(failed)}), flush=True)


if __name__ == "__main__":
    main()
