"""A batch's items as a table: views with counts, prefix search, score order, opaque cursors,
over real rows; then the same through the HTTP API and the CLI."""

import base64
import json
import uuid
from collections.abc import Iterator
from decimal import Decimal

import httpx
import pytest
from sqlalchemy import Engine, text

from api import schemas
from core.accounts.service import create_key
from core.batches.acceptance import accept_batch
from core.batches.pages import (
    BAD_CURSOR,
    VIEWS,
    ItemCounts,
    get_items_page,
    item_counts,
    outcome_line,
)
from core.catalogs.check import CatalogItem
from core.errors import BatchNotFound, InvalidBatchRequest
from tasks.queue import DramatiqPgQueue
from tests.api_server import ApiServer
from tests.builders import draft
from tests.test_cli import run

# (item id, title, outcome): an outcome is a score, a score with human review ("h75"), or a
# job state. Positions are 1..10 in this order.
CATALOG = [
    ("SKU-100", "Red kettle", 90), ("SKU-101", "red Lamp", 40), ("SKU-102", "Blue kettle", "h75"),
    ("SKU-110", "Kettle 100% steel", "FAILED"), ("SKU_1", "Kettle_x", "CANCELLED"),
    ("sku-200", "ÉCLAIR pan", "QUEUED"), ("SKU-201", "Éclair tin", "RUNNING"),
    ("ABC-1", "Red kettle", 40), ("ABC-2", "%sale", 59), ("ABC-3", "back\\slash", 60),
]
EXPECTED_VIEWS = {"all": list(range(1, 11)), "needs_attention": [2, 3, 4, 8, 9],
                  "needs_human_review": [3], "failed": [4], "cancelled": [5], "pending": [6, 7]}
STATES = {
    "RUNNING": "status = 'RUNNING', execution_token = gen_random_uuid(), started_at = now(), "
               "heartbeat_at = now()",
    "FAILED": "status = 'FAILED', error_code = 'AI_RESPONSE_INVALID', error_message = 'Safe.', "
              "started_at = now(), completed_at = now()",
    "CANCELLED": "status = 'CANCELLED', completed_at = now()",
}
REVIEWED = ("status = 'SUCCEEDED', started_at = now(), completed_at = now(), "
            "result = cast(:result as jsonb)")


def review(outcome: int | str) -> dict:
    score = int(str(outcome).lstrip("h"))
    return {"qualityScore": score, "missingFields": [], "issues": ["One.", "Two."][: score % 3],
            "suggestions": [], "requiresHumanReview": str(outcome).startswith("h"),
            "provider": "heuristic", "model": "rules", "promptVersion": "v1", "usage": None}


def seed(engine: Engine, owner: str = "local") -> uuid.UUID:
    """The catalog accepted as one batch, each item then left as the product would leave it."""
    items = [CatalogItem(n, n + 1, item_id, draft(title=title))
             for n, (item_id, title, _) in enumerate(CATALOG, start=1)]
    batch_id = accept_batch(engine, DramatiqPgQueue("q"), owner=owner, key=f"k-{uuid.uuid4()}",
                            items=items, max_items=1000).batch_id
    with engine.begin() as conn:
        for position, (_, _, outcome) in enumerate(CATALOG, start=1):
            if outcome == "QUEUED":
                continue
            reviewed = str(outcome) not in STATES
            conn.execute(text(f"update review_jobs set {REVIEWED if reviewed else STATES[outcome]} "
                              "where batch_id = :b and item_position = :p"),
                         {"b": batch_id, "p": position,
                          "result": json.dumps(review(outcome)) if reviewed else None})
    return batch_id


@pytest.fixture
def batch(engine: Engine) -> uuid.UUID:
    return seed(engine)


def every_page(engine: Engine, batch_id: uuid.UUID, limit: int = 2, **options) -> list[int]:
    """Positions of every item, following next_cursor from the first page to the last."""
    positions, cursor = [], None
    while True:
        page = get_items_page(engine, "local", batch_id, cursor=cursor, limit=limit, max_after=1000,
                              **options)
        positions += [item.position for item in page.items]
        assert len(page.items) <= limit
        if page.next_cursor is None:
            return positions
        cursor = page.next_cursor


def test_counts_tell_verdicts_apart_from_job_states(engine: Engine, batch: uuid.UUID):
    counts = item_counts(engine, "local", batch)
    assert counts == ItemCounts(good=2, needs_work=3, needs_human_review=1, failed=1, cancelled=1,
                                queued=1, running=1)
    assert counts.views() == {view: len(positions) for view, positions in EXPECTED_VIEWS.items()}
    assert counts.to_json_dict()["needsWork"] == 3 and counts.to_json_dict()["total"] == 10


