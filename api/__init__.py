"""The HTTP API (FastAPI only): the reference article's batch and job contract over core services."""
