"""Free-text ordering recommendations → evaluable rules, or the outcome "not evaluable" (never a guess).

Recognised families (the simulator's `solvers.inventory.policies`):
(s,S) — "(s, S) = (20, 80)", "reorder point 20, order-up-to level 80", "when inventory drops below 20,
order up to 80"; (R,Q) — "(R, Q) = (30, 40)", "when stock falls below 30, order 40 units";
base-stock / order-up-to — "base-stock level 45", "every day order up to 45"; constant — "order 8 units
every day". Trigger words are translated exactly to the engine's `IP < s`: "below 20" is s = 20,
"at or below 20" / "falls to 20" is s = 21. A text is "not evaluable" when it holds no complete rule (a
trigger without an amount, qualitative advice), a range, a fractional quantity, an inconsistent rule
(s > S), or two different rules. Every result keeps its source text and says how it was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.text.numbers import words_to_digits
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy

FAMILY_LABELS = {"sS": "(s,S)", "rQ": "(R,Q)", "base_stock": "base-stock", "constant": "constant order"}
_N = r"(\d+(?:\.\d+)?)"
_U = r"(?:\s*(?:units?|pieces|items|pcs|of them))?"
_STOCK = (
    r"(?:(?:your|the|total|current|net)\s+)*(?:inventory(?:\s+(?:position|level))?|stock(?:\s+level)?|"
    r"on[- ]hand(?:\s+(?:inventory|stock))?(?:\s+(?:plus|and|\+)\s+on[- ]order(?:\s+(?:inventory|stock))?)?|"
    r"(?:sum|total)\s+of\s+on[- ]hand\s+and\s+on[- ]order(?:\s+(?:inventory|stock|units))?|"
    r"inventory\s+position|IP|it|units\s+on\s+hand|stock\s+on\s+hand)"
)
_LE = r"(?:to\s+or\s+below|at\s+or\s+below|to\s+or\s+under|or\s+below|or\s+fewer|or\s+less|<=|≤|reaches|hits|to|at)"
_LT = r"(?:below|under|beneath|less\s+than|fewer\s+than|<)"
_VERB = r"(?:falls?|drops?|goes|dips?|is|gets|sinks?|reaches|hits|are|has)?"
_TRIGGER = rf"(?:when|whenever|if|once|as\s+soon\s+as)\s+{_STOCK}\s+{_VERB}\s*(?P<op>{_LT}|{_LE})\s*(?:a\s+level\s+of\s+)?{_N}{_U}"
_UPTO = rf"(?:order|replenish|restock|top|bring\s+(?:it|{_STOCK})|raise\s+(?:it|{_STOCK})|refill)[^.;\n]{{0,40}}?\bup\s+to\s+(?:a\s+(?:total|level)\s+of\s+|the\s+level\s+(?:of\s+)?|level\s+)?{_N}"
_ORDER_Q = rf"(?:order|place\s+an\s+order\s+(?:of|for)|buy|purchase)\s+(?:a\s+(?:batch|lot|fixed\s+quantity)\s+of\s+)?{_N}{_U}(?!\s*(?:every|each|per|a)\s+(?:day|period))"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("sS_pair", re.compile(rf"\(\s*s\s*,\s*S\s*\)[^()\d]{{0,40}}\(\s*{_N}\s*,\s*{_N}\s*\)")),
    ("sS_pair", re.compile(rf"\(\s*s\s*=\s*{_N}\s*,\s*S\s*=\s*{_N}\s*\)")),
    ("sS_pair", re.compile(rf"\bs\s*=\s*{_N}\b[^.\n]{{0,60}}?\bS\s*=\s*{_N}")),
    ("rQ_pair", re.compile(rf"\(\s*R\s*,\s*Q\s*\)[^()\d]{{0,40}}\(\s*{_N}\s*,\s*{_N}\s*\)")),
    ("rQ_pair", re.compile(rf"\bR\s*=\s*{_N}\b[^.\n]{{0,60}}?\bQ\s*=\s*{_N}")),
    (
        "sS_named",
        re.compile(
            rf"reorder\s+(?:point|level)(?:\s*\(s\))?\s*(?:of|=|:|is|at|to)?\s*{_N}{_U}[^.\n]{{0,80}}?"
            rf"order[- ]up[- ]to\s+(?:level|point|target)?(?:\s*\(S\))?\s*(?:of|=|:|is|at|to)?\s*{_N}",
            re.I,
        ),
    ),
    (
        "rQ_named",
        re.compile(
            rf"reorder\s+(?:point|level)(?:\s*\(R\))?\s*(?:of|=|:|is|at|to)?\s*{_N}{_U}[^.\n]{{0,80}}?"
            rf"(?:order\s+quantity|lot\s+size|batch\s+size)(?:\s*\(Q\))?\s*(?:of|=|:|is|at|to)?\s*{_N}",
            re.I,
        ),
    ),
    ("sS_rule", re.compile(rf"{_TRIGGER}[^.;\n]{{0,60}}?{_UPTO}", re.I)),
    ("sS_rule_rev", re.compile(rf"{_UPTO}{_U}[^.;\n]{{0,30}}?{_TRIGGER}", re.I)),
    ("rQ_rule", re.compile(rf"{_TRIGGER}[^.;\n]{{0,40}}?{_ORDER_Q}", re.I)),
    ("rQ_rule_rev", re.compile(rf"{_ORDER_Q}[^.;\n]{{0,30}}?{_TRIGGER}", re.I)),
    (
        "base_stock",
        re.compile(
            rf"base[- ]stock\s+(?:level|target|policy)?\s*(?:\(S\))?\s*(?:of|=|:|at|with\s+S\s*=|is)?\s*{_N}",
            re.I,
        ),
    ),
    (
        "base_stock",
        re.compile(
            rf"(?:every|each)\s+(?:day|period|morning)[^.;\n]{{0,40}}?{_UPTO}|{_UPTO}{_U}\s+(?:every|each)\s+(?:day|period)|"
            rf"{_UPTO}{_U}\s+daily",
            re.I,
        ),
    ),
    (
        "constant",
        re.compile(
            rf"(?:order|buy|purchase)\s+(?:a\s+(?:constant|fixed)\s+(?:quantity\s+of\s+)?|exactly\s+)?{_N}{_U}\s+"
            rf"(?:every|each|per|a)\s+(?:single\s+)?(?:day|period)|constant\s+order(?:\s+quantity)?\s+(?:of\s+)?{_N}",
            re.I,
        ),
    ),
]
_RANGE = re.compile(rf"{_N}\s*(?:-|–|to)\s*{_N}{_U}|between\s+{_N}{_U}\s+and\s+{_N}", re.I)
_TRIGGER_ONLY = re.compile(_TRIGGER, re.I)
_NUMBER = re.compile(_N)


@dataclass(frozen=True)
class ParsedPolicy:
    """A recommendation read from text: the family and its whole-number parameters, or not evaluable
    (`family` None) with the reason. `source` is the text it came from; `note` says how it was read."""

    source: str
    family: str | None
    params: dict[str, int] = field(default_factory=dict)
    note: str = ""
    basis: str = "unspecified"

    @property
    def evaluable(self) -> bool:
        return self.family is not None

    @property
    def policy(self) -> Any:
        """The simulator policy, or None when not evaluable."""
        p = self.params
        if self.family == "sS":
            return SSPolicy(p["s"], p["S"])
        if self.family == "rQ":
            return RQPolicy(p["R"], p["Q"])
        if self.family == "base_stock":
            return BaseStockPolicy(p["S"])
        if self.family == "constant":
            return ConstantPolicy(p["q"])
        return None

    def describe(self) -> str:
        if self.family is None:
            return f"not evaluable: {self.note}"
        args = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{FAMILY_LABELS.get(self.family, self.family)} {args}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "params": dict(self.params),
            "evaluable": self.evaluable,
            "note": self.note,
            "basis": self.basis,
            "reading": self.describe(),
        }

    @classmethod
    def from_object(cls, policy: Any, text: str) -> ParsedPolicy:
        """The record of a policy that came as an object (Treatment A's optimizer finalist), not from text."""
        for family, attrs in (
            (SSPolicy, ("s", "S")),
            (RQPolicy, ("R", "Q")),
            (BaseStockPolicy, ("S",)),
            (ConstantPolicy, ("q",)),
        ):
            if isinstance(policy, family):
                name = {
                    SSPolicy: "sS",
                    RQPolicy: "rQ",
                    BaseStockPolicy: "base_stock",
                    ConstantPolicy: "constant",
                }[family]
                return cls(
                    text, name, {a: int(getattr(policy, a)) for a in attrs}, f"optimizer policy {policy.name}"
                )
        return cls(
            text, "table", {}, f"optimizer policy {getattr(policy, 'name', '?')} (a state-dependent table)"
        )


def _clean(text: str) -> str:
    text = re.sub(r"[*_`#]+", " ", text)
    text = text.replace("\u2212", "-")
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)
    return " ".join(words_to_digits(text).split())


