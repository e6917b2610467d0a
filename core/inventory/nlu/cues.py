"""Which parameter a clause talks about: a classifier learned from `core/inventory/rows.toml` (one bank of
example clauses per table row, plus the stock-out rule and perishability), with the toolkit's money reading
deciding whether a cost row fits."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from core.text.clauses import split_clauses
from core.text.cues import TokenCue, token_after
from core.text.intents import Bank, IntentClassifier, Prediction
from core.text.mentions import Kind, Scope, Token, parse
from core.text.negation import negated, negation_scopes
from core.text.numbers import find_numbers
from core.text.units import find_durations, find_money, rate_period

ROW_BANK = Path(__file__).resolve().parents[1] / "rows.toml"
ROW_TOPICS = (
    "penalty_cost", "holding_cost", "setup_cost", "max_order", "lead_time", "max_inventory", "time_horizon",
    "risk_tolerance", "demand", "state",
)  # fmt: skip
FACTS = ("lost_sale", "backlog", "perishable", "not_perishable")
"""Clause labels that answer a yes/no row rather than carry a number."""
_TOPIC_MIN = 0.3
"""A row is named when its probability reaches this; below it the clause answers the row asked about."""
_SURE = 0.5
"""A row read this confidently is named even without a number in the clause ('deliveries are free')."""
_FACT_MIN = 0.5
"""A fact (lost sale, backlog, perishable or not) is read at this probability. Its classifier keeps the bank's
proportions (each fact is a few hundred examples against thousands of 'none'): weighing the facts up made
small talk ('good day', 'the results') read as facts once the bank grew."""
_DENIED_KEEP = 0.2
"""A spoil word inside a denial ('nothing we stock expires') reads as keeping when that is at least this likely."""
_STRONG_DEMAND = 0.55
"""Demand below this probability is a weak cue ('20 a day'): it answers the row asked about when it can."""


@lru_cache(maxsize=1)
def _banks() -> tuple[IntentClassifier, IntentClassifier]:
    """Two classifiers from the one bank: which row a clause names (facts count as 'none' there) and which
    fact it states (rows count as 'none'). A clause may do both ('lost sales, $4 each'): list it under both."""
    bank = Bank.load(ROW_BANK)

    def split(labels: tuple[str, ...]) -> Bank:
        own = {k: v for k, v in bank.examples.items() if k in labels}
        mine = {t for ts in own.values() for t in ts}
        rest = [t for k, ts in bank.examples.items() if k not in labels for t in ts if t not in mine]
        examples = {**own, "none": tuple(dict.fromkeys(rest))}
        return Bank(examples, {k: bank.descriptions.get(k, k) for k in examples})

    return IntentClassifier(split(ROW_TOPICS), balanced=False), IntentClassifier(split(FACTS), balanced=False)


def rows() -> IntentClassifier:
    """The clause-topic classifier (trained once per process)."""
    return _banks()[0]


def about_stock(text: str) -> bool:
    """Whether a message talks about the current stock, today or open orders (an order question, not a row)."""
    return any(topics(c)[:1] == ["state"] for c in split_clauses(text))


def label_of(clause: str) -> tuple[str, float]:
    """The most likely row of one clause ('none' when it names no row) and its probability."""
    return _ranking(clause)[0]


COST_WORD = TokenCue(
    inside=("cost", "fee", "charge", "penalt", "price", "pay", "expensive", "dollar", "cent", "usd", "eur"),
    exact=frozenset(["$", "€", "£"]),
    starts=("bill",),
    ends=("buck", "bucks", "free"),
)
"""Money words: a cost row fits a clause that has one."""
COST_NAME = TokenCue(
    inside=("penalt", "holding", "carrying", "setup", "ordering", "fixed", "flat", "shortage", "stockout",
            "storage"),
    phrases=(("set", "-", "up"), ("order", "fee"), ("lost", "sale"), ("stock", "-", "out")),
)  # fmt: skip
"""A cost row's own name ('holding', 'set-up', 'lost sale')."""


def _all_inside(spans: list, numbers: list) -> bool:
    """Whether every number lies inside one of the spans (money or durations; both lists in text order): one
    merge pass."""
    i = 0
    for n in numbers:
        while i < len(spans) and spans[i].end <= n.start:
            i += 1
        if i == len(spans) or not spans[i].start <= n.start:
            return False
    return True


