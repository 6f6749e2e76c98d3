"""Shared rate limits per provider+model (core/provider_gate/rate_limits.py): the setting, the
bucket every worker reserves call slots from through PostgreSQL, waiting without an attempt,
token estimates reconciled with reported usage, a 429's Retry-After through the breaker, the
counts the operations page shows, the constraints, and the fakes' own limits.

Time never passes in these tests: limits are chosen so that the next free slot is about a
minute away, and the assertions read the bucket row, which is exact arithmetic on its clock.
"""

import subprocess
import sys
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client import REGISTRY
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.acceptance import accept_batch
from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.model_slots import ModelSlots
from core.jobs.standalone import submit_job
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer
from core.listings.providers.gemini import GeminiProvider
from core.listings.providers.openai_chat import OpenAIChatProvider
from core.listings.review import ListingReview
from core.operations.stats import operations_snapshot
from core.provider_gate.call_tally import CallTally
from core.provider_gate.rate_limits import RateLimit, parse_rate_limits
from core.settings import PROVIDERS, Settings, SettingsError, get_settings
from tasks.queue import DramatiqPgQueue
from tests.builders import draft, items
from tests.fake_gemini import FakeGemini
from tests.fake_openai import FakeOpenAI
from tests.processes import WorkerGroup, wait_for, wait_for_summary

ROOT = Path(__file__).resolve().parent.parent
QUEUE = DramatiqPgQueue("listing-reviews")
GOOD = ListingReview(quality_score=88, missing_fields=[], issues=[], suggestions=[],
                     requires_human_review=False)
ONE_PER_MINUTE = "openai:gpt-test=1rpm"


class ScriptedProvider:
    """The model: answers with the given usage, or raises the ReviewError `failure` builds."""

    name, model, prompt_version = "openai", "gpt-test", "test-v1"

    def __init__(self, usage: tuple[int, int] = (123, 45)) -> None:
        self.failure: Callable[[], ReviewError] | None = None
        self.during_call: Callable[[], None] | None = None
        self.usage = usage
        self.calls = 0

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        self.calls += 1
        if self.during_call is not None:
            self.during_call()
        if self.failure is not None:
            raise self.failure()
        return ProviderAnswer(GOOD, *self.usage)


def runner(engine: Engine, provider: ScriptedProvider, limits: str = ONE_PER_MINUTE) -> JobRunner:
    """One worker process's runner; several share the limit through the database only."""
    settings = Settings(database_url="postgresql://unused", model_timeout=5, rate_limits=limits,
                        breaker_failure_threshold=5, breaker_open_seconds=2)
    return JobRunner(engine, QUEUE, provider, ModelSlots(2, 5), settings, InFlight())


def new_jobs(engine: Engine, count: int) -> list[uuid.UUID]:
    return [submit_job(engine, QUEUE, owner="local", key=str(uuid.uuid4()), draft=draft())[1].job_id
            for _ in range(count)]


def one(engine: Engine, sql: str, **params):
    with engine.connect() as conn:
        return conn.execute(text(sql), params).one()


def job(engine: Engine, job_id: uuid.UUID) -> tuple[str, int]:
    row = one(engine, "select status, attempts from review_jobs where id = :id", id=job_id)
    return row.status, row.attempts


def delayed_messages(engine: Engine, job_id: uuid.UUID) -> list[dict]:
    with engine.connect() as conn:
        return list(conn.execute(text(
            "select message from dramatiq.queue where message->'args'->>0 = :id "
            "and queue_name = 'listing-reviews.DQ'"), {"id": str(job_id)}).scalars())


def seconds_between(engine: Engine, later: str, earlier: str) -> float:
    return one(engine, f"select extract(epoch from {later} - {earlier})::float8 as s "
                       "from provider_rate_limits").s


def waits(how: str) -> float:
    labels = {"provider": "openai", "model": "gpt-test", "how": how}
    return REGISTRY.get_sample_value("listing_review_rate_limit_waits_total", labels) or 0.0


# --- the setting ---------------------------------------------------------------------------

def test_setting_reads_limits_per_provider_and_model():
    text_ = "openai:gpt-4.1-mini=500rpm,200000tpm; gemini:gemini-2.5-flash=1000RPM;ollama:llama3.1:8b=60rpm;"
    assert parse_rate_limits(text_, PROVIDERS) == {
        ("openai", "gpt-4.1-mini"): RateLimit(500, 200_000),
        ("gemini", "gemini-2.5-flash"): RateLimit(1000, None),
        ("ollama", "llama3.1:8b"): RateLimit(60, None)}
    assert Settings(database_url="postgresql://unused").rate_limits == ""


