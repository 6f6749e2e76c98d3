"""Family: safety-critical products with damage, missing parts, a repair, an unknown history, an
overdue service, a fire or gas hazard or a recall. A person decides whether such an item can be sold.
"""

import re
from datetime import date

from core.listings.offline.family_vocabulary import COSMETIC_DAMAGE, PACKAGING_DAMAGE
from core.listings.offline.listing import Finding, Listing, quote, risk, sentence
from core.listings.offline.matching import (
    any_stated,
    any_unnegated,
    every_unnegated_in_context,
    first_unnegated,
    terms_pattern,
)
from core.listings.offline.safety_vocabulary import (
    ACCESSORY_PARTS,
    COSMETIC_DENT_PRODUCTS,
    DATED_KINDS,
    DENT_MATTERS_ON,
    DENT_ONLY,
    FIRE_HAZARDS,
    FIRE_RESOLVED,
    FOOD_CONTACT_PRODUCT,
    HAZARDS_BY_PRODUCT,
    HOME_REPAIR_KIND,
    MADE_FOR_IT,
    OFF_THE_FOOD_SURFACE,
    PACKAGING_WORDS,
    PRODUCT_CLASS_CUES,
    PROFESSIONAL_WORK,
    PROTECTIVE_PART_DEFECTS,
    PROTECTIVE_PARTS,
    RECALL_CLEARED,
    RECALL_REMEDIED,
    RECALL_TERMS,
    SAFETY_HAZARDS,
    SAFETY_PRODUCTS,
    SAFETY_REASONS,
    SAFETY_USE_DISCLAIMERS,
    SHAPE_ONLY,
    SWELLING_TERMS,
    WATER_INGRESS_TERMS,
)
from core.listings.offline.scoring import MAX_DEFECT_QUOTE_CHARS, PROHIBITED_SCORE_CAP, SAFETY_SCORE_CAP

FAMILY = "safety-critical"
MISSING_KIND = "loose or missing parts"
PART_CLASS = "protective part"
MAX_DEFECT_KINDS = 3
MAX_HITS_PER_KIND = 2
# heuristic-v24: a device shown to charge ("charges ok") has a battery as much as one called a battery
BATTERY_CLASSES = frozenset({"battery or electrical", "rechargeable device"})


def safety_critical(listing: Listing) -> list[Finding]:
    """Fire hazards and recalls wherever they are mentioned; other hazards on safety products."""
    return _fire_hazard(listing) + _recall(listing) + (_product_hazard(listing) or _protective_part(listing))


def _fire_hazard(listing: Listing) -> list[Finding]:
    """A swollen battery, bare wires or a gas smell is dangerous whatever the product, unless its sentence
    says the part was replaced; injections included. On a battery product ("power bank", "e-bike")
    swelling alone is enough, and so is water in it (heuristic-v24)."""
    resolved = re.compile(FIRE_RESOLVED, re.I)
    sentences = [text for text in re.split(r"[.!?\n]", listing.raw) if not first_unnegated(resolved, text)]
    hit = any_unnegated(FIRE_HAZARDS, sentences)
    if not hit and BATTERY_CLASSES & dict(_safety_products(listing)).keys():
        hit = any_unnegated(SWELLING_TERMS + WATER_INGRESS_TERMS, sentences)
    if not hit:
        return []
    return [risk(FAMILY, PROHIBITED_SCORE_CAP,
                 f'Fire risk and safety hazard ("{quote(hit)}"): a swollen or leaking battery, exposed '
                 "wiring or a gas leak can cause a fire, explosion or electric shock, so a reviewer must "
                 "decide whether it can be sold and shipped at all.",
                 "Have the damaged battery, cable, hose or regulator replaced before selling and say so; "
                 "otherwise list the item for parts only and state the hazard clearly.")]


