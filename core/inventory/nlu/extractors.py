"""Per-parameter extractors: split a message into clauses, route each clause to the row it talks about,
and read that row's value (durations in days, money in dollars, counts, the risk scale, demand)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import product
from typing import TypeVar

from core.inventory.nlu.cues import (
    DURATION_ROWS,
    GREETING_WORDS,
    SPOIL,
    counts_things,
    customers_stay,
    fact_ranking,
    facts,
    label_of,
    prime,
    rival,
    topics,
)
from core.inventory.nlu.demand import DemandReading, as_days, read_demand, says_shape
from core.inventory.nlu.risk import only_softener, read_risk, unsure
from core.text.answers import Polarity, choose, polarity
from core.text.clauses import split_clauses
from core.text.clean import MAX_CHARS, clean
from core.text.corrections import is_correction, recalls, settle
from core.text.cues import TokenCue
from core.text.mentions import Kind, Mention, Message, Scope, Token, parse, plural, restates, singular
from core.text.numbers import (
    Number,
    find_numbers,
    find_percentages,
    format_number,
    outside,
    read_number,
    words_to_digits,
)
from core.text.questions import is_question
from core.text.ranges import split_range
from core.text.units import (
    Duration,
    Money,
    clock_times,
    find_durations,
    find_money,
    is_per_order,
    join_halves,
    per_day_rate,
    physical_units,
    rate_period,
    spoken_money,
)
from core.text.vocabulary import (
    CONTAINER_NOUNS,
    CONTAINERS,
    CORRECTION_FILLERS,
    DATE_WORDS,
    DELIVERY_WORDS,
    HESITATIONS,
    MONTHS,
    PER_ORDER_WORDS,
    PREMISES_WORDS,
    ROLE_WORDS,
    SECOND_THOUGHTS,
    SPOIL_WORDS,
    SPREAD_WORDS,
    STAFF_WORDS,
    TIME_UNITS,
    VARIATION_LINKS,
    WEEKDAYS,
    WHOLE_BUSINESS_ROLES,
    WHOLE_BUSINESS_WORDS,
)
from core.text.weekdays import DAYS, WeekdayGap, weekday_gap
from solvers.inventory.parameters import ROW_KEYS

_JOINERS = ("and", "but", "while", "whereas", "although", "though", "also")


def _and_s(cue: TokenCue) -> TokenCue:
    """The cue with its words also said with "'s" ("rent's", "the order fee's"): a pattern's word boundary fell
    before the apostrophe, the parse keeps "rent's" one token."""
    return TokenCue(
        inside=cue.inside,
        exact=cue.exact | {f"{w}'s" for w in cue.exact if w.isalpha()},
        starts=cue.starts,
        ends=cue.ends,
        phrases=cue.phrases,
        runs=(*cue.runs, *((*r[:-1], f"{r[-1]}'s") for r in cue.runs if r[-1].isalpha())),
    )
_SETUP_NAMES = (("setup",), ("set", "-", "up"), ("fixed",), ("ordering",), ("order",), ("delivery",), ("shipping",))
_CHARGES = ("cost", "costs", "fee", "fees", "charge", "charges", "charged")
_ZERO = {
    "setup_cost": _and_s(TokenCue(runs=(
        *(("no", *a, c) for a in _SETUP_NAMES for c in _CHARGES),
        *(("no", *a, *b, c) for a in _SETUP_NAMES for b in _SETUP_NAMES for c in _CHARGES),
        *(("free", w) for w in ("shipping", "delivery", "deliveries")),
        *((w, "is", *always, "free") for w in ("shipping", "delivery", "ordering") for always in ((), ("always",))),
        ("no", "fee"),
        *((d, "charge", w) for d in ("doesn't", "doesnt", "don't", "dont", "never") for w in ("per", "for", "anything")),
        *(("nothing", "to", w) for w in ("order", "orders", "ordered", "ordering", "place", "placed", "places")),
    ))),
    "holding_cost": _and_s(TokenCue(runs=(
        *(("no", w, c) for w in ("holding", "storage", "carrying") for c in _CHARGES),
        *(("free", "to", w) for w in ("store", "stores", "hold", "holds", "keep", "keeps")),
        *((w, "is", *basically, "free") for w in ("storage", "holding") for basically in ((), ("basically",))),
    ))),
    "penalty_cost": _and_s(TokenCue(
        runs=(("no", "penalty"), *(("no", w, c) for w in ("stockout", "shortage") for c in ("cost", "costs")))
    )),
    "lead_time": _and_s(TokenCue(
        exact=frozenset(["instant", "instantly", "instantaneous", "instantaneously", "immediate", "immediately"]),
        runs=(*(("no", *lead, t) for lead in (("lead",), ("lead", "-")) for t in ("time", "times")),
              ("no", "leadtime"), ("no", "leadtimes"), ("same", "day"), ("same", "-", "day"), ("right", "away")),
    )),
}  # fmt: skip
"""A row said to cost nothing or take no time ('no delivery fee', 'storage is free', 'same-day')."""
_LIMIT_NOUNS = ("limit", "limits", "cap", "caps", "max", "maximum", "maximums", "restriction", "restrictions")
_NO_LIMIT = _and_s(TokenCue(
    exact=frozenset(["unlimited"]),
    runs=(
        *(
            (*no, *real, noun)
            for no in (("no",), ("without", "a"), ("without", "any"), ("there's", "no"), ("theres", "no"),
                       ("there", "is", "no"))
            for real in ((), ("real",), ("hard",))
            for noun in _LIMIT_NOUNS
        ),
        *((a, b) for a in ("any", "whatever") for b in ("amount", "quantity", "size")),
        *(("as", a, "as", "we", b) for a in ("much", "many") for b in ("want", "wants", "wanted", "like", "liked")),
    ),
))  # fmt: skip
"""No limit on the order size ('no real limit', 'whatever amount', 'as much as we want')."""
STATE = "state"
"""Talk about the current stock, today or open orders (an order question), not a table row."""
_COST_ROWS = ("holding_cost", "penalty_cost", "setup_cost")
_SELL_WORDS = frozenset(["sell", "sells", "sold", "selling"])
_PRICE_WORDS = _and_s(TokenCue(
    exact=frozenset(["price", "priced", "prices", "retail", "retails", "sticker"]),
    runs=tuple(("charge", w) for w in ("customers", "them", "people", "clients")),
))


def _says_price(toks: tuple[Token, ...]) -> bool:
    """'sell them for', 'sold at', 'priced', 'charge customers': words of a selling price, from the parse's tokens
    (a sell word and 'for' or 'at' at most three plain words later)."""
    for i, t in enumerate(toks):
        if t.low not in _SELL_WORDS:
            continue
        for j in range(i + 1, min(i + 5, len(toks))):
            if toks[j].low in ("for", "at"):
                return True
            if not toks[j].low.isalnum():
                break
    return _PRICE_WORDS.found(toks)


"""A selling price ('we sell them for $3.50'): the price of the item, never silently a cost row."""
_COST_VERBS = frozenset(["cost", "costs"])
_US = frozenset(["us", "me"])
_ABOUT = frozenset(["about", "around", "roughly", "maybe", "just"])
_CURRENCY_WORDS = frozenset(["dollar", "dollars", "buck", "bucks", "cent", "cents"])
_EACH_ONE = _and_s(TokenCue(
    exact=frozenset(["each", "apiece"]), runs=(("a", "piece"), ("per", "unit"), ("per", "item"), ("per", "piece"))
))


def _says_unit_price(text: str) -> bool:
    """'costs us about 2 dollars each', 'cost me $1.20 apiece': a cost verb, then (after 'us'/'me' and a hedge) one
    written amount and 'each', 'apiece' or 'per unit', from the parse's tokens."""
    toks = parse(text).toks
    each = {start for start, _ in _EACH_ONE.spans(toks)}
    for i, t in enumerate(toks):
        if t.low not in _COST_VERBS:
            continue
        starts = {i + 1}
        for words in (_US, _ABOUT):
            starts |= {k + 1 for k in starts if k < len(toks) and toks[k].low in words}
        for k in starts:
            end = k  # the amount: one stretch of touching tokens ('$2.50'), or a part of it
            while end < len(toks) and (end == k or not _spaced(text, toks[end - 1], toks[end])):
                after = end + 1 + (end + 1 < len(toks) and toks[end + 1].low in _CURRENCY_WORDS)
                if after < len(toks) and toks[after].start in each:
                    return True
                end += 1
    return False


def _spaced(text: str, left: Token, right: Token) -> bool:
    """Whether white space stands between two tokens."""
    return any(c.isspace() for c in text[left.end : right.start])


"""What one item costs ('cost us 2 dollars each'), a price worded like a cost row."""
_COST_TALK = _and_s(TokenCue(
    starts=("stor", "keep", "hold", "insur", "short", "miss", "order", "deliver", "ship", "refrigerat", "cool",
            "freez", "chill", "backorder", "backlog", "wait", "delay", "late"),
    exact=frozenset(["shelf", "shelf's", "space", "lost", "lose", "unmet", "unfilled", "fee", "fee's", "freight",
                     "admin", "paperwork", "penalty", "stockout", "stockouts", "sale", "sale's", "sales", "setup"]),
    runs=(("out", "of", "stock"), ("run", "out"), ("running", "out"), ("sell", "out"), ("sells", "out"),
          ("selling", "out"), ("stock", "-", "out"), ("stock", "-", "outs"), ("set", "-", "up")),
))  # fmt: skip
"""Words of keeping, running short or ordering: a price said beside one may be a cost row's."""


def _unit_price(segment: str) -> bool:
    """'the jars cost us 2 dollars each': what an item costs to buy, which is no row of the table (no word of
    keeping, running short or ordering, no rate per day), so never silently a cost row."""
    return (
        _says_unit_price(segment)
        and not _COST_TALK.in_text(segment)
        and rate_period(segment) is None
        and label_of(segment)[1] < _PRICE_SURE
    )


_PRICE_SURE = 0.9
"""A clause the row classifier names this surely is about that row even when worded like a price."""


_HEDGE_ARTICLES = frozenset(["a", "an", "my", "our", "the"])
_HEDGE_ADJECTIVES = frozenset(["conservative", "cautious", "safe", "aggressive", "optimistic", "pessimistic",
                               "rough", "ballpark", "realistic"])  # fmt: skip
_HEDGE_NOUNS = frozenset(["estimate", "guess", "figure", "number", "bet", "count"])
_HEDGE_TAILS = (("would", "be"), ("is",), ("of",), ("at",), ("says",), ("say",))
_HEDGE_ADVERBS = frozenset(["conservatively", "cautiously", "realistically"])
_CAREFUL = frozenset(["conservative", "cautious", "safe"])
_BEING = frozenset(["i'm", "im", "we're", "were"])
_SENTENCE_ENDS = frozenset([".", ";", "!", "?"])
"""An estimate hedged in risk words ('a conservative estimate is 20 a day'): a figure, not a risk answer."""
UP_TO_CAPACITY = "capacity"
_ONE_DAY = _and_s(TokenCue(
    exact=frozenset(["overnight", "tomorrow", "tomorrow's"]),
    runs=(
        ("next", "day"), ("next", "-", "day"), ("the", "day", "after"),
        *(("the", a, b) for a in ("next", "following") for b in ("morning", "afternoon")),
        *(("the", a, "after") for a in ("morning", "afternoon", "evening")),
        *(
            (verb, *hedge, one, *whole, "day")
            for verb, hedge, one, whole in product(
                ("take", "takes", "need", "needs", "within", "in", "after"),
                ((), ("about",), ("around",), ("roughly",), ("only",), ("just",), ("usually",)),
                ("a", "one"),
                ((), ("full",), ("whole",)),
            )
        ),
    ),
))  # fmt: skip
"""A delivery the next day ('next-day', 'overnight', 'takes a full day'): a lead time of one day."""


T = TypeVar("T", Duration, Money, Number)


@dataclass(frozen=True)
class Finding:
    """A value read for one row (canonical text still to be validated), with a note on any conversion;
    an `approximate` value (risk given in words) is confirmed with the user before it is stored, and
    `choices` (the two ends of a range) are offered to the user instead of storing either. The max order
    value `UP_TO_CAPACITY` means 'no limit on order size': as much as fits."""

    key: str
    value: str
    unit: str = ""
    note: str = ""
    approximate: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unclear:
    """A row the user talked about without a usable value; `message` says what is missing."""

    key: str
    message: str


@dataclass(frozen=True)
class Reading:
    """Everything read from one message."""

    findings: tuple[Finding, ...] = ()
    demand: DemandReading | None = None
    transitions: tuple[str, ...] = ()
    perishable: str | None = None
    shelf_life_days: float | None = None
    unclear: tuple[Unclear, ...] = ()
    correction: bool = False
    loose: tuple[str, ...] = ()
    segments: tuple[tuple[str | None, str], ...] = ()
    notes: tuple[str, ...] = ()
    unnamed_money: tuple[str, ...] = ()
    """Clauses that are only an amount of money naming no cost row ('it's 7 dollars' while demand is asked)."""

    @property
    def empty(self) -> bool:
        if self.unnamed_money:
            return False
        return not (self.findings or self.transitions or self.perishable or self.unclear) and not _has_demand(
            self.demand
        )


def _has_demand(reading: DemandReading | None) -> bool:
    return bool(
        reading and (reading.demand_type or reading.value or reading.options or reading.mean_only is not None)
    )


def clauses(text: str) -> list[str]:
    """Split a message into clauses, keeping ranges ('between 10 and 20') and parentheses intact."""
    return split_clauses(text, joiners=_JOINERS)


def segments(text: str, expected: str | None = None) -> list[tuple[str | None, str]]:
    """Clauses grouped by topic: a clause without a cue continues the previous clause's topic when its
    value could belong there; a clause whose only cue is a weak demand cue ('per day') answers the
    `expected` row when it can; talk about the current stock or today (an order question) is `STATE`. When
    no clause names a row on its own, the whole message is read as one."""
    out: list[tuple[str | None, str]] = []
    parts = _join_denominators(clauses(text))
    prime(parts)
    for clause in parts:
        found = [] if _greeting(clause) else topics(clause)
        if expected in ROW_KEYS and _bare_value(clause, expected) and compatible(expected, clause):
            found = []  # '150 units' answers the row asked, whatever rows such numbers usually fill
        if out and out[-1][0] is None and found[:1] in (["demand"], ["demand_weak"]) and _spread_first(clause):
            out[-1] = ("demand", f"{out[-1][1]}, {clause}")  # '72 units per day, give or take 5': one amount
            continue
        if out and out[-1][0] not in (None, STATE) and _bare_alternative(clause):
            out[-1] = (out[-1][0], f"{out[-1][1]}, {clause}")  # 'usually 3 days, sometimes 4': 4 days, no demand
            continue
        if out and out[-1][0] == "demand" and _other_days(out[-1][1], clause):
            out[-1] = ("demand", f"{out[-1][1]}, {clause}")  # 'some days 4, other days 9': the two ends of one range
            continue
        if (
            out
            and _nothing(out[-1][1])
            and not find_numbers(out[-1][1])
            and parse(clause).of(Kind.MONEY)
            and not any(zero.in_text(out[-1][1]) for zero in _ZERO.values())  # 'delivery is free but a $15 handling
        ):  # fee per order': a charge of its own
            out[-1] = (found[0] if found else out[-1][0], f"{out[-1][1]}, {clause}")  # "basically nothing, couple
            continue  # cents each": the amount says how little
        if out and _DROPPED.in_text(clause) and not find_numbers(clause):
            out[-1] = (out[-1][0], f"{out[-1][1]}, {clause}")  # '... it's 11 now, they dropped it': of the fee before
            continue
        if out and found[:1] in ([], ["demand"], ["demand_weak"]) and _period_lead(out[-1][1]) and _sold(clause):
            out[-1] = ("demand", f"{out[-1][1]}, {clause}")  # 'over a month, 30 days, we sell maybe 90': 90 a month
            continue
        if found[:1] == ["demand_weak"]:  # also ['demand_weak', 'lead_time'] for 'about 21 a week'
            found = [] if expected in ROW_KEYS and compatible(expected, clause) else ["demand", *found[1:]]
        if found:
            out.append((found[0], clause))
        elif out and (only_softener(clause) or (out[-1][0] is not None and compatible(out[-1][0], clause))):
            # a softener ('a bit careful, not too much') grades the clause before, as a compatible clause adds to it
            out[-1] = (out[-1][0], f"{out[-1][1]}, {clause}")
        else:
            out.append((None, clause))
    out = _refer_back(out)
    named = len(out) > 1 and all(t is None for t, _ in out) and label_of(text)[1] >= 0.5
    if named and (whole := topics(text)) and (expected in ROW_KEYS or _fits_unasked(whole[0], text)):
        return [(whole[0], text)]  # named by the clauses together: 'if they want one and I don't have it,
    return out  # that's $2.50 down the drain'


def _sold(clause: str) -> bool:
    """A clause with a count of items and no rate of its own ('we sell maybe 90 bottles')."""
    counts = parse(clause).of(Kind.QUANTITY)
    return bool(counts) and not any(m.per or m.unit not in (None, "item") for m in counts)


_PERIOD_LEADS = frozenset(["over", "in", "during", "across", "within"])
"""Words that open a clause naming only the period a count is said over ('over a month, 30 days, we sell 90')."""


def _period_lead(clause: str) -> bool:
    """A clause that is only the period a count after it is said over ('over a month, 30 days', 'in a week'): a
    lead word, then periods alone, never a span of its own."""
    said = parse(clause)
    words, spans = said.words(), said.of(Kind.DURATION, live_only=False)
    rest = clause
    for m in reversed(spans):
        rest = rest[: m.span[0]] + rest[m.span[1] :]
    return (
        bool(words) and words[0] in _PERIOD_LEADS and bool(spans) and len(said.mentions) == len(spans)
        and set(parse(rest).words()) <= _PERIOD_LEADS | {"the", "a", "one", "whole", "full", "or", "so", "about"}
    )  # fmt: skip


_ALTERNATIVE_LEADS = frozenset(["sometimes", "occasionally", "maybe", "or", "rarely", "often", "mostly"])


def _bare_alternative(clause: str) -> bool:
    """A clause that is only a hedge word and a bare number ('sometimes 4', 'maybe 5'): another value of the
    clause before, in its unit, never a row of its own."""
    said = parse(clause)
    words = said.words()
    return (
        len(words) == 2
        and words[0] in _ALTERNATIVE_LEADS
        and len(said.mentions) == 1
        and said.mentions[0].kind is Kind.QUANTITY
        and not (said.mentions[0].unit or said.mentions[0].per or said.mentions[0].container)
    )


