"""ORCA's error hierarchy. Messages are shown to users verbatim, so write them for people.

Pages catch `OrcaError` and show `st.error(str(err))`; anything else is a bug.
"""

from __future__ import annotations


class OrcaError(Exception):
    """Base class for every error ORCA expects and explains."""


class SpecError(OrcaError, ValueError):
    """A specification or user input is invalid; `field` names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


class ProviderError(OrcaError):
    """An LLM provider failed (authentication, unknown model, network, rate limit)."""


class SolverError(OrcaError):
    """A solver could not run (not: found the model infeasible, which is a status)."""


class StoreError(OrcaError):
    """The run store could not be read or written."""
