"""Budgets (core/costs/budget.py): a batch's budget given at submit and a seller's budget per
UTC day are checked at admission; once what was spent reaches one, the remaining items end as
CANCELLED with the code BUDGET_EXCEEDED (no model call, no attempt), the batch completes, and a
retry with a raised budget reviews them. Costs come from the real openai SDK's reported usage
against the local fake, priced by genai-prices (gpt-4.1-mini)."""

import json
import math
import re
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.batches.acceptance import accept_batch
from core.batches.progress import get_summary
from core.batches.retry import retry_failed
from core.batches.submission import submit_catalog
from core.costs.budget import checked_budget
from core.costs.ledger import batch_cost
from core.costs.prices import price_of
from core.errors import InvalidBatchRequest
from core.jobs.execution import JobRunner, Outcome
from core.jobs.heartbeat import InFlight
from core.jobs.model_slots import ModelSlots
from core.listings.errors import NEXT_STEPS
from core.listings.providers.openai_chat import OpenAIChatProvider
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.api_server import post_batch
from tests.builders import items
from tests.fake_openai import FakeOpenAI
from tests.processes import WorkerGroup, wait_for
from tests.test_batch_names import BATCHES, CATALOG, LISTING
from tests.test_cli import run

ROOT = Path(__file__).resolve().parent.parent
QUEUE = DramatiqPgQueue("listing-reviews")
MODEL = "gpt-4.1-mini"
# The fake's usage per call (tests/fake_openai.py defaults).
CALL_TOKENS = (123, 45)


def stored_budget(engine: Engine, batch_id: str | uuid.UUID) -> Decimal | None:
    with engine.connect() as conn:
        return conn.execute(text("select budget_usd from review_batches where id = :id"),
                            {"id": batch_id}).scalar_one()


def call_cost() -> Decimal:
    price = price_of("openai", MODEL, datetime.now(UTC), None)
    assert price is not None and price.charged, "genai-prices no longer prices gpt-4.1-mini"
    return price.cost(*CALL_TOKENS)


def runner(engine: Engine, fake: FakeOpenAI, daily_budget: float = 0.0) -> JobRunner:
    settings = Settings(database_url="postgresql://unused", model_timeout=10, daily_budget=daily_budget)
    provider = OpenAIChatProvider(name="openai", api_key="k", base_url=fake.base_url, model=MODEL,
                                  timeout=10)
    return JobRunner(engine, QUEUE, provider, ModelSlots(2, 5), settings, InFlight())


def job_ids(engine: Engine, batch_id: uuid.UUID) -> list[uuid.UUID]:
    with engine.connect() as conn:
        return conn.execute(text("select id from review_jobs where batch_id = :b order by item_position"),
                            {"b": batch_id}).scalars().all()


def outcomes(engine: Engine, batch_id: uuid.UUID) -> dict[tuple[str, str | None, int], int]:
    with engine.connect() as conn:
        rows = conn.execute(text("select status, error_code, attempts, count(*) from review_jobs "
                                 "where batch_id = :b group by 1, 2, 3"), {"b": batch_id}).all()
    return {(row[0], row[1], row[2]): row[3] for row in rows}


def run_all(work: JobRunner, engine: Engine, batch_id: uuid.UUID) -> list[Outcome]:
    """One delivery of each job in order: nothing is in flight when the next is admitted."""
    return [work.execute(job_id) for job_id in job_ids(engine, batch_id)]


