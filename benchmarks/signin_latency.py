"""The extra latency of a signed-in page view against local mode, in a real browser.

    python benchmarks/signin_latency.py [--repeat 15]

Two `listing-review ui` processes share one database (an embedded PostgreSQL in a throwaway
home, stopped at the end): one in local mode, one with sign-in against oidc-provider-mock (a
real OpenID provider on loopback). Headless Chromium signs in once, then opens the Batches page
--repeat times in each, interleaved (local, signed-in, local, ...) so a busy machine slows both
alike. A view = page.goto until Streamlit has finished the page's script: the HTML, the
WebSocket, the script run and its first data; signed-in, Streamlit also reads and checks the
signed cookie and the app records the seller (one upsert per new session). Both viewers are
operators, so both run the same page code. Prints the median and p90 of each and the ratio.
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
sys.path.insert(0, str(ROOT))

from tests.processes import answers, free_port, wait_for  # noqa: E402

USER = {"sub": "bench", "email": "bench@example.com", "email_verified": True, "name": "Bench Operator"}


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def ui(env: dict[str, str], port: int, extra: dict[str, str]) -> subprocess.Popen:
    process = start(["-m", "cli.main", "ui", "--port", str(port)],
                    env | extra | {"LISTING_REVIEW_UI_METRICS_PORT": str(free_port())})
    wait_for(lambda: answers(f"http://127.0.0.1:{port}/_stcore/health"), f"the UI on {port}")
    return process


def view(page, url: str) -> float:
    from playwright.sync_api import expect

    started = time.perf_counter()
    page.goto(url)
    expect(page.get_by_role("heading", name="Batches")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                           timeout=60_000)
    return time.perf_counter() - started


def measure(local_url: str, signed_url: str, repeat: int) -> dict[str, list[float]]:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        local, signed = browser.new_page(), browser.new_page()  # each in its own context
        signed.goto(signed_url)
        signed.get_by_role("button", name="Sign in").click()
        signed.get_by_role("button", name=USER["sub"], exact=True).click()
        expect(signed.get_by_text("Signed in as")).to_be_visible(timeout=60_000)
        times: dict[str, list[float]] = {"local mode": [], "signed in": []}
        view(local, local_url + "/batches")  # warm up both
        view(signed, signed_url + "/batches")
        for _ in range(repeat):
            times["local mode"].append(view(local, local_url + "/batches"))
            times["signed in"].append(view(signed, signed_url + "/batches"))
        browser.close()
    return times


def report(times: dict[str, list[float]]) -> None:
    medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
    for label, values in times.items():
        ordered = sorted(value * 1000 for value in values)
        p90 = ordered[min(len(ordered) - 1, round(0.9 * len(ordered)))]
        print(f"{label:>11}: median {medians[label]:7.1f} ms  p90 {p90:7.1f} ms  "
              f"min {ordered[0]:6.1f}  max {ordered[-1]:6.1f}  (n={len(values)})")
    extra = medians["signed in"] - medians["local mode"]
    print(f"signed in - local mode: {extra:+.1f} ms per page view "
          f"(ratio {medians['signed in'] / medians['local mode']:.2f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="signin-bench-")
    env = {key: value for key, value in os.environ.items()
           if key != "DATABASE_URL" and not key.startswith("LISTING_REVIEW_")} | {"LISTING_REVIEW_HOME": home}
    provider_port = free_port()
    processes = [start(["-m", "oidc_provider_mock", "--port", str(provider_port), "--user-claims",
                        json.dumps(USER)], env)]
    metadata = f"http://localhost:{provider_port}/.well-known/openid-configuration"
    try:
        wait_for(lambda: answers(metadata), "the OpenID provider")
        subprocess.run([sys.executable, "-m", "cli.main", "migrate"], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        local_port, signed_port = free_port(), free_port()
        processes.append(ui(env, local_port, {}))
        processes.append(ui(env, signed_port, {
            "LISTING_REVIEW_OIDC_METADATA_URL": metadata, "LISTING_REVIEW_OIDC_CLIENT_ID": "bench",
            "LISTING_REVIEW_OIDC_CLIENT_SECRET": "bench", "LISTING_REVIEW_OPERATORS": USER["sub"],
            "LISTING_REVIEW_PUBLIC_URL": f"http://localhost:{signed_port}"}))
        report(measure(f"http://localhost:{local_port}", f"http://localhost:{signed_port}", args.repeat))
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGINT)
            process.wait(60)
        subprocess.run([sys.executable, "-m", "cli.main", "down"], env=env, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
