"""Family: feature contradictions (heuristic-v29, narrowed in v30 and v32, widened in v33). The title names
a feature that rules another out (a colour printer, a cordless tool, a region-free key, a weekend ticket, a
down fill, a disc console, a first pressing), and the description or an attribute names the other (mono
only, needs hardwiring, mains only, an EU key, a Sunday day ticket, a synthetic fill, a digital edition, a
reissue), or the attribute named for a feature the title claims says the item has none ("bluetooth": "no"):
the buyer is misled about what the item does, as with a material (material.py).
"""

import re

from core.listings.offline.family_vocabulary import (
    ATTRIBUTE_SAYS_NO,
    EXCLUSIVE_FEATURES,
    FEATURE_CLAIM_BEFORE,
    NAMED_FEATURES,
    NO_IS_GOOD_NAMES,
    TITLE_DENIES_AFTER,
)
from core.listings.offline.listing import Finding, Listing, quote
from core.listings.offline.matching import any_unnegated, first_ruled_out
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP

FAMILY = "feature-contradiction"


def feature_conflict(listing: Listing) -> list[Finding]:
    """Claims are read in the title only: the headline is the promise a buyer relies on, and a feature
    named in passing in the description (an old corded drill, a charger) is not a claim about the item."""
    found = first_ruled_out(listing, EXCLUSIVE_FEATURES, [listing.title]) or _attribute_says_no(listing)
    if not found:
        return []
    claim, place, hit = found
    return [Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                    issue=f'Feature contradiction: the title says "{quote(claim)}" while the {place} says '
                          f'"{quote(hit)}"; a reviewer will check which item is sold before buyers are '
                          "misled.",
                    suggestion="Describe the item you are selling the same way in the title, the description "
                               "and the attributes.")]


def _attribute_says_no(listing: Listing) -> tuple[str, str, str] | None:
    """heuristic-v33: the title claims a feature ("with a skeg", "built-in GPS", or a feature such as
    Bluetooth that titles name only when the item has it) and the attribute named for it says, and only
    says, that the item has none ("bluetooth": "no"). A name where "no" is the good answer (damage, pets,
    finance) is not a feature, and a title that denies it too ("helium not included", "remote lost")
    claims nothing."""
    for name, value in listing.attributes:
        if (len(name) < 3 or not re.match(ATTRIBUTE_SAYS_NO, value, re.I)
                or re.search(NO_IS_GOOD_NAMES, name, re.I)):
            continue
        said = re.escape(name)
        if not re.match(NAMED_FEATURES, name, re.I):
            said = FEATURE_CLAIM_BEFORE + said
        claim = any_unnegated((said,), [listing.title])
        if claim and not re.search(rf"\b{re.escape(name)}\W+{TITLE_DENIES_AFTER}", listing.title, re.I):
            return claim, f"{name} attribute", value.strip()
    return None
