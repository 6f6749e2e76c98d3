"""Family: material contradictions (heuristic-v21, widened in v22). The title or a material attribute says
what the item is made of or how it is cut (solid oak, bone china, 100 % cashmere, floor length), and the
description or another attribute says something that rules it out (veneer, stoneware, 10 % cashmere, knee
length; heuristic-v33: a label naming another fibre, "70% wool", unless it is a part's, a waistband's): the
buyer is misled about what they pay for.
"""

from core.listings.offline.family_vocabulary import EXCLUSIVE_MATERIALS, FIBRE_LABEL_PARTS, FIBRE_LABELS
from core.listings.offline.listing import Finding, Listing, quote
from core.listings.offline.matching import first_ruled_out
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP

FAMILY = "material-contradiction"


def material_conflict(listing: Listing) -> list[Finding]:
    claims = [listing.title, listing.attribute("material")]
    found = (first_ruled_out(listing, EXCLUSIVE_MATERIALS, claims)
             or first_ruled_out(listing, FIBRE_LABELS, claims, part_names=FIBRE_LABEL_PARTS))
    return [_finding(*found)] if found else []


def _finding(claim: str, place: str, hit: str) -> Finding:
    return Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                   issue=f'Material contradiction: the title or material attribute says "{quote(claim)}" '
                         f'while the {place} says "{quote(hit)}"; a reviewer will check what the item is '
                         "before buyers are misled.",
                   suggestion="State the material and cut the same way everywhere: say which parts are solid "
                              "and which are veneer, board or plated, and copy the care label.")
