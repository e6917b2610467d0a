"""Human play of RetailBench: a student runs the store through the same 21 tools as the agents.

A `HumanAgent` hands the environment the actions the page (or `retail play`) gives it, one per step, through
`core.rollout.Episode` and the one recorder, so a human game is stored, replayed and scored like any agent run
(agent `human`, kind "human (student)"). Every action is checked against the tool's schema, the same check the
LLM agents' calls pass (`core.llm.tools.validate_arguments` over `core.retail.tools.retail_tool_specs`), before
it reaches the tools, whose own rules (unknown SKU, funds, shelf capacity, ...) then answer as they answer any
agent. The run is written through to the store as it goes: after each closed day its metrics, record tables and
day index, so the replay and Table 1 show the game while it is played, and `HumanGame.resume` rebuilds an open
game after a page reload by replaying its stored actions on a fresh environment with the stored seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from core.errors import SpecError
from core.llm.tools import validate_arguments
from core.recorder import TRUSTING, Lease, Recorder, RunStatus
from core.retail.run import WORKBENCH, day_index
from core.retail.tools import retail_tool_specs
from core.rollout import Episode, RolloutResult, RolloutStatus, episode_metrics, stored_actions
from core.sandbox import run_code
from core.store import Store, TransitionRow
from core.store.retail import save_retail_records
from solvers.retail.env import RetailBenchEnv
from solvers.retail.models import day_iso
from solvers.retail.records import evaluation_frames, record_frames
from solvers.retail.tools import ACTION_TOOLS

HUMAN = "human"
HUMAN_KIND = "human (student)"
OPEN = (str(RunStatus.RUNNING), str(RunStatus.ACTIVE))


@dataclass(frozen=True)
class HumanAction:
    """One checked tool call of a student: the action the environment receives."""

    name: str
    arguments: dict[str, Any]

    def to_action(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": dict(self.arguments)}


class HumanAgent:
    """The `Agent` whose actions come from a person: `give` queues one, `act` hands it to the episode."""

    name = HUMAN

    def __init__(self) -> None:
        self.pending: list[dict[str, Any]] = []
        self.last_note = HUMAN_KIND

    def reset(self, seed: int | None) -> None:
        self.pending = []

    def give(self, action: HumanAction) -> None:
        self.pending.append(action.to_action())

    def act(self, observation: Any) -> dict[str, Any]:
        if not self.pending:
            raise SpecError("action", "no action chosen yet: fill in a form and press its button")
        return self.pending.pop(0)


def check_action(env: RetailBenchEnv, name: Any, arguments: Any = None) -> HumanAction:
    """`name(arguments)` as a `HumanAction` if it fits the tool's schema (the LLM agents' check); else a
    `SpecError` that says what is wrong. The tools' own rules run when the action is played."""
    if env.tools is None:
        raise SpecError("game", "start a game first")
    specs = {spec.name: spec for spec in retail_tool_specs(env.tools)}
    if not isinstance(name, str) or name not in specs:
        raise SpecError("tool", f"unknown tool {name!r}; choose one of {', '.join(specs)}")
    try:
        clean = validate_arguments(specs[name], {} if arguments is None else arguments)
    except Exception as err:  # ToolArgumentError: the message names the argument and the rule
        raise SpecError(name, str(err)) from err
    return HumanAction(name, clean)


def parse_order_items(text: str) -> list[dict[str, Any]]:
    """Order lines typed as `SKU:QUANTITY, SKU:QUANTITY` (or one per line) as `place_order` items."""
    items = []
    for part in text.replace("\n", ",").split(","):
        if not part.strip():
            continue
        sku, sep, qty = part.partition(":")
        if not sep or not qty.strip().lstrip("-").isdigit():
            raise SpecError("items", f"{part.strip()!r}: write each line as SKU:QUANTITY, e.g. 1001:20")
        items.append({"sku_id": sku.strip(), "quantity": int(qty)})
    if not items:
        raise SpecError("items", "order at least one SKU, e.g. 1001:20")
    return items


