"""Submitting a catalog file: check every row once, then accept atomically (or store nothing).

By default a file with any problem stores nothing. A seller may instead choose to submit the
valid rows only (`accept_valid_rows`): the batch then records how many rows it left out and
their problems, to download and fix. That is possible only when every problem is about a row.
"""

import hashlib
import json
import re
from decimal import Decimal

from sqlalchemy import Engine

from core import telemetry
from core.batches.acceptance import AcceptedBatch, RejectedRows, SourceFile, accept_batch
from core.catalogs.check import CatalogCheck, check_catalog
from core.catalogs.mapping import ColumnMap
from core.costs.budget import BudgetInput, checked_budget
from core.economy.mode import BatchMode, mode_for, requested_mode
from core.errors import InvalidBatchRequest
from core.jobs.payload import sha256
from core.jobs.queue import JobQueue
from core.listings.draft import CONTROL_CHARACTERS
from core.settings import Settings

# review_batches.source_name is varchar(255): the longest name a file system gives a file.
SOURCE_NAME_MAX = 255
# review_batches.name is varchar(120) (check review_batches_name_check, migration 0011).
BATCH_NAME_MAX = 120
# One line of visible text: no C0/C1 controls (tabs and line breaks included), no line or
# paragraph separators, no lone surrogates.
_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def default_key(owner: str, data: bytes, column_map: ColumnMap | None = None) -> str:
    """Re-submitting the same file (with the same column mapping) as the same seller replays
    instead of duplicating."""
    mapping = json.dumps(sorted((column_map or {}).items()))
    return "catalog-" + sha256("\x00".join([owner, hashlib.sha256(data).hexdigest(), mapping]))


def submit_catalog(
    engine: Engine, queue: JobQueue, settings: Settings, *, owner: str, filename: str,
    data: bytes, key: str | None = None, column_map: ColumnMap | None = None,
    name: str | None = None, accept_valid_rows: bool = False, budget: BudgetInput = None,
    mode: str | None = None,
) -> AcceptedBatch:
    """Check then accept, as a batch called `name` (optional) with a `budget` in USD (optional,
    core/costs/budget.py: once spent, its remaining items end as BUDGET_EXCEEDED). Raises
    InvalidBatchRequest with every row problem in `rows` when anything is wrong (nothing stored) unless
    `accept_valid_rows` lets the valid rows go on alone, IdempotencyConflict or
    StorageUnavailable. `mode` 'economy' sends the jobs through the provider's Batch API
    (core/economy/mode.py's requested_mode checks it; none chosen: mode_for decides).
    """
    batch, amount, chosen = batch_name(name), checked_budget(budget), requested_mode(mode, settings.provider)
    check = checked_catalog(settings, filename, data, column_map, accept_valid_rows=accept_valid_rows)
    return accept_checked(engine, queue, settings, check, owner=owner, filename=filename, data=data,
                          key=key, column_map=column_map, name=batch, budget=amount, mode=chosen)


def batch_name(value: str | None) -> str | None:
    """The one rule for a batch's name: trimmed, blank is no name, at most BATCH_NAME_MAX
    characters of one visible line. InvalidBatchRequest otherwise (checked before anything
    is stored)."""
    name = (value or "").strip()
    if _NOT_IN_NAMES.search(name):
        raise InvalidBatchRequest("The batch name contains invisible characters (such as a line break "
                                  "or a tab): type it as one line of plain text.")
    if len(name) > BATCH_NAME_MAX:
        raise InvalidBatchRequest(f"The batch name has {len(name):,} characters; use at most "
                                  f"{BATCH_NAME_MAX}.")
    return name or None


def checked_catalog(settings: Settings, filename: str, data: bytes,
                    column_map: ColumnMap | None = None, *, accept_valid_rows: bool = False) -> CatalogCheck:
    """The file's listings, ready to accept; InvalidBatchRequest with every row problem otherwise
    (with `accept_valid_rows`, only when no row is valid or a problem is about the whole file).
    Callers check a file once and pass the result on (checking is the costly part of a submission).
    """
    _check_source_name(filename)
    check = check_catalog(data, filename, settings.max_batch_items, settings.max_upload_bytes,
                          column_map)
    if not check.ok and not (accept_valid_rows and check.valid_rows_acceptable):
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
    name: str | None = None, budget: Decimal | None = None, mode: BatchMode | None = None,
) -> AcceptedBatch:
    """Accept what checked_catalog returned for this same file (its valid rows, recording the
    others, when it let a file with problems through), as a batch called `name` (batch_name's)
    with `budget` (checked_budget's), in `mode` (requested_mode's; None: mode_for decides from the
    accepted listings' count).
    """
    decided = mode_for(mode, settings.provider, len(check.items), settings.economy_min_items)
    return accept_batch(
        engine, queue, owner=owner, key=key or default_key(owner, data, column_map), items=check.items,
        max_items=settings.max_batch_items, name=name, rejected=_rejected(check), budget=budget,
        mode=decided, automatic=mode is None,
        source=SourceFile(filename, check.format, check.columns or None,
                          dict(column_map) if column_map else None),
    )


def _rejected(check: CatalogCheck) -> RejectedRows | None:
    if check.ok:
        return None
    return RejectedRows(check.rejected_rows, [error.to_json_dict() for error in check.errors])


def _check_source_name(filename: str) -> None:
    """The file name is stored and shown with the batch: what PostgreSQL text can hold, short
    enough for its column, and free of invisible characters."""
    if CONTROL_CHARACTERS.search(filename):
        raise InvalidBatchRequest("The file name contains invisible control characters (such as "
                                  "NUL): rename the file and submit it again.")
    if len(filename) > SOURCE_NAME_MAX:
        raise InvalidBatchRequest(f"The file name has {len(filename):,} characters; rename the file "
                                  f"to {SOURCE_NAME_MAX} or fewer and submit it again.")
