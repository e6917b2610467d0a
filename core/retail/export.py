"""Export a stored RetailBench run to the original run-directory layout (notes §8), so the paper's own analysis
scripts can read ORCA runs, and `core.retail.importer` reads them back (export → import gives the same metrics).

Written into DIR: `tool_calls.jsonl` (one line per tool call in the original's fields and order: `ts`, `tool`,
`call_source`, `args`, `result` {result, formatted}, `funds`, `net_worth`, `current_date`, `elapsed_time`,
then `action_executed`, and `source`/`parent_tool` for calls made inside `execute_code`, which come before
their `execute_code` line, as in the original), the run log `<prefix>.json` (a JSON array: a system record per
day, a `tool` record per call, a `usage` record per model step with tokens, a closing summary), one
`day_<d>_token_usage.json` per closed day when the run used tokens, `token_statistics.json`, `config.json`
and `args.json`. Departures (listed in docs/retailbench.md): ORCA's `end_today` stockouts are written as the
original's SKU repr strings ("SKU Info:\\n  SKU ID: <id>\\n  Attributes: {}\\n"), but `waiting_items` stays
ORCA's count; `funds`/`net_worth` of a line are those of the last closed day (the original logs them live);
`ts` is the run's creation time plus the calls' recorded latencies; no per-call transcript files
(`<day>/execute_*.json`), no `records.db`, no checkpoints.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.retail.replay import decoded
from core.retail.run import WORKBENCH
from core.store import Store
from core.store.retail import retail_records

PREFIXES = {"react": "run_react", "reflection": "run_reflection", "plan_and_act": "run_plan_and_act",
            "evolving_strategy": "run_step_reflection", "step_reflection": "run_step_reflection"}  # fmt: skip
ACTION_TOOLS = ("place_order", "modify_sku_price", "set_shelf_skus", "end_today")
CHUNK = 2_000  # transitions read from the store at a time
FORMATS = ("original",)


def _as_dict(value: Any) -> dict:
    value = decoded(value)
    return value if isinstance(value, dict) else {}


def _sku_repr(value: Any) -> Any:
    """An ORCA stockout (a SKU id) as the original's SKU repr string; a repr string stays as it is."""
    text = str(value)
    return text if "SKU ID:" in text else f"SKU Info:\n  SKU ID: {text}\n  Attributes: {{}}\n"


def _transitions(store: Store, run_id: str) -> Any:
    start = 0
    while True:
        frame = store.transitions(run_id, start, start + CHUNK)
        if frame.empty:
            return
        yield from frame.to_dict("records")
        start += CHUNK