_SOME_DAYS = (("some", "days"), ("other", "days"), ("on", "other", "days"), ("others",), ("other", "times"))


def _other_days(before: str, clause: str) -> bool:
    """Whether `clause` opens with the other end of a range the clause before began ('some days 4' then 'other
    days 9', 'some days 4' then 'some days 9')."""
    first, words = (as_days(parse(x).words()) for x in (before, clause))
    some = ("some", "days") in zip(first, first[1:], strict=False)  # 'it comes in randomly, some days nobody'
    return some and any(words[: len(run)] == run for run in _SOME_DAYS)  # 'some day 4' too


def _spread_first(clause: str) -> bool:
    """A clause that opens with a spread ('give or take 5', 'plus or minus 2'): it qualifies the amount before."""
    words = parse(clause).words()[:3]
    return any(words[: len(run)] == run for run in SPREAD_WORDS) or words[:1] == ("±",)


def _join_denominators(parts: list[str]) -> list[str]:
    """A clause that is only what an amount is per ('per bottle, about 6 dollars a month', 'for each one, 6 a
    month') belongs to the clause after it: read apart, the amount looked like a total of the whole business."""
    out: list[str] = []
    carry = ""
    for k, part in enumerate(parts):
        part = f"{carry}, {part}" if carry else part
        words = parse(part).words()
        lead = words[1:2] if words[:1] == ("for",) else words[:1]
        carry = part if k + 1 < len(parts) and 1 < len(words) <= 3 and lead in (("per",), ("each",)) else ""
        if not carry:
            out.append(part)
    return out


def _greeting(clause: str) -> bool:
    """A clause that only greets ('Morning', 'good evening all'): it names no row ('morning' is no delivery)."""
    words = parse(clause).words()
    return bool(words) and set(words) <= GREETING_WORDS


def _fits_unasked(key: str, text: str) -> bool:
    """Whether a message no clause of which names a row, with no row asked, still says a value in the unit of
    the row the clauses name together: a span of time for a duration ('sold out by 11 or left at close' names no
    delivery time), an amount of money for a cost, no measured amount for the risk score; other rows keep the
    classifier's reading."""
    if key in DURATION_ROWS:
        return bool(parse(text).of(Kind.DURATION))
    if key in _COST_ROWS:
        return bool(parse(text).of(Kind.MONEY))
    if key == "risk_tolerance":  # 'fillets, about half a kilo each': a weight, no risk score
        return not _measured(text)
    return True


_HEDGE_WORDS = frozenset({
    "about", "around", "roughly", "approximately", "approx", "maybe", "perhaps", "say", "like", "max", "maximum",
    "tops", "at", "most", "ish", "or", "so", "the", "a", "an", "just", "only", "i'd", "i", "guess", "think",
    "reckon", "call", "it", "probably",
})  # fmt: skip
_COUNT_WORDS = frozenset({"units", "unit", "items", "item", "pieces", "piece", "things", "bags", "boxes"})
_MONEY_WORDS = frozenset({"dollars", "dollar", "bucks", "buck", "cents", "cent", "usd", "$"})


def _bare_value(clause: str, expected: str) -> bool:
    """A value and nothing that names a row ('150 units' after the order limit was asked, 'about 40 bucks'
    after a cost was, 'a fortnight' after either span was): an answer to the question asked, not a statement
    about some row. Counted items never answer a cost, nor money a count."""
    spans = find_durations(clause) if expected in DURATION_ROWS else []
    words = [
        t.low
        for t in parse(clause).toks
        if (t.kind == "word" or t.low == "$") and not any(d.start <= t.start < d.end for d in spans)
    ]  # the words and dollar signs outside the spans of time
    allowed = _HEDGE_WORDS | (_MONEY_WORDS if expected in _COST_ROWS else _COUNT_WORDS)
    return bool(spans or find_numbers(clause)) and all(w in allowed for w in words)


_SURE_ROW = 0.5
_LIMIT_NAME = {
    "max_order": _and_s(TokenCue(
        exact=frozenset(["order", "orders", "ordered", "ship", "shipment", "shipped", "ships", "deliver", "delivery",
                         "deliveries", "delivered"]),
        runs=(("at", "a", "time"), ("in", "one", "go"), ("at", "once")),
    )),
    "max_inventory": _and_s(TokenCue(
        exact=frozenset(["room", "space", "store", "storage", "stock", "stock's", "hold", "shelf", "shelf's",
                         "shelves", "capacity"]),
        runs=(("on", "hand"),),
    )),
}  # fmt: skip
"""Words by which a back-pointing clause names an order limit or the storage limit itself."""
_BACK_WORDS = (("that's",), ("thats",), ("that", "is"), ("this", "is"), ("which", "is"), ("that", "makes", "it"),
               ("that'd", "be"), ("thatd", "be"))  # fmt: skip
_BACK = TokenCue(runs=(*_BACK_WORDS, *((lead, *w) for lead in ("so", "and", "which", "but") for w in _BACK_WORDS)))
"""A clause that points back at the value before it ('..., so that's the most I can order')."""


def _refer_back(out: list[tuple[str | None, str]]) -> list[tuple[str | None, str]]:
    """A clause without a value that points back and names a row surely ('the van fits 75 bags, so that's the
    most I can order at a time') says which row the value just before it fills, when that value fits there and
    the back-pointing clause names its row in words ('order', 'room') or more surely than the value's own
    clause did; else it joins that clause ('the freezer fits 300 tubs, that's the limit' stays storage)."""
    merged: list[tuple[str | None, str]] = []
    for topic, clause in out:
        prev = merged[-1] if merged else None
        if (
            prev is not None
            and prev[0] in ROW_KEYS
            and topic in ROW_KEYS
            and _BACK.leads(parse(clause).toks)
            and not (find_numbers(clause) or find_durations(clause))
            and label_of(clause)[0] == topic
            and label_of(clause)[1] >= _SURE_ROW
            and compatible(topic, prev[1])
        ):
            surer = label_of(clause)[1] > label_of(prev[1])[1] or bool(
                (words := _LIMIT_NAME.get(topic)) and words.in_text(clause)
            )  # 'the freezer fits 300 tubs, that's the limit' stays storage
            merged[-1] = (topic if surer else prev[0], f"{prev[1]}, {clause}")
            continue
        merged.append((topic, clause))
    return merged


_OUTAGE_WORDS = frozenset({
    "wait", "waits", "waited", "waiting", "leave", "leaves", "left", "elsewhere", "lost", "lose", "loses", "backorder",
    "backorders", "backordered", "backlog", "return", "come", "comes", "walk", "walks", "go", "goes", "went", "buy",
    "buys", "instead", "competitor", "competitors", "reserve", "list", "hold", "patient", "patiently", "queue",
    "somewhere", "other", "out", "without", "gone", "miss", "missed", "order", "orders", "pick", "drive", "run",
    "name", "names", "book", "books", "booked", "collect", "later", "reserved", "preorder", "preorders", "grab",
    "grabs", "supermarket", "next", "door", "shop", "store", "place", "chain", "online", "amazon",
})  # fmt: skip
"""Words of what customers do when stock runs out; a clause read as a lost sale or a backlog without any of them,
when the question was about something else ('any number in that range seems just as likely as another', 'until
back-to-school finish, around 45 days'), states no such fact."""


def _fact(clause: str, expected: str | None) -> str | None:
    """`cues.facts` of a clause; a lost sale or a backlog only when the question was about it or the clause talks
    about running out (`_OUTAGE_WORDS`)."""
    fact = facts(clause)
    if fact in ("lost_sale", "backlog") and expected != "state_transition_model":
        return fact if _OUTAGE_WORDS & set(parse(clause).words()) else None
    return fact


def _one_statement(parts: list[tuple[str | None, str]], text: str, expected: str | None) -> list[tuple[str | None, str]]:
    """The message read whole when its clauses make one statement of one row: prices and a loss ('costs me 4, sell
    for 7, so 3 lost') of the penalty; a risk attitude with at most one number ('middle of the road, maybe a tiny bit
    careful', "I'm the careful type. Maybe a 6 on the careful side")."""
    if _price_margin(text) is not None and (
        {expected, *(t for t, _ in parts)} <= {"penalty_cost", None}
        or (
            expected == "penalty_cost"
            and not any(_named(t, c) for t, c in parts if t in _COST_ROWS and t != "penalty_cost")
        )
        or _prices_and_loss(text, expected)
    ):
        return [("penalty_cost", text)]
    if expected == "risk_tolerance" and len(parts) > 1 and all(t in (None, expected) for t, _ in parts):
        return parts if len(find_numbers(text)) > 1 else [(None, text)]  # "my partner says 5, I'd say 2": by clause
    return parts


def read_message(text: str, expected: str | None = None, sizes: Mapping[str, float] | None = None) -> Reading:
    """Read every parameter a message mentions; clauses without a cue answer the `expected` row, unless
    the message is a correction ('oops, 4'): then they stay `loose` for the row answered last. A question
    (`is_question`) sets nothing. `sizes`: container sizes stated earlier in the conversation ({'box': 24})."""
    raw, (text, notes) = text, normalize(text, price_asked=expected in _COST_ROWS, sizes=sizes)
    correction = is_correction(text) and not _answers_no(text, expected) or any(n.startswith(_SETTLED) for n in notes)
    recall = recalls(text)
    findings: list[Finding] = []
    unclear: list[Unclear] = []
    demand_parts: list[str] = []
    loose: list[str] = []
    bare_unclear: list[Unclear] = []
    shelf_parts: list[str] = []
    unnamed: list[str] = []
    parts = _one_statement(_not_alternating(segments(text, expected), text, loose), text, expected)
    if is_question(text):  # answered by the agent, never read as values ('what's a 5 on that scale?')
        plan = _plan_request(text)
        return Reading(findings=(plan,) if plan else (), correction=correction, segments=tuple(parts))
    for topic, segment in parts:
        if (topic := _amount_not_state(topic, expected, segment)) == STATE:
            continue
        bare = expected and not recall and compatible(expected, segment)
        topic, key = _segment_row(topic, expected, segment, bool(bare))
        if key is None:
            loose.append(segment)
            continue
        if key in ("demand", "demand_type", "demand_distribution") and _money_per_period(segment):
            if expected not in _COST_ROWS:  # 'the pitch fee is 150 a day': money, never an amount sold
                unnamed.append(segment)
                continue
            key = topic = expected
        if key in _LIMIT_WORDS and (row := _money_row(segment, expected)) is not None:
            if not row:
                loose.append(segment)
                continue
            key = topic = row  # 'the delivery fee, 9.95 an order': money, never a count of 9.95
        if key in _LIMIT_WORDS and expected != key and not _LIMIT_WORDS[key] & set(parse(segment).words()):
            if not (bare and expected in ("risk_tolerance", *_LIMIT_WORDS)):
                loose.append(segment)  # unasked 'makes 60 in cones', 'a full charge takes 3 hours': no limit named
                continue
            key = topic = expected  # risk asked, 'put me at 5'; the order cap asked, '60 bottles': no limit named
        if key in ("demand", "demand_type", "demand_distribution") and _no_rate(expected, segment):
            key = topic = str(expected)  # storage asked, 'it's 100 or 120, depends...'; delivery, 'same day'
        if key in ("demand", "demand_type", "demand_distribution"):
            said = parse(segment)
            if any(m.unit in ("hour", "minute") for m in said.of(Kind.DURATION)) and not said.of(Kind.QUANTITY):
                continue  # 'open 10 hours a day': hours, no amount sold
            demand_parts.append(segment)
            continue
        if key not in ROW_KEYS:
            continue
        if business := _business_unclear(key, expected, segment):
            unclear.append(business)
            continue  # 'rent is 3000 a month for the whole shop': never divided into a per-unit cost
        if key in DURATION_ROWS and (role := span_role(segment)):
            if role == "rate":  # 'about 119 a week in total': an amount per week, never a lead time of 7 days
                demand_parts.append(segment)
            else:  # 'they last about a week in the fridge': how long stock keeps, never a lead time
                shelf_parts.append(segment)
            continue
        if key == "lead_time" and expected not in (None, "lead_time") and not _names_delivery(segment):
            notes.append(_not_delivery(segment))
            continue  # 'the author event is in 3 weeks' answering demand: no lead time, asked later
        if _span_out_of_turn(key, expected, segment, text):
            loose.append(segment)
            continue
        if topic in _COST_ROWS and topic != expected and _only_money(segment) and not _named(topic, segment):
            unnamed.append(segment)  # 'it's 7 dollars' while demand was asked: which cost? (asked, not guessed)
            continue
        if key == "penalty_cost" and (margin := _margin_unstated(segment)) is not None:
            said = "those are what one costs you and what you sell it for, not the penalty; "
            unclear.append(Unclear(key, f"{said}a missed sale usually loses the margin, ${format_number(margin)}"))
            continue
        if key in _COST_ROWS and (own := _own_clause(key, segment)):
            segment = own  # 'a tube costs me 4 dollars and I sell it for 11, so I lose about 7 per missed sale'
        if topic is None and key in _COST_ROWS and _says_price(parse(segment).toks) and len(find_money(text)) == 1:
            bare_unclear.append(
                Unclear(key, f"that sounds like your selling price, not the {key.replace('_', ' ')}")
            )
            continue
        if key == "penalty_cost" and (loss := _loss_after_price(segment) or _concluded_loss(segment) or _last_loss(segment)):
            segment = loss  # 'a bottle costs me 3, but the real loss is the coffees, about 8 per bottle'
        if key == "penalty_cost" and _bought_only(segment, text):
            unclear.append(Unclear(key, "that is what one costs you to buy, not what a missed sale loses you; what "
                                        "do you lose on a sale you miss"))  # fmt: skip
            continue
        if key in _COST_ROWS and _unit_price(segment):
            unclear.append(Unclear(key, "that sounds like what one item costs you to buy, not a cost of keeping "
                                        "it, of running short or of ordering"))  # fmt: skip
            continue
        if (
            topic in _COST_ROWS
            and (other := _rival(segment, topic))
            and not _named(topic, segment)
            and not (topic == expected and not _named(other, segment))  # the row just asked: '8 dollars'
        ):
            if other == expected and len(parse(segment).of(Kind.MONEY, Kind.QUANTITY)) == 1:
                # "I'm out 5 every time someone walks", the penalty asked: one figure, for the row asked
                key = topic = other
            elif not _kept_per_period(topic, other, segment):
                unclear.append(Unclear(topic, f"is that the {_name(topic)} or the {_name(other)}?"))
                continue
            else:
                key = "holding_cost"
        _keep(_row_reading(key, expected, segment, text), topic, segment, findings, unclear, bare_unclear)
    if any(n.startswith(_THRESHOLD_NOTE) for n in notes) and all(f.key != "setup_cost" for f in findings):
        unclear.append(Unclear("setup_cost", "delivery is free only above an amount, so tell me what an order "
                                             "below it costs you (0 if your orders are always above it)"))
    if demand_parts:  # 'Like clockwork, 30 muffins go out each day': the shape said in a clause of its own
        demand_parts = [*(c for c in loose if says_shape(c) and not find_numbers(c)), *demand_parts]
    demand = read_demand(_without_people(", ".join(demand_parts), notes)) if demand_parts else None
    parts_text = clauses(text)
    said = [_fact(c, expected) for c in parts_text if not _charge_talk(c)]
    transitions = tuple(m for m in ("lost_sale", "backlog") if m in said)
    if not transitions and len(parts_text) > 1 and (whole := _whole_fact(text)) in ("lost_sale", "backlog"):
        transitions = (whole,)  # 'when we run out, people put their name on a list and wait': said together
    if len(transitions) == 1 and 1 < len(parts_text) <= _SHORT and not _whole_agrees(text, transitions[0]):
        transitions = ()  # 'shoppers leave a deposit, and we call them when it's in': not a lost sale
    if expected == "state_transition_model" and not transitions:
        picked = choose(text, ("A", "B"), (("lost",), ("backlog", "backlogged", "backorder")))
        transitions = () if picked is None else (("lost_sale", "backlog")[picked],)
    perishable, shelf = _perishability(text, expected)
    if perishable is None and shelf_parts:
        kept = [d.days for c in shelf_parts for d in find_durations(c)]
        perishable, shelf = "true", (kept[0] if kept and kept[0] > 1 else None)
    reading = Reading(
        tuple(findings := _said_risk(_concluding(_per_serving(_no_price_as_penalty(findings, unclear, text, raw), text), text))),
        demand,
        transitions,
        perishable,
        shelf,
        tuple(dict.fromkeys(u for u in unclear if u.key not in {f.key for f in findings})),
        correction,
        tuple(loose),
        tuple(parts),
        tuple(notes),
        tuple(unnamed) if not findings or all(f.key not in _COST_ROWS for f in findings) else (),
    )
    if reading.empty and bare_unclear:
        return Reading(
            unclear=tuple(dict.fromkeys(bare_unclear)),
            correction=correction,
            loose=reading.loose,
            segments=tuple(parts),
        )
    return reading


_SERVING_VERBS = frozenset({"makes", "make", "yields", "serves", "pours", "gives"})
"""Verbs that size a container in servings ('one carton makes 5 lattes')."""


def _servings(text: str) -> float | None:
    """How many servings one container makes ('one carton makes 5 lattes', 'each carton makes about 8 drinks'), read
    on the parse's tokens; None when the message says none, or says the loss per container or per sale itself ('we
    lose about 15 on each box', 'a missed sale costs me 15', '..., so 12 gone')."""
    said = parse(text)
    toks, words = said.toks, set(said.words())
    last = {CONTAINERS[t.low]: i for i, t in enumerate(toks) if t.low in CONTAINERS}  # where each is named last
    for k in range(len(toks) - 2):
        if toks[k].low in CONTAINERS and toks[k + 1].low in _SERVING_VERBS:
            j = k + 2 + (toks[k + 2].low in _ABOUT and k + 3 < len(toks))
            value = read_number(toks[j].text) if toks[j].kind == "num" else None
            per_own = last[CONTAINERS[toks[k].low]] > j or {"sale", "sales", "so"} & words
            if value is not None and value > 1 and not per_own:
                return value
    return None


def _per_serving(findings: list[Finding], text: str) -> list[Finding]:
    """A missed-sale cost said beside how many servings a container makes ('Each oat latte I lose is about $1.50
    profit, and one carton makes 5 lattes') may be per serving or per container: both are put to the owner
    ($1.50 or $7.50), never one written silently."""
    servings = _servings(text)
    if servings is None:
        return findings
    each = format_number(servings)
    return [
        replace(f, choices=(f.value, format_number(float(f.value) * servings)), note=f"{PER_SERVING}: {each}")
        if f.key == "penalty_cost" and not f.choices
        else f
        for f in findings
    ]


