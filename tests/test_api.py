"""The HTTP API as a client sees it: a real `listing-review api` process, PostgreSQL, httpx.

Most tests share one server and database; isolation comes from each test using sellers of
its own, which is exactly the ownership the API promises. Servers with tight limits, an
unreachable database or a worker get their own.
"""

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from api import schemas
from api.app import create_app
from core.accounts.service import create_key, revoke_key
from core.database import make_engine
from core.jobs.cancel import cancel_unstarted
from core.settings import Settings
from tests.api_server import ApiServer, drop_database
from tests.processes import WorkerGroup, wait_for

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
BATCHES = "/api/listings/review-batches"
JOBS = "/api/listings/review-jobs"
REVIEWS = "/api/listings/reviews"
ARTICLE_REVIEW = "/api/listings/review"
LISTING = {"title": "Wireless keyboard", "description": "Used wireless keyboard with its USB receiver.",
           "category": "Computer accessories", "price": 45.00, "attributes": {"brand": "KeyPro"}}
REVIEW = {"qualityScore": 90, "missingFields": [], "issues": [], "suggestions": [],
          "requiresHumanReview": False, "provider": "heuristic", "model": "rules",
          "promptVersion": "heuristic-v2", "usage": None}


def batch_body(*item_ids: str, price: float = 45.00) -> dict:
    return {"items": [{"itemId": item_id, "listing": LISTING | {"price": price}} for item_id in item_ids]}


def write_headers(key: str | None = None) -> dict[str, str]:
    return {"X-API-Version": "1", "Idempotency-Key": key or f"key-{uuid.uuid4()}"}


@pytest.fixture(scope="module")
def tight_api(shared_database: str) -> Iterator[ApiServer]:
    """Same database, but 2 unfinished listings per seller and 2 KiB bodies at most."""
    server = ApiServer(shared_database, LISTING_REVIEW_MAX_UNFINISHED_ITEMS_PER_OWNER="2",
                       LISTING_REVIEW_MAX_UPLOAD_BYTES="2048")
    yield server
    server.close()


@pytest.fixture
def other_seller(api: ApiServer, shared_engine: Engine) -> Iterator[httpx.Client]:
    _, secret = create_key(shared_engine, f"other-{uuid.uuid4().hex[:8]}")
    with api.client(secret) as client:
        yield client


def submit(client: httpx.Client, body: dict, key: str | None = None) -> httpx.Response:
    return client.post(BATCHES, json=body, headers=write_headers(key))


def complete_batch(engine: Engine, batch_id: str) -> None:
    """What a worker would leave behind, written directly (every job CHECK still holds)."""
    with engine.begin() as conn:
        conn.execute(text(
            "update review_jobs set status = 'SUCCEEDED', attempts = 1, started_at = now(), "
            "completed_at = now(), result = cast(:result as jsonb) where batch_id = :batch_id"),
            {"result": json.dumps(REVIEW), "batch_id": batch_id})


# --- submitting batches ---

def test_new_batch_is_202_with_location_and_no_store(seller: httpx.Client):
    response = submit(seller, batch_body("a-1", "a-2", "a-3"))
    assert response.status_code == 202
    accepted = response.json()
    assert (accepted["status"], accepted["total"], accepted["created"]) == ("QUEUED", 3, True)
    assert response.headers["Location"] == accepted["statusUrl"] == f"{BATCHES}/{accepted['batchId']}"
    assert accepted["itemsUrl"] == f"{accepted['statusUrl']}/items"
    assert response.headers["Cache-Control"] == "no-store"


def test_replay_of_an_active_batch_is_202_with_the_same_batch(seller: httpx.Client):
    first = submit(seller, batch_body("a-1", "a-2"), key="replay-active").json()
    replay = submit(seller, batch_body("a-1", "a-2"), key="replay-active")
    assert replay.status_code == 202
    assert replay.json()["batchId"] == first["batchId"] and replay.json()["created"] is False


def test_replay_of_a_completed_batch_is_200(seller: httpx.Client, shared_engine: Engine):
    first = submit(seller, batch_body("a-1", "a-2"), key="replay-done").json()
    complete_batch(shared_engine, first["batchId"])
    replay = submit(seller, batch_body("a-1", "a-2"), key="replay-done")
    assert replay.status_code == 200
    assert replay.json()["batchId"] == first["batchId"] and replay.json()["status"] == "COMPLETED"
    assert replay.headers["Location"] == first["statusUrl"]


