"""Review batches: submit a catalog (JSON body or file upload), read progress, page items."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from starlette.datastructures import UploadFile

from api import schemas
from api.auth import Owner, RuntimeDep, runtime_of
from api.headers import VERSIONED, IdempotencyKey, media_type
from api.problems import UnsupportedMediaType
from api.responses import accepted, accepted_response, parse_id, problems
from core.batches.admission import submit_admitted_catalog
from core.batches.pages import DEFAULT_LIMIT, LIMIT_MAX, SEARCH_MAX, Sort, View, get_items_page, item_counts
from core.batches.progress import get_summary
from core.costs.budget import BudgetInput, batch_budget
from core.costs.ledger import batch_cost
from core.errors import BatchNotFound, InvalidBatchRequest
from core.listings.draft import load_json

PREFIX = "/api/listings/review-batches"
JSON_BODY_NAME = "request.json"
NOT_FOUND = "No batch with this id was found for this seller."
router = APIRouter(prefix=PREFIX, tags=["review batches"], dependencies=VERSIONED)
FORM_FLAGS = {"true": True, "false": False}

SUBMIT_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": schemas.ref("ReviewBatchRequest")},
    "multipart/form-data": {"schema": schemas.CATALOG_UPLOAD},
}}}


@router.post(
    "", status_code=202, response_model=schemas.AcceptedBatch, openapi_extra=SUBMIT_BODY,
    summary="Accept a batch of listings atomically (or store nothing)",
    responses=accepted(schemas.AcceptedBatch, "batch") | problems(400, 401, 408, 409, 413, 415, 429, 503),
)
async def submit_batch(request: Request, owner: Owner, key: IdempotencyKey) -> JSONResponse:
    """202 + Location for a new or still active batch; 200 when replaying a completed one.
    `name`, `acceptValidRows` and `budget` come with the file as form fields, or beside `items`
    in a JSON body."""
    catalog = await _catalog(request)
    runtime = runtime_of(request)
    accepted = await run_in_threadpool(
        submit_admitted_catalog, runtime.engine, runtime.queue, runtime.settings, owner=owner,
        filename=catalog.filename, data=catalog.data, key=key, name=catalog.name,
        accept_valid_rows=catalog.accept_valid_rows, budget=catalog.budget, mode=catalog.mode)
    body = accepted.to_json_dict()
    return accepted_response(body, accepted.summary.status == "COMPLETED", body["statusUrl"])


@router.get("/{batchId}", response_model=schemas.BatchDetail, summary="Batch progress and cost",
            responses=problems(400, 401, 404, 503))
def read_batch(batchId: str, owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    """The article's summary, with `itemsUrl` to page through the items and its cost so far."""
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    summary = get_summary(runtime.engine, owner, batch_id).to_json_dict()
    cost = batch_cost(runtime.engine, owner, batch_id, runtime.settings.prices_file)
    budget = batch_budget(runtime.engine, owner, batch_id)
    return JSONResponse(summary | {"itemsUrl": f"{PREFIX}/{batch_id}/items", "cost": cost.to_json_dict(),
                                   "budgetUsd": None if budget is None else float(budget)})


@router.get("/{batchId}/items", response_model=schemas.ItemsPage,
            summary="A page of the batch's items: a view, a search, an order, and every view's count",
            responses=problems(400, 401, 404, 503))
def read_items(
    batchId: str, owner: Owner, runtime: RuntimeDep,
    view: Annotated[View, Query(description=(
        "needs_attention = needs work + needs human review + failed; pending = queued or running"))] = "all",
    q: Annotated[str | None, Query(max_length=SEARCH_MAX, description=(
        "Start of an item id (exact case) or of a title (any case); % and _ are plain characters"))] = None,
    sort: Annotated[Sort, Query(description=(
        "position (file order) or score (worst first, then position; items without a score last)"))
    ] = "position",
    cursor: Annotated[str | None, Query(max_length=200, description=(
        "`nextCursor` of the previous page with the same sort, as returned"))] = None,
    after: Annotated[int | None, Query(ge=0, description=(
        "Position order only: last position already seen (0 = start), at most "
        "LISTING_REVIEW_MAX_BATCH_ITEMS; `cursor` does the same for any order"))] = None,
    limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = DEFAULT_LIMIT,
) -> JSONResponse:
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    page = get_items_page(runtime.engine, owner, batch_id, view=view, search=q, sort=sort, cursor=cursor,
                          after=after, limit=limit, max_after=runtime.settings.max_batch_items)
    counts = item_counts(runtime.engine, owner, batch_id)
    return JSONResponse(page.to_json_dict() | {"counts": counts.to_json_dict()})


@dataclass(frozen=True)
class CatalogRequest:
    """A submission as the request carries it; core checks every part of it."""

    filename: str
    data: bytes
    name: str | None
    accept_valid_rows: bool
    budget: BudgetInput = None
    mode: str | None = None


async def _catalog(request: Request) -> CatalogRequest:
    """A JSON body is checked exactly like an uploaded .json file."""
    if media_type(request) == "application/json":
        data = await request.body()
        name, valid_rows, budget, mode = _json_options(data)
        return CatalogRequest(JSON_BODY_NAME, data, _text_option(name), _flag(valid_rows), _budget(budget),
                              _mode(mode))
    if media_type(request) == "multipart/form-data":
        return await _uploaded_file(request)
    raise UnsupportedMediaType("Send the listings as application/json, or a catalog file as "
                               "multipart/form-data in a field named 'file'.")


async def _uploaded_file(request: Request) -> CatalogRequest:
    async with request.form(max_files=1, max_fields=10) as form:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidBatchRequest("Attach the catalog as a file in a form field named 'file'.")
        return CatalogRequest(upload.filename or "upload", await upload.read(),
                              _text_option(form.get("name")), _flag(_form_flag(form.get("acceptValidRows"))),
                              _budget(form.get("budget")), _mode(form.get("mode")))


def _json_options(data: bytes) -> tuple[Any, Any, Any, Any]:
    """`name`, `acceptValidRows`, `budget` and `mode` beside `items` in a JSON body. Only a body that
    mentions one of them is read here (a second parse, bounded by the upload limit); any other
    body, or one that is not a JSON object, leaves them unset, and the catalog check reports its
    syntax."""
    if not any(option in data for option in (b'"name"', b'"acceptValidRows"', b'"budget"', b'"mode"')):
        return None, None, None, None
    try:
        body = load_json(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None, None, None, None
    if not isinstance(body, dict):
        return None, None, None, None
    return body.get("name"), body.get("acceptValidRows"), body.get("budget"), body.get("mode")


def _form_flag(value: Any) -> Any:
    """acceptValidRows as a form field: the text true or false, read as JSON reads it."""
    return FORM_FLAGS.get(value.lower(), value) if isinstance(value, str) else value


def _text_option(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidBatchRequest("'name' must be text.")


def _mode(value: Any) -> str | None:
    """'standard' or 'economy' as text; core checks which."""
    if value is None or isinstance(value, str):
        return value
    raise InvalidBatchRequest("'mode' must be 'standard' or 'economy'.")


def _budget(value: Any) -> BudgetInput:
    """A number (JSON) or its text (a form field); core checks the amount."""
    if value is None or (isinstance(value, (int, float, Decimal, str)) and not isinstance(value, bool)):
        return value
    raise InvalidBatchRequest("'budget' must be a number of US dollars, such as 2.50.")


def _flag(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    raise InvalidBatchRequest("'acceptValidRows' must be true or false.")
