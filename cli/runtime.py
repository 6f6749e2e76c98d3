"""The composition root: settings -> database -> schema -> engine + queue, for every
entry point (CLI, UI, workers). Core never imports tasks; this is where they meet.
"""

from dataclasses import dataclass

import psycopg
from sqlalchemy import Engine

from core import schema
from core.database import libpq_url, make_engine
from core.errors import STORAGE_MESSAGE, StorageUnavailable, is_storage_failure
from core.settings import Settings, get_settings
from tasks.queue import DramatiqPgQueue


@dataclass(frozen=True)
class Runtime:
    settings: Settings
    database_url: str
    engine: Engine
    queue: DramatiqPgQueue


def open_runtime(settings: Settings | None = None, migrate: bool = True) -> Runtime:
    """Resolve the database (starting the embedded one if needed) and bring its schema up."""
    settings = settings or get_settings()
    try:
        url = libpq_url(settings)
        engine = make_engine(url)
        if migrate:
            schema.upgrade(engine)
    except Exception as error:
        if is_storage_failure(error) or _is_connect_failure(error):
            raise StorageUnavailable(STORAGE_MESSAGE) from None
        raise
    return Runtime(settings, url, engine, DramatiqPgQueue(settings.queue_name))


def _is_connect_failure(error: Exception) -> bool:
    return isinstance(error, psycopg.OperationalError)
