"""The real product in a real headless Chromium: `up` on a temporary home, upload, submit,
live progress to COMPLETED, a failed item, the CSV export, and a screenshot of every page.

Set LISTING_REVIEW_SCREENSHOTS_DIR to also copy the screenshots there (docs/ holds a set).
"""

import csv
import io
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_openai import FakeOpenAI
from tests.processes import BROWSER_STEP_MS, free_port, ui_healthy, wait_for

CHROMIUM = "/usr/bin/chromium"
SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian chromium not installed")


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def product(tmp_path: Path, model: FakeOpenAI) -> Iterator[str]:
    """`listing-review up` on an empty home, reviewing through the real openai SDK."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"} | {
        "LISTING_REVIEW_HOME": str(tmp_path / "home"), "LISTING_REVIEW_PROVIDER": "openai",
        "OPENAI_API_KEY": "test", "OPENAI_BASE_URL": model.base_url,
        "LISTING_REVIEW_API_PORT": str(free_port()),
        "LISTING_REVIEW_WORKER_METRICS_PORT": str(free_port()),
        "LISTING_REVIEW_UI_METRICS_PORT": str(free_port()),
        "LISTING_REVIEW_API_METRICS_PORT": str(free_port()),
    }
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--port", str(port)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: ui_healthy(port), "the UI to answer")
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(up.pid, signal.SIGINT)
        up.wait(60)
        subprocess.run([sys.executable, "-m", "cli.main", "down"], env=env, timeout=60)


def settled(page) -> None:
    """Streamlit has finished running the page's script (it marks its root element)."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                           timeout=BROWSER_STEP_MS)


def shoot(page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if target := os.environ.get("LISTING_REVIEW_SCREENSHOTS_DIR"):
        shutil.copy(path, Path(target) / path.name)


def test_upload_submit_follow_progress_open_a_failure_and_export(
    product: str, model: FakeOpenAI, tmp_path: Path
):
    from playwright.sync_api import expect, sync_playwright

    model.reply_text("not a review")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(product)
        page.locator("input[type=file]").set_input_files(str(SAMPLES / "books.json"))
        expect(page.get_by_text("12 listings are ready.")).to_be_visible(timeout=BROWSER_STEP_MS)
        shoot(page, tmp_path, "upload")
        page.get_by_role("button", name="Submit for review").click()
        expect(page.get_by_text("COMPLETED: 12 of 12 done")).to_be_visible(timeout=BROWSER_STEP_MS)
        assert "batch=" in page.url
        # COMPLETED first shows in the live fragment, which then reruns the whole page: a click
        # during that rerun is lost. Retry is enabled only by the rerun that saw COMPLETED.
        expect(page.get_by_role("button", name="Retry failed and cancelled items")).to_be_enabled(
            timeout=BROWSER_STEP_MS)
        settled(page)
        page.get_by_text("Failures", exact=True).click()
        # The rerun the filter makes has ended once the other items' expanders are gone.
        expanders = page.locator("[data-testid=stExpander]")
        expect(expanders).to_have_count(1, timeout=BROWSER_STEP_MS)
        settled(page)
        failed = expanders.first
        expect(failed).to_contain_text("FAILED")
        failed.click()
        expect(page.get_by_text("AI_RESPONSE_INVALID: The model did not produce a valid review."
                                ).first).to_be_visible()
        shoot(page, tmp_path, "batch")
        with page.expect_download() as download:
            page.get_by_role("button", name="Download CSV").click()
        rows = list(csv.DictReader(io.StringIO(
            Path(download.value.path()).read_text(encoding="utf-8-sig"))))
        assert len(rows) == 12
        assert [row["error_code"] for row in rows].count("AI_RESPONSE_INVALID") == 1
        for path, name in (("batches", "batches"), ("review", "review"),
                           ("operations", "operations")):
            page.goto(f"{product}/{path}")
            expect(page.get_by_role("heading").first).to_be_visible(timeout=BROWSER_STEP_MS)
            settled(page)
            shoot(page, tmp_path, name)
        browser.close()
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "batch.png", "batches.png", "operations.png", "review.png", "upload.png"]
