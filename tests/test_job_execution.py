"""One job attempt in-process, against real PostgreSQL, with scripted test providers."""

import threading
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import OperationalError

from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import claim_job
from core.jobs.model_slots import ModelSlots
from core.jobs.recovery import recover_stale_jobs
from core.jobs.standalone import submit_job
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer
from core.listings.review import ListingReview
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.builders import draft
from tests.processes import server_up_for, wait_for

QUEUE = DramatiqPgQueue("listing-reviews")
GOOD = ListingReview(quality_score=88, missing_fields=[], issues=[], suggestions=[],
                     requires_human_review=False)


class ScriptedProvider:
    """Runs `behaviour` on each call (the model thread) and counts calls."""

    name, model, prompt_version = "scripted", "test-model", "test-v1"

    def __init__(self, behaviour: Callable[[], ProviderAnswer] | None = None) -> None:
        self.behaviour = behaviour or (lambda: ProviderAnswer(GOOD, 10, 5))
        self.calls = 0

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        self.calls += 1
        return self.behaviour()


def runner(engine: Engine, provider, *, timeout: float = 5.0, max_attempts: int = 3) -> JobRunner:
    settings = Settings(database_url="postgresql://unused", model_timeout=timeout,
                        max_attempts=max_attempts)
    return JobRunner(engine, QUEUE, provider, ModelSlots(2, timeout), settings, InFlight())


def new_job(engine: Engine) -> uuid.UUID:
    return submit_job(engine, QUEUE, owner="local", key=str(uuid.uuid4()), draft=draft())[1].job_id


def job(engine: Engine, job_id: uuid.UUID):
    with engine.connect() as conn:
        return conn.execute(text("select * from review_jobs where id = :id"), {"id": job_id}).one()


def delayed_messages(engine: Engine) -> list[dict]:
    with engine.connect() as conn:
        return list(conn.execute(text(
            "select message from dramatiq.queue where queue_name = 'listing-reviews.DQ'")).scalars())


def test_success_stores_review_provider_model_prompt_version_and_tokens(engine: Engine):
    job_id = new_job(engine)
    assert runner(engine, ScriptedProvider()).execute(job_id) is Outcome.SUCCEEDED
    result = job(engine, job_id).result
    assert result["qualityScore"] == 88 and result["provider"] == "scripted"
    assert (result["model"], result["promptVersion"]) == ("test-model", "test-v1")
    assert result["usage"] == {"inputTokens": 10, "outputTokens": 5}


def test_no_transaction_is_open_anywhere_during_the_model_call(engine: Engine, database_url: str):
    open_transactions: list[int] = []

    def look() -> ProviderAnswer:
        with psycopg.connect(database_url, autocommit=True) as conn:
            open_transactions.append(conn.execute(
                "select count(*) from pg_stat_activity where datname = current_database() "
                "and pid <> pg_backend_pid() and xact_start is not null").fetchone()[0])
        return ProviderAnswer(GOOD)

    job_id = new_job(engine)
    assert runner(engine, ScriptedProvider(look)).execute(job_id) is Outcome.SUCCEEDED
    assert open_transactions == [0]


def test_invalid_output_is_stored_as_a_safe_terminal_error(engine: Engine):
    def invalid() -> ProviderAnswer:
        raise ReviewError("AI_RESPONSE_INVALID")

    job_id = new_job(engine)
    assert runner(engine, ScriptedProvider(invalid)).execute(job_id) is Outcome.FAILED
    row = job(engine, job_id)
    assert (row.status, row.error_code, row.attempts) == ("FAILED", "AI_RESPONSE_INVALID", 1)


def test_unexpected_provider_exception_becomes_review_failed_without_its_text(engine: Engine):
    def broken() -> ProviderAnswer:
        raise KeyError("secret prompt text sk-123")

    job_id = new_job(engine)
    runner(engine, ScriptedProvider(broken)).execute(job_id)
    row = job(engine, job_id)
    assert (row.error_code, row.error_message) == ("REVIEW_FAILED", "The review could not be completed.")


