"""Economy mode's limits and timing, in one place (importing it loads no SDK)."""

from dataclasses import dataclass
from pathlib import Path

# OpenAI takes at most 50,000 requests per batch and an input file of at most 200 MB (a review
# request is ~3 KB; reserve_jobs' estimate keeps to 180 MB).
MAX_REQUESTS = 50_000
MAX_BYTES = 180 * 2**20
# How long the provider may take (its 24 h window) plus an hour of polling slack: the jobs'
# heartbeat is set this far ahead so recovery leaves them to the provider batch.
WINDOW_SECONDS = 25 * 3600.0
# How often the provider may refuse an intent's create (an error answer or none at all) before
# its jobs go back to standard mode: each retry waits a lease plus the poll backoff, so with the
# defaults they go back about 40 minutes after the first refusal, not after the whole window.
MAX_CREATE_REFUSALS = 5


@dataclass(frozen=True)
class EconomyPolicy:
    """Timing of the maintenance step (a pass's lease on what it took, the poll backoff), the
    budgets its claims are checked against (the seller's daily budget, priced with prices_file)
    and how many refused creates an intent is given."""

    lease_seconds: float = 300.0
    first_poll_seconds: float = 30.0
    max_poll_seconds: float = 1800.0
    max_requests: int = MAX_REQUESTS
    daily_budget: float = 0.0
    prices_file: Path | None = None
    max_create_refusals: int = MAX_CREATE_REFUSALS

    def backoff(self, attempts: int) -> float:
        """Doubling from the first poll's wait up to the longest: a day-long batch costs a few
        dozen polls, a quick one is seen soon."""
        return float(min(self.max_poll_seconds, self.first_poll_seconds * 2 ** min(attempts, 20)))
