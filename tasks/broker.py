"""dramatiq-pg broker construction (no I/O until a connection is first needed)."""

from dramatiq.middleware import default_middleware
from dramatiq_pg.utils import make_pool

from tasks.consumer import ReviewBroker

# dramatiq-pg's default pool (16) loses acks at 16 threads; keep headroom above the threads
# for the consumer, listener and ack connections.
POOL_HEADROOM = 8


def make_broker(libpq_url: str, threads: int) -> ReviewBroker:
    """A PostgresBroker on the app's own database; results are stored by the app, not dramatiq.

    Dramatiq's default middleware includes its Prometheus middleware, whose metrics exist only
    after the `process_boot` hook: emit it before starting a Worker (tasks/worker.py does).
    Its values go to the supervisor's multiprocess directory (tasks/metrics.py).
    """
    pool = make_pool(libpq_url, maxconn=threads + POOL_HEADROOM)
    middleware = [factory() for factory in default_middleware]
    return ReviewBroker(pool=pool, results=False, middleware=middleware)
