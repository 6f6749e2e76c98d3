"""Downloads of a batch's results: every item as CSV or JSON, and a fix-up CSV of the items
that failed or scored low, in the seller's own columns, ready to edit and upload again.

Listing text is seller- and model-written, so every CSV goes through core.spreadsheet, which
quotes text cells and defuses anything a spreadsheet could run as a formula under any
separator. The price is written as typed (45.00 stays 45.00).
"""

import json
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from sqlalchemy import Connection, Engine

from core.catalogs.formats import normalise_column
from core.catalogs.mapping import ITEM_ID_COLUMNS, STANDARD_FIELDS, canonical_column
from core.errors import BatchNotFound, storage_errors
from core.jobs.status import RETRYABLE_STATUSES
from core.listings.draft import LISTING_FIELDS, ListingDraft
from core.listings.snapshot import decode_snapshot, plain_decimal
from core.spreadsheet import csv_bytes
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
CHUNK = 500
ATTRIBUTE_PREFIX = "attr:"
HEAD_COLUMNS = ("item_id", "position", "status", *LISTING_FIELDS)
TAIL_COLUMNS = ("qualityScore", "requiresHumanReview", "missingFields", "issues", "suggestions",
                "error_code", "error_message")
UNSAFE_FILE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f]')


@dataclass(frozen=True)
class ExportedItem:
    item_id: str
    position: int
    status: str
    draft: ListingDraft
    result: dict[str, Any] | None
    error_code: str | None
    error_message: str | None


@dataclass(frozen=True)
class BatchSource:
    name: str | None
    format: str | None
    columns: list[str] | None


def export_rows(engine: Engine, owner: str, batch_id: uuid.UUID) -> list[dict[str, Any]]:
    """One flat row per item in position order: the listing as typed (attributes as
    `attr:<name>`), the review (lists joined with '; ') and the error, if any.

    Raises BatchNotFound for unknown or foreign ids, StorageUnavailable when the database is down.
    """
    _, items = read_export(engine, owner, batch_id)
    return [_flat_row(item) for item in items]


def export_csv(rows: Sequence[dict[str, Any]]) -> bytes:
    """The rows as UTF-8 CSV with a BOM (so spreadsheets detect the encoding), formulas defused."""
    columns = _export_columns(rows)
    return csv_bytes(columns, ([row.get(name) for name in columns] for row in rows))


def export_json(rows: Sequence[dict[str, Any]]) -> bytes:
    """The rows as a UTF-8 JSON array (no formula defusing: JSON is not opened as a sheet)."""
    return json.dumps(list(rows), ensure_ascii=False, indent=2).encode("utf-8")


def fixup_file(
    engine: Engine, owner: str, batch_id: uuid.UUID, score_below: int = 60
) -> tuple[str, bytes]:
    """(file name, CSV bytes) of the FAILED items and the reviewed items scoring below
    `score_below`, in the columns of the seller's original CSV (standard columns for JSON
    sources), so the seller edits it and uploads it again. Only a header when nothing needs
    fixing. Raises BatchNotFound for unknown or foreign ids, StorageUnavailable.
    """
    source, items = read_export(engine, owner, batch_id)
    wanted = [item for item in items if _needs_fixing(item, score_below)]
    header = _fixup_header(source, wanted)
    rows = ([_fixup_cell(item, role, header) for _, role in header] for item in wanted)
    return _fixup_name(source.name, batch_id), csv_bytes([name for name, _ in header], rows)


def read_export(engine: Engine, owner: str, batch_id: uuid.UUID) -> tuple[BatchSource, list[ExportedItem]]:
    """The batch's source and every item, read in chunks of CHUNK positions inside one
    REPEATABLE READ transaction, so the chunks describe one moment.
    """
    with storage_errors(), engine.connect() as connection:
        connection = connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():
            source = _read_source(connection, owner, batch_id)
            return source, list(_read_items(connection, owner, batch_id))


def _read_source(connection: Connection, owner: str, batch_id: uuid.UUID) -> BatchSource:
    row = connection.execute(QUERIES["batch_source"], {"owner": owner, "batch_id": batch_id}).first()
    if row is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return BatchSource(row.source_name, row.source_format, row.source_columns)


def _read_items(connection: Connection, owner: str, batch_id: uuid.UUID) -> Iterable[ExportedItem]:
    after = 0
    while True:
        params = {"owner": owner, "batch_id": batch_id, "after": after, "limit": CHUNK}
        rows = connection.execute(QUERIES["export_chunk"], params).all()
        yield from (_exported(row) for row in rows)
        if len(rows) < CHUNK:
            return
        after = rows[-1].item_position


