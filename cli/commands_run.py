"""Commands that run the product: up, down, migrate, worker, ui."""

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import ui
from cli.runtime import open_runtime
from core import embedded_postgres, schema
from core.settings import get_settings, with_overrides
from tasks.worker import supervise

# Children get the workers' shutdown wait plus this margin before they are killed.
STOP_MARGIN_SECONDS = 10


def add_commands(commands: argparse._SubParsersAction) -> None:
    up = commands.add_parser("up", help="Run everything: database, migrations, a worker, the UI and the API.",
                             description="Run everything; Ctrl-C stops all of it.")
    up.add_argument("--port", type=int, help="UI port (default LISTING_REVIEW_UI_PORT or 8501)")
    up.set_defaults(handler=run_up)
    down = commands.add_parser("down", help="Stop the embedded database.")
    down.set_defaults(handler=run_down)
    migrate = commands.add_parser("migrate", help="Bring the database schema up to date.")
    migrate.set_defaults(handler=run_migrate)
    worker = commands.add_parser("worker", help="Run supervised worker processes.")
    worker.add_argument("--processes", type=int, help="default LISTING_REVIEW_WORKER_PROCESSES (1)")
    worker.add_argument("--threads", type=int, help="per process; default LISTING_REVIEW_WORKER_THREADS (2)")
    worker.set_defaults(handler=run_worker)
    ui_command = commands.add_parser("ui", help="Run the Streamlit UI.")
    ui_command.add_argument("--port", type=int, help="default LISTING_REVIEW_UI_PORT (8501)")
    ui_command.set_defaults(handler=run_ui)


def run_migrate(args: argparse.Namespace) -> int:
    runtime = open_runtime()
    print(f"Database schema is at {schema.current_revision(runtime.engine)}.")
    return 0


def run_down(args: argparse.Namespace) -> int:
    settings = get_settings()
    if settings.database_url:
        print("DATABASE_URL points at an external database; nothing to stop.")
        return 0
    stopped = embedded_postgres.stop(settings.home)
    print("Embedded database stopped." if stopped else "The embedded database was not running.")
    return 0


def run_worker(args: argparse.Namespace) -> int:
    settings = with_overrides(get_settings(), worker_processes=args.processes,
                              worker_threads=args.threads)
    runtime = open_runtime(settings)
    print(f"Workers: {settings.worker_processes} process(es) x {settings.worker_threads} thread(s) "
          f"on queue '{settings.queue_name}'. Ctrl-C to stop.", flush=True)
    supervise(settings, runtime.database_url)
    return 0


def run_ui(args: argparse.Namespace) -> int:
    runtime = open_runtime()
    port = args.port or runtime.settings.ui_port
    child = subprocess.Popen(_ui_command(port), env=_child_env(runtime.database_url))
    return _wait_for([child], STOP_MARGIN_SECONDS)


def run_up(args: argparse.Namespace) -> int:
    runtime = open_runtime()
    port = args.port or runtime.settings.ui_port
    env = _child_env(runtime.database_url)
    children = [
        subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env),
        subprocess.Popen(_ui_command(port), env=env),
        subprocess.Popen([sys.executable, "-m", "cli.main", "api"], env=env),
    ]
    print(f"Listing Review is up: http://localhost:{port}  (Ctrl-C stops everything)", flush=True)
    print(f"HTTP API: http://localhost:{runtime.settings.api_port}/docs", flush=True)
    return _wait_for(children, runtime.settings.shutdown_wait + STOP_MARGIN_SECONDS)


def _ui_command(port: int) -> list[str]:
    app = Path(ui.__file__).with_name("app.py")
    return [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port),
            "--server.headless", "true", "--browser.gatherUsageStats", "false",
            "--client.toolbarMode", "minimal"]


def _child_env(database_url: str) -> dict[str, str]:
    """Children use the database this process resolved, and never start a second one."""
    return os.environ | {"DATABASE_URL": database_url}


def _wait_for(children: list[subprocess.Popen], stop_seconds: float) -> int:
    """Until Ctrl-C/SIGTERM or a child exits; then stop every child and wait for them."""
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    failed = any(child.poll() not in (None, 0) for child in children)
    _stop(children, stop_seconds)
    return 1 if failed and not stopping else 0


def _stop(children: list[subprocess.Popen], stop_seconds: float) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + stop_seconds
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
