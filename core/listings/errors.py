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
    "BUDGET_EXCEEDED": "The budget was reached before this listing was reviewed.",
}
# Worth another attempt later: the provider or our capacity may recover. Invalid output and
# other 4xx answers would fail the same way again.
TRANSIENT_CODES = frozenset(
    {"AI_PROVIDER_UNAVAILABLE", "AI_RATE_LIMITED", "MODEL_TIMEOUT", "MODEL_CAPACITY_UNAVAILABLE"}
)

# What happens next, for the seller reading a failed item: whose side the fault is on and
# what to do. Every code here is the platform's side (the listing itself was accepted as
# valid), so a failed item is never put in the seller's fix-up file: retrying is the remedy.
NEXT_STEPS = {
    "AI_RESPONSE_INVALID": "Our reviewer's answer could not be used (our side, not your listing). "
                           "Retry failed items; contact support if it fails again.",
    "AI_PROVIDER_UNAVAILABLE": "The review service was down after automatic retries (our side). "
                               "Retry failed items later.",
    "AI_RATE_LIMITED": "The review service stayed busy after automatic retries (our side). "
                       "Retry failed items later.",
    "MODEL_TIMEOUT": "The review took too long after automatic retries (our side). "
                     "Retry failed items later.",
    "MODEL_CAPACITY_UNAVAILABLE": "Our review capacity was full after automatic retries (our side). "
                                  "Retry failed items later.",
    "REVIEW_FAILED": "An unexpected error on our side, not in your listing. Retry failed items; "
                     "contact support if it fails again.",
    "EXECUTION_ATTEMPTS_EXHAUSTED": "The review was interrupted too many times (our side). "
                                    "Retry failed items; contact support if it fails again.",
    "BUDGET_EXCEEDED": "Your budget was reached before this listing was reviewed (nothing was charged "
                       "for it). Raise the budget or wait for tomorrow's, then retry the batch.",
}
PLATFORM_SIDE_CODES = frozenset(NEXT_STEPS)


def next_step(code: str) -> str:
    """The seller-facing sentence for a stored error code (unknown codes read as REVIEW_FAILED)."""
    return NEXT_STEPS.get(code, NEXT_STEPS["REVIEW_FAILED"])


class ReviewError(AppError):
    """A model-side failure; `code` is one of SAFE_MESSAGES and `message` is safe to show."""

    def __init__(self, code: str, retry_after: float | None = None) -> None:
        self.code = code if code in SAFE_MESSAGES else "REVIEW_FAILED"
        self.retry_after = retry_after
        super().__init__(SAFE_MESSAGES[self.code])

    @property
    def transient(self) -> bool:
        return self.code in TRANSIENT_CODES
