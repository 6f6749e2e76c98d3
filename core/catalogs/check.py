"""Checking a catalog file: every problem in every row, or the listings ready to accept.

Bounded work: every step is linear in the file, a file over the listing limit gets one error
without its rows being checked, and at most MAX_REPORTED_ERRORS problems are kept (the rest
are counted), so a hostile file cannot turn into a huge answer.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.catalogs.formats import decode_text, detect_format, read_records
from core.catalogs.mapping import (
    STANDARD_FIELDS,
    ColumnMap,
    apply_column_map,
    canonical_column,
    returned_review_columns,
)
from core.catalogs.records import CatalogError, RawRecord
from core.listings.draft import LISTING_FIELDS, ListingDraft, load_json, unusable_characters, validate_draft

ITEM_ID_MAX = 128
# Enough to fix a file by, small enough to answer with: 1,000 problems are about 150 KiB of JSON.
MAX_REPORTED_ERRORS = 1000


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
    is a CSV's header as written (empty for JSON and JSONL). `errors` holds the first
    MAX_REPORTED_ERRORS problems; `error_total` counts them all, `file_errors` those about the
    file as a whole (kept or not). `listings` counts the file's listings, valid or not.
    """

    format: str | None
    items: list[CatalogItem] = field(default_factory=list)
    errors: list[CatalogError] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    errors_not_kept: int = 0
    file_errors: int = 0
    listings: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error_total(self) -> int:
        return len(self.errors) + self.errors_not_kept

    @property
    def shown_note(self) -> str:
        """What to say next to the list when it is not every problem; empty when it is."""
        if not self.errors_not_kept:
            return ""
        return f"Showing the first {len(self.errors):,} of {self.error_total:,} problems."

    @property
    def valid_rows_acceptable(self) -> bool:
        """Some listings are valid and every problem is about a row (none about the file as a
        whole, which may have stopped the reading): the valid rows can be accepted alone."""
        return bool(self.items) and not self.file_errors

    @property
    def rejected_rows(self) -> int:
        """Listings of the file that are not in `items` (each has at least one problem)."""
        return self.listings - len(self.items)

    def add_errors(self, errors: Iterable[CatalogError]) -> None:
        for error in errors:
            self.file_errors += error.row is None
            if len(self.errors) < MAX_REPORTED_ERRORS:
                self.errors.append(error)
            else:
                self.errors_not_kept += 1


def check_catalog(
    data: bytes, filename: str, max_items: int, max_bytes: int, column_map: ColumnMap | None = None
) -> CatalogCheck:
    """Parse and validate a whole file; never stops at the first problem. `column_map` says
    which of the seller's columns hold the standard fields (see core/catalogs/mapping.py)."""
    if len(data) > max_bytes:
        return CatalogCheck(None, errors=[CatalogError(
            f"The file is {megabytes(len(data))}; the limit is {megabytes(max_bytes)} per file. "
            "Split it into smaller files."
        )])
    text, error = decode_text(data)
    if error or text is None:
        return CatalogCheck(None, errors=[error] if error else [])
    file_format = detect_format(filename, text)
    read = read_records(text, file_format, max_items)
    if read.count > max_items:
        return CatalogCheck(file_format, errors=[_too_many(read.count, max_items)], columns=read.columns)
    column_map = returned_review_columns(read.columns) | dict(column_map or {})
    if column_map:
        read = apply_column_map(read, column_map)
    check = CatalogCheck(file_format, columns=list(read.columns), listings=read.count)
    check.add_errors(read.errors)
    if read.errors and not read.records:
        return check
    if file_format == "csv" and not _csv_columns_usable(read.columns, check):
        return check
    _validate_records(read.records, check)
    if read.count == 0 and check.ok:
        check.add_errors([CatalogError("The file has no listings: add at least one row.")])
    return check


def megabytes(size: int) -> str:
    """A size as sellers read it (the uploader and the page state the limit in MB too)."""
    return f"{size / (1024 * 1024):,.1f}".removesuffix(".0") + " MB"


