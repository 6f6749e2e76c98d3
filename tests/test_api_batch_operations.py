"""Batch operations over HTTP, as a client sees them: a real `listing-review api` process and
PostgreSQL. Listing (keyset pages, status filter), cancel, retry, export, ownership, versions.

Finished jobs are written directly with the same updates the core batch-operation tests use
(every job CHECK still holds), so no test waits for a worker.
"""

import csv
import io
import json
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import Engine

from core.accounts.service import create_key
from core.batches.export import REVIEW_COLUMNS
from core.batches.verdicts import GOOD_SCORE_FROM
from tests.api_server import ApiServer
from tests.test_batch_operations import set_status

BATCHES = "/api/listings/review-batches"
LISTING = {"title": "Wireless keyboard", "description": "Used wireless keyboard with its USB receiver.",
           "category": "Computer accessories", "price": 45.00}
CSV_CATALOG = ("SKU,Title,Description,Category,Price,Colour\n"
               "S-1,Keyboard,Wireless keyboard with receiver,Computers,45.00,black\n"
               "S-2,Mouse,Wireless mouse in good condition,Computers,19.90,white\n"
               "S-3,Cable,USB cable two metres long,Computers,5.50,grey\n")


def new_seller(api: ApiServer, shared_engine: Engine) -> httpx.Client:
    _, secret = create_key(shared_engine, f"ops-{uuid.uuid4().hex[:8]}")
    return api.client(secret)


@pytest.fixture
def seller(api: ApiServer, shared_engine: Engine) -> Iterator[httpx.Client]:
    with new_seller(api, shared_engine) as client:
        yield client


@pytest.fixture
def other_seller(api: ApiServer, shared_engine: Engine) -> Iterator[httpx.Client]:
    with new_seller(api, shared_engine) as client:
        yield client


def submit(client: httpx.Client, count: int = 3) -> uuid.UUID:
    body = {"items": [{"itemId": f"it-{i}", "listing": LISTING} for i in range(1, count + 1)]}
    response = client.post(BATCHES, json=body, headers={"Idempotency-Key": f"k-{uuid.uuid4()}"})
    assert response.status_code == 202, response.text
    return uuid.UUID(response.json()["batchId"])


def submit_csv(client: httpx.Client, name: str = "shop.csv") -> uuid.UUID:
    response = client.post(BATCHES, files={"file": (name, CSV_CATALOG.encode(), "text/csv")},
                           headers={"Idempotency-Key": f"k-{uuid.uuid4()}"})
    assert response.status_code == 202, response.text
    return uuid.UUID(response.json()["batchId"])


def finish(shared_engine: Engine, batch_id: uuid.UUID, *statuses: str, score: int = 90) -> None:
    for position, status in enumerate(statuses, start=1):
        set_status(shared_engine, batch_id, position, status, score=score)


