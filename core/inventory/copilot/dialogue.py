"""What both extraction agents share: the questions, the turn (`turn.CopilotTurn`), direct cell edits, and the
artifacts (`extracted_params.csv`, `conversation_log.txt`) saved on TERMINATE (seed 000, §2.2)."""

from __future__ import annotations

import csv
import io
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from core.errors import SpecError
from core.inventory.copilot.plan_unit import PlanUnit
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.policy_names import plain_value
from core.inventory.table import LABELS, Cell, Conflict, ParameterTable
from solvers.inventory.parameters import PARAMETER_LABELS, QUESTION_ORDER, QUESTIONS
from solvers.inventory.spec import PARAMETER_KEYS, parse_demand

ASK_NEXT = "ASK NEXT QUESTION"
ASK_CLARIFICATION = "ASK CLARIFICATION"
TERMINATE = "TERMINATE"
ACTIONS = (ASK_NEXT, ASK_CLARIFICATION, TERMINATE)

GREETING = (
    "Hi, I'm the Inventory Copilot. Tell me about the item you want to manage in your own words: how much you "
    "sell, what holding stock and running out cost you, how long deliveries take, and your storage limits."
)


def question_for(key: str, table: ParameterTable) -> str:
    """The targeted question for one undefined row, worded for what the table already knows."""
    if key == "demand_distribution" and table.value("demand_type") == "deterministic":
        return "How many units do you sell each day (the fixed daily demand)?"
    if key == "demand_type" and not table.is_defined("demand_distribution"):
        return (
            QUESTIONS["demand_type"] + " If you can, give me the typical daily amount and how much it varies."
        )
    if key == "penalty_cost":
        model = table.value("state_transition_model")
        if model == "lost_sale":
            return "What does a lost sale cost you, per unit (for example $5 per lost unit)?"
        if model == "backlog":
            return "What does a backordered unit cost you for each day it waits (for example $2 per unit per day)?"
    return QUESTIONS[key]


def rephrase(about: str | Conflict, *, stuck: bool = True) -> str:
    """A question put differently for its third asking and later: the row's meaning, an example answer, and how
    to skip it; or a clarification's options as one-letter choices. `stuck=False` (the user's last answer
    filled other rows): the same help, worded as what is still open rather than as a failed attempt."""
    from core.inventory.nlu.intents import DEFAULTS, EXAMPLES, MEANINGS

    if isinstance(about, Conflict):
        listed = "; ".join(f"({o.label}) {o.description}" for o in about.options)
        way_out = f" Say 'skip' to go with ({about.options[0].label})." if about.options else ""
        lead = "Let me ask that differently" if stuck else "Still to settle"
        return f"{lead}: reply with one letter, {listed}, or give the value itself.{way_out}"
    skip = (
        f" Or say 'skip' and I will assume {DEFAULTS[about][1]}."
        if about in DEFAULTS
        else " A rough figure is fine; you can change it later."
    )
    lead = "Let me put it differently" if stuck else "Still open"
    return f"{lead}: {MEANINGS[about]} An answer like {EXAMPLES[about]} is enough.{skip}"


def next_undefined(table: ParameterTable) -> str | None:
    """The next row to ask about; risk tolerance always last."""
    return next((k for k in QUESTION_ORDER if not table.is_defined(k)), None)


