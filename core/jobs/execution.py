"""Running one job attempt: hold a model slot, pass the provider gate, take a call slot of its
rate limit and claim (one short transaction), review (no transaction open, on a bounded model
thread with a deadline), then a token-fenced write that also tells the gate what the provider
did. An unguarded job (below) is claimed first and waits for its model slot after.

Model failures are stored as safe codes, except transient ones with attempts left: those
hand the job back and schedule a delayed message in the same transaction. A provider failure
that leaves the gate shut gives the attempt back instead (core/provider_gate), and a job
with no call slot soon is sent again later without claiming it (rate_limits.py), as is a job
whose seller already runs its share (seller_share.py); a job whose budget is spent ends
unclaimed as BUDGET_EXCEEDED (core/costs/budget.py). Storage
failures are raised so the message is redelivered later; they never become model failures.

The common case costs two statements, each alone in autocommit (benchmarks/worker_pipeline.py
--statements: 9 with their BEGIN and COMMIT before): a provider+model without a rate limit
whose gate this process found closed within HEALTHY_SECONDS (breaker.py), with no per-seller
cap and no daily budget, is claimed without asking the gate, unless its batch has a budget
(then, or when the claim finds nothing, the admission below runs); and a success is written
in the same statement as record_answer. When that answer closes the gate, its waiters are
sent in a transaction of its own right after; if this process dies in between, the
maintenance pass sends the waiters of a closed gate (stranded_waiters).
"""

import random
import time
import uuid
from dataclasses import dataclass, field
from enum import Enum

from sqlalchemy import Connection, Engine

from core import telemetry
from core.costs.budget import budget_reached, read_job_budgets, stop_over_budget
from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import (
    Attempt,
    Claim,
    claim_job,
    fenced_fail,
    fenced_give_back,
    fenced_release,
    fenced_succeed,
    job_may_run,
    succeed_params,
    succeed_statement,
)
from core.jobs.model_slots import ModelSlots
from core.jobs.queue import JobQueue
from core.listings import service
from core.listings.errors import ReviewError
from core.listings.providers.base import ReviewProvider
from core.listings.snapshot import decode_snapshot
from core.provider_gate.breaker import (
    NO_EVIDENCE,
    PROVIDER_FAILURES,
    Failure,
    ProviderGate,
    Verdict,
)
from core.provider_gate.call_tally import CallTally
from core.provider_gate.rate_limits import Slot
from core.provider_gate.seller_share import SellerShare
from core.settings import Settings


