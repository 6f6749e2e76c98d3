"""The zero-setup product: `up` on the embedded database, `submit`, Ctrl-C, `down`."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil

from tests.processes import answers, free_port, ui_healthy, wait_for

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"



def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=120)




def _local_env(home: Path) -> dict[str, str]:
    """Local mode (the embedded database) with its own home."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["LISTING_REVIEW_HOME"] = str(home)
    return env


def api_answers(port: int) -> bool:
    return answers(f"http://127.0.0.1:{port}/openapi.json")


def test_up_runs_everything_and_ctrl_c_stops_all_of_it(tmp_path: Path):
    env = _local_env(tmp_path / "home")
    port = free_port()
    env["LISTING_REVIEW_API_PORT"] = str(api_port := free_port())
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--port", str(port)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: ui_healthy(port) and api_answers(api_port), "the UI and API")
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


def _non_loopback_address() -> str | None:
    import socket

    return next((address.address for addresses in psutil.net_if_addrs().values() for address in addresses
                 if address.family == socket.AF_INET and not address.address.startswith("127.")), None)


def _connects(host: str, port: int) -> bool:
    import socket

    try:
        socket.create_connection((host, port), timeout=2).close()
        return True
    except OSError:
        return False


def test_up_says_up_once_it_answers_names_a_taken_port_and_follows_batches_not_listings(tmp_path: Path):
    import threading

    env = _local_env(home := tmp_path / "home")
    env["LISTING_REVIEW_API_PORT"] = str(api_port := free_port())
    port = free_port()
    up = subprocess.Popen([sys.executable, "-m", "cli.main", "up", "--port", str(port)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(line) for line in up.stdout], daemon=True).start()
    try:
        wait_for(lambda: any("is up" in line for line in lines), "up to say it is up")
        assert ui_healthy(port) and api_answers(api_port)  # said only once both answer
        second = cli("up", "--port", str(port), env=env)
        assert second.returncode == 2 and f"Port {port}" in second.stderr and "streamlit" in second.stderr
        address = _non_loopback_address()
        assert address is None or not _connects(address, port)  # the UI listens on loopback only
        accepted = json.loads(cli("submit", str(SAMPLES / "fashion.jsonl"), "--json", env=env).stdout)

        def said() -> list[str]:
            return [line.strip() for line in lines if accepted["batchId"] in line]

        wait_for(lambda: any(" completed: " in line for line in said()), "the batch's completed line")
        summary = json.loads(cli("batch", accepted["batchId"], "--json", env=env).stdout)
        assert said()[0].endswith(f"accepted: {summary['total']} listing(s) from fashion.jsonl.")
        assert said()[-1].endswith(f"completed: {summary['succeeded']} succeeded, "
                                   f"{summary['failed']} failed, {summary['cancelled']} cancelled.")
        assert len(said()) <= 12 and not any("job attempt" in line for line in lines)
        assert "job attempt" in (home / "up.log").read_text()  # per-attempt lines stay in the log
    finally:
        up.send_signal(signal.SIGINT)
        try:
            up.wait(60)
        finally:
            if up.poll() is None:
                up.kill()
            cli("down", env=env)


def _partly_started(home: Path, pid: int) -> None:
    """postmaster.pid as a starting server leaves it: the pid and data directory, the rest not written yet."""
    pgdata = home / "pgdata"
    pgdata.mkdir(parents=True)
    (pgdata / "postmaster.pid").write_text(f"{pid}\n{pgdata}\n", encoding="utf-8")


def test_down_beside_a_server_that_never_finished_starting_says_it_was_not_running(tmp_path: Path):
    """A crash while starting leaves a short postmaster.pid naming a process that is gone."""
    exited = subprocess.Popen([sys.executable, "-c", "pass"])
    exited.wait()
    _partly_started(tmp_path / "home", exited.pid)
    down = cli("down", env=_local_env(tmp_path / "home"))
    assert down.returncode == 0, down.stderr
    assert "was not running" in down.stdout


def test_a_server_still_starting_counts_as_running(tmp_path: Path):
    from core.embedded_postgres import _postmaster_alive

    _partly_started(tmp_path / "home", os.getpid())
    assert _postmaster_alive(tmp_path / "home" / "pgdata")
    assert not _postmaster_alive(tmp_path / "elsewhere")
