"""Synchronous review of one listing: the same review service the workers use."""

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from api import schemas
from api.auth import RuntimeDep, current_owner
from api.headers import VERSIONED
from api.listing_body import LISTING_BODY, listing_draft
from api.responses import problems
from core.listings import service
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError

PATH = "/api/listings/reviews"
# The reference article's synchronous endpoint, "unchanged": the same operation.
ARTICLE_PATH = "/api/listings/review"
router = APIRouter(tags=["reviews"], dependencies=[*VERSIONED, Depends(current_owner)])
RESPONSES = problems(400, 401, 408, 413, 415, 502, 503, 504)


@router.post(PATH, response_model=schemas.Review, openapi_extra=LISTING_BODY,
             summary="Review one listing now (nothing is stored)", responses=RESPONSES)
def review_listing(request: Request, draft: Annotated[ListingDraft, Depends(listing_draft)],
                   runtime: RuntimeDep) -> JSONResponse:
    """Model failures are bounded codes: 502 invalid output, 503 unavailable or every model
    slot busy (so slow reviews cannot take all of the server's threads), 504 timeout."""
    slots = request.app.state.model_slots
    if not slots.reserve():
        raise ReviewError("MODEL_CAPACITY_UNAVAILABLE")
    provider, timeout = request.app.state.provider, runtime.settings.model_timeout
    outcome = slots.call(lambda: service.review(draft, "sync", provider, timeout))
    return JSONResponse(outcome.to_stored_result())


router.add_api_route(ARTICLE_PATH, review_listing, methods=["POST"], response_model=schemas.Review,
                     openapi_extra=LISTING_BODY, responses=RESPONSES,
                     summary=f"Alias of POST {PATH}, the reference article's path")
