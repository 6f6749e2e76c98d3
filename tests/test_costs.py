"""The cost ledger: costs derived from the usage stored with each result, priced by the
override file first and genai-prices second; unknown models stay unknown, never guessed.
"""

import json
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from genai_prices import Usage, calc_price
from sqlalchemy import Engine

from core.costs.ledger import batch_cost, batches_costs, costs_today, daily_costs
from core.costs.prices import read_price_file
from core.listings.review import ListingReview
from core.listings.service import ReviewOutcome
from tests.test_schema_invariants import insert_batch, insert_job

DAY = "2026-03-02"
AT = f"{DAY}T10:00:00Z"
REVIEW = ListingReview(quality_score=80, missing_fields=[], issues=[], suggestions=[],
                       requires_human_review=False)


def result(provider: str, model: str, tokens: tuple[int, int] | None) -> str:
    """A result as a worker stores it (ReviewOutcome.to_stored_result)."""
    input_tokens, output_tokens = tokens or (None, None)
    return json.dumps(ReviewOutcome(REVIEW, provider, model, "v1", 0.1, input_tokens,
                                    output_tokens).to_stored_result())


def succeeded_batch(engine: Engine, jobs: list[tuple[str, str, tuple[int, int] | None]],
                    owner: str = "local", completed: str = AT) -> uuid.UUID:
    with engine.begin() as conn:
        batch_id = insert_batch(conn, owner=owner)
        for position, (provider, model, tokens) in enumerate(jobs, start=1):
            insert_job(conn, owner=owner, key=None, batch=batch_id, item=f"i-{position}",
                       position=position, status="SUCCEEDED", started=completed, completed=completed,
                       result=result(provider, model, tokens))
    return batch_id


def price_file(tmp_path: Path, body: str, suffix: str = ".toml") -> Path:
    path = tmp_path / f"prices{suffix}"
    path.write_text(body, encoding="utf-8")
    return path


def library_cost(model: str, input_tokens: int, output_tokens: int) -> Decimal:
    return calc_price(Usage(input_tokens=input_tokens, output_tokens=output_tokens), model,
                      provider_id="openai", genai_request_timestamp=datetime.fromisoformat(AT)).total_price


def test_an_openai_batch_costs_its_tokens_at_genai_prices(engine: Engine):
    batch_id = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1200, 300)),
                                        ("openai", "gpt-4.1-mini", (800, 200))])
    cost = batch_cost(engine, "local", batch_id, None)
    assert (cost.input_tokens, cost.output_tokens) == (2000, 500)
    assert cost.amount_usd == library_cost("gpt-4.1-mini", 2000, 500) > 0
    assert cost.price_sources[0].startswith("genai-prices ") and cost.prices_as_of is None
    assert json.loads(json.dumps(cost.to_json_dict()))["inputTokens"] == 2000


def test_the_price_file_wins_and_its_date_is_reported(engine: Engine, tmp_path: Path):
    path = price_file(tmp_path, 'as_of = 2026-02-01\n[prices.openai."gpt-4.1-mini"]\n'
                                "input_per_million = 2\noutput_per_million = 10\n")
    batch_id = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1_000_000, 100_000))])
    cost = batch_cost(engine, "local", batch_id, path)
    assert cost.amount_usd == Decimal(3) and cost.prices_as_of.isoformat() == "2026-02-01"
    assert "prices as of 2026-02-01 (price file)" in cost.describe()


def test_a_model_no_source_knows_costs_unknown_not_a_guess(engine: Engine):
    batch_id = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (10, 5)),
                                        ("ollama", "llama3.1", (100, 50))])
    cost = batch_cost(engine, "local", batch_id, None)
    assert cost.amount_usd is None and (cost.input_tokens, cost.output_tokens) == (110, 55)
    assert cost.describe().startswith("unknown (110 in / 55 out tokens")


def test_a_review_stored_without_its_model_costs_unknown_not_a_crash(engine: Engine):
    with engine.begin() as conn:
        batch_id = insert_batch(conn)
        insert_job(conn, key=None, batch=batch_id, item="i-1", position=1, status="SUCCEEDED",
                   started=AT, completed=AT, result=json.dumps(REVIEW.to_json_dict()))
    assert batch_cost(engine, "local", batch_id, None).amount_usd is None


def test_a_priced_call_without_reported_usage_costs_unknown(engine: Engine):
    batch_id = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (10, 5)),
                                        ("openai", "gpt-4.1-mini", None)])
    assert batch_cost(engine, "local", batch_id, None).amount_usd is None


def test_heuristic_reviews_cost_nothing(engine: Engine):
    batch_id = succeeded_batch(engine, [("heuristic", "rules", None)] * 3)
    cost = batch_cost(engine, "local", batch_id, None)
    assert cost.amount_usd == 0 and cost.describe().startswith("$0.0000 (0 in / 0 out tokens")


