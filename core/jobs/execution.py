"""Running one job attempt: reserve a model slot, claim (short transaction), review (no
transaction open, on a bounded model thread with a deadline), then a token-fenced write.

Model failures are stored as safe codes, except transient ones with attempts left: those
hand the job back and schedule a delayed message in the same transaction. Storage failures
are raised so the message is redelivered later; they never become model failures.
"""

import random
import uuid
from dataclasses import dataclass
from enum import Enum

from sqlalchemy import Engine

from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import Attempt, claim_job, fenced_fail, fenced_release, fenced_succeed
from core.jobs.model_slots import ModelSlots
from core.jobs.queue import JobQueue
from core import telemetry
from core.listings import service
from core.listings.errors import ReviewError
from core.listings.providers.base import ReviewProvider
from core.listings.snapshot import decode_snapshot
from core.settings import Settings


class Outcome(str, Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    RETRY_SCHEDULED = "retry_scheduled"
    DEFERRED = "deferred"
    STALE = "stale"
    SKIPPED = "skipped"
    EXHAUSTED = "exhausted"


@dataclass
class JobRunner:
    """Everything one worker process needs to run attempts."""

    engine: Engine
    queue: JobQueue
    provider: ReviewProvider
    slots: ModelSlots
    settings: Settings
    in_flight: InFlight

    def execute(self, job_id: uuid.UUID) -> Outcome:
        """One delivery of a job. Raises on storage failures (the broker redelivers).

        Each delivery is timed, counted by outcome and logged as one line (core.telemetry).
        """
        return telemetry.observe_job_attempt(job_id, lambda: self._deliver(job_id))

    def _deliver(self, job_id: uuid.UUID) -> Outcome:
        if not self.slots.reserve():
            return self._defer(job_id)
        return self._claim_and_run(job_id)

    def _defer(self, job_id: uuid.UUID) -> Outcome:
        """Every slot is held by abandoned calls: try again later, without spending an attempt."""
        with self.engine.begin() as connection:
            self.queue.enqueue(connection, [job_id], self.settings.retry_base_delay)
        return Outcome.DEFERRED

    def _claim_and_run(self, job_id: uuid.UUID) -> Outcome:
        try:
            with self.engine.begin() as connection:
                claim = claim_job(connection, job_id, self.settings.max_attempts,
                                  self.settings.job_lease)
        except BaseException:
            self.slots.release()
            raise
        if claim.attempt is None:
            self.slots.release()
            return Outcome.EXHAUSTED if claim.exhausted else Outcome.SKIPPED
        self.in_flight.add(claim.attempt)
        telemetry.attempt_claimed(claim.attempt.attempts, claim.attempt.submitted_at,
                                  claim.attempt.started_at)
        try:
            return self._run(claim.attempt)
        finally:
            self.in_flight.discard(claim.attempt)

    def _run(self, attempt: Attempt) -> Outcome:
        try:
            draft = decode_snapshot(attempt.payload)
        except (ValueError, KeyError, TypeError):
            self.slots.release()
            return self._failed(attempt, ReviewError("REVIEW_FAILED"))
        try:
            reviewed = self.slots.call(
                lambda: service.review(draft, "job", self.provider, self.settings.model_timeout))
        except ReviewError as error:
            return self._failed(attempt, error)
        with self.engine.begin() as connection:
            stored = fenced_succeed(connection, attempt, reviewed.to_stored_result())
        return Outcome.SUCCEEDED if stored else Outcome.STALE

    def _failed(self, attempt: Attempt, error: ReviewError) -> Outcome:
        telemetry.attempt_failed(error.code)
        retry = error.transient and attempt.attempts < self.settings.max_attempts
        with self.engine.begin() as connection:
            if retry:
                stored = fenced_release(connection, attempt)
                if stored:
                    delay = self.retry_delay(attempt.attempts, error.retry_after)
                    self.queue.enqueue(connection, [attempt.job_id], delay)
            else:
                stored = fenced_fail(connection, attempt, error.code)
        if not stored:
            return Outcome.STALE
        return Outcome.RETRY_SCHEDULED if retry else Outcome.FAILED

    def retry_delay(self, attempts: int, retry_after: float | None) -> float:
        """The provider's Retry-After when given, else exponential backoff with jitter (half
        fixed, half random, so concurrent failures spread out but never retry at once).
        """
        cap = self.settings.retry_max_delay
        if retry_after is not None:
            return min(max(retry_after, 0.0), cap)
        backoff = min(cap, self.settings.retry_base_delay * 2 ** (attempts - 1))
        return backoff / 2 + random.uniform(0, backoff / 2)
