"""Shared rate limits per provider+model, kept in PostgreSQL so every worker process on every
host draws from the same budget (LISTING_REVIEW_RATE_LIMITS, e.g.
`openai:gpt-4.1-mini=500rpm,200000tpm;gemini:gemini-2.5-flash=1000rpm`).

Each limited provider+model has one bucket row (GCRA: a "theoretical arrival time" per limit)
that a delivery reserves a call slot from in one UPDATE, after the gate let it through and
before it claims its job:
- the slot is due within HORIZON_SECONDS: the call takes it, the job is claimed, and the
  thread waits out the (sub-second) rest before calling, so calls leave at the limit's pace;
- otherwise nothing is taken: the job stays QUEUED (no attempt spent) and is sent again with
  a delay, at its place in a line of such jobs spaced one call-period apart, so a backlog
  comes back at the pace it can be served (one extra delivery per job, no polling).
Why re-enqueue rather than park with the gate's waiters: gate waiters are woken all at once
when the provider is back, whereas capacity frees one call-period at a time; a delayed
message per job needs nobody to wake it and survives any worker's death.

The budget is a minute's limit spread over 60 + BURST_SECONDS + JITTER_SECONDS seconds: n
calls the bucket lets through span at least (n - 1) x 61 / limit - BURST_SECONDS seconds, so
even a full burst whose first call reaches the provider JITTER_SECONDS later than its last
never puts more than the limit into any 60 s window of the provider's. Tokens are
estimated before the call (EstimatedTokens) and corrected with the reported usage after.
A 429 with Retry-After on a limited provider+model opens its gate at once (breaker.py).

Functions take the caller's connection and never commit.
"""

import re
import uuid
from dataclasses import dataclass

from sqlalchemy import Connection

from core.sql import queries_beside

QUERIES = queries_beside(__file__)
# Calls may start this much ahead of the even pace (a burst of BURST_SECONDS' worth), which
# also lets calls whose job came back late catch up.
BURST_SECONDS = 0.5
# How much later one call may reach the provider than another sent after it, and still no
# 429 (network, client start-up).
JITTER_SECONDS = 0.5
# The longest a claimed job waits in its thread for its slot.
HORIZON_SECONDS = 1.0
# A minute's limit is spent over this many seconds (see the module docstring).
BUDGET_SECONDS = 60.0 + BURST_SECONDS + JITTER_SECONDS
# Token estimate before a call: the listing at ~4 bytes a token (its stored JSON) plus the
# instructions and response schema (~600 tokens with prompt v2) and an answer (~300).
BYTES_PER_TOKEN = 4.0
FIXED_TOKENS = 900
MAX_REQUESTS_PER_MINUTE = 1_000_000
MAX_TOKENS_PER_MINUTE = 1_000_000_000
_LIMIT = re.compile(r"\s*(\d{1,10})\s*(rpm|tpm)\s*", re.IGNORECASE)
_ENTRY = re.compile(r"\s*([a-z]+)\s*:\s*([^=;\s][^=;]*?)\s*=(.*)", re.DOTALL)
SYNTAX = "write provider:model=N rpm and/or N tpm, entries separated by ';'"


@dataclass(frozen=True)
class RateLimit:
    """A provider+model's limits; either may be None (not limited), never both."""

    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None

    @property
    def request_seconds(self) -> float:
        """Budget seconds one call uses up (0 when requests are not limited)."""
        return BUDGET_SECONDS / self.requests_per_minute if self.requests_per_minute else 0.0

    @property
    def token_seconds(self) -> float:
        """Budget seconds one token uses up (0 when tokens are not limited)."""
        return BUDGET_SECONDS / self.tokens_per_minute if self.tokens_per_minute else 0.0


def parse_rate_limits(text: str, providers: tuple[str, ...]) -> dict[tuple[str, str], RateLimit]:
    """`provider:model=500rpm,200000tpm;...` as limits by (provider, model); raises ValueError
    saying which entry is wrong and how (blank means no limits)."""
    limits: dict[tuple[str, str], RateLimit] = {}
    for number, entry in enumerate((part for part in text.split(";") if part.strip()), start=1):
        key, limit = _parse_entry(entry, number, providers)
        if key in limits:
            raise ValueError(f"entry {number}: {key[0]}:{key[1]} is given twice")
        limits[key] = limit
    return limits


def _parse_entry(entry: str, number: int, providers: tuple[str, ...]) -> tuple[tuple[str, str], RateLimit]:
    match = _ENTRY.fullmatch(entry)
    if match is None:
        raise ValueError(f"entry {number} is not provider:model=limits ({SYNTAX})")
    provider, model, limits = match.groups()
    if provider not in providers:
        raise ValueError(f"entry {number}: unknown provider '{provider}' (one of {', '.join(providers)})")
    if len(model) > 200:
        raise ValueError(f"entry {number}: the model name is over 200 characters")
    return (provider, model), _parse_limits(limits, number)


