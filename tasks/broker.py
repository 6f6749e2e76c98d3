"""dramatiq-pg broker construction (no I/O until a connection is first needed)."""

from dramatiq.middleware import default_middleware
from dramatiq.middleware.prometheus import Prometheus
from dramatiq_pg.utils import make_pool

from tasks.consumer import ReviewBroker

# dramatiq-pg's default pool (16) loses acks at 16 threads; keep headroom above the threads
# for the consumer, listener and ack connections.
POOL_HEADROOM = 8


def make_broker(libpq_url: str, threads: int) -> ReviewBroker:
    """A PostgresBroker on the app's own database; results are stored by the app, not dramatiq.

    Dramatiq's Prometheus middleware is left out: it only works when booted by the dramatiq
    CLI (its metrics are set up in a process-boot hook our worker does not run).
    """
    pool = make_pool(libpq_url, maxconn=threads + POOL_HEADROOM)
    middleware = [factory() for factory in default_middleware if factory is not Prometheus]
    return ReviewBroker(pool=pool, results=False, middleware=middleware)
