"""Economy jobs whose window ran out: recovery gives them back to standard mode (a queue message
each) and from then on no provider batch carries them, whether their intent was never sent (it
stays as 'refused', its rows a tombstone) or its provider batch answers late (the answers are
fenced off). Against the OpenAI fake through the real SDK, on real PostgreSQL; the window's end
is its jobs' heartbeat moved into the past, then the recovery step itself."""

import uuid

import pytest
from sqlalchemy import Engine, text

from core.economy.batches_api import ProviderBatchUnavailable
from core.economy.openai_batches import OpenAIBatches
from core.economy.status import economy_status
from core.economy.submit import send_next_batch
from core.jobs.recovery import recover_stale_jobs
from tests.fake_openai import FakeOpenAI
from tests.test_economy_mode import (
    NOW,
    QUEUE,
    economy_batch,
    economy_settings,
    provider_batch_states,
    queued_messages,
    rerun_standard,
    run_pass,
    statuses,
)
from tests.test_economy_mode import fake as fake  # the fixture


def end_the_window(engine: Engine, batch_id: uuid.UUID) -> None:
    """The provider's window (and its slack) is over: recovery gives the jobs back."""
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set heartbeat_at = current_timestamp - interval '1 second' "
                          "where batch_id = :b and status = 'RUNNING'"), {"b": batch_id})
    assert len(recover_stale_jobs(engine, QUEUE, lease_seconds=0)) == 2
    assert statuses(engine, batch_id) == [("QUEUED", None)] * 2 and queued_messages(engine) == 2


def providers(engine: Engine, batch_id: uuid.UUID) -> list[str]:
    with engine.connect() as conn:
        return conn.execute(text("select result->>'provider' from review_jobs where batch_id = :b "
                                 "order by item_position"), {"b": batch_id}).scalars().all()


def test_jobs_an_unsent_intent_gave_back_when_its_window_ran_out_reach_no_provider_batch_again(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given an intent whose create the provider refused once, then not taken up again before
    # its jobs' window ran out (recovery gave them back to standard mode, a queue message each)
    fake.batches.plan.refuse_create = 500
    batch_id = economy_batch(engine, 2)
    with pytest.raises(ProviderBatchUnavailable):
        send_next_batch(engine, QUEUE, OpenAIBatches(economy_settings(fake)), NOW)
    end_the_window(engine, batch_id)
    # When the provider accepts creates again and the maintenance step resumes the intent
    fake.batches.plan.refuse_create = None
    run_pass(engine, fake)
    run_pass(engine, fake)
    # Then no provider batch carries the jobs: the intent stays, 'refused', with its jobs' rows
    assert fake.batches.created == [] and provider_batch_states(engine, batch_id) == ["refused"]
    assert statuses(engine, batch_id) == [("QUEUED", None)] * 2
    # And the standard path reviews each once, at the standard price
    rerun_standard(engine, fake, batch_id)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 2
    assert providers(engine, batch_id) == ["openai"] * 2 and len(fake.requests) == 2
    status = economy_status(engine, "local", batch_id)
    assert status is not None and "reviewed in standard mode instead" in status.describe()


def test_a_provider_batch_answering_after_its_window_writes_nothing_and_sends_nothing_again(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given a provider batch still in progress when its jobs' window ran out
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    run_pass(engine, fake)
    [first] = fake.batches.created
    end_the_window(engine, batch_id)
    # When the loop runs on, the standard path reviews the jobs, and then the provider batch ends
    run_pass(engine, fake)
    assert fake.batches.created == [first]
    rerun_standard(engine, fake, batch_id)
    fake.batches.plan.hold = False
    run_pass(engine, fake)
    # Then its late answers are read and fenced off: each job keeps its one standard review, and
    # no second provider batch was ever created
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 2
    assert providers(engine, batch_id) == ["openai"] * 2 and len(fake.requests) == 2
    assert fake.batches.created == [first] and provider_batch_states(engine, batch_id) == ["finished"]
    assert fake.batches.downloads == [fake.batches.batches[first]["output_file_id"]]
