"""Delivering the webhook outbox, at least once.

A delivery is claimed (leased) in one short transaction, POSTed with no transaction open, and
its outcome written in another: a worker that dies between the two leaves a delivery that is
due again when its lease ends, with the same delivery id, which receivers de-duplicate by.
Nothing the receiver sends back is logged or stored beyond its status code, and the secret is
only ever used to sign.
"""

import hashlib
import hmac
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy import Engine

from core.batches.progress import get_summary
from core.errors import BatchNotFound
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
log = logging.getLogger(__name__)
DELIVERY_HEADER = "X-Listing-Review-Delivery"
TIMESTAMP_HEADER = "X-Listing-Review-Timestamp"
SIGNATURE_HEADER = "X-Listing-Review-Signature"
# Attempts that end a delivery for good: there is nothing left to deliver to, or to announce.
FINAL_ERRORS = frozenset({"WEBHOOK_REMOVED", "BATCH_REMOVED"})


@dataclass(frozen=True)
class DeliveryPolicy:
    """How deliveries are tried: the HTTP timeout, the lease (longer than any call), the
    backoff (base x 2^(attempts-1), capped) and the attempts before a delivery fails."""

    timeout: float = 5.0
    lease: float = 60.0
    backoff_base: float = 10.0
    backoff_cap: float = 3600.0
    max_attempts: int = 8

    def backoff(self, attempts: int) -> float:
        return min(self.backoff_base * 2.0 ** max(attempts - 1, 0), self.backoff_cap)


@dataclass(frozen=True)
class Outcome:
    """One attempt's result: the receiver's status code (if it answered) and a bounded error
    code (None when delivered)."""

    status_code: int | None
    error: str | None


DEFAULT_POLICY = DeliveryPolicy()


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=` + hex HMAC-SHA256 of `timestamp.body` under the seller's secret."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def post(client: httpx.Client, url: str, secret: str, delivery_id: uuid.UUID,
         payload: dict[str, Any]) -> Outcome:
    """POST one signed delivery; any 2xx delivers it, anything else (redirects too) does not."""
    body, timestamp = encode(payload), str(int(time.time()))
    headers = {"Content-Type": "application/json", DELIVERY_HEADER: str(delivery_id),
               TIMESTAMP_HEADER: timestamp, SIGNATURE_HEADER: signature(secret, timestamp, body)}
    try:
        response = client.post(url, content=body, headers=headers)
    except httpx.TimeoutException:
        return Outcome(None, "TIMEOUT")
    except httpx.HTTPError:
        return Outcome(None, "CONNECTION_FAILED")
    code = response.status_code
    return Outcome(code, None if 200 <= code < 300 else "HTTP_STATUS")


def deliver_due_webhooks(engine: Engine, limit: int, policy: DeliveryPolicy = DEFAULT_POLICY) -> int:
    """Claim up to `limit` due deliveries and try each once; how many were delivered. Safe
    to run from any number of processes at once (SKIP LOCKED claims)."""
    with engine.begin() as connection:
        claimed = connection.execute(QUERIES["claim_due"],
                                     {"limit": limit, "lease": policy.lease}).all()
    if not claimed:
        return 0
    delivered = 0
    with httpx.Client(timeout=policy.timeout, follow_redirects=False) as client:
        for row in claimed:
            outcome = attempt(client, engine, row)
            record(engine, row.id, row.attempts, outcome, policy)
            delivered += outcome.error is None
    return delivered


def attempt(client: httpx.Client, engine: Engine, row: Any) -> Outcome:
    """One delivery attempt; none when the seller removed the webhook or retention already
    deleted the batch (its delivery row goes with it)."""
    if row.url is None:
        return Outcome(None, "WEBHOOK_REMOVED")
    try:
        body = announced(engine, row)
    except BatchNotFound:
        return Outcome(None, "BATCH_REMOVED")
    return post(client, row.url, row.secret, row.id, body)


def announced(engine: Engine, row: Any) -> dict[str, Any]:
    """The body: the completion written with the batch's last result (itemsUrl, the counts at
    that moment), with the batch summary as the API gives it now laid over it. A completed
    batch's summary no longer changes, so the two agree on every count; the summary adds what
    the trigger's SQL does not build (name, display name, retry chain, rejected rows, budget),
    from its one definition in core/batches/progress.py."""
    return {**row.payload, **get_summary(engine, row.owner, row.batch_id).to_json_dict()}


def record(engine: Engine, delivery_id: uuid.UUID, attempts: int, outcome: Outcome,
           policy: DeliveryPolicy) -> None:
    with engine.begin() as connection:
        if outcome.error is None:
            connection.execute(QUERIES["mark_delivered"],
                               {"id": delivery_id, "status_code": outcome.status_code})
            return
        connection.execute(QUERIES["mark_attempt_failed"], {
            "id": delivery_id, "status_code": outcome.status_code, "error": outcome.error,
            "delay": policy.backoff(attempts), "max_attempts": policy.max_attempts,
            "final": outcome.error in FINAL_ERRORS})
    log.info("webhook delivery %s attempt %d not delivered: %s %s", delivery_id, attempts,
             outcome.error, outcome.status_code or "")