def topics(clause: str) -> list[str]:
    """The table rows (or 'demand') `clause` talks about, most likely first, as the row classifier reads it.
    A cost row needs money, a cost word or its own name in the clause (or a confident reading of a clause
    with a number that is no whole count: without any, 'the customer leaves' is a stock-out rule); a clause
    whose only numbers are money talks about a cost row; demand read with little confidence is
    'demand_weak' ('20 a day' may answer the row asked about)."""
    ranking = _ranking(clause)
    sure = {key for key, p in ranking if p >= _SURE}
    valued = bool(find_numbers(clause) or find_durations(clause))
    found = [key for key, p in ranking if p >= _TOPIC_MIN and key in ROW_TOPICS and (valued or key in sure)]
    said = parse(clause)
    toks = said.toks
    fee = any(m.role == "fee" or m.per in ("order", "delivery") for m in said.of(Kind.MONEY))  # 'freight is 40 a shipment'
    money_words = COST_WORD.found(toks) or fee
    numbers = find_numbers(clause)
    counts = bool(numbers) and all(n.value == int(n.value) for n in numbers)
    fitting = [  # a sure cost row whose only numbers are whole counts ('if a customer wants 1') is no cost
        k
        for k in found
        if not k.endswith("_cost")
        or money_words
        or (k in sure and numbers and not counts)
        or COST_NAME.found(toks)
    ]
    money = find_money(clause)
    if money and _all_inside(money, numbers):
        fitting = [k for k in fitting if k.endswith("_cost")] or _money_only(ranking)
    durations = find_durations(clause)
    if durations and not money and _all_inside(durations, numbers) and not rate_period(clause):
        fitting = _durations_only(ranking, fitting)
    if numbers and not durations and all(counts_things(clause, n.end) for n in numbers):
        fitting = [k for k in fitting if k not in DURATION_ROWS]  # '25 doses per order' is no wait of 25 days
    if fitting[:1] == ["demand"] and dict(ranking)["demand"] < _STRONG_DEMAND:
        fitting[0] = "demand_weak"
    return fitting


_NOT_COUNTED = frozenset(
    ["to", "or", "and", "at", "for", "from", "before", "after", "if", "but", "so", "then", "max", "tops", "ish",
     "day", "days", "week", "weeks", "month", "months", "year", "years", "business", "working", "calendar", "more",
     "less", "ahead", "out", "later", "away", "back", "the", "in", "on", "i", "we", "they", "it", "is", "was", "now"]
)  # fmt: skip
"""Words after a number that count nothing: units of time and function words."""


def counts_things(text: str, end: int) -> bool:
    """Whether the number ending at `end` counts things ('short 1 spark plug', '25 doses'), not an amount: the
    parse's next word (after a hyphen) has three letters or more and is no unit of time nor a function word."""
    toks = parse(text).toks
    i = token_after(toks, end)
    if i < len(toks) and toks[i].low == "-" and not text[end : toks[i].start].strip():
        end, i = toks[i].end, i + 1
    if i == len(toks) or toks[i].kind != "word" or text[end : toks[i].start].strip():
        return False
    word = toks[i].low.split("'")[0]
    return len(word) >= 3 and word not in _NOT_COUNTED


def _money_only(ranking: tuple[tuple[str, float], ...]) -> list[str]:
    """The cost row of a clause whose only values are money when no row reached the threshold: only a cost
    row (or none) can hold money, so the cost rows and 'none' are weighed among themselves ('the wholesaler
    bills $18 per order': max order 0.52, setup cost 0.23, none 0.11 -> setup cost)."""
    kept = {k: p for k, p in ranking if k.endswith("_cost") or k == "none"}
    total = sum(kept.values())
    best = max(kept, key=kept.__getitem__)
    return [best] if best != "none" and total and kept[best] / total >= _SURE else []


DURATION_ROWS = ("lead_time", "time_horizon")
"""The rows whose value is a span of days."""
_DURATION_MIN = 0.1
"""A clause whose only value is a duration may name a time row this unsure when the classifier's best row
cannot hold a duration ('delivery is 2 weeks from when I place an order': setup cost 0.6, lead time 0.1)."""


