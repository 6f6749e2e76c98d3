"""The zero-setup product: `up` on the embedded database, `submit`, Ctrl-C, `down`."""

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import psutil

from tests.processes import free_port, ui_healthy, wait_for

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"



def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=120)




def api_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def test_up_runs_everything_and_ctrl_c_stops_all_of_it(tmp_path: Path):
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["LISTING_REVIEW_HOME"] = str(tmp_path / "home")
    port = free_port()
    env["LISTING_REVIEW_API_PORT"] = str(api_port := free_port())
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--port", str(port)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: ui_healthy(port) and api_answers(api_port), "the UI and API", 90)
        children = psutil.Process(up.pid).children(recursive=True)
        accepted = json.loads(cli("submit", str(SAMPLES / "fashion.jsonl"), "--json", env=env).stdout)
        wait_for(lambda: json.loads(cli("batch", accepted["batchId"], "--json", env=env).stdout)
                 ["status"] == "COMPLETED", "the batch to complete", 90)
        up.send_signal(signal.SIGINT)
        assert up.wait(60) == 0
        wait_for(lambda: not any(child.is_running() and child.status() != psutil.STATUS_ZOMBIE
                                 for child in children), "every child to exit", 30)
    finally:
        if up.poll() is None:
            up.kill()
        down = cli("down", env=env)
    assert down.returncode == 0 and "stopped" in down.stdout