@pytest.mark.parametrize(("value", "says"), [
    ("openai=500rpm", "entry 1 is not provider:model=limits"),
    ("openai:m=500rps", "limits must be N rpm and/or N tpm"),
    ("openai:m=5rpm,6rpm", "each once"),
    ("openai:m=0rpm", "rpm must be between 1 and 1,000,000"),
    ("openai:m=5rpm;acme:m=5rpm", "entry 2: unknown provider 'acme'"),
    ("openai:m=5rpm;openai:m=9tpm", "entry 2: openai:m is given twice"),
])
def test_malformed_limits_stop_start_up_naming_the_variable(monkeypatch, value: str, says: str):
    monkeypatch.setenv("LISTING_REVIEW_RATE_LIMITS", value)
    get_settings.cache_clear()
    try:
        with pytest.raises(SettingsError, match="LISTING_REVIEW_RATE_LIMITS: .*" + says):
            get_settings()
    finally:
        get_settings.cache_clear()


def test_worker_with_malformed_limits_exits_2_naming_the_variable(tmp_path: Path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LISTING_REVIEW_HOME": str(tmp_path),
           "LISTING_REVIEW_RATE_LIMITS": "openai:gpt-4.1-mini=lots"}
    done = subprocess.run([sys.executable, "-m", "cli.main", "worker"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "LISTING_REVIEW_RATE_LIMITS" in done.stderr and "Traceback" not in done.stderr


# --- reserving call slots --------------------------------------------------------------------

def test_a_call_over_the_limit_waits_without_an_attempt_and_is_sent_again_later(engine: Engine):
    provider = ScriptedProvider()
    first, second = new_jobs(engine, 2)
    deferred_before = waits("deferred")
    assert runner(engine, provider).execute(first) is Outcome.SUCCEEDED
    # Another worker process: the next slot is a minute away, so no call and no attempt.
    assert runner(engine, provider).execute(second) is Outcome.THROTTLED
    assert provider.calls == 1
    assert job(engine, second) == ("QUEUED", 0)
    [message] = delayed_messages(engine, second)
    # Sent again half a horizon before its slot: 61 s of budget per call, less 0.5 s of burst.
    assert 55_000 < message["options"]["eta"] - message["message_timestamp"] <= 60_000
    assert waits("deferred") == deferred_before + 1


def test_jobs_over_the_limit_come_back_one_call_period_apart_however_many_workers(engine: Engine):
    provider = ScriptedProvider()
    first, *rest = new_jobs(engine, 9)
    runner(engine, provider).execute(first)
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda job_id: runner(engine, provider).execute(job_id), rest))
    assert outcomes == [Outcome.THROTTLED] * 8 and provider.calls == 1
    assert all(job(engine, job_id) == ("QUEUED", 0) for job_id in rest)
    # The first call's slot started 61 s before requests_free_at; the first job put off comes
    # back 0.5 s before the next slot (60 s after it), each other one a call-period later.
    assert seconds_between(engine, "returns_at", "requests_free_at") == pytest.approx(
        -61 + 60 + 8 * 61, abs=1e-5)


def test_a_slot_reserved_for_a_job_that_cannot_be_claimed_is_given_back(engine: Engine):
    provider = ScriptedProvider()
    cancelled, waiting = new_jobs(engine, 2)
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set status = 'CANCELLED', "
                          "completed_at = current_timestamp where id = :id"), {"id": cancelled})
    assert runner(engine, provider).execute(cancelled) is Outcome.SKIPPED
    assert runner(engine, provider).execute(waiting) is Outcome.SUCCEEDED


def test_tokens_are_estimated_before_the_call_and_reconciled_with_the_reported_usage(engine: Engine):
    # 61,000 tokens a minute: each token uses 1 ms of the budget (61 s / 61,000).
    provider = ScriptedProvider(usage=(150, 50))
    [job_id] = new_jobs(engine, 1)
    estimate = one(engine, "select ceil(octet_length(payload::text) / 4.0)::integer + 900 as tokens "
                           "from review_jobs where id = :id", id=job_id).tokens
    seen: list[float] = []
    provider.during_call = lambda: seen.append(seconds_between(engine, "tokens_free_at", "requests_free_at"))
    assert runner(engine, provider, "openai:gpt-test=61000tpm").execute(job_id) is Outcome.SUCCEEDED
    # requests are not limited, so requests_free_at stays at the call's slot.
    assert seen == [pytest.approx(estimate * 0.001, abs=1e-5)]
    assert seconds_between(engine, "tokens_free_at", "requests_free_at") == pytest.approx(0.2, abs=1e-5)


def test_without_a_limit_no_bucket_is_kept(engine: Engine):
    provider = ScriptedProvider()
    job_ids = new_jobs(engine, 3)
    assert [runner(engine, provider, "").execute(job_id) for job_id in job_ids] == [Outcome.SUCCEEDED] * 3
    assert one(engine, "select count(*) as n from provider_rate_limits").n == 0


