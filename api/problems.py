"""Every error response is an RFC 9457 problem (`application/problem+json`) with a bounded
`code`. Messages come from AppError (written to be shown to sellers); anything unexpected
becomes a generic 500, so no provider text, prompt, SQL or stack trace leaves the server.
"""

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from core.errors import AppError

log = logging.getLogger(__name__)
MEDIA_TYPE = "application/problem+json"
NO_STORE = {"Cache-Control": "no-store"}
RETRY_AFTER_SECONDS = {429: 30, 503: 10}
INVALID_REQUEST = "INVALID_REVIEW_BATCH_REQUEST"
INTERNAL_ERROR = "INTERNAL_ERROR"

STATUS_BY_CODE = {
    INVALID_REQUEST: 400,
    "INVALID_OWNER": 400,
    "UNAUTHORIZED": 401,
    "REVIEW_BATCH_NOT_FOUND": 404,
    "REVIEW_JOB_NOT_FOUND": 404,
    "API_KEY_NOT_FOUND": 404,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "IDEMPOTENCY_CONFLICT": 409,
    "REQUEST_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "ADMISSION_LIMIT_EXCEEDED": 429,
    "STORAGE_UNAVAILABLE": 503,
    # A synchronous review that the model could not complete.
    "AI_RESPONSE_INVALID": 502,
    "REVIEW_FAILED": 502,
    "EXECUTION_ATTEMPTS_EXHAUSTED": 502,
    "AI_PROVIDER_UNAVAILABLE": 503,
    "AI_RATE_LIMITED": 503,
    "MODEL_CAPACITY_UNAVAILABLE": 503,
    "MODEL_TIMEOUT": 504,
}
CODE_BY_HTTP_STATUS = {400: INVALID_REQUEST, 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
                       413: "REQUEST_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE"}


class RequestTooLarge(AppError):
    code = "REQUEST_TOO_LARGE"


class UnsupportedMediaType(AppError):
    code = "UNSUPPORTED_MEDIA_TYPE"


def problem_response(status: int, code: str, detail: str, *, errors: list[dict[str, Any]] | None = None,
                     headers: dict[str, str] | None = None) -> JSONResponse:
    """One problem document; `errors` lists every row/field problem of a validation failure."""
    body: dict[str, Any] = {
        "type": f"urn:listing-review:problem:{code.lower().replace('_', '-')}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors
    extra = {"Retry-After": str(RETRY_AFTER_SECONDS[status])} if status in RETRY_AFTER_SECONDS else {}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE,
                        headers=NO_STORE | extra | (headers or {}))


def app_error_response(error: AppError, headers: dict[str, str] | None = None) -> JSONResponse:
    return problem_response(STATUS_BY_CODE.get(error.code, 400), error.code, error.message,
                            errors=error.rows, headers=headers)


async def on_app_error(request: Request, error: AppError) -> JSONResponse:
    return app_error_response(error, getattr(error, "headers", None))


async def on_validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """Header, path and query problems: field names and pydantic's fixed messages, never the input."""
    rows = [{"field": ".".join(str(part) for part in problem["loc"]), "message": problem["msg"]}
            for problem in error.errors()]
    return problem_response(400, INVALID_REQUEST, "The request is not valid; nothing was stored. "
                            "See errors for what to change.", errors=rows)


async def on_http_error(request: Request, error: HTTPException) -> JSONResponse:
    """Starlette's own errors (unknown path, wrong method, unreadable form) as problems."""
    code = CODE_BY_HTTP_STATUS.get(error.status_code, "HTTP_ERROR")
    detail = HTTPStatus(error.status_code).description + "."
    return problem_response(error.status_code, code, detail, headers=error.headers)


async def on_unexpected_error(request: Request, error: Exception) -> JSONResponse:
    log.error("unexpected %s on %s %s", type(error).__name__, request.method, request.url.path)
    return problem_response(500, INTERNAL_ERROR, "Something went wrong on our side. Try again "
                            "later; if it keeps failing, contact the operators.")


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AppError, on_app_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
    app.add_exception_handler(Exception, on_unexpected_error)
