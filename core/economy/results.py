"""A provider batch's answers written into the job lifecycle, as the standard mode writes them.

Each answer was validated exactly as a direct call's (the provider's batches module) and is
stored with fenced_succeed/fenced_fail under the token the job was claimed with; a failed,
expired or missing item follows the failure policy: a transient failure with attempts left is
released and sent again in standard mode (a queue message), anything else is stored.

Answers are written in chunks of CHUNK, one transaction each, as they are read from the
provider's stream: memory is bounded by a chunk, not by the provider batch (up to 50,000
items). A crash part-way is safe: the provider batch is still 'submitted', the next poll reads
it again, and the fenced writes skip every job already written.
"""

import uuid
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from sqlalchemy import Connection, Engine

from core.costs.prices import BATCH_SUFFIX
from core.economy.batches_api import Answer
from core.jobs.lifecycle import Attempt, fenced_fail, fenced_release, fenced_succeed
from core.jobs.queue import JobQueue
from core.listings.errors import ReviewError
from core.listings.prompt import PROMPT_VERSION
from core.listings.providers.base import ProviderAnswer
from core.listings.service import ReviewOutcome
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
CHUNK = 500
# What an item the provider never answered failed with: its window ended (expired, or the
# batch was cancelled at the provider) or the provider failed the whole batch.
UNANSWERED = {"expired": "MODEL_TIMEOUT", "cancelled": "MODEL_TIMEOUT"}


class ResultWriter:
    """Where one provider batch's answers go: its jobs, the failure policy's queue, and the
    provider and model the results are stored (and priced) as."""

    def __init__(self, engine: Engine, queue: JobQueue, provider_batch: uuid.UUID, provider: str,
                 model: str, max_attempts: int) -> None:
        self.engine, self.queue, self.provider_batch = engine, queue, provider_batch
        self.provider, self.model, self.max_attempts = provider, model, max_attempts

    def write(self, found: Iterable[tuple[str, Answer]], state: str) -> None:
        """Every answer in chunks, then every job still carried as unanswered in `state`."""
        known = _known(iter(found))
        while chunk := dict(islice(known, CHUNK)):
            with self.engine.begin() as connection:
                rows = connection.execute(QUERIES["carried_jobs_among"],
                                          {"id": self.provider_batch, "ids": list(chunk)})
                self._write_rows(connection, rows, chunk, ReviewError("AI_PROVIDER_UNAVAILABLE"))
        self._write_unanswered(ReviewError(UNANSWERED.get(state, "AI_PROVIDER_UNAVAILABLE")))

    def _write_unanswered(self, error: ReviewError) -> None:
        """Chunk by chunk: each chunk's jobs leave RUNNING, so the next read finds the rest."""
        written = CHUNK
        while written == CHUNK:
            with self.engine.begin() as connection:
                rows = connection.execute(QUERIES["carried_jobs"], {"id": self.provider_batch,
                                                                     "limit": CHUNK}).all()
                self._write_rows(connection, rows, {}, error)
            written = len(rows)

    def _write_rows(self, connection: Connection, rows: Iterable[Any], found: dict[uuid.UUID, Answer],
                    missing: ReviewError) -> None:
        for row in rows:
            attempt = carried_attempt(row)
            answer = found.get(row.id, missing)
            if isinstance(answer, ReviewError):
                self._failed(connection, attempt, answer)
            else:
                fenced_succeed(connection, attempt, self._stored(answer))

    def _stored(self, answer: ProviderAnswer) -> dict[str, Any]:
        """The standard result, its provider marked as the Batch API (core/costs prices it so)."""
        return ReviewOutcome(review=answer.review, provider=self.provider + BATCH_SUFFIX, model=self.model,
                             prompt_version=PROMPT_VERSION, duration_seconds=0.0,
                             input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
                             ).to_stored_result()

    def _failed(self, connection: Connection, attempt: Attempt, error: ReviewError) -> None:
        """The failure policy of the standard mode (execution.JobRunner._spend), without its
        backoff: the provider batch already took hours."""
        if not (error.transient and attempt.attempts < self.max_attempts):
            fenced_fail(connection, attempt, error.code)
        elif fenced_release(connection, attempt):
            self.queue.enqueue(connection, [attempt.job_id])


def carried_attempt(row: Any) -> Attempt:
    """The attempt a job holds in its provider batch, from a carried_jobs(_among) row."""
    return Attempt(row.id, row.token, row.attempts, row.payload, row.submitted_at, row.started_at)


def _known(found: Iterator[tuple[str, Answer]]) -> Iterator[tuple[uuid.UUID, Answer]]:
    """Answers whose key is a job id at all (anything else names no job of ours)."""
    for key, answer in found:
        try:
            yield uuid.UUID(key), answer
        except ValueError:
            continue
