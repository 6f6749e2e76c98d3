"""The review actor: a few lines that hand a job id to core."""

import uuid

import dramatiq
from dramatiq import Broker
from sqlalchemy import Engine

from core.jobs.execution import execute_job
from core.settings import Settings
from tasks.queue import ACTOR_NAME


def declare_actors(broker: Broker, engine: Engine, settings: Settings) -> dramatiq.Actor:
    """Register review_listing on `broker`; done in a function so importing does no I/O.

    Storage failures raise out of execute_job; Dramatiq retries them after
    `storage_retry_delay` (the claim's attempt budget bounds how often the model runs).
    """

    def review_listing(job_id: str) -> None:
        execute_job(engine, uuid.UUID(job_id), settings.max_attempts)

    return dramatiq.actor(
        review_listing,
        broker=broker,
        actor_name=ACTOR_NAME,
        queue_name=settings.queue_name,
        max_retries=1_000_000,
        min_backoff=int(settings.storage_retry_delay * 1000),
        max_backoff=int(settings.storage_retry_delay * 6000),
        time_limit=int((settings.model_timeout + 60) * 1000),
    )
