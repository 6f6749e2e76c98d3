"""Metrics of the review pipeline, and the one log line per job attempt.

Labels are low-cardinality only (entrypoint, provider, model, outcome, reason, kind, queue,
direction). Job, batch, seller and listing ids never become labels; a job id goes to the
attempt log line instead.

Metrics are created on first use, so importing this module registers and writes nothing. In
worker processes the supervisor sets PROMETHEUS_MULTIPROC_DIR before they start, so
prometheus_client keeps each value in a per-process file there and the supervisor serves the
sum (tasks/metrics.py). Telemetry is best effort: a process killed right after a commit loses
what it had not yet recorded; PostgreSQL stays the source of truth for job outcomes.
"""

import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, ParamSpec, TypeVar

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from core.errors import IdempotencyConflict, InvalidBatchRequest
from core.listings.errors import ReviewError
from core.provider_gate.breaker import read_gates

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")
OutcomeT = TypeVar("OutcomeT", bound=Enum)

# Feature and attempt durations reach the longest model deadline worth waiting for (180 s);
# age and turnaround reach an hour of backlog.
DURATION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 60, 90, 120, 180)
AGE_BUCKETS = (0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 2700, 3600)
ATTEMPT_OUTCOMES = ("succeeded", "failed", "model_timeout", "capacity_unavailable", "rate_limited",
                    "stale", "skipped", "recoverable_failure", "paused", "throttled")
REJECTION_REASONS = ("too_large", "unreadable", "invalid_rows", "invalid_request")
RECOVERY_KINDS = ("stale_job", "orphan_message")
# Outcomes of the runner (core/jobs/execution.Outcome) whose label does not depend on an error code.
_PLAIN_OUTCOMES = {"succeeded": "succeeded", "stale": "stale", "skipped": "skipped",
                   "exhausted": "failed", "deferred": "capacity_unavailable", "paused": "paused",
                   "throttled": "throttled", "waiting_turn": "throttled",
                   "budget_exceeded": "budget_exceeded"}
_CODE_OUTCOMES = {"MODEL_TIMEOUT": "model_timeout", "AI_RATE_LIMITED": "rate_limited",
                  "MODEL_CAPACITY_UNAVAILABLE": "capacity_unavailable"}
# Runner outcomes that complete a job it claimed (a committed success or terminal model
# failure): these have a turnaround. Retries, stale writes and skips do not.
_COMPLETING_OUTCOMES = frozenset({"succeeded", "failed"})


@dataclass(frozen=True)
class _Metrics:
    feature_duration: Histogram
    attempt_duration: Histogram
    age_at_attempt_start: Histogram
    turnaround: Histogram
    batches_accepted: Counter
    items_accepted: Counter
    uploads_rejected: Counter
    replays: Counter
    conflicts: Counter
    recoveries: Counter
    model_tokens: Counter
    purged: Counter
    rate_limit_waits: Counter
    rate_limit_wait_seconds: Counter


_metrics_lock = threading.Lock()


def _metrics() -> _Metrics:
    """The metrics, created once per process (worker threads may ask at the same moment)."""
    with _metrics_lock:
        return _create_metrics()


