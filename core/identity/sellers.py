"""Who is acting: a signed-in person as a seller (and maybe an operator), or the local seller.

The seller id is derived from the ID token's `iss` and `sub`: the only claims OpenID Connect
guarantees to be stable and unique together (an e-mail can change or be reassigned, a `sub`
is only unique within its issuer). It is hashed to a fixed-size id that fits the owner
columns and says nothing about the person.
"""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from core.errors import AppError, storage_errors
from core.settings import Settings
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
SELLER_PREFIX = "oidc-"
NAME_MAX, EMAIL_MAX, SUBJECT_MAX, ISSUER_MAX = 200, 320, 255, 2000


class UnusableIdentity(AppError):
    """The provider's ID token lacks a claim we need (shown on the sign-in page)."""

    code = "UNUSABLE_IDENTITY"


@dataclass(frozen=True)
class Identity:
    seller_id: str
    name: str
    operator: bool
    signed_in: bool


def seller_id_for(issuer: str, subject: str) -> str:
    """Stable for a person at one provider; distinct across providers."""
    digest = hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()
    return SELLER_PREFIX + digest[:32]


def local_identity(settings: Settings) -> Identity:
    """Local mode (no OIDC): the installation's seller, with operator rights."""
    return Identity(settings.owner, settings.owner, operator=True, signed_in=False)


def is_operator(settings: Settings, email: str | None, subject: str, email_verified: bool) -> bool:
    """LISTING_REVIEW_OPERATORS names e-mails (any case) or subjects. An e-mail counts only when
    the provider says it is verified: at a provider where anyone may type any address, an
    unverified one would hand out the operator role.
    """
    names = settings.operator_names
    return subject.lower() in names or (email_verified and email is not None and email.lower() in names)


def sign_in(engine: Engine, settings: Settings, claims: Mapping[str, Any]) -> Identity:
    """Record (or refresh) the seller behind these ID-token claims and say who they are.
    Raises UnusableIdentity when `iss` or `sub` is missing or too long.
    """
    issuer, subject = _claim(claims, "iss", ISSUER_MAX), _claim(claims, "sub", SUBJECT_MAX)
    if issuer is None or subject is None:
        raise UnusableIdentity("The sign-in provider did not say who you are (issuer and subject).")
    email, name = _claim(claims, "email", EMAIL_MAX), _claim(claims, "name", NAME_MAX)
    seller = seller_id_for(issuer, subject)
    with storage_errors(), engine.begin() as connection:
        connection.execute(QUERIES["upsert_seller"], {
            "seller_id": seller, "issuer": issuer, "subject": subject,
            "email": email if email and len(email) >= 3 else None, "display_name": name})
    verified = claims.get("email_verified") in (True, "true")  # some providers send a string
    return Identity(seller, name or email or subject, is_operator(settings, email, subject, verified),
                    signed_in=True)


def _claim(claims: Mapping[str, Any], name: str, longest: int) -> str | None:
    """A non-blank string claim of at most `longest` characters, else None."""
    value = claims.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        return None
    return value.strip()
