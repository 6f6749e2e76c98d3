"""Every error response is an RFC 9457 problem (`application/problem+json`) with a bounded
`code`. Messages come from AppError (written to be shown to sellers); anything unexpected
becomes a generic 500, so no provider text, prompt, SQL or stack trace leaves the server.
"""

from http import HTTPStatus
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from core.errors import AppError

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
    "WEBHOOK_NOT_FOUND": 404,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "IDEMPOTENCY_CONFLICT": 409,
    "REVIEW_BATCH_NOT_RETRYABLE": 409,
    "REVIEW_BATCH_NOTHING_TO_FIX": 409,
    "REQUEST_TIMEOUT": 408,
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


class RequestTimeout(AppError):
    """The body did not arrive in time; the connection is closed rather than read further."""

    code = "REQUEST_TIMEOUT"
    headers: ClassVar[dict[str, str]] = {"Connection": "close"}


class UnsupportedMediaType(AppError):
    code = "UNSUPPORTED_MEDIA_TYPE"


def problem_response(status: int, code: str, detail: str, *, instance: str,
                     errors: list[dict[str, Any]] | None = None,
                     headers: dict[str, str] | None = None) -> JSONResponse:
    """One problem document about the request to `instance` (its path); `errors` lists every
    row/field problem of a validation failure."""
    body: dict[str, Any] = {
        "type": f"urn:listing-review:problem:{code.lower().replace('_', '-')}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        "instance": instance,
    }
    if errors is not None:
        body["errors"] = errors
    extra = {"Retry-After": str(RETRY_AFTER_SECONDS[status])} if status in RETRY_AFTER_SECONDS else {}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE,
                        headers=NO_STORE | extra | (headers or {}))


def app_error_response(error: AppError, instance: str) -> JSONResponse:
    return problem_response(STATUS_BY_CODE.get(error.code, 400), error.code, error.message,
                            instance=instance, errors=error.rows, headers=getattr(error, "headers", None))


def internal_error_response(instance: str) -> JSONResponse:
    """Anything unexpected: a generic 500 that says nothing about what went wrong."""
    return problem_response(500, INTERNAL_ERROR, "Something went wrong on our side. Try again "
                            "later; if it keeps failing, contact the operators.", instance=instance)


async def on_app_error(request: Request, error: AppError) -> JSONResponse:
    return app_error_response(error, request.url.path)


async def on_validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """Header, path and query problems: field names and pydantic's fixed messages, never the input."""
    rows = [{"field": ".".join(str(part) for part in problem["loc"]), "message": problem["msg"]}
            for problem in error.errors()]
    return problem_response(400, INVALID_REQUEST, "The request is not valid; nothing was stored. "
                            "See errors for what to change.", instance=request.url.path, errors=rows)


async def on_http_error(request: Request, error: HTTPException) -> JSONResponse:
    """Starlette's own errors (unknown path, wrong method, unreadable form) as problems."""
    code = CODE_BY_HTTP_STATUS.get(error.status_code, "HTTP_ERROR")
    detail = HTTPStatus(error.status_code).description + "."
    return problem_response(error.status_code, code, detail, instance=request.url.path,
                            headers=error.headers)


def install_problem_handlers(app: FastAPI) -> None:
    """Expected errors; the UnexpectedErrors middleware answers (and logs) everything else."""
    app.add_exception_handler(AppError, on_app_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
