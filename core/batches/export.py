"""Downloads of a batch: every item's result as CSV or JSON, and the fix-up file of the
reviewed listings that need work or human review, in the seller's own columns, ready to edit
and upload again.

Streamed in constant memory: each file is an iterator of byte pieces, one per keyset chunk of
CHUNK items, all read inside one REPEATABLE READ transaction (one moment of the batch). A CSV
header must be known before the first row, and the attribute columns depend on every item, so
a first pass in SQL (`attribute_names`) returns the batch's distinct attribute names (at most
ATTRIBUTE_COLUMNS_MAX of them; any beyond go into one `attributes` JSON column) before the
rows are read.

Listing text is seller- and model-written, so every CSV goes through core.spreadsheet, which
quotes text cells and defuses anything a spreadsheet could run as a formula under any
separator. The price is written as typed (45.00 stays 45.00). In CSV a review's lists
(missing fields, issues, suggestions) hold one entry per line of the cell (LIST_SEPARATOR);
JSON keeps them as arrays and the attributes as an object.
"""

import json
import uuid
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from sqlalchemy import Connection, Engine

from core.batches.verdicts import GOOD_SCORE_FROM, VERDICT_WORDS, verdict_of
from core.catalogs.formats import normalise_column
from core.catalogs.mapping import (
    ATTRIBUTE,
    FIXUP_REVIEW_COLUMNS,
    IGNORE,
    ITEM_ID_COLUMNS,
    REVIEW_PREFIX,
    STANDARD_FIELDS,
    canonical_column,
)
from core.errors import AppError, BatchNotFound, storage_errors
from core.listings.draft import LISTING_FIELDS, ListingDraft
from core.listings.snapshot import decode_snapshot, plain_decimal
from core.spreadsheet import csv_chunks
from core.sql import queries_beside

QUERIES = queries_beside(__file__, "export.sql")
CHUNK = 500
# A CSV header wider than this is no longer a sheet anyone reads; the catalog reader refuses
# headers over 1,000 columns too. Further attributes share one `attributes` JSON column.
ATTRIBUTE_COLUMNS_MAX = 1000
ATTRIBUTE_PREFIX = "attr:"
LOOSE_ATTRIBUTES = "attributes"
LIST_SEPARATOR = "\n"
HEAD_COLUMNS = ("item_id", "position", "status", *LISTING_FIELDS)
TAIL_COLUMNS = ("qualityScore", "requiresHumanReview", "verdict", "missingFields", "issues",
                "suggestions", "error_code", "error_message")
# What the fix-up file adds after the seller's columns (FIXUP_REVIEW_COLUMNS, read back as
# ignored). `error` is empty for every row today: the file holds reviewed listings only
# (failures are the platform's side and are retried).
REVIEW_COLUMNS = FIXUP_REVIEW_COLUMNS


class NothingToFix(AppError):
    """The batch holds no listing that needs work or human review (yet): no file, not an empty one."""

    code = "REVIEW_BATCH_NOTHING_TO_FIX"


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
    """The batch as its downloads need it: who owns it, its name, and the file it came from."""

    batch_id: uuid.UUID
    owner: str
    name: str | None
    file_name: str | None
    format: str | None
    columns: list[str] | None
    column_map: dict[str, str] | None


Writer = Callable[[Connection, BatchSource], Iterator[bytes]]


def fixup_rule() -> str:
    """The fix-up file's cut-off, as pages, CLI help and API docs state it."""
    return (f"The fix-up file lists the reviewed listings that need work (a score below {GOOD_SCORE_FROM}) "
            "or need human review, in your own columns, with the review's verdict, score, missing "
            "fields, issues and suggestions beside them. Failed listings are not in it: they failed "
            "on our side and are retried, not fixed. Upload the edited file as it is: its review "
            "columns are recognised and left out.")


def nothing_to_fix_message() -> str:
    return (f"Nothing to fix: no reviewed listing in this batch scored below {GOOD_SCORE_FROM} or "
            "asked for human review. Failed listings are retried, not fixed.")


