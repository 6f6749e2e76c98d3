"""Checking a catalog file: every problem in every row, or the listings ready to accept."""

import json
from dataclasses import dataclass, field
from typing import Any

from core.catalogs.formats import decode_text, detect_format, read_records
from core.catalogs.mapping import MAPPED_ATTRIBUTES, ColumnMap, apply_column_map, canonical_column
from core.catalogs.records import CatalogError, RawRecord
from core.listings.draft import (
    CONTROL_CHARACTERS, ListingDraft, control_characters_message, validate_draft,
)

ITEM_ID_MAX = 128
LISTING_COLUMNS = {"title", "description", "category", "price"}
REQUIRED_COLUMNS = ("item_id", "title", "description", "category", "price")


@dataclass(frozen=True)
class CatalogItem:
    """A valid listing with where it came from (row, and line for line-based formats)."""

    row: int
    line: int | None
    item_id: str
    draft: ListingDraft


@dataclass
class CatalogCheck:
    """The outcome of checking a file: accept `items` only when `errors` is empty. `columns`
    is a CSV's header as written (empty for JSON and JSONL).
    """

    format: str | None
    items: list[CatalogItem] = field(default_factory=list)
    errors: list[CatalogError] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def check_catalog(
    data: bytes, filename: str, max_items: int, max_bytes: int, column_map: ColumnMap | None = None
) -> CatalogCheck:
    """Parse and validate a whole file; never stops at the first problem. `column_map` says
    which of the seller's columns hold the standard fields (see core/catalogs/mapping.py)."""
    if len(data) > max_bytes:
        return CatalogCheck(None, errors=[CatalogError(
            f"The file is {len(data):,} bytes; the limit is {max_bytes:,}. Split it into smaller files."
        )])
    text, error = decode_text(data)
    if error:
        return CatalogCheck(None, errors=[error])
    file_format = detect_format(filename, text)
    read = read_records(text, file_format)
    if column_map:
        read = apply_column_map(read, column_map)
    check = CatalogCheck(file_format, errors=list(read.errors), columns=list(read.columns))
    if read.errors and not read.records:
        return check
    if file_format == "csv" and not _csv_columns_usable(read.columns, check):
        return check
    _validate_records(read.records, check)
    _check_count(len(read.records) + _unreadable_rows(read.errors), max_items, check)
    return check


def _csv_columns_usable(header: list[str], check: CatalogCheck) -> bool:
    """Every required column once: 'item_id' and 'sku' are the same column, say, so a header
    with both is ambiguous."""
    canonical = [canonical_column(name) for name in header]
    errors = [CatalogError(
        f"The required column '{name}' is missing from the header: add it (or rename the "
        "column that holds it).", line=1, field=name,
    ) for name in REQUIRED_COLUMNS if name not in canonical]
    errors += [CatalogError(
        f"The columns {', '.join(repr(h) for h, c in zip(header, canonical) if c == name)} all "
        f"give the {name}: keep one of them.", line=1, field=name,
    ) for name in dict.fromkeys(canonical) if canonical.count(name) > 1]
    check.errors.extend(errors)
    return not errors


def _validate_records(records: list[RawRecord], check: CatalogCheck) -> None:
    first_row_of: dict[str, int] = {}
    for record in records:
        item = _validate_record(record, check.errors, first_row_of)
        if item is not None:
            check.items.append(item)


def _validate_record(
    record: RawRecord, errors: list[CatalogError], first_row_of: dict[str, int]
) -> CatalogItem | None:
    listing, item_id, problems = split_record(record)
    if isinstance(item_id, int) and not isinstance(item_id, bool):
        item_id = str(item_id)
    if isinstance(item_id, str):
        item_id = item_id.strip()
    problems += _item_id_problems(item_id, first_row_of, record.row)
    draft, field_problems = validate_draft(listing) if listing is not None else (None, [])
    problems += [(problem.field, problem.message) for problem in field_problems]
    shown_id = item_id if isinstance(item_id, str) and item_id.strip() else None
    errors.extend(
        CatalogError(message, row=record.row, line=record.line, item_id=shown_id, field=name)
        for name, message in problems
    )
    if problems or draft is None:
        return None
    return CatalogItem(record.row, record.line, item_id, draft)


