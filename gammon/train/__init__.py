"""Training of the neural evaluator: TD(lambda) self-play (never imported at play time)."""