def open_export(engine: Engine, owner: str, batch_id: uuid.UUID, writer: Writer) -> tuple[
        BatchSource, Iterator[bytes]]:
    """The batch's source and the file's pieces. Everything that can refuse the download
    (BatchNotFound for unknown or foreign ids, NothingToFix, StorageUnavailable) is raised
    here, before the first piece is handed out; the transaction stays open until the pieces
    are read to the end or the iterator is closed or dropped.
    """
    opened: list[BatchSource] = []
    pieces = _snapshot_pieces(engine, owner, batch_id, writer, opened.append)
    first = next(pieces)
    return opened[0], _following(first, pieces)


def fixup_count(engine: Engine, owner: str, batch_id: uuid.UUID) -> int:
    """How many listings the fix-up file would hold (0: the page says there is nothing to fix).
    Raises BatchNotFound, StorageUnavailable."""
    params = {"owner": owner, "batch_id": batch_id, "good_from": GOOD_SCORE_FROM}
    with storage_errors(), engine.connect() as connection:
        count = connection.execute(QUERIES["fixup_count"], params).scalar()
    if count is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return int(count)


def _snapshot_pieces(engine: Engine, owner: str, batch_id: uuid.UUID, writer: Writer,
                     opened: Callable[[BatchSource], None]) -> Generator[bytes, None, None]:
    with storage_errors(), engine.connect() as connection:
        connection = connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():
            source = _read_source(connection, owner, batch_id)
            opened(source)
            yield from writer(connection, source)


def _following(first: bytes, pieces: Generator[bytes, None, None]) -> Iterator[bytes]:
    try:
        yield first
        yield from pieces
    finally:
        pieces.close()


def _read_source(connection: Connection, owner: str, batch_id: uuid.UUID) -> BatchSource:
    row = connection.execute(QUERIES["batch_source"], {"owner": owner, "batch_id": batch_id}).first()
    if row is None:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return BatchSource(row.id, row.owner, row.name, row.source_name, row.source_format,
                       row.source_columns, row.column_map)


def _chunks(connection: Connection, source: BatchSource, fixup_only: bool) -> Iterator[list[ExportedItem]]:
    """The batch's items (or the fix-up file's), CHUNK at a time by keyset on position."""
    after = 0
    while True:
        params = _params(source, fixup_only) | {"after": after, "limit": CHUNK}
        rows = connection.execute(QUERIES["export_chunk"], params).all()
        if rows:
            yield [_exported(row) for row in rows]
        if len(rows) < CHUNK:
            return
        after = rows[-1].item_position


def _params(source: BatchSource, fixup_only: bool) -> dict[str, Any]:
    return {"owner": source.owner, "batch_id": source.batch_id, "fixup_only": fixup_only,
            "good_from": GOOD_SCORE_FROM}


def _exported(row: Any) -> ExportedItem:
    return ExportedItem(row.item_id, row.item_position, row.status, decode_snapshot(row.payload),
                        row.result, row.error_code, row.error_message)


def _attribute_names(connection: Connection, source: BatchSource, fixup_only: bool) -> tuple[list[str], bool]:
    """(attribute names in order of first appearance, whether there were more than the cap)."""
    params = _params(source, fixup_only) | {"limit": ATTRIBUTE_COLUMNS_MAX + 1}
    names = list(connection.execute(QUERIES["attribute_names"], params).scalars())
    return names[:ATTRIBUTE_COLUMNS_MAX], len(names) > ATTRIBUTE_COLUMNS_MAX


def _lines(values: list[str] | None) -> str | None:
    return LIST_SEPARATOR.join(values) if values is not None else None


def _loose(attributes: Mapping[str, str], held: set[str]) -> str | None:
    """The attributes no column of their own holds, as the JSON object the reader accepts."""
    loose = {name: value for name, value in attributes.items() if name not in held}
    return json.dumps(loose, ensure_ascii=False) if loose else None


def _verdict_word(result: dict[str, Any] | None) -> str | None:
    verdict = verdict_of(result)
    return VERDICT_WORDS[verdict] if verdict else None


# --- results: every item ---------------------------------------------------------------------

