"""Matching shared by the rule families: "no cracks" and "never dropped" are not damage, and a quoted
name ("lipstick 'Ruby Woo'", the film "Gold") is a name, not a claim.
"""

import re
from collections.abc import Iterable
from functools import cache

from core.listings.offline.family_vocabulary import NEGATION_WORDS, OTHER_ITEM_CLAUSE
from core.listings.offline.listing import Listing

NEGATION_WINDOW_WORDS = 3
CONTEXT_WORDS = 3
DEFECT_WORDS_BEFORE = 5  # the part comes before its defect ("the rubber stopper under the front is missing")
LOOKBACK_CHARS = 50
NEGATED_LIST_WORDS = 6  # words a denial reaches along an "or" list
# "not sure about the recall" hedges, it does not deny (heuristic-v11), and so does "dont know, label cut off"
# (heuristic-v14).
_DENIAL = r"\b(?:" + "|".join(NEGATION_WORDS) + r")\b(?!\s+(?:sure|certain|know|remember)\b)"
_NEGATED_TAIL = re.compile(
    _DENIAL + r"(?:[\s,/]+[\w'-]+){0," + str(NEGATION_WINDOW_WORDS)
    + r"}[\s,/]*$", re.I)
# A denial reaches along a list joined by "or"/"nor" ("never been in an accident or dropped"), also
# past an auxiliary that repeats the verb ("never had a fall or been dropped").
_NEGATED_LIST_TAIL = re.compile(
    _DENIAL + r"(?:[\s,/]+[\w'-]+){0," + str(NEGATED_LIST_WORDS)
    + r"}?[\s,]+(?:or|nor)[\s,/]*(?:(?:been|was|were|is|are|had|has|have|got|ever)\s+)*$", re.I)
# heuristic-v12: advice to look for a defect does not state one ("check regularly for damage").
_INSPECTION_TAIL = re.compile(r"\b(?:check|inspect|examine|look)\w*\s+(?:[\w'-]+\s+){0,3}?for\s+"
                              r"(?:any\s+|signs\s+of\s+|possible\s+)?$", re.I)
_CLAUSE_BREAK = re.compile(r"[.;!?\n]|\bbut\b|\bhowever\b|\bexcept\b|\bapart from\b", re.I)
_CONTEXT_BREAK = re.compile(r"[.,;:!?()\n]|\bbut\b|\bhowever\b|\band\b", re.I)
_FREE_AFTER = re.compile(r"^[\s-]*free\b", re.I)
_NON_BEFORE = re.compile(r"\bnon[\s-]?$", re.I)  # heuristic-v14: "non-asbestos", "non slip"
# A quoted span: the opening mark starts a word and the closing mark ends one, so the apostrophes
# of "don't" or "it's" never open a quotation.
_QUOTED = re.compile(r"(?<![\w'\"])(['\"])[^'\"\n]{1,60}?\1(?![\w])")


