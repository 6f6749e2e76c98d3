"""The queue port: how core hands job ids to the background workers.

Core only knows this interface; tasks/ implements it over dramatiq-pg. The connection is
the caller's, so the messages commit (and notify) together with the job rows, or not at all.
"""

from collections.abc import Sequence
from typing import Protocol
from uuid import UUID

from sqlalchemy import Connection


class JobQueue(Protocol):
    def enqueue(
        self, connection: Connection, job_ids: Sequence[UUID], delay_seconds: float = 0
    ) -> None:
        """Write one message per job inside the caller's open transaction; a delayed
        message is delivered no earlier than `delay_seconds` after it is written.
        """

    def enqueue_new_batch(self, connection: Connection, batch_id: UUID) -> None:
        """Write one message per job of `batch_id`, a batch written in the caller's open
        transaction, from the job rows themselves: its ids never travel to the client and back
        (10,000 of a retry did, both ways).
        """
