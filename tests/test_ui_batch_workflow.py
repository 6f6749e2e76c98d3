"""The batch workflow a seller follows, in the real UI in headless Chromium, on a 1,000-listing
catalog: problems first at upload, the valid rows submitted under a name, the page agreeing
with the database at two moments of the run, search by SKU, cancel with confirmation, views
with counts, the fix-up file's content, and retrying twice going forward along the chain.

The UI and the worker are separate processes on the test's database, so the run is paused
and resumed at will: nothing moves while no worker runs, and each moment is read from the
database before the page is asked to show it. Set LISTING_REVIEW_SCREENSHOTS_DIR=docs to
refresh the screenshots in docs/.
"""

import csv
import io
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import Engine, text

from core.batches.pages import ItemCounts, item_counts, outcome_line
from core.batches.progress import BatchSummary, get_summary, score_distribution
from core.batches.verdicts import GOOD_SCORE_FROM, STATE_WORDS
from tests.processes import BROWSER_STEP_MS, WorkerGroup, free_port, ui_healthy, wait_for
from tests.test_ui_browser import CHROMIUM, CHROMIUM_FLAGS, pytestmark, settled, shoot  # noqa: F401
from ui.batch_items import VIEW_LABELS
from ui.charts import SCORE_BINS
from ui.components import PATTERN_BREAKERS, WORD_JOINER

OWNER = "local"
BATCH_NAME = "Spring catalog"
HEADER = ["SKU", "Product Name", "Product Description", "Category", "Price", "Brand", "Condition"]
LISTINGS = 1_000
# Row numbers (1-based) that cannot be accepted, and what is wrong with each.
BAD_ROWS = {17: {"Price": "abc"}, 503: {"Product Name": ""}, 998: {"Price": "-5.00"}}
VALID = LISTINGS - len(BAD_ROWS)
# Enough finished reviews for the second moment; the worker is stopped once the database has them.
DONE_AT_SECOND_MOMENT = 300
# The offline reviewer is fast: a rate limit keeps the run slow enough that stopping the
# worker after DONE_AT_SECOND_MOMENT leaves most of the catalog queued (a minute at this pace).
WORKER_PACE = "heuristic:rules=1200rpm"
SEARCH = "SKU-012"  # SKU-0120 .. SKU-0129: ten valid rows
FIXUP_VERDICTS = {"Needs work", "Needs human review"}
STEP = {"timeout": BROWSER_STEP_MS}
ROW_PIXELS = 35  # the height of the table's header and of each row (Streamlit's default)


def listing(number: int) -> dict[str, str]:
    """A complete listing; every tenth is weak (short, vague, no brand: needs work) and every
    fiftieth says almost nothing (needs human review)."""
    row = {"SKU": f"SKU-{number:04d}", "Product Name": f"Canon EOS 2000D camera body no. {number}",
           "Product Description": "12,000 shutter count, two batteries, 32 GB SD card, strap and bag. "
                                  "Sensor clean, tested last week, no scratches on the screen.",
           "Category": "Cameras", "Price": "280.00", "Brand": "Canon", "Condition": "used - very good"}
    if number % 50 == 0:
        row |= {"Product Name": "Phone", "Product Description": "good", "Category": "Phones",
                "Brand": "", "Condition": ""}
    elif number % 10 == 0:
        row |= {"Product Name": "Phone for sale", "Product Description": "good condition, works fine",
                "Category": "Phones", "Brand": "", "Condition": "used"}
    return row | BAD_ROWS.get(number, {})


def catalog() -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, HEADER, lineterminator="\n")
    writer.writeheader()
    writer.writerows(listing(number) for number in range(1, LISTINGS + 1))
    return out.getvalue().encode()


