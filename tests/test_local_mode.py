"""Local mode (no sign-in configured): `up` serves the UI, the API and every metrics endpoint on
loopback only, and every page says so. (A non-loopback bind without sign-in is refused at start-up:
tests/test_identity.py.)
"""

import ipaddress
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil

from tests.processes import BROWSER_STEP_MS, answers, free_port, ui_healthy, wait_for
from tests.test_ui_browser import CHROMIUM, CHROMIUM_FLAGS, pytestmark, settled  # noqa: F401


def listening(pid: int) -> set[tuple[str, int]]:
    """(address, port) of every TCP socket `pid` and its descendants listen on (/proc/net/tcp, tcp6)."""
    root = psutil.Process(pid)
    sockets = set()
    for process in [root, *root.children(recursive=True)]:
        try:
            connections = process.net_connections(kind="tcp")
        except psutil.NoSuchProcess:
            continue
        sockets |= {(c.laddr.ip, c.laddr.port) for c in connections if c.status == psutil.CONN_LISTEN}
    return sockets


def test_up_in_local_mode_listens_on_loopback_only_and_says_local_mode(tmp_path: Path):
    from playwright.sync_api import expect, sync_playwright

    ports = {name: free_port() for name in ("UI", "API", "WORKER_METRICS", "UI_METRICS", "API_METRICS")}
    env = {key: value for key, value in os.environ.items()
           if key != "DATABASE_URL" and not key.startswith(("LISTING_REVIEW_OIDC", "LISTING_REVIEW_BIND"))}
    env |= {f"LISTING_REVIEW_{name}_PORT": str(port) for name, port in ports.items()}
    env["LISTING_REVIEW_HOME"] = str(tmp_path / "home")
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up"], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: ui_healthy(ports["UI"]), "the UI to answer")
        with sync_playwright() as playwright:  # a page view starts the UI's metrics endpoint
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{ports['UI']}/batches")  # a deep link is the first view
            expect(page.get_by_text("Local mode - no sign-in")).to_be_visible(timeout=BROWSER_STEP_MS)
            settled(page)
            navigation = page.get_by_test_id("stSidebarNav")
            expect(navigation.get_by_role("link", name="Upload catalog")).to_be_visible()
            assert navigation.get_by_role("link", name="app", exact=True).count() == 0  # no raw file names
            browser.close()
        wait_for(lambda: all(answers(f"http://127.0.0.1:{ports[name]}/metrics")
                             for name in ("WORKER_METRICS", "UI_METRICS", "API_METRICS"))
                 and answers(f"http://127.0.0.1:{ports['API']}/openapi.json"), "the API and metrics")
        sockets = listening(up.pid)
        assert set(ports.values()) <= {port for _, port in sockets}
        assert all(ipaddress.ip_address(address).is_loopback for address, _ in sockets), sockets
    finally:
        os.killpg(up.pid, signal.SIGINT)
        up.wait(60)
        subprocess.run([sys.executable, "-m", "cli.main", "down"], env=env, timeout=60)
