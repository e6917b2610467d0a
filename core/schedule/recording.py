"""A scheduling chat bound to its run in the store: start one, record every turn, resume a stored one.

The page keeps a `RecordedChat` in its session and only renders; tests drive it without Streamlit.
A run's config holds the public settings and the district record (an uploaded CSV and start
options), so a resumed chat replays its tool calls on the same data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from core.config import Settings
from core.errors import SpecError
from core.recorder import TRUSTING, Lease, Recorder, RunStatus
from core.schedule.agent import ScheduleAgent, TurnResult, district_from_record, district_record
from core.schedule.opening import OpeningJob, opening_for, seed_opening
from core.schedule.session import ScheduleSession
from core.store import Store
from solvers.schedule.data import District, format_time, load_district
from solvers.schedule.model import DEVIATION, LOAD

WORKBENCH = "school_scheduling"


def start_time_options(text: str) -> list[str] | None:
    """Comma-separated start options as typed ('7:30, 8:15 AM'); None when empty (the default options)."""
    return [t.strip() for t in text.split(",") if t.strip()] or None


def adopt_calls(point: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Tool calls that make a frontier point the next proposal: bound both objectives at its values, solve."""
    return [
        ("add_objective_upper_bound", {"objective": LOAD, "value": point[LOAD]}),
        ("add_objective_upper_bound", {"objective": DEVIATION, "value": point[DEVIATION]}),
        ("call_solver", {}),
    ]


def preview_district(district_csv: bytes, start_times: str = "", filename: str = "") -> pd.DataFrame:
    """The schools of an uploaded district as the page previews them before a conversation starts (the same
    checks as `RecordedChat.start`: errors name the file, line and column)."""
    name = f"{filename.rsplit('.', 1)[0]} school district" if filename else None
    district = load_district(district_csv, start_time_options(start_times), name, file_name=filename or None)
    return district_table(district)


def district_table(district: District) -> pd.DataFrame:
    """The district's schools with today's start times (what the page shows before the first proposal)."""
    return pd.DataFrame(
        {
            "school": [s.name for s in district.schools],
            "grade": [s.grade for s in district.schools],
            "students": [s.enrollment for s in district.schools],
            "current start": [format_time(s.current_start) for s in district.schools],
        }
    ).assign(**{"start-time options": ", ".join(format_time(t) for t in district.start_times)})


@dataclass(frozen=True)
class DistrictChoice:
    """The district a new chat opens on: an uploaded CSV (None: the shipped district) and typed start options,
    as the page's "Start a conversation with this district" / "New conversation" button hands them over."""

    csv: bytes | None = None
    start_times: str = ""
    filename: str = ""

    @property
    def name(self) -> str | None:
        """The uploaded district's name (from its file name)."""
        return f"{self.filename.rsplit('.', 1)[0]} school district" if self.csv is not None and self.filename else None

    def record(self) -> dict[str, Any] | None:
        """The checked district record a run stores (errors name the file, line and column); None: the shipped
        district with its own start times."""
        times = start_time_options(self.start_times)
        if self.csv is not None or times:
            load_district(self.csv, times, self.name, file_name=self.filename or None)
        return district_record(self.csv, times, self.name)

    def opening(self) -> OpeningJob:
        """The process-wide opening job (solve, then frontier) of this district with a new chat's settings,
        started on first request: the page polls it as it polls the default district's."""
        return opening_for(ScheduleSession(district_from_record(self.record())))


@dataclass
class RecordedChat:
    """One scheduling conversation and the run it is written to; `problems` are replay warnings.

    A new chat creates its run on the first user action (idle page visits leave no empty runs) and then
    records the opening proposal with it. Without a store (an unusable store path) nothing is recorded.
    """

    agent: ScheduleAgent
    recorder: Recorder
    problems: list[str] = field(default_factory=list)
    pending: list[TurnResult] = field(default_factory=list)

    @property
    def store(self) -> Store | None:
        return self.recorder.store

    @property
    def run_id(self) -> str | None:
        """The stored run (None until the first user action, or without a store)."""
        return self.recorder.run_id

    @classmethod
    def start(
        cls,
        store: Store | None,
        settings: Settings,
        district_csv: bytes | None = None,
        start_times: str = "",
        filename: str = "",
        *,
        lease_owner: str | None = None,
    ) -> RecordedChat:
        """A new chat: the district is checked first (errors name the file, line and column), then solved."""
        record = DistrictChoice(district_csv, start_times, filename).record()
        agent = ScheduleAgent.from_settings(settings, district_from_record(record))
        seed_opening(agent.session)  # solved once per district and settings for the whole process
        opening = agent.opening()
        config = {
            "settings": settings.public_dict(),
            "schools": len(agent.session.district.schools),
            "district": record,
        }
        recorder = Recorder(
            store,
            WORKBENCH,
            config=config,
            seed=settings.seed,
            title="School scheduling chat",
            status=RunStatus.ACTIVE,
            owner=lease_owner,
        )
        return cls(agent, recorder, pending=[opening])

    @classmethod
    def resume(
        cls,
        store: Store,
        settings: Settings,
        run_id: str,
        *,
        lease: Lease = TRUSTING,
    ) -> RecordedChat:
        """Rebuild a stored conversation by replaying its tool calls on its district; new turns append to it.
        While another live writer holds the run (`lease.is_live`), the chat is read-only (`recorder.read_only`)."""
        run = store.get_run(run_id)
        if run.get("workbench") != WORKBENCH:
            raise SpecError("resume", f"run {run_id} is not a School Scheduling conversation")
        config = run.get("config") or {}
        if config.get("lab"):
            raise SpecError(
                "resume",
                f"run {run_id} is a School Scheduling Lab conversation: open it on the lab's page "
                f"(/school_scheduling_lab?run={run_id})",
            )
        agent = ScheduleAgent.from_settings(settings, district_from_record(config.get("district")))
        seed_opening(agent.session)
        problems = agent.replay(store.messages(run_id).to_dict("records"))
        return cls(agent, Recorder.attach(store, run_id, lease), problems)

    def say(self, text: str) -> TurnResult:
        """One user message through the agent, recorded."""
        return self.record(self.agent.respond(text))

    def remove(self, name: str) -> TurnResult:
        """The panel's Remove button: drop one constraint and re-solve, recorded as a turn."""
        calls = [("remove_constraint", {"name": name}), ("call_solver", {})]
        return self.record(self.agent.act(f"(removed {name} in the panel)", calls))

    def adopt(self, point: dict[str, Any]) -> TurnResult:
        """Adopt a frontier point (a row of `session.frontier()`), recorded as a turn."""
        return self.record(self.agent.act("(adopted a frontier alternative)", adopt_calls(point)))

    def record(self, turn: TurnResult) -> TurnResult:
        """Write a turn's messages and steps to the run (created now if needed) and set its metrics."""
        if self.store is None:
            return turn
        with self.recorder.batch():  # written in one short transaction when the block ends
            for done in [*self.pending, turn]:
                self.recorder.messages(done.messages)
                for step in done.steps:
                    self.recorder.step(step)
            self.recorder.update(status=RunStatus.ACTIVE, metrics=turn.objectives)
        self.pending.clear()
        return turn
