"""Catalog parsing and validation: every format, every kind of problem, all reported at once."""

import json
import tracemalloc
from decimal import Decimal
from pathlib import Path

import pytest

from core.catalogs.check import MAX_REPORTED_ERRORS, check_catalog
from core.catalogs.formats import MAX_CSV_COLUMNS, read_records
from core.catalogs.mapping import changed_targets, suggested_targets
from core.listings.draft import validate_draft

SAMPLES = Path(__file__).parent.parent / "sample_catalogs"
LIMIT_ITEMS = 1000
LIMIT_BYTES = 20 * 1024 * 1024


def check(text: str | bytes, name: str = "catalog.csv", max_items: int = LIMIT_ITEMS):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return check_catalog(data, name, max_items, LIMIT_BYTES)


def errors_of(result) -> list[tuple]:
    return [(e.row, e.item_id, e.field) for e in result.errors]


HEADER = "item_id,title,description,category,price,brand\n"


def test_csv_with_quoted_newline_keeps_rows_and_start_lines():
    result = check(HEADER + 'A1,Keyboard,"Line one\nline two",Computers,45.00,KeyPro\n'
                            "A2,Mouse,Wireless mouse,Computers,19.99,\n")
    assert result.ok
    assert [(i.row, i.line, i.item_id) for i in result.items] == [(1, 2, "A1"), (2, 4, "A2")]
    assert result.items[0].draft.description == "Line one\nline two"
    assert result.items[0].draft.price == Decimal("45.00") and str(result.items[0].draft.price) == "45.00"


def test_csv_other_columns_become_attributes_and_empty_cells_are_dropped():
    result = check(HEADER + "A1,Keyboard,Nice keyboard,Computers,45,KeyPro\nA2,Mouse,Nice,Computers,1,\n")
    assert result.items[0].draft.attributes == {"brand": "KeyPro"}
    assert result.items[1].draft.attributes == {}


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_delimiter_is_sniffed(delimiter: str):
    text = delimiter.join(["sku", "title", "description", "category", "price"]) + "\n"
    text += delimiter.join(["S1", "Lamp", "Brass lamp, 40 cm", "Home", "89.90"]) + "\n"
    result = check(text)
    assert result.ok and result.items[0].item_id == "S1"