def test_transient_failure_with_attempts_left_requeues_for_a_delayed_retry(engine: Engine):
    def rate_limited() -> ProviderAnswer:
        raise ReviewError("AI_RATE_LIMITED", retry_after=3)

    job_id = new_job(engine)
    outcome = runner(engine, ScriptedProvider(rate_limited)).execute(job_id)
    assert outcome is Outcome.RETRY_SCHEDULED
    row = job(engine, job_id)
    assert (row.status, row.execution_token, row.attempts) == ("QUEUED", None, 1)
    retry = delayed_messages(engine)
    assert [message["args"] for message in retry] == [[str(job_id)]]
    assert retry[0]["options"]["eta"] - retry[0]["message_timestamp"] == 3000


def test_model_deadline_on_the_last_attempt_is_stored_as_model_timeout(engine: Engine):
    def slow() -> ProviderAnswer:
        time.sleep(1.0)
        return ProviderAnswer(GOOD)

    job_id = new_job(engine)
    outcome = runner(engine, ScriptedProvider(slow), timeout=0.2, max_attempts=1).execute(job_id)
    assert outcome is Outcome.FAILED and job(engine, job_id).error_code == "MODEL_TIMEOUT"


def test_abandoned_calls_hold_their_slot_and_jobs_are_deferred_without_an_attempt(engine: Engine):
    release = threading.Event()

    def stuck() -> ProviderAnswer:
        release.wait()
        return ProviderAnswer(GOOD)

    settings = Settings(database_url="postgresql://unused", model_timeout=0.1, max_attempts=1)
    stuck_runner = JobRunner(engine, QUEUE, ScriptedProvider(stuck), ModelSlots(1, 0.1), settings,
                             InFlight())
    first, second = new_job(engine), new_job(engine)
    assert stuck_runner.execute(first) is Outcome.FAILED
    assert stuck_runner.execute(second) is Outcome.DEFERRED
    assert (job(engine, second).status, job(engine, second).attempts) == ("QUEUED", 0)
    assert [message["args"] for message in delayed_messages(engine)] == [[str(second)]]
    release.set()
    wait_for(lambda: slot_is_free(stuck_runner.slots), "the abandoned call to give its slot back")
    assert stuck_runner.execute(second) is Outcome.SUCCEEDED


class SecondInLine:
    """Two jobs on a runner with one model slot: the first's call holds the slot until `release`,
    the second is claimed (the gate known closed: an unguarded job) and waits for the slot."""

    def __init__(self, engine: Engine) -> None:
        self.release = threading.Event()
        calls = iter([lambda: (self.release.wait(), ProviderAnswer(GOOD))[1], lambda: ProviderAnswer(GOOD)])
        settings = Settings(database_url="postgresql://unused", model_timeout=30)
        self.runner = JobRunner(engine, QUEUE, ScriptedProvider(lambda: next(calls)()), ModelSlots(1, 30),
                                settings, InFlight())
        self.runner.gate.healthy.clock = lambda: 0.0  # once found closed, the gate stays known closed
        self.first, self.second = new_job(engine), new_job(engine)
        self.outcomes: dict[uuid.UUID, Outcome] = {}
        self.threads = {job_id: threading.Thread(target=self._execute, args=(job_id,))
                        for job_id in (self.first, self.second)}
        self.threads[self.first].start()
        wait_for(lambda: self.runner.provider.calls == 1, "the first call to hold the only slot")
        self.threads[self.second].start()
        wait_for(lambda: job(engine, self.second).status == "RUNNING", "the second job to be claimed")

    def _execute(self, job_id: uuid.UUID) -> None:
        self.outcomes[job_id] = self.runner.execute(job_id)


