"""Atomic, idempotent acceptance of a batch: batch row, every job and every queue message
commit together, or nothing is stored.

Identity: the same owner + idempotency key with the same ordered (item id, fingerprint)
list, the same batch name and the same number of rows left out (rows rejected when the seller
chose to submit the valid rows only) is the same batch; anything else under that key is a
conflict. The mode is stored, not hashed: a replay returns the batch in the mode it was accepted
in (so an upload retried after LISTING_REVIEW_ECONOMY_MIN_ITEMS changed still lands on its
batch), and only a mode the seller chose explicitly must match it. The unique constraint on
(owner, idempotency_key) makes this hold across concurrent submitters and processes.
"""

import json
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, Engine

from core import telemetry
from core.batches.progress import BatchSummary, read_summary
from core.catalogs.check import CatalogItem
from core.database import copy_rows
from core.economy.mode import HELD_FOR_PROVIDER_BATCH, BatchMode
from core.errors import IdempotencyConflict, InvalidBatchRequest, storage_errors
from core.jobs.payload import check_idempotency_key, fingerprint, sha256
from core.jobs.queue import JobQueue
from core.listings.snapshot import encode_snapshot
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)


@dataclass(frozen=True)
class SourceFile:
    """Where the items came from, shown on batch pages; `columns` is a CSV's header as the
    seller wrote it, in order, and `column_map` the mapping it was read with, when one was
    given (the fix-up file is written back in the seller's own columns).
    """

    name: str | None
    format: str | None
    columns: list[str] | None = None
    column_map: dict[str, str] | None = None


@dataclass(frozen=True)
class RejectedRows:
    """Rows of the file left out of the batch (the seller submitted the valid rows only):
    how many, and their problems as CatalogError.to_json_dict gives them (a bounded list).
    """

    count: int
    report: list[dict[str, Any]]


@dataclass(frozen=True)
class AcceptedBatch:
    """The acceptance response; `created` is False for an idempotent replay."""

    created: bool
    summary: BatchSummary

    @property
    def batch_id(self) -> uuid.UUID:
        return self.summary.batch_id

    @property
    def mode(self) -> BatchMode:
        """The batch's stored mode (what the seller learns when core decided it)."""
        return self.summary.mode

    def to_json_dict(self) -> dict[str, Any]:
        """The article's acceptance shape, plus `created`, the batch's name and the rows it left
        out."""
        location = f"/api/listings/review-batches/{self.batch_id}"
        return {
            "batchId": str(self.batch_id),
            "status": self.summary.status,
            "submittedAt": iso(self.summary.submitted_at),
            "total": self.summary.total,
            "created": self.created,
            "name": self.summary.name,
            "displayName": self.summary.display_name,
            "rejectedRows": self.summary.rejected_rows,
            "mode": self.mode,
            "statusUrl": location,
            "itemsUrl": f"{location}/items",
        }


@dataclass(frozen=True)
class PreparedItem:
    item_id: str
    snapshot: str
    fingerprint: str


@telemetry.counts_acceptance
def accept_batch(
    engine: Engine,
    queue: JobQueue,
    *,
    owner: str,
    key: str,
    items: Sequence[CatalogItem],
    max_items: int,
    source: SourceFile = SourceFile(None, None),
    retry_of: uuid.UUID | None = None,
    name: str | None = None,
    rejected: RejectedRows | None = None,
    budget: Decimal | None = None,
    mode: BatchMode = "standard",
    automatic: bool = False,
) -> AcceptedBatch:
    """Store a batch with one job and one queue message per item, in one transaction (an
    economy batch's jobs get no message: core/economy sends them to the provider's Batch API).
    `retry_of` links a retry to the batch it retries (same owner, enforced by the schema);
    `name` is already checked (submission.batch_name); `rejected` records rows left out;
    `budget` (USD, core.costs.budget.checked_budget's) is not part of the batch's identity: a
    replay returns the batch with the budget it was created with. `automatic`: nobody chose
    `mode` (core.economy.mode.mode_for decided it), so a replay takes the stored batch's mode;
    a chosen mode that differs from the stored one is a conflict.

    Raises InvalidBatchRequest (bad key, count or ids: nothing stored), IdempotencyConflict
    (key already used for different items) or StorageUnavailable (database unreachable).
    """
    _check_request(key, items, max_items)
    prepared = [_prepare(item) for item in items]
    request_hash = request_identity(batch_identity((item.item_id, item.fingerprint) for item in prepared),
                                    name, rejected)
    return store_batch(engine, queue if mode == "standard" else HELD_FOR_PROVIDER_BATCH, owner=owner,
                       key=key, request_hash=request_hash,
                       columns=batch_columns(source, retry_of, name, rejected, budget, mode),
                       replay_mode=None if automatic else mode,
                       insert_jobs=lambda connection, batch_id: _insert_jobs(connection, owner, batch_id,
                                                                             prepared))


