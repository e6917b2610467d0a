"""The inventory evaluation lab (seed 000 §3–4): generated scenarios, a human imitator, treatments A/B/C,
the LLM judge, a policy parser, ground-truth assessment with common random numbers, and reports."""
