"""The Streamlit pages driven by AppTest against a real database."""

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from streamlit.testing.v1 import AppTest

from core.listings.errors import next_step
from ui.column_mapping import mapping_key

APP = Path(__file__).parent.parent / "ui" / "app.py"
SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
HOSTILE = ["https://evil.example/login", "www.evil.example", "evil@evil.example", ":smile:",
           "[p](https://evil.example)", "<b>x</b> **bold**", "mailto:a@b.example", ":blue[x]",
           ":material/home:", "&lt;b&gt;", "$x^2$", "1. item\n- item\n# head\n===", "a\\:smile:"]
# What Streamlit's markdown tools see once escapes are read: GFM autolink literals (URLs, www.
# hosts, e-mail addresses) and emoji or icon shortcodes.
LIVE_PATTERNS = re.compile(r"https?://|www\.|[\w.+-]@[\w-]+\.\w|:[\w/+-]+:|mailto:", re.IGNORECASE)


def shown(markdown: str) -> str:
    """The text a reader sees for markdown written by plain_label: escapes read, joiners unseen."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


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


def test_valid_rows_only_are_submitted_by_choice_under_a_name(app: AppTest, engine: Engine):
    data = (b"item_id,title,description,category,price\nA-1,Lamp,Desk lamp,Home,9\n"
            b"A-2,Rug,Wool rug,Home,-1\nA-3,Vase,Glass vase,Home,12\n")
    upload(app, "home.csv", data)
    assert "or submit the 2 valid listing(s) only and leave the 1 invalid row(s) out" in app.error[0].value
    app.text_input[0].input("Spring home")
    next(button for button in app.button
         if button.label == "Submit the 2 valid listing(s) only").click().run()
    assert not app.exception
    with engine.connect() as conn:
        batch = conn.execute(text("select name, rejected_rows from review_batches")).one()
        items = conn.execute(text("select item_id from review_jobs order by item_position")).scalars().all()
    assert (batch.name, batch.rejected_rows, items) == ("Spring home", 1, ["A-1", "A-3"])
    assert [title.value for title in app.title] == ["Spring home"]
    assert any("1 invalid row(s) left out at upload" in caption.value for caption in app.caption)


def test_batch_page_shows_progress_and_the_first_page_of_items(app: AppTest, engine: Engine):
    upload(app, "fashion.jsonl", (SAMPLES / "fashion.jsonl").read_bytes())
    next(button for button in app.button if button.label == "Submit for review").click().run()
    with engine.connect() as conn:
        batch_id = str(conn.execute(text("select id from review_batches")).scalar())
    page = AppTest.from_file(str(APP), default_timeout=30)
    page.query_params["batch"] = batch_id
    page.switch_page("views/batch.py").run()
    assert not page.exception
    assert [metric.value for metric in page.metric] == ["15", "0", "0", "0", "0"]
    assert [metric.label for metric in page.metric] == ["Queued", "Running", "Done", "Failed", "Cancelled"]
    table = page.dataframe[0].value
    assert list(table["Item id"])[:2] == ["FA-4001", "FA-4002"] and len(table) == 15
    assert set(table["State"]) == {"Queued"} and set(table["Verdict"]) == {""}
    assert "15 listings: 0 good, 0 need work, 0 need human review, 0 failed, 0 cancelled, 15 pending" in [
        markdown.value.strip("*") for markdown in page.markdown]
    assert "Cost: $0.0000 (0 in / 0 out tokens)" in [caption.value for caption in page.caption]


def test_unknown_batch_id_is_not_found_without_a_traceback(app: AppTest):
    app.query_params["batch"] = "00000000-0000-0000-0000-000000000000"
    app.switch_page("views/batch.py").run()
    assert not app.exception
    assert any("REVIEW_BATCH_NOT_FOUND" in error.value for error in app.error)


def test_uploading_the_same_file_again_shows_the_existing_batch(app: AppTest, engine: Engine):
    data = (SAMPLES / "books.json").read_bytes()
    for _ in range(2):
        app.switch_page("views/upload.py")
        upload(app, "books.json", data)
        next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    assert [info.value for info in app.info] == ["This file was already submitted; here is that batch."]
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from review_batches")).scalar() == 1


def submit_sample(app: AppTest, name: str) -> None:
    app.switch_page("views/upload.py")
    upload(app, name, (SAMPLES / name).read_bytes())
    next(button for button in app.button if button.label == "Submit for review").click().run()


def test_batches_page_lists_batches_and_filters_by_status(app: AppTest):
    submit_sample(app, "books.json")
    submit_sample(app, "fashion.jsonl")
    app.switch_page("views/batches.py").run()
    assert not app.exception
    assert [shown(link.label) for link in app.get("page_link")] == ["fashion.jsonl", "books.json"]
    app.get("button_group")[0].set_value("Completed").run()
    assert len(app.get("page_link")) == 0
    assert "No batches yet" in app.info[0].value


def finish_batch(engine: Engine, fail_positions: tuple[int, ...]) -> None:
    """Complete every job by hand, failing some, within the schema's constraints."""
    with engine.begin() as conn:
        conn.execute(text(
            "update review_jobs set status = 'SUCCEEDED', started_at = now(), completed_at = now(), "
            "result = '{\"qualityScore\": 90, \"missingFields\": [], \"issues\": [], "
            "\"suggestions\": [], \"requiresHumanReview\": false}' "
            "where not (item_position = any(:failed))"), {"failed": list(fail_positions)})
        conn.execute(text(
            "update review_jobs set status = 'FAILED', started_at = now(), completed_at = now(), "
            "error_code = 'AI_RESPONSE_INVALID', "
            "error_message = 'The model did not produce a valid review.' "
            "where item_position = any(:failed)"), {"failed": list(fail_positions)})


