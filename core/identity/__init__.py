"""Who is using the UI: sellers signed in with OpenID Connect (or the local seller), their roles,
and the operators' audit of actions on other sellers' batches."""
