"""`create_app(runtime)`: the FastAPI application over core services (no I/O at import)."""

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi_offline import FastAPIOffline

from api import schemas
from api.middleware import BodySizeLimit, BodyTimeout, NoStore, UnexpectedErrors
from api.problems import install_problem_handlers
from api.routers import batch_operations, batches, jobs, reviews, webhooks
from composition.runtime import Runtime
from core.jobs.model_slots import ModelSlots
from core.listings.providers.registry import make_provider
from core.settings import Settings

TITLE = "Listing Review Batches API"
DESCRIPTION = (
    "Submit catalogs as atomic, idempotent review batches, follow their progress, page "
    "through per-listing reviews; queue or run single reviews. Every request needs "
    "`Authorization: Bearer <API key>`; the key decides which seller's data you see. "
    "Errors are RFC 9457 problem details with a bounded `code`."
)
# Models the routes describe through openapi_extra or hand-written responses.
DOCUMENTED_MODELS = (schemas.ReviewBatchRequest, schemas.Listing, schemas.Problem)
# Swagger UI's script, style and icon, served from the installed fastapi-offline package, so
# /docs works without internet access.
DOCS_ASSETS = "/docs-assets"


def create_app(runtime: Runtime) -> FastAPI:
    """The app for one runtime (settings, engine, queue); the provider is made once here."""
    app = FastAPIOffline(title=TITLE, description=DESCRIPTION, version="1", docs_url="/docs",
                         redoc_url=None, static_url=DOCS_ASSETS)
    app.state.runtime = runtime
    app.state.provider = make_provider(runtime.settings)
    app.state.model_slots = ModelSlots(runtime.settings.api_review_concurrency,
                                       runtime.settings.model_timeout)
    for router in (batches.router, batch_operations.router, jobs.router, reviews.router,
                   webhooks.router):
        app.include_router(router)
    install_problem_handlers(app)
    # Each add wraps the ones before: UnexpectedErrors ends up outermost.
    app.add_middleware(BodyTimeout, seconds=runtime.settings.request_body_timeout)
    app.add_middleware(BodySizeLimit, max_bytes=runtime.settings.max_upload_bytes)
    app.add_middleware(NoStore)
    app.add_middleware(UnexpectedErrors)
    app.openapi = lambda: _openapi(app)
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus the body schemas core validates, minus the 422 responses
    FastAPI adds by default (validation failures are 400 problems here).
    """
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(title=app.title, version=app.version, description=app.description,
                           routes=app.routes)
    components = document.setdefault("components", {}).setdefault("schemas", {})
    components.update(schemas.component_schemas(*DOCUMENTED_MODELS))
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    for operations in document["paths"].values():
        for operation in operations.values():
            operation.get("responses", {}).pop("422", None)
    _configured_limits(document, app.state.runtime.settings)
    app.openapi_schema = document
    return document


def _configured_limits(document: dict[str, Any], settings: Settings) -> None:
    """Bounds that come from settings, not from code: items per batch and the last `after`."""
    batch = document["components"]["schemas"]["ReviewBatchRequest"]["properties"]["items"]
    batch["maxItems"] = settings.max_batch_items
    items_page = document["paths"][f"{batches.PREFIX}/{{batchId}}/items"]["get"]
    for parameter in items_page["parameters"]:
        if parameter["name"] == "after":
            parameter["schema"]["maximum"] = settings.max_batch_items
