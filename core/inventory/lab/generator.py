"""The Problem Generator (seed 000 Table 11): seeded latent business realities and their ground-truth table.

Rules enforced on every instance (tested on 1,000 seeded draws): non-perishable goods; setup cost <= 5;
critical ratio b/(b+h) in [0.8, 0.9]; holding cost exactly 30% of the item cost (per unit per day);
normal demand has sd = mean/3 rounded to 0.1; max inventory <= 100; max order <= 50 and <= max inventory;
the lead time is shorter than the horizon. Capacity is sized so the lead-time demand fits (a generator that
made infeasible businesses would measure nothing). The `paper70` protocol reproduces Table 5's splits:
14 normal at L = 7, 11 Poisson at L = 7, 15 Poisson at L = 1, and 30 other instances (normal or Poisson,
L in 1..5). The business context comes from a template bank, or from an LLM when a key is configured
(`llm_context`); the knowledge base is what the imitator knows, in a manager's units.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.config import Settings
from core.errors import ProviderError, SpecError
from solvers.inventory.distribution import format_number
from solvers.inventory.spec import InventoryProblem, params_csv_text, problem_from_table, table_from_problem
from solvers.records import read_fields
from solvers.upload import check_controls, iter_lines, load_json, parse_record

PROTOCOLS = ("paper70", "mixed")
PAPER70_SPLITS: tuple[tuple[str, str, int | None, int], ...] = (
    ("normal_L7", "normal", 7, 14),
    ("poisson_L7", "poisson", 7, 11),
    ("poisson_L1", "poisson", 1, 15),
    ("other", "any", None, 30),
)
OTHER_LEADS = (1, 2, 3, 4, 5)
MAX_SCENARIO_BYTES = 20_000_000  # scenarios.jsonl (the 70 paper scenarios take about 100 KB)
MAX_SCENARIOS = 10_000  # lines of scenarios.jsonl
HORIZONS = (30, 60, 90)
HOLDING_SHARE = 0.3
# (business, plural item, one item) — durable goods only (Table 11: non-perishable)
BUSINESSES: tuple[tuple[str, str, str], ...] = (
    ("a bicycle repair shop", "inner tubes", "inner tube"),
    ("a neighbourhood hardware store", "boxes of wood screws", "box of screws"),
    ("a rare comic book store", "limited-edition comic books", "comic book"),
    ("a car repair workshop", "brake pad sets", "brake pad set"),
    ("a small pet supply shop", "bags of cat litter", "bag of litter"),
    ("a print and copy shop", "toner cartridges", "toner cartridge"),
    ("a campus stationery kiosk", "packs of graph paper", "pack of graph paper"),
    ("a plumbing supply counter", "shower valves", "shower valve"),
    ("an outdoor gear store", "camping gas canisters", "gas canister"),
    ("a phone repair booth", "replacement screens", "screen"),
    ("a garden centre", "bags of potting soil", "bag of soil"),
    ("a music shop", "sets of guitar strings", "set of strings"),
    ("a school uniform supplier", "navy sweaters", "sweater"),
    ("a marine chandlery", "mooring lines", "mooring line"),
    ("an office furniture dealer", "desk lamps", "desk lamp"),
    ("a craft brewery's shop", "branded glasses", "glass"),
    ("a hobby shop", "model paint sets", "paint set"),
    ("a dental practice", "boxes of nitrile gloves", "box of gloves"),
    ("a boutique hotel", "bath towels", "towel"),
    ("a small electronics store", "USB-C chargers", "charger"),
    ("a tyre centre", "winter tyres", "tyre"),
    ("a yoga studio shop", "yoga mats", "mat"),
    ("an imported-ingredient pantry for a restaurant", "tins of saffron", "tin"),
    ("a bookshop", "copies of a bestselling cookbook", "copy"),
)
CONTEXT_TEMPLATES = (
    "Managing inventory of {items} for {business}.",
    "Overseeing the stock of {items} at {business}.",
    "Keeping {items} on the shelf at {business}.",
)


@dataclass(frozen=True)
class Scenario:
    """One latent business reality: the context, the knowledge base (Table 11's strings with units), the item
    cost behind the holding cost, and the ground-truth problem."""

    key: str
    seed: int
    split: str
    business: str
    item: str
    item_one: str
    context: str
    item_cost: float
    problem: InventoryProblem
    context_source: str = "template"
    knowledge_base: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.key:
            raise SpecError("key", "a scenario needs a key")
        if not math.isfinite(self.item_cost) or self.item_cost <= 0:
            raise SpecError("item_cost", f"must be a positive number, got {self.item_cost}")
        if not 0 <= self.seed < 2**32:
            raise SpecError("seed", f"must be a whole number from 0 to 4,294,967,295, got {self.seed}")
        if not self.knowledge_base:
            object.__setattr__(self, "knowledge_base", knowledge_base(self.problem))

    @property
    def critical_ratio(self) -> float:
        p = self.problem
        return p.penalty_cost / (p.penalty_cost + p.holding_cost)

    @property
    def table(self) -> dict[str, str]:
        """The 12 canonical ground-truth values."""
        return table_from_problem(self.problem)

    def params_csv(self) -> str:
        """The ground-truth `extracted_params.csv`."""
        return params_csv_text(self.problem)

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k != "problem"}
        data["table"] = self.table
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scenario:
        try:
            if not isinstance(data["table"], dict):
                raise SpecError("table", "must be an object holding the 12 parameters")
            problem = problem_from_table(data["table"])
            key = data["key"]
            if not isinstance(key, str) or not key.strip() or "|" in key:
                raise SpecError("key", "must be a non-empty text without '|' (it names the lab's experiment cells)")
        except KeyError as err:
            raise SpecError(str(err.args[0]), "is missing from the scenario record") from None
        kb = dict(data.get("knowledge_base") or {})
        return read_fields(cls, data, "scenario record", key=key, problem=problem, knowledge_base=kb)


def knowledge_base(problem: InventoryProblem) -> dict[str, str]:
    """Table 11's knowledge base: each parameter as a string with its unit."""
    p = problem
    demand = p.demand
    return {
        "time_horizon": f"{p.time_horizon} days",
        "demand_type": "deterministic" if demand.kind == "deterministic" else "random",
        "demand_distribution": demand.canonical(),
        "perishability": "false",
        "state_transition_model": "lost sale" if p.lost_sales else "backlog",
        "holding_cost": f"{format_number(p.holding_cost)} USD per unit per day",
        "penalty_cost": f"{format_number(p.penalty_cost)} USD per unit"
        + ("" if p.lost_sales else " per day"),
        "setup_cost": f"{format_number(p.setup_cost)} USD per order",
        "lead_time": f"{p.lead_time} days",
        "max_inventory": f"{p.max_inventory} units",
        "max_order": f"{p.max_order} units",
        "risk_tolerance": format_number(p.risk_tolerance),
    }


def _draw(
    rng: np.random.Generator, kind: str, lead: int, *, risk_neutral: bool
) -> tuple[InventoryProblem, float]:
    """One problem of a given demand kind and lead time, following the module's rules."""
    item_cost = float(rng.choice(np.arange(1.0, 10.01, 0.5), p=_cost_weights()))
    holding = round(HOLDING_SHARE * item_cost, 4)
    ratio = float(rng.uniform(0.805, 0.895))
    penalty = round(holding * ratio / (1 - ratio), 2)
    setup = float(rng.choice(np.arange(1.0, 5.01, 0.5)))
    cover = lead + 1
    mean_cap = max(2, math.floor(80 / (cover * 1.3)))
    mean = int(rng.integers(2, min(mean_cap, 30) + 1))
    if kind == "normal":
        sd = round(mean / 3, 1)
        dist, spread = f"normal({mean},{format_number(sd)})", sd
    elif kind == "poisson":
        dist, spread = f"poisson({mean})", math.sqrt(mean)
    else:
        dist, spread = str(mean), 0.0
    need = cover * mean + 2 * spread * math.sqrt(cover)
    capacity = int(min(100, max(20, math.ceil(need * rng.uniform(1.1, 1.6)))))
    low = min(capacity, 50, max(mean + 2, math.ceil(1.5 * mean)))
    max_order = int(rng.integers(low, min(50, capacity) + 1))
    horizon = int(rng.choice([h for h in HORIZONS if h > lead]))
    drawn = int(rng.integers(-10, 11))  # drawn either way: risk-neutral sets are the same businesses, paired
    risk = 10 if risk_neutral else drawn
    table = {
        "time_horizon": str(horizon),
        "demand_type": "deterministic" if kind == "deterministic" else "random",
        "demand_distribution": dist,
        "perishability": "false",
        "state_transition_model": "lost_sale" if rng.random() < 0.6 else "backlog",
        "holding_cost": format_number(holding),
        "penalty_cost": format_number(penalty),
        "setup_cost": format_number(setup),
        "lead_time": str(lead),
        "max_inventory": str(capacity),
        "max_order": str(max_order),
        "risk_tolerance": str(risk),
    }
    return problem_from_table(table), item_cost


def _cost_weights() -> np.ndarray:
    """Cheaper items are more common (holding costs of $0.30–$3.00 per unit per day, mostly under $1.50)."""
    costs = np.arange(1.0, 10.01, 0.5)
    w = 1.0 / costs
    return w / w.sum()


def plan(protocol: str, n: int | None) -> list[tuple[str, str, int | None]]:
    """(split, demand kind, lead time) per instance for a protocol; `paper70` ignores n unless given."""
    if protocol not in PROTOCOLS:
        raise SpecError("protocol", f"must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    if protocol == "paper70":
        rows = [(name, kind, lead) for name, kind, lead, count in PAPER70_SPLITS for _ in range(count)]
        if n is not None:
            rows = [rows[i % len(rows)] for i in range(n)]
        return rows
    if n is None or n < 1:
        raise SpecError("n", "the mixed protocol needs a number of instances >= 1")
    return [("mixed", "any", None)] * n


def generate(
    n: int | None = None, seed: int = 0, *, protocol: str = "paper70", risk_neutral: bool = False
) -> list[Scenario]:
    """Seeded scenarios; instance i uses its own stream `(seed, i)`, so a subset reproduces exactly."""
    if n is not None and (isinstance(n, bool) or n < 1 or n > 100_000):
        raise SpecError("n", f"must be between 1 and 100,000, got {n!r}")
    out = []
    for i, (split, kind, lead) in enumerate(plan(protocol, n)):
        rng = np.random.default_rng([seed, i])
        if kind == "any":
            kind = str(rng.choice(["normal", "poisson", "deterministic"], p=[0.475, 0.475, 0.05]))
            if protocol == "paper70" and kind == "deterministic":
                kind = "normal"
        if lead is None:
            lead = int(rng.choice(OTHER_LEADS))
        problem, item_cost = _draw(rng, kind, lead, risk_neutral=risk_neutral)
        business, items, one = BUSINESSES[int(rng.integers(len(BUSINESSES)))]
        template = CONTEXT_TEMPLATES[int(rng.integers(len(CONTEXT_TEMPLATES)))]
        out.append(
            Scenario(
                key=f"s{i:03d}",
                seed=seed,
                split=split,
                business=business,
                item=items,
                item_one=one,
                context=template.format(items=items, business=business),
                item_cost=item_cost,
                problem=problem,
            )
        )
    return out


CONTEXT_PROMPT = (
    "You are a creative scriptwriter for operations-research case studies. Write ONE short sentence describing "
    "a specific business that manages inventory of the given non-perishable item. Do not mention any numbers. "
    "Answer with the sentence only."
)


def llm_context(settings: Settings, scenario: Scenario) -> Scenario:
    """The scenario with its business context written by the configured LLM (Table 11's role); offline
    settings are refused, so a template context is never passed off as an LLM's."""
    from dataclasses import replace

    from core.llm import Message, make_chat_model

    if settings.provider == "offline":
        raise ProviderError(
            "writing contexts with an LLM needs a provider; offline runs use the template bank"
        )
    model = make_chat_model(settings)
    reply = model.complete(
        CONTEXT_PROMPT, [Message("user", f"Item: {scenario.item}. Kind of business: {scenario.business}.")]
    )
    text = " ".join(reply.text.split())
    if not text or any(ch.isdigit() for ch in text):
        return scenario  # keep the template: a context with numbers would leak the latent reality
    return replace(scenario, context=text, context_source=f"llm:{settings.model}")


def to_jsonl(scenarios: list[Scenario]) -> str:
    return "".join(json.dumps(s.to_dict(), sort_keys=True) + "\n" for s in scenarios)


def from_jsonl(text: str) -> list[Scenario]:
    """Scenarios from `scenarios.jsonl` text (see `load_scenarios`)."""
    return load_scenarios(text.encode("utf-8", "surrogatepass"), "scenarios.jsonl")


def load_scenarios(source: str | Path | bytes, name: str | None = None) -> list[Scenario]:
    """Read a `scenarios.jsonl` path or upload, streamed with size and line caps; SpecError("scenarios", ...)
    naming the file and line (binary data, a line that is not a JSON object, a malformed or repeated scenario).
    """
    shown = name or str(source)
    out: list[Scenario] = []
    keys: set[str] = set()
    lines = iter_lines(
        source, field="scenarios", name=shown, max_bytes=MAX_SCENARIO_BYTES, max_lines=MAX_SCENARIOS
    )
    for n, line in lines:
        if not line.strip():
            continue
        where = f"{shown} line {n}"
        scenario = parse_record(
            load_json(line, field="scenarios", where=where),
            Scenario.from_dict,
            field="scenarios",
            where=where,
            not_object="each line must be a JSON object (one scenario)",
            what="scenario",
        )
        texts = [scenario.key, scenario.split, scenario.business, scenario.item, scenario.item_one,
                 scenario.context, scenario.context_source, *scenario.knowledge_base, *scenario.knowledge_base.values()]  # fmt: skip
        for text in texts:
            if not isinstance(text, str):
                raise SpecError("scenarios", f"{where}: the knowledge base must map names to text")
            check_controls(text, field="scenarios", name=shown, first_line=n)
        if scenario.key in keys:
            raise SpecError("scenarios", f"{where}: scenario key {scenario.key!r} appears twice")
        keys.add(scenario.key)
        out.append(scenario)
    if not out:
        raise SpecError("scenarios", f"{shown} holds no scenarios")
    return out
