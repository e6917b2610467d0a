"""The pack the owner sells or plans in (issue 27, blind batch 5): 'we sell them in packs of six', 'we sell eggs by
the dozen carton', 'plan how many six-packs'. The table then counts those packs, so demand said in their contents
('about 120 sausages a day', '288 eggs a day', '60 cans a day') is divided by the pack size and read back; a pack
the goods only come in ('buns, they come in packs of 8') is no such statement. Reads the one parse only."""

from __future__ import annotations

from dataclasses import dataclass

from core.inventory.nlu.extractors import is_bare_spread
from core.text.mentions import Kind, Mention, Message, plural
from core.text.numbers import _read_number, format_number
from core.text.vocabulary import CONTAINERS, ITEM_WORDS

_SELL = frozenset({"sell", "sells", "selling", "sold"})
THIRD = frozenset(
    ["they", "he", "she", "wholesaler", "wholesalers", "supplier", "suppliers", "distributor", "distributors",
     "vendor", "vendors", "bakery", "farm", "factory", "brewery", "dairy", "manufacturer", "maker", "makers"]
)  # fmt: skip
"""Someone else selling ('the wholesaler sells them in bunches of a dozen'): a pack bought, not the owner's."""
_PLAN = _SELL | frozenset({"plan", "planning", "count", "counts", "counted", "stock", "stocking"})
_PACKS = frozenset({"case", "crate", "box", "pack", "carton", "tray", "bundle", "bunch", "bag"})
_GENERIC = frozenset({"unit", "item", "piece"})
_NOT_NOUNS = frozenset(
    ["i", "we", "it", "them", "they", "the", "a", "an", "to", "how", "many", "of", "our", "my", "in", "by", "and",
     "want", "need", "plan", "sell", "sells", "selling", "sold", "have", "count", "counts", "dozen", "us", "per",
     "day", "days", "week", "weeks", "month", "months", "each", "every", "a", "about", "around", "some"]
)  # fmt: skip


@dataclass(frozen=True)
class PlanUnit:
    """The pack the table counts: its name ('pack', 'carton', 'six-pack'), how many items one holds, and the
    words of the statement that may name its contents ('sausages', 'eggs')."""

    container: str
    size: float
    nouns: frozenset[str]
    sold: bool = False
    """Only 'we sell X in cases of 6' was said (no 'plan', 'count' or 'stock'): the case may be how it is sold
    while the owner counts bottles, so demand in an unnamed item word is asked (`said_in_contents`)."""

    @property
    def plural(self) -> str:
        return plural(self.container)


def stated(said: Message) -> PlanUnit | None:
    """The pack a message says the owner sells or plans in, or None ('we sell our IPA in six-packs but I count
    stock in cans': the owner counts the cans, so the pack is only a size)."""
    if singles(said) is not None:
        return None
    nouns = frozenset(w for w in said.words() if w.isalpha() and w not in _NOT_NOUNS and w not in CONTAINERS)
    for c in range(len(said.clauses)):
        words = list(said.words(c))
        by_unit = any(
            words[j : j + 2] == ["by", "the"] and words[j + 2 : j + 3] != ["dozen"] for j in range(len(words))
        )
        if by_unit:
            continue  # 'we sell them by the stem, in bunches of ten': the stem is the unit, named outright
        for i, w in enumerate(words):
            verb = (
                _PLAN & set(words[max(0, i - 6) : i]) if not THIRD & set(words[max(0, i - 9) : i]) else set()
            )
            if CONTAINERS.get(w) in _PACKS and i + 2 < len(words) and words[i - 1 : i] == ["in"]:
                size = _number(words, i + 2) if words[i + 1] == "of" and _SELL & verb else None
                if size and size > 1:  # 'we sell them in packs of six'
                    return PlanUnit(CONTAINERS[w], size, nouns, not _counts_in(said, CONTAINERS[w]))
            by_dozen = w == "dozen" and words[i - 2 : i] == ["by", "the"] and i + 1 < len(words)
            if by_dozen and _SELL & verb and CONTAINERS.get(words[i + 1]) in _PACKS:
                return PlanUnit(CONTAINERS[words[i + 1]], 12.0, nouns)  # 'we sell eggs by the dozen carton'
            if w in ("pack", "packs") and i > 0 and verb and f"{words[i - 1]}-{w}" in said.text.lower():
                size = _number(words, i - 1)
                if size and size > 1:  # 'plan how many six-packs', 'we count it in 4-packs'
                    return PlanUnit(f"{words[i - 1]}-pack", size, nouns)
    return None


