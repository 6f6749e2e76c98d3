"""Creating, listing, revoking and checking API keys.

A key is `lrk_` + 32 random bytes (URL-safe base64). The database keeps only its SHA-256
hash, so a leaked table does not leak usable keys; the secret is printed once at creation.
"""

import hashlib
import secrets
import uuid
from typing import Any

from sqlalchemy import Engine, Row

from core.accounts.models import ApiKey, ApiKeyNotFound, InvalidOwner
from core.errors import storage_errors
from core.settings import seller_id
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
PREFIX = "lrk_"
# 32 bytes of base64url is 43 characters; anything much longer is not one of ours.
PRESENTED_MAX = 200


def create_key(engine: Engine, owner: str) -> tuple[uuid.UUID, str]:
    """A new key for `owner`: (key id, secret). Raises InvalidOwner for a blank or over-long
    owner, StorageUnavailable when the database is unreachable.
    """
    owner = check_owner(owner)
    key_id, secret = uuid.uuid4(), PREFIX + secrets.token_urlsafe(32)
    with storage_errors(), engine.begin() as connection:
        connection.execute(QUERIES["insert_key"],
                           {"id": key_id, "owner": owner, "key_hash": key_hash(secret)})
    return key_id, secret


def list_keys(engine: Engine, owner: str | None = None) -> list[ApiKey]:
    """Every key (or `owner`'s), active or revoked, oldest first (never the secrets: they are
    not stored)."""
    with storage_errors(), engine.connect() as connection:
        return [_api_key(row) for row in connection.execute(QUERIES["list_keys"], {"owner": owner})]


def revoke_key(engine: Engine, key_id: uuid.UUID, owner: str | None = None) -> ApiKey:
    """Stop a key (of `owner`, when given) from authenticating; revoking twice is harmless.
    ApiKeyNotFound if unknown (or another seller's)."""
    with storage_errors(), engine.begin() as connection:
        row = connection.execute(QUERIES["revoke_key"], {"id": key_id, "owner": owner}).first()
    if row is None:
        raise ApiKeyNotFound(f"No API key {key_id} exists.")
    return _api_key(row)


def authenticate(engine: Engine, presented: str | None) -> str | None:
    """The owner of an active key, or None for a missing, malformed, unknown or revoked one.
    Raises StorageUnavailable when the database cannot answer (never a silent None).
    """
    if not presented or not presented.startswith(PREFIX) or len(presented) > PRESENTED_MAX:
        return None
    with storage_errors(), engine.connect() as connection:
        return connection.execute(QUERIES["owner_of_key"],
                                  {"key_hash": key_hash(presented)}).scalar_one_or_none()


def key_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_owner(owner: str) -> str:
    """The owner as stored, by the one seller-id rule; InvalidOwner if it breaks it."""
    try:
        return seller_id(owner)
    except ValueError as error:
        raise InvalidOwner(f"The owner is not valid: {error}.") from None


def _api_key(row: Row[Any]) -> ApiKey:
    return ApiKey(key_id=row.id, owner=row.owner, created_at=row.created_at, revoked_at=row.revoked_at)