def test_same_key_with_different_items_is_409(seller: httpx.Client):
    assert submit(seller, batch_body("a-1"), key="changed").status_code == 202
    response = submit(seller, batch_body("a-1", price=46.00), key="changed")
    assert response.status_code == 409 and response.json()["code"] == "IDEMPOTENCY_CONFLICT"
    assert response.headers["Content-Type"] == "application/problem+json"


def test_invalid_json_batch_lists_every_row_problem_and_stores_nothing(seller: httpx.Client):
    body = batch_body("ok-1", "bad-2", "bad-3")
    body["items"][1]["listing"]["price"] = "$45"
    body["items"][2]["listing"]["title"] = ""
    response = submit(seller, body)
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "INVALID_REVIEW_BATCH_REQUEST" and problem["status"] == 400
    assert {(row["row"], row["itemId"], row["field"]) for row in problem["errors"]} == {
        (2, "bad-2", "price"), (3, "bad-3", "title")}
    assert {"type", "title", "detail"} <= problem.keys() and problem["instance"] == BATCHES


def test_uploaded_file_errors_are_the_cli_errors(seller: httpx.Client):
    with open(SAMPLES / "with_errors.csv", "rb") as catalog:
        response = seller.post(BATCHES, files={"file": ("with_errors.csv", catalog, "text/csv")},
                               headers=write_headers())
    assert response.status_code == 400
    rows = response.json()["errors"]
    assert {row["row"] for row in rows} == {2, 3, 4, 5, 6, 7, 8, 9}
    assert all({"row", "line", "field", "message"} <= row.keys() for row in rows)


def test_multipart_upload_of_a_catalog_file_is_accepted(seller: httpx.Client):
    with open(SAMPLES / "books.json", "rb") as catalog:
        response = seller.post(BATCHES, files={"file": ("books.json", catalog, "application/json")},
                               headers=write_headers())
    assert response.status_code == 202 and response.json()["total"] == 12
    summary = seller.get(response.headers["Location"]).json()
    assert summary["sourceName"] == "books.json" and summary["queued"] == 12


def test_the_idempotency_key_is_required(seller: httpx.Client):
    response = seller.post(BATCHES, json=batch_body("a-1"), headers={"X-API-Version": "1"})
    assert response.status_code == 400
    assert {row["field"] for row in response.json()["errors"]} == {"header.Idempotency-Key"}


def test_the_version_header_may_be_left_out(seller: httpx.Client):
    accepted = seller.post(BATCHES, json=batch_body("a-1"), headers={"Idempotency-Key": "no-version"})
    job = seller.post(JOBS, json=LISTING, headers={"Idempotency-Key": "no-version"})
    assert accepted.status_code == job.status_code == 202
    assert seller.get(accepted.headers["Location"]).status_code == 200
    assert seller.post(REVIEWS, json=LISTING).status_code == 200


@pytest.mark.parametrize("method,path", [
    ("POST", BATCHES), ("GET", f"{BATCHES}/{uuid.uuid4()}"), ("GET", f"{BATCHES}/{uuid.uuid4()}/items"),
    ("POST", JOBS), ("GET", f"{JOBS}/{uuid.uuid4()}"), ("POST", REVIEWS), ("POST", ARTICLE_REVIEW),
])
@pytest.mark.parametrize("version", ["2", "0", "1.0", ""])
def test_any_other_version_is_400_on_every_endpoint(seller: httpx.Client, method: str, path: str,
                                                     version: str):
    body = LISTING if path in (JOBS, REVIEWS, ARTICLE_REVIEW) else batch_body("v-1")
    response = seller.request(method, path, json=body if method == "POST" else None,
                              headers=write_headers() | {"X-API-Version": version})
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert {row["field"] for row in response.json()["errors"]} == {"header.X-API-Version"}


@pytest.mark.parametrize("headers", [{"Idempotency-Key": "x" * 129}, {"X-API-Version": "2"}])
def test_bad_key_or_version_is_400(seller: httpx.Client, headers: dict[str, str]):
    response = seller.post(BATCHES, json=batch_body("a-1"), headers=write_headers() | headers)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"


