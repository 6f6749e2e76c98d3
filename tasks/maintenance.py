"""Maintenance every worker process runs on its own thread (so a long purge never delays the
recovery loop's heartbeats): done queue messages older than an hour, once a minute, and
finished work past LISTING_REVIEW_RETENTION_DAYS, once an hour, and due webhook deliveries
every LISTING_REVIEW_WEBHOOK_INTERVAL seconds, and the completion trigger's safety net
(batches left unfinished with every job terminal) every five minutes. This module only
schedules the core functions (core/retention, core/webhooks, core/batches/progress.py), which
claim their rows with SKIP LOCKED, or lock each batch row, so any number of processes on any
number of hosts can run them at once.
"""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import Engine

from core.batches.progress import settle_finished_batches
from core.retention.purge import MESSAGE_CHUNK, delete_done_messages, purge
from core.webhooks.delivery import DEFAULT_POLICY, DeliveryPolicy, deliver_due_webhooks

log = logging.getLogger(__name__)
CLEANUP_INTERVAL = 60.0
PURGE_INTERVAL = 3600.0
# Chunks per pass: a backlog of done messages is worked off over a few passes, never in one.
CLEANUP_CHUNKS = 10
# Deliveries claimed per pass: with the HTTP timeout, bounds how long one pass can take.
WEBHOOK_BATCH = 10
# The completion trigger's safety net (core/batches/progress.py): it should find nothing.
SETTLE_INTERVAL = 300.0
# Economy mode's pass: sends waiting jobs and polls the provider batches that are due (each
# provider batch has its own backoff; this only bounds how soon a due one is seen).
ECONOMY_INTERVAL = 10.0


@dataclass
class Every:
    """A step run at most once per `interval` seconds (the first time at once)."""

    interval: float
    step: Callable[[], object]
    next_at: float = field(default=0.0)

    def run_due(self) -> None:
        now = time.monotonic()
        if now >= self.next_at:
            self.next_at = now + self.interval
            self.step()


def clean_done_messages(engine: Engine) -> int:
    """Up to CLEANUP_CHUNKS chunks of done messages older than an hour; how many went."""
    deleted = 0
    for _ in range(CLEANUP_CHUNKS):
        step = delete_done_messages(engine)
        deleted += step
        if step < MESSAGE_CHUNK:
            break
    if deleted:
        log.info("deleted %d done queue message(s) older than an hour", deleted)
    return deleted


def settle_batches(engine: Engine) -> None:
    settled = settle_finished_batches(engine)
    if settled:
        log.warning("completed %d batch(es) the completion trigger had left unfinished", settled)


def purge_expired(engine: Engine, retention_days: int) -> None:
    report = purge(engine, timedelta(days=retention_days))
    if report.batches or report.jobs:
        log.info("retention: deleted %d batch(es) and %d job(s) finished over %d days ago",
                 report.batches, report.jobs, retention_days)


def start_maintenance_loop(engine: Engine, retention_days: int, stop: threading.Event,
                           tick: float = 1.0, cleanup_interval: float = CLEANUP_INTERVAL,
                           purge_interval: float = PURGE_INTERVAL, webhook_interval: float = 5.0,
                           webhooks: DeliveryPolicy = DEFAULT_POLICY,
                           economy: Callable[[], object] | None = None,
                           economy_interval: float = ECONOMY_INTERVAL) -> threading.Thread:
    """A daemon thread running each step when due until `stop` is set; failures (database
    down) are logged by type and the loop carries on. `economy` sends and polls provider
    batches (core/economy/service.py's economy_step)."""
    steps = [Every(cleanup_interval, lambda: clean_done_messages(engine)),
             Every(purge_interval, lambda: purge_expired(engine, retention_days)),
             Every(webhook_interval, lambda: deliver_due_webhooks(engine, WEBHOOK_BATCH, webhooks)),
             Every(SETTLE_INTERVAL, lambda: settle_batches(engine))]
    steps += [Every(economy_interval, economy)] if economy is not None else []

    def loop() -> None:
        while not stop.wait(tick):
            for step in steps:
                try:
                    step.run_due()
                except Exception as error:
                    log.warning("maintenance step failed: %s", type(error).__name__)

    thread = threading.Thread(target=loop, name="listing-review-maintenance", daemon=True)
    thread.start()
    return thread
