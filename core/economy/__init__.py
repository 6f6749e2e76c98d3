"""Economy mode: an economy batch's jobs go to the provider's Batch API (about half price,
within 24 hours) instead of one queue message each; results come back into the same job
lifecycle (core/jobs/lifecycle.py)."""
