"""Seller accounts as the HTTP API sees them: API keys that map a bearer secret to an owner."""
