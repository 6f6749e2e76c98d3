"""Family: too incomplete to assess. When nobody can tell what is sold, or in what state, no
score means anything: a person looks at it.
"""

import re

from core.listings.offline.completeness import is_generic_title
from core.listings.offline.family_vocabulary import (
    DEFERRED_DESCRIPTION_WORDS,
    DEFERRED_DETAILS,
    FILLER_TITLE_WORDS,
    MIN_ASSESSABLE_DESCRIPTION_WORDS,
    PRICED_THIN_DESCRIPTION_WORDS,
    UNIDENTIFIED_DESCRIPTION_WORDS,
    UNIDENTIFIED_HEDGES,
)
from core.listings.offline.listing import Finding, Listing, description_words, is_real, risk
from core.listings.offline.matching import any_stated
from core.listings.offline.scoring import (
    THIN_MAX_SPECIFICS,
    UNASSESSABLE_MIN_PRICE,
    UNASSESSABLE_SCORE_CAP,
)

FAMILY = "too-incomplete"
_WORD = re.compile(r"[a-z]+")


def too_incomplete(listing: Listing) -> list[Finding]:
    """Almost no description, no item specifics and a title that only names a category, or a title and
    description that name nothing (or a short description where the seller says they do not know what
    the item is or fits). A cheap named item with a thin description ("Hammock", "used twice") is
    weak, not unassessable: it scores low without a person; at UNASSESSABLE_MIN_PRICE or more it is not
    (heuristic-v22: "Painting", "painting", 400)."""
    words = description_words(listing)
    specifics = sum(1 for _, value in listing.attributes if is_real(value))
    bare = words < MIN_ASSESSABLE_DESCRIPTION_WORDS and not specifics and (
        words == 0 or is_generic_title(listing.title))
    unnamed = words < UNIDENTIFIED_DESCRIPTION_WORDS and (
        _names_nothing(listing.title) or bool(any_stated(UNIDENTIFIED_HEDGES, listing.seller_texts)))
    priced = (words <= PRICED_THIN_DESCRIPTION_WORDS and not specifics
              and listing.price >= UNASSESSABLE_MIN_PRICE)
    if not (bare or priced or _deferred(listing, words, specifics) or (unnamed and not _identified(listing))):
        return []
    return [risk(FAMILY, UNASSESSABLE_SCORE_CAP,
                 "Too incomplete to assess: the item is not identified (the title is not descriptive, the "
                 "description is missing or too vague, the contents unknown), so a reviewer cannot assess "
                 "what is being sold or in what state.",
                 "Name the item (brand, model, type), describe its condition and what is included, and "
                 "add item specifics.")]


def _deferred(listing: Listing, words: int, specifics: int) -> bool:
    """heuristic-v28: a few words that send the buyer to a message, the photos or an offer ("Pump", "works.
    dm for info"), with at most one item specific: the listing itself states nothing to check."""
    return (0 < words <= DEFERRED_DESCRIPTION_WORDS and specifics <= THIN_MAX_SPECIFICS
            and bool(re.search(DEFERRED_DETAILS, listing.description, re.I)))


def _names_nothing(title: str) -> bool:
    """Every title word is filler ("Item for sale", "stuff"): no noun says what the item is."""
    return all(word in FILLER_TITLE_WORDS for word in _WORD.findall(title.lower()))


def _identified(listing: Listing) -> bool:
    """A brand or model attribute names the item even when the title does not."""
    return any(is_real(listing.attribute(field)) for field in ("brand", "model"))
