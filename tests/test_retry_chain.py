"""Retrying goes forward along a batch's chain of retries, never back to an old retry, against
a real PostgreSQL: X -> retry(X) -> retry(retry(X)) ..., walked in one statement.

Jobs finish through the real state machine (claim, then a fenced succeed or fail), so no test
waits for a worker.
"""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine, event, text

from core.batches.acceptance import SourceFile, accept_batch
from core.batches.progress import get_summary
from core.batches.recent import list_batches
from core.batches.retry import QUERIES, retry_failed
from core.errors import InvalidBatchRequest
from core.jobs.lifecycle import claim_job, fenced_fail, fenced_succeed
from tasks.queue import QUERIES as TASK_QUERIES
from tasks.queue import DramatiqPgQueue
from tests.builders import items
from tests.grown_history import BIG
from tests.test_history_plans import assert_bounded, grown  # noqa: F401 (the module's fixture)

QUEUE = DramatiqPgQueue("listing-reviews")
REVIEW = {"qualityScore": 90, "missingFields": [], "issues": [], "suggestions": [],
          "requiresHumanReview": False, "provider": "heuristic", "model": "rules",
          "promptVersion": "v1", "usage": None}


def accept(engine: Engine, count: int, *, owner: str = "local", name: str | None = None,
           file: str | None = "shop.csv") -> uuid.UUID:
    return accept_batch(engine, QUEUE, owner=owner, key=f"k-{uuid.uuid4()}", items=items(count),
                        max_items=1000, source=SourceFile(file, "csv" if file else None),
                        name=name).batch_id


def finish(engine: Engine, batch_id: uuid.UUID, *outcomes: str) -> None:
    """Run the batch's jobs in position order to the given outcomes ("ok" or "fail")."""
    with engine.begin() as connection:
        job_ids = connection.execute(text("select id from review_jobs where batch_id = :b "
                                          "order by item_position"), {"b": batch_id}).scalars().all()
        for job_id, outcome in zip(job_ids, outcomes, strict=True):
            attempt = claim_job(connection, job_id, max_attempts=3, lease_seconds=10).attempt
            assert attempt is not None
            if outcome == "ok":
                assert fenced_succeed(connection, attempt, REVIEW)
            else:
                assert fenced_fail(connection, attempt, "AI_RESPONSE_INVALID")


def retry(engine: Engine, batch_id: uuid.UUID, owner: str = "local"):
    return retry_failed(engine, QUEUE, owner, batch_id, 1000)


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_retrying_again_after_a_retry_failed_retries_the_retry(engine: Engine):
    # Given a batch whose retry finished with failures again
    original = accept(engine, 3)
    finish(engine, original, "fail", "fail", "fail")
    first = retry(engine, original)
    finish(engine, first.batch_id, "ok", "fail", "fail")
    # When the seller retries the original again
    second = retry(engine, original)
    # Then the retry's failures go on in a new batch linked to the retry, not back to it
    assert (second.created, second.reason, second.summary.total) == (True, "created", 2)
    assert second.summary.retry_of == first.batch_id != second.batch_id


def test_any_batch_of_the_chain_leads_to_its_newest_batch(engine: Engine):
    original = accept(engine, 2)
    finish(engine, original, "fail", "fail")
    first = retry(engine, original)
    finish(engine, first.batch_id, "fail", "ok")
    second = retry(engine, original)
    # When the newest retry is still running, asking from the original or the first retry
    for start in (original, first.batch_id, second.batch_id):
        if start == second.batch_id:
            with pytest.raises(InvalidBatchRequest, match="still running"):
                retry(engine, start)
            continue
        outcome = retry(engine, start)
        # Then it is the newest batch, as it is, and says why
        assert (outcome.batch_id, outcome.created, outcome.reason) == (second.batch_id, False, "running")
        assert "still running" in outcome.message


def test_a_chain_with_nothing_left_to_retry_says_so(engine: Engine):
    original = accept(engine, 2)
    finish(engine, original, "fail", "ok")
    first = retry(engine, original)
    finish(engine, first.batch_id, "ok")
    outcome = retry(engine, original)
    assert (outcome.batch_id, outcome.created, outcome.reason) == (first.batch_id, False, "nothing_left")
    assert outcome.summary.status == "COMPLETED" and outcome.to_json_dict()["reason"] == "nothing_left"
    with pytest.raises(InvalidBatchRequest, match="nothing to retry"):
        retry(engine, first.batch_id)
    with engine.connect() as connection:
        assert connection.execute(text("select count(*) from review_batches")).scalar() == 2


