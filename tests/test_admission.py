"""Admission control on real rows: what counts against a seller's limit and what does not."""

import pytest
from sqlalchemy import Engine, text

from core.batches.acceptance import accept_batch
from core.batches.admission import admit_batch, admit_job
from core.errors import AdmissionLimitExceeded
from core.jobs.standalone import submit_job
from tasks.queue import DramatiqPgQueue
from tests.builders import draft, items

QUEUE = DramatiqPgQueue("q")


def accept(engine: Engine, owner: str, key: str, count: int) -> None:
    accept_batch(engine, QUEUE, owner=owner, key=key, items=items(count), max_items=1000)


def test_a_batch_that_fits_exactly_is_admitted(engine: Engine):
    accept(engine, "seller-a", "k1", 3)
    admit_batch(engine, owner="seller-a", key="k2", incoming=2, limit=5)


def test_a_batch_that_would_pass_the_limit_is_refused(engine: Engine):
    accept(engine, "seller-a", "k1", 3)
    with pytest.raises(AdmissionLimitExceeded, match="3 listings waiting"):
        admit_batch(engine, owner="seller-a", key="k2", incoming=3, limit=5)


def test_finished_jobs_do_not_count(engine: Engine):
    accept(engine, "seller-a", "k1", 3)
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set status = 'FAILED', error_code = 'REVIEW_FAILED', "
                          "started_at = now(), completed_at = now() where owner = 'seller-a'"))
    admit_batch(engine, owner="seller-a", key="k2", incoming=5, limit=5)


def test_other_sellers_jobs_do_not_count(engine: Engine):
    accept(engine, "seller-b", "k1", 5)
    admit_batch(engine, owner="seller-a", key="k1", incoming=5, limit=5)


def test_a_known_key_is_never_refused_because_it_adds_nothing(engine: Engine):
    accept(engine, "seller-a", "k1", 5)
    admit_batch(engine, owner="seller-a", key="k1", incoming=5, limit=5)


def test_standalone_jobs_count_and_are_admitted_by_their_own_keys(engine: Engine):
    submit_job(engine, QUEUE, owner="seller-a", key="j1", draft=draft())
    with pytest.raises(AdmissionLimitExceeded):
        admit_job(engine, owner="seller-a", key="j2", limit=1)
    admit_job(engine, owner="seller-a", key="j1", limit=1)
