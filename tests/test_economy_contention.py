"""Economy mode under contention and refusal: two polls never write one provider batch's answers
at once (they deadlocked), and an intent whose create the provider keeps refusing goes back to
standard mode after a bounded number of refusals instead of after the whole window. Against the
OpenAI fake through the real SDK, on real PostgreSQL."""

import logging
import threading
from dataclasses import replace

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.economy.batches_api import ProviderBatchUnavailable, Status
from core.economy.openai_batches import OpenAIBatches
from core.economy.poll import poll_next_batch
from core.economy.status import economy_status
from core.economy.submit import send_next_batch
from tests.fake_gemini import FakeGemini
from tests.fake_openai import FakeOpenAI
from tests.processes import wait_for
from tests.test_economy_gemini import gemini_batches
from tests.test_economy_mode import (
    NOW,
    QUEUE,
    economy_batch,
    economy_settings,
    provider_batch_states,
    queued_messages,
    rerun_standard,
    statuses,
)
from tests.test_economy_mode import fake as fake  # the fixture


def test_a_second_poll_skips_a_provider_batch_whose_answers_are_being_written(engine: Engine,
                                                                              fake: FakeOpenAI) -> None:
    # Given a sent provider batch whose output file will be held after its first line
    batch_id = economy_batch(engine, 3)
    first = OpenAIBatches(economy_settings(fake))
    assert send_next_batch(engine, QUEUE, first, NOW)
    released = threading.Event()
    fake.batches.plan.gate, fake.batches.plan.gate_lines = released.is_set, 1
    # And a poll that found it completed and is reading its answers (its lease, 0 here, is over)
    writer = threading.Thread(target=poll_next_batch, args=(engine, QUEUE, first, NOW, 3))
    writer.start()
    wait_for(lambda: len(fake.batches.downloads) == 1, "the first poll reading the output file")
    fake.batches.plan.gate = None  # a second download would be answered whole, at once
    # When a second poll takes the same provider batch up at that moment
    assert poll_next_batch(engine, QUEUE, OpenAIBatches(economy_settings(fake)), NOW, max_attempts=3)
    # Then it moved on without waiting: it downloaded nothing and wrote nothing
    assert len(fake.batches.downloads) == 1
    assert statuses(engine, batch_id) == [("RUNNING", None)] * 3
    # And once the first poll's download goes on, it writes every answer and finishes the batch
    released.set()
    writer.join()
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3
    assert provider_batch_states(engine, batch_id) == ["finished"]
    assert len(fake.batches.downloads) == 1


class FinishedMeanwhile(OpenAIBatches):
    """While this poll asks the provider for the batch's state, another poll writes and finishes
    it (this poll's claim came first; its lease, 0 here, is over)."""

    def __init__(self, fake: FakeOpenAI, engine: Engine) -> None:
        super().__init__(economy_settings(fake))
        self.other, self.engine = OpenAIBatches(economy_settings(fake)), engine

    def status(self, provider_batch_id: str) -> Status:
        assert poll_next_batch(self.engine, QUEUE, self.other, NOW, max_attempts=3)
        return super().status(provider_batch_id)


