"""Risk preference on the -10 (very risk-averse) .. 10 (very risk-seeking) scale: a number, or words.

Words are read by the learned dialogue acts (`risk_averse`, `risk_seeking`, `risk_neutral`, `skip` in
`core/inventory/intents.toml`): a direction, graded by the toolkit's `intensity` ('a bit' ±2, plain or 'pretty'
±5, 'very' ±8); such a reading is approximate and the agent asks the user to confirm it before storing it.
Neutral words give 0 directly, and so does no preference ('not sure', 'you decide'), unless one clause leans a
way ('middle of the road, maybe a tiny bit careful': a mild lean, confirmed like any words). Below the act's
confidence nothing is read, so the agent asks. Only a number that can be on the scale counts: not
'5 loaves', '$5', '5%' or '5 days'. A positive number said with careful words ('maybe a 6 on the careful side') is
read as below 0 and put to the user to confirm.
"""

from __future__ import annotations

from functools import lru_cache

from core.inventory.nlu import intents
from core.text.clauses import split_clauses
from core.text.cues import token_after
from core.text.degree import Degree, intensity
from core.text.intents import Prediction
from core.text.mentions import Token, parse
from core.text.numbers import find_numbers, find_percentages, format_number, outside
from core.text.units import find_money

_SCALE_FOLLOWERS = frozenset(
    ["out", "of", "on", "or", "and", "i", "id", "im", "we", "were", "please", "maybe", "probably", "perhaps", "is",
     "would", "should", "sound", "sounds", "seem", "seems", "feel", "feels", "point", "points", "then", "thanks",
     "thank", "for", "to", "too", "tops", "max", "at", "as", "fine", "ok", "okay", "works", "because", "since",
     "but", "though", "if"]
)  # fmt: skip
"""Words that may follow a number meant on the scale ('3 out of 10', '3 I guess', "3 I'd say"); '5 loaves' or
'5 days' is not on it. The end of the text or a symbol ('3.', '3, maybe') may follow it too."""
_MINUS = frozenset(["minus", "negative"])
_CAREFUL = frozenset(["careful", "cautious", "safe", "conservative", "averse"])
"""Words that put a positive number said beside them below 0 ('a 6 on the careful side'), to confirm."""
_SIZE = {Degree.MILD: 2, Degree.PLAIN: 5, Degree.STRONG: 8}
"""How far from neutral an attitude in words lands: 'a bit careful' -2, 'careful' -5, 'very careful' -8."""
RISK_CONFIDENCE = 0.6
"""How sure the learned act must be before words are read as a risk attitude; below it nothing is read and the
agent asks for a number."""
_DIRECTION = {"risk_averse": -1, "risk_seeking": 1}
_NEUTRAL = ("risk_neutral", "skip")
"""Neutral words and no preference ('not sure', 'you decide'): the neutral 0."""


def read_risk(text: str) -> tuple[str, str] | None:
    """(value, words) for a risk answer: words is empty for an exact number or a neutral word, else the
    description that was interpreted; None when there is nothing to read."""
    toks = parse(text).toks
    found = [
        n for n in outside(find_numbers(text), (*find_money(text), *find_percentages(text))) if _on_scale(text, toks, n.end)
    ]
    if len(found) > 1 and _own_after(text[found[-2].end : found[-1].start]):
        found = found[-1:]  # 'my partner says -5, but I'd say -2': the speaker's own number
    numbers = [_signed(text, toks, n.start, n.value) for n in found]
    scale = {-10.0, 10.0}
    useful = [n for n in numbers if n not in scale] or numbers
    if len(numbers) >= 2 and set(numbers[:2]) == scale:
        useful = numbers[2:]
    if useful:
        careful = _CAREFUL & set(parse(text).words()) and _act(text).intent == "risk_averse"
        if useful[0] > 0 and careful and _act(text).confidence >= RISK_CONFIDENCE:
            return format_number(-useful[0]), text.strip(" .!?\n")  # 'a 6 on the careful side': -6, confirmed
        return format_number(useful[0]), ""
    attitude = _before_softener(text)
    act = _act(attitude or text)
    if act.confidence < RISK_CONFIDENCE:
        return None
    if act.intent in _NEUTRAL:
        leaning = _leaning(text)
        if leaning is not None:
            return format_number(_DIRECTION[leaning[0]] * _SIZE[Degree.MILD]), leaning[1]
        return "0", ""
    if act.intent not in _DIRECTION:
        return None
    degree = Degree.MILD if attitude is not None else intensity(text)
    return format_number(_DIRECTION[act.intent] * _SIZE[degree]), text.strip(" .!?\n")


