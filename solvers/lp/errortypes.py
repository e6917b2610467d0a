"""The ten supply-chain error types of OptiRepair (Table 7) with their difficulty and Table 12 split counts."""

from __future__ import annotations

from enum import StrEnum


class ErrorType(StrEnum):
    ME1 = "ME-1"
    ME2 = "ME-2"
    ME3 = "ME-3"
    ME4 = "ME-4"
    ME5 = "ME-5"
    ME6 = "ME-6"
    ME7 = "ME-7"
    ME8 = "ME-8"
    ME9 = "ME-9"
    ME10 = "ME-10"


TITLES: dict[ErrorType, str] = {
    ErrorType.ME1: "Demand inflation",
    ErrorType.ME2: "Lead-time error",
    ErrorType.ME3: "Balance violation",
    ErrorType.ME4: "Capacity reduction",
    ErrorType.ME5: "Cost structure error",
    ErrorType.ME6: "Bullwhip amplification",
    ErrorType.ME7: "Coefficient perturbation",
    ErrorType.ME8: "Sign error",
    ErrorType.ME9: "Redundant constraint",
    ErrorType.ME10: "Index mismatch",
}

DIFFICULTY: dict[ErrorType, str] = {
    ErrorType.ME1: "hard",
    ErrorType.ME2: "hard",
    ErrorType.ME4: "hard",
    ErrorType.ME10: "hard",
    ErrorType.ME6: "medium",
    ErrorType.ME7: "medium",
    ErrorType.ME8: "medium",
    ErrorType.ME9: "medium",
    ErrorType.ME3: "easy",
    ErrorType.ME5: "easy",
}

# Table 12: (train, test) problems per error type; 692 / 284 / 976 in total.
SPLIT_COUNTS: dict[ErrorType, tuple[int, int]] = {
    ErrorType.ME1: (78, 27),
    ErrorType.ME2: (89, 31),
    ErrorType.ME3: (87, 30),
    ErrorType.ME4: (89, 31),
    ErrorType.ME5: (71, 30),
    ErrorType.ME6: (40, 28),
    ErrorType.ME7: (66, 24),
    ErrorType.ME8: (71, 25),
    ErrorType.ME9: (56, 28),
    ErrorType.ME10: (45, 30),
}

# Error types whose ground-truth fix is expressible in the paper's repair grammar (no coefficient edit).
IN_AGENT_GRAMMAR = frozenset(
    {ErrorType.ME1, ErrorType.ME3, ErrorType.ME4, ErrorType.ME5, ErrorType.ME6, ErrorType.ME9}
)


def parse_error_type(value: str) -> ErrorType:
    text = value.strip().upper().replace("_", "-")
    if not text.startswith("ME-") and text.startswith("ME"):
        text = "ME-" + text[2:]
    try:
        return ErrorType(text)
    except ValueError:
        from core.errors import SpecError

        raise SpecError("error_type", f"unknown error type {value!r}; use ME-1 … ME-10") from None
