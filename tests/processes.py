"""Real worker processes for tests: start them, kill them, stop them, wait on the database."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable

import psutil
from sqlalchemy import Engine, text

from core.batches.progress import BatchSummary, get_summary

# Generous: a loaded 2-core machine (tests/stress.sh) can take minutes to start PostgreSQL,
# Streamlit and workers; a wait ends as soon as its state is seen, so this costs nothing when fast.
DEADLINE_SECONDS = 240
# The same allowance for one browser step (Playwright waits for the state, then goes on).
BROWSER_STEP_MS = 120_000


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(url: str) -> bool:
    """A GET of `url` answers 200."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def ui_healthy(port: int) -> bool:
    """Streamlit's health endpoint answers ok."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
            return answer.read() == b"ok"
    except OSError:
        return False


class WorkerGroup:
    """`listing-review worker` in its own session, so a kill takes its children with it; its
    output (supervisor and worker processes) goes to a temporary file the test can read.
    """

    def __init__(self, database_url: str, **settings: str) -> None:
        env = os.environ | {"DATABASE_URL": database_url} | settings
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (read until the group is closed)
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env,
                                        start_new_session=True, stdout=self.log,
                                        stderr=subprocess.STDOUT)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def wait_ready(self, processes: int = 1) -> None:
        """Every worker process has said it is ready (its stop handlers are in place by then)."""

        def ready() -> bool:
            assert self.process.poll() is None, f"the worker exited:\n{self.output()[-5_000:]}"
            return self.output().count("worker process ready") >= processes

        wait_for(ready, f"{processes} worker process(es) ready")

    def kill(self) -> None:
        """SIGKILL the supervisor and every worker process: no cleanup of any kind runs."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def terminate(self, timeout: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def close(self) -> None:
        """Kill the whole session: the supervisor and anything it left behind."""
        _kill_session(self.process.pid)
        self.process.wait(10)
        print(f"--- worker group {self.process.pid} output (tail) ---\n{self.output()[-20_000:]}")
        self.log.close()


def _kill_session(session: int) -> None:
    try:
        os.killpg(session, signal.SIGKILL)
    except ProcessLookupError:
        pass


def running(process: psutil.Process) -> bool:
    """Alive and not a zombie waiting for whoever adopted it to reap it."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_for(condition: Callable[[], bool], what: str, seconds: float = DEADLINE_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def server_up_for(engine: Engine, seconds: float) -> bool:
    """Whether the database server has been up longer than `seconds`: a restart counts as every
    running job's heartbeat, so a job is abandoned only once the server outlived the lease."""
    with engine.connect() as conn:
        return conn.execute(text("select pg_postmaster_start_time() < now() - make_interval(secs => :s)"),
                            {"s": seconds}).scalar_one()


def wait_for_summary(engine: Engine, batch_id: uuid.UUID, what: str,
                     condition: Callable[[BatchSummary], bool]) -> BatchSummary:
    found: list[BatchSummary] = []

    def check() -> bool:
        found[:] = [get_summary(engine, "local", batch_id)]
        return condition(found[0])

    wait_for(check, what)
    return found[0]