def test_the_chain_is_walked_in_one_statement_however_long(engine: Engine):
    # Given a chain of four retries, the newest still running
    batch_ids = [accept(engine, 1)]
    for _ in range(4):
        finish(engine, batch_ids[-1], "fail")
        batch_ids.append(retry(engine, batch_ids[-1]).batch_id)
    # When the original is retried, then one statement walks the chain, then one reads the summary
    with statements(engine) as seen:
        outcome = retry(engine, batch_ids[0])
    assert outcome.batch_id == batch_ids[-1] and outcome.reason == "running"
    assert len(seen) == 2 and "with recursive chain" in seen[0]


def test_the_chain_walk_follows_the_one_retry_index_on_a_grown_history(grown):  # noqa: F811
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch}
    assert_bounded(engine, QUERIES["newest_of_chain"], params, "review_batches_retry_of_key")


def test_the_retry_copies_only_the_failures_on_a_grown_history(grown):  # noqa: F811
    engine, history = grown
    params = {"owner": BIG, "batch_id": history.failed_batch, "retry_id": uuid.uuid4()}
    assert_bounded(engine, QUERIES["copy_retry_jobs"], params, "review_jobs_batch_retryable_idx")


def test_the_retry_messages_come_from_the_new_batchs_jobs_on_a_grown_history(grown):  # noqa: F811
    engine, history = grown
    params = {"queue_name": QUEUE.queue_name, "actor_name": "review_listing", "options": "{}",
              "timestamp": 0, "batch_id": history.running_batch}
    assert_bounded(engine, TASK_QUERIES["insert_batch_messages"], params,
                   "review_jobs_batch_unfinished_position_idx")


@contextmanager
def rows_to_client(engine: Engine) -> Iterator[list[int]]:
    """The number of rows each statement that returns rows hands to the client."""
    counts: list[int] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        if cursor.description is not None:
            counts.append(cursor.rowcount)

    event.listen(engine, "after_cursor_execute", record)
    try:
        yield counts
    finally:
        event.remove(engine, "after_cursor_execute", record)


def test_a_retry_of_many_failures_brings_none_of_them_to_the_client(engine: Engine):
    # Given a batch of 300 listings that all failed
    original = accept(engine, 300)
    with engine.begin() as connection:
        connection.execute(text("update review_jobs set status = 'FAILED', started_at = now(), "
                                "completed_at = now(), attempts = 1, error_code = 'AI_RESPONSE_INVALID', "
                                "error_message = 'Safe message.' where batch_id = :b"), {"b": original})
    # When it is retried, then its jobs and their 300 messages are written in the database: every
    # statement hands the client one row at most (a chain, a summary, counts), none per item
    with rows_to_client(engine) as counts:
        outcome = retry(engine, original)
    assert outcome.created and outcome.summary.total == 300
    assert counts and max(counts) <= 1, counts
    with engine.connect() as connection:
        queued = connection.execute(text(
            "select j.item_position from dramatiq.queue q join review_jobs j "
            "on j.id = (q.message->'args'->>0)::uuid where j.batch_id = :b"),
            {"b": outcome.batch_id}).scalars().all()
    assert sorted(queued) == list(range(1, 301))


def test_a_retry_reads_retry_of_its_parents_name_everywhere(engine: Engine):
    named = accept(engine, 1, name="Spring catalog")
    unnamed = accept(engine, 1)
    for batch_id in (named, unnamed):
        finish(engine, batch_id, "fail")
    retried_named, retried_unnamed = retry(engine, named), retry(engine, unnamed)
    assert retried_named.summary.name is None
    assert retried_named.summary.display_name == "Retry of Spring catalog"
    assert retried_unnamed.summary.display_name == "Retry of shop.csv"
    assert "Retry of Spring catalog" in retried_named.message
    listed = {summary.batch_id: summary for summary in list_batches(engine, "local").items}
    assert listed[retried_named.batch_id].retry_of_label == "Spring catalog"
    shape = get_summary(engine, "local", retried_named.batch_id).to_json_dict()
    assert (shape["retryOf"], shape["retryOfName"], shape["name"]) == (str(named), "Spring catalog", None)


@pytest.mark.parametrize(("name", "file", "called"), [(None, "shop.csv", "shop.csv"),
                                                      ("Spring catalog", "shop.csv", "Spring catalog"),
                                                      (None, None, None)])
def test_a_chain_of_retries_counts_its_retries_after_the_first_batchs_name(engine, name, file, called):
    original = accept(engine, 1, name=name, file=file)
    called = called or f"Batch {str(original)[:8]}"
    chain, batch_id = [], original
    for _ in range(3):
        finish(engine, batch_id, "fail")
        batch_id = retry(engine, batch_id).batch_id
        chain.append(batch_id)
    expected = [f"Retry of {called}", f"Retry 2 of {called}", f"Retry 3 of {called}"]
    assert [get_summary(engine, "local", batch).display_name for batch in chain] == expected
    listed = {summary.batch_id: summary.display_name for summary in list_batches(engine, "local").items}
    assert [listed[batch] for batch in chain] == expected
