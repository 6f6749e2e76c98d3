"""What the batch page shows of economy mode: the mode, and each provider batch's state and
expected completion (issue 17's "the batch page shows the mode, the provider batch state")."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine

from core.errors import storage_errors
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


@dataclass(frozen=True)
class ProviderBatchLine:
    """One provider batch: 'preparing' (being sent), 'submitted' (at the provider), 'cancelling',
    'finished' (its answers are written) or 'refused' (the provider refused it, or its window ran
    out before it was sent: its listings went back to standard mode)."""

    state: str
    provider_batch_id: str | None
    items: int
    submitted_at: datetime | None
    expected_by: datetime | None
    polled_at: datetime | None


@dataclass(frozen=True)
class EconomyStatus:
    mode: str
    provider_batches: tuple[ProviderBatchLine, ...]

    def describe(self) -> str:
        """The batch page's line, e.g. "Economy mode (provider Batch API, within 24 h): 1,000
        listings submitted, expected by 2026-12-01 11:00 UTC"."""
        if not self.provider_batches:
            return "Economy mode (provider Batch API, within 24 h): waiting to be sent."
        parts = [_line_text(line) for line in self.provider_batches]
        return "Economy mode (provider Batch API, within 24 h): " + "; ".join(parts) + "."


def _line_text(line: ProviderBatchLine) -> str:
    if line.state == "refused":
        return f"{line.items:,} listing(s) never sent to the provider, reviewed in standard mode instead"
    text = f"{line.items:,} listing(s) {line.state}"
    if line.state == "submitted" and line.expected_by is not None:
        text += f", expected by {line.expected_by:%Y-%m-%d %H:%M %Z}"
    return text


def economy_status(engine: Engine, owner: str, batch_id: uuid.UUID) -> EconomyStatus | None:
    """The batch's mode and provider batches; None for an unknown or foreign batch.
    Raises StorageUnavailable when the database is down."""
    with storage_errors(), engine.connect() as connection:
        rows = connection.execute(QUERIES["batch_economy_status"],
                                  {"batch_id": batch_id, "owner": owner}).all()
    if not rows:
        return None
    lines = tuple(ProviderBatchLine(row.state, row.provider_batch_id, row.items, row.submitted_at,
                                    row.expected_by, row.polled_at) for row in rows if row.state is not None)
    return EconomyStatus(rows[0].mode, lines)
