"""Alembic environment: plain SQL revisions, run on the connection the caller provides."""

from alembic import context
from sqlalchemy import create_engine

config = context.config


def run_migrations() -> None:
    """Use the caller's connection when given (tests, `migrate`), else the configured URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, transaction_per_migration=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        context.configure(connection=connection, transaction_per_migration=True)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations()
