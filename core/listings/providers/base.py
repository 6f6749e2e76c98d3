"""The provider interface: one small protocol every model backend implements."""

from dataclasses import dataclass
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
