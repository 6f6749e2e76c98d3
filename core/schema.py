"""Bringing a database to the schema this code expects (Alembic revisions in `migrations/`).

Alembic is imported by the functions that use it: reading the current revision must stay
cheap for commands that only check it.
"""

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text

import migrations

if TYPE_CHECKING:
    from alembic.config import Config

HEAD = "head"
# Any constant works; it only has to be the same for every process that migrates.
MIGRATION_LOCK_ID = 0x4C52_0001
# server_version_num of PostgreSQL 18: the retry copies jobs with uuidv7() (core/batches/queries.sql).
MINIMUM_SERVER_VERSION = 180000


def alembic_config() -> "Config":
    """Alembic's config pointing at the installed `migrations` package, with no ini file."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return config


def head_revision() -> str:
    """The newest revision in `migrations/`."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError("migrations/ holds no Alembic revision: the package is incomplete.")
    return head


def upgrade(engine: Engine, revision: str = HEAD) -> None:
    """Apply pending revisions; an advisory lock lets many processes start at once safely."""
    from alembic import command

    config = alembic_config()
    with engine.connect() as connection:
        connection.execute(text("select pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK_ID})
        connection.commit()
        try:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
            connection.commit()
        finally:
            connection.execute(text("select pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK_ID})
            connection.commit()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None before the first migration."""
    with engine.connect() as connection:
        exists = connection.execute(text("select to_regclass('alembic_version')")).scalar()
        if exists is None:
            return None
        return connection.execute(text("select version_num from alembic_version")).scalar()


def server_version(engine: Engine) -> int:
    """The server's version as a number (180001 is 18.1)."""
    with engine.connect() as connection:
        return int(connection.execute(text("select current_setting('server_version_num')")).scalar_one())
