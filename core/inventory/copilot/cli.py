"""`python -m core.cli inventory chat`: the Inventory Copilot over stdin/stdout JSON lines.

Each stdin line is one JSON object, `{"user": "..."}` (or `{"edit": {"key": ..., "value": ...}}` for a
direct table edit); each is answered by exactly one stdout line
`{"assistant", "action", "table", "policy"}`. A malformed line, or an input the session rejects, is answered
by `{"error": ..., "field": ...}` and the session continues. Blank lines are ignored. Every output line carries
the conversation's `run_id` (the run is created at the start), so a script can `--resume` it. Lines are
checked at the boundary (`core.cli_args.chat_lines`, `chat_request`): at most `MAX_LINE_CHARS` characters,
valid JSON and valid Unicode. See `docs/inventory_copilot.md` and `docs/limits.md`.
The copilot (and with it the engine) is imported inside the handler so that `python -m core.cli` starts fast.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from core import cli_args
from core.errors import OrcaError, SpecError
from core.store import Store

if TYPE_CHECKING:
    from core.inventory.copilot.session import Copilot


def _parse_line(line: str | SpecError) -> dict[str, Any]:
    if isinstance(line, SpecError):
        raise line
    data = cli_args.chat_request(line)
    if "user" in data:
        if not isinstance(data["user"], str) or not data["user"].strip():
            raise SpecError("user", "must be a non-empty string")
        return data
    edit = data.get("edit")
    if isinstance(edit, dict) and isinstance(edit.get("key"), str) and edit.get("value") is not None:
        return data
    raise SpecError("input", 'expected {"user": "..."} or {"edit": {"key": ..., "value": ...}}')


error_object = cli_args.chat_error


def run_chat(copilot: Copilot, stdin: TextIO, stdout: TextIO) -> int:
    """Answer every input line with one JSON line; return the number of lines answered."""
    answered = 0
    for line in cli_args.chat_lines(stdin):
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
            out = cli_args.internal_error(err)
        out["run_id"] = copilot.run_id
        stdout.write(cli_args.chat_line_out(out))
        stdout.flush()
        answered += 1
    return answered


def cmd_chat(args: argparse.Namespace) -> None:
    """Run one conversation over stdin/stdout; it is recorded in the run store (`--db`)."""
    from core.inventory.copilot.session import Copilot, CopilotConfig  # the engine loads torch: import on use

    settings = cli_args.provider_settings(args)
    cli_args.check_store_path(args.db, explicit=getattr(args, "db_explicit", False), create=True)
    store = Store(args.db)
    config = CopilotConfig(
        paths=args.paths,
        use_dqn=args.dqn,
        dqn_steps=args.dqn_steps,
        dqn_seconds=args.dqn_seconds,
        seed=settings.seed,
    )
    if args.resume:
        cli_args.check_resumable(store, args.resume)
        copilot = Copilot.resume(store, args.resume, settings, config)
    else:
        copilot = Copilot(settings, store, config, title="Inventory Copilot (headless chat)")
        copilot.greeting()
        copilot.start_run()
    try:
        run_chat(copilot, sys.stdin, sys.stdout)
    finally:  # the session ends here: free the run (it stays resumable), so it is not "in use" for a delete
        recorder = copilot.recorder
        if recorder.store is not None and recorder.run_id is not None:
            recorder.store.release_lease(recorder.run_id, recorder.owner)
    return None


def add_chat_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add `chat` to the `inventory` command group."""
    p = subparsers.add_parser(
        "chat",
        help="the Inventory Copilot over stdin/stdout JSON lines",
        description='Reads {"user": "..."} per stdin line and answers each with one JSON line '
        '{"assistant", "action", "table", "policy"}.',
    )
    cli_args.add_provider_flags(p)
    p.add_argument("--seed", type=cli_args.seed, help="random seed (default: $ORCA_SEED or 42)")
    p.add_argument(
        "--paths", type=cli_args.paths, default=1000, help="Monte Carlo paths of the policy search"
    )
    p.add_argument(
        "--dqn", action="store_true", help="also train a DQN (slower; also on request in the chat)"
    )
    p.add_argument(
        "--dqn-steps",
        type=cli_args.whole(1, 10_000_000, "a whole number of steps"),
        default=1500,
        help="DQN training budget in vector steps",
    )
    p.add_argument(
        "--dqn-seconds", type=cli_args.seconds, default=30.0, help="DQN training budget in seconds"
    )
    p.add_argument(
        "--resume", metavar="RUN_ID", type=cli_args.identifier, help="continue a stored copilot conversation"
    )
    p.set_defaults(func=cmd_chat)