def export_original(store: Store, run_id: str, out_dir: str | Path) -> dict[str, Any]:
    """Write run `run_id` into `out_dir` (made if missing; refused if it already holds a `tool_calls.jsonl`).
    Returns {run_id, dir, files, tool_calls, days}."""
    run = store.get_run(run_id)
    if run["workbench"] != WORKBENCH:
        raise SpecError("RUN_ID", f"run {run_id} is a {run['workbench']} run, not a RetailBench run")
    config, metrics = _as_dict(run.get("config")), _as_dict(run.get("metrics"))
    root = Path(out_dir)
    if (root / "tool_calls.jsonl").exists():
        raise SpecError("DIR", f"{root} already holds a run (tool_calls.jsonl); choose an empty folder")
    root.mkdir(parents=True, exist_ok=True)
    daily = retail_records(store, run_id, "daily")
    first_date = str(daily["date"].iloc[0])[:10] if len(daily) else None
    imported = str(config.get("source", "")).startswith("imported")
    inner_logged = imported or any(
        _as_dict(row["info"]).get("source", "direct") != "direct" for row in _transitions(store, run_id)
    )
    created = run.get("created_at")
    clock = created if isinstance(created, datetime.datetime) else datetime.datetime(2026, 1, 1)
    state = {
        "funds": metrics.get("initial_funds"),
        "net_worth": metrics.get("initial_funds"),
        "date": first_date,
    }
    log: list[dict] = []
    tokens: dict[int, dict[str, int]] = {}
    day, calls = 1, 0

    def line(tool: str, source: str, args: Any, payload: Any, formatted: str, elapsed: float) -> dict:
        nonlocal clock
        clock += datetime.timedelta(seconds=elapsed)
        out = {"ts": clock.isoformat(timespec="microseconds") + "Z", "tool": tool, "call_source": source,
               "args": args if isinstance(args, dict) else {}, "result": {"result": payload, "formatted": formatted},
               "funds": state["funds"], "net_worth": state["net_worth"], "current_date": state["date"],
               "elapsed_time": round(elapsed, 4)}  # fmt: skip
        ok = not (isinstance(payload, dict) and payload.get("error"))
        if tool in ACTION_TOOLS:
            out["action_executed"] = ok
        if source != "direct":
            out["source"] = out["parent_tool"] = "execute_code"
        log.append({"ts": out["ts"], "role": "tool", "day": day, "phase": "execution", "name": tool,
                    "args": out["args"], "content": formatted, "raw": payload, "success": ok,
                    "call_source": source})  # fmt: skip
        return out

    with open(root / "tool_calls.jsonl", "w", encoding="utf-8") as handle:

        def write(record: dict) -> None:
            nonlocal calls
            handle.write(json.dumps(record, default=str, ensure_ascii=False) + "\n")
            calls += 1

        log.append({"ts": clock.isoformat() + "Z", "role": "system", "day": 1, "current_date": first_date,
                    "message": "Day 1 started"})  # fmt: skip
        for row in _transitions(store, run_id):
            action, info, obs = _as_dict(row["action"]), _as_dict(row["info"]), _as_dict(row["observation"])
            tool = str(action.get("name"))
            payload = obs.get("result", {})
            formatted = obs.get("formatted", "")
            formatted = formatted if isinstance(formatted, str) else str(formatted)
            latency = row.get("latency_ms")
            elapsed = (
                float(latency) / 1000 if isinstance(latency, int | float) and math.isfinite(latency) else 0.0
            )
            source = str(info.get("source") or "direct")
            if tool == "execute_code" and not inner_logged and isinstance(payload, dict):
                for inner in payload.get("tool_calls") or []:
                    if isinstance(inner, dict):
                        write(line(str(inner.get("tool_name")), "execute_code", inner.get("args"),
                                   inner.get("result"), "", 0.0))  # fmt: skip
            if tool == "end_today" and isinstance(payload, dict) and not payload.get("error"):
                payload = dict(payload)
                if isinstance(payload.get("insufficient_skus"), list):
                    payload["insufficient_skus"] = [_sku_repr(s) for s in payload["insufficient_skus"]]
                state.update(funds=payload.get("funds"), net_worth=payload.get("net_worth"),
                             date=payload.get("current_date"))  # fmt: skip
            used = tokens.setdefault(day, {"prompt_tokens": 0, "completion_tokens": 0})
            prompt, completion = int(row.get("input_tokens") or 0), int(row.get("output_tokens") or 0)
            used["prompt_tokens"] += prompt
            used["completion_tokens"] += completion
            if prompt or completion:
                log.append({"role": "usage", "day": day, "phase": "execution", "prompt_tokens": prompt,
                            "completion_tokens": completion, "total_tokens": prompt + completion})  # fmt: skip
            write(line(tool, source, action.get("arguments"), payload, formatted, elapsed))
            if tool == "end_today" and not info.get("error"):
                day += 1
                log.append({"ts": clock.isoformat() + "Z", "role": "system", "day": day,
                            "current_date": state["date"], "message": f"Day {day} started"})  # fmt: skip
    closed = day - 1
    files = ["tool_calls.jsonl", *_write_side_files(store, run, root, log, tokens, closed, daily)]
    return {"run_id": run_id, "dir": str(root), "files": files, "tool_calls": calls, "days": closed}


