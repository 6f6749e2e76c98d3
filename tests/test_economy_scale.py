"""10,000 listings end to end in economy mode (issue 17): real worker processes send the batch
through OpenAI's Files and Batches APIs (the real openai SDK against tests/fake_openai.py), poll
it from their maintenance loop, write its answers into the job lifecycle, and review the few
hundred items the provider failed in standard mode. Exactly once toward the provider: each job
is in exactly one provider batch, and only the failed ones are sent again (Chat Completions).

The only clock moved is the provider batch's first-poll backoff (30 s): its next_poll_at is set
to now once the batch is submitted, which is what the passing of those 30 s would do. Every wait
is on rows; nothing is timed.
"""

import csv
import io
import json
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.costs.ledger import batch_cost
from core.costs.prices import price_of
from core.downloads import download_bytes
from tasks.queue import DramatiqPgQueue
from tests.builders import items
from tests.fake_openai import FakeOpenAI
from tests.processes import WorkerGroup, wait_for, wait_for_summary

QUEUE = DramatiqPgQueue("listing-reviews")
MODEL = "gpt-4.1-mini"
COUNT = 10_000
FAILED = 300  # the provider answers these with HTTP 500 lines: re-sent in standard mode
USAGE = (123, 45)  # what the fake reports for each answer, batch or not


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def workers(database_url: str, fake: FakeOpenAI) -> Iterator[WorkerGroup]:
    group = WorkerGroup(database_url, LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="k",
                        OPENAI_BASE_URL=fake.base_url, OPENAI_MODEL=MODEL,
                        LISTING_REVIEW_WORKER_PROCESSES="2", LISTING_REVIEW_WORKER_THREADS="4")
    yield group
    group.terminate()
    group.close()


def provider_batches(engine: Engine, batch_id: uuid.UUID) -> list[str]:
    with engine.connect() as conn:
        return conn.execute(text("select state from provider_batches where batch_id = :b"),
                            {"b": batch_id}).scalars().all()


def job_rows(engine: Engine, batch_id: uuid.UUID) -> list:
    with engine.connect() as conn:
        return conn.execute(text(
            "select id::text as id, item_position, status, attempts, result->>'provider' as provider "
            "from review_jobs where batch_id = :b order by item_position"), {"b": batch_id}).all()


def test_10000_listings_in_economy_mode_are_each_reviewed_once_toward_the_provider(
        engine: Engine, fake: FakeOpenAI, workers: WorkerGroup) -> None:
    # Given a 10,000-listing economy batch whose provider batch fails its first 300 lines
    fake.batches.plan.failed_items = FAILED
    batch_id = accept_batch(engine, QUEUE, owner="local", key="economy-10k", items=items(COUNT),
                            max_items=COUNT, mode="economy").batch_id
    # When the workers' maintenance loop sends it, and the first poll's backoff has passed
    workers.wait_ready(2)
    wait_for(lambda: provider_batches(engine, batch_id) == ["submitted"], "the provider batch submitted")
    with engine.begin() as conn:
        conn.execute(text("update provider_batches set next_poll_at = now() where batch_id = :b"),
                     {"b": batch_id})
    summary = wait_for_summary(engine, batch_id, "every listing reviewed",
                               lambda found: found.status == "COMPLETED")
    jobs = job_rows(engine, batch_id)

    # Then each job went to the provider in exactly one provider batch, and nothing else did
    inputs = [fake.batches.batches[created]["input_file_id"] for created in fake.batches.created]
    sent = Counter(line["custom_id"] for file_id in inputs for line in fake.batches.lines(file_id))
    assert sorted(sent) == sorted(job.id for job in jobs) and set(sent.values()) == {1}
    assert provider_batches(engine, batch_id) == ["finished"] and fake.batches.cancelled == []
    # And only the failed ones were reviewed again, in standard mode (one Chat Completions call each)
    assert len(fake.requests) == FAILED
    assert Counter((job.item_position <= FAILED, job.status, job.attempts, job.provider) for job in jobs) == {
        (True, "SUCCEEDED", 2, "openai"): FAILED, (False, "SUCCEEDED", 1, "openai-batch"): COUNT - FAILED}

    # And the batch summary's counts are the database's
    assert (summary.total, summary.succeeded, summary.failed, summary.cancelled, summary.done) == (
        COUNT, COUNT, 0, 0, COUNT)
    # And the results and exports hold every listing with its review
    exported = json.loads(download_bytes(engine, "local", batch_id, "json"))
    assert len(exported) == COUNT and all(item["qualityScore"] == 82 for item in exported)
    results_csv = download_bytes(engine, "local", batch_id, "csv").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(results_csv)))
    assert len(rows) == COUNT and {row["status"] for row in rows} == {"SUCCEEDED"}
    # And the cost ledger charges batch prices for the batch's answers, standard ones for the rest
    now = datetime.now(UTC)
    batch_price, standard = price_of("openai-batch", MODEL, now, None), price_of("openai", MODEL, now, None)
    assert batch_price is not None and standard is not None
    expected = (COUNT - FAILED) * batch_price.cost(*USAGE) + FAILED * standard.cost(*USAGE)
    assert batch_cost(engine, "local", batch_id, None).amount_usd == expected
