"""Request headers shared by the write endpoints."""

from typing import Annotated, Literal

from fastapi import Header

# Printable ASCII without surrounding spaces: what an HTTP header can carry unambiguously.
KEY_PATTERN = r"^[!-~]([ -~]*[!-~])?$"

IdempotencyKey = Annotated[str, Header(
    alias="Idempotency-Key", min_length=1, max_length=128, pattern=KEY_PATTERN,
    description="Names one submission: the same key with the same content replays it; "
                "with different content it is a 409. Scoped to the key's seller.",
)]
ApiVersion = Annotated[Literal["1"], Header(alias="X-API-Version", description="Must be 1.")]
