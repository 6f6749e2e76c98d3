"""The cost ledger: prices per provider and model, and the cost of the usage stored with each
result (per item, batch, seller and day). Costs are derived when read, never stored.
"""
