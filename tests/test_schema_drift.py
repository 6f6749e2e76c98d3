"""The SQLModel table models (core/tables.py) against a freshly migrated database, compared by
Alembic's autogenerate (`compare_metadata`): a table or column added, dropped, retyped or made
nullable on one side only fails here, before it fails a query.

What is compared: tables, columns, column types and nullability (plus primary keys, which
autogenerate does not compare, by one check of our own). What is not, and why:
- indexes, UNIQUE and FOREIGN KEY constraints: they live in the migrations only (partial and
  expression indexes, deferred checks that SQLAlchemy cannot declare faithfully); the invariants
  are tested by breaking them (tests/test_schema_invariants.py) and the indexes by the plans
  that must use them (tests/test_history_plans.py);
- server defaults: the code never relies on one (every insert names its values; the owner
  default was dropped on purpose), and their text differs between PostgreSQL's spelling and a
  model's;
- the `dramatiq` schema (dramatiq-pg's queue): not ours to model; only the default schema is
  reflected (include_schemas stays off).
"""

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, MetaData, text
from sqlmodel import SQLModel

import core.tables  # noqa: F401  (registers the table models on SQLModel.metadata)
from core import schema
from core.database import make_engine

# Tables of the migrated database that have no table model, and why.
UNMODELLED = {
    "alembic_version": "Alembic's own bookkeeping",
    "provider_gates": "the circuit breaker's gates (0007); to be modelled by its owner",
    "provider_gate_waits": "jobs parked behind a gate (0007); to be modelled by its owner",
}
NOT_COMPARED = {"index", "unique_constraint", "foreign_key_constraint"}


@pytest.fixture
def migrated(empty_database_url: str) -> Iterator[Engine]:
    """A database brought from nothing to head by the migrations, as a new install is."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def compared(name: str | None, type_: str, parent_names: dict[str, Any]) -> bool:
    """Alembic's include_name hook: leave out UNMODELLED tables and what NOT_COMPARED names."""
    if type_ == "table":
        return name not in UNMODELLED
    return type_ not in NOT_COMPARED


def compared_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """include_object: the same rule for objects only the models declare (an index=True field)."""
    return type_ not in NOT_COMPARED


def drift(engine: Engine, metadata: MetaData = SQLModel.metadata) -> list[str]:
    """Each disagreement between the models and the database, one readable line each."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True, "compare_server_default": False,
            "include_name": compared, "include_object": compared_object})
        differences = compare_metadata(context, metadata)
        lines = [describe(difference) for difference in flatten(differences)]
        return lines + primary_key_drift(connection, metadata)


def flatten(differences: list) -> Iterator[tuple]:
    """Alembic groups the changes of one column in a list; one tuple per change here."""
    for difference in differences:
        yield from (difference if isinstance(difference, list) else [difference])


def describe(difference: tuple) -> str:
    kind = difference[0]
    if kind == "remove_table":
        return (f"table {difference[1].name}: in the database, neither modelled in core/tables.py "
                "nor listed in UNMODELLED (with the reason)")
    if kind == "add_table":
        return f"table {difference[1].name}: modelled, but no migration creates it"
    if kind in ("add_column", "remove_column"):
        side = "modelled only" if kind == "add_column" else "in the database only"
        return f"{difference[2]}.{difference[3].name}: {side}"
    if kind in ("modify_type", "modify_nullable"):
        _, _, table, column, _, database, model = difference
        return f"{table}.{column}: {kind[7:]} is {database} in the database, {model} in the model"
    return f"{kind}: {difference[1:]}"


def primary_key_drift(connection: sa.Connection, metadata: MetaData) -> list[str]:
    """Autogenerate never compares primary keys; a model's key decides what SQLModel fetches."""
    inspector = sa.inspect(connection)
    lines = []
    for table in metadata.sorted_tables:
        if inspector.has_table(table.name):
            actual = inspector.get_pk_constraint(table.name)["constrained_columns"]
            if set(actual) != {column.name for column in table.primary_key}:
                lines.append(f"{table.name}: primary key {sorted(actual)} in the database, "
                             f"{sorted(c.name for c in table.primary_key)} in the model")
    return lines


def models_with(change) -> MetaData:
    """A throwaway copy of the models with one change made to it."""
    copy = MetaData()
    for table in SQLModel.metadata.sorted_tables:
        table.to_metadata(copy)
    change(copy.tables)
    return copy


def test_table_models_match_a_freshly_migrated_database(migrated: Engine):
    assert drift(migrated) == []


def test_unmodelled_tables_exist_so_the_list_stays_honest(migrated: Engine):
    assert set(UNMODELLED) <= set(sa.inspect(migrated).get_table_names())


@pytest.mark.parametrize("change, expected", [
    ("alter table review_jobs add column note text", "review_jobs.note: in the database only"),
    ("alter table review_jobs drop column heartbeat_at", "review_jobs.heartbeat_at: modelled only"),
    ("alter table review_batches alter column source_name type varchar(300)",
     "review_batches.source_name: type is VARCHAR(300) in the database, "
     "VARCHAR(255) in the model"),
    ("alter table api_keys alter column revoked_at set not null",
     "api_keys.revoked_at: nullable is False in the database, True in the model"),
    ("create table sneaky (id int)", "table sneaky: in the database, neither modelled"),
    ("alter table webhooks drop constraint webhooks_pkey, add primary key (owner, url)",
     "webhooks: primary key ['owner', 'url'] in the database, ['owner'] in the model"),
])
def test_a_database_side_change_is_drift(migrated: Engine, change: str, expected: str):
    with migrated.begin() as connection:
        connection.execute(text(change))
    lines = drift(migrated)
    assert len(lines) == 1 and lines[0].startswith(expected), lines


def _retype(tables) -> None:
    tables["review_jobs"].c.error_code.type = sa.String(99)


def _make_not_null(tables) -> None:
    tables["review_batches"].c.name.nullable = False


def _add_column(tables) -> None:
    tables["review_batches"].append_column(sa.Column("archived_at", sa.DateTime(timezone=True)))


def _add_table(tables) -> None:
    sa.Table("rate_limits", tables["review_jobs"].metadata, sa.Column("id", sa.Integer, primary_key=True))


@pytest.mark.parametrize("change, expected", [
    (_retype, "review_jobs.error_code: type is VARCHAR(64) in the database, "
              "VARCHAR(99) in the model"),
    (_make_not_null, "review_batches.name: nullable is True in the database, False in the model"),
    (_add_column, "review_batches.archived_at: modelled only"),
    (_add_table, "table rate_limits: modelled, but no migration creates it"),
])
def test_a_model_side_change_is_drift(migrated: Engine, change, expected: str):
    lines = drift(migrated, models_with(change))
    assert lines == [expected]
