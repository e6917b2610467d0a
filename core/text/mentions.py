"""The mention model: one parse per chat message into typed, scoped mentions (issue 27 item 1).

`parse(text)` reads a message once and returns a `Message`: its clauses and every value it states —
quantities with their unit, container and multiplier ("six crates of 24" = 6 x 24 items), money with its role
("costs me 4" is a purchase price, "rent" is money for the whole business), durations, clock times, dates,
names and yes / no / choice answers — each with its `Scope` (negated, corrected, hypothetical, in a question,
in a definition request, stated by someone else, hedged). Readers consume `Message.of(...)` and never re-scan
the raw text.

The text is tokenised once (`_TOKEN_RE`); every rule then looks at a bounded window of tokens, so the work
(`Message.ops`) grows linearly with the message. The toolkit is called once per message or clause:
`clauses.split_clauses`, `negation.negation_scopes`, `questions.is_question` / `is_confused`,
`units.clock_times`, `answers.polarity` / `choose`, `entities.EntityIndex`; numbers are read exactly or not at
all by `numbers.read_number` (digits) and the number-word reader of `core.text.numbers`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, Flag
from functools import cached_property, lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

from core.text import answers, bounds, clauses, corrections, negation, questions, units
from core.text.entities import EntityIndex, misspelt_key
from core.text.numbers import NUMBER_RE, PRODUCT_CODE_RE, _read_number, described_one, named_one, read_number
from core.text.vocabulary import (
    ACCEPT_WORDS,
    COINS,
    CONTAINER_NOUNS,
    CONTAINERS,
    CORRECTION_CUES,
    CORRECTION_FILLERS,
    COUNT_UNITS,
    CURRENCY_AFTER,
    CURRENCY_SYMBOLS,
    CUSTOMER_WAIT_VERBS,
    DATE_WORDS,
    DURATION_ROLE_WORDS,
    ENTITY_HEADS,
    HEDGE_AFTER,
    HEDGE_BEFORE,
    HEDGE_CLAUSE,
    HESITATIONS,
    HYPOTHETICAL_CUES,
    ITEM_WORDS,
    MEASURE_UNITS,
    MEASURES,
    MONTHS,
    NEEDS_FOR,
    OTHERS_SUBJECTS,
    OTHERS_VERBS,
    PER_ORDER_WORDS,
    PER_UNIT_WORDS,
    PERIOD_LEADS,
    REALLY_CUES,
    RESTATE_CUES,
    ROLE_WORDS,
    SCALE_WORDS,
    SECOND_THOUGHTS,
    STAFF_WORDS,
    TIME_UNITS,
    TOO_WORDS,
    VARIATION_LINKS,
    WAITING_PEOPLE,
    WEEKDAYS,
    WHOLE_BUSINESS_ROLES,
    WHOLE_BUSINESS_WORDS,
)
from core.text.weekdays import weekday_gap


class Kind(Enum):
    """What a mention states."""

    QUANTITY = "quantity"
    MONEY = "money"
    DURATION = "duration"
    CLOCK = "clock"
    DATE = "date"
    NAME = "name"
    ANSWER = "answer"


class Scope(Flag):
    """How a mention is meant; `NONE` is a plain statement of the speaker's own value."""

    NONE = 0
    NEGATED = 1
    CORRECTED = 2
    HYPOTHETICAL = 4
    QUESTION = 8
    DEFINITION = 16
    OTHERS = 32
    HEDGED = 64


_NEGATED, _CORRECTED, _HYPOTHETICAL, _QUESTION, _DEFINITION, _OTHERS, _HEDGED = (
    Scope.NEGATED.value, Scope.CORRECTED.value, Scope.HYPOTHETICAL.value, Scope.QUESTION.value,
    Scope.DEFINITION.value, Scope.OTHERS.value, Scope.HEDGED.value,
)  # fmt: skip
_NOT_LIVE = (
    Scope.NEGATED | Scope.CORRECTED | Scope.HYPOTHETICAL | Scope.OTHERS | Scope.QUESTION | Scope.DEFINITION
)


@dataclass(frozen=True)
class Mention:
    """One value a message states. `value` is a number for quantities, money, durations (in `unit`s) and clock
    times (minutes after midnight); a string for dates (ISO: '2026-03-04', '--03-04' without a year, or a
    weekday / 'today'), names (the canonical name, '' when unknown) and answers ('yes', 'no', 'unsure', or a
    choice letter 'A'...)."""

    kind: Kind
    value: float | str
    text: str
    span: tuple[int, int]
    clause: int
    scope: Scope = Scope.NONE
    unit: str | None = None
    per: str | None = None
    multiplier: float = 1
    container: str | None = None
    whole_business: bool = False
    role: str | None = None
    candidates: tuple[str, ...] = ()

    @property
    def amount(self) -> float:
        """`value * multiplier` (items for a container count); NaN for a text value."""
        return float(self.value) * self.multiplier if isinstance(self.value, float | int) else float("nan")

    @property
    def live(self) -> bool:
        """Whether the speaker states this value as their own now (hedged values are live, but hedged)."""
        return not (self.scope & _NOT_LIVE)

    @property
    def period(self) -> str | None:
        """The time denominator of a rate ('day', 'week', 'month', 'year'), or None."""
        return next((p for p in (self.per or "").split("/") if p in units.DAYS_PER), None)

    @property
    def per_unit(self) -> bool:
        """Whether the rate is per unit / item (also 'per bag per day')."""
        return "unit" in (self.per or "").split("/")

    @property
    def days(self) -> float | None:
        """A duration in days (30-day months, 365-day years); None for other kinds or units."""
        if self.kind is not Kind.DURATION or self.unit not in units.DAYS_PER:
            return None
        return self.amount * units.DAYS_PER[self.unit]


@dataclass(frozen=True)
class Clause:
    """One clause of the message: its text (with a closing '?' when it has one) and what kind of clause."""

    index: int
    text: str
    span: tuple[int, int]
    question: bool
    negated: bool
    definition: str | None


_NO_STOCK_UNITS = frozenset(COUNT_UNITS.values())


@dataclass(frozen=True)
class Message:
    """The one parse of a chat message."""

    text: str
    clauses: tuple[Clause, ...]
    mentions: tuple[Mention, ...]
    ops: int
    tokens: tuple[tuple[str, ...], ...] = field(default=(), repr=False, compare=False)
    spans: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), repr=False, compare=False)
    """The character span of each word of `tokens`, clause by clause (`word_spans`)."""
    correction: bool = False
    """The message corrects something the user said before ('actually', 'that's wrong, it's 60'): a reader may
    overwrite a value it holds (`core.text.corrections.is_correction`)."""
    recall: bool = False
    """The message takes back the user's own last answer ('oops, 4', 'I meant 5', 'make that 3': a bare value
    fixes the answer given last; `core.text.corrections.recalls`)."""
    confused: bool = False
    """The user is lost about the agent's last question ('huh?', "I don't follow"; `questions.is_confused`)."""
    toks: tuple[Token, ...] = field(default=(), repr=False, compare=False)
    """Every token in text order with its span (words, numbers and the symbols `$€£%?!.,;:/~()&-=+±`): what
    a reader of word cues and forms (`core.text.cues.TokenCue`, 'N(12, 3)', '20 ± 5') reads instead of the
    raw text."""

    def of(self, *kinds: Kind, live_only: bool = True) -> tuple[Mention, ...]:
        """The mentions of these kinds (all kinds when none are named), live ones only by default."""
        return tuple(m for m in self.mentions if (not kinds or m.kind in kinds) and (m.live or not live_only))

    def no_stock(self) -> tuple[Mention, ...]:
        """Counts in a unit that is no stock (`COUNT_UNITS`: '2 kids', 'two kinds', 'one model', '3 buses'): never a
        storage, an order, a demand or a number of days."""
        return tuple(m for m in self.of(Kind.QUANTITY, live_only=False) if m.unit in _NO_STOCK_UNITS)

    def words(self, clause: int | None = None) -> tuple[str, ...]:
        """The lower-cased word and number tokens of the message or of one clause."""
        if clause is None:
            return tuple(w for ws in self.tokens for w in ws)
        return self.tokens[clause] if 0 <= clause < len(self.tokens) else ()

    def word_spans(self, clause: int | None = None) -> tuple[tuple[int, int], ...]:
        """The character spans of `words(clause)`, in the same order: where a word cue stands against the
        mentions (`Mention.span`) and the negation scopes of the text."""
        if clause is None:
            return tuple(sp for sps in self.spans for sp in sps)
        return self.spans[clause] if 0 <= clause < len(self.spans) else ()


# ---------------------------------------------------------------------------------------------- tokens

_CODE = rf"(?P<code>{PRODUCT_CODE_RE.pattern})|"
"""A product code ('5W-30' motor oil) is one word token of a name."""
_TOKEN_RE = re.compile(
    rf"{_CODE}(?P<num>{NUMBER_RE.pattern})|(?P<word>[A-Za-z]+(?:'[A-Za-z]+)*)|(?P<sym>[$€£%?!.,;:/~()&-])"
)
_ALL_TOKEN_RE = re.compile(
    rf"{_CODE}(?P<num>{NUMBER_RE.pattern})|(?P<word>[A-Za-z]+(?:'[A-Za-z]+)*)|(?P<sym>[$€£%?!.,;:/~()&=+±λμσ-])"
)
"""`Message.toks`: the rules' tokens and the symbols of written formulas ('20 ± 5', 'λ = 4', '+/-'), which the
rules skip ('2,500+ students' is a count of students)."""


@dataclass(frozen=True)
class Token:
    """One token of the parse: its text, lower-cased text, span, kind ('num', 'word' or 'sym') and clause."""

    text: str
    low: str
    start: int
    end: int
    kind: str
    clause: int


_Tok = Token


_BOUNDARY = frozenset(".,;:!?()")
_JOINERS = frozenset(["but", "and", "so", "because", "though", "although", "while", "whereas"])


def _tokens(text: str, clause_starts: list[int], pattern: re.Pattern[str] = _TOKEN_RE) -> list[_Tok]:
    out, c = [], 0
    for m in pattern.finditer(text):
        while c + 1 < len(clause_starts) and m.start() >= clause_starts[c + 1]:
            c += 1
        kind = "word" if m.lastgroup == "code" else m.lastgroup or "sym"
        out.append(_Tok(m.group(0), m.group(0).lower(), m.start(), m.end(), kind, c))
    return out


# --------------------------------------------------------------------------------------------- clauses

_DEFINITION_RES = (
    re.compile(
        r"\bwhat\s+(?:do|does|did)\s+(?:you|u|it|that|this)\s+mean\s+(?:by|with)\s+([\w' -]{1,40})", re.I
    ),
    re.compile(r"\bwhat\s+(?:do|does|is)\s+(?:an?\s+|the\s+)?[\"']?([\w' -]{1,40}?)[\"']?\s+mean\b", re.I),
    re.compile(r"\b(?:meaning\s+of|definition\s+of|define)\s+(?:an?\s+|the\s+)?[\"']?([\w' -]{1,40})", re.I),
    re.compile(r"\bwhat\s+is\s+meant\s+by\s+([\w' -]{1,40})", re.I),
)
_DEF_TAIL_RE = re.compile(r"\s+(?:exactly|here|again|there|please|then)\s*$", re.I)


def _definition(text: str) -> str | None:
    """The term a what-does-X-mean request asks about ('what do you mean by setup?' -> 'setup'), or None."""
    for pattern in _DEFINITION_RES:
        found = pattern.search(text)
        if found:
            term = _DEF_TAIL_RE.sub("", found.group(1).strip(" '\"-")).strip().lower()
            return term or None
    return None


def _clauses(text: str) -> tuple[list[Clause], list[negation.Scope]]:
    """The clauses with their spans: `split_clauses` (sentences, semicolons, joining words; commas kept) located
    in the text in one forward pass; a clause keeps its closing '?'. With them, the negations of every clause
    (read once per clause, exclusions included, positions in the message)."""
    out: list[Clause] = []
    denied: list[negation.Scope] = []
    cursor = 0
    for piece in clauses.split_clauses(text, commas=False):
        start = text.find(piece, cursor)
        if start < 0:
            continue
        end = start + len(piece)
        after = end
        while after < len(text) and text[after] in " \t":
            after += 1
        if after < len(text) and text[after] == "?" and not piece.endswith("?"):
            end = after + 1
        body = text[start:end]
        scopes = negation.negation_scopes(body, exclusions=True)
        denied.extend(
            replace(sc, start=sc.start + start, begin=sc.begin + start, end=sc.end + start) for sc in scopes
        )
        out.append(
            Clause(
                len(out),
                body,
                (start, end),
                question=questions.is_question(body) or questions.is_confused(body),
                negated=any(not sc.exclusion for sc in scopes),
                definition=_definition(body),
            )
        )
        cursor = end
    return out, denied


# ---------------------------------------------------------------------------------------------- numbers


@dataclass(frozen=True)
class _Num:
    value: float
    i: int  # first token
    j: int  # index after the last token


def _fraction(toks: list[_Tok], k: int) -> float | None:
    """A proper fraction written 'n/d' at token k ('3/4', not '24/7' or a date '3/4/2026'), or None."""
    if k + 2 >= len(toks) or toks[k].kind != "num" or toks[k + 1].text != "/" or toks[k + 2].kind != "num":
        return None
    a, slash, b = toks[k], toks[k + 1], toks[k + 2]
    if not (a.end == slash.start and slash.end == b.start and a.text.isdigit() and b.text.isdigit()):
        return None
    if k + 3 < len(toks) and toks[k + 3].text == "/" and toks[k + 3].start == b.end:
        return None
    num, den = int(a.text), int(b.text)
    return num / den if 0 < num < den <= 100 else None


def _number_at(toks: list[_Tok], words: list[str], i: int) -> _Num | None:
    """The number that starts at token i (digits, number words, 'a dozen and a half', '2k', '2 and a half')."""
    t = toks[i]
    if t.kind == "num":
        value = read_number(t.text)
        if value is None:
            return None
        j = i + 1
        scale = words[j] if j < len(toks) else ""
        if scale in SCALE_WORDS and (scale != "k" or toks[j].start == t.end):  # '2k' only written together
            value *= SCALE_WORDS[scale]
            j += 1
        if words[j : j + 3] == ["and", "a", "half"]:
            value += 6 if words[j - 1] == "dozen" else 0.5
            j += 3
            if words[j : j + 1] == ["dozen"] and words[j - 4] != "dozen":
                value, j = value * 12, j + 1  # '3 and a half dozen': 42
        fraction = _fraction(toks, j) if j == i + 1 else None
        if fraction is not None and t.end != toks[j].start and value == int(value):
            value, j = value + fraction, j + 3  # '1 1/2'
        elif fraction is None and j == i + 1:
            own = _fraction(toks, i)
            if own is not None:  # '3/4'
                return _Num(own, i, i + 3)
        return _Num(value, i, j)
    if t.kind != "word":
        return None
    if (part := _part_of_money(words, i)) is not None:
        return part
    if words[i : i + 3] == ["half", "a", "dozen"]:
        return _Num(6.0, i, i + 3)
    if words[i : i + 2] == ["half", "dozen"] and words[i - 1 : i] != ["a"]:
        return _Num(6.0, i, i + 2)  # '2 crate and half dozen'
    if _measure_part(words, i):
        return _Num(_PART[words[i]], i, i + 1)  # 'half-kilo packs', 'quarter pound burgers': the number of a size
    if words[i + 1 : i + 3] == ["by", words[i]] or (i >= 2 and words[i - 2 : i] == [words[i], "by"]):
        return None  # 'one by one', 'two by two': a manner of selling, no amount
    if words[i] == "one" and (
        (i > 0 and words[i - 1] in _ONE_AS_PRONOUN_BEFORE)
        or words[i + 1 : i + 2] in (["of"], ["more"], ["time"])
        or words[i + 1 : i + 4] == ["at", "a", "time"]  # 'students buy them one at a time': a manner, no amount
        or (described_one(words, i) and toks[i - 1].kind == "word")
        or named_one(words, i, ends_clause=i + 1 >= len(toks) or toks[i + 1].kind != "word")
    ):
        return None
    # number words in a window of the next words, a hyphen between two words skipped ('twenty-five')
    seq: list[int] = []
    k = i
    while k < len(toks) and len(seq) < _NUMBER_WINDOW:
        if toks[k].kind == "word":
            seq.append(k)
        elif not (
            toks[k].text == "-"
            and seq
            and toks[k - 1].end == toks[k].start
            and k + 1 < len(toks)
            and toks[k + 1].start == toks[k].end
            and toks[k + 1].kind == "word"
        ):
            break
        k += 1
    local = [words[q] for q in seq]
    found = _read_number(local, 0)
    if found is None:
        return None
    value, jj = found  # 'a dozen and a half' is 18 (`numbers._read_number`)
    return _Num(value, i, seq[jj - 1] + 1)


def _part_of_money(words: list[str], i: int) -> _Num | None:
    """A part of one money unit at token i ('a tenth of a cent', 'quarter of a penny', 'a third of a dollar'):
    the part, ending before the unit word (which `_value_at` reads as money), or None."""
    k = i + 1 if words[i] in ("a", "an", "one") else i
    if words[k : k + 1] == [] or words[k] not in units.PARTS_OF or words[k + 1 : k + 2] != ["of"]:
        return None
    if words[k + 2 : k + 3] not in (["a"], ["an"], ["one"]) or k + 3 >= len(words):
        return None
    unit = words[k + 3]
    money = unit in COINS or unit in CURRENCY_AFTER and unit not in ("c", "pound", "pounds")
    return _Num(units.PARTS_OF[words[k]], i, k + 3) if money else None


_NUMBER_WINDOW = 12
"""Number words are read from at most this many words ('one hundred and twenty thousand three hundred and
forty-five' is 10): a bounded window per position keeps the parse linear."""


_ONE_AS_PRONOUN_BEFORE = frozenset(
    ["this", "that", "the", "which", "each", "every", "any", "no", "another", "other", "second", "first", "last",
     "good", "big", "small", "new", "old", "only", "right", "wrong"]
)  # fmt: skip


# -------------------------------------------------------------------------------------------- the parse


@dataclass
class _State:
    text: str
    toks: list[_Tok]
    words: list[str]
    clauses: list[Clause]
    ops: int = 0
    found: list[Mention] = field(default_factory=list)
    taken: list[bool] = field(default_factory=list)
    denied: list[negation.Scope] = field(default_factory=list)

    @cached_property
    def where(self) -> _Pos:
        """Token index of a character position, built once per message for the steps after the value readers."""
        return _Pos(self.toks)

    def word_before(self, m: Mention) -> str:
        """The word right before a mention ('' at the start)."""
        k = self.where.at(m.span[0])
        return self.words[k - 1] if k > 0 else ""

    def words_after(self, m: Mention, count: int) -> list[str]:
        """The `count` words right after a mention."""
        k = self.where.at(m.span[1] - 1) + 1
        return self.words[k : k + count]


