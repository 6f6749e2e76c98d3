"""Batch page render time for a 10,000-item batch, next to a 100-item one, and the live refresh.

Render = one `AppTest.run()` of ui/app.py on the batch page (?batch=<id>): the whole script,
every core call it makes (summary, 25-item page, score buckets, the progress fragment) and
Streamlit's own work, server side only (no browser, no websocket). The first run of a new
session is reported apart; p50/p95 are over --repeat runs after it. Target: p50 < 300 ms, and
10k / 100 near 1 (a render never loads every item).

Live refresh = what the progress fragment does every second: core's get_summary for the
batch (p50/p95 over many calls; target < 50 ms), and the fragment alone rerun through
AppTest. AppTest has no public call for that; this script queues the fragment's id on its
script runner (as the browser's run_every timer does) and says so when that is not possible.

The seeded batches are 70 % SUCCEEDED (with a review), 10 % FAILED and 20 % QUEUED, so the
page shows a RUNNING batch whose fragment keeps refreshing. The page backs its refresh off
after 10 s and 30 s watched (a full-app rerun); the benchmark keeps every run in the first
interval so each sample is one render.

    python benchmarks/ui_render.py [--repeat 30]

Uses DATABASE_URL if set (its batches are added under owner "ui-render-bench" and deleted at
the end), else a throwaway embedded PostgreSQL that is stopped at the end.
"""

import argparse
import dataclasses
import logging
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

APP = ROOT / "ui" / "app.py"
OWNER = "ui-render-bench"
SIZES = (10_000, 100)
RENDER_TARGET_MS = 300.0
REFRESH_TARGET_MS = 50.0
CATEGORIES = ("Phones", "Shoes", "Books", "Computer accessories", "Furniture")

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


def timed_run(at, batch_id: uuid.UUID) -> float:
    # Keep the page in its first refresh interval (1 s), so no run turns into two.
    at.session_state[f"opened-{batch_id}"] = time.monotonic()
    started = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - started
    # st.error inside an item's expander is a FAILED item's stored error, not a page failure.
    problems = [str(e.value) for e in at.exception] + [
        str(e.value) for e in at.error if not str(e.value).startswith("AI_")]
    if problems:
        raise SystemExit(f"the batch page failed: {problems}")
    return elapsed


