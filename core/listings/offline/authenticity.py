"""Family: authenticity, provenance, signatures and precious materials. A claim that needs
evidence, given without any; doubts and missing proof where authenticity matters; an admitted
imitation; a luxury brand at an everyday price.
"""

import re
from functools import cache

from core.listings.offline.family_vocabulary import (
    ATTRIBUTION_DISCLAIMERS,
    AUTHENTICITY_SENSITIVE,
    BRAND_DISCLAIMERS,
    BRAND_EVIDENCE_NOTE,
    BULK_OR_PLAIN_PACKING,
    CLAIM_EVIDENCE_NOTES,
    COUNTERFEIT_TOOL_TERMS,
    DISCLOSED_COPY_WORDS,
    DOUBT_TERMS,
    DYNASTY_ATTRIBUTIONS,
    ERA_ATTRIBUTIONS,
    ERA_CLAIM_MARKERS,
    EVIDENCE_TERMS,
    FAKE_CURRENCY_TERMS,
    GENUINENESS_CLAIMS,
    IMITATION_DENIALS,
    IMITATION_TERMS,
    JEWELLERY_WORDS,
    LOST_EVIDENCE,
    LUXURY_ACCESSORIES,
    MISSING_PROOF_TERMS,
    NAMED_MAKER_DENIAL,
    NATURAL_RARITIES,
    NOT_A_FINISH,
    ORIGINAL_CLAIMS,
    PASSING_OFF_TERMS,
    PERIOD_ATTRIBUTIONS,
    PRECIOUS_CLAIMS,
    PRECIOUS_DISCLAIMERS,
    PROOF_UNAVAILABLE,
    PROVENANCE_CLAIMS,
    REPLICA_DISCLOSURES,
    REPLICA_MODEL_TERMS,
    REPRODUCTION_WORDS,
)
from core.listings.offline.listing import Finding, Listing, quote, risk, sentence
from core.listings.offline.matching import any_stated, any_unnegated, is_negated, terms_pattern
from core.listings.offline.scoring import LUXURY_MIN_PRICE, PROHIBITED_SCORE_CAP, UNVERIFIED_SCORE_CAP
from core.listings.offline.vocabulary import KNOWN_BRANDS, LUXURY_BRANDS

FAMILY = "authenticity"
DISCLAIMER_WINDOW = 30  # characters either side of an attribution that may call it a style
PROOF_SUGGESTION = ("Add the evidence (certificate of authenticity, receipt, serial number, hallmark or "
                    "appraisal) or remove claims you cannot back up.")


def authenticity(listing: Listing) -> list[Finding]:
    """Every authenticity risk found, each with its own message; the caps do not add up."""
    return (_imitation(listing) + _doubt(listing) + _missing_proof(listing)
            + _unproven_claim(listing) + _luxury_price(listing) + _bulk_original(listing))


def _imitation(listing: Listing) -> list[Finding]:
    """An imitation is admitted, not claimed: "not a replica" is a counterfeiter's phrase too."""
    hit = any_stated(IMITATION_TERMS, [_imitation_text(listing)])
    if not hit:
        return []
    return [risk(FAMILY, PROHIBITED_SCORE_CAP,
                 f'Counterfeit or imitation ("{quote(hit)}"): replicas, fakes and copies of branded goods '
                 "infringe trademarks and may not be sold; a reviewer must check it before it can be listed.",
                 "Only list genuine items: remove replicas and copies, and add proof of authenticity "
                 "(receipt, serial number or certificate) for branded goods.")]


def _imitation_text(listing: Listing) -> str:
    """Seller text without imitation words that name the product's job, not its origin.

    A detector pen exists to find fake notes and a scale model is a replica by design; these
    words are only benign when the title or category says that is what the item is, or the seller says
    plainly it is a copy ("museum replica, marked COPY"), and a "replica" naming a known brand stays
    suspect even when it is called a toy.
    """
    text = terms_pattern(COUNTERFEIT_TOOL_TERMS + IMITATION_DENIALS).sub(" ", listing.raw)
    if terms_pattern(COUNTERFEIT_TOOL_TERMS).search(listing.heading):
        text = terms_pattern(FAKE_CURRENCY_TERMS).sub(" ", text)
    disclosed = (terms_pattern(REPLICA_MODEL_TERMS).search(listing.heading)
                 or any_stated(REPLICA_DISCLOSURES, [listing.raw]) or _disclaims_brand(listing))
    if disclosed and (not _names_a_brand(listing) or _disclaims_brand(listing)):
        text = terms_pattern(DISCLOSED_COPY_WORDS).sub(" ", text)
    return text