def open_batch(app: AppTest, engine: Engine) -> str:
    with engine.connect() as conn:
        batch_id = str(conn.execute(text(
            "select id from review_batches order by submitted_at limit 1")).scalar())
    app.query_params["batch"] = batch_id
    app.switch_page("views/batch.py").run()
    return batch_id


def test_batch_page_filters_failures_and_retries_only_them(app: AppTest, engine: Engine):
    submit_sample(app, "books.json")
    finish_batch(engine, fail_positions=(2, 5))
    original = open_batch(app, engine)
    views = app.get("button_group")[0]
    assert list(views.options) == [
        "All (12)", "Needs attention (2)", "Needs human review (0)", "Failed (2)", "Cancelled (0)",
        "Pending (0)"]
    views.set_value("failed").run()
    table = app.dataframe[0].value
    assert list(table["Item id"]) == ["BK-3002", "BK-3005"] and set(table["State"]) == {"Failed"}
    next(button for button in app.button
         if button.label == "Retry failed and cancelled listings").click().run()
    assert not app.exception
    with engine.connect() as conn:
        retry = conn.execute(text(
            "select id, retry_of from review_batches where retry_of is not null")).one()
        items = conn.execute(text(
            "select item_id from review_jobs where batch_id = :b order by item_position"),
            {"b": retry.id}).scalars().all()
    assert str(retry.retry_of) == original and items == ["BK-3002", "BK-3005"]


def test_the_batch_pages_downloads_do_not_rerun_the_page_when_clicked(app: AppTest, engine: Engine):
    # A click that reruns the page lets that rerun revoke the very file the click asked for
    # (a deferred download's id lives until the next run that draws its button ends).
    submit_sample(app, "books.json")
    finish_batch(engine, fail_positions=(2,))
    open_batch(app, engine)
    buttons = {button.proto.label: button.proto.ignore_rerun for button in app.get("download_button")}
    assert buttons == {"Results (CSV)": True, "Results (JSON)": True, "Fix-up file (0 listings)": True}


def test_a_retry_from_the_batch_page_takes_a_raised_budget(app: AppTest, engine: Engine):
    submit_sample(app, "books.json")
    finish_batch(engine, fail_positions=(3,))
    open_batch(app, engine)
    next(widget for widget in app.number_input
         if widget.label.startswith("Budget for the retry")).set_value(7.5).run()
    next(button for button in app.button
         if button.label == "Retry failed and cancelled listings").click().run()
    assert not app.exception
    with engine.connect() as conn:
        budget = conn.execute(text(
            "select budget_usd from review_batches where retry_of is not null")).scalar_one()
    assert budget == Decimal("7.5000")


def test_selecting_a_row_opens_its_review_beside_the_listing_as_submitted(app: AppTest, engine: Engine):
    submit_sample(app, "books.json")
    finish_batch(engine, fail_positions=(2,))
    batch_id = open_batch(app, engine)
    app.session_state[f"table-items-{batch_id}-all-position-"] = {
        "selection": {"rows": [1], "columns": [], "cells": []}}
    app.run()
    assert not app.exception
    assert "Listing #2 as submitted" in [caption.value for caption in app.caption]
    assert any(block.value.startswith("Item id: BK-3002\nTitle: ") for block in app.text)
    assert [error.value for error in app.error] == [
        "AI_RESPONSE_INVALID: The model did not produce a valid review."]
    assert next_step("AI_RESPONSE_INVALID") in [caption.value for caption in app.caption]


