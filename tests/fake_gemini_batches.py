"""Gemini's batch mode endpoints for tests/fake_gemini.FakeGemini, as the google-genai SDK sends
them to the Gemini Developer API (v1beta):

- POST /{version}/models/{model}:batchGenerateContent with {"batch": {"displayName",
  "inputConfig": {"requests": {"requests": [{"request", "metadata": {"key"}}]}}}}: answered
  with the batch job (an operation: "name" and a "metadata" holding state, times, output);
- GET /{version}/batches/{id}, POST /{version}/batches/{id}:cancel, GET /{version}/batches
  (list, newest first: {"operations": [...]}).

Every request of a created batch is checked as the generateContent fake checks one (a response
schema whose fields are all described) and must carry a `key`; a batch with a bad request is
refused with 400 and recorded in `rejected`. A batch ends on its first retrieval as `plan` says
(completed with some items failed, expired or cancelled part-way, failed), unless `plan.hold`
keeps it running; answered items carry the generateContent fake's default answer.
`plan.refuse_create` answers every create with that HTTP error (google.rpc's error body).
"""

import json
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

CREATE_PATH = re.compile(r"/(?P<version>[^/]+)/models/(?P<model>[^/:]+):batchGenerateContent")
BATCH_PATH = re.compile(r"/(?P<version>[^/]+)/batches(?:/(?P<id>[^/:?]+)(?::(?P<verb>cancel))?)?")
STATES = {"completed": "BATCH_STATE_SUCCEEDED", "expired": "BATCH_STATE_EXPIRED",
          "cancelled": "BATCH_STATE_CANCELLED", "failed": "BATCH_STATE_FAILED"}


@dataclass
class GeminiBatchPlan:
    """How the next batch jobs end: `outcome` is the final state; with "completed" the first
    `failed_items` requests fail (google.rpc INTERNAL); with "expired" or "cancelled" only the
    first `answered_items` are answered. `hold`: stay running. `content`: every answer's text."""

    outcome: str = "completed"
    failed_items: int = 0
    answered_items: int = 0
    hold: bool = False
    content: str | None = None
    refuse_create: int | None = None


class FakeGeminiBatches:
    """The batch jobs of one FakeGemini: created, cancelled, and the requests each carried."""

    def __init__(self) -> None:
        self.plan = GeminiBatchPlan()
        self.jobs: dict[str, dict[str, Any]] = {}
        self.requests: dict[str, list[dict[str, Any]]] = {}
        self.created: list[str] = []  # batch names ("batches/..."), in creation order
        self.cancelled: list[str] = []
        self.rejected: list[list[str]] = []
        self.refused = 0  # creates answered with plan.refuse_create
        self._lock = threading.Lock()

    def handles(self, path: str) -> bool:
        return bool(CREATE_PATH.fullmatch(path) or BATCH_PATH.fullmatch(path.split("?", 1)[0]))

    def answer(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        with self._lock:
            if method == "POST" and (created := CREATE_PATH.fullmatch(path)):
                return self._create(created.group("model"), body)
            found = BATCH_PATH.fullmatch(path.split("?", 1)[0])
            name = f"batches/{found.group('id')}" if found and found.group("id") else None
            if found and name is None and method == "GET":
                newest_first = sorted(self.jobs.values(), key=_created_at, reverse=True)
                return 200, {"operations": newest_first}
            if name not in self.jobs:
                return 404, {"error": {"code": 404, "message": "fake NOT_FOUND", "status": "NOT_FOUND"}}
            return 200, self._job(method, name, found.group("verb") if found else None)

    def _create(self, model: str, body: Any) -> tuple[int, Any]:
        from tests.fake_gemini import _schema_problems

        if self.plan.refuse_create is not None:
            self.refused += 1
            return self.plan.refuse_create, {"error": {"code": self.plan.refuse_create,
                                                       "message": "fake INTERNAL", "status": "INTERNAL"}}
        batch = body.get("batch", {}) if isinstance(body, dict) else {}
        requests = batch.get("inputConfig", {}).get("requests", {}).get("requests", [])
        problems = [problem for item in requests for problem in _request_problems(item, _schema_problems)]
        if not requests or problems:
            self.rejected.append(problems or ["no requests"])
            return 400, {"error": {"code": 400, "message": "fake INVALID_ARGUMENT",
                                   "status": "INVALID_ARGUMENT"}}
        name = f"batches/fake{len(self.jobs) + 1}"
        self.requests[name] = requests
        self.jobs[name] = {"name": name, "metadata": {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
            "name": name, "model": f"models/{model}", "displayName": batch.get("displayName"),
            "createTime": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "state": "BATCH_STATE_PENDING"}}
        self.created.append(name)
        return 200, self.jobs[name]

    def _job(self, method: str, name: str, verb: str | None) -> dict[str, Any]:
        job = self.jobs[name]
        if method == "POST" and verb == "cancel":
            self.cancelled.append(name)
            job["metadata"]["state"] = "BATCH_STATE_CANCELLED"
            return {}
        if job["metadata"]["state"] == "BATCH_STATE_PENDING" and not self.plan.hold:
            self._end(name, job)
        return job

    def _end(self, name: str, job: dict[str, Any]) -> None:
        """Answer the job's requests as the plan says (inline, each with its request's key)."""
        answers = []
        for number, item in enumerate(self.requests[name]):
            if self.plan.outcome == "failed":
                break
            unanswered = self.plan.outcome in ("expired", "cancelled") and number >= self.plan.answered_items
            if unanswered:
                continue
            if number < self.plan.failed_items:
                answers.append({"error": {"code": 13, "message": "fake INTERNAL"},
                                "metadata": item["metadata"]})
            else:
                answers.append({"response": _response(self.plan.content), "metadata": item["metadata"]})
        job["metadata"]["state"] = STATES[self.plan.outcome]
        job["metadata"]["endTime"] = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        job["metadata"]["output"] = {"inlinedResponses": {"inlinedResponses": answers}}


def _created_at(job: dict[str, Any]) -> str:
    return str(job["metadata"]["createTime"])


def _request_problems(item: Any, schema_problems: Any) -> list[str]:
    """A batch request is a generateContent request (schema checked) with a `key`."""
    key = item.get("metadata", {}).get("key") if isinstance(item, dict) else None
    problems = [] if isinstance(key, str) and key else ["request without a key"]
    return problems + schema_problems(item.get("request") if isinstance(item, dict) else None)


def _response(content: str | None) -> dict[str, Any]:
    from tests.fake_gemini import DEFAULT_REVIEW, DEFAULT_TOKENS, _answer

    text = json.dumps(DEFAULT_REVIEW) if content is None else content
    return _answer(text, 321, DEFAULT_TOKENS - 321)
