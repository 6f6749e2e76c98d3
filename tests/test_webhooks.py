"""Completion webhooks against real PostgreSQL and a local HTTP receiver: the outbox row is
written by the completing transaction (one per completion, none without a webhook), each
delivery is signed, retried with backoff, and redelivered with the same id after a crash.
"""

import hashlib
import hmac
import json
import threading
import uuid
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.progress import get_summary
from core.webhooks import delivery
from core.webhooks.delivery import DeliveryPolicy, deliver_due_webhooks
from core.webhooks.registration import (
    InvalidWebhookUrl,
    batch_deliveries,
    register_webhook,
    remove_webhook,
)
from tests.test_batch_completion import finish, finish_both_at_once, member
from tests.test_schema_invariants import insert_batch

NOW_AGAIN = DeliveryPolicy(backoff_base=0.0, max_attempts=3, timeout=5.0)


class Receiver:
    """A local HTTP endpoint answering each POST with the next scripted status (then 200),
    keeping what it received."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses, self.received = list(statuses), []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                self.send_response(receiver.statuses.pop(0) if receiver.statuses else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/listing-review"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver([])
    yield server
    server.close()


def one_job_batch(engine: Engine, owner: str) -> tuple[uuid.UUID, uuid.UUID]:
    with engine.begin() as conn:
        batch_id = insert_batch(conn, owner=owner)
        return batch_id, member(conn, batch_id, 1, status="QUEUED", owner=owner)


def deliveries(conn: Connection, batch_id: uuid.UUID) -> list:
    return conn.execute(text("select * from webhook_deliveries where batch_id = :id"),
                        {"id": batch_id}).all()


def completed_with_webhook(engine: Engine, url: str, owner: str = "seller-a") -> tuple[uuid.UUID, str]:
    _, secret = register_webhook(engine, owner, url)
    batch_id, job_id = one_job_batch(engine, owner)
    with engine.begin() as conn:
        finish(conn, job_id)
        assert len(deliveries(conn, batch_id)) == 1  # in the completing transaction
    return batch_id, secret


def test_delivery_is_signed_over_timestamp_and_body_and_carries_the_summary(engine, receiver):
    batch_id, secret = completed_with_webhook(engine, receiver.url)
    assert deliver_due_webhooks(engine, 10) == 1
    [(headers, body)] = receiver.received
    expected = hmac.new(secret.encode(), headers["X-Listing-Review-Timestamp"].encode() + b"." + body,
                        hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["X-Listing-Review-Signature"], "sha256=" + expected)
    [row] = batch_deliveries(engine, "seller-a", batch_id)
    assert headers["X-Listing-Review-Delivery"] == str(row.delivery_id) and row.status == "delivered"
    sent, summary = json.loads(body), get_summary(engine, "seller-a", batch_id).to_json_dict()
    assert sent.pop("itemsUrl") == f"/api/listings/review-batches/{batch_id}/items"
    for moment in ("submittedAt", "completedAt"):
        assert datetime.fromisoformat(sent.pop(moment)) == datetime.fromisoformat(summary.pop(moment))
    assert sent == summary and sent["status"] == "COMPLETED" and sent["cancelled"] == 1


def test_a_500_is_retried_and_the_delivery_is_made_once(engine):
    receiver = Receiver([500])
    try:
        batch_id, _ = completed_with_webhook(engine, receiver.url)
        assert deliver_due_webhooks(engine, 10, NOW_AGAIN) == 0
        [row] = batch_deliveries(engine, "seller-a", batch_id)
        assert (row.status, row.attempts, row.last_status_code, row.last_error) == (
            "pending", 1, 500, "HTTP_STATUS")
        assert deliver_due_webhooks(engine, 10, NOW_AGAIN) == 1
        assert deliver_due_webhooks(engine, 10, NOW_AGAIN) == 0
    finally:
        receiver.close()
    ids = {headers["X-Listing-Review-Delivery"] for headers, _ in receiver.received}
    assert len(receiver.received) == 2 and ids == {str(row.delivery_id)}
    [row] = batch_deliveries(engine, "seller-a", batch_id)
    assert (row.status, row.attempts, row.last_status_code, row.last_error) == ("delivered", 2, 200, None)


def test_a_failed_attempt_backs_off_and_the_last_one_fails_the_delivery(engine):
    receiver = Receiver([503] * 5)
    try:
        batch_id, _ = completed_with_webhook(engine, receiver.url)
        assert deliver_due_webhooks(engine, 10) == 0
        assert deliver_due_webhooks(engine, 10) == 0 and len(receiver.received) == 1  # backing off
        with engine.begin() as conn:  # the backoff has passed
            conn.execute(text("update webhook_deliveries set next_attempt_at = now()"))
        for _ in range(3):
            deliver_due_webhooks(engine, 10, NOW_AGAIN)
    finally:
        receiver.close()
    [row] = batch_deliveries(engine, "seller-a", batch_id)
    assert (row.status, row.attempts, len(receiver.received)) == ("failed", 3, 3)


def test_a_removed_webhook_fails_its_pending_delivery_without_a_call(engine, receiver):
    batch_id, _ = completed_with_webhook(engine, receiver.url)
    remove_webhook(engine, "seller-a")
    assert deliver_due_webhooks(engine, 10) == 0 and receiver.received == []
    [row] = batch_deliveries(engine, "seller-a", batch_id)
    assert (row.status, row.last_error) == ("failed", "WEBHOOK_REMOVED")


def test_a_crash_between_claim_and_mark_redelivers_with_the_same_id_after_the_lease(engine, receiver):
    batch_id, _ = completed_with_webhook(engine, receiver.url)
    with engine.begin() as conn:  # a worker claims with a long lease, then dies before the call
        [claimed] = conn.execute(delivery.QUERIES["claim_due"], {"limit": 10, "lease": 600}).all()
    assert deliver_due_webhooks(engine, 10) == 0 and receiver.received == []  # still leased
    with engine.begin() as conn:  # its lease ends
        conn.execute(text("update webhook_deliveries set next_attempt_at = now() where id = :id"),
                     {"id": claimed.id})
    assert deliver_due_webhooks(engine, 10) == 1
    [(headers, _)] = receiver.received
    assert headers["X-Listing-Review-Delivery"] == str(claimed.id)
    [row] = batch_deliveries(engine, "seller-a", batch_id)
    assert (row.status, row.attempts) == ("delivered", 2)


def test_an_owner_without_a_webhook_gets_no_delivery(engine, receiver):
    register_webhook(engine, "someone-else", receiver.url)
    batch_id, job_id = one_job_batch(engine, "seller-b")
    with engine.begin() as conn:
        finish(conn, job_id)
        assert deliveries(conn, batch_id) == []


def test_two_last_jobs_finishing_at_once_write_one_delivery(engine, receiver):
    register_webhook(engine, "seller-a", receiver.url)
    with engine.begin() as conn:
        batch_id = insert_batch(conn, owner="seller-a")
        first, second = (member(conn, batch_id, 1, status="QUEUED", owner="seller-a"),
                         member(conn, batch_id, 2, status="QUEUED", owner="seller-a"))
    finish_both_at_once(engine, first, second)
    with engine.connect() as conn:
        assert len(deliveries(conn, batch_id)) == 1


def test_a_bad_url_is_refused_and_nothing_is_stored(engine):
    for url in ("http://example.com/hook", "ftp://127.0.0.1/", "https://host/with space",
                "https://" + "a" * 2000, "http://localhost.evil.com/", "https://host/\x00"):
        with pytest.raises(InvalidWebhookUrl):
            register_webhook(engine, "seller-a", url)
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from webhooks")).scalar_one() == 0


def test_deleting_a_batch_deletes_its_deliveries(engine, receiver):
    batch_id, _ = completed_with_webhook(engine, receiver.url)
    with engine.begin() as conn:
        conn.execute(text("delete from review_jobs where batch_id = :id"), {"id": batch_id})
        conn.execute(text("delete from review_batches where id = :id"), {"id": batch_id})
        assert deliveries(conn, batch_id) == []


BAD_ROWS = {
    "second webhook of a seller": (
        "insert into webhooks (owner, url, secret) "
        "values ('seller-a', 'https://b.example', repeat('s', 40))", "webhooks_pkey"),
    "plain http elsewhere": ("update webhooks set url = 'http://10.0.0.1/'", "webhooks_url_check"),
    "short secret": ("update webhooks set secret = 'x'", "webhooks_secret_check"),
    "second delivery of a completion": (
        "insert into webhook_deliveries (owner, batch_id, payload) "
        "select owner, batch_id, payload from webhook_deliveries", "webhook_deliveries_batch_key"),
    "delivery of another seller's batch": (
        "update webhook_deliveries set owner = 'seller-z'", "webhook_deliveries_batch_fkey"),
    "unknown status": ("update webhook_deliveries set status = 'sent'", "webhook_deliveries_status_check"),
    "delivered without a time": ("update webhook_deliveries set status = 'delivered'",
                                 "webhook_deliveries_delivered_check"),
    "receiver text as the error": ("update webhook_deliveries set last_error = 'Internal error: boom'",
                                   "webhook_deliveries_error_check"),
}


@pytest.mark.parametrize("statement, constraint", BAD_ROWS.values(), ids=BAD_ROWS.keys())
def test_bad_rows_are_refused(engine, receiver, statement, constraint):
    completed_with_webhook(engine, receiver.url)
    with pytest.raises(IntegrityError) as refused, engine.begin() as conn:
        conn.execute(text(statement))
    assert refused.value.orig.diag.constraint_name == constraint