class HumanGame:
    """A student's game: the environment, the `HumanAgent`, the `Episode` and its write-through recorder."""

    def __init__(self, env: RetailBenchEnv, episode: Episode, agent: HumanAgent, store: Store | None) -> None:
        self.env, self.episode, self.agent, self.store = env, episode, agent, store
        self.result: RolloutResult | None = None
        self.last: dict[str, Any] | None = None
        """The observation of the last action (the tool's `{"result", "formatted"}`)."""

    @property
    def run_id(self) -> str | None:
        rec = self.episode.recorder
        return rec.run_id if rec is not None else None

    @property
    def day(self) -> int:
        """Days closed so far."""
        return self.env.days_closed

    @property
    def days(self) -> int:
        return self.env.max_days

    @property
    def done(self) -> bool:
        return self.result is not None

    @classmethod
    def new(
        cls,
        store: Store | None,
        *,
        preset: str = "hard_v2",
        days: int = 30,
        seed: int = 0,
        catalog: str | None = None,
        lease_owner: str | None = None,
    ) -> HumanGame:
        """A fresh game, stored at once (status running) when there is a store, leased to `lease_owner` (the
        page: its browser session)."""
        env = RetailBenchEnv(preset, max_days=days, code_runner=run_code, catalog=catalog)
        config = {"preset": env.config.name, "catalog": env.catalog_name, "days": int(days), "agent": HUMAN,
                  "agent_kind": HUMAN_KIND, "model": None, "overrides": {}}  # fmt: skip
        recorder = Recorder(store, WORKBENCH, config=config, seed=int(seed),
                            title=f"RetailBench {HUMAN_KIND} · {env.config.name} · seed {seed}",
                            owner=lease_owner)  # fmt: skip
        agent = HumanAgent()
        episode = Episode(env, agent, seed=int(seed), recorder=recorder)
        episode.reset()
        recorder.start()
        return cls(env, episode, agent, store)

    @classmethod
    def resume(cls, store: Store, run_id: str, *, lease: Lease = TRUSTING) -> HumanGame:
        """Rebuild the open game `run_id`: replay its stored actions on a fresh environment (same seed), then go
        on recording into the same run. Given `lease.is_live`, a game another live tab holds opens read-only
        (`play` refuses) instead of mixing two players' actions (`core.recorder.Recorder.attach`)."""
        run = store.get_run(run_id)
        config = run.get("config") or {}
        if config.get("agent") != HUMAN:
            raise SpecError("run", f"run {run_id} is not a human game")
        env = RetailBenchEnv(str(config.get("preset", "hard_v2")), max_days=int(config.get("days", 30)),
                             code_runner=run_code,
                             catalog=None if config.get("catalog", "default") == "default" else config["catalog"])  # fmt: skip
        agent = HumanAgent()
        episode = Episode(env, agent, seed=run.get("seed"))
        episode.reset()
        for action in stored_actions(store, run_id):
            episode.step(action)
        episode.recorder = Recorder.attach(store, run_id, lease)
        game = cls(env, episode, agent, store)
        game.last = episode.observation if episode.trace else None
        if str(run["status"]) not in OPEN:
            game.result = RolloutResult(RolloutStatus.DONE, episode.steps, episode.total_reward,
                                        run.get("metrics") or {}, run_id)  # fmt: skip
        return game

    def play(self, name: str, arguments: dict[str, Any] | None = None) -> TransitionRow:
        """Check and play one tool call; after `end_today` the day is saved, and the game ends with the last day
        (or bankruptcy)."""
        if self.done:
            raise SpecError("game", "this game has ended; start a new one")
        rec = self.episode.recorder
        if rec is not None and rec.read_only:
            raise SpecError("game", "this game is open in another tab; play it there, or close that tab and reload")
        self.agent.give(check_action(self.env, name, arguments))
        row = self.episode.step()
        self.last = self.episode.observation
        if rec is not None:
            rec.flush()  # every action is stored at once: a reload loses nothing
        if name == "end_today" and not (row.info or {}).get("error"):
            self.save_day()
        if self.episode.ended is not None:
            self.finish()
        return row

    def metrics(self) -> dict[str, Any]:
        """Table 1 numbers so far, with bankruptcy and survival as `core.retail.run.run_metrics` reports them."""
        out = episode_metrics(self.env, self.episode.total_reward, self.episode.steps)
        sim = self.env.sim
        out["bankrupt"] = bool(sim is not None and sim.bankrupt)
        out["survived"] = bool(out.get("run_days", 0) >= self.days and not out["bankrupt"])
        return out

    def save_day(self) -> None:
        """Store the game so far: metrics, record tables, day index (the replay and Table 1 read them)."""
        rec = self.episode.recorder
        if self.store is None or rec is None or self.env.sim is None:
            return
        rec.update(metrics=self.metrics())
        save_retail_records(self.store, rec._ensure_run(),
                            {**record_frames(self.env.sim), **evaluation_frames(self.env.sim)})  # fmt: skip
        rec.artifact("day_index.json", json.dumps(day_index(self.episode.trace)).encode())

    def finish(self, status: RolloutStatus | None = None) -> RolloutResult:
        """End the game (the last day closed, bankruptcy, or the student stops): final metrics and records."""
        if self.result is not None:
            return self.result
        self.save_day()
        extra = {k: v for k, v in self.metrics().items() if k in ("bankrupt", "survived")}
        self.result = self.episode.finish(status or self.episode.ended or RolloutStatus.STOPPED, extra_metrics=extra)
        return self.result


