"""`listing-review batches / cancel / retry / export` as a user runs them, against a real
PostgreSQL: JSON shapes, exit codes, ownership, files written.

Finished jobs are written directly with the core batch-operation tests' updates, so no test
waits for a worker.
"""

import csv
import io
import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import Engine

from core.batches.verdicts import GOOD_SCORE_FROM
from tests.test_batch_operations import set_status
from tests.test_cli import run

CATALOG = ("SKU,Title,Description,Category,Price,Colour\n"
           "S-1,Keyboard,Wireless keyboard with receiver,Computers,45.00,black\n"
           "S-2,Mouse,Wireless mouse in good condition,Computers,19.90,white\n"
           "S-3,Cable,USB cable two metres long,Computers,5.50,grey\n")


def cli_json(*args: str, database_url: str) -> dict:
    result = run(*args, "--json", database_url=database_url)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def cli_error(*args: str, database_url: str) -> dict:
    result = run(*args, "--json", database_url=database_url)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)["error"]


def submit(tmp_path: Path, database_url: str, owner: str = "local", name: str = "shop.csv") -> uuid.UUID:
    catalog = tmp_path / f"{uuid.uuid4().hex}-{name}"
    catalog.write_text(CATALOG)
    accepted = cli_json("submit", str(catalog), "--owner", owner, "--key", catalog.name,
                        database_url=database_url)
    return uuid.UUID(accepted["batchId"])


def finish(engine: Engine, batch_id: uuid.UUID, *statuses: str, score: int = 90) -> None:
    for position, status in enumerate(statuses, start=1):
        set_status(engine, batch_id, position, status, score=score)


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


# --- batches ---

def test_batches_pages_newest_first_and_filters_by_status(tmp_path: Path, database_url: str, engine: Engine):
    first, second, third = (submit(tmp_path, database_url) for _ in range(3))
    finish(engine, first, "SUCCEEDED", "SUCCEEDED", "FAILED")
    page = cli_json("batches", "--limit", "2", database_url=database_url)
    assert [item["batchId"] for item in page["items"]] == [str(third), str(second)]
    rest = cli_json("batches", "--limit", "2", "--after", page["nextAfter"], database_url=database_url)
    assert ([item["batchId"] for item in rest["items"]], rest["nextAfter"]) == ([str(first)], None)
    completed = cli_json("batches", "--status", "COMPLETED", database_url=database_url)
    assert [(item["batchId"], item["failed"]) for item in completed["items"]] == [(str(first), 1)]


def test_batches_text_is_a_table_that_says_how_to_see_more(tmp_path: Path, database_url: str):
    submit(tmp_path, database_url), submit(tmp_path, database_url)
    result = run("batches", "--limit", "1", database_url=database_url)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("batch id") and "shop.csv" in result.stdout
    assert "More: listing-review batches --after " in result.stdout


@pytest.mark.parametrize("args", [("--after", "garbage"), ("--limit", "0"), ("--limit", "101")])
def test_bad_paging_is_a_clear_error(database_url: str, args: tuple[str, ...]):
    error = cli_error("batches", *args, database_url=database_url)
    assert error["code"] == "INVALID_REVIEW_BATCH_REQUEST"


def test_batches_lists_only_the_owners_batches(tmp_path: Path, database_url: str):
    submit(tmp_path, database_url, owner="seller-a")
    assert cli_json("batches", "--owner", "seller-b", database_url=database_url)["items"] == []


# --- cancel ---

def test_cancel_says_how_many_and_the_batch_ends_cancelled(tmp_path: Path, database_url: str, engine: Engine):
    batch_id = submit(tmp_path, database_url)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    cancelled = cli_json("cancel", str(batch_id), database_url=database_url)
    assert cancelled["cancelled"] == 2
    assert (cancelled["batch"]["status"], cancelled["batch"]["cancelled"]) == ("COMPLETED", 2)
    text = run("cancel", str(batch_id), database_url=database_url)
    assert text.returncode == 0 and text.stdout.startswith("Cancelled 0 listing(s)")


# --- retry ---

def test_retry_makes_a_new_batch_then_returns_the_same_one(tmp_path: Path, database_url: str, engine: Engine):
    batch_id = submit(tmp_path, database_url)
    finish(engine, batch_id, "SUCCEEDED", "FAILED", "FAILED")
    first = cli_json("retry", str(batch_id), database_url=database_url)
    assert (first["created"], first["total"]) == (True, 2)
    again = cli_json("retry", str(batch_id), database_url=database_url)
    assert (again["batchId"], again["created"]) == (first["batchId"], False)
    text = run("retry", str(batch_id), database_url=database_url)
    assert again["reason"] == "running" and "still running" in text.stdout
    assert f"Batch {first['batchId']}." in text.stdout