def _span_text(s: _State, i: int, j: int) -> tuple[str, tuple[int, int]]:
    start, end = s.toks[i].start, s.toks[j - 1].end
    return s.text[start:end], (start, end)


def _dot_times(s: _State) -> None:
    """'at 9.30.' and 'no 8.40 start' (a dot time the toolkit leaves at a sentence end or before 'start'): a
    number token h.mm in a time context."""
    for k, t in enumerate(s.toks):
        if t.kind != "num" or s.taken[k] or len(t.text) not in (4, 5) or t.text[-3:-2] != ".":
            continue
        hour, _, minute = t.text.partition(".")
        if not (hour.isdigit() and minute.isdigit() and 1 <= int(hour) <= 12 and int(minute) < 60):
            continue
        nxt = s.words[k + 1] if k + 1 < len(s.words) else ""
        if nxt in _TIME_NOUNS or _clock_in_context(s, k, k + 1):
            s.ops += 1
            s.taken[k] = True
            s.found.append(
                Mention(
                    Kind.CLOCK,
                    float(int(hour) * 60 + int(minute)),
                    t.text,
                    (t.start, t.end),
                    t.clause,
                    unit="minute",
                )
            )


_NOT_PRICE_NEAR_TIME = frozenset(["keep", "keeping", "store", "storing", "make", "earn", "setup"])
_TIME_NOUNS = frozenset(["start", "starts", "bell", "slot", "opening", "begin", "arrival"])


def _clock_mentions(s: _State) -> None:
    """Clock times ('8:40', '8.40am', 'half past eight', 'at 9'); a dot or bare time only where it is no price."""
    hits = units.clock_times(s.text, bare=True, spoken=True)
    s.ops += len(s.text) * 8
    ti = 0
    for start, end, minutes in hits:
        while ti < len(s.toks) and s.toks[ti].end <= start:
            ti += 1
        tj = ti
        while tj < len(s.toks) and s.toks[tj].start < end:
            tj += 1
        s.ops += tj - ti + 1
        if ti >= len(s.toks) or tj == ti:
            continue
        raw = s.text[start:end].rstrip()
        end = start + len(raw)
        low = raw.lower()
        marked = (
            ":" in raw
            or low.replace(".", "").replace(" ", "").endswith(("am", "pm"))
            or "clock" in low
            or any(w in _CLOCK_WORDS for w in s.words[ti:tj])
        )
        if not marked and not _clock_in_context(s, ti, tj):
            continue  # '8.40', '840', '9', 'two fifty' without a time cue: an amount, not a time
        if any(s.taken[ti:tj]):
            continue
        for k in range(ti, tj):
            s.taken[k] = True
        s.found.append(
            Mention(Kind.CLOCK, float(minutes), raw, (start, end), s.toks[ti].clause, unit="minute")
        )


_CLOCK_WORDS = frozenset(["past", "to", "till", "til", "after", "of", "half"])
"""Words that make a spoken time one ('ten to eight', 'half past nine', 'half nine')."""
_NOT_AFTER_TIME = frozenset(
    ["per", "a", "an", "each", "every", "x", "of", "percent", "%", "more", "less", "extra"]
)


def _clock_in_context(s: _State, ti: int, tj: int) -> bool:
    """Whether a time written without a colon, am/pm or a clock word ('at 8.40', 'start at 840', 'at 9', 'starts
    nine thirty') is one: a time word right before it ('at', 'start', 'before', 'move ... to'), no price nearby,
    and no unit after it ('at 350 cans', 'capped at 400 per order' are amounts)."""
    words = s.words
    prev, prev2 = (words[ti - 1] if ti else ""), (words[ti - 2] if ti > 1 else "")
    cue = (
        prev in _STRONG_TIME_CUES
        or (prev in ("around", "about", "by", "exactly", "maybe") and prev2 in _STRONG_TIME_CUES)
        or (prev == "by" and prev2 in ("order", "call", "phone", "ring", "email"))  # 'if I order by 3'
        or (prev == "by" and any(m.kind is Kind.CLOCK for m in s.found))  # 'at the market at 5am, in my buckets by 7'
        or (prev == "than" and prev2 in ("later", "earlier", "sooner"))  # 'no later than 8'
        or (prev == "to" and any(w in _MOVE_VERBS for w in words[max(0, ti - 5) : ti]))
    )
    if not cue:
        return False
    if any(
        w in CURRENCY_SYMBOLS or (w in ROLE_WORDS and w not in _NOT_PRICE_NEAR_TIME)
        for w in words[max(0, ti - 4) : tj + 2]
    ):
        return False  # a price nearby ('costs 8.40'); 'keep', 'sell' alone are no price
    nxt = words[tj] if tj < len(words) else ""
    return not (
        nxt in _NOT_AFTER_TIME or nxt in ITEM_WORDS or nxt in CONTAINERS or nxt in MEASURES
        or nxt in COUNT_UNITS or nxt in TIME_UNITS or nxt in CURRENCY_AFTER or nxt in PER_ORDER_WORDS
    )  # fmt: skip


_MOVE_VERBS = frozenset(["move", "moved", "moving", "push", "pushed", "shift", "shifted", "put", "set", "change",
                         "changed", "bring", "make", "start", "starts"])  # fmt: skip
_STRONG_TIME_CUES = frozenset(
    ["at", "start", "starts", "begin", "begins", "before", "after", "until", "till"]
)
_TIME_CUES = frozenset(
    ["at", "start", "starts", "starting", "begin", "begins", "by", "before", "after", "until", "till", "from",
     "to", "bell", "open", "opens", "arrive", "than", "around", "about"]
)  # fmt: skip


def _dates(s: _State) -> None:
    """Dates: ISO '2026-03-04', 'March 3', '3rd of March', '3/4/2026'; weekdays; today / tomorrow / yesterday."""
    toks, words = s.toks, s.words
    i = 0
    while i < len(toks):
        s.ops += 1
        w = words[i]
        if s.taken[i]:
            i += 1
            continue
        if w in WEEKDAYS or w in DATE_WORDS:
            _add(s, Kind.DATE, DATE_WORDS.get(w, w.rstrip("s") if w.endswith("days") else w), i, i + 1)
            i += 1
            continue
        if w in MONTHS:
            month = MONTHS[w]
            j, day = i + 1, None
            if j < len(toks) and toks[j].kind == "num" and toks[j].text.isdigit():
                day, j = int(toks[j].text), j + 1
                if j < len(toks) and words[j] in ("st", "nd", "rd", "th"):
                    j += 1
            elif i >= 2 and words[i - 1] == "of" and toks[i - 2].kind == "num" and not s.taken[i - 2]:
                pass
            if day is not None and 1 <= day <= 31:
                _add(s, Kind.DATE, f"--{month:02d}-{day:02d}", i, j)
                i = j
                continue
            if w not in ("may", "march") or (i > 0 and words[i - 1] in ("in", "of", "since", "until", "by")):
                _add(s, Kind.DATE, f"--{month:02d}", i, i + 1)
            i += 1
            continue
        if toks[i].kind == "num" and toks[i].text.isdigit():
            # '3 March', '3rd of March'
            j = i + 1
            if j < len(toks) and words[j] in ("st", "nd", "rd", "th"):
                j += 1
            if j < len(toks) and words[j] == "of":
                j += 1
            if (
                j < len(toks)
                and words[j] in MONTHS
                and words[j] not in ("may", "march", "jan")
                or (j < len(toks) and words[j] in MONTHS and j > i + 1)
            ):
                day = int(toks[i].text)
                if 1 <= day <= 31:
                    _add(s, Kind.DATE, f"--{MONTHS[words[j]]:02d}-{day:02d}", i, j + 1)
                    i = j + 1
                    continue
            # ISO 2026-03-04 and 3/4/2026 (day first when the first part is above 12, else month first)
            if i + 4 < len(toks) and toks[i + 1].text in ("-", "/") and toks[i + 3].text == toks[i + 1].text:
                parts = [toks[i].text, toks[i + 2].text, toks[i + 4].text]
                adjacent = all(toks[k].end == toks[k + 1].start for k in range(i, i + 4))
                if adjacent and all(p.isdigit() for p in parts):
                    iso = _iso_date(parts, toks[i + 1].text)
                    if iso:
                        _add(s, Kind.DATE, iso, i, i + 5)
                        i += 5
                        continue
        i += 1


def _weekday_gap(s: _State) -> None:
    """Two weekdays, the day something starts and the day it ends ('order Monday, here Friday' = 4 days;
    `weekdays.weekday_gap`): a DURATION on the second weekday with role 'weekday_gap' (usually a lead time)."""
    gap = weekday_gap(s.text)
    s.ops += len(s.text) * 3
    if gap is None:
        return
    k = _index([t.start for t in s.toks], gap.start)
    if 0 <= k < len(s.toks):
        s.found.append(
            Mention(
                Kind.DURATION, float(gap.days), s.text[gap.start : gap.end], (gap.start, gap.end),
                s.toks[k].clause, unit="day", role="weekday_gap",
            )
        )  # fmt: skip


def _iso_date(parts: list[str], sep: str) -> str | None:
    a, b, c = (int(p) for p in parts)
    if sep == "-" and len(parts[0]) == 4:
        year, month, day = a, b, c
    elif len(parts[2]) == 4:
        year = c
        month, day = (b, a) if a > 12 else (a, b)
    else:
        return None
    if 1 <= month <= 12 and 1 <= day <= 31:
        return f"{year:04d}-{month:02d}-{day:02d}"
    return None


def _add(s: _State, kind: Kind, value: float | str, i: int, j: int, **fields: object) -> Mention:
    text, span = _span_text(s, i, j)
    mention = Mention(kind, value, text, span, s.toks[i].clause, **fields)  # type: ignore[arg-type]
    s.found.append(mention)
    for k in range(i, j):
        s.taken[k] = True
    return mention


def _rate(s: _State, j: int) -> tuple[str | None, int]:
    """Rate denominators after token j ('per day', 'a month', '/kg', 'each', 'per bag per day', 'weekly'):
    ('day', j'), ('unit/day', j') ..., and the index after them."""
    pers: list[str] = []
    words = s.words
    while j < len(words) and len(pers) < 3:
        s.ops += 1
        w = words[j]
        if w in _PERIODIC:
            pers.append(_PERIODIC[w])
            j += 1
            continue
        if w in ("in", "for") and words[j + 1 : j + 2] in (["the"], ["a"], ["one"], ["1"]) and words[j + 2 : j + 3] in _ONE_PERIOD:
            pers.append(words[j + 2])  # '400 in the month', '120 for a week', '12 in one month': per that period
            j += 3
            continue
        if w in ("each", "apiece") and not (j + 1 < len(words) and _denominator(words[j + 1])):
            pers.append("unit")
            j += 1
            continue
        if w in ("per", "a", "an", "each", "every", "/", "for") and j + 1 < len(words):
            k = j + 1
            if w == "for" and words[k] in ("each", "every"):
                k += 1
            if w == "a" and words[k] == "piece":
                pers.append("unit")
                j = k + 1
                continue
            while k < len(words) and k < j + 4 and words[k] in _DENOM_FILLERS:
                k += 1
            den = _denominator(words[k]) if k < len(words) else None
            if (
                den is None
                and w in ("per", "each")
                and k < len(words)
                and s.toks[k].kind == "word"
                and words[k] not in _NOT_A_DENOMINATOR
            ):
                den = "unit"  # 'per bucket', 'each cake': per item, whatever its name
            if den is None and k < len(words) and words[k] in CONTAINERS and _period_follows(words, k + 1):
                den = CONTAINERS[words[k]]  # '5 cents a box a day': per box per day, as '$1 a case a day'
            if den and not (
                w in ("a", "an")
                and den in ("unit", "order", "delivery")
                and words[k] not in ("piece", "unit", "item", "order", "delivery", "shipment", "drop", "trip",
                                     "run", "load", "go")
                and not (den == "unit" and _period_follows(words, k + 1))
            ):
                pers.append(den)
                j = k + 1
                if words[j : j + 1] == ["of"] and j + 2 < len(words) and words[j + 2] in _RATE_STARTS:
                    j += 2  # 'per bucket of flowers per day'
                continue
        break
    return ("/".join(pers) if pers else None), j


_ONE_PERIOD = (["day"], ["week"], ["month"], ["year"])


def _period_follows(words: list[str], j: int) -> bool:
    """Whether a period rate starts at token j ('a day', 'per night', 'each week', 'daily'): '5 cents a bottle a
    day' is money per item per day, where '12 a case' alone is no rate."""
    if j < len(words) and words[j] in _PERIODIC:
        return True
    return (
        j + 1 < len(words)
        and words[j] in ("a", "an", "per", "each", "every")
        and TIME_UNITS.get(words[j + 1]) in units.DAYS_PER
    )
_OUTER_CONTAINERS = frozenset(["crate", "case", "pallet", "carton", "tray"])
_NOT_A_DENOMINATOR = frozenset(["the", "my", "our", "your", "their", "this", "that", "of", "and", "or", "cent", "se",
                                "other", "week's", "day's", "time"])  # fmt: skip
_RATE_STARTS = frozenset(["a", "an", "per", "each", "every", "for", "daily", "weekly", "monthly", "yearly"])
_PERIODIC = {"daily": "day", "nightly": "day", "weekly": "week", "monthly": "month", "yearly": "year",
             "annually": "year", "annual": "year", "hourly": "hour"}  # fmt: skip
_DENOM_FILLERS = frozenset(["lost", "missed", "unfilled", "unmet", "short", "single", "business", "calendar",
                            "purchase", "individual", "extra"])  # fmt: skip


def _denominator(word: str) -> str | None:
    """What 'per <word>' divides by: a period, an order or delivery, a measure, a container ('per case'), else
    'unit' for an item word; None for other words."""
    if word in TIME_UNITS:
        return TIME_UNITS[word]
    if word in PER_ORDER_WORDS:
        return PER_ORDER_WORDS[word]
    if word in MEASURES:
        return MEASURES[word]
    if word in CONTAINERS and CONTAINERS[word] in _OUTER_CONTAINERS:
        return CONTAINERS[word]  # '$18 per case'; 'per bag', 'per box' are per item
    if word in PER_UNIT_WORDS or word in ITEM_WORDS:
        return "unit"
    return None


def _values(s: _State, currency: str) -> None:
    """Quantities, money and durations: each number with the words around it."""
    toks, words, n = s.toks, s.words, len(s.toks)
    i = 0
    while i < n:
        s.ops += 1
        if s.taken[i]:
            i += 1
            continue
        if (after := _compound_item(toks, words, i)) is not None:
            for k in range(i, after):  # 'we count it in six-packs': an item word, not six of anything
                s.taken[k] = True
            i = after
            continue
        num = _number_at(toks, words, i)
        if num is None and words[i] in CONTAINERS and i + 2 < n and words[i + 1] in _SIZE_VERBS:
            inner = _number_at(toks, words, i + 2)
            if inner is not None and (_priced(words, i + 2, inner.j) or words[inner.j : inner.j + 1] and (
                words[inner.j] in MEASURES
            )):  # fmt: skip
                inner = None  # 'a pack is 4 bucks', 'the bag is 2 kilo': its price or measure, never a count
            if inner is not None:  # 'cases of a dozen', 'a box holds 24 bags': the container's size
                j = inner.j + (1 if inner.j < n and words[inner.j] in ITEM_WORDS else 0)
                j = _compound_item(toks, words, j) or j
                defines = words[i + 1] != "of" or _plural(words[i]) or words[max(0, i - 2) : i] == ["in", "a"]
                _add(
                    s,
                    Kind.QUANTITY,
                    1.0,
                    i,
                    j,
                    unit="item",
                    multiplier=inner.value,
                    container=CONTAINERS[words[i]],
                    role="size" if defines else None,
                )
                i = j
                continue
        if (
            num is None
            and words[i] in ("a", "an")
            and i + 1 < n
            and words[i + 1] in MEASURES
            and not s.taken[i + 1]
            and words[i - 1 : i] != ["per"]
            and not _and_a_half(words, i + 1)  # 'a litre and a half' is read with its half below
        ):
            _add(s, Kind.QUANTITY, 1.0, i, i + 2, unit=MEASURES[words[i + 1]])  # 'give or take a kilo'
            i += 2
            continue
        if num is None and (_spread_of_one(s, i) or _summed_one(s, i)):
            _add(s, Kind.QUANTITY, 1.0, i, i + 2, unit=None, container=CONTAINERS[words[i + 1]])
            i += 2  # 'give or take a tray': one tray either way; 'a pallet in the back plus 15': one pallet
            continue
        after_amount = i > 0 and toks[i - 1].kind == "num" and words[i + 1 : i + 2] in (["pound"], ["lb"])
        if num is None and words[i] in ("a", "an") and i + 1 < n and _one_currency(words, i + 1) and not after_amount:
            num = _Num(1.0, i, i + 1)  # 'a dollar a week', 'a buck'
        if num is None and words[i] in ("a", "an") and _and_a_half(words, i + 1):
            num = _Num(1.0, i, i + 1)  # 'a case and a half': 1.5 cases
        if num is None or words[i] in ("a", "an", "one", "couple", "few", "the", "next", "overnight", "same"):
            after = _spoken_amount(s, i, currency)
            if after is not None:
                i = after
                continue
        if num is None:
            if (
                words[i] in ("a", "an", "one")
                and i + 1 < n
                and words[i + 1] in TIME_UNITS
                and not s.taken[i + 1]
                and not _measure_part(words, i + 1)
            ):
                prev = words[i - 1] if i else ""
                if prev not in ("per", "every", "each", "once", "twice", "times") and not (
                    toks[i - 1].kind == "num" if i else False
                ):
                    role = _duration_role(s, i, i + 2)
                    _add(s, Kind.DURATION, 1.0, i, i + 2, unit=TIME_UNITS[words[i + 1]], role=role)
                    i += 2
                    continue
            i += 1
            continue
        i = _value_at(s, num, currency)


_SIZE_VERBS = frozenset(["of", "holds", "has", "contains", "is", "takes", "fits"])
"""'boxes of 24', 'a box holds 24', 'a crate is 24 jars': how many items one container holds."""


def _plural(word: str) -> bool:
    """'boxes', 'packs', 'cases': a container word in the plural (a size said for the kind, not one container)."""
    return word.endswith("s") and word[:-1] in CONTAINERS or word.endswith("es") and word[:-2] in CONTAINERS


