"""What a listing's review means for the seller, kept apart from the job's state.

A job that finished is "Done" whatever its review said; the verdict says what the seller
should do with the listing. Every interface (pages, exports, filters, the fix-up file) takes
the words and the cut-off from here, and SQL that filters by verdict takes GOOD_SCORE_FROM as
a bind parameter rather than restating it.
"""

from typing import Any, Literal

# A review scoring at least this (and not asking for a person) is good as it is.
GOOD_SCORE_FROM = 60

Verdict = Literal["good", "needs_work", "needs_human_review"]
VERDICT_WORDS: dict[Verdict, str] = {
    "good": "Good",
    "needs_work": "Needs work",
    "needs_human_review": "Needs human review",
}
STATE_WORDS = {"QUEUED": "Queued", "RUNNING": "Running", "SUCCEEDED": "Done", "FAILED": "Failed",
               "CANCELLED": "Cancelled"}
VERDICT_RULE = (f"Good: score {GOOD_SCORE_FROM} or more and no human review asked for. "
                f"Needs work: score below {GOOD_SCORE_FROM}. Needs human review: the reviewer asked "
                "for a person to check the listing, whatever its score.")


def verdict_of(result: dict[str, Any] | None) -> Verdict | None:
    """The verdict of a stored review (None when there is no review)."""
    if not result:
        return None
    if result.get("requiresHumanReview"):
        return "needs_human_review"
    score = result.get("qualityScore")
    return "needs_work" if isinstance(score, int) and score < GOOD_SCORE_FROM else "good"


def state_word(status: str) -> str:
    """The job state as a seller reads it (a finished review is Done, not "SUCCEEDED")."""
    return STATE_WORDS.get(status, status.title())


def batch_state_text(status: str, failed: int, cancelled: int) -> str:
    """'Running', or 'Completed, 25 failed, 470 cancelled': a batch with failed or cancelled
    listings never reads as just "Completed"."""
    if status != "COMPLETED":
        return status.title()
    counted = ((failed, "failed"), (cancelled, "cancelled"))
    left_out = [f"{count:,} {word}" for count, word in counted if count]
    return ", ".join(["Completed", *left_out])
