"""The HTTP API on loopback: submit latency for 100 / 1,000 listings and items-page requests/s.

Submit latency = one `POST /api/listings/review-batches` (JSON body, new Idempotency-Key)
until its 202, p50 of --repeat runs, next to the same acceptance called in-process (core's
admitted submission, no HTTP) so the ratio is the cost of the HTTP layer. Items pages =
16 client threads (httpx, keep-alive) reading random pages of a 1,000-item batch for
--seconds; requests/s and latency percentiles; and, when Debian's `wrk` is installed, the
same load from wrk (2 threads, 16 connections), whose client costs far less CPU. The load
generator shares the machine with the server and PostgreSQL.

    python benchmarks/api_load.py [--repeat 5] [--seconds 10] [--concurrency 16]

Uses DATABASE_URL if set (rows are added, never deleted), else a throwaway embedded PostgreSQL.
"""

import argparse
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import embedded_postgres, schema
from core.accounts.service import create_key
from core.batches.admission import submit_admitted_catalog
from core.database import make_engine
from core.settings import Settings
from tasks.queue import DramatiqPgQueue

SIZES = (100, 1_000)
BATCHES = "/api/listings/review-batches"
CATEGORIES = ("Phones", "Shoes", "Books", "Computer accessories", "Furniture")
# Benchmark rows are never reviewed, so the admission limit must not count them against us.
SERVER_ENV = {"LISTING_REVIEW_MAX_UNFINISHED_ITEMS_PER_OWNER": "1000000"}


def catalog_json(count: int) -> bytes:
    items = [{"itemId": f"SKU-{i}", "listing": {
        "title": f"Listing {i} wireless keyboard", "category": CATEGORIES[i % 5],
        "description": f"Used keyboard number {i}, includes USB receiver. All keys work.",
        "price": f"{i % 500}.{i % 100:02d}", "attributes": {"brand": "KeyPro", "condition": "used"}}}
        for i in range(count)]
    return httpx.Request("POST", "http://x", json={"items": items}).content


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_api(url: str, port: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "cli.main", "api", "--port", str(port)],
                               env=os.environ | {"DATABASE_URL": url} | SERVER_ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the API did not start")


def submit_over_http(client: httpx.Client, body: bytes) -> tuple[float, str]:
    headers = {"Content-Type": "application/json", "X-API-Version": "1",
               "Idempotency-Key": str(uuid.uuid4())}
    started = time.perf_counter()
    response = client.post(BATCHES, content=body, headers=headers)
    elapsed = time.perf_counter() - started
    assert response.status_code == 202, response.text
    return elapsed, response.json()["itemsUrl"]


def submit_in_process(engine, settings: Settings, body: bytes) -> float:
    started = time.perf_counter()
    submit_admitted_catalog(engine, DramatiqPgQueue(settings.queue_name), settings, owner="bench-core",
                            filename="request.json", data=body, key=str(uuid.uuid4()))
    return time.perf_counter() - started


def print_submit_latency(client: httpx.Client, engine, settings: Settings, repeat: int) -> str:
    print(f"{'items':>6} {'HTTP submit p50':>16} {'in-process p50':>15} {'HTTP/in-process':>16}")
    items_url = ""
    for count in SIZES:
        body = catalog_json(count)
        submit_over_http(client, body)  # warm-up: connections, caches, first-use imports
        runs = [submit_over_http(client, body) for _ in range(repeat)]
        items_url = runs[-1][1]
        http = statistics.median(elapsed for elapsed, _ in runs)
        core = statistics.median(submit_in_process(engine, settings, body) for _ in range(repeat))
        print(f"{count:>6} {http * 1000:>13.1f} ms {core * 1000:>12.1f} ms {http / core:>16.2f}")
    return items_url


def read_pages(base_url: str, key: str, items_url: str, until: float, latencies: list[float]) -> None:
    mine: list[float] = []
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}) as client:
        while time.perf_counter() < until:
            started = time.perf_counter()
            response = client.get(items_url, params={"after": random.randrange(0, 976), "limit": 25})
            mine.append(time.perf_counter() - started)
            assert response.status_code == 200, response.text
    latencies.extend(mine)


def print_page_throughput(base_url: str, key: str, items_url: str, seconds: float,
                          concurrency: int) -> None:
    latencies: list[float] = []
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=read_pages, args=(base_url, key, items_url, until, latencies))
               for _ in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    p50, p99 = ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.99)]
    print(f"items page (limit 25) at concurrency {concurrency} for {elapsed:.1f} s: "
          f"{len(ordered) / elapsed:.0f} requests/s, p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
          f"({len(ordered)} requests, {os.cpu_count()} CPUs shared by client, server and database)")


def print_wrk_throughput(base_url: str, key: str, items_url: str, seconds: float,
                         concurrency: int) -> None:
    """The same random pages from wrk (a Lua request hook picks `after`)."""
    script = Path(tempfile.mkdtemp()) / "pages.lua"
    script.write_text(f'request = function() return wrk.format("GET", "{items_url}?limit=25&after=" .. '
                      'math.random(0, 975)) end\n')
    run = subprocess.run(["wrk", "-t2", f"-c{concurrency}", f"-d{max(1, int(seconds))}s", "--latency",
                          "-s", str(script), "-H", f"Authorization: Bearer {key}", base_url],
                         capture_output=True, text=True, timeout=seconds + 60)
    lines = {line.split(":")[0].strip(): line.strip() for line in run.stdout.splitlines() if ":" in line}
    latency = [line.strip() for line in run.stdout.splitlines() if line.strip().startswith(("50%", "99%"))]
    print(f"wrk, same pages, {concurrency} connections: {lines.get('Requests/sec', run.stdout[-300:])}"
          f"; latency {', '.join(latency)}; {lines.get('Non-2xx or 3xx responses', '0 non-2xx')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    home = None if os.environ.get("DATABASE_URL") else Path(tempfile.mkdtemp()) / "home"
    url = os.environ.get("DATABASE_URL") or embedded_postgres.ensure_running(home)
    settings = Settings(database_url=url, max_unfinished_items_per_owner=1_000_000)
    engine = make_engine(url)
    schema.upgrade(engine)
    _, key = create_key(engine, "bench-http")
    port = free_port()
    server = start_api(url, port)
    base_url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"},
                          timeout=60) as client:
            items_url = print_submit_latency(client, engine, settings, args.repeat)
        print_page_throughput(base_url, key, items_url, args.seconds, args.concurrency)
        if shutil.which("wrk"):
            print_wrk_throughput(base_url, key, items_url, args.seconds, args.concurrency)
    finally:
        server.terminate()
        server.wait(30)
        engine.dispose()
        if home is not None:
            embedded_postgres.stop(home)


if __name__ == "__main__":
    main()
