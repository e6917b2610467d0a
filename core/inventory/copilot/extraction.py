"""The offline Information Extraction Agent (seed 000 §2.2, Figure 2): update the table from the latest
message, detect conflicts, ask one targeted question, TERMINATE when complete and conflict-free."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from core.errors import SpecError
from core.inventory.copilot import conflicts as cf
from core.inventory.copilot import plan_unit
from core.inventory.copilot.dialogue import ExtractionBase
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.copilot.vetting import crossed, doubt, implausible
from core.inventory.nlu import intents
from core.inventory.nlu.cues import about_stock, rows, topics
from core.inventory.nlu.demand import DemandReading
from core.inventory.nlu.extractors import (
    PER_SERVING,
    ROW_KEYS,
    STATE,
    UP_TO_CAPACITY,
    Finding,
    Reading,
    compatible,
    is_bare_spread,
    read_message,
    read_row,
    segments,
    set_aside,
    sized_measure,
)
from core.inventory.nlu.replies import picks_normal, resolve
from core.inventory.table import LABELS, Cell, Conflict, ParameterTable
from core.text.answers import Polarity, polarity, wants_skip
from core.text.clean import MAX_CHARS, clean
from core.text.corrections import is_correction
from core.text.cues import TokenCue
from core.text.intents import Prediction
from core.text.mentions import Kind, Message, Scope, Token, container_sizes, pack_sizes, parse, plural
from core.text.numbers import find_numbers, format_number, words_to_digits
from core.text.questions import is_question
from core.text.ranges import split_range
from core.text.units import find_durations, find_money, is_per_unit, physical_units
from core.text.units import warm_up as warm_units
from core.text.vocabulary import CONTAINERS, MEASURE_UNITS, MEASURES

_DURATION_ROWS = ("time_horizon", "lead_time")
_COUNT_ROWS = ("max_inventory", "max_order")
_ANOTHER_NUMBER_KINDS = ("range",)
"""Questions that end '... or another number?': a bare amount in the reply is that number."""
_PENALTY_UNIT_KINDS = ("backlog_unit_penalty", "lost_sale_daily_penalty")
_COST_QUESTIONS = ("holding_cost", "penalty_cost", "setup_cost")
_ASK_AGAIN = {
    "holding_cost": "what does keeping one unit in stock cost per day?",
    "penalty_cost": "what does one unit short cost you?",
    "setup_cost": "what is the fixed fee per order?",
    "lead_time": "how many days pass between ordering and delivery?",
}
_MONEY_NAMES = frozenset({"dollar", "dollars", "bucks", "quid", "pounds", "euros", "cents", "usd", "eur", "gbp"})
_SINGLE_VALUE_KINDS = (
    "changed_value",
    "range",
    "risk_scale",
    "confirm_value",
    "shelf_life",
    "inferred_transition",
)


_QUOTE = 160
"""The longest stretch of the owner's message a question quotes back; longer ones are cut at a word."""
_STOCKOUT_WORDS = frozenset(["wait", "waits", "waiting", "leave", "leaves", "elsewhere", "lost", "lose", "backlog",
                             "backorder", "backordered", "backorders", "out", "empty", "short", "queue", "list",
                             "restock", "next", "another", "instead", "walk", "walks", "somewhere", "competitor",
                             "competitors", "competition", "rival", "rivals", "rain", "owe", "owed", "back",
                             "arrives"])  # fmt: skip
"""Words that say what customers do when stock runs out ('they wait', 'they go elsewhere', 'when we're out'):
a stock-out model said with one is stated, not inferred."""
_CHANGES = ("increase", "decrease", "grow", "drop", "double", "halve", "rise", "fall", "spike")
_WHAT_IF = TokenCue(
    exact=frozenset([*_CHANGES, *(w + "s" for w in _CHANGES)]),
    runs=(
        ("what", "if"), ("what", "happens", "if"), ("what", "happens", "when"),
        *((go, way) for go in ("goes", "went", "go") for way in ("up", "down")),
    ),
)  # fmt: skip
"""A what-if question ('what if demand doubles?', 'what happens when prices go up?')."""
ROW_HELP: dict[str, tuple[TokenCue, str]] = {
    "risk_tolerance": (
        TokenCue(starts=("risk", "averse"), exact=frozenset(["scale", "seeking"])),  # and '-10': _minus_ten
        "Risk tolerance says how much you care about bad months versus the average, on a scale from -10 to 10: "
        "-10 means avoid expensive surprises even if the average cost is a bit higher, 10 means only the "
        "average cost matters, 0 is neutral. If you are not sure, say 'neutral'.",
    ),
    "penalty_cost": (
        TokenCue(
            inside=("penalt",),
            phrases=(("shortage", "cost"), ("stockout", "cost"), ("stock", "-", "out", "cost"),
                     ("cost", "of", "lost"), ("cost", "of", "a", "lost")),
        ),  # fmt: skip
        "The penalty cost is what it costs you when you cannot serve a unit of demand: the lost margin and "
        "goodwill of a lost sale, or under a backlog the cost of each day a customer waits.",
    ),
    "holding_cost": (
        TokenCue(inside=("holding", "carrying")),
        "The holding cost is what keeping one unit in stock for one day costs you (storage, cooling, money "
        "tied up).",
    ),
    "setup_cost": (
        TokenCue(
            inside=("setup",),
            phrases=(
                ("set", "-", "up"), ("ordering", "cost"), ("order", "fee"), ("ordering", "fee"),
                ("fixed", "cost"),
            ),
        ),  # fmt: skip
        "The setup cost is the fixed cost of placing one order, whatever its size (a delivery fee, "
        "paperwork); say 0 if there is none.",
    ),
    "lead_time": (
        TokenCue(inside=("leadtime",), phrases=(("lead", "time"), ("lead", "-", "time"))),
        "The lead time is how many days pass between placing an order and receiving it (0 for same-day).",
    ),
    "max_order": (
        TokenCue(
            phrases=(
                ("max", "order"), ("maximum", "order"), ("order", "size"), ("order", "limit"), ("order", "cap"),
            ),
        ),  # fmt: skip
        "The max order is the largest quantity you can order at once (a supplier or truck limit).",
    ),
    "max_inventory": (
        TokenCue(inside=("capacity", "storage"), phrases=(("max", "inventory"), ("maximum", "inventory"))),
        "The storage capacity is the most units you can keep at once.",
    ),
    "time_horizon": (
        TokenCue(inside=("horizon",), phrases=(("planning", "period"),)),
        "The planning horizon is how many days the plan covers, for example 90 days for a quarter.",
    ),
    "perishability": (
        TokenCue(inside=("perish", "spoil", "expir")),
        "Perishable means unsold stock spoils and is thrown away at the end of each day, like fresh bread; "
        "non-perishable stock carries over to the next day.",
    ),
    "state_transition_model": (
        TokenCue(
            inside=("backlog", "backorder", "transition"), phrases=(("back", "-", "order"), ("lost", "sale"))
        ),
        "That is what happens when you run out: a lost sale (the customer buys elsewhere) or a backlog (the "
        "customer waits and is served when stock arrives).",
    ),
    "demand_distribution": (
        TokenCue(
            inside=("demand", "distribution", "poisson", "normal", "uniform"),
            phrases=(("standard", "deviation"),),
        ),
        "Demand is how many units customers want per day: give me the typical daily amount and how much it "
        "varies, or a distribution such as 'Poisson with mean 8'.",
    ),
}
"""A question naming a row (its words, read from the one parse's tokens), and what the row means; the pending
row's meaning answers confusion ('huh?', 'what does that mean?')."""
ROW_HELP["demand_type"] = ROW_HELP["demand_distribution"]
_SEVERAL = "several amounts"
_ACT_CONFIDENCE = 0.6
"""How sure the learned dialogue act must be before the agent acts on it alone (no value read)."""


_MEASURE_WORDS = {"kg": "kilos", "g": "grams", "lb": "pounds", "oz": "ounces", "litre": "litres", "ml": "ml",
                  "gallon": "gallons", "quart": "quarts", "tonne": "tonnes", "m": "metres"}  # fmt: skip


def _measured(parsed: Message) -> list[str]:
    """The measures (kg, litre, ...) of the amounts a message states, not of a sized item ('the 10 kilo bags');
    none when it also counts items or containers ('3 kilos a day, so 12 bags')."""
    amounts = [m for m in parsed.of(Kind.QUANTITY) if m.role != "size" and m.live]
    if any(m.unit == "item" or m.container for m in amounts):
        return []
    return list(dict.fromkeys(str(m.unit) for m in amounts if m.unit in MEASURE_UNITS))


def _sizes_said(parsed: Message) -> str:
    """What a message says one item or container holds, in words ('one bag holds 10 kg'), for a reply to a
    message that states only sizes (they are remembered, so the reply says so instead of 'no value found')."""
    said = [
        f"one {m.container or 'unit'} holds {format_number(float(m.value))} {m.unit}"
        + ("s" if m.unit in ("litre", "gallon", "tonne") and float(m.value) != 1 else "")
        for m in parsed.of(Kind.QUANTITY)
        if m.role == "size" and m.unit in MEASURE_UNITS and float(m.value) > 0
    ]
    said += [f"one {c} holds {format_number(n)} units" for c, n in container_sizes(parsed).items()]
    return "; ".join(dict.fromkeys(said))


def _sized_items(parsed: Message) -> dict[str, float]:
    """The measures of sized items a message states ('the 20-kilo sacks': {'kg': 20})."""
    return {
        m.unit: float(m.value)
        for m in parsed.of(Kind.QUANTITY)
        if m.role == "size" and m.unit and m.unit != "item" and float(m.value) > 0
    }


_LONG_KEEP = 21
"""Days of shelf life from which stock is read as not perishable: what keeps three weeks, months or years never has
to be thrown out at the end of a day (the engine's perishable stock expires daily)."""


def _item_weights(parsed: Message) -> dict[str, float]:
    """One item's measure said beside its name ('fillets, about half a kilo each': {'kg': 0.5}): learnt for later
    messages; the message itself keeps the amount (it states the size, no demand to divide)."""
    return {
        m.unit: float(m.value)
        for m in parsed.of(Kind.QUANTITY)
        if m.per == "unit" and m.role != "size" and m.unit and m.unit != "item" and float(m.value) > 0
    }


def _rate_sizes(parsed: Message) -> dict[str, float]:
    """One item's measure said beside an amount per period in that measure ('45 litres a month ..., they're 500ml
    each'): used for this very message too, so the amount is counted in items."""
    rated = {m.unit for m in parsed.of(Kind.QUANTITY) if m.period and m.unit}
    weights = _item_weights(parsed)
    return {u: v for u, v in weights.items() if any(sized_measure(r, {u: v}) for r in rated)}


_NEGATIONS = frozenset(["no", "not", "don't", "dont", "never", "doesn't", "isn't", "won't", "nope", "nah"])
"""A reply with one of these may say the opposite of the recommended option: never settled as (A) by repeating."""


def _same_span(finding: Finding, days: float) -> bool:
    """Whether a finding is a horizon or delivery time of `days`: the shelf life the reply gave, read twice."""
    return finding.key in ("time_horizon", "lead_time") and any(n.value == days for n in find_numbers(finding.value))


def _spoils(reading: Reading) -> str | None:
    """'true' / 'false' when a reply states whether stock spoils, read as an answer to the spoil question; None
    when it gives a shelf life ('a bottle keeps about a week'), which the question's own options read."""
    text = ", ".join(s for _, s in reading.segments)
    if any((m.days or 0) > 1 for m in parse(text).of(Kind.DURATION)):
        return None
    return read_message(text, "perishability").perishable or reading.perishable  # read as the question asked


def _holds(table: ParameterTable, key: str, numbers: tuple[float, ...]) -> bool:
    """Whether the row's current value is one of `numbers`."""
    if not table.is_defined(key):
        return False
    return any(n.value in numbers for n in find_numbers(table.value(key) or ""))


def _of_kind(key: str, kinds: frozenset[Kind]) -> bool:
    """Whether a row can hold figures of the kinds a message took back (any row when the kinds are mixed or
    unknown): durations only a duration row, money only a cost row."""
    if kinds == {Kind.DURATION}:
        return key in _DURATION_ROWS
    if kinds == {Kind.MONEY}:
        return key in ("holding_cost", "penalty_cost", "setup_cost")
    return True