def _compound_item(toks: list[_Tok], words: list[str], k: int) -> int | None:
    """The index after an item word joined to a number ('six-pack', '12-packs', 'four-packs'), or None: the
    number names the item, it counts nothing. After a count, a space may stand for the hyphen ('12 six packs')."""
    small = 0 < k < len(toks) - 1 and (words[k] in _NUMBER_WORDS or words[k] in _PACK_DIGITS)
    if small and toks[k - 1].kind == "num" and words[k + 1] in _COMPOUND_HEADS:
        return k + 2
    if k + 2 >= len(toks) or toks[k + 1].text != "-" or words[k + 2] not in _NAME_HEADS:
        return None  # 'the 100-count boxes' names the box too
    if toks[k].end != toks[k + 1].start or toks[k + 1].end != toks[k + 2].start:
        return None
    return k + 3 if toks[k].kind == "num" or words[k] in _NUMBER_WORDS else None


_VESSELS = frozenset(CONTAINERS) - {"dozens", "layer", "layers", "row", "rows", "set", "sets", "stack", "stacks"} | {
    "bottle", "bottles", "can", "cans", "jar", "jars", "tin", "tins", "tub", "tubs", "tube", "tubes"}
"""What a measure can size across the words naming its contents ('15kg dog food bags', '2 litre milk bottles')."""

_NOT_CONTENTS = frozenset(["a", "an", "the", "of", "per", "each", "every", "in", "on", "at", "for", "to", "and", "or",
                           "but", "is", "are", "was", "were", "we", "you", "they", "it", "that", "this", "total",
                           "worth", "left", "about", "from", "with", "into", "than", "like", "fits", "fit", "go",
                           "goes", "sold", "sell", "sells", "more", "less", "max", "most", "least", "only"])


def _sized_noun(toks: list[_Tok], words: list[str], j: int) -> int | None:
    """The index of the item or container a measure sizes, right after it ('the 10 kilo bags') or across one or
    three words naming a vessel's contents ('15kg [dog food] bags', '2 litre [milk] bottles', '10kg [dry dog
    food] bags'), or None: '60 kilos of rice in bags' and '60 kilos a day' size nothing."""
    if j < len(words) and (words[j] in CONTAINERS or words[j] in ITEM_WORDS):
        return j
    for k in range(j, min(j + 4, len(toks))):
        if words[k] in _VESSELS and k > j:
            return k
        if toks[k].kind != "word" or not words[k].isalpha() or len(words[k]) < 3 or words[k] in _NOT_CONTENTS:
            break
        if words[k] in TIME_UNITS or words[k] in MEASURES or words[k] in CONTAINERS or words[k] in ITEM_WORDS:
            break
    return j if _named_goods(toks, words, j) else None  # 'the 12 kg kibble': one of the goods named, sized


_DETERMINERS = frozenset(["the", "our", "my", "their", "those", "these", "this", "that"])


def _named_goods(toks: list[_Tok], words: list[str], j: int) -> bool:
    """'the 12 kg kibble to keep', 'our 5 litre oil': a determiner, a bare number and a measure before a content word
    that ends its phrase (no 'of', no rate): the size of one item of the goods named."""
    if not (3 <= j < len(words) and words[j - 3] in _DETERMINERS and toks[j - 2].kind == "num"):
        return False
    w, nxt = words[j], words[j + 1] if j + 1 < len(words) else ""
    plain = toks[j].kind == "word" and w.isalpha() and len(w) >= 3 and w not in _NOT_CONTENTS
    return plain and w not in TIME_UNITS and w not in MEASURES and nxt not in ("of", "a", "an", "per", "each", "every")


def _pack_name(words: list[str], j: int, after: int) -> str:
    """The pack a compound item names ('six-pack' of 'six-packs', of 'six packs' and of '6 packs' after a count,
    as the number reader writes 'six packs')."""
    head = _PACK_DIGITS.get(words[j], words[j]) if after == j + 2 else words[j]
    return f"{head}-{words[after - 1]}".rstrip("s")


_COMPOUND_HEADS = frozenset(["pack", "packs", "pak", "paks"])
_NAME_HEADS = _COMPOUND_HEADS | {"count", "ct"}
_NUMBER_WORDS = frozenset(["two", "three", "four", "five", "six", "eight", "ten", "twelve", "twenty", "twentyfour"])
_PACK_DIGITS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "8": "eight", "10": "ten",
                "12": "twelve", "20": "twenty", "24": "twentyfour"}
"""Pack sizes in digits after a count ('100 6 packs', as the number reader writes '100 six packs')."""


def _one_currency(words: list[str], k: int) -> bool:
    return (
        words[k] in CURRENCY_AFTER
        and (CURRENCY_AFTER[words[k]] not in ("cents", "pence") or words[k + 1 : k + 4] == ["and", "a", "half"])
        and words[k : k + 2] != ["pound", "of"]
    )


def _spread_of_one(s: _State, i: int) -> bool:
    """Whether token i starts 'a tray' / 'a case' said as a spread: right after 'give or take' or 'plus or
    minus', or followed by 'either way' ('it swings by about a box either way'): one container either way."""
    words = s.words
    if words[i] not in ("a", "an", "one") or words[i + 1 : i + 2] == [] or words[i + 1] not in CONTAINERS:
        return False
    lead = [w for w in words[max(0, i - 4) : i] if w not in _SPREAD_HEDGES][-3:]
    return not s.taken[i + 1] and (
        lead in (["give", "or", "take"], ["plus", "or", "minus"]) or words[i + 2 : i + 4] in (["either", "way"], ["each", "way"])
        or lead[-2:] in (["deviation", "is"], ["deviation", "of"], ["spread", "is"], ["sd", "is"])  # '... is about a box'
    )


_SPREAD_HEDGES = frozenset({"about", "around", "roughly", "maybe"})


def _summed_one(s: _State, i: int) -> bool:
    """Whether token i starts 'a pallet' / 'a crate' that a sum goes on from ('a pallet in the back plus 15 on the
    floor', 'a case upstairs and another 6 here'): one container, added to the number after the link."""
    words = s.words
    if words[i] not in ("a", "an") or words[i + 1 : i + 2] == [] or words[i + 1] not in CONTAINERS or s.taken[i + 1]:
        return False
    if words[i + 2 : i + 3] and words[i + 2] in _SIZE_VERBS:
        return False  # 'a pallet is 40 bags plus 5 loose': the size of one
    for k in range(i + 2, min(i + 9, len(words) - 1)):
        link = 2 if words[k : k + 2] == ["and", "another"] else 1 if words[k] in ("plus", "+") else 0
        if link:
            return k + link < len(words) and s.toks[k + link].kind == "num"
    return False


def _spoken_amount(s: _State, i: int, currency: str) -> int | None:
    """Amounts said without digits, at token i: coins ('a dime a day', 'a nickel', 'penny a day', 'a quarter per day' when it
    is paid or a rate: 'plan for a quarter' stays 3 months), 'free' ('shipping is free': 0), periods ('the coming
    year', 'the next month', 'a whole year', 'a couple of months'). The index after it, or None."""
    words, n = s.words, len(s.words)
    w = words[i]
    nxt = words[i + 1] if i + 1 < n else ""
    count = 1.0 if w in ("a", "an", "one") else None
    if count is not None and nxt in COINS:
        return _coin(s, i, i + 2, COINS[nxt], currency)
    if w in ("penny", "nickel", "dime") and _rate(s, i + 1)[0] is not None:
        return _coin(s, i, i + 1, COINS[w], currency)  # 'penny a day' without its article
    k = i + 2 if words[i + 1 : i + 2] == ["of"] else i + 1
    if w == "couple" and words[k : k + 1] in (["cents"], ["pennies"]):
        return _coin(s, i, k + 1, 0.02, currency)  # 'couple cents each', 'a couple of pennies a day'
    if (
        count is not None
        and nxt == "quarter"
        and i + 2 <= n
        and words[i + 2 : i + 3] != ["of"]
        and not _measure_part(words, i + 1)
    ):
        per, _ = _rate(s, i + 2)
        paid = any(ROLE_WORDS.get(x) is not None for x in words[max(0, i - 4) : i]) or words[i - 1 : i] == [
            "is"
        ]
        if per is not None or paid:
            return _coin(s, i, i + 2, 0.25, currency)
    if (
        w == "free"
        and i > 0
        and words[i - 1] in ("is", "'s", "are", "was", "it's", "for", "totally", "completely")
    ):
        role, whole, _, _ = _role(s, i, i + 1)
        _add(s, Kind.MONEY, 0.0, i, i + 1, unit=currency, role=role, whole_business=whole)
        return i + 1
    if (
        words[i : i + 4] == ["the", "day", "after", "tomorrow"]
        or words[i : i + 3] == ["day", "after", "tomorrow"]
        or words[i] == "after" and "tomorrow" in words[i + 1 : i + 3] and words[i - 1 : i] != ["day"]
    ):  # 'it arrive after-tomorrow', 'after tomorrow'
        j = i + {"the": 4, "day": 3}.get(w, words.index("tomorrow", i) - i + 1)  # two days, never 'the day after'
        _add(s, Kind.DURATION, 2.0, i, j, unit="day", role=_duration_role(s, i, j))
        return j
    for phrase in _NEXT_DAY:
        if words[i : i + len(phrase)] == list(
            phrase
        ):  # 'the day after we order', 'overnight', 'next morning'
            j = i + len(phrase)
            _add(s, Kind.DURATION, 1.0, i, j, unit="day", role=_duration_role(s, i, j))
            return j
    for phrase in _SAME_DAY:
        if words[i : i + len(phrase)] == list(phrase) and words[i + len(phrase) : i + len(phrase) + 1] != ["after"]:
            j = i + len(phrase)  # 'same day', 'same-day' (not 'the same day after day'): no wait at all
            _add(s, Kind.DURATION, 0.0, i, j, unit="day", role=_duration_role(s, i, j))
            return j
    if w in PERIOD_LEADS:
        k = i + 1
        while k < n and k < i + 3 and words[k] in PERIOD_LEADS:
            k += 1
        if k < n and words[k] in TIME_UNITS and not s.taken[k] and TIME_UNITS[words[k]] in units.DAYS_PER:
            start = i - 1 if i > 0 and words[i - 1] in ("the", "a") and not s.taken[i - 1] else i
            _add(
                s,
                Kind.DURATION,
                1.0,
                start,
                k + 1,
                unit=TIME_UNITS[words[k]],
                role=_duration_role(s, start, k + 1),
            )
            return k + 1
    if w in ("couple", "few") and words[i + 1 : i + 2] == ["of"] and i + 2 < n and words[i + 2] in TIME_UNITS:
        start = i - 1 if i > 0 and words[i - 1] == "a" else i
        value = 2.0 if w == "couple" else 3.0
        scope = Scope.NONE if w == "couple" else Scope.HEDGED
        role = _duration_role(s, start, i + 3)
        _add(s, Kind.DURATION, value, start, i + 3, unit=TIME_UNITS[words[i + 2]], scope=scope, role=role)
        return i + 3
    return None


_NEXT_DAY = (("the", "day", "after"), ("the", "morning", "after"), ("next", "morning"), ("the", "next", "morning"),
             ("overnight",))  # fmt: skip
"""Phrases for one day ('delivers the day after we order', 'ships overnight')."""
def _hyphen_measure(words: list[str], k: int) -> bool:
    """'-kilo' at words[k]: a hyphen, then a measure."""
    return words[k : k + 1] == ["-"] and k + 1 < len(words) and words[k + 1] in MEASURES


_NOT_WHOLE = frozenset(["lost", "missed", "losing", "other", "another", "their", "next", "rival"])
"""Words before 'business' or 'shop' that make it no whole-business amount ('in lost business', 'the other shop')."""
_PART = {"half": 0.5, "quarter": 0.25}


def _containers(words: list[str], j: int, value: float) -> tuple[str, float, int]:
    """The container at token j, the count of it ('a case and a half' is 1.5 cases) and the index after."""
    container = CONTAINERS.get(words[j]) or singular(words[j])
    if _and_a_half(words, j):
        return container, value + 0.5, j + 4
    return container, value, j + 1


_SIZE_LINKS = frozenset(["with", "holding", "containing", "carrying"])
"""Words between a count of containers and what each holds ('10 trays with 12', '3 bins holding 50')."""


def _priced(words: list[str], i: int, j: int) -> bool:
    """Whether the number in words[i:j] is money: a currency sign before it or a currency word after it."""
    return (words[i - 1] in CURRENCY_SYMBOLS or words[i] in CURRENCY_SYMBOLS
            or (j < len(words) and (words[j] in CURRENCY_AFTER or words[j] in COINS)))  # fmt: skip


def _size_link(toks: list[_Tok], words: list[str], j: int) -> bool:
    """Whether token j links containers to the items each holds: 'with', 'holding', 'containing' then a count
    that is no duration, money nor percentage ('5 boxes with 2 days to spare' is no size)."""
    if words[j] not in _SIZE_LINKS:
        return False
    inner = _number_at(toks, words, j + 1)
    after = words[inner.j] if inner is not None and inner.j < len(words) else ""
    return inner is not None and after not in TIME_UNITS and after not in CURRENCY_AFTER and after != "%"


def _sized_plural(toks: list[_Tok], words: list[str], j: int) -> bool:
    """Any plural noun sized by 'of' (or a `_size_link`) and a count ('2 shelves of 60', '3 racks holding 25'):
    containers of that many items. Never a word the parse reads otherwise (items, people, periods, measures, money) nor a
    count followed by its own unit ('2 lots of 10 days', '3 rounds of 5 dollars')."""
    w = words[j] if j < len(words) else ""
    if not (len(w) > 3 and w.endswith("s") and toks[j].kind == "word" and j + 1 < len(words)):
        return False
    if words[j + 1] != "of" and not _size_link(toks, words, j + 1):
        return False
    if w in _NOT_SIZED or w in ITEM_WORDS or w in COUNT_UNITS or w in STAFF_WORDS or w in TIME_UNITS:
        return False
    inner = _number_at(toks, words, j + 2) if j + 2 < len(words) else None
    after = words[inner.j] if inner is not None and inner.j < len(words) else ""
    return inner is not None and after not in TIME_UNITS and after not in CURRENCY_AFTER and after != "%"


_NOT_SIZED = frozenset(["lots", "loads", "tons", "heaps", "plenty", "hundreds", "thousands", "dozens", "tens",
                        "people", "others", "customers", "days", "times", "years", "ones", "sorts", "kinds",
                        "types", "sizes", "groups", "teams", "families", "students", "guests"])  # fmt: skip
"""Plural words before 'of N' that are no container of N items ('lots of 10', 'groups of 4 people')."""


def singular(word: str) -> str:
    """'shelves' -> 'shelf', 'racks' -> 'rack', 'boxes' -> 'box', 'lorries' -> 'lorry'."""
    if word.endswith("ves"):
        return word[:-3] + "f"
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    return word[:-1]


def plural(word: str) -> str:
    """'shelf' -> 'shelves', 'lorry' -> 'lorries', 'box' -> 'boxes', 'case' -> 'cases': the inverse of `singular`."""
    if word.endswith("f"):
        return word[:-1] + "ves"
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy", "uy")):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("x", "s", "ch", "sh")) else "s")


def _measure_part(words: list[str], i: int) -> bool:
    """Whether token i is a part of the measure after it ('a quarter kilo', 'half-pound'): a size, no period."""
    k = i + 2 if words[i + 1 : i + 2] == ["-"] else i + 1
    after = words[k] if k < len(words) else ""
    return i < len(words) and words[i] in _PART and (after in MEASURES or after in ("pound", "pounds"))


def _half_more(words: list[str], j: int, value: float) -> tuple[float, int]:
    """'a litre and a half', 'a litre and a quarter': one measure and a part more after its unit (the value and
    the index after)."""
    part = {"half": 0.5, "quarter": 0.25}.get(words[j + 2]) if words[j : j + 2] == ["and", "a"] and j + 2 < len(words) else None
    return (1 + part, j + 3) if value == 1 and part else (value, j)


def _and_a_half(words: list[str], j: int) -> bool:
    """Whether token j is a container said with a half more ('case and a half': 1.5 containers) or a measure with a
    half or a quarter more ('a litre and a quarter')."""
    half = words[j + 1 : j + 4] == ["and", "a", "half"]  # 'a case and a half', 'a litre and a half'
    quarter = words[j + 1 : j + 4] == ["and", "a", "quarter"] and j < len(words) and words[j] in MEASURES
    return j < len(words) and (words[j] in CONTAINERS or words[j] in MEASURES) and (half or quarter)
"""Parts of a measure said before it ('half-kilo', 'quarter-pound')."""
_SAME_DAY = (("same", "day"), ("same", "-", "day"), ("same", "morning"), ("same", "afternoon"), ("same", "evening"))
"""Phrases for no wait ('same-day delivery'): a duration of 0 days."""


def _coin(s: _State, i: int, j: int, value: float, currency: str) -> int:
    per, j2 = _rate(s, j)
    role, whole, _, subject = _role(s, i, j2)
    if subject and not (per or "").startswith(subject):
        per = subject + (f"/{per}" if per else "")
    _add(s, Kind.MONEY, value, i, j2, unit=currency, per=per, role=role, whole_business=whole)
    return j2


