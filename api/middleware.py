"""Pure ASGI middleware: `Cache-Control: no-store` on every response, and the body-size limit."""

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import RequestTooLarge, app_error_response


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
            await app_error_response(self._error())(scope, receive, send)
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
