"""The bear-off databases: one-sided (shipped) and two-sided (built on first use)."""
