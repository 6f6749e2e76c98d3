"""The SQLModel table models (core/tables.py) against a freshly migrated database: a column
added, dropped, retyped or made nullable on one side only fails here, before it fails a query.
"""

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine, text
from sqlalchemy.dialects import postgresql
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
_DIALECT = postgresql.dialect()
Columns = dict[str, tuple[str, bool, bool]]  # name -> (type as PostgreSQL spells it, nullable, in PK)


@pytest.fixture
def migrated(empty_database_url: str) -> Iterator[Engine]:
    """A database brought from nothing to head by the migrations, as a new install is."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def database_tables(engine: Engine) -> dict[str, Columns]:
    """Every table of the public schema, column by column, as PostgreSQL reports it."""
    inspector = sa.inspect(engine)
    tables = {}
    for table in inspector.get_table_names():
        key = set(inspector.get_pk_constraint(table)["constrained_columns"])
        tables[table] = {column["name"]: (column["type"].compile(dialect=_DIALECT), column["nullable"],
                                          column["name"] in key)
                         for column in inspector.get_columns(table)}
    return tables


def model_tables() -> dict[str, Columns]:
    return {table.name: {column.name: (column.type.compile(dialect=_DIALECT), bool(column.nullable),
                                       column.primary_key) for column in table.columns}
            for table in SQLModel.metadata.sorted_tables}


def drift(engine: Engine) -> list[str]:
    """Each disagreement between the models and the database, one readable line each."""
    found, models = database_tables(engine), model_tables()
    lines = [f"table {name}: in the database, neither modelled nor listed in UNMODELLED"
             for name in sorted(set(found) - set(models) - set(UNMODELLED))]
    for name, columns in sorted(models.items()):
        actual = found.get(name, {})
        for column in sorted(set(columns) | set(actual)):
            if columns.get(column) != actual.get(column):
                lines.append(f"{name}.{column}: model {columns.get(column)}, database {actual.get(column)}")
    return lines


def test_table_models_match_a_freshly_migrated_database(migrated: Engine):
    assert drift(migrated) == []


def test_unmodelled_tables_exist_so_the_list_stays_honest(migrated: Engine):
    assert set(UNMODELLED) <= set(database_tables(migrated))


@pytest.mark.parametrize("change, expected", [
    ("alter table review_jobs add column note text", "review_jobs.note: model None"),
    ("alter table review_jobs drop column heartbeat_at", "review_jobs.heartbeat_at: model"),
    ("alter table review_batches alter column source_name type varchar(300)",
     "review_batches.source_name: model ('VARCHAR(255)', True, False), database ('VARCHAR(300)'"),
    ("alter table api_keys alter column revoked_at set not null", "api_keys.revoked_at: model"),
    ("create table sneaky (id int)", "table sneaky: in the database"),
])
def test_drift_is_reported(migrated: Engine, change: str, expected: str):
    with migrated.begin() as connection:
        connection.execute(text(change))
    lines = drift(migrated)
    assert len(lines) == 1 and lines[0].startswith(expected), lines
