"""The LP Repair Lab's view model: a step-by-step repair session with its trace, and benchmark tables.

`RepairSession` drives `LPRepairEnv` one agent action at a time (the page's "Step" button) or to the end
through the one stepper, `core.rollout.Episode` (so Run history and replay see exactly a rollout's rows), and
keeps a view trace: per step the action, the agent's note, status, objective, IIS and the oracle report.
Figures live in `core.repair.charts`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from core.agent import Agent
from core.config import Settings
from core.errors import OrcaError, SpecError
from core.recorder import TRUSTING, Lease, Recorder
from core.repair.evaluate import make_offline_agent, run_real
from core.repair.student import STUDENT, StudentAgent
from core.rollout import Episode, stored_actions, to_json
from core.store import Store
from solvers.lp.dataset import Problem
from solvers.lp.diff import diff_models
from solvers.lp.env import LPRepairEnv, Track
from solvers.lp.errortypes import TITLES
from solvers.lp.model import LPModel
from solvers.lp.oracle import Check
from solvers.lp.oracle import strict_refusal as strict_reason
from solvers.lp.real import REAL_MODELS, RealRepairEnv

WORKBENCH = "lp_repair"
AGENT_LABELS = {
    "offline": "Statement-diff reference (upper bound of what the statement alone reveals)",
    "diagnostician": "Diagnostician (offline: IIS, Farkas ray, names, stated numbers)",
    "greedy": "Greedy: drop the first IIS row (offline floor)",
    "do-nothing": "Do nothing (offline reference)",
    "ground-truth": "Ground-truth replay (privileged reference)",
    "llm": "LLM agent (provider from Settings)",
    STUDENT: "Student: you choose each action (same actions, observation and judges as the agents)",
}


@dataclass
class TraceStep:
    t: int
    action: dict[str, Any] | None
    note: str
    status: str
    objective: float | None
    iis: list[str]
    error: str | None
    reward: float
    oracle: dict | None
    phase: str
    loops: int
    observation: str = field(repr=False, default="")


def is_student_run(store: Store, run_id: str) -> bool:
    """Is `run_id` a stored student's LP repair (one `RepairSession.resume` reopens)? False for unknown ids."""
    try:
        run = store.get_run(run_id)
    except OrcaError:
        return False
    return run.get("workbench") == WORKBENCH and (run.get("config") or {}).get("agent") == STUDENT


def problem_rows(problems: list[Problem]) -> pd.DataFrame:
    """One row per problem for the chooser (id, split, error type, title, size)."""
    return pd.DataFrame(
        [
            {
                "id": p.id,
                "split": p.split,
                "error_type": p.error_type.value,
                "title": TITLES[p.error_type],
                "size": p.size,
                "iis_size": len(p.iis0),
            }
            for p in problems
        ]
    )


