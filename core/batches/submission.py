"""Submitting a catalog file: check every row once, then accept atomically (or store nothing)."""

import hashlib
import json

from sqlalchemy import Engine

from core import telemetry
from core.batches.acceptance import AcceptedBatch, SourceFile, accept_batch
from core.catalogs.check import CatalogCheck, check_catalog
from core.catalogs.mapping import ColumnMap
from core.errors import InvalidBatchRequest
from core.jobs.payload import sha256
from core.jobs.queue import JobQueue
from core.listings.draft import CONTROL_CHARACTERS
from core.settings import Settings

# review_batches.source_name is varchar(255): the longest name a file system gives a file.
SOURCE_NAME_MAX = 255


def default_key(owner: str, data: bytes, column_map: ColumnMap | None = None) -> str:
    """Re-submitting the same file (with the same column mapping) as the same seller replays
    instead of duplicating."""
    mapping = json.dumps(sorted((column_map or {}).items()))
    return "catalog-" + sha256("\x00".join([owner, hashlib.sha256(data).hexdigest(), mapping]))


def submit_catalog(
    engine: Engine, queue: JobQueue, settings: Settings, *, owner: str, filename: str,
    data: bytes, key: str | None = None, column_map: ColumnMap | None = None,
) -> AcceptedBatch:
    """Check then accept. Raises InvalidBatchRequest with every row problem in `rows` when
    anything is wrong (nothing stored), IdempotencyConflict or StorageUnavailable.
    """
    check = checked_catalog(settings, filename, data, column_map)
    return accept_checked(engine, queue, settings, check, owner=owner, filename=filename, data=data,
                          key=key, column_map=column_map)


def checked_catalog(settings: Settings, filename: str, data: bytes,
                    column_map: ColumnMap | None = None) -> CatalogCheck:
    """The file's listings, ready to accept; InvalidBatchRequest with every row problem otherwise.
    Callers check a file once and pass the result on (checking is the costly part of a submission).
    """
    _check_source_name(filename)
    check = check_catalog(data, filename, settings.max_batch_items, settings.max_upload_bytes,
                          column_map)
    if not check.ok:
        telemetry.count_rejected_catalog(len(data), settings.max_upload_bytes, check.format)
        count = check.error_total
        raise InvalidBatchRequest(
            f"The catalog has {count:,} problem{'s' if count != 1 else ''}; nothing was stored. "
            f"Fix them and submit again. {check.shown_note}".rstrip(),
            rows=[error.to_json_dict() for error in check.errors],
        )
    return check


def accept_checked(
    engine: Engine, queue: JobQueue, settings: Settings, check: CatalogCheck, *, owner: str,
    filename: str, data: bytes, key: str | None = None, column_map: ColumnMap | None = None,
) -> AcceptedBatch:
    """Accept what checked_catalog returned for this same file."""
    return accept_batch(
        engine, queue, owner=owner, key=key or default_key(owner, data, column_map), items=check.items,
        max_items=settings.max_batch_items,
        source=SourceFile(filename, check.format, check.columns or None),
    )


def _check_source_name(filename: str) -> None:
    """The file name is stored and shown with the batch: what PostgreSQL text can hold, short
    enough for its column, and free of invisible characters."""
    if CONTROL_CHARACTERS.search(filename):
        raise InvalidBatchRequest("The file name contains invisible control characters (such as "
                                  "NUL): rename the file and submit it again.")
    if len(filename) > SOURCE_NAME_MAX:
        raise InvalidBatchRequest(f"The file name has {len(filename):,} characters; rename the file "
                                  f"to {SOURCE_NAME_MAX} or fewer and submit it again.")
