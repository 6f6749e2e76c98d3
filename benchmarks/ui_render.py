"""The batch page on a 10,000-item batch, as issue 13 sets its targets: a full render (p50 <
300 ms), one live refresh (the `live_batch` fragment alone, < 50 ms) and one search (< 50 ms),
each p50/p95 over --repeat runs and its ratio to floors measured in the same run: the same
page on a 100-item batch (the page must not grow with the batch) and AppTest's run of a
one-line script (what any page costs in this harness). Nothing here asserts a time.

Full render = one `AppTest.run()` of ui/app.py on the batch page (?batch=<id>): the whole
script, every core call it makes and Streamlit's own work, server side only (no browser, no
websocket). Live refresh = the fragment rerun the browser's run_every timer asks for: summary,
counts, a 25-row table, both charts and the actions. Search = the fragment rerun a new text in
the search box asks for (the box is inside the fragment). AppTest has no public call for a
fragment rerun; this script queues the fragment's id on its script runner (as the browser
does) and says so when that is not possible.

Then where the live refresh's time goes on the 10k batch: each core call on its own (p50 of
--calls calls), and the fragment's parts under cProfile (counts query, table, charts...).

The seeded batches are 70 % SUCCEEDED (with a review), 10 % FAILED and 20 % QUEUED, so the
page shows a running batch whose fragment keeps refreshing; every run is kept in the page's
first refresh interval so each sample is one render.

    python benchmarks/ui_render.py [--repeat 30] [--calls 200]

Uses DATABASE_URL if set (its batches are added under owner "ui-render-bench" and deleted at
the end), else a throwaway embedded PostgreSQL that is stopped at the end.
"""

import argparse
import cProfile
import dataclasses
import logging
import os
import pstats
import shutil
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

APP = ROOT / "ui" / "app.py"
OWNER = "ui-render-bench"
SIZES = (10_000, 100)
RENDER_TARGET_MS = 300.0
REFRESH_TARGET_MS = 50.0
SEARCH_TARGET_MS = 50.0
CATEGORIES = ("Phones", "Shoes", "Books", "Computer accessories", "Furniture")
# Item id and title prefixes, matching 10 to 1,112 items of either batch; the runs take turns.
SEARCHES = ("SKU-0001", "listing 5", "SKU-0009", "Listing 1")
FLOOR_SCRIPT = "import streamlit as st\nst.title('Floor')\n"
PAGE_ROWS = 25
# The fragment's parts, as named in ui/ (function names are unique there), for the profile.
PARTS = ("live_batch", "progress", "counters", "items_section", "items_table", "charts", "state_chart",
         "score_chart", "actions", "get_summary", "item_counts", "get_items_page", "score_distribution")

