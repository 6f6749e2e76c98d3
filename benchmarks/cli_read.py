"""How fast a read command answers, against the floor of any Python process that reads the
database: `python -c` that connects with psycopg and runs one query.

    python benchmarks/cli_read.py [--repeat 5]

Both run as new processes, the way a person runs them, against the same database: an
embedded PostgreSQL in a throwaway home (or DATABASE_URL if set; a batch is added to it).
`listing-review batch ID --json` is timed twice: with DATABASE_URL set, and on the zero-setup
path (no DATABASE_URL: the command finds the embedded server under LISTING_REVIEW_HOME).
Prints the median of each and its ratio to the floor.
"""

import argparse
import json
import os
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


def wall(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{command[2:]} failed ({result.returncode}): {result.stdout}{result.stderr}")
    return elapsed


def median_wall(command: list[str], env: dict[str, str], repeat: int) -> float:
    wall(command, env)  # warm the page cache and the server's connection path
    return statistics.median(wall(command, env) for _ in range(repeat))


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
    floor = median_wall([sys.executable, "-c", FLOOR, url], with_url, repeat)
    print(f"{'floor: python -c, connect + one query':58} {floor * 1000:6.0f} ms")
    for label, env in (("DATABASE_URL", with_url), ("embedded, zero setup", zero_setup)):
        if label.startswith("embedded") and os.environ.get("DATABASE_URL"):
            continue
        figure = median_wall(read, env, repeat)
        print(f"{f'listing-review batch ID --json ({label})':58} {figure * 1000:6.0f} ms"
              f"  = {figure / floor:.2f} x floor")


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
