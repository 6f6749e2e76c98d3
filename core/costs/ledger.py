"""Costs derived from the usage stored with each result: per batch, per page of batches, per
seller per day and for today per provider+model. Prices are looked up when read (core/costs/
prices.py), so a corrected price file corrects every figure; nothing typed is stored.
"""

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from core.costs.prices import price_of
from core.errors import storage_errors
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


@dataclass(frozen=True)
class UsageGroup:
    """Succeeded jobs of one provider+model: how many, how many reported usage, their tokens."""

    provider: str
    model: str
    items: int
    reported: int
    input_tokens: int
    output_tokens: int
    last_at: datetime


@dataclass(frozen=True)
class Cost:
    """USD for some stored usage; None when any part is unknown (a model no price source knows,
    or a priced call whose provider reported no usage): never a guess. `prices_as_of` is the
    oldest date of the prices used (None when no source gave one); `price_sources` name them.
    """

    amount_usd: Decimal | None
    input_tokens: int
    output_tokens: int
    prices_as_of: date | None
    price_sources: tuple[str, ...]

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "amountUsd": None if self.amount_usd is None else float(self.amount_usd),
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "pricesAsOf": None if self.prices_as_of is None else self.prices_as_of.isoformat(),
            "priceSources": list(self.price_sources),
        }

    def describe(self) -> str:
        """One line for people: "$0.0123 (1,234 in / 567 out tokens, prices as of ...)"."""
        tokens = f"{self.input_tokens:,} in / {self.output_tokens:,} out tokens"
        return f"{self.amount_text()} ({tokens}{self._prices()})"

    def amount_text(self) -> str:
        """"$0.0123", or "unknown"."""
        return "unknown" if self.amount_usd is None else f"${self.amount_usd:,.4f}"

    def _prices(self) -> str:
        if self.prices_as_of is not None:
            return f", prices as of {self.prices_as_of.isoformat()} ({', '.join(self.price_sources)})"
        return f", prices from {', '.join(self.price_sources)}" if self.price_sources else ""


@dataclass(frozen=True)
class GroupCost:
    """The cost of one provider+model (of a seller's day, or of today across sellers)."""

    provider: str
    model: str
    cost: Cost


@dataclass(frozen=True)
class DailyCost:
    owner: str
    day: date
    provider: str
    model: str
    cost: Cost


def cost_of(groups: Iterable[UsageGroup], prices_file: Path | None) -> Cost:
    """The summed cost of usage groups; unknown as soon as one group's is."""
    amount: Decimal | None = Decimal(0)
    input_tokens = output_tokens = 0
    dates: list[date] = []
    sources: set[str] = set()
    for group in groups:
        price = price_of(group.provider, group.model, group.last_at, prices_file)
        input_tokens, output_tokens = input_tokens + group.input_tokens, output_tokens + group.output_tokens
        if price is None or (group.reported < group.items and price.charged):
            amount = None
            continue
        amount = None if amount is None else amount + price.cost(group.input_tokens, group.output_tokens)
        sources.add(price.source)
        dates += [price.as_of] if price.as_of else []
    return Cost(amount, input_tokens, output_tokens, min(dates, default=None), tuple(sorted(sources)))


def batch_cost(engine: Engine, owner: str, batch_id: uuid.UUID, prices_file: Path | None) -> Cost:
    """The cost of one batch of `owner` so far (its succeeded items); an unknown or foreign
    batch costs 0 (the caller's summary read reports it as not found).
    """
    return batches_costs(engine, [batch_id], prices_file, owner=owner)[batch_id]


def batches_costs(engine: Engine, batch_ids: list[uuid.UUID], prices_file: Path | None,
                  owner: str | None = None) -> dict[uuid.UUID, Cost]:
    """The cost of each batch of a page, in one query. `owner` None: the caller listed these
    batches for its viewer already (an operator's list of every seller).
    """
    groups: dict[uuid.UUID, list[UsageGroup]] = {batch_id: [] for batch_id in batch_ids}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["batches_usage"], {"batch_ids": batch_ids, "owner": owner})
        for row in rows:
            groups[row.batch_id].append(_group(row))
    return {batch_id: cost_of(found, prices_file) for batch_id, found in groups.items()}


def daily_costs(engine: Engine, since: date, until: date, prices_file: Path | None,
                owner: str | None = None) -> list[DailyCost]:
    """Cost per seller, UTC day, provider and model for the days since..until (exclusive),
    of one seller or of every seller.
    """
    params = {"since": _midnight(since), "until": _midnight(until), "owner": owner}
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["daily_usage"], params).all()
    return [DailyCost(row.owner, row.day, row.provider, row.model, cost_of([_group(row)], prices_file))
            for row in rows]


def costs_today(engine: Engine, prices_file: Path | None) -> list[GroupCost]:
    """Today's (UTC) cost per provider+model across every seller, for the operations page."""
    today = datetime.now(UTC).date()
    by_model: dict[tuple[str, str], list[UsageGroup]] = defaultdict(list)
    params = {"since": _midnight(today), "until": _midnight(today + timedelta(days=1)), "owner": None}
    with storage_errors(), engine.connect() as connection:
        for row in connection.execute(QUERIES["daily_usage"], params):
            by_model[row.provider, row.model].append(_group(row))
    return [GroupCost(provider, model, cost_of(groups, prices_file))
            for (provider, model), groups in sorted(by_model.items())]


def _group(row: Any) -> UsageGroup:
    return UsageGroup(row.provider, row.model, row.items, row.reported, row.input_tokens,
                      row.output_tokens, row.last_at)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)