# Every position p: p % 10 in 0..6 SUCCEEDED, 7 FAILED, 8..9 QUEUED. The review varies with p
# (score 35..99, some missing fields and issues, human review below 60) like a real batch.
SUCCEED = """
update review_jobs set status = 'SUCCEEDED', attempts = 1,
  started_at = submitted_at + make_interval(secs => 1 + item_position * 0.05),
  completed_at = submitted_at + make_interval(secs => 3 + item_position * 0.05),
  result = jsonb_build_object(
    'qualityScore', 35 + (item_position * 37) %% 65,
    'missingFields', case when item_position %% 3 = 0 then '["brand", "condition"]'::jsonb
                          when item_position %% 3 = 1 then '["colour"]'::jsonb
                          else '[]'::jsonb end,
    'issues', case when (item_position * 37) %% 65 < 25 then
        '["The description does not say what is included.",
          "The title repeats the category."]'::jsonb
      else '["The price has no currency context."]'::jsonb end,
    'suggestions', '["Name the brand and model in the title.", "List what comes in the box.",
                     "Add the item''s condition and any defects."]'::jsonb,
    'requiresHumanReview', 35 + (item_position * 37) %% 65 < 60)
where batch_id = %(batch_id)s and item_position %% 10 < 7
"""
FAIL = """
update review_jobs set status = 'FAILED', attempts = 3,
  started_at = submitted_at + make_interval(secs => 1 + item_position * 0.05),
  completed_at = submitted_at + make_interval(secs => 9 + item_position * 0.05),
  error_code = case when item_position %% 20 = 7 then 'AI_RESPONSE_INVALID'
                    else 'AI_PROVIDER_UNAVAILABLE' end,
  error_message = case when item_position %% 20 = 7
                       then 'The model did not produce a valid review.'
                       else 'The review service did not answer in time; retry later.' end
where batch_id = %(batch_id)s and item_position %% 10 = 7
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ms(seconds: float) -> float:
    return seconds * 1000


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (p95 of 30 runs is the 29th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def figures(seconds: list[float]) -> str:
    values = [ms(value) for value in seconds]
    return (f"p50 {statistics.median(values):7.1f} ms  p95 {percentile(values, 0.95):7.1f} ms  "
            f"min {min(values):6.1f}  max {max(values):6.1f}  (n={len(values)})")


def verdict(value_ms: float, target_ms: float) -> str:
    return f"{'OK' if value_ms < target_ms else 'OVER'} (target < {target_ms:.0f} ms)"


def seed_batch(engine, queue, url: str, count: int) -> uuid.UUID:
    """accept_batch like the UI's upload does, then finish 80 % of the jobs by SQL within the
    schema's checks. Its queue messages are removed so a worker on DATABASE_URL never runs it."""
    import psycopg

    from core.batches.acceptance import SourceFile, accept_batch
    from core.catalogs.check import CatalogItem
    from core.listings.draft import ListingDraft

    items = [CatalogItem(i, i + 1, f"SKU-{i:05d}", ListingDraft(
        title=f"Listing {i} wireless keyboard", category=CATEGORIES[i % 5],
        description=f"Used keyboard number {i}, includes USB receiver. All keys work.",
        price=Decimal(f"{i % 500}.{i % 100:02d}"), attributes={"brand": "KeyPro", "condition": "used"}))
        for i in range(1, count + 1)]
    accepted = accept_batch(engine, queue, owner=OWNER, key=f"ui-render-{uuid.uuid4()}", items=items,
                            max_items=10_000, source=SourceFile(f"catalog-{count}.csv", "csv"))
    batch_id = accepted.batch_id
    with psycopg.connect(url) as conn:
        conn.execute(SUCCEED, {"batch_id": batch_id})
        conn.execute(FAIL, {"batch_id": batch_id})
        conn.execute("delete from dramatiq.queue where message->'args'->>0 in "
                     "(select id::text from review_jobs where batch_id = %s)", (batch_id,))
        counts = dict(conn.execute("select status, count(*) from review_jobs where batch_id = %s "
                                   "group by status", (batch_id,)).fetchall())
        conn.execute("analyze review_jobs")
    print(f"  seeded {count:>6} items: " + ", ".join(f"{status} {counts[status]}"
                                                  for status in sorted(counts)))
    return batch_id


def delete_batches(url: str, batch_ids: list[uuid.UUID]) -> None:
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("delete from review_jobs where batch_id = any(%s)", (batch_ids,))
        conn.execute("delete from review_batches where id = any(%s)", (batch_ids,))


def batch_page(batch_id: uuid.UUID):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["batch"] = str(batch_id)
    at.switch_page("views/batch.py")
    return at


def timed_run(at, batch_id: uuid.UUID | None = None) -> float:
    if batch_id is not None:  # keep the page in its first refresh interval: no run turns into two
        at.session_state[f"opened-{batch_id}"] = time.monotonic()
    started = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - started
    problems = [str(e.value) for e in at.exception] + [str(e.value) for e in at.error]
    if problems:
        raise SystemExit(f"the page failed: {problems}")
    return elapsed


def check_page(at, count: int) -> None:
    """The run drew the batch: its counters and a full first page of the table."""
    metrics = [metric.value for metric in at.metric[:5]]
    expected = [f"{count // 10 * 2:,}", "0", f"{count // 10 * 7:,}", f"{count // 10:,}", "0"]
    assert metrics == expected, (metrics, expected)
    assert len(at.dataframe) == 1 and len(at.dataframe[0].value) == PAGE_ROWS, len(at.dataframe)


