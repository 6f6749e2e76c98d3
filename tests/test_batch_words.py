"""What the batch page says about a batch: its pace (elapsed, listings per minute, time left)
and its state in words."""

import uuid
from datetime import UTC, datetime, timedelta

from core.batches.pace import duration_text, pace_of
from core.batches.progress import BatchSummary
from core.batches.verdicts import batch_state_text

START = datetime(2026, 1, 1, tzinfo=UTC)


def summary(done: int, total: int = 1000, completed_at: datetime | None = None) -> BatchSummary:
    return BatchSummary(uuid.uuid4(), START, completed_at, "c.csv", "csv",
                        "COMPLETED" if completed_at else "RUNNING", total, total - done, 0, done, 0, 0, done)


def test_rate_and_estimate_follow_the_finished_work():
    pace = pace_of(summary(done=400), START + timedelta(minutes=2))
    assert pace.per_minute == 200
    assert pace.remaining == timedelta(minutes=3)
    assert pace.describe() == "2 min 0 s elapsed · 200 listings/min · about 3 min 0 s left"


def test_no_estimate_before_there_is_enough_finished_work():
    pace = pace_of(summary(done=2), START + timedelta(seconds=30))
    assert (pace.per_minute, pace.remaining) == (None, None)
    assert pace.describe() == "30 s elapsed"


def test_a_finished_batch_reports_its_own_duration_and_nothing_left():
    pace = pace_of(summary(done=1000, completed_at=START + timedelta(minutes=5)), START + timedelta(hours=3))
    assert pace.elapsed == timedelta(minutes=5)
    assert pace.remaining is None and pace.per_minute == 200


def test_durations_read_in_the_two_coarsest_units():
    assert [duration_text(timedelta(seconds=s)) for s in (0, 45, 130, 3900)] == \
        ["0 s", "45 s", "2 min 10 s", "1 h 5 min"]


def test_a_completed_batch_names_its_failed_and_cancelled_listings():
    assert batch_state_text("RUNNING", 3, 0) == "Running"
    assert batch_state_text("COMPLETED", 0, 0) == "Completed"
    assert batch_state_text("COMPLETED", 25, 470) == "Completed, 25 failed, 470 cancelled"
    assert batch_state_text("COMPLETED", 0, 1200) == "Completed, 1,200 cancelled"


def test_cancelled_listings_count_neither_as_pace_nor_as_work_left():
    cancelled = BatchSummary(uuid.uuid4(), START, None, "c.csv", "csv", "RUNNING", 1000, 300, 0, 200, 0,
                             cancelled=500, done=700)
    pace = pace_of(cancelled, START + timedelta(minutes=2))
    assert pace.per_minute == 100
    assert pace.remaining == timedelta(minutes=3)