PER_SERVING = "per serving or per container"
"""The note of a missed-sale cost said per serving beside the servings a container makes (`_per_serving`)."""


_PEOPLE = frozenset({"person", "family", "student"})


def _without_people(text: str, notes: list[str]) -> str:
    """'we get 20 clients a day and about 3 buy a bottle': a count of people beside a count of items is who
    comes in, not what sells; the number is taken out (its rate stays) and the reading said in `notes`."""
    counts = parse(text).of(Kind.QUANTITY)
    people = [m for m in counts if m.unit in _PEOPLE]
    items = [m for m in counts if m.unit in (None, "item") and m not in people and m.value > 1]
    if not people or not items:
        return text
    for m in sorted(people, key=lambda m: m.span[0], reverse=True):
        number = m.text.split()[0]
        notes.append(f"{number} {m.text.split()[1] if len(m.text.split()) > 1 else 'people'} are people, "
                     "not units sold")
        text = text[: m.span[0]] + m.text[len(number) :].lstrip() + text[m.span[1] :]
    return text


def _money_row(segment: str, expected: str | None) -> str | None:
    """The cost row a clause the row classifier gave to a count limit fills when the parse reads its values as
    money only: the order fee for money per order or a fee, else the cost row asked, else '' (no row). None when
    the clause has a count or no money: it stays with its limit. A bare amount per order answering the fee
    question ('the delivery fee, 9.95 an order') is the fee."""
    values = list(parse(segment).of(Kind.MONEY, Kind.QUANTITY))
    money = [m for m in values if m.kind is Kind.MONEY and (m.per == "order" or m.role == "fee" or _says_money(m))]
    if expected == "setup_cost" and len(values) == 1 and _only_per_order(segment, values[0]):
        return "setup_cost"  # '6.40 an order' answering the fee question: no word of a limit in it
    if not money or len(money) < len(values):
        return None
    if any(m.per == "order" or m.role == "fee" for m in money):
        return "setup_cost"
    return str(expected) if expected in _COST_ROWS else ""


_ONE_ORDER = [[w] for w in PER_ORDER_WORDS if w not in ("time", "go")]
"""'one batch', 'one delivery', 'one order' ...: a count of orders, never a number of units."""


def _paid(said: Message) -> list[Mention]:
    """The money a message surely says: written as money, a fee or a whole-business amount ('freight is 40 a
    shipment', 'rent is 1800'), never a bare number a role word made money ('storage capacity 150')."""
    return [m for m in said.of(Kind.MONEY, live_only=False) if _says_money(m) or m.role == "fee" or m.whole_business]


def _says_money(m: Mention) -> bool:
    """A value written as money ('$12', '12 dollars', '40 cents'), not a bare number a role word made money
    ('storage capacity 150')."""
    low = m.text.lower()
    return any(c in low for c in ("$", "£", "€", "dollar", "cent", "buck", "usd"))


_PER_ORDER_WORDS = frozenset({"a", "an", "per", "each", "every", "order", "about", "around", "roughly", "say",
                              "maybe", "like", "it's", "its", "is", "that's", "usually", "just"})  # fmt: skip


def _only_per_order(segment: str, value: Mention) -> bool:
    """A clause that is one bare amount per order and nothing else ('6.40 an order'; 'max 40 an order' names a
    limit)."""
    rest = parse(segment.replace(value.text, " ")).words()
    return value.per == "order" and not (value.unit or value.container) and set(rest) <= _PER_ORDER_WORDS | _FEE_NAMES


_FEE_NAMES = frozenset({"delivery", "shipping", "freight", "carriage", "postage", "the", "truck"})
"""What a bare amount per order may be said of when the fee is asked ('Delivery is 20 a go'): the fee."""


_LIMIT_WORDS = {
    "max_inventory": frozenset({
        "room", "space", "store", "stores", "storage", "stock", "hold", "holds", "fit", "fits", "shelf", "shelves",
        "capacity", "freezer", "freezers", "fridge", "fridges", "warehouse", "cellar", "rack", "racks", "display",
        "cabinet", "yard", "backroom", "keep", "max", "maximum", "most", "limit", "full", "takes", "take", "up",
        "stockroom", "storeroom", "shed", "cooler", "bins", "bin", "tank", "tanks", "garage", "counter",
        "basement", "loft", "container", "containers", "pallets", "on", "hand", "inventory", "carry", "cap",
        "capped",
    }),  # fmt: skip
    "max_order": frozenset({
        "order", "orders", "ordered", "ordering", "deliver", "delivers", "delivery", "deliveries", "ship", "ships",
        "shipment", "time", "once", "go", "cap", "caps", "capped", "max", "maximum", "most", "limit", "up", "batch",
        "run", "van", "truck", "lorry", "supplier", "wholesaler", "distributor", "send", "sends", "bring", "brings",
        "takes", "allow", "allows", "minimum", "load", "pallet", "pallets", "trip",
    }),  # fmt: skip
}
"""Words that name a limit: a storage or order limit not asked for is read only from a clause with one of them
(an unasked 'makes 60 in cones' is no storage of 60)."""
_DELIVERY_WORDS = frozenset({
    "order", "orders", "ordered", "ordering", "reorder", "deliver", "delivers", "delivered", "delivery", "deliveries",
    "arrive", "arrives", "arrived", "arriving", "arrival", "supplier", "suppliers", "wholesaler", "distributor",
    "vendor", "ship", "ships", "shipped", "shipping", "shipment", "lead", "restock", "restocking", "come", "comes",
    "coming", "came", "turnaround", "dispatch", "dispatched", "here", "get", "gets", "receive", "received", "van",
    "truck", "lorry", "post", "mail", "freight", "replenish", "replenishment", "refill", "ready", "bake", "baked",
    "brew", "make", "made", "produce", "batch", "wait", "waits", "waiting", "stock", "restocked", "bring", "brings",
    "brought", "call", "phone", "send", "sends", "sent", "door", "by",
})  # fmt: skip
"""Words of ordering and receiving: a lead time not asked for is read only from a clause with one of them (an
unasked 'takes about an hour to play' is how long a game lasts)."""


_ASK_VERBS = frozenset(["can", "could", "shall"])
_ASKED = frozenset(["we", "you", "i"])
_POLITE = frozenset(["please", "just", "maybe"])
_OUT_VERBS = frozenset(["map", "work", "sketch", "lay", "plan"])
_OUT_OBJECTS = frozenset(["it", "things", "this", "everything", "stuff"])
_PLAN_VERBS = frozenset(["plan", "look", "cover", "go", "model", "forecast", "budget", "run", "think"])
_CONDITIONS = frozenset(["if", "when", "whether"])


def _plan_ask(toks: tuple[Token, ...]) -> bool:
    """'Can we map out the whole next year?': 'can/could/shall' and 'we/you/i' opening the message, then a verb of
    planning ('plan', 'map out', 'look'), and no 'if', 'when' or 'whether' after it before the question mark."""
    words = [t.low for t in toks if t.kind != "sym" or t.low == "?"]
    if len(words) < 3 or words[0] not in _ASK_VERBS or words[1] not in _ASKED:
        return False
    k = 2 + (words[2] in _POLITE)
    verb, after = words[k : k + 1], words[k + 1 : k + 3]
    ends = [k + 1] if verb and verb[0] in _PLAN_VERBS else []
    if verb and verb[0] in _OUT_VERBS and after[:1] == ["out"]:
        ends.append(k + 2)
    if verb and verb[0] in _OUT_VERBS and len(after) == 2 and after[0] in _OUT_OBJECTS and after[1] == "out":
        ends.append(k + 3)
    for end in ends:
        rest = words[end:]
        if not _CONDITIONS & set(rest[: rest.index("?") if "?" in rest else len(rest)]):
            return True
    return False


"""A request that names the span to plan ('Can we map out the whole next year?'): the user choosing the horizon
in the form of a question, not asking for an answer."""


def _plan_request(text: str) -> Finding | None:
    """The planning horizon a request in question form sets, when the whole message is about the horizon."""
    if (
        not _plan_ask(parse(text).toks)
        or label_of(text)[0] != "time_horizon"
        or find_money(text)
        or len(find_durations(text)) != 1
    ):
        return None
    found = read_row("time_horizon", text)
    return found if isinstance(found, Finding) else None


_SAYING_WORDS = frozenset({"it's", "its", "that's", "thats", "it", "is", "that", "was", "be", "would", "costs", "cost"})


def _only_money(segment: str) -> bool:
    """A clause that is one amount of money and nothing else ('it's 7 dollars', 'about $5'), from the parse."""
    said = parse(segment)
    money = said.of(Kind.MONEY, live_only=False)
    if len(money) != 1 or money[0].role is not None or said.of(Kind.QUANTITY, Kind.DURATION, live_only=False):
        return False
    allowed = _HEDGE_WORDS | _MONEY_WORDS | _SAYING_WORDS
    return all(w in allowed or w.replace(".", "").isdigit() for w in said.words())


_ROW_ROLES = {"penalty_cost": ("loss", "penalty"), "holding_cost": ("holding",), "setup_cost": ("fee",)}
_PRICE_ROLES = ("purchase_price", "sale_price")


def _own_clause(key: str, segment: str) -> str | None:
    """Of several amounts in one stretch of speech, the one the parse gives the cost row's role ('..., so I lose
    about 7 per missed sale'): the purchase and sale prices beside it are no cost of the table. None unless
    exactly one amount has the row's role and every other amount is such a price."""
    money = parse(segment).of(Kind.MONEY)
    margin = _price_margin(segment)
    own = [
        m for m in money if m.role in _ROW_ROLES[key] and (not m.text.isdigit() or m.amount == margin)
    ]  # 'holding 1 book' is no $1; '..., sells for 3, so 2 gone' is the margin
    prices = [m for m in money if m.role in _PRICE_ROLES and m.period is None]  # a price is never per day
    if len(own) == 1 and _so_before(own[0], [m for m in money if m is not own[0]], segment):
        prices = [m for m in money if m is not own[0]]  # 'the upcharge is 75 cents, so we lose like $4.50'
    if len(own) != 1 or not prices or len(own) + len(prices) != len(money):
        return None
    text = own[0].text
    return text if any(w in text.lower() for w in ("$", "dollar", "cent")) else f"${text}"  # '80 cents' stays cents


def _so_before(own: Mention, others: list[Mention], segment: str) -> bool:
    """Whether the row's own amount is the result said after the others ('the upcharge is 75 cents, so we lose
    $4.50'): they all come before it, have no role of a table row, and 'so' stands between."""
    if not others or any(m.span[0] > own.span[0] or m.role in ("holding", "fee", "penalty") for m in others):
        return False
    return "so" in parse(segment[max(m.span[1] for m in others) : own.span[0]]).words()


_ROW_POINTER_WORDS = 4
"""A clause of at most this many words without a value ('Lead time', 'the penalty?') points at a row."""


def _talk_without_value(key: str, segment: str) -> bool:
    """A clause with no value of any kind that neither is a short pointer at a row ('Lead time') nor names a cost
    row ('the penalty is high'): talk about the business ('oysters are my most wasteful item'), no answer."""
    said = parse(segment)
    named = key in _COST_ROWS and _named(key, segment)
    pointer = len(said.words()) <= _ROW_POINTER_WORDS and not _REPORTED & set(said.words())
    return not said.mentions and not pointer and not named


_REPORTED = frozenset(["says", "said", "say", "told", "tells", "claims", "claimed", "reckons", "thinks"])
"""Words of someone's report ('the supplier says it's', cut from 'the supplier says it's 5 cents but really 3'):
such a fragment points at no row."""


def _row_reading(key: str, expected: str | None, segment: str, text: str) -> Finding | Unclear | None:
    """`read_row`, except that unasked talk with no value (`_talk_without_value`) is nothing to ask about, and a
    clause whose only values are someone else's ('the website says 5 for fuel too') gives nothing when the
    message states a value of the speaker's own ('we pay 30 a drop')."""
    said = parse(segment).mentions
    if said and not any(m.live for m in said) and any(_own_value(m) for m in parse(text).mentions):
        return None
    result = read_row(key, segment)
    if isinstance(result, Unclear) and expected != key and _talk_without_value(key, segment):
        return None  # unasked 'I need to get the pita order right': nothing to read, nothing asked
    return result


def _no_rate(expected: str | None, segment: str) -> bool:
    """A clause the row classifier gave demand that answers the count or span asked instead: storage asked and
    two counts (`_count_asked`), or a duration row asked and a span of time with no amount ('same day')."""
    said = parse(segment)
    span = expected in DURATION_ROWS and bool(said.of(Kind.DURATION)) and not said.of(Kind.QUANTITY, Kind.MONEY)
    return span or _count_asked(expected, segment)


def _price_margin(segment: str) -> float | None:
    """The margin (sale minus purchase price) when the clause states exactly one of each, from the parse."""
    money = parse(segment).of(Kind.MONEY)
    bought = [m.amount for m in money if m.role == "purchase_price" and m.period is None]
    sold = [m.amount for m in money if m.role == "sale_price" and m.period is None]
    if len(bought) != 1 or len(sold) != 1 or sold[0] <= bought[0]:
        return None
    return round(sold[0] - bought[0], 6)


def _said_risk(findings: list[Finding]) -> list[Finding]:
    """A risk attitude read from the owner's words ('I am very careful, never ...') over the neutral 0 a fragment
    of the same message gave ('... and we dont have' read as no preference)."""
    worded = [f for f in findings if f.key == "risk_tolerance" and f.approximate]
    if not worded:
        return findings
    return [f for f in findings if f.key != "risk_tolerance" or f.approximate or f.value != "0"]


def _no_price_as_penalty(findings: list[Finding], unclear: list[Unclear], text: str, said: str) -> list[Finding]:
    """A penalty read as the purchase or sale price the message states beside the other ('a six-pack costs me 7
    and sells for 12, so I'm 5 down'): the stated loss equal to the margin is the penalty; without one, the
    penalty is asked (`unclear`), never written as a price; so is money per part of an item (`_per_part`)."""
    if any(f.key == "penalty_cost" for f in findings) and (each := _per_part(text)) is not None:
        unclear.append(Unclear("penalty_cost", each))
        return [f for f in findings if f.key != "penalty_cost"]
    money, own = parse(text).of(Kind.MONEY), parse(said).of(Kind.MONEY)
    if any(m.container for m in own) or {"purchase_price", "sale_price"} <= {m.role for m in own}:
        money = own  # 'a box of 5 for 20', 'we pay $12 but really $13 ... sell it for $28': as said
    buys = [m for m in money if m.role == "purchase_price" and m.per in (None, "unit")]
    sells = [m for m in money if m.role == "sale_price" and m.per in (None, "unit")]
    bought, sold = [m.amount for m in buys], [m.amount for m in sells]
    if len(bought) != 1 or len(sold) != 1 or sold[0] <= bought[0]:
        return findings  # one price of one item each ('$8 per order' is a fee, '2 cents a day' a holding cost)
    margin = round(sold[0] - bought[0], 6)
    prices = {bought[0], sold[0], float(buys[0].value), float(sells[0].value)}  # '20 for a box of 5' said too
    out = []
    for f in findings:
        if f.key != "penalty_cost" or read_number(f.value) not in prices:
            out.append(f)
        elif any(m.role == "loss" and abs(m.amount - margin) < 1e-9 for m in money):
            out.append(replace(f, value=format_number(margin)))
        else:
            said = "those are what one costs you and what you sell it for, not the penalty; "
            unclear.append(Unclear(f.key, f"{said}a missed sale usually loses the margin, ${format_number(margin)}"))
    return out


def _prices_and_loss(text: str, expected: str | None) -> bool:
    """The penalty asked, and the message's money is one purchase price, one sale price and the loss
    ('I pay 90 cents and sell for 3.20, so each one I miss is 2.30 gone'): one statement of the penalty,
    whichever clause the row classifier gave the prices to."""
    roles = sorted(m.role or "" for m in parse(text).of(Kind.MONEY))  # a money mention may have no role
    return expected == "penalty_cost" and roles == ["loss", "purchase_price", "sale_price"]


_LOSS_WORDS = frozenset({"loss", "lose", "loses", "lost", "losing", "miss", "missed", "missing", "forfeit", "gone"})


def _loss_after_price(segment: str) -> str | None:
    """'a bottle costs me 3, but the real loss is the coffees I can't make, about 8 per bottle': a purchase price,
    then a word of loss, then one bare amount (per unit or none): that amount, as money, is the penalty."""
    said = parse(segment)
    money = said.of(Kind.MONEY)
    if len(money) != 1 or money[0].role != "purchase_price" or money[0].period is not None:
        return None
    after = [
        m for m in said.of(Kind.QUANTITY)
        if m.span[0] > money[0].span[1] and not (m.unit or m.container) and m.per in (None, "unit", "order")
    ]  # fmt: skip
    if len(after) != 1 or not _LOSS_WORDS & set(parse(segment[money[0].span[1] : after[0].span[0]]).words()):
        return None
    return f"${format_number(after[0].amount)}"


def _concluded_loss(segment: str) -> str | None:
    """'a portion sells for 3 dollars and one tray makes 4 portions, so 12 lost' / '..., so a missed one costs me
    6': prices, then a conclusion (the last 'so' with a word of loss) whose first amount is per unit: that amount
    is the penalty, never the price before it."""
    said = parse(segment)
    start = segment.lower().rfind("so ")
    prices = [m for m in said.of(Kind.MONEY) if m.role != "loss" and m.period is None and m.span[1] <= start]
    after = [m for m in said.mentions if m.span[0] > start] if prices else []
    after = after[1:] if len(after) > 1 and after[0].amount == 1 else after  # 'so a missed one is 1.50 gone'
    if not after or not _LOSS_WORDS & set(parse(segment[start:]).words()):
        return None
    first = after[0]
    if first.period is not None or first.per not in (None, "unit") or first.container:
        return None
    if first.kind is Kind.QUANTITY and first.unit or first.kind not in (Kind.QUANTITY, Kind.MONEY):
        return None
    return f"${format_number(first.amount)}"


def _last_loss(segment: str) -> str | None:
    """'an egg is 25 cents, an omelette sells for 12, I'd say we lose about 3 per egg we don't have': the last
    amount is the one the parse gives the loss role (per unit or none), and every amount before it is a price or a
    bare amount or count with no period: the concluded loss is the penalty, never a price before it."""
    said = parse(segment).mentions
    last = said[-1] if len(said) > 1 else None
    if last is None or last.kind is not Kind.MONEY or last.role != "loss" or last.period is not None:
        return None
    if last.per not in (None, "unit") or last.container:
        return None
    if any(m.kind not in (Kind.MONEY, Kind.QUANTITY) or m.period is not None for m in said[:-1]):
        return None  # 'it costs 2 a day to keep, ...': a cost per period is no price
    if any(m.role not in (*_PRICE_ROLES, None) for m in said[:-1]):
        return None
    return f"${format_number(last.amount)}"


