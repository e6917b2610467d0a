"""ORCA's command line: `python -m core.cli [--pretty] [--db PATH] GROUP COMMAND ...`.

Every command prints one JSON line (or, with `--pretty`, text for people). Expected failures (`OrcaError`)
print `{"error": message}` on stderr and exit with 2; usage errors exit with 2 as argparse does.

Workbench groups come from the CLI modules of the workbench registry (`core/catalog.py`) (skipped for `runs` commands, to start fast).
Each exposes `register(subparsers)`, which adds a group whose leaf parsers `set_defaults(func=handler)`;
`handler(args)` returns a dict, a list, a DataFrame or None and finds the store path in `args.db`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from datetime import date, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from core.catalog import cli_modules
from core.errors import OrcaError, SpecError, StoreError
from core.store import Store, default_store_path, json_safe

_CELL_WIDTH = 60


# --- the runs group ---


def _runs_list(args: argparse.Namespace) -> pd.DataFrame:
    return Store(args.db).list_runs(workbench=args.workbench, limit=args.limit)


def _runs_show(args: argparse.Namespace) -> dict[str, Any]:
    return Store(args.db).export_run_json(args.run_id)


def _runs_export(args: argparse.Namespace) -> dict[str, Any]:
    if (args.run_id is None) == (not args.all):
        raise SpecError("RUN_ID", "give one run id, or --all (with --format parquet) for every run")
    if args.all and args.format != "parquet":
        raise SpecError("--all", "exporting every run needs --format parquet")
    store = Store(args.db)
    if args.format == "parquet":
        out_dir = Path(args.out) if args.out else Path(f"orca-export-{args.run_id or 'all'}")
        files = store.export_parquet(out_dir, None if args.all else [args.run_id])
        return {"run_id": args.run_id, "format": "parquet", "files": [str(f) for f in files]}
    exported = store.export_run_json(args.run_id)
    if not args.out:
        return exported
    out = Path(args.out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(to_jsonable(exported), indent=2, default=_json_default) + "\n")
    except OSError as err:
        raise StoreError(f"Could not write the export to {out}: {err.strerror or err}") from err
    return {"run_id": args.run_id, "format": "json", "path": str(out)}


def _runs_delete(args: argparse.Namespace) -> dict[str, Any]:
    Store(args.db).delete_run(args.run_id)
    return {"deleted": args.run_id}


def register_runs(subparsers: argparse._SubParsersAction) -> None:
    """The `runs` group: list, show, export and delete recorded runs."""
    runs = subparsers.add_parser("runs", help="list, show, export and delete recorded runs")
    commands = runs.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)

    listing = commands.add_parser("list", help="the newest runs first")
    listing.add_argument("--workbench", help="only runs of this workbench (inventory, schedule, ...)")
    listing.add_argument("--limit", type=int, default=200, help="at most this many runs (default 200)")
    listing.set_defaults(func=_runs_list)

    show = commands.add_parser("show", help="one run with its messages, steps and artifact list")
    show.add_argument("run_id", metavar="RUN_ID")
    show.set_defaults(func=_runs_show)

    export = commands.add_parser(
        "export", help="write one run as JSON or as Parquet files, or every run as Parquet"
    )
    export.add_argument("run_id", metavar="RUN_ID", nargs="?")
    export.add_argument("--all", action="store_true", help="every run (needs --format parquet)")
    export.add_argument("--format", choices=("json", "parquet"), default="json")
    export.add_argument(
        "--out",
        help="JSON: a file (default: print it); Parquet: a folder (default: ./orca-export-RUN_ID or -all)",
    )
    export.set_defaults(func=_runs_export)

    delete = commands.add_parser("delete", help="delete one run with everything recorded under it")
    delete.add_argument("run_id", metavar="RUN_ID")
    delete.set_defaults(func=_runs_delete)


# --- parser ---


def _import_workbench(name: str) -> ModuleType | None:
    """Import a workbench CLI module; None only if that module (or its package) does not exist yet."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and (name == err.name or name.startswith(err.name + ".")):
            return None
        raise


