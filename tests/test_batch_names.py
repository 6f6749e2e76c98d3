"""A batch's optional name, on every interface, against a real PostgreSQL: trimmed, blank is
none, checked before anything is stored, part of the batch's identity, shown (with the file
name and the id's start as fall-backs) wherever the batch is."""

import json

import httpx
import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import SourceFile, accept_batch
from core.batches.progress import get_summary
from core.batches.recent import list_batches
from core.batches.submission import submit_catalog
from core.errors import IdempotencyConflict, InvalidBatchRequest
from core.settings import Settings
from tests.api_server import BATCHES, post_batch
from tests.builders import items
from tests.test_cli import run
from tests.test_retry_chain import QUEUE

CATALOG = ("SKU,Title,Description,Category,Price\n"
           "S-1,Keyboard,Wireless keyboard with receiver,Computers,45.00\n"
           "S-2,Mouse,Wireless mouse in good condition,Computers,19.90\n")
LISTING = {"title": "Wireless keyboard", "description": "Used wireless keyboard with its USB receiver.",
           "category": "Computer accessories", "price": 45.00}


def submit(engine: Engine, settings: Settings, **options):
    return submit_catalog(engine, QUEUE, settings, owner="local", filename="shop.csv",
                          data=CATALOG.encode(), **options)


def batch_count(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("select count(*) from review_batches")).scalar_one()


def test_a_name_is_trimmed_stored_and_shown_wherever_the_batch_is(engine: Engine, settings: Settings):
    accepted = submit(engine, settings, name="  Spring catalog ")
    assert accepted.summary.name == accepted.summary.display_name == "Spring catalog"
    assert accepted.to_json_dict()["name"] == "Spring catalog"
    assert get_summary(engine, "local", accepted.batch_id).to_json_dict()["displayName"] == "Spring catalog"
    assert [summary.name for summary in list_batches(engine, "local").items] == ["Spring catalog"]


def test_without_a_name_a_batch_shows_its_file_else_the_start_of_its_id(engine: Engine, settings: Settings):
    from_file = submit(engine, settings, name="   ").summary
    assert (from_file.name, from_file.display_name) == (None, "shop.csv")
    bare = accept_batch(engine, QUEUE, owner="local", key="bare", items=items(1), max_items=10,
                        source=SourceFile(None, None)).summary
    assert bare.display_name == f"Batch {str(bare.batch_id)[:8]}"


@pytest.mark.parametrize("name", ["Spring\ncatalog", "tab\there", "bell\x07", "x" * 121, "nul\x00"])
def test_a_name_that_cannot_be_shown_is_refused_before_anything_is_stored(
        engine: Engine, settings: Settings, name: str):
    with pytest.raises(InvalidBatchRequest, match="batch name") as refused:
        submit(engine, settings, name=name)
    assert name not in refused.value.message
    assert batch_count(engine) == 0


def test_the_same_file_under_another_name_is_a_conflict_not_a_silent_replay(engine: Engine,
                                                                           settings: Settings):
    first = submit(engine, settings, name="Spring catalog")
    assert submit(engine, settings, name="Spring catalog").batch_id == first.batch_id
    for other in ("Summer catalog", None):
        with pytest.raises(IdempotencyConflict):
            submit(engine, settings, name=other)
    assert batch_count(engine) == 1


def test_cli_submit_takes_a_name_and_batches_lists_it(database_url: str, tmp_path):
    catalog = tmp_path / "shop.csv"
    catalog.write_text(CATALOG)
    submitted = run("submit", str(catalog), "--name", "Spring catalog", database_url=database_url)
    assert submitted.returncode == 0, submitted.stderr
    assert '"Spring catalog"' in submitted.stdout
    listed = run("batches", database_url=database_url)
    assert "Spring catalog" in listed.stdout
    shown = json.loads(run("batches", "--json", database_url=database_url).stdout)["items"][0]
    assert (shown["name"], shown["displayName"], shown["retryOf"], shown["rejectedRows"]) == (
        "Spring catalog", "Spring catalog", None, 0)
    refused = run("submit", str(catalog), "--name", "a\tb", "--json", database_url=database_url)
    assert refused.returncode == 1 and json.loads(refused.stdout)["error"]["code"] == (
        "INVALID_REVIEW_BATCH_REQUEST")


def test_api_takes_the_name_beside_the_items_or_as_a_form_field(seller: httpx.Client):
    body = {"items": [{"itemId": "it-1", "listing": LISTING}], "name": "Spring catalog"}
    from_json = post_batch(seller, json=body)
    from_form = post_batch(seller, files={"file": ("shop.csv", CATALOG.encode())}, data={"name": "Autumn"})
    for response, name in ((from_json, "Spring catalog"), (from_form, "Autumn")):
        assert response.status_code == 202, response.text
        assert response.json()["name"] == name
        batch = seller.get(response.headers["Location"]).json()
        assert (batch["name"], batch["displayName"]) == (name, name)


@pytest.mark.parametrize("request_body", [
    {"json": {"items": [{"itemId": "it-1", "listing": LISTING}], "name": 42}},
    {"json": {"items": [{"itemId": "it-1", "listing": LISTING}], "name": "line\nbreak"}},
    {"files": {"file": ("shop.csv", CATALOG.encode())}, "data": {"name": "x" * 121}},
])
def test_api_refuses_a_bad_name_with_a_400_storing_nothing(seller: httpx.Client, request_body: dict):
    response = post_batch(seller, **request_body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert seller.get(BATCHES).json()["items"] == []
