"""Small builders shared by tests."""

from decimal import Decimal

from core.catalogs.check import CatalogItem
from core.listings.draft import ListingDraft
from core.listings.offline.reviewer import rule_families


def draft(price: str = "45.00", **overrides) -> ListingDraft:
    values = {
        "title": "Wireless keyboard",
        "description": "Used wireless keyboard. Includes its USB receiver. All keys work.",
        "category": "Computer accessories",
        "price": Decimal(price),
        "attributes": {"brand": "KeyPro", "condition": "used"},
    } | overrides
    return ListingDraft(**values)


def items(count: int, prefix: str = "item", price: str = "45.00") -> list[CatalogItem]:
    return [CatalogItem(i, i + 1, f"{prefix}-{i}", draft(price)) for i in range(1, count + 1)]


def families(
    title: str, description: str, category: str, price: str = "25", **attributes: str
) -> tuple[str, ...]:
    """The offline rule families that fire on a listing, for the rule-shape tests."""
    return rule_families(ListingDraft(title, description, category, Decimal(price), attributes))
