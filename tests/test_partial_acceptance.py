"""Submitting the valid rows only, by the seller's choice, against a real PostgreSQL: the
batch holds the valid rows, records how many were left out and their problems (downloadable),
stays atomic and idempotent; without the choice a file with any problem stores nothing."""

import csv
import io
import json

import httpx
import pytest
from sqlalchemy import Engine, text

from core.batches.rejected import rejected_rows_csv
from core.batches.submission import submit_catalog
from core.errors import IdempotencyConflict, InvalidBatchRequest
from core.settings import Settings
from tests.api_server import post_batch
from tests.test_cli import run
from tests.test_retry_chain import QUEUE

HEADER = "Product code,Title,Description,Category,Price\n"
GOOD = ["S-1,Keyboard,Wireless keyboard with receiver,Computers,45.00\n",
        "S-2,Mouse,Wireless mouse in good condition,Computers,19.90\n"]
BAD = ["S-3,,No title here,Computers,5.50\n", "S-4,Cable,USB cable,Computers,-1\n"]
MIXED = HEADER + GOOD[0] + BAD[0] + GOOD[1] + BAD[1]
MAPPING = {"Product code": "item_id"}


def submit(engine: Engine, settings: Settings, data: str, **options):
    return submit_catalog(engine, QUEUE, settings, owner="local", filename="shop.csv",
                          data=data.encode(), column_map=MAPPING, **options)


def stored(engine: Engine) -> list[tuple]:
    with engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(
            "select b.rejected_rows, b.column_map, count(j.id) from review_batches b "
            "left join review_jobs j on j.batch_id = b.id group by b.id"))]


def csv_rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_without_the_choice_one_bad_row_stores_nothing(engine: Engine, settings: Settings):
    with pytest.raises(InvalidBatchRequest) as refused:
        submit(engine, settings, MIXED)
    assert {row["row"] for row in refused.value.rows} == {2, 4}
    assert stored(engine) == []


def test_the_valid_rows_go_on_and_the_others_are_recorded(engine: Engine, settings: Settings):
    accepted = submit(engine, settings, MIXED, accept_valid_rows=True)
    assert (accepted.created, accepted.summary.total, accepted.summary.rejected_rows) == (True, 2, 2)
    assert accepted.to_json_dict()["rejectedRows"] == 2
    assert stored(engine) == [(2, MAPPING, 2)]
    name, report = rejected_rows_csv(engine, "local", accepted.batch_id)
    assert name == "shop.csv-rejected-rows.csv"
    assert [(row["row"], row["item_id"], row["field"]) for row in csv_rows(report)] == [
        ("2", "S-3", "title"), ("4", "S-4", "price")]


def test_the_same_file_with_the_choice_again_is_the_same_batch(engine: Engine, settings: Settings):
    first = submit(engine, settings, MIXED, accept_valid_rows=True)
    again = submit(engine, settings, MIXED, accept_valid_rows=True)
    assert (again.created, again.batch_id) == (False, first.batch_id)
    assert len(stored(engine)) == 1


def test_a_clean_file_is_the_same_batch_with_or_without_the_choice(engine: Engine, settings: Settings):
    clean = HEADER + "".join(GOOD)
    first = submit(engine, settings, clean)
    assert submit(engine, settings, clean, accept_valid_rows=True).batch_id == first.batch_id
    assert stored(engine) == [(0, MAPPING, 2)]


def test_the_identity_covers_the_rows_left_out(engine: Engine, settings: Settings):
    # Given the valid rows of a file accepted under a key
    submit(engine, settings, HEADER + "".join(GOOD), key="spring")
    # When a file with the same valid rows and bad ones comes under that key with the choice
    with pytest.raises(IdempotencyConflict):
        submit(engine, settings, MIXED, key="spring", accept_valid_rows=True)
    # Then it is not taken for the first batch (which left nothing out)
    assert stored(engine) == [(0, MAPPING, 2)]


@pytest.mark.parametrize("data", [
    HEADER + "".join(BAD),  # no valid row
    "Title,Description,Category,Price\n" + "Keyboard,Wireless keyboard,Computers,45.00\n",  # no id column
])
def test_with_the_choice_a_file_without_valid_rows_or_with_a_file_problem_stores_nothing(
        engine: Engine, settings: Settings, data: str):
    with pytest.raises(InvalidBatchRequest):
        submit(engine, settings, data, accept_valid_rows=True)
    assert stored(engine) == []


def test_a_batch_that_left_nothing_out_has_an_empty_report(engine: Engine, settings: Settings):
    accepted = submit(engine, settings, HEADER + "".join(GOOD), accept_valid_rows=True)
    assert csv_rows(rejected_rows_csv(engine, "local", accepted.batch_id)[1]) == []


def test_cli_submit_valid_only_then_writes_the_rejected_rows(database_url: str, tmp_path):
    catalog = tmp_path / "shop.csv"
    catalog.write_text(MIXED.replace("Product code", "SKU"))
    refused = run("submit", str(catalog), database_url=database_url)
    assert refused.returncode == 1
    accepted = run("submit", str(catalog), "--valid-only", database_url=database_url)
    assert accepted.returncode == 0, accepted.stderr
    assert "Left out 2 row(s)" in accepted.stdout
    batch_id = json.loads(run("batches", "--json", database_url=database_url).stdout)["items"][0]["batchId"]
    report = tmp_path / "rejected.csv"
    written = run("rejected-rows", batch_id, "-o", str(report), database_url=database_url)
    assert written.returncode == 0, written.stderr
    assert [row["item_id"] for row in csv_rows(report.read_bytes())] == ["S-3", "S-4"]


def test_api_accepts_the_valid_rows_and_serves_the_rejected_ones(seller: httpx.Client):
    listing = {"title": "Keyboard", "description": "Wireless keyboard with receiver",
               "category": "Computers", "price": 45}
    body = {"items": [{"itemId": "it-1", "listing": listing},
                      {"itemId": "it-2", "listing": listing | {"price": -1}}], "acceptValidRows": True}
    from_json = post_batch(seller, json=body)
    upload = {"file": ("shop.csv", MIXED.replace("Product code", "SKU").encode())}
    from_form = post_batch(seller, files=upload, data={"acceptValidRows": "true"})
    for response, total in ((from_json, 1), (from_form, 2)):
        assert response.status_code == 202, response.text
        assert (response.json()["total"], response.json()["rejectedRows"]) == (total, total)
        rejected = seller.get(f"{response.headers['Location']}/rejected-rows")
        assert rejected.status_code == 200 and rejected.headers["content-type"].startswith("text/csv")
        assert "attachment" in rejected.headers["Content-Disposition"]
        assert len(csv_rows(rejected.content)) == total
    assert post_batch(seller, files=upload).status_code == 400


@pytest.mark.parametrize("request_body", [
    {"json": {"items": [], "acceptValidRows": "yes"}},
    {"files": {"file": ("shop.csv", MIXED.encode())}, "data": {"acceptValidRows": "maybe"}},
])
def test_api_refuses_a_choice_that_is_not_true_or_false(seller: httpx.Client, request_body: dict):
    response = post_batch(seller, **request_body)
    assert response.status_code == 400 and "acceptValidRows" in response.json()["detail"]
