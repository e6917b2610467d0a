"""Contradictions inside one message: two claims about the same subject and attribute that cannot both
hold ('move Galileo earlier and Galileo later', 'all schools at 7:50 and none before 9')."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    """One thing a message asks for or states: `subject` (a school, a parameter), `attribute` (time,
    direction, value) and the `value`, with the words that said it."""

    subject: str
    attribute: str
    value: object
    words: str = ""


def contradictions(
    claims: Iterable[Claim], compatible: Callable[[Claim, Claim], bool] | None = None
) -> list[tuple[Claim, Claim]]:
    """Pairs of claims on the same subject and attribute that are not compatible (by default: unequal
    values). Claims are grouped by key first, so the work is linear in the number of distinct subjects."""
    same = compatible or (lambda a, b: a.value == b.value)
    groups: dict[tuple[str, str], list[Claim]] = {}
    for claim in claims:
        groups.setdefault((claim.subject, claim.attribute), []).append(claim)
    out = []
    for group in groups.values():
        first = group[0]
        out += [(first, other) for other in group[1:] if not same(first, other)]
    return out
