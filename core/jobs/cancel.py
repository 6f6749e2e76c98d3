"""Cancelling the unstarted part of a batch: what is running finishes, nothing else starts."""

import uuid
from typing import cast

from sqlalchemy import Engine

from core.economy.cancel import cancel_provider_batches
from core.errors import BatchNotFound, storage_errors
from core.identity.oversight import audit
from core.identity.sellers import Identity
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def cancel_unstarted(engine: Engine, owner: str, batch_id: uuid.UUID, acting: Identity | None = None) -> int:
    """Mark every QUEUED job of the batch CANCELLED in one statement; returns how many. When
    `acting` is an operator cancelling another seller's batch, its audit row is written in the
    same transaction (only when something was cancelled: a repeated cancel is no new action).

    RUNNING jobs keep running (their outcome is stored, and one that fails transiently may
    still be retried) and finished jobs keep theirs; once those end the batch is COMPLETED.
    Raises BatchNotFound for unknown or foreign ids, StorageUnavailable when the database is
    down.
    """
    params = {"owner": owner, "batch_id": batch_id}
    with storage_errors(), engine.begin() as connection:
        row = connection.execute(QUERIES["cancel_queued_batch_jobs"], params).one()
        at_provider = cancel_provider_batches(connection, batch_id) if row.found else 0
        cancelled = cast(int, row.cancelled) + at_provider
        if cancelled:
            audit(connection, acting, "cancel", batch_id, owner)
    if not row.found:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return cancelled
