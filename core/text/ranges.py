"""Ranges given for a single-valued row ('between 2 and 4 days', '3-5 days', '$2 to $3'): both ends are
read separately so the agent can ask which one to use instead of silently picking one."""

from __future__ import annotations

import re

from core.text.numbers import NUMBER_RE, read_number

_NUM = NUMBER_RE.pattern
_UNIT = r"(?:(?:business\s+)?(?:days?|weeks?|months?|units?|items?|dollars?|bucks?|euros?)\s*)?"
_RANGE_RE = re.compile(
    rf"\bbetween\s+(?P<c1>[$€£])?(?P<a>{_NUM})\s*{_UNIT}and\s+[$€£]?(?P<b>{_NUM})"
    rf"|\bfrom\s+(?P<c2>[$€£])?(?P<c>{_NUM})\s*{_UNIT}to\s+[$€£]?(?P<d>{_NUM})"
    rf"|(?P<c3>[$€£])?(?P<e>{_NUM})\s*(?:-|–|\bto\b|\bor\b)\s*[$€£]?(?P<f>{_NUM})(?!\s*(?:%|percent))",
    re.IGNORECASE,
)
_SCALE_ENDS = {-10.0, 10.0}


def split_range(text: str, scale: bool = False) -> tuple[str, str] | None:
    """The clause rewritten once with each end of a range in it, or None without a range. With `scale`,
    the risk scale's own ends ('-10 to 10') are not a range."""
    for m in _RANGE_RE.finditer(text):
        currency = m.group("c1") or m.group("c2") or m.group("c3") or ""
        lo, hi = (g for g in m.group("a", "b", "c", "d", "e", "f") if g is not None)
        low, high = read_number(lo), read_number(hi)
        if low is None or high is None or low == high or (scale and {low, high} == _SCALE_ENDS):
            continue
        head, tail = text[: m.start()], text[m.end() :]
        return f"{head}{currency}{lo}{tail}", f"{head}{currency}{hi}{tail}"
    return None
