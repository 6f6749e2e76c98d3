"""The package dependency graph, read from the source (every import, lazy ones included):
entry points depend on the composition root, never on each other, and core on none of them.
"""

import ast
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from core.embedded_postgres import stop

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "tasks", "composition", "ui", "api", "cli", "migrations")
FRAMEWORKS = ("streamlit", "dramatiq", "dramatiq_pg", "fastapi", "starlette", "uvicorn")
FORBIDDEN = {
    "core": {"tasks", "composition", "ui", "api", "cli", *FRAMEWORKS},
    "tasks": {"composition", "ui", "api", "cli", "streamlit", "fastapi", "starlette", "uvicorn"},
    "composition": {"ui", "api", "cli", "streamlit", "fastapi"},
    "ui": {"api", "cli"},
    "api": {"ui", "cli", "streamlit"},
}


def imported_top_levels(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@cache
def dependencies(package: str) -> frozenset[str]:
    found = set().union(*(imported_top_levels(path) for path in (ROOT / package).rglob("*.py")))
    return frozenset(found - {package})


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_nothing_it_must_not(package: str):
    assert not dependencies(package) & FORBIDDEN[package]


def test_our_packages_form_no_cycle():
    graph = {package: dependencies(package) & set(PACKAGES) for package in PACKAGES}
    done: set[str] = set()

    def visit(package: str, path: tuple[str, ...]) -> None:
        assert package not in path, f"import cycle: {' -> '.join((*path, package))}"
        if package not in done:
            for dependency in graph[package]:
                visit(dependency, (*path, package))
            done.add(package)

    for package in PACKAGES:
        visit(package, ())


def test_collecting_the_tests_starts_nothing(tmp_path: Path):
    """Importing every test module (what collection does, before any fixture) does no I/O: a
    module that imported a Streamlit page ran it, which started the embedded server in the
    user's data directory."""
    home = tmp_path / "home"
    try:
        collected = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
            cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=300,
            env=os.environ | {"LISTING_REVIEW_HOME": str(home)})
        assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
        assert not home.exists()
    finally:
        stop(home)