def test_a_batch_stops_once_its_budget_is_spent_and_a_retry_with_a_raised_budget_completes_it(
        engine: Engine):
    # Given a 12-item batch whose budget pays for about 3.5 calls
    per_call = call_cost()
    budget = checked_budget(per_call * Decimal("3.5"))
    batch = accept_batch(engine, QUEUE, owner="local", key="b", items=items(12), max_items=12,
                         budget=budget).batch_id
    with FakeOpenAI() as fake:
        work = runner(engine, fake)
        # When every job is delivered once, one after another
        done = run_all(work, engine, batch)
        # Then calls stop as soon as the spend reaches the budget (nothing else in flight): 4
        # calls, the other 8 end unclaimed as BUDGET_EXCEEDED and the batch is complete
        paid = math.ceil(budget / per_call)
        assert done == [Outcome.SUCCEEDED] * paid + [Outcome.BUDGET_EXCEEDED] * (12 - paid)
        assert len(fake.requests) == paid
        assert outcomes(engine, batch) == {("SUCCEEDED", None, 1): paid,
                                           ("CANCELLED", "BUDGET_EXCEEDED", 0): 12 - paid}
        summary = get_summary(engine, "local", batch)
        assert (summary.status, summary.cancelled) == ("COMPLETED", 12 - paid)
        spent = batch_cost(engine, "local", batch, None).amount_usd
        assert budget <= spent < budget + per_call
        # When the seller retries with a budget that covers the rest
        retry = retry_failed(engine, QUEUE, "local", batch, 100, budget=per_call * 10)
        assert retry.reason == "created" and retry.summary.total == 12 - paid
        assert run_all(work, engine, retry.batch_id) == [Outcome.SUCCEEDED] * (12 - paid)
    # Then every listing is reviewed, each exactly once
    assert get_summary(engine, "local", retry.batch_id).succeeded == 12 - paid
    assert len(fake.requests) == 12


def test_a_retry_without_a_new_budget_keeps_the_batch_s_budget(engine: Engine):
    batch = accept_batch(engine, QUEUE, owner="local", key="b", items=items(3), max_items=3,
                         budget=Decimal("0.0001")).batch_id
    with FakeOpenAI() as fake:
        run_all(runner(engine, fake), engine, batch)
    retry = retry_failed(engine, QUEUE, "local", batch, 100)
    with engine.connect() as conn:
        kept = conn.execute(text("select budget_usd from review_batches where id = :id"),
                            {"id": retry.batch_id}).scalar_one()
    assert kept == Decimal("0.0001")


def test_a_seller_s_daily_budget_stops_every_batch_of_that_seller_only(engine: Engine):
    # Given a daily budget of about 2.5 calls and two batches of seller A, one of seller B
    per_call = call_cost()
    first = accept_batch(engine, QUEUE, owner="seller-a", key="1", items=items(4), max_items=4).batch_id
    second = accept_batch(engine, QUEUE, owner="seller-a", key="2", items=items(2), max_items=2).batch_id
    other = accept_batch(engine, QUEUE, owner="seller-b", key="3", items=items(2), max_items=2).batch_id
    with FakeOpenAI() as fake:
        work = runner(engine, fake, daily_budget=float(per_call * Decimal("2.5")))
        # When all are delivered
        run_all(work, engine, first), run_all(work, engine, second), run_all(work, engine, other)
    # Then A's spend stopped at 3 calls across its batches; B's own day is untouched
    assert outcomes(engine, first) == {("SUCCEEDED", None, 1): 3, ("CANCELLED", "BUDGET_EXCEEDED", 0): 1}
    assert outcomes(engine, second) == {("CANCELLED", "BUDGET_EXCEEDED", 0): 2}
    assert outcomes(engine, other) == {("SUCCEEDED", None, 1): 2}


