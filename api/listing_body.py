"""A single-listing JSON body, validated by core's validate_draft (the CLI's rules and messages)."""

import json
from decimal import Decimal
from typing import Any

from fastapi import Request

from api import schemas
from api.problems import UnsupportedMediaType
from core.errors import InvalidBatchRequest
from core.listings.draft import ListingDraft, validate_draft

LISTING_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": schemas.ref("Listing")},
}}}


async def listing_draft(request: Request) -> ListingDraft:
    """The body as a ListingDraft (flat, or wrapped as {"listing": {...}}); 400 with every
    field problem otherwise. Prices keep their typed decimals (45.00 stays 45.00).
    """
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaType("Send the listing as application/json.")
    draft, problems = validate_draft(_listing_object(await request.body()))
    if draft is None:
        raise InvalidBatchRequest(
            "The listing is not valid; nothing was stored.",
            rows=[{"field": problem.field, "message": problem.message} for problem in problems])
    return draft


def _listing_object(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body.decode("utf-8-sig"), parse_float=Decimal)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise InvalidBatchRequest("The body is not valid UTF-8 JSON; send one listing object.") from None
    if isinstance(data, dict) and isinstance(data.get("listing"), dict):
        data = data["listing"]
    if not isinstance(data, dict):
        raise InvalidBatchRequest("The body must be one JSON object with the listing's fields.")
    return data