def open_games(store: Store) -> list[str]:
    """Ids of stored human games still being played, newest first (to pick one up after a reload)."""
    runs = store.list_runs(WORKBENCH, limit=200)
    out = []
    for r in runs.to_dict("records"):
        config = r.get("config")
        config = json.loads(config) if isinstance(config, str) else config or {}
        if config.get("agent") == HUMAN and str(r.get("status")) in OPEN:
            out.append(str(r["id"]))
    return out


def view_tools(env: RetailBenchEnv) -> list[str]:
    """The tools that change nothing (the view tools, news and reviews when the preset has them, execute_code):
    the page shows their results as tables."""
    return [name for name in (env.tools.names if env.tools else ()) if name not in ACTION_TOOLS]


def catalogue(game: HumanGame) -> pd.DataFrame:
    """The products a student can act on: id, category, description, shelf life, price, on hand, on shelf."""
    sim = game.env.sim
    if sim is None:
        return pd.DataFrame()
    inventory = (game.env.tools.inventory_payload().get("inventory") or {}) if game.env.tools else {}
    rows = []
    for j, sku in enumerate(sim.sku_ids):
        held = inventory.get(sku) or {}
        rows.append({"sku_id": sku, "category": str(sim.category[j]),
                     "description": game.env.catalog.products[int(sim.g[j])]["description"],
                     "price": round(float(sim.price[j]), 2), "on_hand": int(held.get("quantity", 0) or 0),
                     "incoming": int(held.get("incoming", 0) or 0), "on_shelf": bool(sim.shelf[j])})  # fmt: skip
    return pd.DataFrame(rows)


def status(game: HumanGame) -> dict[str, Any]:
    """Day, date, funds and net worth now (what the page's header shows)."""
    sim = game.env.sim
    assert sim is not None
    return {"day": game.day, "days": game.days, "date": day_iso(sim.day), "funds": float(sim.funds),
            "net_worth": float(sim.net_worth()), "steps": game.episode.steps}  # fmt: skip


def view_fields(env: RetailBenchEnv, name: str) -> tuple[tuple[str, bool], ...]:
    """The arguments of tool `name` as (argument, required) pairs, in the schema's order (the page's form)."""
    spec = {s.name: s for s in retail_tool_specs(env.tools)}.get(name) if env.tools is not None else None
    if spec is None:
        raise SpecError("tool", f"unknown tool {name!r}")
    required = set(spec.parameters.get("required", ()))
    return tuple((arg, arg in required) for arg in spec.parameters.get("properties", {}))


def result_table(result: Any) -> pd.DataFrame:
    """A tool's result as a table: one row per key of a dict of records, one per item of a list, else one
    row per field (nested values as JSON text)."""

    def cell(value: Any) -> Any:
        return json.dumps(value)[:500] if isinstance(value, dict | list) else value

    if isinstance(result, list):
        rows = [r if isinstance(r, dict) else {"value": r} for r in result]
        return pd.DataFrame([{k: cell(v) for k, v in r.items()} for r in rows])
    if isinstance(result, dict):
        if result and all(isinstance(v, dict) for v in result.values()):
            return pd.DataFrame([{"key": k, **{f: cell(x) for f, x in v.items()}} for k, v in result.items()])
        if result and all(isinstance(v, list) for v in result.values()):
            return pd.DataFrame([{"key": k, **({f: cell(x) for f, x in item.items()} if isinstance(item, dict)
                                               else {"value": cell(item)})}
                                 for k, items in result.items() for item in items])  # fmt: skip
        return pd.DataFrame([{"field": k, "value": str(cell(v))} for k, v in result.items()])
    return pd.DataFrame([{"value": str(result)}])
