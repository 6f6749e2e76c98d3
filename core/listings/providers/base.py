"""The provider interface: one small protocol every model backend implements, and the one
reading of a provider's Retry-After that every backend (and the job layer's pauses) share.
"""

import email.utils
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from core.listings.draft import ListingDraft
from core.listings.review import ListingReview


@dataclass(frozen=True)
class ProviderAnswer:
    """A validated review plus the token usage the provider reported (None when it did not)."""

    review: ListingReview
    input_tokens: int | None = None
    output_tokens: int | None = None


class ReviewProvider(Protocol):
    """Review one listing within `timeout` seconds.

    Implementations raise core.listings.errors.ReviewError with a bounded code (and
    `retry_after` when the provider said when to come back); they never let provider text,
    prompts or SDK exceptions escape.
    """

    name: str
    model: str
    prompt_version: str

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer: ...


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds a provider asked us to wait: `retry-after-ms`, else `Retry-After` as seconds or
    an HTTP date (0 once it has passed). None when absent or unreadable, so the job layer uses
    its own backoff. Header names are matched case-insensitively, whatever mapping is given.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    millis = _seconds(lowered.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000
    value = lowered.get("retry-after")
    seconds = _seconds(value)
    return seconds if seconds is not None else _seconds_until(value)


def _seconds(text: str | None) -> float | None:
    """A finite, non-negative number, else None."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _seconds_until(http_date: str | None) -> float | None:
    """Seconds from now until an HTTP date (0 if it already passed); zone-less means UTC."""
    try:
        moment = email.utils.parsedate_to_datetime(http_date) if http_date else None
    except (TypeError, ValueError):
        return None
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())