def store_batch(
    engine: Engine, queue: JobQueue, *, owner: str, key: str, request_hash: str,
    columns: dict[str, Any], insert_jobs: Callable[[Connection, uuid.UUID], None],
    replay_mode: BatchMode | None = None,
) -> AcceptedBatch:
    """The one transaction of every acceptance: claim the key (or find the batch it names, or
    raise IdempotencyConflict, also when `replay_mode` is not the found batch's), then
    `insert_jobs` for a new batch and a queue message for each of its jobs, written from the
    job rows in the database; StorageUnavailable when the database is down.
    """
    with storage_errors(), engine.begin() as connection:
        created, batch_id = _create_or_find(connection, owner, key, request_hash, columns, replay_mode)
        if created:
            insert_jobs(connection, batch_id)
            queue.enqueue_new_batch(connection, batch_id)
        return AcceptedBatch(created, read_summary(connection, owner, batch_id))


def batch_columns(source: SourceFile, retry_of: uuid.UUID | None, name: str | None,
                  rejected: RejectedRows | None, budget: Decimal | None = None,
                  mode: BatchMode = "standard") -> dict[str, Any]:
    """The batch row's columns besides its key and identity (insert_batch's parameters)."""
    return {"source_name": source.name, "source_format": source.format,
            "source_columns": source.columns or None, "column_map": _json_or_none(source.column_map),
            "retry_of": retry_of, "name": name, "rejected_rows": rejected.count if rejected else 0,
            "rejected_report": _json_or_none(rejected.report if rejected else None),
            "budget_usd": budget, "mode": mode}


def batch_identity(items: Iterable[tuple[str, str]]) -> str:
    """Hash of the ordered (itemId, fingerprint) list: reordering items is a different batch."""
    identity = [[item_id, item_fingerprint] for item_id, item_fingerprint in items]
    return sha256(json.dumps(identity, separators=(",", ":")))


def request_identity(items_identity: str, name: str | None, rejected: RejectedRows | None) -> str:
    """The batch's identity: its items, plus its name and how many rows it left out when there
    are any (a plain batch keeps the items' hash, as stored before names existed). Submitting
    the same file under another name, or with rows left out and then not, is not a replay.
    """
    if name is None and rejected is None:
        return items_identity
    return sha256(json.dumps([items_identity, name, rejected.count if rejected else 0]))


def _json_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def check_count(count: int, max_items: int) -> None:
    """InvalidBatchRequest unless a batch of `count` listings is allowed."""
    if not 1 <= count <= max_items:
        raise InvalidBatchRequest(f"A batch takes 1 to {max_items:,} listings; got {count:,}.")


def _check_request(key: str, items: Sequence[CatalogItem], max_items: int) -> None:
    check_idempotency_key(key)
    check_count(len(items), max_items)
    item_ids = [item.item_id for item in items]
    if len(set(item_ids)) != len(item_ids):
        raise InvalidBatchRequest("Every item id in a batch must be unique.")


def _prepare(item: CatalogItem) -> PreparedItem:
    return PreparedItem(item.item_id, encode_snapshot(item.draft), fingerprint(item.draft))


def _create_or_find(
    connection: Connection, owner: str, key: str, request_hash: str, columns: dict[str, Any],
    replay_mode: BatchMode | None,
) -> tuple[bool, uuid.UUID]:
    new_id = uuid.uuid4()
    params = {"id": new_id, "owner": owner, "key": key, "request_hash": request_hash, **columns}
    if connection.execute(QUERIES["insert_batch"], params).first() is not None:
        return True, new_id
    existing = connection.execute(QUERIES["find_batch_by_key"], {"owner": owner, "key": key}).one()
    if existing.request_hash != request_hash:
        raise IdempotencyConflict(
            "This idempotency key was already used for a different set of listings (or another "
            "batch name, or with rows left out). Use a new key to submit it as a new batch."
        )
    if replay_mode is not None and existing.mode != replay_mode:
        raise IdempotencyConflict(
            f"These listings were already submitted in {existing.mode} mode. Submit them without "
            f"a mode (or in {existing.mode} mode) to see that batch, or use a new key for a new batch."
        )
    return False, existing.id


def _insert_jobs(
    connection: Connection, owner: str, batch_id: uuid.UUID, prepared: Sequence[PreparedItem]
) -> None:
    rows = (
        (uuid.uuid4(), owner, batch_id, item.item_id, position, item.fingerprint, item.snapshot, "QUEUED")
        for position, item in enumerate(prepared, start=1)
    )
    copy_rows(connection, QUERIES["copy_batch_jobs"].text, rows)