def _recall(listing: Listing) -> list[Finding]:
    """A recall named in a sentence that does not say it was checked and does not apply ("haven't
    checked" is not a check), unless the maker's remedy is said to be done anywhere (heuristic-v25)."""
    if any_unnegated(RECALL_REMEDIED, [listing.raw]):
        return []
    cleared = re.compile(RECALL_CLEARED, re.I)
    sentences = [text for text in re.split(r"[.!?\n]", listing.raw) if not first_unnegated(cleared, text)]
    hit = any_unnegated(RECALL_TERMS, sentences)
    if not hit:
        return []
    return [risk(FAMILY, PROHIBITED_SCORE_CAP,
                 f'Possible safety recall ("{quote(hit)}"): recalled products may not be sold until the '
                 "recall remedy is done, so a reviewer will check it.",
                 "Check the manufacturer's recall notice; list the item only if it was repaired or "
                 "replaced under the recall, and say so.")]


def _product_hazard(listing: Listing) -> list[Finding]:
    """A product that protects, carries a child, holds gas, food or a diver, or runs on mains,
    with a defect that matters for its class, unless the seller rules that use out."""
    if any_stated(SAFETY_USE_DISCLAIMERS, [listing.raw]):
        return []
    found = next(((product, named, defects) for product, named in _safety_products(listing)
                  if (defects := _defects(listing, product))), None)
    if not found:
        return []
    product, named, defects = found
    return [risk(FAMILY, SAFETY_SCORE_CAP,
                 f'Safety-critical {product} ("{quote(named)}") with {defects}; a reviewer must check it is '
                 "safe to sell.",
                 "For safety-critical products state the exact model number, that nothing is damaged, "
                 "repaired or missing, the service or manufacture date, and that it is not subject to a "
                 "recall; otherwise do not sell it for use, or list it for parts only.",
                 sentence(SAFETY_REASONS[product]))]


def _protective_part(listing: Listing) -> list[Finding]:
    """A guard, rail, harness, brake or deck that is broken, missing or not working, on any product:
    the part's purpose makes the defect a safety risk even where the product class is unknown."""
    if any_stated(SAFETY_USE_DISCLAIMERS, [listing.raw]):
        return []
    parts = terms_pattern(PROTECTIVE_PARTS)
    texts = listing.seller_texts
    hits = [hit for kind in PROTECTIVE_PART_DEFECTS
            for hit in every_unnegated_in_context(SAFETY_HAZARDS[kind], texts, MAX_HITS_PER_KIND)
            if parts.search(hit)]
    if not hits:
        return []
    return [risk(FAMILY, SAFETY_SCORE_CAP,
                 f"Safety-critical protective part damaged, missing or not working "
                 f"({'; '.join(map(_quoted, hits[:2]))}); a reviewer must check it is safe to sell.",
                 "Replace or repair the protective part (guard, rail, harness, brake or deck) before selling "
                 "and say so, or list the item for parts only.", sentence(SAFETY_REASONS[PART_CLASS]))]


def _safety_products(listing: Listing) -> list[tuple[str, str]]:
    """(class, words) of every safety-critical class the title or category names, in table order: a
    baby bottle steriliser is both a child product and an electrical one; then the classes the listing
    shows by what it says of the item (a power rating in watts: electrical). A thing made for the product
    ("BBQ cover", "helmet bag", heuristic-v24) is not the product."""
    named = [(kind, match.group()) for kind, words in SAFETY_PRODUCTS.items()
             if (match := next((m for m in terms_pattern(words).finditer(listing.heading)
                                if not MADE_FOR_IT.match(listing.heading, m.end())), None))]
    shown = [(kind, hit) for kind, cues in PRODUCT_CLASS_CUES.items()
             if kind not in dict(named) and (hit := any_stated(cues, listing.seller_texts))]
    return named + shown


