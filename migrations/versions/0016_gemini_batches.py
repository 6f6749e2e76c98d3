"""Gemini batch mode: provider_batches admits provider 'gemini' beside 'openai' (economy mode
sends Gemini batch jobs through google-genai the way it sends OpenAI batches).

Online-safe (migrations/online.py): the widened check is added NOT VALID in the statement that
drops the old one (a brief lock, no scan), then validated under SHARE UPDATE EXCLUSIVE.

Revision ID: 0016_gemini_batches
Revises: 0015_concurrent_completions
"""

from migrations import online

revision = "0016_gemini_batches"
down_revision = "0015_concurrent_completions"


def _provider_check(providers: str) -> None:
    online.execute("alter table provider_batches drop constraint provider_batches_provider_check, "
                   f"add constraint provider_batches_provider_check check (provider in ({providers})) "
                   "not valid")
    online.execute("alter table provider_batches validate constraint provider_batches_provider_check")


def upgrade() -> None:
    _provider_check("'openai', 'gemini'")


def downgrade() -> None:
    _provider_check("'openai'")
