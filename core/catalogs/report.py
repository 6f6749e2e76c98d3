"""The downloadable list of a catalog's problems, for sellers who fix files in a spreadsheet."""

from collections.abc import Sequence

from core.catalogs.records import CatalogError
from core.spreadsheet import csv_bytes

COLUMNS = ("row", "line", "item_id", "field", "message")


def error_report_csv(errors: Sequence[CatalogError]) -> bytes:
    """One line per problem; seller values are defused like every other CSV we hand out."""
    return csv_bytes(COLUMNS, [(e.row, e.line, e.item_id, e.field, e.message) for e in errors])
