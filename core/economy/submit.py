"""Sending an economy batch's jobs to the provider's Batch API, exactly once.

Order, and why: record the intent, then create, then record the provider's id.
1. One transaction writes a provider_batches row ('preparing', our own id) and claims the jobs
   it will carry (RUNNING, a token each, provider_batch_jobs rows). From here on no pass can pick
   these jobs again, whatever happens next.
2. Outside any transaction: upload the input file and create the provider batch, tagged with our
   id in its metadata.
3. One transaction stores the provider batch id and marks the intent 'submitted'.
A crash (or a failed commit) between 2 and 3 leaves a 'preparing' row whose lease runs out; the
next pass looks for a provider batch tagged with its id (batches.list, newest first, back to the
intent's creation) and records that one instead of creating another. Creating first and
recording after would leave nothing in our database to look for: a restart would send the same
jobs again. The one window left is a crash inside the provider's create call itself (it may or
may not have been accepted): the lookup covers it too, since the tag travels with the request.

A create the provider refuses (an error answer, or none) is counted on the intent, which is
resumed after its lease and a backoff. Once the lookup shows that none of those creates was
accepted after all and the count is at the policy's max_create_refusals, the intent's jobs go
back to standard mode at once (QUEUED, their attempt given back, a queue message each) and the
intent stays as 'refused', so they are never offered to the provider again. So does an intent
still unsent when its jobs' window ran out (recovery gave them back to standard mode meanwhile).
"""

import logging
import uuid
from typing import Any, Final, Literal

from sqlalchemy import Connection, Engine, Row

from core.costs.budget import BUDGET_EXCEEDED, JobBudgets, budget_reached
from core.economy.batches_api import (
    REQUEST_OVERHEAD_BYTES,
    Created,
    ProviderBatches,
    ProviderBatchUnavailable,
)
from core.economy.policy import EconomyPolicy
from core.economy.results import CHUNK, carried_attempt
from core.jobs.lifecycle import fenced_give_back
from core.jobs.queue import JobQueue
from core.listings.errors import SAFE_MESSAGES
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
log = logging.getLogger(__name__)
# What a claim found when the batch's budget is spent: nothing to send, but a pass's work done.
OVER_BUDGET: Final = "over budget"


def send_next_batch(engine: Engine, queue: JobQueue, batches: ProviderBatches, policy: EconomyPolicy) -> bool:
    """Send one due intent (resumed) or else one new provider batch, or end a batch's unsent jobs
    over budget; False when nothing was due. `queue` takes the jobs of an intent given up on.
    Raises ProviderBatchUnavailable (the intent is resumed after its lease) or storage errors."""
    with engine.begin() as connection:
        resumed = connection.execute(QUERIES["claim_due_intent"], {
            "lease_seconds": policy.lease_seconds, "provider": batches.provider}).first()
        intent = resumed.id if resumed else _new_intent(connection, batches, policy)
    if not isinstance(intent, uuid.UUID):
        return intent == OVER_BUDGET
    if resumed is None:
        _send(engine, batches, policy, intent, None, refusals=0)
    else:
        _resume(engine, queue, batches, policy, resumed)
    return True


def _new_intent(connection: Connection, batches: ProviderBatches,
                policy: EconomyPolicy) -> uuid.UUID | Literal["over budget"] | None:
    """Step 1: the intent row and its jobs, in the caller's transaction; OVER_BUDGET when the
    batch's or its seller's budget is spent (its unsent jobs end as the standard path ends them)."""
    batch = connection.execute(QUERIES["next_economy_batch"]).first()
    if batch is None:
        return None
    if budget_reached(connection, JobBudgets(batch.owner, batch.id, batch.budget_usd),
                      policy.daily_budget, policy.prices_file):
        connection.execute(QUERIES["stop_unsent_over_budget"],
                           {"batch_id": batch.id, "message": SAFE_MESSAGES[BUDGET_EXCEEDED]})
        return OVER_BUDGET
    intent = uuid.uuid4()
    connection.execute(QUERIES["insert_intent"], {"id": intent, "batch_id": batch.id,
                                                  "provider": batches.provider,
                                                  "lease_seconds": policy.lease_seconds})
    connection.execute(QUERIES["reserve_jobs"], {
        "batch_id": batch.id, "provider_batch": intent,
        "limit": min(policy.max_requests, batches.max_requests), "max_bytes": batches.max_bytes,
        "overhead_bytes": REQUEST_OVERHEAD_BYTES, "window_seconds": batches.window_seconds})
    return intent


