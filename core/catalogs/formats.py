"""Reading catalog bytes (CSV, JSON, JSONL) into raw records, with file-level errors.

Only decoding and shape live here; field rules live in core/listings/draft.py. Every step is
one pass over the text, and at most `max_items` records are built: the rest are only counted,
so a file far over the listing limit costs a count, not a check.
"""

import csv
import io
import json
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import PurePath
from typing import Any

from core.catalogs.records import CatalogError, FileRead, RawRecord
from core.listings.draft import JSON_DECODER, load_json

CSV_DELIMITERS = (",", ";", "\t")
# Far above any real catalog (5 fields + at most 50 attributes + columns a mapping ignores), and
# low enough that a hostile header costs a count of its first line, not millions of cells.
MAX_CSV_COLUMNS = 1000
EXTENSIONS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
# What str.splitlines() ends a line on: the first line is found without splitting the whole text.
LINE_END = re.compile("[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
LEADING_SPACE = re.compile(r"\s*")
# JSON's own whitespace, and the shapes whose listings are read one at a time.
WHITESPACE = re.compile(r"[ \t\n\r]*")
PLAIN_ARRAY = re.compile(r"[ \t\n\r]*\[")
ITEMS_ARRAY = re.compile(r'[ \t\n\r]*\{[ \t\n\r]*"items"[ \t\n\r]*:[ \t\n\r]*\[')
ITEMS_ARRAY_END = re.compile(r"\][ \t\n\r]*\}[ \t\n\r]*\Z")
ARRAY_SEPARATOR = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")
# A listing in the making: built only while the file is within the listing limit.
Entry = Callable[[], RawRecord | CatalogError]


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
    start = _end_of(LEADING_SPACE, text)
    if text.startswith("[", start):
        return "json"
    if text.startswith("{", start):
        end = LINE_END.search(text, start)
        first_line = text[start:end.start() if end else len(text)].strip()
        return "jsonl" if first_line.endswith("}") and '"items"' not in first_line else "json"
    return "csv"


def read_records(text: str, file_format: str, max_items: int) -> FileRead:
    """Dispatch to the reader of `file_format`; keep the first `max_items` listings, count all."""
    readers = {"csv": read_csv, "json": read_json, "jsonl": read_jsonl}
    result = FileRead(file_format)
    for entry in readers[file_format](text, result):
        result.count += 1
        if result.count <= max_items:
            _keep(entry(), result)
    return result


def _keep(entry: RawRecord | CatalogError, result: FileRead) -> None:
    if isinstance(entry, CatalogError):
        result.errors.append(entry)
    else:
        result.records.append(entry)


def read_csv(text: str, result: FileRead) -> Iterator[Entry]:
    """Rows under a header; the delimiter is the one of , ; TAB most used in the header line."""
    delimiter = sniff_delimiter(text)
    columns = _first_line(text).count(delimiter) + 1
    if columns > MAX_CSV_COLUMNS:
        result.errors.append(CatalogError(
            f"The header has {columns:,} columns; a catalog takes at most {MAX_CSV_COLUMNS:,}. "
            "Delete the columns you do not need.", line=1))
        return
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
        result.errors.extend(header_errors(header))
        if result.errors or header is None:
            return
        result.columns = [cell.strip() for cell in header]
        yield from _csv_entries(reader, result.columns)
    except csv.Error as error:
        result.errors.append(
            CatalogError(f"The CSV cannot be read near line {reader.line_num}: {error}. Check quoting.",
                         line=reader.line_num)
        )


def sniff_delimiter(text: str) -> str:
    first_line = _first_line(text)
    return max(CSV_DELIMITERS, key=first_line.count)


def _first_line(text: str) -> str:
    end = text.find("\n")
    return text[: end if end >= 0 else len(text)]


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


def _csv_entries(reader: Any, names: list[str]) -> Iterator[Entry]:
    row = 0
    start_line = reader.line_num + 1
    for cells in reader:
        end_line = reader.line_num
        if any(cell.strip() for cell in cells):
            row += 1
            yield partial(_csv_record, row, start_line, names, cells)
        start_line = end_line + 1


def _csv_record(row: int, line: int, names: list[str], cells: list[str]) -> RawRecord:
    extra = len(cells) - len(names)
    if extra > 0:
        return RawRecord(row, line, dict(zip(names, cells[:len(names)], strict=True)), extra_cells=extra)
    padded = cells + [""] * -extra
    return RawRecord(row, line, {name: value for name, value in zip(names, padded, strict=True) if value})


def read_json(text: str, result: FileRead) -> Iterator[Entry]:
    """`{"items": [{"itemId", "listing": {...}}]}` or a plain array of flat listing objects.

    These two shapes are read one listing at a time, so a huge array costs one listing's memory
    beyond the text; a file that is not valid JSON is only its syntax error."""
    array = _streamable_array(text)
    try:
        if array is None:
            yield from _whole_json_entries(text, result)
            return
        start, closing = array
        for index, item in enumerate(_array_items(text, start, closing)):
            yield partial(_json_record, index + 1, None, item)
    except (json.JSONDecodeError, RecursionError) as error:
        result.records.clear()
        result.errors[:] = [_json_problem(error, base_line=1)]
        result.count = 0


def _whole_json_entries(text: str, result: FileRead) -> Iterator[Entry]:
    data = load_json(text)
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        result.errors.append(
            CatalogError('The JSON must be an array of listings or an object with an "items" array.')
        )
        return
    for index, item in enumerate(items):
        yield partial(_json_record, index + 1, None, item)


def _streamable_array(text: str) -> tuple[int, str] | None:
    """Where the listings' array starts and what must close the document after it, when the
    file is `[...]`, or `{"items": [...]}` with no other key; None for any other shape."""
    if match := PLAIN_ARRAY.match(text):
        return match.end(), ""
    match = ITEMS_ARRAY.match(text)
    if match and ITEMS_ARRAY_END.search(text, max(match.end(), len(text) - 4096)):
        return match.end(), "}"
    return None


def _array_items(text: str, start: int, closing: str) -> Iterator[Any]:
    """Each value of the array opened just before `start`, then `closing` and the end of text."""
    position = _end_of(WHITESPACE, text, start)
    ended = text.startswith("]", position)
    position += ended
    while not ended:
        item, position = JSON_DECODER.raw_decode(text, position)
        yield item
        separator = ARRAY_SEPARATOR.match(text, position)
        if separator is None:
            missing = _end_of(WHITESPACE, text, position)
            raise json.JSONDecodeError("Expecting ',' delimiter", text, missing)
        position, ended = separator.end(), separator.group(1) == "]"
    position = _end_of(WHITESPACE, text, position)
    if closing and not text.startswith(closing, position):
        raise json.JSONDecodeError("Expecting ',' delimiter", text, position)
    position = _end_of(WHITESPACE, text, position + len(closing))
    if position != len(text):
        raise json.JSONDecodeError("Extra data", text, position)


def _end_of(pattern: re.Pattern[str], text: str, start: int = 0) -> int:
    """Where the run of `pattern` at `start` ends; for patterns that also match nothing."""
    match = pattern.match(text, start)
    assert match is not None, "a pattern that matches the empty string matches everywhere"
    return match.end()


def read_jsonl(text: str, result: FileRead) -> Iterator[Entry]:
    """One listing object per line; blank lines are ignored. Lines are parsed only when kept."""
    row = 0
    for number, line in enumerate(_lines(text), start=1):
        if line.strip():
            row += 1
            yield partial(_jsonl_record, row, number, line)


def _lines(text: str) -> Iterator[str]:
    """Only \n ends a line: str.splitlines() would also split on U+2028 and form feeds, which
    are legal inside JSON strings pasted from web pages. One at a time, not a list of all."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1


def _jsonl_record(row: int, number: int, line: str) -> RawRecord | CatalogError:
    data, error = _load_json(line, base_line=number)
    if error:
        return CatalogError(error.message, row=row, line=number)
    return _json_record(row, number, data)


def _load_json(text: str, base_line: int) -> tuple[Any, CatalogError | None]:
    try:
        return load_json(text), None
    except (json.JSONDecodeError, RecursionError) as error:
        return None, _json_problem(error, base_line)


def _json_problem(error: json.JSONDecodeError | RecursionError, base_line: int) -> CatalogError:
    if isinstance(error, RecursionError):
        return CatalogError("The JSON is nested too deeply to be a catalog: use a flat list "
                            "of listings.", line=base_line)
    line = base_line + error.lineno - 1
    return CatalogError(
        f"Invalid JSON on line {line}, column {error.colno}: {error.msg}. Fix the syntax there.",
        line=line,
    )


def _json_record(row: int, line: int | None, item: Any) -> RawRecord:
    if not isinstance(item, dict):
        return RawRecord(row, line, {}, not_an_object=True)
    if isinstance(item.get("listing"), dict):
        fields = {key: value for key, value in item.items() if key != "listing"}
        return RawRecord(row, line, fields | item["listing"], nested=True)
    return RawRecord(row, line, dict(item))


def normalise_column(name: str) -> str:
    """'Item ID', 'item-id' and 'item_id' are one column; so are 'itemId' and 'itemid'."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())