def test_overspend_with_real_workers_is_bounded_by_the_calls_in_flight(engine: Engine, database_url: str):
    """2 processes x 2 threads: at most 4 calls are in flight when the budget is reached, so
    the batch spends less than its budget plus 4 calls' cost, and stops far short of all."""
    per_call = call_cost()
    budget = checked_budget(per_call * 6)
    with FakeOpenAI() as model:
        for _ in range(40):
            model.hang(0.2)
        group = WorkerGroup(database_url, LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="k",
                            OPENAI_BASE_URL=model.base_url, OPENAI_MODEL=MODEL,
                            LISTING_REVIEW_WORKER_PROCESSES="2", LISTING_REVIEW_WORKER_THREADS="2",
                            LISTING_REVIEW_SHUTDOWN_WAIT="1")
        try:
            group.wait_ready(processes=2)
            batch = accept_batch(engine, QUEUE, owner="local", key="b", items=items(40), max_items=40,
                                 budget=budget).batch_id
            wait_for(lambda: get_summary(engine, "local", batch).status == "COMPLETED", "completion")
        finally:
            group.close()
    spent = batch_cost(engine, "local", batch, None).amount_usd
    assert budget <= spent < budget + 4 * per_call
    stopped = outcomes(engine, batch)[("CANCELLED", "BUDGET_EXCEEDED", 0)]
    assert stopped == 40 - len(model.requests) and stopped >= 40 - 10


def test_submit_takes_a_budget_and_rejects_a_bad_one_storing_nothing(engine: Engine):
    settings = Settings(database_url="postgresql://unused")
    data = b"item_id,title,description,category,price\nA1,Lamp,A small desk lamp.,Lighting,12.00\n"
    accepted = submit_catalog(engine, QUEUE, settings, owner="local", filename="c.csv", data=data,
                              budget="2.50")
    with engine.connect() as conn:
        stored = conn.execute(text("select budget_usd from review_batches where id = :id"),
                              {"id": accepted.batch_id}).scalar_one()
    assert stored == Decimal("2.5")
    for bad in ("0", "-1", "lots", "nan", "1000001"):
        with pytest.raises(InvalidBatchRequest, match="budget must be an amount of US dollars"):
            submit_catalog(engine, QUEUE, settings, owner="local", filename="c.csv", data=data,
                           key=f"k-{bad}", budget=bad)
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from review_batches")).scalar_one() == 1


def test_the_budget_column_rejects_zero_and_a_cancelled_job_takes_no_other_code(engine: Engine):
    batch = accept_batch(engine, QUEUE, owner="local", key="b", items=items(1), max_items=1).batch_id
    with pytest.raises(IntegrityError, match="review_batches_budget_check"), engine.begin() as conn:
        conn.execute(text("update review_batches set budget_usd = 0 where id = :id"), {"id": batch})
    with pytest.raises(IntegrityError, match="review_jobs_error_check"), engine.begin() as conn:
        conn.execute(text("update review_jobs set status = 'CANCELLED', completed_at = now(), "
                          "error_code = 'MODEL_TIMEOUT' where batch_id = :id"), {"id": batch})


def test_a_seller_reads_what_to_do_about_a_budget_exceeded_item():
    assert "Raise the budget" in NEXT_STEPS["BUDGET_EXCEEDED"]


def test_cli_submit_and_retry_take_a_budget(database_url: str, engine: Engine, tmp_path):
    catalog = tmp_path / "shop.csv"
    catalog.write_text(CATALOG)
    submitted = run("submit", str(catalog), "--budget", "2.50", "--json", database_url=database_url)
    assert submitted.returncode == 0, submitted.stderr
    batch_id = json.loads(submitted.stdout)["batchId"]
    assert stored_budget(engine, batch_id) == Decimal("2.5")
    assert json.loads(run("batch", batch_id, "--json", database_url=database_url).stdout)["budgetUsd"] == 2.5
    assert re.search(r"^budget +\$2\.5000$", run("batch", batch_id, database_url=database_url).stdout, re.M)
    refused = run("submit", str(catalog), "--key", "other", "--budget", "-1", "--json",
                  database_url=database_url)
    assert refused.returncode == 1 and json.loads(refused.stdout)["error"]["code"] == (
        "INVALID_REVIEW_BATCH_REQUEST")
    assert "retry" in run("retry", "--help", database_url=database_url).stdout
    assert "--budget" in run("retry", "--help", database_url=database_url).stdout


