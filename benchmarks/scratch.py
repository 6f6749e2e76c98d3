"""A benchmark's own embedded PostgreSQL in a temporary directory, migrated, stopped and removed
at the end (the scratch server every benchmark starts)."""

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core import embedded_postgres, schema
from core.database import make_engine


@contextmanager
def scratch_database(migrated: bool = True) -> Iterator[str]:
    """The URL of a fresh server's database (migrated unless told otherwise)."""
    home = Path(tempfile.mkdtemp()) / "home"
    try:
        url = embedded_postgres.ensure_running(home)
        if migrated:
            engine = make_engine(url)
            schema.upgrade(engine)
            engine.dispose()
        yield url
    finally:
        embedded_postgres.stop(home)
        shutil.rmtree(home.parent, ignore_errors=True)
