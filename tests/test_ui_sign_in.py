"""Sign-in with a real OpenID provider (oidc-provider-mock) and `listing-review up` in headless
Chromium: two sellers and an operator in separate browser contexts, an anonymous visitor, sign-out,
and a key created in the browser used on the HTTP API.

Set LISTING_REVIEW_SCREENSHOTS_DIR to also copy the screenshots there (docs/ holds a set).
"""

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.processes import BROWSER_STEP_MS, answers, free_port, ui_healthy, wait_for
from tests.test_ui_browser import CHROMIUM, CHROMIUM_FLAGS, SAMPLES, pytestmark, settled, shoot  # noqa: F401

USERS = [{"sub": "alice", "email": "alice@example.com", "name": "Alice Seller"},
         {"sub": "bob", "email": "bob@example.com", "name": "Bob Seller"},
         {"sub": "olga", "email": "ops@example.com", "email_verified": True, "name": "Olga Operator"}]
CATALOG = SAMPLES / "home_goods_semicolon.csv"
VIEWPORT = {"width": 1280, "height": 900}


@dataclass(frozen=True)
class Product:
    ui: str
    api: str


def api_get(url: str, key: str) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.fixture
def provider() -> Iterator[str]:
    """A real OpenID provider on a free loopback port, with predefined users."""
    port = free_port()
    claims = [arg for user in USERS for arg in ("--user-claims", json.dumps(user))]
    process = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", "--port", str(port), *claims],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    metadata = f"http://localhost:{port}/.well-known/openid-configuration"
    try:
        wait_for(lambda: answers(metadata), "the OpenID provider to answer")
        yield metadata
    finally:
        process.terminate()
        process.wait(30)


@pytest.fixture
def product(tmp_path: Path, provider: str) -> Iterator[Product]:
    """`listing-review up` with sign-in; browsers use the public URL (localhost), as the
    provider's redirect to PUBLIC_URL/oauth2callback must reach the same cookie origin.
    """
    port, api_port = free_port(), free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"} | {
        "LISTING_REVIEW_HOME": str(tmp_path / "home"),
        "LISTING_REVIEW_API_PORT": str(api_port),
        "LISTING_REVIEW_WORKER_METRICS_PORT": str(free_port()),
        "LISTING_REVIEW_UI_METRICS_PORT": str(free_port()),
        "LISTING_REVIEW_API_METRICS_PORT": str(free_port()),
        "LISTING_REVIEW_OIDC_METADATA_URL": provider, "LISTING_REVIEW_OIDC_CLIENT_ID": "listing-review",
        "LISTING_REVIEW_OIDC_CLIENT_SECRET": "secret", "LISTING_REVIEW_PUBLIC_URL": f"http://localhost:{port}",
        "LISTING_REVIEW_OPERATORS": "ops@example.com",
    }
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--port", str(port)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: ui_healthy(port), "the UI to answer")
        yield Product(f"http://localhost:{port}", f"http://127.0.0.1:{api_port}/api/listings/review-batches")
    finally:
        os.killpg(up.pid, signal.SIGINT)
        up.wait(60)
        subprocess.run([sys.executable, "-m", "cli.main", "down"], env=env, timeout=60)


def sign_in(page, subject: str) -> None:
    """Sign in from the sign-in page as `subject` (a predefined user of the provider)."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=subject, exact=True).click()
    expect(page.get_by_text("Signed in as")).to_be_visible(timeout=BROWSER_STEP_MS)
    settled(page)


def signed_in(browser, url: str, subject: str):
    """A new browser context signed in as `subject`."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url)
    sign_in(page, subject)
    return page