def _durations_only(ranking: tuple[tuple[str, float], ...], fitting: list[str]) -> list[str]:
    """The rows a clause whose only values are durations can set: a time row, never a cost or a count (the
    '2' of '2 weeks' is no fee). When the best row read is not a time row, the likeliest time row takes its
    place if it is at all likely, else nothing (the agent asks)."""
    timely = (*DURATION_ROWS, "demand", "demand_weak", "state")
    kept = [k for k in fitting if k in timely]
    if fitting and fitting[0] not in timely:
        timed = [k for k, p in ranking if k in DURATION_ROWS and p >= _DURATION_MIN]
        return timed[:1] + [k for k in kept if k not in timed[:1]]
    return kept


_RIVAL_MARGIN = 0.12
"""Two cost rows read this close (and neither sure) leave the clause's row open: the agent asks which."""


def rival(clause: str, key: str) -> str | None:
    """Another cost row the clause reads almost as likely as `key` ('each unit sitting there costs $2 a
    day': holding 0.46, penalty 0.37), when `key` itself is not a sure reading; else None."""
    ranking = dict(_ranking(clause))
    if key not in ranking or ranking[key] >= _SURE or not key.endswith("_cost"):
        return None
    others = [(p, k) for k, p in ranking.items() if k != key and k.endswith("_cost")]
    p, other = max(others)
    return other if ranking[key] - p < _RIVAL_MARGIN else None


def facts(clause: str) -> str | None:
    """'lost_sale', 'backlog', 'perishable' or 'not_perishable' when that is what the clause says."""
    if _customers_wait(clause):
        return "backlog"  # 'the contractors usually wait a day or two for it to come in'
    if set(parse(clause).words()) <= _BARE:
        return None  # 'we' cut from 'we also sell shampoo to clients' states nothing
    prime([clause])
    guess = _FACTS[clause]
    if guess.intent not in FACTS or guess.confidence < _FACT_MIN:
        return None
    if (
        guess.intent in ("lost_sale", "backlog")
        and find_durations(clause)
        and label_of(clause)[0] == "lead_time"
    ):
        return None  # 'it arrives a week later' is the supplier's wait, not customers waiting (backlog)
    if "time_horizon" in topics(clause) and (find_durations(clause) or find_numbers(clause)):
        return None  # 'just the next month is fine for now' is how far to plan, not that the stock keeps
    if guess.intent == "not_perishable" and SPOIL.in_text(clause) and not _denied(clause):
        return None  # 'it is perishable' read as its opposite: a spoil word with no denial is no 'keeps'
    if guess.intent == "lost_sale" and customers_stay(clause):
        return "backlog"  # "they don't go anywhere else": the customer stays, so waits
    if guess.intent == "perishable" and _denied_spoil(clause):  # 'non-perishable', 'they don't expire'
        keeps = dict(guess.ranking).get("not_perishable", 0.0) >= _DENIED_KEEP
        return "not_perishable" if keeps else None
    return guess.intent


GREETING_WORDS = frozenset({
    "hi", "hello", "hey", "good", "morning", "afternoon", "evening", "there", "all", "folks", "everyone", "team",
})  # fmt: skip
"""Words a greeting is made of ('hey there', 'good morning all')."""
_BARE = GREETING_WORDS | frozenset(["we", "i", "they", "you", "it", "he", "she", "us", "them", "ok", "okay", "so",
                                    "and", "also", "well", "too", "then", ",", "."])  # fmt: skip
"""Words that alone state no fact: a fragment made only of them is never read as lost sale, backlog or spoiling."""


def _customers_wait(clause: str) -> bool:
    """A span the parse reads as people waiting for the item ('customers hang on a week'), not denied: the
    customers wait, a backlog (a denied wait, 'they won't wait 2 days', is left to the classifier)."""
    spans = [m for m in parse(clause).mentions if m.role == "customer_wait"]
    return bool(spans) and all(m.live and not m.scope & Scope.NEGATED for m in spans)


SPOIL = TokenCue(
    inside=("perish", "spoil", "expir", "wilt"),
    starts=("rot",),
    phrases=(("go", "bad"), ("go", "off"), ("go", "stale"), ("goes", "bad"), ("goes", "off"), ("goes", "stale"),
             ("shelf", "life"), ("use", "-", "by"), ("best", "-", "before")),
)  # fmt: skip
"""Words about spoiling ('expires', 'goes off', 'use-by')."""
NON = TokenCue(
    exact=frozenset(["nothing"]),
    starts=("nonperish",),
    phrases=(("non", "-", "perish"), ("non", "perish")),
)
"""Denials the toolkit's negation scopes do not mark: the prefix of 'non-perishable', and 'nothing spoils'."""


