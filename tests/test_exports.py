"""A batch's downloads against a real PostgreSQL: results as CSV and JSON, the fix-up file in
the seller's own columns, their names, and that they stream in chunks from one snapshot.
"""

import csv
import io
import json
import uuid
from datetime import date

import pytest
from sqlalchemy import Engine, text

from core.batches import export
from core.batches.export import (
    REVIEW_COLUMNS,
    NothingToFix,
    fixup_count,
    fixup_rule,
    open_export,
    results_csv,
    seller_columns,
)
from core.batches.verdicts import GOOD_SCORE_FROM
from core.catalogs.check import check_catalog
from core.downloads import download_bytes, download_name, open_download
from core.errors import BatchNotFound
from core.listings.snapshot import plain_decimal
from core.settings import Settings
from tests.builders import draft
from tests.test_batch_operations import CSV_HEADER, CSV_ROWS, REVIEW, accept, set_status, submit

NEEDS_WORK = GOOD_SCORE_FROM - 1
DAY = date(2026, 3, 7)


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def records(data: bytes) -> list[dict[str, str]]:
    header, *rows = read_csv(data)
    return [dict(zip(header, row, strict=True)) for row in rows]


def set_review(engine: Engine, batch_id: uuid.UUID, position: int, **review) -> None:
    """A finished review with these fields over REVIEW's (e.g. requiresHumanReview=True)."""
    set_status(engine, batch_id, position, "SUCCEEDED")
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set result = cast(:r as jsonb) "
                          "where batch_id = :b and item_position = :p"),
                     {"r": json.dumps(REVIEW | review), "b": batch_id, "p": position})


def set_batch(engine: Engine, batch_id: uuid.UUID, **columns) -> None:
    """Batch columns as submission stores them (name, column_map)."""
    values = {name: json.dumps(value) if isinstance(value, dict) else value
              for name, value in columns.items()}
    assignments = ", ".join(f"{name} = cast(:{name} as {'jsonb' if name == 'column_map' else 'text'})"
                            for name in values)
    with engine.begin() as conn:
        conn.execute(text(f"update review_batches set {assignments} where id = :b"), values | {"b": batch_id})


def checked(data: str | bytes, name: str, column_map: dict[str, str] | None = None):
    body = data.encode("utf-8") if isinstance(data, str) else data
    return check_catalog(body, name, 1000, 10**7, column_map)


# --- results ----------------------------------------------------------------------------------

def test_results_csv_has_the_listing_the_review_with_its_verdict_and_the_error(engine: Engine):
    batch_id = accept(engine, 3)
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    set_status(engine, batch_id, 2, "FAILED", code="MODEL_TIMEOUT")
    first, failed, queued = records(download_bytes(engine, "local", batch_id, "csv"))
    assert first == {
        "item_id": "item-1", "position": "1", "status": "SUCCEEDED", "title": "Wireless keyboard",
        "description": draft().description, "category": "Computer accessories", "price": "45.00",
        "attr:brand": "KeyPro", "attr:condition": "used", "qualityScore": str(NEEDS_WORK),
        "requiresHumanReview": "false", "verdict": "Needs work", "missingFields": "brand\nsize",
        "issues": "Short title", "suggestions": "Add the size\nName the brand", "error_code": "",
        "error_message": "",
    }
    assert (failed["error_code"], failed["error_message"], failed["verdict"]) == (
        "MODEL_TIMEOUT", "Safe message.", "")
    assert (queued["status"], queued["issues"]) == ("QUEUED", "")


def test_results_json_keeps_lists_as_lists_and_attributes_as_an_object(engine: Engine):
    batch_id = accept(engine, 2)
    set_status(engine, batch_id, 1, "SUCCEEDED")
    reviewed, queued = json.loads(download_bytes(engine, "local", batch_id, "json"))
    assert reviewed["missingFields"] == ["brand", "size"]
    assert reviewed["suggestions"] == ["Add the size", "Name the brand"]
    assert reviewed["attributes"] == {"brand": "KeyPro", "condition": "used"}
    assert (reviewed["price"], reviewed["verdict"], reviewed["requiresHumanReview"]) == (
        "45.00", "Good", False)
    assert (queued["issues"], queued["verdict"], queued["qualityScore"]) == (None, None, None)


