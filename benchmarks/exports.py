"""Peak memory and time of a batch's downloads at 1,000, 10,000 and 20,000 items: streamed (what
the CLI and the API do: each piece written and dropped) and joined into one bytes object (what a
dashboard download button needs, the shape every download had before streaming).

Constant memory means the streamed peak barely grows from 1,000 to 10,000 items (ratio near 1)
and not at all from 10,000 to 20,000, while the joined file grows with the batch. The streamed
peak is about two chunks of rows (the one being written and the one being fetched); a fix-up
file of a 1,000-item batch holds about 560 rows, less than two chunks, so its 10k/1k ratio shows
the step to the plateau and 20k/10k the plateau itself. Peaks come from tracemalloc in a run of
their own (tracing slows Python down); times are the median of --repeat untraced runs.

    python benchmarks/exports.py [--repeat 3]

Uses a throwaway embedded PostgreSQL.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Engine, text

from core import embedded_postgres, schema
from core.batches.acceptance import accept_batch
from core.batches.export import fixup_count
from core.batches.verdicts import GOOD_SCORE_FROM
from core.database import make_engine
from core.downloads import DOWNLOAD_FORMATS, download_bytes, open_download
from tasks.queue import DramatiqPgQueue
from tests.builders import items

SIZES = (1_000, 10_000, 20_000)
OWNER = "bench"
# Every item reviewed: scores spread over 0-100 (so about GOOD_SCORE_FROM % of them need work),
# every 7th asks for a person, every 11th failed; each review has lists to write out.
FINISH = text("""
update review_jobs set
  status = case when item_position % 11 = 0 then 'FAILED' else 'SUCCEEDED' end,
  error_code = case when item_position % 11 = 0 then 'MODEL_TIMEOUT' end,
  error_message = case when item_position % 11 = 0 then 'The review exceeded its time limit.' end,
  result = case when item_position % 11 <> 0 then jsonb_build_object(
    'qualityScore', item_position * 37 % 101, 'requiresHumanReview', item_position % 7 = 0,
    'missingFields', jsonb_build_array('brand', 'size'),
    'issues', jsonb_build_array('The title is short', 'No dimensions given'),
    'suggestions', jsonb_build_array('Name the brand in the title', 'Add the size in cm'),
    'provider', 'heuristic', 'model', 'rules', 'promptVersion', 'v1', 'usage', null) end,
  started_at = now(), completed_at = now(), execution_token = null, heartbeat_at = null
where batch_id = :batch_id
""")


def make_batch(engine: Engine, count: int) -> uuid.UUID:
    accepted = accept_batch(engine, DramatiqPgQueue("listing-reviews"), owner=OWNER, key=f"bench-{count}",
                            items=items(count), max_items=count)
    with engine.begin() as connection:
        connection.execute(FINISH, {"batch_id": accepted.batch_id})
    return accepted.batch_id


def streamed(engine: Engine, batch_id: uuid.UUID, file_format: str) -> Callable[[], int]:
    def run() -> int:
        return sum(len(piece) for piece in open_download(engine, OWNER, batch_id, file_format).chunks)
    return run


def joined(engine: Engine, batch_id: uuid.UUID, file_format: str) -> Callable[[], int]:
    return lambda: len(download_bytes(engine, OWNER, batch_id, file_format))


def peak_mib(run: Callable[[], int]) -> float:
    run()  # warm: queries loaded, pool connected, statements prepared
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def median_ms(run: Callable[[], int], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(engine: Engine, batches: dict[int, uuid.UUID], repeat: int) -> Iterator[str]:
    small, large, larger = SIZES
    yield (f"{'download':<16} {'bytes 10k':>10} {'ms 1k':>7} {'ms 10k':>7} {'MiB 1k':>7} {'MiB 10k':>7} "
           f"{'MiB 20k':>7} {'peak 10k/1k':>11} {'peak 20k/10k':>12}")
    for file_format in DOWNLOAD_FORMATS:
        for way, make in (("streamed", streamed), ("joined", joined)):
            runs = {size: make(engine, batches[size], file_format) for size in SIZES}
            peaks = {size: peak_mib(runs[size]) for size in SIZES}
            times = {size: median_ms(runs[size], repeat) for size in (small, large)}
            yield (f"{file_format + ' ' + way:<16} {runs[large]():>10,} {times[small]:>7.0f} "
                   f"{times[large]:>7.0f} {peaks[small]:>7.2f} {peaks[large]:>7.2f} {peaks[larger]:>7.2f} "
                   f"{peaks[large] / peaks[small]:>11.2f} {peaks[larger] / peaks[large]:>12.2f}")
    counts = {size: median_ms(lambda size=size: fixup_count(engine, OWNER, batches[size]), repeat * 5)
              for size in (small, large)}
    yield (f"fixup_count (the page's 'nothing to fix' check): {counts[small]:.1f} ms at 1k, "
           f"{counts[large]:.1f} ms at 10k")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp()) / "home"
    try:
        engine = make_engine(embedded_postgres.ensure_running(home))
        schema.upgrade(engine)
        batches = {size: make_batch(engine, size) for size in SIZES}
        for line in measure(engine, batches, args.repeat):
            print(line, flush=True)
        print(f"(fix-up rows: reviewed listings scoring below {GOOD_SCORE_FROM} or asking for a person; "
              "constant memory: the streamed peak ratio near 1, the joined one growing with the batch)")
    finally:
        embedded_postgres.stop(home)
        shutil.rmtree(home.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
