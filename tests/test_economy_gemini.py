"""Economy mode with Gemini's batch mode (core/economy/gemini_batches.py) through the real
google-genai SDK against the local fake (tests/fake_gemini_batches.py).

The wire tests need no database. The end-to-end tests drive the maintenance step itself
(run_economy_pass) on real PostgreSQL, as tests/test_economy_mode.py does for OpenAI
(provider_batches admits 'gemini' since migration 0016).
"""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import ProgrammingError
from streamlit.testing.v1 import AppTest

from core.costs.ledger import batch_cost
from core.costs.prices import price_of
from core.economy.gemini_batches import GeminiBatches
from core.economy.service import run_economy_pass
from core.jobs.cancel import cancel_unstarted
from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer
from core.listings.providers.gemini import GeminiProvider
from core.listings.snapshot import encode_snapshot
from core.settings import Settings
from tests.builders import draft
from tests.fake_gemini import FakeGemini
from tests.test_economy_mode import (
    NOW,
    QUEUE,
    economy_batch,
    fail_recording,
    provider_batch_states,
    queued_messages,
    statuses,
)
from tests.test_ui_apptest import upload

MODEL = "gemini-2.5-flash"

@pytest.fixture
def fake() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


def gemini_batches(fake: FakeGemini) -> GeminiBatches:
    return GeminiBatches(Settings(database_url="postgresql://unused", provider="gemini", gemini_api_key="k",
                                  gemini_base_url=fake.base_url, gemini_model=MODEL, model_timeout=10))


def run_pass(engine: Engine, fake: FakeGemini, max_attempts: int = 3) -> None:
    run_economy_pass(engine, QUEUE, gemini_batches(fake), NOW, max_attempts)


def sent(fake: FakeGemini, count: int) -> tuple[GeminiBatches, str, list[str]]:
    """A batch job of `count` listings created through the SDK; its name and our job ids."""
    batches, job_ids = gemini_batches(fake), [str(uuid.uuid4()) for _ in range(count)]
    created = batches.create("intent-1", [(job_id, encode_snapshot(draft())) for job_id in job_ids])
    return batches, created.provider_batch_id, job_ids


def test_each_batch_request_is_the_standard_request_with_our_job_id_as_its_key(fake: FakeGemini) -> None:
    GeminiProvider(api_key="k", base_url=fake.base_url, model=MODEL, timeout=10).review(draft(), 10)
    standard = fake.requests[-1].body
    _, name, job_ids = sent(fake, 2)
    requests = fake.batches.requests[name]
    assert fake.batches.rejected == [] and fake.batches.jobs[name]["metadata"]["displayName"] == "intent-1"
    assert [item["metadata"]["key"] for item in requests] == job_ids
    for item in requests:
        assert item["request"]["generationConfig"] == standard["generationConfig"]
        assert item["request"]["contents"] == standard["contents"]


@pytest.mark.parametrize("outcome, state", [("completed", "completed"), ("expired", "expired"),
                                            ("cancelled", "cancelled"), ("failed", "failed")])
def test_gemini_job_states_map_onto_the_provider_neutral_ones(fake: FakeGemini, outcome: str,
                                                              state: str) -> None:
    fake.batches.plan.hold = True
    batches, name, _ = sent(fake, 1)
    assert batches.status(name).state == "running"
    fake.batches.plan.hold, fake.batches.plan.outcome = False, outcome
    assert batches.status(name).state == state


def test_answers_are_keyed_by_job_id_validated_and_failed_items_are_bounded_errors(fake: FakeGemini) -> None:
    fake.batches.plan.failed_items = 1
    batches, name, job_ids = sent(fake, 3)
    found = dict(batches.answers(name, batches.status(name)))
    assert list(found) == job_ids
    assert isinstance(found[job_ids[0]], ReviewError) and found[job_ids[0]].code == "AI_PROVIDER_UNAVAILABLE"
    assert all(isinstance(found[job_id], ProviderAnswer) for job_id in job_ids[1:])


def test_a_resumed_intent_finds_its_batch_job_by_display_name(fake: FakeGemini) -> None:
    batches, name, _ = sent(fake, 1)
    since = datetime.now(UTC) - timedelta(seconds=5)
    found = batches.find("intent-1", since)
    assert found is not None and found.provider_batch_id == name
    assert batches.find("another-intent", since) is None


