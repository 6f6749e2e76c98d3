"""Negation-aware matching shared by the rule families: "no cracks" and "never dropped" are not damage."""

import re
from collections.abc import Iterable
from functools import cache

from core.listings.offline.family_vocabulary import NEGATION_WORDS

NEGATION_WINDOW_WORDS = 3
LOOKBACK_CHARS = 50
_NEGATED_TAIL = re.compile(
    r"\b(?:" + "|".join(NEGATION_WORDS) + r")\b(?:[\s,/]+[\w'-]+){0," + str(NEGATION_WINDOW_WORDS)
    + r"}[\s,/]*$", re.I)
_CLAUSE_BREAK = re.compile(r"[.;!?\n]|\bbut\b|\bhowever\b|\bexcept\b|\bapart from\b", re.I)
_FREE_AFTER = re.compile(r"^[\s-]*free\b", re.I)


@cache
def terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled alternation per table, built on first use so importing does no work."""
    return re.compile(r"\b(?:" + "|".join(terms) + r")(?![\w])", re.I)


def first_unnegated(pattern: re.Pattern[str], text: str) -> str:
    """The first match that its own clause does not deny, or ""."""
    for match in pattern.finditer(text):
        if not is_negated(text, match.start(), match.end()):
            return match.group()
    return ""


def is_negated(text: str, start: int, end: int) -> bool:
    """A negation a few words before, within the same clause, or "-free" right after."""
    before = text[max(0, start - LOOKBACK_CHARS):start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    clause = before[breaks[-1].end():] if breaks else before
    return bool(_NEGATED_TAIL.search(clause) or _FREE_AFTER.match(text[end:]))


def any_unnegated(terms: tuple[str, ...], texts: Iterable[str]) -> str:
    """The first undenied mention of any term in any of the texts, or ""."""
    pattern = terms_pattern(terms)
    return next((hit for text in texts if (hit := first_unnegated(pattern, text))), "")
