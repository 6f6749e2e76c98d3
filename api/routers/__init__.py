"""One router per resource: batches, jobs, synchronous reviews."""
