"""The fingerprint of a listing for idempotency: attribute order and price scale do not matter.

The stored snapshot (core/listings/snapshot.py) keeps the values as typed; the two are kept
apart on purpose.
"""

import hashlib

from core.errors import InvalidBatchRequest
from core.listings.draft import ListingDraft
from core.listings.snapshot import listing_json, plain_decimal

KEY_MAX = 128


def check_idempotency_key(key: str) -> None:
    """1-128 characters, as the key columns allow."""
    if not key or len(key) > KEY_MAX:
        raise InvalidBatchRequest(f"The idempotency key must be 1 to {KEY_MAX} characters.")


def fingerprint(draft: ListingDraft) -> str:
    """SHA-256 of the normalised listing."""
    normalised_price = plain_decimal(draft.price.normalize())
    return sha256(listing_json(draft, normalised_price, dict(sorted(draft.attributes.items()))))


def sha256(text: str) -> str:
    """Lower-case hex digest, the format of every request_hash column."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
