"""Any input to the catalog parsers or to validate_draft ends as accepted listings or row errors.

Never another exception (a 500 for the API), and nothing accepted or reported that a UTF-8
answer or PostgreSQL jsonb could not carry. Example counts are kept moderate: the point is the
kinds of input (bytes, JSON-ish structures, CSV text), not volume.
"""

import json
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.catalogs.check import CatalogCheck, check_catalog
from core.catalogs.formats import read_records
from core.catalogs.records import CatalogError
from core.listings.draft import validate_draft
from core.listings.snapshot import encode_snapshot

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ITEMS = 20
NAMES = ["item_id", "sku", "itemId", "title", "description", "category", "price", "attributes",
         "listing", "items", "brand", "__notes", "__not_an_object__", "__extra_cells__", ""]
# Characters that have broken a parser or a field rule before, among arbitrary ones.
TRICKY = st.sampled_from(["\ud800", "\udfff", "\x00", "\x07", "_", "\u0661", "\uff11", ",", ";", "\t",
                          '"', "\n", "\r", "\u2028", "{", "[", ".", "-", "1", "e"])
TEXT = st.text(st.one_of(st.characters(), TRICKY), max_size=12)
# Stands for an integer of 5,000 digits in generated JSON (json.dumps cannot write one).
BIG = "<5000 digits>"
NUMBERS = st.one_of(st.integers(), st.just(BIG), st.floats(),
                    st.decimals(allow_nan=False, allow_infinity=False))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, st.sampled_from(["45.00", "1_000", "\u0661"]))
KEYS = st.one_of(st.sampled_from(NAMES), TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=6)), max_leaves=20)
LISTINGS = st.dictionaries(KEYS, VALUES, max_size=8)


def assert_answerable(check: CatalogCheck) -> None:
    """Row errors or items, each of which a UTF-8 answer and PostgreSQL jsonb can carry."""
    assert isinstance(check, CatalogCheck)
    assert all(isinstance(error, CatalogError) for error in check.errors)
    json.dumps([error.to_json_dict() for error in check.errors], ensure_ascii=False).encode("utf-8")
    assert check.error_total >= len(check.errors)
    assert check.items == [] or check.ok
    for item in check.items:
        item.item_id.encode("utf-8")
        encode_snapshot(item.draft).encode("utf-8")
        assert "\\ud" not in encode_snapshot(item.draft).lower()


class Big(int):
    """An integer too long for str(), with a repr hypothesis can print."""

    def __repr__(self) -> str:
        return "10**5000"


def json_text(value: object) -> str:
    """json.dumps escapes lone surrogates (\\ud800) just as a hostile client writes them."""
    return json.dumps(value, default=str).replace(json.dumps(BIG), "9" * 5000)


def python_value(value: object) -> object:
    """The generated value with BIG as an int (what a Python caller could pass)."""
    if value == BIG:
        return Big(10**5000)
    if isinstance(value, dict):
        return {key: python_value(item) for key, item in value.items()}
    return [python_value(item) for item in value] if isinstance(value, list) else value


@PROPERTY
@given(data=st.binary(max_size=400), name=st.sampled_from(["x.csv", "x.json", "x.jsonl", "x.txt"]))
def test_any_bytes(data: bytes, name: str):
    assert_answerable(check_catalog(data, name, MAX_ITEMS, 10_000))


@PROPERTY
@given(listings=st.lists(st.one_of(LISTINGS, VALUES), max_size=6), wrapped=st.booleans(),
       lines=st.booleans())
def test_any_json_structure(listings: list, wrapped: bool, lines: bool):
    if lines:
        data, name = "\n".join(json_text(entry) for entry in listings), "x.jsonl"
    else:
        data, name = json_text({"items": listings} if wrapped else listings), "x.json"
    assert_answerable(check_catalog(data.encode("utf-8"), name, MAX_ITEMS, 100_000))


@PROPERTY
@given(header=st.lists(st.one_of(st.sampled_from(NAMES), TEXT), min_size=1, max_size=8),
       rows=st.lists(st.lists(TEXT, max_size=9), max_size=5), delimiter=st.sampled_from([",", ";", "\t"]))
def test_any_csv_text(header: list[str], rows: list[list[str]], delimiter: str):
    text = "\n".join(delimiter.join(cells) for cells in [header, *rows])
    data = text.encode("utf-8", "surrogatepass")
    assert_answerable(check_catalog(data, "x.csv", MAX_ITEMS, 100_000))


@PROPERTY
@given(raw=st.one_of(LISTINGS, VALUES))
def test_validate_draft_takes_any_json_value(raw: object):
    draft, problems = validate_draft(python_value(raw))
    assert (draft is None) == bool(problems)
    for problem in problems:
        f"{problem.field} {problem.message}".encode()
    if draft is not None:
        encode_snapshot(draft).encode("utf-8")
        assert isinstance(draft.price, Decimal)


JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), TEXT), lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)), max_leaves=12)
SPACE = st.text(" \t\r\n", max_size=3)


@PROPERTY
@given(items=st.lists(JSON_VALUES, max_size=6), wrapped=st.booleans(), space=SPACE,
       tail=st.sampled_from(["", "]", "}", ",", "x", "[]"]))
def test_arrays_read_one_listing_at_a_time_agree_with_the_whole_document(
        items: list, wrapped: bool, space: str, tail: str) -> None:
    """The streaming reader of `[...]` and `{"items": [...]}` keeps exactly what json.loads
    reads, and refuses exactly what it refuses."""
    body = space + (json.dumps(items, indent=1) if space else json.dumps(items))
    text = ('{"items":' + body + space + "}" if wrapped else body) + space + tail
    read = read_records(text, "json", max_items=MAX_ITEMS)
    try:
        expected = json.loads(text)
    except json.JSONDecodeError as error:
        assert [(e.line, e.message.split(": ")[0]) for e in read.errors] == [
            (error.lineno, f"Invalid JSON on line {error.lineno}, column {error.colno}")]
        assert read.records == [] and read.count == 0
        return
    listed = expected["items"] if wrapped else expected
    assert read.count == len(listed) and read.errors == []
    assert [record.row for record in read.records] == list(range(1, len(listed) + 1))
