"""Bounded model calls: at most N at once per process, each with a deadline.

A call that outlives its deadline is abandoned (MODEL_TIMEOUT) but keeps its slot until it
really ends, because an SDK call cannot be force-stopped; when every slot is held that way,
new calls fail fast with MODEL_CAPACITY_UNAVAILABLE instead of queueing in memory.
"""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from core.listings.errors import ReviewError

T = TypeVar("T")


class ModelSlots:
    def __init__(self, concurrency: int, timeout: float) -> None:
        self.timeout = timeout
        self._free = threading.BoundedSemaphore(concurrency)
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="review-model")

    def call(self, operation: Callable[[], T]) -> T:
        """Run `operation` on a model thread and wait at most `timeout` seconds for it."""
        if not self._free.acquire(blocking=False):
            raise ReviewError("MODEL_CAPACITY_UNAVAILABLE")
        try:
            future = self._pool.submit(operation)
        except RuntimeError:
            self._free.release()
            raise ReviewError("MODEL_CAPACITY_UNAVAILABLE") from None
        future.add_done_callback(lambda _: self._free.release())
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            future.cancel()
            raise ReviewError("MODEL_TIMEOUT") from None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
