"""Families: regulated or illegal goods, and medical or health claims. Both need a check a listing
cannot show (age, prescription, licence, permit, evidence of efficacy), so a person decides.
"""

import re

from core.listings.offline.listing import Finding, Listing, quote, risk, sentence
from core.listings.offline.matching import any_stated, any_unnegated, terms_pattern
from core.listings.offline.regulated_vocabulary import (
    CHECK_EVASION_TERMS,
    CHECK_STATED_TERMS,
    CHECKED_KINDS,
    CHEMICAL_WORDS,
    CONTAINER_WORDS,
    CONTROLLED_CONTEXT,
    EMPTY_TERMS,
    GENERAL_DOCUMENTS,
    LEGAL_DOCUMENTS,
    LOCK_ATTRIBUTE,
    LOCK_OFF_VALUE,
    LOCKED_DEVICE_KIND,
    MEDICAL_CLAIM_TERMS,
    MISSING_DOCUMENT_KIND,
    MISSING_DOCUMENT_REASON,
    MODELLED_KINDS,
    NOT_THE_CONTROLLED_MATERIAL,
    REGULATED_GOODS,
    REGULATED_REASONS,
    SCALE_MODEL_TERMS,
    STOP_MEDICATION_TERMS,
    UNLABELLED_CHEMICAL_KIND,
    UNLABELLED_TERMS,
    VULNERABLE_SAFETY_TERMS,
    missing_document_terms,
)
from core.listings.offline.scoring import PROHIBITED_SCORE_CAP

REGULATED = "regulated"
MEDICAL = "medical-claim"
EVASION_REASON = ("offering to skip an age, licence, prescription or background check is itself a sign "
                  "the item may not be sold this way")


def regulated_goods(listing: Listing) -> list[Finding]:
    """Age-restricted, prescription, weapon, explosive, protected or licence-bound goods, or a
    skipped check."""
    # the whole listing last: a pairing may span the title and description ("chargers" ... "balloons")
    texts = [listing.heading, *listing.seller_texts[1:], listing.raw]
    kind, hit = next(((kind, hit) for kind, terms in REGULATED_GOODS.items()
                      if (hit := any_unnegated(terms, texts))), ("", ""))
    if hit and (_empty_container(listing) or _check_stated(listing, kind) or _scale_model(listing, kind)
                or _lock_said_off(listing, kind)):
        kind, hit = "", ""
    if not hit and (hit := _missing_document(listing)):
        kind = MISSING_DOCUMENT_KIND
    if not hit and (hit := _unlabelled_chemical(listing)):
        kind = UNLABELLED_CHEMICAL_KIND
    evasion = any_stated(CHECK_EVASION_TERMS, [listing.raw])
    if not hit and not evasion:
        return []
    what = f'{kind} ("{quote(hit)}")' if hit else ""
    skipped = f'an offer to skip a legal check ("{quote(evasion)}")' if evasion else ""
    reasons = [REGULATED_REASONS.get(kind, MISSING_DOCUMENT_REASON)] if hit else []
    reasons += [EVASION_REASON] if evasion else []
    return [risk(REGULATED, PROHIBITED_SCORE_CAP,
                 f"Regulated or restricted good: {'; '.join(part for part in (what, skipped) if part)}; a "
                 "reviewer must check whether it may be sold here at all, and how.",
                 "Check the marketplace rules and the law for this kind of item; if it may be sold, state "
                 "the licence, permit, prescription or age verification that applies, otherwise remove the "
                 "listing.", " ".join(sentence(reason) for reason in reasons))]


def _scale_model(listing: Listing, kind: str) -> bool:
    """heuristic-v25: the heading names a scale model or kit, so weapon words name its parts."""
    return kind in MODELLED_KINDS and bool(terms_pattern(SCALE_MODEL_TERMS).search(listing.heading))


def _lock_said_off(listing: Listing, kind: str) -> bool:
    """heuristic-v25: an attribute names the lock and its value says it is off ("activation lock: off")."""
    return kind == LOCKED_DEVICE_KIND and any(LOCK_ATTRIBUTE in name and re.match(LOCK_OFF_VALUE, value, re.I)
                                              for name, value in listing.attributes)


def _check_stated(listing: Listing, kind: str) -> bool:
    """heuristic-v22: a weapon or age-restricted item sold through the check the law asks for."""
    return kind in CHECKED_KINDS and bool(any_unnegated(CHECK_STATED_TERMS, listing.seller_texts))


def _missing_document(listing: Listing) -> str:
    """A legal document said not to be held: one that only controlled items have (Article 10, CITES)
    anywhere, or a licence, permit or registration where the heading names a controlled item; none is
    needed for a copy said to be resin or plastic (heuristic-v22: "no CITES needed as it's plastic")."""
    if any_stated(NOT_THE_CONTROLLED_MATERIAL, [listing.raw]):
        return ""
    documents = LEGAL_DOCUMENTS
    if terms_pattern(CONTROLLED_CONTEXT).search(listing.heading):
        documents = f"{LEGAL_DOCUMENTS}|{GENERAL_DOCUMENTS}"
    return any_stated(missing_document_terms(documents), listing.seller_texts)


def _empty_container(listing: Listing) -> bool:
    """The heading names a container and the listing says it is empty: the word is on it, not in it."""
    return bool(terms_pattern(CONTAINER_WORDS).search(listing.heading)
                and any_stated(EMPTY_TERMS, listing.seller_texts))


def _unlabelled_chemical(listing: Listing) -> str:
    """A poison or chemical named in the heading, and anywhere a word that its label is gone
    ("containers: mixed bucket, unlabelled")."""
    if not terms_pattern(CHEMICAL_WORDS).search(listing.heading):
        return ""
    return any_unnegated(UNLABELLED_TERMS, listing.seller_texts)


def medical_claim(listing: Listing) -> list[Finding]:
    """Claiming a product cures or treats an illness needs evidence no listing carries; telling
    buyers to stop their medication is dangerous on top."""
    stop = any_unnegated(STOP_MEDICATION_TERMS, [listing.raw])
    hit = any_unnegated(MEDICAL_CLAIM_TERMS, [listing.raw]) or stop
    if not hit:
        return []
    danger = f'Advice to stop prescribed medication ("{quote(stop)}") is dangerous.' if stop else ""
    vulnerable = any_unnegated(VULNERABLE_SAFETY_TERMS, [listing.raw])
    danger += (f' The claim that it is "{quote(vulnerable)}" is unproven: safety for babies, children or in '
               "pregnancy needs evidence a listing cannot give." if vulnerable else "")
    return [risk(MEDICAL, PROHIBITED_SCORE_CAP,
                 f'Unsubstantiated medical claim ("{quote(hit)}"), an unsupported health claim: claims '
                 "that a product cures, treats, prevents or relieves a disease need clinical evidence, and "
                 "claimed (FDA or other) approval is unverified; such claims are usually not allowed, so a "
                 "reviewer must check it.",
                 "Remove claims that the item cures, heals, treats or prevents conditions, and any advice "
                 "about medication; describe only what it is, what it contains and how it is used.", danger)]
