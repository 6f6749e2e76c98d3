"""Errors users can see: a bounded code, a message they can act on, and row details if any.

Infrastructure failures are translated here, once, into STORAGE_UNAVAILABLE, so no
driver message or traceback ever reaches a seller.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout


class AppError(Exception):
    """Base of every user-facing error."""

    code = "REVIEW_FAILED"

    def __init__(self, message: str, rows: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rows = rows

    def to_json_dict(self) -> dict[str, Any]:
        """The `{"error": {...}}` body of CLI and API errors."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rows is not None:
            body["rows"] = self.rows
        return {"error": body}


class InvalidBatchRequest(AppError):
    code = "INVALID_REVIEW_BATCH_REQUEST"


class IdempotencyConflict(AppError):
    code = "IDEMPOTENCY_CONFLICT"


class BatchNotFound(AppError):
    code = "REVIEW_BATCH_NOT_FOUND"


class JobNotFound(AppError):
    code = "REVIEW_JOB_NOT_FOUND"


class StorageUnavailable(AppError):
    code = "STORAGE_UNAVAILABLE"


class AdmissionLimitExceeded(AppError):
    """The seller already has too much unfinished work; nothing was stored. Try again later."""

    code = "ADMISSION_LIMIT_EXCEEDED"


STORAGE_MESSAGE = "The database is unavailable right now; nothing was changed. Try again shortly."


def is_storage_failure(error: BaseException) -> bool:
    """Connection-level failures (server down, restarted, pool exhausted), not SQL bugs."""
    if isinstance(error, (OperationalError, InterfaceError, PoolTimeout)):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


@contextmanager
def storage_errors() -> Iterator[None]:
    """Around a service call: a lost database becomes StorageUnavailable with a safe message."""
    try:
        yield
    except (DBAPIError, PoolTimeout) as error:
        if is_storage_failure(error):
            raise StorageUnavailable(STORAGE_MESSAGE) from None
        raise
