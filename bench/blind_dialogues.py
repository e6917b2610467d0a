"""Dialogue-level accuracy of the offline chats on blind users (issue 27's measure).

Users are written by someone who never saw the code or the phrase banks (`bench/blind/*.toml`, format in
`bench/blind/README.md`). A simulated user plays each one against the real offline agent:

- **Inventory Copilot.** The owner sends the opening message, then answers whatever row the agent asks about:
  the first time with the everyday answer, afterwards with the plainer one. A confirmation ("Is -5 right?")
  that shows the true value gets "yes"; otherwise the plainer answer. The conversation ends when the agent
  computes the policy (TERMINATE) or after 40 user turns (a dead end). A question with lettered options
  ('(A) keep 0.02 or (B) change to 0.9?') is answered with the plainer answer, never 'yes'. Scored: the final table against the
  truth (numbers to 1e-6 relative; distributions by family and parameters), and for each wrong row whether the
  wrong value was *put to the user* in a question before the end (strict: a clarification turn or a sentence
  ending in '?' that shows the value) — a wrong value never put to the user is **silently wrong**. A stricter
  judge (`silently_wrong_strict`, since session 34) also counts a wrong value shown only in a question about
  another row (the fee question's example '$3 per shipment' shows a wrong penalty of 3).
- **School Scheduling.** Each stakeholder's messages go to a fresh agent, one per turn; after each turn the
  schedule is checked against the written effect (`later`, `earlier`, `at`, `not_before`, `not_after`,
  `accept`, `unknown`, `none`, `ask`). Also counted: invented conflicts (a which-time question after a message
  with fewer than two clock times), opposite effects (a school moved the other way; for `at`, moved further
  from the asked time or across it) and unrequested moves (a school moved on a turn whose effect is `accept`,
  `none`, `unknown` or `ask`).

Run: .venv/bin/python bench/blind_dialogues.py inventory bench/blind/inventory_b1.toml [--json OUT]
     .venv/bin/python bench/blind_dialogues.py school bench/blind/school_b1.toml [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.inventory.copilot.dialogue import ASK_CLARIFICATION, TERMINATE  # noqa: E402
from core.inventory.copilot.extraction import ExtractionAgent  # noqa: E402
from core.inventory.table import LABELS  # noqa: E402
from core.schedule.agent import ScheduleAgent  # noqa: E402

ROWS = (
    "time_horizon",
    "demand_distribution",
    "perishability",
    "state_transition_model",
    "holding_cost",
    "penalty_cost",
    "setup_cost",
    "lead_time",
    "max_inventory",
    "max_order",
    "risk_tolerance",
)
MAX_TURNS = 40
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
CONFIRM = re.compile(r"\b(?:right|correct|ok|okay)\?|\bis that\b|\bdid you mean\b|\bshould i\b", re.I)
CHOICE = re.compile(r"\(A\)")
"""A question offering lettered options is no yes/no question: the owner answers it with the value (since
2026-11-27 session 28; before, 'Which should I use: (A) ... or (B) ...?' got 'yes', which no person says)."""


def canonical(value: str | None) -> tuple[str, tuple[float, ...]] | str | None:
    """A table value in a comparable form: (family, numbers) for numbers and distributions, else the text."""
    if value is None:
        return None
    text = str(value).strip().lower().replace(" ", "")
    family = text.split("(", 1)[0] if "(" in text else ""
    numbers = tuple(float(n) for n in NUMBER.findall(text))
    if numbers and (family or NUMBER.fullmatch(text)):
        return family, numbers
    return {"yes": "true", "no": "false", "lost_sales": "lost_sale", "backorder": "backlog"}.get(text, text)


def same(a: str | None, b: str | None) -> bool:
    ca, cb = canonical(a), canonical(b)
    if isinstance(ca, tuple) and isinstance(cb, tuple):
        return (
            ca[0] == cb[0]
            and len(ca[1]) == len(cb[1])
            and all(abs(x - y) <= 1e-6 * max(1.0, abs(y)) for x, y in zip(ca[1], cb[1], strict=True))
        )
    return ca == cb


def numbers_in(text: str) -> set[float]:
    return {float(n) for n in NUMBER.findall(text.replace("−", "-").replace(",", ""))}


@dataclass
class OwnerResult:
    id: str
    exact: bool
    turns: int
    dead_end: bool
    wrong: dict[str, dict[str, str | None]] = field(default_factory=dict)
    silent: list[str] = field(default_factory=list)
    seconds_per_turn: list[float] = field(default_factory=list)
    silent_strict: list[str] = field(default_factory=list)


def asked_row(agent: ExtractionAgent, reply: str) -> str | None:
    """The row the agent's last message asks about: a conflict's first row, the pending row, or a row label
    named in the last question."""
    if agent.table.conflicts:
        return agent.table.conflicts[0].keys[0]
    if agent.state.asked:
        return agent.state.asked
    question = reply.rsplit(".", 1)[-1].lower()
    return next((k for k in ROWS if LABELS[k].lower() in question), None)


def play_owner(owner: dict) -> OwnerResult:
    """One owner against a fresh offline Copilot."""
    truth: dict[str, str] = owner["truth"]
    answers: dict[str, list[str]] = owner["answers"]
    agent = ExtractionAgent()
    agent.greeting()
    told: dict[str, int] = {}
    questions: list[tuple[str, set[float], bool]] = []  # (text, numbers shown, clarification)
    rows_asked: list[set[str]] = []  # the rows each reply's open question is about (the stricter judge)
    times: list[float] = []
    message = owner["opening"]
    turn = None
    for _ in range(MAX_TURNS):
        start = time.perf_counter()
        turn = agent.respond(message)
        times.append(time.perf_counter() - start)
        questions.append((turn.assistant, numbers_in(turn.assistant), turn.action == ASK_CLARIFICATION))
        if turn.action == TERMINATE:
            break
        row = asked_row(agent, turn.assistant)
        row = "demand_distribution" if row == "demand_type" else row
        rows_asked.append(_rows_about(agent, row))
        if row is None or row not in answers:
            message = "I'm not sure what you need; what else?"
            continue
        truth_numbers = numbers_in(str(truth.get(row, "")))
        confirm = CONFIRM.search(turn.assistant) and not CHOICE.search(turn.assistant)
        if confirm and truth_numbers and truth_numbers <= numbers_in(turn.assistant):
            message = "yes"
            continue
        n = told.get(row, 0)
        told[row] = n + 1
        message = answers[row][min(n, len(answers[row]) - 1)]
    assert turn is not None
    final = {k: row["value"] for k, row in turn.table.items()}
    wrong = {k: {"truth": truth[k], "final": final.get(k)} for k in ROWS if not same(final.get(k), truth[k])}
    silent: list[str] = []
    strict: list[str] = []  # wrong values 'put' only by a question about another row (its example numbers)
    for key, pair in wrong.items():
        shown = numbers_in(str(pair["final"] or ""))
        put = any(
            shown
            and shown <= nums
            and (clarify or any("?" in s and shown <= numbers_in(s) for s in re.split(r"(?<=[.?!])\s", text)))
            for text, nums, clarify in questions
        )
        if pair["final"] is not None and not put:
            silent.append(key)
        elif pair["final"] is not None and not _put_about(key, shown, questions, rows_asked):
            strict.append(key)
    return OwnerResult(
        id=owner["id"],
        exact=not wrong and turn.action == TERMINATE,
        turns=len(times),
        dead_end=turn.action != TERMINATE,
        wrong=wrong,
        silent=silent,
        seconds_per_turn=times,
        silent_strict=silent + strict,
    )


def _rows_about(agent: ExtractionAgent, row: str | None) -> set[str]:
    """Every row the agent's open question concerns: its open conflicts' rows and the row it asks."""
    rows = {k for c in agent.table.conflicts for k in c.keys} | ({row} if row else set())
    return {"demand_distribution" if k == "demand_type" else k for k in rows}


def _put_about(key: str, shown: set[float], questions: list, rows_asked: list[set[str]]) -> bool:
    """The stricter judge: the wrong value was shown in a question about its own row (a question about another
    row that happens to show the number, such as the fee question's example '$3 per shipment', does not count)."""
    return any(
        shown and shown <= nums and key in rows
        and (clarify or any("?" in s and shown <= numbers_in(s) for s in re.split(r"(?<=[.?!])\s", text)))
        for (text, nums, clarify), rows in zip(questions, rows_asked, strict=False)
    )


TIME = re.compile(
    r"\b(\d{1,2})(?::|\.)(\d{2})\s*([ap])\.?m\.?|\b(\d{1,2})(?::|\.)(\d{2})\b|\b(\d{1,2})\s*([ap])\.?m\b",
    re.I,
)


def minutes(clock: str) -> int:
    """'8:40 AM' -> 520 (minutes after midnight; times before 7 are read as PM, as school times are)."""
    h, m = clock.split()[0].split(":")
    hour = int(h) % 12 + (12 if clock.strip().upper().endswith("PM") else 0)
    return hour * 60 + int(m)


def clock_count(text: str) -> int:
    return len(TIME.findall(text))


@dataclass
class TurnScore:
    id: str
    say: str
    kind: str
    ok: bool
    invented_conflict: bool
    opposite: bool
    reply: str
    unrequested_move: bool = False


UNKNOWN_WORDS = (
    "don't know",
    "do not know",
    "not in",
    "no school",
    "unknown",
    "couldn't find",
    "could not find",
    "can't find",
    "cannot find",
    "not find",
    "isn't in",
    "is not in",
    "not a school",
    "did you mean",
)


def effect_met(
    effect: dict,
    grades: dict[str, str],
    before: dict[str, str],
    after: dict[str, str],
    reply: str,
    options: tuple[int, ...],
) -> tuple[bool, bool]:
    """(met, opposite) for one written effect; a school already at the latest (earliest) option meets
    `later` (`earlier`) by staying where it is."""
    kind = effect["kind"]
    schools = effect.get("schools") or [s for s, g in grades.items() if g == effect.get("grade")]
    unchanged = before == after
    if kind in ("later", "earlier"):
        sign = 1 if kind == "later" else -1
        extreme = max(options) if kind == "later" else min(options)
        moves = [sign * (minutes(after[s]) - minutes(before[s])) for s in schools]
        stays = [minutes(before[s]) == extreme and minutes(after[s]) == extreme for s in schools]
        return all(m > 0 or st for m, st in zip(moves, stays, strict=True)), any(m < 0 for m in moves)
    if kind == "at":
        target = minutes(effect["time"])
        away = any(
            abs(minutes(after[s]) - target) > abs(minutes(before[s]) - target)
            or (minutes(after[s]) - target) * (minutes(before[s]) - target) < 0
            for s in schools
        )
        return all(minutes(after[s]) == target for s in schools), away
    if kind in ("not_before", "not_after"):
        limit = minutes(effect["time"])
        ok = all(
            (minutes(after[s]) >= limit) if kind == "not_before" else (minutes(after[s]) <= limit)
            for s in schools
        )
        worse = any(
            (minutes(after[s]) < minutes(before[s]))
            if kind == "not_before"
            else (minutes(after[s]) > minutes(before[s]))
            for s in schools
        )
        return ok, worse and not ok
    if kind == "accept":
        return unchanged and "?" not in reply, False
    if kind == "unknown":
        low = reply.lower()
        return unchanged and any(w in low for w in UNKNOWN_WORDS), False
    if kind == "none":
        return unchanged, False
    if kind == "ask":
        return unchanged and "?" in reply, False
    raise ValueError(f"unknown effect kind {kind!r}")


STILL = ("accept", "none", "unknown", "ask")
"""Effects under which no school may move: a move there is counted as an unrequested move (since 2026-11-28
session 31; e.g. a 'Thanks!' taken as yes to the agent's own question)."""


def play_stakeholder(person: dict) -> list[TurnScore]:
    agent = ScheduleAgent()
    opening = agent.opening()
    grades = {s.name: s.grade for s in agent.session.district.schools}
    before = dict(opening.schedule)
    scores = []
    for turn in person["turn"]:
        result = agent.respond(turn["say"])
        after = dict(result.schedule) or before
        options = tuple(agent.session.district.start_times)
        ok, opposite = effect_met(turn["effect"], grades, before, after, result.text, options)
        low = result.text.lower()
        invented = (
            clock_count(turn["say"]) < 2 and "which" in low and "?" in low and clock_count(result.text) >= 2
        )
        still = turn["effect"]["kind"] in STILL
        scores.append(
            TurnScore(
                person["id"],
                turn["say"],
                turn["effect"]["kind"],
                ok,
                invented,
                opposite,
                result.text,
                unrequested_move=still and after != before,
            )
        )
        before = after
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("chat", choices=("inventory", "school"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    data = tomllib.loads(args.file.read_text())
    if args.chat == "inventory":
        results = [play_owner(o) for o in data["owner"]]
        for r in results:
            mark = "OK " if r.exact else ("DEAD" if r.dead_end else "BAD")
            print(f"{mark} {r.id} turns={r.turns} wrong={list(r.wrong)} silent={r.silent}")
        times = sorted(t for r in results for t in r.seconds_per_turn)
        summary = {
            "file": str(args.file),
            "owners": len(results),
            "exact": sum(r.exact for r in results),
            "dead_ends": sum(r.dead_end for r in results),
            "wrong_values": sum(len(r.wrong) for r in results),
            "silently_wrong_values": sum(len(r.silent) for r in results),
            "owners_with_silent": sum(bool(r.silent) for r in results),
            "silently_wrong_strict": sum(len(r.silent_strict) for r in results),
            "turn_p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1),
            "turn_median_ms": round(1000 * statistics.median(times), 1),
        }
        detail = [asdict(r) | {"seconds_per_turn": None} for r in results]
    else:
        scores = [s for p in data["stakeholder"] for s in play_stakeholder(p)]
        for s in scores:
            print(
                f"{'OK ' if s.ok else 'BAD'} {s.id} [{s.kind}] {s.say!r}"
                + (" INVENTED" if s.invented_conflict else "")
                + (" OPPOSITE" if s.opposite else "")
                + (" UNREQUESTED" if s.unrequested_move else "")
            )
            if not s.ok:
                print("     ->", s.reply[:300].replace("\n", " "))
        firsts = [s for s in scores if s.kind not in ("accept", "none")]
        summary = {
            "file": str(args.file),
            "turns": len(scores),
            "met": sum(s.ok for s in scores),
            "requests": len(firsts),
            "requests_met": sum(s.ok for s in firsts),
            "invented_conflicts": sum(s.invented_conflict for s in scores),
            "opposite_effects": sum(s.opposite for s in scores),
            "unrequested_moves": sum(s.unrequested_move for s in scores),
        }
        detail = [asdict(s) for s in scores]
    print(json.dumps(summary))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "detail": detail}, indent=1))


if __name__ == "__main__":
    main()