def test_csv_with_utf8_bom_and_semicolons_sample_parses():
    data = (SAMPLES / "home_goods_semicolon.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    result = check(data, "home_goods_semicolon.csv")
    assert result.ok, result.errors
    assert len(result.items) == 12


@pytest.mark.parametrize("name", ["electronics_and_more.csv", "books.json", "fashion.jsonl"])
def test_valid_samples_parse_without_errors(name: str):
    result = check((SAMPLES / name).read_bytes(), name)
    assert result.ok, result.errors
    assert len(result.items) >= 10


def test_error_sample_reports_every_problem_with_row_line_item_and_field():
    result = check((SAMPLES / "with_errors.csv").read_bytes(), "with_errors.csv")
    assert not result.ok and result.items[0].item_id == "ERR-2001"
    found = {(e.row, e.field) for e in result.errors}
    assert found >= {(2, "title"), (3, "description"), (4, "price"), (5, "price"), (6, "price"),
                     (7, "item_id"), (8, "item_id"), (9, "category")}
    assert all(e.line == e.row + 1 for e in result.errors)
    duplicate = next(e for e in result.errors if e.row == 7)
    assert "row 1" in duplicate.message and duplicate.item_id == "ERR-2001"


def test_json_article_shape_keeps_price_scale():
    body = {"items": [{"itemId": "kb-1", "listing": {
        "title": "Wireless keyboard", "description": "Used.", "category": "Computer accessories",
        "price": 45.00, "attributes": {"brand": "KeyPro"}}}]}
    text = json.dumps(body).replace("45.0", "45.00")
    result = check(text, "batch.json")
    assert result.ok and str(result.items[0].draft.price) == "45.00"
    assert result.items[0].draft.attributes == {"brand": "KeyPro"}


def test_json_plain_array_of_flat_objects():
    text = json.dumps([{"sku": "S1", "title": "T", "description": "D", "category": "C",
                        "price": "10.50", "colour": "red"}])
    result = check(text, "flat.json")
    assert result.ok and result.items[0].draft.attributes == {"colour": "red"}


def test_json_article_shape_rejects_unknown_listing_fields():
    text = json.dumps({"items": [{"itemId": "a", "listing": {
        "title": "T", "description": "D", "category": "C", "price": 1, "colour": "red"}}]})
    result = check(text, "batch.json")
    assert errors_of(result) == [(1, "a", "colour")]


def test_jsonl_reports_bad_lines_and_bad_rows_together():
    lines = [
        json.dumps({"item_id": "a", "title": "T", "description": "D", "category": "C", "price": "1"}),
        "{not json",
        json.dumps({"item_id": "c", "title": "", "description": "D", "category": "C", "price": "-1"}),
    ]
    result = check("\n".join(lines), "feed.jsonl")
    assert [(e.row, e.line, e.field) for e in result.errors] == [
        (2, 2, None), (3, 3, "title"), (3, 3, "price")]


def test_invalid_json_names_line_and_column():
    result = check('{"items": [\n  {"itemId": "a",,}\n]}', "bad.json")
    assert len(result.errors) == 1 and "line 2" in result.errors[0].message


@pytest.mark.parametrize("price,fragment", [
    ("-5.00", "negative"), ("$45", "currency"), ("abc", "not a number"),
    ("NaN", "finite"), ("Infinity", "finite"),
])
def test_bad_prices_explain_what_to_write(price: str, fragment: str):
    result = check(HEADER + f"A1,Keyboard,Desc,Computers,{price},\n")
    assert errors_of(result) == [(1, "A1", "price")]
    assert fragment in result.errors[0].message


def test_length_limits_on_title_description_category_and_item_id():
    row = ",".join(["I" * 129, "T" * 201, "D" * 5001, "C" * 101, "1", ""])
    result = check(HEADER + row + "\n")
    assert {e.field for e in result.errors} == {"item_id", "title", "description", "category"}


def test_more_than_fifty_attributes_is_rejected():
    attributes = {f"a{i}": "x" for i in range(51)}
    text = json.dumps([{"item_id": "a", "title": "T", "description": "D", "category": "C",
                        "price": 1, "attributes": attributes}])
    result = check(text, "x.json")
    assert [e.field for e in result.errors] == ["attributes"]


def test_non_text_attribute_value_is_rejected():
    text = json.dumps([{"item_id": "a", "title": "T", "description": "D", "category": "C",
                        "price": 1, "attributes": {"size": 42}}])
    assert errors_of(check(text, "x.json")) == [(1, "a", "attributes.size")]


def test_missing_required_columns_are_file_errors():
    result = check("item_id,title,price\nA1,T,1\n")
    assert [(e.row, e.field) for e in result.errors] == [(None, "description"), (None, "category")]


def test_row_with_extra_cells_asks_for_quotes():
    result = check(HEADER + "A1,Keyboard,Desc, with comma,Computers,1,KeyPro\n")
    assert "double quotes" in result.errors[0].message and result.errors[0].row == 1


def test_more_items_than_the_limit_is_rejected_before_storage():
    rows = "".join(f"A{i},T,D,C,1,\n" for i in range(4))
    result = check(HEADER + rows, max_items=3)
    assert not result.ok and "at most 3" in result.errors[0].message


@pytest.mark.parametrize("data,fragment", [
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    ("item_id,title\nA1,Caf\xe9\n".encode("latin-1"), "UTF-8"),
])
def test_unreadable_files_get_one_clear_error(data: bytes, fragment: str):
    result = check(data)
    assert len(result.errors) == 1 and fragment in result.errors[0].message


def test_file_over_the_size_limit_is_rejected_without_parsing():
    result = check_catalog(b"x" * (3 * 1024 * 1024 // 2), "big.csv", LIMIT_ITEMS, 1024 * 1024)
    assert "The file is 1.5 MB; the limit is 1 MB per file" in result.errors[0].message


def test_missing_field_error_points_at_the_mapping():
    result = check_catalog(b"item_id,Product Name,description,category,price\nA,T,D,C,1\n", "c.csv",
                           LIMIT_ITEMS, 1024 * 1024)
    assert [error.field for error in result.errors] == ["title"]
    assert "in the column mapping, choose which of your columns holds the title" in result.errors[0].message


def test_mapping_editor_proposes_synonyms_but_a_file_keeps_its_meaning_without_a_mapping():
    columns = ["SKU", "Product Name", "Name", "Product Description", "category", "Sale Price", "colour"]
    suggested = suggested_targets(columns)
    assert suggested == {"SKU": "item_id", "Product Name": "title", "Name": "attribute",
                         "Product Description": "description", "category": "category",
                         "Sale Price": "price", "colour": "attribute"}
    assert changed_targets(suggested) == {"Product Name": "title", "Product Description": "description",
                                          "Sale Price": "price"}


def test_header_only_file_has_no_listings():
    result = check(HEADER)
    assert [e.message for e in result.errors] == ["The file has no listings: add at least one row."]


def test_attributes_json_column_and_extra_columns_merge():
    text = HEADER.replace(",brand", ",attributes,brand") + 'A1,T,D,C,1,"{""colour"": ""red""}",KeyPro\n'
    result = check(text)
    assert result.ok and result.items[0].draft.attributes == {"colour": "red", "brand": "KeyPro"}


def test_blank_cell_in_the_first_row_is_a_row_error_not_a_missing_column():
    result = check(HEADER + "A1,Keyboard,,Computers,45,KeyPro\n")
    assert errors_of(result) == [(1, "A1", "description")]


def test_item_id_and_sku_columns_together_are_ambiguous():
    result = check("item_id,sku,title,description,category,price\nA1,S1,T,D,C,1\n")
    assert [(e.row, e.field) for e in result.errors] == [(None, "item_id")]
    assert "'item_id', 'sku'" in result.errors[0].message


def test_jsonl_strings_may_contain_unicode_line_separators():
    line = json.dumps({"item_id": "a", "title": "T", "description": "one\u2028two\x85three",
                       "category": "C", "price": "1"}, ensure_ascii=False)
    result = check(line + "\n", "feed.jsonl")
    assert result.ok and result.items[0].draft.description == "one\u2028two\x85three"


def test_control_characters_are_rejected_with_the_field_named():
    text = json.dumps([{"item_id": "a", "title": "Mouse\u0000x", "description": "D",
                        "category": "C", "price": 1, "attributes": {"colour": "red\u0007"}}])
    result = check(text, "x.json")
    assert errors_of(result) == [(1, "a", "title"), (1, "a", "attributes.colour")]
    assert "control characters" in result.errors[0].message


def test_item_ids_are_trimmed_before_the_uniqueness_check():
    result = check(HEADER + "A1,T,D,C,1,\n A1 ,T,D,C,1,\n")
    assert errors_of(result) == [(2, "A1", "item_id")]


def test_deeply_nested_json_is_a_clear_error():
    result = check("[" * 100_000 + "]" * 100_000, "deep.json")
    assert len(result.errors) == 1 and "nested too deeply" in result.errors[0].message


def test_prices_with_too_many_decimals_are_rejected():
    result = check(HEADER + "A1,T,D,C,19.99999,\n")
    assert errors_of(result) == [(1, "A1", "price")] and "decimal places" in result.errors[0].message


def test_a_json_number_price_with_too_many_decimals_is_rejected():
    result = check('[{"item_id": "a", "title": "T", "description": "D", "category": "C", "price": 1E-5000}]',
                   "x.json")
    assert errors_of(result) == [(1, "a", "price")] and "decimal places" in result.errors[0].message


def test_column_map_renames_and_ignores_seller_columns():
    data = "Artikel,Name,Text,Kategorie,Preis,Farbe,Intern\nA1,Lamp,Desk lamp,Home,89.90,gold,x\n"
    mapping = {"Artikel": "item_id", "Name": "title", "Text": "description",
               "Kategorie": "category", "Preis": "price", "Intern": "ignore"}
    result = check_catalog(data.encode(), "shop.csv", LIMIT_ITEMS, LIMIT_BYTES, mapping)
    assert result.ok and result.items[0].item_id == "A1"
    assert result.items[0].draft.attributes == {"Farbe": "gold"}
    assert result.columns == ["item_id", "title", "description", "category", "price", "Farbe"]


def test_a_column_named_like_a_field_can_be_mapped_to_an_attribute():
    data = "item_id,title,description,category,Price,Sale price\nA1,T,D,C,99.00,79.00\n"
    mapping = {"Price": "attribute", "Sale price": "price"}
    result = check_catalog(data.encode(), "shop.csv", LIMIT_ITEMS, LIMIT_BYTES, mapping)
    assert result.ok, result.errors
    assert str(result.items[0].draft.price) == "79.00"
    assert result.items[0].draft.attributes == {"Price": "99.00"}


def listing(**fields) -> dict:
    return {"item_id": "a", "title": "T", "description": "D", "category": "C", "price": "1"} | fields


def as_json(*listings: dict) -> str:
    """ensure_ascii keeps lone surrogates as \\ud800 escapes, as a hostile client sends them."""
    return json.dumps(list(listings))


def test_a_header_at_the_column_limit_is_checked_in_one_pass():
    names = ["sku", "item_id", "title", "description", "category", "price"]
    names += [f"c{i}" for i in range(MAX_CSV_COLUMNS - len(names))]
    result = check(",".join(names) + "\nS1,A1,T,D,C,1\n")
    assert [(e.field, e.line) for e in result.errors] == [("item_id", 1)]
    assert result.columns == names


def test_a_sixty_thousand_column_header_is_refused_before_its_cells_are_read():
    names = ["item_id", "title", "description", "category", "price"] + [f"c{i}" for i in range(60_000)]
    result = check(";".join(names) + "\nA1;T;D;C;1\n")
    assert [(e.line, e.message) for e in result.errors] == [(1, (
        "The header has 60,005 columns; a catalog takes at most 1,000. Delete the columns you do not need."))]
    assert result.columns == [] and result.items == []


@pytest.mark.parametrize("name,text", [
    ("x.json", json.dumps([{}] * 5)),
    ("x.jsonl", "{}\n{not json\n{}\n{}\n{}\n"),
    ("x.csv", HEADER + ",,,,,x\n" * 5),
])
def test_a_file_over_the_listing_limit_gets_only_the_count_error(name: str, text: str):
    result = check(text, name, max_items=3)
    assert [(e.row, e.message) for e in result.errors] == [(None, (
        "The file has 5 listings; a batch takes at most 3. Split it into files of 3 listings or fewer."))]
    assert result.items == [] and result.error_total == 1


def test_reported_errors_are_capped_with_the_total_stated():
    result = check(json.dumps([{}] * 300), "x.json")
    assert len(result.errors) == MAX_REPORTED_ERRORS == 1000 and result.error_total == 1500
    assert result.shown_note == "Showing the first 1,000 of 1,500 problems."
    assert check(json.dumps([{}]), "x.json").shown_note == ""


BIG = "9" * 5000


@pytest.mark.parametrize("name,text,field", [
    ("x.json", as_json(listing()).replace('"price": "1"', f'"price": {BIG}'), "price"),
    ("x.jsonl", json.dumps(listing()).replace('"price": "1"', f'"price": -{BIG}'), "price"),
    ("x.json", as_json(listing(attributes={"size": 1})).replace('"size": 1', f'"size": {BIG}'),
     "attributes.size"),
    ("x.csv", HEADER.replace(",brand", ",attributes") + f'a,T,D,C,1,"{{""size"": {BIG}}}"\n',
     "attributes.size"),
    ("x.json", as_json(listing(item_id=1)).replace('"item_id": 1', f'"item_id": {BIG}'), "item_id"),
])
def test_integers_over_4300_digits_are_row_errors(name: str, text: str, field: str):
    assert errors_of(check(text, name)) == [(1, None if field == "item_id" else "a", field)]


def test_a_json_integer_item_id_is_its_digits():
    result = check(as_json(listing(item_id=1001)), "x.json")
    assert result.ok and result.items[0].item_id == "1001"


def test_an_integer_price_of_any_size_is_a_field_problem_in_validate_draft():
    draft, problems = validate_draft(listing(price=10**5000, attributes={"size": 10**5000}))
    assert draft is None and [p.field for p in problems] == ["price", "attributes.size"]


@pytest.mark.parametrize("fields,field", [
    ({"title": "a\ud800b"}, "title"),
    ({"description": "\udfff"}, "description"),
    ({"attributes": {"colour": "re\ud83dd"}}, "attributes.colour"),
    ({"attributes": {"col\ud800our": "red"}}, "attributes.col\ufffdour"),
    ({"item_id": "A\ud800"}, "item_id"),
])
def test_lone_surrogates_are_row_errors_that_can_be_answered(fields: dict, field: str):
    result = check(as_json(listing(**fields)), "x.json")
    assert [e.field for e in result.errors] == [field] and "lone surrogate" in result.errors[0].message
    json.dumps([e.to_json_dict() for e in result.errors], ensure_ascii=False).encode("utf-8")


def test_a_csv_attributes_cell_nested_100000_deep_is_a_row_error():
    text = HEADER.replace(",brand", ",attributes") + 'a,T,D,C,1,"' + "[" * 100_000 + '"\n'
    assert errors_of(check(text)) == [(1, "a", "attributes")]


@pytest.mark.parametrize("price", ["1_000", "\u0661\u0662\u0663", "\uff11\uff12", "1E3", "+5"])
def test_a_price_is_ascii_digits_with_an_optional_point_only(price: str):
    result = check(as_json(listing(price=price)), "x.json")
    assert errors_of(result) == [(1, "a", "price")] and "plain digits" in result.errors[0].message


@pytest.mark.parametrize("price", ["45", "45.00", " 45.5 ", ".5", "0"])
def test_plain_prices_are_accepted(price: str):
    assert check(as_json(listing(price=price)), "x.json").ok


def test_a_csv_column_named_like_a_marker_is_an_attribute():
    result = check(HEADER.replace(",brand", ",__notes,__extra_cells__") + "A1,T,D,C,1,fragile,2\n")
    assert result.ok and result.items[0].draft.attributes == {"__notes": "fragile", "__extra_cells__": "2"}


@pytest.mark.parametrize("key", ["__not_an_object__", "__extra_cells__", "__mapped_attributes__"])
def test_a_json_key_named_like_a_marker_is_an_attribute(key: str):
    result = check(as_json(listing(**{key: "yes"})), "x.json")
    assert result.ok and result.items[0].draft.attributes == {key: "yes"}


@pytest.mark.parametrize("wrap", ["{}", '{{"items": {}}}'])
def test_a_huge_json_array_over_the_limit_is_counted_without_being_held(wrap: str):
    """Memory, not time: 4 MiB of `{},` must not become 1.4 million dicts held at once."""
    text = wrap.format("[" + "{}," * (4 * 1024 * 1024 // 3) + "{}]")
    tracemalloc.start()
    try:
        read = read_records(text, "json", max_items=10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read.count == 4 * 1024 * 1024 // 3 + 1 and len(read.records) == 10
    assert peak < 1024 * 1024


HUGE_EXPONENT = (b'{"item_id": "A", "title": "T", "description": "D", "category": "C", '
                 b'"price": 1e99999999999999999999}')


@pytest.mark.parametrize("name,data", [("c.json", b"[" + HUGE_EXPONENT + b"]"),
                                       ("c.jsonl", HUGE_EXPONENT + b"\n")])
def test_a_number_past_what_a_decimal_holds_is_a_json_problem_not_a_crash(name: str, data: bytes):
    result = check_catalog(data, name, LIMIT_ITEMS, 1024 * 1024)
    assert not result.ok and "Number out of range" in result.errors[0].message