def _defects(listing: Listing, product: str) -> str:
    """Every undenied defect of the kinds that matter for the product class, named by kind with its
    words ("structural damage ("one stile is bent") and loose or missing parts ("missing a foot")"), or ""
    when there is none; a defect on a removable accessory of an appliance ("crumb tray missing") is none."""
    kinds, texts = HAZARDS_BY_PRODUCT[product], listing.seller_texts
    named = [f"{kind} ({'; '.join(_quoted(hit) for hit in hits)})" for kind in kinds
             if not (kind == MISSING_KIND and _only_packaging_missing(texts))
             and (hits := _defect_hits(listing, product, kind))]
    return " and ".join(named[:MAX_DEFECT_KINDS])


def _defect_hits(listing: Listing, product: str, kind: str) -> list[str]:
    """The undenied defects of one kind, without those on packaging, the finish, an accessory, a pan's
    outside or, on an appliance, a dent in the casing; a repair a professional did or tested is none."""
    texts = listing.seller_texts
    if kind in DATED_KINDS:  # a label: 'replace by 2022'
        texts = [text.replace("'", " ").replace('"', " ") for text in texts]
    if kind == HOME_REPAIR_KIND and any_unnegated(PROFESSIONAL_WORK, texts):
        return []
    hits = every_unnegated_in_context(_hazard_terms(kind), texts, MAX_HITS_PER_KIND)
    hits = _not_a_dent(listing, product, _not_packaging(hits))
    return _not_accessory(product, _on_the_food_surface(product, hits))


def _hazard_terms(kind: str) -> tuple[str, ...]:
    """A kind's words; a dated kind's years are those at least its age before the current one."""
    if kind not in DATED_KINDS:
        return SAFETY_HAZARDS[kind]
    terms, age = DATED_KINDS[kind]
    years = "|".join(str(year) for year in range(1950, date.today().year - age))
    return tuple(term.replace("{years}", years) for term in terms)


def _not_packaging(hits: list[str]) -> list[str]:
    """"Box damaged" or "the outer box got crushed" is the packaging, and "paint chips" the finish,
    not the item."""
    return [hit for hit in hits
            if not (re.match(PACKAGING_DAMAGE, hit, re.I) or re.search(COSMETIC_DAMAGE, hit, re.I))]


def _on_the_food_surface(product: str, hits: list[str]) -> list[str]:
    """Damage to a pan's outside, base or handle is not where food touches it, and a bent or dented
    part has changed shape, not what food touches."""
    if product != FOOD_CONTACT_PRODUCT:
        return hits
    return [hit for hit in hits
            if not (re.search(OFF_THE_FOOD_SURFACE, hit, re.I) or re.search(SHAPE_ONLY, hit, re.I))]


def _not_a_dent(listing: Listing, product: str, hits: list[str]) -> list[str]:
    """A dent in an appliance's casing or shade is cosmetic; in a battery (or an item that is one), a
    plug or a lead it is not."""
    if product not in COSMETIC_DENT_PRODUCTS or re.search(DENT_MATTERS_ON, listing.heading, re.I):
        return hits
    return [hit for hit in hits
            if not re.search(DENT_ONLY, hit, re.I) or re.search(DENT_MATTERS_ON, hit, re.I)]


def _not_accessory(product: str, hits: list[str]) -> list[str]:
    accessories = ACCESSORY_PARTS.get(product)
    return [hit for hit in hits if not (accessories and terms_pattern(accessories).search(hit))]


def _quoted(hit: str) -> str:
    return '"' + quote(hit, MAX_DEFECT_QUOTE_CHARS) + '"'


def _only_packaging_missing(texts: list[str]) -> bool:
    """"Missing the box" is about packaging, not a part that keeps someone safe."""
    packaging = re.compile(r"\b(?:missing|lost|without)\s+(?:the\s+|its\s+|original\s+)*(?:"
                           + "|".join(PACKAGING_WORDS) + r")\b", re.I)
    missing = terms_pattern(SAFETY_HAZARDS[MISSING_KIND])
    return all(len(missing.findall(t)) <= len(packaging.findall(t)) for t in texts)
