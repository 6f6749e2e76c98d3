"""The one review service behind every path (synchronous review and background jobs)."""

import time
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from core.listings import heuristic
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.review import ListingReview

Entrypoint = Literal["sync", "job"]
HEURISTIC_RULES_VERSION = "heuristic-v1"


@dataclass(frozen=True)
class ReviewOutcome:
    """A validated review plus what produced it, stored alongside every result."""

    review: ListingReview
    provider: str
    model: str
    prompt_version: str
    duration_seconds: float

    def to_stored_result(self) -> dict:
        """The jsonb stored in review_jobs.result: the review and its provenance."""
        return {
            **self.review.to_json_dict(),
            "provider": self.provider,
            "model": self.model,
            "promptVersion": self.prompt_version,
        }


def review(draft: ListingDraft, entrypoint: Entrypoint) -> ReviewOutcome:
    """Review one listing; raises ReviewError (safe code) when the provider's answer is unusable.

    `entrypoint` only labels telemetry: sync and job reviews run exactly the same code.
    """
    started = time.perf_counter()
    try:
        result = heuristic.review_listing(draft)
    except ValidationError:
        raise ReviewError("AI_RESPONSE_INVALID") from None
    return ReviewOutcome(
        review=result,
        provider="heuristic",
        model="rules",
        prompt_version=HEURISTIC_RULES_VERSION,
        duration_seconds=time.perf_counter() - started,
    )
