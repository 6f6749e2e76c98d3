"""How fast a read command answers, against the floor of any Python process that reads the
database: `python -c` that connects with psycopg and runs one query.

    python benchmarks/cli_read.py [--repeat 5]

Both run as new processes, the way a person runs them, against the same database: an
embedded PostgreSQL in a throwaway home (or DATABASE_URL if set; a batch is added to it).
`listing-review batch ID --json` is timed twice: with DATABASE_URL set, and on the zero-setup
path (no DATABASE_URL: the command finds the embedded server under LISTING_REVIEW_HOME).
The runs are interleaved (floor, command, command, floor, ...) so that a busy machine slows
all of them alike. Prints the median wall time of each and its ratio to the floor, and the
median CPU time (user + system of the process), which a busy machine disturbs less.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.embedded_postgres import ensure_running, stop  # noqa: E402

FLOOR = "import psycopg, sys\nwith psycopg.connect(sys.argv[1]) as c: c.execute('select 1').fetchone()"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; the runs are sequential, so the children's CPU time
    grows by exactly this child's.
    """
    cpu_before, started = _children_cpu(), time.perf_counter()
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu_before
    if result.returncode != 0:
        raise SystemExit(f"{command[2:]} failed ({result.returncode}): {result.stdout}{result.stderr}")
    return elapsed, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def medians(runs: dict[str, tuple[list[str], dict[str, str]]], repeat: int
            ) -> dict[str, tuple[float, float]]:
    for command, env in runs.values():
        timed(command, env)  # warm the page cache and the server's connection path
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, (command, env) in runs.items():
            times[label].append(timed(command, env))
    return {label: (statistics.median(wall for wall, _ in values),
                    statistics.median(cpu for _, cpu in values))
            for label, values in times.items()}


def submit_batch(env: dict[str, str]) -> str:
    """A batch to read (and, on the first command, the migrated schema)."""
    catalog = ROOT / "sample_catalogs" / "books.json"
    result = subprocess.run([sys.executable, "-m", "cli.main", "submit", str(catalog), "--json"],
                            env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["batchId"]


def measure(home: Path, url: str, repeat: int) -> None:
    with_url = os.environ | {"DATABASE_URL": url}
    zero_setup = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    zero_setup["LISTING_REVIEW_HOME"] = str(home)
    batch_id = submit_batch(with_url)
    read = [sys.executable, "-m", "cli.main", "batch", batch_id, "--json"]
    runs = {"floor: python -c, connect + one query": ([sys.executable, "-c", FLOOR, url], with_url),
            "listing-review batch ID --json (DATABASE_URL)": (read, with_url)}
    if not os.environ.get("DATABASE_URL"):
        runs["listing-review batch ID --json (embedded, zero setup)"] = (read, zero_setup)
    figures = medians(runs, repeat)
    floor_wall, floor_cpu = next(iter(figures.values()))
    print(f"{'':58} {'wall':>9} {'x floor':>8} {'CPU':>9} {'x floor':>8}")
    for label, (wall, cpu) in figures.items():
        print(f"{label:58} {wall * 1000:6.0f} ms {wall / floor_wall:7.2f}x {cpu * 1000:6.0f} ms "
              f"{cpu / floor_cpu:7.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    print(f"median of {repeat} runs each, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="lr-cli-bench-") as directory:
        home = Path(directory)
        url = os.environ.get("DATABASE_URL") or ensure_running(home)
        try:
            measure(home, url, repeat)
        finally:
            if not os.environ.get("DATABASE_URL"):
                stop(home)


if __name__ == "__main__":
    main()
