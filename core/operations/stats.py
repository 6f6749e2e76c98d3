"""What operators see on the operations page: queues, jobs, failures, throughput, workers,
recoveries, provider circuit breakers and calls against the rate limits, read together from
one database snapshot.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine

from core.errors import storage_errors
from core.jobs.status import JOB_STATUSES
from core.provider_gate.breaker import GateState, read_gates
from core.provider_gate.rate_limits import ProviderRates, read_provider_rates
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
MESSAGE_STATES = ("queued", "consumed", "rejected", "done")
RECOVERY_KINDS = ("stale_job", "orphan_message")


@dataclass(frozen=True)
class ActiveWorker:
    """A worker process that sent a heartbeat within the last minute."""

    worker_id: uuid.UUID
    hostname: str
    pid: int
    started_at: datetime
    heartbeat_at: datetime


@dataclass(frozen=True)
class OperationsSnapshot:
    """Every known state/status/kind is present (0 when none); failures list only the codes
    seen in the last hour; `completions_per_minute` has 60 (minute start, count) pairs, oldest
    first; `oldest_queued_age_seconds` is None when nothing is queued; `active_workers`
    counts `workers`, the processes that sent a heartbeat within the last minute;
    `provider_gates` lists every provider+model breaker that has seen a failure;
    `provider_rates` every provider+model with a limit, a breaker or calls in the last hour.
    """

    taken_at: datetime
    queue_depth: dict[str, int]
    jobs_by_status: dict[str, int]
    failures_last_hour: dict[str, int]
    oldest_queued_age_seconds: float | None
    completions_per_minute: list[tuple[datetime, int]]
    active_workers: int
    workers: list[ActiveWorker]
    recoveries_last_hour: dict[str, int]
    provider_gates: list[GateState]
    provider_rates: list[ProviderRates]


def operations_snapshot(engine: Engine) -> OperationsSnapshot:
    """Read every figure in one REPEATABLE READ, read-only transaction so they agree.

    Raises StorageUnavailable when the database is down.
    """
    with storage_errors(), engine.connect() as connection:
        connection = connection.execution_options(isolation_level="REPEATABLE READ",
                                                  postgresql_readonly=True)
        with connection.begin():
            return _read_snapshot(connection)


def _read_snapshot(connection: Connection) -> OperationsSnapshot:
    workers = [ActiveWorker(*row) for row in connection.execute(QUERIES["active_workers"])]
    return OperationsSnapshot(
        taken_at=connection.execute(QUERIES["snapshot_time"]).scalar_one(),
        queue_depth=_counts(connection, "queue_depth", MESSAGE_STATES),
        jobs_by_status=_counts(connection, "jobs_by_status", JOB_STATUSES),
        failures_last_hour=_counts(connection, "failures_last_hour"),
        oldest_queued_age_seconds=connection.execute(QUERIES["oldest_queued"]).scalar_one(),
        completions_per_minute=[(minute, count) for minute, count in
                                connection.execute(QUERIES["completions_per_minute"])],
        active_workers=len(workers),
        workers=workers,
        recoveries_last_hour=_counts(connection, "recoveries_last_hour", RECOVERY_KINDS),
        provider_gates=read_gates(connection),
        provider_rates=read_provider_rates(connection),
    )


def _counts(connection: Connection, query: str, known: tuple[str, ...] = ()) -> dict[str, int]:
    """(name, count) rows as a dict, with every `known` name present."""
    found = {name: count for name, count in connection.execute(QUERIES[query])}
    return dict.fromkeys(known, 0) | found