def check_page(at, count: int) -> None:
    metrics = [metric.value for metric in at.metric[:5]]
    expected = [str(count // 10 * 2), "0", str(count // 10 * 7), str(count // 10), "0"]
    assert metrics == expected, (metrics, expected)
    assert len(at.expander) == 25, len(at.expander)


def fragment_runner_class(fragment_id: str):
    """AppTest's script runner with every run request turned into the request the browser's
    run_every timer sends: rerun only `fragment_id`. None when this Streamlit lacks the hooks."""
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

    return app_test, FragmentOnlyRunner


def fragment_ids(at) -> list[str]:
    storage = getattr(at, "_fragment_storage", None)
    return list(getattr(storage, "_fragments", {}) or {})


def time_fragment_reruns(at, batch_id: uuid.UUID, count: int, repeat: int) -> list[float] | str:
    """Fragment-only reruns through AppTest, or the reason they cannot be measured."""
    ids = fragment_ids(at)
    if len(ids) != 1:
        return f"expected one registered fragment, found {len(ids)}"
    module, runner = fragment_runner_class(ids[0])
    if runner is None:
        return "this Streamlit's AppTest has no runner hook for fragment runs"
    original = module.LocalScriptRunner
    module.LocalScriptRunner = runner
    try:
        times = []
        for _ in range(repeat + 1):
            times.append(timed_run(at, batch_id))
            # Only the fragment ran: its progress bar and metrics, nothing else of the page.
            if len(at.expander) or len(at.metric) != 5 or len(at.get("progress")) != 1:
                return ("AppTest reran more than the fragment "
                        f"({len(at.expander)} expanders, {len(at.metric)} metrics)")
            if at.metric[0].value != str(count // 10 * 2):
                return f"the fragment showed {at.metric[0].value} queued"
        return times[1:]
    finally:
        module.LocalScriptRunner = original


def time_core(engine, batch_id: uuid.UUID, calls: int) -> tuple[list[float], list[float]]:
    """get_summary alone (the fragment's only query), and every core call of one full render."""
    from core.batches.pages import get_items_page
    from core.batches.progress import get_summary, score_distribution

    summaries, renders = [], []
    for _ in range(calls + 5):
        started = time.perf_counter()
        get_summary(engine, OWNER, batch_id)
        summaries.append(time.perf_counter() - started)
    for _ in range(max(20, calls // 5) + 2):
        started = time.perf_counter()
        get_summary(engine, OWNER, batch_id)
        get_summary(engine, OWNER, batch_id)
        get_items_page(engine, OWNER, batch_id, after=0, limit=25, max_after=10_000)
        score_distribution(engine, OWNER, batch_id)
        renders.append(time.perf_counter() - started)
    return summaries[5:], renders[2:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed page runs per batch size")
    parser.add_argument("--calls", type=int, default=500, help="timed get_summary calls per size")
    args = parser.parse_args()
    # Setting AppTest's session state between runs happens outside a script run; Streamlit
    # warns about that on every run ("missing ScriptRunContext"), which is expected here.
    from streamlit.runtime.scriptrunner_utils import script_run_context

    logging.getLogger(script_run_context.__name__).addFilter(
        lambda record: "missing ScriptRunContext" not in record.getMessage())

    from core import embedded_postgres, schema
    from core.database import make_engine, plain_postgres_url

    given = os.environ.get("DATABASE_URL")
    home = None if given else Path(tempfile.mkdtemp(prefix="lr-ui-render-")) / "home"
    url = plain_postgres_url(given) if given else embedded_postgres.ensure_running(home)
    # The UI reads its settings from the environment (ui/services.runtime); set them before it
    # starts. Its metrics endpoint gets a free port so a running UI is not disturbed.
    os.environ.update({"DATABASE_URL": url, "LISTING_REVIEW_MAX_BATCH_ITEMS": "10000",
                       "LISTING_REVIEW_OWNER": OWNER,
                       "LISTING_REVIEW_UI_METRICS_PORT": str(free_port())})
    from core.settings import get_settings
    from tasks.queue import DramatiqPgQueue

    get_settings.cache_clear()
    settings = get_settings()
    engine = make_engine(url)
    schema.upgrade(engine)
    batch_ids: dict[int, uuid.UUID] = {}
    try:
        print(f"database: {'DATABASE_URL' if given else 'throwaway embedded PostgreSQL'}; "
              f"owner {OWNER}; max_batch_items {settings.max_batch_items}")
        queue = DramatiqPgQueue(settings.queue_name)
        for count in SIZES:
            batch_ids[count] = seed_batch(engine, queue, url, count)

        from ui.services import runtime

        runtime.clear()
        # Warm-up: the process's first page run pays imports, the runtime (engine, migration
        # check) and Streamlit's start; it runs the 100-item page and is reported on its own.
        warm = batch_page(batch_ids[100])
        process_cold = timed_run(warm, batch_ids[100])
        print(f"\nprocess cold start (imports + runtime + first render): {ms(process_cold):7.1f} ms")

        print(f"\nbatch page render, AppTest.run() on ui/app.py?batch=<id> "
              f"(--repeat {args.repeat})")
        pages = {count: batch_page(batch_ids[count]) for count in SIZES}
        for count in SIZES:
            first = timed_run(pages[count], batch_ids[count])
            check_page(pages[count], count)
            print(f"  {count:>6} items  first run (new session) {ms(first):7.1f} ms")
        # The sizes take turns, so drift on the machine weighs on both alike.
        renders: dict[int, list[float]] = {count: [] for count in SIZES}
        for _ in range(args.repeat):
            for count in SIZES:
                renders[count].append(timed_run(pages[count], batch_ids[count]))
        for count in SIZES:
            check_page(pages[count], count)
            p50 = statistics.median(renders[count])
            print(f"  {count:>6} items  {figures(renders[count])}  {verdict(ms(p50), RENDER_TARGET_MS)}")
        big, small = (statistics.median(renders[n]) for n in SIZES)
        big95, small95 = (percentile(renders[n], 0.95) for n in SIZES)
        print(f"  ratio 10k/100: p50 {big / small:.2f}, p95 {big95 / small95:.2f} "
              "(near 1 = the page never loads all items)")

        print(f"\nlive refresh, core: get_summary (the fragment's only query), --calls {args.calls}")
        core_renders = {}
        for count in SIZES:
            summaries, core_renders[count] = time_core(engine, batch_ids[count], args.calls)
            p50 = ms(statistics.median(summaries))
            print(f"  {count:>6} items  {figures(summaries)}  {verdict(p50, REFRESH_TARGET_MS)}")
        print("  core share of a full render (2 x get_summary + 25-item page + score buckets):")
        for count in SIZES:
            core = statistics.median(core_renders[count])
            print(f"  {count:>6} items  {figures(core_renders[count])}  = "
                  f"{core / statistics.median(renders[count]):.0%} of the render p50")

        print(f"\nlive refresh, AppTest: only the progress fragment rerun (--repeat {args.repeat})")
        for count in SIZES:
            outcome = time_fragment_reruns(pages[count], batch_ids[count], count, args.repeat)
            if isinstance(outcome, str):
                print(f"  {count:>6} items  not measured: {outcome}")
                continue
            p50 = ms(statistics.median(outcome))
            print(f"  {count:>6} items  {figures(outcome)}  {verdict(p50, REFRESH_TARGET_MS)}")
        print("  (AppTest has no public fragment rerun: the run request carries the fragment id "
              "and is_auto_rerun,\n   as the browser's run_every timer sends it; the element tree "
              "then holds only the fragment's progress bar and 5 metrics)")
    finally:
        if batch_ids:
            delete_batches(url, list(batch_ids.values()))
        engine.dispose()
        if home is not None:
            try:
                from ui.services import runtime

                runtime.clear()
            except Exception:
                pass
            embedded_postgres.stop(home)
            shutil.rmtree(home.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
