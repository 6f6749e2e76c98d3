"""Which attempts this process is running, and proof to the database that they are alive."""

import threading
import uuid

from sqlalchemy import Engine

from core.jobs.lifecycle import Attempt
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


class InFlight:
    """Attempts between claim and outcome, shared by the worker threads of one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[uuid.UUID, uuid.UUID] = {}

    def add(self, attempt: Attempt) -> None:
        with self._lock:
            self._tokens[attempt.job_id] = attempt.token

    def discard(self, attempt: Attempt) -> None:
        with self._lock:
            if self._tokens.get(attempt.job_id) == attempt.token:
                del self._tokens[attempt.job_id]

    def snapshot(self) -> dict[uuid.UUID, uuid.UUID]:
        with self._lock:
            return dict(self._tokens)


def beat(engine: Engine, in_flight: InFlight) -> None:
    """Refresh the heartbeat of every attempt still held by this process."""
    tokens = in_flight.snapshot()
    if not tokens:
        return
    with engine.begin() as connection:
        connection.execute(QUERIES["heartbeat_jobs"],
                           {"ids": list(tokens), "tokens": list(tokens.values())})
