"""A local stand-in for the Gemini API so the real google-genai SDK can be tested offline.

Why a real HTTP server instead of mocking the SDK: the provider's job is to survive the SDK's
actual wire behaviour (request shape, error classes, timeouts, retries), which a mock would
only restate. Tests script the next answers with a queue of behaviours; anything unscripted
gets a valid review. A request whose response schema has a property without a description is
refused with 400 (the schema rule is fake_openai.schema_problems, non-strict: Gemini has no
strict mode). `FakeGemini(rpm=..., tpm=...)` enforces a rate limit like fake_openai's
(WindowLimit: 429 RESOURCE_EXHAUSTED with Retry-After, counted); off by default. It also speaks
batch mode (`fake.batches`, tests/fake_gemini_batches.py).
"""

import json
import queue
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fake_gemini_batches import FakeGeminiBatches
from tests.fake_openai import WindowLimit, schema_problems

DEFAULT_REVIEW = {
    "qualityScore": 82,
    "missingFields": ["dimensions"],
    "issues": ["The description does not say which layout the keyboard has."],
    "suggestions": ["State the keyboard layout, for example US QWERTY."],
    "requiresHumanReview": False,
}
STATUS_NAMES = {
    400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}

# Tokens a rate-limited fake charges per request: the usage its default answer reports.
DEFAULT_TOKENS = 321 + 54
GENERATE_PATH = re.compile(r"/(?P<version>[^/]+)/models/(?P<model>[^/:]+):generateContent")
Behaviour = Callable[["_Handler"], None]


@dataclass(frozen=True)
class RecordedRequest:
    """What the SDK sent: kept so tests can assert on the exact wire request."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class FakeGemini:
    """`POST .../models/{model}:generateContent` answered from a queue of scripted behaviours."""

    def __init__(self, rpm: int | None = None, tpm: int | None = None, window: float = 60.0) -> None:
        self.limit = WindowLimit(rpm, tpm, window) if rpm or tpm else None
        self.requests: list[RecordedRequest] = []
        self.rejected: list[list[str]] = []  # schema problems of each refused request
        self.batches = FakeGeminiBatches()  # batch mode (economy mode), tests/fake_gemini_batches.py
        self._behaviours: queue.SimpleQueue[Behaviour] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.fake = self  # type: ignore[attr-defined]
        # A short poll interval keeps shutdown (and so every test's teardown) quick.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "FakeGemini":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Wake any hanging handler first so shutdown never waits out a hang."""
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def reply(self, review: dict, *, input_tokens: int = 321, output_tokens: int = 54) -> None:
        """Answer with `review` as the model's JSON text, plus token usage."""
        answer = _answer(json.dumps(review), input_tokens, output_tokens)
        self._behaviours.put(lambda handler: handler.send_json(200, answer))

    def reply_text(self, raw: str) -> None:
        """Answer with `raw` as the model's text, verbatim (e.g. not JSON at all)."""
        answer = _answer(raw, 10, 5)
        self._behaviours.put(lambda handler: handler.send_json(200, answer))

    def status(self, code: int, headers: dict[str, str] | None = None, body: Any = None) -> None:
        """Answer with `code`; the body defaults to a Google-style error, a dict is sent as JSON."""
        payload = _error(code) if body is None else body
        self._behaviours.put(lambda handler: handler.send_json(code, payload, headers or {}))

    def hang(self, seconds: float) -> None:
        """Say nothing for `seconds` (or until the fake stops), then send a valid review."""
        def behaviour(handler: _Handler) -> None:
            if not self._stopping.wait(seconds):
                _send_default(handler)
        self._behaviours.put(behaviour)

    def _next(self) -> Behaviour:
        try:
            return self._behaviours.get_nowait()
        except queue.Empty:
            return _send_default


class _Handler(BaseHTTPRequestHandler):
    server: ThreadingHTTPServer

    def do_POST(self) -> None:
        fake: FakeGemini = self.server.fake  # type: ignore[attr-defined]
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = _json_or_text(raw)
        fake.requests.append(RecordedRequest("POST", self.path, dict(self.headers), body))
        if fake.batches.handles(self.path):
            self.send_json(*fake.batches.answer("POST", self.path, body))
            return
        if not GENERATE_PATH.fullmatch(self.path):
            self.send_json(404, _error(404))
            return
        if problems := _schema_problems(body):
            fake.rejected.append(problems)
            self.send_json(400, _error(400))
            return
        if fake.limit is not None and (wait := fake.limit.admit(DEFAULT_TOKENS)) is not None:
            self.send_json(429, _error(429), fake.limit.refusal_headers(wait))
            return
        fake._next()(self)

    def do_GET(self) -> None:
        """Batch mode's reads (get, list); nothing else is read with GET."""
        fake: FakeGemini = self.server.fake  # type: ignore[attr-defined]
        fake.requests.append(RecordedRequest("GET", self.path, dict(self.headers), None))
        self.send_json(*fake.batches.answer("GET", self.path, None))

    def send_json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """Send `payload` (JSON-encoded unless already a string); a gone client is not an error."""
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


def _schema_problems(body: Any) -> list[str]:
    """A JSON answer must come with a response schema whose every field is described."""
    config = body.get("generationConfig") if isinstance(body, dict) else None
    config = config if isinstance(config, dict) else {}
    schema = config.get("responseSchema") or config.get("responseJsonSchema")
    if schema is None:
        return ["generationConfig has no response schema"]
    return schema_problems(schema, strict=False)


def _send_default(handler: _Handler) -> None:
    handler.send_json(200, _answer(json.dumps(DEFAULT_REVIEW), 321, DEFAULT_TOKENS - 321))


def _answer(text: str, input_tokens: int, output_tokens: int) -> dict:
    return {
        "candidates": [{
            "content": {"parts": [{"text": text}], "role": "model"},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {
            "promptTokenCount": input_tokens,
            "candidatesTokenCount": output_tokens,
            "totalTokenCount": input_tokens + output_tokens,
        },
        "modelVersion": "gemini-2.5-flash",
    }


def _error(code: int) -> dict:
    status = STATUS_NAMES.get(code, "UNKNOWN")
    return {"error": {"code": code, "message": f"fake {status}", "status": status}}


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")