def _bought_only(segment: str, text: str) -> bool:
    """The clause's only money is a purchase price ('it costs me 5 and earns me 12' answering the penalty), from
    the parse, and nothing in the message speaks of running short: never written as the penalty."""
    money = parse(segment).of(Kind.MONEY)
    return (
        bool(money)
        and all(m.role == "purchase_price" and m.period is None for m in money)
        and not _short_talk(text)
        and not any(c.negated for c in parse(text).clauses)  # 'if we can't hand one over, it costs us 5'
    )


def _margin_unstated(segment: str) -> float | None:
    """'costs me 3 and sells for 7.50' answering the penalty: the prices alone, no loss stated; the margin to
    offer (never the purchase price written as the penalty)."""
    margin = _price_margin(segment)
    others = [m for m in parse(segment).of(Kind.MONEY) if m.role not in _PRICE_ROLES]
    return margin if margin is not None and not others else None


def _business_unclear(key: str, expected: str | None, segment: str) -> Unclear | None:
    """The question to put when a cost row (read or asked) gets money of the whole business or a total per
    period, else None."""
    if key not in _COST_ROWS and expected not in _COST_ROWS:
        return None
    row = key if key in _COST_ROWS and (expected not in _COST_ROWS or _named(key, segment)) else str(expected)
    ask = _business_ask(segment, row)
    return Unclear(row, ask) if ask else None


def _whole_business_money(segment: str) -> bool:
    """An amount per period said of the whole business, from the parse: rent, bills or the premises ('the
    yard costs me 1500 a month', 'electricity and the building come to about 800 a month'), with no item it is
    per ('every pallet I keep costs $2.10 a week in rent' is per item)."""
    said = parse(segment)
    words = said.words()
    amounts = [m for m in said.of(Kind.MONEY, Kind.QUANTITY) if m.period is not None]
    if not amounts or any(m.per_unit for m in amounts):
        return False
    before = parse(segment[: min(m.span[0] for m in amounts)]).words()  # the subject: 'a tub', 'one pallet'
    per_item = any(
        w in ("each", "every", "per", "apiece", "one", "1", "a", "an")
        and i + 1 < len(before)
        and before[i + 1] not in TIME_UNITS
        and before[i + 1] not in WHOLE_BUSINESS_WORDS | PREMISES_WORDS
        for i, w in enumerate(before)
    )
    business = any(m.whole_business or m.role in WHOLE_BUSINESS_ROLES for m in amounts) or any(
        w in WHOLE_BUSINESS_WORDS or w in PREMISES_WORDS or w in STAFF_WORDS or ROLE_WORDS.get(w) in WHOLE_BUSINESS_ROLES
        for w in words
    )
    return business and not per_item


def _business_ask(segment: str, row: str) -> str:
    """What to ask when a cost clause is money of the whole business (rent, staff, the premises) or, where a
    holding cost is asked, a total per week or month said of no item; empty when it is neither."""
    if _whole_business_money(segment):
        return _WHOLE_BUSINESS_ASK[row]
    return _PERIOD_TOTAL_ASK if row == "holding_cost" and _period_total(segment) else ""


def _period_total(segment: str) -> bool:
    """Money per week, month or year with no unit it is per and no item as its subject ('electricity's about 400
    a month', 'the freezer rental is 60 a week'), where a cost per unit per day is asked: a running cost of the
    whole business, never divided into a holding cost ('keeping one jar costs 6 a month' is per item)."""
    said = parse(segment)
    amounts = [m for m in said.of(Kind.MONEY, Kind.QUANTITY) if m.period in _LONG_PERIODS]
    if not amounts or any(m.per_unit for m in amounts):
        return False
    words = said.words()  # 'one jar', 'each tin', 'to keep one bag ... in stock': the cost of an item
    return not any(w in _ITEM_SUBJECT and i + 1 < len(words) and words[i + 1] not in TIME_UNITS
                   for i, w in enumerate(words))  # fmt: skip


_PERIOD_TOTAL_ASK = ("is that for one unit or for the whole business? Tell me what keeping one unit costs, per "
                     "day or per month (for example '5 cents a bottle a day' or '$2 per unit a month')")
_LONG_PERIODS = frozenset(["week", "fortnight", "month", "quarter", "year"])
_ITEM_SUBJECT = frozenset(["each", "every", "per", "apiece", "one", "1", "a", "an"])
_WHOLE = "that sounds like a running cost of the whole business (rent, bills, staff, the premises), "
_WHOLE_BUSINESS_ASK = {
    "holding_cost": _WHOLE + "not a cost per unit: what is it per unit per day?",
    "penalty_cost": _WHOLE + "not what one unit short costs you: what do you lose per unit you cannot supply?",
    "setup_cost": _WHOLE + "not a cost of each order: what does one order cost you (say 0 if nothing)?",
}


_SPAN_TO_PLAN = frozenset(
    ["plan", "plans", "planning", "for", "over", "next", "through", "thru", "until", "till", "til", "cover",
     "covering", "ahead", "horizon", "upcoming", "look", "looking", "throughout", "during", "rest",
     "season"]
)  # fmt: skip
"""Words that make a span of time one to plan over ('plan for the year', 'the next 10 days', 'till Christmas'):
an unasked span without one ('get it right this year') is no planning horizon; the horizon is asked."""


def _span_out_of_turn(key: str, expected: str | None, segment: str, text: str) -> bool:
    """An unasked span that says nothing of its row: 'takes about an hour to play' (no word of ordering or
    delivery) is no lead time, 'I want to get the compost right this year' (nothing to plan over) no horizon."""
    if expected == key:
        return False
    if key == "lead_time":
        return not _DELIVERY_WORDS & set(parse(text).words())
    return key == "time_horizon" and not _SPAN_TO_PLAN & set(parse(text).words())


def _not_delivery(segment: str) -> str:
    """The note for a clause not taken as the delivery time: a customer's wait ('the contractors wait a day or
    two') is said as such; else it names no delivery."""
    said = parse(segment).of(Kind.DURATION)
    why = "that is how long customers wait" if said and all(m.role == "customer_wait" for m in said) else ""
    return f"I did not take '{segment.strip()}' as the delivery time: {why or 'it names no delivery'}"


def _names_delivery(segment: str) -> bool:
    """Whether a clause read as a lead time says it is about ordering or delivery ('the supplier takes 3 days',
    'order Monday, here Thursday'), from the parse's duration roles and words."""
    said = parse(segment)
    spans = said.of(Kind.DURATION)
    if spans and all(m.unit in ("hour", "minute") for m in spans):
        return False  # 'takes about an hour to play': a span of hours out of turn is never days of delivery
    if spans and all(m.role == "customer_wait" for m in spans):
        return False  # 'the contractors wait a day or two for it': how long a backorder lasts, no delivery
    if any(m.role in ("lead_time", "weekday_gap") for m in spans):
        return True
    return bool(set(said.words()) & DELIVERY_WORDS)


def _money_per_period(segment: str) -> bool:
    """Money per day, week or month and no count of items ('the pitch fee is 150 a day'): never demand."""
    said = parse(segment)
    money = [m for m in said.of(Kind.MONEY) if m.period is not None]
    return bool(money) and not any(m.unit in (None, "item") for m in said.of(Kind.QUANTITY))


def _kept_per_period(topic: str, other: str, segment: str) -> bool:
    """Holding rather than an order fee or a penalty: a cost per day, week or month and not per order ('freezing
    each tub costs two dollars a month'), since a fee paid per order is never a rate over time; and without a
    word of running short ('each sack sitting around costs a dollar a week'), since only a backlog penalty is."""
    if rate_period(segment) is None:
        return False
    if {topic, other} == {"holding_cost", "setup_cost"}:
        return not is_per_order(segment)
    return {topic, other} == {"holding_cost", "penalty_cost"} and not _short_talk(segment)


_CHARGE_WORDS = frozenset(_CHARGES) | {"charging", "charged", "bill", "bills", "billed", "invoice", "fee"}
_MONEY_TALK = _CHARGE_WORDS | {"pay", "pays", "paid", "per", "lose", "loses", "lost", "worth", "price", "penalty",
                               "holding", "each", "apiece", "spend", "spent", "delivery", "order"}  # fmt: skip
"""Words that make a bare number in a cost answer money; without one, 'I run 12 machines' is a count."""
_NOT_PLURAL = frozenset({"since", "plus", "less", "was", "this", "thus", "cents", "bucks", "dollars", "pounds",
                         "euros", "days", "weeks", "months", "years", "hours", "has", "is", "as", "us"})  # fmt: skip


def _plural_after(text: str, end: int) -> bool:
    """Whether a plural noun follows the number ending at `end` ('12 machines'): a count of those things."""
    after = text[end:].split(maxsplit=1)
    word = after[0].strip(".,;:!?").lower() if after else ""
    return word.isalpha() and word.endswith("s") and len(word) > 3 and word not in _NOT_PLURAL


def _charge_talk(clause: str) -> bool:
    """A clause about charging with no word of running short ('but they never charge it'): no fact about what
    customers do when stock runs out."""
    return bool(_CHARGE_WORDS & set(parse(clause).words())) and not _short_talk(clause)


def _short_talk(segment: str) -> bool:
    """Whether a clause speaks of running short or of customers waiting ('each day they wait')."""
    return _SHORT_TALK.in_text(segment)


_SHORT_TALK = _and_s(TokenCue(
    starts=("wait", "backorder", "backlog", "delay", "short", "miss", "penalt"),
    exact=frozenset(["late", "lost", "lose", "loses", "loss", "unmet", "unfilled", "goodwill", "customer",
                     "customers", "stockout", "stockouts"]),
    runs=(("out", "of", "stock"), ("stock", "-", "out"), ("stock", "-", "outs"), ("sold", "out"), ("run", "out"),
          ("running", "out")),
))  # fmt: skip
"""Words of running short: a cost per day with them may be a backlog penalty, so holding is not assumed."""


_SHORT = 3
"""A message of at most this many clauses is one statement: a stock-out rule read from one clause of it must
also be what the whole message says (the other rule never reads higher), else the agent asks."""


_WHOLE_FACT_MIN = 0.75
"""A fact no single clause states is read from the whole message only this confidently."""


def _whole_fact(text: str) -> str | None:
    """The fact a message states only as a whole ('when we run out' + 'people wait for the next delivery'),
    read with the same guards as a clause's and a higher bar."""
    fact = facts(text)
    return fact if fact and fact_ranking(text)[fact] >= _WHOLE_FACT_MIN else None


def _whole_agrees(text: str, transition: str) -> bool:
    """Whether the whole message reads as this transition too (the classifier, or its overrides: "they're not
    going anywhere, they wait" is a backlog though the classifier leans to a lost sale)."""
    if transition == "backlog" and customers_stay(text):
        return True
    ranking = fact_ranking(text)
    other = "backlog" if transition == "lost_sale" else "lost_sale"
    return ranking.get(transition, 0.0) >= ranking.get(other, 0.0)


_SETTLED = "you corrected yourself"
_ROW_NAME = {
    "holding_cost": _and_s(TokenCue(exact=frozenset(["holding", "carrying", "storage", "storing", "store", "hold", "keep",
                                              "keeping"]))),
    "penalty_cost": _and_s(TokenCue(
        exact=frozenset(["penalty", "stockout", "stockouts", "shortage", "shortages", "lost", "lose", "short",
                         "missed", "unmet", "unfilled"]),
        runs=(("stock", "-", "out"), ("stock", "-", "outs")),
    )),
    "setup_cost": _and_s(TokenCue(
        exact=frozenset(["setup", "ordering"]),
        runs=(("set", "-", "up"), ("per", "order"), ("each", "order"), ("every", "order"), ("order", "fee"),
              ("order", "fee's"), ("delivery", "fee"), ("delivery", "fee's")),
    )),
}  # fmt: skip
"""A cost row's own name ('storage', 'stock-outs', 'per order')."""


_ROLE_ROW = {"fee": "setup_cost", "holding": "holding_cost", "loss": "penalty_cost", "penalty": "penalty_cost",
             "margin": "penalty_cost"}  # fmt: skip


def _for_asked_cost(topic: str | None, expected: str, segment: str) -> bool:
    """A clause that answers the cost row just asked although the row classifier guessed another: an amount per
    item ('0.25 per bag per day' is no count of bags a day), or another cost row the clause does not name ('I
    make 40 cents on a paper' while the penalty is asked is the lost margin, no holding cost; a per-day amount
    with words of waiting while the penalty is asked)."""
    if topic == expected:
        return False
    amounts = parse(segment).of(Kind.MONEY, Kind.QUANTITY)
    if any(_ROLE_ROW.get(str(m.role)) == expected for m in amounts):
        return True  # '20 cents store credit per book for each day they wait': the parse names the asked row
    if topic in _COST_ROWS and _named(str(topic), segment):
        return False
    if topic == "holding_cost" and expected == "penalty_cost" and _short_talk(segment):
        return True  # '10 cents a ream each day they wait': the backlog penalty asked, whatever the wording
    if {_ROLE_ROW[m.role] for m in amounts if m.role in _ROLE_ROW} - {expected} or any(
        m.role in _PRICE_ROLES or m.per in ("order", "delivery") for m in amounts
    ):
        return False  # 'each delivery costs me 15 in fees', '$6 per delivery', 'costs 40 cents': not for the guess
    if topic in _COST_ROWS:
        return bool(amounts)
    return topic == "demand" and bool(amounts) and all(m.per_unit for m in amounts)


def _named(key: str, segment: str) -> bool:
    """Whether the clause says the row's own name ('storage', 'penalty', 'per order'); 'store credit' (what a
    waiting customer is given) names no storage."""
    if key == "holding_cost" and _store_credit(segment):
        return False
    return _ROW_NAME[key].in_text(segment)


def _rival(segment: str, topic: str) -> str | None:
    """The cost row the classifier reads almost as likely as `topic` (`cues.rival`); none for store credit given
    to a waiting customer, which is the penalty whatever the classifier says of 'store'."""
    return None if _store_credit(segment) else rival(segment, topic)


def _store_credit(segment: str) -> bool:
    words = [t.low for t in parse(segment).toks]
    return any(w in ("store", "shop") and nxt == "credit" for w, nxt in zip(words, words[1:], strict=False))


def _name(key: str) -> str:
    return {"holding_cost": "holding cost (per unit per day)", "penalty_cost": "penalty for a unit short",
            "setup_cost": "fixed cost per order"}[key]  # fmt: skip


def _keep(
    result: Finding | Unclear | None,
    topic: str | None,
    segment: str,
    findings: list[Finding],
    unclear: list[Unclear],
    bare_unclear: list[Unclear],
) -> None:
    """File one clause's reading: a value, a question about a row the clause was about, or (a clause about no
    row) a question kept only when nothing else in the message answers it."""
    if isinstance(result, Finding):
        findings.append(result)
    elif result is not None and topic is not None:
        unclear.append(result)
    elif result is not None and not _answers_other(segment):
        bare_unclear.append(result)


def normalize(
    text: str, *, price_asked: bool = False, sizes: Mapping[str, float] | None = None
) -> tuple[str, list[str]]:
    """Clean text (no escape sequences), digits for number words, signs and spoken money, only the value a
    correction ends on ('not 3 days, it's 5' -> 5), clock times masked (a cutoff '5pm' is no value); notes on
    readings the user should know about. `price_asked`: the text answers a cost question ('a quarter' is 25c)."""
    text, _ = clean(text)
    notes = []
    if couples := _couples(text):
        notes.append("'a couple' taken as 2")
        text = _swapped(text, [(span, "2") for span in couples])
    text = join_halves(words_to_digits(join_halves(text.replace("\u2212", "-").replace("–", "-"))))
    text = _per_interval(_added(_unpack_containers(text, notes, _with_equivalents(sizes)), notes), notes)
    settled = settle(text)
    text, dropped = _superseded(settled.text)
    if settled.corrected or dropped:
        notes.append(f"{_SETTLED}, so I set aside: " + ", ".join(f"'{d}'" for d in settled.dropped + dropped))
    text, threshold = _free_threshold(text)
    if threshold:
        notes.append(f"{_THRESHOLD_NOTE} '{threshold}'")
    text, condition = _amount_condition(text)
    if condition:
        notes.append(f"I set aside '{condition}': a condition on the order, not the amount charged")
    text = _mask_clock_times(text)
    if gap := _order_to_arrival(text):
        said = text[gap.start : gap.end]
        notes.append(f"'{said}' taken as {gap.days} day{'s' * (gap.days != 1)} after the day you order")
        text = f"{_without_on(text, gap.start)}{gap.days} days later{text[gap.end :]}"
    text = _unhedge(text)
    return spoken_money(text, price_asked=price_asked), notes


_PLUS = frozenset({"plus", "+"})


def _added(text: str, notes: list[str]) -> str:
    """Two amounts of one kind joined by 'plus' ('shipping is 8 plus a 4 dollar handling charge', '30 on the shelf
    plus 20 in the back'): their sum, read back ('8 + 4 = 12'). Money only beside money, counts beside counts,
    at the same rate."""
    said = parse(text)
    amounts = [m for m in said.of(Kind.MONEY, Kind.QUANTITY) if m.role != "size"]
    live = [m for m, before in zip(amounts, [None, *amounts], strict=False) if not _holder(text, before, m)]
    swaps: list[tuple[tuple[int, int], str]] = []
    for x, y in zip(live, live[1:], strict=False):
        joined = _joined(text, x, y)
        bare = y.kind is Kind.QUANTITY and not (y.unit or y.container)  # 'charges 18 plus 7': money too
        same = (x.kind is y.kind or x.kind is Kind.MONEY and bare) and x.period == y.period and y.unit in (None, x.unit)
        if joined and same and x.multiplier == y.multiplier and not swaps:  # '4 packs of 6 ... 2 more packs': 24 + 12
            total = format_number(x.amount + y.amount)
            notes.append(f"{format_number(x.amount)} + {format_number(y.amount)} = {total}")
            money = "$" if x.kind is Kind.MONEY and "$" not in text[x.span[0] : x.span[1]] else ""
            swaps.append(((x.span[0], y.span[1]), f"{money}{total}" + (f" a {x.period}" if x.period else "")))
    return _swapped(text, swaps) if swaps else text