def test_worker_processes_wait_for_a_budget_another_host_used_then_run_each_job_once(
        engine: Engine, database_url: str):
    """Real worker processes: another host's calls hold the bucket 10 s ahead, so the first
    deliveries are sent again later; every job then runs exactly once, on its first attempt,
    and the model (limited like the setting) refuses nothing."""
    jobs = 12
    with FakeOpenAI(rpm=120) as model:
        group = WorkerGroup(database_url, LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="k",
                            OPENAI_BASE_URL=model.base_url, OPENAI_MODEL="gpt-test",
                            LISTING_REVIEW_RATE_LIMITS="openai:gpt-test=120rpm",
                            LISTING_REVIEW_WORKER_PROCESSES="2", LISTING_REVIEW_WORKER_THREADS="4",
                            LISTING_REVIEW_SHUTDOWN_WAIT="1")
        try:
            group.wait_ready(processes=2)
            with engine.begin() as conn:
                conn.execute(text(
                    "insert into provider_rate_limits (provider, model, requests_per_minute, "
                    "requests_free_at) values ('openai', 'gpt-test', 120, "
                    "current_timestamp + interval '10 seconds')"))
            batch_id = accept_batch(engine, QUEUE, owner="local", key="k", items=items(jobs),
                                    max_items=jobs).batch_id
            done = wait_for_summary(engine, batch_id, "completion", lambda s: s.status == "COMPLETED")
        finally:
            group.close()
    assert (done.succeeded, done.failed) == (jobs, 0)
    assert one(engine, "select min(attempts) as low, max(attempts) as high from review_jobs") == (1, 1)
    assert (len(model.requests), model.limit.rate_limited) == (jobs, 0)
    # A job sent again later has a second message (a delayed one, moved to the queue when due).
    messages = one(engine, "select count(*) as n from dramatiq.queue")
    assert messages.n > jobs


# --- 429s and the breaker --------------------------------------------------------------------

def test_a_429_with_retry_after_pauses_the_limited_model_for_every_worker_at_once(engine: Engine):
    provider = ScriptedProvider()
    provider.failure = lambda: ReviewError("AI_RATE_LIMITED", retry_after=30)
    first, second = new_jobs(engine, 2)
    limits = "openai:gpt-test=1000rpm"
    assert runner(engine, provider, limits).execute(first) is Outcome.PAUSED
    gate = one(engine, "select state, reason, failures, extract(epoch from next_probe_at - updated_at) "
                       "as pause from provider_gates")
    assert (gate.state, gate.reason, gate.failures, gate.pause) == ("open", "rate_limited", 1, 30)
    assert runner(engine, provider, limits).execute(second) is Outcome.PAUSED
    assert provider.calls == 1
    assert (job(engine, first), job(engine, second)) == (("QUEUED", 0), ("QUEUED", 0))
    # A model with no limit keeps the breaker's threshold: its 429 is one failure of five.
    provider.model = "gpt-unlimited"
    [third] = new_jobs(engine, 1)
    assert runner(engine, provider, limits).execute(third) is Outcome.RETRY_SCHEDULED
    assert tuple(one(engine, "select state, failures from provider_gates where model = 'gpt-unlimited'")
                 ) == ("closed", 1)


# --- what operators see ----------------------------------------------------------------------

def test_calls_and_429s_per_provider_and_model_are_on_the_operations_snapshot(engine: Engine):
    provider = ScriptedProvider()
    answered, refused = new_jobs(engine, 2)
    worker = runner(engine, provider, "openai:gpt-test=1000rpm,90000tpm")
    worker.execute(answered)
    provider.failure = lambda: ReviewError("AI_RATE_LIMITED")
    assert worker.execute(refused) is Outcome.RETRY_SCHEDULED
    worker.calls.flush()
    [rates] = operations_snapshot(engine).provider_rates
    assert (rates.provider, rates.model, rates.requests_per_minute, rates.tokens_per_minute) == (
        "openai", "gpt-test", 1000, 90000)
    assert (rates.calls_last_hour, rates.rate_limited_last_hour, rates.breaker_state) == (2, 1, "closed")
    assert rates.calls_this_minute + rates.calls_last_minute == 2


def calls_counted(engine: Engine) -> int:
    return int(one(engine, "select coalesce(sum(calls), 0) as calls from provider_call_counts").calls)


def test_a_process_writes_its_call_counts_apart_from_every_result_transaction(engine: Engine):
    """The counts' hot row is not locked by each finished job until its commit: the calls are
    tallied in the process and written together, a second after the first of them."""
    worker = runner(engine, ScriptedProvider(), "openai:gpt-test=1000rpm")
    worker.calls = CallTally(engine, every=3600)
    for job_id in new_jobs(engine, 3):
        assert worker.execute(job_id) is Outcome.SUCCEEDED
    assert calls_counted(engine) == 0
    worker.calls.flush()
    assert calls_counted(engine) == 3
    soon = CallTally(engine, every=0.01)
    soon.add("openai", "gpt-test", True, 10)
    wait_for(lambda: calls_counted(engine) == 4, "the tally to be written on its own")
    assert one(engine, "select sum(rate_limited) as refused from provider_call_counts").refused == 1


