"""A listing as JSON with its typed values as submitted: 45.00 stays 45.00.

This is what a job stores and what the prompt shows the model. Idempotency uses a separate,
normalised fingerprint (core/jobs/payload.py): normalising the snapshot once turned a
seller's 100.00 into 100 in the prompt.
"""

import json
from decimal import Decimal

from core.listings.draft import ListingDraft


def encode_snapshot(draft: ListingDraft) -> str:
    """JSON of the draft with the price written exactly as submitted."""
    return listing_json(draft, plain_decimal(draft.price), draft.attributes)


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


def listing_json(draft: ListingDraft, price: str, attributes: dict[str, str]) -> str:
    """Written by hand because json.dumps cannot emit a Decimal as a number with its scale."""
    return (
        '{"title": %s, "description": %s, "category": %s, "price": %s, "attributes": %s}'  # noqa: UP031
        % (
            json.dumps(draft.title),
            json.dumps(draft.description),
            json.dumps(draft.category),
            price,
            json.dumps(attributes),
        )
    )


def plain_decimal(value: Decimal) -> str:
    """Decimal as a JSON number without exponent: 1E+2 -> 100, 45.00 -> 45.00."""
    return format(value, "f")
