"""Cancelling an economy batch: what its provider batches still carry is cancelled with the
batch (core/jobs/cancel.py calls this in its transaction), and the provider batches are marked
for the maintenance loop to cancel at the provider, so the seller's request makes no HTTP call.
"""

import uuid
from typing import cast

from sqlalchemy import Connection

from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def cancel_provider_batches(connection: Connection, batch_id: uuid.UUID) -> int:
    """How many jobs at the provider were cancelled (0 for a standard batch)."""
    row = connection.execute(QUERIES["cancel_provider_batches"], {"batch_id": batch_id}).one()
    return cast(int, row.cancelled)
