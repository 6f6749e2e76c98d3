"""The real app in a real headless Chromium: upload -> submit -> live progress -> results."""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import free_port, ui_healthy, wait_for

CHROMIUM = "/usr/bin/chromium"
SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian chromium not installed")




@pytest.fixture
def product(database_url: str):
    """The UI and a worker on this test's database, stopped afterwards."""
    port = free_port()
    env = os.environ | {"DATABASE_URL": database_url}
    children = [
        subprocess.Popen([sys.executable, "-m", "cli.main", "ui", "--port", str(port)], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
        subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
    ]
    try:
        wait_for(lambda: ui_healthy(port), "the UI to answer")
        yield f"http://127.0.0.1:{port}"
    finally:
        for child in children:
            os.killpg(child.pid, signal.SIGTERM)
        for child in children:
            child.wait(60)


def test_upload_submit_follow_progress_and_open_a_result(product: str):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_FLAGS)
        page = browser.new_page()
        page.goto(product)
        page.locator("input[type=file]").set_input_files(str(SAMPLES / "books.json"))
        expect(page.get_by_text("12 listings are ready.")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Submit for review").click()
        expect(page.get_by_text("COMPLETED: 12 of 12 done")).to_be_visible(timeout=60_000)
        assert "batch=" in page.url
        page.get_by_text("#1 · BK-3001 · SUCCEEDED").click()
        expect(page.get_by_text("Quality score").first).to_be_visible()
        browser.close()
