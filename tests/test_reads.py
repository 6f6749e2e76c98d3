"""Progress summary and keyset pages, read from real rows."""

import uuid

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.pages import CLASSES, QUERIES, get_items_page
from core.batches.progress import get_summary, score_distribution
from core.batches.recent import list_batches
from core.batches.verdicts import GOOD_SCORE_FROM, batch_state_text
from core.errors import BatchNotFound, InvalidBatchRequest
from tasks.queue import DramatiqPgQueue
from tests.builders import items


def accept(engine: Engine, count: int, owner: str = "local") -> uuid.UUID:
    accepted = accept_batch(engine, DramatiqPgQueue("q"), owner=owner, key="k", items=items(count),
                            max_items=1000)
    return accepted.batch_id


def set_status(engine: Engine, batch_id: uuid.UUID, position: int, status: str) -> None:
    updates = {
        "RUNNING": "status = 'RUNNING', execution_token = gen_random_uuid(), started_at = now(), "
                   "heartbeat_at = now()",
        "SUCCEEDED": "status = 'SUCCEEDED', result = '{\"qualityScore\": 90}', started_at = now(), "
                     "completed_at = now(), execution_token = null",
        "FAILED": "status = 'FAILED', error_code = 'AI_RESPONSE_INVALID', "
                  "error_message = 'The model did not produce a valid review.', started_at = now(), "
                  "completed_at = now(), execution_token = null",
        "CANCELLED": "status = 'CANCELLED', completed_at = now()",
    }
    with engine.begin() as conn:
        conn.execute(text(f"update review_jobs set {updates[status]} where batch_id = :b and "
                          "item_position = :p"), {"b": batch_id, "p": position})


def test_summary_moves_from_queued_to_running_to_completed(engine: Engine):
    batch_id = accept(engine, 3)
    summary = get_summary(engine, "local", batch_id)
    assert (summary.status, summary.queued, summary.completed_at) == ("QUEUED", 3, None)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    set_status(engine, batch_id, 2, "RUNNING")
    summary = get_summary(engine, "local", batch_id)
    assert (summary.status, summary.queued, summary.running, summary.succeeded) == ("RUNNING", 1, 1, 1)
    assert summary.completed_at is None
    set_status(engine, batch_id, 2, "FAILED")
    set_status(engine, batch_id, 3, "SUCCEEDED")
    summary = get_summary(engine, "local", batch_id)
    assert (summary.status, summary.succeeded, summary.failed) == ("COMPLETED", 2, 1)
    assert summary.completed_at is not None


def test_summary_and_recent_list_derive_the_same_status_and_done(engine: Engine):
    """One definition (batch_progress) behind both reads: at every stage they are equal."""
    batch_id = accept(engine, 4)
    stages = [[], [(1, "SUCCEEDED"), (2, "RUNNING")], [(3, "CANCELLED")],
              [(2, "FAILED"), (4, "CANCELLED")]]
    seen = []
    for changes in stages:
        for position, status in changes:
            set_status(engine, batch_id, position, status)
        summary = get_summary(engine, "local", batch_id)
        assert list_batches(engine, "local").items == [summary]
        assert list_batches(engine, "local", status=summary.status).items == [summary]
        seen.append((summary.status, summary.done,
                     batch_state_text(summary.status, summary.failed, summary.cancelled)))
    assert seen == [("QUEUED", 0, "Queued"), ("RUNNING", 1, "Running"), ("RUNNING", 2, "Running"),
                    ("COMPLETED", 4, "Completed, 1 failed, 2 cancelled")]


def test_unknown_and_foreign_batches_are_not_found(engine: Engine):
    batch_id = accept(engine, 1, owner="seller-a")
    for owner, wanted in (("seller-b", batch_id), ("seller-a", uuid.uuid4())):
        with pytest.raises(BatchNotFound):
            get_summary(engine, owner, wanted)
        with pytest.raises(BatchNotFound):
            get_items_page(engine, owner, wanted, max_after=1000)


