"""Fairness between sellers (core/provider_gate/seller_share.py): a job whose seller already
runs LISTING_REVIEW_MAX_RUNNING_PER_SELLER jobs waits without an attempt and comes back later,
so another seller's small batch behind a big one is reviewed while the big one is far from
done; no job is lost or run twice."""

import uuid

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.acceptance import accept_batch
from core.batches.progress import BatchSummary, get_summary
from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.lifecycle import claim_job
from core.jobs.model_slots import ModelSlots
from core.jobs.standalone import submit_job
from core.listings.draft import ListingDraft
from core.listings.providers.base import ProviderAnswer
from core.listings.review import ListingReview
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.builders import draft, items
from tests.fake_openai import FakeOpenAI
from tests.processes import WorkerGroup, wait_for

QUEUE = DramatiqPgQueue("listing-reviews")
GOOD = ListingReview(quality_score=88, missing_fields=[], issues=[], suggestions=[],
                     requires_human_review=False)


class QuickProvider:
    name, model, prompt_version = "openai", "gpt-test", "test-v1"

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        return ProviderAnswer(GOOD, 10, 5)


def runner(engine: Engine, cap: int) -> JobRunner:
    settings = Settings(database_url="postgresql://unused", model_timeout=5, max_running_per_seller=cap)
    return JobRunner(engine, QUEUE, QuickProvider(), ModelSlots(2, 5), settings, InFlight())


def new_job(engine: Engine, owner: str) -> uuid.UUID:
    return submit_job(engine, QUEUE, owner=owner, key=str(uuid.uuid4()), draft=draft())[1].job_id


def start(engine: Engine, job_id: uuid.UUID) -> None:
    """Another worker is running this job."""
    with engine.begin() as conn:
        assert claim_job(conn, job_id, 3, 60).attempt is not None


def job(engine: Engine, job_id: uuid.UUID) -> tuple[str, int, int]:
    with engine.connect() as conn:
        return tuple(conn.execute(text(
            "select status, attempts, (select count(*) from dramatiq.queue where queue_name = "
            "'listing-reviews.DQ' and message->'args'->>0 = cast(:id as text)) from review_jobs "
            "where id = :id"), {"id": job_id}).one())


def test_a_job_over_its_sellers_share_waits_without_an_attempt_and_comes_back_later(engine: Engine):
    # Given seller A runs one job and the cap is one
    running, waiting = new_job(engine, "seller-a"), new_job(engine, "seller-a")
    other = new_job(engine, "seller-b")
    start(engine, running)
    work = runner(engine, cap=1)
    # When A's next job is delivered
    # Then it waits (still QUEUED, no attempt, a delayed message) and the worker reviews B's
    # job instead; B's own message, delivered later, finds it done
    assert work.execute(waiting) is Outcome.WAITING_TURN
    assert job(engine, waiting) == ("QUEUED", 0, 1)
    assert job(engine, other)[:2] == ("SUCCEEDED", 1)
    assert work.execute(other) is Outcome.SKIPPED


def test_a_waiting_delivery_lends_its_worker_only_to_a_seller_under_its_share(engine: Engine):
    # Given A and B each run one job at a cap of one, and each has one more queued
    a_running, a_waiting = new_job(engine, "seller-a"), new_job(engine, "seller-a")
    b_running, b_waiting = new_job(engine, "seller-b"), new_job(engine, "seller-b")
    start(engine, a_running), start(engine, b_running)
    # When A's queued job is delivered, nothing else runs: B is at its share too
    assert runner(engine, cap=1).execute(a_waiting) is Outcome.WAITING_TURN
    assert job(engine, b_waiting) == ("QUEUED", 0, 0)  # not even tried (no message sent back)


def test_without_a_cap_a_seller_runs_as_many_jobs_as_there_are_workers(engine: Engine):
    running, second = new_job(engine, "seller-a"), new_job(engine, "seller-a")
    start(engine, running)
    assert runner(engine, cap=0).execute(second) is Outcome.SUCCEEDED


def test_waiting_jobs_of_a_seller_come_back_spaced_out_in_its_line(engine: Engine):
    # Given seller A at its cap of one, with three more jobs delivered
    jobs = [new_job(engine, "seller-a") for _ in range(4)]
    start(engine, jobs[0])
    work = runner(engine, cap=1)
    assert [work.execute(job_id) for job_id in jobs[1:]] == [Outcome.WAITING_TURN] * 3
    # Then each took the next place in the seller's line (from half a second on, 0.25 s apart)
    with engine.connect() as conn:
        ahead = conn.execute(text("select extract(epoch from returns_at - now()) from seller_turns "
                                  "where owner = 'seller-a'")).scalar_one()
        etas = conn.execute(text(
            "select (message->'options'->>'eta')::bigint from dramatiq.queue "
            "where queue_name = 'listing-reviews.DQ' order by 1")).scalars().all()
    assert ahead >= 1.2
    assert len(etas) == 3 and etas[2] - etas[0] >= 450


def test_seller_turn_rows_reject_a_blank_owner(engine: Engine):
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text("insert into seller_turns (owner, returns_at) values (' ', now())"))


def summary(engine: Engine, owner: str, batch_id: uuid.UUID) -> BatchSummary:
    return get_summary(engine, owner, batch_id)


def test_a_small_batch_behind_another_sellers_big_one_finishes_while_the_big_one_is_far_from_done(
        engine: Engine, database_url: str):
    """Real worker processes, a model that takes a second per call, a cap of two running jobs
    per seller: B's 3 items, queued behind A's 60, are all reviewed while A has not reached
    half of its batch (first in, first out would finish every A item first). Then A finishes
    too, every job reviewed exactly once."""
    big, small = 60, 3
    with FakeOpenAI() as model:
        for _ in range(big + small):
            model.hang(1.0)
        group = WorkerGroup(database_url, LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="k",
                            OPENAI_BASE_URL=model.base_url, OPENAI_MODEL="gpt-test",
                            LISTING_REVIEW_MAX_RUNNING_PER_SELLER="2",
                            LISTING_REVIEW_WORKER_PROCESSES="2", LISTING_REVIEW_WORKER_THREADS="3",
                            LISTING_REVIEW_SHUTDOWN_WAIT="1")
        try:
            group.wait_ready(processes=2)
            # Given A's big batch queued first, then B's small one
            a = accept_batch(engine, QUEUE, owner="seller-a", key="a", items=items(big), max_items=big)
            b = accept_batch(engine, QUEUE, owner="seller-b", key="b", items=items(small), max_items=small)
            # When B's batch completes
            wait_for(lambda: summary(engine, "seller-b", b.batch_id).status == "COMPLETED", "B done")
            # Then A is far from done
            a_then = summary(engine, "seller-a", a.batch_id)
            assert a_then.status != "COMPLETED" and a_then.succeeded < big // 2
            wait_for(lambda: summary(engine, "seller-a", a.batch_id).status == "COMPLETED", "A done")
        finally:
            group.close()
    assert summary(engine, "seller-b", b.batch_id).succeeded == small
    assert summary(engine, "seller-a", a.batch_id).succeeded == big
    with engine.connect() as conn:
        attempts = conn.execute(text("select min(attempts), max(attempts) from review_jobs")).one()
    assert tuple(attempts) == (1, 1)
    assert len(model.requests) == big + small
