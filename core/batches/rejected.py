"""The rows a batch left out (submitted with "valid rows only"), as the same problem report a
rejected file gives, for the seller to fix and submit again."""

import uuid

from sqlalchemy import Engine

from core.batches.progress import read_summary
from core.catalogs.records import CatalogError
from core.catalogs.report import error_report_csv
from core.errors import storage_errors
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def rejected_rows_csv(engine: Engine, owner: str, batch_id: uuid.UUID) -> tuple[str, bytes]:
    """(file name, CSV) of the rows left out and their problems: one line per problem, as
    stored at acceptance (at most core.catalogs.check.MAX_REPORTED_ERRORS); only the header when
    the batch left nothing out. Raises BatchNotFound for unknown or foreign ids,
    StorageUnavailable when the database is down.
    """
    with storage_errors(), engine.connect() as connection:
        summary = read_summary(connection, owner, batch_id)
        report = connection.execute(QUERIES["rejected_report"],
                                    {"owner": owner, "batch_id": batch_id}).one().rejected_report
    errors = [CatalogError.from_json_dict(entry) for entry in report or []]
    return f"{summary.display_name}-rejected-rows.csv", error_report_csv(errors)
