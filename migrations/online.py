"""Schema changes that never stall a live system behind a lock queue.

Every DDL statement takes a lock; waiting for it behind a long reader puts every later query
behind the DDL too. So each statement here runs with a short `lock_timeout` and is retried
(with backoff) when the lock is not granted in time, and indexes are built CONCURRENTLY
outside the migration's transaction. Constraints are added NOT VALID (instant) and validated
in a separate statement, which only takes a SHARE UPDATE EXCLUSIVE lock while it scans.
"""

import time
from collections.abc import Callable

from alembic import op
from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

LOCK_TIMEOUT = "2s"
ATTEMPTS = 10
LOCK_NOT_AVAILABLE = "55P03"


def _lock_refused(error: OperationalError) -> bool:
    return getattr(error.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE


def _retrying(step: Callable[[], None], attempts: int = ATTEMPTS) -> None:
    """Run `step` until its lock is granted in time, waiting longer after each refusal."""
    for attempt in range(1, attempts + 1):
        try:
            step()
            return
        except OperationalError as error:
            if not _lock_refused(error) or attempt == attempts:
                raise
            time.sleep(min(0.1 * 2 ** attempt, 5.0))


def execute(sql: str) -> None:
    """One statement inside the migration's transaction, in a savepoint with a lock timeout,
    so a refused lock rolls back only this statement before it is tried again."""
    connection: Connection = op.get_bind()

    def step() -> None:
        with connection.begin_nested():
            connection.exec_driver_sql(f"set local lock_timeout = '{LOCK_TIMEOUT}'")
            connection.exec_driver_sql(sql)

    _retrying(step)


def validate_constraint(table: str, name: str) -> None:
    """`validate constraint` in a transaction of its own, after the migration's earlier
    statements are committed: validated inside the migration's transaction, its scan would run
    under the ACCESS EXCLUSIVE lock an earlier `alter table` of the same transaction holds."""
    _outside_the_transaction(f"alter table {table} validate constraint {name}")


def create_index_concurrently(name: str, definition: str, *, unique: bool = False) -> None:
    """`create [unique] index concurrently <name> <definition>` outside any transaction; a
    build cut short by the lock timeout leaves an invalid index, which is dropped before the
    retry."""
    kind = "unique index" if unique else "index"
    _outside_the_transaction(f"drop index concurrently if exists {name}",
                             f"create {kind} concurrently {name} {definition}")


def _outside_the_transaction(*statements: str) -> None:
    """`statements` in autocommit (the migration's transaction committed first) with a lock
    timeout, all of them again when a lock is refused."""
    with op.get_context().autocommit_block():
        connection: Connection = op.get_bind()

        def step() -> None:
            connection.exec_driver_sql(f"set lock_timeout = '{LOCK_TIMEOUT}'")
            try:
                for statement in statements:
                    connection.exec_driver_sql(statement)
            finally:
                connection.exec_driver_sql("reset lock_timeout")

        _retrying(step)


def drop_index_concurrently(name: str) -> None:
    with op.get_context().autocommit_block():
        op.get_bind().exec_driver_sql(f"drop index concurrently if exists {name}")