def _joined(text: str, x: Mention, y: Mention) -> bool:
    """Whether two amounts are said as one sum: 'plus' or '+' between them ('20 in one box plus 10'), 'and
    another', or 'and' with 'more' after or in the second ('20 and 10 more', '... and room for 2 more packs'); never
    'or' / 'minus'."""
    gap = parse(text[x.span[1] : y.span[0]])
    between = gap.words()
    words = set(between) | ({"+"} & {t.low for t in gap.toks}) | ({"another"} & set(y.text.lower().split()[:1]))
    after = parse(text[y.span[1] : y.span[1] + 30]).words()[:4]  # a short window: long messages stay linear
    on_top = ("on", "top") in zip(after, after[1:], strict=False)  # 'a 5 dollar fuel surcharge on top'
    more = after[:1] == ("more",) or "more" in y.text.lower().split()  # '20 and 10 more', 'and room for 2 more packs'
    more = more or y.text.lower().startswith("half dozen")  # '2 crate and half dozen': 48 + 6
    added = bool(_PLUS & words) or {"and", "another"} <= words or ("and" in words and more)
    added = added or on_top and not {"or", "instead"} & words
    return added and len(between) <= 6 and not {"or", "minus"} & words


def _in_one(m: Mention) -> bool:
    """Whether `m` counts the items in one container ('20 in a box'): those items, an amount like any other."""
    return m.role == "size" and m.value == 1 and bool(m.container) and "in" in m.text.lower().split()


def _added_to(text: str, m: Mention, said: Message) -> bool:
    """Whether the amount next to `m` is added to it ('20 in a box plus 10 loose', '20 plus 6 in a bag')."""
    amounts = said.of(Kind.QUANTITY)
    after = next((n for n in amounts if n.span[0] >= m.span[1]), None)
    before = next((n for n in reversed(amounts) if n.span[1] <= m.span[0]), None)
    return (after is not None and _joined(text, m, after)) or (before is not None and _joined(text, before, m))


def _holder(text: str, before: Mention | None, m: Mention) -> bool:
    """Whether `m` is the one container a count just before it is in ('20 in one box'): no amount of 1."""
    if before is None or before.kind is not Kind.QUANTITY or not m.container or m.value != 1:
        return False
    return parse(text[before.span[1] : m.span[0]]).words() == ("in",)


_ORDERING = frozenset({"order", "orders", "ordered", "deliver", "delivers", "delivery", "get", "gets", "receive",
                       "buy", "buys", "restock", "bring", "brings", "comes", "come", "arrive", "arrives"})  # fmt: skip


_ABOUT = frozenset({"about", "around", "roughly", "approximately", "like", "maybe", "or", "so", "once", "nearly"})


def _per_interval(text: str, notes: list[str]) -> str:
    """An amount said once per several days ('a case of 12 every 4 days', 'about 30 every 3 days'): so much a
    day, read back ('12 every 4 days = 3 a day'); never an amount ordered or delivered ('I order 100 every 2
    weeks' stays)."""
    said = parse(text)
    for x, y in zip(said.mentions, said.mentions[1:], strict=False):
        days = y.days if y.kind is Kind.DURATION and y.role == "interval" else None
        if x.kind is not Kind.QUANTITY or x.per or x.role == "size" or not days or days <= 1:
            continue
        if tuple(w for w in parse(text[x.span[1] : y.span[0]]).words() if w not in _ABOUT | _OF_IT) != ("every",):
            continue  # 'a case of 12 about every 4 days', '7 litres of it every two weeks' too
        if _ORDERING & set(parse(text[: x.span[0]]).words()):
            continue
        rate = format_number(x.amount / days)
        notes.append(f"{format_number(x.amount)} every {format_number(days)} days = {rate} a day")
        return text[: x.span[0]] + f"{rate} a day" + text[y.span[1] :]
    return text


_OF_IT = frozenset({"of", "it", "them", "those", "these"})
"""'14 of them every 2 weeks': words between an amount and its interval that name the item."""
_FREE_WORDS = frozenset({"free", "waived", "waive", "waives"})
_ABOVE_WORDS = frozenset({"over", "above", "beyond", "past", "exceeding", "from"})
_THRESHOLD_NOTE = "a condition for free delivery is no fee and no limit, so I set aside"


def _free_threshold(text: str) -> tuple[str, str | None]:
    """A clause that makes ordering free above an amount ('free delivery over 50 bags', 'orders above 200 ship
    free'), read from the one parse: the amount is a threshold, never a fee, a limit or a zero fee, so the clause
    is removed (what is paid below it, 'but I always pay the 10', stays). Returns the text and the clause."""
    said = parse(text)
    if not _FREE_WORDS & set(said.words()):
        return text, None
    spans, at = [], 0
    for part in clauses(text):  # the clauses' places in the text (commas end a clause here)
        at = text.find(part, at)
        spans.append((at, at + len(part)))
        at += len(part)
    for m in said.of(Kind.QUANTITY, Kind.MONEY, live_only=False):
        before = text[: m.span[0]].lower().split()[-2:]
        above = bool(before) and (before[-1] in _ABOVE_WORDS or before in (["more", "than"], ["at", "least"]))
        start, end = next(((a, b) for a, b in spans if a <= m.span[0] < b), (0, 0))
        if above and _FREE_WORDS & set(parse(text[start:end]).words()):
            return f"{text[:start]}{text[end:]}".strip(" ,;"), text[start:end]
    return text, None


_BELOW_WORDS = frozenset({"under", "below"})


def _amount_condition(text: str) -> tuple[str, str | None]:
    """An amount said as a condition beside another amount ('18 per order under 500 dollars', '6 for orders
    above 200'): a threshold, never the fee, so it is removed with its condition word when money or a count is
    said besides, or 'none' ('a fee on orders under $200, we're always over, so none'). Returns the text and the
    words removed."""
    message = parse(text)
    said = [m for m in message.of(Kind.QUANTITY, Kind.MONEY) if not m.container]
    alone = len(said) == 1 and bool(_NOTHING_WORDS & set(message.words()))  # 'a fee on orders under $200 ... so none'
    if not (len(said) == 2 or alone) or not any(m.kind is Kind.MONEY for m in said):
        return text, None
    for m in said:
        before = text[: m.span[0]].lower().split()[-2:]
        if before and (before[-1] in _BELOW_WORDS | _ABOVE_WORDS or before in (["less", "than"], ["more", "than"])):
            cut = m.span[0] - 1 - len(" ".join(before[-2:] if before[-1] == "than" else before[-1:]))
            return f"{text[:cut].rstrip()} {text[m.span[1] :].lstrip()}".strip(), text[cut : m.span[1]]
    return text, None


def _bare_number(said: str) -> bool:
    """Whether a value is said as a number alone ('5', '$8', '1,200'), no unit or rate."""
    try:
        float(said.strip().lstrip("$€£").replace(",", ""))
    except ValueError:
        return False
    return True


def _superseded(text: str) -> tuple[str, tuple[str, ...]]:
    """Values the parse finds taken back by a later one in the message ('the catalogue says 3 days but really
    it's 5', 'my partner reckons 10 a day but it's more like 8'): removed, and a replacement said bare gets the
    unit or rate the superseded value had ('5' -> '5 days'). Returns the text and the values set aside."""
    ordered = sorted(parse(text).mentions, key=lambda m: m.span[0])
    edits: list[tuple[int, int, str]] = []
    dropped: list[str] = []
    for i, old in enumerate(ordered):
        if not old.scope & Scope.CORRECTED or old.kind not in (Kind.QUANTITY, Kind.MONEY, Kind.DURATION):
            continue
        new = next((m for m in ordered[i + 1 :] if m.live and restates(old, m)), None)
        if new is None:
            continue
        old = _counted_rate(text, ordered[i - 1], old) if i else old
        dropped.append(old.text)
        if i + 1 < len(ordered) and _varied_run(text, old, ordered[i + 1]):  # 'a week, sometimes 10 days, ...'
            edits.append((old.span[0], ordered[i + 1].span[0], ""))  # 'a week, sometimes ' goes
            continue
        if _in_place(text, old, new):  # '7 lost, plus they don't come back - call it 8' -> '8 lost, ...'
            edits += [(new.span[0], new.span[1], ""), (old.span[0], old.span[1], _replacement(old, new))]
            continue
        edits.append((old.span[0], _pause_end(text, old, new), ""))
        _, _, suffix = old.text.strip().partition(" ")
        if new.kind is old.kind is Kind.DURATION and new.unit:  # '5 days, sometimes a week, call it 5': days
            suffix = new.unit + ("" if new.value == 1 else "s")
        if any(at == new.span[1] and not end - at for at, end, _ in edits):
            continue  # one unit for the replacement, whichever superseded value came first
        if suffix and _bare_number(new.text):
            edits.append((new.span[1], new.span[1], f" {suffix}"))
        elif old.period and not new.period and new.kind is Kind.QUANTITY:  # '4 boxes a day, no wait, 3 boxes'
            edits.append((new.span[1], new.span[1], f" per {old.period}"))
    for start, end, insert in sorted(set(edits), reverse=True):
        text = text[:start] + insert + text[end:]
    while edits and "  " in text:
        text = text.replace("  ", " ")
    return text, tuple(dropped)


def _varied_run(text: str, old: Mention, nxt: Mention) -> bool:
    """Whether a corrected span is followed by another corrected span joined to it by words of variation only
    ('a week, sometimes 10 days, call it 8'): both settled by the restatement, the first removed with the words
    up to the second (which the restatement replaces)."""
    between = parse(text[old.span[1] : nxt.span[0]]).words()
    joined = all(w in VARIATION_LINKS for w in between)
    return old.kind is nxt.kind is Kind.DURATION and bool(nxt.scope & Scope.CORRECTED) and joined


def _counted_rate(text: str, before: Mention, old: Mention) -> Mention:
    """'25 reams a day, no wait, 30': the parse took back only 'a day' (the count's rate, an item word the
    vocabulary lacks between them); the count with its rate is what the speaker took back."""
    if not (old.kind is Kind.DURATION and old.value == 1 and before.kind is Kind.QUANTITY and before.per is None):
        return old
    between = parse(text[before.span[1] : old.span[0]]).words()
    if len(between) != 1 or not between[0].isalpha() or not old.text.lower().startswith(("a ", "an ", "per ", "each ")):
        return old
    return replace(before, text=text[before.span[0] : old.span[1]], span=(before.span[0], old.span[1]),
                   scope=old.scope)


def _in_place(text: str, old: Mention, new: Mention) -> bool:
    """Whether a replacement takes the corrected value's place, so the words around the first figure (its row,
    'for each puzzle') read the second: the speaker's own figure, words of their own between the two, no 'but'
    ('6 a month for each puzzle... no, that's too much, say 3 a month'); never 'the catalogue says X but Y'."""
    between = parse(text[old.span[1] : new.span[0]]).words()
    return not old.scope & Scope.OTHERS and "but" not in between and _pause_end(text, old, new) == old.span[1]


def _replacement(old: Mention, new: Mention) -> str:
    """The replacement said in the corrected value's words: a bare number or a shorter phrase takes its unit,
    rate and holder ('9 a month per item, ..., say 6 a month' -> '6 a month per item'), a count its period."""
    _, _, suffix = old.text.strip().partition(" ")
    number, _, said = new.text.strip().partition(" ")
    if new.kind is Kind.DURATION and not said and new.unit and new.unit != old.unit:  # 'a week, ..., call it 8'
        return f"{number} {plural(new.unit)}"  # the unit the parse gave the restatement (`_finest`): 8 days
    if suffix and suffix.lower().startswith(said.lower()):  # '9 a month per item' -> '6 a month per item'
        return f"{number} {suffix}"
    if old.kind is Kind.MONEY and new.kind is Kind.QUANTITY and not said:  # '7 gone ... call it 9': 9 is money
        return f"{number} {old.unit}"
    if old.period and not new.period and new.kind is Kind.QUANTITY:
        return f"{new.text} per {old.period}"
    return new.text


def set_aside(notes: tuple[str, ...] | list[str]) -> tuple[float, ...]:
    """The numbers a message took back itself ('the catalogue says 300 but really it's 250' -> (300,)), read from
    its notes; empty when the message settled no correction of its own."""
    said = [note[:MAX_CHARS] for note in notes if note.startswith(_SETTLED)]  # a note quotes the message
    return tuple(n.value for note in said for n in find_numbers(note))


def _pause_end(text: str, old: Mention, new: Mention) -> int:
    """Where the removal of a superseded value ends: through the pause before its replacement when only
    correction words stand between them ('give or take 5, well, maybe 6' -> 'give or take 6'), so the
    replacement takes its place; else at the value's end."""
    between = parse(text[old.span[1] : new.span[0]]).words()
    fillers = CORRECTION_FILLERS | HESITATIONS | SECOND_THOUGHTS
    return new.span[0] if between and all(w in fillers for w in between) else old.span[1]




def _after_some_days(text: str, start: int) -> bool:
    """Whether the words before `start` open another end of a range said as days ('some days 8 litres, some days
    16'), as `_SOME_DAYS` reads them."""
    before = as_days(parse(text[:start]).words()[-3:])
    return any(before[-len(run) :] == run for run in _SOME_DAYS)
_VERBS = frozenset({"is", "was", "fits", "goes", "sits", "costs", "takes", "lasts", "does", "has", "this", "us"})


