"""The webhook endpoints and CLI commands over a real API server and database: the secret is
shown once, another seller sees neither the webhook nor a batch's deliveries, bad URLs are 400."""

import json
import uuid

import httpx
import pytest
from sqlalchemy import Engine

from core.accounts.service import create_key
from tests.api_server import ApiServer
from tests.test_api import BATCHES, batch_body, complete_batch, submit
from tests.test_cli import run

WEBHOOK = "/api/listings/webhook"
HEADERS = {"X-API-Version": "1"}


def client_for(api: ApiServer, engine: Engine) -> httpx.Client:
    _, secret = create_key(engine, f"seller-{uuid.uuid4().hex[:8]}")
    return api.client(secret)


def test_register_show_and_remove_a_webhook(api, shared_engine):
    with client_for(api, shared_engine) as seller:
        assert seller.get(WEBHOOK, headers=HEADERS).status_code == 404
        registered = seller.put(WEBHOOK, json={"url": "https://hooks.example/lr"}, headers=HEADERS)
        assert registered.status_code == 200 and registered.json()["secret"].startswith("whsec_")
        shown = seller.get(WEBHOOK, headers=HEADERS).json()
        assert shown["url"] == "https://hooks.example/lr" and "secret" not in shown
        assert seller.delete(WEBHOOK, headers=HEADERS).status_code == 204
        assert seller.get(WEBHOOK, headers=HEADERS).json()["code"] == "WEBHOOK_NOT_FOUND"


@pytest.mark.parametrize("body", [{"url": "http://example.com/"}, {"url": "file:///etc/passwd"},
                                  {"url": "https://" + "a" * 2001}, {}, {"url": 5}])
def test_a_bad_url_is_a_400_and_stores_nothing(api, shared_engine, body):
    with client_for(api, shared_engine) as seller:
        refused = seller.put(WEBHOOK, json=body, headers=HEADERS)
        assert refused.status_code == 400 and "Traceback" not in refused.text
        assert seller.get(WEBHOOK, headers=HEADERS).status_code == 404


def test_the_delivery_log_is_the_owners_alone(api, shared_engine):
    with client_for(api, shared_engine) as seller, client_for(api, shared_engine) as other:
        seller.put(WEBHOOK, json={"url": "http://127.0.0.1:9/hook"}, headers=HEADERS)
        batch_id = submit(seller, batch_body("a")).json()["batchId"]
        log = f"{BATCHES}/{batch_id}/webhook-deliveries"
        assert seller.get(log, headers=HEADERS).json()["items"] == []
        complete_batch(shared_engine, batch_id)
        [delivery] = seller.get(log, headers=HEADERS).json()["items"]
        assert delivery["status"] == "pending" and delivery["attempts"] == 0
        assert other.get(log, headers=HEADERS).status_code == 404
        assert seller.get(f"{BATCHES}/not-a-uuid/webhook-deliveries", headers=HEADERS).status_code == 404


def test_cli_sets_shows_and_removes(shared_database):
    owner = f"cli-{uuid.uuid4().hex[:8]}"
    made = run("webhook", "set", "https://hooks.example/x", "--owner", owner, "--json",
               database_url=shared_database)
    assert made.returncode == 0 and json.loads(made.stdout)["secret"].startswith("whsec_")
    shown = run("webhook", "show", "--owner", owner, database_url=shared_database)
    assert "https://hooks.example/x" in shown.stdout and "whsec_" not in shown.stdout
    assert run("webhook", "remove", "--owner", owner, database_url=shared_database).returncode == 0
    gone = run("webhook", "show", "--owner", owner, "--json", database_url=shared_database)
    assert gone.returncode == 1 and "WEBHOOK_NOT_FOUND" in gone.stdout + gone.stderr
    bad = run("webhook", "set", "http://example.com", "--owner", owner, database_url=shared_database)
    assert bad.returncode == 1 and "INVALID_WEBHOOK_URL" in bad.stdout + bad.stderr
