"""The cost ledger's queries on the grown database of test_history_plans (50,000 jobs): a page
of batches reads those batches' jobs through their index, and a day's usage reads that day's
range of review_jobs_completed_idx. Plans, not timings.
"""

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from core.costs.ledger import QUERIES
from tests.grown_history import BIG
from tests.test_history_plans import assert_bounded, grown  # noqa: F401 - the module's fixture

BATCH_INDEXES = {"review_jobs_batch_position_unique", "review_jobs_batch_item_unique"}


def test_a_page_of_batches_reads_only_their_jobs(grown):  # noqa: F811
    engine, history = grown
    with engine.connect() as connection:
        page = [row.id for row in connection.execute(
            text("select id from review_batches where owner = :owner and completed_at is not null "
                 "order by submitted_at desc limit 20"), {"owner": BIG})]
    assert_bounded(engine, QUERIES["batches_usage"], {"batch_ids": page, "owner": None})
    assert_bounded(engine, QUERIES["batches_usage"],
                   {"batch_ids": [history.failed_batch], "owner": BIG})


def test_a_days_usage_reads_that_days_completions(grown):  # noqa: F811
    engine, _ = grown
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    params = {"since": today, "until": today + timedelta(days=1)}
    assert_bounded(engine, QUERIES["daily_usage"], params | {"owner": None}, "review_jobs_completed_idx")
    assert_bounded(engine, QUERIES["daily_usage"], params | {"owner": BIG}, "review_jobs_owner_completed_idx")