def _unpack_containers(text: str, notes: list[str], sizes: Mapping[str, float] | None = None) -> str:
    """Nested units from the one parse ('10 cases of 12 bottles' = 120 bottles, 'six crates of 24' = 144, money
    '$2 per case of 12' = $0.1667 per unit): the table counts items, so containers are multiplied out (divided
    out for money per container) and the conversion is read back in `notes`. A size said for the kind of
    container ('boxes of 100', 'a crate is 24 jars') is no value of any row: it is taken out of the text (the
    agent remembers it: `sizes` of later messages)."""
    said = parse(text, sizes=sizes)
    swaps: list[tuple[tuple[int, int], str]] = []
    divided: tuple[str, float] | None = None  # the measure and size of the last amount divided out
    packed: tuple[str, float, float] | None = None  # container, size and count of the last count multiplied out
    taken_back: Mention | None = None  # a count of containers the user corrected, whose number follows bare
    for m in sorted(said.of(Kind.QUANTITY, live_only=False), key=lambda q: q.span):
        each = sized_measure(m.unit or "", sizes or {})
        pending, taken_back = taken_back, None  # only the number right after the correction replaces it
        if m.role != "size" and m.unit not in (None, "item") and each and m.per != "unit":  # '50 kilos' of 10 kilo bags
            count = format_number(float(m.value) / each)
            notes.append(f"{format_number(float(m.value))} {m.unit} ÷ {format_number(each)} {m.unit} each = {count} units")
            swaps.append((m.span, f"{count} units" + (f" per {m.period}" if m.period else "")))
            divided = (m.unit or "", each)
        elif pending and m.live and _bare_count(m):  # '4 crates a week, no sorry, 3.5': 3.5 crates
            total = format_number(float(m.value) * pending.multiplier)
            notes.append(
                f"{format_number(float(m.value))} {_plural_of(pending.container or '', float(m.value))} × "
                f"{format_number(pending.multiplier)} = {total} units"
            )
            swaps.append((m.span, total))
        elif packed and is_bare_spread(text, m) and m.amount <= packed[2] and not _named_after(text, m):
            # '3 pallets a day, give or take 1': a pallet; 'give or take 3 reams' names its own unit
            total = format_number(m.amount * packed[1])
            notes.append(f"give or take {format_number(m.amount)} {_plural_of(packed[0], m.amount)} × "
                         f"{format_number(packed[1])} = {total} units")
            swaps.append((m.span, total))
        elif divided and _bare_count(m) and _after_some_days(text, m.span[0]):
            count = format_number(m.amount / divided[1])  # 'some days 8 litres, some days 16': 16 litres too
            notes.append(f"{format_number(m.amount)} {divided[0]} ÷ {format_number(divided[1])} {divided[0]} each = {count} units")
            swaps.append((m.span, count))
        elif divided and is_bare_spread(text, m):  # '400 litres a day, give or take 160': 160 litres too
            count = format_number(m.amount / divided[1])
            notes.append(
                f"give or take {format_number(m.amount)} {divided[0]} ÷ {format_number(divided[1])} "
                f"{divided[0]} each = {count} units"
            )
            swaps.append((m.span, count))
        elif m.role == "size" and m.unit not in (None, "item"):  # 'the 10 kilo bags' -> 'the bags'
            swaps.append((m.span, m.text.split()[-1]))
        elif _in_one(m) and _added_to(text, m, said):  # '20 in a box plus 10 loose': 20 items, added below
            swaps.append((m.span, format_number(m.amount)))
        elif m.role == "size" and _per_one(m.text):
            swaps.append((m.span, ""))  # '24 cans to a crate', '5 reams in each box': the whole size goes
        elif m.role == "size":  # 'crates of 24' -> 'crates of several': the words stay, the number goes
            swaps.append((m.span, " ".join([*m.text.split()[:2], "several"])))
        elif m.container and m.multiplier > 1 and not m.whole_business:
            words = m.text.split()
            tail = words[-1] if len(words) > 3 and words[-2].replace(".", "").isdigit() else ""
            items = tail if tail.lower().endswith("s") and tail.lower() not in _VERBS else "units"
            total = format_number(m.amount)
            count = format_number(float(m.value))
            notes.append(f"{count} {_plural_of(m.container, float(m.value))} × {format_number(m.multiplier)} = {total} {items}")
            per = (m.per or "").split("/")[0]
            period = f" per {m.period}" if m.period else (f" per {per}" if per in ("order", "delivery") else "")
            taken_back = m if m.scope & Scope.CORRECTED else None
            packed = (m.container, m.multiplier, float(m.value))
            bare = len(words) == 1  # the first end of 'from 3 to 6 packs a day': its unit follows the second
            more = " more" if words[1:2] in (["more"], ["extra"]) else ""  # 'room for 2 more packs': 12 more units
            swaps.append((m.span, total if bare else f"{total}{more} {items if tail else 'units'}{period}"))
    for m in said.of(Kind.MONEY, live_only=False):
        container = (m.per or "").split("/")[0]
        words = m.text.lower().split()
        size = next((words[i + 1] for i in range(len(words) - 1) if words[i] == "of"), "")
        if container in _CONTAINER_WORDS and size.replace(".", "").isdigit() and float(size) > 0:
            each = format_number(float(m.value) / float(size))
            notes.append(f"${format_number(float(m.value))} per {container} of {size} = ${each} per unit")
            swaps.append((m.span, f"${each} per unit" + (f" per {m.period}" if m.period else "")))
    swaps += _pack_names(text, said)
    for (start, end), new in sorted(swaps, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _named_after(text: str, m: Mention) -> bool:
    """Whether a word naming a unit follows the figure ('give or take 3 reams'): a plural noun, not a time word."""
    after = parse(text[m.span[1] :]).words()[:1]
    return bool(after) and after[0].isalpha() and after[0].endswith("s") and len(after[0]) > 3 and (
        after[0] not in TIME_UNITS
    )


_PACK_HEADS = frozenset({"pack", "packs", "pak", "paks"})


def _pack_names(text: str, said: Message) -> list[tuple[tuple[int, int], str]]:
    """'we sell our IPA in six-packs' ('6-packs' once spelled): a pack its name sizes, with no count of it, is no
    amount (no demand of 6 a day); its number goes where the parse reads no amount over it ('10 6-packs' keeps
    its count, multiplied out above)."""
    spans = [m.span for m in said.mentions]
    toks = said.toks
    return [
        ((t.start, toks[k + 1].end), "")
        for k, t in enumerate(toks[:-2])
        if t.kind == "num"
        and toks[k + 1].text == "-"
        and toks[k + 2].low in _PACK_HEADS
        and t.end == toks[k + 1].start
        and not any(start <= t.start < end for start, end in spans)
    ]


_YES_NO_ROWS = frozenset({"perishability"})


def _answers_no(text: str, expected: str | None) -> bool:
    """'no, they have a two-year expiry' to 'do the items spoil?': the 'no' answers the question asked, it takes
    back nothing (a span after it is never a correction of a filled row)."""
    if expected not in _YES_NO_ROWS:
        return False
    answers = sorted(parse(text).of(Kind.ANSWER), key=lambda m: m.span)
    return bool(answers) and answers[0].value == "no" and answers[0].clause == 0


def _bare_count(m: Mention) -> bool:
    """A number said alone: no unit, container, rate or role ('3.5', not '3 cans' nor '3 a day')."""
    return m.unit is None and m.container is None and m.multiplier == 1 and m.role is None and not m.per


_SPREAD_MARKERS = ("give or take", "plus or minus", "±", "+/-", "+-")


def is_bare_spread(text: str, m: Mention) -> bool:
    """A spread said as a bare number right after its marker ('..., give or take 160', 'plus or minus a dozen'):
    it counts in the unit of the mean before it, so a conversion of the mean applies to it too."""
    dozens = m.container == "dozen" and m.unit in (None, "item") and m.role is None and not m.per  # 'a dozen'
    return (_bare_count(m) or dozens) and text[: m.span[0]].lower().rstrip(" ,:").endswith(_SPREAD_MARKERS)


_MEASURE_FACTORS = {("kg", "g"): 1000.0, ("litre", "ml"): 1000.0, ("lb", "oz"): 16.0, ("kg", "lb"): 2.20462,
                    ("gallon", "quart"): 4.0}  # fmt: skip
"""How many of the second measure make one of the first."""


def _with_equivalents(sizes: Mapping[str, float] | None) -> Mapping[str, float] | None:
    """The sizes with each measure also in the measures it converts to ('500 ml bottles' is 0.5 litre too), so '14
    litres a week' of those bottles is 28 bottles (`sized_measure` over every measure named)."""
    if not sizes:
        return sizes
    out = dict(sizes)
    for big, small in _MEASURE_FACTORS:
        for unit in (big, small):
            if unit not in out and (size := sized_measure(unit, sizes)) is not None:
                out[unit] = size
    return out


def sized_measure(unit: str, sizes: Mapping[str, float]) -> float | None:
    """What one sized item holds in `unit`, from the sizes the user stated ({'g': 250} for '250 gram fillets':
    0.25 in 'kg'); None when no sized item is in that measure or one convertible to it."""
    if unit in sizes:
        return sizes[unit]
    for (big, small), factor in _MEASURE_FACTORS.items():
        if unit == big and small in sizes:
            return sizes[small] / factor
        if unit == small and big in sizes:
            return sizes[big] * factor
    return None


def _segment_row(
    topic: str | None, expected: str | None, segment: str, bare: bool
) -> tuple[str | None, str | None]:
    """The topic a segment keeps and the row it answers (`read_message`), from the classifier's topic, the row
    asked and what the parse reads in the segment."""
    if _other_span_row(topic, expected, segment):
        topic = expected  # 'a week at a time' answers the horizon asked: no word of delivery in it
    if topic in _COST_ROWS and topic != expected and _measured_not_paid(segment):
        topic = None  # demand asked, 'about 25 pounds a day': a weight sold, no cost in pounds sterling
    if topic == "holding_cost" and _store_credit(segment):
        topic = "penalty_cost"  # '30 cents of store credit per game for every day they wait': no storage
    if topic in ("holding_cost", "setup_cost") and _lost_said(segment):
        topic = "penalty_cost"  # 'the oat upcharge is 75 cents, so we lose like $4.50 a carton': a lost sale
    key = topic or (expected if bare else None)
    if key in ("holding_cost", "penalty_cost") and topic is None and _per_order(segment):
        key = topic = "setup_cost"  # the penalty asked, '10 per delivery': a fee per order, never per unit
    if key in DURATION_ROWS and _per_order(segment) and not parse(segment).of(Kind.DURATION):
        key = topic = "setup_cost"  # "really it's 6 an order": an amount per order, never 6 days
    if topic == "time_horizon" and expected != "time_horizon" and _keeps_for(expected, segment):
        topic = key = None  # 'no, best before is over a year out': how long it keeps, never the plan's span
    if topic == "max_order" and expected != "max_order" and _sold_singly(segment):
        topic = key = None  # 'We sell them one box at a time': how the item is sold, no order limit
    if topic == "max_order" and expected == "max_inventory" and not _ORDER_WORDS & set(parse(segment).words()):
        topic = key = expected  # storage asked, 'shelf is small, max 60 bottle': a most of storage, no order
    if expected in _COST_ROWS and _for_asked_cost(topic, str(expected), segment):
        key = topic = expected
    if key == "risk_tolerance" and _no_risk_said(expected, segment):
        topic, key = None, (expected if bare else None)
    return topic, key


_ORDER_WORDS = frozenset(["order", "orders", "ordering", "delivery", "deliveries", "shipment", "shipments", "time",
                          "once", "supplier", "buy", "drop", "truck", "load", "run", "wholesaler", "distributor",
                          "ship", "ships", "send", "sends", "deliver", "delivers", "bring", "brings", "bakery"])
_KEEP_WORDS = frozenset(["best", "good", "keeps", "keep", "lasts", "last", "expiry", "expires", "expire", "shelf",
                         "fresh", "spoils", "date", "dated"])  # fmt: skip


def _keeps_for(expected: str | None, segment: str) -> bool:
    """Whether a span said with no word of planning is how long stock keeps: said to the spoil question, or with a
    word of keeping ('the bags are good for over a year')."""
    words = set(parse(segment).words())
    return not _HORIZON_WORDS & words and (expected == "perishability" or bool(_KEEP_WORDS & words))


def _sold_singly(segment: str) -> bool:
    """Whether a segment says how customers buy the item ('we sell them one box at a time'): a sell word and no
    word of ordering."""
    words = set(parse(segment).words())
    return bool(words & {"sell", "sells", "sold", "selling"}) and not words & _LIMIT_NAME["max_order"].exact


_CONCLUDING = frozenset(["really", "total", "in", "altogether", "all", "then", "tops", "overall"])


def _concluded_text(text: str) -> str | None:
    """The amount a cost answer concludes with after several ('..., so 15 really', 'so 40 in total'): the text from
    it on, or None."""
    said = parse(text)
    amounts = [m for m in said.of(Kind.MONEY, Kind.QUANTITY) if m.period is None]
    if len(amounts) < 2:
        return None
    last = amounts[-1]
    before = parse(text[max(amounts[-2].span[1], last.span[0] - 20) : last.span[0]]).words()
    rest = parse(text[last.span[1] :]).words()
    if "so" not in before[-3:] or len(rest) > 3 or not set(rest) <= _CONCLUDING:
        return None
    return text[last.span[0] :]


def _concluding(findings: list[Finding], text: str) -> list[Finding]:
    """Of several findings for one cost row, the amount the message concludes with ('the receipt says 12 for
    delivery but there's a 3 dollar fee on top, so 15 really': 15, never 12 beside it)."""
    end = _concluded_text(text)
    said = read_number(parse(end).words()[0]) if end else None
    out = []
    for f in findings:
        rivals = [g for g in findings if g.key == f.key and g is not f]
        if said is not None and f.key in _COST_ROWS and rivals and read_number(f.value) != said and any(
            read_number(g.value) == said for g in rivals
        ):
            continue
        out.append(f)
    return out


def _per_part(text: str) -> str | None:
    """The question for money said per part of an item ('each bottle is about 8 lattes and I make 3 bucks on each
    latte'): the product is offered, neither figure is written."""
    said = parse(text)
    words = list(said.words())
    money = [m for m in said.of(Kind.MONEY) if m.per is None]
    counts = [m for m in said.of(Kind.QUANTITY) if not (m.unit or m.container or m.per) and m.amount > 1]
    if len(money) != 1 or len(counts) != 1:
        return None
    spans = said.word_spans()
    k = next((i for i, (a, _) in enumerate(spans) if a >= counts[0].span[1]), None)  # the noun the count counts
    j = next((i for i, (a, _) in enumerate(spans) if a >= money[0].span[1]), None)  # the words after the money
    if k is None or j is None or not words[k].endswith("s"):
        return None
    part = singular(words[k])
    if part not in words[j : j + 4] or not {"each", "per", "a", "every"} & set(words[j : j + 3]):
        return None
    each, count = money[0].amount, counts[0].amount
    return (f"that is ${format_number(each)} per {part} and {format_number(count)} {words[k]} to one unit: is a "
            f"missed sale ${format_number(each * count)}, or another amount?")


def _amount_not_state(topic: str | None, expected: str | None, segment: str) -> str | None:
    """The cost asked for a segment classed as a stock-out statement that states no stock-out fact but money, or
    an amount beside the cost's name ('Freight is 45 this year' answering the fee); else the topic."""
    if topic != STATE or expected not in _COST_ROWS or facts(segment) is not None:
        return topic
    words = set(parse(segment).words())
    named = {ROLE_WORDS.get(w) for w in words} & set(_ROW_ROLES[expected]) or (
        expected == "setup_cost" and words & {"delivery", "deliveries"}
    )  # 'Delivery is 35 this spring'
    return expected if parse(segment).of(Kind.MONEY) or named and parse(segment).of(Kind.QUANTITY) else topic


def _lost_said(segment: str) -> bool:
    """Whether the parse reads money said as lost in a segment ('so we lose like $4.50 a carton') and no amount of
    storage or per order: what a missed sale costs, whatever other word ('upcharge') suggested a fee."""
    money = parse(segment).of(Kind.MONEY)
    return any(m.role == "loss" for m in money) and not any(m.role in ("holding", "fee") for m in money)


def _no_risk_said(expected: str | None, segment: str) -> bool:
    """An unasked segment classed under risk that holds no risk answer ("and I'm 5 short" answering the
    penalty): it states nothing on the risk scale, so it answers the row asked or nothing, never risk."""
    return expected != "risk_tolerance" and read_risk(segment) is None


def _other_span_row(topic: str | None, expected: str | None, segment: str) -> bool:
    """A span classed under the other duration row than the one asked, with no word of that row in it: it
    answers the row asked ('a week at a time' for the horizon; 'a week and a half, ten days-ish' for the
    delivery time, never a horizon already set)."""
    if topic == "lead_time" and expected == "time_horizon":
        return not any(m.role == "lead_time" for m in parse(segment).of(Kind.DURATION))
    if topic == "time_horizon" and expected == "lead_time":
        return not _HORIZON_WORDS & set(parse(segment).words())
    return False


_HORIZON_WORDS = frozenset(["plan", "planning", "plans", "horizon", "ahead", "cover", "covers", "covering",
                            "forecast", "budget", "model", "schedule"])  # fmt: skip
"""Words that name the planning span: a span said with none of them, when the delivery time is asked, is the
delivery time."""


def _per_order(segment: str) -> bool:
    """Whether every amount of a segment is said per order or delivery ('10 per delivery', '30 a run')."""
    amounts = [m for m in parse(segment).mentions if m.kind in (Kind.MONEY, Kind.QUANTITY)]
    return bool(amounts) and all((m.per or "").split("/")[0] in ("order", "delivery") for m in amounts)


def _measured_not_paid(segment: str) -> bool:
    """Whether the parse reads a segment's amounts as measures (weights, volumes) and none as money: such a
    segment states no cost, whatever row its words suggest."""
    said = parse(segment)
    amounts = said.of(Kind.QUANTITY)
    return bool(amounts) and not said.of(Kind.MONEY) and all(m.unit not in (None, "item") for m in amounts)


def _count_asked(expected: str | None, segment: str) -> bool:
    """Whether a segment read as demand answers the storage or order limit asked instead: an amount with no
    time in it ('100 or 120, depends how I stack them') is no amount per day."""
    if expected not in ("max_inventory", "max_order"):
        return False
    said = parse(segment)
    return bool(said.of(Kind.QUANTITY)) and not said.of(Kind.DURATION) and not any(m.period for m in said.mentions)


def _per_one(size: str) -> bool:
    """Whether a stated size ends on the container it fills ('24 cans to a crate', '5 reams in each box', '30
    loaves on each', '12 loaves on a tray', '10 stems a bucket', '20 jars per box'): the whole phrase is a size,
    no count ('cases of a dozen' keeps its words)."""
    words = size.lower().split()
    before, one = (["", "", *words])[-3:-1]
    return (
        one == "per"
        or (one in ("a", "an", "each", "every") and before in ("to", "in", "on"))
        or (one == "the" and before == "to")  # '5 reams to the box'
        or (one in ("a", "an") and before != "of")
        or words[-1:] == ["each"]
    )


def _plural_of(container: str, count: float) -> str:
    """The container's name for `count` of them: one (or less) stays singular ('1 box', '2 boxes')."""
    return container if count <= 1 else plural(container)


_CONTAINER_WORDS = frozenset({"case", "crate", "box", "pack", "carton", "tray", "pallet", "sack", "bundle"})


_HOURS_TALK = _and_s(TokenCue(
    exact=frozenset(["open", "opens", "opening", "close", "closes", "closing", "shift", "call", "calls", "cutoff",
                     "deadline", "morning", "evening", "afternoon", "noon", "o'clock", "oclock"]),
    runs=(("cut", "-", "off"), *((verb, "out") for verb in ("sold", "sell", "sells", "selling", "run", "runs", "ran"))),
))  # fmt: skip
"""Talk about opening hours or calls, or about selling out: a bare 'at 9', 'sold out by 11' after it is a clock
time."""
_WAGES = _and_s(TokenCue(
    exact=frozenset(["hourly", "wage", "wages", "salary", "salaries", "payroll", "staff", "employee", "employees"]),
    runs=(("an", "hour"), ("per", "hour"), ("a", "hour"), ("each", "hour"), ("every", "hour")),
))
_OVERHEAD = _and_s(TokenCue(exact=_WAGES.exact | {"rent"}, runs=(*_WAGES.runs, ("electricity", "bill"))))
"""Running costs of the shop (wages, rent): not a cost per unit, so never silently a cost row."""
_EACH = frozenset(["each", "every", "per"])
_NOT_ITEMS = frozenset(
    w + s for w in ("day", "night", "week", "month", "year", "hour", "order", "delivery", "shipment", "employee",
                    "worker", "person", "shift") for s in ("", "s")
)  # fmt: skip


def _per_item(segment: str) -> bool:
    """A cost said per item ('every pallet I keep costs $2.10 a week in rent'): 'each', 'every' or 'per' and then
    a word that is no span of time, order or worker, from the parse's tokens."""
    toks = parse(segment).toks
    return any(
        t.low in _EACH and n.kind == "word" and n.start > t.end and n.low.split("'")[0] not in _NOT_ITEMS
        for t, n in zip(toks, toks[1:], strict=False)
    )


_HISTORY = _and_s(TokenCue(
    exact=frozenset(["ago", "since"]),
    runs=(("been", "open"), ("been", "around"), ("been", "in", "business"), ("been", "running"), ("been", "trading"),
          ("in", "business", "for"), ("year", "old"), ("years", "old"), ("been", "here"), ("been", "going"),
          ("been", "doing"), ("been", "selling"), ("been", "at", "it")),
))  # fmt: skip
"""How long something has been ('open 3 years', '2 days ago'): a past span, not a horizon or lead time."""


def _cutoffs(said: Message) -> list[Mention]:
    """The clock times a message sets as a cutoff ('order before 5', 'if I order by 3'): never a count. A time
    after 'at' is left to the row ('put me at 5' is a risk, 'we top out at 12' a limit)."""
    return [m for m in said.of(Kind.CLOCK, live_only=False) if m.role != "at"]


def _mask_clock_times(text: str) -> str:
    """Clock times ('before 5pm', '17:30', and 'at 9' in talk about opening hours or calls) replaced by a
    word: a cutoff hour is never a quantity."""
    out, last = [], 0
    exact = {(a, b) for a, b, _ in clock_times(text)}
    bare = clock_times(text, bare=True)
    said = parse(text)
    talk = _HOURS_TALK.spans(said.toks) if bare else []
    times = [
        (start, end)
        for start, end, _ in bare
        if (start, end) in exact or any(start - 40 <= a and b <= start for a, b in talk)
    ]  # a word of hours or calls in the 40 characters before it
    times += [m.span for m in _cutoffs(said)]  # and the parse's own ('if I order by 3')
    for start, end in sorted(set(times)):
        if start < last:
            continue
        out += [text[last:start], "clocktime"]
        last = end
    return "".join(out) + text[last:]


_ORDER_VERB = _and_s(TokenCue(
    exact=frozenset(["order", "orders", "ordered", "ordering", "call", "calls", "called", "phone", "phoned",
                     "phones", "ring", "email", "emails", "emailed", "place", "placed", "places", "send", "sent"]),
    runs=(("e", "-", "mail"), ("e", "-", "mails"), ("e", "-", "mailed"), ("put", "in")),
))  # fmt: skip


def _without_on(text: str, end: int) -> str:
    """`text[:end]` without an 'on' that ends it ('they arrive on |Friday'), from the parse's tokens."""
    before = [t for t in parse(text).toks if t.end <= end]
    last = before[-1] if before else None
    if last is not None and last.low == "on" and text[last.end : end] and not text[last.end : end].strip():
        return text[: last.start]
    return text[:end]


def _order_to_arrival(text: str) -> WeekdayGap | None:
    """Two weekdays where the first is the day the order goes in and the second the day it comes ('I order
    on a Monday, they arrive the following Monday'): an order is placed before the second day, and not on it
    ('we count stock on Monday and order on Wednesday', 'on Wednesday we order' are no wait)."""
    gap = weekday_gap(text)
    if gap is None:
        return None
    verbs = _ORDER_VERB.spans(parse(text).toks)
    if not any(end <= gap.start for _, end in verbs):
        return None
    just_before = _chunks_before(text, gap.start, 2)
    rest = next(iter(clauses(text[gap.end :])), "")
    at = text.find(rest, gap.end) if rest else -1
    in_rest = at >= 0 and any(at <= a and b <= at + len(rest) for a, b in verbs)
    return None if in_rest or any(just_before <= a and b <= gap.start for a, b in verbs) else gap


def _chunks_before(text: str, end: int, count: int) -> int:
    """Where the last `count` whitespace-separated chunks of `text[:end]` begin ('order on' before a weekday)."""
    i = len(text[:end].rstrip())
    for _ in range(count):
        while i > 0 and not text[i - 1].isspace():
            i -= 1
        if _ < count - 1:
            while i > 0 and text[i - 1].isspace():
                i -= 1
    return i


def _swapped(text: str, swaps: list[tuple[tuple[int, int], str]]) -> str:
    """The text with each (start, end) span replaced, spans in text order and not overlapping."""
    out, last = [], 0
    for (start, end), new in swaps:
        out += [text[last:start], new]
        last = end
    return "".join(out) + text[last:]


def _couples(text: str) -> list[tuple[int, int]]:
    """The spans of 'a couple' / 'a couple of' in the parse's tokens (read as 2 by `normalize`)."""
    toks, spans, i = parse(text).toks, [], 0
    while i + 1 < len(toks):
        if toks[i].low == "a" and toks[i + 1].low == "couple":
            end = i + 3 if i + 2 < len(toks) and toks[i + 2].low == "of" else i + 2
            spans.append((toks[i].start, toks[end - 1].end))
            i = end
        else:
            i += 1
    return spans


def _hedge_end(words: list[str], i: int) -> int | None:
    """The token index after a hedge in risk words starting at token i ('a conservative estimate is',
    'realistically speaking', 'to be safe', 'if I'm being careful', 'erring on the safe side'), or None."""
    k = i + (words[i] in _HEDGE_ARTICLES)
    if k + 1 < len(words) and words[k] in _HEDGE_ADJECTIVES and words[k + 1] in _HEDGE_NOUNS:
        end = k + 2
        tail = next((t for t in _HEDGE_TAILS if tuple(words[end : end + len(t)]) == t), ())
        return end + len(tail)
    if words[i] in _HEDGE_ADVERBS:
        return i + 1 + (words[i + 1 : i + 2] == ["speaking"])
    if words[i : i + 2] == ["to", "be"] and words[i + 2 : i + 3] and words[i + 2] in _CAREFUL:
        return i + 3
    if (
        words[i] in ("if", "when")
        and words[i + 1 : i + 2]
        and words[i + 1] in _BEING
        and words[i + 2 : i + 3] == ["being"]
        and words[i + 3 : i + 4]
        and words[i + 3] in ("conservative", "cautious", "careful")
    ):
        return i + 4
    if (
        words[i] in ("err", "erring")
        and words[i + 1 : i + 3] == ["on", "the"]
        and words[i + 3 : i + 4]
        and words[i + 3] in ("safe", "cautious", "conservative")
        and words[i + 4 : i + 5] == ["side"]
    ):
        return i + 5
    return None


def _unhedge(text: str) -> str:
    """'a conservative estimate is 20 a day' -> 'about 20 a day', when a number follows in the sentence (read on
    the parse's tokens: `_hedge_end`)."""
    toks = parse(text).toks
    words = [t.low for t in toks]
    swaps, i = [], 0
    while i < len(toks):
        end = _hedge_end(words, i)
        if end is None:
            i += 1
            continue
        if _number_follows(text, toks, end):
            swaps.append(((toks[i].start, toks[end - 1].end), "about"))
        i = end
    return _swapped(text, swaps)


def _number_follows(text: str, toks: tuple, k: int) -> bool:
    """Whether a number stands in token k's sentence from k on (no '.', ';', '!', '?' or line break between)."""
    for j in range(k, len(toks)):
        if "\n" in text[toks[j - 1].end : toks[j].start] or toks[j].text in _SENTENCE_ENDS:
            return False
        if toks[j].kind == "num" or any(ch.isdigit() for ch in toks[j].text):
            return True
    return False


def compatible(key: str, text: str) -> bool:
    """Whether a clause without a cue could be a value for `key` (a duration is no price, money no duration)."""
    has_duration = bool(find_durations(text)) and not rate_period(text)
    has_money = bool(find_money(text))
    if key in ("time_horizon", "lead_time"):
        return not has_money and not is_per_order(text)
    if key in ("holding_cost", "penalty_cost", "setup_cost"):
        return not has_duration
    if key == "risk_tolerance" and _measured(text):
        return False  # 'about half a kilo each' is a weight, never a risk score
    return not has_duration and not has_money


def _measured(text: str) -> bool:
    """Whether a clause states an amount in a measure ('half a kilo', '500 g'), from the one parse."""
    return any(m.unit not in (None, "item") for m in parse(text).of(Kind.QUANTITY))


def _answers_other(segment: str) -> bool:
    return any(facts(c) for c in clauses(segment))


_CONDITION = TokenCue(exact=frozenset(["if", "when", "whenever", "once"]), runs=(("as", "soon", "as"),))


_FRAGMENT_WORDS = 2
"""A clause of at most this many words ('goes', 'basically nothing', 'compost keeps') is a fragment: the fact
classifier's reading of it is not a statement about spoiling."""
_UNASKED_FACT = 0.75
"""How sure the fact classifier must be of a clause about spoiling when the spoil question was not asked."""


def _perishability(text: str, expected: str | None) -> tuple[str | None, float | None]:
    """Whether the message says the stock spoils ('true' / 'false') and a shelf life in days, if one was said.
    A reply to the spoil question that opens with yes or no (the parse's ANSWER) is read for that question
    ('no, compost keeps' is not perishable); a fragment ('it comes and goes', 'basically nothing') and a
    clause the classifier is unsure of while another row was asked ('we sell it by the ream') state nothing."""
    if expected == "perishability" and (lead := _leading_answer(text) or _closing_answer(text)) is not None:
        return lead, None
    parts = clauses(text)
    if expected == "perishability" and any(_kept_overnight(c) for c in parts):
        return "false", None  # 'they keep several days, I don't bin them at night': nothing discarded daily
    said = {c: _fact_of(c, expected) for c in parts}
    for clause, after in zip(parts, parts[1:], strict=False):
        if _CONDITION.leads(parse(clause).toks) and said[after] in ("lost_sale", "backlog"):
            said[clause] = None  # 'if the flowers are gone, the sale's gone': the stock-out, not spoilage
    if len(said) > 1 and not {"perishable", "not_perishable"} & set(said.values()):
        said[text] = _whole_spoil(text, expected)  # 'once opened, the jars are good for a few days at most'
    if "not_perishable" in said.values():
        return (None, None) if "perishable" in said.values() else ("false", None)  # both said: ask
    spoken = [c for c, fact in said.items() if fact == "perishable"]
    spoken += [c for c, fact in said.items() if fact is None and c != text and _shelf_life(c)]
    if spoken:
        longer = [d.days for c in spoken for d in find_durations(c) if d.days > 1]
        if not longer and expected == "perishability":
            longer = [d.days for c in parts if _plain_span(c) for d in find_durations(c) if d.days > 1]
        return "true", (longer[0] if longer else None)
    if expected == "perishability":
        answer = polarity(text)
        if answer in (Polarity.YES, Polarity.NO):
            return ("true" if answer is Polarity.YES else "false"), None
    return None, None


def _whole_spoil(text: str, expected: str | None) -> str | None:
    """The fact the whole message states, with the evidence guard of `_fact_of` when the spoil question was not
    asked ('Cheese and cream stall by the quay' names goods, says nothing of spoiling)."""
    fact = _whole_fact(text)
    if fact == "perishable" and expected != "perishability" and not _spoil_evidence(text, parse(text).words()):
        return None
    return fact


def _leading_answer(text: str) -> str | None:
    """'true' / 'false' for a reply whose first clause is only a yes or a no (the parse's ANSWER mention)."""
    parts = clauses(text)
    first = parse(parts[0]) if parts else None
    if first is None or len(first.words()) > _FRAGMENT_WORDS:
        return None  # 'no idea if they spoil', 'yes they do go off but slowly': read as a whole below
    answers = [m.value for m in first.of(Kind.ANSWER) if m.value in ("yes", "no")]
    return None if len(answers) != 1 else ("true" if answers[0] == "yes" else "false")


def _closing_answer(text: str) -> str | None:
    """'true' / 'false' for a reply that ends on its conclusion ('they have expiry dates but those are years out,
    so no'): a last clause of 'so' and only a yes or a no."""
    parts = clauses(text)
    last = parse(parts[-1]) if len(parts) > 1 else None
    if last is None or last.words()[:1] not in (("so",), ("therefore",)) or len(last.words()) > 3:
        return None
    answer = polarity(" ".join(last.words()[1:]))
    return {Polarity.YES: "true", Polarity.NO: "false"}.get(answer)


def _fact_of(clause: str, expected: str | None) -> str | None:
    """The fact a clause states, with the guards of `_perishability` for spoiling."""
    fact = facts(clause)
    if fact not in ("perishable", "not_perishable"):
        return fact
    spoken = bool(SPOIL_WORDS & set(words := parse(clause).words()))
    if not spoken and _sale_unit(words):
        return None  # 'A4 paper, sold by the ream': how it is sold, no sell-by date
    if len(words) <= _FRAGMENT_WORDS and not spoken:
        return None
    if fact == "perishable" and _RUN_OUT.in_text(clause) and not SPOIL_WORDS - _KEEP_FORMS & set(words):
        return None  # 'the milk keeps running out': it sells out, nothing said of spoiling
    if expected != "perishability" and not spoken and fact_ranking(clause)[fact] < _UNASKED_FACT:
        return None
    if expected != "perishability" and not spoken and fact == "perishable" and _SPEED & set(words):
        return None  # unasked 'compost goes fast', 'the lollies go quickly': it sells fast, nothing said of spoiling
    if expected != "perishability" and fact == "perishable" and not _spoil_evidence(clause, words):
        return None  # unasked 'Creamery by the lake': the business and its goods named, nothing said of spoiling
    if expected != "perishability" and fact == "not_perishable" and not (_KEEPING_EVIDENCE & set(words)):
        return None  # unasked 'but it's never the same' (of demand): nothing said of keeping
    return fact


_KEEP_FORMS = frozenset(["keep", "keeps", "keeping", "kept"])
_RUN_OUT = TokenCue(runs=tuple((v, "out") for v in ("run", "runs", "running", "ran", "sell", "sells", "selling",
                                                       "sold")))  # fmt: skip
_KEEPING_EVIDENCE = SPOIL_WORDS | _KEEP_WORDS | frozenset({
    "dry", "canned", "tinned", "tins", "off", "bad", "rot", "rots", "go", "goes", "month", "months", "year", "years",
    "perishables", "nonperishable", "non-perishable", "stable", "ever", "indefinitely", "spoil",
})  # fmt: skip
"""Words of keeping or going off: an unasked clause the classifier reads as 'keeps' needs one of them."""


_DISPOSAL = frozenset({"bin", "bins", "binned", "throw", "throws", "thrown", "threw", "toss", "tosses", "tossed",
                       "discard", "discards", "discarded", "dump", "dumps", "dumped", "chuck", "chucks", "chucked",
                       "trash", "trashed", "ditch", "ditched", "waste", "wasted"})  # fmt: skip
"""Verbs of throwing stock away."""
_SPOIL_EVIDENCE = frozenset({
    "left", "leftover", "leftovers", "unsold", "rest", "sold", "sell", "sellable", "unsellable", "bad", "past",
    "dates", "good", "overnight", "tonight", "tomorrow", "today", "yesterday", "daily", "sour", "sours", "stale",
    "wastage", "over", "survive", "dies", "die", "turn", "turns", "go", "goes", "curdle", "curdles", "ferment",
    "ferments", "droop", "drooped", "droops", "deteriorate", "deteriorates", "kept", "life", "sit", "short",
})  # fmt: skip
"""Words of stock left over, of a moment it is sold by, or of going off (beside `SPOIL_WORDS`, the disposal verbs
and the words of a moment): an unasked clause with none of them states nothing about spoiling."""


def _spoil_evidence(clause: str, words: tuple[str, ...]) -> bool:
    """Whether a clause says anything of spoiling, keeping or throwing out ('the cream curdles', 'leftovers are
    binned', 'gone by closing'), rather than only naming the business, its place or its goods ('Creamery by the
    lake', 'Flower stall by the church': the item words alone read as perishable to the classifier)."""
    upset = _thrown_off(words)
    said = set(words) - upset - ({"off"} if upset else set())
    if said & (SPOIL_WORDS | _DISPOSAL | _SPOIL_EVIDENCE) or (SPOIL.in_text(clause) and not upset):
        return True
    return any(_moment(w) for w in said)


def _thrown_off(words: tuple[str, ...]) -> set[str]:
    """The disposal verbs of 'throws everything off', 'throws the numbers off' (an upset, no stock thrown out)."""
    return {w for k, w in enumerate(words) if w in _DISPOSAL and "off" in words[k + 1 : k + 4]}


_NOTHING_SUBJECTS = frozenset({"nothing", "none"})
_DENIALS = frozenset({"not", "never", "don't", "dont", "doesn't", "didn't", "won't", "can't", "no"})
"""Words that deny a disposal verb a few words after them ("I don't bin them", 'we never toss any')."""
_MOMENTS = frozenset({"end", "close", "closing", "evening", "morning", "afternoon", "noon", "midnight", "weekend",
                      "lunch", "lunchtime", "dusk", "dark", "sunset", "time", "deadline", "date"})  # fmt: skip
"""Words after 'sold by the' that name a moment ('sold by the end of the day'), not a unit of sale."""
_BY_ARTICLES = frozenset({"the", "a", "an", "per"})


def _sale_unit(words: tuple[str, ...]) -> bool:
    """Whether a clause says how an item is sold, 'sold by the ream', 'we sell it by the kilo', 'sold by
    weight': a unit of sale, not a sell-by moment ('not sold by the end of the day', 'sold by closing')."""
    for i, w in enumerate(words[:-2]):
        if w in _SELL_WORDS and words[i + 1] == "by":
            rest = words[i + 2 : i + 4]
            unit = rest[1] if rest[0] in _BY_ARTICLES and len(rest) > 1 else rest[0]
            if unit in ("weight", "volume") or (unit.isalpha() and not _moment(unit)):
                return rest[0] in _BY_ARTICLES or unit in ("weight", "volume")
    return False


def _moment(word: str) -> bool:
    """A word naming a time or a moment of the day ('closing', 'friday', 'tonight', 'day')."""
    return word in _MOMENTS or word in TIME_UNITS or word in DATE_WORDS or word in WEEKDAYS or word in MONTHS


_PLAN_WORDS = frozenset({"plan", "planning", "horizon", "season", "over", "next", "for"})


def _plain_span(clause: str) -> bool:
    """A clause beside a word of spoiling that gives a span with no word of planning or delivery ('a
    best-before, but it's a year away'): how long the stock keeps, answering the spoil question."""
    words = set(parse(clause).words())
    return not words & (DELIVERY_WORDS | _PLAN_WORDS)


def _kept_overnight(clause: str) -> bool:
    """A clause that denies throwing stock away ("I don't bin them at night", 'nothing gets thrown out', 'we
    never toss any'): the stock is not discarded at the end of each day."""
    words = parse(clause).words()
    for i, word in enumerate(words):
        before = set(words[max(0, i - 3) : i])
        if word in _DISPOSAL and before & _OTHER_VERBS:
            continue  # 'what we don't sell we throw in the evening': the denial is the selling's
        if word in _DISPOSAL and (before & _DENIALS or (before & _NOTHING_SUBJECTS and "left" not in before)):
            return True
        if word in _DYING and before & _DENIALS and _OVERNIGHT & set(words[i + 1 : i + 4]):
            return True  # "they don't die overnight": nothing goes off by the next day
    return False


_DYING = frozenset(["die", "dies", "spoil", "spoils", "rot", "rots", "wilt", "wilts", "expire", "expires", "perish",
                    "perishes", "droop", "droops", "sour", "sours"])  # fmt: skip
_OVERNIGHT = frozenset(["overnight", "night", "tomorrow", "day", "evening"])
_OTHER_VERBS = frozenset(["sell", "sold", "sells", "use", "used", "finish", "finished", "buy", "bought"])


_SPEED = frozenset({"fast", "quickly", "quick", "quicker", "faster"})
"""Words of how fast stock goes: without a word of spoiling, a clause with one is about selling."""


def span_role(segment: str) -> str | None:
    """Why a span of days in a clause is not a planning horizon or lead time, from the one parse: 'rate' when it
    is the period of an amount ('119 a week', '40 bags per week'), 'shelf' when the parse reads it as how long
    stock keeps ('they last about a week in the fridge'); None when it may be either duration row (one span
    of another kind beside a shelf life, 'next day; it's only good for 2 days', is read, the shelf life set
    aside)."""
    said = parse(segment)
    if any(m.period is not None for m in said.of(Kind.QUANTITY)):
        return "rate"
    spans = said.of(Kind.DURATION)
    if any(m.value == "tomorrow" for m in said.of(Kind.DATE)):
        return None  # 'get it tomorrow morning, milk is good for about 10 days': a delivery beside the shelf life
    return "shelf" if spans and all(m.role == "shelf_life" for m in spans) else None  # not 'next day, keeps 2 days'


_SHELF_TALK = 0.4
"""A clause this much about keeping or spoiling that gives a span of days states a shelf life."""


def _shelf_life(clause: str) -> bool:
    """'it keeps about 5 days', 'good for a week': a span of days in a clause about keeping, read as spoiling
    after that span (the agent then asks how to model it), even when neither fact alone is likely enough."""
    ranking = fact_ranking(clause)
    talk = ranking.get("perishable", 0.0) + ranking.get("not_perishable", 0.0)
    return talk >= _SHELF_TALK and any(d.days > 1 for d in find_durations(clause))


_NOTHING_WORDS = frozenset(["none", "nothing", "nil", "nada", "zilch", "free", "gratis"])
_NO_CHARGE = _and_s(TokenCue(runs=tuple((w, c) for w in ("no", "zero") for c in (*_CHARGES, "money"))))
_NEARLY = (("next", "to"), ("almost",), ("practically",), ("virtually",), ("hardly",), ("close", "to"))
_FREE_ABOVE = (("minimum",), ("threshold",), ("over",), ("above",), ("limit",))
"""'their free minimum', 'free over $200': delivery free only above an amount, no zero fee."""


def _nothing(text: str) -> bool:
    """A cost said to be nothing ('none', 'nothing at all', 'they deliver free', 'no charge'); 'next to nothing'
    and 'nothing much' are no zero."""
    words = parse(text).words()
    for i, w in enumerate(words):
        nearly = any(words[max(0, i - len(n)) : i] == n for n in _NEARLY)
        if w in _NOTHING_WORDS and not nearly and words[i + 1 : i + 2] not in (("much",), *_FREE_ABOVE):
            return True
    return _NO_CHARGE.in_text(text)


_DROPPED = _and_s(TokenCue(runs=(
    *((v, o) for v in ("dropped", "waived", "scrapped", "removed", "stopped", "cancelled", "canceled", "axed")
      for o in ("that", "it", "the", "this")),
    ("got", "rid", "of"), ("stopped", "charging"), ("no", "longer", "charge"), ("no", "longer", "charges"),
)))  # fmt: skip


def _fee_dropped(text: str) -> bool:
    """'McKesson used to charge $10 per order but they dropped that': a fee that is gone, with no amount after
    the drop ('they dropped it to $5' is the new fee) nor after a corrected amount ('10, no actually it's 8 now, they
    dropped it': lowered to 8)."""
    said = parse(text)
    spans = _DROPPED.spans(said.toks)
    if not spans or any(m.scope & Scope.CORRECTED for m in said.of(Kind.MONEY, live_only=False)):
        return False
    amounts = said.of(Kind.MONEY, Kind.QUANTITY, live_only=False)
    now = {t.start for t in said.toks if t.low == "now"}
    if any(any(m.span[1] < k <= m.span[1] + 2 for k in now) for m in amounts):
        return False  # "it's 8 now, they dropped it": the amount today
    return not any(m.span[0] >= spans[-1][0] for m in amounts)


_MINIMUM_WORDS = frozenset({"minimum", "min", "least", "minimal", "smallest"})


def _not_minimum(numbers: list[T], said: Message) -> list[T]:
    """The numbers not said as a minimum ('minimum order 50', 'at least 10 a time'): up to three words after
    a word of a minimum, a figure is the smallest order, never the largest."""
    toks = said.toks
    low = {
        toks[k].start
        for k in range(len(toks))
        if toks[k].kind == "num" and any(t.low in _MINIMUM_WORDS for t in toks[max(0, k - 3) : k])
    }
    return [n for n in numbers if n.start not in low]


_NEXT_ONE = ("the next ", "the following ", "another ", "the other ", "other ")


def _not_alternating(
    parts: list[tuple[str | None, str]], text: str, loose: list[str]
) -> list[tuple[str | None, str]]:
    """The segments without 'one week ..., the next week ...' (periods set against each other to say how demand
    varies: no horizon or delivery time), which go to `loose`."""
    spans = parse(text).of(Kind.DURATION, live_only=False)
    said: list[str] = []
    for x, y in zip(spans, spans[1:], strict=False):
        first, second = x.text.lower(), y.text.lower()
        if x.unit == y.unit and first.startswith(("1 ", "one ", "a ", "some ")) and second.startswith(_NEXT_ONE):
            said += [x.text, y.text]
    kept = [(topic, part) for topic, part in parts if not any(t in part for t in said)]
    loose += [part for _, part in parts if any(t in part for t in said)]
    return kept


def read_row(key: str, text: str) -> Finding | Unclear | None:
    """Read one numeric row from a clause that talks about it; a range gives a finding with `choices`."""
    delivered = key == "lead_time" and any(m.role == "lead_time" and (m.days or 0) >= 1 for m in parse(text).of(Kind.DURATION))
    if key in _ZERO and _ZERO[key].in_text(text) and not delivered:  # 'the truck comes next morning ... I bake it
        return Finding(key, "0")  # all same day': the delivery's span, not the baking's
    if key == "setup_cost" and _fee_dropped(text):
        return Finding(key, "0", "USD/order", "the fee was dropped")
    if key in _COST_ROWS and _nothing(text) and not any(m.amount for m in parse(text).of(Kind.MONEY, Kind.QUANTITY)):
        return Finding(key, "0")
    if key == "max_order" and _NO_LIMIT.in_text(text) and not find_numbers(text):
        return Finding(key, UP_TO_CAPACITY, "units", "no limit on order size: as much as fits in storage")
    if key in ROW_KEYS and (ends := split_range(text, scale=key == "risk_tolerance")):
        low, high = (_read_value(key, end) for end in ends)
        if isinstance(low, Finding) and isinstance(high, Finding) and low.value != high.value:
            return Finding(key, low.value, low.unit, low.note, choices=(low.value, high.value))
    return _read_value(key, text)


def _read_value(key: str, text: str) -> Finding | Unclear | None:
    if key in ("time_horizon", "lead_time"):
        return _duration(key, text)
    if key in ("holding_cost", "penalty_cost", "setup_cost"):
        return _cost(key, text)
    if key in ("max_inventory", "max_order"):
        if foreign := physical_units(text):
            return Unclear(key, f"I need a number of items, not {foreign[0]}")
        said = parse(text)
        gone = [m for m in said.of(Kind.QUANTITY, live_only=False) if m.role == "gone"]  # 'I gave three away'
        packed = [  # '12 per box', '..., no wait, the cases are 6': what a container holds, no limit
            m for m in said.of(Kind.QUANTITY, live_only=False) if m.per in CONTAINER_NOUNS or m.role == "size"
        ]
        others = [*said.no_stock(), *_paid(said), *gone, *packed]  # 'freight is 40 a shipment'
        spans = [m.span for m in [*said.of(Kind.DURATION, Kind.DATE, live_only=False), *_cutoffs(said), *others]]
        numbers = [
            n
            for n in _not_pack_names(outside(find_numbers(text), find_percentages(text)), text)
            if not any(a <= n.start < b for a, b in spans)
        ]
        if not numbers and (_cutoffs(said) or said.of(Kind.DATE, live_only=False) or others):
            return None  # 'order before 5 and it's here next morning', 'one model': nothing about the row
        if not numbers:  # 'a full charge takes 3 hours': a span of time, no count
            return Unclear(key, "I need a number of units")
        if key == "max_order" and not (numbers := _not_minimum(numbers, said)):
            return None  # 'minimum order 50 notebooks': the smallest order, nothing about the largest
        counts = [n for n in numbers if n.value != 1] or numbers  # 'one shipment holds 1000': 1 is no limit
        if all(n.value == 1 and text[n.end :].split()[:1] in _ONE_ORDER for n in counts):
            return None  # 'we only have time for one batch a morning': how often, no limit on its size
        return Finding(key, format_number(_restated(counts, text).value), "units")
    if key == "risk_tolerance":
        return _risk(text)
    return None


_OFTEN = frozenset(["once", "twice", "thrice", "times", "x"])


def _how_often(said: Message, start: int) -> bool:
    """Whether the span at `start` is how often something happens ('I order twice a week', 'three times a
    month'): a frequency, never a delivery time or a horizon."""
    before = [t for t in said.toks if t.end <= start]
    return bool(before) and before[-1].low in _OFTEN


def _duration(key: str, text: str) -> Finding | Unclear | None:
    if foreign := physical_units(text):
        return Unclear(key, f"I need a number of days, and '{foreign[0]}' is not a unit of time")
    if _HISTORY.in_text(text):
        return Unclear(key, "that sounds like how long something has been, not the span I asked about")
    said = parse(text)
    spans = [m for m in said.of(Kind.DURATION) if m.days is not None]
    kept = [m.span for m in spans if m.role in ("shelf_life", "open", "past")]  # "we're open 7 days a week" too
    kept += [m.span for m in said.of(Kind.DURATION, live_only=False) if m.scope & Scope.HYPOTHETICAL]  # 'if it sits…'
    spans = [m for m in spans if m.span not in kept]  # 'next day, it's only good for 2 days': how long it keeps
    rest = "".join(" " if any(a <= i < b for a, b in kept) else c for i, c in enumerate(text)) if kept else text
    tomorrow = _ONE_DAY.in_text(rest) or any(m.value == "tomorrow" for m in said.of(Kind.DATE))  # 'tomorow' too
    if key == "lead_time" and tomorrow and not any((m.days or 0) > 1 for m in spans):
        return Finding(key, "1", "days")  # not 'the day after tomorrow' (2), nor 'stale in a day' (how long it keeps)
    durations = [
        d for d in find_durations(text) if not any(a <= d.start < b for a, b in kept) and not _how_often(said, d.start)
    ]
    told = said.of(Kind.DURATION, live_only=False)
    if durations and told and all(not m.live for m in told):
        own = [m for m in said.of(Kind.QUANTITY) if not (m.unit or m.container or m.per)]
        if own:  # 'catalogue says 3 days, really it's 5': the speaker's own number, in the same unit
            return Finding(key, format_number(own[-1].amount), "days", f"{durations[0].days:g} days set aside")
    if durations and (whole := _whole_restatement(key, durations, text)) is not None:
        return whole
    if durations:
        d = _restated(durations, text)
        return Finding(key, format_number(d.days), "days", d.note)
    if key == "time_horizon" and (week := _weekday_span(text)):
        return Finding(key, str(week[0]), "days", f"{week[1]} = {week[0]} days")
    led = [m for m in spans if m.role == "lead_time"] if key == "lead_time" else []
    periods = led if len(led) == 1 else spans  # 'the truck comes next morning ... I bake it all same day'
    if len(periods) == 1:  # 'this week' (the plan), 'always next morning' (a delivery): read by the parse
        days = format_number(periods[0].days or 0)
        return Finding(key, days, "days", f"{periods[0].text} = {days} day" + ("" if days == "1" else "s"))
    numbers = _not_shipped(_not_pack_names(outside(find_numbers(text), find_percentages(text)), text), text)
    clocks = [m.span for m in said.of(Kind.CLOCK, live_only=False)]  # 'they're here at 6 in the morning'
    money = _paid(said)  # 'my rent is 1800 for the whole salon': no days
    clocks += [m.span for m in [*said.no_stock(), *money]] + kept  # 'one model, the one for Civics'
    numbers = [n for n in numbers if not any(a <= n.start < b for a, b in clocks)]
    toks = said.toks
    often = {a.start for a, b in zip(toks, toks[1:], strict=False) if b.low in _OFTEN and a.kind == "num"}
    numbers = [n for n in numbers if n.start not in often]  # 'I order 3 times a week': how often, no days
    if numbers:
        return Finding(key, format_number(numbers[0].value), "days")
    return None if money or kept else Unclear(key, "I need a number of days")  # 'good for 10 days': how long it keeps


_SHIP_VERBS = frozenset({"ship", "ships", "shipped", "send", "sends", "sent", "deliver", "delivers", "delivered"})


def _not_shipped(numbers: list[T], text: str) -> list[T]:
    """The numbers that are not the object of a shipping verb ('the supplier ships 24'): what is shipped is a
    quantity, never a number of days ('ships in 3' stays a wait; from the one parse's tokens)."""
    toks = parse(text).toks
    shipped = {b.start for a, b in zip(toks, toks[1:], strict=False) if a.low in _SHIP_VERBS and b.kind == "num"}
    return [n for n in numbers if n.start not in shipped]


_PACK_WORDS = frozenset({"pack", "packs"})
_NAMING_WORDS = _PACK_WORDS | {"count", "ct"}


def _whole_restatement(key: str, durations: list[Duration], text: str) -> Finding | None:
    """'a week and a half, ten days-ish': a span not a whole number of days, said again as a whole number of days
    (at most a day apart) in the same clause: the whole number, read back. None otherwise."""
    if len(durations) != 2 or is_correction(text):
        return None
    first, second = durations
    if first.days == int(first.days) or second.days != int(second.days) or abs(first.days - second.days) > 1:
        return None
    said = text[first.start : first.end]
    days = format_number(second.days)
    return Finding(key, days, "days", f"{said} = {format_number(first.days)} days, which you put as {days} days")


def _not_pack_names(numbers: list[T], text: str) -> list[T]:
    """The numbers that are not part of a pack's name ('6-packs', 'a twelve-pack', 'the 30-count packs'): a pack
    is an item, its size never a number of days nor a count (from the one parse's tokens)."""
    toks = parse(text).toks
    named = {
        a.start
        for a, dash, word in zip(toks, toks[1:], toks[2:], strict=False)
        if a.kind == "num" and dash.low == "-" and word.low in _NAMING_WORDS and dash.start == a.end
    }
    return [n for n in numbers if n.start not in named]


def _said_as_own(found: list[T], text: str) -> list[T]:
    """The amounts the speaker states as their own: one the parse puts in someone else's mouth or takes back
    ('the catalogue says 10 for handling too but they never charge it') goes, unless nothing else is left."""
    said = parse(text).mentions
    away = [m.span for m in said if not m.live or m.whole_business]  # '..., plus wages of 500 a week' too
    own = [f for f in found if not any(a <= f.start < b for a, b in away)]
    kept = [m.span for m in said if _own_value(m)]  # 'costs us $2 to buy, our accountant says $0.60 a day'
    return own if any(a <= f.start < b for f in own for a, b in kept) else found


def _own_value(m: Mention) -> bool:
    """A value the speaker states as their own that can be a row's value (a purchase or sale price can not)."""
    return m.live and m.role not in _PRICE_ROLES


def _weekday_span(text: str) -> tuple[int, str] | None:
    """('Monday to Friday' -> 5 days, the words): two weekdays joined by 'to', 'through', 'till' or a dash,
    from the parse, counted inclusively; None when the message says no such span."""
    said = parse(text)
    days = [m for m in said.of(Kind.DATE) if m.value in DAYS]
    if len(days) != 2:
        return None
    between = text[days[0].span[1] : days[1].span[0]].strip().lower()
    if between not in ("to", "through", "thru", "till", "until", "-", "–"):
        return None
    count = (DAYS.index(str(days[1].value)) - DAYS.index(str(days[0].value))) % 7 + 1
    return count, text[days[0].span[0] : days[1].span[1]]


def _restated(found: list[T], text: str) -> T:
    """The value meant in a clause: the first, or the last when the user corrects himself in between
    ('two weeks, no wait, make that a month')."""
    last = found[-1]
    between = text[found[0].end : last.start] if len(found) > 1 else ""
    if between and (is_correction(between) or "so" in parse(between).words()):  # '..., so 3': the total
        return last
    return found[0]


def _cost(key: str, text: str) -> Finding | Unclear | None:
    text = _concluded_text(text) or text  # '10 for delivery but a 5 dollar surcharge on top, so 15 really': 15
    if foreign := physical_units(text):
        return Unclear(
            key, f"the table counts items, not {foreign[0]}: what does it cost per item (per unit you sell)?"
        )
    per_item = key == "holding_cost" and _per_item(text) and not _WAGES.in_text(text)
    if key != "setup_cost" and _OVERHEAD.in_text(text) and not per_item:
        return Unclear(key, "that sounds like a running cost of the shop (wages, rent), not a cost per unit")
    if key == "setup_cost" and _WAGES.in_text(text) and not is_per_order(text):
        return Unclear(key, "that sounds like wages, a running cost of the shop, not a fee per order")
    if find_percentages(text) and not find_money(text):
        return Unclear(key, "I need an amount of money, not a percentage")
    money = _said_as_own(find_money(text), text)
    amounts = list(dict.fromkeys(m.amount for m in money))
    if len(amounts) > 1 and not is_correction(text):
        shown = " or ".join(f"${format_number(a)}" for a in amounts[:3])
        return Unclear(key, f"your message has several amounts ({shown}); which one is it?")
    if money:
        m = _restated(money, text)
        amount, currency, note = m.amount, m.currency, m.note
    elif len(spoken := [m for m in parse(text).of(Kind.MONEY) if _says_money(m) or not find_numbers(text)]) == 1:
        amount, currency, note = spoken[0].amount, spoken[0].unit or "USD", ""  # 'couple cents each', '4 and a half bucks'
    else:
        durations = find_durations(text)
        numbers = _said_as_own(outside(find_numbers(text), durations), text)
        if not numbers:
            return Unclear(key, "I need an amount of money" + (", not a length of time" if durations else ""))
        counted = [m.span for m in parse(text).of(Kind.QUANTITY) if m.container]  # 'for one six-pack'
        numbers = [n for n in numbers if not any(a <= n.start < b for a, b in counted)]
        if not numbers:
            return Unclear(key, "that is a count of things, not an amount of money")
        amounts = [n for n in numbers if not counts_things(text, n.end)]  # 'short 1 spark plug ... 2.50'
        talk = _MONEY_TALK & set(parse(text[numbers[0].start :]).words())  # 'each carton makes 6 lattes': a count
        if not amounts and not talk and all(_plural_after(text, n.end) for n in numbers):
            return Unclear(key, "that is a count of things, not an amount of money")
        numbers = amounts or numbers
        amount, currency, note = numbers[0].value, "USD", ""
    if currency != "USD":
        note = "; ".join(
            n for n in (note, f"{currency} taken at face value, the same money unit as the other costs") if n
        )
    period = rate_period(text) or next((m.period for m in parse(text).of(Kind.MONEY) if m.period), None)  # 'for month'
    if key == "setup_cost":
        if period is not None and not is_per_order(text):
            return Unclear(
                key,
                f"that fee is per {period}, but the model charges a fixed fee each time you order: what does "
                "one order cost you (say 0 if nothing)?",
            )
        return Finding(key, format_number(amount), f"{currency}/order", note)
    if key == "holding_cost" or period not in (None,):
        daily, conversion = per_day_rate(amount, period)
        unit = f"{currency}/unit/day"
        return Finding(key, format_number(daily), unit, "; ".join(n for n in (note, conversion) if n))
    return Finding(key, format_number(amount), f"{currency}/unit", note)


def _risk(text: str) -> Finding | Unclear | None:
    found = read_risk(text)
    if found is None:
        return Unclear(
            "risk_tolerance", "I need a number from -10 (very risk-averse) to 10 (very risk-seeking)"
        )
    value, words = found
    if not words and not find_numbers(text):  # neutral words or no preference
        note = "no preference, so the neutral 0" if unsure(text) else "a neutral attitude, 0 on the scale"
        return Finding("risk_tolerance", value, note=f"{note}; change it any time")
    return Finding("risk_tolerance", value, note=words, approximate=bool(words))
