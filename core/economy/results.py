"""A provider batch's answers written into the job lifecycle, as the standard mode writes them.

Each output line is validated exactly as a direct call's answer (openai_chat.answer_from) and
stored with fenced_succeed/fenced_fail under the token the job was claimed with; a failed,
expired or missing item follows the failure policy: a transient failure with attempts left is
released and sent again in standard mode (a queue message), anything else is stored.
"""

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Connection

from core.costs.prices import BATCH_SUFFIX
from core.jobs.lifecycle import Attempt, fenced_fail, fenced_release, fenced_succeed
from core.jobs.queue import JobQueue
from core.listings.errors import ReviewError
from core.listings.prompt import PROMPT_VERSION
from core.listings.providers.base import ProviderAnswer
from core.listings.providers.openai_chat import answer_from, status_code_error
from core.listings.service import ReviewOutcome
from core.sql import queries_beside

QUERIES = queries_beside(__file__)
# What an item the provider never answered failed with: its window ended (expired, or the
# batch was cancelled at the provider) or the provider failed the whole batch.
UNANSWERED = {"expired": "MODEL_TIMEOUT", "cancelled": "MODEL_TIMEOUT"}
ITEM_ERRORS = {"batch_expired": "MODEL_TIMEOUT", "batch_cancelled": "MODEL_TIMEOUT"}

Answer = ProviderAnswer | ReviewError


def answers(output: Iterable[Any], errors: Iterable[Any]) -> dict[str, Answer]:
    """custom_id -> the validated answer or the bounded error of each line of both files."""
    found: dict[str, Answer] = {}
    for line in [*output, *errors]:
        if isinstance(line, dict) and isinstance(line.get("custom_id"), str):
            found[line["custom_id"]] = _answer(line)
    return found


def _answer(line: dict[str, Any]) -> Answer:
    response, error = line.get("response"), line.get("error")
    if isinstance(error, dict) or not isinstance(response, dict):
        code = error.get("code") if isinstance(error, dict) else None
        return ReviewError(ITEM_ERRORS.get(str(code), "AI_PROVIDER_UNAVAILABLE"))
    if response.get("status_code") != 200:
        return status_code_error(response.get("status_code"))
    return _validated(response.get("body"))


def _validated(body: Any) -> Answer:
    from openai.types.chat import ChatCompletion

    try:
        return answer_from(ChatCompletion.model_validate(body))
    except ReviewError as error:
        return error
    except ValidationError:
        return ReviewError("AI_RESPONSE_INVALID")


def write_answers(connection: Connection, queue: JobQueue, provider_batch: uuid.UUID,
                  found: Mapping[str, Answer], unanswered: str, model: str, max_attempts: int) -> None:
    """Write every job the provider batch still carries: its answer, or `unanswered`."""
    for row in connection.execute(QUERIES["carried_jobs"], {"id": provider_batch}):
        attempt = Attempt(row.id, row.token, row.attempts, row.payload, row.submitted_at, row.started_at)
        answer = found.get(str(row.id), ReviewError(unanswered))
        if isinstance(answer, ReviewError):
            _failed(connection, queue, attempt, answer, max_attempts)
        else:
            fenced_succeed(connection, attempt, _stored(answer, model))


def _stored(answer: ProviderAnswer, model: str) -> dict[str, Any]:
    """The standard result, its provider marked as the Batch API (core/costs prices it so)."""
    return ReviewOutcome(review=answer.review, provider="openai" + BATCH_SUFFIX, model=model,
                         prompt_version=PROMPT_VERSION, duration_seconds=0.0,
                         input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
                         ).to_stored_result()


def _failed(connection: Connection, queue: JobQueue, attempt: Attempt, error: ReviewError,
            max_attempts: int) -> None:
    """The failure policy of the standard mode (execution.JobRunner._spend), without its backoff:
    the provider batch already took hours."""
    if not (error.transient and attempt.attempts < max_attempts):
        fenced_fail(connection, attempt, error.code)
    elif fenced_release(connection, attempt):
        queue.enqueue(connection, [attempt.job_id])
