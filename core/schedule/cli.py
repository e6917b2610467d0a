"""`python -m core.cli schedule solve|chat`: the start-time MILP and the T-P-P agent, headless.

solve prints one JSON object {status, schedule, objectives, seconds, ...}. chat speaks JSON lines:
the first stdout line is the opening proposal; each stdin line {"user": "..."} gets exactly one line
{assistant, status, schedule, objectives, constraints, tool_calls}; blank stdin lines are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.config import PROVIDERS, Settings
from core.errors import OrcaError, SpecError
from core.schedule.agent import ScheduleAgent
from core.schedule.state import resolve_school, resolve_time
from solvers.schedule.data import District, load_district
from solvers.schedule.diagnose import diagnose_infeasibility
from solvers.schedule.model import DEVIATION, LOAD, ScheduleSpec, ScheduleStatus, solve_schedule


def _district(args: argparse.Namespace) -> District:
    schools = Path(args.district) if args.district else None
    times = Path(args.start_times) if args.start_times else None
    return load_district(schools, times, None if schools is None else f"{schools.stem} school district")


def _pairs(district: District, values: list[str], flag: str) -> tuple[tuple[str, int], ...]:
    out = []
    for value in values:
        if "=" not in value:
            raise SpecError(flag, f'expected SCHOOL=TIME like "Everett MS=9:30 AM", got {value!r}')
        school, time = value.rsplit("=", 1)
        out.append((resolve_school(district, school), resolve_time(district, time)))
    return tuple(dict.fromkeys(out))


def solve_command(args: argparse.Namespace) -> dict[str, Any]:
    """Solve once with the given weights, fixes, forbids and bounds."""
    district = _district(args)
    if args.alpha == 0 and args.beta == 0:
        raise SpecError("--alpha/--beta", "at least one objective weight must be positive (both are 0)")
    spec = ScheduleSpec(
        district,
        alpha=args.alpha,
        beta=args.beta,
        fixed=_pairs(district, args.fix, "--fix"),
        forbidden=_pairs(district, args.forbid, "--forbid"),
        max_load=args.max_load,
        max_deviation=args.max_deviation,
        time_limit=args.time_limit,
        gap=args.gap,
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
    if result.status is ScheduleStatus.INFEASIBLE:
        report = diagnose_infeasibility(replace(spec, time_limit=min(spec.time_limit, 10.0)))
        out["conflicting_constraints"] = list(report.conflicts)
        out["relaxations"] = [
            {
                "constraints": list(r.constraints),
                "description": r.description,
                "objectives": {LOAD: r.load, DEVIATION: r.deviation},
            }
            for r in report.relaxations
        ]
    return out


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, default=str) + "\n")
    sys.stdout.flush()


def chat_command(args: argparse.Namespace) -> None:
    """Opening proposal, then one JSON line per {"user": ...} line on stdin."""
    settings = Settings.from_cli(args.provider, args.model, args.base_url)
    agent = ScheduleAgent.from_settings(settings, _district(args))
    _emit(agent.opening().to_json())
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or not isinstance(request.get("user"), str):
                raise SpecError("user", 'each line must be a JSON object like {"user": "..."}')
            _emit(agent.respond(request["user"]).to_json())
        except json.JSONDecodeError as err:
            _emit({"error": f'not JSON ({err.msg}); send {{"user": "..."}}'})
        except OrcaError as err:
            _emit({"error": str(err)})


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `schedule` group with `solve` and `chat`."""
    group = subparsers.add_parser("schedule", help="school start-time MILP and the T-P-P scheduling agent")
    commands = group.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)

    def data_flags(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--district", help="CSV with columns name, grade, enrollment, current_start (default: SFUSD)"
        )
        parser.add_argument(
            "--start-times", help="CSV with one column start_time (default: 7:50, 8:40, 9:30 AM)"
        )

    solve = commands.add_parser("solve", help="solve the start-time MILP once and print the schedule")
    solve.add_argument(
        "--alpha", type=float, default=1.0, help="weight of student_load_balancing (default 1)"
    )
    solve.add_argument("--beta", type=float, default=1.0, help="weight of schedule_deviation (default 1)")
    solve.add_argument(
        "--fix", action="append", default=[], metavar="SCHOOL=TIME", help='e.g. "Everett MS=9:30 AM"'
    )
    solve.add_argument(
        "--forbid", action="append", default=[], metavar="SCHOOL=TIME", help='e.g. "Galileo HS=7:50 AM"'
    )
    solve.add_argument(
        "--max-load", type=float, help="upper bound on student_load_balancing (hundreds of students)"
    )
    solve.add_argument("--max-deviation", type=float, help="upper bound on schedule_deviation (minutes)")
    solve.add_argument(
        "--time-limit", type=float, default=30.0, help="solver time limit in seconds (default 30)"
    )
    solve.add_argument("--gap", type=float, default=1e-6, help="relative optimality gap (default 1e-6)")
    data_flags(solve)
    solve.set_defaults(func=solve_command)

    chat = commands.add_parser("chat", help="JSON-lines chat with the scheduling agent (stdin -> stdout)")
    chat.add_argument("--provider", choices=PROVIDERS, help="offline (default), anthropic or openai")
    chat.add_argument("--model", help="model name for the LLM provider")
    chat.add_argument("--base-url", help="provider base URL (e.g. a local OpenAI-compatible server)")
    data_flags(chat)
    chat.set_defaults(func=chat_command)

    from core.schedule.lab.cli import register_lab

    register_lab(commands)