def test_cancel_marks_unstarted_items_cancelled(app: AppTest, engine: Engine):
    submit_sample(app, "fashion.jsonl")
    open_batch(app, engine)
    next(button for button in app.button
         if button.label == "Cancel the 15 listing(s) not yet started").click().run()
    with engine.connect() as conn:  # nothing happens before the seller confirms
        assert conn.execute(text("select count(*) from review_jobs where status = 'CANCELLED'")).scalar() == 0
    next(button for button in app.button if button.label == "Cancel 15 listing(s)").click().run()
    assert not app.exception
    assert "Cancelled 15 listing(s)" in app.info[0].value
    assert [metric.value for metric in app.metric][-1] == "15"
    assert any(bar.proto.text.startswith("Completed, 15 cancelled:") for bar in app.get("progress"))


def test_review_page_reviews_one_listing_and_reports_field_problems(app: AppTest):
    app.switch_page("views/review.py").run()
    app.text_input[0].input("Wireless keyboard")
    app.text_area[0].input("Used wireless keyboard with its USB receiver; all keys work.")
    app.text_input[1].input("Computer accessories")
    app.text_input[2].input("45.00")
    app.text_area[1].input("brand: KeyPro\ncondition: used")
    app.button[0].click().run()
    assert not app.exception and not app.error
    assert app.metric[0].label == "Quality score"
    app.text_input[2].input("-3")
    app.text_area[1].input("brand KeyPro")
    app.button[0].click().run()
    assert [shown(error.value) for error in app.error] == [
        "attributes: line 1 has no ':'; write attributes as 'name: value'.",
        "price: price cannot be negative: use 0 or more."]


def test_operations_page_shows_queue_and_jobs(app: AppTest):
    submit_sample(app, "books.json")
    app.switch_page("views/operations.py").run()
    assert not app.exception
    assert app.metric[0].label == "Active workers (last minute)"
    assert app.metric[1].value.endswith(" s")
    assert "Cost today (UTC) per provider and model" in [caption.value for caption in app.caption]


def test_seller_text_is_never_rendered_as_markdown(app: AppTest, engine: Engine, tmp_path: Path):
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text(json.dumps({"item_id": "[x](http://evil.example)",
                                   "title": "**bold** <script>alert(1)</script>",
                                   "description": "[click](http://evil.example)", "category": "C",
                                   "price": "1"}) + "\n")
    upload(app, "hostile.jsonl", hostile.read_bytes())
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    rendered = [md.value for md in app.markdown] + [caption.value for caption in app.caption] + [
        title.value for title in app.title]
    assert all("**bold**" not in text and "](http" not in text for text in rendered)


def test_error_report_download_lists_every_problem_with_formulas_defused():
    from core.catalogs.check import check_catalog
    from core.catalogs.report import error_report_csv

    data = b"item_id,title,description,category,price\n=cmd|' /C calc'!A0,,D,C,-1\n"
    report = error_report_csv(check_catalog(data, "x.csv", 10, 10_000).errors).decode("utf-8-sig")
    lines = report.splitlines()
    assert lines[0] == '"row","line","item_id","field","message"'
    assert len(lines) == 3 and all(line.startswith('1,2,"\'=cmd') for line in lines[1:])


def test_invalid_upload_offers_the_error_report_without_rerunning_the_check_on_click(app: AppTest):
    upload(app, "with_errors.csv", (SAMPLES / "with_errors.csv").read_bytes())
    buttons = {button.proto.label: button.proto.ignore_rerun for button in app.get("download_button")}
    assert buttons == {"New here? Download a sample catalog": True, "Download the error report (CSV)": True}


def test_column_mapping_turns_seller_headers_into_fields(app: AppTest, engine: Engine):
    data = (b"Artikel,Name,Text,Kategorie,Preis,Farbe,Intern\n"
            b"A1,Lamp,Brass desk lamp,Home,89.90,gold,x\n")
    upload(app, "shop.csv", data)
    assert "problem(s) found" in app.error[0].value
    editor = app.data_editor[0].value
    assert list(editor["Your column"]) == ["Artikel", "Name", "Text", "Kategorie", "Preis", "Farbe", "Intern"]
    assert list(editor["Holds"])[1] == "title"  # "Name" is proposed as the title
    mapping = {"Artikel": "item_id", "Text": "description", "Kategorie": "category", "Preis": "price",
               "Intern": "ignore"}
    rows = list(editor["Your column"])
    app.session_state[mapping_key(rows)] = {
        "edited_rows": {rows.index(name): {"Holds": target} for name, target in mapping.items()},
        "added_rows": [], "deleted_rows": []}
    app.run()
    assert "1 listings are ready." in app.success[0].value
    next(button for button in app.button if button.label == "Submit for review").click().run()
    with engine.connect() as conn:
        payload = conn.execute(text("select payload from review_jobs")).scalar()
    assert payload["title"] == "Lamp" and payload["attributes"] == {"Farbe": "gold"}


