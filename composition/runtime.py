"""Opening what an entry point needs: the settings, the database (the embedded one is started
on first use), its schema (migrated, or for read-only commands only checked) and the queue.

Heavy packages (Alembic, Dramatiq) are imported only by the entry points that use them, so a
read command pays for neither.
"""

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import psycopg
from sqlalchemy import Engine

import migrations
from core import schema
from core.database import libpq_url, make_engine
from core.errors import STORAGE_MESSAGE, StorageUnavailable, is_storage_failure
from core.jobs.queue import JobQueue
from core.settings import Settings, SettingsError, get_settings


class SchemaNotCurrent(SettingsError):
    """The database's schema is not the one this code expects: a set-up step is missing
    (exit 2 like any configuration error), and the message says which.
    """


@dataclass(frozen=True)
class Runtime:
    settings: Settings
    database_url: str
    engine: Engine

    @cached_property
    def queue(self) -> JobQueue:
        """Made on first use: commands that only read never load Dramatiq."""
        from tasks.queue import DramatiqPgQueue

        return DramatiqPgQueue(self.settings.queue_name)


def open_runtime(settings: Settings | None = None, migrate: bool = False) -> Runtime:
    """Resolve the database and check that its schema is up to date (raises SchemaNotCurrent,
    exit 2, at once: never waiting on a migration's lock). Only `migrate` and `up` pass
    `migrate` to bring the schema up: a migration is an operator's step, not a side effect of
    starting a worker, the UI, the API or a command.
    """
    settings = settings or get_settings()
    try:
        url = libpq_url(settings)
        engine = make_engine(url)
        if migrate:
            require_server_version(engine)
            schema.upgrade(engine)
        else:
            require_current_schema(engine)
    except Exception as error:
        if is_storage_failure(error) or isinstance(error, psycopg.OperationalError):
            raise StorageUnavailable(STORAGE_MESSAGE) from None
        raise
    return Runtime(settings, url, engine)


def expected_revision() -> str:
    """The newest migration: revision ids are the file names in migrations/versions (a test
    holds them equal to Alembic's head), so this needs no Alembic at all.
    """
    versions = Path(migrations.__file__).with_name("versions")
    return max(path.stem for path in versions.glob("[0-9]*.py"))


def require_server_version(engine: Engine, minimum: int = schema.MINIMUM_SERVER_VERSION) -> None:
    """Refuse, before any migration, a server older than the SQL needs (uuidv7() is new in
    PostgreSQL 18), rather than fail at the first retry."""
    found = schema.server_version(engine)
    if found < minimum:
        raise SchemaNotCurrent(f"This PostgreSQL server is version {found // 10000}; listing-review "
                               f"needs {minimum // 10000} or later. Point DATABASE_URL at a newer one.")


def require_current_schema(engine: Engine) -> None:
    current, expected = schema.current_revision(engine), expected_revision()
    if current == expected:
        return
    if current is None or current < expected:
        raise SchemaNotCurrent(f"The database schema is at {current or 'nothing yet'}; this version "
                               f"needs {expected}. Run `listing-review migrate` first.")
    raise SchemaNotCurrent(f"The database schema ({current}) is newer than this version of "
                           f"listing-review knows ({expected}); update listing-review.")
