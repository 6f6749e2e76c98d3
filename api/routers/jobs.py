"""Standalone review jobs: one listing reviewed in the background, under its own key."""

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from api import schemas
from api.auth import Owner, RuntimeDep
from api.headers import VERSIONED, IdempotencyKey
from api.listing_body import LISTING_BODY, listing_draft
from api.responses import accepted, accepted_response, parse_id, problems
from core.batches.admission import admit_job
from core.errors import JobNotFound
from core.jobs.standalone import submit_job
from core.jobs.status import TERMINAL_STATUSES, get_job
from core.listings.draft import ListingDraft

PREFIX = "/api/listings/review-jobs"
NOT_FOUND = "No review job with this id was found for this seller."
router = APIRouter(prefix=PREFIX, tags=["review jobs"], dependencies=VERSIONED)


@router.post(
    "", status_code=202, response_model=schemas.Job, openapi_extra=LISTING_BODY,
    summary="Queue one listing for a background review",
    responses=accepted(schemas.Job, "job") | problems(400, 401, 408, 409, 413, 415, 429, 503),
)
def submit_review_job(owner: Owner, draft: Annotated[ListingDraft, Depends(listing_draft)],
                      key: IdempotencyKey, runtime: RuntimeDep) -> JSONResponse:
    """202 + Location for a new or unfinished job; 200 when replaying a finished one."""
    admit_job(runtime.engine, owner=owner, key=key,
              limit=runtime.settings.max_unfinished_items_per_owner)
    _, job = submit_job(runtime.engine, runtime.queue, owner=owner, key=key, draft=draft)
    return accepted_response(job.to_json_dict(), job.status in TERMINAL_STATUSES, f"{PREFIX}/{job.job_id}")


@router.get("/{jobId}", response_model=schemas.Job, summary="One job (standalone or a batch item)",
            responses=problems(400, 401, 404, 503))
def read_job(jobId: str, owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    job_id = parse_id(jobId, JobNotFound, NOT_FOUND)
    return JSONResponse(get_job(runtime.engine, owner, job_id).to_json_dict())