_SOFTENERS = (("not", "too", "much"), ("not", "that", "much"), ("not", "overly"), ("not", "excessively"),
              ("not", "too", "far"), ("not", "to", "the", "extreme"), ("not", "extremely"))  # fmt: skip
"""A negated amount ending an answer after an attitude ('a little careful, not too much'): it softens the
attitude said before it to a mild one, it does not negate it."""
_TAIL_FILLERS = frozenset(["though", "tho", "either", "really", "please", "i", "guess", "think", "say", "would"])
_JOINERS = frozenset(["but", "and", "yet", "just"])


def _softener_at(text: str) -> tuple[list[Token], int] | None:
    """The parse's word tokens and the index where a softening tail (`_SOFTENERS`, with the joiner before it)
    that ends the answer starts, or None when there is none."""
    toks = [t for t in parse(text).toks if t.kind == "word"]
    words = [t.low for t in toks]
    end = len(words)
    while end and words[end - 1] in _TAIL_FILLERS:
        end -= 1
    for tail in _SOFTENERS:
        k = end - len(tail)
        if k >= 0 and tuple(words[k:end]) == tail:
            while k > 0 and words[k - 1] in _JOINERS:
                k -= 1
            return toks, k
    return None


def only_softener(text: str) -> bool:
    """'not too much', 'but not overly': a softening tail said on its own, which grades what came before it."""
    found = _softener_at(text)
    return found is not None and found[1] == 0


def _before_softener(text: str) -> str | None:
    """The words said before a softening tail that ends the answer ('a little careful' of 'a little careful, not
    too much'), or None when there is no such tail or nothing before it."""
    found = _softener_at(text)
    if found is None or found[1] == 0:
        return None
    toks, k = found
    return text[: toks[k - 1].end]


_SELF = frozenset(["i", "i'd", "id", "i'm", "im", "me", "myself", "personally"])


def _own_after(between: str) -> bool:
    """'..., but I'd say', 'but personally': the number after it is the speaker's own against one before it."""
    words = set(parse(between).words())
    return "but" in words and bool(_SELF & words)


def _on_scale(text: str, toks: tuple[Token, ...], end: int) -> bool:
    """Whether what follows the number ending at `end` lets it be a point on the scale (`_SCALE_FOLLOWERS`, the
    end of the text or a symbol), read on the parse's next token."""
    i = token_after(toks, end)
    rest = text[end : toks[i].end if i < len(toks) else len(text)].lstrip()
    if not rest or not (rest[0].isalnum() or rest[0] == "_"):
        return True
    if i == len(toks):
        return False
    word = toks[i].low if len(rest) == len(toks[i].text) else ""
    return toks[i].kind == "word" and (word in _SCALE_FOLLOWERS or word.split("'")[0] in _SCALE_FOLLOWERS)


def _signed(text: str, toks: tuple[Token, ...], start: int, value: float) -> float:
    """The number with the sign a word before it gives ('minus 3', 'negative 2')."""
    k = token_after(toks, start) - 1
    before = toks[k] if k >= 0 else None
    if before and before.low in _MINUS and value > 0 and not text[before.end : start].strip():
        return -value
    return value


LEANING_CONFIDENCE = 0.35
"""How sure the learned act must be that one clause of a neutral answer leans one way ('middle of the road,
maybe a tiny bit careful'); the reading is put to the user, so a lower bar than `RISK_CONFIDENCE` is safe."""


def _leaning(text: str) -> tuple[str, str] | None:
    """(act, clause) of the one clause of a neutral answer that leans a direction: 'I guess I'm slightly cautious?
    not a big deal either way' is a mild caution to confirm, not the neutral 0 written silently. None when no
    clause leans, or clauses lean both ways."""
    leaning = [
        (act.intent, clause)
        for clause in split_clauses(text)
        if (act := _act(clause)).intent in _DIRECTION and act.confidence >= LEANING_CONFIDENCE
    ]
    if len({intent for intent, _ in leaning}) != 1:
        return None
    return leaning[0][0], text.strip(" .!?\n")


def unsure(text: str) -> bool:
    """No preference stated ('not sure', 'no idea', 'you decide'): the neutral 0 is the sensible default."""
    act = _act(text)
    return act.intent == "skip" and act.confidence >= RISK_CONFIDENCE


@lru_cache(maxsize=256)
def _act(text: str) -> Prediction:
    """The learned dialogue act of a risk answer (cached: `read_risk` and `unsure` read the same text)."""
    return intents.predict(text)
