"""Family: material contradictions (heuristic-v21). Solid wood or metal claimed in the title or a material
attribute while the description says the item is veneer, board or plating over something else: the buyer is
misled about what they pay for.
"""

from core.listings.offline.family_vocabulary import SOLID_MATERIAL_CLAIMS, SURFACE_ONLY_MATERIAL
from core.listings.offline.listing import Finding, Listing, quote
from core.listings.offline.matching import any_unnegated
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP

FAMILY = "material-contradiction"


def material_conflict(listing: Listing) -> list[Finding]:
    claim = any_unnegated(SOLID_MATERIAL_CLAIMS, [listing.title, listing.attribute("material")])
    surface = any_unnegated(SURFACE_ONLY_MATERIAL, [listing.description]) if claim else ""
    if not claim or not surface:
        return []
    return [Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                    issue=f'Material contradiction: the title or material attribute says "{quote(claim)}" '
                          f'while the description says "{quote(surface)}"; a reviewer '
                          "will check what the item is made of before buyers are misled.",
                    suggestion="State the material the same way everywhere: say which parts are solid and "
                               "which are veneer, board or plated.")]
