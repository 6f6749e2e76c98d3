"""Named SQL blocks loaded from a feature's `queries.sql` (procrastinate's layout).

A block starts with `-- name: <name>` and the comment lines after it describe it; keeping
invariant-carrying SQL in one readable file beats strings scattered through Python. A block may
embed another block of the same file by writing `{{name}}` (one level), so a rule shared by
several queries (a batch's progress) is written once.
"""

import re
from functools import cache
from pathlib import Path

from sqlalchemy import TextClause, text

_BLOCK = re.compile(r"^-- name: (\w+)\n", re.MULTILINE)
_EMBED = re.compile(r"\{\{(\w+)\}\}")


@cache
def load_queries(path: str) -> dict[str, TextClause]:
    """All blocks of one .sql file, keyed by name; read once per process."""
    source = Path(path).read_text(encoding="utf-8")
    parts = _BLOCK.split(source)[1:]
    bodies = {name: body.strip() for name, body in zip(parts[::2], parts[1::2], strict=False)}
    return {name: text(_embed(body, bodies)) for name, body in bodies.items()}


def _embed(body: str, bodies: dict[str, str]) -> str:
    """`body` with each `{{name}}` replaced by that block (a KeyError names an unknown one)."""
    return _EMBED.sub(lambda match: bodies[match.group(1)], body)


class Queries:
    """The queries.sql next to a feature module, read on first use (not at import)."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __getitem__(self, name: str) -> TextClause:
        return load_queries(self.path)[name]


def queries_beside(module_file: str, file_name: str = "queries.sql") -> Queries:
    return Queries(Path(module_file).with_name(file_name))
