"""Atomic, idempotent acceptance against a real PostgreSQL (the article's test list)."""

import threading

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.pages import get_items_page
from core.catalogs.check import CatalogItem
from core.errors import IdempotencyConflict, InvalidBatchRequest
from core.jobs.standalone import submit_job
from core.listings.snapshot import decode_snapshot
from tasks.queue import DramatiqPgQueue
from tests.builders import draft, items

QUEUE = DramatiqPgQueue("listing-reviews")


def counts(engine: Engine) -> tuple[int, int, int]:
    with engine.connect() as conn:
        return tuple(conn.execute(text(f"select count(*) from {table}")).scalar() for table in
                     ("review_batches", "review_jobs", "dramatiq.queue"))


def accept(engine: Engine, batch_items, key: str = "catalog-001", owner: str = "local", max_items=1000):
    return accept_batch(engine, QUEUE, owner=owner, key=key, items=batch_items, max_items=max_items)


class FailAfterEnqueue:
    """The real queue, then a failure: everything written so far must roll back."""

    def __init__(self) -> None:
        self.written = 0

    def enqueue_new_batch(self, connection, batch_id) -> None:
        QUEUE.enqueue_new_batch(connection, batch_id)
        self.written = connection.execute(text("select count(*) from dramatiq.queue")).scalar()
        raise RuntimeError("crash after scheduling")


def test_failure_after_all_messages_written_rolls_everything_back(engine: Engine):
    queue = FailAfterEnqueue()
    with pytest.raises(RuntimeError):
        accept_batch(engine, queue, owner="local", key="k", items=items(1000), max_items=1000)
    assert queue.written == 1000
    assert counts(engine) == (0, 0, 0)


def test_thousand_items_accepted_replayed_and_paged_to_the_last(engine: Engine):
    first = accept(engine, items(1000))
    replay = accept(engine, items(1000))
    assert first.created and not replay.created and replay.batch_id == first.batch_id
    assert counts(engine) == (1, 1000, 1000)
    positions, after = [], 0
    while after is not None:
        page = get_items_page(engine, "local", first.batch_id, after=after, limit=100, max_after=1000)
        positions += [item.position for item in page.items]
        after = page.next_after
    assert positions == list(range(1, 1001))


def test_item_over_the_limit_is_rejected_before_storage(engine: Engine):
    with pytest.raises(InvalidBatchRequest):
        accept(engine, items(1001), max_items=1000)
    assert counts(engine) == (0, 0, 0)


def test_twelve_concurrent_equivalent_submissions_make_one_batch(engine: Engine):
    results, errors = [], []
    barrier = threading.Barrier(12)

    def submit() -> None:
        barrier.wait()
        try:
            results.append(accept(engine, items(3)))
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=submit) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({result.batch_id for result in results}) == 1
    assert sum(result.created for result in results) == 1
    assert counts(engine) == (1, 3, 3)


def test_reordered_items_under_the_same_key_conflict(engine: Engine):
    batch = items(3)
    accept(engine, batch)
    with pytest.raises(IdempotencyConflict):
        accept(engine, list(reversed(batch)))
    assert counts(engine) == (1, 3, 3)


def test_changed_listing_under_the_same_key_conflicts(engine: Engine):
    accept(engine, items(2))
    changed = items(2)
    changed[1] = CatalogItem(2, 3, "item-2", draft(title="Another title"))
    with pytest.raises(IdempotencyConflict):
        accept(engine, changed)


def test_price_scale_and_attribute_order_do_not_change_identity(engine: Engine):
    first = accept(engine, items(2, price="45.00"))
    reordered = [CatalogItem(i.row, i.line, i.item_id, draft(
        "45", attributes={"condition": "used", "brand": "KeyPro"})) for i in items(2)]
    again = accept(engine, reordered)
    assert again.batch_id == first.batch_id and not again.created


@pytest.mark.parametrize("price", ["45.00", "100.00", "1200.00", "19.99"])
def test_snapshot_keeps_the_price_as_submitted(engine: Engine, price: str):
    accept(engine, items(1, price=price))
    with engine.connect() as conn:
        payload = conn.execute(text("select payload::text from review_jobs")).scalar()
    assert f'"price": {price}' in payload
    assert str(decode_snapshot(payload).price) == price


def test_same_key_for_another_owner_is_another_batch(engine: Engine):
    a = accept(engine, items(2), owner="seller-a")
    b = accept(engine, items(2), owner="seller-b")
    assert a.batch_id != b.batch_id and a.created and b.created


def test_each_message_names_its_job_and_the_review_actor(engine: Engine):
    accept(engine, items(2))
    with engine.connect() as conn:
        rows = conn.execute(text(
            "select j.id as job_id, q.message_id, q.state::text, q.queue_name, q.message "
            "from dramatiq.queue q join review_jobs j on j.id = (q.message->'args'->>0)::uuid "
            "order by j.item_position")).all()
    assert [row.state for row in rows] == ["queued", "queued"]
    assert all(row.queue_name == "listing-reviews" for row in rows)
    assert [row.message["args"] for row in rows] == [[str(row.job_id)] for row in rows]
    assert all(row.message["message_id"] == str(row.message_id) for row in rows)
    assert {row.message["actor_name"] for row in rows} == {"review_listing"}


def test_standalone_job_is_idempotent_and_separate_from_batch_keys(engine: Engine):
    accept(engine, items(1), key="shared-key")
    created, job = submit_job(engine, QUEUE, owner="local", key="shared-key", draft=draft())
    again, same = submit_job(engine, QUEUE, owner="local", key="shared-key", draft=draft("45"))
    assert created and not again and same.job_id == job.job_id and job.status == "QUEUED"
    with pytest.raises(IdempotencyConflict):
        submit_job(engine, QUEUE, owner="local", key="shared-key", draft=draft(title="Other"))
    assert counts(engine) == (1, 2, 2)


def test_acceptance_summary_is_queued_with_the_total(engine: Engine):
    accepted = accept(engine, items(3))
    body = accepted.to_json_dict()
    assert body["status"] == "QUEUED" and body["total"] == 3 and body["created"] is True
    assert body["itemsUrl"].endswith(f"{accepted.batch_id}/items")


def test_invalid_key_is_rejected(engine: Engine):
    with pytest.raises(InvalidBatchRequest):
        accept(engine, items(1), key="k" * 129)
    assert counts(engine) == (0, 0, 0)
