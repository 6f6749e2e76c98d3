"""Metrics of `listing-review worker`: every worker process writes its values to files in one
fresh directory (prometheus_client's multiprocess mode) and the supervisor serves their sum,
plus the backlog read from PostgreSQL at scrape time, on LISTING_REVIEW_WORKER_METRICS_PORT.

Dramatiq's own Prometheus middleware shares the directory: it reads `dramatiq_prom_db` when it
is imported, which in a spawned worker process happens after the supervisor exported it.
"""

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from prometheus_client import CollectorRegistry, multiprocess

from core.database import make_engine
from core.settings import Settings
from core.telemetry import BacklogCollector, ProviderGateCollector, serve_metrics

log = logging.getLogger(__name__)
DIRECTORY_PREFIX = "listing-review-metrics-"


@dataclass(frozen=True)
class WorkerMetrics:
    directory: Path

    def forget(self, pid: int | None) -> None:
        """A worker process exited: drop its gauges (its counters keep counting). Gauges in
        "all" mode (Dramatiq's in-progress gauge) are per process, so their file goes too:
        otherwise every restart would add a stale series."""
        if pid is None:
            return
        multiprocess.mark_process_dead(pid, str(self.directory))
        (self.directory / f"gauge_all_{pid}.db").unlink(missing_ok=True)


@contextmanager
def worker_metrics(settings: Settings, libpq_url: str) -> Iterator[WorkerMetrics]:
    """Export a fresh multiprocess directory to the processes about to be spawned and serve
    what they write; on exit stop serving and delete the directory.

    The directory must be new: files left by an earlier run would be summed in as if live.
    Directories of supervisors that were killed (no cleanup ran) are removed first.
    """
    _remove_orphaned_directories()
    directory = Path(tempfile.mkdtemp(prefix=f"{DIRECTORY_PREFIX}{os.getpid()}-"))
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
    os.environ["dramatiq_prom_db"] = str(directory)  # noqa: SIM112 (dramatiq's own name)
    engine = make_engine(libpq_url, pool_size=1)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(directory))
    registry.register(BacklogCollector(engine, settings.queue_name))
    registry.register(ProviderGateCollector(engine))
    server = serve_metrics(settings.worker_metrics_port, settings.metrics_host, registry)
    try:
        yield WorkerMetrics(directory)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        engine.dispose()
        shutil.rmtree(directory, ignore_errors=True)


def _remove_orphaned_directories() -> None:
    """Metrics directories whose supervisor (the pid in the name) is no longer running."""
    for directory in Path(tempfile.gettempdir()).glob(f"{DIRECTORY_PREFIX}*-*"):
        pid = directory.name.removeprefix(DIRECTORY_PREFIX).split("-")[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(directory, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user
        pass
    return True
