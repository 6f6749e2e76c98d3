"""`listing-review up`: run the worker, the UI and the API as child processes; say "is up" only
once the UI and the API answer; then follow batches on the console until Ctrl-C/SIGTERM or
until a child stops, and stop them all.

The children's own lines (every job attempt, Streamlit's banner, API requests) go to a log
file, or to this console with `--verbose`.
"""

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cli.progress import BatchProgress
from composition.runtime import Runtime
from core.errors import StorageUnavailable
from core.settings import SettingsError

START_SECONDS = 120
POLL_SECONDS = 0.25
FOLLOW_SECONDS = 1.0
# Children get the workers' shutdown wait plus this margin before they are killed.
STOP_MARGIN_SECONDS = 10
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class Child:
    name: str
    process: subprocess.Popen


@dataclass(frozen=True)
class Endpoint:
    """A port a child will listen on, the setting that chose it, and the path that answers
    200 once the child serves requests.
    """

    name: str
    host: str
    port: int
    variable: str
    probe: str

    def require_free(self) -> None:
        """Exit 2 naming the port and who holds it, before anything is started."""
        if not _can_bind(self.host, self.port):
            raise SettingsError(f"Port {self.port} for the {self.name} ({self.variable}) is already in "
                                f"use by {listener_of(self.port)}. Stop it, or choose another port.")

    @property
    def url(self) -> str:
        """Where this machine reaches it (a wildcard address is reached on loopback)."""
        host = "localhost" if self.host in WILDCARD_HOSTS or self.host == "127.0.0.1" else self.host
        return f"http://{host}:{self.port}"

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + self.probe, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False


def _can_bind(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        # As the servers themselves bind: a closed connection in TIME_WAIT does not count.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def listener_of(port: int) -> str:
    """'process PID (command line)' listening on `port`, as far as this user may see."""
    import psutil

    try:
        pids = {conn.pid for conn in psutil.net_connections("inet")
                if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN}
        pid = next(pid for pid in pids if pid)
        return f"process {pid} ({' '.join(psutil.Process(pid).cmdline())})"
    except (StopIteration, psutil.Error):
        return "another process (not visible to this user)"


class Stopping:
    """Set by SIGTERM (Ctrl-C arrives as KeyboardInterrupt)."""

    def __init__(self) -> None:
        self.requested = False
        signal.signal(signal.SIGTERM, lambda *_: setattr(self, "requested", True))


def start(command: list[str], env: dict[str, str], output: IO[bytes] | None, name: str) -> Child:
    return Child(name, subprocess.Popen(command, env=env, stdout=output,
                                        stderr=subprocess.STDOUT if output else None))


def first_stopped(children: list[Child]) -> Child | None:
    return next((child for child in children if child.process.poll() is not None), None)


def wait_any(children: list[Child], stopping: Stopping) -> Child | None:
    """Until SIGTERM (None) or a child stops (returned)."""
    while not stopping.requested and first_stopped(children) is None:
        time.sleep(POLL_SECONDS)
    return first_stopped(children)


def supervise(children: list[Child], runtime: Runtime, endpoints: list[Endpoint], log: Path | None) -> int:
    """Exit status 0 when stopped on purpose (Ctrl-C, SIGTERM); 1 when a child stopped by
    itself or the endpoints did not answer in time. Every child is stopped either way.
    """
    stopping = Stopping()
    try:
        status = _run(children, runtime, endpoints, log, stopping)
    except KeyboardInterrupt:
        status = 0
    stop_all(children, runtime.settings.shutdown_wait + STOP_MARGIN_SECONDS)
    return status


def _run(children: list[Child], runtime: Runtime, endpoints: list[Endpoint], log: Path | None,
         stopping: Stopping) -> int:
    if not wait_until_ready(children, lambda: all(endpoint.answers() for endpoint in endpoints), stopping):
        return _not_started(children, log, stopping)
    links = ", ".join(f"{endpoint.url}{'/docs' if endpoint.name == 'API' else ''} ({endpoint.name})"
                      for endpoint in endpoints)
    print(f"Listing Review is up: {links}. Ctrl-C stops everything.", flush=True)
    if log:
        print(f"Log lines of the worker, UI and API: {log} (--verbose shows them here).", flush=True)
    stopped = follow(children, runtime, stopping)
    if stopped is None:
        return 0
    report_stopped(stopped, log)
    return 1


def _not_started(children: list[Child], log: Path | None, stopping: Stopping) -> int:
    stopped = first_stopped(children)
    if stopped is not None:
        report_stopped(stopped, log)
        return 1
    if stopping.requested:
        return 0
    print(f"The UI and API did not answer within {START_SECONDS} s; stopping.", file=sys.stderr)
    return 1


def wait_until_ready(children: list[Child], ready: Callable[[], bool], stopping: Stopping) -> bool:
    """True once `ready()`; False if a child stops, SIGTERM arrives or START_SECONDS pass."""
    deadline = time.monotonic() + START_SECONDS
    while not stopping.requested and first_stopped(children) is None and time.monotonic() < deadline:
        if ready():
            return True
        time.sleep(POLL_SECONDS)
    return False


def follow(children: list[Child], runtime: Runtime, stopping: Stopping) -> Child | None:
    """Print batch progress until SIGTERM or a child stops (returned)."""
    progress = BatchProgress.quiet_about(_batches(runtime))
    while not stopping.requested and first_stopped(children) is None:
        for line in progress.lines(_batches(runtime)):
            print(line, flush=True)
        time.sleep(FOLLOW_SECONDS)
    return first_stopped(children)


def _batches(runtime: Runtime) -> list:
    """The newest batches of this installation's seller (LISTING_REVIEW_OWNER)."""
    from core.batches.recent import list_batches

    try:
        return list_batches(runtime.engine, runtime.settings.owner).items
    except StorageUnavailable:  # the children report it; the console keeps following
        return []


def report_stopped(child: Child, log: Path | None) -> None:
    where = f"; its output is in {log}" if log else ""
    print(f"The {child.name} stopped unexpectedly (exit {child.process.returncode}){where}.",
          file=sys.stderr, flush=True)


def stop_all(children: list[Child], stop_seconds: float) -> None:
    for child in children:
        if child.process.poll() is None:
            child.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + stop_seconds
    for child in children:
        try:
            child.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()
