"""Pure ASGI middleware: `Cache-Control: no-store` on every response, the body's size and time
limits, and the last guard against unexpected errors."""

import asyncio
import logging

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import RequestTimeout, RequestTooLarge, app_error_response, internal_error_response

log = logging.getLogger(__name__)


class NoStore:
    """Responses carry seller data and live progress: no cache may keep or replay them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_no_store if scope["type"] == "http" else send)


class BodySizeLimit:
    """Refuse bodies over `max_bytes`: by Content-Length before reading anything, and by
    counting while streaming (chunked uploads or a lying Content-Length).

    The streamed check raises RequestTooLarge inside whatever reads the body, so the app's
    problem handlers answer 413 and nothing is stored.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await app_error_response(self._error(), scope["path"])(scope, receive, send)
            return
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise self._error()
            return message

        return counting_receive

    def _error(self) -> RequestTooLarge:
        return RequestTooLarge(f"The request body is over the limit of {self.max_bytes:,} bytes. "
                               "Split the catalog into smaller files.")


class BodyTimeout:
    """Refuse bodies still arriving `seconds` after the request started: a client sending a
    byte now and then would otherwise hold a connection and a buffer for as long as it likes.

    Like BodySizeLimit it raises inside whatever reads the body, so the problem handlers answer
    408 (and close the connection) and nothing is stored. Reads after the whole body has
    arrived (waiting for a disconnect) are not limited.
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        await self.app(scope, self._timed(receive, deadline), send)

    def _timed(self, receive: Receive, deadline: float) -> Receive:
        complete = False

        async def timed_receive() -> Message:
            nonlocal complete
            if complete:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise self._error() from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        return timed_receive

    def _error(self) -> RequestTimeout:
        return RequestTimeout(f"The request body did not arrive within {self.seconds:g} seconds; "
                              "nothing was stored. Send it again over a faster connection.")


class UnexpectedErrors:
    """The outermost guard. An exception no handler answered becomes a generic 500 and one log
    line naming its class (and SQLSTATE), never its message: database errors quote the data
    they choked on (`CONTEXT: JSON data ...`), which is the seller's. A client that went away
    mid-request (an aborted upload) is one short warning, not a traceback.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except ClientDisconnect:
            log.warning("client disconnected during %s", _operation(scope))
        except Exception as error:
            log.error("unexpected %s during %s", _describe(error), _operation(scope))
            if not started:
                await internal_error_response(scope["path"])(scope, receive, send)


def _operation(scope: Scope) -> str:
    """Method and route template (`/api/listings/review-jobs/{jobId}`): never the client's path."""
    route = scope.get("route")
    return f"{scope['method']} {getattr(route, 'path', '(no route)')}"


def _describe(error: Exception) -> str:
    """The class, and for database errors the SQLSTATE (psycopg's `sqlstate`, psycopg2's `pgcode`)."""
    cause = getattr(error, "orig", None)
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return f"{type(error).__name__} (SQLSTATE {sqlstate})" if sqlstate else type(error).__name__