def test_a_poll_finding_the_batch_finished_once_it_holds_it_writes_nothing_again(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given a sent provider batch
    batch_id = economy_batch(engine, 2)
    assert send_next_batch(engine, QUEUE, OpenAIBatches(economy_settings(fake)), NOW)
    # When a poll claims it, and another writes and finishes it before the first holds it
    assert poll_next_batch(engine, QUEUE, FinishedMeanwhile(fake, engine), NOW, max_attempts=3)
    # Then the answers were read once, by the other poll
    assert len(fake.batches.downloads) == 1
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 2
    assert provider_batch_states(engine, batch_id) == ["finished"]


def test_an_intent_the_provider_keeps_refusing_goes_back_to_standard_mode(
        engine: Engine, fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    # Given a provider that answers every batch create with a server error
    fake.batches.plan.refuse_create = 500
    batch_id = economy_batch(engine, 2)
    batches = OpenAIBatches(economy_settings(fake))
    # When the loop tries as often as the policy allows, each time resumed after its lease
    for _ in range(NOW.max_create_refusals):
        with pytest.raises(ProviderBatchUnavailable):
            send_next_batch(engine, QUEUE, batches, NOW)
    assert fake.batches.refused == NOW.max_create_refusals and queued_messages(engine) == 0
    # Then the next pass creates nothing more: the jobs go back to standard mode at once, with
    # the attempt the economy claim spent given back, and a queue message each
    with caplog.at_level(logging.WARNING, logger="core.economy.submit"):
        assert send_next_batch(engine, QUEUE, batches, NOW)
    assert fake.batches.refused == NOW.max_create_refusals and fake.batches.created == []
    with engine.connect() as conn:
        jobs = conn.execute(text("select status, attempts from review_jobs where batch_id = :b"),
                            {"b": batch_id}).all()
    assert [tuple(job) for job in jobs] == [("QUEUED", 0)] * 2 and queued_messages(engine) == 2
    assert provider_batch_states(engine, batch_id) == ["refused"]
    [line] = [record.getMessage() for record in caplog.records if record.name == "core.economy.submit"]
    assert "refused its create 5 times" in line and "2 job(s)" in line and "fake error" not in line
    # And nothing is left for the economy loop: the jobs are never offered to the provider again
    assert not send_next_batch(engine, QUEUE, batches, NOW)
    # And the standard path reviews them, at the standard price
    rerun_standard(engine, fake, batch_id)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 2
    with engine.connect() as conn:
        providers = conn.execute(text("select distinct result->>'provider' from review_jobs "
                                      "where batch_id = :b"), {"b": batch_id}).scalars().all()
    assert providers == ["openai"]
    status = economy_status(engine, "local", batch_id)
    assert status is not None and "2 listing(s) never sent to the provider" in status.describe()


def test_a_gemini_intent_the_provider_keeps_refusing_goes_back_to_standard_mode(engine: Engine) -> None:
    with FakeGemini() as gemini:
        gemini.batches.plan.refuse_create = 500
        batch_id = economy_batch(engine, 1)
        for _ in range(NOW.max_create_refusals):
            with pytest.raises(ProviderBatchUnavailable):
                send_next_batch(engine, QUEUE, gemini_batches(gemini), NOW)
        assert send_next_batch(engine, QUEUE, gemini_batches(gemini), NOW)
        assert gemini.batches.refused == NOW.max_create_refusals and gemini.batches.created == []
    assert statuses(engine, batch_id) == [("QUEUED", None)] and queued_messages(engine) == 1
    assert provider_batch_states(engine, batch_id) == ["refused"]


def test_a_refused_create_the_provider_accepted_after_all_is_recorded_not_given_up(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given an intent at its last allowed refusal whose last create the provider did accept
    # (the answer was lost on the way)
    batch_id = economy_batch(engine, 1)
    policy = replace(NOW, max_create_refusals=1)
    batches = OpenAIBatches(economy_settings(fake))
    fake.batches.plan.refuse_create = 500
    with pytest.raises(ProviderBatchUnavailable):
        send_next_batch(engine, QUEUE, batches, policy)
    fake.batches.plan.refuse_create = None
    with engine.connect() as conn:
        intent = conn.execute(text("select id from provider_batches")).scalar_one()
    batches.create(str(intent), [])
    # When the intent is resumed
    assert send_next_batch(engine, QUEUE, batches, policy)
    # Then the provider batch found is recorded, and the job stays with it
    assert provider_batch_states(engine, batch_id) == ["submitted"]
    assert statuses(engine, batch_id) == [("RUNNING", None)] and queued_messages(engine) == 0


@pytest.mark.parametrize(("statement", "constraint"), [
    ("update provider_batches set create_refusals = -1", "provider_batches_create_refusals_check"),
    ("update provider_batches set state = 'refused'", "provider_batches_submitted_check"),
])
def test_the_schema_refuses_invalid_refusal_rows(engine: Engine, fake: FakeOpenAI, statement: str,
                                                 constraint: str) -> None:
    # A refused intent never had a provider batch at the provider (this one has)
    fake.batches.plan.hold = True
    economy_batch(engine, 1)
    assert send_next_batch(engine, QUEUE, OpenAIBatches(economy_settings(fake)), NOW)
    with pytest.raises(IntegrityError, match=constraint), engine.begin() as conn:
        conn.execute(text(statement))
