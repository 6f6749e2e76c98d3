"""Commands that run the product: up, down, migrate, worker, ui."""

import argparse
import os
import sys
from contextlib import AbstractContextManager, nullcontext
from importlib.util import find_spec
from pathlib import Path
from typing import IO

from core.settings import Settings, get_settings, with_overrides

UI_APP = Path(find_spec("ui").origin).with_name("app.py")  # located without importing the UI


def add_commands(commands: argparse._SubParsersAction) -> None:
    up = commands.add_parser(
        "up", help="Run everything: database, migrations, a worker, the UI and the API.",
        description="Run everything and follow batches here (accepted, every 10%, completed); "
        "Ctrl-C stops all of it. The processes' own log lines go to LISTING_REVIEW_HOME/up.log.")
    up.add_argument("--port", type=int, help="UI port (default LISTING_REVIEW_UI_PORT or 8501)")
    up.add_argument("--verbose", action="store_true",
                    help="show every process's log lines here (each job attempt, requests) "
                    "instead of writing them to up.log")
    up.set_defaults(handler=run_up)
    down = commands.add_parser("down", help="Stop the embedded database.")
    down.set_defaults(handler=run_down)
    migrate = commands.add_parser("migrate", help="Bring the database schema up to date.",
                                  description="Bring the database schema up to date. Read commands "
                                  "(batch, items, job, keys list) never migrate; they ask for this.")
    migrate.set_defaults(handler=run_migrate)
    worker = commands.add_parser("worker", help="Run supervised worker processes.")
    worker.add_argument("--processes", type=int, help="default LISTING_REVIEW_WORKER_PROCESSES (1)")
    worker.add_argument("--threads", type=int, help="model calls at once per process (it runs a quarter more "
                        "threads, at least one, to claim and write around them); default "
                        "LISTING_REVIEW_WORKER_THREADS (2)")
    worker.set_defaults(handler=run_worker)
    ui_command = commands.add_parser("ui", help="Run the Streamlit UI.")
    ui_command.add_argument("--port", type=int, help="default LISTING_REVIEW_UI_PORT (8501)")
    ui_command.add_argument("--host", help="interface to listen on (default LISTING_REVIEW_BIND_ADDRESS, "
                            "127.0.0.1; 0.0.0.0 in a container, which needs sign-in configured)")
    ui_command.set_defaults(handler=run_ui)


def run_migrate(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core import schema

    runtime = open_runtime(migrate=True)
    print(f"Database schema is at {schema.current_revision(runtime.engine)}.")
    return 0


def run_down(args: argparse.Namespace) -> int:
    from core import embedded_postgres

    settings = get_settings()
    if settings.database_url:
        print("DATABASE_URL points at an external database; nothing to stop.")
        return 0
    stopped = embedded_postgres.stop(settings.home)
    print("Embedded database stopped." if stopped else "The embedded database was not running.")
    return 0


def run_worker(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from tasks.worker import supervise

    settings = with_overrides(get_settings(), worker_processes=args.processes,
                              worker_threads=args.threads)
    runtime = open_runtime(settings)
    print(f"Workers: {settings.worker_processes} process(es) x {settings.worker_threads} thread(s) "
          f"on queue '{settings.queue_name}'. Ctrl-C to stop.", flush=True)
    supervise(settings, runtime.database_url)
    return 0


def run_ui(args: argparse.Namespace) -> int:
    from cli import up
    from composition.runtime import open_runtime

    settings = with_overrides(get_settings(), ui_port=args.port, bind_address=args.host)
    runtime = open_runtime(settings)
    stopping = up.Stopping()
    command = ui_command(settings, auth_secrets(settings))
    child = up.start(command, _child_env(runtime.database_url), None, "UI")
    stopped = None
    try:
        stopped = up.wait_any([child], stopping)
    except KeyboardInterrupt:
        pass
    up.stop_all([child], up.STOP_MARGIN_SECONDS)
    return 1 if stopped is not None and stopped.process.returncode else 0


def run_up(args: argparse.Namespace) -> int:
    from cli import up
    from composition.runtime import open_runtime

    settings = with_overrides(get_settings(), ui_port=args.port)
    ui = up.Endpoint("UI", settings.bind_address, settings.ui_port, "--port or LISTING_REVIEW_UI_PORT",
                     "/_stcore/health")
    api = up.Endpoint("API", settings.bind_address, settings.api_port, "LISTING_REVIEW_API_PORT",
                      "/openapi.json")
    for endpoint in (ui, api):
        endpoint.require_free()
    print("Starting the database, a worker, the UI and the API...", flush=True)
    runtime = open_runtime(settings, migrate=True)
    log = None if args.verbose else settings.home / "up.log"
    with _log_file(log) as output:
        env = _child_env(runtime.database_url)
        children = [
            up.start([sys.executable, "-m", "cli.main", "worker"], env, output, "worker"),
            up.start(ui_command(settings, auth_secrets(settings)), env, output, "UI"),
            up.start([sys.executable, "-m", "cli.main", "api", "--host", api.host, "--port", str(api.port)],
                     env, output, "API"),
        ]
        return up.supervise(children, runtime, [ui, api], log)


def ui_command(settings: Settings, secrets_file: Path | None = None) -> list[str]:
    """Streamlit on our interface, port and upload limit: a file over the limit is refused by
    Streamlit itself, before the app receives it.
    """
    return [sys.executable, "-m", "streamlit", "run", str(UI_APP),
            "--server.address", settings.bind_address, "--server.port", str(settings.ui_port),
            "--server.maxUploadSize", str(settings.max_upload_megabytes),
            "--server.headless", "true", "--browser.gatherUsageStats", "false",
            "--client.toolbarMode", "minimal",
            *(["--secrets.files", str(secrets_file)] if secrets_file else [])]


def auth_secrets(settings: Settings) -> Path | None:
    """With OIDC configured, the [auth] file Streamlit reads (written from the settings, the
    only secrets file it is given); in local mode, none.
    """
    if not settings.sign_in:
        return None
    from core.identity.auth_config import write_auth_secrets

    return write_auth_secrets(settings)


def _log_file(path: Path | None) -> AbstractContextManager[IO[bytes] | None]:
    """Appended to across runs; with --verbose, none (children write to this console)."""
    if path is None:
        return nullcontext()
    path.parent.mkdir(parents=True, exist_ok=True)
    return open(path, "ab")


def _child_env(database_url: str) -> dict[str, str]:
    """Children use the database this process resolved, and never start a second one."""
    return os.environ | {"DATABASE_URL": database_url}
