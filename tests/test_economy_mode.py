"""Economy mode (core/economy): an economy batch's jobs go to OpenAI's Batch API through the real
openai SDK against the local fake (tests/fake_openai.py), driven by the maintenance step itself
(run_economy_pass); results land in the same job lifecycle as the standard mode's, failed and
expired items are re-sent in standard mode, a crash between the provider's acceptance and our
commit never sends the same jobs twice, and cancelling the batch cancels the provider batch."""

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from streamlit.testing.v1 import AppTest

from core.batches.acceptance import accept_batch
from core.costs.ledger import batch_cost
from core.costs.prices import price_of
from core.economy.mode import batch_mode
from core.economy.openai_batches import OpenAIBatches
from core.economy.policy import EconomyPolicy
from core.economy.service import run_economy_pass
from core.economy.status import EconomyStatus, economy_status
from core.errors import InvalidBatchRequest
from core.jobs.cancel import cancel_unstarted
from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.model_slots import ModelSlots
from core.listings.providers.openai_chat import RESPONSE_FORMAT, OpenAIChatProvider
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.api_server import post_batch
from tests.builders import items
from tests.fake_openai import FakeOpenAI
from tests.test_batch_names import CATALOG, LISTING
from tests.test_cli import run
from tests.test_ui_apptest import upload

QUEUE = DramatiqPgQueue("listing-reviews")
MODEL = "gpt-4.1-mini"
# No lease and no wait before polling: each pass takes up whatever is left, so the tests wait
# on rows, never on time.
NOW = EconomyPolicy(lease_seconds=0, first_poll_seconds=0, max_poll_seconds=0)


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def economy_settings(fake: FakeOpenAI) -> Settings:
    return Settings(database_url="postgresql://unused", provider="openai", openai_api_key="k",
                    openai_base_url=fake.base_url, openai_model=MODEL, model_timeout=10)


def economy_batch(engine: Engine, count: int) -> uuid.UUID:
    return accept_batch(engine, QUEUE, owner="local", key=f"k-{uuid.uuid4()}", items=items(count),
                        max_items=count, mode="economy").batch_id


def run_pass(engine: Engine, fake: FakeOpenAI) -> None:
    settings = economy_settings(fake)
    run_economy_pass(engine, QUEUE, OpenAIBatches(settings), NOW, settings.max_attempts)


def statuses(engine: Engine, batch_id: uuid.UUID) -> list[tuple[str, str | None]]:
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(
            "select status, error_code from review_jobs where batch_id = :b order by item_position"),
            {"b": batch_id})]