def test_a_claimed_job_waits_for_the_slot_a_running_call_frees_and_takes_it(engine: Engine):
    """More Dramatiq threads than model slots (tasks/worker.py): the next unguarded job (the
    gate known closed, no budget, cap or rate limit) is claimed while the slot is busy and runs
    as soon as the call ends, instead of being deferred."""
    line = SecondInLine(engine)
    assert line.runner.provider.calls == 1 and line.threads[line.second].is_alive()
    line.release.set()
    for thread in line.threads.values():
        thread.join(30)
    assert line.outcomes == {line.first: Outcome.SUCCEEDED, line.second: Outcome.SUCCEEDED}
    assert (job(engine, line.second).status, job(engine, line.second).attempts) == ("SUCCEEDED", 1)
    assert delayed_messages(engine) == []


def test_a_job_waiting_for_a_slot_gives_its_attempt_back_when_the_process_stops(engine: Engine):
    line = SecondInLine(engine)
    line.runner.slots.stop_waiting()
    line.threads[line.second].join(30)
    assert line.outcomes[line.second] is Outcome.DEFERRED
    assert (job(engine, line.second).status, job(engine, line.second).attempts) == ("QUEUED", 0)
    assert [message["args"] for message in delayed_messages(engine)] == [[str(line.second)]]
    line.release.set()
    line.threads[line.first].join(30)
    assert line.outcomes[line.first] is Outcome.SUCCEEDED and line.runner.provider.calls == 1


def test_a_cancelled_jobs_message_is_skipped_without_waiting_for_a_busy_slot(engine: Engine):
    line = SecondInLine(engine)
    cancelled = new_job(engine)
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set status = 'CANCELLED', completed_at = now() where id = :id"),
                     {"id": cancelled})
    assert line.runner.execute(cancelled) is Outcome.SKIPPED  # not DEFERRED after a model deadline
    line.release.set()
    for thread in line.threads.values():
        thread.join(30)


def test_a_slot_released_more_often_than_reserved_is_a_bug_raised_at_once():
    slots = ModelSlots(1, 5)
    assert slots.reserve()
    slots.release()
    with pytest.raises(ValueError, match="released more often than reserved"):
        slots.release()


def test_an_admitted_job_holds_its_admission_until_its_result_is_written():
    """The call's slot comes back when the call ends, but a job admitted against a budget keeps
    its admission until its result (and so its spend) is written: with more threads than slots,
    another job must not pass the budget check on a spend not yet recorded."""
    slots = ModelSlots(1, 5)
    assert slots.reserve(admitted=True)
    assert slots.call(lambda: "answer") == "answer"
    wait_for(lambda: slot_is_free(slots), "the call's slot")
    assert not slots.reserve(admitted=True)
    slots.written()
    assert slots.reserve(admitted=True)
    slots.release()
    slots.written()
    with pytest.raises(ValueError, match="given back more often than taken"):
        slots.written()


def slot_is_free(slots: ModelSlots) -> bool:
    if not slots.reserve():
        return False
    slots.release()
    return True


def unavailable() -> ProviderAnswer:
    raise ReviewError("AI_PROVIDER_UNAVAILABLE")


def test_transient_failure_on_the_last_attempt_is_terminal(engine: Engine):
    job_id = new_job(engine)
    provider = ScriptedProvider(unavailable)
    assert runner(engine, provider, max_attempts=2).execute(job_id) is Outcome.RETRY_SCHEDULED
    assert runner(engine, provider, max_attempts=2).execute(job_id) is Outcome.FAILED
    assert runner(engine, provider, max_attempts=2).execute(job_id) is Outcome.SKIPPED
    assert provider.calls == 2 and job(engine, job_id).error_code == "AI_PROVIDER_UNAVAILABLE"