def _too_many(count: int, max_items: int) -> CatalogError:
    return CatalogError(f"The file has {count:,} listings; a batch takes at most {max_items:,}. "
                        f"Split it into files of {max_items:,} listings or fewer.")


def _csv_columns_usable(header: list[str], check: CatalogCheck) -> bool:
    """Every required column once: 'item_id' and 'sku' are the same column, say, so a header
    with both is ambiguous. One pass, grouping the header by meaning."""
    written_as: dict[str, list[str]] = {}
    for name in header:
        written_as.setdefault(canonical_column(name), []).append(name)
    errors = [CatalogError(
        f"The required column '{name}' is missing: in the column mapping, choose which of your "
        f"columns holds the {name} (or add a '{name}' column to the file).", line=1, field=name,
    ) for name in STANDARD_FIELDS if name not in written_as]
    errors += [CatalogError(
        f"The columns {', '.join(repr(h) for h in names)} all give the {name}: keep one of them.",
        line=1, field=name,
    ) for name, names in written_as.items() if len(names) > 1]
    check.add_errors(errors)
    return not errors


def _validate_records(records: list[RawRecord], check: CatalogCheck) -> None:
    first_row_of: dict[str, int] = {}
    for record in records:
        item = _validate_record(record, check, first_row_of)
        if item is not None:
            check.items.append(item)


def _validate_record(
    record: RawRecord, check: CatalogCheck, first_row_of: dict[str, int]
) -> CatalogItem | None:
    listing, item_id, problems = split_record(record)
    item_id = _item_id_text(item_id)
    problems += _item_id_problems(item_id, first_row_of, record.row)
    draft, field_problems = validate_draft(listing) if listing is not None else (None, [])
    problems += [(problem.field, problem.message) for problem in field_problems]
    shown_id = item_id if isinstance(item_id, str) and 0 < len(item_id) <= ITEM_ID_MAX else None
    check.add_errors(
        CatalogError(message, row=record.row, line=record.line, item_id=shown_id, field=name)
        for name, message in problems
    )
    if problems or draft is None:
        return None
    return CatalogItem(record.row, record.line, item_id, draft)


def _item_id_text(item_id: Any) -> Any:
    """An id written as a JSON integer (42, read as a Decimal) is the text "42"; text is trimmed."""
    if isinstance(item_id, Decimal) and item_id.is_finite() and item_id.as_tuple().exponent == 0:
        return str(item_id)
    return item_id.strip() if isinstance(item_id, str) else item_id


def split_record(record: RawRecord) -> tuple[dict[str, Any] | None, Any, list[tuple[str | None, str]]]:
    """Map a record's columns onto (listing fields, item id); unknown columns become attributes."""
    if record.not_an_object:
        message = 'This entry is not a listing object: use {"item_id": ..., "title": ...}.'
        return None, None, [(None, message)]
    problems: list[tuple[str | None, str]] = []
    if record.extra_cells:
        problems.append((None, f"This row has {record.extra_cells} more value(s) than the header has "
                               "columns: put text that contains the delimiter in double quotes."))
    listing: dict[str, Any] = {}
    extra: dict[str, Any] = dict(record.attributes)
    item_id: Any = None
    for name, value in record.fields.items():
        canonical = canonical_column(name)
        if canonical == "item_id":
            item_id = value
        elif canonical in LISTING_FIELDS:
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
        parsed = load_json(value)
    except (ValueError, RecursionError):  # json.JSONDecodeError is a ValueError
        parsed = None
    if not isinstance(parsed, dict):
        problems.append(("attributes", 'attributes must be a JSON object like {"brand": "KeyPro"}.'))
        return None
    return parsed


def _merge_attributes(listing: dict[str, Any], extra: dict[str, Any],
                      problems: list[tuple[str | None, str]]) -> None:
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
    if problem := unusable_characters("item_id", item_id):
        return [("item_id", problem)]
    if item_id in first_row_of:
        return [("item_id", f"item_id '{item_id}' is already used on row {first_row_of[item_id]}: "
                            "every listing needs a unique id.")]
    first_row_of[item_id] = row
    return []