_SINGLE = frozenset({"single", "singles", "individual", "individually", "singly", "loose", "separately"})
_TALLY = frozenset({"count", "counts", "counted", "counting", "stock", "stocked", "track", "tracks", "tracked"})


def singles(said: Message) -> str | None:
    """The single item a message says the owner sells or counts in ('we sell single bottles', 'so I count single
    pens', 'sell them individually', 'I count stock in cans'), singular ('bottle', 'pen', 'item' when unnamed),
    or None. The table then counts those items: a count of a container of known size ('2 crates a day', '40
    six-packs') is multiplied out, never written as containers, and the pack is no unit the owner plans in."""
    for c in range(len(said.clauses)):
        words = list(said.words(c))
        for i, w in enumerate(words):
            verb = bool(_PLAN & set(words[max(0, i - 4) : i])) and not THIRD & set(words[max(0, i - 4) : i])
            if verb and w in _SINGLE:  # 'we sell single bottles', 'sell them individually'
                noun = words[i + 1] if i + 1 < len(words) and words[i + 1].isalpha() else ""
                return _one(noun) if noun and noun not in _NOT_NOUNS else "item"
            tally = bool(_TALLY & set(words[max(0, i - 3) : i]))
            if tally and words[i - 1 : i] == ["in"] and ITEM_WORDS.get(w) not in (None, *_GENERIC):
                return ITEM_WORDS[w]  # 'I count stock in cans', 'we track it in bottles'
    return None


def _one(word: str) -> str:
    """The singular of an item noun ('bottles' -> 'bottle', 'pens' -> 'pen', 'boxes' -> 'box')."""
    if word in ITEM_WORDS:
        return ITEM_WORDS[word]
    return word[:-2] if word.endswith(("xes", "ches", "shes")) else word.removesuffix("s")


def _counts_in(said: Message, container: str) -> bool:
    """Whether the message says the owner plans, counts or stocks in the pack itself ('and count trays', 'plan
    in packs'); 'need a plan for 2 months' is no such statement."""
    words = list(said.words())
    return any(
        w in _PLAN - _SELL and container in {CONTAINERS.get(x) for x in words[i + 1 : i + 4]}
        for i, w in enumerate(words)
    )


def said_in_contents(said: Message, unit: PlanUnit) -> str:
    """The item word a sold-only pack's demand is said in when its statement did not name it ('we sell prosecco
    in cases of 6', then '9 bottles a day': 'bottles'), else '': cases or bottles is then the owner's to say. A
    noun of the statement ('we sell burgers in boxes of 8', '96 burgers a day') stays divided into packs."""
    named = {n.removesuffix("s") for n in unit.nouns}
    for m in said.of(Kind.QUANTITY):
        if (
            unit.sold
            and m.period is not None
            and m.role != "size"
            and m.multiplier == 1
            and m.container in set(ITEM_WORDS.values()) - _GENERIC - {unit.container}
            and m.container not in named
        ):
            words = m.text.split()
            return words[1].lower() if len(words) > 1 and words[1].isalpha() else f"{m.container}s"
    return ""


def _contents(m: Mention, text: str, unit: PlanUnit) -> str:
    """The single items a container count names as its contents ('10 crates of 24 cans' -> 'cans', '10 trays of
    30 yoghurts' -> 'yoghurts', the word after the count) when they are what the plan's pack holds (an item word
    or a noun of the pack's statement), else ''."""
    last = m.text.split()[-1].strip(".,;:!?").lower() if m.text.split() else ""
    if not last.isalpha():
        after = text[m.span[1] :].split(maxsplit=1)
        last = after[0].strip(".,;:!?").lower() if after else ""
    one = last.removesuffix("es") if last.endswith(("xes", "ches", "shes")) else last.removesuffix("s")
    if last == unit.container or one == unit.container or not one.isalpha():
        return ""
    items = set(ITEM_WORDS.values()) - _GENERIC
    return last if one in items or one in {n.removesuffix("s") for n in unit.nouns} else ""


