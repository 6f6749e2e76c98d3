"""Hostile requests against a real `listing-review api` process: slow and aborted bodies,
broken file names, numbers and characters no listing holds, and database errors that quote
the seller's data. Each gets a clear answer, stores nothing and leaves no seller text or
traceback in the server's log.
"""

import json
import os
import select
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from core.accounts.service import create_key
from core.batches import admission, submission
from core.batches.admission import submit_admitted_catalog
from core.settings import Settings
from tasks.queue import DramatiqPgQueue
from tests.api_server import ApiServer
from tests.processes import DEADLINE_SECONDS, wait_for

BATCHES = "/api/listings/review-batches"
JOBS = "/api/listings/review-jobs"
LISTING_ENDPOINTS = (JOBS, "/api/listings/reviews", "/api/listings/review")
LISTING = {"title": "Wireless keyboard", "description": "Used wireless keyboard with its USB receiver.",
           "category": "Computer accessories", "price": "45.00"}
CSV = b"item_id,title,description,category,price\nk-1,Keyboard,A used keyboard.,Computers,45.00\n"
BODY_TIMEOUT_SECONDS = "1"


@pytest.fixture(scope="module")
def api(shared_database: str) -> Iterator[ApiServer]:
    """A server that gives a request body one second to arrive."""
    server = ApiServer(shared_database, LISTING_REVIEW_REQUEST_BODY_TIMEOUT=BODY_TIMEOUT_SECONDS)
    yield server
    server.close()


@pytest.fixture
def owner_key(shared_engine: Engine) -> tuple[str, str]:
    owner = f"hostile-{uuid.uuid4().hex[:8]}"
    return owner, create_key(shared_engine, owner)[1]


def stored_jobs(engine: Engine, owner: str) -> int:
    with engine.connect() as conn:
        return conn.execute(text("select (select count(*) from review_jobs where owner = :o) + "
                                 "(select count(*) from review_batches where owner = :o)"),
                            {"o": owner}).scalar_one()


def multipart(filename: bytes, content: bytes, boundary: str = "hostile-boundary") -> tuple[bytes, str]:
    """A multipart body written out by hand, so the file name reaches the server byte for byte."""
    body = (f"--{boundary}\r\n".encode()
            + b'Content-Disposition: form-data; name="file"; filename="' + filename + b'"\r\n'
            + b"Content-Type: text/csv\r\n\r\n" + content + f"\r\n--{boundary}--\r\n".encode())
    return body, f"multipart/form-data; boundary={boundary}"


def request_head(path: str, secret: str, content_type: str, length: int) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {secret}\r\n"
            f"Idempotency-Key: {uuid.uuid4()}\r\nX-API-Version: 1\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


# --- one check per submission ---

def test_a_submission_checks_its_catalog_once(engine: Engine, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch):
    checks = []
    real_check = submission.check_catalog

    def counting_check(*args, **kwargs):
        checks.append(args[1])
        return real_check(*args, **kwargs)

    monkeypatch.setattr(submission, "check_catalog", counting_check)
    monkeypatch.setattr(admission, "check_catalog", counting_check, raising=False)
    accepted = submit_admitted_catalog(engine, DramatiqPgQueue("q"), Settings(home=tmp_path),
                                       owner="once", filename="c.csv", data=CSV, key="once")
    assert accepted.summary.total == 1 and checks == ["c.csv"]


# --- bodies bounded in time ---

def test_a_slow_body_is_cut_off_with_408_and_nothing_stored(api: ApiServer, shared_engine: Engine,
                                                            owner_key: tuple[str, str]):
    owner, secret = owner_key
    with socket.create_connection(("127.0.0.1", api.port)) as client:
        client.sendall(request_head(BATCHES, secret, "application/json", 100_000) + b'{"items": [')
        answer = trickle_until_answered(client)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head.lower()
    problem = json.loads(body)
    assert (problem["code"], problem["instance"]) == ("REQUEST_TIMEOUT", BATCHES)
    assert stored_jobs(shared_engine, owner) == 0