def _write_side_files(
    store: Store,
    run: dict,
    root: Path,
    log: list[dict],
    tokens: dict[int, dict[str, int]],
    closed: int,
    daily: Any,
) -> list[str]:
    """The token files, `token_statistics.json`, the run log, `config.json` and `args.json`; their names."""
    files: list[str] = []
    run_id, config, metrics = run["id"], _as_dict(run.get("config")), _as_dict(run.get("metrics"))
    token_files = _token_files(store, run_id, tokens, closed, daily)
    for name, data in token_files.items():
        (root / name).write_text(json.dumps(data), encoding="utf-8")
        files.append(name)
    if token_files:
        totals = {k: sum(int(d.get(k.removeprefix("total_"), 0)) for d in token_files.values())
                  for k in ("total_prompt_tokens", "total_completion_tokens", "total_tokens")}  # fmt: skip
        (root / "token_statistics.json").write_text(json.dumps(totals), encoding="utf-8")
        files.append("token_statistics.json")
    agent = str(config.get("agent") or "unknown")
    log.append({"role": "system", "phase": "summary", "message": f"ORCA run {run_id} exported ({closed} days)",
                "token_statistics": {"total_prompt_tokens": sum(t["prompt_tokens"] for t in tokens.values()),
                                     "total_completion_tokens": sum(t["completion_tokens"] for t in tokens.values())}})  # fmt: skip
    prefix = PREFIXES.get(agent, f"run_{agent}" if re.fullmatch(r"\w{1,50}", agent) else "run_unknown")
    (root / f"{prefix}.json").write_text(json.dumps(log, default=str, ensure_ascii=False), encoding="utf-8")
    preset = config.get("preset") or "unknown"
    (root / "config.json").write_text(json.dumps({"config_name": preset, "initial_funds": metrics.get("initial_funds"),
                                                  "overrides": config.get("overrides") or {}}), encoding="utf-8")  # fmt: skip
    (root / "args.json").write_text(json.dumps({"model": config.get("model"), "agent": agent, "seed": run.get("seed"),
                                                "days": config.get("days"), "orca_run_id": run_id, "api_key": None,
                                                "log_dir": str(root)}), encoding="utf-8")  # fmt: skip
    files += [f"{prefix}.json", "config.json", "args.json"]
    return files


def _token_files(
    store: Store, run_id: str, tokens: dict[int, dict[str, int]], closed: int, daily: Any
) -> dict[str, dict]:
    """`day_<d>_token_usage.json` per closed day: the stored files of an imported run as they were, else the
    transitions' tokens of each closed day (none when the run used no tokens)."""
    stored = store.artifacts(run_id)
    names = [n for n in stored["name"] if str(n).startswith("day_") and str(n).endswith("_token_usage.json")]
    if names:
        return {n: json.loads(store.get_artifact(run_id, n)) for n in names}
    if not any(t["prompt_tokens"] or t["completion_tokens"] for t in tokens.values()):
        return {}
    dates = [str(d)[:10] for d in daily["date"]] if len(daily) else []
    out = {}
    for d in range(1, closed + 1):
        used = tokens.get(d, {"prompt_tokens": 0, "completion_tokens": 0})
        total = used["prompt_tokens"] + used["completion_tokens"]
        out[f"day_{d}_token_usage.json"] = {
            "day": d, "current_date": dates[d - 1] if d <= len(dates) else None, **used, "total_tokens": total,
            "cached_prompt_tokens": 0, "uncached_prompt_tokens": used["prompt_tokens"],
        }  # fmt: skip
    return out


def export_zip(store: Store, run_id: str) -> bytes:
    """Run `run_id` as a zipped original run directory (the replay page's download; `import_run_zip` reads it)."""
    import io
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory(prefix="orca-export-") as tmp:
        folder = Path(tmp) / f"orca_{run_id}"
        out = export_original(store, run_id, folder)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in out["files"]:
                archive.write(folder / name, f"{folder.name}/{name}")
        return buffer.getvalue()
