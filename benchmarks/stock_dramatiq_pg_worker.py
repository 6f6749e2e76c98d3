"""`listing-review worker` with dramatiq-pg's stock consumer: the baseline that
worker_pipeline.py compares the product's consumer against. Not used by the product.

The patch sits at module level on purpose: worker processes are spawned, and spawn runs
this module again (as __mp_main__) in each child before it unpickles the worker function.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dramatiq.middleware import default_middleware
from dramatiq.middleware.prometheus import Prometheus
from dramatiq_pg import PostgresBroker
from dramatiq_pg.utils import make_pool

import tasks.worker
from tasks.broker import POOL_HEADROOM


def stock_broker(libpq_url: str, threads: int) -> PostgresBroker:
    pool = make_pool(libpq_url, maxconn=threads + POOL_HEADROOM)
    middleware = [factory() for factory in default_middleware if factory is not Prometheus]
    return PostgresBroker(pool=pool, results=False, middleware=middleware)


tasks.worker.make_broker = stock_broker

if __name__ == "__main__":
    from cli.main import main

    sys.exit(main(["worker"]))