def test_pages_carry_results_errors_and_next_after(engine: Engine):
    batch_id = accept(engine, 3)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    set_status(engine, batch_id, 3, "FAILED")
    first = get_items_page(engine, "local", batch_id, after=0, limit=2, max_after=1000)
    assert [item.item_id for item in first.items] == ["item-1", "item-2"] and first.next_after == 2
    assert first.items[0].result == {"qualityScore": 90}
    last = get_items_page(engine, "local", batch_id, after=2, limit=2, max_after=1000)
    body = last.to_json_dict()
    assert body["nextAfter"] is None
    assert body["items"][0]["error"] == {"code": "AI_RESPONSE_INVALID",
                                         "message": "The model did not produce a valid review."}


def test_page_after_the_last_item_is_empty_not_missing(engine: Engine):
    batch_id = accept(engine, 2)
    page = get_items_page(engine, "local", batch_id, after=2, max_after=1000)
    assert page.items == [] and page.next_after is None


def test_exact_last_page_has_no_next(engine: Engine):
    batch_id = accept(engine, 4)
    page = get_items_page(engine, "local", batch_id, after=0, limit=4, max_after=1000)
    assert len(page.items) == 4 and page.next_after is None


@pytest.mark.parametrize("after,limit", [(-1, 25), (1001, 25), (0, 0), (0, 101)])
def test_paging_bounds_are_enforced(engine: Engine, after: int, limit: int):
    batch_id = accept(engine, 1)
    with pytest.raises(InvalidBatchRequest):
        get_items_page(engine, "local", batch_id, after=after, limit=limit, max_after=1000)


def test_page_query_needs_no_access_to_hash_or_token(engine: Engine, database_url: str):
    """The page shows the listing as submitted (payload), never the request hash or the token."""
    batch_id = accept(engine, 3)
    visible = ("id, owner, batch_id, item_id, item_position, status, submitted_at, started_at, "
               "completed_at, result, error_code, error_message, payload")
    with engine.begin() as conn:
        conn.execute(text("drop role if exists lr_page_reader"))
        conn.execute(text("create role lr_page_reader"))
        conn.execute(text("grant select (id, owner) on review_batches to lr_page_reader"))
        conn.execute(text(f"grant select ({visible}) on review_jobs to lr_page_reader"))
    try:
        with engine.connect() as conn:
            conn.execute(text("set role lr_page_reader"))
            with pytest.raises(Exception, match="permission denied"):
                conn.execute(text("select request_hash from review_jobs")).all()
            conn.rollback()
            conn.execute(text("set role lr_page_reader"))
            rows = conn.execute(QUERIES["batch_items_page"], {
                "owner": "local", "batch_id": batch_id, "after": 0, "limit_plus_one": 26,
                "classes": list(CLASSES), "good_from": GOOD_SCORE_FROM}).all()
            conn.rollback()
        assert [row.item_position for row in rows] == [1, 2, 3]
    finally:
        with engine.begin() as conn:
            conn.execute(text("drop owned by lr_page_reader"))
            conn.execute(text("drop role lr_page_reader"))


def test_pages_can_show_only_failures_or_human_review(engine: Engine):
    batch_id = accept(engine, 4)
    set_status(engine, batch_id, 2, "FAILED")
    set_status(engine, batch_id, 3, "SUCCEEDED")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set result = '{\"qualityScore\": 40, "
                          "\"requiresHumanReview\": true}' where item_position = 3"))
    failed = get_items_page(engine, "local", batch_id, view="failed", max_after=1000)
    human = get_items_page(engine, "local", batch_id, view="needs_human_review", max_after=1000)
    assert [item.position for item in failed.items] == [2]
    assert [item.position for item in human.items] == [3]


def test_score_distribution_buckets_successful_reviews(engine: Engine):
    batch_id = accept(engine, 3)
    for position in (1, 2):
        set_status(engine, batch_id, position, "SUCCEEDED")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set result = '{\"qualityScore\": 100}' "
                          "where item_position = 2"))
    assert score_distribution(engine, "local", batch_id) == [(90, 2)]
