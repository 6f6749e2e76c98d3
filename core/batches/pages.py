"""A batch's items as a table: keyset pages in a view (filter tab), searched by item id or
title prefix, in position or score order, and how many items each view holds.

Positions never change, so a page is a keyset range, never an OFFSET: reading page 400 of a
10,000-item batch costs what page 1 does. Every query is in items.sql, bounded by one batch.
"""

import base64
import binascii
import re
import unicodedata
import uuid
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Literal, NamedTuple, get_args

from sqlalchemy import Engine

from core.batches.verdicts import GOOD_SCORE_FROM, Verdict, verdict_of
from core.cursors import CURSOR_PATTERN
from core.errors import BatchNotFound, InvalidBatchRequest, storage_errors
from core.listings.draft import ListingDraft
from core.listings.snapshot import decode_snapshot, plain_decimal
from core.sql import queries_beside
from core.timestamps import iso

QUERIES = queries_beside(__file__, "items.sql")
LIMIT_MAX = 100
DEFAULT_LIMIT = 25
SEARCH_MAX = 100

View = Literal["all", "needs_attention", "needs_human_review", "failed", "cancelled", "pending"]
Sort = Literal["position", "score"]
VIEWS: tuple[View, ...] = get_args(View)
SORTS: tuple[Sort, ...] = get_args(Sort)
# Where an item stands (items.sql item_class): its verdict once reviewed, else its job state.
CLASSES = ("good", "needs_work", "needs_human_review", "failed", "cancelled", "queued", "running")
# Each view is a set of classes: the tabs and their counts cannot disagree.
VIEW_CLASSES: dict[View, tuple[str, ...]] = {
    "all": CLASSES,
    "needs_attention": ("needs_work", "needs_human_review", "failed"),
    "needs_human_review": ("needs_human_review",),
    "failed": ("failed",),
    "cancelled": ("cancelled",),
    "pending": ("queued", "running"),
}
# Under score order, items without a score (not reviewed yet, failed, cancelled) come after
# every reviewed one, in position order: their sort key is above any score (0-100).
UNSCORED = 101
BAD_CURSOR = "'cursor' is not a cursor this service returned: pass nextCursor exactly as it came."
_CURSOR_TEXT = re.compile(r"(position|score):(\d{1,3}):(\d{1,6})")


@dataclass(frozen=True)
class BatchItem:
    item_id: str
    job_id: uuid.UUID
    position: int
    status: str
    submitted_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    result: dict[str, Any] | None
    error_code: str | None
    error_message: str | None
    title: str
    listing: ListingDraft

    @property
    def verdict(self) -> Verdict | None:
        return verdict_of(self.result)

    @property
    def score(self) -> int | None:
        return (self.result or {}).get("qualityScore")

    @property
    def human_review(self) -> bool:
        return bool((self.result or {}).get("requiresHumanReview"))

    @property
    def issue_count(self) -> int:
        return len((self.result or {}).get("issues") or [])

    def to_json_dict(self) -> dict[str, Any]:
        """The article's item shape, plus the table's columns and the listing as submitted."""
        error = {"code": self.error_code, "message": self.error_message} if self.error_code else None
        return {
            "itemId": self.item_id,
            "jobId": str(self.job_id),
            "status": self.status,
            "submittedAt": iso(self.submitted_at),
            "startedAt": iso(self.started_at),
            "completedAt": iso(self.completed_at),
            "result": self.result,
            "error": error,
            "position": self.position,
            "title": self.title,
            "verdict": self.verdict,
            "score": self.score,
            "requiresHumanReview": self.human_review,
            "issueCount": self.issue_count,
            "listing": listing_dict(self.listing),
        }


def listing_dict(listing: ListingDraft) -> dict[str, Any]:
    """The listing as JSON with its price as a decimal string, so 45.00 keeps its scale."""
    return {"title": listing.title, "description": listing.description, "category": listing.category,
            "price": plain_decimal(listing.price), "attributes": listing.attributes}


@dataclass(frozen=True)
class ItemsPage:
    """One page; `next_cursor` (any sort) or `next_after` (position order only) fetch the next."""

    batch_id: uuid.UUID
    items: list[BatchItem]
    next_cursor: str | None
    next_after: int | None

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "batchId": str(self.batch_id),
            "items": [item.to_json_dict() for item in self.items],
            "nextAfter": self.next_after,
            "nextCursor": self.next_cursor,
        }


