"""A provider outage (HTTP 500) and a 429 storm, each longer than every job's retry budget,
against real worker processes, the real openai SDK and a local fake model: the breaker opens,
the backlog waits without spending attempts, and every job succeeds once the provider is back.
"""

import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from tasks.queue import DramatiqPgQueue
from tests.builders import items
from tests.fake_openai import Behaviour, FakeOpenAI, _error_body
from tests.processes import WorkerGroup, wait_for, wait_for_summary

JOBS = 20
THRESHOLD = 3
# Failed probes to sit through before recovery: with these settings that is an outage
# several times longer than a job's whole retry budget (3 attempts, 0.1 s then 0.2 s apart).
FAILED_PROBES = 4
WORKERS = {
    "LISTING_REVIEW_PROVIDER": "openai",
    "OPENAI_API_KEY": "test-key",
    "LISTING_REVIEW_WORKER_PROCESSES": "2",
    "LISTING_REVIEW_WORKER_THREADS": "2",
    "LISTING_REVIEW_RECOVERY_INTERVAL": "0.3",
    # Long enough that a loaded machine never makes a live worker's job look abandoned.
    "LISTING_REVIEW_JOB_LEASE": "5",
    "LISTING_REVIEW_RETRY_BASE_DELAY": "0.1",
    "LISTING_REVIEW_SHUTDOWN_WAIT": "1",
    "LISTING_REVIEW_BREAKER_FAILURE_THRESHOLD": str(THRESHOLD),
    "LISTING_REVIEW_BREAKER_OPEN_SECONDS": "0.3",
}


class FlakyOpenAI(FakeOpenAI):
    """The fake model with an outage switch: every request gets the failure while it is set."""

    failure: Behaviour | None = None

    def fail_every_request(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.failure = Behaviour(status, _error_body(status), headers or {})

    def recover(self) -> None:
        self.failure = None

    def _next(self, request: dict, headers: dict[str, str]) -> Behaviour:
        answer = super()._next(request, headers)
        return self.failure or answer


@pytest.fixture
def model() -> Iterator[FlakyOpenAI]:
    with FlakyOpenAI() as fake:
        yield fake


@pytest.fixture
def workers(database_url: str, model: FlakyOpenAI) -> Iterator[WorkerGroup]:
    group = WorkerGroup(database_url, **WORKERS, OPENAI_BASE_URL=model.base_url)
    yield group
    group.close()


def submit(engine: Engine) -> uuid.UUID:
    return accept_batch(engine, DramatiqPgQueue("listing-reviews"), owner="local", key="k",
                        items=items(JOBS), max_items=1000).batch_id


def gate(engine: Engine):
    with engine.connect() as conn:
        return conn.execute(text("select state, failures from provider_gates")).first()


def spent_attempts(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select sum(attempts) from review_jobs")).scalar_one()


def recovered_jobs(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select coalesce(sum(count), 0) from recovery_events "
                                 "where kind = 'stale_job'")).scalar_one()


def sit_out_the_outage_then_recover(engine: Engine, model: FlakyOpenAI, batch_id: uuid.UUID) -> None:
    """Wait until the breaker has been open through several failed probes, check nothing was
    spent meanwhile, then bring the model back and wait for the batch to complete."""
    wait_for(lambda: (row := gate(engine)) is not None
             and row.failures >= THRESHOLD + FAILED_PROBES, "failed probes", seconds=120)
    during = wait_for_summary(engine, batch_id, "the breaker holding the jobs", lambda s: s.running == 0)
    assert (during.queued, during.failed) == (JOBS, 0)
    # What the design spends: failures while the gate is closed count, and only the first
    # THRESHOLD - 1 of them leave it closed (the one reaching the threshold, and every failure
    # while open or half-open, gives its attempt back, however many calls were in flight). A
    # job whose lease ran out is presumed lost with its worker and keeps its attempt: each
    # recorded stale-job recovery may add one. No other way to spend one exists, so any
    # attempt spent while the breaker is open fails this bound.
    assert spent_attempts(engine) <= THRESHOLD - 1 + recovered_jobs(engine)
    model.recover()
    after = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
    assert (after.succeeded, after.failed) == (JOBS, 0)
    assert gate(engine).state == "closed"


def test_provider_outage_longer_than_the_retry_budget_fails_no_job(
    engine: Engine, model: FlakyOpenAI, workers: WorkerGroup
):
    model.fail_every_request(500)
    sit_out_the_outage_then_recover(engine, model, submit(engine))


def test_rate_limit_storm_longer_than_the_retry_budget_fails_no_job(
    engine: Engine, model: FlakyOpenAI, workers: WorkerGroup
):
    model.fail_every_request(429, {"Retry-After": "0.5"})
    sit_out_the_outage_then_recover(engine, model, submit(engine))