def test_retry_of_a_running_batch_says_so(tmp_path: Path, database_url: str, engine: Engine):
    batch_id = submit(tmp_path, database_url)
    set_status(engine, batch_id, 1, "FAILED")
    error = cli_error("retry", str(batch_id), database_url=database_url)
    assert error["code"] == "INVALID_REVIEW_BATCH_REQUEST" and "still running" in error["message"]


# --- export ---

def test_export_writes_each_format(tmp_path: Path, database_url: str, engine: Engine):
    batch_id = submit(tmp_path, database_url)
    set_status(engine, batch_id, 1, "SUCCEEDED", score=95)
    set_status(engine, batch_id, 2, "SUCCEEDED", score=30)
    set_status(engine, batch_id, 3, "FAILED")
    files = {name: tmp_path / f"out.{name}" for name in ("csv", "json", "fixup")}
    for name, path in files.items():
        written = cli_json("export", str(batch_id), "--format", name, "-o", str(path),
                           database_url=database_url)
        assert (written["batchId"], written["format"], written["file"], written["bytes"]) == (
            str(batch_id), name, str(path), path.stat().st_size)
    results = read_csv(files["csv"].read_bytes())
    assert results[0][:3] == ["item_id", "position", "status"] and len(results) == 4
    assert [row["item_id"] for row in json.loads(files["json"].read_bytes())] == ["S-1", "S-2", "S-3"]
    fixup = read_csv(files["fixup"].read_bytes())
    assert fixup[0][:2] == ["SKU", "Title"] and [row[0] for row in fixup[1:]] == ["S-2"]
    assert not list(tmp_path.glob("*.part"))


def test_export_without_a_file_writes_the_export_under_its_own_name(tmp_path: Path, database_url: str):
    batch_id = submit(tmp_path, database_url)
    environment = os.environ | {"DATABASE_URL": database_url}
    result = subprocess.run([sys.executable, "-m", "cli.main", "export", str(batch_id), "--format", "csv"],
                            cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    [written] = tmp_path.glob("*-results.csv")
    assert re.fullmatch(r"[0-9a-f]{32}-shop-\d{4}-\d{2}-\d{2}-results\.csv", written.name)
    assert str(written.name) in result.stdout and len(read_csv(written.read_bytes())) == 4


def test_export_to_a_dash_writes_the_bytes_to_stdout(tmp_path: Path, database_url: str):
    batch_id = submit(tmp_path, database_url)
    result = run("export", str(batch_id), "--format", "json", "-o", "-", database_url=database_url)
    assert result.returncode == 0 and [row["status"] for row in json.loads(result.stdout)] == ["QUEUED"] * 3


def test_fixup_with_nothing_to_fix_writes_no_file_and_says_why(tmp_path: Path, database_url: str,
                                                              engine: Engine):
    batch_id = submit(tmp_path, database_url)
    finish(engine, batch_id, "SUCCEEDED", "SUCCEEDED", "FAILED", score=95)
    target = tmp_path / "fixup.csv"
    said = cli_json("export", str(batch_id), "--format", "fixup", "-o", str(target),
                    database_url=database_url)
    assert (said["file"], said["bytes"]) == (None, 0) and said["message"].startswith("Nothing to fix")
    assert not target.exists()
    plain = run("export", str(batch_id), "--format", "fixup", "-o", str(target), database_url=database_url)
    assert plain.returncode == 0 and plain.stdout.startswith("Nothing to fix") and not target.exists()


def test_export_help_states_the_fixup_cut_off(database_url: str):
    result = run("export", "--help", database_url=database_url)
    assert f"score below {GOOD_SCORE_FROM}" in " ".join(result.stdout.split())


def test_export_to_an_unwritable_place_is_a_clear_error(tmp_path: Path, database_url: str):
    batch_id = submit(tmp_path, database_url)
    error = cli_error("export", str(batch_id), "--format", "csv", "-o", str(tmp_path / "no" / "x.csv"),
                      database_url=database_url)
    assert error["code"] == "INVALID_REVIEW_BATCH_REQUEST" and "Cannot write" in error["message"]


def test_unknown_export_format_is_a_usage_error(database_url: str):
    result = run("export", str(uuid.uuid4()), "--format", "xlsx", database_url=database_url)
    assert result.returncode == 2 and "invalid choice" in result.stderr


# --- ownership ---

@pytest.mark.parametrize("args", [("cancel",), ("retry",), ("export", "--format", "csv")])
def test_another_sellers_batch_is_not_found(tmp_path: Path, database_url: str, engine: Engine,
                                           args: tuple[str, ...]):
    batch_id = submit(tmp_path, database_url, owner="seller-a")
    set_status(engine, batch_id, 1, "FAILED")
    error = cli_error(args[0], str(batch_id), *args[1:], "--owner", "seller-b", database_url=database_url)
    assert error["code"] == "REVIEW_BATCH_NOT_FOUND"
    summary = cli_json("batch", str(batch_id), "--owner", "seller-a", database_url=database_url)
    assert summary["cancelled"] == 0