@pytest.mark.parametrize("count", [4, 5])
@pytest.mark.parametrize("file_format", ["csv", "json", "fixup"])
def test_every_item_comes_once_in_order_across_chunks(engine: Engine, monkeypatch, count: int,
                                                      file_format: str):
    monkeypatch.setattr(export, "CHUNK", 2)
    batch_id = accept(engine, count)
    for position in range(1, count + 1):
        set_status(engine, batch_id, position, "SUCCEEDED", score=NEEDS_WORK)
    data = download_bytes(engine, "local", batch_id, file_format)
    rows = json.loads(data) if file_format == "json" else records(data)
    assert [row["item_id"] for row in rows] == [f"item-{n}" for n in range(1, count + 1)]


def test_a_download_is_one_piece_per_chunk_after_the_header(engine: Engine, monkeypatch):
    monkeypatch.setattr(export, "CHUNK", 2)
    batch_id = accept(engine, 5)
    pieces = list(open_download(engine, "local", batch_id, "csv").chunks)
    assert len(pieces) == 4 and pieces[0].startswith(b"\xef\xbb\xbf") and pieces[0].count(b"\n") == 1
    assert [len(read_csv(pieces[0] + piece)) - 1 for piece in pieces[1:]] == [2, 2, 1]


def test_a_download_reads_one_moment_of_the_batch(engine: Engine, monkeypatch):
    monkeypatch.setattr(export, "CHUNK", 2)
    batch_id = accept(engine, 5)
    chunks = open_download(engine, "local", batch_id, "csv").chunks
    header = next(chunks)
    set_status(engine, batch_id, 5, "SUCCEEDED")
    rows = records(header + b"".join(chunks))
    assert [row["status"] for row in rows] == ["QUEUED"] * 5


def test_attribute_columns_cover_every_item_in_order_of_first_appearance(engine: Engine):
    batch_id = accept(engine, 3)
    with engine.begin() as conn:
        conn.execute(text("update review_jobs set payload = jsonb_set(payload, '{attributes}', "
                          "'{\"colour\": \"red\"}') where batch_id = :b and item_position = 3"),
                     {"b": batch_id})
    header = read_csv(download_bytes(engine, "local", batch_id, "csv"))[0]
    assert header[7:10] == ["attr:brand", "attr:condition", "attr:colour"]


def test_attributes_beyond_the_column_cap_share_one_json_column(engine: Engine, monkeypatch):
    monkeypatch.setattr(export, "ATTRIBUTE_COLUMNS_MAX", 1)
    batch_id = accept(engine, 1)
    row = records(download_bytes(engine, "local", batch_id, "csv"))[0]
    assert (row["attr:brand"], json.loads(row["attributes"])) == ("KeyPro", {"condition": "used"})
    assert "attr:condition" not in row


@pytest.mark.parametrize("file_format", ["csv", "json", "fixup"])
def test_unknown_or_foreign_batch_is_not_found_before_any_byte(engine: Engine, file_format: str):
    batch_id = accept(engine, 1, owner="seller-a")
    for owner, wanted in (("seller-b", batch_id), ("seller-a", uuid.uuid4())):
        with pytest.raises(BatchNotFound):
            open_download(engine, owner, wanted, file_format)
    with pytest.raises(BatchNotFound):
        fixup_count(engine, "seller-b", batch_id)


# --- names ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("batch_name", "source_name", "expected"), [
    ("Spring sale", "shop.csv", "Spring sale-2026-03-07-results.csv"),
    (None, "exports/My Shop.csv", "My Shop-2026-03-07-results.csv"),
    (None, "C:\\Users\\me\\shop.v2.csv", "shop.v2-2026-03-07-results.csv"),
    ('EU: "best" <deals>/2026?', None, "EU_ _best_ _deals__2026_-2026-03-07-results.csv"),
    ("...", "..csv", "batch-12345678-2026-03-07-results.csv"),
    (None, None, "batch-12345678-2026-03-07-results.csv"),
    ("x" * 120, None, "x" * 50 + "-2026-03-07-results.csv"),
])
def test_download_names_are_the_batch_name_or_file_then_the_date(batch_name, source_name, expected):
    batch_id = uuid.UUID("12345678-0000-4000-8000-000000000000")
    name = download_name(batch_id, "csv", batch_name=batch_name, source_name=source_name, day=DAY)
    assert name == expected