@dataclass
class DialogueState:
    """Table, transcript and the row last asked about; the part of an agent a page persists."""

    table: ParameterTable = field(default_factory=ParameterTable)
    log: list[tuple[str, str]] = field(default_factory=list)
    asked: str | None = None
    assumptions: dict[str, str] = field(default_factory=dict)
    times_asked: dict[str, int] = field(default_factory=dict)
    skips: dict[str, int] = field(default_factory=dict)
    last_table: dict[str, object] = field(default_factory=dict)
    count_unit: str | None = None
    """The measure demand was accepted in ('litre'): the table's unit, so costs per litre are accepted."""
    sizes: dict[str, float] = field(default_factory=dict)
    """Container sizes the user stated ('a box holds 24 bags': {'box': 24}), applied to later messages."""
    counted_in: str | None = None
    """The container the user counts demand in ('about 49 boxes a week'): the table's unit, never multiplied."""
    supplied_in: set[str] = field(default_factory=set)
    """Packs the goods come in ('they come in packs of 8'): demand said only in one of them is asked about."""
    own_packs: dict[str, float] = field(default_factory=dict)
    """Packs the owner names their goods in ('made up in packs of 6', 'our IPA six-packs'): demand in their
    contents is asked in packs or single items."""
    planned: PlanUnit | None = None
    """The pack the owner sells or plans in ('we sell them in packs of six'): demand in its contents is divided."""
    singles: bool = False
    """The owner said they sell or count single items ('we sell single bottles'): a container of known size is
    multiplied out, never made the table's unit."""
    doubted: set[tuple[str, str]] = field(default_factory=set)
    """(row, value) pairs already put to the user as implausible (`vetting.implausible`): never asked twice."""

    def memory(self) -> dict[str, object]:
        """What the agent learned about the user's units (container sizes, the unit demand is counted in, the
        packs the goods come in and the pack the owner plans in): kept with each table snapshot, so a resumed
        conversation still knows 'room for 20 boxes' is 480 units."""
        planned = self.planned
        return {
            "sizes": dict(self.sizes),
            "counted_in": self.counted_in,
            "count_unit": self.count_unit,
            "supplied_in": sorted(self.supplied_in),
            "own_packs": dict(self.own_packs),
            "singles": self.singles,
            "planned": None
            if planned is None
            else {"container": planned.container, "size": planned.size, "nouns": sorted(planned.nouns),
                  "sold": planned.sold},
        }

    def recall(self, memory: dict[str, object] | None) -> None:
        """Restore `memory()` from a stored snapshot (runs stored before it hold none: nothing changes)."""
        if not memory:
            return
        sizes = memory.get("sizes")
        self.sizes = {str(k): float(v) for k, v in sizes.items()} if isinstance(sizes, dict) else {}
        self.counted_in = _text_or_none(memory.get("counted_in"))
        self.count_unit = _text_or_none(memory.get("count_unit"))
        supplied = memory.get("supplied_in")
        self.supplied_in = {str(x) for x in supplied} if isinstance(supplied, list) else set()
        self.singles = bool(memory.get("singles", False))
        own = memory.get("own_packs")
        self.own_packs = {str(k): float(v) for k, v in own.items()} if isinstance(own, dict) else {}
        planned = memory.get("planned")
        self.planned = (
            PlanUnit(str(planned["container"]), float(planned["size"]), frozenset(map(str, planned["nouns"])),
                     bool(planned.get("sold", False)))
            if isinstance(planned, dict)
            else None
        )


def _text_or_none(value: object) -> str | None:
    return str(value) if value else None


