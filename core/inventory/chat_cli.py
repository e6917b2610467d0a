"""`python -m core.cli inventory chat`: the Inventory Copilot over stdin/stdout JSON lines.

Each stdin line is one JSON object, `{"user": "..."}` (or `{"edit": {"key": ..., "value": ...}}` for a
direct table edit); each is answered by exactly one stdout line
`{"assistant", "action", "table", "policy"}`. A malformed line, or an input the session rejects, is answered
by `{"error": ..., "field": ...}` and the session continues. Blank lines are ignored. See `docs/inventory_copilot.md`.
The copilot (and with it the engine) is imported inside the handler so that `python -m core.cli` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from typing import TYPE_CHECKING, Any, TextIO

from core.config import PROVIDERS, Settings
from core.errors import OrcaError, ProviderError, SolverError, SpecError, StoreError
from core.store import Store

if TYPE_CHECKING:
    from core.inventory.copilot import Copilot


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from the environment, with the provider (and its key and URL) and the flags applied."""
    return Settings.from_cli(args.provider, args.model, args.base_url, args.seed)


def _parse_line(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as err:
        raise SpecError("input", f"not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(data, dict):
        raise SpecError("input", 'each line must be a JSON object such as {"user": "..."}')
    if "user" in data:
        if not isinstance(data["user"], str) or not data["user"].strip():
            raise SpecError("user", "must be a non-empty string")
        return data
    edit = data.get("edit")
    if isinstance(edit, dict) and isinstance(edit.get("key"), str) and edit.get("value") is not None:
        return data
    raise SpecError("input", 'expected {"user": "..."} or {"edit": {"key": ..., "value": ...}}')


def error_object(err: OrcaError) -> dict[str, str]:
    """The protocol's `{"error", "field"}` object; `field` names the input or the failing service."""
    if isinstance(err, SpecError):
        field = err.field
    elif isinstance(err, ProviderError):
        field = "provider"
    elif isinstance(err, SolverError):
        field = "solver"
    elif isinstance(err, StoreError):
        field = "store"
    else:
        field = "input"
    return {"error": str(err), "field": field}


def run_chat(copilot: Copilot, stdin: TextIO, stdout: TextIO) -> int:
    """Answer every input line with one JSON line; return the number of lines answered."""
    answered = 0
    for line in stdin:
        if not line.strip():
            continue
        try:
            data = _parse_line(line)
            if "user" in data:
                turn = copilot.respond(data["user"])
            else:
                turn = copilot.user_edit(data["edit"]["key"], str(data["edit"]["value"]))
            out: dict[str, Any] = turn.to_dict()
        except OrcaError as err:
            out = error_object(err)
        except Exception as err:  # a bug must not end the session: report it, keep answering
            traceback.print_exc(file=sys.stderr)
            out = {
                "error": f"internal error ({type(err).__name__}: {err}); please report it",
                "field": "internal",
            }
        stdout.write(json.dumps(out, default=str) + "\n")
        stdout.flush()
        answered += 1
    return answered


def cmd_chat(args: argparse.Namespace) -> None:
    """Run one conversation over stdin/stdout; it is recorded in the run store (`--db`)."""
    from core.inventory.copilot import Copilot, CopilotConfig  # the engine loads torch: import on use

    settings = settings_from_args(args)
    store = Store(args.db)
    config = CopilotConfig(
        paths=args.paths,
        use_dqn=args.dqn,
        dqn_steps=args.dqn_steps,
        dqn_seconds=args.dqn_seconds,
        seed=settings.seed,
    )
    if args.resume:
        copilot = Copilot.resume(store, args.resume, settings, config)
    else:
        copilot = Copilot(settings, store, config, title="Inventory Copilot (headless chat)")
        copilot.greeting()
    run_chat(copilot, sys.stdin, sys.stdout)
    return None


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_chat_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add `chat` to the `inventory` command group."""
    p = subparsers.add_parser(
        "chat",
        help="the Inventory Copilot over stdin/stdout JSON lines",
        description='Reads {"user": "..."} per stdin line and answers each with one JSON line '
        '{"assistant", "action", "table", "policy"}.',
    )
    p.add_argument("--provider", choices=PROVIDERS, help="LLM provider (default: from the environment)")
    p.add_argument("--model", help="model name (default: the provider's default)")
    p.add_argument("--seed", type=int, help="random seed (default: $ORCA_SEED or 42)")
    p.add_argument("--base-url", help="provider base URL (e.g. a local OpenAI-compatible server)")
    p.add_argument("--paths", type=_positive, default=1000, help="Monte Carlo paths of the policy search")
    p.add_argument(
        "--dqn", action="store_true", help="also train a DQN (slower; also on request in the chat)"
    )
    p.add_argument("--dqn-steps", type=_positive, default=1500, help="DQN training budget in vector steps")
    p.add_argument("--dqn-seconds", type=float, default=30.0, help="DQN training budget in seconds")
    p.add_argument("--resume", metavar="RUN_ID", help="continue a stored copilot conversation")
    p.set_defaults(func=cmd_chat)