def _value_at(s: _State, num: _Num, currency: str) -> int:
    toks, words, n = s.toks, s.words, len(s.toks)
    i, j, value = num.i, num.j, num.value
    start = i
    money_cur: str | None = None
    if (
        i > 0
        and words[i - 1] in ("minus", "negative")
        and not s.taken[i - 1]
        and "plus" not in words[max(0, i - 3) : i - 1]
    ):
        value, start = -value, i - 1  # 'minus three'; 'plus or minus 6', 'plus minus 5' are spreads
    # a currency sign before the number ('$4', '£ 2', 'usd 3')
    if i > 0 and words[i - 1] in CURRENCY_SYMBOLS and not s.taken[i - 1]:
        money_cur, start = CURRENCY_SYMBOLS[words[i - 1]], i - 1
    elif i > 1 and words[i - 1] == "-" and words[i - 2] in CURRENCY_SYMBOLS:
        money_cur, start = CURRENCY_SYMBOLS[words[i - 2]], i - 2
    kind = Kind.QUANTITY
    unit: str | None = None
    container: str | None = None
    multiplier = 1.0
    w = words[j] if j < n else ""
    if (
        w == "-"
        and j + 2 < n
        and (words[j + 1] in MEASURES or words[j + 1] in ("pound", "pounds"))  # '20-pound bags' too
        and (words[j + 2] in CONTAINERS or words[j + 2] in ITEM_WORDS)
        and toks[j - 1].end == toks[j].start == toks[j + 1].start - 1
    ):
        j, w = j + 1, words[j + 1]  # '2-litre bottles': a sized item, as '2 litre bottles'
    elif w == "-" and words[j + 1 : j + 2] and words[j + 1] in TIME_UNITS and toks[j - 1].end == toks[j].start:
        j, w = j + 1, words[j + 1]  # 'the 90-day plan', 'a 3-week wait': a duration, as '90 days'
    elif w in ("more", "extra") and words[j + 1 : j + 2] and words[j + 1] in CONTAINERS:
        j, w = j + 1, words[j + 1]  # 'room for 2 more packs': 2 packs
    w = "pence" if w == "p" and money_cur is None and toks[j - 1].end == toks[j].start else w  # '40p'
    if money_cur is None and w in CURRENCY_AFTER and not _weight_pound(s, i, j):
        cur = CURRENCY_AFTER[w]
        if cur in ("cents", "pence"):
            value, money_cur = round(value / 100, 10), (currency if cur == "cents" else "GBP")
        else:
            money_cur = cur
        j += 1  # then the cents of '2 dollars 50', '2 dollars and 25 cents'
        if words[j : j + 3] == ["and", "a", "half"]:
            value, j = round(value + (0.005 if cur in ("cents", "pence") else 0.5), 10), j + 3  # 'a cent and a half'
        k = j + (1 if j < n and words[j] == "and" else 0)
        after = words[k + 1] if k + 1 < n else ""
        if (
            k < n
            and toks[k].kind == "num"
            and toks[k].text.isdigit()
            and len(toks[k].text) <= 2
            and (after in ("cents", "cent", "") or after in _BOUNDARY)
        ):
            value += int(toks[k].text) / 100
            j = k + 1 + (1 if after in ("cents", "cent") else 0)
    if money_cur is None and w in COINS:
        value, money_cur, j = round(value * COINS[w], 10), currency, j + 1  # '3 dimes'
    if money_cur is not None:
        kind, unit = Kind.MONEY, money_cur
    elif w == "%" or w in ("percent", "pct") or (w == "per" and words[j + 1 : j + 2] == ["cent"]):
        unit, j = "percent", j + (2 if w == "per" else 1)
    elif w in TIME_UNITS:
        kind, unit, j = Kind.DURATION, TIME_UNITS[w], j + 1
        if words[j : j + 3] == ["and", "a", "half"] or words[j : j + 2] == ["and", "half"]:
            value, j = value + 0.5, j + (3 if words[j + 1] == "a" else 2)  # 'one month and half' too
        if value == 0.5 and unit in _HALF_OF:
            unit, value = _HALF_OF[unit]  # 'half a year' is 6 months (180 days), as the toolkit reads it
    elif (after := _compound_item(toks, words, j)) is not None:
        unit, container, j = "item", _pack_name(words, j, after), after  # '10 six-packs'
    elif w in MEASURES or (w == "pounds" or w == "pound"):
        unit, (value, j) = MEASURES.get(w, "lb"), _half_more(words, j + 1, value)  # 'a litre and a half'
        if (noun := _sized_noun(toks, words, j)) is not None and not _for_before(words, i):
            s.found.append(Mention(kind, value, *_span_text(s, start, noun + 1), toks[i].clause, unit=unit,
                                   container=CONTAINERS.get(words[noun]) or ITEM_WORDS.get(words[noun]), role="size"))
            s.taken[start : noun + 1] = [True] * (noun + 1 - start)  # 'the 10 kilo bags': what one bag holds
            return noun + 1
    elif w in CONTAINERS or _sized_plural(toks, words, j):
        container, value, j = _containers(words, j, value)
        # 'six crates of 24', 'cases of a dozen', 'a case of 12 bottles', '10 trays with 12', '3 bins holding 50'
        if j + 1 < n and (words[j] == "of" or _size_link(toks, words, j)):
            inner = _number_at(toks, words, j + 1)
            if inner is not None:
                multiplier, j = inner.value, inner.j
                unit = "item"
                if j < n and (words[j] in ITEM_WORDS or words[j] in CONTAINERS):
                    j += 1
                elif j < n and words[j] in MEASURES:
                    unit, j = MEASURES[words[j]], j + 1
            elif j + 1 < n and (words[j + 1] in ITEM_WORDS or words[j + 1] in MEASURES):
                pass
    elif w in COUNT_UNITS:
        unit, j = COUNT_UNITS[w], j + 1
    elif w in ITEM_WORDS:
        unit, j = "item", j + 1
        container = None if ITEM_WORDS[w] in _GENERIC_ITEMS else ITEM_WORDS[w]
    elif w == "x" and j + 1 < n and toks[j + 1].kind == "num":
        inner = _number_at(toks, words, j + 1)
        if inner is not None:  # '6 x 24'
            multiplier, j, unit = inner.value, inner.j, "item"
    if (size_end := _size_to_one(s, j, value, kind is Kind.QUANTITY and multiplier == 1 and unit in (None, "item")
                                 and (container is None or w in ITEM_WORDS or container in ("bag", "sack")))):
        _add(s, Kind.QUANTITY, 1.0, start, size_end, unit="item", multiplier=value,
             container=CONTAINERS[words[size_end - 1]], role="size")  # fmt: skip
        return size_end
    per, j2 = _rate(s, j)
    if per is None and (unit is not None or container is not None) and j + 1 < n and words[j] == "of":
        k = j + 1
        while k < n and k < j + 3 and toks[k].kind == "word" and words[k] not in _RATE_STARTS:
            k += 1
        per_after, k2 = _rate(s, k)
        if per_after is not None:  # '3 litres of milk a day'
            per, j2 = per_after, k2
    # money without a sign: a price cue just before ('sell it for 11', 'I lose about 7', 'rent is 2000')
    role, whole, near, subject = _role(s, start, j2)
    if kind is Kind.QUANTITY and unit is None and container is None and near:
        kind, unit = Kind.MONEY, currency
    if kind is Kind.MONEY and subject and not (per or "").startswith(subject):
        per = subject + (f"/{per}" if per else "")
    if kind is not Kind.MONEY:
        role = _duration_role(s, start, j2) if kind is Kind.DURATION else None
        whole = False
    text, span = _span_text(s, start, j2)
    mention = Mention(
        kind, value, text, span, toks[i].clause, unit=unit, per=per, multiplier=multiplier, container=container,
        whole_business=whole, role=role,
    )  # fmt: skip
    s.found.append(mention)
    for k in range(start, j2):
        s.taken[k] = True
    return j2


_KEEPS_FOR = frozenset(
    (w, "for") for w in ("good", "fine", "keep", "keeps", "kept", "fresh", "usable", "sellable", "ok", "okay")
)
"""Two words before a span that make it how long stock keeps ('good for 2 days', 'fresh for a week')."""


def _duration_role(s: _State, i: int, j: int) -> str | None:
    """What a duration is, from the words around it in its clause: 'shelf_life' ('they last about a week in the
    fridge'), 'lead_time' ('delivery takes 3 days'), 'interval' ('every 2 weeks'), or None."""
    words, toks = s.words, s.toks
    clause = toks[i].clause
    if i > 0 and words[i - 1] in ("every", "each"):
        return "interval"
    h = i - 1 if i > 0 and words[i - 1] in ("about", "around", "roughly", "maybe", "like", "approximately") else i
    if h > 0 and words[h - 1] in _OPEN_WORDS:
        return "open"  # "we're open 7 days a week", 'trading 6 days': the business's days, no span to plan or wait
    if words[j : j + 2] in (["before", "that"], ["before", "then"]) or words[j : j + 1] == ["ago"]:
        return "past"  # "it's pressed maybe 2 days before that": when something else happened, no wait
    if tuple(words[max(0, h - 2) : h]) in _KEEPS_FOR or (h > 0 and words[h - 1] in ("keep", "kept")):
        return "shelf_life"  # "it's only good for 2 days", 'good for about 10 days' (not 'a good 3 days')
    found: tuple[int, str] | None = None  # (distance, role): the nearest cue wins
    for k in range(max(0, i - 8), min(len(words), j + 5)):
        s.ops += 1
        role = "customer_wait" if _people_wait(words, k) else DURATION_ROLE_WORDS.get(words[k])
        if role is not None and not i <= k < j and toks[k].clause == clause:
            distance = i - k if k < i else k - j + 1
            if found is None or distance < found[0]:
                found = (distance, role)
    return found[1] if found else None


_OPEN_WORDS = frozenset(["open", "opened", "opening", "trade", "trading", "operate", "operating"])


def _people_wait(words: list[str], k: int) -> bool:
    """'the contractors usually wait a day or two', 'customers will hang on a week': a wait verb at k with people
    (`WAITING_PEOPLE`) as its subject a few words before: the span is how long a customer waits."""
    return words[k] in CUSTOMER_WAIT_VERBS and any(w in WAITING_PEOPLE for w in words[max(0, k - 3) : k])


_HALF_OF = {unit: (smaller, float(amount)) for unit, (smaller, amount) in units._HALF_OF.items()}
_GENERIC_ITEMS = frozenset(["unit", "item", "piece"])


def _size_to_one(s: _State, j: int, value: float, countable: bool) -> int | None:
    """The end of '... to a crate' / '... in each box' after a count at `j` ('24 cans to a crate', '12 to a
    case', '5 reams in each box', an unknown noun allowed between); after an item word also '... on a tray', '...
    a bucket', '... per box' ('12 loaves on a tray', '10 stems a bucket'): the count is that container's size;
    else None."""
    words, n = s.words, len(s.toks)
    if not countable or j >= n:
        return None
    named = words[j - 1] in ITEM_WORDS or words[j - 1] in CONTAINERS  # '24 bottles per crate'; '12 a case': money?
    if words[j] not in _SIZE_PREPS and j + 1 < n and s.toks[j].kind == "word" and words[j] not in _NOT_NOUN:
        j, named = j + 1, words[j] not in ROLE_WORDS  # '5 reams to a box': an item word the vocabulary lacks
    named = named and value >= 2 and value == int(value)  # never '2.50 lost per bag', money lost
    if j + 1 < n and words[j] == "in" and words[j + 1] in CONTAINERS and not _plural(words[j + 1]) and j + 2 == n:
        return j + 2  # '24 patty in box': the article left out, at the end of the message
    if named and j + 1 < n and words[j] in _PER_ONE and _one_container(words[j + 1]):
        return j + 2  # '10 stems a bucket', '20 jars per box'
    ok = (
        j + 2 < n
        and (words[j] in ("to", "in") or named)  # 'a dollar twenty on a box' is money
        and (words[j + 1] in _ONE_CONTAINER or words[j : j + 2] == ["to", "the"])  # '5 reams to the box'
        and _one_container(words[j + 2])
        and not (words[j] != "to" and CONTAINERS[words[j + 2]] == "row")  # '3 times in a row'
    )
    return j + 3 if ok else None


def _one_container(word: str) -> bool:
    """'crate', 'box': one container, never 'crates'."""
    return word in CONTAINERS and not _plural(word)


_SIZE_PREPS = frozenset(["to", "in", "on"])
_PER_ONE = frozenset(["a", "an", "per"])
_NOT_NOUN = frozenset(["a", "an", "the", "per", "each", "every", "times", "or", "and", "of", "more", "less", "for", "at", "from",
                       "by"])  # "I pay 28 for a bag": a price, no size
_ONE_CONTAINER = frozenset(["a", "an", "each", "every"])
"""'to a crate', 'in each box': one container, whose size the number before it is."""
"""'80 units' are items with no container word; '24 bottles' keep 'bottle'."""


def _weight_pound(s: _State, i: int, j: int) -> bool:
    """'5 pounds of flour' is a weight; 'costs 5 pounds' money."""
    if s.words[j] not in ("pound", "pounds"):
        return False
    if j + 1 < len(s.words) and s.words[j + 1] == "of":
        return True
    window = s.words[max(0, i - 5) : i]
    if any(w in ROLE_WORDS or w in ("charge", "charges") for w in s.words[j + 1 : j + 3]):
        return False  # '30 pound delivery charge per order': money
    return not any(w in ROLE_WORDS or w in ("cost", "costs", "pay", "paid", "price", "for") for w in window)


_TO_US = (["us"], ["me"])


def _sold_to_us(words: list[str], k: int) -> bool:
    """A sale word whose buyer is the speaker ('the bakery charges us 1.10 each', 'they sell them to me for 2'):
    what the speaker pays, a purchase price, never the speaker's own sale price."""
    if ROLE_WORDS.get(words[k]) != "sale_price":
        return False
    return words[k + 1 : k + 2] in _TO_US or words[k + 2 : k + 4] in (["to", "us"], ["to", "me"])


def _role(s: _State, i: int, j: int) -> tuple[str | None, bool, bool, str | None]:
    """The money role from the words just before the value (within its clause, back to the previous value) and
    right after it ('2000 a month rent'); whether it is money for the whole business; whether a role cue is
    near enough to make a bare number money ('sell it for 11'); what one price is for: 'unit' ('a tube costs
    me 4', 'each one costs 3') or a container ('a pack of 6 costs $3' -> 'pack')."""
    words, toks = s.words, s.toks
    clause = toks[i].clause
    role: str | None = None
    whole = near = False
    subject: str | None = None
    k = i - 1
    steps = 0
    while k >= 0 and steps < 8 and toks[k].clause == clause:
        s.ops += 1
        if s.taken[k]:
            last = s.found[-1] if s.found else None
            if (
                last is not None
                and last.span[0] <= toks[k].start < last.span[1]
                and last.kind is Kind.QUANTITY
                and last.container
                and last.value == 1
                and last.container not in ITEM_WORDS.values()
            ):
                subject = last.container
            break
        w = words[k]
        if w in (".", ";", "?", "!"):
            break
        if w in WHOLE_BUSINESS_WORDS and words[k - 1] not in _NOT_WHOLE and not _credit(words, k):
            whole = True  # not 'lost business', 'the other shop', 'store credit'
        to_us = _sold_to_us(words, k)
        r = "purchase_price" if to_us else _role_word(words, k)
        if r is not None and (role is None or _PRIORITY.get(r, 0) > _PRIORITY.get(role, 0)):
            role = r
        priced = _for_before(words, i) or re.fullmatch(r"\d+\.\d\d", toks[i].text) is not None  # 'sell them 7.50'
        if r is not None and steps < (6 if to_us else 4) and (w not in NEEDS_FOR or priced):
            near = True
        if (
            (w in ITEM_WORDS or w in ("one", "each", "apiece"))
            and k > 0
            and (words[k - 1] in ("a", "an", "each", "per", "one", "every") or w in ("each", "apiece"))
        ):
            subject = subject or "unit"
        steps += 1
        k -= 1
    k, steps = j, 0
    while k < len(words) and steps < 4 and toks[k].clause == clause and words[k] not in _BOUNDARY:
        s.ops += 1
        w = words[k]
        if toks[k].kind == "num":
            break
        if w in WHOLE_BUSINESS_WORDS and words[k - 1] not in _NOT_WHOLE and not _credit(words, k):
            whole = True  # not 'lost business', 'the other shop', 'store credit'
        r = _role_word(words, k)
        if steps == 0 and w in ("retail", "wholesale") and role is None:
            role, near = r, True  # "they're 18 retail": the sale price; '9 wholesale': what the speaker pays
        if (
            r is not None
            and r in WHOLE_BUSINESS_ROLES | {"holding", "fee", "penalty"}
            and (role is None or _PRIORITY.get(r, 0) >= _PRIORITY.get(role, 0))
        ):
            role, near = r, True
        steps += 1
        k += 1
    if role in WHOLE_BUSINESS_ROLES:
        whole = True
    return role, whole, near, subject


def _credit(words: list[str], k: int) -> bool:
    """Whether word k is part of 'store credit' / 'shop credit' (what a waiting customer is given)."""
    return (words[k] in ("store", "shop") and words[k + 1 : k + 2] == ["credit"]) or (
        words[k] == "credit" and words[k - 1 : k] in (["store"], ["shop"])
    )


def _role_word(words: list[str], k: int) -> str | None:
    """The money role word k gives ('storage' holding, 'freight' a fee); 'store credit' given to a customer is
    what a shortage costs, never storage; 'make it cost' gives none."""
    if words[k] in ("make", "makes") and words[k + 1 : k + 3] in (["it", "cost"], ["it", "costs"], ["them", "cost"]):
        return None  # 'make it cost me 7': what it costs, not a margin made
    return "penalty" if _credit(words, k) else ROLE_WORDS.get(words[k])


def _for_before(words: list[str], i: int) -> bool:
    """'sell it for 11', 'buy them at 4': the preposition that makes a number after 'sell' a price ('I sell 20 a
    day' is a count)."""
    k = i - 1
    while k >= 0 and words[k] in HEDGE_BEFORE | {"just", "only", "about"}:
        k -= 1
    return k >= 0 and words[k] in ("for", "at")


_PRIORITY = {"rent": 3, "wages": 3, "utilities": 3, "fee": 2, "holding": 2, "penalty": 2, "loss": 2,
             "margin": 2, "purchase_price": 1, "sale_price": 1, "price": 0}  # fmt: skip


