"""CSV that is safe to open in a spreadsheet, whichever separator the spreadsheet splits on.

Used for every CSV a seller downloads (exports, fix-up files, error reports). A spreadsheet runs
a field that starts with = + - @ (or their full-width forms, which some locales fold into
them) as a formula. Quoting every text cell is not enough: a spreadsheet set to `;` (Excel's
default in many locales), tab or `|` splits our quoted comma cells too, and its quote
tracking can differ from ours, so a field may start after any of those characters or a line
break inside a cell. Every formula character that could begin a field under some separator
therefore gets a `'` in front, as does a cell starting with a tab or carriage return.
"""

import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

FORMULA_CHARACTERS = "=+-@＝＋－＠"
SEPARATORS = ",;\t|\r\n"
# Where a field can start (a cell's start or after a separator), then blanks and double quotes,
# which do not stop a formula, then a formula character.
FIELD_FORMULA = re.compile(rf'(^|[{SEPARATORS}])([\s"]*)(?=[{re.escape(FORMULA_CHARACTERS)}])')
BLANK_STARTS = ("\t", "\r")


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    """CSV (comma, every text cell quoted) as UTF-8 with a BOM; every cell through safe_cell."""
    return b"".join(csv_chunks(header, [rows]))


def csv_chunks(header: Sequence[str], chunks: Iterable[Iterable[Sequence[Any]]]) -> Iterator[bytes]:
    """csv_bytes a chunk of rows at a time, for files streamed in constant memory: the BOM and
    the header first, then one piece per chunk (the pieces joined are csv_bytes' file)."""
    yield _csv_text([header]).encode("utf-8-sig")
    for rows in chunks:
        yield _csv_text(rows).encode("utf-8")


def _csv_text(rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerows([safe_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def safe_cell(value: Any) -> str | int | float:
    """A number as is (written unquoted); anything else as text with every place a spreadsheet
    could start a formula defused by a `'`."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if value is None:
        return ""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    text = "'" + text if text.startswith(BLANK_STARTS) else text
    return FIELD_FORMULA.sub(r"\1\2'", text)