def trickle_until_answered(client: socket.socket) -> bytes:
    """One byte per half second until the server answers; then its whole answer (it closes)."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        readable, _, _ = select.select([client], [], [], 0.5)
        if readable:
            return read_until_closed(client)
        client.sendall(b" ")
    raise AssertionError("the server kept reading a slow body")


def read_until_closed(client: socket.socket) -> bytes:
    """The answer up to the close. A byte trickled just as the server answered is unread when it
    closes, so the close may come as a reset after the answer instead of an end of stream."""
    client.settimeout(DEADLINE_SECONDS)
    answer = b""
    try:
        while chunk := client.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


# --- an aborted upload ---

def test_an_aborted_upload_logs_one_short_line(api: ApiServer, shared_engine: Engine,
                                               owner_key: tuple[str, str]):
    owner, secret = owner_key
    body, content_type = multipart(b"catalog.csv", CSV * 100)
    with socket.create_connection(("127.0.0.1", api.port)) as client:
        client.sendall(request_head(BATCHES, secret, content_type, len(body)) + body[:len(body) // 2])
    wait_for(lambda: "client disconnected" in api.output() or "Traceback" in api.output(),
             "the server to notice the client went away")
    assert "Traceback" not in api.output() and "ClientDisconnect" not in api.output()
    assert f"client disconnected during POST {BATCHES}" in api.output()
    assert stored_jobs(shared_engine, owner) == 0


# --- file names ---

@pytest.mark.parametrize("filename,message", [
    (b"cata\x00log.csv", "control characters"),
    (b"a" * 300 + b".csv", "255 or fewer"),
])
def test_an_unstorable_file_name_is_400(api: ApiServer, shared_engine: Engine,
                                        owner_key: tuple[str, str], filename: bytes, message: str):
    owner, secret = owner_key
    body, content_type = multipart(filename, CSV)
    with api.client(secret) as client:
        response = client.post(BATCHES, content=body, headers={
            "Content-Type": content_type, "Idempotency-Key": str(uuid.uuid4()), "X-API-Version": "1"})
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert message in response.json()["detail"]
    assert stored_jobs(shared_engine, owner) == 0


# --- values no listing holds ---

@pytest.mark.parametrize("path", LISTING_ENDPOINTS)
@pytest.mark.parametrize("raw,field", [
    ('"title": "a\\ud800b"', "title"),
    ('"price": 1' + "0" * 5000, "price"),
    ('"attributes": {"weight": 1' + "0" * 5000 + "}", "attributes.weight"),
])
def test_a_listing_body_with_an_unusable_value_is_400_with_its_field(
        api: ApiServer, shared_engine: Engine, owner_key: tuple[str, str], path: str, raw: str,
        field: str):
    owner, secret = owner_key
    listing = json.dumps(LISTING)[:-1] + ", " + raw + "}"
    with api.client(secret) as client:
        response = client.post(path, content=listing, headers={
            "Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4()),
            "X-API-Version": "1"})
    assert response.status_code == 400, response.text[:500]
    assert field in {row["field"] for row in response.json()["errors"]}
    assert stored_jobs(shared_engine, owner) == 0


def test_the_cli_reads_a_listing_file_with_the_same_rules(database_url: str, tmp_path: Path):
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps(LISTING)[:-1] + ', "price": 1' + "0" * 5000 + "}")
    run = subprocess.run([sys.executable, "-m", "cli.main", "review", str(listing), "--json"],
                         capture_output=True, text=True, timeout=120,
                         env=os.environ | {"DATABASE_URL": database_url})
    error = json.loads(run.stdout)["error"]
    assert run.returncode == 1 and error["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert [row["field"] for row in error["rows"]] == ["price"]


# --- database errors quote the data they refused ---

def test_a_database_error_is_logged_without_its_text(database_url: str, engine: Engine):
    """A trigger makes PostgreSQL refuse the job with an error quoting the listing, as jsonb's
    `CONTEXT: JSON data ...` does: the seller gets a generic 500, the log only the SQLSTATE."""
    with engine.begin() as conn:
        conn.execute(text("""
            create function refuse_listing() returns trigger language plpgsql as $$
            begin perform new.payload::text::integer; return new; end $$;
            create trigger refuse_listing before insert on review_jobs
              for each row execute function refuse_listing()"""))
    _, secret = create_key(engine, "quoted-seller")
    server = ApiServer(database_url)
    try:
        with server.client(secret) as client:
            response = client.post(JOBS, json=LISTING | {"title": "Secret-title-7741"},
                                   headers={"Idempotency-Key": "quoted", "X-API-Version": "1"})
        wait_for(lambda: f"during POST {JOBS}" in server.output() or "Traceback" in server.output(),
                 "the server to log the failure")
        log = server.output()
    finally:
        server.close()
    assert response.status_code == 500 and response.json()["code"] == "INTERNAL_ERROR"
    assert "Secret-title-7741" not in log and "Traceback" not in log
    assert "DataError (SQLSTATE 22P02)" in log