def check_fragment_only(at, count: int) -> str | None:
    """Why the last run was not the fragment alone showing the batch (None when it was)."""
    if len(at.title) or len(at.subheader):
        return "AppTest reran more than the fragment (the page's title or Files were drawn)"
    if len(at.metric) != 5 or at.metric[0].value != f"{count // 10 * 2:,}":
        return f"the fragment drew {len(at.metric)} metrics"
    return None


def check_search(at, search: str) -> None:
    """Every row shown starts with the search text (item id, or title in any case)."""
    table = at.dataframe[0].value
    assert len(table), search
    for item_id, title in zip(table["Item id"], table["Title"], strict=True):
        assert item_id.startswith(search) or title.lower().startswith(search.lower()), (search, item_id)


def fragment_runner_class(fragment_id: str, profile: cProfile.Profile | None = None):
    """AppTest's script runner with every run request turned into the request the browser's
    run_every timer sends: rerun only `fragment_id`; the script's thread runs under `profile`
    when one is given. None when this Streamlit lacks the hooks."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests
        from streamlit.testing.v1 import app_test
    except ImportError:
        return None, None
    base = getattr(app_test, "LocalScriptRunner", None)
    if base is None or "fragment_id" not in {f.name for f in dataclasses.fields(RerunData)}:
        return None, None

    class FragmentOnlyRunner(base):
        def request_rerun(self, rerun_data):
            # The constructor queued a full-app rerun (AppTest passes an empty initial request)
            # that would absorb this one; the server's AppSession instead creates the runner
            # with the fragment request itself, which a fresh request queue reproduces.
            self._requests = ScriptRequests()
            return super().request_rerun(dataclasses.replace(
                rerun_data, fragment_id=fragment_id, is_auto_rerun=True))

        def _run_script_thread(self) -> None:
            if profile is None:
                return super()._run_script_thread()
            profile.enable()  # a profile sees only the thread that enables it
            try:
                return super()._run_script_thread()
            finally:
                profile.disable()

    return app_test, FragmentOnlyRunner


def fragment_ids(at) -> list[str]:
    storage = getattr(at, "_fragment_storage", None)
    return list(getattr(storage, "_fragments", {}) or {})


class FragmentRuns:
    """While open, every `at.run()` of this Streamlit reruns only the page's one fragment."""

    def __init__(self, at, profile: cProfile.Profile | None = None) -> None:
        ids = fragment_ids(at)
        self.reason = None if len(ids) == 1 else f"expected one registered fragment, found {len(ids)}"
        self.module, self.runner = (None, None) if self.reason else fragment_runner_class(ids[0], profile)
        if not self.reason and self.runner is None:
            self.reason = "this Streamlit's AppTest has no runner hook for fragment runs"

    def __enter__(self) -> "FragmentRuns":
        if self.runner is not None:
            self.original, self.module.LocalScriptRunner = self.module.LocalScriptRunner, self.runner
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.runner is not None:
            self.module.LocalScriptRunner = self.original


def time_refreshes(at, batch_id: uuid.UUID, count: int, repeat: int) -> list[float] | str:
    """Fragment-only reruns (the live refresh), or the reason they cannot be measured."""
    with FragmentRuns(at) as runs:
        if runs.reason:
            return runs.reason
        times = []
        for _ in range(repeat + 1):
            times.append(timed_run(at, batch_id))
            if reason := check_fragment_only(at, count):
                return reason
        return times[1:]


def time_searches(at, batch_id: uuid.UUID, count: int, repeat: int) -> list[float] | str:
    """Fragment-only reruns each with a new search text (SEARCHES in turn); the box is emptied
    again afterwards. (The box is looked up after every run: each run draws a new tree.)"""
    box = f"search-{batch_id}"
    with FragmentRuns(at) as runs:
        if runs.reason:
            return runs.reason
        times = []
        for run in range(repeat + 1):
            search = SEARCHES[run % len(SEARCHES)]
            at.text_input(key=box).input(search)
            times.append(timed_run(at, batch_id))
            if reason := check_fragment_only(at, count):
                return reason
            check_search(at, search)
        at.text_input(key=box).input("")
        timed_run(at, batch_id)
        return times[1:]


