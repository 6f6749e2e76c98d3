"""Every user-path query on a grown database (50,000 jobs, one seller with 1,000 complete
batches, a 10,000-item failed batch and unfinished work): its plan reads through an index,
never a sequential scan of review_jobs or review_batches, never a subplan run per row, never
a BitmapAnd with a seller's whole owner index; where a partial index is what bounds the
query (a status filter, the failures of a batch), the plan uses it.
Plans, not timings: the timings live in benchmarks/history.py.
"""

import importlib
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, TextClause, text

from core.batches.admission import BATCH_ADMISSION
from core.batches.export import QUERIES as EXPORT_QUERIES
from core.batches.pages import QUERIES as ITEM_QUERIES
from core.batches.pages import VIEW_CLASSES
from core.batches.progress import QUERIES as BATCH_QUERIES
from core.batches.progress import progress_params
from core.batches.recent import _QUERY_BY_STATUS
from core.batches.verdicts import GOOD_SCORE_FROM
from core.database import make_engine
from core.jobs.cancel import QUERIES as JOB_QUERIES
from core.operations.stats import QUERIES as OPERATIONS_QUERIES
from tests.conftest import TEMPLATE, database_url_on, drop_database, recreate_database
from tests.grown_history import BIG, GrownHistory, grow

LARGE_TABLES = {"review_jobs", "review_batches"}


@pytest.fixture(scope="module")
def grown(server_url: str, template_url: str) -> Iterator[tuple[Engine, GrownHistory]]:
    name = f"lr_history_{uuid.uuid4().hex[:8]}"
    recreate_database(server_url, name, TEMPLATE)
    engine = make_engine(database_url_on(server_url, name))
    yield engine, grow(engine, 50_000)
    engine.dispose()
    drop_database(server_url, name)


def plan_of(engine: Engine, query: TextClause, params: dict[str, Any]) -> dict[str, Any]:
    with engine.connect() as connection:
        raw = connection.execute(text("explain (format json) " + query.text), params).scalar_one()
    plan: dict[str, Any] = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    return plan


def unbounded_nodes(node: dict[str, Any]) -> list[str]:
    """Sequential scans of the large tables and per-row subplans anywhere in the plan."""
    found = []
    if node["Node Type"] == "Seq Scan" and node.get("Relation Name") in LARGE_TABLES:
        found.append(f"Seq Scan on {node['Relation Name']}")
    if node.get("Parent Relationship") == "SubPlan":
        found.append(f"SubPlan {node.get('Subplan Name')}")
    if node["Node Type"] == "BitmapAnd":
        found.append("BitmapAnd")
    for child in node.get("Plans", []):
        found.extend(unbounded_nodes(child))
    return found


def index_names(node: dict[str, Any]) -> set[str]:
    names = {node["Index Name"]} if "Index Name" in node else set()
    return names.union(*(index_names(child) for child in node.get("Plans", [])))


def assert_bounded(engine: Engine, query: TextClause, params: dict[str, Any],
                   index: str | None = None) -> None:
    plan = plan_of(engine, query, params)
    assert unbounded_nodes(plan) == [], json.dumps(plan, indent=1)
    assert index is None or index in index_names(plan), json.dumps(plan, indent=1)


def test_the_grown_history_has_the_size_it_claims(grown):
    engine, history = grown
    assert history.jobs >= 50_000
    with engine.connect() as connection:
        counts = dict(connection.execute(OPERATIONS_QUERIES["jobs_by_status"]).all())
        actual = dict(connection.execute(
            text("select status, count(*) from review_jobs group by status")).all())
    assert counts == actual


@pytest.mark.parametrize(("status", "index"), [
    (None, "review_batches_owner_recent_idx"), ("COMPLETED", "review_batches_owner_completed_idx"),
    ("RUNNING", "review_batches_owner_unfinished_idx"), ("QUEUED", "review_batches_owner_unfinished_idx")])
def test_recent_batches_reads_one_page_whatever_the_history(grown, status, index):
    engine, _ = grown
    params = progress_params(owner=BIG, status=status, before_at=None, before_id=None, limit_plus_one=21)
    assert_bounded(engine, BATCH_QUERIES[_QUERY_BY_STATUS[status]], params, index)


@pytest.mark.parametrize("which", ["failed_batch", "running_batch"])
def test_batch_summary_reads_one_batch(grown, which):
    engine, history = grown
    params = progress_params(owner=BIG, batch_id=getattr(history, which))
    assert_bounded(engine, BATCH_QUERIES["batch_summary"], params)


