"""Running `listing-review eval` as a user would, for the evaluation tests."""

import os
import subprocess
import sys


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    """The CLI with provider keys removed from the environment unless given here."""
    inherited = {k: v for k, v in os.environ.items()
                 if not k.startswith(("OPENAI_", "GEMINI_", "LISTING_REVIEW_"))}
    inherited["LISTING_REVIEW_HOME"] = os.environ["LISTING_REVIEW_HOME"]
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=inherited | env,
                          capture_output=True, text=True, timeout=120)
