"""A scriptable local server speaking the OpenAI Chat Completions wire format.

Why: provider tests should exercise the real openai SDK (its HTTP handling, error classes and
timeouts) without a network or a key. Queue one behaviour per expected request; when the queue
is empty the server answers with DEFAULT_REVIEW. Like OpenAI's strict structured outputs, a
request whose response schema is not strict, leaves a property out of `required`, allows extra
properties, or has a property without a description is refused with 400 (schema_problems).

    with FakeOpenAI() as fake:
        fake.status(429, headers={"Retry-After": "2"})
        provider = OpenAIChatProvider(name="t", api_key="k", base_url=fake.base_url, ...)

It also speaks the Files and Batches APIs (economy mode): POST /v1/files (multipart, purpose
"batch"), POST /v1/batches, GET /v1/batches (list), GET /v1/batches/{id}, POST
/v1/batches/{id}/cancel and GET /v1/files/{id}/content. A batch ends on its first retrieval as
`fake.batches.plan` says (completed, some items failed, expired part-way, failed), unless
`plan.hold` keeps it in progress; each answer is the one the Chat Completions path would give
(a request whose schema is not strict gets a 400 line). `plan.gate` sends a file's first
`plan.gate_lines` lines and the rest only once the gate opens (streaming is checked so).
`plan.refuse_create` answers every batch create with that HTTP error, as a provider refusing it.

Like a provider with a rate limit, `FakeOpenAI(rpm=120, tpm=...)` answers what goes over it
with 429 and a Retry-After (WindowLimit) and counts those answers; off by default.
"""

import email.parser
import email.policy
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_REVIEW = {
    "qualityScore": 82,
    "missingFields": ["dimensions"],
    "issues": ["The description does not say which layout the keyboard has."],
    "suggestions": ["Add the keyboard layout, e.g. US or UK."],
    "requiresHumanReview": False,
}
COMPLETIONS_PATH = "/v1/chat/completions"
# Tokens a rate-limited fake charges per request: the usage its default answer reports.
DEFAULT_USAGE = (123, 45)


class WindowLimit:
    """At most `rpm` requests and `tpm` tokens in any `window` seconds: a sliding log, the
    strictest reading of "N per minute" (a burst is fine while the window holds). A request
    over it is refused (not logged) with the seconds until it would fit; refusals are counted.
    """

    def __init__(self, rpm: int | None, tpm: int | None, window: float = 60.0) -> None:
        self.rpm, self.tpm, self.window = rpm, tpm, window
        self.admitted = 0
        self.rate_limited = 0
        self._log: deque[tuple[float, int]] = deque()
        self._tokens = 0
        self._lock = threading.Lock()

    def admit(self, tokens: int) -> float | None:
        """None if the request fits (and is logged), else seconds until it would."""
        with self._lock:
            now = time.monotonic()
            while self._log and self._log[0][0] <= now - self.window:
                self._tokens -= self._log.popleft()[1]
            wait = self._wait(now, tokens)
            if wait is None:
                self._log.append((now, tokens))
                self._tokens += tokens
                self.admitted += 1
            else:
                self.rate_limited += 1
            return wait

    def _wait(self, now: float, tokens: int) -> float | None:
        over_requests = self.rpm is not None and len(self._log) >= self.rpm
        over_tokens = self.tpm is not None and self._tokens + tokens > self.tpm
        if not (over_requests or over_tokens):
            return None
        return max(0.001, self._log[0][0] + self.window - now) if self._log else self.window

    def refusal_headers(self, wait: float) -> dict[str, str]:
        return {"Retry-After": str(max(1, math.ceil(wait)))}


def schema_problems(schema: Any, strict: bool = True, where: str = "schema") -> list[str]:
    """Why a response schema would be refused: every property needs a description, and in
    strict mode every object lists all its properties as required and forbids others.
    """
    if not isinstance(schema, dict):
        return [f"{where} is not an object"]
    problems = []
    properties = schema.get("properties") or {}
    if strict and properties and (set(schema.get("required", [])) != set(properties)
                                  or schema.get("additionalProperties") is not False):
        problems.append(f"{where}: strict mode needs all properties required, additionalProperties false")
    for name, child in properties.items():
        if not isinstance(child, dict) or not child.get("description"):
            problems.append(f"{where}.{name} has no description")
        problems.extend(schema_problems(child, strict, f"{where}.{name}"))
    if isinstance(schema.get("items"), dict):
        problems.extend(schema_problems(schema["items"], strict, f"{where}[]"))
    return problems


