"""Acceptance time for 100 / 1,000 / 10,000 listings, end to end and against the database floor.

End to end = parse + validate a CSV file + one transaction (batch, bulk jobs, one dramatiq-pg
message and NOTIFY per job). Floor = the same rows written with COPY in one transaction by
raw psycopg (no parsing, no validation, no fingerprints): the physical limit on this machine.

    python benchmarks/acceptance.py [--repeat 5]

Uses DATABASE_URL if set (its tables are truncated!), else a throwaway embedded PostgreSQL.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import schema
from core.batches.submission import submit_catalog
from core.database import make_engine
from core.embedded_postgres import ensure_running
from core.settings import Settings
from tasks.queue import DramatiqPgQueue

SIZES = (100, 1_000, 10_000)
CATEGORIES = ("Phones", "Shoes", "Books", "Computer accessories", "Furniture")


def catalog_csv(count: int) -> bytes:
    lines = ["item_id,title,description,category,price,brand,condition,colour"]
    for i in range(count):
        lines.append(f'SKU-{i},"Listing {i} wireless keyboard","Used keyboard number {i}, includes '
                     f'USB receiver. All keys work.",{CATEGORIES[i % 5]},{i % 500}.{i % 100:02d},'
                     f'KeyPro,used,black')
    return ("\n".join(lines) + "\n").encode()


def truncate(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("truncate review_jobs, review_batches, dramatiq.queue")


def time_end_to_end(engine, settings: Settings, data: bytes) -> float:
    queue = DramatiqPgQueue(settings.queue_name)
    started = time.perf_counter()
    accepted = submit_catalog(engine, queue, settings, owner="bench", filename="bench.csv",
                              data=data, key=str(uuid.uuid4()))
    elapsed = time.perf_counter() - started
    assert accepted.created
    return elapsed


def time_floor(url: str, count: int) -> float:
    batch_id = uuid.uuid4()
    payload = json.dumps({"title": "t", "description": "d" * 60, "category": "c", "price": 1,
                          "attributes": {"brand": "KeyPro"}})
    job_ids = [uuid.uuid4() for _ in range(count)]
    with psycopg.connect(url) as conn:
        started = time.perf_counter()
        conn.execute("insert into review_batches (id, owner, idempotency_key, request_hash) "
                     "values (%s, 'floor', %s, %s)", (batch_id, str(batch_id), "a" * 64))
        with conn.cursor().copy("copy review_jobs (id, owner, batch_id, item_id, item_position, "
                                "request_hash, payload, status) from stdin") as copy:
            for position, job_id in enumerate(job_ids, start=1):
                copy.write_row((job_id, "floor", batch_id, f"SKU-{position}", position, "b" * 64,
                                payload, "QUEUED"))
        with conn.cursor().copy('copy dramatiq.queue (queue_name, message_id, "state", message) '
                                "from stdin") as copy:
            for job_id in job_ids:
                message = json.dumps({"queue_name": "q", "actor_name": "review_listing",
                                      "args": [str(job_id)], "kwargs": {}, "options": {},
                                      "message_id": str(job_id), "message_timestamp": 0})
                copy.write_row(("q", job_id, "queued", message))
        conn.execute("select count(pg_notify('dramatiq.q.enqueue', message::text)) "
                     "from dramatiq.queue where queue_name = 'q'")
        conn.commit()
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL") or ensure_running(Path(tempfile.mkdtemp()) / "home")
    settings = Settings(database_url=url, max_batch_items=10_000)
    engine = make_engine(url)
    schema.upgrade(engine)
    print(f"{'items':>7} {'end-to-end p50':>15} {'rows/s':>9} {'floor p50':>10} {'floor rows/s':>13}"
          f" {'ratio':>6}")
    for count in SIZES:
        data = catalog_csv(count)
        ends, floors = [], []
        for _ in range(args.repeat):
            truncate(url)
            ends.append(time_end_to_end(engine, settings, data))
            truncate(url)
            floors.append(time_floor(url, count))
        end, floor = statistics.median(ends), statistics.median(floors)
        print(f"{count:>7} {end * 1000:>12.1f} ms {count / end:>9.0f} {floor * 1000:>7.1f} ms "
              f"{count / floor:>13.0f} {end / floor:>6.2f}")
    truncate(url)
    engine.dispose()


if __name__ == "__main__":
    main()