def unsized(text: str, said: Message, unit: PlanUnit) -> str:
    """The message that states the plan's pack with that pack's size said as its name only ('we sell them in
    packs of six, about 25 packs a day' -> '... in packs, about 25 packs a day'): the table counts the packs, so
    the count in the same message is never multiplied by the size."""
    for m in sorted(said.of(Kind.QUANTITY), key=lambda q: q.span, reverse=True):
        if m.role == "size" and m.container == unit.container:
            text = text[: m.span[0]] + unit.plural + text[m.span[1] :]
    return text


def number_word(word: str) -> float | None:
    """The number one word says ('six', '6', 'twelve'), or None ('case')."""
    return _number([word], 0)


def _number(words: list[str], i: int) -> float | None:
    """The number said at words[i] ('six', '6'), or None."""
    if words[i].replace(".", "", 1).isdigit():
        return float(words[i])
    read = _read_number(words, i)
    return read[0] if read else None


def in_plan_unit(text: str, said: Message, unit: PlanUnit, notes: list[str]) -> str:
    """Counts of the pack's contents ('about 120 sausages a day', '60 cans') said as counts of packs, each
    conversion read back in `notes` ('120 sausages ÷ 6 per pack = 20 packs')."""
    swaps: list[tuple[int, int, str]] = []
    noun_of_mean = ""  # the contents named by the last amount divided ('sausages')
    for m in sorted(said.of(Kind.QUANTITY), key=lambda q: q.span):
        if noun_of_mean and is_bare_spread(text, m):  # '60 sausages a day, give or take a dozen': sausages too
            count = format_number(m.amount / unit.size)
            notes.append(
                f"give or take {format_number(m.amount)} {noun_of_mean} ÷ {format_number(unit.size)} "
                f"per {unit.container} = {count} {unit.plural}"
            )
            swaps.append((m.span[0], m.span[1], count))
            continue
        noun_of_mean = ""
        if unit.size == 12 and m.role != "size" and {"dozen", "dozens"} & set(m.text.lower().split()):
            count = format_number(m.amount / 12)  # '15 dozen a day' where the pack is a dozen: 15 packs
            notes.append(f"{m.text.strip()}: {count} {unit.plural} of a dozen")
            rate = f" per {m.period}" if m.period else ""
            swaps.append((m.span[0], m.span[1], f"{count} {unit.plural}{rate}"))
            continue
        contents = _contents(m, text, unit) if m.multiplier != 1 and m.container != unit.container else ""
        if m.role != "size" and contents:  # '10 crates of 24 cans' where the table counts six-packs
            count = format_number(m.amount / unit.size)
            notes.append(
                f"{m.text.strip()} {contents} = {format_number(m.amount)} {contents} ÷ {format_number(unit.size)} "
                f"per {unit.container} = {count} {unit.plural}".replace(f" {contents} {contents} ", f" {contents} ")
            )
            rate = f" per {m.period}" if m.period else ""
            swaps.append((m.span[0], m.span[1], f"{count} {unit.plural}{rate}"))
            continue
        if m.role == "size" or m.multiplier != 1 or m.container == unit.container:
            continue
        end = m.span[1]
        noun = ""
        if m.container in set(ITEM_WORDS.values()) - _GENERIC:
            noun = m.text.split()[1] if len(m.text.split()) > 1 else m.container
        elif m.container is None and m.unit is None:
            after = text[end:].split(maxsplit=1)
            word = after[0].strip(".,;:!?").lower() if after else ""
            if word.rstrip("s") in {n.rstrip("s") for n in unit.nouns}:  # 'yoghurt' named, 'yoghurts' said
                noun, end = word, end + text[end:].index(after[0]) + len(word)
        if not noun:
            continue
        noun_of_mean = noun
        count = format_number(float(m.value) / unit.size)
        notes.append(
            f"{format_number(float(m.value))} {noun} ÷ {format_number(unit.size)} per {unit.container} "
            f"= {count} {unit.plural}"
        )
        rate = f" per {m.period}" if m.period and m.container else ""
        swaps.append((m.span[0], end, f"{count} {unit.plural}{rate}"))
    for start, end, new in sorted(swaps, reverse=True):
        text = text[:start] + new + text[end:]
    return text


