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


@dataclass(frozen=True)
class EconomyPolicy:
    """Timing of the maintenance step (a pass's lease on what it took, the poll backoff) and the
    budgets its claims are checked against (the seller's daily budget, priced with prices_file)."""

    lease_seconds: float = 300.0
    first_poll_seconds: float = 30.0
    max_poll_seconds: float = 1800.0
    max_requests: int = MAX_REQUESTS
    daily_budget: float = 0.0
    prices_file: Path | None = None
