"""The recovery loop every worker process runs: heartbeats for its own attempts, release of
jobs whose worker stopped heartbeating, re-sending of orphaned dramatiq-pg messages, and of
jobs left waiting on a provider gate (a lost probe, a gate closed by hand). Beside it, on
its own thread, the maintenance loop (tasks/maintenance.py: queue cleanup and retention).

dramatiq-pg marks a message `consumed` and holds a session advisory lock on it while it is
processed; when the process dies the lock vanishes but the message stays `consumed`, and
dramatiq-pg itself only looks again when a consumer starts (or at random, ~10 min).
"""

import logging
import os
import socket
import threading
import uuid

from sqlalchemy import Engine

from core import telemetry
from core.economy.service import economy_step
from core.jobs.heartbeat import InFlight, beat
from core.jobs.queue import JobQueue
from core.jobs.recovery import recover_stale_jobs
from core.operations.recording import record_recoveries, record_worker_heartbeat
from core.provider_gate.maintenance import send_stranded_waiters
from core.settings import Settings
from core.sql import queries_beside
from core.webhooks.delivery import DeliveryPolicy
from tasks.maintenance import start_maintenance_loop

log = logging.getLogger(__name__)
QUERIES = queries_beside(__file__)


def requeue_orphaned_messages(engine: Engine, queue_name: str, grace_seconds: float) -> int:
    """Re-send messages whose consumer is gone; returns how many were re-sent."""
    params = {"queue_names": [queue_name, f"{queue_name}.DQ"], "grace_seconds": grace_seconds}
    with engine.begin() as connection:
        count = connection.execute(QUERIES["requeue_orphaned_messages"], params).scalar_one()
        record_recoveries(connection, "orphan_message", count)
    telemetry.count_recoveries("orphan_message", count)
    if count:
        log.warning("re-sent %d orphaned message(s) whose consumer is gone", count)
    return count


def recovery_pass(
    engine: Engine, queue: JobQueue, in_flight: InFlight, settings: Settings,
    worker_id: uuid.UUID | None = None,
) -> None:
    """One round: prove our attempts alive first, then recover other processes' work, then
    tell the operations page this process is alive (last, so it can never hold up recovery,
    and even when a recovery step failed, so a live worker never looks gone).
    """
    try:
        beat(engine, in_flight)
        recovered = recover_stale_jobs(engine, queue, settings.job_lease)
        record_recoveries(engine, "stale_job", len(recovered))
        requeue_orphaned_messages(engine, settings.queue_name, settings.recovery_interval)
        send_stranded_waiters(engine, queue, settings.recovery_interval)
    finally:
        if worker_id is not None:
            record_worker_heartbeat(engine, worker_id, socket.gethostname(), os.getpid())


def start_recovery_loop(
    engine: Engine, queue: JobQueue, in_flight: InFlight, settings: Settings, stop: threading.Event,
    worker_id: uuid.UUID | None = None,
) -> threading.Thread:
    """A daemon thread running recovery_pass every `recovery_interval` until `stop` is set.

    Failures (database down) are logged and the loop carries on: it is how work resumes.
    """

    start_maintenance_loop(engine, settings.retention_days, stop, webhook_interval=settings.webhook_interval,
                           webhooks=DeliveryPolicy(timeout=settings.webhook_timeout,
                                                   max_attempts=settings.webhook_max_attempts),
                           economy=economy_step(engine, queue, settings))

    def loop() -> None:
        while not stop.wait(settings.recovery_interval):
            try:
                recovery_pass(engine, queue, in_flight, settings, worker_id)
            except Exception as error:
                log.warning("recovery pass failed: %s", type(error).__name__)

    thread = threading.Thread(target=loop, name="listing-review-recovery", daemon=True)
    thread.start()
    return thread