@pytest.mark.parametrize("view", VIEWS)
def test_each_view_pages_through_exactly_the_items_it_counts(engine: Engine, batch: uuid.UUID, view):
    positions = every_page(engine, batch, view=view)
    assert positions == EXPECTED_VIEWS[view]
    assert len(positions) == item_counts(engine, "local", batch).of(view)


def test_the_outcome_line_counts_in_a_sellers_words():
    counts = ItemCounts(good=712, needs_work=201, needs_human_review=62, failed=25)
    assert outcome_line(counts) == ("1,000 listings: 712 good, 201 need work, 62 need human review, "
                                    "25 failed, 0 cancelled")
    assert outcome_line(ItemCounts(needs_work=1)) == (
        "1 listing: 0 good, 1 needs work, 0 need human review, 0 failed, 0 cancelled")
    assert outcome_line(ItemCounts(needs_human_review=1, cancelled=1, queued=1, running=1)).endswith(
        "1 needs human review, 0 failed, 1 cancelled, 2 pending")


@pytest.mark.parametrize("search,positions", [
    ("SKU-10", [1, 2, 3]),          # item id prefix
    ("sku-", [6]),                  # item ids keep their case
    ("red", [1, 2, 8]),             # title prefix, any case
    ("KETTLE", [4, 5]),
    ("éclair", [6, 7]),             # case folded beyond ASCII, as PostgreSQL's lower()
    ("SKU_", [5]),                  # LIKE wildcards are plain characters
    ("%", [9]),
    ("Kettle 100%", [4]),
    ("back\\", [10]),
    ("_", []),
    ("  Red  ", [1, 2, 8]),         # surrounding spaces are not part of the search
    ("\ud7ff", []),                 # a prefix ending just below the surrogates has a range too
])
def test_search_finds_items_by_item_id_or_title_prefix(engine: Engine, batch: uuid.UUID, search, positions):
    assert every_page(engine, batch, search=search) == positions


def test_search_combines_with_a_view_and_the_score_order(engine: Engine, batch: uuid.UUID):
    assert every_page(engine, batch, search="red", view="needs_attention") == [2, 8]
    assert every_page(engine, batch, search="red", sort="score") == [2, 8, 1]
    # Reviewed by score then position, then the items without a score in position order.
    assert every_page(engine, batch, search="SKU", sort="score", limit=1) == [2, 3, 1, 4, 5, 7]


@pytest.mark.parametrize("limit", [1, 3, 100])
def test_score_order_is_worst_first_then_position_and_unreviewed_last(engine: Engine, batch, limit):
    assert every_page(engine, batch, sort="score", limit=limit) == [2, 8, 9, 10, 3, 1, 4, 5, 6, 7]
    assert every_page(engine, batch, sort="score", view="needs_attention", limit=limit) == [2, 8, 9, 3, 4]


def test_items_carry_the_table_columns_and_the_listing_as_submitted(engine: Engine, batch: uuid.UUID):
    items = get_items_page(engine, "local", batch, limit=4, max_after=1000).items
    assert [(item.title, item.verdict, item.score, item.human_review, item.issue_count)
            for item in items] == [
        ("Red kettle", "good", 90, False, 0), ("red Lamp", "needs_work", 40, False, 1),
        ("Blue kettle", "needs_human_review", 75, True, 0), ("Kettle 100% steel", None, None, False, 0)]
    assert items[0].listing == draft(title="Red kettle") and items[0].listing.price == Decimal("45.00")
    body = items[3].to_json_dict()
    assert body["error"] == {"code": "AI_RESPONSE_INVALID", "message": "Safe."}
    assert (body["position"], body["listing"]["price"], body["verdict"]) == (4, "45.00", None)


def test_position_paging_by_after_still_works(engine: Engine, batch: uuid.UUID):
    page = get_items_page(engine, "local", batch, after=2, limit=3, max_after=1000)
    assert [item.position for item in page.items] == [3, 4, 5] and page.next_after == 5
    assert get_items_page(engine, "local", batch, sort="score", limit=3, max_after=1000).next_after is None


@pytest.mark.parametrize("search", ["a" * 101, "SKU\x00", "a\tb", "new\nline", "\x7f", "end\U0010ffff"])
def test_unusable_search_text_is_refused(engine: Engine, batch: uuid.UUID, search: str):
    with pytest.raises(InvalidBatchRequest, match="'search'"):
        get_items_page(engine, "local", batch, search=search, max_after=1000)