def _denied(clause: str) -> bool:
    """Whether the clause denies anything ('they don't expire', 'non-perishable'): the toolkit's negation."""
    return negated(clause) or NON.in_text(clause)


_LEAVE_VERBS = frozenset(["go", "goes", "going", "went", "shop", "shops", "shopped", "buy", "buys", "look", "looks",
                          "head", "heads"])  # fmt: skip
_ELSEWHERE = (("elsewhere",), ("anywhere", "else"), ("somewhere", "else"), ("anywhere",))
_WALK = frozenset(["walk", "walks", "walked"])


def _leaving(toks: tuple[Token, ...]) -> list[int]:
    """The token indices where a leaving phrase starts: 'go (somewhere) elsewhere', 'buy anywhere else',
    'leave', 'walk out / away / off'."""
    words = [t.low for t in toks]

    def at(i: int) -> bool:
        w = words[i]
        if w in _WALK:
            return words[i + 1 : i + 2] in (["out"], ["away"], ["off"])
        return w == "leave" or (
            w in _LEAVE_VERBS
            and any(tuple(words[j : j + len(p)]) == p for j in (i + 1, i + 2) for p in _ELSEWHERE)
        )

    return [i for i in range(len(words)) if at(i)]


def customers_stay(clause: str) -> bool:
    """Whether every leaving phrase of the clause lies inside a denial ("they don't go anywhere else", 'nobody
    walks out'): the customer stays."""
    toks = parse(clause).toks
    hits = _leaving(toks)
    return bool(hits) and all(_denial_before(toks, i) for i in hits)


_DENIALS = frozenset(["not", "never", "nobody", "noone"])
_DENIAL_ADVERBS = frozenset(["really", "just", "usually", "ever", "even", "actually", "typically"])


def _denial_before(toks: tuple[Token, ...], i: int) -> bool:
    """A denial right before a leaving verb ("don't go", 'nobody walks out', 'never really leave'), not one of a
    condition before it ('if the flowers aren't here they buy elsewhere')."""
    j = i - 1 - (i >= 2 and toks[i - 1].low in _DENIAL_ADVERBS)
    if j < 0:
        return False
    w = toks[j].low
    return w in _DENIALS or w.endswith("n't") or (w == "one" and j >= 1 and toks[j - 1].low == "no")


def _denied_spoil(clause: str) -> bool:
    """Whether a spoil word lies inside a denial ('they don't expire', 'non-perishable', 'nothing goes off'):
    together they say the item keeps."""
    scopes = negation_scopes(clause)
    toks = parse(clause).toks
    denials = [start for start, _ in NON.spans(toks)]
    return any(
        any(s.covers(start) for s in scopes) or any(d < end for d in denials)
        for start, end in SPOIL.spans(toks)
    )


def fact_ranking(text: str) -> dict[str, float]:
    """The fact classifier's probabilities for a whole text (every fact and 'none')."""
    prime([text])
    return dict(_FACTS[text].ranking)


_ROWS: dict[str, Prediction] = {}
_FACTS: dict[str, Prediction] = {}
_CACHE_SIZE = 4096


def prime(clauses: list[str]) -> None:
    """Classify the clauses not seen yet, all in one model call per classifier (one call costs a few
    milliseconds however many clauses it holds); later `topics` and `facts` calls read the results."""
    new = list(dict.fromkeys(c for c in clauses if c not in _ROWS))
    if not new:
        return
    if len(_ROWS) + len(new) > _CACHE_SIZE:
        _ROWS.clear()
        _FACTS.clear()
    row_model, fact_model = _banks()
    rows, facts_read = row_model.predict_many(new), fact_model.predict_many(new)
    # Facts first: `new` skips clauses already in `_ROWS`, so once a clause is there (seen by another
    # session's thread, e.g. two students sending the same sentence) its fact must be there too.
    _FACTS.update(zip(new, facts_read, strict=True))
    _ROWS.update(zip(new, rows, strict=True))


def _ranking(clause: str) -> tuple[tuple[str, float], ...]:
    prime([clause])
    return _ROWS[clause].ranking