@functools.lru_cache(maxsize=1)
def _create_metrics() -> _Metrics:
    return _Metrics(
        feature_duration=Histogram(
            "listing_review_feature_duration_seconds",
            "Time inside the shared review operation, by entrypoint (sync|job), provider and outcome.",
            ["entrypoint", "provider", "outcome"], buckets=DURATION_BUCKETS),
        attempt_duration=Histogram(
            "listing_review_job_attempt_duration_seconds",
            "One delivery of a job to a worker, claim to fenced write, by outcome.",
            ["outcome"], buckets=DURATION_BUCKETS),
        age_at_attempt_start=Histogram(
            "listing_review_job_age_at_attempt_start_seconds",
            "Submission to claim of an attempt; a recovered job includes its earlier attempts.",
            buckets=AGE_BUCKETS),
        turnaround=Histogram(
            "listing_review_job_turnaround_seconds",
            "Submission to completion of jobs a worker completed (success or model failure).",
            ["outcome"], buckets=AGE_BUCKETS),
        batches_accepted=Counter("listing_review_batches_accepted",
                                 "Batches newly accepted (replays excluded)."),
        items_accepted=Counter("listing_review_batch_items_accepted",
                               "Listings in newly accepted batches."),
        uploads_rejected=Counter("listing_review_uploads_rejected",
                                 "Catalogs and batch requests refused with nothing stored, by reason.",
                                 ["reason"]),
        replays=Counter("listing_review_idempotent_replays",
                        "Submissions answered with the batch their key already named."),
        conflicts=Counter("listing_review_idempotency_conflicts",
                          "Submissions whose key already named different listings."),
        recoveries=Counter("listing_review_recoveries",
                           "Jobs released after their heartbeat aged (stale_job) and messages "
                           "re-sent after their consumer died (orphan_message).", ["kind"]),
        model_tokens=Counter("listing_review_model_tokens",
                             "Tokens reported by the model provider, by direction (input|output).",
                             ["provider", "model", "direction"]),
        purged=Counter("listing_review_purged_rows",
                       "Rows deleted by retention: finished batches and their jobs past the "
                       "retention period, done queue messages after an hour.", ["kind"]),
        rate_limit_waits=Counter(
            "listing_review_rate_limit_waits",
            "Deliveries that waited for their provider+model's shared rate limit, no attempt spent: "
            "paced (waited in the thread for a slot due within a second) or deferred (sent again "
            "later).", ["provider", "model", "how"]),
        rate_limit_wait_seconds=Counter(
            "listing_review_rate_limit_wait_seconds",
            "Seconds deliveries waited (paced) or were put off (deferred) for the shared rate limit.",
            ["provider", "model", "how"]),
    )


def _best_effort(record: Callable[P, None]) -> Callable[P, None]:
    """Telemetry never fails what it observes: a recording error is logged (by type) and dropped."""

    @functools.wraps(record)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            record(*args, **kwargs)
        except Exception as error:
            log.warning("telemetry %s not recorded: %s", record.__name__, type(error).__name__)

    return guarded


@_best_effort
def _increment(name: str, *labels: str, amount: float = 1) -> None:
    counter = getattr(_metrics(), name)
    (counter.labels(*labels) if labels else counter).inc(amount)


# --- job attempts ------------------------------------------------------------------------

@dataclass
class _Attempt:
    """What one delivery learned on its way: attempt number, age at claim, error code."""

    job_id: uuid.UUID
    started: float = field(default_factory=time.perf_counter)
    attempt: int | None = None
    age_at_claim: float | None = None
    claimed: float | None = None
    error_code: str | None = None


_current_attempt: ContextVar[_Attempt | None] = ContextVar("listing_review_attempt", default=None)


def observe_job_attempt(job_id: uuid.UUID, deliver: Callable[[], OutcomeT]) -> OutcomeT:
    """Run one delivery of a job; record its duration and outcome and log one line for it.

    An exception (storage down, interrupted worker) is `recoverable_failure`: the job stays
    where it was and is delivered again. It is re-raised unchanged.
    """
    attempt = _Attempt(job_id)
    token = _current_attempt.set(attempt)
    try:
        outcome = deliver()
    except BaseException as error:
        _finish(attempt, "recoverable_failure", error=type(error).__name__)
        raise
    finally:
        _current_attempt.reset(token)
    runner_outcome = str(outcome.value)
    _finish(attempt, attempt_outcome(runner_outcome, attempt.error_code),
            completed=runner_outcome in _COMPLETING_OUTCOMES)
    return outcome


@_best_effort
def attempt_claimed(attempts: int, submitted_at: datetime, started_at: datetime) -> None:
    """The delivery claimed its job (the attempt starts): note its number and the job's age."""
    attempt = _current_attempt.get()
    age = max(0.0, (started_at - submitted_at).total_seconds())
    if attempt is not None:
        attempt.attempt, attempt.age_at_claim, attempt.claimed = attempts, age, time.perf_counter()
    _metrics().age_at_attempt_start.observe(age)


def attempt_failed(code: str) -> None:
    """The delivery's review failed with `code` (a bounded error code)."""
    attempt = _current_attempt.get()
    if attempt is not None:
        attempt.error_code = code


