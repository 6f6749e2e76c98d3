"""Worker processes: each runs a Dramatiq Worker over dramatiq-pg; a supervisor restarts any
process that dies, so one crash never stops the others (the dramatiq CLI stops them all).
"""

import logging
import multiprocessing
import signal
import threading
import time
import uuid
from multiprocessing.process import BaseProcess

from dramatiq import Worker

from core.database import make_engine
from core.jobs.execution import JobRunner
from core.jobs.heartbeat import InFlight
from core.jobs.model_slots import ModelSlots
from core.listings.providers.registry import make_provider
from core.logging_setup import configure_logging
from core.settings import Settings
from tasks.actors import declare_actors
from tasks.broker import make_broker
from tasks.metrics import worker_metrics
from tasks.queue import DramatiqPgQueue
from tasks.recovery import start_recovery_loop

log = logging.getLogger(__name__)
PREFETCH_PER_THREAD = 5
RESTART_PAUSE_SECONDS = 1.0


def run_worker_process(settings: Settings, libpq_url: str) -> None:
    """Body of one worker process: consume until SIGTERM/SIGINT, then stop gracefully.

    On stop, in-flight calls get `shutdown_wait` seconds to finish; whatever is still
    running after that stays RUNNING and is recovered by the others once its heartbeat ages.
    The stop handlers come first, so a stop during boot is as graceful as a later one.
    """
    stop = _stop_event()
    _stop_when_supervisor_dies(stop)
    configure_logging(settings.log_format)
    threads = settings.worker_threads + extra_threads(settings.worker_threads)
    engine = make_engine(libpq_url, pool_size=threads + 2)
    queue = DramatiqPgQueue(settings.queue_name)
    runner = JobRunner(engine, queue, make_provider(settings),
                       ModelSlots(settings.worker_threads, settings.model_timeout), settings, InFlight())
    broker = make_broker(libpq_url, threads)
    declare_actors(broker, runner)
    # What the dramatiq CLI does after loading a broker: sets up the Prometheus middleware's
    # metrics (in the supervisor's multiprocess directory) and starts TimeLimit's watchdog.
    broker.emit_after("process_boot")
    worker = Worker(broker, worker_threads=threads)
    # dramatiq-pg's consumer never resets its backoff once it has hit the prefetch limit, then
    # sleeps up to 1 s per wait while threads run dry; a deeper prefetch keeps them fed.
    worker.queue_prefetch = settings.worker_prefetch or settings.worker_threads * PREFETCH_PER_THREAD
    worker.start()
    # One id per process lifetime: the operations page counts live processes by it.
    recovery = start_recovery_loop(engine, queue, runner.in_flight, settings, stop, uuid.uuid4())
    log.info("worker process ready: %d model slot(s), %d thread(s) on queue '%s'",
             settings.worker_threads, threads, settings.queue_name)
    stop.wait()
    runner.slots.stop_waiting()
    worker.stop(timeout=int(settings.shutdown_wait * 1000))
    recovery.join(settings.recovery_interval + 5)
    runner.slots.close()
    runner.calls.close()  # the last second's provider call counts (core/provider_gate/call_tally.py)
    broker.close()


def extra_threads(model_slots: int) -> int:
    """Dramatiq threads beyond the model slots (LISTING_REVIEW_WORKER_THREADS): they claim the
    next jobs, write results and ack while every slot is calling the model, so a slot goes from
    one call to the next without waiting on the database (benchmarks/worker_pipeline.py)."""
    return max(1, model_slots // 4)


def _stop_event() -> threading.Event:
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return stop


def _stop_when_supervisor_dies(stop: threading.Event) -> None:
    """An orphaned worker process would keep taking jobs under a supervisor nobody can stop.

    The spawn context hands each child the read end of a pipe whose write end only the
    supervisor holds; the kernel closes it however the supervisor dies (SIGKILL included),
    on every platform. The child then stops exactly as on SIGTERM.
    """
    supervisor = multiprocessing.parent_process()
    if supervisor is None:
        return

    def watch() -> None:
        supervisor.join()
        log.warning("supervisor %s is gone; this worker process stops", supervisor.pid)
        stop.set()

    threading.Thread(target=watch, name="listing-review-supervisor-watch", daemon=True).start()


def supervise(settings: Settings, libpq_url: str) -> None:
    """Run `worker_processes` workers; restart any that exits until we are told to stop."""
    stop = _stop_event()
    configure_logging(settings.log_format)
    context = multiprocessing.get_context("spawn")
    with worker_metrics(settings, libpq_url) as metrics:
        children = [_spawn(context, settings, libpq_url) for _ in range(settings.worker_processes)]
        while not stop.wait(RESTART_PAUSE_SECONDS):
            for index, child in enumerate(children):
                if not child.is_alive():
                    log.warning("worker process %s exited with %s; restarting", child.pid, child.exitcode)
                    metrics.forget(child.pid)
                    children[index] = _spawn(context, settings, libpq_url)
        _stop_all(children, settings.shutdown_wait)


def _spawn(context, settings: Settings, libpq_url: str) -> BaseProcess:
    child = context.Process(target=run_worker_process, args=(settings, libpq_url), daemon=False)
    child.start()
    return child


def _stop_all(children: list[BaseProcess], shutdown_wait: float) -> None:
    for child in children:
        if child.is_alive():
            child.terminate()
    deadline = time.monotonic() + shutdown_wait + 5
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
