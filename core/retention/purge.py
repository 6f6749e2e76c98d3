"""Retention: finished work past its retention period is deleted in small chunks, each its own
short transaction, so a purge of millions of rows never holds a lock for long and runs beside
live traffic. Unfinished batches and jobs have no completion time and are never candidates;
jobs parked behind a provider gate are QUEUED, so they are never touched either.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, text

from core import telemetry
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
CHUNK_JOBS = 5_000
CHUNK_BATCHES = 500
DONE_MESSAGE_AGE = timedelta(hours=1)
MESSAGE_CHUNK = 5_000


@dataclass(frozen=True)
class PurgeReport:
    """What a purge deleted (or, dry, would delete), and in how many chunks."""

    cutoff: datetime
    batches: int
    jobs: int
    chunks: int
    dry_run: bool

    def to_json_dict(self) -> dict[str, Any]:
        return {"cutoff": self.cutoff.isoformat(), "batches": self.batches, "jobs": self.jobs,
                "chunks": self.chunks, "dryRun": self.dry_run}


def cutoff_before(engine: Engine, older_than: timedelta) -> datetime:
    """The database's now minus `older_than` (the database's clock, not this host's)."""
    with engine.connect() as connection:
        now: datetime = connection.execute(text("select current_timestamp")).scalar_one()
    return now - older_than


def purge(engine: Engine, older_than: timedelta, *, dry_run: bool = False,
          chunk_jobs: int = CHUNK_JOBS) -> PurgeReport:
    """Delete finished batches (with their jobs) and finished standalone jobs completed more
    than `older_than` ago, about `chunk_jobs` jobs per transaction; `dry_run` only counts."""
    cutoff = cutoff_before(engine, older_than)
    if dry_run:
        with engine.connect() as connection:
            row = connection.execute(QUERIES["purge_preview"], {"cutoff": cutoff}).one()
        return PurgeReport(cutoff, row.batches, row.jobs, 0, True)
    batches, jobs, chunks = _purge_batches(engine, cutoff, chunk_jobs)
    standalone, more_chunks = _purge_standalone(engine, cutoff, chunk_jobs)
    return PurgeReport(cutoff, batches, jobs + standalone, chunks + more_chunks, False)


def _purge_batches(engine: Engine, cutoff: datetime, chunk_jobs: int) -> tuple[int, int, int]:
    params = {"cutoff": cutoff, "max_jobs": chunk_jobs, "max_batches": CHUNK_BATCHES}
    batches = jobs = chunks = 0
    while True:
        with engine.begin() as connection:
            row = connection.execute(QUERIES["purge_batch_chunk"], params).one()
        if not row.batches:
            return batches, jobs, chunks
        _counted(row.batches, row.jobs)
        batches, jobs, chunks = batches + row.batches, jobs + row.jobs, chunks + 1


def _purge_standalone(engine: Engine, cutoff: datetime, chunk_jobs: int) -> tuple[int, int]:
    jobs = chunks = 0
    while True:
        with engine.begin() as connection:
            deleted = connection.execute(QUERIES["purge_standalone_chunk"],
                                         {"cutoff": cutoff, "max_jobs": chunk_jobs}).rowcount
        if not deleted:
            return jobs, chunks
        _counted(0, deleted)
        jobs, chunks = jobs + deleted, chunks + 1


def _counted(batches: int, jobs: int) -> None:
    telemetry.count_purged("batches", batches)
    telemetry.count_purged("jobs", jobs)


def delete_done_messages(engine: Engine, age: timedelta = DONE_MESSAGE_AGE,
                         limit: int = MESSAGE_CHUNK) -> int:
    """One bounded step of queue cleanup: up to `limit` messages acked more than `age` ago.
    Run by every worker's maintenance loop; SKIP LOCKED keeps concurrent runs apart."""
    params = {"age_seconds": age.total_seconds(), "limit": limit}
    with engine.begin() as connection:
        deleted: int = connection.execute(QUERIES["delete_done_messages"], params).rowcount
    telemetry.count_purged("messages", deleted)
    return deleted