def _parse_limits(text: str, number: int) -> RateLimit:
    found: dict[str, int] = {}
    for part in text.split(","):
        match = _LIMIT.fullmatch(part)
        if match is None or match.group(2).lower() in found:
            raise ValueError(f"entry {number}: limits must be N rpm and/or N tpm, each once ({SYNTAX})")
        found[match.group(2).lower()] = int(match.group(1))
    limit = RateLimit(found.get("rpm"), found.get("tpm"))
    for value, most, unit in ((limit.requests_per_minute, MAX_REQUESTS_PER_MINUTE, "rpm"),
                              (limit.tokens_per_minute, MAX_TOKENS_PER_MINUTE, "tpm")):
        if value is not None and not 1 <= value <= most:
            raise ValueError(f"entry {number}: {unit} must be between 1 and {most:,}")
    return limit


def rate_limit_for(text: str, providers: tuple[str, ...], provider: str, model: str) -> RateLimit | None:
    """The configured limit of one provider+model (None: not limited)."""
    return parse_rate_limits(text, providers).get((provider, model))


@dataclass(frozen=True)
class Slot:
    """What a reservation found. `reserved`: the call may start after `wait_seconds` (at most
    HORIZON_SECONDS). Otherwise nothing was taken and the job comes back after `wait_seconds`.
    `tokens` is the estimate charged (to refund or reconcile)."""

    reserved: bool
    wait_seconds: float
    tokens: int


def _params(provider: str, model: str, limit: RateLimit, **more: object) -> dict[str, object]:
    return {"provider": provider, "model": model, "request_seconds": limit.request_seconds,
            "token_seconds": limit.token_seconds, **more}


def reserve_call(connection: Connection, provider: str, model: str, limit: RateLimit,
                 job_id: uuid.UUID) -> Slot:
    """Take the next call slot if it is due within the horizon, else a place in the line."""
    params = _params(provider, model, limit, rpm=limit.requests_per_minute, tpm=limit.tokens_per_minute,
                     job_id=job_id, burst=BURST_SECONDS, horizon=HORIZON_SECONDS,
                     bytes_per_token=BYTES_PER_TOKEN, fixed_tokens=FIXED_TOKENS)
    row = connection.execute(QUERIES["reserve_call"], params).first()
    if row is None:
        connection.execute(QUERIES["ensure_rate_limit"], params)
        row = connection.execute(QUERIES["reserve_call"], params).one()
    return Slot(row.reserved, max(0.0, row.wait_seconds), row.tokens)


def refund_call(connection: Connection, provider: str, model: str, limit: RateLimit, slot: Slot) -> None:
    """Give back a reserved slot whose call is not made; same transaction as the reservation."""
    connection.execute(QUERIES["refund_call"], _params(provider, model, limit, tokens=slot.tokens))


def reconcile_tokens(connection: Connection, provider: str, model: str, limit: RateLimit,
                     estimated: int, reported: int) -> None:
    """Charge the reported tokens of a call instead of its estimate."""
    if limit.tokens_per_minute and reported != estimated:
        connection.execute(QUERIES["reconcile_tokens"],
                           _params(provider, model, limit, estimated=estimated, reported=reported))


@dataclass(frozen=True)
class CallCounts:
    """Calls made to a provider+model in the minute starting at `minute` (epoch seconds)."""

    provider: str
    model: str
    minute: int
    calls: int
    rate_limited: int
    tokens: int


def count_calls(connection: Connection, counts: CallCounts) -> None:
    """Add calls (any outcome) to the operations page's counts (call_tally.py sends them)."""
    connection.execute(QUERIES["count_calls"], vars(counts))


def forget_old_call_counts(connection: Connection) -> int:
    """Delete call counts over a day old; how many rows went."""
    return connection.execute(QUERIES["forget_old_call_counts"]).rowcount


@dataclass(frozen=True)
class ProviderRates:
    """One provider+model as the operations page shows it: calls against the limit, 429s, the
    breaker. The minutes are UTC calendar minutes; the current one is still filling."""

    provider: str
    model: str
    calls_this_minute: int
    calls_last_minute: int
    tokens_last_minute: int
    calls_last_hour: int
    rate_limited_last_hour: int
    requests_per_minute: int | None
    tokens_per_minute: int | None
    breaker_state: str


def read_provider_rates(connection: Connection) -> list[ProviderRates]:
    """Every provider+model with a limit, a gate, or calls in the last hour."""
    return [ProviderRates(**row._mapping) for row in connection.execute(QUERIES["provider_rates"])]
