"""Named SQL blocks loaded from a feature's `queries.sql` (procrastinate's layout).

A block starts with `-- name: <name>` and the comment lines after it describe it; keeping
invariant-carrying SQL in one readable file beats strings scattered through Python.
"""

import re
from functools import lru_cache
from pathlib import Path

from sqlalchemy import TextClause, text

_BLOCK = re.compile(r"^-- name: (\w+)\n", re.MULTILINE)


@lru_cache(maxsize=None)
def load_queries(path: str) -> dict[str, TextClause]:
    """All blocks of one .sql file, keyed by name; read once per process."""
    source = Path(path).read_text(encoding="utf-8")
    parts = _BLOCK.split(source)[1:]
    return {name: text(body.strip()) for name, body in zip(parts[::2], parts[1::2])}


class Queries:
    """The queries.sql next to a feature module, read on first use (not at import)."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __getitem__(self, name: str) -> TextClause:
        return load_queries(self.path)[name]


def queries_beside(module_file: str, file_name: str = "queries.sql") -> Queries:
    return Queries(Path(module_file).with_name(file_name))
