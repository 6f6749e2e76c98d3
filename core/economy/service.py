"""The maintenance step of economy mode: send what waits, then poll what is due. The provider's
SDK is imported on the first pass that needs it, so a worker without economy mode never loads it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from core.economy.mode import ECONOMY_PROVIDERS
from core.economy.policy import EconomyPolicy
from core.jobs.queue import JobQueue
from core.settings import Settings

if TYPE_CHECKING:
    from core.economy.batches_api import ProviderBatches
# Provider batches sent and polled per pass at most: bounds how long one pass can take.
PER_PASS = 5
DEFAULT_POLICY = EconomyPolicy()


def economy_step(engine: Engine, queue: JobQueue, settings: Settings,
                 policy: EconomyPolicy = DEFAULT_POLICY) -> Callable[[], None]:
    """The step the worker's maintenance loop runs; a no-op unless the provider has economy mode
    (mode.ECONOMY_PROVIDERS). The SDK client is built on the first pass; claims are checked
    against the seller's daily budget."""
    batches: list[ProviderBatches] = []
    budgeted = replace(policy, daily_budget=settings.daily_budget, prices_file=settings.prices_file)

    def step() -> None:
        if settings.provider not in ECONOMY_PROVIDERS:
            return
        if not batches:
            batches.append(provider_batches(settings))
        run_economy_pass(engine, queue, batches[0], budgeted, settings.max_attempts)

    return step


def provider_batches(settings: Settings) -> ProviderBatches:
    """The configured provider's Batch API (one of mode.ECONOMY_PROVIDERS)."""
    if settings.provider == "gemini":
        from core.economy.gemini_batches import GeminiBatches

        return GeminiBatches(settings)
    from core.economy.openai_batches import OpenAIBatches

    return OpenAIBatches(settings)


def run_economy_pass(engine: Engine, queue: JobQueue, batches: ProviderBatches, policy: EconomyPolicy,
                     max_attempts: int) -> None:
    """Up to PER_PASS sends, then up to PER_PASS polls. Raises what they raise (the loop logs it
    by type and carries on; what failed is taken up again once its lease is over)."""
    from core.economy.poll import poll_next_batch
    from core.economy.submit import send_next_batch

    for _ in range(PER_PASS):
        if not send_next_batch(engine, queue, batches, policy):
            break
    for _ in range(PER_PASS):
        if not poll_next_batch(engine, queue, batches, policy, max_attempts):
            break
