"""A seller's completion webhook (register, read, remove) and a batch's delivery log."""

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from api import schemas
from api.auth import Owner, RuntimeDep
from api.headers import VERSIONED
from api.responses import parse_id, problems
from api.routers.batches import NOT_FOUND
from api.routers.batches import PREFIX as BATCHES
from core.errors import BatchNotFound
from core.webhooks.registration import batch_deliveries, read_webhook, register_webhook, remove_webhook

PATH = "/api/listings/webhook"
router = APIRouter(tags=["webhooks"], dependencies=VERSIONED)


@router.put(PATH, response_model=schemas.RegisteredWebhook, summary="Register (or replace) the webhook",
            responses=problems(400, 401, 503))
def put_webhook(body: schemas.WebhookRequest, owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    """A new secret each time; the previous URL and secret stop at once."""
    webhook, secret = register_webhook(runtime.engine, owner, body.url)
    return JSONResponse(webhook.to_json_dict() | {"secret": secret})


@router.get(PATH, response_model=schemas.Webhook, summary="The registered webhook (never its secret)",
            responses=problems(400, 401, 404, 503))
def get_webhook(owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    return JSONResponse(read_webhook(runtime.engine, owner).to_json_dict())


@router.delete(PATH, status_code=204, summary="Stop announcing completions",
               responses=problems(400, 401, 404, 503))
def delete_webhook(owner: Owner, runtime: RuntimeDep) -> Response:
    remove_webhook(runtime.engine, owner)
    return Response(status_code=204)


@router.get(BATCHES + "/{batchId}/webhook-deliveries", response_model=schemas.WebhookDeliveries,
            summary="The batch's webhook delivery log", responses=problems(400, 401, 404, 503))
def read_deliveries(batchId: str, owner: Owner, runtime: RuntimeDep) -> JSONResponse:
    batch_id = parse_id(batchId, BatchNotFound, NOT_FOUND)
    deliveries = batch_deliveries(runtime.engine, owner, batch_id)
    return JSONResponse({"batchId": str(batch_id),
                         "items": [delivery.to_json_dict() for delivery in deliveries]})
