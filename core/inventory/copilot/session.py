"""The Inventory Copilot session: extraction → optimize → critic → interpretation Q&A → DONE, recorded in the store.

One `Copilot` object drives the whole seed-000 flow for the page and the headless CLI. Every user message,
table edit and agent answer is a store message; each extraction turn, the optimization, the critic and every
model request / tool call of the interpretation loop is a store step; `extracted_params.csv`,
`conversation_log.txt`, `interpret.txt` and the `deployment_artifacts/` files are store artifacts.

The optimizer budget is `CopilotConfig` (`copilot_config.py`); a stored conversation is read back by
`copilot_resume.py`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.config import CopilotConfig, dqn_request
from core.inventory.copilot.critic import CriticReport, critique
from core.inventory.copilot.dialogue import TERMINATE, ExtractionBase, next_undefined
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.extraction_llm import LLMExtractionAgent
from core.inventory.copilot.interpretation import (
    DONE,
    INTERPRET,
    OPENING_REQUEST,
    InterpretationAgent,
    is_done,
    offline_policy,
)
from core.inventory.copilot.order_query import parse_order_query
from core.inventory.copilot.policy_brief import PolicyBrief, brief_from_result, brief_state, restore_brief
from core.inventory.copilot.record import deployment_zip, run_metrics
from core.inventory.copilot.resume import EDIT_TOOL, load_conversation, snapshot
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.nlu.extractors import read_message
from core.inventory.table import LABELS, Cell, ParameterTable
from core.llm import Usage, make_chat_model
from core.llm.meter import UsageMeter
from core.recorder import TRUSTING, Lease, Recorder, RunStatus
from core.store import Store
from core.text.clean import MAX_CHARS
from core.text.cues import TokenCue
from core.text.mentions import Message, parse
from core.text.numbers import unreadable_number
from core.text.questions import is_question
from solvers.inventory.agent import OptimizationResult, optimize
from solvers.inventory.spec import PARAMETER_KEYS

WORKBENCH = "inventory_copilot"
def _differs(table: ParameterTable, key: str, value: str, unit: str) -> bool:
    """Whether a value read for a row is another value than the row holds (compared in the row's unit)."""
    try:
        (cell,) = table.check((Cell(key, value, unit),))
    except SpecError:
        return False
    return cell.value != table.value(key)


_POLICY = TokenCue(
    starts=("order", "polic", "cost", "explain", "simulat"),
    exact=frozenset(w + tail for w in ("stock", "inventory", "reorder", "dqn", "simpler", "trust", "rule", "why")
                    for tail in ("", "'s")),
    runs=(("on", "hand"), ("how", "much"), ("how", "many")),
)  # fmt: skip
"""Words of a message about the computed policy ('why 40?', 'explain the rule', 'how much stock'); '(s, S)'
is `_names_s_s`."""
_NEW_PROBLEM = TokenCue(
    runs=(
        *((*first, thing) for first in (("another",), ("a", "new"), ("a", "different"), ("the", "next"))
          for thing in ("product", "item", "conversation", "problem", "sku", "article")),
        ("start", "over"), ("start", "again"), ("start", "fresh"), ("new", "conversation"),
    ),
)  # fmt: skip
"""A new problem asked for after the farewell ('another product', 'start over')."""
Progress = Callable[[float, str], None]


class Copilot:
    """The whole conversation; `phase` is "extract", "interpret" or "done".

    `optimizer` has the signature of `solvers.inventory.agent.optimize` (tests substitute a wrapper).

    >>> from core.config import Settings
    >>> Copilot(Settings()).respond("Lead time is 3 days").table["lead_time"]["value"]
    '3'
    """

    def __init__(
        self,
        settings: Settings,
        store: Store | None = None,
        config: CopilotConfig | None = None,
        *,
        workdir: str | Path | None = None,
        run_id: str | None = None,
        title: str = "Inventory Copilot conversation",
        optimizer: Callable[..., OptimizationResult] = optimize,
        lease_owner: str | None = None,
        lease_live: Callable[[str], bool] | None = None,
    ) -> None:
        self.settings = settings
        self.optimizer = optimizer
        self.store = store
        self.config = config or CopilotConfig(seed=settings.seed)
        self._base_config = self.config
        self._workdir = Path(workdir) if workdir else None
        self.meter = UsageMeter()  # the tokens of every model request (extraction and interpretation)
        self.extraction: ExtractionBase = self._extraction_agent()
        self.phase = "extract"
        self.result: OptimizationResult | None = None
        self.report: CriticReport | None = None
        self.brief: PolicyBrief | None = None
        self.interpreter: InterpretationAgent | None = None
        self._extraction_turns = 0
        self.recorder = (
            Recorder.attach(store, run_id, Lease(lease_owner, lease_live))
            if store is not None and run_id is not None
            else Recorder(
                store,
                WORKBENCH,
                config=self._run_config(),
                seed=settings.seed,
                title=title,
                status=RunStatus.ACTIVE,
                owner=lease_owner,
            )
        )
        self._pending: list[tuple[str, str]] = []

    def _batch(self) -> AbstractContextManager:
        """A burst of writes held in memory and written in one short store transaction when it ends
        (`Recorder.batch`), so the store's lock is not held while the turn computes."""
        return self.recorder.batch() if self.store is not None and self.recorder.writing else nullcontext()

    @property
    def read_only(self) -> bool:
        """Is this stored conversation being written elsewhere (another tab), so this copy must not write?"""
        return self.recorder.read_only

    @property
    def run_id(self) -> str | None:
        """The stored run of this conversation (None until the first user input, or without a store)."""
        return self.recorder.run_id

    # --- public API ---

    @property
    def workdir(self) -> Path:
        """Where `deployment_artifacts/` are written (a temporary folder unless given)."""
        if self._workdir is None:
            self._workdir = Path(tempfile.mkdtemp(prefix="orca-copilot-"))
        return self._workdir

    @property
    def table(self) -> ParameterTable:
        return self.extraction.table

    @property
    def use_dqn(self) -> bool:
        return self.config.use_dqn

    @property
    def policy(self) -> dict[str, Any] | None:
        """The protocol's policy object once a policy has been computed."""
        return self.brief.policy_dict() if self.brief else None

    @property
    def usage(self) -> Usage:
        """The tokens of this conversation's model requests so far (the Table 8 extraction and the Policy
        Interpretation Agent); zero offline."""
        return self.meter.usage

    def greeting(self) -> str:
        """The opening message (recorded with the run, which starts at the first user input)."""
        first = not self.extraction.state.log
        text = self.extraction.greeting()
        if first:
            if self.run_id is None:
                self._pending.append(("assistant", text))
            else:
                self.recorder.message("assistant", text)
        return text

    def _ensure_run(self) -> None:
        """Create the run on the first user input, so idle page visits leave no empty runs."""
        if self.store is None or self.run_id is not None:
            return
        self.recorder.start()
        for role, text in self._pending:
            self.recorder.message(role, text)
        self._pending.clear()

    def start_run(self) -> str | None:
        """Create the run now (the headless chat prints its id before the first answer); its id, or None
        without a store."""
        self._ensure_run()
        return self.run_id

    def respond(self, text: str, progress: Progress | None = None) -> CopilotTurn:
        """Handle one user message in the current phase; on TERMINATE optimize (reporting `progress`) and present.
        After the user said they are done, a question about the policy reopens the Q&A; any other message is
        answered with how to go on (every message gets a reply). A message with a number that cannot be read
        exactly (1e308, 23 digits) is refused as a `SpecError` on `user`, and nothing changes."""
        if not isinstance(text, str) or not text.strip():
            raise SpecError("user", "the message is empty")
        if (unreadable := unreadable_number(text[:MAX_CHARS])) is not None:  # before any reader sees it
            raise SpecError(
                "user", f"{unreadable.message} Nothing was changed; please send the message again."
            )
        if self.phase == "extract":  # the run is created once the turn succeeded: a failed call leaves none
            return self._extract(text, progress)
        self._ensure_run()
        if self._corrects_table(text):  # 'actually the lead time is 3 days': reopen the table, optimize again
            self.phase = "extract"
            self.recorder.update(status=RunStatus.ACTIVE)
            return self._extract(text, progress)
        if self.phase == "done":
            if not self._asks_about_policy(text):
                return self._finished(text)
            self.phase = "interpret"  # a policy question after "that's all" reopens the Q&A
            self.recorder.update(status=RunStatus.ACTIVE)
        return self._interpret(text)

    def user_edit(self, key: str, value: str, progress: Progress | None = None) -> CopilotTurn:
        """A direct table edit (validated, logged as a user edit); only before the policy is computed. A number
        that cannot be read exactly is refused naming the row, never stored rounded."""
        if not isinstance(key, str) or key not in PARAMETER_KEYS:
            raise SpecError(
                str(key), "is not a parameter of the table; use one of " + ", ".join(PARAMETER_KEYS)
            )
        if not isinstance(value, str) or not value.strip():
            raise SpecError(key, "the new value is empty")
        if (unreadable := unreadable_number(value)) is not None:  # 23 digits would be stored rounded
            raise SpecError(key, unreadable.message)
        if self.phase != "extract":
            raise SpecError(key, "the table is final once the policy is computed; start a new conversation")
        old = self.table.value(key)
        started = time.perf_counter()
        turn = self.extraction.user_edit(key, value)
        latency_ms = 1000.0 * (time.perf_counter() - started)
        self._ensure_run()
        note = f"(table edit) {key}: {old if old is not None else '-'} -> {self.table.value(key)}"
        self.recorder.message("user", note, [{"name": EDIT_TOOL, "arguments": {"key": key, "value": value}}])
        self.recorder.message("assistant", turn.assistant)
        self.recorder.event(
            "user_edit",
            {"key": key, "value": value, "action": turn.action, **self._snapshot()},
            latency_ms=latency_ms,
        )
        if turn.action == TERMINATE:
            return self._present(turn.assistant, progress)
        return self._turn(turn.assistant, turn.action, turn.conflicts)

    def artifacts(self) -> dict[str, bytes]:
        """Every artifact so far, by file name (deployment files under `deployment_artifacts/`)."""
        out: dict[str, bytes] = {}
        if self.phase != "extract":
            out.update({k: v.encode() for k, v in self.extraction.artifacts().items()})
        if self.phase == "done" and self.interpreter is not None:
            out["interpret.txt"] = self.interpreter.transcript().encode()
        folder = self.brief.artifacts_dir if self.brief else None
        if folder is not None and folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file():
                    out[f"deployment_artifacts/{path.name}"] = path.read_bytes()
        return out

    def deployment_zip(self) -> bytes:
        """The `deployment_artifacts/` files as one zip archive."""
        return deployment_zip(self.artifacts())

    def transcript(self) -> list[tuple[str, str]]:
        """(role, text) of everything shown in the chat: extraction dialogue then interpretation."""
        rows = [("user" if r == "edit" else r, t) for r, t in self.extraction.state.log]
        if self.interpreter is not None:
            rows += [(r, t) for r, t in self.interpreter.log if r != "tool"]
        return rows

    def restart(self) -> Copilot:
        """A fresh conversation (a new run) with the same settings, store and budget."""
        return Copilot(
            self.settings, self.store, self._base_config, workdir=self._workdir, optimizer=self.optimizer
        )

    @classmethod
    def resume(
        cls,
        store: Store,
        run_id: str,
        settings: Settings,
        config: CopilotConfig | None = None,
        *,
        workdir: str | Path | None = None,
        optimizer: Callable[..., OptimizationResult] = optimize,
        lease: Lease = TRUSTING,
    ) -> Copilot:
        """Continue a stored conversation: the table from its last snapshot, the dialogue from its messages.

        After TERMINATE the stored result is reused (policy, costs, critic, deployment files) when the table
        is unchanged; a run without it (older runs) is optimized again with the stored budget and seed. No
        model call is repeated. The run's lease goes to `lease.owner`; while another live writer holds it
        (`lease.is_live`), the conversation is read-only (`read_only`)."""
        run = store.get_run(run_id)
        if run.get("workbench") != WORKBENCH:
            raise SpecError("resume", f"run {run_id} is not an Inventory Copilot conversation")
        stored = dict((run.get("config") or {}).get("copilot") or {})
        if config is None:
            fields = set(CopilotConfig.__dataclass_fields__)
            config = CopilotConfig(**{k: v for k, v in stored.items() if k in fields}) if stored else None
        copilot = cls(
            settings,
            store,
            config,
            workdir=workdir,
            run_id=run_id,
            optimizer=optimizer,
            lease_owner=lease.owner,
            lease_live=lease.is_live,
        )
        copilot._restore(store, run_id)
        return copilot

    # --- phases ---

    def _extract(self, text: str, progress: Progress | None) -> CopilotTurn:
        before = (
            self.config,
            len(self.extraction.state.log),
            dict(self.table.rows),
            list(self.table.conflicts),
        )
        self.config, note = dqn_request(self.config, text)
        started = time.perf_counter()
        try:
            turn = self.extraction.respond(text)
        except Exception:
            self._rollback(*before)
            raise
        latency_ms = 1000.0 * (time.perf_counter() - started)
        assistant = turn.assistant + note if turn.action != TERMINATE else turn.assistant
        with self._batch():
            self._ensure_run()
            self.recorder.message("user", text)
            if note:
                self.recorder.update(config=self._run_config())
            self.recorder.message("assistant", assistant)
            self.recorder.event(
                "extraction", {"action": turn.action, **self._snapshot()}, latency_ms=latency_ms
            )
        if turn.action == TERMINATE:
            return self._present(assistant, progress)
        return self._turn(assistant, turn.action, turn.conflicts)

    def _rollback(self, config: CopilotConfig, log: int, rows: dict, conflicts: list) -> None:
        """Undo a failed extraction turn (e.g. the provider failed): the message leaves no trace, so a retry
        starts clean."""
        self.config = config
        del self.extraction.state.log[log:]
        self.table.rows, self.table.conflicts = rows, conflicts

    def _present(self, summary: str, progress: Progress | None) -> CopilotTurn:
        """TERMINATE: save the extraction artifacts, optimize, critique and open the interpretation."""
        self._extraction_turns = len(self.extraction.state.log)
        with self._batch():
            for name, data in self.extraction.artifacts().items():
                self.recorder.artifact(name, data.encode())
        self._optimize(progress)
        assert self.interpreter is not None
        try:
            opening = self.interpreter.opening()
        except Exception:
            self.phase, self.interpreter = "extract", None
            raise
        with self._batch():
            self.recorder.messages(m for m in opening.messages if m.role != "user")
            self.recorder.update(status=RunStatus.ACTIVE)
        return self._turn(f"{summary}\n\n{opening.assistant}", TERMINATE)

    def _optimize(self, progress: Progress | None) -> None:
        problem = self.table.problem()
        cfg = self.config
        out = self.workdir / (self.run_id or "session") / "deployment_artifacts"
        started = time.perf_counter()
        result = self.optimizer(
            problem,
            cfg.paths,
            cfg.seed,
            cfg.use_dqn,
            progress,
            out_dir=out,
            dqn_config=cfg.dqn_config() if cfg.use_dqn else None,
            use_dp=cfg.use_dp,
            final_paths=cfg.final_paths,
        )
        optimized = time.perf_counter()
        if progress:
            progress(1.0, "checking the recommendation against your table and writing the explanation")
        report = critique(result, self.table.values(), cfg.critic_paths, cfg.seed)
        report = replace(report, assumptions=(*self._user_assumptions(), *report.assumptions))
        brief = brief_from_result(result, report, cfg.seed)
        criticised = time.perf_counter()
        self.result, self.report = result, report
        self._start_interpretation(brief)
        with self._batch():
            self._record_optimization(
                cfg, result, report, brief, problem, optimized - started, criticised - optimized
            )

    def _record_optimization(
        self,
        cfg: CopilotConfig,
        result: OptimizationResult,
        report: CriticReport,
        brief: PolicyBrief,
        problem: Any,
        optimize_s: float,
        critic_s: float,
    ) -> None:
        """Write the optimize and critic steps, the deployment files, title and metrics (one transaction)."""
        self.recorder.event(
            "optimize",
            {
                "config": cfg.to_dict(),
                "summary": result.summary(),
                "extraction_turns": self._extraction_turns,
                "table": self.table.values(),
                "brief": brief_state(brief),
            },
            latency_ms=1000.0 * optimize_s,
        )
        self.recorder.event("critic", report.to_dict(), latency_ms=1000.0 * critic_s)
        for name, data in self.artifacts().items():
            if name.startswith("deployment_artifacts/"):
                self.recorder.artifact(name, data)
        title = f"{problem.demand.canonical()} · {problem.time_horizon} days → {result.recommended_policy}"
        self.recorder.update(title=title, metrics=self._metrics())

    def _start_interpretation(self, brief: PolicyBrief) -> None:
        self.brief = brief
        numbering = self.config.day_numbering
        model = self.meter.wrap(make_chat_model(self.settings, offline_policy(brief, numbering)))
        self.interpreter = InterpretationAgent(
            model, brief, on_step=self.recorder.step, day_numbering=numbering
        )
        self.phase = "interpret"

    def _interpret(self, text: str) -> CopilotTurn:
        assert self.interpreter is not None
        turn = self.interpreter.respond(text)
        self.recorder.messages(turn.messages)
        if turn.action == DONE:
            self.phase = "done"
            self.recorder.artifact("interpret.txt", self.interpreter.transcript().encode())
            self.recorder.event("interpret_done", {"turns": len(self.interpreter.log)})
            self.recorder.update(status=RunStatus.DONE, metrics=self._metrics())
            return self._turn(turn.assistant, DONE)
        return self._turn(turn.assistant, INTERPRET)

    def _corrects_table(self, text: str) -> bool:
        """After the policy: a statement that gives a table row another value than the one optimized ('we can
        store 100 now', 'actually deliveries take 3 days'), not a question nor an order query about the policy.
        The table then reopens (the extraction agent confirms a change that is not said as a correction) and
        the policy is computed again."""
        lead = self.brief.problem.lead_time if self.brief else 0
        if is_question(text) or parse_order_query(text, lead) is not None or is_done(text):
            return False
        reading = read_message(text)
        changed = [
            f
            for f in reading.findings
            if not f.choices and self.table.is_defined(f.key) and _differs(self.table, f.key, f.value, f.unit)
        ]
        model = self.table.value("state_transition_model")
        return bool(changed) or (len(reading.transitions) == 1 and reading.transitions[0] != model)

    def _asks_about_policy(self, text: str) -> bool:
        """After the farewell: a question or an order query about this policy (answered), not thanks, a
        greeting or a new problem (those get the 'finished' notice)."""
        said = parse(text)
        if is_done(text) or _NEW_PROBLEM.found(said.toks):
            return False
        lead = self.brief.problem.lead_time if self.brief else 0
        about = _POLICY.found(said.toks) or _names_s_s(said)
        return is_question(text) or about or parse_order_query(text, lead) is not None

    def _finished(self, text: str) -> CopilotTurn:
        """The conversation stays finished: record the message and the notice saying how to go on."""
        assert self.interpreter is not None
        turn = self.interpreter.finished(text)
        self.recorder.messages(turn.messages)
        return self._turn(turn.assistant, DONE)

    # --- resume ---

    def _restore(self, store: Store, run_id: str) -> None:
        """Rebuild the session from the store without recording anything again."""
        stored = load_conversation(store, run_id)
        self.recorder.paused = True
        try:
            self.extraction = self._extraction_agent(stored.table)
            self.extraction.state.log = stored.log
            self.extraction.state.assumptions = dict(stored.assumptions)
            self.extraction.state.recall(stored.memory)
            self.extraction.state.asked = None if stored.table.conflicts else next_undefined(stored.table)
            if stored.optimized is None:
                return
            self.config = replace(self.config, use_dqn=bool(stored.optimized["config"].get("use_dqn")))
            self._extraction_turns = stored.cut
            if not self._reuse(store, run_id, stored.optimized, stored.table):
                self._optimize(None)
            assert self.interpreter is not None
            self.interpreter.restore([("user", OPENING_REQUEST), *stored.interpretation])
            if self.interpreter.done:
                self.phase = "done"
        finally:
            self.recorder.paused = False

    def _reuse(self, store: Store, run_id: str, optimized: dict[str, Any], table: ParameterTable) -> bool:
        """Rebuild the stored result (brief, critic, deployment files) instead of optimizing again, when the
        run holds it and the table is the one it was computed for; False otherwise (older runs)."""
        state = optimized.get("brief")
        if not state or optimized.get("table") != table.values():
            return False
        folder = self.workdir / run_id / "deployment_artifacts"
        folder.mkdir(parents=True, exist_ok=True)
        for name in store.artifacts(run_id)["name"]:
            if str(name).startswith("deployment_artifacts/"):
                (folder / str(name).split("/", 1)[1]).write_bytes(store.get_artifact(run_id, str(name)))
        try:
            brief = restore_brief(state, table.problem(), folder)
        except SpecError:
            return False
        self.report = brief.critic
        self._start_interpretation(brief)
        return True

    # --- helpers ---

    def _extraction_agent(self, table: ParameterTable | None = None) -> ExtractionBase:
        if self.settings.provider == "offline":
            return ExtractionAgent(table)
        return LLMExtractionAgent(self.meter.wrap(make_chat_model(self.settings)), table)

    def _run_config(self) -> dict[str, Any]:
        return {"settings": self.settings.public_dict(), "copilot": self.config.to_dict()}

    @property
    def assumptions(self) -> dict[str, str]:
        """Table rows the user skipped or left to a default, with the assumption in words."""
        return self.extraction.assumed()

    def _user_assumptions(self) -> tuple[str, ...]:
        """The skipped or defaulted rows as lines of the explanation's assumptions."""
        return tuple(
            f"You did not give the {LABELS[key]}, so it is an assumption: {words} "
            f"({LABELS[key]} = {self.table.value(key)}); change it if you know better."
            for key, words in self.assumptions.items()
        )

    def _snapshot(self) -> dict[str, Any]:
        return snapshot(self.table, self.extraction.assumed(), self.extraction.state.memory())

    def _metrics(self) -> dict[str, Any]:
        return run_metrics(self.policy, len(self.transcript()))

    def _turn(self, text: str, action: str, conflicts: tuple[dict[str, object], ...] = ()) -> CopilotTurn:
        return CopilotTurn(
            assistant=text, action=action, table=self.table.to_dict(), conflicts=conflicts, policy=self.policy
        )


def _names_s_s(said: Message) -> bool:
    """Whether a message names the (s, S) policy as 's,S' or 's, S' (one space at most after the comma)."""
    toks, text = said.toks, said.text
    return any(
        toks[i].low == "s" and toks[i + 1].low == "," and toks[i + 2].low == "s"
        and toks[i].end == toks[i + 1].start
        and text[toks[i + 1].end : toks[i + 2].start] in ("", " ", "\t", "\n", "\r", "\f", "\v")
        for i in range(len(toks) - 2)
    )
