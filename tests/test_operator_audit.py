"""An operator's cancel or retry on another seller's batch and its audit row commit together, in
the action's own transaction, against a real PostgreSQL: an audit row the database refuses
takes the action with it, and a retry asked twice is audited once.
"""

import uuid

import pytest
import sqlalchemy.exc
from sqlalchemy import Engine, text
from streamlit.testing.v1 import AppTest

from core.batches.progress import get_summary
from core.batches.retry import RetryOutcome, retry_failed
from core.identity.oversight import actions_on
from core.identity.sellers import Identity
from core.jobs.cancel import cancel_unstarted
from tests.test_retry_chain import QUEUE, accept, finish
from tests.test_ui_apptest import shown

SELLER = "seller-42"
OPERATOR = Identity("local", "Ops", operator=True, signed_in=False)
# A blank actor breaks the audit table's CHECK (operator_actions_actor_check): the audit insert
# fails inside the action's transaction.
UNAUDITABLE = Identity(" ", "Nobody", operator=True, signed_in=True)


def retry(engine: Engine, batch_id: uuid.UUID, acting: Identity | None) -> RetryOutcome:
    return retry_failed(engine, QUEUE, SELLER, batch_id, 1000, acting=acting)


def audit_rows(engine: Engine) -> list[tuple[str, uuid.UUID, str]]:
    with engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(
            "select action, batch_id, actor from operator_actions order by id"))]


def retries_of(engine: Engine, batch_id: uuid.UUID) -> int:
    with engine.connect() as connection:
        return connection.execute(text("select count(*) from review_batches where retry_of = :b"),
                                  {"b": batch_id}).scalar_one()


def test_a_cancel_whose_audit_row_is_refused_cancels_nothing(engine: Engine):
    batch = accept(engine, 2, owner=SELLER)
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        cancel_unstarted(engine, SELLER, batch, UNAUDITABLE)
    assert get_summary(engine, SELLER, batch).queued == 2
    assert audit_rows(engine) == []


def test_a_retry_whose_audit_row_is_refused_creates_no_batch_and_can_be_asked_again(engine: Engine):
    batch = accept(engine, 2, owner=SELLER)
    finish(engine, batch, "fail", "ok")
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        retry(engine, batch, UNAUDITABLE)
    assert retries_of(engine, batch) == 0 and audit_rows(engine) == []
    # The key was not claimed either: the same retry, audited, goes through
    assert retry(engine, batch, OPERATOR).created
    assert audit_rows(engine) == [("retry", batch, OPERATOR.seller_id)]


def test_an_operators_cancel_and_retry_each_leave_one_audit_row_however_often_asked(engine: Engine):
    batch = accept(engine, 3, owner=SELLER)
    assert cancel_unstarted(engine, SELLER, batch, OPERATOR) == 3
    assert cancel_unstarted(engine, SELLER, batch, OPERATOR) == 0  # nothing left: no new action
    first, again = retry(engine, batch, OPERATOR), retry(engine, batch, OPERATOR)
    assert first.created and not again.created and again.batch_id == first.batch_id
    assert audit_rows(engine) == [("cancel", batch, OPERATOR.seller_id), ("retry", batch, OPERATOR.seller_id)]
    assert [(action.action, action.actor_name) for action in actions_on(engine, batch)] == [
        ("retry", "local"), ("cancel", "local")]


@pytest.mark.parametrize("acting", [Identity(SELLER, "Seller", operator=False, signed_in=True),
                                    Identity(SELLER, "Seller", operator=True, signed_in=True), None])
def test_a_sellers_own_cancel_and_retry_leave_no_audit_row(engine: Engine, acting: Identity | None):
    batch = accept(engine, 2, owner=SELLER)
    assert cancel_unstarted(engine, SELLER, batch, acting) == 2
    assert retry(engine, batch, acting).created
    assert audit_rows(engine) == []


def test_an_operators_retry_from_the_batch_page_is_audited_once_however_often_clicked(app: AppTest,
                                                                                        engine: Engine):
    # Given another seller's batch with a failure, opened by the local operator
    batch = accept(engine, 2, owner=SELLER)
    finish(engine, batch, "fail", "ok")
    for _ in range(2):  # When the operator retries it, comes back and clicks Retry again
        app.query_params["batch"] = str(batch)
        app.switch_page("views/batch.py").run()
        next(button for button in app.button
             if button.label == "Retry failed and cancelled listings").click().run()
        assert not app.exception
    # Then one retry, one audit row (the second click led to the running retry: no new action)
    assert retries_of(engine, batch) == 1
    assert audit_rows(engine) == [("retry", batch, "local")]
    app.query_params["batch"] = str(batch)
    app.switch_page("views/batch.py").run()
    assert any(shown(caption.value).startswith("Operator local: retry at") for caption in app.caption)
