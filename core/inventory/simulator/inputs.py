"""The Policy Simulator's inputs: the problem from form values, an uploaded `extracted_params.csv`, a daily
demand history or a stored Inventory Copilot run, and the heuristic policies the user picks.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import SpecError
from core.inventory.table import problem_from_csv
from core.store import Store
from solvers.inventory.demand import demand_from_history
from solvers.inventory.montecarlo import Policy
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.spec import (
    OPTIONAL_KEYS,
    PARAMETER_KEYS,
    InventoryProblem,
    parse_demand,
    problem_from_table,
)
from solvers.upload import csv_rows

COPILOT_WORKBENCH = "inventory_copilot"
PARAMS_ARTIFACT = "extracted_params.csv"
FORM_KEYS: tuple[str, ...] = (
    *(k for k in PARAMETER_KEYS if k != "demand_type"),  # the demand type follows from the distribution
    *OPTIONAL_KEYS,
)
PAPER_INSTANCE: dict[str, object] = {
    "time_horizon": 30,
    "demand_distribution": "poisson(8)",
    "perishability": False,
    "state_transition_model": "lost_sale",
    "holding_cost": 0.5,
    "penalty_cost": 2.83,
    "setup_cost": 3.0,
    "lead_time": 1,
    "max_inventory": 40,
    "max_order": 20,
    "risk_tolerance": 0.0,
    "initial_inventory": 0,
}
POLICY_KINDS: dict[str, tuple[str, ...]] = {
    "sS": ("s", "S"),
    "base_stock": ("S", "cap"),
    "constant": ("q",),
    "rQ": ("R", "Q"),
}
POLICY_LABELS: dict[str, str] = {
    "sS": "(s,S)",
    "base_stock": "Capped base-stock",
    "constant": "Constant order",
    "rQ": "(R,Q)",
}


def problem_from_form(values: Mapping[str, object]) -> InventoryProblem:
    """A problem from the form's values (keys `FORM_KEYS`); the demand type follows from the distribution."""
    table = {k: values.get(k) for k in FORM_KEYS if k != "initial_inventory"}
    dist = parse_demand(str(values.get("demand_distribution", "")))
    table["demand_type"] = "deterministic" if dist.kind == "deterministic" else "random"
    table["demand_distribution"] = dist.canonical()
    initial = values.get("initial_inventory")
    if initial not in (None, "", 0):
        table["initial_inventory"] = initial
    return problem_from_table(table)


def form_values(problem: InventoryProblem) -> dict[str, object]:
    """The form's typed values for a problem (the inverse of `problem_from_form`)."""
    return {
        "time_horizon": problem.time_horizon,
        "demand_distribution": problem.demand.canonical(),
        "perishability": problem.perishable,
        "state_transition_model": "lost_sale" if problem.lost_sales else "backlog",
        "holding_cost": problem.holding_cost,
        "penalty_cost": problem.penalty_cost,
        "setup_cost": problem.setup_cost,
        "lead_time": problem.lead_time,
        "max_inventory": problem.max_inventory,
        "max_order": problem.max_order,
        "risk_tolerance": problem.risk_tolerance,
        "initial_inventory": problem.initial_inventory,
    }


def default_problem() -> InventoryProblem:
    """The paper's instance: Poisson(8), h 0.5, b 2.83, K 3, lost sales, L 1, max inventory 40, max order 20, T 30."""
    return problem_from_form(PAPER_INSTANCE)


@dataclass(frozen=True)
class LoadedProblem:
    """A problem read from a file or a run, with a sentence saying where it came from."""

    problem: InventoryProblem
    source: str


def _decode(data: bytes | str) -> str:
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SpecError("upload", "the file is not UTF-8 text; upload a CSV file") from None
    return data.lstrip("\ufeff")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


_DEMAND_COLUMN_WORDS = ("demand", "sales", "sold", "quantity", "units")
"""A CSV column holding daily demand has one of these inside its (lower-cased) name."""