def test_download_names_differ_by_format(engine: Engine):
    batch_id = accept(engine, 1)
    set_batch(engine, batch_id, name="Spring sale", source_name="shop.csv")
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    names = [open_download(engine, "local", batch_id, kind, day=DAY).file_name
             for kind in ("csv", "json", "fixup")]
    assert names == ["Spring sale-2026-03-07-results.csv", "Spring sale-2026-03-07-results.json",
                     "Spring sale-2026-03-07-fixup.csv"]


# --- fix-up file ------------------------------------------------------------------------------

def test_fixup_holds_the_reviewed_listings_that_need_work_or_human_review(engine: Engine):
    batch_id = accept(engine, 6)
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    set_status(engine, batch_id, 2, "SUCCEEDED", score=GOOD_SCORE_FROM)
    set_review(engine, batch_id, 3, qualityScore=95, requiresHumanReview=True)
    set_status(engine, batch_id, 4, "FAILED")
    set_status(engine, batch_id, 5, "FAILED", code="MODEL_TIMEOUT")
    rows = records(download_bytes(engine, "local", batch_id, "fixup"))
    assert [(row["item_id"], row["review_verdict"], row["review_score"]) for row in rows] == [
        ("item-1", "Needs work", str(NEEDS_WORK)), ("item-3", "Needs human review", "95")]
    assert (rows[0]["issues"], rows[0]["suggestions"], rows[0]["error"]) == (
        "Short title", "Add the size\nName the brand", "")
    assert fixup_count(engine, "local", batch_id) == 2


def test_fixup_of_a_batch_with_nothing_to_fix_is_no_file_but_says_why(engine: Engine):
    batch_id = accept(engine, 3)
    set_status(engine, batch_id, 1, "SUCCEEDED", score=GOOD_SCORE_FROM)
    set_status(engine, batch_id, 2, "FAILED")
    assert fixup_count(engine, "local", batch_id) == 0
    with pytest.raises(NothingToFix) as refused:
        open_download(engine, "local", batch_id, "fixup")
    assert f"below {GOOD_SCORE_FROM}" in refused.value.message
    assert "retried" in refused.value.message


def test_fixup_rule_states_the_cut_off_and_why_failures_are_not_in_it():
    assert f"score below {GOOD_SCORE_FROM}" in fixup_rule() and "retried, not fixed" in fixup_rule()


def test_fixup_keeps_the_sellers_csv_columns_and_adds_the_review(engine: Engine, settings: Settings):
    batch_id = submit(engine, settings, "exports/My Shop.csv", CSV_HEADER + "".join(CSV_ROWS))
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    set_status(engine, batch_id, 2, "SUCCEEDED", score=GOOD_SCORE_FROM)
    set_review(engine, batch_id, 3, requiresHumanReview=True)
    table = read_csv(download_bytes(engine, "local", batch_id, "fixup"))
    assert table[0] == CSV_HEADER.strip().split(",") + list(REVIEW_COLUMNS)
    assert [line[0] for line in table[1:]] == ["S-1", "S-3"]
    assert dict(zip(table[0], table[1], strict=True)) == {
        "SKU": "S-1", "Title": "Keyboard", "Description": "Wireless keyboard with receiver",
        "Category": "Computers", "Price": "45.00", "brand": "KeyPro", "attributes": '{"size": "L"}',
        "Colour": "black", "review_verdict": "Needs work", "review_score": str(NEEDS_WORK),
        "missing_fields": "brand\nsize", "issues": "Short title",
        "suggestions": "Add the size\nName the brand", "error": ""}
    assert table[2][1] == "'=HYPERLINK(\"http://x\")"


MAPPED_HEADER = "Product Name,Product Description,Category,Price,SKU,Notes,Title\n"
MAPPED_ROWS = ["Lamp,Desk lamp with a long arm,Home,12.50,L-1,fragile,Old lamp name\n",
               "Rug,Wool rug two by three metres,Home,80,L-2,,Old rug name\n"]
COLUMN_MAP = {"Product Name": "title", "Product Description": "description", "Notes": "ignore",
              "Title": "attribute"}


