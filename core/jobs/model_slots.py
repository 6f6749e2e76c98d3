"""Bounded model calls: at most N at once per process, each with a deadline.

A claimed job waits for a slot (at most a model deadline; then its attempt is given back,
core/jobs/execution.py); if its process dies meanwhile, that attempt counts, as for any job the
process held. A call that outlives its deadline is abandoned (MODEL_TIMEOUT) but keeps its slot
until it really ends, because an SDK call cannot be force-stopped.

A process runs more threads than slots (tasks/worker.py), so a slot freed by an ended call can
be taken while that call's result is still being written. A job admitted against a budget, a
cap or a rate limit therefore holds an admission as well, given back only once its result is
written (`written`): at most N such jobs are between their check and their write, so none is
admitted on a spend that N finished calls have not yet recorded.
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
        self._capacity = self._free = concurrency
        self._admitted = 0
        self._changed = threading.Condition()
        self._stopping = False
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="review-model")

    def reserve(self, wait: float = 0.0, *, admitted: bool = False) -> bool:
        """Take a slot, waiting up to `wait` seconds for one (not once the process is stopping);
        the caller must then `call` or `release` exactly once. With `admitted`, also take one of
        the N admissions, which the caller gives back with `written` after its result is stored."""
        def free() -> bool:
            return self._free > 0 and (not admitted or self._admitted < self._capacity)

        with self._changed:
            self._changed.wait_for(lambda: free() or self._stopping, timeout=wait)
            if self._stopping or not free():
                return False
            self._free -= 1
            self._admitted += admitted
            return True

    def written(self) -> None:
        """The result of an admitted job is stored (or it was not run): its admission is free."""
        with self._changed:
            if self._admitted == 0:
                raise ValueError("ModelSlots admission given back more often than taken")
            self._admitted -= 1
            self._changed.notify_all()

    def release(self) -> None:
        """A release without its reserve would let more calls run than there are model threads
        (the extra ones queued in the pool, their deadline running): a bug, raised at once."""
        with self._changed:
            if self._free == self._capacity:
                raise ValueError("ModelSlots released more often than reserved")
            self._free += 1
            self._changed.notify_all()

    @property
    def stopping(self) -> bool:
        return self._stopping

    def stop_waiting(self) -> None:
        """The process is stopping: jobs waiting for a slot give their attempt back now rather
        than hold their thread (and the stop) for up to a model deadline."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()

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
