"""A batch's downloads by format name, as the CLI and the API serve them: the bytes, their
media type and a file name. The files themselves are core.batches.export's.
"""

import uuid
from dataclasses import dataclass

from sqlalchemy import Engine

from core.batches.export import export_csv, export_json, export_rows, fixup_file
from core.errors import InvalidBatchRequest

DOWNLOAD_FORMATS = ("csv", "json", "fixup")


@dataclass(frozen=True)
class Download:
    file_name: str
    media_type: str
    data: bytes


def batch_download(engine: Engine, owner: str, batch_id: uuid.UUID, file_format: str) -> Download:
    """`csv` and `json`: every item's result; `fixup`: the failed and low-scoring listings in
    the seller's own columns. Raises BatchNotFound for unknown or foreign ids,
    StorageUnavailable when the database is down; InvalidBatchRequest for another format.
    """
    if file_format not in DOWNLOAD_FORMATS:
        raise InvalidBatchRequest(f"format must be one of {', '.join(DOWNLOAD_FORMATS)}.")
    if file_format == "fixup":
        name, data = fixup_file(engine, owner, batch_id)
        return Download(name, "text/csv; charset=utf-8", data)
    rows = export_rows(engine, owner, batch_id)
    if file_format == "csv":
        return Download(f"batch-{batch_id}-results.csv", "text/csv; charset=utf-8", export_csv(rows))
    return Download(f"batch-{batch_id}-results.json", "application/json", export_json(rows))