def test_other_media_types_are_415(seller: httpx.Client):
    response = seller.post(BATCHES, content=b"item_id,title\n", headers=write_headers()
                           | {"Content-Type": "text/csv"})
    assert response.status_code == 415 and response.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"


# --- reading batches ---

def test_summary_and_keyset_pages(seller: httpx.Client):
    accepted = submit(seller, batch_body(*(f"p-{n}" for n in range(1, 8)))).json()
    summary = seller.get(accepted["statusUrl"])
    assert summary.status_code == 200 and summary.headers["Cache-Control"] == "no-store"
    assert {key: summary.json()[key] for key in ("status", "total", "queued")} == {
        "status": "QUEUED", "total": 7, "queued": 7}
    assert summary.json()["itemsUrl"] == accepted["itemsUrl"]
    first = seller.get(accepted["itemsUrl"], params={"limit": 5}).json()
    second = seller.get(accepted["itemsUrl"], params={"after": first["nextAfter"], "limit": 5}).json()
    assert first["nextAfter"] == 5 and second["nextAfter"] is None
    assert [item["itemId"] for item in first["items"] + second["items"]] == [f"p-{n}" for n in range(1, 8)]


def test_the_summary_carries_the_cost_of_the_stored_usage(seller: httpx.Client, shared_engine: Engine):
    from genai_prices import Usage, calc_price

    accepted = submit(seller, batch_body("cost-1", "cost-2")).json()
    paid = REVIEW | {"provider": "openai", "model": "gpt-4.1-mini",
                     "usage": {"inputTokens": 1000, "outputTokens": 250}}
    with shared_engine.begin() as conn:
        conn.execute(text(
            "update review_jobs set status = 'SUCCEEDED', attempts = 1, started_at = now(), "
            "completed_at = now(), result = cast(:result as jsonb) where batch_id = :batch_id"),
            {"result": json.dumps(paid), "batch_id": accepted["batchId"]})
    cost = seller.get(accepted["statusUrl"]).json()["cost"]
    expected = calc_price(Usage(input_tokens=2000, output_tokens=500), "gpt-4.1-mini", provider_id="openai")
    assert cost["amountUsd"] == pytest.approx(float(expected.total_price))
    assert (cost["inputTokens"], cost["outputTokens"], cost["pricesAsOf"]) == (2000, 500, None)
    assert cost["priceSources"][0].startswith("genai-prices")


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 101}, {"after": -1}, {"after": 1001},
                                    {"limit": "ten"}])
def test_out_of_range_paging_is_400(seller: httpx.Client, params: dict):
    accepted = submit(seller, batch_body("a-1")).json()
    response = seller.get(accepted["itemsUrl"], params=params)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"


@pytest.mark.parametrize("path,code", [
    (f"{BATCHES}/{uuid.uuid4()}", "REVIEW_BATCH_NOT_FOUND"),
    (f"{BATCHES}/{uuid.uuid4()}/items", "REVIEW_BATCH_NOT_FOUND"),
    (f"{JOBS}/{uuid.uuid4()}", "REVIEW_JOB_NOT_FOUND"),
    (f"{BATCHES}/not-a-uuid", "REVIEW_BATCH_NOT_FOUND"),
    (f"{BATCHES}/not-a-uuid/items", "REVIEW_BATCH_NOT_FOUND"),
    (f"{JOBS}/12345", "REVIEW_JOB_NOT_FOUND"),
])
def test_unknown_and_malformed_ids_are_404(seller: httpx.Client, path: str, code: str):
    response = seller.get(path)
    assert response.status_code == 404 and response.json()["code"] == code
    assert response.json()["instance"] == path
    assert response.headers["Cache-Control"] == "no-store"


# --- ownership ---

def test_another_sellers_batch_items_and_job_are_404(seller: httpx.Client, other_seller: httpx.Client):
    accepted = submit(seller, batch_body("a-1")).json()
    job_id = seller.get(accepted["itemsUrl"]).json()["items"][0]["jobId"]
    assert seller.get(f"{JOBS}/{job_id}").status_code == 200
    for path, code in [(accepted["statusUrl"], "REVIEW_BATCH_NOT_FOUND"),
                       (accepted["itemsUrl"], "REVIEW_BATCH_NOT_FOUND"),
                       (f"{JOBS}/{job_id}", "REVIEW_JOB_NOT_FOUND")]:
        response = other_seller.get(path)
        assert response.status_code == 404 and response.json()["code"] == code


