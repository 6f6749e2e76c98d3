"""Bearer API keys: every /api request names its seller through the key, never through input."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from composition.runtime import Runtime
from core.accounts.service import authenticate
from core.errors import AppError

bearer = HTTPBearer(auto_error=False, bearerFormat="lrk_...",
                    description="An API key from `listing-review keys create --owner SELLER`.")


class Unauthorized(AppError):
    code = "UNAUTHORIZED"

    def __init__(self, message: str, challenge: str) -> None:
        super().__init__(message)
        self.headers = {"WWW-Authenticate": challenge}


def runtime_of(request: Request) -> Runtime:
    return request.app.state.runtime


def current_owner(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> str:
    """The seller whose active key is presented; 401 (with a Bearer challenge) otherwise."""
    if credentials is None:
        raise Unauthorized("Send an API key as 'Authorization: Bearer <key>'.",
                           'Bearer realm="listing-review"')
    owner = authenticate(runtime_of(request).engine, credentials.credentials)
    if owner is None:
        raise Unauthorized("The API key is not valid or has been revoked.",
                           'Bearer realm="listing-review", error="invalid_token"')
    return owner


Owner = Annotated[str, Depends(current_owner)]
RuntimeDep = Annotated[Runtime, Depends(runtime_of)]