def results_csv(connection: Connection, source: BatchSource) -> Iterator[bytes]:
    """Every item: the listing as typed (attributes as `attr:<name>`), the review and the error."""
    names, more = _attribute_names(connection, source, fixup_only=False)
    loose = [LOOSE_ATTRIBUTES] if more else []
    header = [*HEAD_COLUMNS, *(ATTRIBUTE_PREFIX + name for name in names), *loose, *TAIL_COLUMNS]
    held = set(names)
    rows = ([_results_cells(item, names, held if more else None) for item in chunk]
            for chunk in _chunks(connection, source, fixup_only=False))
    yield from csv_chunks(header, rows)


def _results_cells(item: ExportedItem, names: Sequence[str], held: set[str] | None) -> list[Any]:
    draft, review = item.draft, item.result or {}
    cells = [item.item_id, item.position, item.status, draft.title, draft.description,
             draft.category, plain_decimal(draft.price)]
    cells += [draft.attributes.get(name) for name in names]
    cells += [] if held is None else [_loose(draft.attributes, held)]
    cells += [review.get("qualityScore"), review.get("requiresHumanReview"), _verdict_word(item.result)]
    return [*cells, *_review_lists(review), item.error_code, item.error_message]


def _review_lists(review: dict[str, Any]) -> list[str | None]:
    """Missing fields, issues and suggestions, one entry per line of a cell."""
    return [_lines(review.get(name)) for name in ("missingFields", "issues", "suggestions")]


def results_json(connection: Connection, source: BatchSource) -> Iterator[bytes]:
    """Every item as one JSON object of an array; lists stay arrays, attributes an object."""
    yield b"["
    separator = b"\n"
    for chunk in _chunks(connection, source, fixup_only=False):
        yield separator + b",\n".join(_json_bytes(item) for item in chunk)
        separator = b",\n"
    yield b"\n]\n"


def result_object(item: ExportedItem) -> dict[str, Any]:
    """One item of the JSON export (no formula defusing: JSON is not opened as a sheet)."""
    draft, review = item.draft, item.result or {}
    return {
        "item_id": item.item_id, "position": item.position, "status": item.status,
        "title": draft.title, "description": draft.description, "category": draft.category,
        "price": plain_decimal(draft.price), "attributes": draft.attributes,
        "qualityScore": review.get("qualityScore"),
        "requiresHumanReview": review.get("requiresHumanReview"),
        "verdict": _verdict_word(item.result),
        "missingFields": review.get("missingFields"), "issues": review.get("issues"),
        "suggestions": review.get("suggestions"),
        "error_code": item.error_code, "error_message": item.error_message,
    }


def _json_bytes(item: ExportedItem) -> bytes:
    return json.dumps(result_object(item), ensure_ascii=False, indent=2).encode("utf-8")


# --- fix-up file ------------------------------------------------------------------------------

def fixup_csv(connection: Connection, source: BatchSource) -> Iterator[bytes]:
    """The listings that need work or human review, in the columns of the seller's original
    CSV (mapped and unmapped, under the seller's names; standard columns for JSON sources),
    then REVIEW_COLUMNS. Raises NothingToFix rather than writing a header-only file.
    """
    names, more = _attribute_names(connection, source, fixup_only=True)
    chunks = _unless_empty(_chunks(connection, source, fixup_only=True))
    if chunks is None:
        raise NothingToFix(nothing_to_fix_message())
    header = _fixup_header(source, names, more)
    held = {role.removeprefix(ATTRIBUTE_PREFIX) for _, role in header if role.startswith(ATTRIBUTE_PREFIX)}
    review_names = _review_names([name for name, _ in header])
    rows = ([_fixup_cells(item, header, held) for item in chunk] for chunk in chunks)
    yield from csv_chunks([*(name for name, _ in header), *review_names], rows)


def _unless_empty(chunks: Iterator[list[ExportedItem]]) -> Iterator[list[ExportedItem]] | None:
    """The same chunks, or None when there are none. Nothing here keeps the first chunk once
    it is written (a local of the writer would hold it to the end: two chunks, not one)."""
    first = next(chunks, None)
    return None if first is None else chain([first], chunks)


