"""Running one job attempt: claim (short transaction), review (no transaction open, on a
bounded model thread with a deadline), then a token-fenced write.

Model failures are stored as safe codes, except transient ones with attempts left: those
hand the job back and ask the broker for a delayed retry. Storage failures are raised so
the message is redelivered later; they never become model failures.
"""

import logging
import random
import uuid
from dataclasses import dataclass
from enum import Enum

from sqlalchemy import Engine

from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import Attempt, claim_job, fenced_fail, fenced_release, fenced_succeed
from core.jobs.model_slots import ModelSlots
from core.listings import service
from core.listings.errors import ReviewError
from core.listings.providers.base import ReviewProvider
from core.listings.snapshot import decode_snapshot
from core.settings import Settings

log = logging.getLogger(__name__)


class Outcome(str, Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    STALE = "stale"
    SKIPPED = "skipped"
    EXHAUSTED = "exhausted"


class RetryLater(Exception):
    """A transient model failure with attempts left: deliver the job again after `delay`."""

    def __init__(self, delay_seconds: float, code: str) -> None:
        super().__init__(code)
        self.delay_seconds = delay_seconds
        self.code = code


@dataclass
class JobRunner:
    """Everything one worker process needs to run attempts."""

    engine: Engine
    provider: ReviewProvider
    slots: ModelSlots
    settings: Settings
    in_flight: InFlight

    def execute(self, job_id: uuid.UUID) -> Outcome:
        """One delivery of a job. Raises on storage failures (the broker redelivers)."""
        with self.engine.begin() as connection:
            claim = claim_job(connection, job_id, self.settings.max_attempts, self.settings.job_lease)
        if claim.attempt is None:
            outcome = Outcome.EXHAUSTED if claim.exhausted else Outcome.SKIPPED
            log.info("job attempt job_id=%s outcome=%s", job_id, outcome.value)
            return outcome
        self.in_flight.add(claim.attempt)
        try:
            outcome = self._run(claim.attempt)
        finally:
            self.in_flight.discard(claim.attempt)
        log.info("job attempt job_id=%s attempt=%d outcome=%s", job_id, claim.attempt.attempts,
                 outcome.value)
        return outcome

    def _run(self, attempt: Attempt) -> Outcome:
        draft = decode_snapshot(attempt.payload)
        try:
            reviewed = self.slots.call(
                lambda: service.review(draft, "job", self.provider, self.settings.model_timeout))
        except ReviewError as error:
            return self._failed(attempt, error)
        with self.engine.begin() as connection:
            stored = fenced_succeed(connection, attempt, reviewed.to_stored_result())
        return Outcome.SUCCEEDED if stored else _stale(attempt)

    def _failed(self, attempt: Attempt, error: ReviewError) -> Outcome:
        if error.transient and attempt.attempts < self.settings.max_attempts:
            with self.engine.begin() as connection:
                released = fenced_release(connection, attempt)
            if not released:
                return _stale(attempt)
            raise RetryLater(self.retry_delay(attempt.attempts, error.retry_after), error.code)
        with self.engine.begin() as connection:
            stored = fenced_fail(connection, attempt, error.code)
        return Outcome.FAILED if stored else _stale(attempt)

    def retry_delay(self, attempts: int, retry_after: float | None) -> float:
        """The provider's Retry-After when given, else exponential backoff with jitter (half
        fixed, half random, so concurrent failures spread out but never retry at once).
        """
        cap = self.settings.retry_max_delay
        if retry_after is not None:
            return min(max(retry_after, 0.0), cap)
        backoff = min(cap, self.settings.retry_base_delay * 2 ** (attempts - 1))
        return backoff / 2 + random.uniform(0, backoff / 2)


def _stale(attempt: Attempt) -> Outcome:
    log.warning("stale job write rejected job_id=%s attempt=%d", attempt.job_id, attempt.attempts)
    return Outcome.STALE