_SUPPLY = frozenset(
    {"come", "comes", "arrive", "arrives", "delivered", "ship", "ships", "shipped", "supplied"}
)
_OUTER = frozenset({"case", "crate", "box", "pack", "carton", "tray"})


def supplied_in(said: Message) -> set[str]:
    """Packs a message says the goods come in ('they come in packs of 8', 'arrive in boxes of 12', or with no
    verb at all: 'sparkling water in crates of 24'): outer packs only (a bag or a tub is often the item itself).
    A pack the owner sells, plans or makes up in ('we sell them in packs of six') is no such pack."""
    out: set[str] = set()
    for m in said.of(Kind.QUANTITY):
        if m.role != "size" or m.container not in _OUTER:
            continue
        words = said.words(m.clause)
        for i, w in enumerate(words[:-1]):
            into = w == "in" and CONTAINERS.get(words[i + 1]) == m.container
            verbless = into and not (_PLAN | _MAKE | _SUPPLY) & set(words[:i]) and words[i + 2 : i + 3] == ("of",)
            if verbless or (w in _SUPPLY and words[i + 1] == "in" and CONTAINERS.get(_at(words, i + 2)) == m.container):
                out.add(m.container)
    return out


def _at(words: tuple[str, ...], i: int) -> str:
    """The word at `i`, or '' past the end."""
    return words[i] if i < len(words) else ""


_MAKE = frozenset(
    {"made", "packed", "packaged", "bagged", "boxed", "wrapped", "portioned", "bundled", "bottled", "canned"}
)


def own_packs(said: Message) -> dict[str, float]:
    """Packs the owner names their goods in, with both the pack and its size ('sausages, made up in packs of 6',
    'we can our IPA six-packs', '90 cans a day in six-packs'): pack -> items. Demand said in the contents is then
    open (packs or single items) and asked (`conflicts.count_basis`); 'can' or 'bottle' as a verb names no pack."""
    out: dict[str, float] = {}
    text = said.text.lower()
    for c in range(len(said.clauses)):
        words = list(said.words(c))
        for i, w in enumerate(words):
            if w in ("pack", "packs") and i > 0 and f"{words[i - 1]}-{w}" in text:
                size = _number(words, i - 1)
                if size and size > 1:  # 'our IPA six-packs': a pack named by its contents
                    out[f"{words[i - 1]}-pack"] = out[f"{format_number(size)}-pack"] = size
            made = _MAKE & set(words[max(0, i - 3) : i]) and words[i - 1 : i] == ["in"]
            if made and CONTAINERS.get(w) in _PACKS and words[i + 1 : i + 2] == ["of"] and i + 2 < len(words):
                size = _number(words, i + 2)
                if size and size > 1:  # 'made up in packs of 6', 'packed in trays of 12'
                    out[CONTAINERS[w]] = size
    return out


_LINEAR = frozenset({"normal", "uniform", "poisson", "deterministic", "constant"})


def per_pack(value: str, size: float) -> str | None:
    """A daily demand in single items said in packs of `size` ('normal(120,12)', 6 -> 'normal(20,2)'): every
    parameter divided (a Poisson's mean too, the reading shown to the owner); None for other shapes."""
    name, _, args = value.partition("(")
    try:
        numbers = [float(a) / size for a in args.rstrip(")").split(",")] if args else [float(value) / size]
    except ValueError:
        return None
    if args and name not in _LINEAR:
        return None
    shown = ",".join(format_number(n) for n in numbers)
    return f"{name}({shown})" if args else shown