def read_demand_history(data: bytes | str) -> list[float]:
    """Daily demands from a CSV with one column (optionally headed), or a column named like demand/sales."""
    rows = [
        r
        for _, r in csv_rows(_decode(data), field="demand_history", name="the demand history")
        if any(c.strip() for c in r)
    ]
    if not rows:
        raise SpecError("demand_history", "the file is empty; upload one column of daily demand")
    column = 0
    header = not all(_is_number(c.strip()) for c in rows[0] if c.strip())
    if len(rows[0]) > 1:
        names = [c.strip().lower() for c in rows[0]] if header else []
        found = [i for i, n in enumerate(names) if any(w in n for w in _DEMAND_COLUMN_WORDS)]
        if not found:
            raise SpecError(
                "demand_history",
                "the file has several columns; upload one column of daily demand or name it 'demand'",
            )
        column = found[0]
    values: list[float] = []
    for row_no, row in enumerate(rows[1:] if header else rows, start=2 if header else 1):
        cell = row[column].strip() if column < len(row) else ""
        if not _is_number(cell):
            raise SpecError("demand_history", f"row {row_no}: {cell!r} is not a number")
        if float(cell) < 0:
            raise SpecError("demand_history", f"row {row_no}: a daily demand cannot be negative, got {cell}")
        values.append(float(cell))
    if not values:
        raise SpecError("demand_history", "the file has a header but no daily demands")
    return values


def problem_from_upload(data: bytes | str, current: InventoryProblem, name: str | None = None) -> LoadedProblem:
    """An `extracted_params.csv` (columns parameter,value,…) or a daily demand history applied to `current`; with
    `name` (the user's file name) every error's message starts with it, as `solvers/upload.py`'s do."""
    if name is None:
        return _problem_from_upload(data, current)
    try:
        return _problem_from_upload(data, current)
    except SpecError as err:
        detail = str(err).removeprefix(f"{err.field}: ")
        raise SpecError(err.field, f"{name}: {detail}") from err


def _problem_from_upload(data: bytes | str, current: InventoryProblem) -> LoadedProblem:
    text = _decode(data)
    first = text.splitlines()[0].lower() if text.strip() else ""
    if "parameter" in first and "value" in first:
        return LoadedProblem(problem_from_csv(text), "the uploaded parameter table")
    history = read_demand_history(text)
    demand = demand_from_history(history)
    problem = dataclasses.replace(current, demand=demand)
    return LoadedProblem(
        problem, f"empirical demand from {len(history)} days of history (mean {demand.mean:.2f} per day)"
    )


def problem_from_handoff(csv_text: str) -> LoadedProblem:
    """The problem the Inventory Copilot hands to the Policy Simulator (its `extracted_params.csv` text)."""
    return LoadedProblem(problem_from_csv(csv_text), "the Inventory Copilot")


def copilot_runs(store: Store) -> list[tuple[str, str]]:
    """`(run_id, label)` of the Inventory Copilot runs that saved an `extracted_params.csv`, newest first (one
    store query)."""
    runs = store.runs_with_artifact(COPILOT_WORKBENCH, PARAMS_ARTIFACT)
    return [
        (row.id, f"{row.title or 'Inventory Copilot run'} · {row.created_at:%Y-%m-%d %H:%M} · {row.id}")
        for row in runs.itertuples()
    ]


def problem_from_copilot_run(store: Store, run_id: str) -> LoadedProblem:
    """The problem saved by an Inventory Copilot run."""
    data = store.get_artifact(run_id, PARAMS_ARTIFACT)
    return LoadedProblem(problem_from_csv(data), f"Inventory Copilot run {run_id}")


def suggested_parameters(problem: InventoryProblem) -> dict[str, dict[str, int | None]]:
    """Starting parameters per policy kind: S covers lead-time demand plus one standard deviation, s sits
    half an economic order quantity below S, the constant order is the mean demand."""
    mean = max(problem.demand.mean, 1e-9)
    cover = mean * (problem.lead_time + 1)
    top = problem.max_inventory
    S = min(top, round(cover + math.sqrt(cover)))
    eoq = (
        math.sqrt(2 * problem.setup_cost * mean / problem.holding_cost) if problem.holding_cost > 0 else mean
    )
    s = max(0, min(S, S - round(eoq / 2)))
    Q = max(1, min(problem.max_order, round(eoq) or 1))
    return {
        "sS": {"s": s, "S": S},
        "base_stock": {"S": S, "cap": None},
        "constant": {"q": min(problem.max_order, round(mean))},
        "rQ": {"R": s, "Q": Q},
    }


