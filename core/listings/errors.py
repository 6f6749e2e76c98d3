"""Review failures as bounded codes with fixed seller-safe messages (never provider text)."""

from core.errors import AppError

SAFE_MESSAGES = {
    "AI_RESPONSE_INVALID": "The model did not produce a valid review.",
    "AI_PROVIDER_UNAVAILABLE": "The review service is unavailable right now.",
    "AI_RATE_LIMITED": "The review service is busy; the review could not be completed in time.",
    "MODEL_TIMEOUT": "The review exceeded its time limit.",
    "MODEL_CAPACITY_UNAVAILABLE": "Model execution capacity is unavailable.",
    "REVIEW_FAILED": "The review could not be completed.",
    "EXECUTION_ATTEMPTS_EXHAUSTED": "The review was attempted too many times without completing.",
}
# Worth another attempt later: the provider or our capacity may recover. Invalid output and
# other 4xx answers would fail the same way again.
TRANSIENT_CODES = frozenset(
    {"AI_PROVIDER_UNAVAILABLE", "AI_RATE_LIMITED", "MODEL_TIMEOUT", "MODEL_CAPACITY_UNAVAILABLE"}
)


class ReviewError(AppError):
    """A model-side failure; `code` is one of SAFE_MESSAGES and `message` is safe to show."""

    def __init__(self, code: str, retry_after: float | None = None) -> None:
        self.code = code if code in SAFE_MESSAGES else "REVIEW_FAILED"
        self.retry_after = retry_after
        super().__init__(SAFE_MESSAGES[self.code])

    @property
    def transient(self) -> bool:
        return self.code in TRANSIENT_CODES
