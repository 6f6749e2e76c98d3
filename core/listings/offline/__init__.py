"""The offline reviewer: fixed, explainable rules instead of a model.

Why rules: this reviewer is the default when no AI provider is configured, so it must be instant,
free, identical on every run (tests and re-reviews depend on that) and impossible to steer from
seller text. Every point taken off the score comes with an issue or a missing field a seller can
act on; seller text is only ever matched against vocabulary tables, never obeyed.
"""
