"""`RetailBenchEnv`: the RetailBench supermarket as a Gymnasium environment whose actions are tool calls."""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from core.errors import SpecError
from solvers.retail.catalog import load_catalog
from solvers.retail.config import RetailConfig, preset
from solvers.retail.metrics import run_metrics
from solvers.retail.models import day_iso
from solvers.retail.sim import RetailSim
from solvers.retail.tools import MEMORY_TOOLS, RetailTools

_TEXT = spaces.Text(max_length=1_000_000, charset=[chr(i) for i in range(32, 127)] + ["\n", "\t"])


def _json_value(x: Any) -> bool:
    if x is None or isinstance(x, str | bool | int):
        return True
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, list | tuple):
        return all(_json_value(v) for v in x)
    if isinstance(x, dict):
        return all(isinstance(k, str) and _json_value(v) for k, v in x.items())
    return False


class JSONObject(spaces.Space[dict]):
    """The space of JSON objects: dicts with string keys whose values are strings, finite numbers, booleans,
    None, lists and objects (what `json.dumps(x, allow_nan=False)` writes and `json.loads` gives back).

    RetailBench's observations are the tools' result dicts and the welcome dict, whose shape depends on the
    tool, so no fixed `spaces.Dict` describes them. Like `spaces.Text` for free text, it cannot be sampled
    meaningfully: `sample` raises.
    """

    def __init__(self) -> None:
        super().__init__(shape=None, dtype=None)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and _json_value(x)

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        raise NotImplementedError(
            "a JSON-object space cannot be sampled; use solvers.retail.env.sample_actions"
        )

    def __repr__(self) -> str:
        return "JSONObject()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSONObject)

    def __hash__(self) -> int:
        return hash(JSONObject)


