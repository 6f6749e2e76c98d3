"""What a NOTIFY nobody listens to costs while worker processes listen on other channels:
dramatiq-pg's ack notified `dramatiq.<queue>.ack` on every finished job, and PostgreSQL
signals every listening backend of the database at the commit of a transaction that
notified (each worker process listens on two connections). tasks/consumer.py now acks
without it.

For 0, 8 and 32 idle listening connections (0, 4 and 16 worker processes), times 2,000
transactions of one statement with a message-sized argument, with and without the NOTIFY,
and the CPU the database's processes spent: per transaction, and the ratio.

    python benchmarks/ack_notify.py [--transactions 2000]

Uses a throwaway embedded PostgreSQL.
"""

import argparse
import sys
import time
from pathlib import Path

import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database  # noqa: E402

PAYLOAD = "x" * 600  # about a message's size
STATEMENTS = {"ack with NOTIFY (dramatiq-pg)": "select pg_notify('dramatiq.q.ack', %s)",
              "ack without (now)": "select length(%s)"}


def database_cpu(connection: psycopg.Connection) -> float:
    """CPU seconds of every process of the server (the postmaster's children)."""
    postmaster = psutil.Process(connection.info.backend_pid).parent()
    total = 0.0
    for child in postmaster.children():
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def timed(connection: psycopg.Connection, statement: str, count: int) -> tuple[float, float]:
    """(ms of wall time, ms of database CPU) per transaction."""
    cpu, started = database_cpu(connection), time.perf_counter()
    for _ in range(count):
        with connection.transaction():
            connection.execute(statement, (PAYLOAD,))
    wall = time.perf_counter() - started
    return wall * 1000 / count, (database_cpu(connection) - cpu) * 1000 / count


def run(url: str, count: int) -> None:
    print(f"{count} transactions each; ms per transaction (wall, database CPU)")
    with psycopg.connect(url, autocommit=True) as connection:
        for listeners in (0, 8, 32):
            idle = [psycopg.connect(url, autocommit=True) for _ in range(listeners)]
            for listener in idle:
                listener.execute('listen "dramatiq.q.enqueue"')
            figures = {name: timed(connection, statement, count) for name, statement in STATEMENTS.items()}
            (notify_wall, notify_cpu), (plain_wall, plain_cpu) = figures.values()
            print(f"  {listeners:>2} listening: with NOTIFY {notify_wall:5.3f} ms, {notify_cpu:5.3f} ms "
                  f"CPU;  without {plain_wall:5.3f} ms, {plain_cpu:5.3f} ms CPU;  "
                  f"CPU x{notify_cpu / plain_cpu:.1f}")
            for listener in idle:
                listener.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transactions", type=int, default=2000)
    args = parser.parse_args()
    with scratch_database(migrated=False) as url:
        run(url, args.transactions)


if __name__ == "__main__":
    main()