def test_operations_page_shows_calls_against_the_limit_429s_and_the_breaker(
        engine: Engine, database_url: str, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from ui.services import runtime

    provider = ScriptedProvider()
    [job_id] = new_jobs(engine, 1)
    worker = runner(engine, provider, "openai:gpt-test=500rpm")
    worker.execute(job_id)
    worker.calls.flush()
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    runtime.clear()
    try:
        app = AppTest.from_file(str(ROOT / "ui" / "app.py"), default_timeout=30)
        page = app.run().switch_page("views/operations.py").run()
        assert not page.exception
        frames = [frame.value for frame in page.dataframe if "429s last hour" in frame.value.columns]
        [row] = frames[0].to_dict("records")
    finally:
        get_settings.cache_clear()
        runtime.clear()
    assert row["provider"] == "openai" and row["state"] == "closed"
    assert row["429s last hour"] == "0 of 1 calls"
    assert row["calls this minute"].endswith(" of 500") and row["calls last minute"].endswith(" of 500")


# --- constraints -------------------------------------------------------------------------------

BAD_BUCKETS = {
    "no limit at all": ("requests_per_minute = null, tokens_per_minute = null",
                        "provider_rate_limits_some_limit_check"),
    "zero requests": ("requests_per_minute = 0", "provider_rate_limits_requests_check"),
    "too many tokens": ("tokens_per_minute = 1000000001", "provider_rate_limits_tokens_check"),
    "empty model": ("model = ''", "provider_rate_limits_names_check"),
}
BAD_COUNTS = {
    "not a whole minute": ("minute = minute + interval '1 second'", "provider_call_counts_minute_check"),
    "shard out of range": ("shard = 16", "provider_call_counts_shard_check"),
    "no calls": ("calls = 0, rate_limited = 0", "provider_call_counts_calls_check"),
    "more 429s than calls": ("rate_limited = calls + 1", "provider_call_counts_rate_limited_check"),
    "negative tokens": ("tokens = -1", "provider_call_counts_tokens_check"),
    "empty provider": ("provider = ''", "provider_call_counts_names_check"),
}


@pytest.fixture
def limited_rows(engine: Engine) -> Engine:
    """One bucket and one call count, written the way the worker writes them."""
    provider = ScriptedProvider()
    [job_id] = new_jobs(engine, 1)
    worker = runner(engine, provider, "openai:gpt-test=10rpm")
    worker.execute(job_id)
    worker.calls.flush()
    return engine


@pytest.mark.parametrize("name", list(BAD_BUCKETS))
def test_bucket_check_constraints_reject_bad_rows(limited_rows: Engine, name: str):
    change, constraint = BAD_BUCKETS[name]
    with pytest.raises(IntegrityError, match=constraint), limited_rows.begin() as conn:
        conn.execute(text(f"update provider_rate_limits set {change}"))


@pytest.mark.parametrize("name", list(BAD_COUNTS))
def test_call_count_check_constraints_reject_bad_rows(limited_rows: Engine, name: str):
    change, constraint = BAD_COUNTS[name]
    with pytest.raises(IntegrityError, match=constraint), limited_rows.begin() as conn:
        conn.execute(text(f"update provider_call_counts set {change}"))


# --- the fakes' own limits ---------------------------------------------------------------------

def test_fake_openai_refuses_requests_over_its_limit_with_retry_after_and_counts_them():
    with FakeOpenAI(rpm=2) as fake:
        provider = OpenAIChatProvider(name="openai", api_key="k", base_url=fake.base_url,
                                      model="m", timeout=5.0)
        provider.review(draft(), 5.0)
        provider.review(draft(), 5.0)
        with pytest.raises(ReviewError) as refused:
            provider.review(draft(), 5.0)
    assert refused.value.code == "AI_RATE_LIMITED" and 1 <= refused.value.retry_after <= 60
    assert (fake.limit.admitted, fake.limit.rate_limited, len(fake.requests)) == (2, 1, 2)


def test_fake_gemini_refuses_tokens_over_its_limit():
    with FakeGemini(tpm=400) as fake:
        provider = GeminiProvider(api_key="k", base_url=fake.base_url, model="m", timeout=5.0)
        provider.review(draft(), 5.0)
        with pytest.raises(ReviewError) as refused:
            provider.review(draft(), 5.0)
    assert refused.value.code == "AI_RATE_LIMITED"
    assert (fake.limit.admitted, fake.limit.rate_limited) == (1, 1)
