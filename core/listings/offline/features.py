"""Family: feature contradictions (heuristic-v29, narrowed in v30 and v32). The title names a feature
that rules another out (a colour printer, a cordless tool, a region-free key, a weekend ticket), and the
description or an attribute names the other (mono only, needs hardwiring, mains only, an EU key, a Sunday
day ticket): the buyer is misled about what the item does, as with a material (material.py).
"""

from core.listings.offline.family_vocabulary import EXCLUSIVE_FEATURES
from core.listings.offline.listing import Finding, Listing, quote
from core.listings.offline.matching import first_ruled_out
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP

FAMILY = "feature-contradiction"


def feature_conflict(listing: Listing) -> list[Finding]:
    """Claims are read in the title only: the headline is the promise a buyer relies on, and a feature
    named in passing in the description (an old corded drill, a charger) is not a claim about the item."""
    found = first_ruled_out(listing, EXCLUSIVE_FEATURES, [listing.title])
    if not found:
        return []
    claim, place, hit = found
    return [Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                    issue=f'Feature contradiction: the title says "{quote(claim)}" while the {place} says '
                          f'"{quote(hit)}"; a reviewer will check which item is sold before buyers are '
                          "misled.",
                    suggestion="Describe the item you are selling the same way in the title, the description "
                               "and the attributes.")]