class Outcome(str, Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    RETRY_SCHEDULED = "retry_scheduled"
    DEFERRED = "deferred"
    STALE = "stale"
    SKIPPED = "skipped"
    EXHAUSTED = "exhausted"
    PAUSED = "paused"
    THROTTLED = "throttled"
    WAITING_TURN = "waiting_turn"
    BUDGET_EXCEEDED = "budget_exceeded"


NO_CLAIM = Claim(None)


@dataclass(frozen=True)
class Admission:
    """What the gate and the rate limit let a delivery do: run its claim (with the call slot
    reserved for it, if rate-limited), or wait with no attempt spent (`waiting`)."""

    claim: Claim = NO_CLAIM
    slot: Slot | None = None
    waiting: Outcome | None = None


def reported_tokens(reviewed: service.ReviewOutcome) -> int | None:
    """Input plus output tokens the provider reported for a call (None: it reported none)."""
    if reviewed.input_tokens is None:
        return None
    return reviewed.input_tokens + (reviewed.output_tokens or 0)


@dataclass
class JobRunner:
    """Everything one worker process needs to run attempts."""

    engine: Engine
    queue: JobQueue
    provider: ReviewProvider
    slots: ModelSlots
    settings: Settings
    in_flight: InFlight
    gate: ProviderGate = field(init=False)
    share: SellerShare = field(init=False)
    calls: CallTally = field(init=False)
    autocommit: Engine = field(init=False)

    def __post_init__(self) -> None:
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.gate = ProviderGate.for_provider(self.provider.name, self.provider.model, self.settings)
        self.calls = CallTally(self.engine)
        self.share = SellerShare(self.settings.max_running_per_seller)

    def execute(self, job_id: uuid.UUID) -> Outcome:
        """One delivery of a job. Raises on storage failures (the broker redelivers).

        Each delivery is timed, counted by outcome and logged as one line (core.telemetry).
        A job that waits for its seller's turn lends its worker to another seller's job.
        """
        outcome = telemetry.observe_job_attempt(job_id, lambda: self._deliver(job_id))
        if outcome is Outcome.WAITING_TURN:
            self._review_for_another_seller(job_id)
        return outcome

    def _review_for_another_seller(self, job_id: uuid.UUID) -> None:
        """Run a QUEUED job of another seller under its share, if there is one, as a delivery of
        its own (the same gate, share, budget and claim; its message is skipped later)."""
        with self.engine.connect() as connection:
            other = self.share.other_sellers_job(connection, job_id)
        if other is not None:
            telemetry.observe_job_attempt(other, lambda: self._deliver(other))

    def _deliver(self, job_id: uuid.UUID) -> Outcome:
        """A job only a budget of its batch could hold back (module docstring) is claimed first,
        then waits for a model slot: a process runs more Dramatiq threads than model slots
        (tasks/worker.py), so the next such job is claimed while every slot is busy and takes the
        first slot freed; no slot idles through a claim, a result write or an ack. Any other job
        first waits for a slot and an admission, then passes the whole admission, so a budget, a
        seller cap or a rate limit is never overrun by more jobs than there are slots: the admission
        is held until the result is written (core/jobs/model_slots.py)."""
        claim = self._claim_unguarded(job_id)
        if claim is not None:
            return self._run_claimed(Admission(claim), slot_held=False)
        if not self.slots.reserve(admitted=True):
            if not self._may_run(job_id):
                return Outcome.SKIPPED
            if not self.slots.reserve(wait=self.slots.timeout, admitted=True):
                return self._defer(job_id)
        try:
            try:
                with self.engine.begin() as connection:
                    admission = self._claim_through_gate(connection, job_id)
            except BaseException:
                self.slots.release()
                raise
            return self._run_claimed(admission, slot_held=True)
        finally:
            self.slots.written()

    def _may_run(self, job_id: uuid.UUID) -> bool:
        """Whether a delivery may still run the job: the message of a cancelled or finished job
        (a seller's cancel leaves its messages to be acked unprocessed) is skipped at once rather
        than wait for a model slot."""
        with self.autocommit.connect() as connection:
            return job_may_run(connection, job_id)

    def _claim_unguarded(self, job_id: uuid.UUID) -> Claim | None:
        """The claim alone, in autocommit, when nothing but a budget of its batch could hold the
        job back; None when the whole admission must run (also for a job with a budget, and once
        the process is stopping: nothing new is claimed then)."""
        if self.slots.stopping or not (self.gate.known_closed() and self.share.cap == 0
                                       and self.settings.daily_budget == 0):
            return None
        with self.autocommit.connect() as connection:
            claim = claim_job(connection, job_id, self.settings.max_attempts, self.settings.job_lease,
                              unbudgeted_only=True)
        return claim if claim.attempt is not None or claim.exhausted else None

    def _run_claimed(self, admission: Admission, *, slot_held: bool) -> Outcome:
        claim, slot = admission.claim, admission.slot
        if admission.waiting is not None or claim.attempt is None:
            if slot_held:
                self.slots.release()
            return self._not_run(admission)
        self.in_flight.add(claim.attempt)
        telemetry.attempt_claimed(claim.attempt.attempts, claim.attempt.submitted_at,
                                  claim.attempt.started_at)
        try:
            self._wait_for_slot(slot)
            if not slot_held and not self.slots.reserve(wait=self.slots.timeout):
                return self._give_back_unstarted(claim.attempt)
            return self._run(claim.attempt, slot)
        finally:
            self.in_flight.discard(claim.attempt)

    def _not_run(self, admission: Admission) -> Outcome:
        if admission.waiting is None:
            return Outcome.EXHAUSTED if admission.claim.exhausted else Outcome.SKIPPED
        if admission.slot is not None:
            telemetry.rate_limit_waited(self.gate.provider, self.gate.model, "deferred",
                                        admission.slot.wait_seconds)
        return admission.waiting

    def _defer(self, job_id: uuid.UUID) -> Outcome:
        """Every slot stayed held by abandoned calls: try again later, without spending an attempt."""
        with self.engine.begin() as connection:
            self.queue.enqueue(connection, [job_id], self.settings.retry_base_delay)
        return Outcome.DEFERRED

    def _give_back_unstarted(self, attempt: Attempt) -> Outcome:
        """A claimed job got no model slot within a model deadline (every slot held by calls
        abandoned at theirs) or the process is stopping: its attempt is given back and it is
        tried again later. (Claimed first only on the unguarded path: no probe, no call slot.)"""
        with self.engine.begin() as connection:
            if not fenced_give_back(connection, attempt):
                return Outcome.STALE
            self.queue.enqueue(connection, [attempt.job_id], self.settings.retry_base_delay)
        return Outcome.DEFERRED

    def _claim_through_gate(self, connection: Connection, job_id: uuid.UUID) -> Admission:
        """Waiting, no attempt spent: PAUSED when the provider's gate is shut (the job waits for
        it), THROTTLED when its rate limit has no call slot soon (the job is sent again at its
        place in the line). A slot reserved for a job that cannot be claimed is given back."""
        verdict = self.gate.admit(connection, job_id)
        if verdict is Verdict.WAIT and self.gate.park(connection, job_id):
            return Admission(waiting=Outcome.PAUSED)
        waiting = self._admit_for_seller(connection, job_id)
        if waiting is not None:
            self._hand_back_probe(connection, job_id, verdict)
            return Admission(waiting=waiting)
        slot = self.gate.reserve(connection, job_id)
        if slot is not None and not slot.reserved:
            self._hand_back_probe(connection, job_id, verdict)
            self.queue.enqueue(connection, [job_id], slot.wait_seconds)
            return Admission(slot=slot, waiting=Outcome.THROTTLED)
        claim = claim_job(connection, job_id, self.settings.max_attempts, self.settings.job_lease)
        if claim.attempt is None:
            self.gate.refund(connection, slot)
            self._hand_back_probe(connection, job_id, verdict)
        return Admission(claim, slot)

    def _admit_for_seller(self, connection: Connection, job_id: uuid.UUID) -> Outcome | None:
        """WAITING_TURN when the job's seller already runs its share (the job comes back later, no
        attempt spent: core/provider_gate/seller_share.py); BUDGET_EXCEEDED when its batch or its
        seller's day spent its budget (the job ends unclaimed: core/costs/budget.py)."""
        job = read_job_budgets(connection, job_id)
        if job is None:
            return None
        wait = self.share.wait_for_turn(connection, job.owner)
        if wait is not None:
            self.queue.enqueue(connection, [job_id], wait)
            return Outcome.WAITING_TURN
        if budget_reached(connection, job, self.settings.daily_budget, self.settings.prices_file):
            stop_over_budget(connection, job_id)
            return Outcome.BUDGET_EXCEEDED
        return None

    def _hand_back_probe(self, connection: Connection, job_id: uuid.UUID, verdict: Verdict) -> None:
        if verdict is Verdict.PROBE:
            self.gate.hand_back_probe(connection, job_id)

    def _wait_for_slot(self, slot: Slot | None) -> None:
        """Wait out the rest of a reserved call slot (at most rate_limits.HORIZON_SECONDS)."""
        if slot is not None and slot.wait_seconds > 0:
            telemetry.rate_limit_waited(self.gate.provider, self.gate.model, "paced", slot.wait_seconds)
            time.sleep(slot.wait_seconds)

    def _run(self, attempt: Attempt, slot: Slot | None = None) -> Outcome:
        try:
            draft = decode_snapshot(attempt.payload)
        except (ValueError, KeyError, TypeError):
            self.slots.release()
            return self._failed(attempt, ReviewError("REVIEW_FAILED"), called=False)
        try:
            reviewed = self.slots.call(
                lambda: service.review(draft, "job", self.provider, self.settings.model_timeout))
        except ReviewError as error:
            return self._failed(attempt, error)
        self.calls.add(self.gate.provider, self.gate.model, False, reported_tokens(reviewed))
        if self.gate.limit is None:
            return self._succeed_answered(attempt, reviewed)
        with self.engine.begin() as connection:
            self._provider_answered(connection)
            self.gate.charge_tokens(connection, slot, reported_tokens(reviewed))
            stored = fenced_succeed(connection, attempt, reviewed.to_stored_result())
        return Outcome.SUCCEEDED if stored else Outcome.STALE

    def _succeed_answered(self, attempt: Attempt, reviewed: service.ReviewOutcome) -> Outcome:
        """The gate hears of the answer and the result is stored in one statement (no tokens to
        charge without a rate limit); the gate's waiters are sent after, if it closed."""
        with self.autocommit.connect() as connection:
            closed, stored = self.gate.record_answer_with(
                connection, succeed_statement(), succeed_params(attempt, reviewed.to_stored_result()))
        if closed:
            with self.engine.begin() as connection:
                self.queue.enqueue(connection, self.gate.waiters(connection))
        return Outcome.SUCCEEDED if stored else Outcome.STALE

    def _provider_answered(self, connection: Connection) -> None:
        """Close the gate if it may close, and send every job that waited for it. Called before
        any job row is written: every transaction takes the gate's row lock before a job's, so
        two of them can never wait for each other."""
        woken = self.gate.record_answer(connection)
        if woken:
            self.queue.enqueue(connection, woken)

    def _failed(self, attempt: Attempt, error: ReviewError, called: bool = True) -> Outcome:
        telemetry.attempt_failed(error.code)
        if called and error.code not in NO_EVIDENCE:
            self.calls.add(self.gate.provider, self.gate.model, error.code == "AI_RATE_LIMITED", None)
        with self.engine.begin() as connection:
            failure = self._report_failure(connection, attempt, error, called)
            if failure is not None and not failure.counted:
                return self._give_back(connection, attempt, failure)
            return self._spend(connection, attempt, error)

    def _report_failure(self, connection: Connection, attempt: Attempt, error: ReviewError,
                        called: bool) -> Failure | None:
        """Tell the gate what the call showed: a provider failure (returned), an answer (the
        provider is up), or nothing about the provider (a probe that made no call is handed on).
        """
        if called and error.code in PROVIDER_FAILURES:
            return self.gate.record_failure(connection, error.code, error.retry_after)
        if called and error.code not in NO_EVIDENCE:
            self._provider_answered(connection)
        else:
            self.gate.hand_back_probe(connection, attempt.job_id)
        return None

    def _spend(self, connection: Connection, attempt: Attempt, error: ReviewError) -> Outcome:
        """The attempt counts: a transient failure with attempts left is retried later (the
        delayed message written with the release), anything else is stored as the outcome."""
        if not (error.transient and attempt.attempts < self.settings.max_attempts):
            return Outcome.FAILED if fenced_fail(connection, attempt, error.code) else Outcome.STALE
        if not fenced_release(connection, attempt):
            return Outcome.STALE
        delay = self.retry_delay(attempt.attempts, error.retry_after)
        self.queue.enqueue(connection, [attempt.job_id], delay)
        return Outcome.RETRY_SCHEDULED

    def _give_back(self, connection: Connection, attempt: Attempt, failure: Failure) -> Outcome:
        """The gate is shut: the attempt is returned. The call that opened it carries the next
        probe (a message delayed until it is due); every other job waits for the gate to close.
        """
        if not fenced_give_back(connection, attempt):
            return Outcome.STALE
        if failure.opened or not self.gate.park(connection, attempt.job_id):
            self.queue.enqueue(connection, [attempt.job_id], failure.wait_seconds)
        return Outcome.PAUSED

    def retry_delay(self, attempts: int, retry_after: float | None) -> float:
        """The provider's Retry-After when given, else exponential backoff with jitter (half
        fixed, half random, so concurrent failures spread out but never retry at once).
        """
        cap = self.settings.retry_max_delay
        if retry_after is not None:
            return min(max(retry_after, 0.0), cap)
        backoff: float = min(cap, self.settings.retry_base_delay * 2 ** (attempts - 1))
        return backoff / 2 + random.uniform(0, backoff / 2)