class RepairSession:
    """One episode of one agent on one problem, advanced step by step."""

    def __init__(
        self,
        problem: Problem,
        agent_key: str,
        *,
        protected: bool = True,
        extended: bool = False,
        fmt: str = "think",
        settings: Settings | None = None,
        store: Store | None = None,
        seed: int = 0,
        track: Track = Track.STANDARD,
        lease_owner: str | None = None,
    ) -> None:
        if agent_key not in AGENT_LABELS:
            raise SpecError("agent", f"unknown agent {agent_key!r}")
        self.problem = problem
        self.agent_key = agent_key
        self.env = LPRepairEnv([problem], protected=protected, extended=extended, track=track)
        self.agent: Agent = self._make_agent(agent_key, fmt, settings, protected, extended)
        self.seed = seed
        config = {
            "problem": problem.id,
            "agent": self.agent.name,
            "error_type": problem.error_type.value,
            "size": problem.size,
            "protected_rows": protected,
            "extended_actions": extended,
            "track": Track(track).value,
        }
        self.recorder = Recorder(
            store, WORKBENCH, config=config, seed=seed, title=f"{problem.id} · {self.agent.name}", owner=lease_owner
        )
        self.episode = Episode(
            self.env, self.agent, seed=seed, recorder=self.recorder, options={"problem": problem.id}
        )
        self.first_observation, info = self.episode.reset()
        """The opening observation in full (statement on the standard track, IIS, the model's LP text)."""
        self.original: LPModel = problem.build()
        self.trace: list[TraceStep] = [self._trace_step(None, "", info, 0.0)]
        self.metrics: dict[str, Any] = {}
        self.replay_of: str | None = None
        """The stored agent run this session replays read-only (`resume` of an agent's run), else None."""
        self.replayed_agent = ""
        if store is not None:
            self.recorder.artifact("problem.json", json.dumps(problem.to_dict()).encode())

    @property
    def observation(self) -> Any:
        return self.episode.observation

    @property
    def total(self) -> float:
        return self.episode.total_reward

    @property
    def done(self) -> bool:
        return self.episode.result is not None

    def _make_agent(
        self, key: str, fmt: str, settings: Settings | None, protected: bool, extended: bool
    ) -> Agent:
        if key == STUDENT:
            return StudentAgent()
        if key == "llm":
            from core.repair.llm_agent import make_llm_agent

            return make_llm_agent(settings or Settings(), fmt=fmt, extended=extended)
        return make_offline_agent(key, self.problem, protected=protected, extended=extended)

    def _trace_step(self, action: Any, note: str, info: dict, reward: float) -> TraceStep:
        return TraceStep(
            t=int(info["step"]),
            action=action,
            note=note,
            status=info["status"],
            objective=info["objective"],
            iis=list(info["iis"]),
            error=info.get("error"),
            reward=reward,
            oracle=info.get("oracle"),
            phase=info["phase"],
            loops=info["loops"],
            observation=self.env.compact_observation(self.observation)["text"],
        )

    def step(self) -> TraceStep:
        """Ask the agent for one action and apply it (one `Episode.step`: recorded like a rollout's step).

        When the environment ends the episode the run is finished with the agent's name in its metrics."""
        if self.done:
            raise SpecError("session", "the episode has ended; start a new one")
        if self.replay_of is not None:
            raise SpecError("session", f"this is a read-only replay of run {self.replay_of}; start a new episode")
        row = self.episode.step()
        entry = self._trace_step(row.action, row.note or "", self.episode.info, row.reward)
        self.trace.append(entry)
        if self.episode.ended is not None:
            self.metrics = self.episode.finish(extra_metrics={"agent": self.agent.name}).metrics
        return entry

    @property
    def run_id(self) -> str | None:
        return self.recorder.run_id

    def play(self, action: dict[str, Any]) -> TraceStep:
        """A student's action, as `core.repair.student.student_action` reads the form (a malformed field is a
        `SpecError` there and costs nothing), played as one step.

        What the environment refuses (unknown target, protected row) costs a step, as it does for any agent. Each
        step is stored at once (a reload loses nothing)."""
        if not isinstance(self.agent, StudentAgent) or self.replay_of is not None:
            raise SpecError("agent", "only a student episode takes typed actions; choose the Student agent")
        if self.done:
            raise SpecError("session", "the episode has ended; start a new one")
        if self.recorder.read_only:
            raise SpecError("session", "this episode is open in another tab; play it there, or reload")
        self.agent.give(action)
        entry = self.step()
        if self.recorder.store is not None:
            self.recorder.flush()
        return entry

    @classmethod
    def resume(cls, store: Store, run_id: str, *, lease: Lease = TRUSTING) -> RepairSession:
        """Rebuild the stored episode `run_id` (after a reload, or from a shared link): its stored actions are
        replayed on a fresh environment with the stored problem and seed. A student's open episode then goes on
        recording into the same run; an agent's episode is a read-only replay (`replay_of`, nothing recorded)."""
        run = store.get_run(run_id)
        config = run.get("config") or {}
        if run.get("workbench") != WORKBENCH or not config.get("agent"):
            raise SpecError("run", f"run {run_id} is not an LP repair episode")
        problem = Problem.from_dict(json.loads(store.get_artifact(run_id, "problem.json").decode()))
        session = cls(
            problem,
            STUDENT,
            protected=bool(config.get("protected_rows", True)),
            extended=bool(config.get("extended_actions", False)),
            seed=int(run.get("seed") or 0),
            track=Track(config.get("track", Track.STANDARD.value)),
        )
        for action in stored_actions(store, run_id):
            row = session.episode.step(action)
            session.trace.append(session._trace_step(row.action, STUDENT, session.episode.info, row.reward))
        agent = str(config["agent"])
        if session.episode.ended is not None:
            session.metrics = session.episode.finish(extra_metrics={"agent": agent}).metrics
        if agent != STUDENT:
            session.replay_of, session.replayed_agent = run_id, agent
            return session
        session.recorder = Recorder.attach(store, run_id, lease)
        session.episode.recorder = session.recorder
        return session

    def run(self, max_steps: int = 40) -> None:
        """Step until the episode ends."""
        for _ in range(max_steps):
            if self.done:
                return
            self.step()

    # --- views ---

    def trace_frame(self) -> pd.DataFrame:
        rows = []
        for s in self.trace:
            label = "(start)" if s.action is None else _signature(s.action)
            rows.append(
                {
                    "step": s.t,
                    "action": label,
                    "result": "error: " + s.error if s.error else "ok",
                    "status": s.status,
                    "objective": s.objective,
                    "IIS rows": len(s.iis),
                    "phase": s.phase,
                    "reward": s.reward,
                    "note": s.note,
                }
            )
        return pd.DataFrame(rows)

    def oracle_frame(self, k: int | None = None) -> pd.DataFrame:
        """The Phase II card of step k (default: the last step with a verdict)."""
        steps = self.trace if k is None else self.trace[: k + 1]
        report = next((s.oracle for s in reversed(steps) if s.oracle), None)
        if report is None:
            return pd.DataFrame()
        etype = self.problem.error_type.value
        return pd.DataFrame(
            [
                {
                    "check": c["label"],
                    "applicable": c["applicable"],
                    "value": c["value"],
                    "threshold": c["threshold"],
                    "result": ("pass" if c["passed"] else "FAIL") if c["applicable"] else "not applied",
                    "detail": c["message"] if c["applicable"] else not_applied_reason(c["check"], etype),
                }
                for c in report["checks"]
            ]
        )

    def iis_step(self, k: int) -> int | None:
        """Step k if it has an IIS, else the last step before it with one (the state a repair started from)."""
        return next((j for j in range(k, -1, -1) if self.trace[j].iis), None)

    def before_after(self) -> pd.DataFrame:
        """Start against now: status, objective, IIS size, and each rationality check's result now."""
        first, last = self.trace[0], self.trace[-1]
        rows = [
            {"what": "status", "before": first.status, "after": last.status},
            {"what": "objective", "before": _shown(first.objective), "after": _shown(last.objective)},
            {"what": "IIS rows", "before": str(len(first.iis)), "after": str(len(last.iis))},
        ]
        changed = self.diff()
        rows.append({"what": "changes to the model", "before": "", "after": _diff_words(changed)})
        card = self.oracle_frame()
        for _i, c in card.iterrows() if not card.empty else iter(()):
            rows.append({"what": f"check: {c['check']}", "before": "", "after": c["result"]})
        return pd.DataFrame(rows)

    def verdicts(self) -> list[Verdict]:
        """The finished episode under both judges and against the ground truth (empty while running)."""
        return verdicts(self.metrics) if self.done and self.metrics else []

    def strict_refusal(self) -> str | None:
        """One sentence on why the strict judge refuses a plan the paper's checks accept (else None)."""
        m = self.metrics
        if not (self.done and m.get("rational") and not m.get("rational_strict")):
            return None
        detail = strict_reason(self.env.current_model(), self.problem.supply_chain, self.problem.limits)
        return f"The strict judge refuses this plan: {detail or 'the plan has no solved values'}."

    def diff(self) -> dict:
        return diff_models(self.original, self.env.current_model()).to_dict()

    def trace_json(self) -> str:
        data = {
            "problem": self.problem.id,
            "agent": self.agent.name,
            "switches": self.env.switches(),
            "metrics": self.metrics,
            "steps": [{k: v for k, v in s.__dict__.items()} for s in self.trace],
        }
        return json.dumps(to_json(data), indent=1)

    def repaired_model_text(self) -> str:
        return self.env.current_model().to_text("lp")


