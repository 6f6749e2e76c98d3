"""Operations on whole batches: list a seller's batches, cancel the unstarted part, retry the
failures as a linked batch, download the results. The same core services as the CLI and UI.
"""

from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response, StreamingResponse

from api import schemas
from api.auth import Owner, RuntimeDep
from api.headers import VERSIONED
from api.responses import accepted, accepted_response, parse_id, problems
from api.routers.batches import NOT_FOUND, PREFIX
from core.batches.export import fixup_rule
from core.batches.progress import BatchSummary, get_summary
from core.batches.recent import LIMIT_MAX, list_batches
from core.batches.rejected import rejected_rows_csv
from core.batches.retry import retry_failed
from core.catalogs.check import MAX_REPORTED_ERRORS
from core.costs.budget import checked_budget
from core.cursors import decode_cursor, encode_cursor
from core.downloads import DOWNLOAD_FORMATS, open_download
from core.errors import AppError, BatchNotFound, InvalidBatchRequest
from core.jobs.cancel import cancel_unstarted

DEFAULT_LIMIT = 20
router = APIRouter(prefix=PREFIX, tags=["review batches"], dependencies=VERSIONED)


class BatchNotRetryable(AppError):
    """Core's refusal to retry (still running, nothing failed, too many) over HTTP: it is about
    the batch's state, not the request, so a 409 that the same request may pass later."""

    code = "REVIEW_BATCH_NOT_RETRYABLE"

NOT_RETRYABLE = {409: problems(409)[409] | {
    "description": "REVIEW_BATCH_NOT_RETRYABLE: the batch is still running, or nothing in it failed"}}
DOWNLOAD_RESPONSE = {200: {
    "description": "The file, as an attachment named `<batch name or file>-<YYYY-MM-DD>-results.csv` "
                   "(`-results.json`, `-fixup.csv`), streamed: `csv` and `fixup` are UTF-8 CSV with a "
                   "BOM, lists one entry per line of a cell; `json` an array of one object per item, "
                   "lists as arrays and attributes as an object. Refusals (404, 409) come before the "
                   "first byte; a database lost mid-stream ends the response early.",
    "content": {"text/csv": {"schema": {"type": "string"}},
                "application/json": {"schema": {"type": "array", "items": {"type": "object"}}}},
    "headers": {"Content-Disposition": {"description": "attachment with the file's name",
                                        "required": True, "schema": {"type": "string"}}},
}, 409: problems(409)[409] | {
    "description": "REVIEW_BATCH_NOTHING_TO_FIX (`format=fixup` only): no listing of the batch needs "
                   "work or human review (yet), so there is no fix-up file; never a header-only file"}}

REJECTED_ROWS_RESPONSE = {200: {
    "description": "UTF-8 CSV with a BOM, as an attachment: one line per problem (row, line, "
                   f"item_id, field, message), at most {MAX_REPORTED_ERRORS:,}",
    "content": {"text/csv": {"schema": {"type": "string"}}},
    "headers": {"Content-Disposition": {"description": "attachment with the file's name",
                                        "required": True, "schema": {"type": "string"}}},
}}


@router.get("", response_model=schemas.BatchesPage, summary="The seller's batches, newest first",
            responses=problems(400, 401, 503))
def read_batches(
    owner: Owner, runtime: RuntimeDep,
    status: Annotated[schemas.BatchStatus | None, Query(description="Only batches in this state")] = None,
    limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = DEFAULT_LIMIT,
    after: Annotated[str | None, Query(max_length=200, description=(
        "`nextAfter` of the previous page, as returned (absent: the newest batches)"))] = None,
) -> JSONResponse:
    page = list_batches(runtime.engine, owner, status=status, before=decode_cursor(after), limit=limit)
    return JSONResponse({"items": [summary_body(summary) for summary in page.items],
                         "nextAfter": encode_cursor(page.next_before)})


