"""Bounded model calls: at most N at once per process, each with a deadline.

A slot is reserved before the job is claimed, so a job is never charged an attempt when no
model thread is free. A call that outlives its deadline is abandoned (MODEL_TIMEOUT) but
keeps its slot until it really ends, because an SDK call cannot be force-stopped.
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

    def reserve(self) -> bool:
        """Take a slot if one is free; the caller must then `call` or `release` exactly once."""
        return self._free.acquire(blocking=False)

    def release(self) -> None:
        self._free.release()

    def call(self, operation: Callable[[], T]) -> T:
        """Run `operation` in a reserved slot and wait at most `timeout` seconds for it; the
        slot is given back when the operation really ends.
        """
        try:
            future = self._pool.submit(operation)
        except RuntimeError:
            self.release()
            raise ReviewError("MODEL_CAPACITY_UNAVAILABLE") from None
        future.add_done_callback(lambda _: self.release())
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            future.cancel()
            raise ReviewError("MODEL_TIMEOUT") from None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
