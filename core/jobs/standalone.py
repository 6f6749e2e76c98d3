"""Standalone single-listing jobs: their own idempotency key, same queue and lifecycle."""

import uuid
from typing import cast

from sqlalchemy import Connection, Engine

from core.errors import IdempotencyConflict, storage_errors
from core.jobs.payload import check_idempotency_key, fingerprint
from core.jobs.queue import JobQueue
from core.jobs.status import JobStatus, read_job
from core.listings.draft import ListingDraft
from core.listings.snapshot import encode_snapshot
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def submit_job(
    engine: Engine, queue: JobQueue, *, owner: str, key: str, draft: ListingDraft
) -> tuple[bool, JobStatus]:
    """Store one job and its message atomically; (created, status). Same key + same listing
    returns the existing job; same key + another listing raises IdempotencyConflict.
    """
    check_idempotency_key(key)
    request_hash = fingerprint(draft)
    new_id = uuid.uuid4()
    params = {"id": new_id, "owner": owner, "key": key, "request_hash": request_hash,
              "payload": encode_snapshot(draft)}
    with storage_errors(), engine.begin() as connection:
        created = connection.execute(QUERIES["insert_standalone_job"], params).first() is not None
        job_id = new_id if created else _existing(connection, owner, key, request_hash)
        if created:
            queue.enqueue(connection, [job_id])
        return created, read_job(connection, owner, job_id)


def _existing(connection: Connection, owner: str, key: str, request_hash: str) -> uuid.UUID:
    row = connection.execute(QUERIES["find_job_by_key"], {"owner": owner, "key": key}).one()
    if row.request_hash != request_hash:
        raise IdempotencyConflict(
            "This idempotency key was already used for a different listing. Use a new key."
        )
    return cast(uuid.UUID, row.id)
