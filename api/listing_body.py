"""A single-listing JSON body, read by core's parse_listing (the CLI's rules and messages)."""

from fastapi import Request

from api import schemas
from api.headers import media_type
from api.problems import UnsupportedMediaType
from core.listings.body import parse_listing
from core.listings.draft import ListingDraft

LISTING_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": schemas.ref("Listing")},
}}}


async def listing_draft(request: Request) -> ListingDraft:
    """The body as a ListingDraft; 415 unless JSON, 400 with every field problem otherwise."""
    if media_type(request) != "application/json":
        raise UnsupportedMediaType("Send the listing as application/json.")
    return parse_listing(await request.body(), "The body")
