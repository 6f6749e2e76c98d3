"""Success responses of the write endpoints, path ids, and the documented error responses."""

import uuid
from typing import Any

from fastapi.responses import JSONResponse

from api.problems import MEDIA_TYPE
from api.schemas import ref
from core.errors import AppError

RETRY_AFTER = {"description": "Seconds to wait before trying again.", "required": True,
               "schema": {"type": "integer"}}
DOCUMENTED_HEADERS = {
    401: {"WWW-Authenticate": {"description": "Bearer challenge", "required": True,
                               "schema": {"type": "string"}}},
    429: {"Retry-After": RETRY_AFTER},
    503: {"Retry-After": RETRY_AFTER},
}
DESCRIPTIONS = {
    400: "Invalid request: every row or field problem is listed in `errors`; nothing stored",
    401: "Missing, unknown or revoked API key",
    404: "No such resource for this seller (unknown, malformed or someone else's id)",
    408: "REQUEST_TIMEOUT: the body took longer than LISTING_REVIEW_REQUEST_BODY_TIMEOUT; "
         "nothing stored, connection closed",
    409: "IDEMPOTENCY_CONFLICT: the key was used for different content",
    413: "The body is over LISTING_REVIEW_MAX_UPLOAD_BYTES",
    415: "Not application/json or multipart/form-data",
    429: "ADMISSION_LIMIT_EXCEEDED: too many unfinished listings for this seller",
    502: "The model did not produce a valid review",
    503: "Storage (or, for synchronous reviews, the model) is unavailable",
    504: "The model did not answer in time",
}
LOCATION = {"Location": {"description": "The resource's status URL", "required": True,
                         "schema": {"type": "string"}}}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` entries for problem documents with these statuses."""
    return {status: {"description": DESCRIPTIONS[status],
                     "content": {MEDIA_TYPE: {"schema": ref("Problem")}}}
            | ({"headers": DOCUMENTED_HEADERS[status]} if status in DOCUMENTED_HEADERS else {})
            for status in statuses}


def accepted(model: type, what: str) -> dict[int | str, dict[str, Any]]:
    """The 202/200 pair of a write endpoint, both with a Location header."""
    return {202: {"description": f"Accepted: the {what} is stored and queued (or still running)",
                  "headers": LOCATION},
            200: {"model": model, "description": f"Replay of a {what} that has finished",
                  "headers": LOCATION}}


def accepted_response(body: dict[str, Any], completed: bool, location: str) -> JSONResponse:
    """202 while work is pending; 200 when an idempotent replay finds it all done."""
    return JSONResponse(body, status_code=200 if completed else 202, headers={"Location": location})


def parse_id(value: str, not_found: type[AppError], message: str) -> uuid.UUID:
    """A malformed id names nothing, so it is the same 404 as an unknown one."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise not_found(message) from None