def forged(raw: str) -> str:
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize("cursor,sort", [
    ("not a cursor!", "position"), ("x" * 201, "position"), (forged("position:0:abc"), "position"),
    (forged("position:5:3"), "position"), (forged("position:0:0"), "position"),
    (forged("score:102:3"), "score"), (forged("score:40:3"), "position"), (forged("position:0:3"), "score"),
    (forged("2026-01-01T00:00:00+00:00|" + str(uuid.uuid4())), "position"), ("////", "position"),
])
def test_forged_cursors_are_refused(engine: Engine, batch: uuid.UUID, cursor: str, sort):
    with pytest.raises(InvalidBatchRequest) as refused:
        get_items_page(engine, "local", batch, cursor=cursor, sort=sort, max_after=1000)
    assert refused.value.message == BAD_CURSOR


@pytest.mark.parametrize("options", [{"cursor": forged("position:0:3"), "after": 3},
                                     {"sort": "score", "after": 3}, {"view": "human_review"},
                                     {"sort": "title"}, {"after": 1001}, {"limit": 101}])
def test_contradictory_or_unknown_options_are_refused(engine: Engine, batch: uuid.UUID, options):
    with pytest.raises(InvalidBatchRequest):
        get_items_page(engine, "local", batch, max_after=1000, **options)


def test_another_sellers_batch_has_no_items_or_counts(engine: Engine, batch: uuid.UUID):
    with pytest.raises(BatchNotFound):
        item_counts(engine, "someone-else", batch)
    with pytest.raises(BatchNotFound):
        get_items_page(engine, "someone-else", batch, search="red", sort="score", max_after=1000)


# --- the same over HTTP and the command line ---

@pytest.fixture
def seller(api: ApiServer, shared_engine: Engine) -> Iterator[tuple[httpx.Client, str]]:
    owner = f"table-{uuid.uuid4().hex[:8]}"
    _, secret = create_key(shared_engine, owner)
    with api.client(secret) as client:
        yield client, owner


def test_api_pages_a_view_search_and_sort_with_counts(seller, shared_engine: Engine):
    client, owner = seller
    url = f"/api/listings/review-batches/{seed(shared_engine, owner)}/items"
    first = client.get(url, params={"view": "needs_attention", "sort": "score", "limit": 2})
    assert first.status_code == 200
    body = schemas.ItemsPage.model_validate(first.json())
    assert [item.position for item in body.items] == [2, 8] and body.next_after is None
    assert body.counts.views.needs_attention == 5 and body.counts.good == 2
    rest = client.get(url, params={"view": "needs_attention", "sort": "score", "cursor": body.next_cursor})
    assert [item["position"] for item in rest.json()["items"]] == [9, 3, 4]
    found = client.get(url, params={"q": "red", "limit": 2}).json()
    assert [item["title"] for item in found["items"]] == ["Red kettle", "red Lamp"]
    after = client.get(url, params={"after": found["nextAfter"], "limit": 2}).json()
    assert after["items"][0]["position"] == 3


@pytest.mark.parametrize("params", [{"cursor": "forged"}, {"q": "a\x00b"}, {"q": "a" * 101},
                                    {"view": "everything"}, {"sort": "score", "after": 2}])
def test_api_refuses_bad_items_options_with_a_problem(seller, shared_engine: Engine, params):
    client, owner = seller
    response = client.get(f"/api/listings/review-batches/{seed(shared_engine, owner)}/items", params=params)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_REVIEW_BATCH_REQUEST"


def test_cli_items_shows_the_outcome_the_table_and_where_to_continue(database_url: str, engine: Engine):
    batch_id = str(seed(engine))
    shown = run("items", batch_id, "--search", "red", "--sort", "score", "--limit", "2",
                database_url=database_url)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == ("10 listings: 2 good, 3 need work, 1 needs human review, 1 failed, 1 cancelled, "
                        "2 pending")
    assert "red Lamp" in lines[3] and "Needs work" in lines[3] and "Red kettle" in lines[4]
    more = next(line for line in lines if line.startswith("More: "))
    cursor = more.split("--cursor ")[1]
    rest = json.loads(run("items", batch_id, "--search", "red", "--sort", "score", "--cursor", cursor,
                          "--json", database_url=database_url).stdout)
    assert [item["position"] for item in rest["items"]] == [1] and rest["nextCursor"] is None
    assert rest["counts"]["views"]["pending"] == 2
    refused = run("items", batch_id, "--cursor", cursor, database_url=database_url)
    assert refused.returncode != 0 and "is not a cursor" in refused.stderr