def _disclaims_brand(listing: Listing) -> bool:
    """The brand is named to say the item is not its product ("obviously not a Cartier"), and nothing
    says the copy passes for it."""
    texts = [listing.raw]
    disclaimed = (any_stated(BRAND_DISCLAIMERS, texts) or any_stated(_not_the_brand(), texts)
                  or re.search(NAMED_MAKER_DENIAL, listing.raw))
    return bool(disclaimed) and not any_stated(PASSING_OFF_TERMS, texts)


@cache
def _not_the_brand() -> tuple[str, ...]:
    """heuristic-v16: a known or luxury brand named only to be denied."""
    brands = "|".join(KNOWN_BRANDS + LUXURY_BRANDS)
    return (f"not (?:a |an )?(?:real |genuine |actual |original )?(?:{brands})",)


def _names_a_brand(listing: Listing) -> bool:
    return bool(terms_pattern(KNOWN_BRANDS + LUXURY_BRANDS).search(listing.raw))


def _doubt(listing: Listing) -> list[Finding]:
    hit = any_stated(DOUBT_TERMS, [listing.raw])
    if not hit:
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'Authenticity not evidenced ("{quote(hit)}"): the seller cannot verify the authenticity or '
                 "provenance, so it is unverified and may be a reproduction; a reviewer will check the item "
                 "before it is listed.", PROOF_SUGGESTION, _evidence_note(listing.raw))]


def _missing_proof(listing: Listing) -> list[Finding]:
    """A missing receipt only matters where authenticity does; a used mug needs none. Attributes are
    read as pairs too ("papers: no" says there are none)."""
    sensitive = terms_pattern(AUTHENTICITY_SENSITIVE).search(listing.raw)
    hit = any_stated(MISSING_PROOF_TERMS, [listing.raw, *listing.seller_texts[2:]]) if sensitive else ""
    if not hit:
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'Proof of authenticity missing ("{quote(hit)}"): no certificate, receipt, papers or serial '
                 "number, so authenticity and provenance are unverified; a reviewer will check the item "
                 "before it is listed.", PROOF_SUGGESTION, _evidence_note(listing.raw))]


def _unproven_claim(listing: Listing) -> list[Finding]:
    """Signed, genuine, antique or solid gold, with no certificate, receipt or hallmark at all."""
    claim = (any_unnegated(_claims(listing), listing.seller_texts) or _attribution(listing)
             or _natural_rarity(listing))
    if not claim or _has_evidence(listing) or _disclosed_copy(listing):
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'Authenticity not evidenced: the listing claims "{quote(claim)}" with no certificate, '
                 "receipt, hallmark, serial number or provenance documentation, so the claim is unverified; "
                 "a reviewer will verify it before it is listed.", PROOF_SUGGESTION, _evidence_note(claim))]


def _disclosed_copy(listing: Listing) -> bool:
    """heuristic-v19: a reproduction said to be one ("modern resin reproductions, NOT antique") claims no
    age or origin, whatever words of the original it names."""
    texts = [listing.raw]
    return bool(any_stated(REPLICA_DISCLOSURES, texts) or any_unnegated(REPRODUCTION_WORDS, texts))


def _evidence_note(text: str) -> str:
    """What evidence this kind of claim needs (signature, precious metal, age, artwork, brand)."""
    return sentence(next((note for terms, note in CLAIM_EVIDENCE_NOTES if terms_pattern(terms).search(text)),
                         BRAND_EVIDENCE_NOTE))


def _has_evidence(listing: Listing) -> bool:
    """Evidence counts where it is offered, not where it is said to be lost ("lost the papers", "it
    had a certificate but we cannot find it")."""
    missing = terms_pattern((*MISSING_PROOF_TERMS, PROOF_UNAVAILABLE))
    kept = [part for text in listing.seller_texts for part in re.split(r"[.!?;\n]", missing.sub(" ", text))
            if not re.search(LOST_EVIDENCE, part, re.I)]
    return bool(any_unnegated(EVIDENCE_TERMS, kept))


