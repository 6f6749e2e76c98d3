"""Small builders shared by tests."""

from decimal import Decimal

from core.catalogs.check import CatalogItem
from core.listings.draft import ListingDraft


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
