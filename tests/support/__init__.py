"""Test support code: fake LLM servers and browser helpers."""