class ItemCursor(NamedTuple):
    """Where a page starts: after (sort key, position). The key is 0 in position order, the
    score (or UNSCORED) in score order."""

    sort: Sort
    key: int
    position: int


def get_items_page(
    engine: Engine, owner: str, batch_id: uuid.UUID, *, view: View = "all", search: str | None = None,
    sort: Sort = "position", cursor: str | None = None, after: int | None = None,
    limit: int = DEFAULT_LIMIT, max_after: int,
) -> ItemsPage:
    """At most `limit` items of `view` whose item id or title starts with `search` (title
    case-insensitively), in `sort` order, after `cursor` (a nextCursor) or, in position order,
    after position `after` (0 = start; at most `max_after`).

    Raises InvalidBatchRequest for an unknown view or sort, a bad search text, a cursor this
    service did not return, or out-of-range paging; BatchNotFound for unknown or foreign ids.
    """
    _check_choices(view, sort, limit)
    start = _start(sort, cursor, after, max_after)
    name, params = _page_query(sort, _search_text(search), start)
    params |= {"owner": owner, "batch_id": batch_id, "good_from": GOOD_SCORE_FROM,
               "classes": list(VIEW_CLASSES[view]), "limit_plus_one": limit + 1}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES[name], params).all()
    if not rows:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return _page(batch_id, sort, [row for row in rows if row.id is not None], limit)


def _check_choices(view: str, sort: str, limit: int) -> None:
    if view not in VIEWS:
        raise InvalidBatchRequest(f"'view' must be one of {', '.join(VIEWS)}.")
    if sort not in SORTS:
        raise InvalidBatchRequest(f"'sort' must be one of {', '.join(SORTS)}.")
    if not 1 <= limit <= LIMIT_MAX:
        raise InvalidBatchRequest(f"'limit' must be between 1 and {LIMIT_MAX}.")


def _start(sort: Sort, cursor: str | None, after: int | None, max_after: int) -> ItemCursor:
    """The page's start; the first page starts below every key and position."""
    if cursor is not None and after is not None:
        raise InvalidBatchRequest("Pass either 'cursor' or 'after', not both.")
    if after is not None:
        if sort != "position":
            raise InvalidBatchRequest("'after' pages in position order only: use 'cursor'.")
        if not 0 <= after <= max_after:
            raise InvalidBatchRequest(f"'after' must be between 0 and {max_after}.")
        return ItemCursor(sort, 0, after)
    if cursor is not None:
        return decode_item_cursor(cursor, sort)
    return ItemCursor(sort, -1 if sort == "score" else 0, 0)


def _search_text(search: str | None) -> str | None:
    """The seller's search text, or None for no search. Bounded, and plain text only: control
    characters are refused, and so is U+10FFFF, the one character no prefix range can end at."""
    text = (search or "").strip()
    if not text:
        return None
    if len(text) > SEARCH_MAX:
        raise InvalidBatchRequest(f"'search' must be at most {SEARCH_MAX} characters.")
    if "\U0010ffff" in text or any(unicodedata.category(char) in ("Cc", "Cs") for char in text):
        raise InvalidBatchRequest("'search' contains control or non-text characters (such as NUL "
                                  "or a tab): type the start of an item id or a title.")
    return text


def _page_query(sort: Sort, search: str | None, start: ItemCursor) -> tuple[str, dict[str, Any]]:
    """Which items.sql block reads the page, with its keyset parameters."""
    if search is not None:
        return "batch_items_search", {"search": search, "by_score": sort == "score",
                                      "after_key": start.key, "after_position": start.position}
    if sort == "position":
        return "batch_items_page", {"after": start.position}
    scored = start.key < UNSCORED
    return "batch_items_by_score", {"after_score": start.key if scored else None,
                                    "after_position": start.position if scored else 0,
                                    "unscored_after": 0 if scored else start.position}


