"""Bringing a database to the schema this code expects (Alembic revisions in `migrations/`)."""

from pathlib import Path

import migrations
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

HEAD = "head"
# Any constant works; it only has to be the same for every process that migrates.
MIGRATION_LOCK_ID = 0x4C52_0001


def alembic_config() -> Config:
    """Alembic's config pointing at the installed `migrations` package, with no ini file."""
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return config


def head_revision() -> str:
    """The newest revision in `migrations/`."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def upgrade(engine: Engine, revision: str = HEAD) -> None:
    """Apply pending revisions; an advisory lock lets many processes start at once safely."""
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