def test_the_fake_refuses_a_batch_request_without_a_key_or_a_described_schema(fake: FakeGemini) -> None:
    url = f"{fake.base_url}/v1beta/models/{MODEL}:batchGenerateContent"
    request = {"contents": [{"parts": [{"text": "x"}]}], "generationConfig": {"responseSchema": {
        "type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}}
    batch = {"inputConfig": {"requests": {"requests": [{"request": request}]}}}
    refused = httpx.post(url, json={"batch": batch})
    assert refused.status_code == 400
    assert fake.batches.rejected == [["request without a key", "schema.a has no description"]]


def test_an_economy_batch_is_reviewed_through_one_gemini_batch_job_at_batch_prices(
        engine: Engine, fake: FakeGemini) -> None:
    batch_id = economy_batch(engine, 3)
    run_pass(engine, fake)
    [name] = fake.batches.created
    with engine.connect() as conn:
        job_ids = conn.execute(text("select id::text from review_jobs where batch_id = :b "
                                    "order by item_position"), {"b": batch_id}).scalars().all()
    assert [item["metadata"]["key"] for item in fake.batches.requests[name]] == job_ids
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3
    assert provider_batch_states(engine, batch_id) == ["finished"]
    price = price_of("gemini-batch", MODEL, datetime.now(UTC), None)
    assert price is not None
    assert batch_cost(engine, "local", batch_id, None).amount_usd == 3 * price.cost(321, 54)


def test_items_gemini_failed_are_sent_again_in_standard_mode(engine: Engine, fake: FakeGemini) -> None:
    fake.batches.plan.failed_items = 2
    batch_id = economy_batch(engine, 4)
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("QUEUED", None)] * 2 + [("SUCCEEDED", None)] * 2
    assert queued_messages(engine) == 2 and len(fake.batches.created) == 1


@pytest.mark.parametrize("outcome", ["expired", "cancelled"])
def test_items_an_expired_or_cancelled_gemini_job_left_follow_the_failure_policy(
        engine: Engine, fake: FakeGemini, outcome: str) -> None:
    fake.batches.plan.outcome, fake.batches.plan.answered_items = outcome, 1
    batch_id = economy_batch(engine, 3)
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] + [("QUEUED", None)] * 2
    other = economy_batch(engine, 1)
    fake.batches.plan.answered_items = 0
    run_pass(engine, fake, max_attempts=1)
    assert statuses(engine, other) == [("FAILED", "MODEL_TIMEOUT")]


def test_cancelling_an_economy_batch_cancels_its_gemini_batch_job(engine: Engine, fake: FakeGemini) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 2)
    run_pass(engine, fake)
    assert cancel_unstarted(engine, "local", batch_id) == 2
    run_pass(engine, fake)
    assert fake.batches.cancelled == fake.batches.created
    assert statuses(engine, batch_id) == [("CANCELLED", None)] * 2
    assert provider_batch_states(engine, batch_id) == ["finished"]


def test_a_crash_between_gemini_s_acceptance_and_our_commit_creates_no_second_batch_job(
        engine: Engine, fake: FakeGemini) -> None:
    fake.batches.plan.hold = True
    batch_id = economy_batch(engine, 3)
    fail_recording(engine)
    with pytest.raises(ProgrammingError, match="crash before commit"):
        run_pass(engine, fake)
    assert len(fake.batches.created) == 1 and provider_batch_states(engine, batch_id) == ["preparing"]
    with engine.begin() as conn:
        conn.execute(text("drop trigger fail_record on provider_batches"))
    run_pass(engine, fake)
    assert len(fake.batches.created) == 1
    with engine.connect() as conn:
        recorded = conn.execute(text("select provider_batch_id from provider_batches where batch_id = :b"),
                                {"b": batch_id}).scalars().all()
    assert recorded == fake.batches.created
    fake.batches.plan.hold = False
    run_pass(engine, fake)
    assert statuses(engine, batch_id) == [("SUCCEEDED", None)] * 3


def test_the_upload_page_offers_economy_mode_with_gemini(app: AppTest, engine: Engine, fake: FakeGemini,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"LISTING_REVIEW_PROVIDER": "gemini", "GEMINI_API_KEY": "k",
                        "GEMINI_BASE_URL": fake.base_url}.items():
        monkeypatch.setenv(name, value)
    upload(app, "lamp.csv", b"item_id,title,description,category,price\nA-1,Lamp,Brass desk lamp,Home,9\n")
    [mode] = app.radio
    mode.set_value("economy").run()
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    with engine.connect() as conn:
        assert conn.execute(text("select mode from review_batches")).scalar_one() == "economy"