def _candidate(kind: str, m: re.Match[str]) -> tuple[str, dict[str, str], str]:
    nums = [g for g in m.groups() if g is not None and _NUMBER.fullmatch(g)]
    op = m.groupdict().get("op") or ""
    inclusive = bool(op) and not re.fullmatch(_LT, op, re.I)
    if kind in ("sS_pair", "sS_named"):
        return "sS", {"s": nums[0], "S": nums[1]}, "explicit (s,S) parameters"
    if kind in ("rQ_pair", "rQ_named"):
        return "rQ", {"R": nums[0], "Q": nums[1]}, "explicit (R,Q) parameters"
    if kind.startswith(("sS_rule", "rQ_rule")):
        family, (level_key, amount_key) = ("sS", ("s", "S")) if kind.startswith("sS") else ("rQ", ("R", "Q"))
        level, amount = (nums[1], nums[0]) if kind.endswith("_rev") else (nums[0], nums[1])
        return (
            family,
            {level_key: level, amount_key: amount, "+1": "1" if inclusive else "0"},
            f"trigger '{op}' read as IP {'<=' if inclusive else '<'} level",
        )
    if kind == "base_stock":
        return "base_stock", {"S": nums[0]}, "order up to the level every period"
    return "constant", {"q": nums[0]}, "the same order every period"


