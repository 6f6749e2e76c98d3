"""The `listing-review` command as a user runs it: exit codes, JSON shapes, readable errors."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from core.database import make_engine

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"


def run(*args: str, database_url: str | None = None, **env: str) -> subprocess.CompletedProcess:
    environment = os.environ | env
    if database_url:
        environment["DATABASE_URL"] = database_url
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=environment,
                          capture_output=True, text=True, timeout=120)


def test_submit_replay_and_read_back(database_url: str):
    catalog = str(SAMPLES / "books.json")
    first = run("submit", catalog, "--json", database_url=database_url)
    assert first.returncode == 0, first.stderr
    accepted = json.loads(first.stdout)
    assert accepted["created"] is True and accepted["total"] == 12 and accepted["status"] == "QUEUED"
    replay = json.loads(run("submit", catalog, "--json", database_url=database_url).stdout)
    assert replay["batchId"] == accepted["batchId"] and replay["created"] is False
    summary = json.loads(run("batch", accepted["batchId"], "--json", database_url=database_url).stdout)
    assert summary["total"] == 12 and summary["queued"] == 12
    page = json.loads(run("items", accepted["batchId"], "--limit", "5", "--json",
                          database_url=database_url).stdout)
    assert page["nextAfter"] == 5 and page["items"][0]["itemId"] == "BK-3001"
    job = json.loads(run("job", page["items"][0]["jobId"], "--json", database_url=database_url).stdout)
    assert job["batchId"] == accepted["batchId"] and job["status"] == "QUEUED"


def test_invalid_catalog_lists_every_row_and_stores_nothing(database_url: str):
    result = run("submit", str(SAMPLES / "with_errors.csv"), "--json", database_url=database_url)
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "INVALID_REVIEW_BATCH_REQUEST"
    assert {row["row"] for row in error["rows"]} == {2, 3, 4, 5, 6, 7, 8, 9}
    assert all({"row", "line", "field", "message"} <= row.keys() for row in error["rows"])


def test_invalid_catalog_as_text_goes_to_stderr(database_url: str):
    result = run("submit", str(SAMPLES / "with_errors.csv"), database_url=database_url)
    assert result.returncode == 1 and result.stdout == ""
    assert "row 4, line 5, itemId ERR-2004, field price" in result.stderr
    assert "Traceback" not in result.stderr


def test_changed_file_under_the_same_key_conflicts(database_url: str, tmp_path: Path):
    catalog = tmp_path / "c.csv"
    catalog.write_text("item_id,title,description,category,price\nA,T,D,C,1\n")
    assert run("submit", str(catalog), "--key", "k1", database_url=database_url).returncode == 0
    catalog.write_text("item_id,title,description,category,price\nA,T,D,C,2\n")
    result = run("submit", str(catalog), "--key", "k1", "--json", database_url=database_url)
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["code"] == "IDEMPOTENCY_CONFLICT"


@pytest.mark.parametrize("command,code", [("batch", "REVIEW_BATCH_NOT_FOUND"),
                                          ("items", "REVIEW_BATCH_NOT_FOUND"),
                                          ("job", "REVIEW_JOB_NOT_FOUND")])
def test_unknown_ids_are_not_found(database_url: str, command: str, code: str):
    result = run(command, str(uuid.uuid4()), "--json", database_url=database_url)
    assert result.returncode == 1 and json.loads(result.stdout)["error"]["code"] == code


def test_other_sellers_batch_is_not_found(database_url: str):
    accepted = json.loads(run("submit", str(SAMPLES / "books.json"), "--owner", "seller-a", "--json",
                              database_url=database_url).stdout)
    result = run("batch", accepted["batchId"], "--owner", "seller-b", "--json",
                 database_url=database_url)
    assert json.loads(result.stdout)["error"]["code"] == "REVIEW_BATCH_NOT_FOUND"


def test_unreachable_database_is_storage_unavailable_without_traceback(tmp_path: Path):
    result = run("batch", str(uuid.uuid4()), "--json",
                 DATABASE_URL=f"postgresql://nobody@/none?host={tmp_path}")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["code"] == "STORAGE_UNAVAILABLE"
    assert "Traceback" not in result.stderr


def test_bad_setting_is_a_readable_configuration_error():
    result = run("migrate", LISTING_REVIEW_MAX_BATCH_ITEMS="20000")
    assert result.returncode == 2
    assert "LISTING_REVIEW_MAX_BATCH_ITEMS" in result.stderr and "Traceback" not in result.stderr


def test_malformed_id_is_a_usage_error():
    result = run("batch", "not-a-uuid")
    assert result.returncode == 2 and "not a valid id" in result.stderr


def test_review_one_listing_synchronously(tmp_path: Path):
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"listing": {
        "title": "Wireless keyboard", "description": "Used wireless keyboard with USB receiver.",
        "category": "Computer accessories", "price": 45.00, "attributes": {"brand": "KeyPro"}}}))
    result = run("review", str(listing), "--json")
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)
    assert 0 <= review["qualityScore"] <= 100 and isinstance(review["requiresHumanReview"], bool)


def test_review_of_an_invalid_listing_names_the_fields(tmp_path: Path):
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"title": "", "description": "D", "category": "C", "price": -1}))
    result = run("review", str(listing), "--json")
    assert result.returncode == 1
    fields = {row["field"] for row in json.loads(result.stdout)["error"]["rows"]}
    assert fields == {"title", "price"}


def test_review_with_a_provider_that_lacks_its_key_names_the_variable(tmp_path: Path):
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"title": "T", "description": "D", "category": "C", "price": 1}))
    env = {key: value for key, value in os.environ.items() if key != "OPENAI_API_KEY"}
    result = subprocess.run([sys.executable, "-m", "cli.main", "review", str(listing), "--provider",
                             "openai"], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "OPENAI_API_KEY" in result.stderr
    assert "Traceback" not in result.stderr


def test_review_through_the_openai_provider_against_a_local_server(tmp_path: Path):
    from tests.fake_openai import DEFAULT_REVIEW, FakeOpenAI

    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"title": "T", "description": "D", "category": "C", "price": 1}))
    with FakeOpenAI() as fake:
        result = run("review", str(listing), "--provider", "openai", "--json",
                     OPENAI_API_KEY="test", OPENAI_BASE_URL=fake.base_url)
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["qualityScore"] == DEFAULT_REVIEW["qualityScore"] and review["provider"] == "openai"
    assert review["usage"] == {"inputTokens": 123, "outputTokens": 45}


def test_blank_owner_is_a_usage_error_not_a_database_error(database_url: str):
    result = run("batch", str(uuid.uuid4()), "--owner", "   ", database_url=database_url)
    assert result.returncode == 2 and "seller id" in result.stderr
    assert "Traceback" not in result.stderr and "INSERT" not in result.stderr.upper()


# --- a fast, quiet, readable CLI ---

HEAVY_MODULES = ("openai", "google", "dramatiq", "alembic", "streamlit", "fastapi", "uvicorn", "pandas")


def submitted_batch(database_url: str) -> dict:
    result = run("submit", str(SAMPLES / "books.json"), "--json", database_url=database_url)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def first_job_id(batch_id: str, database_url: str) -> str:
    return json.loads(run("items", batch_id, "--json", database_url=database_url).stdout)["items"][0]["jobId"]


def test_read_commands_say_nothing_on_stderr(database_url: str):
    batch_id = submitted_batch(database_url)["batchId"]
    job_id = first_job_id(batch_id, database_url)
    for args in (("batch", batch_id), ("items", batch_id), ("job", job_id), ("keys", "list")):
        for output in ((), ("--json",)):
            result = run(*args, *output, database_url=database_url)
            assert result.returncode == 0 and result.stdout and result.stderr == "", (args, result.stderr)


def test_read_commands_load_no_sdk_queue_or_migration_machinery(database_url: str):
    batch_id = submitted_batch(database_url)["batchId"]
    probe = ("import io, json, sys, contextlib\nfrom cli.main import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    assert main(['batch', '{batch_id}', '--json']) == 0\n"
             "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))")
    result = subprocess.run([sys.executable, "-c", probe], env=os.environ | {"DATABASE_URL": database_url},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert not set(json.loads(result.stdout)) & set(HEAVY_MODULES)


def test_read_commands_never_migrate_and_say_how_to(empty_database_url: str):
    result = run("batch", str(uuid.uuid4()), "--json", database_url=empty_database_url)
    assert result.returncode == 2 and "listing-review migrate" in result.stderr
    assert "Traceback" not in result.stderr
    with psycopg.connect(empty_database_url) as conn:
        assert conn.execute("select to_regclass('alembic_version')").fetchone()[0] is None
    assert run("migrate", database_url=empty_database_url).returncode == 0
    found = run("batch", str(uuid.uuid4()), "--json", database_url=empty_database_url)
    assert json.loads(found.stdout)["error"]["code"] == "REVIEW_BATCH_NOT_FOUND"


def test_the_revision_read_commands_expect_is_alembics_head():
    from composition.runtime import expected_revision
    from core import schema

    assert expected_revision() == schema.head_revision()


def test_blank_owner_in_the_environment_is_a_configuration_error_naming_it(database_url: str):
    result = run("submit", str(SAMPLES / "books.json"), "--json", database_url=database_url,
                 LISTING_REVIEW_OWNER="   ")
    assert result.returncode == 2 and "LISTING_REVIEW_OWNER" in result.stderr
    assert "INTERNAL_ERROR" not in result.stdout + result.stderr


def test_items_show_job_ids_and_whether_a_person_must_look(database_url: str):
    batch_id = submitted_batch(database_url)["batchId"]
    page = json.loads(run("items", batch_id, "--json", database_url=database_url).stdout)
    text = run("items", batch_id, database_url=database_url).stdout
    header = text.splitlines()[2]  # after the outcome line and the view counts
    assert "verdict" in header and "human review" in header
    assert all(item["jobId"] in text for item in page["items"])


def test_review_text_prints_every_issue_and_suggestion_in_full(tmp_path: Path):
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"title": "Keyboard", "description": "Used", "category": "C",
                                   "price": 1}))
    review = json.loads(run("review", str(listing), "--json").stdout)
    lines = run("review", str(listing)).stdout.splitlines()
    assert review["issues"] and review["suggestions"]
    for line in review["issues"] + review["suggestions"]:
        assert f"  - {line}" in lines
    assert f"Needs human review  {'yes' if review['requiresHumanReview'] else 'no'}" in lines


def test_job_text_prints_its_review_in_full(database_url: str, settings):
    from core.jobs.execution import JobRunner
    from core.jobs.heartbeat import InFlight
    from core.jobs.model_slots import ModelSlots
    from core.listings.providers.offline import HeuristicProvider
    from tasks.queue import DramatiqPgQueue

    job_id = first_job_id(submitted_batch(database_url)["batchId"], database_url)
    engine = make_engine(database_url)
    try:
        JobRunner(engine, DramatiqPgQueue(settings.queue_name), HeuristicProvider(), ModelSlots(1, 10),
                  settings, InFlight()).execute(uuid.UUID(job_id))
    finally:
        engine.dispose()
    result = json.loads(run("job", job_id, "--json", database_url=database_url).stdout)["result"]
    lines = run("job", job_id, database_url=database_url).stdout.splitlines()
    assert result and all(f"  - {line}" in lines for line in result["issues"] + result["suggestions"])


def test_review_help_says_what_the_listing_file_holds():
    text = run("review", "--help").stdout
    assert all(field in text for field in ("title", "description", "category", "price", "attributes"))


def test_the_ui_is_launched_on_loopback_with_our_upload_limit():
    from cli.commands_run import ui_command
    from core.settings import Settings

    def flags(settings: Settings) -> dict[str, str]:
        command = ui_command(settings)
        return dict(zip(command[5::2], command[6::2], strict=True))

    launched = flags(Settings(max_upload_bytes=41_900_000, ui_port=8123))
    assert launched["--server.maxUploadSize"] == "40"  # 41.9 MB is 39.96 MiB (Streamlit's unit), rounded up
    assert launched["--server.address"] == "127.0.0.1" and launched["--server.port"] == "8123"
    exposed = Settings(bind_address="0.0.0.0", oidc_metadata_url="https://id.example/.well-known/x",
                       oidc_client_id="ui", oidc_client_secret="s", public_url="https://ui.example")
    assert flags(exposed)["--server.address"] == "0.0.0.0"


def test_the_upload_page_states_the_limit_the_uploader_enforces(database_url: str, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from core.settings import get_settings
    from ui.services import runtime

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("LISTING_REVIEW_MAX_UPLOAD_BYTES", str(3 * 1024 * 1024 + 1))
    get_settings.cache_clear()
    runtime.clear()
    try:
        page = AppTest.from_file(str(Path(__file__).parent.parent / "ui" / "app.py"), default_timeout=30)
        page.run()
        assert any("4 MB per file" in caption.value for caption in page.caption)
        assert get_settings().max_upload_megabytes == 4
    finally:
        get_settings.cache_clear()
        runtime.clear()


def test_up_progress_says_accepted_each_tenth_once_and_completed():
    from datetime import UTC, datetime

    from cli.progress import BatchProgress
    from core.batches.progress import BatchSummary

    def batch(done: int, status: str = "RUNNING") -> BatchSummary:
        return BatchSummary(batch_id=uuid.UUID(int=1), submitted_at=datetime.now(UTC), completed_at=None,
                            source_name="c.csv", source_format="csv", status=status, total=200,
                            queued=200 - done, running=0, succeeded=max(done - 1, 0), failed=min(done, 1),
                            cancelled=0, done=done)

    progress = BatchProgress()
    said = [line for done in (0, 5, 19, 20, 21, 45, 45, 199) for line in progress.lines([batch(done)])]
    said += progress.lines([batch(200, "COMPLETED")]) + progress.lines([batch(200, "COMPLETED")])
    assert [line.split(": ", 1)[1] for line in said] == [
        "200 listing(s) from c.csv.", "10% done (20 of 200).", "20% done (45 of 200).",
        "90% done (199 of 200).", "199 succeeded, 1 failed, 0 cancelled."]
    assert BatchProgress.quiet_about([batch(45)]).lines([batch(45)]) == []
