"""Seller and model text renders as inert text in a real browser: on the real product (`up`)
in Debian's Chromium, bare URLs, `www.` hosts, e-mail addresses, emoji shortcodes, markdown
links, HTML and markdown emphasis show literally wherever they appear as page text: the file
name in the batch page's title and caption and in the Batches list's link, each item's id and
title in the selected row's listing (st.text), model text in the review card, the seller's own
price in a form error.

The column-mapping editor and the items table are canvas grids (st.data_editor, st.dataframe):
their cells are drawn as plain text, never read as markdown or HTML, so they are inert by
construction. What this test checks there is what is DOM text: the column name is in no widget
label (the old page had one labelled selectbox per column), and the grids' accessibility tables
(inside the canvas) hold the seller's text literally, not as links or markup.
"""

import re
from pathlib import Path

import pytest

from tests import test_ui_browser
from tests.fake_openai import FakeOpenAI
from tests.processes import BROWSER_STEP_MS
from tests.test_ui_browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    expect_grid_rows,
    items_grid,
    select_row,
    settled,
)

model, product = test_ui_browser.model, test_ui_browser.product  # the same fixtures

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed")

ITEM_IDS = ["https://evil.example/login", "www.evil.example", "evil@evil.example", ":smile:"]
TITLE = "<b>x</b> **bold**"
FILE_NAME = "evil@evil.example.csv"
COLUMN = ":smile:"
PRICE = "[p](https://evil.example)"
MODEL_TEXT = "See https://evil.example/login or www.evil.example, write evil@evil.example :smile: "
HOSTILE_REVIEW = {"qualityScore": 50, "missingFields": [], "issues": [MODEL_TEXT + TITLE],
                  "suggestions": [PRICE], "requiresHumanReview": True}
WORD_JOINER = "\u2060"
EMOJI = "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}"


def literal(text: str) -> re.Pattern:
    """The text as shown, allowing the invisible word joiners plain_label may put inside it."""
    return re.compile(f"{WORD_JOINER}?".join(re.escape(character) for character in text))


def catalog() -> str:
    rows = [f'"{item_id}","{TITLE}",Desc,Cat,1,x\n' for item_id in ITEM_IDS]
    return f"item_id,title,description,category,price,{COLUMN}\n" + "".join(rows)


def assert_inert(page, *texts: str) -> None:
    """Each text is visible literally; no link to evil.example, no emoji, no bold from text."""
    from playwright.sync_api import expect

    for text in texts:
        expect(page.get_by_text(literal(text)).filter(visible=True).first).to_be_visible(
            timeout=BROWSER_STEP_MS)
    assert page.locator('a[href*="evil.example"], a[href^="mailto:"]').count() == 0
    assert page.locator("b, strong", has_text=re.compile(r"^\s*(x|bold)\s*$")).count() == 0
    assert EMOJI not in page.locator("body").inner_text()


def assert_grid_holds(grid, *texts: str) -> None:
    """Each text is a cell of the canvas grid's accessibility table, as plain text."""
    from playwright.sync_api import expect

    for text in texts:
        expect(grid.locator("table[role=grid] td").filter(has_text=literal(text)).first).to_be_attached(
            timeout=BROWSER_STEP_MS)


def test_hostile_seller_and_model_text_renders_literally_on_every_page(
    product: str, model: FakeOpenAI, tmp_path: Path
):
    from playwright.sync_api import expect, sync_playwright

    for _ in ITEM_IDS:
        model.reply(HOSTILE_REVIEW)
    upload = tmp_path / FILE_NAME
    upload.write_text(catalog())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(product)
        page.locator("input[type=file]").set_input_files(str(upload))
        expect(page.get_by_text("4 listings are ready.")).to_be_visible(timeout=BROWSER_STEP_MS)
        page.get_by_text("Column mapping").click()
        mapping = page.get_by_test_id("stExpander").get_by_test_id("stDataFrame")
        assert_grid_holds(mapping, COLUMN)
        assert page.get_by_test_id("stWidgetLabel").filter(has_text=literal(COLUMN)).count() == 0
        assert_inert(page)

        page.get_by_role("button", name="Submit for review").click()
        expect(page.get_by_text("Completed: 4 of 4 done")).to_be_visible(timeout=BROWSER_STEP_MS)
        # The full-page rerun that follows completion draws the fix-up file's count.
        expect(page.get_by_role("button", name="Fix-up file (4 listings)")).to_be_visible(
            timeout=BROWSER_STEP_MS)
        settled(page)
        expect(page.get_by_role("heading", name=literal(FILE_NAME))).to_be_visible()
        expect(page.get_by_test_id("stCaptionContainer").filter(has_text=literal(FILE_NAME))).to_be_visible()
        expect_grid_rows(page, len(ITEM_IDS))
        assert_grid_holds(items_grid(page), *ITEM_IDS, TITLE)
        for row, item_id in enumerate(ITEM_IDS):  # file order: row n is the n-th item
            select_row(page, row)
            expect(page.get_by_text(literal(f"Item id: {item_id}"))).to_be_visible(timeout=BROWSER_STEP_MS)
            settled(page)
            assert_inert(page, f"Title: {TITLE}", MODEL_TEXT + TITLE, PRICE)
        assert_inert(page, FILE_NAME)

        page.goto(f"{product}/batches")
        expect(page.get_by_role("link", name=literal(FILE_NAME))).to_be_visible(timeout=BROWSER_STEP_MS)
        assert_inert(page, FILE_NAME)

        page.goto(f"{product}/review")
        page.get_by_label("Title").fill(TITLE)
        page.get_by_label("Description").fill("A description")
        page.get_by_label("Category").fill("Cat")
        page.get_by_label("Price").fill(PRICE)
        page.get_by_role("button", name="Review", exact=True).click()
        assert_inert(page, f"price '{PRICE}' is not a number")
        browser.close()
