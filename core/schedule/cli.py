"""`python -m core.cli schedule solve|chat`: the start-time MILP and the T-P-P agent, headless.

solve prints one JSON object {status, schedule, objectives, seconds, ...}. chat speaks JSON lines:
the first stdout line is the opening proposal; each stdin line {"user": "..."} gets exactly one line
{assistant, status, schedule, objectives, constraints, tool_calls}; blank stdin lines are skipped; a bad line
gets {"error", "field"}. Every line carries the `run_id` of the recorded conversation (`--resume RUN_ID`
continues it; its first line is then {"run_id", "resumed": true, "problems"}). Lines are checked at the
boundary by `core.cli_args` (length, JSON, Unicode); see docs/limits.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from core import cli_args
from core.config import Settings
from core.errors import OrcaError, SpecError
from core.schedule.recording import RecordedChat
from core.schedule.state import resolve_school, resolve_time
from core.store import Store
from solvers.schedule.data import District, format_time, load_district, parse_start_times
from solvers.schedule.diagnose import diagnose_infeasibility
from solvers.schedule.model import (
    DEVIATION,
    LOAD,
    ScheduleSpec,
    ScheduleStatus,
    TimeLimitReached,
    solve_schedule,
)

MAX_PAIR_CHARS = 500  # one --fix/--forbid value, SCHOOL=TIME
school_time = cli_args.free_text(MAX_PAIR_CHARS, "SCHOOL=TIME")


def _district(args: argparse.Namespace) -> District:
    schools = Path(args.district) if args.district else None
    times = Path(args.start_times) if args.start_times else None
    return load_district(schools, times, None if schools is None else f"{schools.stem} school district")


def _pairs(district: District, values: list[str], flag: str) -> tuple[tuple[str, int], ...]:
    out = []
    for value in values:
        if "=" not in value:
            raise SpecError(flag, f'expected SCHOOL=TIME like "Everett MS=9:30 AM", got {value!r}')
        school, when = value.rsplit("=", 1)
        out.append((resolve_school(district, school), resolve_time(district, when)))
    return tuple(dict.fromkeys(out))


def _check_fixes(fixed: tuple[tuple[str, int], ...], forbidden: tuple[tuple[str, int], ...]) -> None:
    """Refuse requests that contradict themselves (instead of diagnosing them as if they were normal)."""
    times: dict[str, int] = {}
    for school, minutes in fixed:
        if school in times:
            raise SpecError(
                "--fix",
                f"{school} is fixed at both {format_time(times[school])} and {format_time(minutes)}; "
                "a school has one start time",
            )
        times[school] = minutes
    for pair in forbidden:
        if pair in fixed:
            raise SpecError(
                "--forbid", f"{pair[0]} is both fixed at and forbidden from {format_time(pair[1])}; drop one"
            )


def solve_command(args: argparse.Namespace) -> dict[str, Any]:
    """Solve once with the given weights, fixes, forbids and bounds."""
    deadline = time.monotonic() + args.time_limit
    district = _district(args)
    if args.alpha == 0 and args.beta == 0:
        raise SpecError("--alpha/--beta", "at least one objective weight must be positive (both are 0)")
    fixed, forbidden = _pairs(district, args.fix, "--fix"), _pairs(district, args.forbid, "--forbid")
    _check_fixes(fixed, forbidden)
    spec = ScheduleSpec(
        district,
        alpha=args.alpha,
        beta=args.beta,
        fixed=fixed,
        forbidden=forbidden,
        max_load=args.max_load,
        max_deviation=args.max_deviation,
        time_limit=args.time_limit,
        gap=args.gap,
        deadline=deadline,
    )
    result = solve_schedule(spec)
    out: dict[str, Any] = {
        "status": result.status.value,
        "schedule": result.schedule,
        "objectives": {LOAD: result.load, DEVIATION: result.deviation},
        "seconds": round(result.seconds, 4),
        "gap": result.gap,
        "constraints": list(spec.added_constraints()),
    }
    if result.status is ScheduleStatus.NOT_SOLVED:
        out["reason"] = (
            f"the solver stopped without a schedule within the time limit ({args.time_limit:g} s); "
            "allow more time (--time-limit) or loosen the bounds"
        )
    if result.status is ScheduleStatus.INFEASIBLE:
        try:
            report = diagnose_infeasibility(replace(spec, time_limit=min(spec.time_limit, 10.0)))
        except TimeLimitReached:
            out["reason"] = (
                f"the constraints conflict; the time limit ({args.time_limit:g} s) ran out before the "
                "conflicting ones were isolated: allow more time (--time-limit) to see them"
            )
            return out
        out["conflicting_constraints"] = list(report.conflicts)
        out["relaxations"] = [
            {
                "constraints": list(r.constraints),
                "description": r.description,
                "objectives": {LOAD: r.load, DEVIATION: r.deviation},
            }
            for r in report.relaxations
        ]
        first = f"; for example: {report.relaxations[0].description}" if report.relaxations else ""
        out["reason"] = (
            f"no schedule meets every constraint: {', '.join(report.conflicts) or 'the district as given'} "
            f"conflict{first}"
        )
    return out


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(cli_args.chat_line_out(payload))
    sys.stdout.flush()


def _start_chat(args: argparse.Namespace, store: Store, settings: Settings) -> tuple[RecordedChat, dict]:
    """A new recorded chat (its run created now, with the opening proposal) or a resumed one; first line."""
    if args.resume:
        cli_args.check_resumable(store, args.resume)
        chat = RecordedChat.resume(store, settings, args.resume)
        return chat, {"run_id": chat.run_id, "resumed": True, "problems": chat.problems}
    district_csv = Path(args.district).read_bytes() if args.district else None
    times = parse_start_times(Path(args.start_times)) if args.start_times else ()
    chat = RecordedChat.start(
        store,
        settings,
        district_csv,
        ", ".join(format_time(t) for t in times),
        Path(args.district).name if args.district else "",
    )
    opening = chat.pending.pop()
    chat.record(opening)
    return chat, opening.to_json()


def chat_command(args: argparse.Namespace) -> None:
    """Opening proposal, then one JSON line per {"user": ...} line on stdin; recorded in the run store."""
    settings = cli_args.provider_settings(args)
    cli_args.check_store_path(args.db, explicit=getattr(args, "db_explicit", False), create=True)
    chat, first = _start_chat(args, Store(args.db), settings)
    _emit(first | {"run_id": chat.run_id})
    try:
        _answer_lines(chat)
    finally:  # the session ends here: free the run (it stays resumable), so it is not "in use" for a delete
        if chat.store is not None and chat.run_id is not None:
            chat.store.release_lease(chat.run_id, chat.recorder.owner)


def _answer_lines(chat: RecordedChat) -> None:
    for line in cli_args.chat_lines(sys.stdin):
        try:
            if isinstance(line, SpecError):
                raise line
            text = cli_args.chat_request(line).get("user")
            if not isinstance(text, str) or not text.strip():
                raise SpecError("user", 'must be a non-empty string: send {"user": "..."}')
            out = chat.say(text).to_json()
        except OrcaError as err:
            out = cli_args.chat_error(err)
        except Exception as err:  # a bug must not end the session: report it, keep answering
            out = cli_args.internal_error(err)
        _emit(out | {"run_id": chat.run_id})


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `schedule` group with `solve` and `chat`."""
    commands = cli_args.command_group(
        subparsers, "schedule", "school start-time MILP and the T-P-P scheduling agent"
    )

    def data_flags(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--district",
            type=cli_args.input_file,
            help="CSV with columns name, grade, enrollment, current_start (default: SFUSD)",
        )
        parser.add_argument(
            "--start-times",
            type=cli_args.input_file,
            help="CSV with one column start_time (default: 7:50, 8:40, 9:30 AM)",
        )

    solve = commands.add_parser("solve", help="solve the start-time MILP once and print the schedule")
    solve.add_argument(
        "--alpha", type=cli_args.weight, default=1.0, help="weight of student_load_balancing (default 1)"
    )
    solve.add_argument(
        "--beta", type=cli_args.weight, default=1.0, help="weight of schedule_deviation (default 1)"
    )
    for flag, example in (("--fix", "Everett MS=9:30 AM"), ("--forbid", "Galileo HS=7:50 AM")):
        solve.add_argument(
            flag,
            action="append",
            default=[],
            type=school_time,
            metavar="SCHOOL=TIME",
            help=f'e.g. "{example}"',
        )
    solve.add_argument(
        "--max-load", type=cli_args.bound, help="upper bound on student_load_balancing (hundreds of students)"
    )
    solve.add_argument(
        "--max-deviation", type=cli_args.bound, help="upper bound on schedule_deviation (minutes)"
    )
    solve.add_argument(
        "--time-limit", type=cli_args.seconds, default=30.0, help="solver time limit in seconds (default 30)"
    )
    solve.add_argument(
        "--gap", type=cli_args.number(0.0, 0.99), default=1e-6, help="relative optimality gap (default 1e-6)"
    )
    data_flags(solve)
    solve.set_defaults(func=solve_command)

    chat = commands.add_parser("chat", help="JSON-lines chat with the scheduling agent (stdin -> stdout)")
    cli_args.add_provider_flags(chat)
    chat.add_argument(
        "--resume",
        metavar="RUN_ID",
        type=cli_args.identifier,
        help="continue a stored scheduling conversation",
    )
    data_flags(chat)
    chat.set_defaults(func=chat_command)

    from core.schedule.lab.cli import register_lab

    register_lab(commands)