def sample(call: Callable[[], Any], calls: int) -> list[float]:
    """Seconds of `calls` calls after five untimed ones (psycopg prepares after five)."""
    for _ in range(5):
        call()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def core_calls(engine, batch_id: uuid.UUID, calls: int) -> dict[str, list[float]]:
    """Each core call a live refresh makes, on its own."""
    from core.batches.pages import get_items_page, item_counts
    from core.batches.progress import get_summary, score_distribution

    return {
        "get_summary (counters, progress)": sample(lambda: get_summary(engine, OWNER, batch_id), calls),
        "item_counts (outcome line, tabs)": sample(lambda: item_counts(engine, OWNER, batch_id), calls),
        "get_items_page (25 rows)": sample(lambda: get_items_page(
            engine, OWNER, batch_id, limit=PAGE_ROWS, max_after=10_000), calls),
        "score_distribution (score chart)": sample(
            lambda: score_distribution(engine, OWNER, batch_id), calls),
    }


def profiled_parts(at, batch_id: uuid.UUID, runs: int) -> dict[str, float]:
    """Milliseconds per live refresh spent in each of PARTS (cumulative: a part includes the
    calls it makes), under cProfile (which slows everything it sees alike)."""
    profile = cProfile.Profile()
    with FragmentRuns(at, profile):
        for _ in range(runs):
            timed_run(at, batch_id)
    spent: dict[str, float] = {}
    for (file_name, _, function), (_, _, _, cumulative, _) in pstats.Stats(profile).stats.items():
        if function in PARTS and (f"{os.sep}ui{os.sep}" in file_name or f"{os.sep}core{os.sep}" in file_name):
            spent[function] = spent.get(function, 0.0) + ms(cumulative) / runs
    return spent


def p50_ms(seconds: list[float]) -> float:
    return ms(statistics.median(seconds))


def report(label: str, seconds: list[float], floors: dict[str, float], target_ms: float) -> None:
    ratios = "  ".join(f"{p50_ms(seconds) / floor:5.1f}x {name}" for name, floor in floors.items())
    print(f"  {label:<14} {figures(seconds)}  {verdict(p50_ms(seconds), target_ms)}  = {ratios}")


def measure_page(pages: dict[int, Any], batch_ids: dict[int, uuid.UUID], floor: float, repeat: int,
                 timer: Callable[..., list[float] | str], target_ms: float) -> None:
    """`timer` on each size; the 10k batch against the 100-item one and the bare floor."""
    found: dict[int, list[float]] = {}
    for count in SIZES:
        outcome = timer(pages[count], batch_ids[count], count, repeat)
        if isinstance(outcome, str):
            print(f"  {count:>6} items  not measured: {outcome}")
            return
        found[count] = outcome
    small = p50_ms(found[100])
    for count in SIZES:
        floors = {"bare run": floor} | ({"100 items": small} if count != 100 else {})
        report(f"{count:>6} items", found[count], floors, target_ms)


def time_renders(at, batch_id: uuid.UUID, count: int, repeat: int) -> list[float]:
    times = [timed_run(at, batch_id) for _ in range(repeat)]
    check_page(at, count)
    return times


def breakdown(engine, page, batch_id: uuid.UUID, calls: int, runs: int) -> None:
    print(f"\nwhere a live refresh's time goes, 10,000 items: core calls alone (--calls {calls})")
    for label, seconds in core_calls(engine, batch_id, calls).items():
        print(f"  {label:<36} {figures(seconds)}")
    print(f"  the fragment's parts under cProfile, ms per refresh (cumulative, {runs} refreshes):")
    spent = profiled_parts(page, batch_id, runs)
    for part in PARTS:
        if part in spent:
            print(f"    {part:<20} {spent[part]:7.1f}")


