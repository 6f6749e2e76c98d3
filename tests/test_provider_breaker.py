"""The provider gate (one circuit breaker per provider+model, state in PostgreSQL) driven through
the job runner against real PostgreSQL, with scripted providers standing in for the model.

Time never passes in these tests: a due probe is made due by moving `next_probe_at` into the
past, the way the clock would.
"""

import dataclasses
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError
from streamlit.testing.v1 import AppTest

from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.model_slots import ModelSlots
from core.jobs.standalone import submit_job
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer
from core.listings.review import ListingReview
from core.operations.stats import operations_snapshot
from core.provider_gate.breaker import HEALTHY_SECONDS, GatePolicy, HealthyGate, ProviderGate, Verdict
from core.provider_gate.maintenance import send_stranded_waiters
from core.settings import Settings
from core.telemetry import ProviderGateCollector
from tasks.queue import DramatiqPgQueue
from tests.builders import draft
from tests.processes import wait_for

QUEUE = DramatiqPgQueue("listing-reviews")
GOOD = ListingReview(quality_score=88, missing_fields=[], issues=[], suggestions=[],
                     requires_human_review=False)


class SwitchableProvider:
    """The model: answers, or raises the ReviewError `failure` builds while one is set."""

    name, model, prompt_version = "scripted", "test-model", "test-v1"

    def __init__(self) -> None:
        self.failure: Callable[[], ReviewError] | None = None
        self.calls = 0

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        self.calls += 1
        if self.failure is not None:
            raise self.failure()
        return ProviderAnswer(GOOD)


def runner(engine: Engine, provider: SwitchableProvider, *, threshold: int = 3,
           max_attempts: int = 3) -> JobRunner:
    """One worker process's runner; several share the gate through the database only."""
    settings = Settings(database_url="postgresql://unused", model_timeout=5,
                        max_attempts=max_attempts, breaker_failure_threshold=threshold,
                        breaker_open_seconds=30)
    return JobRunner(engine, QUEUE, provider, ModelSlots(2, 5), settings, InFlight())


def new_jobs(engine: Engine, count: int) -> list[uuid.UUID]:
    return [submit_job(engine, QUEUE, owner="local", key=str(uuid.uuid4()), draft=draft())[1].job_id
            for _ in range(count)]


def one(engine: Engine, sql: str, **params):
    with engine.connect() as conn:
        return conn.execute(text(sql), params).one()


def gate_row(engine: Engine):
    return one(engine, "select * from provider_gates where provider = 'scripted'")


def jobs(engine: Engine, job_ids: list[uuid.UUID]) -> list[tuple[str, int]]:
    with engine.connect() as conn:
        rows = {row.id: (row.status, row.attempts)
                for row in conn.execute(text("select id, status, attempts from review_jobs"))}
    return [rows[job_id] for job_id in job_ids]


def waiting(engine: Engine) -> set[uuid.UUID]:
    with engine.connect() as conn:
        return set(conn.execute(text("select job_id from provider_gate_waits")).scalars())


def pending_messages(engine: Engine, job_id: uuid.UUID) -> list[dict]:
    """Messages not yet handled for the job (the runner is called directly: nothing acks)."""
    with engine.connect() as conn:
        return list(conn.execute(text(
            "select message from dramatiq.queue where message->'args'->>0 = :id "
            "and state = 'queued' order by mtime"), {"id": str(job_id)}).scalars())


def make_probe_due(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("update provider_gates set next_probe_at = current_timestamp "
                          "- interval '1 second' where state <> 'closed'"))


def unavailable() -> ReviewError:
    return ReviewError("AI_PROVIDER_UNAVAILABLE")


def open_the_gate(engine: Engine, provider: SwitchableProvider, count: int = 6) -> list[uuid.UUID]:
    """Three failures open the gate (threshold 3); returns the jobs, the first three tried."""
    job_ids = new_jobs(engine, count)
    provider.failure = unavailable
    for job_id in job_ids[:3]:
        runner(engine, provider).execute(job_id)
    return job_ids