class RetailBenchEnv(gym.Env):
    """A single-store supermarket run for `max_days` days (RetailBench, seeds 004 and 001).

    Start state: day 1 is 1991-09-07, funds = the preset's initial funds (hard_v2: 30,000), empty stock, an
    empty shelf (nothing sells until `set_shelf_skus`), retail prices drawn uniformly in each product's band,
    93 days of pre-start history (sales, prices, reviews, returns, supplier orders, supplier prices).
    Actions: one tool call per step, `{"name": TOOL, "arguments": {...}}` (or its JSON text) for one of the
    21 hard_v2 tools (`tool_names`). Read tools and `execute_code` change nothing; `place_order` pays now;
    `end_today` runs the day transition.
    Event order in `end_today` (day d): admit waiting units; demand for stocked, shelved SKUs (attraction
    exp(V)(1 + review effect + news need effect), power aggregation rho = 3, binomial category demand,
    multinomial shares); FIFO sales; per-unit returns by hidden quality and reviews; expiry; admit waiting;
    record supplier prices and news; funds += revenue - refunds; advance the date; deliveries due; rent.
    Observation: the tool's result `{"result": payload, "formatted": text}` (a JSON-able dict); an invalid
    call is an error result and still costs a step. `reset` returns a welcome dict (date, funds, tools,
    product catalogue). `observation_space` is `JSONObject()` (any JSON object), as the payload's shape
    depends on the tool.
    Reward: change in net worth over an `end_today` (funds + depreciated stock + open orders at cost); 0 for
    other calls. Episode end: terminated after `bankruptcy_days` (5) consecutive days closing with negative
    funds; truncated when `max_days` days have been closed.
    Deterministic: all randomness comes from generators spawned from the reset seed.
    `code_runner` runs `execute_code` (a callable or "module:function"; the registered env uses the app's
    sandbox `core.sandbox:run_code`); without one, `execute_code` returns an error result.
    `catalog` names a catalog variant of `solvers.retail.catalogs` (default: the shipped one); `catalog_dir`
    reads a catalog folder directly.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        preset_name: str = "hard_v2",
        max_days: int = 180,
        overrides: dict | None = None,
        code_runner: Callable[..., dict] | str | None = None,
        catalog_dir: str | None = None,
        catalog: str | None = None,
    ) -> None:
        super().__init__()
        self.config: RetailConfig = preset(preset_name, **(overrides or {}))
        if int(max_days) < 1:
            raise SpecError("max_days", "must be at least 1 day")
        self.max_days = int(max_days)
        if isinstance(code_runner, str):  # "module:function", e.g. the app's sandbox "core.sandbox:run_code"
            module, _, name = code_runner.partition(":")
            code_runner = getattr(importlib.import_module(module), name)
        self.code_runner = code_runner
        if catalog is not None and catalog_dir is None:  # a named variant (solvers.retail.catalogs)
            from solvers.retail.catalogs import catalog_dir as named_dir

            catalog_dir = named_dir(catalog)
        self.catalog_name = catalog or ("default" if catalog_dir is None else str(catalog_dir))
        self.catalog = load_catalog(catalog_dir)
        self.observation_space = JSONObject()
        self.action_space = _TEXT
        self.sim: RetailSim | None = None
        self.tools: RetailTools | None = None
        self.days_closed = 0

    @property
    def tool_names(self) -> tuple[str, ...]:
        return self._require().names

    def _require(self) -> RetailTools:
        if self.tools is None:
            raise RuntimeError("call reset() first")
        return self.tools

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        sim_seed = int(self.np_random.integers(0, 2**63))
        self.sim = RetailSim(self.config, seed=sim_seed, catalog=self.catalog, horizon=self.max_days)
        self.tools = RetailTools(self.sim, self.code_runner)
        self.days_closed = 0
        s = self.sim
        products = [
            {
                "sku_id": s.sku_ids[j],
                "category": str(s.category[j]),
                "description": self.catalog.products[int(s.g[j])]["description"],
                "shelf_life_days": int(s.shelf_life[j]),
                "price": round(float(s.price[j]), 2),
            }
            for j in range(s.m)
        ]
        obs = {
            "current_date": day_iso(s.day),
            "funds": s.funds,
            "rent": self.config.everyday_rent,
            "inventory_capacity": self.config.inventory_capacity,
            "shelf_capacity": self.config.shelf_sku_capacity if self.config.enable_shelf_constraint else None,
            "max_days": self.max_days,
            "tools": list(self.tools.names),
            "products": products,
        }
        return obs, {"day": 0, "date": day_iso(s.day), "preset": self.config.name}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        tools = self._require()
        s = self.sim
        assert s is not None
        name, arguments, problem = _parse_action(action)
        before = s.net_worth() if name == "end_today" else 0.0
        logged = len(tools.calls)
        if problem:
            msg = f"Invalid action: {problem}"
            tools._log(s.day, str(name), "direct", False)
            obs: dict = {"result": {"error": msg}, "formatted": msg}
        else:
            obs = tools.call(name, arguments)
        reward = 0.0
        closed = name == "end_today" and not problem and "error" not in obs["result"]
        if closed:
            self.days_closed += 1
            reward = float(obs["result"]["net_worth"] - before)
        terminated = bool(s.bankrupt)
        truncated = not terminated and self.days_closed >= self.max_days
        info = {
            "day": self.days_closed,
            "date": day_iso(s.day),
            "tool": name if isinstance(name, str) else None,
            "error": isinstance(obs.get("result"), dict) and bool(obs["result"].get("error")),
        }
        inner = [c for c in tools.calls[logged:] if c["source"] == "execute_code"]
        if inner:  # the read tools execute_code called, in order, with their arguments (for the diagnostics)
            info["code_calls"] = [{"tool": c["tool"], "arguments": c.get("arguments") or {}, "ok": c["success"]}
                                  for c in inner]  # fmt: skip
        return obs, reward, terminated, truncated, info

    def compact_observation(self, obs: Any) -> Any:
        """What the recorder keeps per step: end_today results without the full inventory listing."""
        if isinstance(obs, dict) and isinstance(obs.get("result"), dict) and "inventory" in obs["result"]:
            result = {k: v for k, v in obs["result"].items() if k != "inventory"}
            return {"result": result, "formatted": obs.get("formatted", "")}
        return obs

    def episode_metrics(self) -> dict:
        tools = self._require()
        calls = tools.calls
        direct = sum(1 for c in calls if c["source"] == "direct")
        code = len(calls) - direct
        memory = sum(1 for c in calls if c["tool"] in MEMORY_TOOLS)
        assert self.sim is not None
        return run_metrics(
            self.sim.daily,
            direct_calls=direct,
            code_calls=code,
            memory_calls=memory,
            initial_funds=self.config.initial_funds,
        )


def _parse_action(action: Any) -> tuple[Any, Any, str | None]:
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except json.JSONDecodeError as err:
            return None, None, f"action is not JSON ({err.msg})"
    if not isinstance(action, dict):
        return None, None, "action must be an object {name, arguments}"
    name = action.get("name")
    arguments = action.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as err:
            return name, None, f"arguments are not JSON ({err.msg})"
    if not isinstance(name, str):
        return name, arguments, "action needs a tool name"
    return name, arguments, None


def sample_actions(env: RetailBenchEnv, rng: np.random.Generator, n: int) -> list[dict]:
    """A plausible action sequence (valid and invalid calls) for contract and replay tests."""
    sku_ids = [p["sku_id"] for p in env.catalog.products if p["category"] in env.config.categories]
    picks = [str(x) for x in rng.choice(sku_ids, size=min(5, len(sku_ids)), replace=False)]
    pool: list[dict] = [
        {"name": "set_shelf_skus", "arguments": {"sku_ids": picks}},
        {"name": "view_funds_and_date", "arguments": {}},
        {"name": "view_current_date_supplier_prices", "arguments": {"sku_ids": picks[:2]}},
        {"name": "place_order", "arguments": {"items": [{"sku_id": picks[0], "quantity": 40}], "supplier_id": "supplier_1"}},
        {"name": "modify_sku_price", "arguments": {"sku_id": picks[1], "new_price": 2.5}},
        {"name": "place_order", "arguments": {"items": [], "supplier_id": "supplier_2"}},
        {"name": "no_such_tool", "arguments": {}},
        {"name": "add_note", "arguments": {"content": "reorder tuna"}},
        {"name": "view_today_news", "arguments": {}},
        {"name": "end_today", "arguments": {}},
    ]  # fmt: skip
    out = pool[:1]
    while len(out) < n:
        out.append(pool[int(rng.integers(len(pool)))])
    return out[:n]
