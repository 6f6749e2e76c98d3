"""What only operators do: find any batch's seller, list every seller's batches, and keep the
audit trail of their cancels and retries on other sellers' batches.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import Connection, Engine

from core.batches.progress import BatchSummary, read_summary
from core.batches.recent import LIMIT_MAX
from core.errors import InvalidBatchRequest, storage_errors
from core.identity.sellers import Identity
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
Action = Literal["cancel", "retry"]


@dataclass(frozen=True)
class SellerBatch:
    seller_id: str
    seller_name: str
    summary: BatchSummary


@dataclass(frozen=True)
class EveryBatch:
    items: list[SellerBatch]
    next_before: tuple[datetime, uuid.UUID] | None


@dataclass(frozen=True)
class OperatorAction:
    action: str
    actor_name: str
    at: datetime


def batch_owner(engine: Engine, viewer: Identity, batch_id: uuid.UUID) -> str:
    """The owner to read `batch_id` as: an operator's is the batch's own seller; a seller only
    ever reads as themself, so another seller's batch is as "not found" as an unknown one.
    """
    if not viewer.operator:
        return viewer.seller_id
    with storage_errors(), engine.connect() as connection:
        owner = connection.execute(QUERIES["batch_owner"], {"batch_id": batch_id}).scalar_one_or_none()
    return owner if owner is not None else viewer.seller_id


def seller_name(engine: Engine, seller_id: str) -> str:
    """The seller's display name (else e-mail), or the id itself for an owner who never signed in."""
    with storage_errors(), engine.connect() as connection:
        name = connection.execute(QUERIES["seller_name"], {"seller_id": seller_id}).scalar_one_or_none()
    return name if name is not None else seller_id


def every_batch(engine: Engine, *, owner: str | None = None,
                before: tuple[datetime, uuid.UUID] | None = None, limit: int = 20) -> EveryBatch:
    """A page of every seller's batches (or `owner`'s), newest first, with progress."""
    if not 1 <= limit <= LIMIT_MAX:
        raise InvalidBatchRequest(f"'limit' must be between 1 and {LIMIT_MAX}.")
    before_at, before_id = before if before is not None else (None, None)
    params = {"owner": owner, "before_at": before_at, "before_id": before_id, "limit_plus_one": limit + 1}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["every_recent_batch"], params).all()
        items = [SellerBatch(row.owner, row.seller_name, read_summary(connection, row.owner, row.id))
                 for row in rows[:limit]]
    next_before = (items[-1].summary.submitted_at, items[-1].summary.batch_id) if len(rows) > limit else None
    return EveryBatch(items, next_before)


def known_sellers(engine: Engine) -> dict[str, str]:
    """Seller id -> name of every seller with a batch, for the operator's filter."""
    with storage_errors(), engine.connect() as connection:
        return {row.owner: row.seller_name for row in connection.execute(QUERIES["known_sellers"])}


def audit(connection: Connection, actor: Identity | None, action: Action, batch_id: uuid.UUID,
          owner: str) -> None:
    """Audit an operator's action on someone else's batch inside the action's own transaction, so
    the action and its audit row commit (or fail) together; their own needs no audit, and no
    actor (None) is the owner acting (the CLI, an API key).
    """
    if actor is None or actor.seller_id == owner:
        return
    connection.execute(QUERIES["record_operator_action"], {
        "actor": actor.seller_id, "action": action, "batch_id": batch_id, "batch_owner": owner})


def actions_on(engine: Engine, batch_id: uuid.UUID) -> list[OperatorAction]:
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["operator_actions"], {"batch_id": batch_id})
        return [OperatorAction(row.action, row.actor_name, row.at) for row in rows]