# One plain sentence per check on why Table 8 leaves it out ({etype} is the problem's error type).
NOT_APPLIED: dict[Check, str] = {
    Check.BASE_STOCK: "Table 8 does not use the base-stock check for {etype}: this error leaves the "
    "stock-holding structure alone, so uneven stock says nothing about the repair.",
    Check.BULLWHIP: "Table 8 uses the bullwhip check for no error type (demand is known, so orders have no "
    "forecast noise to amplify); it is shown for information only.",
    Check.INVENTORY_ALLOCATION: "Table 8 does not use the allocation check for {etype}: this error does not "
    "move stock between echelons.",
    Check.COST_CONSISTENCY: "Table 8 does not use the cost check for {etype}: this error does not touch the "
    "holding or backorder costs.",
    Check.ORDER_SMOOTHING: "Table 8 uses the order-smoothing check only for ME-6 (bullwhip amplification), "
    "the one error that makes orders jump.",
}


def not_applied_reason(check: str, etype: str) -> str:
    """Why the check `check` (a `Check` value) is not applied to error type `etype`, in one sentence."""
    return NOT_APPLIED[Check(check)].format(etype=etype)


@dataclass(frozen=True)
class Verdict:
    """One judgement of a finished episode: its label, whether it holds, and what it means."""

    label: str
    passed: bool
    meaning: str