class ExtractionAgent(ExtractionBase):
    """Deterministic slot-filling dialogue over the Parameter Specification Table.

    >>> agent = ExtractionAgent()
    >>> agent.respond("Lead time is about ten days").table["lead_time"]["value"]
    '10'
    """

    def __init__(self, table: ParameterTable | None = None) -> None:
        super().__init__(table)
        warm_up()
        self._touched: list[str] = []
        self._order_up_to_capacity = False
        self._preface: list[str] = []
        self._afterword: list[str] = []
        self._refused: tuple[str, str] | None = None  # a horizon or delivery time refused (`_lead_not_longer`)
        self._insisted: dict[str, str] = {}  # a horizon or delivery time said again after its refusal
        self._unsure = ""
        self._parsed: Message | None = None  # this message's one parse, for the last look (`vetting.doubt`)

    def _finish(self, notes: list[str], problems: list[SpecError]) -> CopilotTurn:
        """The base turn, after the answer to a question asked beside the values (`split_asked`) and before
        what the written values imply (`_order_over_storage`)."""
        (preface, self._preface), (after, self._afterword) = (self._preface, []), (self._afterword, [])
        return super()._finish([*preface, *notes, *after], problems)

    def respond(self, user_text: str) -> CopilotTurn:
        """Update the table from one user message and return the next agent turn."""
        user_text, cut = clean(user_text)
        self.state.log.append(("user", user_text))
        notes: list[str] = (
            [f"(Your message was long; I read its first {MAX_CHARS:,} characters.)"] if cut else []
        )
        problems: list[SpecError] = []
        expected = self.state.asked
        asked, rest = split_asked(user_text)
        if asked and rest:  # 'what's a 5 on that scale? I don't like gambling': answer, then read the rest
            self._preface = [self._answer_question(asked, intents.predict(asked))]
            user_text = rest
        self._unsure = user_text.strip() if unsure(user_text) and not self.table.conflicts else ""
        act = intents.predict(user_text)
        if self._user_asks(user_text, act):
            return self._finish([self._answer_question(user_text, act)], [])
        if (kept := self._keeps_filled(user_text, expected)) is not None:
            return self._finish([kept], [])
        if wants_skip(user_text) and not find_numbers(user_text):
            said = self._skip(expected)
            refused = (
                expected is not None and not self.table.is_defined(expected) and not self.table.conflicts
            )
            if refused and expected in ROW_KEYS:
                return self._finish([], [SpecError(expected, said[0])])
            return self._finish(said, [])
        parsed = self._parsed = parse(user_text)
        self._named_packs(parsed)
        self._learn_unit(parsed)
        measures = _sized_items(parsed) | _rate_sizes(parsed)  # 'the 10 kilo bags': {'kg': 10}, this message too
        reading = read_message(
            self._planned(parsed, self._counted(user_text), notes),
            expected or self._conflict_row(),
            self._sizes() | measures,
        )
        reading = self._two_means(user_text, reading, expected)
        self.state.sizes |= {c: n for c, n in container_sizes(parsed).items() if c != self.state.counted_in}
        self.state.supplied_in |= plan_unit.supplied_in(parsed)
        self._own_packs(parsed)
        self.state.sizes |= measures | _item_weights(parsed)
        if (
            reading.demand is not None
            and self.state.count_unit is None
            and (weighed := _measured(parsed))
            and all(sized_measure(u, self.state.sizes) is None for u in weighed)  # sized: counted in items
        ):
            if not self._measured_before(weighed) and not self.table.conflicts:  # '60 kilos a day' of bags: asked
                problems.append(SpecError("demand_distribution", self._measure_question(weighed[0])))
                reading = replace(reading, demand=None)
            else:  # said in that measure again (or stored in it before): the table counts it
                self.state.count_unit = weighed[0]
                word = _MEASURE_WORDS.get(weighed[0], weighed[0])
                notes.append(f"I count your stock in {word}: one unit of the table is one {weighed[0]}")
        handled: set[str] = set()
        before = self.table.values()
        had_conflict = bool(self.table.conflicts)
        if had_conflict and not is_question(user_text):
            pending = self.table.conflicts[0]
            handled = self._resolve(pending, reading, notes, problems)
            if not handled and pending.kind == "container_size":  # '24 to a case': a size the reading set aside
                handled = self._sized(pending, user_text, notes, problems)
            if not handled and self._repeated(user_text) and pending in self.table.conflicts:
                handled = self._repeat_settles(pending, notes, problems)
            if handled and (
                pending.kind == "container_size" or (pending.kind == "risk_scale" and len(reading.segments) == 1)
            ):
                reading = Reading(segments=reading.segments)  # '12 bottles' was the size, '2' the risk
        reading = self._unsized(parsed, reading, notes)
        reading = self._unmeasured(parsed, reading, problems)
        reading = self._money_per_measure(parsed, reading, problems)
        reading = self._money_per_container(parsed, reading)
        reading = self._count_basis(user_text, reading, expected, notes)
        reading = self._contents_basis(user_text, reading, expected, notes)
        reading = _two_places(reading, parsed, expected)
        reading = _each_holds(reading, parsed, expected)
        had_demand = self.table.is_defined("demand_distribution")
        self._apply(reading, handled, notes, problems, expected, had_conflict, parsed)
        if not had_demand and (unit := self._counted_unit()):
            notes.append(unit)
        for conflict in cf.semantic(self.table):
            self.table.open(conflict)
        self._doubt_implausible()
        if noted := [n for n in notes if not n.startswith("Got it")]:
            noted += list(reading.notes)
            notes = [n for n in notes if n.startswith("Got it")] + ["Noted: " + "; ".join(noted) + "."]
        elif reading.notes and not reading.empty:  # asked rather than written: the reading said all the same
            notes.append("I read: " + "; ".join(reading.notes) + ".")
        nothing = [f"Noted: {learnt}."] if (learnt := _sizes_said(parsed)) else [_NOTHING]
        if reading.empty and not handled and not problems and not notes:
            said = self._by_act(act, expected, notes, problems) or self._nothing_read(user_text, reading)
            notes += nothing if learnt and said == _NOTHING else [said, *(nothing if learnt else [])]
        elif expected and not handled:
            silent = not (notes or problems or self.table.conflicts) and self.table.values() == before
            notes += self._other_row(expected, reading, before) or (nothing if silent else [])
        if not handled and self.table.values() == before and self._repeated_unread(parsed, user_text, expected):
            notes.clear()
            problems.clear()
        return self._finish(notes, problems)

    def _keeps_filled(self, text: str, expected: str | None) -> str | None:
        """'yes' (no value) to a question about a row that is already filled (re-asked after a reading that could
        not be used): the filled value stays and the talk moves on, never the same question again."""
        if expected not in ROW_KEYS or not self.table.is_defined(str(expected)) or self.table.conflicts:
            return None
        if polarity(text) is not Polarity.YES or find_numbers(text):
            return None
        return f"I kept the {LABELS[str(expected)]} at {self.table.value(str(expected))}."

    def _repeated_unread(self, said: Message, text: str, expected: str | None) -> bool:
        """The same reply again to a numeric question it did not answer, holding one plain amount (no rent, no
        price): never a loop of re-asks; the amount is put to the user for the row asked ('penalty cost = 5
        (yes)?'), not written."""
        amounts = said.of(Kind.QUANTITY, Kind.MONEY, Kind.DURATION)
        if (
            expected not in _CONFIRMED_ROWS
            or self.table.is_defined(str(expected))
            or self.table.conflicts
            or not self._repeated(text)
            or len(amounts) != 1
            or amounts[0].role is not None
            or amounts[0].value is None
        ):
            return False
        try:
            cells = self.table.check((Cell(str(expected), format_number(amounts[0].value)),))
        except SpecError:
            return False
        self.table.open(cf.repeated_value(cells, text.strip()))
        return True

    def _conflict_row(self) -> str | None:
        """The one count row a pending (A)/(B)-or-another-number question is about: '60 loaves' answers it (the
        row asked), it is no daily demand; demand when a question about how demand varies is answered with an amount
        in a measure."""
        if not self.table.conflicts:
            return None
        conflict = self.table.conflicts[0]
        keys = conflict.keys
        if conflict.kind in _DEMAND_ASKED and any(m.unit in MEASURE_UNITS and m.per for m in self._parsed.mentions):
            return "demand_distribution"  # 'we go through about 14 litres a week': demand in a measure, read as such
        single = conflict.kind in _ANOTHER_NUMBER_KINDS and len(keys) == 1 and keys[0] in _COUNT_ROWS
        return keys[0] if single else None

    def _repeated(self, text: str) -> bool:
        """Whether the user sent the same reply as the one before (a clarification it did not settle)."""
        said = [t for role, t in self.state.log if role == "user"]
        return len(said) >= 2 and _words(said[-2]) == _words(text)

    def _repeat_settles(self, conflict: Conflict, notes: list[str], problems: list[SpecError]) -> set[str]:
        """The same reply twice to a clarification it does not settle: never asked a third time; its first option
        (keep the value, the recommended reading) is taken and read back, so the user can still change it."""
        if not conflict.options or conflict.kind == "confirm_value":
            return set()  # a value put to the user for a yes is never taken without one
        option = conflict.options[0]
        try:
            applied = self._write(option.cells)
        except SpecError as err:
            problems.append(err)
            return set()
        self.table.close(conflict)
        self._touch(c.key for c in applied)
        notes.append(
            f"Got it (the same answer twice, which matches no option, so I took ({option.label}) "
            f"{option.description}): " + ", ".join(f"{LABELS[c.key]} = {_show(c)}" for c in applied)
            + "; tell me if you meant something else."
        )
        return set(conflict.keys)

    def _planned(self, said: Message, text: str, notes: list[str]) -> str:
        """The pack the owner sells or plans in becomes the table's unit ('we sell them in packs of six'), and
        counts of its contents are said in packs, read back ('120 sausages ÷ 6 per pack = 20 packs')."""
        if (
            self.state.planned is None
            and not self.table.is_defined("demand_distribution")
            and (unit := plan_unit.stated(said)) is not None
        ):
            self.state.planned, self.state.counted_in = unit, unit.container
            return plan_unit.unsized(text, said, unit)
        if any(c.kind == "count_basis" for c in self.table.conflicts):
            return text  # cases or bottles asked: '9 bottles a day' again is bottles, it answers (B)
        if self.state.planned is None:
            return self._unit_unsized(said, text)
        return plan_unit.in_plan_unit(text, parse(text), self.state.planned, notes)

    def _unit_unsized(self, said: Message, text: str) -> str:
        """'we sell them by the bunch', then '6 bunches a day, 12 stems in each': the container the table counts
        is never multiplied by a size said beside it (its size statement is read as the container's name)."""
        unit = self.state.counted_in
        return text if unit is None else plan_unit.unsized(text, said, plan_unit.PlanUnit(unit, 1.0, frozenset()))

    def _count_basis(self, text: str, reading: Reading, expected: str | None, notes: list[str]) -> Reading:
        """Demand said only in a pack the goods come in ('they come in packs of 8', then '3 to 6 packs a day'):
        packs or single units? Asked (`cf.count_basis`), never written in either unit."""
        container = self.state.counted_in
        if (
            container is None
            or not self._basis_unclear(container, text)
            or reading.demand is None
            or reading.demand.value is None
            or self.table.is_defined("demand_distribution")
            or any(c.kind == "count_basis" for c in self.table.conflicts)
        ):
            return reading
        items = read_message(self._counted(text), expected, self.state.sizes).demand
        if items is None or items.value is None or items.value == reading.demand.value:
            return reading
        kind = reading.demand.demand_type or "random"
        planned = self.state.planned
        size = planned.size if planned is not None else self.state.sizes[container]
        word = plan_unit.said_in_contents(parse(text), planned) if planned is not None else ""
        self.table.open(cf.count_basis(container, size, kind, reading.demand.value, items.value, word))
        notes[:] = [n for n in notes if " ÷ " not in n]  # both readings are in the question, none is written
        notes.append(f"demand said in {container}s of {format_number(size)}")
        return replace(reading, demand=None)

    def _own_packs(self, said: Message) -> None:
        """Packs the owner names their goods in ('made up in packs of 6'), kept (with their sizes) until demand
        is written: demand in their contents is then asked (`_contents_basis`)."""
        if self.table.is_defined("demand_distribution") or self.state.planned is not None:
            return
        packs = plan_unit.own_packs(said)
        if self.state.counted_in in packs:
            return  # 'we sell it by the six-pack': the pack is the table's unit, named outright
        for pack, size in packs.items():
            self.state.own_packs[pack] = size
            self.state.sizes.setdefault(pack, size)

    def _contents_basis(self, text: str, reading: Reading, expected: str | None, notes: list[str]) -> Reading:
        """Demand said in the contents of a pack the owner names ('sausages, made up in packs of 6', then '120
        sausages a day'): packs or single items is open, so it is asked with both readings (`cf.count_basis`),
        never written in either unit; the answer fixes the table's unit for the rest of the conversation."""
        if (
            not self.state.own_packs
            or self.state.counted_in in self.state.own_packs  # '15 six-packs a day': said in the pack itself
            or self.state.planned is not None
            or reading.demand is None
            or reading.demand.value is None
            or self.table.is_defined("demand_distribution")
            or any(c.kind == "count_basis" for c in self.table.conflicts)
        ):
            return reading
        pack, size = max(self.state.own_packs.items(), key=lambda kv: (kv[0][0].isalpha(), kv[0]))
        said = parse(text)
        nouns = frozenset(w for w in said.words() if w.isalpha())
        divided: list[str] = []  # '80 pies ÷ 4 per box = 20 boxes': the amount is said in the pack's contents
        plan_unit.in_plan_unit(text, said, plan_unit.PlanUnit(pack, size, nouns), divided)
        packs = plan_unit.per_pack(reading.demand.value, size)
        if packs is None or not divided:
            return reading
        kind = reading.demand.demand_type or "random"
        word = divided[0].split()[1] if len(divided[0].split()) > 1 else ""
        self.table.open(cf.count_basis(pack, size, kind, packs, reading.demand.value, word.lower()))
        notes[:] = [n for n in notes if " ÷ " not in n]
        notes.append(f"demand said in the contents of {plural(pack)} of {format_number(size)}")
        return replace(reading, demand=None)

    def _packs_named(self, conflict: Conflict) -> bool:
        """Whether the reply to a packs-or-items question named the pack as the unit ('count four-packs', which
        `plan_unit.stated` made the pack the owner plans in)."""
        planned = self.state.planned
        return (
            conflict.kind == "count_basis"
            and planned is not None
            and dict(conflict.data)["container"] in self.state.own_packs  # asked by `_contents_basis`
            and planned.container in self.state.own_packs
        )

    def _own_pack_picked(self, container: str, packs: bool, items: str) -> None:
        """The answer to a pack the owner names ('made up in packs of 6'): packs make it the pack the owner plans
        in (later counts of its contents are divided); single items keep its size, so '40 packs' is multiplied."""
        size = self.state.own_packs.get(container)
        if size is not None and packs and self.state.planned is None:
            self.state.planned = plan_unit.PlanUnit(container, size, frozenset({items} - {""}))
            for name in [c for c, n in self.state.own_packs.items() if n == size]:  # 'four-pack' and '4-pack'
                self.state.sizes.pop(name, None)
        self.state.own_packs = {}

    def _basis_unclear(self, container: str, text: str) -> bool:
        """Whether demand may be counted in packs or in single items: said in a pack the goods come in ('they
        come in packs of 8'), or in an unnamed item word after 'we sell prosecco in cases of 6' ('9 bottles')."""
        if self.state.planned is None:
            return container in self.state.supplied_in
        return bool(plan_unit.said_in_contents(parse(text), self.state.planned))

    def _sizes(self) -> dict[str, float]:
        """The container sizes to multiply out: every size stated so far, except the container demand is
        counted in (then that container is the table's unit)."""
        asked = {dict(c.data)["container"] for c in self.table.conflicts if c.kind == "count_basis"}
        asked |= set(self.state.own_packs) if asked else set()  # 'six-pack' asked: '6-pack' too
        return {c: n for c, n in self.state.sizes.items() if c != self.state.counted_in and c not in asked}

    def _two_means(self, text: str, reading: Reading, expected: str | None) -> Reading:
        """'we shift 3 or 4 a day, it varies': two typical amounts are no Poisson of the first; the middle is put
        to the user in the how-does-it-vary question (a value never written without being asked)."""
        demand = reading.demand
        if _typical(demand) is not None and (maybe := _maybe_second(text)) is not None:
            means: list[float | None] = list(maybe)  # 'about 6 a day, maybe 7'
        elif _typical(demand) is None or (ends := split_range(words_to_digits(text))) is None:  # 'one or two'
            return reading
        else:
            means = [_typical(read_message(self._counted(end), expected, self._sizes()).demand) for end in ends]
        if means[0] is None or means[1] is None or means[0] == means[1] or demand is None:
            return reading
        middle = (means[0] + means[1]) / 2
        said = f"{format_number(means[0])} or {format_number(means[1])} a day: I took the middle"
        return replace(reading, demand=replace(demand, value=None, mean_only=middle, note=said))

    def _unsized(self, said: Message, reading: Reading, notes: list[str]) -> Reading:
        """A count row read from a count of containers of unknown size ('the walk-in fits 30 cases' once demand
        is counted in six-packs): not written; the agent asks how many units one container holds."""
        if not self.table.is_defined("demand_distribution"):
            return reading
        outer = _OUTER_CONTAINERS if self.state.counted_in else _NEVER_THE_ITEM  # demand said without an item word
        unsized = [  # ('15 a day'): a carton may be the item itself, a case or a pallet never is
            m
            for m in said.of(Kind.QUANTITY)
            if m.container in outer
            and m.multiplier == 1
            and m.role != "size"
            and m.container != self.state.counted_in
            and m.container not in self.state.sizes
        ]
        kept = []
        for f in reading.findings:
            m = next((m for m in unsized if f.key in _COUNT_ROWS and format_number(float(m.value)) == f.value), None)
            if m is None or m.container is None:
                kept.append(f)
            elif (size := _size_said(said, m.container, self.state.sizes)) is not None:  # '20 cases, 4 six-packs a case'
                self.state.sizes[m.container] = size
                total = format_number(float(m.value) * size)
                plural = m.container + ("es" if m.container.endswith(("x", "s")) else "s")
                note = f"{format_number(float(m.value))} {plural} × {format_number(size)} = {total} units"
                kept.append(replace(f, value=total, note=note))
            else:
                self.table.open(cf.container_size(f.key, f.value, m.container))
                notes.append(f"{m.text.strip()} for the {LABELS[f.key]}, once I know the size of a {m.container}")
        return reading if tuple(kept) == reading.findings else replace(reading, findings=tuple(kept))

    def _unmeasured(self, said: Message, reading: Reading, problems: list[SpecError]) -> Reading:
        """A count row said in a measure of unknown size once demand is counted in items ('the storeroom takes 900
        kilos' after '4 bags a day'): asked, as demand in that measure is, never written as 900 bags."""
        if not self._counts_items():
            return reading
        weighed = {
            format_number(float(m.value)): str(m.unit)
            for m in said.of(Kind.QUANTITY)
            if m.unit in MEASURE_UNITS and m.role != "size" and m.live and m.value is not None
            and sized_measure(str(m.unit), self.state.sizes) is None
        }  # fmt: skip
        kept = []
        for f in reading.findings:
            if f.key not in _COUNT_ROWS or (unit := weighed.get(f.value)) is None:
                kept.append(f)
                continue
            problems.append(SpecError(f.key, self._in_items(unit, money=False)))
        return reading if len(kept) == len(reading.findings) else replace(reading, findings=tuple(kept))

    def _counts_items(self) -> bool:
        """Whether demand is written and counted in items, not in a measure: an amount in a measure of unknown
        size is then asked about (`_unmeasured`, `_money_per_measure`)."""
        return self.table.is_defined("demand_distribution") and self.state.count_unit is None

    def _in_items(self, unit: str, *, money: bool) -> str:
        """The question for an amount said in a measure, or money per a measure, while demand is counted in items:
        the amount in items (or per item), or the item's size in that measure."""
        one = self.state.counted_in or "unit"
        many, word = plural(one), _MEASURE_WORDS.get(unit, unit)
        said, ask = (f"per {unit}", f"what is it per {one}") if money else (f"in {word}", f"how many {many} is that")
        return f"that is {said}, but your demand is counted in {many}; {ask}, or how many {word} does one {one} hold?"

    def _money_per_measure(self, said: Message, reading: Reading, problems: list[SpecError]) -> Reading:
        """A holding or penalty cost said per kilo (litre, pound) while the table counts items: per item when
        one item's size in that measure is known ('1 cent per kilo a day' of 10 kilo bags = $0.1 a bag), else
        asked, never written as so much per item."""
        if not self._counts_items():
            return reading  # demand in that measure makes it the table's unit; before demand, the unit is open
        money = [m for m in said.of(Kind.MONEY) if m.live]
        measured = [m for m in money if (m.per or "").split("/")[0] in MEASURE_UNITS]
        if len(measured) != 1 or len(money) != 1:
            return reading
        unit = str(measured[0].per).split("/")[0]
        size = sized_measure(unit, self.state.sizes)
        one = self.state.counted_in or "unit"
        kept = []
        for f in reading.findings:
            if f.key not in ("holding_cost", "penalty_cost"):
                kept.append(f)
            elif size is not None:
                each = format_number(float(f.value) * size)
                kept.append(replace(f, value=each, note=f"${f.value} per {unit} × {format_number(size)} {unit} a {one}"
                                                         f" = ${each} per {one}"))  # fmt: skip
            else:
                problems.append(SpecError(f.key, self._in_items(unit, money=True)))
        return reading if kept == list(reading.findings) else replace(reading, findings=tuple(kept))

    def _money_per_container(self, said: Message, reading: Reading) -> Reading:
        """A holding or penalty cost said per container of known size while the table counts what it holds ('5
        cents a pack a day' of 30-tortilla packs, tortillas counted): divided by the size and read back ('$0.05 per
        pack ÷ 30 a pack = $0.0017 per unit', to the table's four decimals), never written as so much per item."""
        money = [m for m in said.of(Kind.MONEY) if m.live]
        if len(money) != 1:
            return reading
        toks = said.toks
        k = next((i for i, t in enumerate(toks) if t.start >= money[0].span[1]), len(toks))
        while k < len(toks) and toks[k].low in ("a", "an", "per", "each", "every"):
            k += 1
        container = CONTAINERS.get(toks[k].low) if k < len(toks) else None
        per = (money[0].per or "").split("/")[0]  # 'a box of 5 reams costs me about 10 cents a day': per box
        container = container or (per if per in CONTAINERS.values() else None)
        size = self.state.sizes.get(container) if container and container != self.state.counted_in else None
        if not size or size <= 1:
            return reading
        kept = [
            replace(f, value=format_number(float(f.value) / size), note=f"${f.value} per {container} ÷ "
                    f"{format_number(size)} a {container} = ${format_number(float(f.value) / size)} per unit")
            if f.key in ("holding_cost", "penalty_cost") else f
            for f in reading.findings
        ]  # fmt: skip
        return reading if kept == list(reading.findings) else replace(reading, findings=tuple(kept))

    def _sized(self, conflict: Conflict, text: str, notes: list[str], problems: list[SpecError]) -> set[str]:
        """The answer to 'how many units does one case hold?': the row is the count times that size."""
        said = parse(text)
        found = [m for m in said.of(Kind.QUANTITY) if m.amount > 0]
        if not found:
            return set()
        sizes = [m.amount for m in found]
        data = dict(conflict.data)
        count, container, key = float(data["count"]), data["container"], conflict.keys[0]
        counted = self.state.counted_in
        raw = parse(self.state.log[-1][1]) if self.state.log else said  # before the table's unit was rewritten
        in_table_unit = counted is not None and any(m.container == counted for m in raw.of(Kind.QUANTITY))
        if (
            found[0].multiplier == 1
            and count >= 2
            and (sizes[0] >= 10 * count or sizes[0] == count or (in_table_unit and sizes[0] >= 2 * count))
            # a crate of 24 for 6 crates is a size; 240 for 20 cases, the count itself ('150' after '150 boxes'),
            # or 80 of the table's own six-packs for 20 cases, may be the total
            and sizes[0] % count == 0
            and not _PER_ONE & set(said.words())
        ):  # '240 bottles' after '20 cases': a case of 240, or 240 in all? asked, never multiplied silently
            self.table.close(conflict)
            self.table.open(cf.size_or_total(key, count, container, sizes[0]))
            return {key}
        self.state.sizes[container] = sizes[0]
        total = format_number(count * sizes[0])
        self.table.close(conflict)
        plural = container + ("es" if container.endswith(("x", "s")) else "s")
        note = f"{format_number(count)} {plural} × {format_number(sizes[0])} = {total} units"
        self._propose((Cell(key, total, "units"),), note, True, notes, problems)
        return {key}

    def _measured_before(self, units: list[str]) -> bool:
        """Whether an earlier message of the user stated an amount in one of these measures ('the tank holds 40
        litres'): the owner counts in that measure, so demand in it is no mismatch."""
        earlier = [t for role, t in self.state.log[:-1] if role == "user"]
        return any(set(units) & set(_measured(parse(t))) for t in earlier)

    def _measure_question(self, unit: str) -> str:
        """Why demand in a measure of unknown size is asked, and how to answer: in items, the size of one, or the
        same measure again (then the table counts it)."""
        word = _MEASURE_WORDS.get(unit, unit)
        if counted := self._counted_rows():
            return (f"your {counted} is counted in units, but this is in {word}; how many units is that a day (or "
                    f"how many {word} does one unit hold?)")  # fmt: skip
        return (f"that is in {word}; if you count items (bags, bottles, packs), how many is that a day, or how many "
                f"{word} does one hold? If you count your stock in {word}, say the amount in {word} again")  # fmt: skip

    def _counted_rows(self) -> str:
        """The count rows already filled in units ('storage', 'largest order'), in words; '' when none is."""
        names = {"max_inventory": "storage", "max_order": "largest order"}
        return " and ".join(n for k, n in names.items() if self.table.is_defined(k))

    def _learn_unit(self, said: Message) -> None:
        """Which container the table counts, from the one parse: 'we sell it by the ream' names it; demand said
        only in a container of known size ('about 49 boxes a week' after 'boxes of 100') makes that container
        the unit. A demand that mixes containers and items ('half a crate a day, give or take 3 jars'), or that
        states the container's size ('10 cases of 12 a month'; it is multiplied out), counts items."""
        if self.table.is_defined("demand_distribution"):
            return  # demand is written in its unit: a later statement never switches the table's unit
        words = said.words()
        for i in range(len(words) - 2):
            if (
                words[i : i + 2] == ("by", "the")
                and _SELLING & set(words[max(0, i - 4) : i])
                and not plan_unit.THIRD & set(words[max(0, i - 4) : i])  # 'they sell by the case': the supplier
            ):
                named = words[i + 3 : i + 4] in (("pack",), ("packs",))  # 'we sell a cider by the twelve-pack'
                self.state.counted_in = f"{words[i + 2]}-pack" if named else _singular(words[i + 2])
                self._pack_unit(words[i + 2], self.state.counted_in) if named else None
                return
        if self.state.counted_in is not None:
            return
        self.state.singles = self.state.singles or _sells_singles(words)
        if (single := plan_unit.singles(said)) is not None:
            self.state.counted_in = single  # 'we sell single bottles': containers of known size are multiplied
            return
        counts = said.of(Kind.QUANTITY)
        rates = {m.container for m in counts if m.period is not None}
        kinds = {m.container for m in counts if m.role != "size"}
        if len(rates) == 1 and kinds == rates and (container := next(iter(rates))) is not None:
            if container in container_sizes(said):  # '2 boxes a day, a box is 24': multiplied out, items; a
                self.state.singles = True  # later '3 boxes a day, give or take half a box' is items too
                return
            if self.state.singles and container in self.state.sizes:
                return  # 'we sell single bottles', then 'a case and a half a day': 18 bottles, multiplied out
            self.state.counted_in = container  # 'about 12 boxes a day', '12 bottles a day': what the table counts
            if container in self.state.sizes:  # 'water in crates of 24', then '2 crates a day': crates or bottles?
                self.state.supplied_in.add(container)

    def _counted_unit(self) -> str | None:
        """The read-back of demand just written in containers of unknown size ('10 packs a day'): the table then
        counts packs, said so the owner can give the pack's size instead ('I count your stock in packs')."""
        container = self.state.counted_in
        if (
            not self.table.is_defined("demand_distribution")
            or container not in _OUTER_CONTAINERS
            or container in self.state.sizes
            or self.state.planned is not None
        ):
            return None
        plural = container + ("es" if container.endswith(("x", "s")) else "s")
        return (
            f"I count your stock in {plural}: one unit of the table is one {container} (if you count single items, "
            f"tell me how many one {container} holds)"
        )

    def _pack_unit(self, head: str, pack: str) -> None:
        """'we only sell it by the six-pack': a pack its name sizes, named as the unit, is the pack the owner
        plans in, so demand said in its contents ('72 cans a day') is divided and read back ('72 cans ÷ 6 per
        six-pack = 12 six-packs'), never written as 72 six-packs."""
        size = plan_unit.number_word(head)  # 'six' of 'six-pack', '4' of '4-pack'
        if size and size > 1 and self.state.planned is None:
            self.state.planned = plan_unit.PlanUnit(pack, size, frozenset())

    def _named_packs(self, said: Message) -> None:
        """A pack its name sizes ('three six-packs a day') is a pack the goods come in, as 'packs of 6': unless
        it is already the table's unit, demand said in it is asked in packs or single units (`_count_basis`)."""
        planned = self.state.planned.container if self.state.planned is not None else None
        packs = pack_sizes(said)
        if not packs or {planned, self.state.counted_in} & set(packs):
            return  # the pack the owner plans or sells in is the table's unit: counts of it stay packs
        if any(str(unit).endswith("-pack") for unit in (planned, self.state.counted_in) if unit):
            return  # 'six-packs and four-packs, and I count packs': any named pack is counted as a pack
        for pack, size in packs.items():
            self.state.sizes.setdefault(pack, size)
            self.state.supplied_in.add(pack)

    def _counted(self, text: str) -> str:
        """The message with the measure demand was given in ('litres') said as the table's unit, so a cost per
        litre is accepted once demand was accepted in litres; other measures stay and are refused."""
        unit = self.state.count_unit
        if unit is None:
            return text
        kept = [w for w in dict.fromkeys(physical_units(text)) if measure(w) == unit]
        pieces = text.split(" ")
        for i, piece in enumerate(pieces):
            word = piece.strip(".,;:!?()")
            if word in kept:
                pieces[i] = piece.replace(word, "units" if word.lower().endswith("s") else "unit")
        return " ".join(pieces)

    def _user_asks(self, text: str, act: Prediction) -> bool:
        """A question to the agent (what a term means, which option to take, what differs): answered, never
        read as a value. Order questions and what-ifs keep their own handling below."""
        asks = is_question(text) or text.rstrip().endswith("?")
        return asks and act.intent in ("ask_meaning", "recommend", "compare") and act.confidence >= 0.5

    def _by_act(
        self, act: Prediction, expected: str | None, notes: list[str], problems: list[SpecError]
    ) -> str:
        """A message with no value the rules could read, acted on by its learned dialogue act: how stock-outs
        work, a risk attitude in everyday words. Empty when the act is not clear enough."""
        if act.confidence < _ACT_CONFIDENCE:
            return ""
        if act.intent in intents.TRANSITION_ACTS and not self.table.is_defined("state_transition_model"):
            model = intents.TRANSITION_ACTS[act.intent]
            before = len(notes)
            self._propose((Cell("state_transition_model", model),), "", False, notes, problems)
            del notes[before:]
            words = (
                "a lost sale (the customer buys elsewhere)"
                if model == "lost_sale"
                else "a backlog (the customer waits)"
            )
            return f"Noted: when you are out of stock, that is {words}."
        if act.intent in intents.RISK_ACTS and (expected == "risk_tolerance" or self._risk_pending()):
            value = intents.RISK_ACTS[act.intent]
            said = self.state.log[-1][1].strip(" .!?\n")
            if value == "0":
                self._propose((Cell("risk_tolerance", "0"),), "neutral", False, notes, problems)
                return "I took that as neutral, 0 on the scale."
            self.table.open(cf.risk_scale(value, said))
            return ""
        if act.intent == "greeting":
            return "Hi! I'm happy to help."
        return ""

    def _risk_pending(self) -> bool:
        return next_is_risk(self.table)

    def _other_row(self, expected: str, reading: Reading, before: dict[str, str]) -> list[str]:
        """An answer that fills another row than the one asked: kept for that row, and said (only a row it
        changed or put to the user: a filled row read again with its own value is no news)."""
        keys = {f.key for f in reading.findings}
        if reading.transitions:
            keys.add("state_transition_model")
        if reading.perishable is not None:
            keys.add("perishability")
        pending = {k for c in self.table.conflicts for k in c.keys}
        keys = {k for k in keys if k in pending or self.table.values().get(k) != before.get(k)}
        if not keys or expected in keys or self.table.is_defined(expected) or expected not in ROW_KEYS:
            return []
        if any(c.kind == "which_row" for c in self.table.conflicts):
            return []  # asked which row it fills, nothing written
        named = ", ".join(LABELS[k] for k in keys)
        return [f"(I asked about the {LABELS[expected]}; what you said gave me the {named}.)"]

    def _skip(self, key: str | None) -> list[str]:
        """'skip' / 'use a default': a default recorded as an assumption, or (for the business's own figures)
        a request for a rough number."""
        if self.table.conflicts:
            conflict = self.table.conflicts[0]
            option = conflict.options[0] if conflict.options else None
            if option is None:
                return ["That question needs an answer from you; a rough number is fine."]
            applied = self._write(option.cells)
            self.table.close(conflict)
            self._assume(applied, f"you skipped, so I used ({option.label}) {option.description}")
            return [f"All right, I used ({option.label}) {option.description} and noted it as an assumption."]
        if key is None:
            return ["Nothing is waiting for an answer right now."]
        if key == "max_order" and self.table.is_defined("max_inventory"):
            capacity = self.table.value("max_inventory") or ""
            applied = self._write((Cell("max_order", capacity, "units"),))
            self._assume(applied, "no separate limit on order size: at most the storage capacity")
            return [f"All right: the max order is assumed to be your capacity, {capacity} units."]
        if key not in intents.DEFAULTS:
            self.state.skips[key] = self.state.skips.get(key, 0) + 1
            placeholder = intents.placeholder(key, self.table)
            if self.state.skips[key] < 2 or placeholder is None:
                return [
                    f"it is a figure of your own business, so a guess of mine could mislead the plan. A rough "
                    f"number like {intents.EXAMPLES[key]} is fine. If you really have none, say 'skip' once more "
                    "and I will put in a placeholder, marked as an assumption"
                ]
            value, unit, words = placeholder
            applied = self._write((Cell(key, value, unit),))
            self._assume(applied, words)
            return [
                f"All right, a placeholder: {LABELS[key]} = {value} ({words}). Please revise it when you can."
            ]
        value, words = intents.DEFAULTS[key]
        applied = self._write((Cell(key, value),))
        self._assume(applied, words)
        return [f"All right, I assumed {words} ({LABELS[key]} = {value}); it is listed as an assumption."]

    def _assume(self, cells: tuple[Cell, ...], words: str) -> None:
        for cell in cells:
            self.state.assumptions[cell.key] = words
        self._touch(c.key for c in cells)

    def _nothing_read(self, text: str, reading: Reading) -> str:
        """What to say when a message holds no value: an order question, an opening story about the business,
        or noise."""
        if is_question(text):
            return self._answer_question(text, intents.predict(text))
        said = parse(text)
        if (
            self.table.conflicts
            and len(self.table.conflicts[0].options) > 1
            and len(said.words()) <= 3
            and any(m.value in ("yes", "no") for m in said.of(Kind.ANSWER))
        ):  # 'yes' to '(A) keep 7 or (B) change to 5?': read for the question it answers, which it does not
            return "A yes or a no does not tell me which option you mean; please reply with its letter."
        if any(topic == STATE for topic, _ in reading.segments) or about_stock(text):
            return (
                "That sounds like a question about what to order right now; I can answer it once the "
                "parameter table is complete."
            )
        if not _told_amounts(text) and not self.table.values() and not self.table.conflicts:
            hello = "Hi! " if greets(text) else ""
            return f"{hello}Thanks for telling me about your business, I'm happy to help with that."
        durations = find_durations(text)
        spans = [m for m in said.of(Kind.DURATION) if not m.scope & (Scope.NEGATED | Scope.CORRECTED)]
        if durations and spans and all(m.role == "shelf_life" for m in spans):
            if not self.table.is_defined("perishability"):  # 'they last a week or so in the cooler'
                self.table.open(cf.shelf_life(durations[0].days))
                return ""
            return _NOTHING
        if durations and any(m.role != "open" for m in spans):  # '56 days' to a cost question: which span it is
            days = format_number(durations[0].days)
            now = {k: f" (now {self.table.value(k)} days)" if self.table.is_defined(k) else "" for k in _DURATION_ROWS}
            return (
                f"I read {days} days, but is that the planning horizon{now['time_horizon']} or the delivery lead "
                f"time{now['lead_time']}? Say for example 'plan for {days} days' or 'deliveries take {days} days'."
            )
        return _NOTHING

    def _answer_question(self, text: str, act: Prediction | None = None) -> str:
        """A short answer to a question asked while the table is being filled; the pending question follows.
        Which option to take, or how the options differ, is answered from the open clarification; a question
        naming a row (or confusion about the pending one) gets what that row means."""
        if act is not None and act.intent in ("recommend", "compare") and act.confidence >= 0.5:
            if self.table.conflicts:
                return _about_options(self.table.conflicts[0], act.intent)
            key = _row_asked_about(text) or self.state.asked
            if key in intents.DEFAULTS and act.intent == "recommend":
                meaning = ROW_HELP[key][1] if key in ROW_HELP else intents.MEANINGS[key]
                return f"{meaning} If you are unsure, {intents.DEFAULTS[key][1]} is a sensible default (say 'use a default')."
        said = parse(text)
        if _WHAT_IF.found(said.toks):
            return (
                "The table records your business as it is today. If demand (or anything else) changes, tell me "
                "the new figure and I will update the table; once a policy is computed you can also compare "
                "scenarios in the Policy Simulator."
            )
        key = next((k for k, (cue, _) in ROW_HELP.items() if _names_row(k, cue, said.toks)), None)
        pending = self.table.conflicts[0].keys[0] if self.table.conflicts else self.state.asked
        if _PERIOD.found(said.toks) and (per := _per_what(key or pending, self.table)):
            return per  # 'is that per day or per week?'
        if key is None and (about_stock(text) or about_ordering(text)):
            if pending != "risk_tolerance":
                return "Good question; I can answer questions about ordering once the parameter table is complete."
            return (
                "Good question; I can answer questions about ordering once the policy is computed, and that "
                f"needs one last item. {ROW_HELP['risk_tolerance'][1]}"
            )
        if (
            key is None
            and pending != "risk_tolerance"
            and self.table.conflicts
            and self.table.conflicts[0].options
        ):
            return (
                "Each option below says what I would put in the table; reply with its letter, or tell me the "
                "value in your own words."
            )
        key = key or pending
        if key in ROW_HELP:
            return ROW_HELP[key][1]
        return "Good question; I can answer questions about the policy once the parameter table is complete."

    def _resolve(
        self, conflict: Conflict, reading: Reading, notes: list[str], problems: list[SpecError]
    ) -> set[str]:
        """Settle the first open conflict from the parts of the reply that do not name another row."""
        if conflict.kind == "which_row" and any(f.key in conflict.keys for f in reading.findings):
            self.table.close(conflict)  # '7.20 per missed sale' to '(A) penalty = 10.8 or (B) lead time = 10.8?'
            return set()  # the stated value is read as any other
        if conflict.kind == "container_size":  # '12 bottles' answers it whatever row its words suggest
            return self._sized(conflict, ", ".join(s for _, s in reading.segments), notes, problems)
        text = _relevant(conflict, reading)
        if conflict.kind == "risk_scale" and len(reading.segments) == 1:
            text = reading.segments[0][1]  # 'put me at 2' answers the scale, whatever row its words suggest
        if conflict.kind == "demand_shape" and (by_cue := _shape_by_cue(conflict, reading, text)) is not None:
            cells = by_cue  # 'it goes up and down' (A), 'same every day' (B), 'give or take 2' (normal, sd 2)
        elif conflict.kind in _DEMAND_ASKED and (restated := _other_demand(conflict, reading)) is not None:
            if isinstance(restated, float):  # 'about 8 a day, random': the question again, for the new amount
                self.table.close(conflict)
                self.table.open(cf.demand_shape(restated, said_random=reading.demand is not None
                                                and reading.demand.demand_type == "random"))
                return set(conflict.keys)
            cells = restated  # '6 tubs every day, always 6': the value stated answers it, not the option words
        elif conflict.kind == "demand_shape" and _same_mean_varies(conflict, reading):
            cells = conflict.options[0].cells  # 'about 8 a day on average': the same amount, said to vary: (A)
        elif conflict.keys == ("perishability",) and (fact := _spoils(reading)) is not None:
            cells = next((o.cells for o in conflict.options if o.cells[0].value == fact), None)
        elif conflict.keys == ("state_transition_model",) and len(reading.transitions) == 1:
            cells = next((o.cells for o in conflict.options if o.cells[0].value == reading.transitions[0]), None)
        else:  # 'no, they don't spoil at the end of the day' is (B), whatever option words it shares with (A)
            cells = resolve(conflict, text) if text else None
        consumed: set[str] = set()
        if cells is None and (cells := _option_by_amount(conflict, reading)) is not None:
            consumed = {"demand_type", "demand_distribution"}  # '40 bags' answers (A) 40, it is no demand
        if cells is None and text:
            cells = self._restated(conflict, reading, text)
        if cells is not None and text and (_cost_per_unit(set(conflict.keys), text) or _bare_count_reply(set(conflict.keys), text)):
            consumed = {"demand_type", "demand_distribution"}  # '0.015 per book per day', '50 bags': no demand
        if cells is None and text and picks_normal(conflict, text):
            self.table.open(cf.demand_shape(float(dict(conflict.data)["mean"]), sd_only=True))
            return set(conflict.keys)
        if cells is None and conflict.kind == "which_row":
            cells = _option_by_finding(conflict, reading)  # '30 dollars per order' answers (A) setup cost = 30
        if cells is None and self._packs_named(conflict):
            cells = conflict.options[0].cells  # 'we count four-packs': the pack named outright is (A)
        if cells is None:
            return set()
        try:
            applied = self._write(cells)
        except SpecError as err:
            problems.append(err)
            return set(conflict.keys)
        self.table.close(conflict)
        if conflict.kind == "count_basis":  # packs picked: the pack is the unit; anything else counts items
            data = dict(conflict.data)
            packs = any(c.key == "demand_distribution" and c.value == data["packs"] for c in applied)
            self.state.counted_in = data["container"] if packs else None
            self._own_pack_picked(data["container"], packs, data.get("items", ""))
            if not packs and self.state.planned is not None:  # bottles picked: '30 cases' is then 180 bottles
                self.state.sizes[data["container"]] = self.state.planned.size
                self.state.planned = None
        self._touch(c.key for c in applied)
        notes.append("Got it: " + ", ".join(f"{LABELS[c.key]} = {_show(c)}" for c in applied) + ".")
        return set(conflict.keys) | consumed

    def _restated(self, conflict: Conflict, reading: Reading, text: str) -> tuple[Cell, ...] | None:
        """A reply that states the value itself ('keep it at 60 days', 'let's say 3') instead of an option."""
        if reading.demand and reading.demand.value and "demand_distribution" in conflict.keys:
            return (
                Cell("demand_type", reading.demand.demand_type or "random"),
                Cell("demand_distribution", reading.demand.value),
            )
        if conflict.kind in _PENALTY_UNIT_KINDS and find_money(text):
            # '7 dollars', 'it's 3 dollars a day': a stated penalty answers the (A)/(B) question; a new amount
            # with the same clash reopens it with that amount (`cf.semantic`), so it never loops on one letter
            found = next((f for f in reading.findings if f.key == "penalty_cost"), None) or read_row(
                "penalty_cost", text
            )
            return (Cell("penalty_cost", found.value, found.unit),) if isinstance(found, Finding) else None
        if conflict.kind not in _SINGLE_VALUE_KINDS or len(conflict.keys) != 1:
            return None
        key = conflict.keys[0]
        if any(u.key == key for u in reading.unclear):
            return None  # 'costs me 80 cents and sells for 2.50': the reader found it unclear, so it is no answer
        found = next((f for f in reading.findings if f.key == key), None)
        if found is None and key in ROW_KEYS and find_numbers(text):
            found = read_row(key, text)
        if (
            not isinstance(found, Finding)
            or found.choices
            or found.approximate
            or found.value == UP_TO_CAPACITY
        ):
            return None
        return (Cell(key, found.value, found.unit),)

    def _apply(
        self,
        reading: Reading,
        handled: set[str],
        notes: list[str],
        problems: list[SpecError],
        expected: str | None,
        had_conflict: bool,
        parsed: Message,
    ) -> None:
        taken = frozenset(m.kind for m in parsed.mentions if m.scope & Scope.CORRECTED)
        findings = self._own_figure(
            self._retracted(list(reading.findings), reading, expected, taken), reading, expected
        )
        if expected == "perishability" and (kept := reading.shelf_life_days):
            findings = [f for f in findings if not _same_span(f, kept)]  # 'an expiry, but it's 6 weeks out'
        numeric_loose = [s for s in reading.loose if find_numbers(s)]
        if reading.correction and numeric_loose and not findings:
            findings += self._bare_correction(numeric_loose[0], expected, set_aside(reading.notes))
        elif numeric_loose and not reading.correction and not had_conflict:
            keeps = [d.days for s in numeric_loose for d in find_durations(s) if d.days > 1]
            if expected == "perishability" and keeps and not self.table.is_defined("perishability"):
                self._shelf_said(keeps[0], handled, notes, problems)  # 'good for 3 weeks' to the spoil question
            else:
                findings += self._bare_duration(numeric_loose, {f.key for f in findings})
        findings = self._one_per_row(findings, reading.correction)
        findings = self._asked_cost_or_other(findings, reading, expected)
        for f in findings:
            if f.key in handled:
                continue
            if f.choices and f.note == _SEVERAL:
                self.table.open(self._several(f))
            elif f.approximate:
                self.table.open(cf.risk_scale(f.value, f.note))
            elif f.choices and f.note.startswith(PER_SERVING):  # '$1.50 a latte ... a carton makes 5 lattes'
                low, high, each = *f.choices, f.note.split(": ")[-1]
                said = f"Is that ${low} per serving, or ${high} per container ({each} servings a container)?"
                self.table.open(cf.range_choice(f.key, low, high, f.unit, said=said))
            elif f.choices:
                self.table.open(cf.range_choice(f.key, f.choices[0], f.choices[1], f.unit))
            elif f.value == UP_TO_CAPACITY and (amount := _amount_beside(parsed)) is not None:
                self.table.open(cf.limit_or_amount(amount, self.table.value("max_inventory")))
            elif f.value == UP_TO_CAPACITY:
                self._order_up_to_capacity = True
                if not self.table.is_defined("max_inventory"):
                    notes.append("no limit on order size, so the max order will be your storage capacity")
            else:
                if f.key == "penalty_cost" and expected == "penalty_cost":
                    f = self._backlog_answer(f, " ".join(s for _, s in reading.segments))
                correction = self._overwrites(reading, f.key, expected)
                self._propose((Cell(f.key, f.value, f.unit),), f.note, correction, notes, problems)
        self._fill_order_cap(notes, problems)
        self._apply_words(reading, handled, notes, problems)
        if reading.unnamed_money and not handled:
            self._which_cost(reading.unnamed_money[0])
        for unclear in reading.unclear:
            if unclear.key not in handled and (
                unclear.key == expected or not self.table.is_defined(unclear.key)
            ):
                problems.append(SpecError(unclear.key, unclear.message))

    def _own_figure(self, findings: list[Finding], reading: Reading, expected: str | None) -> list[Finding]:
        """'the plan says 5 but really it's 3' while the lead time is asked and the horizon is filled: a figure the
        message took back itself is replaced in the row asked, never in a filled row that did not hold it."""
        if len(findings) != 1 or expected not in ROW_KEYS or self.table.is_defined(str(expected)):
            return findings
        key = findings[0].key
        if key == expected or not self.table.is_defined(key) or self._overwrites(reading, key, expected):
            return findings
        said = " ".join(s for _, s in reading.segments)
        moved = read_row(str(expected), said) if reading.correction and compatible(str(expected), said) else None
        return [moved] if isinstance(moved, Finding) and not moved.choices else findings

    def _overwrites(self, reading: Reading, key: str, expected: str | None) -> bool:
        """Whether the message's correction may overwrite the filled row `key` without asking. A message that
        only took back its own figure ('the catalogue says 300 but really 250') corrects the row asked, or a
        filled row only when that row holds the figure taken back; any other filled row is asked (A) keep or
        (B) change."""
        if not reading.correction:
            return False
        taken = set_aside(reading.notes)
        if not taken or key == expected or not self.table.is_defined(key) or _holds(self.table, key, taken):
            return True
        return is_correction(" ".join(s for _, s in reading.segments))

    def _asked_cost_or_other(
        self, findings: list[Finding], reading: Reading, expected: str | None
    ) -> list[Finding]:
        """A figure with no money word, read as another row while a cost was asked ('the ferry is 30 a run'
        after the fee per order): it could answer either, so it is asked about (which_row), never written."""
        if (
            expected not in _COST_QUESTIONS
            or self.table.is_defined(expected)
            or len(findings) != 1
            or findings[0].key in _COST_QUESTIONS
            or findings[0].choices
            or self.table.is_defined(findings[0].key)
        ):
            return findings
        said = " ".join(s for _, s in reading.segments)
        if find_money(said) or any(w in _MONEY_NAMES for w in parse(said).words()):
            return findings
        counts = parse(said).of(Kind.QUANTITY)
        if counts and all(m.unit == "item" or m.container for m in counts):
            return findings  # 'the cooler takes 4 buckets of 25': a count of goods, never an amount of money
        cost = read_row(expected, said)
        if not isinstance(cost, Finding) or cost.choices:
            return findings
        other = findings[0]
        self.table.open(
            cf.which_row(said.strip(), (Cell(expected, cost.value, cost.unit), Cell(other.key, other.value, other.unit)))
        )
        return []

    def _which_cost(self, said: str) -> None:
        """An amount that names no cost row: asked which cost it is, each option converted for its row."""
        cells = []
        for key in ("holding_cost", "penalty_cost", "setup_cost"):
            found = read_row(key, said)
            if isinstance(found, Finding) and not found.choices and not self.table.is_defined(key):
                cells.append(Cell(key, found.value, found.unit))
        if cells:
            self.table.open(cf.which_cost(said.strip(), tuple(cells)))

    def _one_per_row(self, findings: list[Finding], correction: bool) -> list[Finding]:
        """Several different values for one row in one message (not a correction): one finding whose
        `choices` the user picks from."""
        if correction:
            return findings
        by_key: dict[str, list[Finding]] = {}
        for f in findings:
            by_key.setdefault(f.key, []).append(f)
        out = []
        for key, group in by_key.items():
            values = tuple(dict.fromkeys(f.value for f in group if not f.choices and not f.approximate))
            if len(values) > 1:
                out.append(Finding(key, values[0], group[0].unit, _SEVERAL, choices=values[:3]))
            else:
                out += group
        return out

    def _apply_words(
        self, reading: Reading, handled: set[str], notes: list[str], problems: list[SpecError]
    ) -> None:
        """Demand, the transition model and perishability."""
        demand = reading.demand
        if demand is not None and not handled & {"demand_type", "demand_distribution"}:
            if demand.options:
                self.table.open(cf.demand_conversion(demand.period, demand.options))
            elif demand.value is not None:
                cells = (
                    Cell("demand_type", demand.demand_type or "random"),
                    Cell("demand_distribution", demand.value),
                )
                correction = self._overwrites(reading, "demand_distribution", self.state.asked)
                self._propose(cells, demand.note, correction, notes, problems)
            elif demand.mean_only is not None:
                said_random = demand.demand_type == "random"
                self.table.open(cf.demand_shape(demand.mean_only, demand.note, said_random=said_random))
            elif demand.demand_type is not None:
                self._propose(
                    (Cell("demand_type", demand.demand_type),), "", reading.correction, notes, problems
                )
        if reading.transitions and "state_transition_model" not in handled:
            if len(reading.transitions) > 1:
                self.table.open(cf.transition_both())
            elif self._inferred(self.state.asked, reading):  # 'they're all pre-orders' said about demand: asked
                said = self._parsed.text.strip() if self._parsed is not None else ""  # the owner's own words
                said = said if len(said) <= _QUOTE else said[: _QUOTE - 1].rsplit(" ", 1)[0] + "…"
                self.table.open(cf.inferred_transition(reading.transitions[0], said))
            else:
                cell = (Cell("state_transition_model", reading.transitions[0]),)
                self._propose(cell, "", reading.correction, notes, problems)
        if reading.perishable is not None and "perishability" not in handled:
            if reading.shelf_life_days:
                self._shelf_said(reading.shelf_life_days, handled, notes, problems, read_back=False)
            else:
                self._propose(
                    (Cell("perishability", reading.perishable),), "", reading.correction, notes, problems
                )

    def _shelf_said(
        self, days: float, handled: set[str], notes: list[str], problems: list[SpecError], read_back: bool = True
    ) -> None:
        """A shelf life said: weeks or longer ('two years out', 'keeps a month') is no stock thrown out each
        day, so not perishable, read back; a few days asks whether to treat the stock as perishable."""
        kept = f"I read {format_number(days)} days as how long your items keep"
        if days >= _LONG_KEEP:
            note = f"{kept}, so nothing is thrown out at the end of each day"
            self._propose((Cell("perishability", "false"),), note, False, notes, problems)
            handled.add("perishability")
            return
        self.table.open(cf.shelf_life(days))
        if read_back:
            notes.append(f"{kept}, not a horizon")

    def _inferred(self, expected: str | None, reading: Reading) -> bool:
        """Whether the stock-out model was only inferred, for a row nobody asked about: another row (or none, in
        the opening 'I either have a mountain of it or none') was asked and the message says nothing of customers
        leaving or waiting when stock runs out."""
        if expected == "state_transition_model" or self.table.is_defined("state_transition_model"):
            return False
        words = {w for _, s in reading.segments for w in parse(s).words()}
        return not words & _STOCKOUT_WORDS

    def _retracted(
        self, findings: list[Finding], reading: Reading, expected: str | None, kinds: frozenset[Kind]
    ) -> list[Finding]:
        """'sorry, not 45, 55' just after the fee of 45 was written: the row holding the number taken back is
        corrected, never the row asked next (55 was written as the storage); a row named in the message keeps
        its reading, and a row of another kind than the figures taken back is no target ('a week, sometimes
        10 days, say 8' takes back durations, never the $10 fee)."""
        taken = set_aside(reading.notes)
        if not (reading.correction and taken and findings) or any(f.key != expected for f in findings):
            return findings
        if any(topic == expected for topic, _ in reading.segments):
            return findings
        last = next((k for k in reversed(self._touched) if k in ROW_KEYS and k != expected), None)
        if last is None or not _holds(self.table, last, taken) or not _of_kind(last, kinds):
            return findings
        moved = read_row(last, findings[0].value)
        return [moved] if isinstance(moved, Finding) else findings

    def _bare_correction(
        self, text: str, expected: str | None, taken_back: tuple[float, ...] = ()
    ) -> list[Finding]:
        """'Oops, 4' / 'actually make that 90 days': the most recently answered row the value fits, else
        the row just asked about. A message that took back its own number ('the list says 300 but really 250')
        corrects an earlier row only when that row holds the number taken back; else it answers the question."""
        candidates = [k for k in reversed(self._touched) if k in ROW_KEYS] + [expected or ""]
        if taken_back:
            held = [k for k in candidates[:-1] if _holds(self.table, k, taken_back)]
            candidates = held[:1] + [expected or ""]
        for key in candidates:
            if key in ROW_KEYS and compatible(key, text):
                found = read_row(key, text)
                return [found] if isinstance(found, Finding) else []
        return []

    def _bare_duration(self, loose: list[str], named: set[str]) -> list[Finding]:
        """A bare duration ('..., nothing expires, 90 days.') when exactly one duration row is still open."""
        open_rows = [k for k in _DURATION_ROWS if not self.table.is_defined(k) and k not in named]
        found: list[Finding] = []
        for text in loose:
            if len(open_rows) == 1 and find_durations(text) and not find_money(text):
                f = read_row(open_rows[0], text)
                if isinstance(f, Finding):
                    note = f"I took '{text.strip()}' as the {LABELS[f.key]}"
                    found.append(Finding(f.key, f.value, f.unit, "; ".join(n for n in (f.note, note) if n)))
                    open_rows = []
        return found

    def _backlog_answer(self, f: Finding, text: str) -> Finding:
        """A bare amount answering the backlog penalty question is per unit per day, as the question asked."""
        if (
            self.table.value("state_transition_model") == "backlog"
            and not f.unit.endswith("/day")
            and not is_per_unit(text)
        ):
            return Finding(f.key, f.value, f"{f.unit}/day", f.note)
        return f

    def _several(self, f: Finding) -> Conflict:
        """Several amounts for one row are asked; 'no limit' among them is asked as 'as much as fits'."""
        amounts = tuple(c for c in f.choices if c != UP_TO_CAPACITY)
        if f.key == "max_order" and len(amounts) == 1 < len(f.choices):
            return cf.limit_or_amount(amounts[0], self.table.value("max_inventory"))
        return cf.several_amounts(f.key, f.choices, f.unit)

    def _fill_order_cap(self, notes: list[str], problems: list[SpecError]) -> None:
        """'No limit on order size': the max order becomes the capacity once that is known."""
        capacity = self.table.value("max_inventory")
        if self._order_up_to_capacity and capacity is not None and not self.table.is_defined("max_order"):
            self._order_up_to_capacity = False
            note = "no limit on order size, so an order can be as large as the storage capacity"
            self._propose((Cell("max_order", capacity, "units"),), note, True, notes, problems)

    def _propose(
        self,
        cells: tuple[Cell, ...],
        note: str,
        correction: bool,
        notes: list[str],
        problems: list[SpecError],
    ) -> None:
        """Validate proposed cells; write them, or open a conflict when they contradict a defined row."""
        self._lead_not_longer(cells)
        try:
            canonical = self.table.check(cells)
        except SpecError as err:
            problems.append(err)
            return
        if self._unsure and len(canonical) == 1 and _confirmed(canonical[0].key, self._unsure):
            self.table.open(cf.confirm_value(canonical, self._unsure))  # asked, never written
            if canonical[0].key == "risk_tolerance" and not self._preface:
                self._preface = [ROW_HELP["risk_tolerance"][1]]  # '5? no idea what that means': the scale first
            return
        if self._vetoed(canonical, notes, problems):
            return
        if not correction and (conflict := cf.changed(self.table, canonical)):
            self.table.open(conflict)
            return
        new = [c for c in canonical if not self.table.is_defined(c.key) or self.table.value(c.key) != c.value]
        olds = {c.key: self.table.value(c.key) for c in canonical}
        self._write(canonical)
        for c in canonical:
            self.state.assumptions.pop(c.key, None)
        written = {c.key for c in canonical}
        for conflict in list(self.table.conflicts):
            if conflict.kind in _SINGLE_VALUE_KINDS and set(conflict.keys) <= written:
                self.table.close(conflict)
        self._touch(c.key for c in canonical)
        if new:
            parts = [
                f"{LABELS[c.key]} changed from {olds[c.key]} to {c.value}"
                if olds[c.key] is not None
                else f"{LABELS[c.key]} = {_show(c)}"
                for c in new
            ]
            notes.append("; ".join(parts) + (f" ({note})" if note else ""))

    def _vetoed(self, cells: tuple[Cell, ...], notes: list[str], problems: list[SpecError]) -> bool:
        """The last look (`vetting.doubt`): a value the parse says is of another kind than its row (a price or
        the rent where a cost per unit is asked, a shelf life as the delivery time) is not written; the row asked
        is asked again with the reason, another row is left to be asked in its turn."""
        if self._parsed is None or len(cells) != 1:
            return False
        key, value = cells[0].key, cells[0].value
        found = doubt(key, value, self._parsed, asked=self.state.asked)
        filled = self.table.is_defined(key) and self.table.value(key) != value and key != self.state.asked
        if found is None and filled and (found := crossed(key, value, self._parsed, current=str(self.table.value(key)))) is not None:
            notes.append(f"I kept the {LABELS[key]} at {self.table.value(key)} ({found.reason})")
            return True
        if found is None:
            return False
        if found.key == self.state.asked:
            problems.append(SpecError(found.key, f"{found.reason}: {_ASK_AGAIN[found.key]}"))
        else:
            plan = self.table.value("time_horizon") if found.key == "lead_time" else None
            other = f"; if you meant the planning horizon (now {plan} days), say 'plan for {found.value} days'"
            notes.append(f"I did not take {found.value} as the {LABELS[found.key]} ({found.reason}){other if plan else ''}"
                         "; I will ask about it")
        return True

    def _doubt_implausible(self) -> None:
        """Rows that contradict each other as a shop's figures almost never do: each value put to the user once
        (`conflicts.confirm_value`), kept until the user gives another."""
        if self.table.conflicts:
            return
        for found in implausible(self.table):
            if (found.key, found.value) in self.state.doubted:
                continue
            self.state.doubted.add((found.key, found.value))
            cell = Cell(found.key, found.value, self.table.rows[found.key].unit)
            self.table.open(cf.check_value((cell,), found.reason))
            return

    def _write(self, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
        """Write cells, read back once when the largest order is above the storage: both are the owner's
        figures; the storage is then the binding limit of every order."""
        applied = self.table.set_many(cells)
        if {"max_order", "max_inventory"} & {c.key for c in applied} and (note := self._order_over_storage()):
            self._afterword.append(note)
        return applied

    def _lead_not_longer(self, cells: tuple[Cell, ...]) -> None:
        """A horizon not longer than the delivery time filled before (or a delivery time not shorter than the
        horizon filled before) is refused once, with the reason; the same value said again answers the question
        about it, so the other row (never possible beside it) is cleared, said, and asked again (the same answer
        refused again and again was a dead end). When the row cleared that way is said twice again too, the owner
        means both: they are kept, with what that implies (b17-10, b19-07 looped between the two rows)."""
        written = {c.key: c.value for c in cells if c.key in ("time_horizon", "lead_time")}
        if len(written) != 1:
            return
        key, mine = next(iter(written.items()))
        other = "lead_time" if key == "time_horizon" else "time_horizon"
        theirs = self.table.value(other)
        if theirs is None or mine is None:
            return
        lead, horizon = (float(mine), float(theirs)) if key == "lead_time" else (float(theirs), float(mine))
        if lead < horizon:
            return
        if self._refused != (key, mine):
            self._refused = (key, mine)
            return
        if self._insisted.get(other) == theirs:
            self.table.late_delivery = True
            self._afterword.append(
                f"(You gave a delivery time of {lead:g} days and a plan of {horizon:g} days twice each, so I keep "
                "both: nothing ordered arrives before the plan ends, so the plan runs on the stock you have. Say a "
                "longer horizon if orders should count.)"
            )
            return
        self._insisted[key] = mine
        self.table.clear(other)
        name = {"lead_time": "delivery time", "time_horizon": "planning horizon"}[other]
        self._afterword.append(
            f"(I had your {name} as {theirs} days; a delivery time must be shorter than the plan, so I will ask "
            "you for it again.)"
        )

    def _order_over_storage(self) -> str:
        order, capacity = self.table.value("max_order"), self.table.value("max_inventory")
        if order is None or capacity is None or float(order) <= float(capacity):
            return ""
        return (
            f"(Your largest order, {order} units, is more than the {capacity} units your storage holds: I keep "
            f"both, and an order is then limited by the free space, at most {capacity} units.)"
        )

    def _touch(self, keys: Iterable[str]) -> None:
        for key in keys:
            if key in self._touched:
                self._touched.remove(key)
            self._touched.append(key)


def warm_up() -> None:
    """Train the dialogue-act and clause classifiers and load the unit registry once per process, at start-up,
    so no chat turn pays for them."""
    intents.acts()
    rows()
    warm_units()


_NOTHING = "Sorry, I could not find a value in that."
_CONFIRMED_ROWS = frozenset(
    {"time_horizon", "lead_time", "holding_cost", "penalty_cost", "setup_cost", "max_inventory", "max_order"}
)
"""The numeric rows whose hedged or questioned value is confirmed before it is written (risk words have their
own confirmation, demand its options)."""


def _confirmed(key: str, text: str) -> bool:
    """Whether a hedged or questioned value for `key` is put to the user rather than written: the numeric rows,
    and a risk score given as a number ('5? no idea what that scale means'); risk words have their own
    confirmation and no preference ('not sure') is the neutral 0."""
    return key in _CONFIRMED_ROWS or (key == "risk_tolerance" and bool(find_numbers(text)))


_DOUBT = frozenset({("not", "sure"), ("not", "certain"), ("no", "idea"), ("don't", "know"), ("dont", "know"), ("not", "know")})
_ASKING = frozenset({"can", "could", "shall", "should", "would", "will"})


def unsure(text: str) -> bool:
    """Whether the user doubted or questioned what he said ('3 days?', 'maybe 100?', "$10, I'm not sure"), from
    the one parse; 'maybe 80', 'about 80' or '90 days I guess' is an estimate, and a request in question form
    ('shall we plan for 8 weeks?') is no doubt about its value."""
    said = parse(text)
    words = said.words()
    if _DOUBT & set(zip(words, words[1:], strict=False)):
        return True
    request = len(words) > 1 and words[0] in _ASKING and words[1] in ("we", "you", "i")
    return text.rstrip().endswith("?") and not any(c.question for c in said.clauses) and not request


_OUTER_CONTAINERS = frozenset({"case", "crate", "box", "pack", "carton", "tray", "pallet"})
"""Containers that hold several of the items counted (a bag or a sack is often the item itself)."""
_NEVER_THE_ITEM = frozenset({"case", "crate", "pallet"})
"""Containers that are never the item counted, even when demand named no item ('15 a day', then '2 cases')."""
_COUNT_ROWS = frozenset({"max_inventory", "max_order"})
_PER_ONE = frozenset({"each", "per", "one", "every", "holds", "to"})
"""Words that say a size is per container ('24 each', '24 to a case'), not a total."""
def _sells_singles(words: Sequence[str]) -> bool:
    """'we sell single bottles', 'students buy them one at a time', 'I count single pens', 'sold individually':
    the owner counts single items, so a container of known size is multiplied out, never the table's unit."""
    said = set(words)
    one_at_a_time = any(words[i : i + 4] == ("one", "at", "a", "time") for i in range(len(words)))
    return bool(said & _SINGLE_WORDS or one_at_a_time) and bool(said & (_SELLING | _BUYING))


_SINGLE_WORDS = frozenset({"single", "singles", "singly", "individually", "individual", "loose", "apiece"})
_BUYING = frozenset({"buy", "buys", "bought", "buying", "use", "uses"})
_SELLING = frozenset({"sell", "sells", "sold", "selling", "count", "counts", "counted", "priced", "price", "go", "goes"})
"""'we sell it by the ream', 'priced by the stem': the words before 'by the <unit>' that name the counting unit."""


def _singular(word: str) -> str:
    """'reams' -> 'ream', 'boxes' -> 'box' (a container's canonical name when it is one)."""
    if word in CONTAINERS:
        return CONTAINERS[word]
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


_MEASURE_ALIASES = {"liter": "litre", "l": "litre", "kilogram": "kg", "kilo": "kg", "lb": "pound", "gal": "gallon"}


def measure(word: str) -> str:
    """One name per measure ('Litres', 'liter' -> 'litre'; 'kgs', 'kilograms' -> 'kg')."""
    word = word.lower()
    if word in MEASURES and MEASURES[word] != "lb":  # the parse's names ('grams' -> 'g'), as sizes are kept
        return MEASURES[word]
    word = word[:-1] if word.endswith("s") and len(word) > 2 else word
    return _MEASURE_ALIASES.get(word, word)


def greets(text: str) -> bool:
    """'Hi', 'hello there', 'good morning ...' at the start of the message (from the one parse's words)."""
    words = parse(text).words()
    return bool(words) and (
        words[0] in ("hi", "hello", "hey") or words[:2] in (("good", "morning"), ("good", "afternoon"), ("good", "evening"))
    )


def about_ordering(text: str) -> bool:
    """A question about what to order now ('should I restock?', 'I still have 5 left'), from the one parse."""
    words = parse(text).words()
    return (
        any(w.startswith(("order", "buy", "restock", "reorder")) for w in words)
        or "left" in words
        or any(a == "have" and b.isdigit() for a, b in zip(words, words[1:], strict=False))
    )


def split_asked(text: str) -> tuple[str, str]:
    """A message's question sentences ('what's a 5 on that scale?') and the rest ('I don't like gambling'):
    the questions are answered and never read as values, the rest is read. ('', text) without a question."""
    sentences, start = [], 0
    for i, ch in enumerate(text):
        if ch in "?.!" and (i + 1 == len(text) or text[i + 1].isspace()):
            sentences.append(text[start : i + 1].strip())
            start = i + 1
    sentences.append(text[start:].strip())
    asked = [s for s in sentences if s.endswith("?") and is_question(s)]
    rest = [s for s in sentences if s and s not in asked]
    return " ".join(asked), " ".join(rest)


def _told_amounts(text: str) -> bool:
    """Whether a message holds an amount worth asking about: a count or money ('5-litre tubs' is a size), or
    a span read as one ('2 weeks'); a time said in passing ('this year', 'Christmas is in two weeks') is part
    of a story about the business."""
    said = parse(text)
    others = said.no_stock()
    amounts = [m for m in said.of(Kind.QUANTITY, Kind.MONEY) if m.role != "size" and m not in others]
    return bool(amounts or find_durations(text))  # 'we sell one shampoo brand': a story, no amount


def next_is_risk(table: ParameterTable) -> bool:
    """Whether risk tolerance is the only row left (its question is the next one)."""
    return table.undefined() == ["risk_tolerance"]


def _row_asked_about(text: str) -> str | None:
    """The table row a question names ('what is a backlog?' -> the stock-out model), if any."""
    found = [k for k in topics(text) if k in LABELS]
    if found:
        return found[0]
    low = text.lower()
    for key, words in _ROW_WORDS.items():
        if any(w in low for w in words):
            return key
    return None


def _names_row(key: str, cue: TokenCue, toks: Sequence[Token]) -> bool:
    """Whether a question names the row: its words, or '-10' for the risk scale."""
    return cue.found(toks) or (key == "risk_tolerance" and _minus_ten(toks))


def _minus_ten(toks: Sequence[Token]) -> bool:
    """Whether the text says '-10' (the risk scale's end), as a number ('-10', '-100') or after another
    ('2-10')."""
    return any(
        t.kind == "num"
        and (
            t.low.startswith("-10")
            or (t.low.startswith("10") and i > 0 and toks[i - 1].low == "-" and toks[i - 1].end == t.start)
        )
        for i, t in enumerate(toks)
    )


_ROW_WORDS = {
    "state_transition_model": ("backlog", "backorder", "lost sale"),
    "perishability": ("perish", "spoil"),
    "demand_distribution": ("poisson", "distribution"),
    "risk_tolerance": ("risk",),
    "max_inventory": ("capacity",),
}


def _about_options(conflict: Conflict, kind: str) -> str:
    """The options of the open question side by side; for 'which do you recommend', the usual choice."""
    listed = "; ".join(f"({o.label}) {o.description}" for o in conflict.options)
    if not conflict.options:
        return "That question needs a figure from you; a rough estimate is fine."
    how = "To choose one, reply with its letter, or tell me the value in your own words."
    if kind == "compare":
        return f"The options differ like this: {listed}. {how}"
    first = conflict.options[0]
    if kind == "recommend" and (advice := dict(conflict.data).get("recommendation")):
        return f"{advice} {how}"
    return (
        f"The options are: {listed}. If you have no reason to prefer another, ({first.label}) is the usual "
        f"choice; the decision is yours. {how}"
    )


def _typical(demand: DemandReading | None) -> float | None:
    """The typical daily amount of a demand reading with only an average: Poisson(mean) or a mean to ask about."""
    if demand is None:
        return None
    if demand.mean_only is not None:
        return float(demand.mean_only)
    if demand.value is not None and demand.value.startswith("poisson("):
        return float(demand.value[len("poisson(") : -1])
    return None


def _other_demand(conflict: Conflict, reading: Reading) -> tuple[Cell, ...] | float | None:
    """A reply to 'how does demand vary?' that states another daily amount than the one asked about: the cells it
    states, or the new typical amount (to ask about again); None when it restates no other amount."""
    demand = reading.demand
    mean = float(dict(conflict.data).get("mean", "nan"))
    if demand is None or demand.options:
        return None
    if conflict.kind == "demand_conversion":  # daily figures answer 'do the days of the week even out?'
        return _daily_figures(demand)
    if demand.value is not None and demand.mean_only is None:
        stated = [n.value for n in find_numbers(demand.value)]
        if stated and (all(abs(v - mean) > 1e-9 for v in stated[:1]) or len(stated) > 1):  # 'from 1 to 5': whole
            return (Cell("demand_type", demand.demand_type or "random"), Cell("demand_distribution", demand.value))
    if demand.mean_only is not None and abs(demand.mean_only - mean) > 1e-9:
        return float(demand.mean_only)
    return None


_DEMAND_ASKED = ("demand_shape", "demand_conversion")
"""The demand questions a reply stating its own daily figures answers with those figures."""


def _daily_figures(demand: DemandReading) -> tuple[Cell, ...] | float | None:
    """The daily figures a reply gives to the weekly (A)/(B) question ('5 a day on average, plus or minus 1'):
    its cells, or a daily mean without a spread (to ask how it varies); None for no daily figure (the letter
    'a' of '5 a day' is no option A)."""
    if demand.period != "day":
        return None
    if demand.value is not None:
        return (Cell("demand_type", demand.demand_type or "random"), Cell("demand_distribution", demand.value))
    return float(demand.mean_only) if demand.mean_only is not None else None


_VARIES = frozenset({"average", "averages", "averaging", "avg", "moves", "fluctuates", "swings", "varies"})
"""Words that say a restated daily amount is a mean of something that varies ('8 a day on average')."""


def _same_mean_varies(conflict: Conflict, reading: Reading) -> bool:
    """A reply to 'how does demand vary?' that restates the amount asked about and says it varies ('about 30 a
    day on average, it moves around', 'some days more, some less'): option (A), Poisson with that mean (the
    rule for a random demand with only an average given). Never for the standard-deviation follow-up."""
    data = dict(conflict.data)
    demand = reading.demand
    if data.get("sd_only") or demand is None or demand.mean_only is None or not conflict.options:
        return False
    if abs(demand.mean_only - float(data.get("mean", "nan"))) > 1e-9:
        return False
    words = {w.strip(".,;:!?()").lower() for _, s in reading.segments for w in s.split()}
    return demand.demand_type == "random" or bool(words & _VARIES) or {"more", "less"} <= words


_EACH = frozenset(["a", "an", "per", "each", "every"])


def _size_said(said: Message, container: str, sizes: Mapping[str, float]) -> float | None:
    """The size of `container` said in the same message as a count of something per container ('20 cases, 4
    six-packs a case', '12 crates, 24 bottles per crate'), or as a measure per container divided by one item's
    size in it ('6 litres in a case' of 0.5 litre bottles: 12); None when no such size is said."""
    for m in said.of(Kind.QUANTITY):
        if m.container == container or m.amount <= 1:
            continue
        tail = parse(said.text[m.span[0] : m.span[1] + 16]).words()  # the mention may hold 'a case' itself
        if any(a in _EACH and CONTAINERS.get(b) == container for a, b in zip(tail[1:], tail[2:], strict=False)):
            if m.unit in MEASURE_UNITS:
                one = sized_measure(m.unit, sizes)
                return float(m.amount) / one if one else None
            return float(m.amount)
    return None


def _words(text: str) -> tuple[str, ...]:
    """The words of a message, lower case, without punctuation: 'The van is blue.' repeats 'the van is blue'."""
    return tuple(w for w in (w.strip(".,;:!?'\"()") for w in text.lower().split()) if w)


def _shape_by_cue(conflict: Conflict, reading: Reading, text: str) -> tuple[Cell, ...] | None:
    """A reply to 'how does demand vary?' that says how without another amount: a bare spread ('give or take 2')
    is the normal option with that standard deviation; a variability word alone ('it goes up and down') is
    Poisson, a steadiness word ('same every day') the fixed amount. None otherwise."""
    data = dict(conflict.data)
    mean = data.get("mean")
    said = parse(text)
    spreads = [m for m in said.of(Kind.QUANTITY) if is_bare_spread(text, m)]
    if mean and len(spreads) == 1 and len(find_numbers(text)) == 1 and spreads[0].amount > 0:
        sd = format_number(spreads[0].amount)
        return (Cell("demand_type", "random"), Cell("demand_distribution", f"normal({mean},{sd})"))
    demand = reading.demand
    if demand is None or demand.value is not None or demand.mean_only is not None or demand.options:
        return None
    words = ("poisson",) if demand.demand_type == "random" else ("fixed",) if demand.demand_type else ()
    hits = [o for o in conflict.options if set(words) & set(o.aliases)]
    return hits[0].cells if len(hits) == 1 else None


def _option_by_finding(conflict: Conflict, reading: Reading) -> tuple[Cell, ...] | None:
    """The one option whose row and value the reply itself states ('30 dollars per order' to '(A) setup cost = 30
    or (B) max order = 30'); None when it states none or several."""
    stated = {(f.key, f.value) for f in reading.findings}
    hits = [o for o in conflict.options if any((c.key, c.value) in stated for c in o.cells)]
    return hits[0].cells if len(hits) == 1 else None


def _option_by_amount(conflict: Conflict, reading: Reading) -> tuple[Cell, ...] | None:
    """A reply that is just the amount of one option of a one-row question ('40 bags' to '(A) 40 units or
    (B) 1 units'): that option, whatever clause the reader gave the amount to. None when the reply holds other
    amounts, or the amount matches no option or several."""
    if len(conflict.keys) != 1 or not conflict.options:
        return None
    said = " ".join(text for _, text in reading.segments)
    if any(f.key not in conflict.keys for f in reading.findings) or any(
        t not in (None, "demand", *conflict.keys) for t, _ in segments(said, conflict.keys[0])
    ):  # 'we store at most 5 units' answers the capacity; a bare '42 days' answers the horizon asked about
        return None
    amounts = {format_number(n.value) for n in find_numbers(said)}
    if len(amounts) != 1 or len(said.split()) > 6:
        return None
    hits = [o for o in conflict.options if any(c.value in amounts for c in o.cells)]
    return hits[0].cells if len(hits) == 1 else None


_PERIOD = TokenCue(exact=frozenset(["daily", "weekly", "monthly", "yearly", "per", "day", "week", "month", "year"]))
"""A question about the period of a figure ('is that per day or per week?', 'daily?')."""


def _per_what(key: str | None, table: ParameterTable) -> str:
    """What a row's figure is counted per, in words, with how another period is converted; '' for rows that
    are no rate."""
    convert = "if you know it per week or per month, say so and I will convert it (84 a week = 12 a day)"
    if key in ("demand_type", "demand_distribution"):
        return f"Per day: demand is the number of units customers want in one day; {convert}."
    if key == "holding_cost":
        return f"Per unit and per day: what keeping one unit in stock costs for one day; {convert}."
    if key == "penalty_cost" and table.value("state_transition_model") == "backlog":
        return f"Per unit and per day: what one backordered unit costs for each day it waits; {convert}."
    if key == "penalty_cost":
        return "Per unit: what one sale you cannot make costs you, once (not per day)."
    if key == "setup_cost":
        return "Per order: the fixed fee of one order or delivery, whatever its size (not per day or per unit)."
    return ""


def _relevant(conflict: Conflict, reading: Reading) -> str:
    """The reply without the clauses that name another row (or the current stock): those answer their own
    row and must not settle this conflict."""
    keys = set(conflict.keys)
    demand = bool(keys & {"demand_type", "demand_distribution"})
    kept = [
        text
        for topic, text in reading.segments
        if topic is None
        or topic in keys
        or (topic == "demand" and (demand or not find_numbers(text) or _cost_per_unit(keys, text)))
        or ((topic in _COUNT_ROWS or topic == "demand") and _bare_count_reply(keys, text))
    ]
    return ", ".join(kept)


_BARE_COUNT_WORDS = 3
"""A reply of at most this many words to a question about one count row ('150 stems' to 'should I keep max order
= 25?') answers it, whichever count row the classifier guessed."""


def _maybe_second(text: str) -> tuple[float, float] | None:
    """The two amounts of 'about 6 a day, maybe 7': a count, then a bare count right after 'maybe' (both plain
    counts, no other amount in the message), else None."""
    said = parse(text)
    counts = said.of(Kind.QUANTITY)
    words = said.words()
    if len(counts) != 2 or any(m.unit not in (None, "item") or m.container for m in counts) or "maybe" not in words:
        return None
    second = text[: counts[1].span[0]].lower().rstrip(" ,").split()
    return (counts[0].amount, counts[1].amount) if second[-1:] == ["maybe"] else None


def _bare_count_reply(keys: set[str], text: str) -> bool:
    """'150 stems', '50 bags' to a question about one count row: the answer, whatever row the classifier guessed
    (a count of bags reads like demand)."""
    said = parse(text)
    return keys <= _COUNT_ROWS and len(said.words()) <= _BARE_COUNT_WORDS and not any(m.per for m in said.mentions)


def _cost_per_unit(keys: set[str], text: str) -> bool:
    """'0.015 per book per day' said to a holding or penalty (A)/(B) question: an amount for each item, the
    cost asked about, however much it reads like a demand rate."""
    amounts = parse(text).of(Kind.MONEY, Kind.QUANTITY)
    return bool(keys & {"holding_cost", "penalty_cost"}) and bool(amounts) and all(m.per_unit for m in amounts)


def _show(cell: Cell) -> str:
    unit = "day" if cell.unit == "days" and cell.value == "1" else cell.unit
    return f"{cell.value} {unit}" if unit and unit != "N/A" else cell.value


def _amount_beside(parsed: Message) -> str | None:
    """An amount of items said in the same message as 'no limit' ('no hard limit, but a pallet is 150'), which
    then cannot be taken as 'as much as fits'."""
    amounts = [m.amount for m in parsed.of(Kind.QUANTITY) if m.amount and m.amount >= 2]
    return format_number(amounts[0]) if amounts else None


_PLACED = frozenset({"in", "on", "at", "under", "behind"})


_HOLDS = frozenset({"hold", "holds", "take", "takes", "fit", "fits", "store", "stores", "carry", "carries"})


def _each_holds(reading: Reading, parsed: Message, expected: str | None) -> Reading:
    """Storage said as a number of holders each holding the same ('we have 3 fridges, each holds 40', '4 shelves
    and each one takes 25') answering the storage question: the holders times what each holds, read back; the
    reading kept what one holds."""
    counts = [m for m in parsed.of(Kind.QUANTITY) if not (m.per or m.period or m.container)]
    kept = [f for f in reading.findings if f.key == "max_inventory"]
    if expected != "max_inventory" or len(counts) != 2 or len(kept) != 1 or parsed.correction:
        return reading
    holders, each = counts
    if holders.unit or each.unit not in (None, "item"):  # '3 of them, each holds 40 units'
        return reading
    between = parse(parsed.text[holders.span[1] : each.span[0]]).words()
    verb = between[-1:] and between[-1] in _HOLDS
    if not verb or "each" not in between[:-1] or format_number(each.amount) != kept[0].value:
        return reading
    if holders.amount < 2 or holders.amount != int(holders.amount) or {"or", "but"} & set(between):
        return reading
    total = format_number(holders.amount * each.amount)
    note = f"{format_number(holders.amount)} × {format_number(each.amount)} each = {total} units"
    found = replace(kept[0], value=total, note="; ".join(n for n in (kept[0].note, note) if n))
    return replace(reading, findings=tuple(found if f is kept[0] else f for f in reading.findings))


def _two_places(reading: Reading, parsed: Message, expected: str | None) -> Reading:
    """Storage said in two places joined by 'and' ('60 fit in the big shed and 40 in the small one', '40 in the
    back and 20 on the shelf') answering the storage question: the two add up, read back; the reading split the
    clauses and kept the first. Never with 'or', 'but' or a correction between them."""
    counts = [m for m in parsed.of(Kind.QUANTITY) if not (m.unit or m.per or m.period or m.container)]
    kept = [f for f in reading.findings if f.key == "max_inventory"]
    if expected != "max_inventory" or len(counts) != 2 or len(kept) != 1 or parsed.correction:
        return reading
    x, y = counts
    between = parse(parsed.text[x.span[1] : y.span[0]]).words()
    after = parse(parsed.text[y.span[1] : y.span[1] + 20]).words()[:1]  # a short window: long messages stay linear
    if between[-1:] != ("and",) or not _PLACED & set(between) or after[:1] != ("in",) and not _PLACED & set(after):
        return reading
    if {"or", "but"} & set(between) or format_number(x.amount) != kept[0].value:
        return reading
    total = format_number(x.amount + y.amount)
    note = f"{format_number(x.amount)} + {format_number(y.amount)} = {total} units, in two places"
    found = replace(kept[0], value=total, note="; ".join(n for n in (kept[0].note, note) if n))
    return replace(reading, findings=tuple(found if f is kept[0] else f for f in reading.findings))