def parse_policy(text: str) -> ParsedPolicy:
    """Read one recommendation; see the module docstring for what is and is not evaluable."""
    if not isinstance(text, str) or not text.strip():
        return ParsedPolicy(str(text or ""), None, note="the text is empty")
    clean = _clean(text)
    basis = "unspecified"
    if re.search(r"on[- ]order|inventory position|pipeline|in transit|incoming", clean, re.I):
        basis = "inventory_position"
    elif re.search(r"on[- ]hand|on the shelf|in the (?:store|warehouse)", clean, re.I):
        basis = "on_hand"
    found: dict[tuple, str] = {}
    fractional = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(clean):
            family, raw, how = _candidate(kind, m)
            if any(not float(v).is_integer() for v in raw.values()):
                fractional.append(m.group(0))
                continue
            bump = int(raw.pop("+1", "0"))
            params = {k: int(float(v)) for k, v in raw.items()}
            if bump:
                params["s" if family == "sS" else "R"] += 1
            found.setdefault((family, tuple(params.items())), how)
    # a base-stock/constant reading inside a fuller rule is the same sentence read twice
    rules = {k: v for k, v in found.items() if k[0] in ("sS", "rQ")}
    if rules:
        found = rules
    if fractional and not found:
        return ParsedPolicy(
            text, None, note=f"a fractional quantity ('{fractional[0]}'); orders are whole units", basis=basis
        )
    if not found:
        if _RANGE.search(clean):
            return ParsedPolicy(text, None, note="a range instead of a number", basis=basis)
        if _TRIGGER_ONLY.search(clean):
            return ParsedPolicy(
                text,
                None,
                note="a reorder trigger without an order quantity or order-up-to level",
                basis=basis,
            )
        reason = "no numbers" if not _NUMBER.search(clean) else "no complete ordering rule"
        return ParsedPolicy(text, None, note=reason, basis=basis)
    if len(found) > 1:
        readings = "; ".join(f"{FAMILY_LABELS[f]} {dict(p)}" for f, p in found)
        return ParsedPolicy(text, None, note=f"several different rules ({readings})", basis=basis)
    (family, params), how = next(iter(found.items()))
    params = dict(params)
    if family == "sS" and params["s"] > params["S"]:
        return ParsedPolicy(
            text,
            None,
            note=f"inconsistent: the reorder level {params['s']} is above the order-up-to level {params['S']}",
            basis=basis,
        )
    if family == "rQ" and params["Q"] < 1:
        return ParsedPolicy(text, None, note="an order quantity of 0", basis=basis)
    note = how
    if basis == "on_hand":
        note += "; the text triggers on on-hand stock, the simulator on the inventory position (on-hand + on-order)"
    return ParsedPolicy(text, family, params, note, basis)