def test_api_takes_the_budget_beside_the_items_or_as_a_form_field(seller: httpx.Client,
                                                                  shared_engine: Engine):
    from_json = post_batch(seller, json={"items": [{"itemId": "it-1", "listing": LISTING}], "budget": 2.5})
    from_form = post_batch(seller, files={"file": ("shop.csv", CATALOG.encode())}, data={"budget": "0.75"})
    for response, budget in ((from_json, "2.5"), (from_form, "0.75")):
        assert response.status_code == 202, response.text
        assert stored_budget(shared_engine, response.json()["batchId"]) == Decimal(budget)
        shown = seller.get(f"{BATCHES}/{response.json()['batchId']}").json()
        assert shown["budgetUsd"] == float(budget)


@pytest.mark.parametrize("request_body", [
    {"json": {"items": [{"itemId": "it-1", "listing": LISTING}], "budget": 0}},
    {"json": {"items": [{"itemId": "it-1", "listing": LISTING}], "budget": "lots"}},
    {"json": {"items": [{"itemId": "it-1", "listing": LISTING}], "budget": [1]}},
    {"files": {"file": ("shop.csv", CATALOG.encode())}, "data": {"budget": "-2"}},
])
def test_api_refuses_a_bad_budget_with_a_400_storing_nothing(seller: httpx.Client, request_body: dict):
    response = post_batch(seller, **request_body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert "budget" in response.json()["detail"]
    assert seller.get(BATCHES).json()["items"] == []


def test_the_upload_page_submits_the_budget_typed_beside_the_name(database_url: str, engine: Engine,
                                                                  monkeypatch):
    from streamlit.testing.v1 import AppTest

    from core.settings import get_settings
    from ui.services import runtime

    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    runtime.clear()
    try:
        app = AppTest.from_file(str(ROOT / "ui" / "app.py"), default_timeout=30)
        app.run()
        app.file_uploader[0].set_value(("shop.csv", CATALOG.encode(), "text/csv")).run()
        next(box for box in app.number_input if box.label == "Budget in USD (optional)").set_value(2.5).run()
        next(button for button in app.button if button.label == "Submit for review").click().run()
        assert not app.exception
    finally:
        get_settings.cache_clear()
        runtime.clear()
    with engine.connect() as conn:
        assert conn.execute(text("select budget_usd from review_batches")).scalar_one() == Decimal("2.5")


def test_the_operations_page_shows_the_cap_and_the_daily_budget(database_url: str, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from core.settings import get_settings
    from ui.services import runtime

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("LISTING_REVIEW_MAX_RUNNING_PER_SELLER", "4")
    monkeypatch.setenv("LISTING_REVIEW_DAILY_BUDGET", "12.5")
    get_settings.cache_clear()
    runtime.clear()
    try:
        app = AppTest.from_file(str(ROOT / "ui" / "app.py"), default_timeout=30)
        app.switch_page("views/operations.py").run()
        assert not app.exception
        captions = [caption.value for caption in app.caption]
    finally:
        get_settings.cache_clear()
        runtime.clear()
    assert "Every seller: at most 4 running jobs, a budget of $12.50 per UTC day." in captions


def test_api_retry_takes_a_raised_budget_and_refuses_a_bad_one(seller: httpx.Client):
    submitted = post_batch(seller, json={"items": [{"itemId": "it-1", "listing": LISTING}], "budget": 0.5})
    batch = submitted.json()["batchId"]
    assert seller.post(f"{BATCHES}/{batch}/cancel").status_code == 200
    refused = seller.post(f"{BATCHES}/{batch}/retry", params={"budget": "lots"})
    assert refused.status_code == 400 and "budget" in refused.json()["detail"]
    retried = seller.post(f"{BATCHES}/{batch}/retry", params={"budget": "5"})
    assert retried.status_code == 202, retried.text
    assert seller.get(f"{BATCHES}/{retried.json()['batchId']}").json()["budgetUsd"] == 5.0