def assert_problem(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["Cache-Control"] == "no-store"
    problem = response.json()
    assert problem["code"] == code and problem["instance"] == response.request.url.path
    return problem


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


# --- listing ---

def test_batches_come_newest_first_in_keyset_pages(seller: httpx.Client):
    submitted = [submit(seller, 1) for _ in range(3)]
    first = seller.get(BATCHES, params={"limit": 2})
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-store"
    page = first.json()
    assert [item["batchId"] for item in page["items"]] == [str(b) for b in submitted[::-1][:2]]
    assert page["items"][0]["itemsUrl"] == f"{BATCHES}/{submitted[2]}/items"
    second = seller.get(BATCHES, params={"limit": 2, "after": page["nextAfter"]}).json()
    assert [item["batchId"] for item in second["items"]] == [str(submitted[0])]
    assert second["nextAfter"] is None


def test_status_filter_lists_only_batches_in_that_state(seller: httpx.Client, shared_engine: Engine):
    done, queued = submit(seller, 2), submit(seller, 1)
    finish(shared_engine, done, "SUCCEEDED", "FAILED")
    completed = seller.get(BATCHES, params={"status": "COMPLETED"}).json()
    assert [item["batchId"] for item in completed["items"]] == [str(done)]
    assert (completed["items"][0]["succeeded"], completed["items"][0]["failed"]) == (1, 1)
    waiting = seller.get(BATCHES, params={"status": "QUEUED"}).json()
    assert [item["batchId"] for item in waiting["items"]] == [str(queued)]


@pytest.mark.parametrize("params", [{"after": "not a cursor"}, {"after": "bm90LWEtY3Vyc29y"},
                                    {"status": "DONE"}, {"limit": 0}, {"limit": 101},
                                    {"after": "A" * 201}])
def test_bad_paging_or_status_is_a_400_problem(seller: httpx.Client, params: dict):
    assert_problem(seller.get(BATCHES, params=params), 400, "INVALID_REVIEW_BATCH_REQUEST")


def test_another_sellers_batches_are_not_listed(seller: httpx.Client, other_seller: httpx.Client):
    submit(seller, 1)
    assert other_seller.get(BATCHES).json() == {"items": [], "nextAfter": None}


# --- cancel ---

def test_cancel_answers_with_the_count_and_the_summary(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 3)
    set_status(shared_engine, batch_id, 1, "SUCCEEDED")
    response = seller.post(f"{BATCHES}/{batch_id}/cancel")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    body = response.json()
    assert body["cancelled"] == 2
    assert (body["batch"]["status"], body["batch"]["succeeded"], body["batch"]["cancelled"]) == (
        "COMPLETED", 1, 2)
    assert seller.post(f"{BATCHES}/{batch_id}/cancel").json()["cancelled"] == 0


# --- retry ---

def test_retry_creates_a_batch_of_the_failures_then_returns_it_again(
        seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 3)
    finish(shared_engine, batch_id, "SUCCEEDED", "FAILED", "FAILED")
    first = seller.post(f"{BATCHES}/{batch_id}/retry")
    assert first.status_code == 202, first.text
    retry = first.json()
    assert (retry["created"], retry["total"], retry["status"]) == (True, 2, "QUEUED")
    assert first.headers["Location"] == retry["statusUrl"] == f"{BATCHES}/{retry['batchId']}"
    again = seller.post(f"{BATCHES}/{batch_id}/retry")
    assert again.status_code == 202
    assert (again.json()["batchId"], again.json()["created"]) == (retry["batchId"], False)
    finish(shared_engine, uuid.UUID(retry["batchId"]), "SUCCEEDED", "SUCCEEDED")
    finished = seller.post(f"{BATCHES}/{batch_id}/retry")
    assert finished.status_code == 200 and finished.headers["Location"] == retry["statusUrl"]
    assert finished.json()["status"] == "COMPLETED"


def test_retry_while_running_is_a_409_saying_so(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 2)
    set_status(shared_engine, batch_id, 1, "FAILED")
    problem = assert_problem(seller.post(f"{BATCHES}/{batch_id}/retry"), 409, "REVIEW_BATCH_NOT_RETRYABLE")
    assert "still running" in problem["detail"]


def test_retry_with_nothing_failed_is_a_409_saying_so(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 2)
    finish(shared_engine, batch_id, "SUCCEEDED", "SUCCEEDED")
    problem = assert_problem(seller.post(f"{BATCHES}/{batch_id}/retry"), 409, "REVIEW_BATCH_NOT_RETRYABLE")
    assert "nothing to retry" in problem["detail"]


# --- export ---

def test_csv_export_has_the_header_and_one_row_per_item(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 2)
    finish(shared_engine, batch_id, "SUCCEEDED", "FAILED")
    response = seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "csv"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    rows = read_csv(response.content)
    assert rows[0][:4] == ["item_id", "position", "status", "title"]
    assert [(row[0], row[2]) for row in rows[1:]] == [("it-1", "SUCCEEDED"), ("it-2", "FAILED")]


def test_json_export_parses_to_one_object_per_item(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit(seller, 2)
    finish(shared_engine, batch_id, "SUCCEEDED", "SUCCEEDED", score=75)
    response = seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "json"})
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    rows = json.loads(response.content)
    assert [(row["item_id"], row["qualityScore"]) for row in rows] == [("it-1", 75), ("it-2", 75)]


def test_fixup_export_holds_the_listings_that_need_work_in_the_sellers_columns(
        seller: httpx.Client, shared_engine: Engine):
    batch_id = submit_csv(seller)
    set_status(shared_engine, batch_id, 1, "SUCCEEDED", score=95)
    set_status(shared_engine, batch_id, 2, "SUCCEEDED", score=30)
    set_status(shared_engine, batch_id, 3, "FAILED")
    response = seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "fixup"})
    assert response.status_code == 200
    assert re.search(r'filename="shop-\d{4}-\d{2}-\d{2}-fixup.csv"', response.headers["Content-Disposition"])
    rows = read_csv(response.content)
    assert rows[0][:6] == ["SKU", "Title", "Description", "Category", "Price", "Colour"]
    assert rows[0][6:] == list(REVIEW_COLUMNS) and [row[0] for row in rows[1:]] == ["S-2"]