def build_parser(load_workbenches: bool = True) -> argparse.ArgumentParser:
    """The parser: global flags, the runs group and (if `load_workbenches`) every available workbench group."""
    parser = argparse.ArgumentParser(
        prog="python -m core.cli",
        description="ORCA from the command line. Prints JSON unless --pretty is given.",
    )
    parser.add_argument("--pretty", action="store_true", help="human-readable text instead of JSON")
    parser.add_argument("--db", type=Path, help="run-store file (default: $ORCA_DB or data/orca.duckdb)")
    groups = parser.add_subparsers(title="groups", dest="group", metavar="GROUP", required=True)
    register_runs(groups)
    for name in ["core.experiments.cli", *cli_modules()] if load_workbenches else []:
        module = _import_workbench(name)
        if module is not None:
            module.register(groups)
    return parser


def _split_global_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """Separate `--pretty` and `--db PATH` (allowed anywhere before `--`) from the rest of `argv`."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            rest.extend(argv[i:])
            break
        if token == "--pretty" or token.startswith("--db="):
            front.append(token)
        elif token == "--db" and i + 1 < len(argv):
            front.extend(argv[i : i + 2])
            i += 1
        else:
            rest.append(token)
        i += 1
    return front, rest


# --- output ---


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, datetime | date | pd.Timestamp):
        return value.isoformat()
    return str(value)


def to_jsonable(value: Any) -> Any:
    """Strict-JSON-ready data: DataFrames become lists of records; NaN and infinities become null."""
    if isinstance(value, pd.DataFrame):
        return json_safe(json.loads(value.to_json(orient="records", date_format="iso", default_handler=str)))
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return json_safe(value)


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    text = json.dumps(value, default=_json_default) if isinstance(value, dict | list) else str(value)
    return text if len(text) <= _CELL_WIDTH else text[: _CELL_WIDTH - 1] + "…"


def _table(frame: pd.DataFrame) -> str:
    if frame.empty:
        return "(none)"
    return frame.map(_cell).to_string(index=False)


def _is_table(value: Any) -> bool:
    return isinstance(value, pd.DataFrame) or (
        isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
    )


def render_pretty(value: Any) -> str:
    """Text for people: tables for DataFrames and lists of records, `key: value` lines for dicts."""
    if isinstance(value, pd.DataFrame):
        return _table(value)
    if _is_table(value):
        return _table(pd.DataFrame(value))
    if isinstance(value, list):
        return "\n".join(_cell(v) for v in value) if value else "(none)"
    if not isinstance(value, dict):
        return str(value)
    lines: list[str] = []
    for key, item in value.items():
        if _is_table(item) or item == []:
            lines += ["", f"{key}:", render_pretty(item)]
        elif isinstance(item, dict) and any(isinstance(v, dict) for v in item.values()):
            lines += ["", f"{key}:"] + ["  " + line for line in render_pretty(item).splitlines() if line]
        elif isinstance(item, dict | list):
            lines.append(f"{key}: {json.dumps(item, default=_json_default)}")
        else:
            lines.append(f"{key}: {item}")
    return "\n".join(lines).strip("\n")


def _print_error(err: OrcaError, pretty: bool) -> None:
    if pretty:
        print(f"error: {err}", file=sys.stderr)
        return
    payload: dict[str, Any] = {"error": str(err)}
    if isinstance(err, SpecError):
        payload["field"] = err.field
    print(json.dumps(payload), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Parse `argv`, run the chosen command, print its result; return the exit code."""
    front, rest = _split_global_flags(list(sys.argv[1:] if argv is None else argv))
    group = next((t for t in rest if not t.startswith("-")), None)
    parser = build_parser(load_workbenches=group != "runs")
    args = parser.parse_args(front + rest)
    args.db = args.db if args.db is not None else default_store_path()
    try:
        result = args.func(args)
    except OrcaError as err:
        _print_error(err, args.pretty)
        return 2
    if result is not None:
        if args.pretty:
            print(render_pretty(result))
        else:
            print(json.dumps(to_jsonable(result), default=_json_default, allow_nan=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
