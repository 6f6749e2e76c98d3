"""Sign-in settings, sellers from ID-token claims, roles and the operators' audit, against a
real PostgreSQL (the invariants are broken on purpose to see the database refuse them)."""

import os
import stat
import subprocess
import sys
import tomllib
import uuid

import pytest
import sqlalchemy.exc
from sqlalchemy import Engine, text

from core.accounts.service import ApiKeyNotFound, create_key, list_keys, revoke_key
from core.identity import oversight
from core.identity.auth_config import cookie_secret, write_auth_secrets
from core.identity.sellers import UnusableIdentity, local_identity, seller_id_for, sign_in
from core.settings import Settings, describe_validation_error

SIGN_IN = {"oidc_metadata_url": "https://id.example/.well-known/openid-configuration",
           "oidc_client_id": "listing-review", "oidc_client_secret": "s3cret",
           "public_url": "https://reviews.example/"}
ISSUER = "https://id.example"


def settings_error(**values: object) -> str:
    with pytest.raises(Exception) as raised:
        Settings(**values)
    return describe_validation_error(raised.value)


def test_local_mode_is_the_default_and_binds_loopback():
    settings = Settings()
    assert not settings.sign_in and settings.bind_address == "127.0.0.1"
    assert settings.metrics_host == "127.0.0.1"


@pytest.mark.parametrize("missing", ["oidc_metadata_url", "oidc_client_id", "oidc_client_secret",
                                     "public_url"])
def test_half_an_oidc_configuration_names_the_missing_variable(missing: str):
    message = settings_error(**{name: value for name, value in SIGN_IN.items() if name != missing})
    assert f"missing: LISTING_REVIEW_{missing.upper()}" in message


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.20", "reviews.example"])
def test_a_non_loopback_bind_without_sign_in_is_refused_saying_what_to_set(address: str):
    message = settings_error(bind_address=address)
    assert "LISTING_REVIEW_BIND_ADDRESS" in message and "LISTING_REVIEW_OIDC_METADATA_URL" in message
    assert Settings(bind_address=address, **SIGN_IN).bind_address == address


def test_bad_sign_in_values_name_their_variable():
    assert "LISTING_REVIEW_PUBLIC_URL" in settings_error(**SIGN_IN | {"public_url": "reviews.example"})
    assert "LISTING_REVIEW_COOKIE_SECRET" in settings_error(cookie_secret="short")