def test_fixup_export_with_nothing_to_fix_is_a_409_saying_so(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit_csv(seller)
    finish(shared_engine, batch_id, "SUCCEEDED", "SUCCEEDED", "FAILED", score=95)
    problem = assert_problem(seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "fixup"}), 409,
                             "REVIEW_BATCH_NOTHING_TO_FIX")
    assert problem["detail"].startswith("Nothing to fix") and f"below {GOOD_SCORE_FROM}" in problem["detail"]


def test_results_are_named_after_the_batch_file_and_the_day(seller: httpx.Client):
    batch_id = submit_csv(seller, name="spring.csv")
    response = seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "json"})
    disposition = response.headers["Content-Disposition"]
    assert re.search(r'filename="spring-\d{4}-\d{2}-\d{2}-results.json"', disposition)


def test_a_file_name_beyond_latin_1_still_downloads(seller: httpx.Client, shared_engine: Engine):
    batch_id = submit_csv(seller, name="каталог ✓.csv")
    finish(shared_engine, batch_id, "SUCCEEDED", "SUCCEEDED", "SUCCEEDED", score=30)
    response = seller.get(f"{BATCHES}/{batch_id}/export", params={"format": "fixup"})
    assert response.status_code == 200, response.text
    assert "filename*=UTF-8''%D0%BA%D0%B0" in response.headers["Content-Disposition"]


@pytest.mark.parametrize("params", [{"format": "xlsx"}, {}])
def test_unknown_or_missing_format_is_a_400_problem(seller: httpx.Client, params: dict):
    batch_id = submit(seller, 1)
    problem = assert_problem(seller.get(f"{BATCHES}/{batch_id}/export", params=params), 400,
                             "INVALID_REVIEW_BATCH_REQUEST")
    assert [row["field"] for row in problem["errors"]] == ["query.format"]


# --- ownership and versions ---

OPERATIONS = [("post", "cancel", {}), ("post", "retry", {}), ("get", "export", {"format": "csv"})]


@pytest.mark.parametrize("method,operation,params", OPERATIONS)
def test_another_sellers_batch_is_the_same_404_as_an_unknown_one(
    seller: httpx.Client, other_seller: httpx.Client, shared_engine: Engine, method: str, operation: str,
    params: dict,
):
    batch_id = submit(seller, 2)
    set_status(shared_engine, batch_id, 1, "FAILED")  # one left to cancel
    foreign = assert_problem(other_seller.request(method, f"{BATCHES}/{batch_id}/{operation}",
                                                  params=params), 404, "REVIEW_BATCH_NOT_FOUND")
    unknown_id = uuid.uuid4()
    unknown = assert_problem(other_seller.request(method, f"{BATCHES}/{unknown_id}/{operation}",
                                                  params=params), 404, "REVIEW_BATCH_NOT_FOUND")
    assert foreign["detail"].replace(str(batch_id), "ID") == unknown["detail"].replace(str(unknown_id), "ID")
    malformed = other_seller.request(method, f"{BATCHES}/not-an-id/{operation}", params=params)
    assert_problem(malformed, 404, "REVIEW_BATCH_NOT_FOUND")
    assert seller.get(f"{BATCHES}/{batch_id}").json()["cancelled"] == 0  # untouched


@pytest.mark.parametrize("method,operation,params", [("get", "", {}), *OPERATIONS])
def test_an_unknown_api_version_is_a_400_on_every_operation(
    seller: httpx.Client, method: str, operation: str, params: dict
):
    batch_id = submit(seller, 1)
    path = f"{BATCHES}/{batch_id}/{operation}" if operation else BATCHES
    response = seller.request(method, path, params=params, headers={"X-API-Version": "2"})
    problem = assert_problem(response, 400, "INVALID_REVIEW_BATCH_REQUEST")
    assert [row["field"] for row in problem["errors"]] == ["header.X-API-Version"]
    assert seller.get(f"{BATCHES}/{batch_id}").json()["cancelled"] == 0


def test_operations_need_an_api_key(api: ApiServer):
    with api.client() as anonymous:
        response = anonymous.get(BATCHES)
    assert_problem(response, 401, "UNAUTHORIZED")