def test_breaker_opens_after_the_threshold_and_pauses_claims_with_no_attempt_spent(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    gate = gate_row(engine)
    assert (gate.state, gate.failures, gate.reason) == ("open", 3, "unavailable")
    # The first two failures were while the provider was believed healthy: they count. The
    # third opened the gate: its attempt is given back and it carries the next probe.
    assert jobs(engine, job_ids[:3]) == [("QUEUED", 1), ("QUEUED", 1), ("QUEUED", 0)]
    [carrier] = pending_messages(engine, job_ids[2])[-1:]
    assert carrier["queue_name"] == "listing-reviews.DQ"
    assert carrier["options"]["eta"] - carrier["message_timestamp"] == 30_000
    # Another worker process delivering the rest makes no call and spends nothing.
    other = runner(engine, provider)
    assert [other.execute(job_id) for job_id in job_ids[3:]] == [Outcome.PAUSED] * 3
    assert provider.calls == 3
    assert jobs(engine, job_ids[3:]) == [("QUEUED", 0)] * 3
    assert waiting(engine) == set(job_ids[3:])


def test_failure_that_opens_the_gate_on_a_last_attempt_is_not_terminal(engine: Engine):
    provider = SwitchableProvider()
    provider.failure = unavailable
    [job_id] = new_jobs(engine, 1)
    assert runner(engine, provider, threshold=1, max_attempts=1).execute(job_id) is Outcome.PAUSED
    assert jobs(engine, [job_id]) == [("QUEUED", 0)]


def test_due_probe_lets_exactly_one_call_through(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    make_probe_due(engine)
    gate = ProviderGate("scripted", "test-model", GatePolicy(3, 30, 60, 10))
    with engine.begin() as conn:
        assert gate.admit(conn, job_ids[3]) is Verdict.PROBE
    with engine.begin() as conn:
        assert gate.admit(conn, job_ids[4]) is Verdict.WAIT
    row = gate_row(engine)
    assert (row.state, row.probe_job_id) == ("half_open", job_ids[3])


def test_probing_job_delivered_again_after_its_worker_died_probes_again(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    make_probe_due(engine)
    gate = ProviderGate("scripted", "test-model", GatePolicy(3, 30, 60, 600))
    for job_id, verdict in ((job_ids[3], Verdict.PROBE), (job_ids[4], Verdict.WAIT),
                            (job_ids[3], Verdict.PROBE)):
        with engine.begin() as conn:
            assert gate.admit(conn, job_id) is verdict


def test_successful_probe_closes_the_gate_and_sends_every_waiting_job(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    for job_id in job_ids[3:]:
        runner(engine, provider).execute(job_id)
    make_probe_due(engine)
    provider.failure = None
    assert runner(engine, provider).execute(job_ids[2]) is Outcome.SUCCEEDED
    gate = gate_row(engine)
    assert (gate.state, gate.failures, gate.next_probe_at) == ("closed", 0, None)
    assert waiting(engine) == set()
    assert all(len(pending_messages(engine, job_id)) == 2 for job_id in job_ids[3:])
    assert [runner(engine, provider).execute(job_id) for job_id in job_ids[3:]] == [
        Outcome.SUCCEEDED] * 3
    assert jobs(engine, job_ids[3:]) == [("SUCCEEDED", 1)] * 3


def test_failed_probe_reopens_the_gate_and_gives_its_attempt_back(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    make_probe_due(engine)
    assert runner(engine, provider).execute(job_ids[3]) is Outcome.PAUSED
    gate = gate_row(engine)
    assert (gate.state, gate.failures, gate.probe_job_id) == ("open", 4, None)
    assert jobs(engine, [job_ids[3]]) == [("QUEUED", 0)]
    assert len(pending_messages(engine, job_ids[3])) == 2  # it carries the next probe


def waits_on_a_lock(engine: Engine, conn: Connection) -> Callable[[], bool]:
    pid = conn.execute(text("select pg_backend_pid()")).scalar_one()
    conn.commit()
    return lambda: one(engine, "select wait_event_type = 'Lock' as waits from pg_stat_activity "
                               "where pid = :pid", pid=pid).waits


def queued_on_the_gate(engine: Engine, pool: ThreadPoolExecutor, step: Callable[[Connection], object],
                       what: str) -> Future:
    """Run `step` in its own transaction on another thread; return once it waits for the gate."""
    conn = engine.connect()
    waiting_for_lock = waits_on_a_lock(engine, conn)

    def run() -> object:
        with conn, conn.begin():
            return step(conn)

    future = pool.submit(run)
    wait_for(lambda: waiting_for_lock() or future.done(), what)
    return future


def test_failure_queued_behind_a_probe_and_a_late_answer_writes_a_consistent_gate(engine: Engine):
    """Seen under load: worker A takes the due probe; worker B's late answer and then worker
    C's failure queue on the gate's row lock. C's write decided from the row B closed but kept
    A's columns (a check violation). Each step is an explicit transaction; none sleeps."""
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    make_probe_due(engine)
    gates = [runner(engine, provider).gate for _ in range(3)]
    with ThreadPoolExecutor(2) as pool, engine.connect() as probe_conn:
        with probe_conn.begin():
            assert gates[0].admit(probe_conn, job_ids[3]) is Verdict.PROBE
            answer = queued_on_the_gate(engine, pool, gates[1].record_answer, "B's answer to wait")
            failure = queued_on_the_gate(engine, pool, lambda conn: gates[2].record_failure(
                conn, "AI_PROVIDER_UNAVAILABLE", None), "C's failure to wait")
        assert answer.result() == []
        assert failure.result().counted
    gate = gate_row(engine)
    assert (gate.state, gate.failures, gate.opened_at, gate.next_probe_at) == ("closed", 1, None, None)


def test_probe_that_makes_no_call_hands_the_probe_on(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set status = 'CANCELLED', "
                          "completed_at = current_timestamp where id = :id"), {"id": job_ids[3]})
    make_probe_due(engine)
    assert runner(engine, provider).execute(job_ids[3]) is Outcome.SKIPPED
    gate = gate_row(engine)
    assert gate.state == "open" and gate.probe_job_id is None
    provider.failure = None
    assert runner(engine, provider).execute(job_ids[4]) is Outcome.SUCCEEDED
    assert gate_row(engine).state == "closed"


def test_retry_after_pause_holds_every_worker_and_a_late_answer_does_not_cut_it(engine: Engine):
    provider = SwitchableProvider()
    provider.failure = lambda: ReviewError("AI_RATE_LIMITED", retry_after=45)
    job_ids = new_jobs(engine, 3)
    assert runner(engine, provider, threshold=1).execute(job_ids[0]) is Outcome.PAUSED
    gate = one(engine, "select state, reason, extract(epoch from next_probe_at - updated_at) "
                       "as pause from provider_gates")
    assert (gate.state, gate.reason, gate.pause) == ("open", "rate_limited", 45)
    # An answer to a call sent before the pause (another worker) leaves it in force...
    provider.failure = None
    with engine.begin() as conn:
        assert runner(engine, provider).gate.record_answer(conn) == []
    # ...and a delivery in another worker process during the pause spends nothing.
    assert runner(engine, provider, threshold=1).execute(job_ids[1]) is Outcome.PAUSED
    assert (provider.calls, gate_row(engine).state) == (1, "open")
    assert jobs(engine, job_ids) == [("QUEUED", 0)] * 3


def test_a_retry_after_while_open_only_lengthens_the_pause(engine: Engine):
    provider = SwitchableProvider()
    open_the_gate(engine, provider)
    gate = ProviderGate("scripted", "test-model", GatePolicy(3, 30, 3600, 10))
    with engine.begin() as conn:
        before = gate_row(engine).next_probe_at
        assert gate.record_failure(conn, "AI_RATE_LIMITED", 1).wait_seconds > 25
        assert gate.record_failure(conn, "AI_RATE_LIMITED", 600).wait_seconds == 600
    assert gate_row(engine).next_probe_at > before


def test_answers_reset_the_consecutive_failure_count(engine: Engine):
    provider = SwitchableProvider()
    job_ids = new_jobs(engine, 5)
    for index, job_id in enumerate(job_ids):
        provider.failure = None if index == 2 else unavailable
        runner(engine, provider).execute(job_id)
    assert (gate_row(engine).state, gate_row(engine).failures) == ("closed", 2)


def test_maintenance_sends_one_job_per_overdue_probe_and_all_jobs_of_a_closed_gate(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    for job_id in job_ids[3:]:
        runner(engine, provider).execute(job_id)
    assert send_stranded_waiters(engine, QUEUE, grace_seconds=0) == 0
    make_probe_due(engine)
    assert send_stranded_waiters(engine, QUEUE, grace_seconds=0) == 1
    assert waiting(engine) == set(job_ids[4:])
    with engine.begin() as conn:
        conn.execute(text("update provider_gates set state = 'closed', reason = null, "
                          "opened_at = null, next_probe_at = null"))
    assert send_stranded_waiters(engine, QUEUE, grace_seconds=0) == 2
    assert waiting(engine) == set()


def test_breaker_state_is_on_the_operations_snapshot_and_a_metric(engine: Engine):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    runner(engine, provider).execute(job_ids[3])
    [gate] = operations_snapshot(engine).provider_gates
    assert (gate.provider, gate.model, gate.state, gate.waiting_jobs) == (
        "scripted", "test-model", "open", 1)
    samples = {(family.name, sample.labels["model"]): sample.value
               for family in ProviderGateCollector(engine).collect() for sample in family.samples}
    assert samples == {("listing_review_provider_breaker_state", "test-model"): 2,
                       ("listing_review_provider_breaker_waiting_jobs", "test-model"): 1}


BAD_GATES = {
    "unknown state": "state = 'broken'",
    "negative failures": "failures = -1",
    "open without a next probe": "state = 'open', reason = 'unavailable', opened_at = now()",
    "half open without a probe job": "state = 'half_open', reason = 'unavailable', "
                                     "opened_at = now(), next_probe_at = now()",
    "closed with a reason": "reason = 'unavailable'",
    "closed with a next probe": "next_probe_at = now()",
    "unknown reason": "state = 'open', reason = 'sunspots', opened_at = now(), next_probe_at = now()",
    "empty provider": "provider = ''",
}


@pytest.mark.parametrize("change", BAD_GATES.values(), ids=BAD_GATES.keys())
def test_gate_constraints_reject_a_bad_row(engine: Engine, change: str):
    with engine.begin() as conn:
        conn.execute(text("insert into provider_gates (provider, model) values ('p', 'm')"))
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text(f"update provider_gates set {change}"))


def test_a_job_cannot_wait_on_a_gate_that_does_not_exist(engine: Engine):
    [job_id] = new_jobs(engine, 1)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text("insert into provider_gate_waits (job_id, provider, model) "
                          "values (:id, 'nobody', 'nothing')"), {"id": job_id})


@pytest.fixture
def operations_page(database_url: str, monkeypatch) -> Iterator[AppTest]:
    from core.settings import get_settings
    from ui.services import runtime

    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    runtime.clear()
    app = AppTest.from_file(str(Path(__file__).parent.parent / "ui" / "app.py"), default_timeout=30)
    yield app.run().switch_page("views/operations.py")
    get_settings.cache_clear()
    runtime.clear()


def test_operations_page_shows_each_breaker_with_its_waiting_jobs(engine: Engine, operations_page: AppTest):
    provider = SwitchableProvider()
    job_ids = open_the_gate(engine, provider)
    runner(engine, provider).execute(job_ids[3])
    operations_page.run()
    assert not operations_page.exception
    [breakers] = [frame.value for frame in operations_page.dataframe]
    assert breakers[["provider", "model", "state", "reason", "consecutive failures", "waiting jobs"]
                    ].to_dict("records") == [{"provider": "scripted", "model": "test-model", "state": "open",
                                              "reason": "unavailable", "consecutive failures": 3,
                                              "waiting jobs": 1}]


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def process_on(engine: Engine, provider: SwitchableProvider, clock: Clock) -> JobRunner:
    """A worker process whose memory of a closed gate runs on `clock`."""
    process = runner(engine, provider)
    process.gate = dataclasses.replace(process.gate, healthy=HealthyGate(clock=clock))
    return process


def test_a_gate_another_process_opens_costs_no_attempt_inside_healthy_seconds(engine: Engine):
    # Given a process that has just found the gate closed (so it claims without asking)
    provider, first, second, third = SwitchableProvider(), *new_jobs(engine, 3)
    process = process_on(engine, provider, Clock())
    assert process.execute(first) is Outcome.SUCCEEDED
    # When another process opens the gate, and this one's next call fails
    open_the_gate(engine, SwitchableProvider())
    provider.failure = unavailable
    # Then that call, made inside HEALTHY_SECONDS, spends no attempt and its job waits
    assert process.execute(second) is Outcome.PAUSED
    assert provider.calls == 2 and jobs(engine, [second]) == [("QUEUED", 0)]
    # and the failure made the process ask the gate again: the next job waits without a call
    assert process.execute(third) is Outcome.PAUSED
    assert provider.calls == 2 and {second, third} <= waiting(engine)


def test_after_healthy_seconds_a_process_asks_the_gate_before_claiming(engine: Engine):
    # Given a process that found the gate closed, and another process that then opened it
    clock, provider, first, second = Clock(), SwitchableProvider(), *new_jobs(engine, 2)
    process = process_on(engine, provider, clock)
    assert process.execute(first) is Outcome.SUCCEEDED
    open_the_gate(engine, SwitchableProvider())
    # When HEALTHY_SECONDS have passed on the process's clock
    clock.now += HEALTHY_SECONDS
    # Then its next delivery asks the gate and waits, with no call and no attempt
    assert process.execute(second) is Outcome.PAUSED
    assert provider.calls == 1 and jobs(engine, [second]) == [("QUEUED", 0)]
    assert second in waiting(engine)
