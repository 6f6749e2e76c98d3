"""The maintenance step of economy mode: send what waits, then poll what is due. The openai SDK
is imported on the first pass that needs it, so a worker of another provider never loads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from core.economy.policy import EconomyPolicy
from core.jobs.queue import JobQueue
from core.settings import Settings

if TYPE_CHECKING:
    from core.economy.openai_batches import OpenAIBatches
# Provider batches sent and polled per pass at most: bounds how long one pass can take.
PER_PASS = 5
DEFAULT_POLICY = EconomyPolicy()


def economy_step(engine: Engine, queue: JobQueue, settings: Settings,
                 policy: EconomyPolicy = DEFAULT_POLICY) -> Callable[[], None]:
    """The step the worker's maintenance loop runs; a no-op unless the provider is openai (the
    only provider with economy mode so far). The SDK client is built on the first pass."""
    batches: list[OpenAIBatches] = []

    def step() -> None:
        if settings.provider != "openai":
            return
        if not batches:
            from core.economy.openai_batches import OpenAIBatches

            batches.append(OpenAIBatches(settings))
        run_economy_pass(engine, queue, batches[0], policy, settings.max_attempts)

    return step


def run_economy_pass(engine: Engine, queue: JobQueue, batches: OpenAIBatches, policy: EconomyPolicy,
                     max_attempts: int) -> None:
    """Up to PER_PASS sends, then up to PER_PASS polls. Raises what they raise (the loop logs it
    by type and carries on; what failed is taken up again once its lease is over)."""
    from core.economy.poll import poll_next_batch
    from core.economy.submit import send_next_batch

    for _ in range(PER_PASS):
        if not send_next_batch(engine, batches, policy):
            break
    for _ in range(PER_PASS):
        if not poll_next_batch(engine, queue, batches, policy, max_attempts):
            break
