"""Penalties, caps and limits: how much each explained finding costs, in one place."""

from decimal import Decimal

# --- Scoring -------------------------------------------------------------------------------------

MISSING_FIELD_PENALTY = 8
SHORT_DESCRIPTION_PENALTY = 15
BRIEF_DESCRIPTION_PENALTY = 8
SHORT_TITLE_PENALTY = 5
GENERIC_TITLE_PENALTY = 10
NO_ATTRIBUTES_PENALTY = 10
VAGUE_PHRASE_PENALTY = 5
VAGUE_PHRASE_PENALTY_CAP = 15
SHOUTING_PENALTY = 5
EXCLAMATION_PENALTY = 5
CONTRADICTION_PENALTY = 20
COLOUR_CONFLICT_PENALTY = CONTRADICTION_PENALTY  # as misleading as any other contradiction
FREE_PRICE_PENALTY = 10
INJECTION_PENALTY = 10
COUNTERFEIT_PENALTY = 40
UNVERIFIED_PENALTY = 15
BATTERY_HAZARD_PENALTY = 30
RECALL_PENALTY = 30
MEDICAL_CLAIM_PENALTY = 25
CHILD_SAFETY_PENALTY = 15
PRECIOUS_METAL_PENALTY = 10
LUXURY_PRICE_PENALTY = 20
SAFETY_PRODUCT_PENALTY = 25
PROVENANCE_PENALTY = 15
INCOMPLETE_PENALTY = 10

# A listing that a person must clear first is not a good listing, however complete it looks:
# its score is capped (and the cap explained) instead of relying on penalties adding up.
SEVERE_RISK_SCORE_CAP = 40  # counterfeit, battery hazard, recall, medical claim
REVIEW_RISK_SCORE_CAP = 50  # authenticity, child safety or precious metal not verified
NO_CAP = 100

MIN_DESCRIPTION_CHARS = 40
MIN_DESCRIPTION_WORDS = 6
BRIEF_DESCRIPTION_WORDS = 15
MIN_TITLE_WORDS = 3
MIN_SHOUTING_LETTERS = 10
MAX_EXCLAMATIONS = 3
LUXURY_MIN_PRICE = Decimal("100")
MAX_MESSAGE_CHARS = 300
MAX_QUOTE_CHARS = 40
MAX_LIST_ITEMS = 50
