"""Fairness between sellers: at most LISTING_REVIEW_MAX_RUNNING_PER_SELLER jobs of one seller
run at once across every worker, so one seller's 10,000-item batch cannot hold every worker
while another seller's 5-item batch waits behind it in the queue.

Decided at admission (core/jobs/execution.py), like a rate limit: a job whose seller already
runs its share is not claimed (no attempt spent) and is sent again later, and the worker
reviews a QUEUED job of another seller under its share instead, if there is one: messages are
taken first in, first out, so without this another seller's jobs would wait until the worker
had gone through the whole backlog of messages queued before them. That job's own message,
delivered later, finds it claimed or done and is skipped. The waiting jobs come back at their place
in a per-seller line spaced LINE_SECONDS / cap apart (seller_turns), not all at once: a big
backlog costs about cap x 1/LINE_SECONDS re-deliveries a second, whatever its size.

The count of running jobs reads RUNNING jobs only and stops at the cap. A job that
found room takes a per-seller transaction lock and counts again, so concurrent admissions
never exceed the cap; one that found no room waits without taking the lock.

Functions take the caller's connection and never commit.
"""

import uuid
from dataclasses import dataclass

from sqlalchemy import Connection

from core.sql import queries_beside

QUERIES = queries_beside(__file__)
# A seller's waiting jobs come back at cap / LINE_SECONDS a second (one place each).
LINE_SECONDS = 0.25
# Where a seller's line starts: a waiting job never comes straight back to a full share.
MIN_WAIT_SECONDS = 0.5
# How many sellers with unfinished jobs a worker looks at for a job to review instead.
SELLERS_LOOKED_AT = 50


@dataclass(frozen=True)
class SellerShare:
    """The cap on one seller's running jobs (0: no cap)."""

    cap: int

    def wait_for_turn(self, connection: Connection, owner: str) -> float | None:
        """None: the job may be claimed now (under the cap; the seller's lock is held until the
        caller's transaction ends). Otherwise the seconds until it should be delivered again."""
        if self.cap == 0:
            return None
        if self._running(connection, owner) < self.cap:
            connection.execute(QUERIES["lock_seller"], {"owner": owner})
            if self._running(connection, owner) < self.cap:
                return None
        params = {"owner": owner, "spacing": LINE_SECONDS / self.cap, "min_wait": MIN_WAIT_SECONDS}
        return float(connection.execute(QUERIES["join_seller_line"], params).scalar_one())

    def other_sellers_job(self, connection: Connection, job_id: uuid.UUID) -> uuid.UUID | None:
        """A QUEUED job of a seller other than `job_id`'s that is under its share (None: none)."""
        params = {"job_id": job_id, "cap": self.cap, "sellers": SELLERS_LOOKED_AT}
        return connection.execute(QUERIES["other_sellers_job"], params).scalar()

    def _running(self, connection: Connection, owner: str) -> int:
        params = {"owner": owner, "cap": self.cap}
        return int(connection.execute(QUERIES["seller_running"], params).scalar_one())
