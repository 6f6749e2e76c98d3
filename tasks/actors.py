"""The review actor: a few lines that hand a job id to core."""

import uuid

import dramatiq
from dramatiq import Broker

from core.jobs.execution import JobRunner
from tasks.queue import ACTOR_NAME

# Dramatiq's own time limit sits above a delivery's longest path (core/jobs/execution.py): a wait
# for a model slot, then a job of another seller run in its place (another wait and the call),
# each at most model_timeout; so only a hung storage call (never a slow model, which ModelSlots
# abandons at its deadline) is ever interrupted.
TIME_LIMIT_MARGIN_SECONDS = 60


def declare_actors(broker: Broker, runner: JobRunner) -> dramatiq.Actor:
    """Register review_listing on `broker`; done in a function so importing does no I/O.

    Storage failures raise out of the runner and Dramatiq retries them after
    `storage_retry_delay` (exponential, at most 6x); the claim's attempt budget, not
    Dramatiq's retry count, bounds how often the model runs.
    """
    settings = runner.settings

    def review_listing(job_id: str) -> None:
        runner.execute(uuid.UUID(job_id))

    return dramatiq.actor(
        review_listing,
        broker=broker,
        actor_name=ACTOR_NAME,
        queue_name=settings.queue_name,
        max_retries=1_000_000,
        min_backoff=int(settings.storage_retry_delay * 1000),
        max_backoff=int(settings.storage_retry_delay * 6000),
        time_limit=int((3 * settings.model_timeout + TIME_LIMIT_MARGIN_SECONDS) * 1000),
    )
