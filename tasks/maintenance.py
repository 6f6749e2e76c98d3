"""Maintenance every worker process runs beside recovery; this module only schedules the core
functions (core/retention), which claim their rows with SKIP LOCKED so any number of
processes on any number of hosts can run them at once.
"""

import logging
import time
from dataclasses import dataclass

from sqlalchemy import Engine

from core.retention.purge import MESSAGE_CHUNK, delete_done_messages

log = logging.getLogger(__name__)
CLEANUP_INTERVAL = 60.0
# Chunks per pass: a backlog of done messages is worked off over a few passes, never in one.
CLEANUP_CHUNKS = 10


@dataclass
class QueueCleanup:
    """Deletes done queue messages older than an hour, at most once per `interval` seconds."""

    interval: float = CLEANUP_INTERVAL
    next_at: float = 0.0

    def run_due(self, engine: Engine) -> int:
        """Run if due; returns how many messages were deleted."""
        now = time.monotonic()
        if now < self.next_at:
            return 0
        self.next_at = now + self.interval
        deleted = 0
        for _ in range(CLEANUP_CHUNKS):
            step = delete_done_messages(engine)
            deleted += step
            if step < MESSAGE_CHUNK:
                break
        if deleted:
            log.info("deleted %d done queue message(s) older than an hour", deleted)
        return deleted