@pytest.mark.parametrize("command", [["ui", "--host", "0.0.0.0"], ["api", "--host", "0.0.0.0"], ["up"]])
def test_the_commands_refuse_a_non_loopback_bind_without_sign_in_with_exit_2(command, tmp_path):
    env = {name: value for name, value in os.environ.items() if not name.startswith("LISTING_REVIEW_")}
    env |= {"LISTING_REVIEW_HOME": str(tmp_path), "LISTING_REVIEW_BIND_ADDRESS": "0.0.0.0"}
    if command[0] != "up":
        env.pop("LISTING_REVIEW_BIND_ADDRESS")
    done = subprocess.run([sys.executable, "-m", "cli.main", *command], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "LISTING_REVIEW_OIDC_CLIENT_ID" in done.stderr and "Traceback" not in done.stderr


def test_streamlit_gets_an_auth_section_written_privately_from_the_settings(tmp_path):
    settings = Settings(home=tmp_path / "home", **SIGN_IN)
    path = write_auth_secrets(settings)
    auth = tomllib.loads(path.read_text())["auth"]
    assert auth["redirect_uri"] == "https://reviews.example/oauth2callback"
    assert auth["client_secret"] == "s3cret" and auth["server_metadata_url"] == SIGN_IN["oidc_metadata_url"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert auth["cookie_secret"] == cookie_secret(settings)  # generated once, then kept
    assert stat.S_IMODE((path.parent / "cookie_secret").stat().st_mode) == 0o600
    given = Settings(home=tmp_path / "other", cookie_secret="c" * 40, **SIGN_IN)
    assert tomllib.loads(write_auth_secrets(given).read_text())["auth"]["cookie_secret"] == "c" * 40


def test_the_seller_id_is_stable_per_issuer_and_subject_only():
    assert seller_id_for(ISSUER, "alice") == seller_id_for(ISSUER, "alice")
    assert seller_id_for(ISSUER, "alice") != seller_id_for("https://other.example", "alice")
    assert len(seller_id_for(ISSUER, "alice")) <= 128


def test_signing_in_records_the_seller_and_refreshes_name_and_email(engine: Engine, settings: Settings):
    claims = {"iss": ISSUER, "sub": "alice", "email": "a@x.example", "name": "Alice"}
    first = sign_in(engine, settings, claims)
    again = sign_in(engine, settings, {"iss": ISSUER, "sub": "alice", "email": "new@x.example"})
    assert first.seller_id == again.seller_id and again.name == "new@x.example"
    with engine.connect() as connection:
        row = connection.execute(text("select email, display_name from sellers")).one()
    assert tuple(row) == ("new@x.example", None)


def test_a_token_without_issuer_or_subject_is_refused(engine: Engine, settings: Settings):
    with pytest.raises(UnusableIdentity):
        sign_in(engine, settings, {"iss": ISSUER, "email": "a@x.example"})


def test_operators_are_named_by_verified_email_in_any_case_or_by_subject(engine: Engine, database_url: str,
                                                                         tmp_path):
    settings = Settings(database_url=database_url, home=tmp_path, operators=" Ops@X.example , bob-sub")
    ops = {"iss": ISSUER, "sub": "o", "email": "ops@x.example"}
    assert sign_in(engine, settings, ops | {"email_verified": True}).operator
    assert not sign_in(engine, settings, ops).operator
    assert not sign_in(engine, settings, ops | {"email_verified": False}).operator
    assert sign_in(engine, settings, {"iss": ISSUER, "sub": "bob-sub"}).operator
    assert not sign_in(engine, settings, {"iss": ISSUER, "sub": "carol", "email": "c@x.example"}).operator
    assert local_identity(settings).operator and local_identity(settings).seller_id == "local"


def add_batch(engine: Engine, owner: str) -> uuid.UUID:
    batch_id = uuid.uuid4()
    with engine.begin() as connection:
        connection.execute(text("insert into review_batches (id, owner, idempotency_key, request_hash) "
                                "values (:id, :owner, :key, repeat('a', 64))"),
                           {"id": batch_id, "owner": owner, "key": str(batch_id)})
    return batch_id


def test_a_seller_reads_only_as_themself_an_operator_as_the_batch_owner(engine: Engine, settings: Settings):
    alice = sign_in(engine, settings, {"iss": ISSUER, "sub": "alice", "name": "Alice"})
    bob = sign_in(engine, settings, {"iss": ISSUER, "sub": "bob"})
    batch = add_batch(engine, alice.seller_id)
    assert oversight.batch_owner(engine, bob, batch) == bob.seller_id  # so: not found for bob
    assert oversight.batch_owner(engine, local_identity(settings), batch) == alice.seller_id
    assert oversight.seller_name(engine, alice.seller_id) == alice.name  # how an operator sees the owner
    assert oversight.seller_name(engine, "cli-owner") == "cli-owner"  # never signed in: its id


def test_the_operator_lists_every_sellers_batches_with_names_a_page_at_a_time(engine, settings):
    alice = sign_in(engine, settings, {"iss": ISSUER, "sub": "alice", "name": "Alice"})
    batches = [add_batch(engine, alice.seller_id), add_batch(engine, "seller-42"), add_batch(engine, "local")]
    first = oversight.every_batch(engine, limit=2)
    rest = oversight.every_batch(engine, before=first.next_before, limit=2)
    listed = first.items + rest.items
    assert {item.summary.batch_id for item in listed} == set(batches) and rest.next_before is None
    assert {item.seller_name for item in listed} == {"Alice", "seller-42", "local"}
    only = oversight.every_batch(engine, owner=alice.seller_id).items
    assert [item.summary.batch_id for item in only] == [batches[0]]
    assert oversight.known_sellers(engine)[alice.seller_id] == "Alice"


def test_operator_actions_on_other_sellers_batches_are_audited(engine: Engine, settings: Settings):
    operator = local_identity(settings)
    batch, own = add_batch(engine, "seller-42"), add_batch(engine, "local")
    with engine.begin() as connection:  # the action's own transaction (tests/test_operator_audit.py)
        oversight.audit(connection, operator, "cancel", batch, "seller-42")
        oversight.audit(connection, operator, "retry", own, "local")  # own batch: no audit row
    assert [(a.action, a.actor_name) for a in oversight.actions_on(engine, batch)] == [("cancel", "local")]
    assert oversight.actions_on(engine, own) == []


@pytest.mark.parametrize(("action", "owner", "actor"), [("delete", "seller-42", "local"),
                                                        ("cancel", "someone-else", "local"),
                                                        ("cancel", "seller-42", "seller-42")])
def test_the_audit_table_refuses_bad_rows(engine: Engine, action: str, owner: str, actor: str):
    batch = add_batch(engine, "seller-42")
    with pytest.raises(sqlalchemy.exc.IntegrityError), engine.begin() as connection:
        connection.execute(text("insert into operator_actions (actor, action, batch_id, batch_owner) "
                                "values (:actor, :action, :batch, :owner)"),
                           {"actor": actor, "action": action, "batch": batch, "owner": owner})


@pytest.mark.parametrize(("seller_id", "issuer", "subject"), [("alice", ISSUER, "alice"),
                                                              ("oidc-" + "0" * 32, "", "alice")])
def test_the_sellers_table_refuses_bad_rows(engine: Engine, seller_id: str, issuer: str, subject: str):
    with pytest.raises(sqlalchemy.exc.IntegrityError), engine.begin() as connection:
        connection.execute(text("insert into sellers (seller_id, issuer, subject) values (:id, :iss, :sub)"),
                           {"id": seller_id, "iss": issuer, "sub": subject})


def test_one_issuer_and_subject_is_one_seller(engine: Engine):
    insert = text("insert into sellers (seller_id, issuer, subject) values (:id, :iss, 'alice')")
    with engine.begin() as connection:
        connection.execute(insert, {"id": "oidc-" + "1" * 32, "iss": ISSUER})
    with pytest.raises(sqlalchemy.exc.IntegrityError), engine.begin() as connection:
        connection.execute(insert, {"id": "oidc-" + "2" * 32, "iss": ISSUER})


def test_a_seller_lists_and_revokes_only_their_own_keys(engine: Engine):
    mine, _ = create_key(engine, "alice")
    theirs, _ = create_key(engine, "bob")
    assert [key.key_id for key in list_keys(engine, "alice")] == [mine]
    with pytest.raises(ApiKeyNotFound):
        revoke_key(engine, theirs, owner="alice")
    assert not revoke_key(engine, mine, owner="alice").active