def test_the_retry_source_reads_only_the_failures_of_the_batch(grown):
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch}
    assert_bounded(engine, BATCH_QUERIES["retry_source"], params, "review_jobs_batch_retryable_idx")


def item_params(history: GrownHistory, view: str, **keyset: Any) -> dict[str, Any]:
    return {"owner": BIG, "batch_id": history.failed_batch, "classes": list(VIEW_CLASSES[view]),
            "good_from": GOOD_SCORE_FROM, "limit_plus_one": 51} | keyset


@pytest.mark.parametrize("view", ["all", "failed", "needs_human_review"])
def test_item_pages_are_keyset_ranges(grown, view):
    engine, history = grown
    assert_bounded(engine, ITEM_QUERIES["batch_items_page"], item_params(history, view, after=500))
    by_score = item_params(history, view, after_score=40, after_position=500, unscored_after=0)
    assert_bounded(engine, ITEM_QUERIES["batch_items_by_score"], by_score)
    unscored = item_params(history, view, after_score=None, after_position=0, unscored_after=500)
    assert_bounded(engine, ITEM_QUERIES["batch_items_by_score"], unscored)


@pytest.mark.parametrize("search", ["item-12", "wireless", "Wireless keyboard", "zz%_"])
def test_item_search_reads_both_prefix_indexes(grown, search):
    engine, history = grown
    params = item_params(history, "needs_attention", search=search, by_score=True, after_key=-1,
                         after_position=0)
    plan = plan_of(engine, ITEM_QUERIES["batch_items_search"], params)
    assert unbounded_nodes(plan) == [], json.dumps(plan, indent=1)
    assert {"review_jobs_batch_item_prefix_idx", "review_jobs_batch_title_prefix_idx"} <= index_names(plan)


def test_item_counts_read_one_batch(grown):
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch, "good_from": GOOD_SCORE_FROM}
    assert_bounded(engine, ITEM_QUERIES["item_counts"], params)


@pytest.mark.parametrize("fixup_only", [False, True])
def test_export_chunks_are_keyset_ranges(grown, fixup_only):
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch, "after": 500, "limit": 1000,
              "fixup_only": fixup_only, "good_from": GOOD_SCORE_FROM}
    assert_bounded(engine, EXPORT_QUERIES["export_chunk"], params)


@pytest.mark.parametrize("fixup_only", [False, True])
def test_export_header_pass_reads_one_batch(grown, fixup_only):
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch, "limit": 1001, "fixup_only": fixup_only,
              "good_from": GOOD_SCORE_FROM}
    assert_bounded(engine, EXPORT_QUERIES["attribute_names"], params)
    assert_bounded(engine, EXPORT_QUERIES["fixup_count"], params)


def test_cancel_touches_only_the_unfinished_children(grown):
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.running_batch}
    assert_bounded(engine, JOB_QUERIES["cancel_queued_batch_jobs"], params,
                   "review_jobs_batch_unfinished_position_idx")


def test_admission_counts_only_unfinished_work(grown):
    engine, _ = grown
    assert_bounded(engine, BATCH_ADMISSION, {"owner": BIG, "key": "new-batch"})


@pytest.mark.parametrize("query", ["jobs_by_status", "oldest_queued", "failures_last_hour",
                                   "completions_per_minute"])
def test_operations_snapshot_reads_no_whole_table(grown, query):
    engine, _ = grown
    assert_bounded(engine, OPERATIONS_QUERIES[query], {})


def _completion_statement(name: str) -> TextClause:
    """A statement of migration 0015's completion trigger, with the batch as a parameter."""
    module = importlib.import_module("migrations.versions.0015_concurrent_completions")
    return text(getattr(module, name).format(batch=":batch_id"))


@pytest.mark.parametrize(("statement", "index"), [
    ("IDLE_UNFINISHED_SIBLING", "review_jobs_batch_unfinished_position_idx"),
    ("UNFINISHED_CHILD", "review_jobs_batch_unfinished_position_idx")])
def test_completion_check_reads_only_the_unfinished_children(grown: Any, statement: str, index: str) -> None:
    """Run in every terminal write of a batch's job: bounded by the batch's unfinished children."""
    engine, history = grown
    assert_bounded(engine, _completion_statement(statement), {"batch_id": history.running_batch}, index)


def test_the_completion_safety_net_walks_only_the_unfinished_batches(grown: Any) -> None:
    engine, _ = grown
    assert_bounded(engine, BATCH_QUERIES["settle_finished_batches"], {},
                   "review_batches_owner_unfinished_idx")