@pytest.fixture
def ui(database_url: str, tmp_path: Path) -> Iterator[str]:
    """`listing-review ui` alone on the test's database (local mode, offline reviewer)."""
    port = free_port()
    env = os.environ | {"DATABASE_URL": database_url, "LISTING_REVIEW_HOME": str(tmp_path / "home"),
                        "LISTING_REVIEW_UI_METRICS_PORT": str(free_port())}
    process = subprocess.Popen([sys.executable, "-m", "cli.main", "ui", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: ui_healthy(port), "the UI to answer")
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(60)


@pytest.fixture
def page() -> Iterator[Page]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page.set_default_timeout(BROWSER_STEP_MS)
        yield page
        browser.close()


def as_shown(label: str) -> str:
    """A label as the page renders it: plain_label puts a word joiner before : . and @."""
    return "".join(WORD_JOINER + char if char in PATTERN_BREAKERS else char for char in label)


def shown_batch(page: Page) -> uuid.UUID:
    return uuid.UUID(parse_qs(urlparse(page.url).query)["batch"][0])


def retry_of(engine: Engine, batch_id: uuid.UUID) -> uuid.UUID | None:
    with engine.connect() as connection:
        return connection.execute(text("select retry_of from review_batches where id = :id"),
                                  {"id": batch_id}).scalar_one()


def jobs_running(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("select count(*) from review_jobs where status = 'RUNNING'")
                                  ).scalar_one()


def metric(page: Page, label: str) -> Locator:
    return (page.get_by_test_id("stMetric").filter(has=page.get_by_test_id("stMetricLabel")
                                                   .get_by_text(label, exact=True))
            .get_by_test_id("stMetricValue"))


def column(page: Page, name: str) -> Locator:
    """The cells of one column of the items table, as the grid gives them to screen readers
    (the rows on screen: the table draws on a canvas)."""
    table = page.get_by_test_id("stDataFrame").locator("table[role=grid]")
    index = table.locator("th[role=columnheader]").get_by_text(name, exact=True)
    return table.locator(f"tbody td[aria-colindex='{index.get_attribute('aria-colindex')}']")


def select_first_row(page: Page) -> None:
    """Tick the first row's selection box (the grid is a canvas: by position within it)."""
    page.get_by_test_id("stDataFrameResizable").click(position={"x": 10, "y": ROW_PIXELS * 1.5})


def expect_view(page: Page, label: str, column_name: str, words: set[str]) -> None:
    """Open a view: its rows on screen all have one of `words` in `column_name`."""
    page.get_by_role("radio", name=label, exact=True).click()
    expect(page.get_by_role("radio", name=label, exact=True)).to_be_checked(**STEP)
    cells = column(page, column_name)
    others = cells.filter(has_not_text=re.compile(f"^({'|'.join(map(re.escape, words))})$"))
    expect(others).to_have_count(0, **STEP)
    expect(cells.first).to_be_attached(**STEP)
    assert set(cells.all_text_contents()) <= words


def retry_and_cancel(page: Page, heading: str, listings: int) -> uuid.UUID:
    """Retry from the batch shown, then cancel the whole retry (no worker runs): its id."""
    retry_from_here(page, listings)
    expect(page.get_by_role("heading", name=as_shown(heading), exact=True)).to_be_visible(**STEP)
    # A new batch opens on its own views, not on the filter of the batch it came from.
    expect(page.get_by_role("radio", name=f"All ({listings:,})", exact=True)).to_be_checked(**STEP)
    cancel_unstarted(page, listings)
    expect(progress_bar(page, f"Completed, {listings:,} cancelled")).to_be_visible(**STEP)
    return shown_batch(page)


def retry_from_here(page: Page, listings: int) -> uuid.UUID:
    """Click Retry once the page allows it; the batch it opens."""
    retry = page.get_by_role("button", name="Retry failed and cancelled listings")
    expect(retry).to_be_enabled(**STEP)
    settled(page)
    retry.click()
    expect(page.get_by_text(f"Retrying {listings:,} listing(s) in a new batch")).to_be_visible(**STEP)
    return shown_batch(page)


def cancel_unstarted(page: Page, listings: int, screenshots: Path | None = None) -> None:
    """Cancel, which asks first with the count, then confirm (a screenshot of the question)."""
    settled(page)
    page.get_by_role("button", name=f"Cancel the {listings:,} listing(s) not yet started").click()
    confirm = page.get_by_role("button", name=f"Cancel {listings:,} listing(s)", exact=True)
    expect(confirm).to_be_visible(**STEP)
    if screenshots:
        settled(page)
        shoot(page, screenshots, "batch-cancel-confirm")
    confirm.click()
    expect(page.get_by_text(f"Cancelled {listings:,} listing(s)")).to_be_visible(**STEP)


def expect_page_agrees(page: Page, summary: BatchSummary, counts: ItemCounts) -> None:
    """The counters, the views' counts, the outcome line and the progress text say what the
    database says (the summary and counts read while nothing moves)."""
    shown = [summary.queued, summary.running, summary.succeeded, summary.failed, summary.cancelled]
    for label, value in zip(STATE_WORDS.values(), shown, strict=True):
        expect(metric(page, label)).to_have_text(f"{value:,}", **STEP)
    for view, label in VIEW_LABELS.items():
        expect(page.get_by_role("radio", name=f"{label} ({counts.of(view):,})", exact=True)
               ).to_be_visible(**STEP)
    expect(page.get_by_text(outcome_line(counts), exact=True)).to_be_visible(**STEP)
    expect(progress_bar(page, f"{summary.done:,} of {summary.total:,} done")).to_be_visible(**STEP)
    for label, value in zip(STATE_WORDS.values(), shown, strict=True):
        expect(bar(page, f"listings: {value}; state: {label}")).to_be_attached(**STEP)
    expect(axis_labels(page, 0)).to_have_text(list(STATE_WORDS.values()), **STEP)


def axis_labels(page: Page, chart: int) -> Locator:
    """The category labels a chart shows (Vega hides those it has no room for)."""
    shown = "g[aria-label^='Y-axis'] text[opacity='1']"
    return page.get_by_test_id("stVegaLiteChart").nth(chart).locator(shown)


def progress_bar(page: Page, words: str) -> Locator:
    """The progress bar saying `words` (while a rerun replaces it, the old one may linger)."""
    return page.get_by_test_id("stProgress").filter(has_text=words)


def bar(page: Page, description: str) -> Locator:
    """A bar of a chart, by the description Vega gives it for screen readers."""
    return page.get_by_test_id("stVegaLiteChart").locator(f"path[aria-label='{description}']")


def expect_scores_agree(page: Page, engine: Engine, batch_id: uuid.UUID) -> None:
    """The score chart has a bar per bin of ten with the database's count of reviews in it."""
    counted = dict(score_distribution(engine, OWNER, batch_id))
    for start, label in zip(range(0, 100, 10), SCORE_BINS, strict=True):
        expect(bar(page, f"listings: {counted.get(start, 0)}; score: {label}")).to_be_attached(**STEP)
    expect(axis_labels(page, 1)).to_have_text(SCORE_BINS, **STEP)


def upload_valid_rows_only(page: Page, ui: str, screenshots: Path) -> uuid.UUID:
    """Upload the catalog, see its problems first, name the batch and submit the valid rows."""
    page.goto(ui)
    page.locator("input[type=file]").set_input_files(
        files=[{"name": "spring.csv", "mimeType": "text/csv", "buffer": catalog()}])
    problems = page.get_by_text(f"{len(BAD_ROWS)} problem(s) found.")
    expect(problems).to_be_visible(**STEP)
    settled(page)
    submit_valid = page.get_by_role("button", name=f"Submit the {VALID:,} valid listing(s) only")
    expect(submit_valid).to_be_visible(**STEP)
    assert problems.bounding_box()["y"] < page.get_by_text("Column mapping").bounding_box()["y"]
    shoot(page, screenshots, "upload-errors")
    name_box = page.get_by_role("textbox", name="Batch name (optional)")
    name_box.fill(BATCH_NAME)
    name_box.press("Enter")
    settled(page)
    submit_valid.click()
    expect(page.get_by_role("heading", name=BATCH_NAME, exact=True)).to_be_visible(**STEP)
    expect(page.get_by_text(f"{len(BAD_ROWS)} invalid row(s) left out")).to_be_visible(**STEP)
    rejected = page.get_by_role("button", name=f"Rows left out at upload ({len(BAD_ROWS)})")
    expect(rejected).to_be_visible(**STEP)
    return shown_batch(page)


def review_part_of(engine: Engine, database_url: str, batch_id: uuid.UUID) -> None:
    """A worker reviews until the database has DONE_AT_SECOND_MOMENT done, then stops
    gracefully (SIGTERM) with no job left running."""
    worker = WorkerGroup(database_url, LISTING_REVIEW_RATE_LIMITS=WORKER_PACE,
                         LISTING_REVIEW_WORKER_METRICS_PORT=str(free_port()))
    try:
        worker.wait_ready()
        wait_for(lambda: get_summary(engine, OWNER, batch_id).done >= DONE_AT_SECOND_MOMENT,
                 f"{DONE_AT_SECOND_MOMENT} reviews done")
        assert worker.terminate() == 0
    finally:
        worker.close()
    wait_for(lambda: jobs_running(engine) == 0, "no job running")


def search_by_sku(page: Page) -> None:
    """Only the listings whose SKU starts with SEARCH are listed; the first opens beside its
    listing as submitted; a SKU nobody has says so; clearing the search lists them all again."""
    search = page.get_by_role("textbox", name="Search by item id or title (start of it)")
    search.fill(SEARCH)
    search.press("Enter")
    expect(column(page, "Item id")).to_have_text([f"SKU-{number:04d}" for number in range(120, 130)], **STEP)
    settled(page)
    position = column(page, "#").first.inner_text()
    select_first_row(page)
    expect(page.get_by_text("Item id: SKU-0120")).to_be_visible(**STEP)
    expect(page.get_by_text(f"Listing #{position} as submitted")).to_be_visible(**STEP)
    search.fill("SKU-9999")
    search.press("Enter")
    expect(page.get_by_text("No listing matches this view and search.")).to_be_visible(**STEP)
    search.fill("")
    search.press("Enter")
    expect(column(page, "Item id").first).to_have_text("SKU-0001", **STEP)


def download_fixup(page: Page, listings: int) -> tuple[str, list[str], list[dict[str, str]]]:
    """The fix-up file offered for `listings` listings: its name, header and rows."""
    fixup = page.get_by_role("button", name=f"Fix-up file ({listings:,} listings)")
    expect(fixup).to_be_enabled(**STEP)
    settled(page)
    with page.expect_download(**STEP) as download:
        fixup.click()
    reader = csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig")))
    rows = list(reader)
    return download.value.suggested_filename, list(reader.fieldnames or []), rows


def test_thousand_listings_from_upload_to_a_second_retry(
    ui: str, database_url: str, engine: Engine, page, tmp_path: Path
):
    # Given a 1,000-listing catalog with 3 bad rows, submitted valid rows only under a name
    original = upload_valid_rows_only(page, ui, tmp_path)

    # Then, with no worker running, everything is queued and the page says so (moment 1).
    summary = get_summary(engine, OWNER, original)
    assert (summary.total, summary.queued, summary.name) == (VALID, VALID, BATCH_NAME)
    expect_page_agrees(page, summary, item_counts(engine, OWNER, original))
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(1, **STEP)  # states; no scores yet
    expect(page.get_by_text("No scores yet", exact=False)).to_be_visible(**STEP)

    # When a worker reviews part of the batch and stops
    review_part_of(engine, database_url, original)
    summary = get_summary(engine, OWNER, original)
    counts = item_counts(engine, OWNER, original)
    assert DONE_AT_SECOND_MOMENT <= summary.done < VALID, "the worker was stopped too late"
    assert counts.needs_work and counts.needs_human_review

    # Then the page shows the database's counts everywhere, both charts included (moment 2).
    expect_page_agrees(page, summary, counts)
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(2, **STEP)
    expect_scores_agree(page, engine, original)
    shoot(page, tmp_path, "batch-running")

    # When the seller searches by the start of a SKU, only those listings are listed.
    search_by_sku(page)

    # When the seller cancels what has not started, confirming the count
    queued = summary.queued
    cancel_unstarted(page, queued, tmp_path)

    # Then the batch completes with its cancellations said, and the views count them.
    expect(progress_bar(page, f"Completed, {queued:,} cancelled: {VALID:,} of {VALID:,} done")
           ).to_be_visible(**STEP)
    summary = get_summary(engine, OWNER, original)
    counts = item_counts(engine, OWNER, original)
    assert (summary.status, summary.cancelled, summary.queued) == ("COMPLETED", queued, 0)
    expect_page_agrees(page, summary, counts)
    expect_view(page, f"Cancelled ({queued:,})", "State", {"Cancelled"})
    expect_view(page, f"Needs attention ({counts.of('needs_attention'):,})", "Verdict", FIXUP_VERDICTS)
    shoot(page, tmp_path, "batch-complete")

    # When the seller downloads the fix-up file
    days = {datetime.now(UTC).date()}
    name, header, rows = download_fixup(page, counts.needs_work + counts.needs_human_review)
    days.add(datetime.now(UTC).date())

    # Then it holds exactly the listings to fix, in the seller's own columns, with the review's.
    assert name in {f"{BATCH_NAME}-{day:%Y-%m-%d}-fixup.csv" for day in days}
    assert header[:len(HEADER)] == HEADER
    assert {"review_verdict", "review_score"} <= set(header)
    assert len(rows) == counts.needs_work + counts.needs_human_review
    assert {row["review_verdict"] for row in rows} == FIXUP_VERDICTS
    for row in rows:
        number = int(row["SKU"].removeprefix("SKU-"))
        assert number % 10 == 0 and 0 <= int(row["review_score"]) < GOOD_SCORE_FROM
        assert {column_name: row[column_name] for column_name in HEADER} == listing(number)

    # When the seller retries: a new batch of the cancelled listings, "Retry of" the original
    first_retry = retry_and_cancel(page, f"Retry of {BATCH_NAME}", queued)

    # And then retries the original again
    page.goto(f"{ui}/batch?batch={original}")
    expect(page.get_by_role("heading", name=BATCH_NAME, exact=True)).to_be_visible(**STEP)
    second_retry = retry_from_here(page, queued)

    # Then the chain goes forward (a retry of the retry), never back to the first retry.
    second_name = get_summary(engine, OWNER, second_retry).display_name
    expect(page.get_by_role("heading", name=as_shown(second_name), exact=True)).to_be_visible(**STEP)
    assert [retry_of(engine, batch) for batch in (original, first_retry, second_retry)] == [
        None, original, first_retry]
    page.goto(f"{ui}/batches")
    for batch_name in (BATCH_NAME, f"Retry of {BATCH_NAME}", second_name):
        expect(page.get_by_role("link", name=as_shown(batch_name), exact=True)).to_be_visible(**STEP)
    settled(page)
    shoot(page, tmp_path, "batches")
