"""Family: too incomplete to assess. When nobody can tell what is sold, or in what state, no
score means anything: a person looks at it.
"""

import re

from core.listings.offline.family_vocabulary import (
    FILLER_TITLE_WORDS,
    MIN_ASSESSABLE_DESCRIPTION_WORDS,
    UNIDENTIFIED_DESCRIPTION_WORDS,
)
from core.listings.offline.listing import Finding, Listing, is_real, risk
from core.listings.offline.scoring import UNASSESSABLE_SCORE_CAP

FAMILY = "too-incomplete"
_WORD = re.compile(r"[a-z]+")


def too_incomplete(listing: Listing) -> list[Finding]:
    """Almost no description and no item specifics, or a title and description that name nothing."""
    words = len(listing.description.split())
    specifics = any(is_real(value) for _, value in listing.attributes)
    bare = words < MIN_ASSESSABLE_DESCRIPTION_WORDS and not specifics
    unnamed = words < UNIDENTIFIED_DESCRIPTION_WORDS and _names_nothing(listing.title)
    if not (bare or (unnamed and not _identified(listing))):
        return []
    return [risk(FAMILY, UNASSESSABLE_SCORE_CAP,
                 "The listing is too incomplete to assess: it does not say what is being sold or in what "
                 "state; a reviewer will check what is being sold.",
                 "Name the item (brand, model, type), describe its condition and what is included, and "
                 "add item specifics.")]


def _names_nothing(title: str) -> bool:
    """Every title word is filler ("Item for sale", "stuff"): no noun says what the item is."""
    return all(word in FILLER_TITLE_WORDS for word in _WORD.findall(title.lower()))


def _identified(listing: Listing) -> bool:
    """A brand or model attribute names the item even when the title does not."""
    return any(is_real(listing.attribute(field)) for field in ("brand", "model"))