def test_another_seller_may_reuse_the_same_key_string(seller: httpx.Client, other_seller: httpx.Client):
    mine = submit(seller, batch_body("a-1"), key="catalog-review-001")
    theirs = submit(other_seller, batch_body("b-1", "b-2"), key="catalog-review-001")
    assert mine.status_code == theirs.status_code == 202
    assert mine.json()["batchId"] != theirs.json()["batchId"] and theirs.json()["created"] is True


# --- authentication ---

@pytest.mark.parametrize("authorization", [None, "Bearer lrk_not-a-real-key", "Bearer", "Basic dXNlcjpw",
                                           "Bearer something-else"])
def test_missing_or_wrong_keys_are_401(api: ApiServer, authorization: str | None):
    headers = {"Authorization": authorization} if authorization else {}
    response = httpx.get(f"{api.base_url}{BATCHES}/{uuid.uuid4()}", headers=headers)
    assert response.status_code == 401 and response.json()["code"] == "UNAUTHORIZED"
    assert response.json()["instance"] == response.request.url.path
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.headers["Cache-Control"] == "no-store"


def test_a_revoked_key_is_401(api: ApiServer, shared_engine: Engine):
    key_id, secret = create_key(shared_engine, "revoked-seller")
    with api.client(secret) as client:
        assert client.get(f"{JOBS}/{uuid.uuid4()}").status_code == 404
        revoke_key(shared_engine, key_id)
        response = client.get(f"{JOBS}/{uuid.uuid4()}")
    assert response.status_code == 401 and "invalid_token" in response.headers["WWW-Authenticate"]


def test_keys_commands_create_list_and_revoke(api: ApiServer, shared_database: str):
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cli.main", "keys", *args], capture_output=True,
                              text=True, timeout=60, env=os.environ | {"DATABASE_URL": shared_database})

    created = json.loads(cli("create", "--owner", "cli-seller", "--json").stdout)
    assert created["owner"] == "cli-seller" and created["key"].startswith("lrk_")
    listed = json.loads(cli("list", "--json").stdout)
    assert {"keyId": created["keyId"], "owner": "cli-seller", "revokedAt": None}.items() <= next(
        key for key in listed if key["keyId"] == created["keyId"]).items()
    assert created["key"] not in json.dumps(listed)
    with api.client(created["key"]) as client:
        assert client.get(f"{JOBS}/{uuid.uuid4()}").status_code == 404
        assert cli("revoke", created["keyId"]).returncode == 0
        assert client.get(f"{JOBS}/{uuid.uuid4()}").status_code == 401
    unknown = cli("revoke", str(uuid.uuid4()), "--json")
    assert unknown.returncode == 1 and json.loads(unknown.stdout)["error"]["code"] == "API_KEY_NOT_FOUND"


# --- limits ---

