"""Reading catalog bytes (CSV, JSON, JSONL) into raw records, with file-level errors.

Only decoding and shape live here; field rules live in core/listings/draft.py.
"""

import csv
import io
import json
import re
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from core.catalogs.records import CatalogError, FileRead, RawRecord

FORMATS = ("csv", "json", "jsonl")
CSV_DELIMITERS = (",", ";", "\t")
EXTENSIONS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def decode_text(data: bytes) -> tuple[str | None, CatalogError | None]:
    """UTF-8 text with or without a BOM; binary or other encodings get a clear error."""
    if not data.strip():
        return None, CatalogError("The file is empty: upload a CSV, JSON or JSONL catalog.")
    if b"\x00" in data[:8192]:
        return None, CatalogError(
            "The file looks binary (for example a spreadsheet or image): export it as CSV or JSON."
        )
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return None, CatalogError(
            f"The file is not UTF-8 text (first bad byte on line {line}): save it as UTF-8.",
            line=line,
        )


def detect_format(filename: str, text: str) -> str:
    """By extension first; otherwise JSON when it starts like JSON, else CSV."""
    by_extension = EXTENSIONS.get(PurePath(filename or "").suffix.lower())
    if by_extension:
        return by_extension
    stripped = text.lstrip()
    if stripped.startswith("["):
        return "json"
    if stripped.startswith("{"):
        first_line = stripped.splitlines()[0].strip()
        return "jsonl" if first_line.endswith("}") and '"items"' not in first_line else "json"
    return "csv"


def read_records(text: str, file_format: str) -> FileRead:
    """Dispatch to the reader of `file_format`."""
    readers = {"csv": read_csv, "json": read_json, "jsonl": read_jsonl}
    return readers[file_format](text)


def read_csv(text: str) -> FileRead:
    """Rows under a header; the delimiter is the one of , ; TAB most used in the header line."""
    delimiter = sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    result = FileRead("csv")
    try:
        header = next(reader, None)
        result.errors.extend(header_errors(header))
        if result.errors:
            return result
        result.columns = [cell.strip() for cell in header]
        result.records = list(_csv_records(reader, header))
    except csv.Error as error:
        result.errors.append(
            CatalogError(f"The CSV cannot be read near line {reader.line_num}: {error}. Check quoting.",
                         line=reader.line_num)
        )
    return result


def sniff_delimiter(text: str) -> str:
    first_line = text.split("\n", 1)[0]
    return max(CSV_DELIMITERS, key=first_line.count)


def header_errors(header: list[str] | None) -> list[CatalogError]:
    """A header must exist, name each column once, and have no blank names."""
    if not header or not any(cell.strip() for cell in header):
        return [CatalogError("The CSV has no header row: the first line must name the columns.", line=1)]
    seen: set[str] = set()
    errors = []
    for cell in header:
        name = normalise_column(cell)
        if not name:
            errors.append(CatalogError("A column in the header has no name: name it or delete it.", line=1))
        elif name in seen:
            errors.append(CatalogError(f"The column '{cell.strip()}' appears twice in the header.", line=1))
        seen.add(name)
    return errors


def _csv_records(reader: Any, header: list[str]):
    names = [cell.strip() for cell in header]
    row = 0
    start_line = reader.line_num + 1
    for cells in reader:
        end_line = reader.line_num
        if any(cell.strip() for cell in cells):
            row += 1
            yield _csv_record(row, start_line, names, cells)
        start_line = end_line + 1


def _csv_record(row: int, line: int, names: list[str], cells: list[str]) -> RawRecord:
    if len(cells) > len(names):
        extra = {"__extra_cells__": len(cells) - len(names)}
        return RawRecord(row, line, dict(zip(names, cells)) | extra)
    padded = cells + [""] * (len(names) - len(cells))
    return RawRecord(row, line, {name: value for name, value in zip(names, padded) if value != ""})


def read_json(text: str) -> FileRead:
    """`{"items": [{"itemId", "listing": {...}}]}` or a plain array of flat listing objects."""
    result = FileRead("json")
    data, error = _load_json(text, base_line=1)
    if error:
        result.errors.append(error)
        return result
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        result.errors.append(
            CatalogError('The JSON must be an array of listings or an object with an "items" array.')
        )
        return result
    result.records = [_json_record(index + 1, None, item) for index, item in enumerate(items)]
    return result


def read_jsonl(text: str) -> FileRead:
    """One listing object per line; blank lines are ignored."""
    result = FileRead("jsonl")
    row = 0
    # Only \n ends a line: str.splitlines() would also split on U+2028 and form feeds, which
    # are legal inside JSON strings pasted from web pages.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        row += 1
        data, error = _load_json(line, base_line=number)
        if error:
            result.errors.append(CatalogError(error.message, row=row, line=number))
            continue
        result.records.append(_json_record(row, number, data))
    return result


def _load_json(text: str, base_line: int) -> tuple[Any, CatalogError | None]:
    try:
        return json.loads(text, parse_float=Decimal), None
    except RecursionError:
        return None, CatalogError("The JSON is nested too deeply to be a catalog: use a flat list "
                                  "of listings.", line=base_line)
    except json.JSONDecodeError as error:
        line = base_line + error.lineno - 1
        return None, CatalogError(
            f"Invalid JSON on line {line}, column {error.colno}: {error.msg}. Fix the syntax there.",
            line=line,
        )


def _json_record(row: int, line: int | None, item: Any) -> RawRecord:
    if not isinstance(item, dict):
        return RawRecord(row, line, {"__not_an_object__": True})
    if isinstance(item.get("listing"), dict):
        fields = {key: value for key, value in item.items() if key != "listing"}
        return RawRecord(row, line, fields | item["listing"], nested=True)
    return RawRecord(row, line, dict(item))


def normalise_column(name: str) -> str:
    """'Item ID', 'item-id' and 'item_id' are one column; so are 'itemId' and 'itemid'."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())