def _resume(engine: Engine, queue: JobQueue, batches: ProviderBatches, policy: EconomyPolicy,
            intent: Row[Any]) -> None:
    """A resumed intent first looks for what an earlier pass may have created (a new one cannot
    have any: its create is this pass's); only when that found nothing are its refusals final."""
    found = batches.find(str(intent.id), intent.created_at)
    if found is None and intent.create_refusals >= policy.max_create_refusals:
        _to_standard(engine, queue, intent.id, intent.create_refusals)
    else:
        _send(engine, batches, policy, intent.id, found, refusals=intent.create_refusals)


def _send(engine: Engine, batches: ProviderBatches, policy: EconomyPolicy, intent: uuid.UUID,
          found: Created | None, *, refusals: int) -> None:
    """Steps 2 (unless an earlier pass's create was found) and 3."""
    created = found or _create(engine, batches, policy, intent, refusals)
    if created is None:
        return
    with engine.begin() as connection:
        recorded = connection.execute(QUERIES["record_submission"], {
            "id": intent, "provider_batch_id": created.provider_batch_id,
            "input_file_id": created.input_file_id, "expected_by": created.expected_by,
            "first_poll_seconds": policy.first_poll_seconds}).first()
        ours = recorded is not None or connection.execute(
            QUERIES["recorded_provider_batch"], {"id": intent}).scalar() == created.provider_batch_id
    if not ours:
        _withdraw(batches, intent, created)


def _create(engine: Engine, batches: ProviderBatches, policy: EconomyPolicy, intent: uuid.UUID,
            refusals: int) -> Created | None:
    """The provider batch of the jobs the intent still carries; None (and the intent closed)
    when it carries none any more. A refusal is counted, then raised."""
    with engine.begin() as connection:
        rows = connection.execute(QUERIES["requests"], {"id": intent})
        requests = [(str(row.id), row.payload) for row in rows]
        if not requests:
            _close_empty(connection, intent)
            return None
    try:
        return batches.create(str(intent), requests)
    except ProviderBatchUnavailable:
        with engine.begin() as connection:
            connection.execute(QUERIES["count_refusal"], {
                "id": intent, "wait_seconds": policy.lease_seconds + policy.backoff(refusals)})
        raise


def _close_empty(connection: Connection, intent: uuid.UUID) -> None:
    """An intent whose jobs all ended (the seller cancelled them) goes. One whose jobs recovery
    gave back to standard mode, its window over before it was sent, stays as 'refused' with its
    provider_batch_jobs rows: deleted, they would let next_economy_batch offer those jobs to a
    provider batch again while their standard queue messages wait, and an earlier create the
    lookup missed might still answer for them."""
    if (connection.execute(QUERIES["drop_empty_intent"], {"id": intent}).rowcount == 0
            and connection.execute(QUERIES["refuse_intent"], {"id": intent}).rowcount):
        log.warning("economy intent %s: its window ran out before it was sent; its jobs stay in "
                    "standard mode", intent)


def _withdraw(batches: ProviderBatches, intent: uuid.UUID, created: Created) -> None:
    """Another pass recorded a different provider batch for this intent while ours was being
    created (our lease ran out mid-upload): ours would be paid for and never read, so it is
    cancelled (at most once; a failure is only logged, by type)."""
    log.warning("economy intent %s was recorded by another pass; cancelling the duplicate provider batch",
                intent)
    try:
        batches.cancel(created.provider_batch_id)
    except ProviderBatchUnavailable as failure:
        log.warning("cancelling the duplicate provider batch failed: %s", failure)


def _to_standard(engine: Engine, queue: JobQueue, intent: uuid.UUID, refusals: int) -> None:
    """The provider refused every create: the intent's jobs are given back chunk by chunk (a
    crash part-way leaves the rest to the next pass, which finds the count unchanged), and the
    intent is marked 'refused' with the last chunk."""
    returned, chunk = 0, CHUNK
    while chunk == CHUNK:
        with engine.begin() as connection:
            rows = connection.execute(QUERIES["carried_jobs"], {"id": intent, "limit": CHUNK}).all()
            given = [row.id for row in rows if fenced_give_back(connection, carried_attempt(row))]
            queue.enqueue(connection, given)
            if len(rows) < CHUNK:
                connection.execute(QUERIES["refuse_intent"], {"id": intent})
        chunk, returned = len(rows), returned + len(given)
    log.warning("economy intent %s: the provider refused its create %d times; %d job(s) go back to "
                "standard mode", intent, refusals, returned)
