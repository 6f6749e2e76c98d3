"""The Streamlit pages driven by AppTest against a real database."""

from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from streamlit.testing.v1 import AppTest

APP = Path(__file__).parent.parent / "ui" / "app.py"
SAMPLES = Path(__file__).parent.parent / "sample_catalogs"


@pytest.fixture
def app(database_url: str, monkeypatch) -> AppTest:
    from core.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    from ui.services import runtime

    runtime.clear()
    yield AppTest.from_file(str(APP), default_timeout=30)
    get_settings.cache_clear()
    runtime.clear()


def upload(app: AppTest, name: str, data: bytes) -> AppTest:
    app.run()
    app.file_uploader[0].set_value((name, data, "text/csv")).run()
    return app


def test_invalid_catalog_lists_every_problem_and_offers_no_submit(app: AppTest, engine: Engine):
    upload(app, "with_errors.csv", (SAMPLES / "with_errors.csv").read_bytes())
    assert not app.exception
    assert "8 problem(s) found" in app.error[0].value
    problems = app.dataframe[0].value
    assert set(problems["row"]) == {2, 3, 4, 5, 6, 7, 8, 9}
    assert not any(button.label == "Submit for review" for button in app.button)
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from review_jobs")).scalar() == 0


def test_valid_catalog_is_previewed_submitted_and_shown(app: AppTest, engine: Engine):
    upload(app, "books.json", (SAMPLES / "books.json").read_bytes())
    assert "12 listings are ready." in app.success[0].value
    assert list(app.dataframe[0].value["item_id"])[:2] == ["BK-3001", "BK-3002"]
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    with engine.connect() as conn:
        batch_id = conn.execute(text("select id from review_batches")).scalar()
        assert conn.execute(text("select count(*) from review_jobs")).scalar() == 12
    assert app.query_params["batch"] == str(batch_id)


def test_batch_page_shows_progress_and_the_first_page_of_items(app: AppTest, engine: Engine):
    upload(app, "fashion.jsonl", (SAMPLES / "fashion.jsonl").read_bytes())
    next(button for button in app.button if button.label == "Submit for review").click().run()
    with engine.connect() as conn:
        batch_id = str(conn.execute(text("select id from review_batches")).scalar())
    page = AppTest.from_file(str(APP), default_timeout=30)
    page.query_params["batch"] = batch_id
    page.switch_page("pages/batch.py").run()
    assert not page.exception
    assert [metric.value for metric in page.metric] == ["15", "0", "0", "0"]
    assert len(page.dataframe[0].value) == 15


def test_unknown_batch_id_is_not_found_without_a_traceback(app: AppTest):
    app.query_params["batch"] = "00000000-0000-0000-0000-000000000000"
    app.switch_page("pages/batch.py").run()
    assert not app.exception
    assert any("REVIEW_BATCH_NOT_FOUND" in error.value for error in app.error)


def test_uploading_the_same_file_again_shows_the_existing_batch(app: AppTest, engine: Engine):
    data = (SAMPLES / "books.json").read_bytes()
    for _ in range(2):
        app.switch_page("pages/upload.py")
        upload(app, "books.json", data)
        next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    assert [info.value for info in app.info] == ["This file was already submitted; here is that batch."]
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from review_batches")).scalar() == 1
