"""Migration 0009 on a database already in use: it fills in what existing rows imply (complete
batches, jobs per status), and it never parks other sessions behind a lock it cannot get
(migrations/online.py: short lock_timeout, retried).
"""

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text

from core import schema
from core.database import make_engine
from tests.test_schema_invariants import CANCELLED, NOW, insert_batch, insert_job

BEFORE = "0008_sellers_and_audit"
FAILED = {"status": "FAILED", "started": NOW, "completed": NOW, "code": "X"}


@pytest.fixture
def at_0008(empty_database_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, BEFORE)
    yield engine
    engine.dispose()


def test_existing_complete_batches_and_job_counts_are_filled_in(at_0008: Engine):
    with at_0008.begin() as conn:
        done, open_ = insert_batch(conn), insert_batch(conn)
        for position, status in enumerate((FAILED, CANCELLED, CANCELLED), start=1):
            insert_job(conn, key=None, batch=done, item=f"i{position}", position=position, **status)
        insert_job(conn, key=None, batch=open_, item="i1", position=1, **FAILED)
        insert_job(conn, key=None, batch=open_, item="i2", position=2)
    schema.upgrade(at_0008)
    with at_0008.connect() as conn:
        rows = {row.id: row for row in conn.execute(text(
            "select id, completed_at, succeeded, failed, cancelled from review_batches"))}
        counts = dict(conn.execute(text(
            "select status, sum(count) from review_job_counts group by status")).all())
    assert (rows[done].completed_at is not None, rows[done].failed, rows[done].cancelled) == (True, 1, 2)
    assert rows[open_].completed_at is None and rows[open_].failed is None
    assert counts == {"FAILED": 2, "CANCELLED": 2, "QUEUED": 1}


def test_a_reader_behind_the_migration_is_not_held_up_by_it(at_0008: Engine):
    """A long reader holds a lock the migration needs. Without a lock timeout the migration's
    ALTER would queue for it, and every later reader would queue behind the ALTER until the
    long reader ends; with it, the ALTER gives up, and the later reader gets through while
    the long reader is still open. The migration finishes once the long reader is done."""
    long_reader = at_0008.connect()
    long_reader.begin()
    long_reader.execute(text("select count(*) from review_batches"))
    migration = threading.Thread(target=lambda: schema.upgrade(at_0008))
    migration.start()
    _wait_for_lock_waiter(at_0008)
    later = threading.Thread(target=lambda: _read_batches(at_0008))
    later.start()
    later.join(timeout=60)
    got_through = not later.is_alive()
    long_reader.rollback()
    long_reader.close()
    migration.join(timeout=120)
    later.join(timeout=60)
    assert got_through, "the later reader waited for the long reader, behind the migration"
    assert schema.current_revision(at_0008) == schema.head_revision()


def _read_batches(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("select count(*) from review_batches")).scalar_one()


def _wait_for_lock_waiter(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT")
        for _ in range(10_000):
            if conn.execute(text("select count(*) from pg_stat_activity "
                                 "where wait_event_type = 'Lock'")).scalar_one():
                return
            conn.execute(text("select pg_sleep(0.01)"))
    raise AssertionError("the migration never waited for the long reader's lock")


def test_migrate_refuses_a_server_older_than_the_sql_needs(engine: Engine):
    from composition.runtime import SchemaNotCurrent, require_server_version

    found = schema.server_version(engine)
    require_server_version(engine)  # the servers the tests run on are new enough
    assert found >= schema.MINIMUM_SERVER_VERSION
    with pytest.raises(SchemaNotCurrent) as refused:
        require_server_version(engine, minimum=found + 10000)
    major = found // 10000
    assert refused.value.args[0] == (f"This PostgreSQL server is version {major}; listing-review needs "
                                     f"{major + 1} or later. Point DATABASE_URL at a newer one.")
