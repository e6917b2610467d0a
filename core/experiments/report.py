"""Experiment reports: the results of an experiment in the store as tables (per agent, per instance × agent,
paired against the baseline, every metric's mean) in markdown, CSV or Parquet.

Every table names each agent's kind: offline built-in agents are labelled "offline (built-in)", LLM agents by
provider and model, so a stand-in is never read as an LLM result.
"""

from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from core.errors import SpecError, StoreError
from core.experiments.spec import ExperimentSpec, from_dict
from core.experiments.stats import paired_table, summary_table
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
class ExperimentReport:
    """An experiment's stored state and its statistics (`metric` compared with goal `goal`)."""

    experiment: dict[str, Any]
    spec: ExperimentSpec
    cells: pd.DataFrame  # every cell, metrics as columns
    per_agent: pd.DataFrame
    per_group: pd.DataFrame
    paired: pd.DataFrame
    means: pd.DataFrame  # every metric's mean per agent

    @property
    def metric(self) -> str:
        return self.spec.metric

    def tables(self) -> dict[str, pd.DataFrame]:
        return {
            "per_agent": self.per_agent,
            "per_group": self.per_group,
            "paired": self.paired,
            "metric_means": self.means,
            "cells": self.cells,
        }


def cell_frame(store: Store, experiment_id: str) -> pd.DataFrame:
    """Every cell of an experiment with its metrics as columns (and `error`)."""
    raw = store.cells(experiment_id)
    metrics = pd.DataFrame([m if isinstance(m, dict) else {} for m in raw["metrics"]], index=raw.index)
    out = pd.concat([raw[CELL_FIELDS + ["error"]], metrics.astype(float)], axis=1)
    return out


def build_report(store: Store, experiment_id: str, *, seed: int = 0) -> ExperimentReport:
    """The report of stored experiment `experiment_id` (the statistics use the done cells only)."""
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
    paired = (
        paired_table(done, metric, baseline=spec.baseline_agent, goal=spec.goal, seed=seed)
        if spec.paired
        else pd.DataFrame()
    )
    return ExperimentReport(
        experiment=experiment,
        spec=spec,
        cells=cells,
        per_agent=labelled(summary_table(done, metric, by=("agent",), seed=seed)),
        per_group=labelled(summary_table(by_instance, metric, by=("instance", "agent"), seed=seed)),
        paired=labelled(paired),
        means=labelled(means),
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
