"""Shipped weights of the neural evaluator (docs/weights.md)."""
