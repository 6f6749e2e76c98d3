"""Economy mode's limits: budgets are checked when a provider batch claims jobs (at batch
prices, the ledger's), and a provider batch's answers are read as a stream and written chunk by
chunk, not read whole (up to 50,000 per provider batch)."""

import uuid
from dataclasses import replace
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.economy.openai_batches import OpenAIBatches
from core.economy.poll import poll_next_batch
from core.economy.results import CHUNK
from core.economy.service import economy_step
from core.economy.submit import send_next_batch
from core.listings.errors import SAFE_MESSAGES
from tests.builders import items
from tests.fake_openai import FakeOpenAI
from tests.test_economy_mode import NOW, QUEUE, economy_batch, economy_settings, statuses
from tests.test_economy_mode import fake as fake  # the fixture


def jobs(engine: Engine, batch_id: uuid.UUID) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(
            "select status, error_code, error_message, attempts from review_jobs where batch_id = :b "
            "order by item_position"), {"b": batch_id})]


def over_budget(count: int) -> list[tuple[Any, ...]]:
    return [("CANCELLED", "BUDGET_EXCEEDED", SAFE_MESSAGES["BUDGET_EXCEEDED"], 0)] * count


def test_an_economy_batch_whose_budget_is_spent_sends_no_more_and_ends_the_rest_as_budget_exceeded(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given an economy batch of 4 whose budget ($0.0001) two batch-priced reviews exceed, sent
    # two listings per provider batch
    batch_id = accept_batch(engine, QUEUE, owner="local", key="budgeted", items=items(4), max_items=4,
                            mode="economy", budget=Decimal("0.0001")).batch_id
    batches, policy = OpenAIBatches(economy_settings(fake)), replace(NOW, max_requests=2)
    assert send_next_batch(engine, QUEUE, batches, policy)
    assert poll_next_batch(engine, QUEUE, batches, policy, max_attempts=3)
    # When the next claim is made
    assert send_next_batch(engine, QUEUE, batches, policy)
    # Then the other two end as the standard path ends them (no call, no attempt)
    assert jobs(engine, batch_id) == [("SUCCEEDED", None, None, 1)] * 2 + over_budget(2)
    assert len(fake.batches.created) == 1
    assert not send_next_batch(engine, QUEUE, batches, policy)


def test_a_seller_s_daily_budget_stops_their_next_economy_batch_before_it_is_sent(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given a seller whose first economy batch spent their daily budget
    settings = economy_settings(fake).model_copy(update={"daily_budget": 0.0001})
    step = economy_step(engine, QUEUE, settings, NOW)
    first = economy_batch(engine, 2)
    step()
    assert statuses(engine, first) == [("SUCCEEDED", None)] * 2
    # When they submit another economy batch
    second = economy_batch(engine, 2)
    step()
    # Then none of it reaches the provider: it ends as BUDGET_EXCEEDED
    assert jobs(engine, second) == over_budget(2)
    assert len(fake.batches.created) == 1


def test_answers_are_written_while_the_output_file_is_still_being_read(engine: Engine,
                                                                       fake: FakeOpenAI) -> None:
    # Given a provider batch whose output file is sent in two parts, the second only once the
    # first chunk's results are in the database (a client reading the file whole never gets it)
    batch_id = economy_batch(engine, CHUNK + 100)

    def first_chunk_written() -> bool:
        with engine.connect() as conn:
            return conn.execute(text("select count(*) from review_jobs where batch_id = :b "
                                     "and status = 'SUCCEEDED'"), {"b": batch_id}).scalar_one() >= CHUNK

    fake.batches.plan.gate, fake.batches.plan.gate_lines = first_chunk_written, CHUNK
    # When the maintenance step polls it
    economy_step(engine, QUEUE, economy_settings(fake), NOW)()
    # Then every answer was written
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * (CHUNK + 100)