def test_body_over_the_limit_by_content_length_is_413(tight_api: ApiServer, shared_engine: Engine):
    _, secret = create_key(shared_engine, "big-sender")
    with tight_api.client(secret) as client:
        response = client.post(BATCHES, content=b"{" + b" " * 4096 + b"}",
                               headers=write_headers() | {"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "REQUEST_TOO_LARGE"
    assert response.json()["instance"] == BATCHES
    assert response.headers["Cache-Control"] == "no-store"


def test_streamed_body_over_the_limit_is_413(tight_api: ApiServer, shared_engine: Engine):
    _, secret = create_key(shared_engine, "chunked-sender")
    chunks = (b" " * 1024 for _ in range(4))  # no Content-Length: chunked transfer encoding
    with tight_api.client(secret) as client:
        response = client.post(BATCHES, content=chunks,
                               headers=write_headers() | {"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "REQUEST_TOO_LARGE"


def test_admission_limit_is_429_with_retry_after(tight_api: ApiServer, shared_engine: Engine):
    _, secret = create_key(shared_engine, f"busy-{uuid.uuid4().hex[:8]}")
    with tight_api.client(secret) as client:
        assert submit(client, batch_body("a-1", "a-2"), key="first").status_code == 202
        refused = submit(client, batch_body("a-3"))
        job = client.post(JOBS, json=LISTING, headers=write_headers())
        replay = submit(client, batch_body("a-1", "a-2"), key="first")
    assert refused.status_code == job.status_code == 429
    assert refused.json()["code"] == "ADMISSION_LIMIT_EXCEEDED" and refused.headers["Retry-After"] == "30"
    assert replay.status_code == 202, "a replay adds no work, so it is never refused"


def test_unreachable_database_is_503(database_url: str, server_url: str):
    engine = make_engine(database_url)
    _, secret = create_key(engine, "any-seller")
    engine.dispose()
    server = ApiServer(database_url)
    try:
        drop_database(server_url, make_url(database_url).database)
        with server.client(secret) as client:
            response = client.get(f"{BATCHES}/{uuid.uuid4()}")
        assert response.status_code == 503 and response.json()["code"] == "STORAGE_UNAVAILABLE"
        assert response.headers["Retry-After"] and "Traceback" not in response.text
    finally:
        server.close()


# --- single listings ---

def test_standalone_job_submit_replay_conflict_and_read(seller: httpx.Client):
    first = seller.post(JOBS, json=LISTING, headers=write_headers("job-1"))
    assert first.status_code == 202 and first.headers["Location"] == f"{JOBS}/{first.json()['jobId']}"
    replay = seller.post(JOBS, json=LISTING, headers=write_headers("job-1"))
    assert replay.status_code == 202 and replay.json()["jobId"] == first.json()["jobId"]
    conflict = seller.post(JOBS, json=LISTING | {"price": 50}, headers=write_headers("job-1"))
    assert conflict.status_code == 409 and conflict.json()["code"] == "IDEMPOTENCY_CONFLICT"
    read = seller.get(first.headers["Location"])
    assert read.status_code == 200 and read.json()["status"] == "QUEUED" and read.json()["batchId"] is None


def test_cancelled_items_and_jobs_match_the_documented_shapes(seller: httpx.Client,
                                                               shared_engine: Engine):
    accepted = submit(seller, batch_body("c-1", "c-2")).json()
    assert cancel_unstarted(shared_engine, seller_owner(shared_engine, accepted["batchId"]),
                            uuid.UUID(accepted["batchId"])) == 2
    summary = seller.get(accepted["statusUrl"])
    page = seller.get(accepted["itemsUrl"])
    job = seller.get(f"{JOBS}/{page.json()['items'][0]['jobId']}")
    assert schemas.BatchSummary.model_validate(summary.json()).cancelled == 2
    assert summary.json()["status"] == "COMPLETED"
    assert {item.status for item in schemas.ItemsPage.model_validate(page.json()).items} == {
        "CANCELLED"}
    assert job.status_code == 200 and schemas.Job.model_validate(job.json()).status == "CANCELLED"


def seller_owner(engine: Engine, batch_id: str) -> str:
    with engine.connect() as conn:
        return conn.execute(text("select owner from review_batches where id = :id"),
                            {"id": batch_id}).scalar_one()


def test_batch_and_job_keys_are_separate_namespaces(seller: httpx.Client):
    assert submit(seller, batch_body("a-1"), key="shared-key").status_code == 202
    assert seller.post(JOBS, json=LISTING, headers=write_headers("shared-key")).status_code == 202


def test_invalid_standalone_listing_names_the_fields(seller: httpx.Client):
    response = seller.post(JOBS, json=LISTING | {"title": "", "price": -1}, headers=write_headers())
    assert response.status_code == 400
    assert {row["field"] for row in response.json()["errors"]} == {"title", "price"}


def test_synchronous_review(seller: httpx.Client):
    response = seller.post(REVIEWS, json=LISTING, headers={"X-API-Version": "1"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    review = response.json()
    assert 0 <= review["qualityScore"] <= 100 and review["provider"] == "heuristic"


def test_the_articles_review_path_is_an_alias(seller: httpx.Client):
    response = seller.post(ARTICLE_REVIEW, json=LISTING, headers={"X-API-Version": "1"})
    assert response.status_code == 200
    assert response.json() == seller.post(REVIEWS, json=LISTING, headers={"X-API-Version": "1"}).json()
    invalid = seller.post(ARTICLE_REVIEW, json=LISTING | {"title": ""})
    assert invalid.status_code == 400 and invalid.json()["instance"] == ARTICLE_REVIEW


def test_synchronous_review_of_malformed_json_is_400(seller: httpx.Client):
    response = seller.post(REVIEWS, content=b"{not json", headers={
        "X-API-Version": "1", "Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"


# --- the whole flow, with a real worker ---

def test_submit_then_worker_then_pages(database_url: str):
    engine = make_engine(database_url)
    _, secret = create_key(engine, "local")
    engine.dispose()
    server, worker = ApiServer(database_url), WorkerGroup(database_url)
    try:
        with server.client(secret) as client:
            accepted = submit(client, json.loads((SAMPLES / "books.json").read_text()), "books").json()
            wait_for(lambda: client.get(accepted["statusUrl"]).json()["status"] == "COMPLETED",
                     "the batch to complete")
            items, after = [], 0
            while after is not None:
                page = client.get(accepted["itemsUrl"], params={"after": after, "limit": 5}).json()
                items, after = items + page["items"], page["nextAfter"]
            replay = submit(client, json.loads((SAMPLES / "books.json").read_text()), "books")
            job = client.get(f"{JOBS}/{items[0]['jobId']}").json()
        assert len(items) == 12 and all(item["status"] == "SUCCEEDED" for item in items)
        assert all(0 <= item["result"]["qualityScore"] <= 100 for item in items)
        assert replay.status_code == 200 and job["batchId"] == accepted["batchId"]
    finally:
        worker.close()
        server.close()


# --- in-process: what the server never reveals ---

def test_unexpected_failures_are_a_generic_500_problem(tmp_path: Path):
    class BrokenEngine:
        def connect(self):
            raise RuntimeError("secret internal detail")

    runtime = type("Runtime", (), {"settings": Settings(home=tmp_path), "engine": BrokenEngine(),
                                   "queue": None})()
    with TestClient(create_app(runtime), raise_server_exceptions=False) as client:
        response = client.get(f"{BATCHES}/{uuid.uuid4()}", headers={"Authorization": "Bearer lrk_x"})
    assert response.status_code == 500 and response.json()["code"] == "INTERNAL_ERROR"
    assert response.json()["instance"] == response.request.url.path
    assert "secret" not in response.text and "Traceback" not in response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.headers["Cache-Control"] == "no-store"


def test_docs_load_only_assets_this_server_serves(api: ApiServer):
    """/docs works without internet access: nothing is fetched from a CDN."""
    page = httpx.get(f"{api.base_url}/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]*)"', page.text)
    assert len(assets) >= 3 and all(asset.startswith("/") for asset in assets), assets
    assert "://" not in page.text.replace("window.location.origin", "")
    for asset in assets:
        assert httpx.get(f"{api.base_url}{asset}").status_code == 200, asset


def test_unknown_paths_and_methods_are_problems(api: ApiServer):
    missing = httpx.get(f"{api.base_url}/api/nothing-here")
    wrong_method = httpx.delete(f"{api.base_url}{BATCHES}")
    assert (missing.status_code, missing.json()["code"]) == (404, "NOT_FOUND")
    assert (wrong_method.status_code, wrong_method.json()["code"]) == (405, "METHOD_NOT_ALLOWED")
    assert wrong_method.headers["Cache-Control"] == "no-store"


def test_synchronous_reviews_beyond_the_model_slots_are_503(shared_database: str,
                                                            shared_engine: Engine):
    from concurrent.futures import ThreadPoolExecutor

    from tests.fake_openai import FakeOpenAI

    with FakeOpenAI() as model:
        model.hang(3)
        server = ApiServer(shared_database, LISTING_REVIEW_API_REVIEW_CONCURRENCY="1",
                           LISTING_REVIEW_PROVIDER="openai", OPENAI_API_KEY="test",
                           OPENAI_BASE_URL=model.base_url)
        try:
            _, secret = create_key(shared_engine, f"busy-{uuid.uuid4().hex[:8]}")
            with server.client(secret) as client, ThreadPoolExecutor(1) as pool:
                slow = pool.submit(client.post, REVIEWS, json=LISTING, headers=write_headers())
                wait_for(lambda: len(model.requests) == 1, "the first review to reach the model")
                busy = client.post(REVIEWS, json=LISTING, headers=write_headers())
                assert slow.result().status_code == 200
        finally:
            server.close()
    assert busy.status_code == 503 and busy.json()["code"] == "MODEL_CAPACITY_UNAVAILABLE"