RELAX_LABEL = "Analyse only the LP relaxation if the model is a MIP"  # the upload view's checkbox


def mip_hint(mip: dict | None) -> str | None:
    """For a MIP analysed with its integrality: how to analyse its LP relaxation instead (the checkbox's label)."""
    if not mip:
        return None
    return (
        f"This model is a MIP ({mip['integer_columns']} integer columns), analysed with its integrality. To "
        f"analyse and repair its LP relaxation instead, tick \u201c{RELAX_LABEL}\u201d above the upload (on "
        "the command line: `repair solve --file F --relax-integrality`)."
    )


VERDICT_LABELS = (
    "rational (paper checks)",
    "rational (strict: echelons linked and the plan replays)",
    "exact repair",
)


def verdicts(metrics: dict[str, Any]) -> list[Verdict]:
    """Paper verdict, strict verdict and exact repair of an episode's metrics, in that order."""
    paper, strict, exact = VERDICT_LABELS
    return [
        Verdict(paper, bool(metrics.get("rational")), "OPTIMAL and every check Table 8 applies passes"),
        Verdict(
            strict,
            bool(metrics.get("rational_strict")),
            "the paper's checks, each echelon's demand equals the orders of the echelon below, and the plan's "
            "orders replayed through the stated chain give the LP's stock, backorders and cost",
        ),
        Verdict(exact, bool(metrics.get("exact_repair")), "the final model equals the ground-truth repair"),
    ]


