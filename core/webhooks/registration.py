"""Registering a seller's webhook and reading its delivery log.

The secret is generated here and returned once; the database keeps it because every delivery
is signed with it. Which URLs are allowed is the webhooks_url_check constraint's rule alone:
a violation becomes InvalidWebhookUrl, so the rule is written once.
"""

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from core.errors import AppError, BatchNotFound, storage_errors
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__)
SECRET_PREFIX = "whsec_"
URL_RULE = ("The webhook URL must be https://host[:port][/path] (printable characters, at most "
            "2000), or http://localhost or http://127.0.0.1 for a receiver on this machine.")


class InvalidWebhookUrl(AppError):
    code = "INVALID_WEBHOOK_URL"


class WebhookNotFound(AppError):
    code = "WEBHOOK_NOT_FOUND"


@dataclass(frozen=True)
class Webhook:
    owner: str
    url: str
    created_at: datetime
    active: bool

    def to_json_dict(self) -> dict[str, Any]:
        return {"url": self.url, "createdAt": iso(self.created_at), "active": self.active}


@dataclass(frozen=True)
class Delivery:
    delivery_id: uuid.UUID
    status: str
    attempts: int
    next_attempt_at: datetime
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None

    def to_json_dict(self) -> dict[str, Any]:
        return {"deliveryId": str(self.delivery_id), "status": self.status, "attempts": self.attempts,
                "nextAttemptAt": iso(self.next_attempt_at) if self.status == "pending" else None,
                "lastStatusCode": self.last_status_code, "lastError": self.last_error,
                "createdAt": iso(self.created_at), "deliveredAt": iso(self.delivered_at)}


def register_webhook(engine: Engine, owner: str, url: str) -> tuple[Webhook, str]:
    """(the webhook, its new secret) for `owner`, replacing any earlier one; InvalidWebhookUrl
    for a URL the constraint refuses (nothing stored)."""
    if not (url.isascii() and url.isprintable()):  # a NUL byte cannot even reach the constraint
        raise InvalidWebhookUrl(URL_RULE)
    secret = SECRET_PREFIX + secrets.token_hex(32)
    try:
        with storage_errors(), engine.begin() as connection:
            row = connection.execute(QUERIES["register_webhook"],
                                     {"owner": owner, "url": url, "secret": secret}).one()
    except IntegrityError as error:
        if getattr(error.orig.diag, "constraint_name", None) != "webhooks_url_check":  # type: ignore[union-attr]
            raise
        raise InvalidWebhookUrl(URL_RULE) from None
    return Webhook(*row), secret


def read_webhook(engine: Engine, owner: str) -> Webhook:
    """`owner`'s webhook (never its secret); WebhookNotFound if none is registered."""
    with storage_errors(), engine.connect() as connection:
        row = connection.execute(QUERIES["read_webhook"], {"owner": owner}).first()
    if row is None:
        raise WebhookNotFound("No webhook is registered for this seller.")
    return Webhook(*row)


def remove_webhook(engine: Engine, owner: str) -> None:
    """Stop announcing `owner`'s completions; WebhookNotFound if none is registered."""
    with storage_errors(), engine.begin() as connection:
        removed = connection.execute(QUERIES["remove_webhook"], {"owner": owner}).first()
    if removed is None:
        raise WebhookNotFound("No webhook is registered for this seller.")


def batch_deliveries(engine: Engine, owner: str, batch_id: uuid.UUID) -> list[Delivery]:
    """The delivery log of `owner`'s batch (empty before completion or without a webhook);
    BatchNotFound for an unknown or another seller's batch."""
    with storage_errors(), engine.connect() as connection:
        row = connection.execute(QUERIES["batch_deliveries"],
                                 {"owner": owner, "batch_id": batch_id}).first()
    if row is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return [] if row.id is None else [Delivery(*row[1:])]
