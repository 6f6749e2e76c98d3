"""The one review service behind every path (synchronous review and background jobs)."""

import logging
import time
from dataclasses import dataclass
from typing import Any, Literal

from core import telemetry
from core.listings.draft import ListingDraft
from core.listings.errors import ReviewError
from core.listings.providers.base import ProviderAnswer, ReviewProvider
from core.listings.review import ListingReview

Entrypoint = Literal["sync", "job"]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReviewOutcome:
    """A validated review plus what produced it, stored alongside every result."""

    review: ListingReview
    provider: str
    model: str
    prompt_version: str
    duration_seconds: float
    input_tokens: int | None = None
    output_tokens: int | None = None

    def to_stored_result(self) -> dict[str, Any]:
        """The jsonb stored in review_jobs.result: the review and its provenance."""
        usage = {"inputTokens": self.input_tokens, "outputTokens": self.output_tokens}
        return {
            **self.review.to_json_dict(),
            "provider": self.provider,
            "model": self.model,
            "promptVersion": self.prompt_version,
            "usage": usage if self.input_tokens is not None else None,
        }


def review(
    draft: ListingDraft, entrypoint: Entrypoint, provider: ReviewProvider, timeout: float
) -> ReviewOutcome:
    """Review one listing; raises ReviewError (a bounded, safe code) when it cannot.

    `entrypoint` only labels telemetry: sync and job reviews run exactly the same code.
    An unexpected exception inside a provider is a bug there; it becomes REVIEW_FAILED
    (logged by type only) so no provider text reaches a seller.
    """
    started = time.perf_counter()
    with telemetry.observe_feature(entrypoint, provider.name):
        try:
            answer: ProviderAnswer = provider.review(draft, timeout)
        except ReviewError:
            raise
        except Exception as error:
            log.error("provider %s raised %s", provider.name, type(error).__name__)
            raise ReviewError("REVIEW_FAILED") from None
    telemetry.count_model_tokens(provider.name, provider.model, answer.input_tokens,
                                 answer.output_tokens)
    return ReviewOutcome(
        review=answer.review, provider=provider.name, model=provider.model,
        prompt_version=provider.prompt_version, duration_seconds=time.perf_counter() - started,
        input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
    )
