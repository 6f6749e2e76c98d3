"""Recovering jobs whose worker died or hung, without restarting anything."""

import logging
import uuid

from sqlalchemy import Engine

from core import telemetry
from core.jobs.queue import JobQueue
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
log = logging.getLogger(__name__)


def recover_stale_jobs(engine: Engine, queue: JobQueue, lease_seconds: float) -> list[uuid.UUID]:
    """Re-queue RUNNING jobs whose heartbeat is older than the lease, each with a new message.

    The new message (not the old one) matters: a hung worker still holds the old message's
    lock, so nobody else could consume it. Job and message change in one transaction.
    """
    with engine.begin() as connection:
        job_ids = list(connection.execute(
            QUERIES["release_stale_jobs"], {"lease_seconds": lease_seconds}).scalars())
        if job_ids:
            queue.enqueue(connection, job_ids)
    telemetry.count_recoveries("stale_job", len(job_ids))
    if job_ids:
        log.warning("recovered %d job(s) whose worker stopped heartbeating", len(job_ids))
    return job_ids
