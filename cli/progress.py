"""What `up` says about batches: one line when a batch is accepted, one per tenth done, and one
when it completes with its counts; never a line per listing (those stay in the log).
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.batches.progress import BatchSummary

COMPLETED_STEP = 11  # past the ten tenths: nothing more to say about the batch


@dataclass
class BatchProgress:
    """The last step said per batch, so each is said once however often it is polled."""

    said: dict[uuid.UUID, int] = field(default_factory=dict)

    @classmethod
    def quiet_about(cls, batches: Sequence[BatchSummary]) -> "BatchProgress":
        """Batches that exist when `up` starts are not announced again, only followed."""
        return cls({batch.batch_id: _step(batch) for batch in batches})

    def lines(self, batches: Sequence[BatchSummary]) -> list[str]:
        """What changed since the last call, oldest batch first (`batches` is newest first)."""
        lines: list[str] = []
        for batch in reversed(batches):
            said = self.said.get(batch.batch_id)
            if said is None:
                lines.append(f"Batch {batch.batch_id} accepted: {batch.total} listing(s)"
                             f"{f' from {batch.source_name}' if batch.source_name else ''}.")
                said = 0
            step = _step(batch)
            if step == COMPLETED_STEP and said < COMPLETED_STEP:
                lines.append(f"Batch {batch.batch_id} completed: {batch.succeeded} succeeded, "
                             f"{batch.failed} failed, {batch.cancelled} cancelled.")
            elif said < step < COMPLETED_STEP:
                lines.append(f"Batch {batch.batch_id}: {step * 10}% done ({batch.done} of {batch.total}).")
            self.said[batch.batch_id] = max(said, step)
        return lines


def _step(batch: BatchSummary) -> int:
    if batch.status == "COMPLETED":
        return COMPLETED_STEP
    return batch.done * 10 // batch.total if batch.total else 0
