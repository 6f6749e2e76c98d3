"""The job payload: a snapshot of the listing as typed (for execution) and its fingerprint
(for idempotency). They are separate on purpose: normalising the snapshot once turned a
seller's 100.00 into 100 in the prompt.
"""

import hashlib
import json
from decimal import Decimal

from core.listings.draft import ListingDraft


def encode_snapshot(draft: ListingDraft) -> str:
    """JSON of the draft with the price written exactly as submitted (45.00 stays 45.00)."""
    return _listing_json(draft, _plain_decimal(draft.price), draft.attributes)


def decode_snapshot(text: str) -> ListingDraft:
    """Inverse of encode_snapshot; decimals are read as Decimal so no scale is lost."""
    data = json.loads(text, parse_float=Decimal, parse_int=Decimal)
    return ListingDraft(
        title=data["title"],
        description=data["description"],
        category=data["category"],
        price=data["price"],
        attributes=dict(data.get("attributes") or {}),
    )


def fingerprint(draft: ListingDraft) -> str:
    """SHA-256 of the normalised listing: attribute order and price scale do not matter."""
    normalised_price = _plain_decimal(draft.price.normalize())
    canonical = _listing_json(draft, normalised_price, dict(sorted(draft.attributes.items())))
    return sha256(canonical)


def sha256(text: str) -> str:
    """Lower-case hex digest, the format of every request_hash column."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _listing_json(draft: ListingDraft, price: str, attributes: dict[str, str]) -> str:
    # Written by hand because json.dumps cannot emit a Decimal as a number with its scale.
    return (
        '{"title": %s, "description": %s, "category": %s, "price": %s, "attributes": %s}'
        % (
            json.dumps(draft.title),
            json.dumps(draft.description),
            json.dumps(draft.category),
            price,
            json.dumps(attributes),
        )
    )


def _plain_decimal(value: Decimal) -> str:
    """Decimal as a JSON number without exponent: 1E+2 -> 100, 45.00 -> 45.00."""
    return format(value, "f")
