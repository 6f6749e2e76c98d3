"""A learned risk signal beside the rules, for wording the rules have no entry for.

Why: hand-written vocabulary reaches 100 % on the sets it was tuned on and far less on the next
author's listings. This signal is a logistic-regression weight per generic feature (words and word pairs,
with a denial marked, and which rules fired), trained across several authors' labelled sets and
kept only for features that appear in several of them, so product names do not carry it. The
weights are data (learned_weights.json, written by `python -m core.listings.offline.training`);
at review time they are only summed, so the reviewer stays instant, deterministic and free.

It only speaks when no rule sent the listing to a person and the listing holds a risk term (a word
several authors' sets agree on, of at least a chosen weight: training.py), never on the intercept or
weak words alone, and then only as a request to look: its issue quotes the strongest risk terms
present, as the seller's words, and asserts nothing.
"""

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from core.listings.offline.listing import Finding, Listing, quote, risk
from core.listings.offline.matching import is_negated, quoted_spans
from core.listings.offline.scoring import LEARNED_RISK_SCORE_CAP

WEIGHTS_FILE = Path(__file__).with_name("learned_weights.json")
FAMILY = "learned-risk"
MAX_SIGNALS = 3
NEGATED = "~"  # prefix of a word its clause denies: "no cracks" -> "~crack"
PAIR = " "  # joins the two words of a pair feature
RULE = "rule:"  # prefix of a rule-fired feature
# Words every listing has, whatever it sells: they carry no risk of their own.
FUNCTION_WORDS = frozenset((
    "a", "an", "the", "and", "or", "but", "if", "so", "to", "of", "in", "on", "at", "by", "for", "with",
    "from", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "it's", "this",
    "that", "these", "those", "i", "i'm", "i've", "me", "my", "we", "our", "you", "your", "he", "she",
    "his", "her", "they", "them", "their", "there", "here", "have", "has", "had", "do", "does", "did",
    "will", "would", "can", "could", "just", "also", "very", "really", "up", "out", "about", "into",
    "over", "than", "then", "too", "only", "all", "any", "some", "one", "two", "what", "which", "who",
    "when", "where", "how", "get", "got",
))
# How the sale is done (price, payment, handover), stemmed: they describe the sale, not the item, so
# however they weigh they never make a risk term ("asking 10, cash on collection" is no risk).
SALE_WORDS = frozenset((
    "ask", "cash", "offer", "price", "pay", "paypal", "bank", "transfer", "collect", "collection", "pickup",
    "post", "postage", "deliver", "delivery", "courier", "ono", "obo", "negotiable",
))
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_STEMS = (("ies", "y", 5), ("ing", "", 6), ("ed", "", 5), ("s", "", 4))  # suffix, replacement, min length


@dataclass(frozen=True)
class RiskModel:
    """Summed weights over the features a listing has; it needs a person when the sum reaches
    `threshold` and one of its features is a risk term (the intercept alone never flags)."""

    weights: Mapping[str, float]
    threshold: float
    bias: float = 0.0
    risk_terms: frozenset[str] = frozenset()
    min_risk_weight: float = 0.0

    def score(self, features: Iterable[str]) -> float:
        """Exactly rounded (fsum), so the order the features come in never changes the last bit."""
        return math.fsum([self.bias, *(self.weights.get(feature, 0.0) for feature in features)])

    def flags(self, features: Iterable[str]) -> bool:
        """A risk term is required, so a listing is never flagged only for lacking reassuring words."""
        features = list(features)
        return any(f in self.risk_terms for f in features) and self.score(features) >= self.threshold


@cache
def shipped_model() -> RiskModel:
    """The committed weights, read once on first review (never at import)."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    return RiskModel(weights=data["weights"], threshold=float(data["threshold"]), bias=float(data["bias"]),
                     risk_terms=frozenset(data["riskTerms"]), min_risk_weight=float(data["minRiskWeight"]))


def listing_features(listing: Listing, fired_rules: Iterable[str]) -> dict[str, str]:
    """Each feature of the listing with the seller's words it came from ("" for a rule)."""
    features: dict[str, str] = {}
    for text in listing.seller_texts:
        for feature, words in _text_features(text):
            features.setdefault(feature, words)
    features.update((RULE + name, "") for name in fired_rules)
    return features


def learned_findings(model: RiskModel, features: Mapping[str, str]) -> list[Finding]:
    """A request to look when the summed weights reach the threshold and a risk term is present."""
    if not model.flags(features):
        return []
    signals = _strongest(model, features)
    named = ", ".join(f'"{quote(words)}"' for words in signals)
    wording = f" (wording such as {named})"
    return [risk(
        FAMILY, LEARNED_RISK_SCORE_CAP,
        issue=f"The listing reads like listings a person had to check{wording}; no specific rule "
              "matched, so a reviewer should read it before it goes live.",
        suggestion="State plainly the condition, what was checked and what is missing or faulty, so a "
                   "reviewer can clear it quickly.",
    )]


def _strongest(model: RiskModel, features: Mapping[str, str]) -> list[str]:
    """The seller's words behind the strongest risk terms present, most telling first: never a word
    that only the intercept or a weak, author-specific weight speaks for."""
    weighed = [feature for feature, words in features.items() if words and feature in model.risk_terms]
    ranked = sorted(weighed, key=lambda feature: (-model.weights[feature], feature))
    named: list[str] = []
    for words in (features[feature] for feature in ranked):
        if len(named) < MAX_SIGNALS and not any(words in other or other in words for other in named):
            named.append(words)
    return named


def _text_features(text: str) -> list[tuple[str, str]]:
    """Words and adjacent pairs, quoted spans left out (a name, not a claim), denials marked; a
    function word counts only in a pair ("not sure"), alone it would only measure length."""
    tokens = _tokens(text)
    pairs = [(f"{a[0]}{PAIR}{b[0]}", f"{a[1]} {b[1]}") for a, b in pairwise(tokens)
             if not (_function_word(a) and _function_word(b))]
    return [token for token in tokens if not _function_word(token)] + pairs


def explains(feature: str) -> bool:
    """Whether a feature may be a risk term: seller words (not a rule signal) saying something about
    the item, not only how it is sold."""
    words = [word.removeprefix(NEGATED) for word in feature.split(PAIR)]
    return not feature.startswith(RULE) and not all(w in SALE_WORDS or w in FUNCTION_WORDS for w in words)


def _function_word(token: tuple[str, str]) -> bool:
    return token[1] in FUNCTION_WORDS


def _tokens(text: str) -> list[tuple[str, str]]:
    lowered, quoted = text.lower(), quoted_spans(text)
    return [(_marked(lowered, match), match.group()) for match in _WORD.finditer(lowered)
            if not any(start < match.start() and match.end() <= end for start, end in quoted)]


def _marked(text: str, match: re.Match[str]) -> str:
    word = stem(match.group())
    return NEGATED + word if is_negated(text, match.start(), match.end()) else word


def stem(word: str) -> str:
    """A crude suffix cut so "cracked", "cracks" and "cracking" share one weight."""
    for suffix, replacement, shortest in _STEMS:
        if word.endswith(suffix) and len(word) >= shortest and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word