def split_record(record: RawRecord) -> tuple[dict[str, Any] | None, Any, list[tuple[str | None, str]]]:
    """Map a record's columns onto (listing fields, item id); unknown columns become attributes."""
    if "__not_an_object__" in record.fields:
        message = 'This entry is not a listing object: use {"item_id": ..., "title": ...}.'
        return None, None, [(None, message)]
    problems: list[tuple[str | None, str]] = []
    if "__extra_cells__" in record.fields:
        problems.append((None, f"This row has {record.fields['__extra_cells__']} more value(s) than the "
                               "header has columns: put text that contains the delimiter in double quotes."))
    listing: dict[str, Any] = {}
    extra: dict[str, Any] = dict(record.fields.get(MAPPED_ATTRIBUTES, {}))
    item_id: Any = None
    for name, value in record.fields.items():
        if name.startswith("__"):
            continue
        canonical = canonical_column(name)
        if canonical == "item_id":
            item_id = value
        elif canonical in LISTING_COLUMNS:
            listing[canonical] = value
        elif canonical == "attributes":
            listing["attributes"] = _attributes_value(value, problems)
        elif record.nested:
            problems.append((name, f"'{name}' is not a listing field: move it into attributes."))
        else:
            extra[name.strip()] = value
    _merge_attributes(listing, extra, problems)
    return listing, item_id, problems


def _attributes_value(value: Any, problems: list[tuple[str | None, str]]) -> Any:
    if not isinstance(value, str):
        return value
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = None
    if not isinstance(parsed, dict):
        problems.append(("attributes", 'attributes must be a JSON object like {"brand": "KeyPro"}.'))
        return None
    return parsed


def _merge_attributes(listing: dict[str, Any], extra: dict[str, Any], problems: list) -> None:
    if not extra:
        return
    attributes = listing.get("attributes")
    if attributes is None:
        listing["attributes"] = extra
        return
    if not isinstance(attributes, dict):
        return
    for name in sorted(set(attributes) & set(extra)):
        problems.append((name, f"'{name}' is given both as a column and inside attributes: keep one."))
    listing["attributes"] = attributes | extra


def _item_id_problems(item_id: Any, first_row_of: dict[str, int], row: int) -> list[tuple[str, str]]:
    if item_id is None or (isinstance(item_id, str) and not item_id.strip()):
        return [("item_id", "item_id is required: give every listing its own id (e.g. your SKU).")]
    if not isinstance(item_id, str):
        return [("item_id", "item_id must be text, e.g. \"SKU-1001\".")]
    if len(item_id) > ITEM_ID_MAX:
        return [("item_id", f"item_id has {len(item_id)} characters; use at most {ITEM_ID_MAX}.")]
    if CONTROL_CHARACTERS.search(item_id):
        return [("item_id", control_characters_message("item_id"))]
    if item_id in first_row_of:
        return [("item_id", f"item_id '{item_id}' is already used on row {first_row_of[item_id]}: "
                            "every listing needs a unique id.")]
    first_row_of[item_id] = row
    return []


def _unreadable_rows(errors: list[CatalogError]) -> int:
    return sum(1 for error in errors if error.row is not None)


def _check_count(count: int, max_items: int, check: CatalogCheck) -> None:
    if count == 0 and not check.errors:
        check.errors.append(CatalogError("The file has no listings: add at least one row."))
    elif count > max_items:
        check.errors.insert(0, CatalogError(
            f"The file has {count:,} listings; a batch takes at most {max_items:,}. "
            f"Split it into files of {max_items:,} listings or fewer."
        ))