def _fixup_header(source: BatchSource, names: Sequence[str], more: bool) -> list[tuple[str, str]]:
    """(column name, role) pairs: the seller's original CSV header when known, else standard
    columns and one column per attribute. Attributes no column holds go into an `attributes`
    column (a JSON object), which the catalog reader accepts too.
    """
    if source.format == "csv" and source.columns:
        header = seller_columns(source.columns, source.column_map or {})
    else:
        header = [(name, name) for name in STANDARD_FIELDS] + _attribute_columns(names)
    roles = {role for _, role in header}
    loose = more or any(ATTRIBUTE_PREFIX + name not in roles for name in names)
    if loose and LOOSE_ATTRIBUTES not in roles:
        header.append((LOOSE_ATTRIBUTES, LOOSE_ATTRIBUTES))
    return header


def seller_columns(columns: Sequence[str], column_map: Mapping[str, str]) -> list[tuple[str, str]]:
    """(seller's column, role) in the seller's order. The stored header is the one the catalog
    reader returned after the mapping (mapped columns under our names, ignored ones dropped)
    unless it already holds every mapped column; the seller's names are put back, and columns
    the mapping dropped come last (their place in the file is not stored) with empty cells:
    their values were never stored either.
    """
    names = list(columns)
    if not set(column_map) <= set(names):
        seller_name = {target: name for name, target in column_map.items() if target in STANDARD_FIELDS}
        names = [seller_name.get(name, name) for name in names]
        names += [name for name in column_map if name not in names]
    return [(name, _role(name, column_map)) for name in names]


def _role(column: str, column_map: Mapping[str, str]) -> str:
    """What a column of the seller's file held, the way the catalog reader maps it."""
    target = column_map.get(column)
    if target == IGNORE:
        return IGNORE
    if target == ATTRIBUTE:
        return ATTRIBUTE_PREFIX + column.strip()
    canonical = target or canonical_column(column)
    if canonical == "item_id" or canonical in LISTING_FIELDS or canonical == LOOSE_ATTRIBUTES:
        return canonical
    return ATTRIBUTE_PREFIX + column.strip()


def _attribute_columns(names: Sequence[str]) -> list[tuple[str, str]]:
    """An attribute gets its own column only when reading it back yields the same attribute:
    no clash with a listing column or another attribute, no surrounding spaces."""
    taken = {"item_id", *ITEM_ID_COLUMNS, *LISTING_FIELDS, LOOSE_ATTRIBUTES}
    columns = []
    for name in names:
        canonical = normalise_column(name)
        if name == name.strip() and not name.startswith("__") and canonical not in taken:
            taken.add(canonical)
            columns.append((name, ATTRIBUTE_PREFIX + name))
    return columns


def _review_names(taken: Sequence[str]) -> list[str]:
    """REVIEW_COLUMNS, each prefixed with `review_` until it names no column of the seller's."""
    used = {normalise_column(name) for name in taken}
    names = []
    for name in REVIEW_COLUMNS:
        while normalise_column(name) in used:
            name = REVIEW_PREFIX + name
        used.add(normalise_column(name))
        names.append(name)
    return names


def _fixup_cells(item: ExportedItem, header: Sequence[tuple[str, str]], held: set[str]) -> list[Any]:
    review = item.result or {}
    cells = [_fixup_cell(item, role, held) for _, role in header]
    cells += [_verdict_word(item.result), review.get("qualityScore")]
    return [*cells, *_review_lists(review), item.error_message]


def _fixup_cell(item: ExportedItem, role: str, held: set[str]) -> str | None:
    draft = item.draft
    if role.startswith(ATTRIBUTE_PREFIX):
        return draft.attributes.get(role.removeprefix(ATTRIBUTE_PREFIX))
    if role == IGNORE:
        return None
    if role == LOOSE_ATTRIBUTES:
        return _loose(draft.attributes, held)
    if role == "price":
        return plain_decimal(draft.price)
    return item.item_id if role == "item_id" else str(getattr(draft, role))
