"""The Human Imitator (seed 000 §3): a manager who knows the latent reality only as a person does.

The paper fine-tuned Qwen2.5-7B on 1,184 real dialogue turns; we cannot train here, so there are two
stand-ins, both labelled as such wherever their results appear:

- `OfflineImitator`: a seeded, bounded-rationality manager. It reads which parameters a message asks about,
  answers only those (nothing is volunteered: the opening is the business context alone), in words drawn from
  its own phrasing bank (`phrasing_bank.toml`, kept apart from the Copilot's test phrasings), with noise knobs
  (`ImitatorNoise`): hedges and ranges, answering a different question, units per week or month, numbers in
  words, a wrong value corrected one turn later, a question back, off-topic chatter. Clarification questions
  (a conflict, a range, a unit conversion) get a short exact answer in daily units. Same seed, same messages:
  the same replies.
- `LLMImitator`: an LLM persona prompted with the latent reality and the same rule (reveal facts only when
  asked, in a manager's words, with realistic vagueness).

Text goes through the shared toolkit `core/text` where it has the piece: the consultant's message is cleaned
(`clean`: curly quotes, dashes, control characters) before its questions are read, weekly/monthly figures
and "a week" of lead time use its day counts (`units.DAYS_PER`), the same the Copilot reads them back with,
and numbers said in words come from its renderer (`numbers.number_words`), the inverse of the reader the
Copilot uses.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path

import numpy as np

from core.config import Settings
from core.errors import SpecError
from core.inventory.lab.generator import Scenario
from core.text.clean import clean
from core.text.numbers import number_words
from core.text.units import DAYS_PER
from solvers.inventory.distribution import format_number
from solvers.inventory.parameters import QUESTION_ORDER

BANK_PATH = Path(__file__).with_name("phrasing_bank.toml")
TOPICS: tuple[str, ...] = ("demand", *(k for k in QUESTION_ORDER if not k.startswith("demand_")))
TOPIC_ROWS: dict[str, tuple[str, ...]] = {t: (t,) for t in TOPICS} | {
    "demand": ("demand_type", "demand_distribution")
}
_PATTERNS: dict[str, re.Pattern[str]] = {
    k: re.compile(v, re.I)
    for k, v in {
        "lead_time": r"lead[- ]?time|\barriv|\bdeliver|receiv|take to (?:come|get)|replenish",
        "perishability": r"spoil|perish|expir|shelf[- ]life|go bad|thrown away",
        "max_inventory": r"store at most|storage (?:capacity|limit|space)|\bcapacity|warehouse|max(?:imum)? inventory|"
        r"how many (?:units )?can you (?:store|keep|hold)",
        "max_order": r"largest (?:quantity|order)|order at once|max(?:imum)? order|per[- ]order (?:cap|limit)|"
        r"order (?:limit|cap)|at a time",
        "setup_cost": r"fixed (?:cost|fee|charge)|set-?up|per shipment|ordering cost|cost per order|"
        r"each order|per order\b(?! cap| limit)",
        "holding_cost": r"keep one unit|holding|carrying|to store one|storage cost|in stock for",
        "penalty_cost": r"cannot serve|can't serve|lost sale cost|cost you when|penalty|stock-?out cost|"
        r"per lost unit|backordered unit cost|shortage cost|cost of running out|lost unit",
        "state_transition_model": r"customers? (?:leave|wait|go)|\bbacklog|back-?order|lost[- ]sales?\b|"
        r"unmet demand|when (?:an item|you) (?:is|are|run) out",
        "risk_tolerance": r"\brisk",
        "time_horizon": r"horizon|planning period|plan for|how many days should|over how (?:many|long)|"
        r"how far ahead|how long (?:should|do you want to|a period|is your plan)",
        "demand": r"demand|\bsell\b|\bsales\b|\bsold\b|standard deviation|how many .{0,30}(?:a|per) day|distribut",
    }.items()
}
_CLARIFY = re.compile(
    r"\(A\)|\bwhich (?:should|model|conversion|one|number)|is that right|conflict|clarif|did you mean|"
    r"single value|standard deviation \(for example|reply a or b",
    re.I,
)
_SENTENCE = re.compile(r"[^.?!]+(?:[.?!]+|$)")
_ACK = re.compile(
    r"^\s*(?:noted|got it|thanks?|thank you|updated|great|ok(?:ay)?|understood|hi|hello)\b", re.I
)


def question_part(text: str) -> str:
    """The sentences of a message that ask something: acknowledgements ('Noted: lead time = 3 days.') are
    dropped; the question sentences are kept, or every remaining sentence when none ends in '?'."""
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(text) if m.group(0).strip()]
    kept = [s for s in sentences if not _ACK.match(s)]
    questions = [s for s in kept if s.endswith("?")]
    return " ".join(questions or kept)


def asked_topics(text: str) -> tuple[str, ...]:
    """The parameters a consultant's message asks about (TOPICS order), read from its question sentences
    (the rest of the message when those name none). A penalty question that mentions 'lost sale' or
    'backorder' asks for the penalty, not the stock-out model. The message is cleaned first (`core.text`)."""
    text = clean(text)[0]
    found = [t for t in TOPICS if _PATTERNS[t].search(question_part(text))]
    if not found:
        rest = " ".join(s.group(0) for s in _SENTENCE.finditer(text) if not _ACK.match(s.group(0)))
        found = [t for t in TOPICS if _PATTERNS[t].search(rest)]
    both = "penalty_cost" in found and "state_transition_model" in found
    if both and not re.search(
        r"customers? (?:leave|wait|go)|\bor wait|lost sale.{0,40}or.{0,20}backlog", text, re.I
    ):
        found.remove("state_transition_model")
    demand_asked = re.search(
        r"daily demand|demand (?:look|behave|var)|how (?:much|many).{0,30}sell", text, re.I
    )
    if "demand" in found and len(found) > 1 and not demand_asked:
        found.remove("demand")
    if (
        "holding_cost" in found
        and "max_inventory" in found
        and not re.search(r"capacity|at most", text, re.I)
    ):
        found.remove("max_inventory")
    return tuple(found)


def is_clarification(text: str) -> bool:
    """A question about how to read an earlier answer (options, a conflict, a conversion)."""
    return bool(_CLARIFY.search(clean(text)[0]))


def _singular(text: str) -> str:
    return re.sub(r"\b(1|one) (day|unit|month|week)s\b", r"\1 \2", text)


@lru_cache(maxsize=1)
def phrasing_bank() -> dict:
    with BANK_PATH.open("rb") as fh:
        return tomllib.load(fh)


@dataclass(frozen=True)
class ImitatorNoise:
    """Probabilities of each bounded-rationality behaviour, per answered topic."""

    vagueness: float = 0.15
    off_question: float = 0.05
    other_units: float = 0.15
    number_words: float = 0.2
    self_correction: float = 0.05
    question_back: float = 0.05
    chatter: float = 0.1

    def __post_init__(self) -> None:
        for f in fields(self):
            x = getattr(self, f.name)
            if isinstance(x, bool) or not isinstance(x, int | float) or not 0 <= x <= 1:
                raise SpecError(f.name, f"must be a probability between 0 and 1, got {x!r}")

    @classmethod
    def quiet(cls) -> ImitatorNoise:
        """No noise at all: plain, exact answers."""
        return cls(**{f.name: 0.0 for f in fields(cls)})

    @classmethod
    def scaled(cls, level: float) -> ImitatorNoise:
        """The default knobs times `level` (0 = quiet, 1 = default, 2 = twice as noisy), capped at 1."""
        if not 0 <= level <= 5:
            raise SpecError("noise", f"the noise level must lie between 0 and 5, got {level}")
        return cls(**{f.name: min(1.0, getattr(cls(), f.name) * level) for f in fields(cls)})

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class ImitatorReply:
    """One manager message: the text, the topics read as asked, the topics whose value it states, and the
    noise behaviours used."""

    text: str
    asked: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    behaviours: tuple[str, ...] = ()


@dataclass
class OfflineImitator:
    """The seeded offline manager (an offline stand-in for the paper's fine-tuned imitator)."""

    scenario: Scenario
    noise: ImitatorNoise = field(default_factory=ImitatorNoise)
    seed: int = 0
    name: str = "offline-imitator"

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng([self.seed, 7919])
        self.revealed: set[str] = set()
        self._used: set[tuple[str, str]] = set()
        self._correction: str | None = None

    # --- public ---

    def opening(self) -> str:
        """The first message: who the manager is and what they want; no parameter is volunteered."""
        return self._pick(phrasing_bank()["opening"]["lines"]).format(**self._names())

    def reply(self, assistant_text: str) -> ImitatorReply:
        topics = asked_topics(assistant_text)
        behaviours: list[str] = []
        parts: list[str] = []
        revealed: list[str] = []
        if self._correction is not None:
            parts.append(self._correction)
            self._correction = None
            behaviours.append("self_correction")
        if not topics:
            parts.append(self._pick(phrasing_bank()["noise"]["fallback"]))
        elif is_clarification(assistant_text):
            for t in topics:
                parts.append(self._precise(t))
                revealed.append(t)
            behaviours.append("clarification")
        else:
            for t in topics:
                text, said, used = self._answer(t)
                parts.append(text)
                revealed += [t] if said else []
                behaviours += used
        if self._chance("chatter"):
            parts.append(self._pick(phrasing_bank()["noise"]["chatter"]))
            behaviours.append("chatter")
        self.revealed.update(revealed)
        return ImitatorReply(" ".join(parts), topics, tuple(revealed), tuple(behaviours))

    # --- answers ---

    def _answer(self, topic: str) -> tuple[str, bool, list[str]]:
        """A plain answer for one topic with the noise knobs applied: (text, states the value, behaviours)."""
        bank = phrasing_bank()["noise"]
        if (topic, "qb") not in self._used and self._chance("question_back"):
            self._used.add((topic, "qb"))
            return self._pick(bank["question_back"]), False, ["question_back"]
        if (topic, "off") not in self._used and self._chance("off_question"):
            self._used.add((topic, "off"))
            return self._pick(bank["different_answer"]), False, ["off_question"]
        used: list[str] = []
        truth = self._values(topic)
        if (
            topic in ("lead_time", "setup_cost", "max_inventory")
            and (topic, "sc") not in self._used
            and self._chance("self_correction")
        ):
            wrong = self._wrong(topic, truth)
            if wrong is not None:
                self._used.add((topic, "sc"))
                self._correction = self._pick(bank["self_correction"]).format(fact=self._precise(topic))
                truth = wrong
                used.append("wrong_value")
        key = self._bank_key(topic)
        if self._chance("other_units"):
            converted = self._other_units(topic, truth)
            if converted is not None:
                key, truth = converted
                used.append("other_units")
        values = dict(truth)
        vague_ok = (
            topic in ("max_inventory", "max_order", "time_horizon") and str(values.get("x", "")).isdigit()
        )
        if vague_ok and self._chance("vagueness"):
            x = int(values["x"])
            if self.rng.random() < 0.5 and x >= 10:
                d = max(1, round(0.1 * x))
                used.append("range")
                return self._pick(bank["ranges"]).format(low=x - d, high=x + d), True, used
            values["x"] = f"{self._pick(bank['hedges'])} {x}"
            used.append("hedge")
        if self._chance("number_words"):
            for k in ("x", "mean"):
                v = values.get(k)
                if isinstance(v, str) and v.isdigit():
                    values[k] = number_words(int(v))
                    used.append("number_words")
        text = self._pick(phrasing_bank()["answer"][key]).format(**self._names(), **values)
        return _singular(text), True, used

    def _precise(self, topic: str) -> str:
        return _singular(
            self._pick(phrasing_bank()["precise"][self._bank_key(topic)]).format(
                **self._names(), **self._values(topic)
            )
        )

    def _bank_key(self, topic: str) -> str:
        p = self.scenario.problem
        if topic == "demand":
            return f"demand_{p.demand.kind}"
        if topic == "state_transition_model":
            return "state_lost" if p.lost_sales else "state_backlog"
        if topic == "penalty_cost":
            return "penalty_lost" if p.lost_sales else "penalty_backlog"
        if topic == "setup_cost" and p.setup_cost == 0:
            return "setup_zero"
        if topic == "lead_time" and p.lead_time == 0:
            return "lead_zero"
        return {
            "perishability": "perishable_no",
            "time_horizon": "horizon",
            "holding_cost": "holding",
            "setup_cost": "setup",
            "lead_time": "lead",
            "max_inventory": "capacity",
            "risk_tolerance": "risk",
        }.get(topic, topic)

    def _values(self, topic: str) -> dict[str, str]:
        p = self.scenario.problem
        if topic == "demand":
            params = p.demand.params
            out = {"mean": format_number(params[0])}
            if p.demand.kind == "normal":
                out["sd"] = format_number(params[1])
            return out
        x = {
            "time_horizon": p.time_horizon,
            "holding_cost": p.holding_cost,
            "penalty_cost": p.penalty_cost,
            "setup_cost": p.setup_cost,
            "lead_time": p.lead_time,
            "max_inventory": p.max_inventory,
            "max_order": p.max_order,
            "risk_tolerance": p.risk_tolerance,
        }.get(topic)
        if x is None:
            return {}
        if topic in ("holding_cost", "penalty_cost", "setup_cost") and not float(x).is_integer():
            return {"x": f"{x:.2f}"}
        return {"x": format_number(x)}

    def _wrong(self, topic: str, truth: dict[str, str]) -> dict[str, str] | None:
        """A plausible slip that still gives a valid table (corrected in the next message)."""
        p = self.scenario.problem
        if topic == "lead_time" and p.lead_time + 2 < p.time_horizon:
            return {"x": str(p.lead_time + 2)}
        if topic == "setup_cost" and p.setup_cost >= 1:
            return {"x": format_number(p.setup_cost + 1)}
        if topic == "max_inventory":
            return {"x": str(p.max_inventory + 10)}
        return None

    def _other_units(self, topic: str, truth: dict[str, str]) -> tuple[str, dict[str, str]] | None:
        p = self.scenario.problem
        if topic == "demand" and p.demand.kind in ("normal", "poisson"):
            unit = "week" if self.rng.random() < 0.7 else "month"
            days = DAYS_PER[unit]
            mean = p.demand.params[0] * days
            out = {"mean": format_number(round(mean, 1))}
            if p.demand.kind == "normal":
                out["sd"] = format_number(round(p.demand.params[1] * math.sqrt(days), 1))
            return f"demand_{p.demand.kind}_{unit}", out
        if topic == "lead_time" and p.lead_time == DAYS_PER["week"]:
            return "lead_week", {}
        if topic == "time_horizon" and p.time_horizon % DAYS_PER["month"] == 0:
            return "horizon_month", {"x": number_words(p.time_horizon // DAYS_PER["month"])}
        return None

    # --- helpers ---

    def _names(self) -> dict[str, str]:
        s = self.scenario
        return {"business": s.business, "item": s.item, "one": s.item_one, "cost": f"{s.item_cost:.2f}"}

    def _chance(self, knob: str) -> bool:
        return bool(self.rng.random() < getattr(self.noise, knob))

    def _pick(self, options: list[str]) -> str:
        return options[int(self.rng.integers(len(options)))]


PERSONA_PROMPT = """You are role-playing the manager of a small business talking to an inventory consultant.
Business: {context}
What you know about your business (never paste this list; reveal a fact only when the consultant asks about it,
in your own informal words, sometimes roughly or with hesitation, as a busy manager would):
{facts}
Rules: answer only what you are asked; never volunteer numbers; never act as the consultant; keep replies to one
to three sentences; if asked something you were not told, say you are not sure. When the consultant gives you a
final ordering policy, thank them briefly."""


def persona_prompt(scenario: Scenario) -> str:
    """The LLM imitator's system prompt: the persona with the scenario's latent reality."""
    kb = scenario.knowledge_base
    facts = "\n".join(f"- {k.replace('_', ' ')}: {v}" for k, v in kb.items())
    facts += f"\n- each {scenario.item_one} costs you ${scenario.item_cost:.2f} to buy"
    return PERSONA_PROMPT.format(context=scenario.context, facts=facts)


def llm_opening(scenario: Scenario) -> str:
    """The LLM imitator's first message (fixed: no model call)."""
    return f"Hi, I manage {scenario.business}. I'd like help deciding how many {scenario.item} to order and when."


@dataclass
class LLMImitator:
    """The LLM persona imitator: the latent reality in the system prompt, one model call per reply."""

    scenario: Scenario
    settings: Settings
    name: str = "llm-imitator"
    history: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        from core.llm import make_chat_model

        if self.settings.provider == "offline":
            raise SpecError(
                "imitator", "the LLM imitator needs an LLM provider; offline runs use the offline imitator"
            )
        self.model = make_chat_model(self.settings)
        self.system = persona_prompt(self.scenario)
        self.revealed: set[str] = set()
        from core.llm import Usage

        self.usage = Usage()  # tokens of every reply so far

    def opening(self) -> str:
        return llm_opening(self.scenario)

    def reply(self, assistant_text: str) -> ImitatorReply:
        from core.llm import Message

        self.history.append(("user", assistant_text))
        reply = self.model.complete(self.system, [Message(r, t) for r, t in self.history])  # type: ignore[arg-type]
        self.usage = self.usage + reply.usage
        text = reply.text.strip() or "Sorry, could you repeat that?"
        self.history.append(("assistant", text))
        return ImitatorReply(text, asked_topics(assistant_text), (), ("llm",))