def queued_messages(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select count(*) from dramatiq.queue where state = 'queued'")).scalar_one()


def provider_batch_states(engine: Engine, batch_id: uuid.UUID) -> list[str]:
    with engine.connect() as conn:
        return conn.execute(text("select state from provider_batches where batch_id = :b"),
                            {"b": batch_id}).scalars().all()


def test_an_economy_batch_writes_no_queue_message_and_is_reviewed_through_one_provider_batch(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given an economy batch of three listings
    batch_id = economy_batch(engine, 3)
    assert queued_messages(engine) == 0
    # When the maintenance step sends it and then polls it
    run_pass(engine, fake)
    # Then one file and one batch went to the provider, each line our job id and the strict request
    assert len(fake.batches.created) == 1
    batch = fake.batches.batches[fake.batches.created[0]]
    lines = fake.batches.lines(batch["input_file_id"])
    with engine.connect() as conn:
        job_ids = conn.execute(text("select id::text from review_jobs where batch_id = :b "
                                    "order by item_position"), {"b": batch_id}).scalars().all()
    assert [line["custom_id"] for line in lines] == job_ids
    assert all(line["body"]["response_format"] == RESPONSE_FORMAT and line["url"] == "/v1/chat/completions"
               for line in lines)
    # And every job succeeded with the review, marked as the Batch API's
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3
    with engine.connect() as conn:
        results = conn.execute(text("select result from review_jobs where batch_id = :b"),
                               {"b": batch_id}).scalars().all()
    assert {(r["provider"], r["qualityScore"]) for r in results} == {("openai-batch", 82)}
    assert provider_batch_states(engine, batch_id) == ["finished"]


def test_the_batch_page_status_shows_the_mode_and_the_provider_batch(engine: Engine,
                                                                     fake: FakeOpenAI) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    assert economy_status(engine, "local", batch_id) == EconomyStatus("economy", ())
    run_pass(engine, fake)
    status = economy_status(engine, "local", batch_id)
    assert status is not None and status.mode == "economy"
    [line] = status.provider_batches
    assert (line.state, line.provider_batch_id, line.items) == ("submitted", fake.batches.created[0], 2)
    assert line.expected_by is not None and line.submitted_at is not None
    assert line.expected_by > line.submitted_at
    assert economy_status(engine, "someone-else", batch_id) is None


def test_economy_results_cost_the_batch_price(engine: Engine, fake: FakeOpenAI) -> None:
    batch_id = economy_batch(engine, 2)
    run_pass(engine, fake)
    standard = price_of("openai", MODEL, datetime.now(UTC), None)
    batch_price = price_of("openai-batch", MODEL, datetime.now(UTC), None)
    assert standard is not None and batch_price is not None
    assert batch_price.input_per_million == standard.input_per_million / 2
    assert batch_cost(engine, "local", batch_id, None).amount_usd == 2 * batch_price.cost(123, 45)


def test_items_the_provider_failed_are_sent_again_in_standard_mode(engine: Engine, fake: FakeOpenAI) -> None:
    # Given a provider batch that completes with its first two items failed (HTTP 500)
    fake.batches.plan.failed_items = 2
    batch_id = economy_batch(engine, 4)
    run_pass(engine, fake)
    # Then those two are QUEUED again with a queue message each, the others succeeded
    assert statuses(engine, batch_id) == [("QUEUED", None)] * 2 + [("SUCCEEDED", None)] * 2
    assert queued_messages(engine) == 2
    # And the standard path reviews them (no second provider batch)
    rerun_standard(engine, fake, batch_id)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 4
    assert len(fake.batches.created) == 1


def rerun_standard(engine: Engine, fake: FakeOpenAI, batch_id: uuid.UUID) -> None:
    provider = OpenAIChatProvider(name="openai", api_key="k", base_url=fake.base_url, model=MODEL, timeout=10)
    runner = JobRunner(engine, QUEUE, provider, ModelSlots(2, 5), economy_settings(fake), InFlight())
    with engine.connect() as conn:
        queued = conn.execute(text("select id from review_jobs where batch_id = :b and status = 'QUEUED'"),
                              {"b": batch_id}).scalars().all()
    assert [runner.execute(job_id) for job_id in queued] == [Outcome.SUCCEEDED] * len(queued)


def test_expired_items_are_sent_again_in_standard_mode_while_attempts_remain(
        engine: Engine, fake: FakeOpenAI) -> None:
    fake.batches.plan.outcome, fake.batches.plan.answered_items = "expired", 1
    batch_id = economy_batch(engine, 3)
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] + [("QUEUED", None)] * 2
    rerun_standard(engine, fake, batch_id)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3


def test_an_expired_item_with_no_attempt_left_fails_with_the_standard_code(engine: Engine,
                                                                         fake: FakeOpenAI) -> None:
    fake.batches.plan.outcome = "expired"
    batch_id = economy_batch(engine, 1)
    settings = economy_settings(fake)
    run_economy_pass(engine, QUEUE, OpenAIBatches(settings), NOW, max_attempts=1)
    assert statuses(engine, batch_id) == [("FAILED", "MODEL_TIMEOUT")]


def test_an_unusable_answer_fails_with_the_standard_code_and_no_provider_text(engine: Engine,
                                                                            fake: FakeOpenAI) -> None:
    fake.batches.plan.content = '{"qualityScore": "secret provider text"}'
    batch_id = economy_batch(engine, 1)
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("FAILED", "AI_RESPONSE_INVALID")]
    with engine.connect() as conn:
        stored = conn.execute(text("select row_to_json(j)::text from review_jobs j")).scalar_one()
    assert "secret" not in stored


def fail_recording(engine: Engine) -> None:
    """The commit that records a provider batch fails (a trigger stands in for a crash)."""
    with engine.begin() as conn:
        conn.execute(text("""
            create function fail_record() returns trigger language plpgsql as
              $$ begin raise exception 'crash before commit'; end $$;
            create trigger fail_record before update of provider_batch_id on provider_batches
              for each row execute function fail_record()"""))


def test_a_crash_between_the_providers_acceptance_and_our_commit_sends_nothing_twice(
        engine: Engine, fake: FakeOpenAI) -> None:
    # Given the commit that records the provider batch fails (a trigger stands in for the crash)
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 3)
    fail_recording(engine)
    with pytest.raises(DBAPIError):
        run_pass(engine, fake)
    assert len(fake.batches.created) == 1 and provider_batch_states(engine, batch_id) == ["preparing"]
    # When the loop runs again after the "restart"
    with engine.begin() as conn:
        conn.execute(text("drop trigger fail_record on provider_batches"))
    run_pass(engine, fake)
    run_pass(engine, fake)
    # Then the provider batch it created is recorded, and no second one was created
    assert len(fake.batches.created) == 1
    with engine.connect() as conn:
        recorded = conn.execute(text("select provider_batch_id from provider_batches where batch_id = :b"),
                                {"b": batch_id}).scalars().all()
    assert recorded == fake.batches.created
    fake.batches.plan.hold = False
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3