@cache
def terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled alternation per table, built on first use so importing does no work."""
    return re.compile(r"\b(?:" + "|".join(terms) + r")(?![\w])", re.I)


def first_unnegated(pattern: re.Pattern[str], text: str) -> str:
    """The first unquoted match that its own clause does not deny, or ""."""
    quoted = quoted_spans(text)
    for match in pattern.finditer(text):
        if not _inside(quoted, match) and not is_negated(text, match.start(), match.end()):
            return match.group()
    return ""


def first_stated(pattern: re.Pattern[str], text: str) -> str:
    """The first unquoted match, for terms that carry their own negation ("no age check")."""
    quoted = quoted_spans(text)
    return next((match.group() for match in pattern.finditer(text) if not _inside(quoted, match)), "")


def is_negated(text: str, start: int, end: int) -> bool:
    """A negation a few words before, within the same clause, advice to check for it, "non-" right
    before, or "-free" right after."""
    before = text[max(0, start - LOOKBACK_CHARS):start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    clause = before[breaks[-1].end():] if breaks else before
    return bool(_NEGATED_TAIL.search(clause) or _NEGATED_LIST_TAIL.search(clause)
                or _INSPECTION_TAIL.search(clause) or _NON_BEFORE.search(clause)
                or _FREE_AFTER.match(text[end:]))


def any_unnegated(terms: tuple[str, ...], texts: Iterable[str]) -> str:
    """The first undenied, unquoted mention of any term in any of the texts, or ""."""
    pattern = terms_pattern(terms)
    return next((hit for text in texts if (hit := first_unnegated(pattern, text))), "")


def any_stated(terms: tuple[str, ...], texts: Iterable[str]) -> str:
    """The first unquoted mention of any term in any of the texts, negated or not, or ""."""
    pattern = terms_pattern(terms)
    return next((hit for text in texts if (hit := first_stated(pattern, text))), "")


def every_unnegated_in_context(terms: tuple[str, ...], texts: Iterable[str], limit: int) -> list[str]:
    """Each undenied, unquoted mention with its clause context, in order, without repeats, at most
    `limit`: a listing with a bent stile and a missing foot has two defects to name, not one."""
    pattern, found = terms_pattern(terms), dict[tuple[str, int], str]()
    for text in texts:
        quoted = quoted_spans(text)
        for match in pattern.finditer(text):
            if not _inside(quoted, match) and not is_negated(text, match.start(), match.end()):
                clause = len(_CONTEXT_BREAK.findall(text[:match.start()]))  # one mention per clause
                context = _around(text, match.start(), match.end(), DEFECT_WORDS_BEFORE)
                found.setdefault((text, clause), context)
    return list(dict.fromkeys(found.values()))[:limit]


def in_context(hit: str, texts: Iterable[str], words: int = CONTEXT_WORDS) -> str:
    """The hit with a few words either side from its own clause ("chest clip is missing"), so a
    message names the part or defect, not only the matched word."""
    for text in texts:
        start = text.lower().find(hit.lower())
        if start < 0:
            continue
        return _around(text, start, start + len(hit), words)
    return hit


def _around(text: str, start: int, end: int, words: int, words_after: int = CONTEXT_WORDS) -> str:
    before = _CONTEXT_BREAK.split(text[:start])[-1].split()[-words:]
    after = _CONTEXT_BREAK.split(text[end:])[0].split()[:words_after]
    return " ".join([*before, text[start:end], *after])


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where the text quotes something: a name, not a claim (the learned signal skips these words too)."""
    return [match.span() for match in _QUOTED.finditer(text)]


def _inside(spans: list[tuple[int, int]], match: re.Match[str]) -> bool:
    return any(start < match.start() and match.end() <= end for start, end in spans)


def first_ruled_out(listing: Listing, table: tuple[tuple[str, tuple[str, ...]], ...],
                    claims: list[str], part_names: str = "") -> tuple[str, str, str] | None:
    """The first claim of the table made in `claims` that another place rules out: (claim, place, hit).
    Material (material.py) and feature (features.py) contradictions share it: a claim, and words elsewhere
    that exclude it. A hit whose clause names another item before it (OTHER_ITEM_CLAUSE) is about that
    item; a table may name parts instead (`part_names`: a garment's waistband for a fibre label), which then
    also hold a hit in an attribute named for them."""
    for claimed, excluded in table:
        claim = any_unnegated((claimed,), claims)
        found = _ruled_out(listing, claimed, excluded, part_names) if claim else None
        if found:
            return claim, *found
    return None


def _ruled_out(listing: Listing, claimed: str, excluded: tuple[str, ...],
               part_names: str) -> tuple[str, str] | None:
    """The first other place that rules the claim out without also stating it ("veneered sides" beside
    "solid oak top" states both: no contradiction)."""
    places = [("description", listing.description),
              *((f"{name} attribute", value) for name, value in listing.attributes)]
    for place, text in places:
        hit = any_unnegated(excluded, [text])
        if (hit and not any_unnegated((claimed,), [text])
                and not _about_another_item(text, hit, part_names or OTHER_ITEM_CLAUSE)
                and not (part_names and re.search(part_names, place, re.I))):
            return place, hit
    return None


def _about_another_item(text: str, hit: str, others: str) -> bool:
    """heuristic-v31: the hit's clause, before it, puts it on another item or in a comparison."""
    start = text.lower().find(hit.lower())
    clause = re.split(r"[.;!?\n,]", text[max(0, start - LOOKBACK_CHARS):max(start, 0)])[-1]
    return bool(re.search(others, clause, re.I))
