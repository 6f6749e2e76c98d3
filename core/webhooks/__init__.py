"""Completion webhooks: a seller's registered URL and the signed, retried delivery of each
batch completion from the outbox PostgreSQL writes with it (migration 0010)."""