def _attribution(listing: Listing) -> str:
    """A dynasty named as an object's origin ("Ming vase"), or a period ("Georgian", "Art Deco") on
    an item priced like a valuable: an attribution an expert must confirm, unless the words around it
    say it is a style or a reproduction."""
    valuable = listing.price >= LUXURY_MIN_PRICE
    claimed_era = valuable and bool(any_unnegated(ERA_CLAIM_MARKERS, listing.seller_texts))
    terms = (DYNASTY_ATTRIBUTIONS + (PERIOD_ATTRIBUTIONS if valuable else ())
             + (ERA_ATTRIBUTIONS if claimed_era else ()))
    pattern, disclaimer = terms_pattern(terms), terms_pattern(ATTRIBUTION_DISCLAIMERS)
    for text in listing.seller_texts:
        for match in pattern.finditer(text):
            around = text[max(0, match.start() - DISCLAIMER_WINDOW):match.end() + DISCLAIMER_WINDOW]
            if not is_negated(text, match.start(), match.end()) and not disclaimer.search(around):
                return match.group()
    return ""


def _natural_rarity(listing: Listing) -> str:
    """A meteorite, fossil or gemstone claimed genuine, or priced like a valuable: its worth is its
    origin, which only a certificate or a dealer's papers show."""
    rarity = terms_pattern(NATURAL_RARITIES).search(listing.heading)
    if not rarity:
        return ""
    claimed = any_unnegated(GENUINENESS_CLAIMS, listing.seller_texts)
    return f"{claimed} {rarity.group()}".strip() if claimed or listing.price >= LUXURY_MIN_PRICE else ""


def _claims(listing: Listing) -> tuple[str, ...]:
    """Provenance claims always; precious materials only where the item is jewellery or a watch and the
    listing does not say the material is an imitation."""
    jewellery = terms_pattern(JEWELLERY_WORDS).search(listing.heading)
    precious = jewellery and not any_stated(PRECIOUS_DISCLAIMERS, [listing.raw])
    claims = PROVENANCE_CLAIMS + (PRECIOUS_CLAIMS if precious else ())
    return tuple(term + NOT_A_FINISH for term in claims)


def _luxury_price(listing: Listing) -> list[Finding]:
    """Luxury goods priced like everyday goods are a classic counterfeit pattern; their packaging
    ("empty watch box") is cheap by nature, a look-alike that says it is not the brand, or a reproduction
    said to be one (heuristic-v21), claims nothing, and a receipt or matching batch code is the proof this
    sign asks for (heuristic-v17)."""
    brand = any_stated(LUXURY_BRANDS, [listing.raw])
    accessory = terms_pattern(LUXURY_ACCESSORIES).search(listing.heading)
    if (not brand or listing.price >= LUXURY_MIN_PRICE or accessory or _disclaims_brand(listing)
            or _has_evidence(listing) or _disclosed_copy(listing)):
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'Price far below market value ({listing.price}) for a "{quote(brand)}" item: a classic '
                 "counterfeit sign, so authenticity is not supported and a reviewer will verify it.",
                 "Add proof of authenticity (receipt, serial number or certificate) and explain the low "
                 "price, for example damage or missing parts.")]


def _bulk_original(listing: Listing) -> list[Finding]:
    """heuristic-v21: a known brand's goods claimed original and sold in bulk or plain packing: the
    brand's own goods come boxed, so the claim needs a receipt or invoice."""
    claim = any_unnegated(ORIGINAL_CLAIMS, listing.seller_texts)
    packing = any_stated(BULK_OR_PLAIN_PACKING, [listing.raw]) if claim and _names_a_brand(listing) else ""
    if not packing or _has_evidence(listing):
        return []
    return [risk(FAMILY, UNVERIFIED_SCORE_CAP,
                 f'Authenticity not evidenced: branded goods claimed "{quote(claim)}" are sold '
                 f'"{quote(packing)}"; genuine branded goods come in retail packaging, so bulk or '
                 "plain-packed stock claimed original is a counterfeit sign; a reviewer will verify it "
                 "before it is listed.",
                 PROOF_SUGGESTION, BRAND_EVIDENCE_NOTE)]
