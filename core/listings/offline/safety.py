"""Family: safety-critical products with damage, missing parts, an unknown history, a fire
hazard or a recall. A person decides whether such an item can be sold at all.
"""

import re

from core.listings.offline.family_vocabulary import (
    FIRE_HAZARDS,
    HAZARDS_BY_PRODUCT,
    PACKAGING_WORDS,
    RECALL_TERMS,
    SAFETY_HAZARDS,
    SAFETY_PRODUCTS,
    SWELLING_TERMS,
)
from core.listings.offline.listing import Finding, Listing, quote, risk
from core.listings.offline.matching import any_unnegated, terms_pattern
from core.listings.offline.scoring import PROHIBITED_SCORE_CAP, UNVERIFIED_SCORE_CAP

FAMILY = "safety-critical"


def safety_critical(listing: Listing) -> list[Finding]:
    """Fire hazards and recalls wherever they are mentioned; other hazards on safety products."""
    return _fire_hazard(listing) + _recall(listing) + _product_hazard(listing)


def _fire_hazard(listing: Listing) -> list[Finding]:
    """A swollen battery or bare wires is dangerous whatever the product; injections included.
    On a battery product ("power bank", "e-bike") swelling alone is enough."""
    hit = any_unnegated(FIRE_HAZARDS, [listing.raw])
    if not hit and _safety_product(listing) == "battery or electrical":
        hit = any_unnegated(SWELLING_TERMS, listing.seller_texts)
    if not hit:
        return []
    return [risk(FAMILY, PROHIBITED_SCORE_CAP,
                 f'The listing describes a fire or shock hazard ("{quote(hit)}"); swollen or leaking '
                 "batteries and exposed wiring are a fire risk, so a reviewer must decide whether it "
                 "can be sold and shipped.",
                 "Have a damaged battery or cable replaced before selling and say so; otherwise list "
                 "the item for parts only and state the hazard clearly.")]


def _recall(listing: Listing) -> list[Finding]:
    hit = any_unnegated(RECALL_TERMS, [listing.raw])
    if not hit:
        return []
    return [risk(FAMILY, PROHIBITED_SCORE_CAP,
                 f'The item is described as recalled ("{quote(hit)}"); recalled products may not be '
                 "sold for safety reasons, so a reviewer will check it.",
                 "Check the manufacturer's recall notice; list the item only if it was repaired or "
                 "replaced under the recall, and say so.")]


def _product_hazard(listing: Listing) -> list[Finding]:
    """A product that protects, carries a child, holds food or runs on mains, with a hazard."""
    product = _safety_product(listing)
    hazard = _hazard(listing, HAZARDS_BY_PRODUCT[product]) if product else ("", "")
    if not hazard[1]:
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'This is a safety-critical product ({product}) and the listing mentions {hazard[0]} '
                 f'("{quote(hazard[1])}"); a reviewer must check it is safe to sell.',
                 "For safety-critical products state the exact model, that nothing is damaged or "
                 "missing, and that it is not subject to a recall; otherwise list it for parts.")]


def _safety_product(listing: Listing) -> str:
    """The kind of safety-critical product the title or category names, or ""."""
    return next((kind for kind, words in SAFETY_PRODUCTS.items()
                 if terms_pattern(words).search(listing.heading)), "")


def _hazard(listing: Listing, kinds: tuple[str, ...]) -> tuple[str, str]:
    """(kind of hazard, words) for the first undenied hazard of the given kinds."""
    texts = listing.seller_texts
    for kind in kinds:
        hit = any_unnegated(SAFETY_HAZARDS[kind], texts)
        if hit and not (kind == "missing parts" and _only_packaging_missing(texts)):
            return kind, hit
    return "", ""


def _only_packaging_missing(texts: list[str]) -> bool:
    """"Missing the box" is about packaging, not a part that keeps someone safe."""
    packaging = re.compile(r"\b(?:missing|lost|without)\s+(?:the\s+|its\s+|original\s+)*(?:"
                           + "|".join(PACKAGING_WORDS) + r")\b", re.I)
    missing = terms_pattern(SAFETY_HAZARDS["missing parts"])
    return all(len(missing.findall(t)) <= len(packaging.findall(t)) for t in texts)