def judge_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per agent: runs, RR, RRR under each judge and the exact-repair rate (shares 0-1), side by side."""
    paper, strict, exact = VERDICT_LABELS
    grouped = frame.groupby("agent", as_index=False).agg(
        runs=("recovered", "size"),
        RR=("recovered", "mean"),
        rrr_paper=("rational", "mean"),
        rrr_strict=("rational_strict", "mean"),
        exact=("exact_repair", "mean"),
    )
    return grouped.rename(
        columns={"rrr_paper": f"RRR {paper}", "rrr_strict": f"RRR {strict}", "exact": exact}
    ).round(4)


def _signature(action: dict) -> str:
    args = action.get("arguments") or {}
    parts = [str(v) for k, v in args.items() if v is not None and k != "error"]
    if action.get("name") == "PARSE_ERROR":
        return "PARSE_ERROR"
    return f"{action.get('name')}({', '.join(parts)})"


def benchmark_frame(store: Store) -> pd.DataFrame:
    """Finished LP Repair runs from the store: one row per run with agent, error type, steps, RR/RRR flags."""
    runs = store.list_runs(workbench=WORKBENCH, limit=5000)
    rows = []
    for _, r in runs.iterrows():
        m = r.get("metrics") or {}
        if not isinstance(m, dict) or "recovered" not in m or m.get("track") == Track.REAL.value:
            continue
        rows.append(
            {
                "run_id": r["id"],
                "agent": m.get("agent") or (r.get("config") or {}).get("agent", "?"),
                "error_type": m.get("error_type"),
                "recovered": bool(m.get("recovered")),
                "rational": bool(m.get("rational")),
                "rational_strict": bool(m.get("rational_strict")),
                "exact_repair": bool(m.get("exact_repair")),
                "steps": m.get("steps"),
                "protected_rows": m.get("protected_rows"),
                "extended_actions": m.get("extended_actions"),
                "track": m.get("track", Track.STANDARD.value),
            }
        )
    return pd.DataFrame(rows)


REAL_COLUMNS = {
    "problem_id": "model",
    "agent": "agent",
    "recovered": "recovered (verified)",
    "changed": "changed rows + bounds",
    "reference_fewest": "own-model tool's fewest",
    "reference_proven": "fewest proven",
    "steps": "steps",
}


def real_frame(store: Store) -> pd.DataFrame:
    """Finished real-track runs (Netlib models): model, agent, recovered (verified), changes, the reference."""
    runs = store.list_runs(workbench=WORKBENCH, limit=5000)
    rows = []
    for _, r in runs.iterrows():
        m = r.get("metrics") or {}
        if isinstance(m, dict) and m.get("track") == Track.REAL.value and "recovered" in m:
            row = {label: m.get(key) for key, label in REAL_COLUMNS.items()}
            row["agent"] = m.get("agent") or (r.get("config") or {}).get("agent", "?")
            rows.append(row)
    return pd.DataFrame(rows, columns=list(REAL_COLUMNS.values()))


def run_real_batch(agent_key: str, *, store: Store | None, models: tuple[str, ...] = REAL_MODELS) -> int:
    """Run an offline agent over Netlib's infeasible models (the real track), recording each episode."""
    env = RealRepairEnv(list(models))
    for name in models:
        agent = make_offline_agent(agent_key, None, protected=False, extended=False)
        config = {"problem": name, "agent": agent.name, "track": Track.REAL.value}
        recorder = Recorder(store, WORKBENCH, config=config, seed=0, title=f"{name} · {agent.name}")
        run_real(env, agent, name, recorder=recorder)
    return len(models)


def run_offline_batch(
    problems: list[Problem],
    agent_key: str,
    *,
    store: Store | None,
    protected: bool = True,
    extended: bool = False,
    track: Track = Track.STANDARD,
) -> int:
    """Run an offline agent over `problems` on `track`, recording each episode; returns how many were run."""
    for p in problems:
        RepairSession(p, agent_key, protected=protected, extended=extended, store=store, track=track).run()
    return len(problems)


def _shown(value: float | None) -> str:
    return "—" if value is None else f"{value:,.6g}"


def _diff_words(diff: dict) -> str:
    """The model diff in a few words: how many rows and columns were dropped, added or changed."""
    parts = [f"{len(v)} {k.replace('_', ' ')}" for k, v in diff.items() if isinstance(v, list | dict) and v]
    return ", ".join(parts) if parts else "none"
