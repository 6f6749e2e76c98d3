"""Provider calls counted in the process that made them and written at most once a second.

The operations page shows calls per provider+model and minute (provider_call_counts). They
were written in every finished job's result transaction, into one row per provider+model and
minute (16 shards), held locked until that transaction committed: with 16 sessions finishing
jobs, every lock wait left in a result transaction was on that row
(benchmarks/batch_completion.py). Here a process adds each call to a tally in memory, keyed
by the minute it was made in (this host's clock), and writes the tally a second after the
first call in it, in a transaction of its own: one upsert per provider+model and minute per
process and second, whatever the number of jobs.

What it costs: the figure lags by up to a second (plus the time to write it), and a process
that dies, or a write that fails, loses at most that second's counts (logged). These counts
are for operators; the rate limits themselves live in provider_rate_limits (rate_limits.py).
"""

import logging
import threading
import time
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from core.provider_gate.rate_limits import CallCounts, count_calls

log = logging.getLogger(__name__)
FLUSH_SECONDS = 1.0


@dataclass
class _Pending:
    calls: int = 0
    rate_limited: int = 0
    tokens: int = 0


class CallTally:
    """One per worker process (JobRunner); thread-safe."""

    def __init__(self, engine: Engine, every: float = FLUSH_SECONDS) -> None:
        self.engine = engine
        self.every = every
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # one write at a time; close() waits for one under way
        self._pending: dict[tuple[str, str, int], _Pending] = {}
        self._timer: threading.Timer | None = None

    def add(self, provider: str, model: str, rate_limited: bool, tokens: int | None) -> None:
        """Count one call made now (any outcome); `tokens` as the provider reported them."""
        minute = int(time.time() // 60) * 60
        with self._lock:
            pending = self._pending.setdefault((provider, model, minute), _Pending())
            pending.calls += 1
            pending.rate_limited += int(rate_limited)
            pending.tokens += tokens or 0
            if self._timer is None:
                self._timer = threading.Timer(self.every, self.flush)
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> None:
        """Write what was counted since the last write (nothing when nothing was)."""
        with self._writing:
            with self._lock:
                pending, self._pending, self._timer = self._pending, {}, None
            if pending:
                self._write(pending)

    def close(self) -> None:
        """At the process's stop: no more timed writes; a write under way is waited for, then
        the rest is written (a daemon timer killed mid-write at exit would lose its second)."""
        with self._lock:
            timer = self._timer
        if timer is not None:
            timer.cancel()
        self.flush()

    def _write(self, pending: dict[tuple[str, str, int], _Pending]) -> None:
        try:
            with self.engine.begin() as connection:
                for (provider, model, minute), counts in sorted(pending.items()):
                    count_calls(connection, CallCounts(provider, model, minute, counts.calls,
                                                       counts.rate_limited, counts.tokens))
        except SQLAlchemyError as error:
            log.warning("provider call counts of the last second not written: %s", type(error).__name__)
