"""Automatic economy mode (issue 17): a seller who chooses no mode gets economy for a batch of at
least LISTING_REVIEW_ECONOMY_MIN_ITEMS accepted listings when the provider has economy mode; an
explicit choice always wins; the decision is stored with the batch, and an upload retried lands
on the same batch in the same mode (even after the threshold changed)."""

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, text
from streamlit.testing.v1 import AppTest

from core.batches.submission import submit_catalog
from core.economy.mode import automatic_rule, mode_for
from core.errors import IdempotencyConflict
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.api_server import BATCHES, ApiServer
from tests.test_cli import run
from tests.test_ui_apptest import upload

QUEUE = DramatiqPgQueue("listing-reviews")
THRESHOLD = 3
OPENAI = {"LISTING_REVIEW_PROVIDER": "openai", "OPENAI_API_KEY": "k",
          "LISTING_REVIEW_ECONOMY_MIN_ITEMS": str(THRESHOLD)}


def catalog(count: int, first: int = 1) -> bytes:
    rows = [f"S-{n},Lamp {n},Brass desk lamp number {n},Home,9.50" for n in range(first, first + count)]
    return ("SKU,Title,Description,Category,Price\n" + "\n".join(rows) + "\n").encode()


def settings(provider: str = "openai", threshold: int = THRESHOLD) -> Settings:
    return Settings(database_url="postgresql://unused", provider=provider, openai_api_key="k",
                    gemini_api_key="k", economy_min_items=threshold)


def submit(engine: Engine, count: int, mode: str | None = None, config: Settings | None = None,
           data: bytes | None = None):
    return submit_catalog(engine, QUEUE, config or settings(), owner="local", filename="shop.csv",
                          data=data or catalog(count), mode=mode)


def stored_mode(engine: Engine, batch_id: uuid.UUID) -> str:
    with engine.connect() as conn:
        return conn.execute(text("select mode from review_batches where id = :b"),
                            {"b": batch_id}).scalar_one()


