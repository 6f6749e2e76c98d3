"""Named SQL blocks: one block can embed another, so a shared rule is written once."""

from pathlib import Path

import pytest

from core.sql import load_queries


def blocks(tmp_path: Path, source: str) -> str:
    path = tmp_path / "queries.sql"
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_a_block_embeds_another_by_name(tmp_path: Path):
    queries = load_queries(blocks(tmp_path, "-- name: ten\n-- A shared rule.\nselect 10 as n\n\n"
                                            "-- name: twice\nselect t.n * 2 from ({{ten}}) t\n"))
    assert str(queries["twice"]) == "select t.n * 2 from (-- A shared rule.\nselect 10 as n) t"


def test_embedding_an_unknown_block_fails_when_the_file_is_read(tmp_path: Path):
    with pytest.raises(KeyError, match="missing"):
        load_queries(blocks(tmp_path, "-- name: broken\nselect * from ({{missing}}) m\n"))
