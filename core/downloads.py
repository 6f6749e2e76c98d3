"""A batch's downloads by format name, as the CLI, the API and the dashboard serve them: the
file's name, its media type and its bytes as a stream. The files themselves are
core.batches.export's.
"""

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import PureWindowsPath

from sqlalchemy import Engine

from core.batches.export import fixup_csv, open_export, results_csv, results_json
from core.errors import InvalidBatchRequest

DOWNLOAD_FORMATS = ("csv", "json", "fixup")
SUFFIXES = {"csv": "results.csv", "json": "results.json", "fixup": "fixup.csv"}
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json",
               "fixup": "text/csv; charset=utf-8"}
WRITERS = {"csv": results_csv, "json": results_json, "fixup": fixup_csv}
# Characters no common file system takes in a name, and control characters.
UNSAFE_FILE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')
# Room for the date and suffix within the 255 bytes most file systems allow (4 bytes a character).
STEM_MAX = 50


@dataclass(frozen=True)
class Download:
    """A file being read: `chunks` is consumed once; until it is read to the end (or closed or
    dropped) it holds a database connection."""

    file_name: str
    media_type: str
    chunks: Iterator[bytes]


def open_download(engine: Engine, owner: str, batch_id: uuid.UUID, file_format: str,
                  day: date | None = None) -> Download:
    """`csv` and `json`: every item's result; `fixup`: the listings that need work or human
    review, in the seller's own columns. Raises, before any byte is read: InvalidBatchRequest
    for another format, BatchNotFound for unknown or foreign ids, NothingToFix when the fix-up
    file would be empty, StorageUnavailable when the database is down.
    """
    if file_format not in DOWNLOAD_FORMATS:
        raise InvalidBatchRequest(f"format must be one of {', '.join(DOWNLOAD_FORMATS)}.")
    source, chunks = open_export(engine, owner, batch_id, WRITERS[file_format])
    name = download_name(batch_id, file_format, batch_name=source.name, source_name=source.file_name, day=day)
    return Download(name, MEDIA_TYPES[file_format], chunks)


def download_bytes(engine: Engine, owner: str, batch_id: uuid.UUID, file_format: str) -> bytes:
    """The whole file at once, for a download button that needs bytes: call it only when the
    seller asks for the file. Raises as open_download."""
    return b"".join(open_download(engine, owner, batch_id, file_format).chunks)


def download_name(batch_id: uuid.UUID, file_format: str, *, batch_name: str | None,
                  source_name: str | None, day: date | None = None) -> str:
    """`<batch name or file stem>-<YYYY-MM-DD>-results.csv` (`.json`, `-fixup.csv`), safe on
    every common file system; `batch-<first 8 of the id>` when neither name leaves anything.
    The date is the download's (UTC) unless given."""
    stem = _safe_stem(batch_name or "") or _safe_stem(PureWindowsPath(source_name or "").stem)
    day = day or datetime.now(UTC).date()
    return f"{stem or f'batch-{str(batch_id)[:8]}'}-{day:%Y-%m-%d}-{SUFFIXES[file_format]}"


def _safe_stem(text: str) -> str:
    """Unsafe characters replaced, no leading or trailing dots or blanks (hidden files, names
    Windows refuses), at most STEM_MAX characters."""
    return UNSAFE_FILE_NAME.sub("_", text).strip(" .")[:STEM_MAX].strip(" .")