def modes(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return conn.execute(text("select mode from review_batches order by submitted_at")).scalars().all()


def queued_messages(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select count(*) from dramatiq.queue where state = 'queued'")).scalar_one()


# --- the rule, in core ---

@pytest.mark.parametrize(("requested", "provider", "count", "threshold", "expected"), [
    (None, "openai", 2, 3, "standard"),      # below
    (None, "openai", 3, 3, "economy"),       # at
    (None, "openai", 4, 3, "economy"),       # above
    ("standard", "openai", 4, 3, "standard"),  # explicit standard above it
    ("economy", "openai", 1, 3, "economy"),  # explicit economy below it
    (None, "heuristic", 4, 3, "standard"),   # a provider without economy mode: no error
    (None, "openai", 10_000, 0, "standard"),  # 0: never automatic
])
def test_mode_for(requested, provider: str, count: int, threshold: int, expected: str) -> None:
    assert mode_for(requested, provider, count, threshold) == expected


def test_the_automatic_rule_in_words() -> None:
    assert automatic_rule("openai", 5000) == "Automatic: economy for 5,000+ listings"
    assert automatic_rule("openai", 0) is None and automatic_rule("heuristic", 5000) is None


@pytest.mark.parametrize(("count", "expected"), [(2, "standard"), (3, "economy"), (4, "economy")])
def test_a_batch_without_a_mode_is_economy_from_the_threshold_on(engine: Engine, count: int,
                                                                 expected: str) -> None:
    accepted = submit(engine, count)
    assert stored_mode(engine, accepted.batch_id) == expected
    assert queued_messages(engine) == (count if expected == "standard" else 0)


def test_the_threshold_counts_the_accepted_rows_not_the_files_rows(engine: Engine) -> None:
    # Given 3 rows, one of them invalid, submitted as the valid rows only: 2 listings stay standard
    data = catalog(2) + b"S-9,,No title here,Home,9.50\n"
    accepted = submit_catalog(engine, QUEUE, settings(), owner="local", filename="shop.csv", data=data,
                              accept_valid_rows=True)
    assert accepted.summary.total == 2 and stored_mode(engine, accepted.batch_id) == "standard"


def test_explicit_standard_stays_standard_above_the_threshold(engine: Engine) -> None:
    assert stored_mode(engine, submit(engine, 4, mode="standard").batch_id) == "standard"


def test_a_provider_without_economy_mode_stays_standard_without_an_error(engine: Engine) -> None:
    accepted = submit(engine, 4, config=settings(provider="heuristic"))
    assert stored_mode(engine, accepted.batch_id) == "standard" and queued_messages(engine) == 4


def test_the_same_upload_retried_lands_on_the_same_batch_and_mode_even_after_the_threshold_changed(
        engine: Engine) -> None:
    first = submit(engine, 3)
    # When the operator raises the threshold and the seller's upload is retried
    again = submit(engine, 3, config=settings(threshold=10))
    # Then it is a replay of the economy batch, not a conflict or a second batch
    assert (again.created, again.batch_id) == (False, first.batch_id)
    assert modes(engine) == ["economy"]
    # And an explicit economy is a replay too, while an explicit standard contradicts it
    assert submit(engine, 3, mode="economy").batch_id == first.batch_id
    with pytest.raises(IdempotencyConflict, match="already submitted in economy mode"):
        submit(engine, 3, mode="standard")
    assert modes(engine) == ["economy"]


# --- the CLI ---

def cli_submit(database_url: str, tmp_path: Path, count: int, *args: str, **env: str):
    path = tmp_path / f"shop-{uuid.uuid4().hex[:6]}.csv"
    path.write_bytes(catalog(count, first=count * 100))
    return run("submit", str(path), *args, database_url=database_url, **(OPENAI | env))


def test_cli_without_mode_follows_the_threshold_and_an_explicit_mode_wins(
        database_url: str, engine: Engine, tmp_path: Path) -> None:
    cases = [(2, (), {}), (3, (), {}), (5, ("--mode", "standard"), {}),
             (6, (), {"LISTING_REVIEW_PROVIDER": "heuristic"})]
    expected = ["standard", "economy", "standard", "standard"]
    for (count, args, env), mode in zip(cases, expected, strict=True):
        submitted = cli_submit(database_url, tmp_path, count, *args, **env)
        assert submitted.returncode == 0, submitted.stderr
        assert f"{mode} mode)." in submitted.stdout
    assert modes(engine) == expected


def test_cli_an_invalid_threshold_is_a_configuration_error_naming_the_variable() -> None:
    for value in ["-1", "10001", "many"]:
        result = run("migrate", LISTING_REVIEW_ECONOMY_MIN_ITEMS=value)
        assert result.returncode == 2, result.stderr
        assert "LISTING_REVIEW_ECONOMY_MIN_ITEMS" in result.stderr and "Traceback" not in result.stderr


# --- the API ---

def api_client(database: str, **env: str) -> Iterator[httpx.Client]:
    from core.accounts.service import create_key
    from core.database import make_engine

    server = ApiServer(database, **env)
    engine = make_engine(database)
    _, secret = create_key(engine, f"seller-{uuid.uuid4().hex[:8]}")
    engine.dispose()
    with server.client(secret) as client:
        yield client
    server.close()


@pytest.fixture(scope="module")
def openai_api(shared_database: str) -> Iterator[httpx.Client]:
    """An API process with the openai provider and the threshold at 3 (no call reaches OpenAI:
    acceptance only)."""
    yield from api_client(shared_database, **OPENAI)


@pytest.fixture(scope="module")
def heuristic_api(shared_database: str) -> Iterator[httpx.Client]:
    """The threshold at 3 with a provider that has no economy mode."""
    yield from api_client(shared_database, LISTING_REVIEW_ECONOMY_MIN_ITEMS=str(THRESHOLD))


def api_submit(client: httpx.Client, count: int, key: str | None = None, **options) -> httpx.Response:
    items = [{"itemId": f"i-{n}", "listing": {"title": f"Lamp {n}", "description": "Brass desk lamp",
                                              "category": "Home", "price": 9.5}} for n in range(count)]
    return client.post(BATCHES, headers={"Idempotency-Key": key or f"k-{uuid.uuid4()}"},
                       json={"items": items, **options})


def api_mode(shared_engine: Engine, response: httpx.Response, client: httpx.Client) -> str:
    assert response.status_code in (200, 202), response.text
    mode = stored_mode(shared_engine, uuid.UUID(response.json()["batchId"]))
    assert response.json()["mode"] == mode  # the seller learns the mode decided for them
    assert client.get(response.json()["statusUrl"]).json()["mode"] == mode  # and the summary says it
    return mode


@pytest.mark.parametrize(("count", "options", "expected"), [
    (2, {}, "standard"), (3, {}, "economy"), (4, {"mode": None}, "economy"),
    (4, {"mode": "standard"}, "standard"), (1, {"mode": "economy"}, "economy"),
])
def test_api_without_mode_follows_the_threshold(openai_api: httpx.Client, shared_engine: Engine, count: int,
                                                options: dict, expected: str) -> None:
    assert api_mode(shared_engine, api_submit(openai_api, count, **options), openai_api) == expected


def test_api_a_provider_without_economy_mode_stays_standard_above_the_threshold(
        heuristic_api: httpx.Client, shared_engine: Engine) -> None:
    assert api_mode(shared_engine, api_submit(heuristic_api, 4), heuristic_api) == "standard"


def test_api_a_retried_request_is_the_same_batch_and_a_contradicting_mode_a_conflict(
        openai_api: httpx.Client, shared_engine: Engine) -> None:
    first = api_submit(openai_api, 3, key="same-upload")
    again = api_submit(openai_api, 3, key="same-upload")
    assert again.json()["batchId"] == first.json()["batchId"] and again.json()["created"] is False
    assert api_mode(shared_engine, again, openai_api) == "economy"
    conflict = api_submit(openai_api, 3, key="same-upload", mode="standard")
    assert conflict.status_code == 409 and "already submitted in economy mode" in conflict.text


# --- the upload page ---

@pytest.mark.parametrize(("count", "choice", "said", "expected"), [
    (2, None, "these 2: standard", "standard"),
    (3, None, "these 3: economy", "economy"),
    (4, "standard", "these 4: economy", "standard"),
])
def test_the_upload_page_says_which_mode_automatic_means_and_submits_the_choice(
        app: AppTest, engine: Engine, monkeypatch: pytest.MonkeyPatch, count: int, choice: str | None,
        said: str, expected: str) -> None:
    for name, value in OPENAI.items():
        monkeypatch.setenv(name, value)
    upload(app, "lamps.csv", catalog(count))
    [mode] = app.radio
    assert mode.value == "automatic" and len(mode.options) == 3
    assert mode.options[0] == f"Automatic: economy for 3+ listings ({said})"
    if choice is not None:
        mode.set_value(choice).run()
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    assert modes(engine) == [expected]


def test_the_upload_page_of_a_provider_without_economy_mode_offers_no_mode_and_submits_standard(
        app: AppTest, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LISTING_REVIEW_ECONOMY_MIN_ITEMS", str(THRESHOLD))
    upload(app, "lamps.csv", catalog(4))
    assert len(app.radio) == 0
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    assert modes(engine) == ["standard"]
