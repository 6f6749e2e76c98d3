"""A real `listing-review api` process for tests, and a database of a test module's own."""

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from tests.processes import free_port

START_SECONDS = 60



class ApiServer:
    """`python -m cli.main api --port <free>` on `database_url`, with extra environment."""

    def __init__(self, database_url: str, **env: str) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (read until the server stops)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "api", "--port", str(self.port)],
            env=os.environ | {"DATABASE_URL": database_url} | env,
            stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_until_ready()

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=30)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the API exited with {self.process.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.base_url}/openapi.json", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        self.close()
        raise AssertionError("the API did not start in time")


def module_database(server_url: str, template: str) -> Iterator[str]:
    """A clone of the migrated template for a whole test module (one API process serves it)."""
    name = f"lr_api_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {} template {} strategy file_copy").format(
            sql.Identifier(name), sql.Identifier(template)))
    yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    drop_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))


BATCHES = "/api/listings/review-batches"


def post_batch(client: httpx.Client, **request: Any) -> httpx.Response:
    """POST a batch (JSON `json=` or a file `files=`) under a fresh idempotency key."""
    return client.post(BATCHES, headers={"Idempotency-Key": f"k-{uuid.uuid4()}"}, **request)
