"""Import an original RetailBench run directory (notes §8) into the store as a RetailBench run.

Read: `tool_calls.jsonl` (required: every tool call, split into days at `end_today`), the run log
`run_*.json` (optional JSON array; framework from its prefix), `day_<d>_token_usage.json` (optional, tokens
per day), `config.json` / `args.json` (optional: preset name, model). Written: one run (workbench
"retailbench", labelled "imported original run") whose transitions are the tool calls in order (replayable in
the replay page and scored by `core.retail.diagnostics`), the daily series in `retail_daily`, the Table 1
metrics, and the token files as artifacts.

Everything is parsed and checked before anything is written; a malformed or partial directory raises
`SpecError` naming the file and line and writes nothing. The run, its transitions, artifacts and daily series
are one `RunRecord` written in a single store transaction, so an import is all or nothing by construction.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from core.errors import SpecError
from core.retail.diagnostics import stockout_skus
from core.store import Store
from core.store.retail import retail_tables
from core.store.rollouts import RunRecord, TransitionRow
from solvers.retail.metrics import run_metrics
from solvers.retail.tools import MEMORY_TOOLS
from solvers.upload import JSON_HOOKS, iter_lines, open_zip, read_text, unpack_zip

WORKBENCH = "retailbench"
MAX_CALLS_BYTES = 200_000_000  # tool_calls.jsonl, streamed line by line
MAX_CALLS = 1_000_000  # lines of tool_calls.jsonl
MAX_LOG_BYTES = 200_000_000  # the run log run_*.json (parsed whole, to count its records)
MAX_SIDE_BYTES = 10_000_000  # config.json, args.json and each day_<d>_token_usage.json
MAX_TOKEN_FILES = 10_000
FRAMEWORK_PREFIXES = {"run_react": "react", "run_reflection": "reflection", "run_plan_and_act": "plan_and_act",
                      "run_step_reflection": "step_reflection"}  # fmt: skip


@dataclass
class ImportedRun:
    """The parsed directory, before it is written."""

    name: str
    calls: list[dict] = field(default_factory=list)
    daily: list[dict] = field(default_factory=list)
    tokens: dict[int, dict] = field(default_factory=dict)
    config: dict = field(default_factory=dict)
    args: dict = field(default_factory=dict)
    framework: str | None = None
    log_records: int = 0


def _loads(text: str, name: str, line: int) -> Any:
    """Strict JSON (no NaN or infinities, bounded numbers and nesting); SpecError("<file> line N", ...)."""
    try:
        return json.loads(text, **JSON_HOOKS)
    except json.JSONDecodeError as err:
        raise SpecError(
            f"{name} line {line + err.lineno - 1}", f"not valid JSON ({err.msg}, column {err.colno})"
        ) from None
    except RecursionError:
        raise SpecError(f"{name} line {line}", "not valid JSON (nested too deeply)") from None
    except ValueError as err:
        raise SpecError(f"{name} line {line}", f"not valid JSON ({err})") from None


def _json_file(path: Path, max_bytes: int = MAX_SIDE_BYTES) -> Any:
    return _loads(read_text(path, field=path.name, name=path.name, max_bytes=max_bytes), path.name, 1)


def _payload(line: dict) -> dict:
    wrapper = line.get("result")
    if isinstance(wrapper, dict) and isinstance(
        wrapper.get("result"), dict | list | str | int | float | type(None)
    ):
        inner = wrapper.get("result")
        return inner if isinstance(inner, dict) else {"value": inner}
    return wrapper if isinstance(wrapper, dict) else {}


def parse_run_dir(path: str | Path) -> ImportedRun:
    """Parse and check a run directory; raises SpecError(file and line, what is wrong)."""
    root = Path(path)
    if not root.is_dir():
        raise SpecError("run_dir", f"{root} is not a directory")
    calls_path = root / "tool_calls.jsonl"
    if not calls_path.is_file():
        raise SpecError("tool_calls.jsonl", f"missing in {root}: an original run directory has one")
    run = ImportedRun(name=root.name)
    day = 1
    lines = iter_lines(
        calls_path,
        field=calls_path.name,
        name=calls_path.name,
        max_bytes=MAX_CALLS_BYTES,
        max_lines=MAX_CALLS,
    )
    for n, raw in lines:
        if not raw.strip():
            continue
        where = f"tool_calls.jsonl line {n}"
        line = _loads(raw, "tool_calls.jsonl", n)
        if not isinstance(line, dict):
            raise SpecError(where, "each line must be a JSON object")
        tool = line.get("tool")
        if not isinstance(tool, str) or not tool:
            raise SpecError(where, "missing the field 'tool'")
        args = line.get("args", {})
        if not isinstance(args, dict):
            raise SpecError(where, "'args' must be an object")
        if "result" not in line:
            raise SpecError(where, "missing the field 'result'")
        payload = _payload(line)
        formatted = line["result"].get("formatted", "") if isinstance(line["result"], dict) else ""
        ok = not payload.get("error")
        source = str(line.get("call_source") or line.get("source") or "direct")
        run.calls.append({"day": day, "tool": tool, "args": args, "ok": ok, "source": source, "line": n,
                          "result": payload, "formatted": formatted if isinstance(formatted, str) else str(formatted)})  # fmt: skip
        if tool == "end_today" and ok:
            run.daily.append(_day_row(day, line, payload, where))
            day += 1
    if not run.calls:
        raise SpecError("tool_calls.jsonl", "has no tool calls")
    if not run.daily:
        raise SpecError("tool_calls.jsonl", "has no successful end_today: not a single day was closed")
    token_files = sorted(root.glob("day_*_token_usage.json"))
    if len(token_files) > MAX_TOKEN_FILES:
        raise SpecError(
            "day_*_token_usage.json", f"{len(token_files):,} token files (the limit is {MAX_TOKEN_FILES:,})"
        )
    for token_file in token_files:
        data = _json_file(token_file)
        m = re.match(r"day_(\d+)_token_usage\.json", token_file.name)
        if not isinstance(data, dict) or m is None:
            raise SpecError(f"{token_file.name} line 1", "must be a JSON object")
        for key in ("prompt_tokens", "completion_tokens", "total_tokens", "day"):
            value = data.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SpecError(f"{token_file.name} line 1", f"'{key}' must be a whole number >= 0")
        run.tokens[int(data.get("day", m.group(1)))] = data
    for name in ("config.json", "args.json"):
        if (root / name).is_file():
            data = _json_file(root / name)
            if not isinstance(data, dict):
                raise SpecError(f"{name} line 1", "must be a JSON object")
            setattr(run, name.split(".")[0], data)
    for log in sorted(root.glob("run_*.json")):
        data = _json_file(log, MAX_LOG_BYTES)
        if not isinstance(data, list):
            raise SpecError(f"{log.name} line 1", "the run log must be a JSON array")
        run.log_records = len(data)
        run.framework = next((fw for prefix, fw in sorted(FRAMEWORK_PREFIXES.items(), key=lambda kv: -len(kv[0]))
                              if log.stem.startswith(prefix)), None)  # fmt: skip
    return run


def _day_row(day: int, line: dict, payload: dict, where: str) -> dict:
    def number(key: str, default: float | None = None) -> float:
        value = payload.get(key, line.get(key))
        value = default if value is None else value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SpecError(where, f"end_today without a numeric '{key}'")
        return float(value)

    def counts(key: str) -> dict[str, int]:
        value = payload.get(key) or {}
        if not isinstance(value, dict) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer() and v >= 0
            for v in value.values()
        ):
            raise SpecError(where, f"'{key}' must be an object of whole numbers >= 0 per SKU")
        return {str(k): int(v) for k, v in value.items()}

    sales, returns, expired = (
        counts("sales_by_sku"),
        counts("returns_by_sku"),
        counts("expired_discount_by_sku"),
    )
    insufficient = payload.get("insufficient_skus")
    if insufficient is not None and not isinstance(insufficient, list):
        raise SpecError(where, "'insufficient_skus' must be a list")
    stockouts = stockout_skus(insufficient)
    date = str(payload.get("current_date") or line.get("current_date") or "")[:10]
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise SpecError(where, "end_today without a current_date (YYYY-MM-DD)") from None
    if not re.match(r"\d{4}-\d{2}-\d{2}$", date):
        raise SpecError(where, "end_today without a current_date (YYYY-MM-DD)")
    # the original's end_today reports the date it advanced to: the day it closed is the one before
    date = (datetime.date.fromisoformat(date) - datetime.timedelta(days=1)).isoformat()
    optional = {}
    for key in ("money_earned", "cost_of_goods_sold"):
        value = payload.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise SpecError(where, f"'{key}' must be a number")
        optional[key] = value
    return {
        "day": day, "date": date, "funds": number("funds"), "net_worth": number("net_worth", 0.0),
        "sales_units": sum(sales.values()),
        "revenue": None, "refunds": None, "money_earned": optional["money_earned"], "cogs": optional["cost_of_goods_sold"],
        "inventory_value": None, "on_hand_units": None, "waiting_units": None,
        "stockout_skus": len(stockouts), "expired_units": sum(expired.values()),
        "returned_units": sum(returns.values()),
        "sold_skus": sum(1 for v in sales.values() if v > 0), "customers": None,
        "_stockout_ids": stockouts,
    }  # fmt: skip


def import_run_dir(
    store: Store, path: str | Path, *, title: str | None = None, source: str | None = None
) -> str:
    """Import a run directory into `store`; returns the new run id (nothing is written on an error).
    `source` is what the run records as its origin (default: the directory's path)."""
    run = parse_run_dir(path)
    direct = sum(1 for c in run.calls if c["source"] == "direct")
    memory = sum(1 for c in run.calls if c["tool"] in MEMORY_TOOLS)
    total_tokens = sum(int(t.get("total_tokens", int(t.get("prompt_tokens", 0)) + int(t.get("completion_tokens", 0))))
                       for t in run.tokens.values())  # fmt: skip
    initial = run.config.get("initial_funds")
    metrics = run_metrics(run.daily, direct_calls=direct, code_calls=len(run.calls) - direct, memory_calls=memory,
                          total_tokens=total_tokens, token_days=len(run.tokens) or None,
                          initial_funds=float(initial) if isinstance(initial, int | float) else None)  # fmt: skip
    model = run.args.get("model") or run.args.get("model_name")
    preset = run.config.get("config_name") or run.config.get("name") or "unknown"
    named = run.args.get("agent")  # ORCA's own exports name the agent; an original run's file prefix does
    agent = run.framework or (named if isinstance(named, str) and re.fullmatch(r"\w{1,50}", named) else None)
    config = {"source": "imported original run", "run_dir": source or str(Path(path).resolve()), "agent": agent or "unknown",
              "agent_kind": "LLM (imported original RetailBench run)", "model": model, "preset": preset,
              "days": len(run.daily), "log_records": run.log_records}  # fmt: skip
    record = RunRecord(WORKBENCH, config, None, title or f"Imported · {agent or 'run'} · {model or run.name}",
                       status="done", metrics=metrics)  # fmt: skip
    for t, c in enumerate(run.calls):
        obs = {"result": c["result"], "formatted": c["formatted"]}
        text = json.dumps(obs, default=str)
        if len(text) > 20_000:  # keep the store small: end_today inventories and long histories are cut
            obs = {
                "result": {k: v for k, v in c["result"].items() if k != "inventory"},
                "formatted": c["formatted"][:4000],
            }
        tokens = run.tokens.get(c["day"], {}) if c["tool"] == "end_today" else {}
        record.transitions.append(TransitionRow(
            t=t, action={"name": c["tool"], "arguments": c["args"]}, reward=0.0, observation=obs,
            obs_hash=hashlib.sha256(text.encode()).hexdigest(),
            info={"day": c["day"], "tool": c["tool"], "source": c["source"], "error": not c["ok"], "line": c["line"]},
            input_tokens=int(tokens.get("prompt_tokens", 0)), output_tokens=int(tokens.get("completion_tokens", 0)),
        ))  # fmt: skip
    ends = [t for t, c in enumerate(run.calls) if c["tool"] == "end_today" and c["ok"]]
    record.artifacts["day_index.json"] = json.dumps(ends).encode()
    for d, data in sorted(run.tokens.items()):
        record.artifacts[f"day_{d}_token_usage.json"] = json.dumps(data).encode()
    daily = pd.DataFrame([{k: v for k, v in row.items() if not k.startswith("_")} for row in run.daily])
    daily["date"] = pd.to_datetime(daily["date"]).dt.date
    record.tables = retail_tables({"daily": daily})
    return store.write_record(record)


MAX_ZIP_BYTES = 100_000_000  # the uploaded archive itself
MAX_ZIP_ENTRIES = 50_000  # entries listed in the archive (a run folder holds ~50 transcript files a day)
MAX_ZIP_UNPACKED = 400_000_000  # bytes unpacked in all (only the files the import reads are unpacked)
MAX_ZIP_RATIO = 200  # unpacked / packed size of one entry over 1 MB: more is treated as a zip bomb
RUN_FILE = re.compile(
    r"(tool_calls\.jsonl|config\.json|args\.json|run_[\w.-]*\.json|day_\d+_token_usage\.json)"
)


def unpack_run_zip(data: bytes, name: str, dest: str | Path) -> Path:
    """Check the zipped run directory `data` (uploaded as `name`) and unpack the files the import reads into
    `dest`; returns the run folder. Refused (SpecError naming `name`): what `solvers.upload.open_zip` and
    `unpack_zip` refuse (size, entries, traversal, links, encryption, duplicates, zip bombs), no or several
    `tool_calls.jsonl`, more run files than the import reads."""
    field = "upload"
    archive, entries = open_zip(
        data, field=field, name=name, max_bytes=MAX_ZIP_BYTES, max_entries=MAX_ZIP_ENTRIES
    )
    with archive:
        calls = [i for i in entries if not i.is_dir() and i.filename.rsplit("/", 1)[-1] == "tool_calls.jsonl"]
        if len(calls) != 1:
            raise SpecError(field, f"{name}: {'no' if not calls else 'more than one'} tool_calls.jsonl in the archive "
                                   "(zip one original run directory)")  # fmt: skip
        folder = calls[0].filename[: -len("tool_calls.jsonl")]
        wanted = [i for i in entries if not i.is_dir() and i.filename.startswith(folder)
                  and "/" not in i.filename[len(folder):] and RUN_FILE.fullmatch(i.filename[len(folder):])]  # fmt: skip
        if len(wanted) > MAX_TOKEN_FILES + 10:
            raise SpecError(
                field, f"{name}: {len(wanted):,} run files (the limit is {MAX_TOKEN_FILES + 10:,})"
            )
        root = Path(dest) / (folder.rstrip("/").rsplit("/", 1)[-1] or Path(name).stem or "run")
        root.mkdir(parents=True)
        targets = [(info, root / info.filename[len(folder) :]) for info in wanted]
        unpack_zip(archive, targets, field=field, name=name, max_unpacked=MAX_ZIP_UNPACKED, max_ratio=MAX_ZIP_RATIO,
                   max_entry_bytes=lambda i: MAX_CALLS_BYTES if i.filename.endswith(".jsonl") else MAX_LOG_BYTES)  # fmt: skip
        return root


def import_run_zip(store: Store, data: bytes, name: str, *, title: str | None = None) -> str:
    """Import a zipped original run directory uploaded as `name` (the replay page's upload); returns the run
    id. Every error is a SpecError whose message starts with `name`; nothing is written on an error."""
    with tempfile.TemporaryDirectory(prefix="orca-import-") as tmp:
        root = unpack_run_zip(data, name, tmp)
        try:
            return import_run_dir(store, root, title=title, source=f"upload:{name}")
        except SpecError as err:
            raise SpecError("upload", f"{name}: {err}") from None
