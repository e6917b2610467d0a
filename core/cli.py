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
import os
import sys
from datetime import date, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from core import cli_args
from core.catalog import WORKBENCHES, cli_modules, workbench_keys
from core.errors import OrcaError, SpecError, StoreError
from core.store import Store, default_store_path, json_safe

_CELL_WIDTH = 60


# --- the runs group ---


def _read_store(args: argparse.Namespace) -> Store | None:
    """The store a read command looks at; None when the default store does not exist yet (no runs)."""
    exists = cli_args.check_store_path(args.db, explicit=args.db_explicit, create=False)
    return Store(args.db) if exists else None


def _store_with_run(args: argparse.Namespace) -> Store:
    store = _read_store(args)
    if store is None:
        raise StoreError(f"no run with id {args.run_id!r} (there is no run store at {args.db} yet)")
    return store


def _workbench_filter(store: Store | None, name: str | None) -> list[str] | None:
    """The workbench keys `--workbench NAME` means: a key, a CLI group (all its workbenches) or a workbench
    that has runs in the store; anything else is refused with the names that are known."""
    if name is None:
        return None
    keys = workbench_keys(name.strip())
    stored = store.workbenches() if store is not None else []
    if keys or name in stored:
        return keys + [name] if name in stored and name not in keys else keys or [name]
    known = sorted({w.key for w in WORKBENCHES} | set(stored))
    groups = sorted({w.cli_group for w in WORKBENCHES})
    raise SpecError(
        "--workbench",
        f"unknown workbench {name!r}; use one of {', '.join(known)} or a group: {', '.join(groups)}",
    )


def _runs_list(args: argparse.Namespace) -> pd.DataFrame | list:
    store = _read_store(args)
    names = _workbench_filter(store, args.workbench)
    if store is None:
        return []
    return store.list_runs(workbench=names, limit=args.limit)


CHAT_GROUPS = {"inventory_copilot": "inventory", "school_scheduling": "schedule"}


def _runs_show(args: argparse.Namespace) -> dict[str, Any]:
    shown = _store_with_run(args).export_run_json(args.run_id)
    run = shown["run"]
    group = CHAT_GROUPS.get(run.get("workbench", ""))
    if group and run.get("status") in ("interrupted", "active"):
        shown["resume"] = f"python -m core.cli {group} chat --resume {run['id']}"
    return shown


def _runs_export(args: argparse.Namespace) -> dict[str, Any]:
    if (args.run_id is None) == (not args.all):
        raise SpecError("RUN_ID", "give one run id, or --all (with --format parquet) for every run")
    if args.all and args.format != "parquet":
        raise SpecError("--all", "exporting every run needs --format parquet")
    store = _store_with_run(args) if args.run_id else _read_store(args) or Store(args.db)
    if args.format == "parquet":
        out_dir = Path(args.out) if args.out else Path(f"orca-export-{args.run_id or 'all'}")
        cli_args.checked(
            cli_args.output_dir, str(out_dir), "--out", f"Could not write the export to {out_dir}: "
        )
        files = store.export_parquet(out_dir, None if args.all else [args.run_id])
        return {"run_id": args.run_id, "format": "parquet", "files": [str(f) for f in files]}
    exported = store.export_run_json(args.run_id)
    if not args.out:
        return exported
    out = cli_args.checked(
        cli_args.output_file, str(args.out), "--out", f"Could not write the export to {args.out}: "
    )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(to_jsonable(exported), indent=2, default=_json_default) + "\n")
    except OSError as err:
        raise StoreError(f"Could not write the export to {out}: {err.strerror or err}") from err
    return {"run_id": args.run_id, "format": "json", "path": str(out)}


def _runs_delete(args: argparse.Namespace) -> dict[str, Any]:
    _store_with_run(args).delete_run(args.run_id, force=args.force)
    return {"deleted": args.run_id}


def register_runs(subparsers: argparse._SubParsersAction) -> None:
    """The `runs` group: list, show, export and delete recorded runs."""
    commands = cli_args.command_group(subparsers, "runs", "list, show, export and delete recorded runs")

    listing = commands.add_parser("list", help="the newest runs first")
    listing.add_argument(
        "--workbench",
        type=cli_args.label,
        help="only runs of this workbench key or CLI group (inventory, schedule, school_scheduling, ...)",
    )
    listing.add_argument(
        "--limit", type=cli_args.list_limit, default=200, help="at most this many runs (default 200)"
    )
    listing.set_defaults(func=_runs_list)

    cli_args.id_command(commands, "show", "one run with its messages, steps and artifact list", _runs_show)

    export = commands.add_parser(
        "export", help="write one run as JSON or as Parquet files, or every run as Parquet"
    )
    export.add_argument("run_id", metavar="RUN_ID", nargs="?", type=cli_args.identifier)
    export.add_argument("--all", action="store_true", help="every run (needs --format parquet)")
    export.add_argument("--format", choices=("json", "parquet"), default="json")
    export.add_argument(
        "--out",
        type=cli_args.path_text,
        help="JSON: a file (default: print it); Parquet: a folder (default: ./orca-export-RUN_ID or -all)",
    )
    export.set_defaults(func=_runs_export)

    delete = cli_args.id_command(
        commands, "delete", "delete one run with everything recorded under it", _runs_delete
    )
    delete.add_argument("--force", action="store_true", help="delete even a run a live session is writing")


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
    parser = cli_args.CliArgumentParser(
        prog="python -m core.cli",
        description="ORCA from the command line. Prints JSON unless --pretty is given.",
    )
    parser.add_argument("--pretty", action="store_true", help="human-readable text instead of JSON")
    parser.add_argument(
        "--db", type=cli_args.db_path, help="run-store file (default: $ORCA_DB or data/orca.duckdb)"
    )
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
    print(json.dumps(cli_args.chat_error(err)), file=sys.stderr)


def _os_error_text(err: OSError) -> str:
    where = f" ({err.filename})" if err.filename else ""
    return f"{err.strerror or err}{where}"


def main(argv: list[str] | None = None) -> int:
    """Parse `argv`, run the chosen command, print its result; return the exit code."""
    front, rest = _split_global_flags(list(sys.argv[1:] if argv is None else argv))
    group = next((t for t in rest if not t.startswith("-")), None)
    cli_args.CliArgumentParser.pretty = "--pretty" in front
    parser = build_parser(load_workbenches=group != "runs")
    args = parser.parse_args(front + rest)
    args.db_explicit = args.db is not None
    args.db = args.db if args.db is not None else default_store_path()
    try:
        result = args.func(args)
    except OrcaError as err:
        _print_error(err, args.pretty)
        return 2
    except OSError as err:  # a file the command reads or writes: name it, no traceback
        _print_error(SpecError("file", _os_error_text(err)), args.pretty)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug: one clear line instead of a traceback (ORCA_DEBUG=1 shows it)
        if os.environ.get("ORCA_DEBUG"):
            raise
        _print_error(
            SpecError("internal", f"internal error ({type(err).__name__}: {err}); please report it"),
            args.pretty,
        )
        return 70
    if result is not None:
        if args.pretty:
            print(render_pretty(result))
        else:
            print(json.dumps(to_jsonable(result), default=_json_default, allow_nan=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