def start_database() -> tuple[str, Path | None]:
    """DATABASE_URL if set, else a throwaway embedded PostgreSQL (and its home, to stop it)."""
    from core import embedded_postgres
    from core.database import plain_postgres_url

    given = os.environ.get("DATABASE_URL")
    if given:
        return plain_postgres_url(given), None
    home = Path(tempfile.mkdtemp(prefix="lr-ui-render-")) / "home"
    return embedded_postgres.ensure_running(home), home


def configure_ui(url: str) -> None:
    """The UI reads its settings from the environment (ui/services.runtime); its metrics endpoint
    gets a free port so a running UI is not disturbed. Setting AppTest's session state between
    runs warns "missing ScriptRunContext" on every run, which is expected here."""
    from streamlit.runtime.scriptrunner_utils import script_run_context

    logging.getLogger(script_run_context.__name__).addFilter(
        lambda record: "missing ScriptRunContext" not in record.getMessage())
    os.environ.update({"DATABASE_URL": url, "LISTING_REVIEW_MAX_BATCH_ITEMS": "10000",
                       "LISTING_REVIEW_OWNER": OWNER, "LISTING_REVIEW_UI_METRICS_PORT": str(free_port())})


def bare_floor(repeat: int) -> float:
    """p50 of AppTest's run of a one-line script: the harness's own cost per run."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(FLOOR_SCRIPT, default_timeout=60)
    seconds = [timed_run(at) for _ in range(repeat + 1)][1:]
    print(f"  floor: bare AppTest run of a one-line script {figures(seconds)}")
    return p50_ms(seconds)


def benchmark(engine, url: str, args: argparse.Namespace, batch_ids: dict[int, uuid.UUID]) -> None:
    from core.settings import get_settings
    from tasks.queue import DramatiqPgQueue
    from ui.services import runtime

    queue = DramatiqPgQueue(get_settings().queue_name)
    for count in SIZES:
        batch_ids[count] = seed_batch(engine, queue, url, count)
    runtime.clear()
    # The process's first page run pays imports, the runtime and Streamlit's start.
    print(f"\nprocess cold start (imports + runtime + first render): "
          f"{ms(timed_run(batch_page(batch_ids[100]), batch_ids[100])):7.1f} ms")
    pages = {count: batch_page(batch_ids[count]) for count in SIZES}
    for count in SIZES:
        first = timed_run(pages[count], batch_ids[count])
        check_page(pages[count], count)
        print(f"  {count:>6} items  first run of a new session {ms(first):7.1f} ms")
    floor = bare_floor(args.repeat)
    print(f"\nfull render, AppTest.run() of ui/app.py?batch=<id> (--repeat {args.repeat})")
    measure_page(pages, batch_ids, floor, args.repeat, time_renders, RENDER_TARGET_MS)
    print(f"\nlive refresh, the live_batch fragment alone (--repeat {args.repeat})")
    measure_page(pages, batch_ids, floor, args.repeat, time_refreshes, REFRESH_TARGET_MS)
    print(f"\nsearch, the fragment rerun a new search text asks for: {', '.join(SEARCHES)} in turn")
    measure_page(pages, batch_ids, floor, args.repeat, time_searches, SEARCH_TARGET_MS)
    breakdown(engine, pages[10_000], batch_ids[10_000], args.calls, args.repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed page runs per measurement and size")
    parser.add_argument("--calls", type=int, default=200, help="timed calls per core call")
    args = parser.parse_args()
    from core import embedded_postgres, schema
    from core.database import make_engine

    url, home = start_database()
    configure_ui(url)
    from core.settings import get_settings

    get_settings.cache_clear()
    engine = make_engine(url)
    schema.upgrade(engine)
    batch_ids: dict[int, uuid.UUID] = {}
    print(f"database: {'throwaway embedded PostgreSQL' if home else 'DATABASE_URL'}; owner {OWNER}")
    try:
        benchmark(engine, url, args, batch_ids)
    finally:
        if batch_ids:
            delete_batches(url, list(batch_ids.values()))
        engine.dispose()
        if home is not None:
            embedded_postgres.stop(home)
            shutil.rmtree(home.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