def submit_mapped(engine: Engine, settings: Settings, reviewed: bool = True) -> uuid.UUID:
    from core.batches.submission import submit_catalog
    from tests.test_batch_operations import QUEUE

    data = (MAPPED_HEADER + "".join(MAPPED_ROWS)).encode()
    batch_id = submit_catalog(engine, QUEUE, settings, owner="local", filename="mapped.csv", data=data,
                              column_map=COLUMN_MAP).batch_id
    set_batch(engine, batch_id, column_map=COLUMN_MAP)
    if reviewed:
        set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
        set_review(engine, batch_id, 2, requiresHumanReview=True)
    return batch_id


def test_fixup_gives_mapped_columns_back_under_the_sellers_names(engine: Engine, settings: Settings):
    rows = records(download_bytes(engine, "local", submit_mapped(engine, settings), "fixup"))
    assert list(rows[0]) == ["Product Name", "Product Description", "Category", "Price", "SKU", "Notes",
                             "Title", *REVIEW_COLUMNS]
    assert (rows[0]["Product Name"], rows[0]["SKU"], rows[0]["Title"]) == ("Lamp", "L-1", "Old lamp name")
    assert [row["Notes"] for row in rows] == ["", ""]


def test_fixup_with_a_mapping_uploads_again_as_the_same_listings(engine: Engine, settings: Settings):
    data = download_bytes(engine, "local", submit_mapped(engine, settings), "fixup")
    again = checked(data, "mapped-fixup.csv", COLUMN_MAP)
    assert again.ok, again.errors
    before = checked(MAPPED_HEADER + "".join(MAPPED_ROWS), "mapped.csv", COLUMN_MAP).items
    assert [(item.item_id, item.draft) for item in again.items] == [
        (item.item_id, item.draft) for item in before]


def test_fixup_of_a_csv_uploads_again_as_the_same_listings(engine: Engine, settings: Settings):
    original = CSV_HEADER + "".join(CSV_ROWS)
    batch_id = submit(engine, settings, "shop.csv", original)
    for position in (1, 2, 4):
        set_status(engine, batch_id, position, "SUCCEEDED", score=NEEDS_WORK)
    again = checked(download_bytes(engine, "local", batch_id, "fixup"), "shop-fixup.csv")
    assert again.ok, again.errors
    before = {item.item_id: item.draft for item in checked(original, "shop.csv").items}
    assert [item.item_id for item in again.items] == ["S-1", "S-2", "S-4"]
    for item in again.items:
        assert item.draft == before[item.item_id]
        assert plain_decimal(item.draft.price) == plain_decimal(before[item.item_id].price)


def test_fixup_of_a_json_catalog_uses_standard_columns_and_uploads_again(engine: Engine, settings: Settings):
    listings = [{"item_id": "J-1", "title": "Lamp", "description": "Desk lamp", "category": "Home",
                 "price": "12.50", "attributes": {"colour": "red", "Title": "clash", " pad": "x"}},
                {"item_id": "J-2", "title": "Rug", "description": "Wool rug", "category": "Home",
                 "price": "80", "attributes": {"size": "2x3"}},
                {"item_id": "J-3", "title": "Vase", "description": "Glass vase", "category": "Home",
                 "price": "9", "attributes": {"height": "30 cm"}}]
    batch_id = submit(engine, settings, "home.json", json.dumps(listings))
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    set_status(engine, batch_id, 2, "SUCCEEDED", score=NEEDS_WORK)
    set_status(engine, batch_id, 3, "SUCCEEDED", score=GOOD_SCORE_FROM)
    download = open_download(engine, "local", batch_id, "fixup", day=DAY)
    data = b"".join(download.chunks)
    assert download.file_name == "home-2026-03-07-fixup.csv"
    assert read_csv(data)[0] == ["item_id", "title", "description", "category", "price", "colour", "size",
                                 "attributes", *REVIEW_COLUMNS]
    again = checked(data, download.file_name)
    assert again.ok, again.errors
    before = checked(json.dumps(listings), "home.json").items[:2]
    assert [(item.item_id, item.draft) for item in again.items] == [
        (item.item_id, item.draft) for item in before]