def test_items_and_batches_are_paged_by_keyset(app: AppTest, engine: Engine):
    submit_sample(app, "electronics_and_more.csv")
    open_batch(app, engine)
    assert list(app.dataframe[0].value["#"]) == list(range(1, 26))
    next(button for button in app.button if button.label == "Next page").click().run()
    assert list(app.dataframe[0].value["#"]) == list(range(26, 31))
    next(button for button in app.button if button.label == "Previous page").click().run()
    assert app.dataframe[0].value["#"].iloc[0] == 1


def text_node(markdown: str) -> str:
    """What markdown plugins (autolinks, emoji) see: escapes read, joiners kept."""
    return re.sub(r"\\(.)", r"\1", markdown)


def unescaped_specials(markdown: str) -> str:
    return re.sub(r"[^\\`*_{}\[\]()#+\-=!|~<>$&:.@]", "", re.sub(r"\\.", "", markdown))


@pytest.mark.parametrize("text", HOSTILE)
def test_plain_label_shows_text_literally_with_no_link_emoji_or_markup_left(text: str):
    from ui.components import plain_label

    label = plain_label(text)
    assert shown(label) == text
    assert not LIVE_PATTERNS.search(text_node(label))
    assert unescaped_specials(label) == ""


def test_hostile_item_ids_and_file_name_show_literally_on_the_batch_page(app: AppTest, engine: Engine,
                                                                         tmp_path: Path):
    ids = HOSTILE[:4]
    lines = [json.dumps({"item_id": item_id, "title": "T", "description": "D", "category": "C",
                         "price": "1"}) for item_id in ids]
    upload(app, "evil@evil.example.jsonl", "\n".join(lines).encode())
    next(button for button in app.button if button.label == "Submit for review").click().run()
    assert not app.exception
    assert list(app.dataframe[0].value["Item id"]) == ids  # table cells are inert text
    captions = [caption.value for caption in app.caption if "evil" in caption.value]
    assert [shown(caption).split(" · ")[0] for caption in captions] == ["evil@evil.example.jsonl"]
    assert [shown(title.value) for title in app.title] == ["evil@evil.example.jsonl"]
    seller_parts = [text_node(title.value) for title in app.title] + [
        text_node(caption).split(" · ")[0] for caption in captions]
    assert not any(LIVE_PATTERNS.search(part) for part in seller_parts)


def test_review_form_errors_show_the_sellers_own_input_literally(app: AppTest):
    app.switch_page("views/review.py").run()
    app.text_input[0].input("Lamp")
    app.text_area[0].input("Brass desk lamp")
    app.text_input[1].input("Home")
    app.text_input[2].input("[p](https://evil.example)")
    app.button[0].click().run()
    [error] = [error.value for error in app.error]
    assert "'[p](https://evil.example)'" in shown(error)
    assert unescaped_specials(error) == "" and not LIVE_PATTERNS.search(text_node(error))


def test_webhook_page_registers_shows_the_secret_once_and_removes(app: AppTest, engine: Engine):
    app.run()
    app.switch_page("views/webhooks.py").run()
    assert "No webhook is registered" in app.info[0].value
    app.text_input[0].input("ftp://example.com/hook")
    app.button[0].click().run()
    assert any("INVALID_WEBHOOK_URL" in error.value for error in app.error)
    app.text_input[0].input("http://127.0.0.1:9/hook")
    app.button[0].click().run()
    assert not app.exception
    [secret] = [code.value for code in app.code]
    with engine.connect() as conn:
        assert conn.execute(text("select secret from webhooks")).scalar() == secret
    assert app.text[0].value.startswith("Current: http://127.0.0.1:9/hook")
    app.run()
    assert not app.code  # shown once, at registration
    next(button for button in app.button if button.label == "Remove the webhook").click().run()
    assert "No webhook is registered" in app.info[0].value


def test_batch_page_shows_its_completion_webhook_delivery(app: AppTest, engine: Engine):
    from core.webhooks.registration import register_webhook

    register_webhook(engine, "local", "http://127.0.0.1:9/hook")
    submit_sample(app, "books.json")
    finish_batch(engine, fail_positions=())
    open_batch(app, engine)
    assert "Webhook: pending after 0 attempt(s)" in [caption.value for caption in app.caption]
