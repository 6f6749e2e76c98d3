"""Shapes for the OpenAPI document. Request bodies are validated by core (catalog checks and
validate_draft, so the API reports exactly what a file upload reports); these models only
describe them. Responses are core's `to_json_dict` shapes, declared here so clients (and
schemathesis) can check every answer against the schema.
"""

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from pydantic.json_schema import models_json_schema

from core.batches.progress import BATCH_STATUSES
from core.batches.retry import RETRY_REASONS
from core.batches.submission import BATCH_NAME_MAX
from core.batches.verdicts import GOOD_SCORE_FROM, Verdict
from core.jobs.status import JOB_STATUSES
from core.listings import draft


class Shape(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


# --- requests (documentation only) ---

Price = Annotated[float, Field(ge=0, le=float(draft.PRICE_MAX))] | Annotated[
    str, Field(pattern=r"^\s*\d+(\.\d+)?\s*$")]


def text(max_length: int) -> Any:
    """Text with at least one visible character."""
    return Annotated[str, Field(min_length=1, max_length=max_length, pattern=r"\S")]


class Listing(Shape):
    """One listing, as the seller wrote it (a price of 45.00 keeps its two decimals)."""

    title: text(draft.TITLE_MAX)
    description: text(draft.DESCRIPTION_MAX)
    category: text(draft.CATEGORY_MAX)
    price: Price = Field(description="Non-negative decimal, e.g. 45.00 (no currency symbol).")
    attributes: dict[Annotated[str, Field(min_length=1, max_length=draft.ATTRIBUTE_NAME_MAX)],
                     text(draft.ATTRIBUTE_VALUE_MAX)] | None = Field(
        default=None, max_length=draft.ATTRIBUTES_MAX)


class ReviewBatchItem(Shape):
    item_id: text(128) = Field(description="Unique within the batch.")
    listing: Listing


BATCH_NAME = "What to call the batch, shown wherever it is (trimmed; blank: no name)"
VALID_ROWS = ("true: when some rows have problems, accept the valid rows only and record the others "
              "(`rejectedRows`; their report at `/{batchId}/rejected-rows`); false (default): any "
              "problem stores nothing. Never when no row is valid or the file as a whole has a problem.")


BUDGET = ("Most to spend on this batch, in US dollars (e.g. 2.50; optional). Once its cost reaches it, "
          "the remaining items end as CANCELLED with error code BUDGET_EXCEEDED; the spend can pass it "
          "by at most the calls already in flight (economy mode: by at most one provider batch, as "
          "budgets are checked when each is sent). Retry the batch with a raised budget to finish them.")


MODE = ("standard: each item reviewed as soon as a worker is free; economy: sent through the provider's "
        "Batch API, reviewed within 24 hours at about half the price (openai, gemini). Absent: economy for "
        "a batch of at least LISTING_REVIEW_ECONOMY_MIN_ITEMS items when that is set and the provider "
        "has economy mode, else standard.")


class ReviewBatchRequest(Shape):
    """The article's shape; an array of flat listings with `itemId` also works (as in files)."""

    items: list[ReviewBatchItem] = Field(
        min_length=1, description="1 to LISTING_REVIEW_MAX_BATCH_ITEMS (default 1,000) items.")
    name: str | None = Field(default=None, max_length=BATCH_NAME_MAX, description=BATCH_NAME)
    accept_valid_rows: bool = Field(default=False, description=VALID_ROWS)
    budget: float | None = Field(default=None, gt=0, le=1_000_000, description=BUDGET)
    mode: Literal["standard", "economy"] | None = Field(default=None, description=MODE)


CATALOG_UPLOAD = {
    "type": "object",
    "properties": {"file": {"type": "string", "format": "binary",
                            "description": "A CSV, JSON or JSONL catalog file."},
                   "name": {"type": "string", "maxLength": BATCH_NAME_MAX, "description": BATCH_NAME},
                   "acceptValidRows": {"type": "string", "enum": ["true", "false"],
                                       "description": VALID_ROWS},
                   "budget": {"type": "string", "description": BUDGET},
                   "mode": {"type": "string", "enum": ["standard", "economy"], "description": MODE}},
    "required": ["file"],
}


# --- responses ---

# core's lists of states, so the document can never name one core does not produce.
BatchStatus = Literal[BATCH_STATUSES]  # type: ignore[valid-type]
JobState = Literal[JOB_STATUSES]  # type: ignore[valid-type]


class AcceptedBatch(Shape):
    batch_id: uuid.UUID
    status: BatchStatus
    submitted_at: datetime
    total: int
    created: bool = Field(description="false for an idempotent replay")
    name: str | None = Field(description="The batch's own name (null: none given)")
    display_name: str = Field(description="What to show: the name, \"Retry of ...\" for a retry, "
                                          "else the file name, else \"Batch \" and the id's start")
    rejected_rows: int = Field(ge=0, description="Rows left out (submitted with acceptValidRows)")
    mode: Literal["standard", "economy"] = Field(description="The batch's mode: the one asked for, or "
                                                 "the one decided when none was (ECONOMY_MIN_ITEMS)")
    status_url: str
    items_url: str


class RetriedBatch(AcceptedBatch):
    """The batch a retry request leads to: retrying a batch already retried goes on to the
    newest batch of its chain of retries."""

    reason: Literal[RETRY_REASONS] = Field(  # type: ignore[valid-type]
        description="created: a new retry batch of the failed and cancelled listings; running: the "
                    "newest retry is still running; nothing_left: the newest retry has no failed or "
                    "cancelled listing")
    message: str = Field(description="The outcome in a seller's words")


class BatchSummary(Shape):
    batch_id: uuid.UUID
    submitted_at: datetime
    completed_at: datetime | None
    status: BatchStatus
    total: int
    queued: int
    running: int
    succeeded: int
    failed: int
    cancelled: int = Field(description="items cancelled by the seller before they started")
    source_name: str | None
    name: str | None = Field(description="The batch's own name (null: none given)")
    display_name: str = Field(description="What to show: the name, \"Retry of ...\" for a retry, "
                                          "else the file name, else \"Batch \" and the id's start")
    retry_of: uuid.UUID | None = Field(description="The batch this one retries")
    retry_of_name: str | None = Field(description="That batch's name, else its file name")
    rejected_rows: int = Field(ge=0, description="Rows left out (submitted with acceptValidRows); "
                                                 "their report at `/{batchId}/rejected-rows`")
    mode: Literal["standard", "economy"] = Field(description="standard: reviewed as workers are free; "
                                                 "economy: through the provider's Batch API")
    items_url: str = Field(description="The batch's items, to page through with `after`")


class BatchCost(Shape):
    """Derived from the usage stored with each succeeded item, priced when read."""

    amount_usd: float | None = Field(description="null when a model's price or an item's usage "
                                                 "is unknown (never a guess)")
    input_tokens: int
    output_tokens: int
    prices_as_of: str | None = Field(description="Date of the override prices used; null when "
                                                 "only genai-prices' bundled table was used")
    price_sources: list[str]


class BatchDetail(BatchSummary):
    cost: BatchCost
    budget_usd: float | None = Field(description="The batch's budget (null: none); items left when its "
                                                 "cost reached it ended as BUDGET_EXCEEDED")


class BatchesPage(Shape):
    items: list[BatchSummary] = Field(description="Newest first")
    next_after: str | None = Field(description="Pass as `after` for the next page; null on the last.")


class CancelledBatch(Shape):
    cancelled: int = Field(ge=0, description="Listings this request cancelled (0 when none was "
                                             "left to start)")
    batch: BatchSummary


class Usage(Shape):
    input_tokens: int | None
    output_tokens: int | None


class Review(Shape):
    """A validated review and what produced it."""

    quality_score: int = Field(ge=0, le=100)
    missing_fields: list[str]
    issues: list[str]
    suggestions: list[str]
    requires_human_review: bool
    provider: str
    model: str
    prompt_version: str
    usage: Usage | None


class JobError(Shape):
    code: str
    message: str


class SubmittedListing(Shape):
    """The listing as the seller submitted it; the price as a decimal string keeps its scale."""

    title: str
    description: str
    category: str
    price: str = Field(pattern=r"^\d+(\.\d+)?$", description="e.g. \"45.00\"")
    attributes: dict[str, str]


class BatchItem(Shape):
    item_id: str
    job_id: uuid.UUID
    status: JobState
    submitted_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    result: Review | None
    error: JobError | None
    position: int = Field(ge=1, description="Place in the file as accepted (never changes)")
    title: str
    verdict: Verdict | None = Field(description=f"null until reviewed; good: score {GOOD_SCORE_FROM} "
                                                "or more and no human review asked for")
    score: int | None = Field(ge=0, le=100)
    requires_human_review: bool
    issue_count: int = Field(ge=0)
    listing: SubmittedListing


class ViewCounts(BaseModel):
    """Items in each view, keyed by the `view` parameter's values."""

    all: int
    needs_attention: int
    needs_human_review: int
    failed: int
    cancelled: int
    pending: int


class ItemCounts(Shape):
    """The batch's items by verdict (reviewed) or job state (not reviewed), one snapshot."""

    good: int
    needs_work: int
    needs_human_review: int
    failed: int
    cancelled: int
    queued: int
    running: int
    total: int
    views: ViewCounts


class ItemsPage(Shape):
    batch_id: uuid.UUID
    items: list[BatchItem]
    next_after: int | None = Field(description="Position order: pass as `after` for the next page; "
                                                "null on the last page and in score order.")
    next_cursor: str | None = Field(description="Pass as `cursor` (same view, search and sort) for "
                                                "the next page; null on the last.")
    counts: ItemCounts


class Job(Shape):
    job_id: uuid.UUID
    batch_id: uuid.UUID | None
    item_id: str | None
    status: JobState
    submitted_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    attempts: int
    result: Review | None
    error: JobError | None


class WebhookRequest(Shape):
    # The OpenAPI mirror of migration 0010's webhooks_url_check (the rule that decides).
    url: str = Field(max_length=2000, pattern=r"^(https://[A-Za-z0-9.-]+|http://(localhost|127\.0\.0\.1))"
                     r"(:[0-9]{1,5})?(/[!-~]*)?$", description="https://..., or http://localhost / "
                                                  "http://127.0.0.1 for a receiver on this machine")


class Webhook(Shape):
    url: str
    created_at: datetime
    active: bool


class RegisteredWebhook(Webhook):
    secret: str = Field(description="Signs every delivery (X-Listing-Review-Signature); shown "
                                    "only in this response")


class WebhookDelivery(Shape):
    delivery_id: uuid.UUID = Field(description="Sent as X-Listing-Review-Delivery; the same on "
                                               "every attempt, so receivers de-duplicate by it")
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None = Field(description="A bounded code: HTTP_STATUS, TIMEOUT, "
                                               "CONNECTION_FAILED or WEBHOOK_REMOVED")
    created_at: datetime
    delivered_at: datetime | None


class WebhookDeliveries(Shape):
    batch_id: uuid.UUID
    items: list[WebhookDelivery]


class ProblemRow(Shape):
    """One thing to fix: catalog rows carry row/line/itemId, request fields carry field."""

    row: int | None = None
    line: int | None = None
    item_id: str | None = None
    field: str | None = None
    message: str


class Problem(Shape):
    """RFC 9457 problem details with a bounded `code`."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    instance: str = Field(description="The path of the request this problem is about")
    errors: list[ProblemRow] | None = None


def component_schemas(*models: type[BaseModel]) -> dict[str, Any]:
    """JSON schemas of models that routes do not declare themselves (the documented bodies)."""
    _, top = models_json_schema([(model, "validation") for model in models],
                                ref_template="#/components/schemas/{model}")
    return top.get("$defs", {})


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}