def test_another_sellers_batch_costs_nothing_here(engine: Engine):
    batch_id = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (10, 5))], owner="seller-b")
    assert batch_cost(engine, "local", batch_id, None).input_tokens == 0


def test_a_page_of_batches_is_costed_in_one_call(engine: Engine):
    paid = succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1000, 100))])
    free = succeeded_batch(engine, [("heuristic", "rules", None)], owner="seller-b")
    costs = batches_costs(engine, [paid, free, uuid.uuid4()], None)
    assert costs[paid].amount_usd == library_cost("gpt-4.1-mini", 1000, 100)
    assert costs[free].amount_usd == 0 and costs[free].input_tokens == 0


def test_costs_per_seller_per_day(engine: Engine):
    succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1000, 100))] * 2, owner="seller-a")
    succeeded_batch(engine, [("openai", "gpt-4.1-mini", (500, 50))], owner="seller-a",
                    completed="2026-03-03T01:00:00Z")
    succeeded_batch(engine, [("openai", "gpt-4o-mini", (300, 30))], owner="seller-b")
    days = daily_costs(engine, datetime(2026, 3, 2).date(), datetime(2026, 3, 4).date(), None)
    found = {(d.owner, d.day.isoformat(), d.model): (d.cost.input_tokens, d.cost.amount_usd) for d in days}
    assert found == {
        ("seller-a", "2026-03-02", "gpt-4.1-mini"): (2000, library_cost("gpt-4.1-mini", 2000, 200)),
        ("seller-a", "2026-03-03", "gpt-4.1-mini"): (500, library_cost("gpt-4.1-mini", 500, 50)),
        ("seller-b", "2026-03-02", "gpt-4o-mini"): (300, library_cost("gpt-4o-mini", 300, 30)),
    }
    one = daily_costs(engine, datetime(2026, 3, 2).date(), datetime(2026, 3, 3).date(), None,
                      owner="seller-b")
    assert [(d.owner, d.model) for d in one] == [("seller-b", "gpt-4o-mini")]


def test_todays_cost_per_provider_and_model(engine: Engine):
    now = datetime.now(UTC).isoformat()
    succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1000, 100))], owner="seller-a", completed=now)
    succeeded_batch(engine, [("openai", "gpt-4.1-mini", (1000, 100))], owner="seller-b", completed=now)
    succeeded_batch(engine, [("heuristic", "rules", None)], completed=now)
    today = {(group.provider, group.model): group.cost for group in costs_today(engine, None)}
    assert today.keys() == {("openai", "gpt-4.1-mini"), ("heuristic", "rules")}
    assert today["openai", "gpt-4.1-mini"].input_tokens == 2000
    assert today["heuristic", "rules"].amount_usd == 0


@pytest.mark.parametrize(("body", "suffix", "problem"), [
    ('{"as_of": "2026-02-01", "prices": {"openai": {"m": {"input_per_million": -1, '
     '"output_per_million": 1}}}}', ".json", "greater than or equal to 0"),
    ("as_of = 2026-02-01\n[prices.openai.m]\ninput_per_million = 1\n", ".toml", "output_per_million"),
    ("not toml at all = = =", ".toml", "not valid TOML"),
    ('{"prices": {}}', ".json", "as_of"),
])
def test_a_bad_price_file_is_refused_saying_why(tmp_path: Path, body: str, suffix: str, problem: str):
    with pytest.raises(ValueError, match=problem):
        read_price_file(price_file(tmp_path, body, suffix))


def test_a_bad_price_file_stops_start_up_naming_the_variable(tmp_path: Path, database_url: str):
    path = price_file(tmp_path, '{"as_of": "yesterday", "prices": {}}', ".json")
    done = subprocess.run([sys.executable, "-m", "cli.main", "batch", str(uuid.uuid4())],
                          env={"PATH": "/usr/bin:/bin", "DATABASE_URL": database_url,
                               "LISTING_REVIEW_PRICES_FILE": str(path)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "LISTING_REVIEW_PRICES_FILE" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_batch_command_prints_the_cost(engine: Engine, database_url: str):
    batch_id = succeeded_batch(engine, [("heuristic", "rules", None)])
    done = subprocess.run([sys.executable, "-m", "cli.main", "batch", str(batch_id), "--json"],
                          env={"PATH": "/usr/bin:/bin", "DATABASE_URL": database_url},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cost"] == {"amountUsd": 0.0, "inputTokens": 0, "outputTokens": 0,
                                                "pricesAsOf": None, "priceSources": ["no model calls"]}