@dataclass(frozen=True)
class PolicyChoice:
    """One heuristic policy the user picked: a kind of `POLICY_KINDS` with its parameters."""

    kind: str
    params: Mapping[str, int | None]
    cutoff: bool = False

    def build(self) -> Policy:
        """The engine's policy object (SpecError naming the parameter when invalid)."""
        if self.kind not in POLICY_KINDS:
            raise SpecError("policy", f"unknown policy {self.kind!r}; use one of {', '.join(POLICY_KINDS)}")
        p = {k: (None if v is None else _whole(k, v)) for k, v in self.params.items()}
        missing = [k for k in POLICY_KINDS[self.kind] if k != "cap" and p.get(k) is None]
        if missing:
            raise SpecError(missing[0], f"is required for the {POLICY_LABELS[self.kind]} policy")
        if self.kind == "sS":
            return SSPolicy(p["s"], p["S"], self.cutoff)
        if self.kind == "base_stock":
            return BaseStockPolicy(p["S"], p.get("cap"), self.cutoff)
        if self.kind == "constant":
            return ConstantPolicy(p["q"], self.cutoff)
        return RQPolicy(p["R"], p["Q"], self.cutoff)


def _whole(name: str, value: object) -> int:
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise SpecError(name, f"must be a whole number, got {value!r}") from None
    if not math.isfinite(x) or not x.is_integer():
        raise SpecError(name, f"must be a whole number, got {value!r}")
    return int(x)


def default_choices(problem: InventoryProblem) -> list[PolicyChoice]:
    """(s,S) and capped base-stock at their suggested parameters."""
    params = suggested_parameters(problem)
    return [PolicyChoice("sS", params["sS"]), PolicyChoice("base_stock", params["base_stock"])]


@dataclass(frozen=True)
class PolicyHandoff:
    """The Copilot's recommendation as the simulator needs it to reproduce the Copilot's numbers: the policy
    (family, parameters with cap, cutoff), or the DP optimum, on the same evaluation paths (count and seed)."""

    choice: PolicyChoice | None
    dp: bool
    paths: int
    seed: int
    policy: str

    def to_dict(self) -> dict:
        return {
            "choice": None
            if self.choice is None
            else {"kind": self.choice.kind, "params": dict(self.choice.params), "cutoff": self.choice.cutoff},
            "dp": self.dp,
            "paths": self.paths,
            "seed": self.seed,
            "policy": self.policy,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> PolicyHandoff:
        c = data.get("choice")
        choice = None if c is None else PolicyChoice(c["kind"], dict(c["params"]), bool(c["cutoff"]))
        return cls(choice, bool(data["dp"]), int(data["paths"]), int(data["seed"]), str(data["policy"]))


def policy_handoff(rule: Mapping, policy: str, paths: int, seed: int) -> PolicyHandoff:
    """The hand-off of a Copilot recommendation: `rule` is the brief's rule, `policy` the engine's policy name,
    `paths` and `seed` those its finalists were compared on (`solvers.inventory.agent.EVAL_SEED_OFFSET`)."""
    kind = rule.get("kind")
    cutoff = bool(rule.get("cutoff", False))
    params: dict[str, int | None] | None = {
        "sS": lambda: {"s": int(rule["s"]), "S": int(rule["S"])},
        "base_stock": lambda: {"S": int(rule["S"]), "cap": int(rule["cap"])},
        "constant": lambda: {"q": int(rule["q"])},
        "rQ": lambda: {"R": int(rule["R"]), "Q": int(rule["Q"])},
    }.get(str(kind), lambda: None)()
    choice = None if params is None else PolicyChoice(str(kind), params, cutoff)
    return PolicyHandoff(choice, dp=choice is None and policy == "dp", paths=paths, seed=seed, policy=policy)


SIMULATOR_WORKBENCH = "policy_simulator"


@dataclass(frozen=True)
class StoredSimulation:
    """What the simulator form needs to redo a stored run: its problem, policies, options and seed."""

    problem: InventoryProblem
    choices: tuple[PolicyChoice, ...]
    options: dict
    seed: int | None


def stored_simulation(store: Store, run_id: str) -> StoredSimulation:
    """A stored Policy Simulator run, to open it back in the simulator (`SpecError` for another workbench)."""
    run = store.get_run(run_id)
    if run.get("workbench") != SIMULATOR_WORKBENCH:
        raise SpecError("run", f"run {run_id} is not a Policy Simulator run")
    config = run.get("config") or {}
    problem = problem_from_table({k: str(v) for k, v in (config.get("parameters") or {}).items()})
    choices = tuple(
        PolicyChoice(str(c["kind"]), dict(c.get("params") or {}), bool(c.get("cutoff")))
        for c in config.get("policies") or []
    )
    return StoredSimulation(problem, choices, dict(config.get("options") or {}), run.get("seed"))
