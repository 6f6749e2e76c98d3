"""Families: regulated or illegal goods, and medical or health claims. Both need a check a listing
cannot show (age, prescription, licence, evidence of efficacy), so a person decides.
"""

from core.listings.offline.family_vocabulary import CHECK_EVASION_TERMS, MEDICAL_CLAIM_TERMS, REGULATED_GOODS
from core.listings.offline.listing import Finding, Listing, quote, risk
from core.listings.offline.matching import any_stated, any_unnegated
from core.listings.offline.scoring import PROHIBITED_SCORE_CAP

REGULATED = "regulated"
MEDICAL = "medical-claim"


def regulated_goods(listing: Listing) -> list[Finding]:
    """Age-restricted, prescription, weapon, banned or licence-bound goods, or a skipped check."""
    texts = [listing.heading, *listing.seller_texts[1:]]
    kind, hit = next(((kind, hit) for kind, terms in REGULATED_GOODS.items()
                      if (hit := any_unnegated(terms, texts))), ("", ""))
    evasion = any_stated(CHECK_EVASION_TERMS, [listing.raw])
    if not hit and not evasion:
        return []
    what = f"{kind} (\"{quote(hit)}\")" if hit else f'an offer to skip a legal check ("{quote(evasion)}")'
    return [risk(REGULATED, PROHIBITED_SCORE_CAP,
                 f"The listing appears to sell a regulated or restricted good: {what}; a reviewer must "
                 "check it may be sold here and how.",
                 "Check the marketplace rules for this kind of item; if it may be sold, state the "
                 "licence, prescription or age check that applies, otherwise remove the listing.")]


def medical_claim(listing: Listing) -> list[Finding]:
    """Claiming a product cures or treats an illness needs evidence no listing carries."""
    hit = any_unnegated(MEDICAL_CLAIM_TERMS, [listing.raw])
    if not hit:
        return []
    return [risk(MEDICAL, PROHIBITED_SCORE_CAP,
                 f'The listing makes a medical claim ("{quote(hit)}"); health claims that a product cures, '
                 "relieves or treats illness need review and are usually not allowed.",
                 "Remove claims that the item cures, heals or treats conditions; describe only what it "
                 "is, what it contains and how it is used.")]
