"""Retrying a completed batch's failed (and cancelled) listings as a new linked batch.

Only FAILED and CANCELLED items are sent again, with their snapshots exactly as first
accepted; successes are never reviewed twice. A batch is retried once it is complete, so the
set is final; the idempotency key is derived from the original batch, so asking twice (a
double click, two tabs) gives the same retry batch.
"""

import uuid

from sqlalchemy import Engine

from core.batches.acceptance import AcceptedBatch, SourceFile, accept_batch
from core.batches.progress import read_summary
from core.catalogs.check import CatalogItem
from core.errors import InvalidBatchRequest, storage_errors
from core.jobs.queue import JobQueue
from core.listings.snapshot import decode_snapshot
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def retry_key(batch_id: uuid.UUID) -> str:
    """The idempotency key of the retry of `batch_id` (one retry per batch and seller)."""
    return f"retry-{batch_id}"


def retry_failed(
    engine: Engine, queue: JobQueue, owner: str, batch_id: uuid.UUID, max_items: int
) -> AcceptedBatch:
    """A new batch (retry_of = `batch_id`) of the original's FAILED and CANCELLED items,
    accepted atomically with its queue messages; the existing retry batch (created=False)
    when there is one.

    Raises BatchNotFound for unknown or foreign ids, InvalidBatchRequest while the batch is
    still running or when nothing failed (or more than `max_items` did), StorageUnavailable
    when the database is down.
    """
    with storage_errors(), engine.connect() as connection:
        summary = read_summary(connection, owner, batch_id)
        existing = connection.execute(
            QUERIES["find_batch_by_key"], {"owner": owner, "key": retry_key(batch_id)}).first()
        if existing is not None:
            return AcceptedBatch(False, read_summary(connection, owner, existing.id))
        if summary.status != "COMPLETED":
            raise InvalidBatchRequest("This batch is still running: retry its failures once it is complete.")
        failed = connection.execute(QUERIES["failed_items"], {"owner": owner, "batch_id": batch_id}).all()
    if not failed:
        raise InvalidBatchRequest("No listing of this batch failed: there is nothing to retry.")
    items = [CatalogItem(row_number, None, row.item_id, decode_snapshot(row.payload))
             for row_number, row in enumerate(failed, start=1)]
    source = SourceFile(failed[0].source_name, failed[0].source_format, failed[0].source_columns)
    return accept_batch(engine, queue, owner=owner, key=retry_key(batch_id), items=items,
                        max_items=max_items, source=source, retry_of=batch_id)