def _exported(row: Any) -> ExportedItem:
    return ExportedItem(row.item_id, row.item_position, row.status, decode_snapshot(row.payload),
                        row.result, row.error_code, row.error_message)


def _flat_row(item: ExportedItem) -> dict[str, Any]:
    review = item.result or {}
    draft = item.draft
    row: dict[str, Any] = {
        "item_id": item.item_id, "position": item.position, "status": item.status,
        "title": draft.title, "description": draft.description, "category": draft.category,
        "price": plain_decimal(draft.price),
    }
    row |= {ATTRIBUTE_PREFIX + name: value for name, value in draft.attributes.items()}
    return row | {
        "qualityScore": review.get("qualityScore"),
        "requiresHumanReview": review.get("requiresHumanReview"),
        "missingFields": _joined(review.get("missingFields")),
        "issues": _joined(review.get("issues")),
        "suggestions": _joined(review.get("suggestions")),
        "error_code": item.error_code,
        "error_message": item.error_message,
    }


def _joined(values: list[str] | None) -> str | None:
    return "; ".join(values) if values is not None else None


def _export_columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Fixed columns around every attribute column, attributes in order of first appearance."""
    attributes = dict.fromkeys(name for row in rows for name in row if name.startswith(ATTRIBUTE_PREFIX))
    return [*HEAD_COLUMNS, *attributes, *TAIL_COLUMNS]


def _needs_fixing(item: ExportedItem, score_below: int) -> bool:
    if item.status in RETRYABLE_STATUSES:
        return True
    score = (item.result or {}).get("qualityScore")
    return item.status == "SUCCEEDED" and isinstance(score, int) and score < score_below


def _fixup_header(source: BatchSource, items: Sequence[ExportedItem]) -> list[tuple[str, str]]:
    """(column name, role) pairs: the original CSV header when known, else standard columns
    and one column per attribute. Attributes no column holds go into an `attributes` column
    (a JSON object), which the catalog reader accepts too.
    """
    if source.format == "csv" and source.columns:
        header = [(name, _role(name)) for name in source.columns]
    else:
        header = [(name, name) for name in STANDARD_FIELDS]
        header += _attribute_columns(items)
    held = {role for _, role in header}
    if "attributes" not in held and any(_loose_attributes(item, held) for item in items):
        header.append(("attributes", "attributes"))
    return header


def _role(column: str) -> str:
    """What an original header column held, the way the catalog reader maps it."""
    canonical = canonical_column(column)
    if canonical == "item_id" or canonical in LISTING_FIELDS or canonical == "attributes":
        return canonical
    return ATTRIBUTE_PREFIX + column.strip()


def _attribute_columns(items: Sequence[ExportedItem]) -> list[tuple[str, str]]:
    """An attribute gets its own column only when reading it back yields the same attribute:
    no clash with a listing column or another attribute, no surrounding spaces."""
    taken = {"item_id", *ITEM_ID_COLUMNS, *LISTING_FIELDS, "attributes"}
    columns = []
    for name in dict.fromkeys(name for item in items for name in item.draft.attributes):
        canonical = normalise_column(name)
        if name == name.strip() and not name.startswith("__") and canonical not in taken:
            taken.add(canonical)
            columns.append((name, ATTRIBUTE_PREFIX + name))
    return columns


def _loose_attributes(item: ExportedItem, held: set[str]) -> dict[str, str]:
    return {name: value for name, value in item.draft.attributes.items()
            if ATTRIBUTE_PREFIX + name not in held}


def _fixup_cell(item: ExportedItem, role: str, header: Sequence[tuple[str, str]]) -> str | None:
    draft = item.draft
    if role.startswith(ATTRIBUTE_PREFIX):
        return draft.attributes.get(role.removeprefix(ATTRIBUTE_PREFIX))
    if role == "attributes":
        loose = _loose_attributes(item, {held for _, held in header})
        return json.dumps(loose, ensure_ascii=False) if loose else None
    if role == "price":
        return plain_decimal(draft.price)
    return item.item_id if role == "item_id" else getattr(draft, role)


def _fixup_name(source_name: str | None, batch_id: uuid.UUID) -> str:
    stem = UNSAFE_FILE_NAME.sub("_", PurePosixPath(source_name or "").stem).strip(" .")
    return f"{stem or f'batch-{batch_id}'}-fixup.csv"
