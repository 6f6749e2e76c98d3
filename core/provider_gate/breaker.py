"""The provider gate: one circuit breaker per provider+model, its state in PostgreSQL so every
worker process on every host obeys the same one, consulted before a job is claimed.

closed -> open after `failure_threshold` consecutive provider failures (unavailable, timed out
or rate limited); it stays shut for `open_seconds`, or the provider's Retry-After if longer.
open -> half_open when the pause is over and one delivery takes the probe; half_open ->
closed on any answer, -> open again on a failure. Jobs that find the gate shut wait in
provider_gate_waits (QUEUED, no message, no attempt spent) and are all sent again the moment it
closes, so nothing polls while the provider is down. A call whose failure leaves the gate shut
(it opened it, or the gate was already open) gives its attempt back: attempts count only
while the provider is believed healthy.

A provider+model with a rate limit (rate_limits.py) also has a bucket the gate reserves call
slots from; a 429 with Retry-After there opens the gate at once, pausing every worker for the
time the provider asked (the limit was meant to prevent it, so the provider's view wins).

Each worker process remembers, for HEALTHY_SECONDS, that its last admission found the gate
closed (HealthyGate): while it does, a delivery on a provider+model without a rate limit is
claimed without asking the gate (core/jobs/execution.py), one statement less per item. What
that costs: a gate another process opens is obeyed here up to HEALTHY_SECONDS late, so for at
most that long this process's calls still go to the failing provider; each such failure finds
the gate open, so its attempt is given back as when it was opened by this process's own call,
and forgets the memory (the next delivery asks the gate). A gate half-open for its probe may see
such a late answer close it, as any call sent just before it opened could already.

Functions take the caller's connection and never commit.
"""

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from functools import cache
from typing import cast

from sqlalchemy import Connection, TextClause, text

from core.provider_gate import rate_limits
from core.provider_gate.rate_limits import RateLimit, Slot
from core.settings import PROVIDERS, Settings
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
# Failures that say the provider is down or overloaded, by the reason the gate shows.
PROVIDER_FAILURES = {"AI_PROVIDER_UNAVAILABLE": "unavailable", "MODEL_TIMEOUT": "unavailable",
                     "AI_RATE_LIMITED": "rate_limited"}
# Failures of our own (no free model thread): no evidence either way about the provider.
NO_EVIDENCE = frozenset({"MODEL_CAPACITY_UNAVAILABLE"})
# A probe's result is written right after its call, which ModelSlots ends at the model deadline.
PROBE_LEASE_MARGIN_SECONDS = 5.0
# How long a process trusts that the gate it last found closed still is (module docstring).
HEALTHY_SECONDS = 1.0


class Verdict(str, Enum):
    PASS = "pass"
    PROBE = "probe"
    WAIT = "wait"


@dataclass(frozen=True)
class GatePolicy:
    failure_threshold: int
    open_seconds: float
    max_pause: float
    probe_lease: float

    @classmethod
    def from_settings(cls, settings: Settings) -> "GatePolicy":
        return cls(settings.breaker_failure_threshold, settings.breaker_open_seconds,
                   settings.retry_max_delay, settings.model_timeout + PROBE_LEASE_MARGIN_SECONDS)

    def pause(self, retry_after: float | None) -> float:
        """How long an opening gate stays shut: the provider's Retry-After when longer than
        `open_seconds`, capped like every retry delay."""
        return max(self.open_seconds, min(retry_after or 0.0, self.max_pause))


@dataclass(frozen=True)
class Failure:
    """What a provider failure did to the gate. `counted`: the gate is still closed, the
    provider was believed healthy and the attempt is spent. `opened`: this call opened it, so
    its job carries the next probe, sent again after `wait_seconds`."""

    counted: bool
    opened: bool
    wait_seconds: float


@dataclass(frozen=True)
class GateState:
    """One gate as operators see it; `next_probe_in_seconds` is 0 when closed or due."""

    provider: str
    model: str
    state: str
    failures: int
    reason: str | None
    opened_at: datetime | None
    next_probe_in_seconds: float
    waiting_jobs: int