def test_cancelling_an_economy_batch_cancels_its_provider_batch(engine: Engine, fake: FakeOpenAI) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("RUNNING", None)] * 2
    assert cancel_unstarted(engine, "local", batch_id) == 2
    assert statuses(engine, batch_id) == [("CANCELLED", None)] * 2
    run_pass(engine, fake)
    assert fake.batches.cancelled == fake.batches.created
    assert provider_batch_states(engine, batch_id) == ["finished"]


def test_a_standard_batch_keeps_its_queue_messages_and_no_provider_batch(engine: Engine,
                                                                          fake: FakeOpenAI) -> None:
    accept_batch(engine, QUEUE, owner="local", key="std", items=items(2), max_items=2)
    assert queued_messages(engine) == 2
    run_pass(engine, fake)
    assert fake.batches.created == []


def test_an_unknown_mode_or_a_provider_without_a_batch_api_is_refused() -> None:
    assert batch_mode(None, "heuristic") == "standard" and batch_mode(" Economy ", "openai") == "economy"
    with pytest.raises(InvalidBatchRequest, match="'mode' must be 'standard' or 'economy'"):
        batch_mode("cheap", "openai")
    assert batch_mode("economy", "gemini") == "economy"
    with pytest.raises(InvalidBatchRequest, match="Economy mode needs the openai or gemini provider"):
        batch_mode("economy", "ollama")


def test_cli_submit_mode_economy_stores_an_economy_batch_with_no_queue_message(
        database_url: str, engine: Engine, tmp_path: Path) -> None:
    catalog = tmp_path / "shop.csv"
    catalog.write_text(CATALOG)
    submitted = run("submit", str(catalog), "--mode", "economy", database_url=database_url,
                    LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="k")
    assert submitted.returncode == 0, submitted.stderr
    with engine.connect() as conn:
        assert conn.execute(text("select mode from review_batches")).scalars().all() == ["economy"]
    assert queued_messages(engine) == 0


def test_api_mode_is_checked_before_anything_is_stored(seller: httpx.Client) -> None:
    for mode, message in [("cheap", "'mode' must be"), (1, "'mode' must be"),
                          ("economy", "openai or gemini provider")]:
        refused = post_batch(seller, json={"items": [{"itemId": "a", "listing": LISTING}], "mode": mode})
        assert refused.status_code == 400 and message in refused.text
    accepted = post_batch(seller, json={"items": [{"itemId": "a", "listing": LISTING}], "mode": "standard"})
    assert accepted.status_code == 202, accepted.text


@pytest.mark.parametrize("statement", [
    "update review_batches set mode = 'cheap'",
    "insert into provider_batches (id, batch_id, provider, state) select gen_random_uuid(), id, 'openai', "
    "'submitted' from review_batches",
    "insert into provider_batches (id, batch_id, provider, state) select gen_random_uuid(), id, 'ollama', "
    "'preparing' from review_batches",
    "insert into provider_batches (id, batch_id, provider, state, provider_batch_id, submitted_at) "
    "select gen_random_uuid(), id, 'openai', 'done', 'b', now() from review_batches",
    "insert into provider_batches (id, batch_id, provider, state, provider_batch_id, submitted_at) "
    "select gen_random_uuid(), id, 'openai', 'submitted', 'same', now() from review_batches "
    "cross join generate_series(1, 2)",
    "insert into provider_batch_jobs (job_id, provider_batch_id, token) "
    "select id, gen_random_uuid(), gen_random_uuid() from review_jobs",
])
def test_the_schema_refuses_invalid_economy_rows(engine: Engine, statement: str) -> None:
    economy_batch(engine, 1)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text(statement))


def test_a_job_joins_at_most_one_provider_batch(engine: Engine, fake: FakeOpenAI) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 1)
    run_pass(engine, fake)
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text("insert into provider_batch_jobs (job_id, provider_batch_id, token) "
                          "select job_id, provider_batch_id, gen_random_uuid() from provider_batch_jobs"))
    assert json.dumps(provider_batch_states(engine, batch_id)) == '["submitted"]'


def test_the_upload_page_offers_economy_mode_with_openai_and_the_batch_page_shows_it(
        app: AppTest, engine: Engine, fake: FakeOpenAI, monkeypatch) -> None:
    monkeypatch.setenv("LISTING_REVIEW_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    catalog = b"item_id,title,description,category,price\nA-1,Lamp,Brass desk lamp,Home,9\n"
    upload(app, "lamp.csv", catalog)
    [mode] = app.radio
    assert mode.options == ["Standard (minutes)", "Economy (within 24 h, about half the price)"]
    mode.set_value("economy").run()
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    with engine.connect() as conn:
        assert conn.execute(text("select mode from review_batches")).scalar_one() == "economy"
    assert any("Economy mode (provider Batch API, within 24 h): waiting to be sent" in caption.value
               for caption in app.caption)
