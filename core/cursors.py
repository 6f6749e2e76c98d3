"""Opaque keyset cursors for pages ordered by (moment, id), such as a seller's batches.

The CLI and the API hand out the same cursor (`nextAfter`) and take it back (`after`), so a
client never builds one and the ordering columns can change without breaking clients.
"""

import base64
import binascii
import re
import uuid
from datetime import datetime

from core.errors import InvalidBatchRequest

# base64url without padding of "<ISO moment>|<uuid>": well under 100 characters.
CURSOR_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,200}")
BAD_CURSOR = "'after' is not a cursor this service returned: pass nextAfter exactly as it came."


def encode_cursor(position: tuple[datetime, uuid.UUID] | None) -> str | None:
    """The cursor of the last row of a page; None (no next page) stays None."""
    if position is None:
        return None
    moment, row_id = position
    return base64.urlsafe_b64encode(f"{moment.isoformat()}|{row_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> tuple[datetime, uuid.UUID] | None:
    """(moment, id) back from `encode_cursor`; None for the first page. Anything else is an
    InvalidBatchRequest, checked by shape first so a huge or odd value costs nothing.
    """
    if cursor is None:
        return None
    if not CURSOR_PATTERN.fullmatch(cursor):
        raise InvalidBatchRequest(BAD_CURSOR)
    try:
        moment, row_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().split("|")
        position = (datetime.fromisoformat(moment), uuid.UUID(row_id))
    except (ValueError, binascii.Error) as error:  # UnicodeDecodeError is a ValueError
        raise InvalidBatchRequest(BAD_CURSOR) from error
    if position[0].tzinfo is None:
        raise InvalidBatchRequest(BAD_CURSOR)
    return position