def _format_problems(request: dict[str, Any]) -> list[str]:
    """The response_format must be a strict JSON schema with described fields."""
    response_format = request.get("response_format") or {}
    spec = response_format.get("json_schema") or {}
    if response_format.get("type") != "json_schema" or spec.get("strict") is not True:
        return ["response_format must be a strict json_schema"]
    return schema_problems(spec.get("schema"))


@dataclass(frozen=True)
class Behaviour:
    """One scripted answer: status, JSON body and headers, sent after `delay` seconds."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


class FakeOpenAI:
    """Context manager running the server on 127.0.0.1 at a free port in a daemon thread."""

    def __init__(self, rpm: int | None = None, tpm: int | None = None, window: float = 60.0) -> None:
        self.limit = WindowLimit(rpm, tpm, window) if rpm or tpm else None
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.rejected: list[list[str]] = []  # schema problems of each refused request
        self.batches = FakeBatches()
        self._script: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        # A short poll interval keeps shutdown (once per test) quick.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Wake any hanging handler so no thread outlives the test by seconds."""
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def reply(self, review: dict[str, Any] | None = None, *, prompt_tokens: int = 123,
              completion_tokens: int = 45) -> None:
        """A completion whose content is the review (DEFAULT_REVIEW if None) as JSON."""
        content = json.dumps(DEFAULT_REVIEW if review is None else review)
        self.reply_text(content, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def reply_text(self, content: str | None, *, finish_reason: str = "stop",
                   refusal: str | None = None, prompt_tokens: int = 123,
                   completion_tokens: int = 45) -> None:
        """A completion with exactly this content: invalid JSON, cut-off or refused answers."""
        body = _completion(content, finish_reason, refusal, (prompt_tokens, completion_tokens))
        self._push(Behaviour(200, body))

    def status(self, code: int, headers: dict[str, str] | None = None,
               body: Any = None) -> None:
        """An error answer; the body defaults to OpenAI's `{"error": {...}}` shape."""
        self._push(Behaviour(code, _error_body(code) if body is None else body, headers or {}))

    def hang(self, seconds: float) -> None:
        """Answer with DEFAULT_REVIEW only after `seconds`, to trigger client timeouts."""
        self._push(Behaviour(200, _completion(json.dumps(DEFAULT_REVIEW)), delay=seconds))

    def handle_batch_api(self, method: str, path: str, body: bytes, content_type: str) -> Behaviour:
        """The Files and Batches endpoints (economy mode), answered from `self.batches`."""
        return self.batches.answer(method, path, body, content_type)

    def _push(self, behaviour: Behaviour) -> None:
        with self._lock:
            self._script.append(behaviour)

    def _next(self, request: dict[str, Any], headers: dict[str, str]) -> Behaviour:
        """Record the request and take the next scripted behaviour (or the default)."""
        with self._lock:
            self.requests.append(request)
            self.headers.append(headers)
            if self._script:
                return self._script.popleft()
        return Behaviour(200, _completion(json.dumps(DEFAULT_REVIEW)))


@dataclass(frozen=True)
class _ChatBody:
    """A chat.completion still to be rendered, because it echoes the request's model."""

    message: dict[str, Any]
    finish_reason: str
    usage: tuple[int, int]

    def render(self, request: dict[str, Any]) -> dict[str, Any]:
        prompt, completion = self.usage
        return {
            "id": f"chatcmpl-fake-{time.monotonic_ns()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake"),
            "choices": [{"index": 0, "message": self.message, "logprobs": None,
                         "finish_reason": self.finish_reason}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        }


def _completion(content: str | None, finish_reason: str = "stop", refusal: str | None = None,
                usage: tuple[int, int] = (123, 45)) -> _ChatBody:
    message = {"role": "assistant", "content": content, "refusal": refusal}
    return _ChatBody(message, finish_reason, usage)


def _error_body(code: int) -> dict[str, Any]:
    kind = "server_error" if code >= 500 else "invalid_request_error"
    return {"error": {"message": f"fake error {code}", "type": kind, "param": None, "code": None}}


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    """A handler class bound to one FakeOpenAI (http.server instantiates it per request)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body are written separately: without this, Nagle's algorithm holds the
        # body back until the client's delayed ACK (~40 ms per answer).
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            self._batch_api("GET")

        def _batch_api(self, method: str) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = self.path.split("?", 1)[0]
            self._send(fake.handle_batch_api(method, path, raw, self.headers.get("Content-Type", "")), {})

        def do_POST(self) -> None:
            if self.path.startswith(("/v1/files", "/v1/batches")):
                self._batch_api("POST")
                return
            request = self._read_json()
            if self.path != COMPLETIONS_PATH:
                self._send(Behaviour(404, _error_body(404)), request)
                return
            if problems := _format_problems(request):
                fake.rejected.append(problems)
                self._send(Behaviour(400, _error_body(400)), request)
                return
            if fake.limit is not None and (wait := fake.limit.admit(sum(DEFAULT_USAGE))) is not None:
                self._send(Behaviour(429, _error_body(429), fake.limit.refusal_headers(wait)), request)
                return
            behaviour = fake._next(request, {k.lower(): v for k, v in self.headers.items()})
            if behaviour.delay and fake._closing.wait(behaviour.delay):
                return
            self._send(behaviour, request)

        def _read_json(self) -> dict[str, Any]:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            return json.loads(raw or b"{}")

        def _send(self, behaviour: Behaviour, request: dict[str, Any]) -> None:
            """Write the answer; a client that already gave up is not the fake's problem."""
            body = behaviour.body
            if isinstance(body, GatedBody):
                self._send_gated(body)
                return
            body = body.render(request) if isinstance(body, _ChatBody) else body
            data = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) \
                else json.dumps(body).encode()
            try:
                self.send_response(behaviour.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in behaviour.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                self.close_connection = True

        def _send_gated(self, body: "GatedBody") -> None:
            """The first part, then the rest once the test's condition holds (or never, after
            GATE_SECONDS: the connection is closed with the body unfinished)."""
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body.first) + len(body.rest)))
                self.end_headers()
                self.wfile.write(body.first)
                self.wfile.flush()
                deadline = time.monotonic() + GATE_SECONDS
                while not body.ready() and time.monotonic() < deadline and not fake._closing.wait(0.01):
                    continue
                if body.ready():
                    self.wfile.write(body.rest)
            except OSError:
                pass
            self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests assert on recorded requests, not on access logs."""

    return Handler


# How long a gated file body waits for its condition before giving up.
GATE_SECONDS = 30.0


@dataclass(frozen=True)
class GatedBody:
    """A file body sent in two parts, the rest only once `ready()`: a client that must read
    the whole body before using any of it never gets the rest (economy mode's streaming test)."""

    first: bytes
    rest: bytes
    ready: Callable[[], bool]


@dataclass
class BatchPlan:
    """How the next batches end: `outcome` is the provider's final status; with "completed" the
    first `failed_items` requests fail (HTTP 500 lines in the error file); with "expired" only
    the first `answered_items` are answered, the rest expire (batch_expired). `hold`: stay in
    progress. `content`: the text every answered item carries (default: DEFAULT_REVIEW)."""

    outcome: str = "completed"
    failed_items: int = 0
    answered_items: int = 0
    hold: bool = False
    content: str | None = None
    # Output files are sent gated: their first `gate_lines` lines, the rest once `gate()`.
    gate: Callable[[], bool] | None = None
    gate_lines: int = 0
    # Every batch create is answered with this HTTP error (the upload still succeeds).
    refuse_create: int | None = None


class FakeBatches:
    """The Files and Batches state of one FakeOpenAI: uploaded files, batches, cancellations."""

    def __init__(self) -> None:
        self.plan = BatchPlan()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.created: list[str] = []  # batch ids, in creation order
        self.cancelled: list[str] = []
        self.refused = 0  # creates answered with plan.refuse_create
        self.downloads: list[str] = []  # file ids whose content was asked for, in order
        self._lock = threading.Lock()

    def answer(self, method: str, path: str, body: bytes, content_type: str) -> Behaviour:
        with self._lock:
            parts = path.strip("/").split("/")[1:]  # after "v1"
            route = (method, parts[0], len(parts), parts[-1])
            if route[:3] == ("POST", "files", 1):
                return Behaviour(200, self._upload(body, content_type))
            if route[:3] == ("GET", "files", 3) and parts[1] in self.files:
                return Behaviour(200, self._content(parts[1]))
            if route[:3] == ("POST", "batches", 1) and self.plan.refuse_create is not None:
                self.refused += 1
                return Behaviour(self.plan.refuse_create, _error_body(self.plan.refuse_create))
            if route[:3] == ("POST", "batches", 1):
                return Behaviour(200, self._create(json.loads(body)))
            if route[:3] == ("GET", "batches", 1):
                listed = sorted(self.batches.values(), key=lambda b: -b["created_at"])
                return Behaviour(200, {"object": "list", "data": listed, "has_more": False})
            if len(parts) >= 2 and parts[1] in self.batches:
                return Behaviour(200, self._batch(method, parts[1], route[3]))
            return Behaviour(404, _error_body(404))

    def _content(self, file_id: str) -> bytes | GatedBody:
        self.downloads.append(file_id)
        data = self.files[file_id]
        if self.plan.gate is None:
            return data
        cut = sum(len(line) for line in data.splitlines(keepends=True)[:self.plan.gate_lines])
        return GatedBody(data[:cut], data[cut:], self.plan.gate)

    def lines(self, file_id: str | None) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.files.get(file_id or "", b"").splitlines()]

    def _upload(self, body: bytes, content_type: str) -> dict[str, Any]:
        head = f"Content-Type: {content_type}\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
        fields = {part.get_param("name", header="content-disposition"): part
                  for part in message.iter_parts()}
        assert fields["purpose"].get_content().strip() == "batch"
        upload = fields["file"]
        file_id = self._store(upload.get_payload(decode=True))
        return {"id": file_id, "object": "file", "bytes": len(self.files[file_id]),
                "created_at": int(time.time()), "filename": upload.get_filename(),
                "purpose": "batch", "status": "processed"}

    def _store(self, data: bytes) -> str:
        file_id = f"file-fake-{len(self.files) + 1}"
        self.files[file_id] = data
        return file_id

    def _create(self, request: dict[str, Any]) -> dict[str, Any]:
        assert request["endpoint"] == COMPLETIONS_PATH and request["completion_window"] == "24h"
        assert request["input_file_id"] in self.files
        batch_id = f"batch_fake_{len(self.batches) + 1}"
        now = int(time.time())
        self.batches[batch_id] = {
            "id": batch_id, "object": "batch", "endpoint": request["endpoint"], "errors": None,
            "input_file_id": request["input_file_id"], "completion_window": "24h",
            "status": "in_progress", "created_at": now, "expires_at": now + 86400,
            "output_file_id": None, "error_file_id": None, "metadata": request.get("metadata"),
        }
        self.created.append(batch_id)
        return self.batches[batch_id]

    def _batch(self, method: str, batch_id: str, last: str) -> dict[str, Any]:
        batch = self.batches[batch_id]
        if method == "POST" and last == "cancel":
            self.cancelled.append(batch_id)
            batch["status"] = "cancelling"
        elif batch["status"] == "cancelling":
            batch["status"] = "cancelled"
        elif batch["status"] == "in_progress" and not self.plan.hold:
            self._end(batch)
        return batch

    def _end(self, batch: dict[str, Any]) -> None:
        """Answer every request of the input file as the plan says; write the two files."""
        answered, failed = [], []
        for number, line in enumerate(self.lines(batch["input_file_id"])):
            if self.plan.outcome == "failed":
                continue
            if self.plan.outcome == "expired" and number >= self.plan.answered_items:
                failed.append(_expired_line(line))
            elif self.plan.outcome == "completed" and number < self.plan.failed_items:
                failed.append(_response_line(line, 500, _error_body(500)))
            else:
                answered.append(_answer_line(line, self.plan.content))
        batch["status"] = self.plan.outcome
        batch["output_file_id"] = self._store(_jsonl(answered)) if answered else None
        batch["error_file_id"] = self._store(_jsonl(failed)) if failed else None


def _answer_line(line: dict[str, Any], content: str | None) -> dict[str, Any]:
    """What the Chat Completions path answers for this request (400 for a non-strict schema)."""
    if _format_problems(line["body"]):
        return _response_line(line, 400, _error_body(400))
    text = json.dumps(DEFAULT_REVIEW) if content is None else content
    return _response_line(line, 200, _completion(text).render(line["body"]))


def _response_line(line: dict[str, Any], status: int, body: Any) -> dict[str, Any]:
    return {"id": f"batch_req_{line['custom_id']}", "custom_id": line["custom_id"],
            "response": {"status_code": status, "request_id": "req_fake", "body": body}, "error": None}


def _expired_line(line: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"batch_req_{line['custom_id']}", "custom_id": line["custom_id"], "response": None,
            "error": {"code": "batch_expired", "message": "This request could not be executed before "
                                                          "the completion window expired."}}


def _jsonl(lines: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)
