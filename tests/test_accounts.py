"""API keys on real PostgreSQL: only hashes are stored, revoked keys fail, bad rows are refused."""

import uuid

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from core.accounts.models import ApiKeyNotFound, InvalidOwner
from core.accounts.service import authenticate, create_key, key_hash, list_keys, revoke_key


def test_a_new_key_authenticates_as_its_owner(engine: Engine):
    _, secret = create_key(engine, "seller-a")
    assert secret.startswith("lrk_") and len(secret) == 4 + 43
    assert authenticate(engine, secret) == "seller-a"


def test_only_the_hash_of_the_secret_is_stored(engine: Engine):
    key_id, secret = create_key(engine, "seller-a")
    with engine.connect() as conn:
        stored = conn.execute(text("select * from api_keys where id = :id"), {"id": key_id}).one()
    assert secret not in str(tuple(stored)) and stored.key_hash == key_hash(secret)


@pytest.mark.parametrize("presented", [None, "", "lrk_unknown", "not-ours", "lrk_" + "x" * 500])
def test_unknown_or_malformed_keys_authenticate_no_one(engine: Engine, presented: str | None):
    create_key(engine, "seller-a")
    assert authenticate(engine, presented) is None


def test_a_revoked_key_no_longer_authenticates_and_revoking_again_keeps_the_first_time(engine: Engine):
    key_id, secret = create_key(engine, "seller-a")
    first = revoke_key(engine, key_id)
    again = revoke_key(engine, key_id)
    assert authenticate(engine, secret) is None
    assert first.revoked_at == again.revoked_at and first.revoked_at >= first.created_at


def test_list_shows_every_key_without_secrets(engine: Engine):
    kept, _ = create_key(engine, "seller-a")
    revoked, _ = create_key(engine, "seller-b")
    revoke_key(engine, revoked)
    keys = {key.key_id: key for key in list_keys(engine)}
    assert keys[kept].active and not keys[revoked].active and keys[revoked].owner == "seller-b"


def test_revoking_an_unknown_key_is_not_found(engine: Engine):
    with pytest.raises(ApiKeyNotFound):
        revoke_key(engine, uuid.uuid4())


@pytest.mark.parametrize("owner", ["", "   ", "x" * 129])
def test_blank_or_long_owners_are_refused(engine: Engine, owner: str):
    with pytest.raises(InvalidOwner):
        create_key(engine, owner)


@pytest.mark.parametrize("owner,hash_,revoked", [
    (" ", "a" * 64, None),
    ("seller", "not-a-hash", None),
    ("seller", "A" * 64, None),
    ("seller", "a" * 64, "2000-01-01T00:00:00Z"),
])
def test_check_constraints_refuse_bad_rows(engine: Engine, owner: str, hash_: str, revoked: str | None):
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(text("insert into api_keys (id, owner, key_hash, revoked_at) values "
                          "(:id, :owner, :hash, cast(:revoked as timestamptz))"),
                     {"id": uuid.uuid4(), "owner": owner, "hash": hash_, "revoked": revoked})