def open_settled(page, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading").first).to_be_visible(timeout=BROWSER_STEP_MS)
    settled(page)


def upload(page) -> str:
    """Upload and submit the sample catalog; the new batch's link."""
    from playwright.sync_api import expect

    page.locator("input[type=file]").set_input_files(str(CATALOG))
    expect(page.get_by_text("12 listings are ready.")).to_be_visible(timeout=BROWSER_STEP_MS)
    page.get_by_role("button", name="Submit for review").click()
    expect(page).to_have_url(re.compile(r"batch="), timeout=BROWSER_STEP_MS)
    expect(page.get_by_text(CATALOG.stem).first).to_be_visible(timeout=BROWSER_STEP_MS)
    return page.url


def create_key(page, product: Product) -> str:
    from playwright.sync_api import expect

    open_settled(page, product.ui + "/keys")
    page.get_by_role("button", name="Create a key").click()
    code = page.get_by_test_id("stCode")
    expect(code).to_be_visible(timeout=BROWSER_STEP_MS)
    return code.inner_text().strip()


def no_data_links(page) -> bool:
    """No navigation at all, and no link to any data page."""
    pages = re.compile("Upload|Batch|Review|API keys|Operations")
    navigation = page.get_by_test_id("stSidebarNav")
    return navigation.count() == 0 and page.get_by_role("link", name=pages).count() == 0


def not_found_text(page, url: str) -> str:
    from playwright.sync_api import expect

    page.goto(url)
    alert = page.get_by_test_id("stAlertContainer")  # the page has no title when nothing is found
    expect(alert).to_be_visible(timeout=BROWSER_STEP_MS)
    settled(page)
    return alert.inner_text()


def test_sellers_see_only_their_own_operators_everything_anonymous_only_sign_in(
    product: Product, tmp_path: Path
):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        anonymous = browser.new_context(viewport=VIEWPORT).new_page()
        open_settled(anonymous, product.ui + "/batches")
        expect(anonymous.get_by_role("button", name="Sign in")).to_be_visible()
        assert no_data_links(anonymous) and anonymous.url == product.ui + "/batches"
        assert anonymous.get_by_role("dialog").count() == 0  # no "page not found" for a deep link
        shoot(anonymous, tmp_path, "sign-in")

        alice = signed_in(browser, product.ui, "alice")
        expect(alice.get_by_text("Signed in as Alice Seller (seller)")).to_be_visible()
        assert alice.get_by_role("link", name="Operations").count() == 0
        batch_url = upload(alice)
        batch_id = batch_url.split("batch=")[1].split("&")[0]
        open_settled(alice, product.ui + "/batches")
        expect(alice.get_by_role("link", name=CATALOG.stem)).to_be_visible()
        shoot(alice, tmp_path, "seller-batches")
        alice_key = create_key(alice, product)

        bob = signed_in(browser, product.ui, "bob")
        open_settled(bob, product.ui + "/batches")
        expect(bob.get_by_text("No batches yet")).to_be_visible()
        assert bob.get_by_role("link", name=CATALOG.stem).count() == 0
        unknown = str(uuid.uuid4())
        missing = not_found_text(bob, f"{product.ui}/batch?batch={unknown}")
        assert not_found_text(bob, batch_url).replace(batch_id, unknown) == missing
        bob_key = create_key(bob, product)

        operator = signed_in(browser, product.ui, "olga")
        expect(operator.get_by_text("Signed in as Olga Operator (operator)")).to_be_visible()
        expect(operator.get_by_role("link", name="Operations")).to_be_visible()
        open_settled(operator, product.ui + "/batches")
        expect(operator.get_by_role("link", name=CATALOG.stem)).to_be_visible()
        expect(operator.get_by_text("seller Alice Seller")).to_be_visible()
        shoot(operator, tmp_path, "operator-batches")
        open_settled(operator, batch_url)
        # The batch page's title is the batch's name; the caption under it names the file and seller.
        expect(operator.get_by_test_id("stCaptionContainer").filter(has_text=CATALOG.stem).first
               ).to_contain_text("seller Alice Seller")

        alice.get_by_role("button", name="Sign out").click()
        alice.get_by_role("button", name="End session").click()  # the provider's logout page
        expect(alice.get_by_role("button", name="Sign in")).to_be_visible(timeout=BROWSER_STEP_MS)
        open_settled(alice, batch_url)
        expect(alice.get_by_role("button", name="Sign in")).to_be_visible()
        assert no_data_links(alice)
        sign_in(alice, "alice")  # the provider's callback lands on "/"; the link asked for opens again
        expect(alice).to_have_url(batch_url, timeout=BROWSER_STEP_MS)
        expect(alice.get_by_text(CATALOG.stem).first).to_be_visible(timeout=BROWSER_STEP_MS)
        browser.close()

    status, mine = api_get(product.api, alice_key)
    assert status == 200 and [item["batchId"] for item in mine["items"]] == [batch_id]
    status, theirs = api_get(product.api, bob_key)
    assert status == 200 and theirs["items"] == []
    assert api_get(f"{product.api}/{batch_id}", bob_key)[0] == 404
    assert api_get(f"{product.api}/{batch_id}", alice_key)[0] == 200
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "operator-batches.png", "seller-batches.png", "sign-in.png"]