@router.post("/{batchId}/cancel", response_model=schemas.CancelledBatch,
             summary="Cancel the batch's listings that have not started",
             responses=problems(400, 401, 404, 503))
def cancel_batch(batchId: str, owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    """Queued listings become CANCELLED; running ones finish. Repeating it cancels nothing more."""
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    cancelled = cancel_unstarted(runtime.engine, owner, batch_id)
    summary = get_summary(runtime.engine, owner, batch_id)
    return JSONResponse({"cancelled": cancelled, "batch": summary_body(summary)})


@router.post(
    "/{batchId}/retry", status_code=202, response_model=schemas.RetriedBatch,
    summary="Review a complete batch's failed and cancelled listings again, as a new batch",
    responses=accepted(schemas.RetriedBatch, "retry batch") | problems(400, 401, 404, 503) | NOT_RETRYABLE,
)
def retry_batch(
    batchId: str, owner: Owner, runtime: RuntimeDep,
    budget: Annotated[str | None, Query(
        max_length=32, description="A new budget in USD for the retry, e.g. after listings ended as "
        "BUDGET_EXCEEDED (default: the retried batch's budget)")] = None,
) -> JSONResponse:
    """Like acceptance: 202 + Location for the new (or still running) retry batch, 200 when
    the newest retry has finished with nothing left to retry; `created` and `reason` say which.
    A batch already retried goes on to the newest batch of its chain of retries (retried in turn
    when it is complete with failures), never back to an old one. 409 while a batch never
    retried runs, or when nothing in it failed."""
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    amount = checked_budget(budget)  # a bad budget is the request's fault (400), not a 409
    try:
        accepted_batch = retry_failed(runtime.engine, runtime.queue, owner, batch_id,
                                      runtime.settings.max_batch_items, budget=amount)
    except InvalidBatchRequest as refusal:
        raise BatchNotRetryable(refusal.message) from None
    body = accepted_batch.to_json_dict()
    return accepted_response(body, accepted_batch.summary.status == "COMPLETED", body["statusUrl"])


@router.get("/{batchId}/export", response_class=Response, summary="Download the batch's results",
            description=f"`csv`, `json`: every item's result. `fixup`: {fixup_rule()}",
            responses=DOWNLOAD_RESPONSE | problems(400, 401, 404, 503))
def export_batch(
    batchId: str, owner: Owner, runtime: RuntimeDep,
    format: Annotated[Literal[DOWNLOAD_FORMATS], Query(  # type: ignore[valid-type]
        description="`csv` or `json`: every item's result; `fixup`: the listings that need work or "
                    "human review, in the seller's own columns, to edit and upload again")],
) -> Response:
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    download = open_download(runtime.engine, owner, batch_id, format)
    return StreamingResponse(download.chunks, media_type=download.media_type,
                             headers={"Content-Disposition": attachment(download.file_name)})


@router.get("/{batchId}/rejected-rows", response_class=Response,
            summary="The problems of the rows the batch left out (submitted with acceptValidRows)",
            responses=REJECTED_ROWS_RESPONSE | problems(400, 401, 404, 503))
def read_rejected_rows(batchId: str, owner: Owner, runtime: RuntimeDep) -> Response:
    """The report a rejected file gets, for the rows this batch left out: fix them and submit
    them again. Only the header when the batch left nothing out."""
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    file_name, data = rejected_rows_csv(runtime.engine, owner, batch_id)
    return Response(data, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": attachment(file_name)})


def summary_body(summary: BatchSummary) -> dict[str, Any]:
    return summary.to_json_dict() | {"itemsUrl": f"{PREFIX}/{summary.batch_id}/items"}


def attachment(file_name: str) -> str:
    """A header value for any file name: an ASCII fallback and the exact UTF-8 name (RFC 6266),
    since a header cannot carry the seller's non-Latin-1 characters as they are."""
    fallback = "".join(char if " " <= char <= "~" and char not in '"\\' else "_" for char in file_name)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(file_name, safe='')}"