def attempt_outcome(runner_outcome: str, error_code: str | None) -> str:
    """The metric outcome of a delivery, from the runner's outcome and its error code."""
    if runner_outcome in _PLAIN_OUTCOMES:
        return _PLAIN_OUTCOMES[runner_outcome]
    if error_code in _CODE_OUTCOMES:
        return _CODE_OUTCOMES[error_code]
    return "failed" if runner_outcome == "failed" else "recoverable_failure"


def _finish(attempt: _Attempt, outcome: str, completed: bool = False,
            error: str | None = None) -> None:
    duration = time.perf_counter() - attempt.started
    _record_attempt(attempt, outcome, duration, completed)
    _log_attempt(attempt, outcome, duration, error)


@_best_effort
def _record_attempt(attempt: _Attempt, outcome: str, duration: float, completed: bool) -> None:
    metrics = _metrics()
    metrics.attempt_duration.labels(outcome).observe(duration)
    if completed and attempt.claimed is not None and attempt.age_at_claim is not None:
        since_claim = time.perf_counter() - attempt.claimed
        metrics.turnaround.labels(outcome).observe(attempt.age_at_claim + since_claim)


def _log_attempt(attempt: _Attempt, outcome: str, duration: float, error: str | None) -> None:
    fields = {"job_id": str(attempt.job_id), "attempt": attempt.attempt, "outcome": outcome,
              "code": attempt.error_code, "error": error, "duration_seconds": round(duration, 3)}
    level = logging.WARNING if outcome in ("stale", "recoverable_failure") else logging.INFO
    detail = "".join(f" {name}={fields[name]}" for name in ("code", "error") if fields[name])
    log.log(level, "job attempt job_id=%s attempt=%s outcome=%s%s duration=%.3fs", fields["job_id"],
            attempt.attempt if attempt.attempt is not None else "-", outcome, detail, duration,
            extra=fields)


# --- the review feature --------------------------------------------------------------------

@contextmanager
def observe_feature(entrypoint: str, provider: str) -> Iterator[None]:
    """Time one review; its outcome is `succeeded` or the lower-case error code it raised."""
    started = time.perf_counter()
    outcome = "review_failed"
    try:
        yield
        outcome = "succeeded"
    except ReviewError as error:
        outcome = error.code.lower()
        raise
    finally:
        _record_feature(entrypoint, provider, outcome, time.perf_counter() - started)


@_best_effort
def _record_feature(entrypoint: str, provider: str, outcome: str, seconds: float) -> None:
    _metrics().feature_duration.labels(entrypoint, provider, outcome).observe(seconds)


def count_model_tokens(provider: str, model: str, input_tokens: int | None,
                       output_tokens: int | None) -> None:
    """Add the tokens a provider reported (providers that report none add nothing)."""
    for direction, tokens in (("input", input_tokens), ("output", output_tokens)):
        if tokens:
            _increment("model_tokens", provider, model, direction, amount=tokens)


def rate_limit_waited(provider: str, model: str, how: str, seconds: float) -> None:
    """A delivery waited `seconds` for a call slot: `paced` or `deferred` (rate_limits.py)."""
    _increment("rate_limit_waits", provider, model, how)
    _increment("rate_limit_wait_seconds", provider, model, how, amount=seconds)


# --- acceptance and recovery ---------------------------------------------------------------

def counts_acceptance(accept: Callable[P, R]) -> Callable[P, R]:
    """Decorate accept_batch: count new batches and their items, replays, conflicts and invalid
    requests. The decorated function returns an object with `created` and `summary.total`.
    """

    @functools.wraps(accept)
    def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            accepted = accept(*args, **kwargs)
        except IdempotencyConflict:
            _increment("conflicts")
            raise
        except InvalidBatchRequest:
            _increment("uploads_rejected", "invalid_request")
            raise
        _count_accepted(accepted)
        return accepted

    return counted


def _count_accepted(accepted: Any) -> None:
    """`accepted` is an Acceptance, typed Any because core.batches imports this module."""
    if accepted.created:
        _increment("batches_accepted")
        _increment("items_accepted", amount=accepted.summary.total)
    else:
        _increment("replays")


def count_rejected_catalog(size: int, max_bytes: int, file_format: str | None) -> None:
    """A catalog refused before acceptance: too large, unreadable (no format), or invalid rows."""
    reason = "too_large" if size > max_bytes else "invalid_rows" if file_format else "unreadable"
    _increment("uploads_rejected", reason)


