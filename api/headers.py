"""Request headers: the API version every endpoint checks, the write endpoints' idempotency
key, and the body's media type."""

from typing import Annotated, Literal

from fastapi import Depends, Header, Request

# Printable ASCII without surrounding spaces: what an HTTP header can carry unambiguously.
KEY_PATTERN = r"^[!-~]([ -~]*[!-~])?$"

IdempotencyKey = Annotated[str, Header(
    alias="Idempotency-Key", min_length=1, max_length=128, pattern=KEY_PATTERN,
    description="Names one submission: the same key with the same content replays it; "
                "with different content it is a 409. Scoped to the key's seller.",
)]


def api_version(version: Annotated[Literal["1"], Header(
    alias="X-API-Version", description="Optional: 1, the only version, when absent."
)] = "1") -> None:
    """Absent means 1; any other value is a 400 naming the header, on every endpoint."""


VERSIONED = [Depends(api_version)]


def media_type(request: Request) -> str:
    """The body's media type without parameters (`application/json; charset=utf-8` -> `application/json`)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()
