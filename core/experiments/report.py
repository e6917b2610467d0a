"""Experiment reports: the results of an experiment in the store as tables (per agent, per instance × agent,
paired against the baseline, every metric's mean) in markdown, CSV or Parquet.

Every table names each agent's kind: offline built-in agents are labelled "offline (built-in)", LLM agents by
provider and model, so a stand-in is never read as an LLM result.

Tokens and cost: each cell's tokens come from its run in the store (`Store.run_tokens`), priced with the price
table (`core.llm.prices`) at list price — a cell replayed from the reply cache costs what the run would cost; a
model missing from the table has cost NaN and price "price unknown", never 0.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import math
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from core.errors import SpecError, StoreError
from core.experiments.costs import (
    PER_ROLE,
    UPPER_BOUND,
    agent_models,
    agent_roles,
    cell_cost,
    env_roles,
    role_defaults,
    role_models,
)
from core.experiments.spec import ExperimentSpec, from_dict, load_adapter
from core.experiments.stats import paired_table, summary_table
from core.llm.prices import UNKNOWN, PriceTable, format_cost, load_prices
from core.llm.types import Usage
from core.store import Store

FORMATS = ("md", "csv", "parquet")
CELL_FIELDS = [
    "cell_key",
    "instance",
    "agent",
    "seed",
    "repetition",
    "status",
    "run_id",
    "attempts",
    "elapsed_s",
]


@dataclass(frozen=True)
class PaperTable:
    """One table of a paper as the workbench's adapter renders it from an experiment's cells (the adapter's
    optional `paper_tables(report, store) -> list[PaperTable]`): rows and columns named as in the paper.
    `key` names its file in CSV/Parquet exports (`paper_…`); `note` says what it is and what it is not."""

    key: str
    title: str
    frame: pd.DataFrame
    note: str = ""


@dataclass(frozen=True)
class ExperimentReport:
    """An experiment's stored state and its statistics (`metric` compared with goal `goal`)."""

    experiment: dict[str, Any]
    spec: ExperimentSpec
    cells: pd.DataFrame  # every cell, metrics as columns
    per_agent: pd.DataFrame
    per_group: pd.DataFrame
    paired: pd.DataFrame
    means: pd.DataFrame  # every metric's mean per agent
    costs: pd.DataFrame = field(default_factory=pd.DataFrame)  # tokens and USD per agent
    cell_costs: pd.DataFrame = field(default_factory=pd.DataFrame)  # tokens and USD per cell (= run)
    paper: tuple[PaperTable, ...] = ()  # the paper's tables, when the adapter renders them

    @property
    def metric(self) -> str:
        return self.spec.metric

    @property
    def total_tokens(self) -> Usage:
        """Input and output tokens of every cell of the experiment."""
        if self.cell_costs.empty:
            return Usage()
        return Usage(int(self.cell_costs["input_tokens"].sum()), int(self.cell_costs["output_tokens"].sum()))

    @property
    def total_cost(self) -> float | None:
        """USD of every cell, None when a cell's model has no price."""
        if self.cell_costs.empty:
            return 0.0
        if (self.cell_costs["price"] == UNKNOWN).any():
            return None
        return float(self.cell_costs["cost_usd"].sum())

    def tables(self) -> dict[str, pd.DataFrame]:
        return {
            "per_agent": self.per_agent,
            "per_group": self.per_group,
            "paired": self.paired,
            "metric_means": self.means,
            "costs": self.costs,
            "cell_costs": self.cell_costs,
            "cells": self.cells,
            **{t.key: t.frame for t in self.paper},
        }

    def cells_cost(self, cells: pd.DataFrame) -> dict[str, Any]:
        """Input/output tokens and USD (NaN when a model has no price) of these cells (rows of `cells`)."""
        costs = self.cell_costs[self.cell_costs["cell_key"].isin(cells["cell_key"])] if len(cells) else None
        if costs is None or costs.empty:
            return {"input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
        unknown = bool((costs["price"] == UNKNOWN).any())
        return {
            "input_tokens": int(costs["input_tokens"].sum()),
            "output_tokens": int(costs["output_tokens"].sum()),
            "cost_usd": math.nan if unknown else float(costs["cost_usd"].sum()),
        }


def cell_frame(store: Store, experiment_id: str) -> pd.DataFrame:
    """Every cell of an experiment with its metrics as columns (and `error`)."""
    raw = store.cells(experiment_id)
    metrics = pd.DataFrame([m if isinstance(m, dict) else {} for m in raw["metrics"]], index=raw.index)
    out = pd.concat([raw[CELL_FIELDS + ["error"]], metrics.astype(float)], axis=1)
    return out


def _adapter(spec: ExperimentSpec) -> object:
    """The spec's adapter, for its environment-side roles (None when it cannot be loaded here)."""
    try:
        return load_adapter(spec.adapter_module)
    except SpecError:
        return None


PRICE_NOTE = (
    'price "per role": each agent-side role\'s recorded tokens at its own model; "upper bound (roles)": the cell '
    "does not split the agent's tokens by role, so they are priced at its dearest model."
)
"""What the `price` labels of the cost tables mean (the report and the Experiments page say it)."""
PRICE_ORDER = (UNKNOWN, UPPER_BOUND, PER_ROLE, "listed", "offline")
"""An agent's `price` label is the first of these that one of its cells has."""


def _usages(used: dict[str, Usage]) -> str:
    return "; ".join(f"{r}: {u.input_tokens} in / {u.output_tokens} out" for r, u in used.items())


def cost_tables(
    store: Store, spec: ExperimentSpec, cells: pd.DataFrame, prices: PriceTable
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tokens and USD per agent and per cell (every cell that has a run, done or failed): the run's tokens at
    the agent's models — split by agent-side role where the cell records it (each role at its own model, price
    "per role"), else at the dearest ("upper bound (roles)") — plus each environment-side role's tokens (its
    metrics) at that role's model (`core.experiments.costs.cell_cost`)."""
    adapter = _adapter(spec)
    roles, models = env_roles(adapter), role_models(spec, adapter)
    side, defaults = agent_roles(adapter), role_defaults(adapter)
    ran = cells[cells["run_id"].notna()]
    tokens = store.run_tokens(ran["run_id"].tolist()).set_index("run_id") if not ran.empty else pd.DataFrame()
    rows = []

    def kind_of(agent: Any) -> str:
        side_models = agent_models(agent, roles)
        named = [m for r, m in models[agent.name].items() if r in roles and not m.offline]
        if not side_models and not named:
            return "offline"
        return UPPER_BOUND if len(side_models) > 1 else "listed"

    for cell in ran.itertuples():
        agent = spec.agent(cell.agent)
        used = Usage(
            int(tokens.at[cell.run_id, "input_tokens"]) if cell.run_id in tokens.index else 0,
            int(tokens.at[cell.run_id, "output_tokens"]) if cell.run_id in tokens.index else 0,
        )
        metrics = {
            c: getattr(cell, c)
            for r in (*roles, *side)
            for c in (f"{r}_input_tokens", f"{r}_output_tokens")
            if hasattr(cell, c)
        }
        cost = cell_cost(
            agent, used, metrics, prices, roles=roles, models=models[agent.name], agent_side=side, defaults=defaults
        )
        rows.append(
            {
                "cell_key": cell.cell_key,
                "agent": cell.agent,
                "status": cell.status,
                "run_id": cell.run_id,
                "input_tokens": cost.usage.input_tokens,
                "output_tokens": cost.usage.output_tokens,
                "cost_usd": float("nan") if cost.cost_usd is None else cost.cost_usd,
                "price": UNKNOWN if cost.cost_usd is None else (cost.basis or kind_of(agent)),
                "role_tokens": _usages(cost.roles),
                "agent_role_tokens": _usages(cost.agent_roles),
            }
        )
    per_cell = pd.DataFrame(
        rows,
        columns=[
            "cell_key", "agent", "status", "run_id", "input_tokens", "output_tokens", "cost_usd", "price",
            "role_tokens", "agent_role_tokens",
        ],
    )  # fmt: skip
    per_agent = []
    for agent in spec.agents:
        mine = per_cell[per_cell["agent"] == agent.name]
        unknown = bool((mine["price"] == UNKNOWN).any())
        labels = set(mine["price"])
        price = next((p for p in PRICE_ORDER if p in labels), kind_of(agent))
        per_agent.append(
            {
                "agent": agent.name,
                "provider": agent.provider if agent.kind == "llm" else "offline",
                "model": agent.model if agent.kind == "llm" else "built-in",
                "cells": len(mine),
                "input_tokens": int(mine["input_tokens"].sum()),
                "output_tokens": int(mine["output_tokens"].sum()),
                "cost_usd": float("nan") if unknown else float(mine["cost_usd"].sum()),
                "price": price,
            }
        )
    return pd.DataFrame(per_agent), per_cell


