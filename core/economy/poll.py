"""Polling submitted provider batches from the maintenance loop (no thread per batch): one due
provider batch per call, its next poll after an exponential backoff, and once it has ended its
answers streamed into the job lifecycle (core/economy/results.py) chunk by chunk.

One poll at a time writes a provider batch's answers: a poll whose lease ran out mid-write
(a long download) would otherwise write the same jobs beside the next poll, the two locking
them in different orders until PostgreSQL's deadlock detector rolls one back. The writer holds
the provider batch by a session advisory lock (queries.sql lock_for_writing); a poll finding it
held moves on without waiting, and a writer that dies lets it go with its session.
"""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Row
from sqlalchemy.exc import SQLAlchemyError

from core.economy.batches_api import ENDED, ProviderBatches, Status
from core.economy.policy import EconomyPolicy
from core.economy.results import ResultWriter
from core.jobs.queue import JobQueue
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def poll_next_batch(engine: Engine, queue: JobQueue, batches: ProviderBatches, policy: EconomyPolicy,
                    max_attempts: int) -> bool:
    """Poll one due provider batch; False when none was due. Raises ProviderBatchUnavailable
    (polled again once its lease is over) or storage errors."""
    with engine.begin() as connection:
        due = connection.execute(QUERIES["claim_due_poll"], {
            "lease_seconds": policy.lease_seconds, "provider": batches.provider}).first()
    if due is None:
        return False
    status = batches.status(due.provider_batch_id)
    if due.state == "cancelling":
        if status.state not in ENDED:  # an ended batch cannot be cancelled (the provider refuses)
            batches.cancel(due.provider_batch_id)
        _finish(engine, due.id)
        return True
    if status.state not in ENDED:
        with engine.begin() as connection:
            connection.execute(QUERIES["polled"], {"id": due.id, "wait_seconds": policy.backoff(due.polls)})
        return True
    with _held_for_writing(engine, due.id) as held:
        if held:
            _write(engine, queue, batches, due, status, max_attempts)
    return True


def _write(engine: Engine, queue: JobQueue, batches: ProviderBatches, due: Row[Any], status: Status,
           max_attempts: int) -> None:
    writer = ResultWriter(engine, queue, due.id, batches.provider, batches.model, max_attempts)
    writer.write(batches.answers(due.provider_batch_id, status), status.state)
    _finish(engine, due.id, status.output_file_id, status.error_file_id)


@contextmanager
def _held_for_writing(engine: Engine, provider_batch: uuid.UUID) -> Iterator[bool]:
    """True while this poll alone may write the provider batch's answers: the lock is held and
    nobody finished the batch before it was taken. The lock's connection sits idle meanwhile
    (no transaction open); the answers are written through others."""
    with engine.connect() as connection:
        params = {"id": provider_batch}
        locked = connection.execute(QUERIES["lock_for_writing"], params).scalar_one()
        try:
            writable = locked and connection.execute(QUERIES["still_submitted"], params).first()
            connection.commit()
            yield bool(writable)
        finally:
            if locked:
                _unlock(connection, provider_batch)


def _unlock(connection: Connection, provider_batch: uuid.UUID) -> None:
    """A connection that cannot say so is closed instead, and its session's lock with it: back in
    the pool it would keep every later poll off the provider batch."""
    try:
        connection.execute(QUERIES["unlock_for_writing"], {"id": provider_batch})
        connection.commit()
    except SQLAlchemyError:
        connection.invalidate()
        raise


def _finish(engine: Engine, provider_batch: object, output_file_id: str | None = None,
            error_file_id: str | None = None) -> None:
    with engine.begin() as connection:
        connection.execute(QUERIES["finish"], {"id": provider_batch, "output_file_id": output_file_id,
                                               "error_file_id": error_file_id})
