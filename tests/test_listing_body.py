"""The single-listing body parser shared by the CLI (`review FILE`) and the API (/reviews,
/review-jobs): any bytes end as a listing or an InvalidBatchRequest whose answer is valid
UTF-8 JSON, never another exception (a 500 for the API, INTERNAL_ERROR for the CLI).
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import InvalidBatchRequest
from core.listings.body import parse_listing
from core.listings.draft import ListingDraft

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LISTING = {"title": "Wireless keyboard", "description": "Used keyboard with its receiver.",
           "category": "Computer accessories", "price": "45.00"}
TRICKY = st.sampled_from(['\\ud800', "\\u0000", "9" * 5000, "[" * 5000, "\ufeff", "\xff", '"', "{", "}",
                          ":", ",", "1e999999", "NaN", "-", "0.", '"listing"', '"price"'])
DOCUMENTS = st.lists(st.one_of(TRICKY, st.text(max_size=8)), max_size=12).map("".join)


def parsed_or_refused(data: bytes) -> ListingDraft | InvalidBatchRequest:
    try:
        return parse_listing(data, "The body")
    except InvalidBatchRequest as error:
        json.dumps(error.to_json_dict(), ensure_ascii=False).encode("utf-8")
        return error


@PROPERTY
@given(st.binary(max_size=200))
def test_any_bytes_are_a_listing_or_a_clear_refusal(data: bytes):
    parsed_or_refused(data)


@PROPERTY
@given(DOCUMENTS)
def test_any_json_like_text_is_a_listing_or_a_clear_refusal(document: str):
    parsed_or_refused(document.encode("utf-8", "surrogatepass"))


@PROPERTY
@given(st.sampled_from(sorted(LISTING)), DOCUMENTS)
def test_any_field_value_is_a_listing_or_rows_naming_fields(field: str, raw: str):
    data = json.dumps(LISTING)[:-1] + f', "{field}": {raw}' + "}"
    outcome = parsed_or_refused(data.encode("utf-8", "surrogatepass"))
    if isinstance(outcome, InvalidBatchRequest) and outcome.rows:
        assert all(row["field"] and row["message"] for row in outcome.rows)


@pytest.mark.parametrize("wrapped", [False, True])
def test_a_listing_flat_or_wrapped_keeps_its_typed_price(wrapped: bool):
    body = {"listing": LISTING | {"price": 45.00}} if wrapped else LISTING | {"price": 45.00}
    draft = parse_listing(json.dumps(body).replace("45.0", "45.00").encode(), "The body")
    assert str(draft.price) == "45.00"


@pytest.mark.parametrize("data,message", [
    (b"{", "is not valid JSON"),
    (b"\xff{}", "is not UTF-8"),
    (b"[" * 100_000, "nested too deeply"),
    (b"[1, 2]", "must be one JSON object"),
    (b'{"price": 1e999999999999999999999}', "is not valid JSON \\(Number out of range"),
])
def test_a_body_that_is_no_listing_object_names_the_problem(data: bytes, message: str):
    with pytest.raises(InvalidBatchRequest, match=message) as refused:
        parse_listing(data, "listing.json")
    assert refused.value.message.startswith("listing.json ")


def test_an_integer_of_any_length_is_a_price_problem_not_a_crash():
    data = json.dumps(LISTING)[:-1] + ', "price": 1' + "0" * 5000 + "}"
    with pytest.raises(InvalidBatchRequest) as refused:
        parse_listing(data.encode(), "The body")
    assert [row["field"] for row in refused.value.rows] == ["price"]