def _names(s: _State, names: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
    """Known names through their aliases; an unknown capitalised entity ('Roosevelt High') with candidates."""
    aliases: dict[str, str] = {}
    for c, al in names:
        aliases[c.lower()] = c
        for a in al:
            aliases.setdefault(a.lower(), c)
    if aliases:
        index = EntityIndex(aliases)
        s.ops += len(s.text) * 2
        ti = 0
        for hit in index.mentions(s.text):
            while ti < len(s.toks) and s.toks[ti].end <= hit.start:
                ti += 1
            tj = ti
            while tj < len(s.toks) and s.toks[tj].start < hit.end:
                tj += 1
            if ti < len(s.toks) and tj > ti and not any(s.taken[ti:tj]):
                _add(s, Kind.NAME, hit.entity, ti, tj, role=None)
    # unknown entities: capitalised words ending in an entity head ('Roosevelt High', 'Oak Park Elementary')
    toks = s.toks
    i = 0
    while i < len(toks):
        s.ops += 1
        if toks[i].low in ENTITY_HEADS and not s.taken[i] and toks[i].text[:1].isupper():
            k = i
            while (
                k > 0
                and i - k < 4
                and toks[k - 1].kind == "word"
                and toks[k - 1].text[:1].isupper()
                and (not s.taken[k - 1] and toks[k - 1].low not in ENTITY_HEADS | _NOT_NAME_WORDS)
            ):
                k -= 1
            j = i + 1
            while j < len(toks) and j - i < 2 and toks[j].low in ENTITY_HEADS and toks[j].text[:1].isupper():
                j += 1
            if k < i:
                text, _ = _span_text(s, k, j)
                stem = " ".join(t.text for t in toks[k:j] if t.low not in ENTITY_HEADS)
                s.ops += len(aliases) + 1
                _add(s, Kind.NAME, "", k, j, role="unknown", candidates=_closest(text, stem, aliases))
                i = j
                continue
        i += 1
    if not aliases:
        return
    # a misspelt district name ('Lowel', 'Everet'): a capitalised word close to one alias
    for k, t in enumerate(toks):
        if t.kind == "word" and t.text[:1].isupper() and len(t.text) >= 5 and not s.taken[k]:
            s.ops += len(aliases)
            if t.low in _NOT_NAME_WORDS or t.low in ENTITY_HEADS:
                continue
            close = index.fuzzy(t.low)
            if close:
                _add(s, Kind.NAME, "", k, k + 1, role="unknown", candidates=close)
    _start_subjects(s, aliases)


def _start_subjects(s: _State, aliases: Mapping[str, str]) -> None:
    """A capitalised word the district does not know as what a request moves ('Can Roosevelt start later?',
    'Mission should begin at 9:30', 'move Lincoln later'): an unknown school without a head word (role
    `unknown_subject`)."""
    toks, words = s.toks, s.words
    for k in range(len(toks)):
        t = toks[k]
        s.ops += 1
        if t.kind != "word" or not t.text[:1].isupper() or len(t.text) < 3 or s.taken[k]:
            continue
        if t.low in _NOT_NAME_WORDS or t.low in ENTITY_HEADS:
            continue
        after, before = words[k + 1 : k + 3], (words[k - 1] if k else "")
        starts = bool(after) and (after[0] in _START_VERBS or (after[0] in _MODALS and after[1:2] != []
                                                                 and after[1] in _START_VERBS))
        moved = before in _MOVERS and bool(after) and after[0] in ("later", "earlier", "to", "at")
        passive = before in _MODALS and after[:1] == ["be"] and words[k + 2 : k + 3] in (["moved"], ["pushed"], ["shifted"])
        leads = (not k or before in _LEADS) and after[:1] in (["should"], ["must"], ["needs"], ["has"]) and (
            after[1:2] != [] and after[1] in _START_VERBS | _STAY_VERBS | {"to", "go"}
        )  # 'And Lowell should stay where it is', 'Lowell needs to start later', 'Lowell should go later'
        kept = before in ("keep", "leave") and after[:1] in (["at"], ["where"], ["as"])  # 'Keep Lowell at ...'
        if (starts and before in _MODALS) or moved or passive or leads or kept:  # 'Can Lowell be moved to 8:40?'
            _add(s, Kind.NAME, "", k, k + 1, role="unknown_subject", candidates=_closest(t.text, t.text, aliases))


_START_VERBS = frozenset(["start", "starts", "begin", "begins", "open", "opens"])
_STAY_VERBS = frozenset(["stay", "remain", "keep", "move", "be"])
_LEADS = frozenset(["and", "but", "also", "so", "then", ",", ".", "plus"])
_MODALS = frozenset(["can", "could", "would", "will", "should", "must", "may", "might"])
_MOVERS = frozenset(["move", "put", "push", "shift", "set"])


def _closest(text: str, stem: str, aliases: Mapping[str, str], limit: int = 3) -> tuple[str, ...]:
    """The canonical names closest to an unknown name (rapidfuzz over every alias, the whole name and its words
    before the head word: 'Rooseveldt High' -> 'Roosevelt Elementary'), best first."""
    if not aliases:
        return ()
    best: dict[str, float] = {}
    for query in dict.fromkeys(q for q in (text, stem) if q):
        for alias, score, _ in process.extract(
            query, list(aliases), scorer=fuzz.WRatio, processor=default_process, limit=None, score_cutoff=70
        ):
            canon = aliases[alias]
            best[canon] = max(best.get(canon, 0.0), score)
    return tuple(sorted(best, key=lambda c: -best[c])[:limit])


_NOT_NAME_WORDS = frozenset(["the", "a", "an", "can", "could", "should", "is", "are", "i", "my", "our", "and",
                             "no", "every", "all", "put", "move", "make", "let", "what", "why", "how"])  # fmt: skip


def _answers(s: _State, clause_list: list[Clause]) -> None:
    """yes / no / unsure and a choice letter or ordinal in the message's first clause."""
    if not clause_list or not s.toks:
        return
    first = clause_list[0].text
    s.ops += len(first) * 4
    pol = answers.polarity(first)
    lead = [k for k, t in enumerate(s.toks) if t.clause == 0 and t.kind == "word"][:4]
    lead_words = [s.words[k] for k in lead]
    accept = next(
        (n for n in (3, 2, 1) if n <= len(lead_words) and " ".join(lead_words[:n]) in ACCEPT_WORDS), 0
    )
    if accept and not _reply_ends(s, lead[accept - 1] + 1):
        accept = 0
    if accept:
        _add(s, Kind.ANSWER, "yes", lead[0], lead[accept - 1] + 1, role="accept")
    elif pol is not None and lead:
        value = {answers.Polarity.YES: "yes", answers.Polarity.NO: "no"}.get(pol, "unsure")
        k = lead[0]
        if pol is answers.Polarity.UNSURE:
            if not any(t.kind == "num" for t in s.toks if t.clause == 0):
                _add_unsure(s)
        elif not s.taken[k] and (s.words[k] in _CLEAR_REPLIES or _reply_ends(s, k + 1)):
            _add(s, Kind.ANSWER, value, k, k + 1, role="accept" if value == "yes" else None)
    skip = answers._SKIP_RE.search(s.text)
    s.ops += len(s.text)
    if skip is not None:  # 'skip', 'use a default', 'up to you': an ANSWER 'skip'
        k = _index([t.start for t in s.toks], skip.start())
        e = _index([t.start for t in s.toks], skip.end() - 1) + 1
        if k < e and not any(s.taken[k:e]):
            _add(s, Kind.ANSWER, "skip", k, e, role="skip")
    words_in_message = sum(1 for t in s.toks if t.kind != "sym")
    choice_cue = (
        any(w in ("option", "choice") for w in s.words)
        or any(t.kind == "word" and t.text in ("B", "C", "D", "E") for t in s.toks)
    )  # a longer reply picks only with 'option' / 'choice' or a capital letter other than 'A' ('A tube costs')
    if (words_in_message <= 4 or choice_cue) and not clause_list[0].question:
        s.ops += len(s.text) * 2
        picked = answers.choose(s.text, _LETTERS)
        if picked is not None:
            letter = _LETTERS[picked]
            k = next(
                (k for k, t in enumerate(s.toks) if t.low == letter.lower() and not s.taken[k]),
                next((k for k, t in enumerate(s.toks) if t.kind == "word" and not s.taken[k]), None),
            )
            after = s.toks[k + 1] if k is not None and k + 1 < len(s.toks) else None
            if k is not None and s.toks[k].text == "a" and after is not None and after.kind != "sym":
                k = None if after.low not in _AFTER_REPLY else k  # 'take a 5': an article, not option A
            if k is not None:
                j = k + 1
                while j < len(s.toks) and s.toks[j].text == ")":
                    j += 1
                if k > 0 and s.toks[k - 1].text == "(":
                    k -= 1
                if k > 0 and s.words[k - 1] in ("option", "choice"):
                    k -= 1
                if (
                    s.toks[k].low != letter.lower()
                    and s.toks[k].text != "("
                    and s.words[k] not in ("option", "choice")
                ):
                    k, j = lead[0] if lead else k, (lead[-1] + 1) if lead else j  # an ordinal: the lead words
                _add(s, Kind.ANSWER, letter, k, j, role="choice")


_LETTERS = ("A", "B", "C", "D", "E")


_CLEAR_REPLIES = frozenset(["yes", "yeah", "yep", "yup", "ok", "okay", "nope", "nah", "yea"])
_AFTER_REPLY = frozenset(["please", "thanks", "thank", "i", "we", "it", "that", "so", "then", "let's", "lets", "go",
                          "do", "sorry", "wait", "not", "way", "problem", "worries", "thats", "that's"])  # fmt: skip


def _reply_ends(s: _State, k: int) -> bool:
    """Whether a yes / no / accept word at the start is a reply ('No, 8:40', 'good, thanks', 'no I meant 7'),
    not the start of a sentence ('no middle school before 8:30', 'right now I have 5')."""
    return (
        k >= len(s.toks)
        or s.words[k] in _BOUNDARY
        or s.words[k] in _AFTER_REPLY
        or s.words[k] in ACCEPT_WORDS
    )


_UNSURE_WORDS = frozenset(["maybe", "perhaps", "unsure", "dunno", "guess", "probably", "possibly", "sure"])


def _add_unsure(s: _State) -> None:
    """The ANSWER 'unsure' on the hedge word itself ('couple cents each maybe': 'maybe'), else on the first word,
    so an amount said without digits stays free for the value readers."""
    free = [k for k, t in enumerate(s.toks) if t.kind == "word" and not s.taken[k] and t.clause == 0]
    k = next((k for k in free if s.words[k] in _UNSURE_WORDS), free[0] if free else None)
    if k is not None:
        _add(s, Kind.ANSWER, "unsure", k, k + 1, scope=Scope.HEDGED)


# ---------------------------------------------------------------------------------------------- scopes


def _scopes(s: _State, clause_list: list[Clause]) -> list[Mention]:
    """Each mention with its scope: negation (the toolkit's scopes), corrections, hypotheses, questions,
    definitions, other speakers, hedges."""
    text, toks, words = s.text, s.toks, s.words
    neg = s.denied
    s.ops += len(text) * 4
    # per-token sub-clause segments: punctuation and joining words end a scope
    seg, segs = 0, []
    for t in toks:
        if t.low in _BOUNDARY or t.low in _JOINERS:
            seg += 1
        segs.append(seg)
        s.ops += 1
    # cues that scope the rest of their segment: hypothetical, others, clause-wide hedges
    flags = [0] * len(toks)  # Scope bits as ints: one Flag per mention at the end
    active = 0
    current = -1
    subjects = 0
    for k, t in enumerate(toks):
        s.ops += 1
        if segs[k] != current:
            current, active = segs[k], 0
        w = t.low
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if cue := _if_cue(words, k):
            active |= cue
            subjects = 0
        elif w in _SUBJECTS and active & _HYPOTHETICAL:
            subjects += 1
            if subjects == 2:  # 'if we run out it costs us 3': the second subject starts the consequent
                active &= ~_HYPOTHETICAL
        if w in OTHERS_VERBS and k > 0 and _other_subject(words, k):
            active |= _OTHERS
        if w == "according" and nxt == "to":
            active |= _OTHERS
        if w in HEDGE_CLAUSE or (w in _HEDGE_HEADS and " ".join(words[k : k + 2]) in HEDGE_CLAUSE):
            active |= _HEDGED
        if w in ("think", "guess", "suppose", "reckon", "believe") and k > 0 and words[k - 1] in ("i", "we"):
            active |= _HEDGED
        flags[k] = active
    where = _Pos(toks)
    clause_scopes = [  # once per clause: a definition request, a question (not a polite request), a '?'
        (c.definition is not None, c.question and not _request(c.text), c.text.rstrip().endswith("?"))
        for c in clause_list
    ]
    s.ops += len(text)
    out: list[Mention] = []
    ordered = sorted(s.found, key=lambda m: m.span)
    corrected, following = _corrections(s, ordered, where)
    ni = 0
    for idx, m in enumerate(ordered):
        s.ops += 1
        scope = m.scope.value
        k = where.at(m.span[0])
        while ni < len(neg) and neg[ni].end < m.span[0]:
            ni += 1
        if (
            m.kind is not Kind.ANSWER
            and (
                any(_denies(sc, m.span[0], where, words) for sc in neg[ni : ni + 3])
                or _kept_off(s, k, where.end(m.span[1]))
            )
            and not any(w in _COMPARISONS for w in words[max(0, k - 2) : k])
        ):
            scope |= _NEGATED  # 'not before 8:30', 'no more than 5': a bound, read with the clause
        if idx in corrected:
            scope |= _CORRECTED
        if k < len(flags):
            scope |= flags[k]
        c = clause_scopes[m.clause] if m.clause < len(clause_scopes) else None
        if c is not None and m.kind not in (Kind.ANSWER, Kind.NAME):
            definition, asks, marked = c
            if definition:
                scope |= _DEFINITION
            elif asks and not _proposal(words, k):
                scope |= _QUESTION
            elif marked:
                scope |= _HEDGED
        before = words[max(0, k - 3) : k]
        if (
            any(w in HEDGE_BEFORE for w in before)
            or " ".join(before[-2:]) in HEDGE_BEFORE
            or before[-1:] in (["like"], ["say"])
        ):
            scope |= _HEDGED
        e = where.end(m.span[1])
        after = words[e : e + 3]
        if after and (
            after[0] in HEDGE_AFTER or " ".join(after[:2]) in HEDGE_AFTER or " ".join(after) in HEDGE_AFTER
        ):
            scope |= _HEDGED
        if m.text.lower().endswith("ish") or (e < len(toks) and toks[e].low == "ish"):
            scope |= _HEDGED
        out.append(replace(m, scope=Scope(scope)) if scope != m.scope.value else m)
    for a in sorted(corrected):
        out[following[a]] = _carry(_finest(out, a, corrected), out[following[a]])
    for a in range(len(out) - 1):  # '3-5 days', '3 to 5 days', 'between 3 and 5 days': both ends in days
        x, y = out[a], out[a + 1]
        if x.kind is Kind.QUANTITY and x.unit is None and x.container is None and (y.unit or y.container):
            e, b = where.end(x.span[1]), where.at(y.span[0])
            if words[e:b] in (["-"], ["to"], ["or"], ["and"]) and (
                words[e] != "and"
                or words[e - 2 : e - 1] == ["between"]
                or (where.at(x.span[0]) > 0 and words[where.at(x.span[0]) - 1] == "between")
            ):
                out[a] = replace(_carry(y, x), per=x.per or y.per) if y.unit else _range_container(y, x)
    for a, m in enumerate(out[:-1]):  # 'not 3 days, it's 5': a negated value's unit carries the same way
        if m.scope & Scope.NEGATED and not out[a + 1].scope & Scope.NEGATED and a not in corrected:
            out[a + 1] = _carry(m, out[a + 1])
    return out


_REQUEST_RE = re.compile(
    r"^\W*(?:(?:can|could|would|will|may|shall)\b(?!\s+(?:you\s+)?(?:explain|tell)\b)|please\b"
    r"|(?:\w+\W+)?is\s+it\s+(?:ok|okay|alright|all\s+right|fine)\s+if\s+(?:i|we)\b)",
    re.I,
)


def _if_cue(words: list[str], k: int) -> int:
    """The scope a hypothetical cue at word k opens: 'if it were 10', 'what if', 'suppose' (hypothetical); 'is it
    okay if I say 20 cases?' (the speaker's own figure, hedged); none for 'if you can plan ...' (asked politely)."""
    w, nxt, then = words[k], words[k + 1 : k + 2], words[k + 2 : k + 3]
    if w == "if" and nxt in (["i"], ["we"]) and then in (["say"], ["put"], ["go"]):
        return _HEDGED
    if w == "if" and nxt in (["you"], ["u"]) and then in (["can"], ["could"]):
        return 0
    return _HYPOTHETICAL if w in HYPOTHETICAL_CUES or (w == "what" and nxt == ["if"]) else 0


def _request(clause: str) -> bool:
    """'Can Everett start at 8:40?', 'could we do 10?', 'is it okay if I say 20 cases?': a polite request or
    proposal, whose values are meant (hedged by the '?'), not asked about."""
    return bool(_REQUEST_RE.match(clause))


def _kept_off(s: _State, k: int, e: int) -> bool:
    """Exclusions the toolkit's negation leaves: 'no 9:30 start' (a 'no' before a value and its noun), 'keep X
    off / out of / away from the 7:50 slot', '7:50 is off the table'."""
    words = s.words
    j = k - 1
    while j >= 0 and words[j] in _EXCLUDE_FILLERS and k - j <= 3:
        j -= 1
    if j >= 0 and words[j] == "no" and e < len(words) and s.toks[e].kind == "word":
        return words[e] not in ("please", "thanks", "thank")
    if j >= 0 and (
        words[j] in ("off", "away")
        or words[j - 1 : j + 1] == ["out", "of"]
        or (words[j] == "from" and words[j - 1 : j] == ["away"])
    ):
        return any(w in _KEEP_VERBS for w in words[max(0, j - 5) : j])
    tail = " ".join(words[e : e + 5])
    return any(tail.startswith(p) for p in _EXCLUDED_AFTER)


_EXCLUDE_FILLERS = frozenset(
    ["the", "a", "an", "early", "earlier", "late", "later", "from", "very", "really"]
)
_KEEP_VERBS = frozenset(["keep", "keeps", "stay", "stays", "take", "move", "get", "leave"])
_EXCLUDED_AFTER = (", is off", "is off", "is out", ", is out", "is a no", "won't work", "doesn't work", "is not an option",
                   ", is not an option", "is out of the question", "is not possible")  # fmt: skip


def _denies(scope: negation.Scope, pos: int, where: _Pos, words: list[str]) -> bool:
    """Whether a negation covers the value at `pos`; an exclusion ('instead of 8:40', 'except Lick') only its
    next few words, not the rest of the clause ('every school except Lick at 9': 9 is meant); a negated verb
    not the predicate that states the value ('every shopper we can't serve costs us $3': $3 is meant)."""
    if not scope.covers(pos):
        return False
    cue, k = where.at(scope.start), where.at(pos)  # the cue's token, the value's
    if scope.exclusion:
        return k - cue <= 2
    if k - cue > 2 and _restating(words, k):  # 'they don't come back - call it 8': 8 restates a figure
        return False
    return not any(w in _PREDICATES for w in words[cue + 2 : k])  # after the negated word itself


def _proposal(words: list[str], k: int) -> bool:
    """'how about 5?', 'what about 8:40?', 'why not 40?' propose a value, they do not ask about it."""
    window = words[max(0, k - 3) : k]
    return any(
        " ".join(window[a : a + 2]) in ("how about", "what about", "why not") for a in range(len(window) - 1)
    ) or (window[-2:] in (["or", "maybe"],))


def _other_subject(words: list[str], k: int) -> bool:
    """Whether the speaker of the verb at k is someone else ('my partner thinks', 'the supplier says')."""
    window = words[max(0, k - 3) : k]
    if not window or window[-1] in ("i", "we", "you", "u"):
        return False
    return any(w in OTHERS_SUBJECTS for w in window)


_COMPARISONS = frozenset(["before", "after", "earlier", "later", "than", "under", "over", "below", "above",
                          "until", "till", "past", "beyond", "exceed", "least", "most"])  # fmt: skip
_PREDICATES = frozenset(["is", "are", "was", "were", "it's", "that's", "thats", "costs", "cost", "loses", "lose",
                         "lost", "means", "runs", "comes", "equals", "takes", "adds", "sets", "leaves", "gone"])  # fmt: skip
"""A second predicate after a negated verb states the value ('we can't fill costs us $8', 'can't get is 6 gone')."""
_SUBJECTS = frozenset(["i", "we", "it", "they", "you", "he", "she", "someone", "somebody", "that", "i'd", "we'd",
                       "it'd", "thatd", "that'd", "we'll", "i'll", "it'll", "they'd", "they're", "theyre", "it's",
                       "we're", "they'll"])  # fmt: skip
_HEDGE_HEADS = frozenset(h.split()[0] for h in HEDGE_CLAUSE)


class _Pos:
    """Token index of a character position: a dict lookup for a token's own start or end (every mention starts
    and ends on a token), else a binary search."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.starts = [t.start for t in toks]
        self.first = {t.start: k for k, t in enumerate(toks)}
        self.after = {t.end: k + 1 for k, t in enumerate(toks)}

    def at(self, pos: int) -> int:
        """The token that holds `pos`."""
        k = self.first.get(pos)
        return k if k is not None else _index(self.starts, pos)

    def end(self, pos: int) -> int:
        """The token after the one that ends at `pos` (a span's end)."""
        k = self.after.get(pos)
        return k if k is not None else _index(self.starts, pos - 1) + 1


def _index(starts: list[int], pos: int) -> int:
    return max(0, bisect_right(starts, pos) - 1)


def restates(x: Mention, y: Mention) -> bool:
    """Two values of one kind, money then a bare number ('charges 10 a delivery, no, 12'), or a bare rate then
    money ('says 10 for delivery but really they charge me $12'; never a count: 'makes 40 scoops, but really I
    lose 25'): y restates x."""
    if x.kind is y.kind:
        return True
    if x.kind in (Kind.MONEY, Kind.DURATION) and y.kind is Kind.QUANTITY:  # 'sometimes 10 days, call it 8'
        return not (y.unit or y.container)
    return x.kind is Kind.QUANTITY and y.kind is Kind.MONEY and bool(x.per) and not (x.unit or x.container)


_same_kind = restates


def _corrections(s: _State, ordered: list[Mention], where: _Pos) -> tuple[set[int], dict[int, int]]:
    """`_corrected` over the mentions that carry a value (a date between them is passed over: '..., no wait, they
    raised it in March, 35'), and for each corrected index the index of the figure that replaces it."""
    valued = [k for k, m in enumerate(ordered) if m.kind is not Kind.DATE]
    corrected = {valued[a] for a in _corrected(s, [ordered[k] for k in valued], where)}
    return corrected, dict(zip(valued, valued[1:], strict=False))


def _corrected(s: _State, ordered: list[Mention], where: _Pos) -> set[int]:
    """Indices of mentions superseded by the next one: 'X, wait no, Y', 'X sorry Y', 'X I mean Y', 'make that
    Y', '2 weeks lead time, no wait, 10 days' (cue words right before a Y of the same kind); 'says X but
    really Y'; 'used to be X, now Y'."""
    words = s.words
    out: set[int] = set()
    for a in range(len(ordered) - 1):
        x, y = ordered[a], ordered[a + 1]
        if x.kind is Kind.ANSWER or y.kind is Kind.ANSWER or x.kind is Kind.NAME:
            continue
        if not _compatible(x, y):
            continue
        e = where.end(x.span[1])
        b = where.at(y.span[0])
        between = words[e:b]
        s.ops += len(between) + 1
        reach = 16 if _restating(words, b) and _same_kind(x, y) else 12  # '..., it's more like 21 a week now'
        if sum(w not in _BOUNDARY for w in between) > reach:  # 'the shelf... no, that's too much': dots are no words
            continue
        core = [w for w in between if w not in CORRECTION_FILLERS and w not in _BOUNDARY and w != "-"]
        cues = [w for w in between if w in CORRECTION_CUES]
        if (cues and not core) or _second_thought(between, core) or (cues and _changed_to(between, core)):
            out.add(a)  # '40 bucks, no wait, they went up to 45 in January'
            continue
        if between[-1:] == ["now"] and _OUTDATED & set(between) and _same_kind(x, y):
            out.add(a)  # '..., 2 week is old. now 4 days'
            continue
        if _taken_back_at_once(between) and _same_kind(x, y) and x.unit == y.unit and x.per == y.per:
            out.add(a)  # '100 kilos a day... wait no, that's all brands. for this one it's about 60 kg a day'
            continue
        tail: list[str] = []
        for w in reversed(between):
            if w not in CORRECTION_FILLERS and w not in _BOUNDARY and w != "-":
                break
            tail.append(w)
        if _same_kind(x, y) and any(w in CORRECTION_CUES for w in tail) and any(w in _BOUNDARY for w in tail):
            out.add(a)
            continue
        if _same_kind(x, y) and (_restating(words, b) or _judged(between)) and _paused(between):
            out |= {a, *_varied_before(ordered, a, where, words)}
            continue
        if _concluded(words, b) and x.kind is y.kind is Kind.QUANTITY and (
            _measure_to_count(x, y) or (y.period == "day" and x.period != "day" and not x.container and not x.unit)
        ):
            out.add(a)  # 'about 45 kg a day, so 3 bags', '360 last month, so what, 12 a day?': the owner's figure
            continue
        if _concluded(words, b) and (summed := _summed_before(ordered, a, where, words, between)):
            out |= summed  # '2 days to cure, plus a day to label them, so 3': the total is the figure
            continue
        after = where.end(y.span[1])
        if _same_kind(x, y) and _paused(between) and not _concluded(words, b) and (
            _after_one(words, after) in ("really", "actually", "honestly", "tbh") or words[after : after + 3] in _HONEST
        ):
            out.add(a)  # 'in about a week after I call, well, 5 days really', '30 bags, well 25 if I'm honest'
            continue
        joined = f" {' '.join(between)} "
        near = f" {' '.join(between[-3:])} "  # "but it's random, some days 2": 'it's' must lead to the new figure
        if "but" in between and any(f" {c} " in (near if c in ("it's", "its", "now") else joined) for c in REALLY_CUES):
            out.add(a)
            continue
        if "but" in between and "supposed" in words[max(0, where.at(x.span[0]) - 4) : e]:
            out.add(a)  # 'the front table is supposed to hold 24 but we squeeze 30 on it'
            continue
        if any(f" {c} " in joined for c in ("now", "these days", "nowadays")) and any(
            w in ("was", "were", "used") for w in words[max(0, where.at(x.span[0]) - 4) : e]
        ):
            out.add(a)
    return out


_HONEST = (["if", "i'm", "honest"], ["if", "im", "honest"], ["to", "be", "honest"], ["if", "i", "am"])
"""Words after a second figure that make it the true one ('30 bags, well 25 if I'm honest')."""
_CONCLUSIONS = (["so"], ["so", "that's"], ["so", "thats"], ["so", "it's"], ["that", "makes"], ["which", "makes"],
                ["so", "about"], ["so", "roughly"], ["so", "around"], ["so", "what", ","], ["so", "like"])
"""Words right before a figure that make it the total of what came before ('..., so 3', 'that makes 5')."""


def _after_one(words: list[str], e: int) -> str:
    """The word at index e, or '' past the end."""
    return words[e] if e < len(words) else ""


def _measure_to_count(x: Mention, y: Mention) -> bool:
    """An amount in a measure followed by the same amount counted in containers or items ('45 kg, so 3 bags')."""
    return x.unit in MEASURE_UNITS and (y.container is not None or y.unit == "item") and y.unit not in MEASURE_UNITS


def _concluded(words: list[str], b: int) -> bool:
    return any(words[max(0, b - len(c)) : b] == c for c in _CONCLUSIONS)


def _summed_before(ordered: list[Mention], a: int, where: _Pos, words: list[str], between: list[str]) -> set[int]:
    """The figures of one kind added up ('2 days ... plus a day ...') before a total: ordered[a] and the ones
    before it joined by 'plus' / '+'; empty when nothing was added (a plain 'so' after one figure)."""
    out: set[int] = set()
    for c in range(a - 1, -1, -1):
        x, y = ordered[c], ordered[c + 1]
        gap = words[where.end(x.span[1]) : where.at(y.span[0])]
        if x.kind is not y.kind or not {"plus", "+"} & set(gap):
            break
        out |= {c, c + 1}
    if not out and {"plus", "+"} & set(between):
        out.add(a)  # '2 days, plus another for labelling, so 3'
    return out


def _varied_before(ordered: list[Mention], a: int, where: _Pos, words: list[str]) -> set[int]:
    """The figures of one kind joined to ordered[a] by only a pause and words of variation ('a week, sometimes 10
    days, call it 8': 'a week' with '10 days'), walking back: a restatement after them settles them all."""
    out: set[int] = set()
    for c in range(a - 1, -1, -1):
        x, y = ordered[c], ordered[c + 1]
        between = words[where.end(x.span[1]) : where.at(y.span[0])]
        core = [w for w in between if w not in _BOUNDARY]
        offered = _compatible(x, y) and _paused(between) and bool(core) and core[-1] in SECOND_THOUGHTS
        if not offered and (x.kind is not y.kind or not all(w in VARIATION_LINKS or w in _BOUNDARY for w in between)):
            break  # '... a buck a day per box in goodwill, maybe 1.50. let's say 1.50': the buck is settled too
        out.add(c)
    return out


def _restating(words: list[str], k: int) -> bool:
    """Whether the words right before token k restate a figure: 'call it 8', 'let's say 5', 'round it to 7',
    'more like 15' (`RESTATE_CUES`)."""
    before = " " + " ".join(words[max(0, k - 4) : k])
    return any(before.endswith(f" {cue}") for cue in RESTATE_CUES)


def _judged(between: list[str]) -> bool:
    """'6 a month... no, that's too much, say 3': 'too' and a judgment (`TOO_WORDS`) of the first figure, then
    only correction words and a pause before the second."""
    at = [i for i in range(len(between) - 1) if between[i] == "too" and between[i + 1] in TOO_WORDS]
    rest = between[at[-1] + 2 :] if at else []
    return bool(at) and all(w in CORRECTION_FILLERS or w in _BOUNDARY or w == "-" for w in rest)


def _paused(between: list[str]) -> bool:
    """A pause (punctuation or a dash) between two figures."""
    return any(w in _BOUNDARY or w == "-" for w in between)


_CHANGE_VERBS = frozenset(["up", "down", "went", "gone", "raised", "changed", "increased", "dropped", "put", "moved",
                           "upped", "bumped", "hiked", "lowered", "reduced", "cut", "decreased"])  # fmt: skip


def _changed_to(between: list[str], core: list[str]) -> bool:
    """Words right before a value that say it is the new figure ('... went up to 45', 'they raised it to 30', '... is
    now 45', '..., they raised it last spring, 45')."""
    k = len(between) - 2
    k -= 1 if k >= 1 and between[k] in ("it", "them", "that") else 0  # 'they raised it to 30'
    if (between[-1:] == ["to"] and k >= 0 and between[k] in _CHANGE_VERBS) or between[-1:] == ["now"]:
        return True
    if between[-2:] in (["now", "is"], ["now", "it's"], ["now", "its"], ["now", "they're"]):
        return True  # '15 dolar, no wait, now is 12 dolar'
    while between[-1:] in (["it's"], ["its"], ["is"], ["it"]):
        between = between[:-1]  # '..., they raised it last spring, it's 45 now'
    return between[-1:] in ([","], ["-"]) and any(w in _CHANGE_VERBS - {"up", "down", "put"} for w in core)


_OUTDATED = frozenset(["old", "outdated", "anymore", "used", "before", "was"])
"""Words that say a figure no longer holds, before the one said 'now' ('2 week is old. now 4 days')."""
_TAKE_BACK = frozenset(["wait", "sorry", "oops", "whoops", "scratch", "misspoke", "correction"])


def _taken_back_at_once(between: list[str]) -> bool:
    """A figure taken back once its clause ends ('..., wait no, that's all brands. ...', 'two week from the supplier
    in Taiwan... no sorry, ...'): the first two words after the first pause are correction words, one of them
    `_TAKE_BACK`."""
    pause = next((k for k, w in enumerate(between) if w in _BOUNDARY), None)
    if pause is None:
        return False
    head = [w for w in between[pause:] if w not in _BOUNDARY and w != "-"][:2]
    return bool(head) and set(head) <= CORRECTION_CUES and bool(_TAKE_BACK & set(head))


def _second_thought(between: list[str], core: list[str]) -> bool:
    """'give or take 5, well, maybe 6', '20, hmm, probably 25': a pause, a hesitation word and a hedge before
    the next value take the first one back."""
    return (
        bool(core)
        and set(core) <= SECOND_THOUGHTS
        and any(w in HESITATIONS for w in between)
        and any(w in _BOUNDARY for w in between)
    )


def _finest(out: list[Mention], a: int, corrected: set[int]) -> Mention:
    """Of the spans corrected together right before out[a + 1] ('5 days, sometimes a week, call it 6'), the one in
    the finest unit, whose unit a bare restatement takes (6 days, never 6 weeks); else out[a]."""
    run = [out[a]]
    while a - len(run) in corrected and out[a - len(run)].kind is out[a].kind is Kind.DURATION:
        run.append(out[a - len(run)])
    return min(run, key=lambda m: units.DAYS_PER.get(m.unit or "", 1e9))


def _carry(x: Mention, y: Mention) -> Mention:
    """'not 2 days, it's 3' / 'says 5 days but really 8': a bare replacement takes the corrected value's kind
    and unit (and its rate and role when it has none; '5 cents ... more like 3' is 3 cents); a replacement amount of
    money takes the role it replaces ('we pay $12 but really after tax it's $13': what one costs)."""
    if x.kind is y.kind is Kind.MONEY and y.role is None and x.role is not None:
        return replace(y, role=x.role, per=y.per or x.per)
    if y.kind is not Kind.QUANTITY or y.unit is not None or y.container is not None or x.unit is None:
        return y
    cents = x.kind is Kind.MONEY and any(c in x.text.lower() for c in ("cent", "¢", "pence")) and y.value is not None
    return replace(
        y, kind=x.kind, unit=x.unit, per=y.per or x.per, role=y.role or x.role, whole_business=x.whole_business,
        multiplier=x.multiplier if x.container else y.multiplier, container=x.container,
        value=float(y.value) / 100 if cents else y.value,  # type: ignore[arg-type]
    )  # fmt: skip


def _range_container(y: Mention, x: Mention) -> Mention:
    """'from 3 to 6 packs a day': the first end of a range counts the second end's container (its size, if
    known, is applied with the others: `_container_sizes`)."""
    return replace(x, container=y.container, multiplier=y.multiplier, per=x.per or y.per, role=x.role or y.role)


def _compatible(x: Mention, y: Mention) -> bool:
    if x.kind is y.kind:
        return True
    numeric = {Kind.QUANTITY, Kind.MONEY}
    if x.kind in numeric and y.kind in numeric:
        return x.unit is None or y.unit is None or x.kind is Kind.MONEY or y.kind is Kind.MONEY
    if {x.kind, y.kind} <= {Kind.QUANTITY, Kind.DURATION}:
        return x.unit is None or y.unit is None
    return False


def _currency(toks: list[_Tok]) -> str:
    """The message's currency (the first one written), USD when none is."""
    for t in toks:
        if t.low in CURRENCY_SYMBOLS:
            return CURRENCY_SYMBOLS[t.low]
        if t.low in CURRENCY_AFTER and CURRENCY_AFTER[t.low] != "cents":
            return "GBP" if CURRENCY_AFTER[t.low] == "pence" else CURRENCY_AFTER[t.low]
    return "USD"


def _units_respelt(toks: list[_Tok], words: list[str]) -> list[str]:
    """The words with a misspelt time or money unit right after a number read as meant ('6 monhts' -> months, '12
    dolar' -> dollar), and a misspelt
    'tomorrow' / 'yesterday' ('tomorow', 'tommorow'), found with rapidfuzz (same first letter, about the same length);
    other words stay."""
    out = list(words)
    for k in range(len(words)):
        if k and toks[k - 1].kind == "num" and words[k] not in TIME_UNITS and words[k] not in CURRENCY_AFTER:
            out[k] = misspelt_key(words[k], _RESPELT_AFTER_NUMBER, cutoff=80.0) or words[k]
        elif words[k][:3] in ("tom", "tmo", "yes") and len(words[k]) >= 6 and words[k] not in DATE_WORDS:
            out[k] = misspelt_key(words[k], ("tomorrow", "yesterday"), cutoff=80.0) or words[k]  # 'tomorow'
    return out


_RESPELT_AFTER_NUMBER = (*(u for u in TIME_UNITS if len(u) >= 4), "dollar", "dollars", "euros")
"""The units a misspelling right after a number is read as ('monhts' -> 'months', '15 dolar' -> dollar; 'day' and
'wk' are too short to tell)."""


def _parse(
    text: str, names: tuple[tuple[str, tuple[str, ...]], ...], sizes: tuple[tuple[str, float], ...] = ()
) -> Message:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    clause_list, denied = _clauses(text)
    starts = [c.span[0] for c in clause_list] or [0]
    toks = _tokens(text, starts)
    words = _units_respelt(toks, _furniture([t.low for t in toks]))
    s = _State(text, toks, words, clause_list, ops=len(text) * 4, taken=[False] * len(toks), denied=denied)
    s.ops += len(toks)
    _clock_mentions(s)
    _dot_times(s)
    _names(s, names)
    _dates(s)
    _weekday_gap(s)
    _answers(s, clause_list)
    _values(s, _currency(toks))
    _drop_ages(s)
    mentions = _clock_roles(s, _scopes(s, clause_list))
    per_clause: list[list[str]] = [[] for _ in clause_list] or [[]]
    spans: list[list[tuple[int, int]]] = [[] for _ in per_clause]
    for t in toks:
        if t.kind != "sym":
            per_clause[min(t.clause, len(per_clause) - 1)].append(t.low)
            spans[min(t.clause, len(per_clause) - 1)].append((t.start, t.end))
    s.ops += len(text) * 4
    every = _tokens(text, starts, _ALL_TOKEN_RE)
    sized = _per_container(_count_per_container(_item_measure(s, _in_containers(s, _unit_corrected(s, mentions))), s))
    sized = _each_holds(sized, text)
    found = _one_of_them(_container_sizes(_nested(_inner_known(s, sized, dict(sizes))), dict(sizes)), s)
    found = _per_sized(_bare_prices(found, toks), s)  # prices: said per container, then sold, then the margin
    found = _kinds(_grid(_given_away(_discounted(_stated_margin(_share_of_price(_sold_at(found, s), s)), s), s), s), s)
    found = _and_cents(_size_taken_back(_container_then_measure(found, s), s), s)
    return Message(
        text,
        tuple(clause_list),
        tuple(found),
        s.ops,
        tuple(tuple(ws) for ws in per_clause),
        tuple(tuple(sp) for sp in spans),
        correction=corrections.is_correction(text),
        recall=corrections.recalls(text),
        confused=questions.is_confused(text),
        toks=tuple(every),
    )


_GRID_LINKS = (("high", "by"), ("wide", "by"), ("deep", "by"), ("tall", "by"), ("across", "by"), ("by",))


def _grid(mentions: list[Mention], s: _State) -> list[Mention]:
    """'stacked 4 high by 5', '6 wide by 3 deep': two bare whole counts joined by 'by' are a grid, one quantity of
    so many layers of so many items (4 × 5 = 20); never 'one by one' (no amount)."""
    out: list[Mention] = []
    for m in mentions:
        prev = out[-1] if out else None
        if (
            prev is not None and m.kind is prev.kind is Kind.QUANTITY
            and not (m.unit or m.container or m.per or prev.unit or prev.container or prev.per)
            and m.value == int(m.value) > 1 and prev.value == int(prev.value) > 1
            and tuple(s.words[s.where.end(prev.span[1]) : s.where.at(m.span[0])]) in _GRID_LINKS
        ):  # fmt: skip
            span = (prev.span[0], m.span[1])
            out[-1] = replace(prev, text=s.text[span[0] : span[1]], span=span, multiplier=m.value, unit="item",
                              container="layer")  # fmt: skip
            continue
        out.append(m)
    return out


def _count_per_container(mentions: list[Mention], s: _State) -> list[Mention]:
    """'they send 12 per box', 'ten bunches per bucket': a count per a container is per that container, like '12
    a case' (`_per_container` makes it the container's size when the items are named), never an amount per item;
    money per box stays a price per item."""
    out = []
    for m in mentions:
        k = s.where.end(m.span[1]) - 1
        s.ops += 1
        if (
            m.kind is Kind.QUANTITY and m.per == "unit" and m.unit in (None, "item") and k > 0
            and s.words[k] in CONTAINERS and s.words[k - 1] in ("per", "a", "an", "each", "every")
        ):  # fmt: skip
            m = replace(m, per=CONTAINERS[s.words[k]])
        out.append(m)
    return out


def _size_taken_back(mentions: list[Mention], s: _State) -> list[Mention]:
    """'5 cases of 8, no wait, the cases are 6': a container size corrected right after a count of those containers
    corrects the size, not the count (5 cases of 6)."""
    out = list(mentions)
    for n in range(len(out) - 1):
        x, y = out[n], out[n + 1]
        s.ops += 1
        if (
            x.kind is y.kind is Kind.QUANTITY and x.container and x.container == y.container and x.multiplier > 1
            and x.role != "size" and y.role == "size" and y.multiplier != x.multiplier
            and CORRECTION_CUES & set(s.words[s.where.end(x.span[1]) : s.where.at(y.span[0])])
        ):  # fmt: skip
            out[n] = replace(x, multiplier=y.multiplier)
    return out


def _container_then_measure(mentions: list[Mention], s: _State) -> list[Mention]:
    """'dog food in big bags 15 kg': a measure right after a container word is the size of one, as in '15 kg bags'
    (never an amount sold or stored)."""
    out = []
    for m in mentions:
        s.ops += 1
        before = s.word_before(m)
        if (
            m.kind is Kind.QUANTITY and m.unit in MEASURE_UNITS and not (m.container or m.per or m.role)
            and before in CONTAINERS
        ):  # fmt: skip
            m = replace(m, container=CONTAINERS[before], role="size")
        out.append(m)
    return out


_WHOLE_CURRENCY = {"buck": "USD", "bucks": "USD", "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR",
                   "quid": "GBP"}  # fmt: skip


def _and_cents(mentions: list[Mention], s: _State) -> list[Mention]:
    """'a buck fifty', 'buck fifty a day', 'three dollars twenty': a whole amount of money said with its cents right
    after the currency word is one amount (1.50), never a dollar and then a count of 50."""
    out: list[Mention] = []
    for m in mentions:
        prev = out[-1] if out else None
        k = s.where.at(m.span[0])
        s.ops += 1
        if (
            m.kind is Kind.QUANTITY and not (m.unit or m.container) and m.multiplier == 1
            and isinstance(m.value, float) and m.value.is_integer() and 1 <= m.value < 100
            and k > 0 and s.words[k - 1] in _WHOLE_CURRENCY and not s.text[s.toks[k - 1].end : m.span[0]].strip()
            and s.words_after(m, 1) not in (["times"], ["x"], ["of"], ["more"], ["percent"])
        ):  # fmt: skip
            whole = prev if prev is not None and prev.kind is Kind.MONEY and prev.span[1] == s.toks[k - 1].end else None
            start = whole.span[0] if whole else s.toks[k - 1].start
            value = (whole.amount if whole else 1.0) + m.value / 100
            merged = replace(m, kind=Kind.MONEY, value=value, unit=_WHOLE_CURRENCY[s.words[k - 1]],
                             text=s.text[start : m.span[1]], span=(start, m.span[1]),
                             role=whole.role if whole else m.role)  # fmt: skip
            out[-1:] = [merged] if whole else [*out[-1:], merged]
            continue
        out.append(m)
    return out


def _drop_ages(s: _State) -> None:
    """'too early for 4 year olds', 'a 10-year-old': an age, never a span of time; dropped before the scopes are
    read, so a correction reaches over it ('7:50? hmm, no, too early for 4 year olds. Let's say 8:40')."""
    kept = []
    for m in s.found:
        k = s.where.end(m.span[1])
        s.ops += 1
        k += 1 if s.words[k : k + 1] == ["-"] else 0
        if not (m.kind is Kind.DURATION and m.unit == "year" and s.words[k : k + 1] in (["old"], ["olds"])):
            kept.append(m)
    s.found = kept


_SHARE_VERBS = frozenset(["pay", "paid", "pays", "get", "got", "buy", "bought", "cost", "costs"])


def _share_of_price(mentions: list[Mention], s: _State) -> list[Mention]:
    """'$18 cover and I pay 60% of that', 'list price is 28 and I get it at 60% of list': a share of the one price
    said, after a pay or buy word and before 'of', is the purchase price (60 % of $18 = $10.80) and the price is the
    sale price, so the margin is read from both (`_stated_margin`)."""
    prices = [m for m in mentions if m.kind is Kind.MONEY and m.live and m.role in (None, "price", "sale_price")]
    if len(prices) != 1 or any(m.kind is Kind.MONEY and m.role == "purchase_price" for m in mentions):
        return mentions
    out = list(mentions)
    for n, m in enumerate(mentions):
        k = s.where.at(m.span[0])
        if m.kind is Kind.QUANTITY and m.unit == "percent" and 0 < m.value < 100 and m.span[0] > prices[0].span[1] \
                and s.words[s.where.end(m.span[1]) : s.where.end(m.span[1]) + 1] == ["of"] \
                and _SHARE_VERBS & set(s.words[max(0, k - 4) : k]):  # fmt: skip
            share = round(prices[0].amount * m.value / 100, 10)
            out[n] = replace(m, kind=Kind.MONEY, value=share, unit=prices[0].unit, role="purchase_price")
            out[out.index(prices[0])] = replace(prices[0], role="sale_price")
            break
    return out


def _kinds(mentions: list[Mention], s: _State) -> list[Mention]:
    """'we sell one shampoo brand', 'two coffee flavours', 'three shop locations': a bare count, one describing word
    and a noun of kinds or places (`COUNT_UNITS`) is a count in that unit, never stock."""
    out = []
    rated = {x.clause for x in mentions if x.kind is Kind.QUANTITY and x.per}  # clauses with a rate
    for m in mentions:
        k = s.where.end(m.span[1])
        unit = COUNT_UNITS.get(s.words[k + 1]) if k + 1 < len(s.words) and s.toks[k].kind == "word" else None
        if m.kind is Kind.QUANTITY and not (m.unit or m.container or m.per) and unit in ("variety", "place"):
            m = replace(m, unit=unit)
        elif _one_product(m, s, rated):
            m = replace(m, unit="variety")
        out.append(m)
    return out


_CARRY_VERBS = frozenset(["sell", "carry", "stock", "offer", "retail", "do"])


def _one_product(m: Mention, s: _State, rated: set[int]) -> bool:
    """'we sell one shampoo retail, the 500 ml bottles': 'one' after a verb of carrying and before a noun, with no
    rate in its clause, is one product (a kind), never one sold a day."""
    k = s.where.end(m.span[1])
    return (
        m.kind is Kind.QUANTITY and m.text.lower() in ("one", "1") and not (m.unit or m.container or m.per)
        and s.word_before(m) in _CARRY_VERBS and k < len(s.words) and s.toks[k].kind == "word"
        and m.clause not in rated
    )  # fmt: skip


def _given_away(mentions: list[Mention], s: _State) -> list[Mention]:
    """'12 buckets, I gave three away', 'threw 2 of them away': a bare count followed by 'away' (up to three words
    after it) is stock that left, role 'gone': never a storage, order or demand figure."""
    out = []
    for m in mentions:
        k = s.where.end(m.span[1])
        if m.kind is Kind.QUANTITY and not (m.unit or m.container or m.per) and "away" in s.words[k : k + 3]:
            m = replace(m, role="gone")
        out.append(m)
    return out


_MEASURE_LINKS = frozenset(["is", "are", "'s", "holds", "hold", "contains", "contain", "weighs", "weigh", "have", "has"])
_SIZE_HEDGES = frozenset(["about", "roughly", "around", "only", "just", "approximately", "exactly"])




def _per_container(mentions: list[Mention]) -> list[Mention]:
    """'25 boxes a carton', '12 bottles per case': a count per container is that container's size (as '24 cans to
    a crate'), so '8 cartons' beside it is 200 boxes; a bare '20 per case' beside '4 cases' too."""
    counted = {m.container for m in mentions if m.kind is Kind.QUANTITY and m.container}
    return [
        replace(m, value=1.0, multiplier=float(m.value), container=m.per, per=None, unit="item", role="size")
        if m.kind is Kind.QUANTITY and m.per in CONTAINER_NOUNS and m.per != m.container and not m.role
        and (m.container or m.unit == "item" or (m.per in counted and " per " in m.text.lower()))
        and isinstance(m.value, float) and m.value > 1  # 'it's 3 a tray' (no item named) is a price, no size
        else m
        for m in mentions
    ]


def _item_measure(s: _State, mentions: list[Mention]) -> list[Mention]:
    """A measure an item or container is said to hold ('the bottles are 500 ml', 'each bag weighs 2 kg', 'a bottle
    holds half a litre'): the size of one item (role 'size', as in 'the 500 ml bottles'), never an amount sold."""
    where = s.where
    out = list(mentions)
    for n, m in enumerate(mentions):
        s.ops += 1
        count = m.unit in (None, "item") and isinstance(m.value, float) and m.value.is_integer() and m.value > 1
        inner = m.container is not None and m.multiplier == 1  # 'cases are 6 cartons': the cartons are the items
        each = m.per == "unit" and m.unit in MEASURE_UNITS  # 'the bags are 9 kilos each'
        if m.kind is not Kind.QUANTITY or not (m.unit in MEASURE_UNITS or count) or m.role or m.per and not each:
            continue
        if m.container and not inner:
            continue
        to = s.words_after(m, 3)  # '12 boxes to a case': the case holds 12 boxes, the boxes are the items
        holder = CONTAINERS.get(to[2]) if len(to) == 3 and to[:2] in (["to", "a"], ["to", "each"], ["to", "the"]) else None
        if count and inner and holder not in (None, m.container):
            out[n] = replace(m, value=1.0, multiplier=float(m.value), unit="item", role="size", container=holder)
            continue
        k = where.at(m.span[0])
        while k > 0 and s.words[k - 1] in _SIZE_HEDGES:
            k -= 1
        if (
            count and k >= 2 and s.words[k - 1] in CONTAINERS and s.words[k - 2] in ("each", "every")
            and CONTAINERS[s.words[k - 1]] != m.container
        ):
            k += 1  # 'each box 12 filter': no verb between the container and what it holds
        elif k >= 3 and s.words[k - 2] in ("which", "that") and s.words[k - 1] in _MEASURE_LINKS:
            k -= 2 if s.words[k - 3] == "," else 1  # 'one pallet, which is 200 boxes': the container before it
            if CONTAINERS.get(s.words[k - 2]) in (None, m.container):
                continue
        else:
            links = _MEASURE_LINKS | ({"of"} if not count else set())  # 'bags of 10 kg'
            if k < 2 or s.words[k - 1] not in links or inner and CONTAINERS.get(s.words[k - 2]) in (None, m.container):
                continue
        noun = s.words[k - 2]
        if count and noun in CONTAINERS:  # 'cases are 24', 'a crate holds 20': what one holds, in items
            out[n] = replace(m, value=1.0, multiplier=float(m.value), unit="item", role="size", container=CONTAINERS[noun])
        elif not count and (item := ITEM_WORDS.get(noun) or CONTAINERS.get(noun)):
            out[n] = replace(m, role="size", container=item, per=None)
    return out


_SHOP_FITTINGS = frozenset(["display", "glass", "pastry", "deli", "fridge", "cooler", "freezer", "show", "cake"])


def _furniture(words: list[str]) -> list[str]:
    """The words with a shop fitting's 'case' ('the display case takes 5 dozen') renamed so that no reader takes it
    for a case of items: what it takes is storage, never the size of a case."""
    return [
        "showcase" if w in ("case", "cases") and k and words[k - 1] in _SHOP_FITTINGS else w
        for k, w in enumerate(words)
    ]


def _clock_roles(s: _State, mentions: list[Mention]) -> list[Mention]:
    """Each CLOCK mention's relation as its `role` ('at', 'not_at', 'from', 'to', 'or', 'after', 'before',
    'not_before', 'not_after'; `core.text.bounds`), from the words beside it."""
    clocks = [k for k, m in enumerate(mentions) if m.kind is Kind.CLOCK]
    s.ops += len(s.text) * 2
    out = list(mentions)
    for k, relation in zip(clocks, bounds.clock_relations(s.text, [mentions[k].span for k in clocks]), strict=True):
        out[k] = replace(mentions[k], role=relation.value)
    return out


def _container_sizes(mentions: list[Mention], known: dict[str, float]) -> list[Mention]:
    """A container size stated once ('cases of a dozen') resolves the other counts of that container in the
    message ('we need 10 cases'); `known` sizes were stated in earlier messages ('a box holds 24 bags', then
    'room for 20 boxes' = 480), a size stated in this message wins."""
    sizes = known | {m.container: m.multiplier for m in mentions if m.container and m.multiplier != 1}
    if not sizes:
        return mentions
    return [
        replace(m, multiplier=sizes[m.container], unit=m.unit or "item")
        if m.container in sizes and m.multiplier == 1 and m.kind is Kind.QUANTITY
        else m
        for m in mentions
    ]


_EACH_TAILS = (("on", "each"), ("in", "each"), ("to", "each"), ("each",))


def _inner_known(s: _State, mentions: list[Mention], known: Mapping[str, float]) -> list[Mention]:
    """'a pallet is 40 boxes' once a box is known to hold 5 (an earlier message): the pallet holds 200 items, as
    the table counts; a box sized again right here ('40 boxes of 10') is left to `_nested`."""
    if not known:
        return mentions
    out = list(mentions)
    for k, m in enumerate(out):
        s.ops += 1
        if m.role != "size" or m.unit != "item" or not m.container:
            continue
        at = s.where.end(m.span[1])
        after = s.words[at : at + 2]
        inner = CONTAINERS.get(after[0]) if after else None
        if inner and inner != m.container and inner in known and after[1:] != ["of"]:
            out[k] = replace(m, multiplier=m.multiplier * known[inner])
    return out


def _nested(mentions: list[Mention]) -> list[Mention]:
    """'a pallet is 40 boxes of 10': a container sized in another container sized right after it holds the
    product (400 items), as 'six crates of 24' counts items."""
    out = list(mentions)
    for k in range(len(out) - 1, 0, -1):
        x, y = out[k - 1], out[k]
        if (
            x.role == y.role == "size"
            and x.container != y.container
            and y.span[0] - x.span[1] <= 1
            and x.unit == y.unit == "item"
        ):
            out[k - 1] = replace(x, multiplier=x.multiplier * y.multiplier)
    return out


def _each_holds(mentions: list[Mention], text: str) -> list[Mention]:
    """'two racks, 30 loaves on each', '3 pallets with 50 on each': the second count is what one of the first
    holds, so the first counts that many items (2 racks x 30 = 60) and the second is its size, no total."""
    out = list(mentions)
    for k in range(1, len(out)):
        x, y = out[k - 1], out[k]
        each = y.per == "unit" and y.text.lower().rstrip(" .,").endswith(" each")  # '8 hooks with 10 tubes each'
        rate = x.per is not None and x.per == x.period  # '6 bunches a day, a dozen stems in each': 72 a day
        if x.kind is not Kind.QUANTITY or y.kind is not Kind.QUANTITY or (x.per and not rate) or (y.per and not each):
            continue
        if not (x.live and y.live):
            continue
        after = _each_after(text, y.span[1])
        tail = ("",) if each else next((t for t in _EACH_TAILS if tuple(after[: len(t)]) == t), None)
        if tail is None or x.multiplier != 1 or y.role == "size":
            continue
        rest = text[x.span[1] :]
        noun = next(iter(rest.lower().replace(",", " ").split()), "") if x.container is None else x.container
        if not noun.isalpha() or noun in _NOT_NOUN:
            continue
        holder = x.container or singular(noun)  # a container is already singular ("bunch")
        x_end = x.span[1] if x.container else x.span[1] + rest.lower().index(noun) + len(noun)
        y_end = y.span[1] if each else y.span[1] + text[y.span[1] :].lower().index(tail[-1]) + len(tail[-1])
        out[k - 1] = replace(x, multiplier=float(y.value), container=holder, unit="item",
                             text=text[x.span[0] : x_end], span=(x.span[0], x_end))  # fmt: skip
        out[k] = replace(y, value=1.0, multiplier=float(y.value), role="size", container=holder, unit="item",
                         text=text[y.span[0] : y_end], span=(y.span[0], y_end), per=None)  # fmt: skip
    return out


def _each_after(text: str, end: int) -> list[str]:
    """The words after a count that may say it is what each holds ('in each'), with one item noun between them
    skipped ('a dozen stems in each', 'twenty roses on each': the noun names the contents, the count sizes)."""
    after = text[end : end + 30].lower().replace(",", " ").replace(".", " ").split()
    noun = after[:1] and after[0].isalpha() and after[0] not in _NOT_NOUN and after[0] not in ("in", "on", "to")
    return after[1:] if noun and after[1:2] in (["in"], ["on"], ["to"], ["each"]) else after


_TRADE = {w: r for w, r in ROLE_WORDS.items() if r in ("purchase_price", "sale_price")}


def _bare_prices(mentions: list[Mention], toks: list[_Tok]) -> list[Mention]:
    """'i buy 1.20 and sell 3.00' / 'we buy at 2 and sell at 5': a message with no money (or one price already
    read, 'buy .90, sell 3.20') whose first two amounts follow a buy word and a sell word (and look like prices: two
    decimals, or 'at'/'for' before them) is a purchase and a sale price, then read by `_stated_margin` like any
    other."""
    money = [m for m in mentions if m.kind is Kind.MONEY and m.role != "loss"]
    if len(money) > 1 or any(m.role not in ("purchase_price", "sale_price") for m in money):
        return mentions  # one price already read ('buy .90, sell 3.20': the sale) pairs with a bare amount
    bare = [m for m in mentions if m.kind is Kind.QUANTITY and m.live and not (m.unit or m.container or m.per)]
    bare = [m for m in bare if m.text.lower() not in ("one", "1", "a", "an")]  # "i buy 1.20 one stem and sell 3.50"
    pool = sorted([*bare, *money], key=lambda m: m.span)[:2]
    if len(pool) < 2 or any(m.period for m in pool):
        return mentions
    strict = [m.role if m.kind is Kind.MONEY else _trade_role(m, toks) for m in pool]
    roles = [m.role if m.kind is Kind.MONEY else _trade_role(m, toks, loose=True) for m in pool]  # 'I sell 3'
    if not any(strict) or sorted(r or "" for r in roles) != ["purchase_price", "sale_price"]:
        return mentions
    unit = money[0].unit if money else "USD"
    priced = {id(m): replace(m, kind=Kind.MONEY, unit=unit, role=r) for m, r in zip(pool, roles, strict=False)}
    return [priced.get(id(m), m) for m in mentions]


def _per_sized(mentions: list[Mention], s: _State) -> list[Mention]:
    """'we buy a box of 5 reams for 20 bucks': a price per container whose size the message states is a price per
    item (`amount` 20 × 1/5 = 4; `value` keeps the 20 said), kept with the container it was said for; said after a
    buy word it is the purchase price."""
    sizes = {m.container: m.multiplier for m in mentions if m.container and m.multiplier > 1}
    out = list(mentions)
    for n, m in enumerate(mentions):
        if m.kind is Kind.MONEY and m.per in sizes and m.role in (None, "purchase_price", "sale_price", "price"):
            size = sizes[m.per]
            before = s.words[max(0, s.where.at(m.span[0]) - 8) : s.where.at(m.span[0])]
            bought = m.role or ("purchase_price" if {"buy", "bought", "pay", "paid"} & set(before) else None)
            out[n] = replace(m, multiplier=1 / size, per="unit", container=m.per, role=bought)
    return out


_PRICE_MARKS = tuple(["on", "the", w] for w in ("cover", "tag", "label", "shelf", "sticker"))
"""Where a sale price is printed ("it's 18 on the cover", "1.20 on the shelf")."""
_GET_WORDS = frozenset(["get", "charge", "fetch", "ask"])
_EARNS = frozenset(["earns", "fetches", "makes"])
"""Words by which an item is said to bring in its sale price ('a carton ... makes about 8')."""


def _got_for(m: Mention, s: _State, sale: Mention | None) -> Mention:
    """Money said as what the owner gets the item for ('I get them for 40 cents', 'we got it for 2', 'we get them at
    10.80'): the
    purchase price ('I get 3.50 each', with no 'for', is what a sale brings); a bare figure too, below the sale
    price said beside it ('we get them for 9 and sell for 24')."""
    bare = m.kind is Kind.QUANTITY and not (m.unit or m.container or m.per) and sale is not None
    if not (m.kind is Kind.MONEY or bare) or m.role is not None:
        return m
    k = s.where.at(m.span[0])
    before = s.words[max(0, k - 3) : k]
    got = before[-1:] in (["for"], ["at"]) and bool({"get", "got", "getting", "gets"} & set(before[:-1]))  # 'at 10.80'
    if got and bare and sale is not None and m.amount < sale.amount:
        return replace(m, kind=Kind.MONEY, unit=sale.unit, role="purchase_price")
    return replace(m, role="purchase_price") if got and not bare else m


def _sold_at(mentions: list[Mention], s: _State) -> list[Mention]:
    """'stems cost me 1.25 and I get 3.50 each', 'sells 28, costs 16.80': beside one purchase price and no sale
    price, a bare amount (no unit, container or period; 'each' allowed) above the purchase price, right after a
    sell word, or after it which the owner gets or charges ('I get', 'we charge about'), is the sale price ('I
    get 30 a day' has a period and stays a count)."""
    sales = [m for m in mentions if m.kind is Kind.MONEY and m.role == "sale_price" and m.live]
    sale = sales[0] if len(sales) == 1 else None
    mentions = [_got_for(m, s, sale) for m in mentions]  # 'i get them for 40 cents': what the owner pays
    bought = [m for m in mentions if m.kind is Kind.MONEY and m.role == "purchase_price" and m.live]
    bought = bought or [m for m in mentions if m.kind is Kind.MONEY and m.role == "price" and m.live]  # 'I pay'
    if len(bought) != 1 or any(m.kind is Kind.MONEY and m.role == "sale_price" for m in mentions):
        return mentions
    out = list(mentions)
    for n, m in enumerate(mentions):
        bare = m.kind is Kind.QUANTITY and not (m.unit or m.container)
        paid = m.role == "price" and _paid_to_me(s, m)  # 'the hotel pays me $4 a loaf and they cost me $1.60'
        money = m.kind is Kind.MONEY and (m.role is None or paid) and m.unit == bought[0].unit  # 'brings in 8 bucks'
        if not ((bare or money) and m.live and m.period is None and m.per in (None, "unit")
                and m.amount > bought[0].amount):
            continue  # fmt: skip
        k = s.where.at(m.span[0]) - 1
        while k >= 0 and s.words[k] in HEDGE_BEFORE | {"just", "only", "for", "at", "is", "was", "'s"}:
            k -= 1  # 'retail is 22'
        sells = k >= 0 and _TRADE.get(s.words[k]) == "sale_price" and s.words[k] not in ("go", "goes", "going", "went")
        sells = sells or k >= 1 and s.words[k - 1 : k + 1] in (["brings", "in"], ["bring", "in"]) or (
            k >= 0 and (s.words[k] in _EARNS or s.words[k] in ("they're", "theyre", "it's", "its"))
        )  # "they're 7.50 and cost me 3 to make"
        gets = m.span[0] > bought[0].span[1] and k >= 1 and s.words[k] in _GET_WORDS and s.words[k - 1] in ("i", "we")
        marked = s.words_after(m, 3) in _PRICE_MARKS
        if sells or gets or marked or paid:  # 'sells 28, costs 16.80', "it's 18 on the cover"
            out[n] = replace(m, kind=Kind.MONEY, unit=bought[0].unit, role="sale_price")
            break
    return out


def _paid_to_me(s: _State, m: Mention) -> bool:
    """Whether a price follows 'pays me' / 'pay us' (a customer paying the owner: the sale price)."""
    k = s.where.at(m.span[0])
    return s.words[max(0, k - 2) : k] in _PAID_TO_ME


_PAID_TO_ME = [[v, o] for v in ("pays", "pay", "paid", "paying") for o in ("me", "us")]


def _trade_role(m: Mention, toks: list[_Tok], *, loose: bool = False) -> str | None:
    """'buy 1.20' -> purchase_price, 'sell at 3' -> sale_price: the buy or sell word among the three words before
    a price-like amount (any amount when `loose`), else None."""
    said = m.text.split()[0] if m.text else ""
    before = [t.low for t in toks if t.end <= m.span[0] and t.kind != "sym"][-3:]
    decimals = "." in said and len(said.rsplit(".", 1)[1]) == 2
    if not (loose or decimals or before[-1:] in (["at"], ["for"])):
        return None
    return next((_TRADE[w] for w in reversed(before) if w in _TRADE), None)


_SLIP_WORDS = frozenset([",", "sorry", "i", "mean", "meant", "no", "er", "erm", "um", "uh", "wait", "oops",
                         "actually", "-", "..."])
"""Words between a unit said by mistake and the one meant ('18 pounds, sorry, dollars', '5 kilos I mean euros')."""


def _unit_corrected(s: _State, mentions: list[Mention]) -> list[Mention]:
    """An amount whose unit is corrected right after it ('18 pounds, sorry, dollars'): money in the currency
    meant, never a weight or the currency said first."""
    out = list(mentions)
    for n, m in enumerate(mentions):
        if m.kind not in (Kind.QUANTITY, Kind.MONEY) or not m.unit:
            continue
        k = s.where.at(m.span[1] - 1) + 1
        skipped = 0
        while k < len(s.words) and s.words[k] in _SLIP_WORDS and skipped < 5:
            k, skipped = k + 1, skipped + 1
        if not skipped or k >= len(s.words) or s.words[k] not in CURRENCY_AFTER:
            continue
        cur = CURRENCY_AFTER[s.words[k]]
        if cur in ("cents", "pence") or cur == m.unit or s.toks[k + 1 : k + 2] and s.toks[k + 1].kind == "num":
            continue
        out[n] = replace(m, kind=Kind.MONEY, unit=cur)
    return out


def _one_of_them(mentions: list[Mention], s: _State) -> list[Mention]:
    """'a pallet is 50 bags and they won't send more than one': 'one' after 'than', 'only' or 'just', said after
    the one container the message sizes, is one of those containers (50 bags), never a single item."""
    sized = {m.container: m.multiplier for m in mentions if m.role == "size" and m.container and m.multiplier > 1}
    if len(sized) != 1:
        return mentions
    ((container, size),) = sized.items()
    first = min(m.span[0] for m in mentions if m.role == "size")
    return [
        replace(m, container=container, multiplier=size, unit="item")
        if m.kind is Kind.QUANTITY and m.value == 1.0 and m.text.lower() in ("one", "1")
        and not (m.unit or m.container or m.per) and m.span[0] > first
        and s.word_before(m) in ("than", "only", "just")
        else m
        for m in mentions
    ]  # fmt: skip


def _in_containers(s: _State, mentions: list[Mention]) -> list[Mention]:
    """'they sell in bunch of 25' (no article, as 'in bunches of 25'), 'case of 24, max 2 cases' (the same
    container counted again): what one container holds, its size, never an order of one bunch or case."""
    counted = {m.container for m in mentions if m.kind is Kind.QUANTITY and m.container and m.value not in (0, 1)}
    return [
        replace(m, role="size")
        if m.kind is Kind.QUANTITY and m.value == 1.0 and m.container and m.multiplier > 1 and m.role is None
        and not m.text[:1].isdigit() and not m.text.lower().startswith("one ")
        and s.word_before(m) not in ("a", "an", "one", "per")
        and (m.container in counted or s.word_before(m) == "in")
        else m
        for m in mentions
    ]  # fmt: skip


_DISCOUNT_WORDS = frozenset(["off", "discount", "less", "below"])


def _discounted(mentions: list[Mention], s: _State) -> list[Mention]:
    """'18 dollars on the cover and I get 40% off from the distributor': a percentage off the one price said is
    what the speaker pays (10.80, a purchase price), the price itself what it sells for; their difference is
    then the margin (`_stated_margin` and the penalty readers)."""
    money = [m for m in mentions if m.kind is Kind.MONEY and m.live and m.period is None]
    off = [
        m for m in mentions
        if m.kind is Kind.QUANTITY and m.unit == "percent" and m.live and 0 < float(m.value) < 100
        and set(s.words_after(m, 2)) & _DISCOUNT_WORDS
    ]  # fmt: skip
    if len(money) != 1 or len(off) != 1 or money[0].role not in (None, "price", "sale_price"):
        return mentions
    price, cut = money[0], off[0]
    paid = replace(cut, kind=Kind.MONEY, unit=price.unit, value=round(float(price.value) * (1 - float(cut.value) / 100), 6),
                   role="purchase_price", per=price.per)  # fmt: skip
    return [replace(m, role="sale_price") if m is price else paid if m is cut else m for m in mentions]


def _stated_margin(mentions: list[Mention]) -> list[Mention]:
    """'costs me 9 and sells for 15, so I'm out about 6': a bare amount (no unit, rate or container) said after
    a stated purchase and sale price, equal to their difference, is money, the margin lost on a
    missed sale (role 'loss'), not a count."""
    bought = [m for m in mentions if m.kind is Kind.MONEY and m.role == "purchase_price" and m.live]
    sold = [m for m in mentions if m.kind is Kind.MONEY and m.role == "sale_price" and m.live]
    paid = [m for m in mentions if m.kind is Kind.MONEY and m.role == "price" and m.live and m.period is None]
    if not bought and len(sold) == 1 and len(paid) == 1:  # 'I pay 90 cents and sell for 3.20': the buy
        bought = [replace(paid[0], role="purchase_price")]
        mentions = [bought[0] if m is paid[0] else m for m in mentions]
    if len(bought) == 1 and not sold:  # 'costs me 20 but makes 60 in cones, so about 40 lost'
        mentions, sold = _sale_by_difference(mentions, bought[0])
    if len(bought) != 1 or len(sold) != 1 or bought[0].unit != sold[0].unit:
        return mentions
    margin = sold[0].amount - bought[0].amount
    after = max(bought[0].span[1], sold[0].span[1])
    return [
        replace(m, kind=Kind.MONEY, unit=sold[0].unit, role="loss", per=None)
        if (
            m.kind is Kind.QUANTITY and not (m.unit or m.container) and m.per in (None, "order")  # 'every time'
            or m.kind is Kind.MONEY and m.role is None and m.unit == sold[0].unit and m.per in (None, "unit")
        )  # "so I'm out 65 cents each": money with no role of its own
        and m.span[0] > after
        and margin > 0
        and abs(m.amount - margin) < 1e-9
        else m
        for m in mentions
    ]


def _bare_after(m: Mention, start: int) -> bool:
    return m.kind is Kind.QUANTITY and m.span[0] > start and m.live and not (m.unit or m.container or m.per)


def _loss_after(m: Mention, start: int) -> bool:
    """Money said as lost after `start` ('..., so I lose 40')."""
    return m.kind is Kind.MONEY and m.role == "loss" and m.span[0] > start and m.live


def _sale_by_difference(mentions: list[Mention], bought: Mention) -> tuple[list[Mention], list[Mention]]:
    """A purchase price, then two bare amounts whose difference is exactly it ('a tub costs me 20 but makes 60
    in cones, so about 40 lost'): the first is what the item sells for, whatever verb says so; the second is then
    read by `_stated_margin` as the margin lost. Returns the mentions and the sale price found (none or one)."""
    bare = [m for m in mentions if _bare_after(m, bought.span[1]) or _loss_after(m, bought.span[1])]
    for first, second in zip(bare, bare[1:], strict=False):
        if first.kind is Kind.QUANTITY and abs(first.amount - bought.amount - second.amount) < 1e-9 and second.amount > 0:
            sold = replace(first, kind=Kind.MONEY, unit=bought.unit, role="sale_price")
            return [sold if m is first else m for m in mentions], [sold]
    return mentions, []


@lru_cache(maxsize=512)
def _cached(
    text: str, names: tuple[tuple[str, tuple[str, ...]], ...], sizes: tuple[tuple[str, float], ...]
) -> Message:
    return _parse(text, names, sizes)


def parse(
    text: str, *, names: Mapping[str, Sequence[str]] | None = None, sizes: Mapping[str, float] | None = None
) -> Message:
    """The one parse of a chat message (cached per text, names and sizes). `names` maps a canonical entity name
    to its aliases (district schools); a NAME mention carries the canonical name, or '' with `role='unknown'`
    and the closest canonical names in `candidates` for an unknown capitalised entity ('Roosevelt High').
    `sizes` are the container sizes the conversation stated before (`container_sizes` of earlier messages:
    {'box': 24}): a count of that container in this message is multiplied out ('room for 20 boxes' = 480)."""
    key = tuple((str(c), tuple(str(a) for a in al)) for c, al in (names or {}).items())
    return _cached(text, key, tuple(sorted((sizes or {}).items())))


def container_sizes(message: Message) -> dict[str, float]:
    """The container sizes a message states ('boxes of 24', 'a crate is 24 jars', 'cases of four six-packs'):
    container -> items, to remember for the next messages of the conversation. A size taken back is replaced by
    the bare figure after it ('one pallet, which holds 50 bags, no wait, 48': 48)."""
    sizes: dict[str, float] = {}
    ordered = sorted(message.mentions, key=lambda m: m.span)
    for n, m in enumerate(ordered):
        if m.kind is not Kind.QUANTITY or not m.container or m.multiplier == 1:  # a price per box is no size
            continue
        if not m.scope & Scope.CORRECTED:
            sizes[m.container] = m.multiplier
            continue
        bare = (x for x in ordered[n + 1 :] if x.live and x.kind is Kind.QUANTITY and x.multiplier == 1
                and x.container != m.container and x.unit in (None, "item"))  # fmt: skip
        if (new := next(bare, None)) is not None:
            sizes[m.container] = float(new.value)
    return sizes


def pack_sizes(message: Message) -> dict[str, float]:
    """The packs a message names by their contents ('three six-packs', '12-packs'): container -> items (under
    its spelled and its digit name). The
    parse keeps such a count in packs (the pack may be the unit the owner plans in); a reader that counts
    single items multiplies it out with these sizes."""
    sizes = {}
    for m in message.of(Kind.QUANTITY):
        head, _, tail = (m.container or "").rpartition("-")
        words = head.split("-")
        size = read_number(head) if head.isdigit() else (_read_number(words, 0) or (None, 0))[0]
        if head and tail in _COMPOUND_HEADS and size:
            sizes[m.container] = sizes[f"{size:g}-pack"] = float(size)  # 'six-pack' and '6-pack' alike
    return sizes


parse.cache_info = _cached.cache_info  # type: ignore[attr-defined]
parse.cache_clear = _cached.cache_clear  # type: ignore[attr-defined]
