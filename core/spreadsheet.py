"""CSV that is safe to open in a spreadsheet: a cell that would run as a formula is defused.

Used for every CSV a seller downloads (exports, fix-up files, error reports).
"""

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    """CSV (comma, quoted where needed) as UTF-8 with a BOM; every cell through safe_cell."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(name) for name in header])
    writer.writerows([safe_cell(value) for value in row] for row in rows)
    return buffer.getvalue().encode("utf-8-sig")


def safe_cell(value: Any) -> str:
    """Text of a cell; one a spreadsheet would run as a formula is prefixed with `'`."""
    if value is None:
        return ""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
