"""Deterministic natural-language understanding of how managers describe an inventory problem."""