class HealthyGate:
    """Until when this process takes the gate for closed without asking (thread-safe)."""

    def __init__(self, seconds: float = HEALTHY_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self._lock = threading.Lock()
        self._until, self._forgotten_at = 0.0, float("-inf")

    def fresh(self) -> bool:
        with self._lock:
            return self.clock() < self._until

    def seen(self, verdict: "Verdict", asked_at: float) -> None:
        """What an admission asked at `asked_at` (the clock) found. A PASS is remembered unless
        the memory was forgotten after it was asked (a failure seen meanwhile wins)."""
        with self._lock:
            if verdict is not Verdict.PASS:
                self._until = 0.0
            elif asked_at >= self._forgotten_at:
                self._until = asked_at + self.seconds

    def forget(self) -> None:
        with self._lock:
            self._until, self._forgotten_at = 0.0, self.clock()


@dataclass(frozen=True)
class ProviderGate:
    """The gate of the provider+model a worker process calls, with its rate limit if any, and
    this process's memory of having found it closed."""

    provider: str
    model: str
    policy: GatePolicy
    limit: RateLimit | None = None
    healthy: HealthyGate = field(default_factory=HealthyGate, compare=False)

    @classmethod
    def for_provider(cls, provider: str, model: str, settings: Settings) -> "ProviderGate":
        limit = rate_limits.rate_limit_for(settings.rate_limits, PROVIDERS, provider, model)
        return cls(provider, model, GatePolicy.from_settings(settings), limit)

    def _key(self, **params: object) -> dict[str, object]:
        return {"provider": self.provider, "model": self.model, **params}

    def admit(self, connection: Connection, job_id: uuid.UUID) -> Verdict:
        """PASS (closed), PROBE (this job is the one call let through) or WAIT."""
        params = self._key(job_id=job_id, probe_lease=self.policy.probe_lease)
        asked_at = self.healthy.clock()
        verdict = Verdict(connection.execute(QUERIES["admit"], params).scalar_one())
        self.healthy.seen(verdict, asked_at)
        return verdict

    def known_closed(self) -> bool:
        """This process may claim without asking: not rate-limited, and it found the gate closed
        less than HEALTHY_SECONDS ago with no provider failure seen since."""
        return self.limit is None and self.healthy.fresh()

    def park(self, connection: Connection, job_id: uuid.UUID) -> bool:
        """Make a QUEUED job wait for the gate; False if it closed meanwhile (claim instead)."""
        params = self._key(job_id=job_id)
        return cast(int, connection.execute(QUERIES["park_job"], params).scalar_one()) > 0

    def hand_back_probe(self, connection: Connection, job_id: uuid.UUID) -> None:
        """If `job_id` holds the probe but made no call, let the next delivery probe now."""
        connection.execute(QUERIES["hand_back_probe"], self._key(job_id=job_id))

    def record_failure(self, connection: Connection, code: str, retry_after: float | None) -> Failure:
        """Count a provider failure (`code` in PROVIDER_FAILURES) against the gate."""
        self.healthy.forget()
        connection.execute(QUERIES["ensure_gate"], self._key())
        params = self._key(threshold=self._threshold(code, retry_after), reason=PROVIDER_FAILURES[code],
                           pause=self.policy.pause(retry_after), extend=retry_after is not None)
        row = connection.execute(QUERIES["record_failure"], params).one()
        return Failure(counted=row.state == "closed", opened=row.was != "open" and row.state == "open",
                       wait_seconds=row.wait_seconds)

    def _threshold(self, code: str, retry_after: float | None) -> int:
        """Failures that open the gate: one 429 with Retry-After on a rate-limited provider."""
        told_to_wait = code == "AI_RATE_LIMITED" and retry_after is not None
        return 1 if self.limit is not None and told_to_wait else self.policy.failure_threshold

    def reserve(self, connection: Connection, job_id: uuid.UUID) -> Slot | None:
        """A call slot for `job_id` (rate_limits.reserve_call); None when not rate-limited."""
        if self.limit is None:
            return None
        return rate_limits.reserve_call(connection, self.provider, self.model, self.limit, job_id)

    def refund(self, connection: Connection, slot: Slot | None) -> None:
        """The reserved call will not be made (its job could not be claimed)."""
        if self.limit is not None and slot is not None and slot.reserved:
            rate_limits.refund_call(connection, self.provider, self.model, self.limit, slot)

    def charge_tokens(self, connection: Connection, slot: Slot | None, reported_tokens: int | None) -> None:
        """A call was made: charge its reported tokens instead of the estimate (the call itself
        is counted by the process's CallTally, outside any transaction)."""
        if self.limit is not None and slot is not None and reported_tokens is not None:
            rate_limits.reconcile_tokens(connection, self.provider, self.model, self.limit,
                                         slot.tokens, reported_tokens)

    def record_answer(self, connection: Connection) -> list[uuid.UUID]:
        """The provider answered: close the gate if it may close, and return the waiting jobs
        the caller must send again (none when the gate was already healthy)."""
        if connection.execute(QUERIES["record_answer"], self._key()).first() is None:
            return []
        return self.waiters(connection)

    def waiters(self, connection: Connection) -> list[uuid.UUID]:
        """The gate closed: the jobs that waited for it, to send again (no longer waiting)."""
        return list(connection.execute(QUERIES["wake_gate_waiters"], self._key()).scalars())

    def record_answer_with(self, connection: Connection, write: TextClause,
                           params: dict[str, object]) -> tuple[bool, bool]:
        """record_answer and one job write (`write`, returning a row when it wrote) in a single
        statement, the gate's row taken first as in every transaction: (the gate closed, the
        job was written). The caller wakes the waiters (`waiters`) when it closed."""
        row = connection.execute(_answered_with(write.text), self._key(**params)).one()
        return row.answered > 0, row.written > 0


@cache
def _answered_with(write: str) -> TextClause:
    """record_answer, then `write`, as one statement. Modifying CTEs run when first read: the
    select list reads `answered` first, so the gate's row is locked before the job's."""
    return text(f"with answered as ({QUERIES['record_answer'].text}), written as ({write}) "
                "select (select count(*) from answered) as answered, "
                "(select count(*) from written) as written")


def stranded_waiters(connection: Connection, grace_seconds: float) -> list[uuid.UUID]:
    """Waiting jobs to send again because their gate is closed, plus one per gate whose probe
    is overdue by `grace_seconds`; they are no longer waiting when this returns."""
    return list(connection.execute(QUERIES["wake_stranded_waiters"],
                                   {"grace": grace_seconds}).scalars())


def read_gates(connection: Connection) -> list[GateState]:
    """Every gate that ever saw a failure, with its waiting jobs."""
    return [GateState(**row._mapping) for row in connection.execute(QUERIES["gate_states"])]
