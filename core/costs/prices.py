"""Prices per provider and model: an operator's override file first, then the bundled table
of the `genai-prices` library (kept current by its maintainers), so we keep no hand-written
price list. A model neither knows is unknown: its cost is None, never a guess.
"""

import json
import tomllib
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.listings.providers.offline import HeuristicProvider

PRICE_FILE_MAX_BYTES = 1024 * 1024
# Our provider names that genai-prices knows under another id; the rest are the same.
LIBRARY_PROVIDER_IDS = {"gemini": "google"}
# A provider name ending so is that provider's Batch API (core/economy): priced at genai-prices'
# batch rates (its {'processing': 'batch'} variants); a price from the operator's override file is
# a standard price, so it is multiplied by BATCH_DISCOUNT, OpenAI's documented Batch API price
# (50 % of standard, https://platform.openai.com/docs/guides/batch).
BATCH_SUFFIX = "-batch"
BATCH_DISCOUNT = Decimal("0.5")
BATCH_CONTEXT = {"processing": "batch"}
MillionTokenPrice = Annotated[Decimal, Field(ge=0, le=100_000, allow_inf_nan=False)]


@dataclass(frozen=True)
class Price:
    """USD per million input and output tokens, where they came from, and when they were written
    (None when the source does not say: the library's bundled table carries no date).
    """

    input_per_million: Decimal
    output_per_million: Decimal
    source: str
    as_of: date | None

    @property
    def charged(self) -> bool:
        """False for a free model: its cost is 0 whether or not its calls reported usage."""
        return self.input_per_million > 0 or self.output_per_million > 0

    def cost(self, input_tokens: int, output_tokens: int) -> Decimal:
        return (input_tokens * self.input_per_million + output_tokens * self.output_per_million) / 1_000_000


class _ModelPrice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_per_million: MillionTokenPrice
    output_per_million: MillionTokenPrice


class PriceFile(BaseModel):
    """The override file: `as_of` (the date the prices were written) and
    `prices.<provider>.<model>.{input_per_million, output_per_million}` in USD.
    """

    model_config = ConfigDict(extra="forbid")
    as_of: date
    prices: dict[str, dict[str, _ModelPrice]]

    def price(self, provider: str, model: str) -> Price | None:
        found = self.prices.get(provider, {}).get(model)
        if found is None:
            return None
        return Price(found.input_per_million, found.output_per_million, "price file", self.as_of)


@cache
def read_price_file(path: Path) -> PriceFile:
    """The parsed override file (.json or .toml), read once per process; ValueError says what
    is wrong with it in one line (settings turn that into a start-up error naming the variable).
    """
    try:
        if path.stat().st_size > PRICE_FILE_MAX_BYTES:
            raise ValueError(f"{path} is larger than {PRICE_FILE_MAX_BYTES} bytes")
        raw = path.read_text(encoding="utf-8")
        data = tomllib.loads(raw) if path.suffix.lower() == ".toml" else json.loads(raw)
        return PriceFile.model_validate(data)
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {path}: {type(error).__name__}") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError):
        raise ValueError(f"{path} is not valid {_format(path)}") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"{path}: {where}: {first['msg']} (expected as_of and "
                         "prices.<provider>.<model>.input_per_million/output_per_million)") from None


def _format(path: Path) -> str:
    return "TOML" if path.suffix.lower() == ".toml" else "JSON"


def price_of(provider: str | None, model: str | None, at: datetime, prices_file: Path | None
             ) -> Price | None:
    """The price of a provider+model at `at`: free for the offline heuristic, then the override
    file, then genai-prices; None when none of them knows it, or the stored review does not say
    which model wrote it (results stored before usage was recorded).
    """
    if not provider or not model:
        return None
    if provider == HeuristicProvider.name:
        return Price(Decimal(0), Decimal(0), "no model calls", None)
    if provider.endswith(BATCH_SUFFIX):
        return batch_price(provider.removesuffix(BATCH_SUFFIX), model, at, prices_file)
    if prices_file is not None and (overridden := read_price_file(prices_file).price(provider, model)):
        return overridden
    return library_price(provider, model, at)


def batch_price(provider: str, model: str, at: datetime, prices_file: Path | None) -> Price | None:
    """The Batch API price of a provider+model: the override file's standard price times
    BATCH_DISCOUNT, else genai-prices' batch rate."""
    if prices_file is not None and (overridden := read_price_file(prices_file).price(provider, model)):
        return Price(overridden.input_per_million * BATCH_DISCOUNT,
                     overridden.output_per_million * BATCH_DISCOUNT, overridden.source, overridden.as_of)
    return library_price(provider, model, at, BATCH_CONTEXT)


def library_price(provider: str, model: str, at: datetime,
                  context: dict[str, str] | None = None) -> Price | None:
    """genai-prices' price (imported here: it takes ~0.1 s, and only model-backed results need
    it), in its price `context` if given (batch rates). A tiered price uses its base tier: a
    listing review's prompt is far below any tier.
    """
    from genai_prices import Usage, calc_price

    try:
        found = calc_price(Usage(input_tokens=0, output_tokens=0), model,
                           provider_id=LIBRARY_PROVIDER_IDS.get(provider, provider),
                           genai_request_timestamp=at, price_context=context).model_price
    except LookupError:
        return None
    input_price, output_price = getattr(found, "input_mtok", None), getattr(found, "output_mtok", None)
    if input_price is None or output_price is None:
        return None
    return Price(_base(input_price), _base(output_price), library_source(), None)


def _base(price: object) -> Decimal:
    """A flat price, or a tiered one's base price."""
    return price if isinstance(price, Decimal) else price.base  # type: ignore[attr-defined]


@cache
def library_source() -> str:
    """The library and its version: which bundled table priced a cost."""
    return f"genai-prices {version('genai-prices')}"