def _page(batch_id: uuid.UUID, sort: Sort, rows: list[Any], limit: int) -> ItemsPage:
    if len(rows) <= limit:
        return ItemsPage(batch_id, [_item(row) for row in rows], None, None)
    last = rows[limit - 1]
    after = last.item_position if sort == "position" else None
    cursor = encode_item_cursor(ItemCursor(sort, last.sort_key, last.item_position))
    return ItemsPage(batch_id, [_item(row) for row in rows[:limit]], cursor, after)


def _item(row: Any) -> BatchItem:
    return BatchItem(
        item_id=row.item_id, job_id=row.id, position=row.item_position, status=row.status,
        submitted_at=row.submitted_at, started_at=row.started_at, completed_at=row.completed_at,
        result=row.result, error_code=row.error_code, error_message=row.error_message,
        title=row.title, listing=decode_snapshot(row.payload),
    )


def encode_item_cursor(start: ItemCursor) -> str:
    """Opaque to clients (base64url of sort, key and position), like core/cursors.py's."""
    raw = f"{start.sort}:{start.key}:{start.position}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_item_cursor(cursor: str, sort: Sort) -> ItemCursor:
    """The start `encode_item_cursor` wrote, for the same sort; anything else (forged, another
    sort's, out of range) is an InvalidBatchRequest, checked by shape first."""
    if not CURSOR_PATTERN.fullmatch(cursor):
        raise InvalidBatchRequest(BAD_CURSOR)
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (ValueError, binascii.Error) as error:  # UnicodeDecodeError is a ValueError
        raise InvalidBatchRequest(BAD_CURSOR) from error
    match = _CURSOR_TEXT.fullmatch(text)
    if match is None or match[1] != sort:
        raise InvalidBatchRequest(BAD_CURSOR)
    key, position = int(match[2]), int(match[3])
    keys = range(0, UNSCORED + 1) if sort == "score" else range(0, 1)
    if key not in keys or position < 1:
        raise InvalidBatchRequest(BAD_CURSOR)
    return ItemCursor(sort, key, position)


@dataclass(frozen=True)
class ItemCounts:
    """How many of a batch's items are in each class; a view's count is the sum of its classes."""

    good: int = 0
    needs_work: int = 0
    needs_human_review: int = 0
    failed: int = 0
    cancelled: int = 0
    queued: int = 0
    running: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in CLASSES)

    def of(self, view: View) -> int:
        return sum(getattr(self, name) for name in VIEW_CLASSES[view])

    def views(self) -> dict[View, int]:
        return {view: self.of(view) for view in VIEWS}

    def to_json_dict(self) -> dict[str, Any]:
        """Each class in camelCase, `total`, and `views` keyed by the `view` parameter's values."""
        classes = {_camel(field.name): getattr(self, field.name) for field in fields(self)}
        return classes | {"total": self.total, "views": self.views()}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def item_counts(engine: Engine, owner: str, batch_id: uuid.UUID) -> ItemCounts:
    """Every class's count in one statement (one snapshot), bounded by the batch's size.
    Raises BatchNotFound for unknown or foreign ids, StorageUnavailable when the database is down.
    """
    params = {"owner": owner, "batch_id": batch_id, "good_from": GOOD_SCORE_FROM}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["item_counts"], params).all()
    if not rows:
        raise BatchNotFound(f"No batch {batch_id} was found for this seller.")
    return ItemCounts(**{row.item_class: row.items for row in rows if row.item_class is not None})


# (singular, plural) of each part of the outcome line, in the order a seller reads them.
_OUTCOME_WORDS = (("good", "good", "good"), ("needs_work", "needs work", "need work"),
                  ("needs_human_review", "needs human review", "need human review"),
                  ("failed", "failed", "failed"), ("cancelled", "cancelled", "cancelled"))


def outcome_line(counts: ItemCounts) -> str:
    """The batch's outcome in a seller's words, e.g. "1,000 listings: 712 good, 201 need work,
    62 need human review, 25 failed, 0 cancelled"; unfinished items add ", N pending"."""
    parts = [f"{getattr(counts, name):,} {one if getattr(counts, name) == 1 else many}"
             for name, one, many in _OUTCOME_WORDS]
    pending = counts.of("pending")
    if pending:
        parts.append(f"{pending:,} pending")
    return f"{counts.total:,} listing{'' if counts.total == 1 else 's'}: {', '.join(parts)}"
