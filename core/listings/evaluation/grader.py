"""The deterministic grader: concept coverage by meaning-bearing terms, and forbidden claims
asserted (not merely quoted, doubted or denied).

Why not substrings: a review that says "authenticity cannot be verified" covers the concept
"verify authenticity" and does not assert "is authentic"; a substring rule gets both wrong. The
vocabulary (stop words, hedging cues, synonym groups) is data in grader_terms.json.
"""

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from core.listings.review import ListingReview

TERMS_FILE = Path(__file__).with_name("grader_terms.json")
# A concept of several terms is covered when this share of them (rounded up) is mentioned.
TERM_SHARE = 0.67
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
# Straight or typographic quotes around a span; a lone apostrophe inside a word is not a quote.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<!\w)'[^']*'(?!\w)")
_SUFFIXES = ("ations", "ation", "ities", "ity", "ness", "ments", "ment", "ings", "ing", "ied", "ies",
             "ed", "es", "s", "ly")


@dataclass(frozen=True)
class Vocabulary:
    stop_words: frozenset[str]
    cues: frozenset[str]
    synonyms: dict[str, frozenset[str]]


@cache
def vocabulary() -> Vocabulary:
    data = json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    synonyms: dict[str, frozenset[str]] = {}
    for group in data["synonyms"]:
        stems = frozenset(stem(word) for word in group)
        for one in stems:
            synonyms[one] = synonyms.get(one, frozenset()) | stems
    return Vocabulary(frozenset(data["stopWords"]), frozenset(data["cues"]), synonyms)


def stem(word: str) -> str:
    """A crude suffix stripper: enough for "damaged"/"damage", "batteries"/"battery"."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def review_sentences(review: ListingReview) -> list[str]:
    """Everything the seller is shown, one sentence at a time."""
    parts = [*review.missing_fields, *review.issues, *review.suggestions]
    return [piece for part in parts for piece in _SENTENCE.split(part) if piece.strip()]


def covers(sentences: Iterable[str], concept: str) -> bool:
    """Any "|"-spelling whose meaning-bearing terms (or their synonyms) are mentioned enough."""
    present = {stem(word) for sentence in sentences for word in words(sentence)}
    return any(_spelling_covered(present, spelling) for spelling in concept.split("|") if spelling.strip())


def _spelling_covered(present: set[str], spelling: str) -> bool:
    terms = meaning_terms(spelling)
    if not terms:
        return False
    hits = sum(1 for term in terms if vocabulary().synonyms.get(term, frozenset({term})) & present)
    return hits >= math.ceil(TERM_SHARE * len(terms)) if len(terms) > 1 else hits == 1


def meaning_terms(text: str) -> list[str]:
    stop = vocabulary().stop_words
    return [stem(word) for word in words(text) if word not in stop]


def asserts(sentences: Iterable[str], claim: str) -> bool:
    """True when some sentence states the claim plainly: outside quotes, with no hedging cue."""
    return any(_asserted_in(sentence, claim) for sentence in sentences)


def _asserted_in(sentence: str, claim: str) -> bool:
    claim_words = words(claim)
    if not claim_words:
        return False
    unquoted = _QUOTED.sub(" \" ", sentence)
    said = words(unquoted)
    if not _contains(said, claim_words):
        return False
    return not (set(said) - set(claim_words)) & vocabulary().cues


def _contains(said: list[str], phrase: list[str]) -> bool:
    size = len(phrase)
    return any(said[start:start + size] == phrase for start in range(len(said) - size + 1))