def experiment_costs(
    store: Store, experiment_id: str, prices: PriceTable | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The `costs` (per agent) and `cell_costs` (per cell) tables of stored experiment `experiment_id`, as its
    report has them (`cost_tables`; default prices: the price table file), for a lab's own report."""
    spec = from_dict(store.get_experiment(experiment_id)["spec"])
    cells = cell_frame(store, experiment_id)
    return cost_tables(store, spec, cells, prices if prices is not None else load_prices())


def build_report(
    store: Store, experiment_id: str, *, seed: int = 0, prices: PriceTable | None = None
) -> ExperimentReport:
    """The report of stored experiment `experiment_id` (the statistics use the done cells only); costs use
    `prices` (default: the price table file, `core.llm.prices.load_prices`)."""
    experiment = store.get_experiment(experiment_id)
    spec = from_dict(experiment["spec"])
    cells = cell_frame(store, experiment_id)
    done = cells[cells["status"] == "done"]
    kinds = {a.name: a.label for a in spec.agents}
    order = {a.name: i for i, a in enumerate(spec.agents)}
    done = done.sort_values("agent", key=lambda s: s.map(order), kind="stable")

    def labelled(frame: pd.DataFrame) -> pd.DataFrame:
        if "agent" in frame and not frame.empty:
            frame.insert(frame.columns.get_loc("agent") + 1, "kind", frame["agent"].map(kinds))
        return frame

    instance_order = {k: i for i, k in enumerate(dict.fromkeys(cells["instance"]))}
    by_instance = done.sort_values("instance", key=lambda s: s.map(instance_order), kind="stable")
    metric = spec.metric
    if not done.empty and metric not in done:
        known = ", ".join(c for c in done.columns if c not in CELL_FIELDS + ["error"])
        raise SpecError("metric", f"the cells have no metric {metric!r}; they have: {known}")
    metric_columns = [c for c in done.columns if c not in CELL_FIELDS + ["error"]]
    means = (
        done.groupby("agent", sort=False)[metric_columns].mean().reset_index()
        if not done.empty
        else (pd.DataFrame(columns=["agent", *metric_columns]))
    )
    costs, cell_costs = cost_tables(store, spec, cells, prices if prices is not None else load_prices())
    paired = (
        paired_table(done, metric, baseline=spec.baseline_agent, goal=spec.goal, seed=seed)
        if spec.paired
        else pd.DataFrame()
    )
    report = ExperimentReport(
        experiment=experiment,
        spec=spec,
        cells=cells,
        per_agent=labelled(summary_table(done, metric, by=("agent",), seed=seed)),
        per_group=labelled(summary_table(by_instance, metric, by=("instance", "agent"), seed=seed)),
        paired=labelled(paired),
        means=labelled(means),
        costs=labelled(costs),
        cell_costs=cell_costs,
    )
    hook = paper_tables_hook(spec.adapter_module)
    if hook is None or done.empty:
        return report
    return dataclasses.replace(report, paper=tuple(hook(report, store)))


def paper_tables_hook(adapter_module: str) -> Any:
    """The adapter's `paper_tables(report, store)`, or that of the module its `PAPER_TABLES` names (a string,
    so the adapter need not import its report code); None when it has neither."""
    adapter = importlib.import_module(adapter_module)
    hook = getattr(adapter, "paper_tables", None)
    if hook is None and isinstance(getattr(adapter, "PAPER_TABLES", None), str):
        hook = getattr(importlib.import_module(adapter.PAPER_TABLES), "paper_tables", None)
    return hook


def estimate_text(value: float, low: float, high: float, *, percent: bool = False, digits: int = 3) -> str:
    """A mean with its 95 % CI as a table shows it: "0.930 [0.912, 0.948]" or "65.1% [60.2%, 69.8%]"."""

    def one(v: float) -> str:
        if v is None or not math.isfinite(v):
            return "—"
        return f"{100 * v:.1f}%" if percent else f"{v:.{digits}f}"

    if value is None or not math.isfinite(value):
        return "—"
    return one(value) if not math.isfinite(low) else f"{one(value)} [{one(low)}, {one(high)}]"


def cost_text(cost: dict[str, Any]) -> tuple[str, str]:
    """(tokens "in / out", USD) of `ExperimentReport.cells_cost` as table cells."""
    usd = cost["cost_usd"]
    return (
        f"{cost['input_tokens']:,} / {cost['output_tokens']:,}",
        "price unknown" if not math.isfinite(usd) else f"${usd:,.4f}",
    )


def _fmt(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e-3 and value != 0 else f"{value:,.3f}".rstrip("0").rstrip(".")
    return str(value).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table of `frame` (NaN as "—")."""
    if frame.empty:
        return "_(no rows)_"
    head = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def to_markdown(report: ExperimentReport) -> str:
    """The whole report as markdown: what ran, then the tables."""
    e, spec = report.experiment, report.spec
    better = "lower" if spec.goal == "min" else "higher"
    lines = [
        f"# Experiment {e['name']} (`{e['id']}`)",
        "",
        f"Workbench **{e['workbench']}** · status **{e['status']}** · {e['done']}/{e['cells']} cells done"
        + (f", {e['failed']} failed" if e["failed"] else "")
        + f" · seeds {', '.join(map(str, spec.seeds))} · {spec.repetitions} repetition(s)",
        "",
        f"Metric **{spec.metric}** ({better} is better). CIs are 95% percentile bootstraps of the mean "
        "(2,000 resamples, seeded).",
        "",
    ]
    for table in report.paper:
        lines += [f"## {table.title}", ""]
        lines += [table.note, ""] if table.note else []
        lines += [markdown_table(table.frame), ""]
    lines += [
        "## Per agent",
        "",
        markdown_table(report.per_agent),
        "",
        "## Per instance and agent",
        "",
        markdown_table(report.per_group),
    ]
    if spec.paired:
        lines += [
            "",
            f"## Paired against {spec.baseline_agent}",
            "",
            f"Pairs share instance, seed and repetition. mean_diff = agent − baseline ({better} is better); "
            "win_rate counts ties as half; p-values: Wilcoxon signed-rank and paired t test (— when undefined, "
            "e.g. identical results).",
            "",
            markdown_table(report.paired),
        ]
    lines += ["", "## Every metric (mean per agent)", "", markdown_table(report.means)]
    total = report.total_tokens
    lines += [
        "",
        "## Tokens and cost",
        "",
        f"Experiment: {total.input_tokens:,} input and {total.output_tokens:,} output tokens, "
        f"{format_cost(report.total_cost)} at list price (`data/llm_prices.toml`; a reply served from the cache "
        f'is counted as if sent; "price unknown" means the model is not in the price table, not free). {PRICE_NOTE}',
        "",
        markdown_table(report.costs),
    ]
    failed = report.cells[report.cells["status"] == "failed"]
    if not failed.empty:
        lines += ["", "## Failed cells", "", markdown_table(failed[["cell_key", "attempts", "error"]])]
    return "\n".join(lines) + "\n"


def write_report(report: ExperimentReport, fmt: str, out: str | Path | None = None) -> list[Path]:
    """Write the report: `md` to a file, `csv`/`parquet` as one file per table in a folder."""
    if fmt not in FORMATS:
        raise SpecError("--format", f"choose one of {', '.join(FORMATS)}")
    exp_id = report.experiment["id"]
    try:
        if fmt == "md":
            path = Path(out or f"experiment-{exp_id}.md")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(to_markdown(report), encoding="utf-8")
            return [path]
        folder = Path(out or f"experiment-{exp_id}-{fmt}")
        folder.mkdir(parents=True, exist_ok=True)
        files = []
        for name, frame in report.tables().items():
            path = folder / f"{name}.{fmt}"
            if fmt == "csv":
                frame.to_csv(path, index=False)
            else:
                frame.to_parquet(path, index=False)
            files.append(path)
        return files
    except OSError as err:
        raise StoreError(f"could not write the report to {out}: {err.strerror or err}") from err


def table_bytes(frame: pd.DataFrame, fmt: str) -> bytes:
    """One table as CSV or Parquet bytes (for downloads)."""
    if fmt == "csv":
        return frame.to_csv(index=False).encode()
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def archive(report: ExperimentReport, fmt: str) -> bytes:
    """Every table of the report as CSV or Parquet files in one zip (for downloads)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, frame in report.tables().items():
            zf.writestr(f"{name}.{fmt}", table_bytes(frame, fmt))
    return buffer.getvalue()