class ExtractionBase(ABC):
    """Transcript, direct edits and artifacts; subclasses implement `respond(user_text)`."""

    def __init__(self, table: ParameterTable | None = None) -> None:
        self.state = DialogueState(table or ParameterTable())
        self._progressed = False
        self.last_action = ASK_NEXT

    @property
    def table(self) -> ParameterTable:
        return self.state.table

    def greeting(self) -> str:
        """The opening message (logged once)."""
        if not self.state.log:
            self._say(GREETING)
        return GREETING

    @abstractmethod
    def respond(self, user_text: str) -> CopilotTurn:
        """Update the table from one user message and return the next agent turn."""

    def user_edit(self, key: str, value: str) -> CopilotTurn:
        """A direct cell edit from the page: validated like any update, logged as a user edit."""
        if key not in PARAMETER_KEYS:
            raise SpecError(key, "is not a parameter of the table")
        old = self.table.value(key)
        cells = [Cell(key, value)]
        if key == "demand_distribution":
            kind = "deterministic" if parse_demand(value).kind == "deterministic" else "random"
            cells.append(Cell("demand_type", kind))
        applied = self.table.set_many(tuple(cells))
        self.state.assumptions.pop(key, None)
        for conflict in list(self.table.conflicts):
            if key in conflict.keys:
                self.table.close(conflict)
        self.state.log.append(("edit", f"{key}: {old if old is not None else '-'} -> {applied[0].value}"))
        return self._after_edit(f"Updated {LABELS[key]} to {applied[0].value}.")

    def _after_edit(self, note: str) -> CopilotTurn:
        return self._finish([note], [])

    def _finish(self, notes: list[str], problems: list[SpecError]) -> CopilotTurn:
        """Pick the action after an update: clarify a conflict, re-ask a bad answer, ask the next row, or stop."""
        parts = [n for n in notes if n]
        parts += dict.fromkeys(
            f"I can't use that for the {LABELS.get(p.field, p.field)}: {_ended(_reason(p))}" for p in problems
        )
        bad = next((p.field for p in reversed(problems) if self._reask(p.field)), None)
        now = self.table.to_dict()
        self._progressed, self.state.last_table = now != self.state.last_table, now
        if self.table.conflicts:
            conflict = self.table.conflicts[0]
            action, question, self.state.asked = (
                ASK_CLARIFICATION,
                self._fresh(conflict.question, conflict),
                None,
            )
        elif bad is not None:
            action, question, self.state.asked = (
                ASK_NEXT,
                self._fresh(question_for(bad, self.table), bad),
                bad,
            )
        elif (key := next_undefined(self.table)) is not None:
            action, question, self.state.asked = (
                ASK_NEXT,
                self._fresh(question_for(key, self.table), key),
                key,
            )
        else:
            try:
                self.table.problem()
            except SpecError as err:
                self.table.clear(err.field if err.field in PARAMETER_KEYS else "max_order")
                return self._finish(notes, [*problems, err])
            action, question, self.state.asked = TERMINATE, self._summary(), None
        text = " ".join([*parts, question]).strip()
        self._say(text)
        self.last_action = action
        return CopilotTurn.of(self.table, assistant=text, action=action)

    def _reask(self, field: str) -> bool:
        """Whether a row whose value was refused is asked next: risk, the last question, only when it was asked
        or no other row is open ('I can't use that for the risk tolerance' never skips the open rows)."""
        if field != "risk_tolerance":
            return field in PARAMETER_KEYS
        return self.state.asked == field or next_undefined(self.table) in (None, field)

    def _fresh(self, question: str, about: str | Conflict) -> str:
        """The question, or after it was asked twice in these words, the same question put differently with
        an example answer and the way out ('skip'): the agent never asks anything a third time verbatim."""
        asked = self.state.times_asked.get(question, 0)
        self.state.times_asked[question] = asked + 1
        if asked < 2:
            return question
        return rephrase(about, stuck=not self._progressed)

    def _summary(self) -> str:
        rows = "; ".join(  # plain labels and values ("daily demand: about 20 a day, give or take 7.6")
            f"{PARAMETER_LABELS.get(k, LABELS[k]).lower()}: {plain_value(k, r.value)}"
            f"{'' if r.unit in ('N/A', '') else ' ' + r.unit}"
            for k, r in self.table.rows.items()
            if k != "demand_type"
        )
        assumed = "; ".join(f"{LABELS[k]}: {words}" for k, words in self.assumed().items())
        note = f" Assumptions you agreed to: {assumed}." if assumed else ""
        return (
            f"Thank you, the parameter table is complete and consistent: {rows}.{note} I will now compute a "
            "policy."
        )

    def _say(self, text: str) -> None:
        self.state.log.append(("assistant", text))

    def conversation_log(self) -> str:
        """`conversation_log.txt`: the whole dialogue, user edits included."""
        names = {"user": "User", "assistant": "Assistant", "edit": "User edit"}
        return "\n\n".join(f"{names.get(role, role)}: {text}" for role, text in self.state.log) + "\n"

    def assumed(self) -> dict[str, str]:
        """Rows the user skipped or left to a default, with the assumption in words ('plan for 30 days')."""
        return {k: words for k, words in self.state.assumptions.items() if self.table.is_defined(k)}

    def extracted_params_csv(self) -> str:
        """`extracted_params.csv` of the complete table (SpecError while it is incomplete), with an
        `assumption` column that marks each row the user skipped or left to a default; readers of the paper's
        four columns ignore it."""
        rows = list(csv.reader(io.StringIO(self.table.csv_text())))
        assumed = self.assumed()
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([*rows[0], "assumption"])
        for row in rows[1:]:
            words = assumed.get(row[0])
            writer.writerow([*row, f"assumed (not given by you): {words}" if words else ""])
        return out.getvalue()

    def artifacts(self) -> dict[str, str]:
        """The two run artifacts of §2.2, by file name."""
        return {
            "extracted_params.csv": self.extracted_params_csv(),
            "conversation_log.txt": self.conversation_log(),
        }


def _ended(sentence: str) -> str:
    """A sentence with one closing mark ('... per unit per day?' keeps its question mark, no '?.')."""
    return sentence if sentence.endswith(("?", ".", "!")) else f"{sentence}."


def _reason(err: SpecError) -> str:
    text = str(err)
    prefix = f"{err.field}: "
    return text[len(prefix) :] if text.startswith(prefix) else text