def test_job_at_its_attempt_budget_fails_without_a_model_call(engine: Engine):
    job_id = new_job(engine)
    for _ in range(2):
        with engine.begin() as conn:
            claim_job(conn, job_id, max_attempts=2, lease_seconds=0)
            conn.execute(text("update review_jobs set heartbeat_at = now() - interval '1 hour'"))
    lease = Settings(database_url="postgresql://unused").job_lease
    wait_for(lambda: server_up_for(engine, lease), "the database server up for a lease")
    provider = ScriptedProvider()
    assert runner(engine, provider, max_attempts=2).execute(job_id) is Outcome.EXHAUSTED
    row = job(engine, job_id)
    assert (provider.calls, row.status, row.error_code) == (0, "FAILED", "EXECUTION_ATTEMPTS_EXHAUSTED")


def test_late_answer_after_recovery_is_rejected_as_stale(engine: Engine):
    job_id = new_job(engine)

    def recovered_meanwhile() -> ProviderAnswer:
        recover_stale_jobs(engine, QUEUE, lease_seconds=0)
        return ProviderAnswer(GOOD)

    assert runner(engine, ScriptedProvider(recovered_meanwhile)).execute(job_id) is Outcome.STALE
    row = job(engine, job_id)
    assert (row.status, row.result, row.execution_token) == ("QUEUED", None, None)
    assert runner(engine, ScriptedProvider()).execute(job_id) is Outcome.SUCCEEDED


class FailingResultWrite:
    """The real engine, except that the connection after the claim's (the result write's, in a
    transaction or in autocommit) cannot reach storage."""

    def __init__(self, engine: Engine, opened: list[int] | None = None) -> None:
        self.engine = engine
        self.opened = opened if opened is not None else [0]

    def _open(self, opener):
        self.opened[0] += 1
        if self.opened[0] == 2:
            raise OperationalError("update review_jobs", {}, Exception("server closed the connection"))
        return opener()

    def begin(self):
        return self._open(self.engine.begin)

    def connect(self):
        return self._open(self.engine.connect)

    def execution_options(self, **options) -> "FailingResultWrite":
        return FailingResultWrite(self.engine.execution_options(**options), self.opened)


def test_storage_failure_on_the_result_write_keeps_the_job_recoverable(engine: Engine):
    job_id = new_job(engine)
    provider = ScriptedProvider()
    with pytest.raises(OperationalError):
        runner(FailingResultWrite(engine), provider).execute(job_id)
    assert job(engine, job_id).status == "RUNNING"
    assert recover_stale_jobs(engine, QUEUE, lease_seconds=0) == [job_id]
    assert runner(engine, provider).execute(job_id) is Outcome.SUCCEEDED
    row = job(engine, job_id)
    assert (provider.calls, row.attempts, row.status) == (2, 2, "SUCCEEDED")


def test_a_success_on_a_healthy_provider_is_two_statements_without_a_transaction(engine: Engine):
    # Given a worker that has found the provider's gate closed (its first job asked it)
    worker, first, second = runner(engine, ScriptedProvider()), new_job(engine), new_job(engine)
    assert worker.execute(first) is Outcome.SUCCEEDED
    sent: list[tuple[str, bool]] = []
    here = threading.get_ident()

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        if threading.get_ident() == here:  # not the call tally's timer
            code = [line for line in statement.splitlines() if not line.lstrip().startswith("--")]
            sent.append((" ".join(code).split()[0].lower(), conn.connection.driver_connection.autocommit))

    # When it runs the next job
    event.listen(engine, "before_cursor_execute", record)
    try:
        assert worker.execute(second) is Outcome.SUCCEEDED
    finally:
        event.remove(engine, "before_cursor_execute", record)
    # Then the claim and the result (with the gate's record_answer) are one statement each, in
    # autocommit: 2 round trips, down from 9 (admit, budgets and claim; record_answer and
    # succeed; each transaction with its BEGIN and COMMIT)
    assert sent == [("update", True), ("with", True)]
    assert job(engine, second).status == "SUCCEEDED"
