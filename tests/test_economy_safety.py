"""Economy mode's edges toward the provider: a cancel that lands before or while a provider batch
is created, a cancel of a provider batch that has already ended, the size of one provider batch,
and a pass that only takes its own provider's work. Against the OpenAI and Gemini fakes through
the real SDKs, on real PostgreSQL."""

import uuid
from collections.abc import Iterator, Sequence

import pytest
from sqlalchemy import Engine, text

from core.economy.batches_api import REQUEST_OVERHEAD_BYTES, Created, ProviderBatchUnavailable
from core.economy.openai_batches import OpenAIBatches
from core.economy.service import run_economy_pass
from core.economy.submit import send_next_batch
from core.jobs.cancel import cancel_unstarted
from tests.fake_gemini import FakeGemini
from tests.fake_openai import FakeOpenAI
from tests.test_economy_gemini import gemini_batches
from tests.test_economy_mode import (
    NOW,
    QUEUE,
    economy_batch,
    economy_settings,
    provider_batch_states,
    statuses,
)


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


class RefusedCreate(OpenAIBatches):
    """The provider refuses (or never answers) the create: the intent stays to be resumed."""

    def create(self, intent: str, requests: Sequence[tuple[str, str]]) -> Created:
        raise ProviderBatchUnavailable("InternalServerError")


class CancelledWhileCreating(OpenAIBatches):
    """The seller cancels the batch while its provider batch is being created."""

    def __init__(self, fake: FakeOpenAI, engine: Engine, batch_id: uuid.UUID) -> None:
        super().__init__(economy_settings(fake))
        self.engine, self.batch_id = engine, batch_id

    def create(self, intent: str, requests: Sequence[tuple[str, str]]) -> Created:
        cancel_unstarted(self.engine, "local", self.batch_id)
        return super().create(intent, requests)


def run_pass(engine: Engine, batches: OpenAIBatches) -> None:
    run_economy_pass(engine, QUEUE, batches, NOW, max_attempts=3)


def carried_per_provider_batch(engine: Engine, batch_id: uuid.UUID) -> list[int]:
    with engine.connect() as conn:
        return conn.execute(text(
            "select count(*) from provider_batch_jobs p "
            "join provider_batches b on b.id = p.provider_batch_id "
            "where b.batch_id = :b group by b.id order by min(b.created_at), count(*) desc"),
            {"b": batch_id}).scalars().all()


def test_a_batch_cancelled_before_its_provider_batch_was_sent_sends_nothing(engine: Engine,
                                                                           fake: FakeOpenAI) -> None:
    # Given an economy batch whose provider batch could not be created yet
    batch_id = economy_batch(engine, 3)
    with pytest.raises(ProviderBatchUnavailable):
        send_next_batch(engine, QUEUE, RefusedCreate(economy_settings(fake)), NOW)
    assert provider_batch_states(engine, batch_id) == ["preparing"]
    # When the seller cancels it, and the intent is taken up again
    assert cancel_unstarted(engine, "local", batch_id) == 3
    run_pass(engine, OpenAIBatches(economy_settings(fake)))
    # Then nothing was sent to the provider and the intent is gone
    assert fake.batches.created == [] and provider_batch_states(engine, batch_id) == []
    assert statuses(engine, batch_id) == [("CANCELLED", None)] * 3


def test_a_batch_cancelled_while_its_provider_batch_is_created_cancels_it_at_the_provider(
        engine: Engine, fake: FakeOpenAI) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    run_pass(engine, CancelledWhileCreating(fake, engine, batch_id))
    assert len(fake.batches.created) == 1 and fake.batches.cancelled == fake.batches.created
    assert provider_batch_states(engine, batch_id) == ["finished"]
    assert statuses(engine, batch_id) == [("CANCELLED", None)] * 2


def test_a_provider_batch_that_ended_before_the_cancel_reached_it_is_not_cancelled(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given a provider batch in progress, then ended at the provider as the seller cancels
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    batches = OpenAIBatches(economy_settings(fake))
    run_pass(engine, batches)
    assert cancel_unstarted(engine, "local", batch_id) == 2
    fake.batches.plan.hold = False
    # When the loop takes the cancel up, it finds the batch ended: nothing to cancel (a provider
    # refuses to cancel an ended batch, which would otherwise be asked again forever)
    run_pass(engine, batches)
    assert fake.batches.cancelled == [] and provider_batch_states(engine, batch_id) == ["finished"]
    assert statuses(engine, batch_id) == [("CANCELLED", None)] * 2


def test_one_provider_batch_carries_no_more_than_the_provider_s_size_limit(engine: Engine,
                                                                         fake: FakeOpenAI) -> None:
    # Given five listings and a provider taking about two of them per batch
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 5)
    with engine.connect() as conn:
        sizes = conn.execute(text(
            "select 2 * octet_length(payload::text) + :overhead from review_jobs where batch_id = :b "
            "order by item_position"), {"b": batch_id, "overhead": REQUEST_OVERHEAD_BYTES}).scalars().all()
    batches = OpenAIBatches(economy_settings(fake))
    batches.max_bytes = max(sizes[0] + sizes[1], sizes[2] + sizes[3])
    # When the loop sends them
    run_pass(engine, batches)
    # Then they go as three provider batches, none over the limit
    assert carried_per_provider_batch(engine, batch_id) == [2, 2, 1]
    assert len(fake.batches.created) == 3


def test_a_pass_takes_only_its_own_provider_s_batches(engine: Engine, fake: FakeOpenAI) -> None:
    # Given an OpenAI provider batch in progress
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 1)
    run_pass(engine, OpenAIBatches(economy_settings(fake)))
    # When a worker configured for Gemini runs its pass (a rolling change of provider)
    with FakeGemini() as gemini:
        run_economy_pass(engine, QUEUE, gemini_batches(gemini), NOW, max_attempts=3)
    # Then it leaves the OpenAI batch alone (it would ask Gemini for an OpenAI batch id)
    assert provider_batch_states(engine, batch_id) == ["submitted"]