def count_recoveries(kind: str, count: int) -> None:
    """`count` jobs (stale_job) or messages (orphan_message) given back to the queue."""
    if count:
        _increment("recoveries", kind, amount=count)


@_best_effort
def count_purged(kind: str, count: int) -> None:
    """`count` rows of `kind` (batches, jobs, messages) deleted by retention."""
    if count:
        _increment("purged", kind, amount=count)


# --- backlog (read from PostgreSQL at scrape time) -----------------------------------------

# One statement over the partial index on unfinished jobs; delayed retries count as queued.
BACKLOG = text("""
select count(*) filter (where status = 'QUEUED') as queued,
  count(*) filter (where status = 'RUNNING') as running,
  coalesce(extract(epoch from current_timestamp
    - min(submitted_at) filter (where status = 'QUEUED')), 0)::float8 as oldest_queued_age
from review_jobs where status in ('QUEUED', 'RUNNING')
""")


class BacklogCollector(Collector):
    """Queue depth, running jobs and the oldest queued job's age, read when scraped.

    Served by the worker supervisor only (one reader per deployment of workers, not per
    process). When the database cannot be read the gauges are left out of that scrape.
    """

    def __init__(self, engine: Engine, queue_name: str) -> None:
        self.engine = engine
        self.queue_name = queue_name

    def describe(self) -> list[GaugeMetricFamily]:
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            with self.engine.connect() as connection:
                row = connection.execute(BACKLOG).one()
        except SQLAlchemyError as error:
            log.warning("backlog metrics unavailable: %s", type(error).__name__)
            return
        for name, documentation, value in (
            ("listing_review_queue_depth", "Jobs waiting to be run (QUEUED).", row.queued),
            ("listing_review_jobs_running", "Jobs being run (RUNNING).", row.running),
            ("listing_review_oldest_queued_job_age_seconds",
             "Age of the oldest QUEUED job since submission (0 when none).", row.oldest_queued_age),
        ):
            family = GaugeMetricFamily(name, documentation, labels=["queue"])
            family.add_metric([self.queue_name], float(value))
            yield family


# --- provider gates (read from PostgreSQL at scrape time) -----------------------------------

GATE_STATE_VALUES = {"closed": 0, "half_open": 1, "open": 2}


class ProviderGateCollector(Collector):
    """Each provider+model's circuit breaker (0 closed, 1 half-open, 2 open) and the jobs
    waiting for it, read when scraped; a gate that never failed has no series yet. Served by
    the worker supervisor; left out of a scrape when the database cannot be read.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def describe(self) -> list[GaugeMetricFamily]:
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            with self.engine.connect() as connection:
                gates = read_gates(connection)
        except SQLAlchemyError as error:
            log.warning("provider gate metrics unavailable: %s", type(error).__name__)
            return
        state = GaugeMetricFamily("listing_review_provider_breaker_state",
                                  "Circuit breaker per provider and model: 0 closed, 1 half-open, 2 open.",
                                  labels=["provider", "model"])
        waiting = GaugeMetricFamily("listing_review_provider_breaker_waiting_jobs",
                                    "QUEUED jobs waiting (no attempt spent) for the breaker to close.",
                                    labels=["provider", "model"])
        for gate in gates:
            state.add_metric([gate.provider, gate.model], GATE_STATE_VALUES[gate.state])
            waiting.add_metric([gate.provider, gate.model], gate.waiting_jobs)
        yield state
        yield waiting


# --- exposition ---------------------------------------------------------------------------

def serve_metrics(port: int, host: str, registry: CollectorRegistry = REGISTRY) -> Any | None:
    """Serve `registry` on `host` (LISTING_REVIEW_METRICS_HOST: loopback unless exposed on
    purpose) at `port`; None (and a warning) if the port is taken or the host cannot be bound,
    because metrics must never stop a worker or the UI from running.
    """
    try:
        server, _thread = start_http_server(port, addr=host, registry=registry)
    except OSError as error:
        log.warning("metrics not served: %s port %d unavailable (%s)", host, port, error.strerror)
        return None
    log.info("metrics on %s port %d", host, port)
    return server