def test_review_columns_never_take_a_name_of_the_sellers(engine: Engine, settings: Settings):
    body = "item_id,title,description,category,price,Issues,review_issues\nS-1,Lamp,Desk lamp,Home,9,a,b\n"
    batch_id = submit(engine, settings, "shop.csv", body)
    set_status(engine, batch_id, 1, "SUCCEEDED", score=NEEDS_WORK)
    header = read_csv(download_bytes(engine, "local", batch_id, "fixup"))[0]
    assert header[5:] == ["Issues", "review_issues", "review_verdict", "review_score", "missing_fields",
                          "review_review_issues", "suggestions", "error"]
    again = checked(download_bytes(engine, "local", batch_id, "fixup"), "shop-fixup.csv")
    assert again.ok, again.errors
    assert again.items[0].draft.attributes == {"Issues": "a", "review_issues": "b"}


def test_review_columns_are_recognised_only_last_and_in_order():
    header = "item_id,title,description,category,price,review_verdict,review_score,missing_fields,issues,"
    body = header + "suggestions,error\nS-1,Lamp,Desk lamp,Home,9,Needs work,40,,,,\n"
    assert checked(body, "fixup.csv").items[0].draft.attributes == {}
    moved = "item_id,review_verdict,title,description,category,price,review_score,missing_fields,issues," \
        "suggestions,error\nS-1,Needs work,Lamp,Desk lamp,Home,9,40,,,,\n"
    assert checked(moved, "fixup.csv").items[0].draft.attributes == {"review_verdict": "Needs work",
                                                                     "review_score": "40"}


@pytest.mark.parametrize("stored", ["mapped", "original"])
def test_seller_columns_read_either_stored_header(stored: str):
    original = ["Product Name", "SKU", "Notes", "Category", "Desc", "Price", "Colour"]
    column_map = {"Product Name": "title", "Notes": "ignore", "Desc": "description"}
    columns = {"mapped": ["title", "SKU", "Category", "description", "Price", "Colour"],
               "original": original}[stored]
    roles = dict(seller_columns(columns, column_map))
    assert roles == {"Product Name": "title", "SKU": "item_id", "Notes": "ignore", "Category": "category",
                     "Desc": "description", "Price": "price", "Colour": "attr:Colour"}
    if stored == "original":
        assert list(roles) == original


def test_the_fixup_rule_in_sql_is_verdict_of(engine: Engine):
    cases = [{"qualityScore": GOOD_SCORE_FROM - 1}, {"qualityScore": GOOD_SCORE_FROM},
             {"qualityScore": 100, "requiresHumanReview": True}, {"qualityScore": 0},
             {"qualityScore": GOOD_SCORE_FROM, "requiresHumanReview": False}]
    batch_id = accept(engine, len(cases))
    for position, review in enumerate(cases, start=1):
        set_review(engine, batch_id, position, **review)
    from core.batches.verdicts import verdict_of

    expected = [f"item-{n}" for n, review in enumerate(cases, start=1)
                if verdict_of(REVIEW | review) != "good"]
    rows = records(download_bytes(engine, "local", batch_id, "fixup"))
    assert [row["item_id"] for row in rows] == expected == ["item-1", "item-3", "item-4"]


def test_results_csv_writer_is_usable_on_its_own(engine: Engine):
    batch_id = accept(engine, 2)
    source, pieces = open_export(engine, "local", batch_id, results_csv)
    assert (source.batch_id, source.owner) == (batch_id, "local")
    assert len(read_csv(b"".join(pieces))) == 3


def test_a_retry_of_a_mapped_batch_gives_the_sellers_columns_back_too(engine: Engine, settings: Settings):
    from core.batches.retry import retry_failed
    from tests.test_batch_operations import QUEUE

    batch_id = submit_mapped(engine, settings, reviewed=False)
    set_status(engine, batch_id, 1, "FAILED")
    set_status(engine, batch_id, 2, "FAILED")
    retried = retry_failed(engine, QUEUE, "local", batch_id, 1000).batch_id
    set_status(engine, retried, 1, "SUCCEEDED", score=NEEDS_WORK)
    header = read_csv(download_bytes(engine, "local", retried, "fixup"))[0]
    assert header[:3] == ["Product Name", "Product Description", "Category"] and "Notes" in header
