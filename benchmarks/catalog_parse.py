"""Catalog parse+check time and peak memory against input size, to show linear growth.

Three shapes up to the upload limit: wide (one row under a header of many columns), long
(many valid rows, checked in full: the listing limit is lifted) and error-heavy (`[{},{},...]`,
every record missing every field; run with the default listing limit of 1,000 and with the
largest allowed, 10,000, whose 50,000 problems exercise the cap on reported errors). Each
measurement runs in its own process; time is the best of two checks, peak memory is what
tracemalloc saw allocated during a third (Python allocations beyond the input bytes).

    python benchmarks/catalog_parse.py                       # full table, sizes up to 20 MiB
    python benchmarks/catalog_parse.py --sizes 0.125 --kinds wide   # one quick point
    PYTHONPATH=/tmp/old python benchmarks/catalog_parse.py ...      # the same against another tree

The ratio column is (seconds per MiB at this size) / (seconds per MiB at the smallest size):
about 1 means linear; a quadratic check doubles it with every doubling of the size.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

MIB = 1024 * 1024
DEFAULT_ITEMS = 1000
MAX_ITEMS = 10_000  # the largest LISTING_REVIEW_MAX_BATCH_ITEMS allowed
UNLIMITED_ITEMS = 10**9
KINDS = {"wide": DEFAULT_ITEMS, "long": UNLIMITED_ITEMS, "errors": DEFAULT_ITEMS, "errors-max": MAX_ITEMS}


def wide(size: int) -> tuple[bytes, str]:
    """Header of the five fields and as many extra columns as fit, one short row under it (the
    missing cells read as empty)."""
    names, used = ["item_id", "title", "description", "category", "price"], 52
    while used + len(f",c{len(names)}") <= size:
        names.append(f"c{len(names)}")
        used += len(names[-1]) + 1
    return (",".join(names) + "\nA1,T,D,C,1\n").encode(), "wide.csv"


def long(size: int) -> tuple[bytes, str]:
    row_of = "I{0},Wireless keyboard {0},Compact keyboard with long battery life,Computers,45.00,KeyPro\n"
    rows, used = ["item_id,title,description,category,price,brand\n"], 47
    while used + len(row_of.format(len(rows))) <= size:
        rows.append(row_of.format(len(rows)))
        used += len(rows[-1])
    return "".join(rows).encode(), "long.csv"


def errors(size: int) -> tuple[bytes, str]:
    count = max(1, (size - 1) // 3)
    return b"[" + b"{}," * (count - 1) + b"{}]", "errors.json"


def measure(kind: str, path: str) -> dict:
    """One check in this process: seconds, peak memory growth, errors kept and counted."""
    from core.catalogs.check import check_catalog

    data, name = Path(path).read_bytes(), f"{kind}{Path(path).suffix}"
    seconds = []
    for _ in range(2):  # the best of two: the machine is shared
        start = time.perf_counter()
        check = check_catalog(data, name, KINDS[kind], 20 * MIB)
        seconds.append(time.perf_counter() - start)
    del check
    tracemalloc.start()
    check = check_catalog(data, name, KINDS[kind], 20 * MIB)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    total = getattr(check, "error_total", len(check.errors))
    return {"bytes": len(data), "seconds": min(seconds), "peak_mib": peak / MIB,
            "columns": len(check.columns), "items": len(check.items), "errors_kept": len(check.errors),
            "errors_total": total}


def run_one(kind: str, size: int) -> dict:
    """Written to a file here, checked in a fresh process that only reads it, so building the
    input does not raise the peak the check is measured against."""
    data, name = {"wide": wide, "long": long}.get(kind, errors)(size)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / name
        path.write_bytes(data)
        del data
        out = subprocess.run([sys.executable, __file__, "--one", kind, str(path)], capture_output=True,
                             text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument("--sizes", nargs="+", type=float, default=[1.25, 2.5, 5, 10, 20],
                        help="input sizes in MiB (at most 20: the default upload limit)")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(*args.one)))
        return
    print(f"{'kind':<17}{'bytes':>12}{'seconds':>10}{'s/MiB':>9}{'ratio':>7}{'peak MiB':>10}"
          f"{'columns':>9}{'items':>8}{'errors kept/total':>22}")
    for kind in args.kinds:
        first = None
        for size_mib in args.sizes:
            row = run_one(kind, int(size_mib * MIB))
            per_mib = row["seconds"] / (row["bytes"] / MIB)
            first = first or per_mib
            print(f"{kind:<17}{row['bytes']:>12,}{row['seconds']:>10.3f}{per_mib:>9.3f}"
                  f"{per_mib / first:>7.2f}{row['peak_mib']:>10.1f}{row['columns']:>9,}{row['items']:>8}"
                  f"{row['errors_kept']:>11,}/{row['errors_total']:<10,}", flush=True)


if __name__ == "__main__":
    main()
