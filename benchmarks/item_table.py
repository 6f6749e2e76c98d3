"""A batch's item table on a 10,000-item batch, next to a 100-item one: one items page, one
search (item id prefix, title prefix), one score-ordered page and the view counts, each
p50/p95 of core's own call (core/batches/pages.py), and its ratio to a floor measured in the
same run: a primary-key read of one job through the same engine. Targets: p50 and p95 under
50 ms each; 10k / 100 near 1 for pages and searches (the counts read the batch once, so they
grow with it, bounded by its size).

Then the plans: EXPLAIN (ANALYZE, BUFFERS) of each search with the indexes it reads and the
shared buffers it touches, and EXPLAIN (GENERIC_PLAN), the plan a prepared statement may
switch to after five runs, to show the prefix indexes are used without the search text too.

    python benchmarks/item_table.py [--runs 200]

Uses DATABASE_URL if set (its batches are added under benchmarks/ui_render.py's owner and
deleted at the end), else a throwaway embedded PostgreSQL that is stopped at the end. The
batches are seeded as benchmarks/ui_render.py seeds them (70 % reviewed, 10 % failed, 20 %
queued; titles "Listing <n> wireless keyboard", item ids SKU-00001...).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.ui_render import OWNER, delete_batches, percentile, seed_batch  # noqa: E402

SIZES = (10_000, 100)
TARGET_MS = 50.0
PAGE = 25
# (label, get_items_page options); the searches match 10 or 100 items of the 10k batch.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("items page 1", {}),
    ("items page after 5,000", {"after": 5000}),
    ("search item id 'SKU-0012'", {"search": "SKU-0012"}),
    ("search title 'listing 12'", {"search": "listing 12"}),
    ("search title 'LISTING 9' by score", {"search": "LISTING 9", "sort": "score"}),
    ("needs attention by score", {"view": "needs_attention", "sort": "score"}),
]
EXPLAINED = ("SKU-0012", "listing 12")
PARAMETER = re.compile(r"(?<![:\w]):([a-z_]\w*)")
COMMENT = re.compile(r"--[^\n]*")


def ms(values: list[float]) -> list[float]:
    return [value * 1000 for value in values]


def sample(call: Callable[[], Any], runs: int) -> list[float]:
    """Milliseconds of `runs` calls after five warm-up calls (psycopg prepares a statement
    after five executions; the timed runs include the prepared ones)."""
    for _ in range(5):
        call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return ms(times)


def line(label: str, values: list[float], floor: float) -> str:
    p50, p95 = statistics.median(values), percentile(values, 0.95)
    verdict = "OK" if p95 < TARGET_MS else "OVER"
    return (f"  {label:<38} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  = {p50 / floor:5.1f}x floor  "
            f"{verdict} (target < {TARGET_MS:.0f} ms)")


def timings(engine, batch_id: uuid.UUID, runs: int) -> dict[str, list[float]]:
    from core.batches.pages import get_items_page, item_counts

    found = {label: sample(lambda options=options: get_items_page(
        engine, OWNER, batch_id, limit=PAGE, max_after=10_000, **options), runs) for label, options in CALLS}
    found["counts (every view)"] = sample(lambda: item_counts(engine, OWNER, batch_id), runs)
    found["API answer: page 1 + counts"] = sample(lambda: (
        get_items_page(engine, OWNER, batch_id, limit=PAGE, max_after=10_000),
        item_counts(engine, OWNER, batch_id)), runs)
    return found


def floor_ms(engine, batch_id: uuid.UUID, runs: int) -> list[float]:
    from sqlalchemy import text

    query = text("select id, status from review_jobs where batch_id = :b and item_position = 1")

    def read() -> None:
        with engine.connect() as connection:
            connection.execute(query, {"b": batch_id}).one()

    return sample(read, runs)


def search_params(batch_id: uuid.UUID, search: str) -> dict[str, Any]:
    from core.batches.pages import CLASSES
    from core.batches.verdicts import GOOD_SCORE_FROM

    return {"owner": OWNER, "batch_id": batch_id, "classes": list(CLASSES), "good_from": GOOD_SCORE_FROM,
            "limit_plus_one": PAGE + 1, "search": search, "by_score": False, "after_key": 0,
            "after_position": 0}


def explain(engine, batch_id: uuid.UUID, search: str) -> str:
    from sqlalchemy import text

    from core.batches.pages import QUERIES

    query = QUERIES["batch_items_search"]
    with engine.connect() as connection:
        raw = connection.execute(text("explain (analyze, buffers, format json) " + query.text),
                                 search_params(batch_id, search)).scalar_one()
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]
    return (f"indexes {sorted(index_names(plan['Plan']))}, shared buffers hit "
            f"{plan['Plan'].get('Shared Hit Blocks', 0)} read {plan['Plan'].get('Shared Read Blocks', 0)}, "
            f"execution {plan['Execution Time']:.2f} ms")


def generic_plan_indexes(url: str) -> list[str]:
    """The indexes of the search's generic plan: its text with $n for every parameter, planned
    without values (PostgreSQL 16+), as a prepared statement may be after five runs."""
    import psycopg

    from core.batches.pages import QUERIES

    names: list[str] = []
    code = COMMENT.sub("", QUERIES["batch_items_search"].text)
    sql = PARAMETER.sub(lambda match: f"${_number(names, match[1])}", code)
    with psycopg.connect(url) as connection:
        raw = connection.execute("explain (generic_plan, format json) " + sql).fetchone()[0]
    return sorted(index_names(raw[0]["Plan"]))


def _number(names: list[str], name: str) -> int:
    if name not in names:
        names.append(name)
    return names.index(name) + 1


def index_names(node: dict[str, Any]) -> set[str]:
    found = {node["Index Name"]} if "Index Name" in node else set()
    return found.union(*(index_names(child) for child in node.get("Plans", [])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed calls per figure and size")
    args = parser.parse_args()

    from core import embedded_postgres, schema
    from core.batches.pages import item_counts, outcome_line
    from core.database import make_engine, plain_postgres_url
    from tasks.queue import DramatiqPgQueue

    given = os.environ.get("DATABASE_URL")
    home = None if given else Path(tempfile.mkdtemp(prefix="lr-item-table-")) / "home"
    url = plain_postgres_url(given) if given else embedded_postgres.ensure_running(home)
    engine = make_engine(url)
    schema.upgrade(engine)
    batch_ids: dict[int, uuid.UUID] = {}
    try:
        print(f"database: {'DATABASE_URL' if given else 'throwaway embedded PostgreSQL'}; --runs {args.runs}")
        for count in SIZES:
            batch_ids[count] = seed_batch(engine, DramatiqPgQueue("listing-reviews"), url, count)
        results = {}
        for count in SIZES:
            floor = statistics.median(floor_ms(engine, batch_ids[count], args.runs))
            results[count] = timings(engine, batch_ids[count], args.runs)
            print(f"\n{count:,}-item batch ({outcome_line(item_counts(engine, OWNER, batch_ids[count]))})")
            print(f"  floor: one job by primary key, p50 {floor:.2f} ms")
            for label, values in results[count].items():
                print(line(label, values, floor))
        print("\nratio 10k / 100 (p50):")
        for label in results[SIZES[0]]:
            big, small = (statistics.median(results[count][label]) for count in SIZES)
            print(f"  {label:<38} {big / small:5.2f}")
        print("\nplans of the search on the 10,000-item batch:")
        for search in EXPLAINED:
            print(f"  '{search}': {explain(engine, batch_ids[SIZES[0]], search)}")
        print(f"  generic plan (no search text): indexes {generic_plan_indexes(url)}")
    finally:
        if batch_ids:
            delete_batches(url, list(batch_ids.values()))
        engine.dispose()
        if home is not None:
            embedded_postgres.stop(home)
            shutil.rmtree(home.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
