"""How fast a batch is going and when it should be done, from its summary alone (no extra
query): elapsed time since submission, listings reviewed per minute (cancelled ones took no
work), and an estimate of the time left for the queued and running ones at that pace."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from core.batches.progress import BatchSummary

# Too little finished work makes a rate (and an estimate) noise: say nothing until then.
MIN_DONE_FOR_ESTIMATE = 3


@dataclass(frozen=True)
class Pace:
    elapsed: timedelta
    per_minute: float | None
    remaining: timedelta | None

    def describe(self) -> str:
        """'2 min 10 s elapsed · 340 listings/min · about 40 s left' (parts known so far)."""
        parts = [f"{duration_text(self.elapsed)} elapsed"]
        if self.per_minute is not None:
            parts.append(f"{self.per_minute:,.0f} listings/min")
        if self.remaining is not None:
            parts.append(f"about {duration_text(self.remaining)} left")
        return " · ".join(parts)


def pace_of(summary: BatchSummary, now: datetime) -> Pace:
    """The pace until `now`, or until completion for a finished batch (nothing left then)."""
    end = summary.completed_at or now
    elapsed = max(end - summary.submitted_at, timedelta(0))
    minutes = elapsed.total_seconds() / 60
    if summary.done < MIN_DONE_FOR_ESTIMATE or minutes <= 0:
        return Pace(elapsed, None, None)
    reviewed = summary.succeeded + summary.failed  # cancelled listings took no work
    if reviewed < MIN_DONE_FOR_ESTIMATE:
        return Pace(elapsed, None, None)
    per_minute = reviewed / minutes
    left = summary.queued + summary.running
    remaining = None if summary.completed_at else timedelta(minutes=left / per_minute)
    return Pace(elapsed, per_minute, remaining)


def duration_text(duration: timedelta) -> str:
    """'45 s', '2 min 10 s', '1 h 5 min': whole units, coarsest two."""
    seconds = round(duration.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
