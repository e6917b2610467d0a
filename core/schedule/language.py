"""Small text readers for the offline agent: school mentions, clock times, limits and intent cues.

Numbers, clock times, clauses and entity matching come from the shared toolkit `core.text`; this module
keeps the scheduling vocabulary (load, change and reduce words read from the one parse's words: `load_cue`,
`change_cue`, `reduce_cue`; grade groups). The request a message makes
when no rule fits is learned from `core/schedule/intents.toml` (`intent`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from core.schedule.state import school_aliases
from core.text.clauses import split_clauses as _split
from core.text.cues import WordCue
from core.text.entities import EntityIndex, Mention
from core.text.intents import IntentClassifier, Prediction, classifier
from core.text.mentions import Kind, Scope, parse
from core.text.negation import negated_at
from core.text.numbers import find_numbers, words_to_digits
from core.text.spelling import respelt
from core.text.units import clock_times as _clock_times
from core.text.units import hours_as_minutes
from core.text.vocabulary import ENTITY_HEADS
from solvers.schedule.data import District

BANK = Path(__file__).resolve().parent / "intents.toml"

_LIMIT_TEXT = ("under", "below", "at most", "no more than", "max", "cap", "limit", "within", "less than", "fewer than",
               "<", "up to", "not exceed", "keep")  # fmt: skip
_LIMIT_TEXT_2 = ("bring", "target", "≤", "=<")
_LIMIT_TEXT_3 = ("or less", "or fewer", "at the most")
_LIMIT_TEXT_4 = ("ceiling",)
"""Stretches of text that state a ceiling wherever they stand ('under 2,100', 'the maximum', '2,200 max'), in the
order they are tried when two begin at the same place."""
_PAST = frozenset(["cannot", "can't"])
_MOVE_STEMS = ("reduc", "lower", "cut", "drop", "trim", "bring", "get", "push", "decreas", "shrink", "take")
_MORE = ("more", "higher", "greater", "bigger", "over", "above", "exceed")
_LIMIT_WINDOW = 40
"""'cut it from 25 to 23', "don't let more than 2,000": the second word at most this many characters on, in the
same sentence."""


def _limit_cue(text: str) -> int | None:
    """Where the first stretch that states a ceiling ends in a lower-cased text ('under', 'no more than', 'tops out
    at', "can't go past", 'get it to', 'hold the peak under', 'cut it from 25 to', "don't let more"), else None: the
    earliest one, and of two at the same place the one `_limit_candidates` lists first. Its words come from the one
    parse (`core.text.mentions.parse`)."""
    found = min(_limit_candidates(text), default=None)
    return None if found is None else found[2]


def _limit_candidates(text: str) -> list[tuple[int, int, int]]:
    """(start, rank, end) of every stretch that states a ceiling."""
    out = []
    for rank, literals in enumerate((_LIMIT_TEXT, _LIMIT_TEXT_2, _LIMIT_TEXT_3, _LIMIT_TEXT_4)):
        for literal in literals:
            if (at := text.find(literal)) >= 0:
                out.append((at, rank * 10, at + len(literal)))
    message = parse(text)
    words, spans = message.words(), message.word_spans()

    def next_to(i: int, j: int) -> bool:  # word j follows word i after one space
        return j < len(words) and text[spans[i][1] : spans[j][0]] == " "

    def run(i: int, *slots: tuple[str, ...]) -> int | None:  # end of the words i.. that start with the slots' words
        for k, slot in enumerate(slots):
            j = i + k
            if not ((k == 0 or next_to(j - 1, j)) and j < len(words) and words[j].startswith(slot)):
                return None
            if k == len(slots) - 1:
                return spans[j][0] + len(next(w for w in slot if words[j].startswith(w)))
        return None

    for i, word in enumerate(words):
        start = spans[i][0]
        if word in ("top", "tops", "peak", "peaks") and (end := run(i, (word,), ("out",), ("at",))):
            out.append((start, 1, end))
        if word in _PAST and (end := run(i, (word,), ("go", "get"), ("past", "beyond", "over"))):
            out.append((start, 2, end))
        if word.endswith("get"):
            end = next((e for n in (1, 2, 3) if (e := _object_to(i, n, words, next_to, run, ("to",)))), None)
            if end:
                out.append((spans[i][1] - 3, 3, end))
        if word in ("only", "tops"):
            out.append((start, 15, spans[i][1]))
        can = ("handle", "take", "cover", "manage", "afford")
        if word.endswith("can") and next_to(i, i + 1) and (end := run(i + 1, can)):
            out.append((spans[i][1] - 3, 35, end))
        if word == "hold":
            stops = ("to", "at", "under", "below", "down")
            end = next((e for n in (1, 2, 3) if (e := _object_to(i, n, words, next_to, run, stops))), None)
            if end and words[i + 1] in ("it", "them", "that", "this", "the") and _whole(words, spans, end):
                out.append((start, 36, end))
        if word == "the" and run(i, ("the",), ("most",)) and _whole(words, spans, spans[i + 1][1]):
            out.append((start, 45, spans[i + 1][1]))
        stems = [word.find(stem) for stem in _MOVE_STEMS if stem in word]
        if stems and (end := _window(text, words, spans, i, lambda j: words[j] == "to" and _before_digit(text, spans[j][1]))):
            out.append((start + min(stems), 50, end))
        if (word.endswith("n't") or word in ("not", "never", "no")) and (
            end := _window(text, words, spans, i, lambda j: words[j].startswith(_MORE), _MORE)
        ):
            out.append((spans[i][1] - 3 if word.endswith("n't") else start, 51, end))
    return out


def _object_to(i: int, n: int, words, next_to, run, stops: tuple[str, ...]) -> int | None:
    """End of 'get it to' / 'hold the peak under': word i, an object of `n` words ('it', 'that', 'this', 'them' or
    'the' and one or two words), then one of `stops`."""
    objects = (("it",), ("that",), ("them",), ("this",)) if n == 1 else (("the",),)
    if i + n + 1 >= len(words) + 1 or not any(words[i + 1 : i + 2] == o for o in objects):
        return None
    if any(not next_to(j, j + 1) for j in range(i, i + n)) or (n == 1 and words[i + 1] == "the"):
        return None
    return run(i + n + 1, stops) if next_to(i + n, i + n + 1) else None


def _whole(words: tuple[str, ...], spans: tuple[tuple[int, int], ...], end: int) -> bool:
    """Whether `end` is the end of a word (no letter of the same word follows)."""
    return any(b == end for _, b in spans)


def _before_digit(text: str, end: int) -> bool:
    """Whether spaces and then a digit follow `end` ('to 23')."""
    rest = text[end:]
    gap = len(rest) - len(rest.lstrip())
    return gap > 0 and rest[gap : gap + 1].isdigit()


def _window(text: str, words, spans, i: int, fits, prefixes: tuple[str, ...] = ()) -> int | None:
    """End of the first word after word i, at most `_LIMIT_WINDOW` characters on in the same sentence, that `fits`:
    its end, or with `prefixes` the end of the prefix it starts with; for 'to' the start of the number after it."""
    end = spans[i][1]
    for j in range(i + 1, len(words)):
        a, b = spans[j]
        if a - end > _LIMIT_WINDOW or "." in text[end:a] or ";" in text[end:a]:
            return None
        if fits(j):
            if prefixes:
                return a + len(next(p for p in prefixes if words[j].startswith(p)))
            rest = text[b:]
            return b + len(rest) - len(rest.lstrip())
    return None


def _runs(*slots: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every word run the slots spell, in order: each slot lists its alternatives ('' for none, words split at
    spaces)."""
    runs: list[tuple[str, ...]] = [()]
    for slot in slots:
        runs = [run + tuple(alt.split()) for run in runs for alt in slot]
    return tuple(runs)


_SCHOOL = ("school", "schools", "site", "sites", "campus", "campuses")
_EVERY = ("every", "each", "any", "no", "not one", "not a single")
_NONE_BEFORE = ("before", "after", "earlier", "later", "start", "at")
"""'none' quantifies the schools only before one of these ('none before 8:30', 'none starts at 7:50')."""
_GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "ALL": (
        *_runs(("all", "each", "every"), ("", "the", "of the", "our"), ("other",), _SCHOOL),
        *_runs(("everyone", "everybody"), ("else",)),
        *_runs(("the",), ("other", "remaining"), ("schools",)),
        *_runs(("the rest of",), ("the", "our"), ("schools",)),
        *_runs(("all",), ("", "the", "of the", "our"), ("schools",)),
        ("every", "school"), ("each", "school"), ("the", "whole", "district"), ("no", "school"), ("no", "schools"),
        ("everyone",), ("everybody",), ("none",), ("none", "of", "the", "schools"), ("any", "school"),
    ),
    "HS": (
        ("high", "schools"), *_runs(("all",), ("", "the"), ("high",), _SCHOOL), *_runs(_EVERY, ("high",), _SCHOOL),
        ("the", "hs", "schools"),
    ),
    "MS": (("middle", "schools"), *_runs(("all",), ("", "the"), ("middle",), _SCHOOL), *_runs(_EVERY, ("middle",), _SCHOOL)),
    "ES": (
        ("elementary", "schools"), ("elementaries",), *_runs(("all",), ("", "the"), ("elementary",)),
        *_runs(_EVERY, ("elementary",)),
    ),
    "PK": (
        *_runs(("pre k", "prek"), ("schools", "programs", "classes", "classrooms", "centers", "sites")),
        ("preschools",), ("pre", "schools"), *_runs(("all",), ("", "the"), ("pre k", "prek")),
        *_runs(_EVERY, ("preschool", "pre school")),
        *_runs(("every", "each", "any", "no"), ("pre k", "prek"), _SCHOOL + ("program", "programs", "")),
    ),
    "K8": (
        ("k", "8", "schools"), *_runs(("all",), ("", "the"), ("k 8",)),
        *_runs(("every", "each", "any", "no"), ("k 8",), _SCHOOL + ("",)),
    ),
}  # fmt: skip
"""Grade groups in every quantified form, as runs of the one parse's words: 'the middle schools', 'all/every/each/any
middle school', 'no middle school should ...' (the negation then binds to the time: 'no middle school before 8:30'
forbids the earlier starts), 'none of the high schools'. At each word the first run that fits wins (the earliest
word first), as a regex alternation would."""


def _group_words(low: str) -> list[tuple[str, int, int]]:
    """The one parse's words of a lower-cased text with their spans; 'k8' is the words 'k' and '8' as 'k-8' is."""
    message = parse(low)
    out = []
    for word, (a, b) in zip(message.words(), message.word_spans(), strict=True):
        bare = word.removesuffix("'s")  # "each school's bell" speaks of each school
        out.append((bare, a, b - len(word) + len(bare)))
        if word == "k" and low[b : b + 1] == "8":
            out.append(("8", b, b + 1))
    return out


def _spaced(low: str, words: list[tuple[str, int, int]]) -> bool:
    """Whether the words of a run stand apart by spaces only ('pre-k' and 'k-8' may carry their hyphen)."""
    for (w, _, end), (v, start, _) in zip(words, words[1:], strict=False):
        gap = low[end:start]
        if not (gap.isspace() or (gap in ("", "-") and (w, v) in (("pre", "k"), ("k", "8")))):
            return False
    return True


def _find_group(low: str, runs: tuple[tuple[str, ...], ...]) -> str | None:
    """The text of the first run found in the lower-cased text (at the earliest word), else None; a bare 'none'
    counts only before `_NONE_BEFORE` ('none before 8:30'), and its text keeps the space after it; 'everyone'
    after 'for' is people."""
    words = _group_words(low)
    tokens = [w for w, _, _ in words]
    for i in range(len(tokens)):
        for run in runs:
            if tuple(tokens[i : i + len(run)]) != run or not _spaced(low, words[i : i + len(run)]):
                continue
            end = words[i + len(run) - 1][2]
            if run == ("none",):
                after = tokens[i + 1 : i + 2]
                if not (after and after[0].startswith(_NONE_BEFORE) and low[end : end + 1] == " "):
                    continue
                end += 1
            if run[0] in _PEOPLE and tokens[i - 1 : i] == ["for"]:
                continue  # '9:30 for everyone else': the other children, no school
            return low[words[i][1] : end]
    return None


_PEOPLE = frozenset(["everyone", "everybody"])


_GRADE_CODES = {
    "HS": ("hs", "high"),
    "MS": ("ms", "middle"),
    "ES": ("es", "elementary"),
    "PK": ("pk", "prek", "pre-k"),
    "K8": ("k8", "k-8"),
}


@lru_cache(maxsize=16)
def _index(district: District) -> EntityIndex:
    return EntityIndex(school_aliases(district))


def mentions(text: str, district: District) -> list[Mention]:
    """Every school alias in the text, with its span (`EntityIndex.mentions`)."""
    return _index(district).mentions(text)


def mentioned_schools(text: str, district: District) -> list[tuple[int, str]]:
    """(position, school) for each school named in the text, first mention only, in order of appearance.
    One pass over the words (`EntityIndex`), so a long message costs linear time."""
    found: dict[str, int] = {}
    for mention in _index(district).mentions(text):
        found.setdefault(mention.entity, mention.start)
    return sorted((pos, school) for school, pos in found.items())


def school_spans(text: str, district: District) -> list[tuple[int, int]]:
    """(start, end) of every school name in the text, in order (each mention, not only the first)."""
    return [(m.start, m.end) for m in _index(district).mentions(text)]


def fuzzy_mentions(text: str, district: District) -> list[tuple[int, str, tuple[str, ...]]]:
    """(position, word, candidate schools) for words that look like a misspelt school name ('everet')."""
    index = _index(district)
    aliases = index.aliases
    taken = {m.start for m in index.mentions(text)}
    out = []
    low = text.lower()
    for start, end in _long_words(low, shortest=3):
        word = low[start:end]
        code = _grade_after(low, end)
        if word in aliases or start in taken or (end - start < 5 and not code):
            continue  # a short word is a name only before its grade words ('cob elementary')
        schools = index.fuzzy(word) if end - start >= 5 else index.fuzzy(word, cutoff=85.0, shortest=4)
        if code:  # 'Everest Elementary' is not Everett MS
            fits = {s.name for s in district.schools if s.grade.strip().lower() in _GRADE_CODES[code]}
            schools = tuple(s for s in schools if s in fits)
        if schools:
            out.append((start, word, schools))
    return out


def group_schools(text: str, district: District) -> list[tuple[str, list[str]]]:
    """(group word, schools) for plural grade groups such as 'the high schools' or 'all middle schools'."""
    out = []
    for code, runs in _GROUPS.items():
        found = _find_group(text.lower(), runs)
        if found is not None:
            names = [
                s.name
                for s in district.schools
                if code == "ALL" or s.grade.strip().lower() in _GRADE_CODES[code]
            ]
            out.append((found, names))
    if len(out) > 1:  # 'Middle schools: none before 8:30': a bare 'none' quantifies the grade group named
        out = [(words, names) for words, names in out if words.strip() != "none"]
    return out


def whole_district(text: str) -> bool:
    """Whether the text speaks of every school at once ('all schools', 'every school', 'everyone', 'no school'),
    or of all the others ('all the other schools', 'everyone else': `rest_of_district`)."""
    return _find_group(text.lower(), _GROUPS["ALL"]) is not None


def rest_of_district(text: str) -> bool:
    """Whether the text speaks of the schools other than the ones named ('the other schools', 'everyone else')."""
    return REST_CUE.found(_words(text.lower()))


def pins(text: str) -> bool:
    """Whether the text asks to hold starts exactly with a verb that says so ('fix', 'lock', 'pin', 'freeze')."""
    return bool(PIN_WORDS.intersection(_words(text)))


def clock_times(text: str, bare: bool = False) -> list[tuple[int, int, int]]:
    """(start, end, minutes) of clock times in a lower-cased clause, spoken ones included ('ten to eight',
    'nine thirty', '9.30', '0840'; see `core.text.units.clock_times`)."""
    return _clock_times(text.lower(), bare=bare, spoken=True)


def negated(window: str) -> bool:
    """Whether a stretch of text (the words leading up to a time or a direction) negates or excludes it
    ('Lick not ', 'instead of ', 'none '; not 'why not move Lick '): `core.text.negation`."""
    return negated_at(window, len(window), exclusions=True) or _bare_no(window)


def _bare_no(window: str) -> bool:
    """'no ' right before a time or direction ('no 7:50 start for Lawton') denies it; 'no, 7:50' answers."""
    stripped = window.rstrip()
    before = stripped[:-2]
    return (
        window[-1:].isspace()
        and stripped.endswith("no")
        and not (before[-1:].isalnum() or before[-1:] in (",", "_"))
    )


def spelled_numbers(text: str) -> str:
    """Spelled-out amounts as digits: 'two thousand' -> '2000', 'twenty five' -> '25'."""
    return words_to_digits(text)


def _without_times(text: str) -> str:
    out, last = [], 0
    for start, end, _ in clock_times(text):
        out += [text[last:start], " "]
        last = end
    return "".join(out) + text[last:]


_COUNTED_STEMS = ("school", "option", "alternative", "proposal", "change", "bell", "slot", "route", "driver", "day",
                  "week", "year", "buses")  # fmt: skip
_COUNTED_WORDS = frozenset(["times", "bus"])
_COUNTED_LEADS = frozenset(["more", "other", "different"])
"""A number that counts something other than students or minutes ('move only 2 schools', 'save 3 buses') is no
limit on either objective: the parse's word right after it (after 'more', 'other' or 'different')."""
_RANKS = frozenset(["number", "priority", "no", "option", "proposal", "step"])
"""'priority number one', 'option 2', 'no. 1', '#2': a rank or a label, not an amount."""


def _counted_or_ranked(text: str, start: int, end: int) -> bool:
    """Whether the number at text[start:end] counts other things or is a rank, from the one parse's words beside it
    (`core.text.mentions.parse`): the word right after it ('3 buses', '2 more schools') or right before it
    ('option 2', 'priority no. 1', '#2')."""
    message = parse(text)
    pairs = list(zip(message.words(), message.word_spans(), strict=True))
    after = [(w, a) for w, (a, _) in pairs if a >= end]
    if after and after[0][0] in _COUNTED_LEADS and not text[end : after[0][1]].strip():
        end, after = after[0][1] + len(after[0][0]), after[1:]
    if after and not text[end : after[0][1]].strip():
        word = after[0][0]
        if word in _COUNTED_WORDS or word.startswith(_COUNTED_STEMS):
            return True
    before = text[:start].rstrip()
    if before.endswith("#"):
        return True
    last = [(w, b) for w, (_, b) in pairs if b <= start]
    return bool(last) and last[-1][0] in _RANKS and not before[last[-1][1] :].strip(" .")


def limit_value(text: str) -> float | None:
    """The number a clause with a limit word limits to: the first one after the limit word ('under 2,100', 'cut
    it from 25 to 23', "don't let more than two thousand"), else the first one ('2,200 max'); clock times
    ignored, hours read as minutes."""
    stripped = spelled_numbers(hours_as_minutes(_without_times(text.lower())).replace("minus ", "-"))
    cue = _limit_cue(stripped)
    if cue is None:
        return None
    numbers = [n for n in find_numbers(stripped) if not _counted_or_ranked(stripped, n.start, n.end)]
    after = [n for n in numbers if n.start >= cue]
    return (after or numbers)[0].value if numbers else None


def carry_limit(previous: str | None, clause: str) -> str:
    """A clause that gives an objective a number but no limit word of its own takes the previous clause's
    ('cap the average change at 5 minutes and the peak at 2,300 students'): returned with 'at most' in front."""
    if previous is None or limit_value(previous) is None or limit_value(clause) is not None:
        return clause
    if not (load_cue(clause) or change_cue(clause)):
        return clause
    if not find_numbers(spelled_numbers(_without_times(clause))):
        return clause
    return f"at most {clause}"




def objective_cues(clause: str) -> tuple[bool, bool]:
    """(load, change): which objectives a clause speaks of. When it names both and states a limit, the unit
    decides: minutes are the average change, students the peak ('the average bell change under 10 minutes')."""
    load, change = bool(load_cue(clause)), bool(change_cue(clause))
    if load and change and limit_value(clause) is not None:
        if MINUTE_WORDS.intersection(words := _words(clause)):
            return False, True
        if HEAD_WORDS.intersection(words):
            return True, False
    return load, change


_COMMA = re.compile(r",(?!\d{3}(?!\d))")


def comma_parts(text: str) -> list[str]:
    """The text cut at its commas, except a thousands separator ('under 2,300' stays whole)."""
    return _COMMA.split(text)


def split_clauses(text: str) -> list[str]:
    """Split a lower-cased message into clauses on sentence ends, semicolons, 'and', 'but', 'also', 'plus'. A
    sentence that only offers another time ("We'd like 7:50. Or 8:40?") stays with the one before it."""
    text = _number_abbreviation(text.lower())
    out: list[str] = []
    for clause in _split(text, commas=False, joiners=("and", "but", "also", "plus", "while")):
        if out and parse(clause).words()[:1] == ("or",) and clock_times(clause) and clock_times(out[-1]):
            out[-1] = f"{out[-1].rstrip(' .')} {clause}"
        else:
            out.append(clause)
    return out


_UNDECIDED = (("not", "sure"), ("don't", "know"), ("dont", "know"), ("can't", "decide"), ("cant", "decide"),
              ("make", "up", "my", "mind"), ("make", "up", "our", "minds"), ("undecided",), ("torn",))  # fmt: skip
"""Words of a speaker who has not chosen ('Honestly I'm not sure', "I can't make up my mind")."""


def undecided(text: str) -> bool:
    """Whether the message says its speaker has not decided: two times offered in it are asked about, not both
    allowed."""
    words = parse(text.lower()).words()
    return any(words[k : k + len(p)] == p for k in range(len(words)) for p in _UNDECIDED if words[k] == p[0])


def _number_abbreviation(text: str) -> str:
    """'priority no. 1: fewer buses' is one clause: 'no.' before a number becomes 'no ' (its full stop ends no
    sentence)."""
    out, start, found = [], 0, text.find("no.")
    while found >= 0:
        end = found + 3
        after = text[end:].lstrip()
        whole = not (text[found - 1 : found].isalnum() or text[found - 1 : found] == "_")
        if whole and after[:1].isdigit():
            out += [text[start:found], "no "]
            start = len(text) - len(after)
        found = text.find("no.", end)
    return "".join(out) + text[start:]


def intents() -> IntentClassifier:
    """The request classifier trained from `core/schedule/intents.toml` (once per process)."""
    return classifier(str(BANK))


def intent(text: str) -> Prediction:
    """What a message (or one clause) asks for ('can we stay closer to today's times?'); remembered, so the
    clauses `prime_intents` classified together are not classified again."""
    found = _INTENTS.get(text)
    if found is None:
        prime_intents([text])
        found = _INTENTS[text]
    return found


_INTENTS: dict[str, Prediction] = {}
_INTENT_CACHE = 2048


def prime_intents(texts: list[str]) -> None:
    """Classify the texts not seen yet in one model call (a call has a fixed cost of a few milliseconds)."""
    new = list(dict.fromkeys(t for t in texts if t not in _INTENTS))
    if not new:
        return
    if len(_INTENTS) + len(new) > _INTENT_CACHE:
        _INTENTS.clear()
    _INTENTS.update(zip(new, intents().predict_many(new), strict=True))


HEAD_GRADES = {"high": "HS", "secondary": "HS", "middle": "MS", "junior": "MS", "intermediate": "MS",
               "elementary": "ES", "primary": "ES", "preschool": "PK", "pre-k": "PK", "prek": "PK",
               "k-8": "K8"}  # fmt: skip
"""The grade a head word of a school name says ('Roosevelt High' is a high school, 'the middle school' one of
the district's middle schools)."""


def unknown_schools(text: str, district: District) -> list[tuple[str, tuple[str, ...]]]:
    """(name, closest district schools) for each school-like name the message gives that is not in the district
    ('Roosevelt High', 'Lincoln Elementary'): the one parse's unknown NAME mentions that end in a head word
    (a misspelt district name such as 'Everet' or 'Everet Middle' stays with `fuzzy_mentions`). The closest names put the schools
    of the grade the head word says first, then the parse's closest spellings; at most three."""
    names: dict[str, list[str]] = {}
    for alias, school in school_aliases(district).items():
        names.setdefault(school, []).append(alias)
    out = []
    for mention in parse(text, names=names).of(Kind.NAME, live_only=False):
        words = mention.text.lower().split()
        heads = [w for w in words if w in ENTITY_HEADS]
        subject = mention.role == "unknown_subject"  # 'Can Roosevelt start later?': no head word, but moved
        if not subject and (mention.role != "unknown" or not heads) or fuzzy_mentions(mention.text, district):
            continue  # 'Everet Middle' is a misspelt Everett MS (`fuzzy_mentions`), not another school
        grade = next((HEAD_GRADES[w] for w in heads if w in HEAD_GRADES), None)
        same = [s.name for s in district.schools if grade and s.grade.strip().lower() in _GRADE_CODES[grade]]
        ranked = [c for c in mention.candidates if c in same] + same + list(mention.candidates)
        out.append((mention.text, tuple(dict.fromkeys(ranked))[:3]))
    return out


_STATING = frozenset(
    ["starts", "opens", "begins", "is", "are", "currently", "now", "today", "we're", "they're", "it's"]
)
"""Words that describe where a school is ('Lawton starts at 9:30', 'opens at 8:00 now', "we're at 8:40, which is
fine, but could we go to 9:30?"); 'both start after' too (`_stating_words`)."""
_ASKING = frozenset(
    [
        "could",
        "can",
        "would",
        "will",
        "please",
        "move",
        "put",
        "make",
        "want",
        "wants",
        "like",
        "prefer",
        "instead",
        "should",
        "let",
        "try",
        "set",
        "change",
        "switch",
        "need",
        "needs",
        "rather",
        "ideally",
        "shift",
        "push",
        "fix",
        "keep",
        "lock",
        "pin",
        "go",
        "how",
        "what",
        "must",
        "fine",
        "ok",
        "okay",
        "except",
        "not",
        "never",
        "no",
        "can't",
        "cannot",
        "won't",
        "shouldn't",
        "don't",
        "doesn't",
        "mustn't",
        "avoid",
    ]
)
"""Words that make a segment a request or a refusal ('could it start at 8:40', 'move Lick to 9:30', '8:40
instead', 'Galileo can't start at 7:50', 'Muir is fine with anything except 7:50')."""
_SEGMENT_ENDS = frozenset(".?!;,")
_STATUS_LEADS = frozenset(["does", "doesn't", "doesnt", "do", "don't", "dont", "did", "didn't", "is", "isn't", "isnt",
                           "are", "aren't", "arent", "was", "has", "hasn't"])  # fmt: skip
"""The first word of a yes/no question about how things stand ('Does Lick start at 8:40?')."""


def _status_question(text: str, start: int, end: int, words: set[str]) -> bool:
    """Whether the stretch is a yes/no question about how things stand, asking nothing: 'Does Lick start at
    8:40?', "isn't Everett at 7:50?" (its times describe, as in 'Lick starts at 8:40')."""
    lead = text[start:end].split()[:1]
    return (
        text[end : end + 1] == "?"
        and bool(lead)
        and lead[0].strip("'\"(") in _STATUS_LEADS
        and not (words - {lead[0]}) & _ASKING
    )


def _segments(text: str) -> list[tuple[int, int]]:
    """(start, end) of the stretches between sentence ends, semicolons and commas."""
    spans, start = [], 0
    for i, ch in enumerate(text):
        if ch in _SEGMENT_ENDS and not (ch in ".," and 0 < i < len(text) - 1 and text[i + 1].isdigit()):
            spans.append((start, i))
            start = i + 1
    return spans + [(start, len(text))]


def stretches(text: str) -> list[tuple[int, int]]:
    """(start, end) of the stretches of a text between sentence ends, semicolons and commas."""
    return _segments(text)


_DIRECTION_WORDS = frozenset(["late", "early", "later", "earlier", "sooner", "latest", "earliest"])
_DIRECTION_KEYS = ("earlier", "later", "earliest", "latest", "sooner")
_NEAR_DIRECTIONS = ("early", "late", "latter", "lather")
"""Words of their own spelt close to a direction word: never read as a misspelt one ('the latter', 'late')."""
_OWN_AFTER = {"latter": frozenset(["the"])}
"""'latter' is a word of its own only as 'the latter'; 'a latter bell', 'start latter' misspell 'later'."""


def respelt_directions(text: str) -> str:
    """The text with misspelt direction words read as meant ('go earliar' -> 'go earlier', 'latr', 'ealier'), by
    `core.text.spelling.respelt` (rapidfuzz, no list of misspellings)."""
    return respelt(text, _DIRECTION_KEYS, _NEAR_DIRECTIONS, _OWN_AFTER)


def settled_times(text: str, district: District) -> str:
    """The text without each clock time the parse reads as taken back and the words up to the time that replaces
    it ('Move them to 7:50? hmm, no, too early for 4 year olds. Let's say 8:40 for both' reads 'Move them to 8:40
    for both'), when those words name no school: the request keeps its school and words, and the readers after it
    see one time and no remark about the time taken back."""
    clocks = sorted(parse(text).of(Kind.CLOCK, live_only=False), key=lambda m: m.span[0])
    cuts = [
        (old.span[0], new.span[0])
        for old, new in zip(clocks, clocks[1:], strict=False)
        if old.scope & Scope.CORRECTED and new.live and not mentioned_schools(text[old.span[0] : new.span[0]], district)
    ]
    for start, end in reversed(cuts):
        text = text[:start] + text[end:]
    return text


def without_described_times(text: str, district: District) -> str:
    """The lower-cased text with every described time blanked out: a clock time in a stretch (between
    sentence ends and commas) that states where a school is ('starts at', 'opens at', 'is at', 'currently',
    'now', 'today') and has no request word ('could', 'move', 'instead', ...). 'Lawton starts way too late at
    9:30, could it be earlier?' keeps only its direction; 'X starts at 9:20 and Y at 8:00. Could X start at
    8:40 instead?' keeps only 8:40: a described stretch without a direction goes whole when the rest of the
    message names a school (Y is not asked about). A yes/no question about how things stand describes too: 'Does
    Lick start at 8:40? Please put it at 9:30.' keeps only 9:30. Times come from the one parse
    (`core.text.mentions.parse`)."""
    low = text.lower()
    times = [m.span for m in parse(low).mentions if m.kind is Kind.CLOCK]
    if not times:
        return low
    chars = list(low)
    stated = False  # the stretch before states where schools are: 'the pre-K schools all start really late,'
    for start, end in _segments(low):
        inside = [(a, b) for a, b in times if start <= a and b <= end]
        words = _stating_words(low, start, end, inside)
        if inside and stated and _only_times(low, start, end, inside):
            for a, b in inside:  # '..., 9:20 and 9:30.': the times of the statement before, no request
                chars[a:b] = " " * (b - a)
            continue
        if inside and _conceded(low, start, end, inside):
            for a, b in inside:  # '8:30 is ok, but I'd love it if Lick started a little later': the 'but' asks
                chars[a:b] = " " * (b - a)
            continue
        stated = bool(words & (_STATING | {"start", "begin", "open"})) and not words & _ASKING
        if not inside or (
            (not words & _STATING or words & _ASKING) and not _status_question(low, start, end, words)
        ):
            continue
        rest = low[:start] + " " * (end - start) + low[end:]
        if not words & _DIRECTION_WORDS and mentioned_schools(rest, district):
            chars[start:end] = " " * (end - start)
            continue
        if (
            inside[0][0] == start + len(low[start:end]) - len(low[start:end].lstrip())
            and clock_times(rest)
            and not mentioned_schools(low[start:end], district)
        ):
            chars[start:end] = " " * (end - start)  # '..., 9:30 is too late': said of that time, whose 'too
            continue  # late' is no direction for the school the rest of the message moves
        for a, b in inside:
            lead = a - 3 if low[max(start, a - 3) : a] == "at " else a
            chars[lead:b] = " " * (b - lead)
    return "".join(chars)


_CONCEDING = frozenset(["is", "it's", "that's", "ok", "okay", "fine", "alright", "good", "am", "pm", "i", "guess",
                        "suppose", "mean", "sure"])  # fmt: skip


def _conceded(low: str, start: int, end: int, inside: list[tuple[int, int]]) -> bool:
    """Whether a stretch only grants its times ('8:30 is ok') and the next one turns with 'but': the request is
    what follows."""
    words = _words_beside_times(low, start, end, inside)
    return bool(words & {"ok", "okay", "fine", "alright", "good"}) and words <= _CONCEDING and (
        low[end:].lstrip(" ,;").startswith("but ")
    )


def _words_beside_times(low: str, start: int, end: int, inside: list[tuple[int, int]]) -> set[str]:
    """The words of the stretch low[start:end] other than its times (`inside`)."""
    rest = list(low[start:end])
    for a, b in inside:
        rest[a - start : b - start] = " " * (b - a)
    return set(_tokens_of("".join(rest)))


def _only_times(low: str, start: int, end: int, inside: list[tuple[int, int]]) -> bool:
    """Whether a stretch holds nothing but its times and joining words ('9:20 and 9:30', '8:15 or so')."""
    return _words_beside_times(low, start, end, inside) <= {"and", "or", "so", "respectively", "am", "pm", "a", "m", "p", "both", "ish"}


def _stating_words(low: str, start: int, end: int, inside: list[tuple[int, int]]) -> set[str]:
    """The words of a stretch up to a relative clause after its first time: 'Balboa starts at 8:15 which makes no
    sense' states where Balboa is; the clause's 'no' asks nothing."""
    cut = end
    if inside:
        after = low[inside[0][1] : end].split()
        relative = next((w for w in after if w in _RELATIVE), None)
        cut = low.find(f" {relative} ", inside[0][1]) if relative else end
    words = set(_tokens_of(low[start:cut]))
    if {"both", "all"} & words and {"start", "begin", "open"} & words and {"after", "before", "past"} & words:
        words.add("starts")  # 'Muir and McCoppin both start after 9 and that's hard on families': where they are
    return words


_START_WORDS = frozenset(["start", "starts", "starting", "begin", "begins", "bell", "open", "opens"])
_SCHOOL_WORDS = frozenset(["it", "they", "them", "school", "schools", "class", "classes", "bell", "bells"])
"""Words that make a stretch's start word the school's ('it starts at 9:10'); without one, or a school's name, the
start is another thing's ('practice starts at 3:30', 'I start work at 7:15')."""
_TIE_WORDS = 2
_FAR_MINUTES = 60
"""A time this far before the first start option or after the last ('home before 3') is no school's start."""
_RELATIVE = frozenset(["that", "which", "who", "whose"])
"""Words between a stretch's school (or its start) and a time that tie the time to something else ('students ride
special buses that get in at 9:15', 'the crossing guards arrive at 9:10'): 'Lick at 9:15' binds it to Lick."""


_OWNERS = frozenset(["my", "our", "the", "a", "his", "her", "their", "your"])
_REASON_LEADS = ("because", "since", "so", "cause", "as")


def _tokens_of(text: str) -> list[str]:
    """The runs of letters, digits and apostrophes of a stretch, in order (a slice of a message, read without
    parsing it again)."""
    return "".join(ch if ch.isalnum() or ch == "'" else " " for ch in text).split()


def _words_of(text: str) -> set[str]:
    """The words of a stretch; a word after a possessive or an article is a noun, not a request verb ('my shift')."""
    tokens = _tokens_of(text)
    return {w for i, w in enumerate(tokens) if not (i and tokens[i - 1] in _OWNERS and w in _ASKING)}


def _reason_stretches(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The stretch cut where a reason begins ('could Galileo start later | since the buses come at 7:15')."""
    cuts = [start]
    for lead in _REASON_LEADS:
        found = text.find(f" {lead} ", start, end)
        while found >= 0:
            cuts.append(found)
            found = text.find(f" {lead} ", found + 1, end)
    cuts = sorted(set(cuts))
    return list(zip(cuts, [*cuts[1:], end], strict=True))


def reason_parts(text: str) -> list[tuple[int, int]]:
    """(start, end) of the stretches of a text (between sentence ends and commas), each cut again where a reason
    begins ('move Galileo earlier | because the 8:40 bus is full')."""
    return [part for start, end in _segments(text) for part in _reason_stretches(text, start, end)]


REASON_LEADS = frozenset(_REASON_LEADS)


def asks(text: str) -> bool:
    """Whether a stretch carries a request word of its own ('could', 'please', 'move', 'not', ...): '9:30 runs
    late' does not."""
    return bool(_words_of(text.lower()) & _ASKING)


def without_tied_times(text: str, district: District) -> str:
    """The lower-cased text with the times of other things blanked: a time that is no start option, in a stretch
    (between sentence ends and commas) that neither asks nor gives a direction nor says the school starts (a start
    word counts only beside a school's name or 'it', 'they', 'school', ...: 'practice starts at 3:30' is
    practice's), and that follows at least `_TIE_WORDS` other words after the stretch's school or its beginning or
    after a relative pronoun ('the line that reaches Galileo at 9:20'), when the rest of the message states a
    start option ('Our students ride buses that get in at 9:15. Could Access start at 9:30?' keeps 9:30) or a
    direction ('Balboa should start earlier, our athletes have practice at 3 and games at 4:30' keeps
    'earlier')."""
    low = text.lower()
    times = [((a, b), minutes) for a, b, minutes in clock_times(low, bare=True)]  # as the request readers see them
    options = set(district.start_times)
    chars = list(low)
    for a, b in (span for span, _ in times if _own_start(low[: span[0]])):
        chars[a:b] = " " * (b - a)  # 'my shift starts at 7:15': the speaker's start, whatever school is named
    stretches = [part for start, end in _segments(low) for part in _reason_stretches(low, start, end)]
    for start, end in stretches:
        words = _words_of(low[start:end])
        inside = [(a, b) for (a, b), minutes in times if start <= a < end and minutes not in options]  # '7:15 so'
        school = bool(words & _SCHOOL_WORDS and not _people_start(low[start:end]) or mentions(low[start:end], district))
        arrives = _arrives_by(low[start:end])
        if school and words & _START_WORDS and not arrives:
            continue
        if arrives:  # 'to make it by 8:15', 'so I can get to work by 8': getting there in time
            words = words - {"make", "makes", "can", "can't", "cant", "could", "couldn't", "need", "needs", "must"}
        if words & (_ASKING | _DIRECTION_WORDS):  # asks: only a time far from every start, of no school, is another's
            far = min(options, default=0) - _FAR_MINUTES, max(options, default=0) + _FAR_MINUTES
            inside = [] if school or words & _START_WORDS else [
                (a, b) for (a, b), minutes in times if (a, b) in inside and not far[0] <= minutes <= far[1]
            ]
        if not inside:
            continue
        outside = [m for (a, _), m in times if not start <= a < end]
        if not any(m in options for m in outside) and not _words_of(low[:start] + " " + low[end:]) & _DIRECTION_WORDS:
            continue
        for a, b in inside:
            named = [start + m.end for m in mentions(low[start:a], district)]
            anchor = max([start, *named, *_group_ends(low, start, a, district)])
            between = low[anchor:a].split()
            relative = _RELATIVE.intersection(low[start:a].split())  # 'the line that reaches Galileo at 9:20'
            deadline = arrives and low[max(start, a - 4) : a] in ("the ", " by ")  # "done by 8", 'make the 8 o'clock
            if relative or deadline or len([w for w in between if w not in ("at", "around", "about", "by")]) >= _TIE_WORDS:
                chars[a:b] = " " * (b - a)
    return "".join(chars)


def _arrives_by(stretch: str) -> bool:
    """Whether a stretch says someone gets somewhere in time ('to make it by 8:15', 'make it to class on time',
    'out the door by 7:15', 'get to work by 8', "I can't get both done by 8", "to make the 8 o'clock bell")."""
    tokens = _tokens_of(stretch)
    return any(
        (w in ("make", "makes") and tokens[k + 1 : k + 2] == ["it"] and tokens[k + 2 : k + 3] in (["by"], ["to"], ["on"]))
        or (w == "door" and tokens[k + 1 : k + 2] == ["by"])
        or (w in ("work", "job", "office") and tokens[k + 1 : k + 2] == ["by"] and tokens[k - 1 : k] in (["to"], ["at"]))
        or (w in ("done", "finished", "through") and tokens[k + 1 : k + 2] == ["by"])  # "can't get both done by 8"
        or (w in ("make", "makes", "catch", "catches") and tokens[k + 1 : k + 2] == ["the"])  # 'to make the 8 o'clock bell'
        for k, w in enumerate(tokens)
    )


_WORK_OBJECTS = frozenset(["work", "working", "shift", "shifts", "job", "jobs", "their", "his", "her", "my", "our"])
"""Words after a start word that make it start something else ('start work at 7', 'begin their shifts')."""


_POSSESSIVES = frozenset(["my", "our", "his", "her", "their"])
_OWN_SCHOOL_NOUNS = frozenset(["school", "schools", "campus", "class", "classes", "bell", "bells", "day"])


def _own_start(before: str) -> bool:
    """Whether the text before a time ends with a possessed thing that is no school starting ('my shift starts
    at', 'her work begins around') or with someone getting up ("he's up at 6:30"): the time is that thing's, never
    a requested start."""
    words = _tokens_of(before)
    if words and words[-1] in ("at", "around", "about", "by", "until", "till", "before"):
        words = words[:-1]
    if len(words) >= 2 and words[-1] in _START_WORDS | _ARRIVES and words[-2] in ("doesn't", "don't", "won't", "not"):
        words = words[:-2] + words[-1:]  # "my daughter's daycare doesn't open until 7:45"
    if words[-1:] == ["up"] and words[-2:-1] in _UP_BEFORE:
        return True  # "he's up at 6:30", 'the kids get up at 6': when someone wakes, never a start
    if words[-1:] == ["off"] and any(w in _DROP_VERBS for w in words[-4:-1]):
        return True  # 'I have to drop them off at 8:15': the speaker's own errand, never a start
    if _SELF & set(words[-5:]) and _OWN_ROUND_VERBS & set(words[-5:]):
        return True  # 'I finish the Everett drop at 7:55', 'we leave the house at 7:10': the speaker's own times
    return (
        len(words) >= 3
        and words[-1] in _START_WORDS | _ARRIVES
        and (words[-3] in _POSSESSIVES or (words[-3].endswith("'s") and words[-4:-3] in (["my"], ["our"])))
        and words[-2] not in _OWN_SCHOOL_NOUNS
    )


_UP_BEFORE = (["he's"], ["she's"], ["i'm"], ["we're"], ["they're"], ["get"], ["gets"], ["got"], ["wake"], ["wakes"],
              ["woken"], ["is"], ["are"], ["am"])  # fmt: skip
_DROP_VERBS = frozenset(["drop", "drops", "dropping", "dropped"])
_SELF = frozenset(["i", "we", "i'm", "we're", "i've"])
_OWN_ROUND_VERBS = frozenset(["finish", "finished", "leave", "left", "arrive", "clock", "punch"])
"""Verbs of the speaker's own day ('I finish the Everett drop at 7:55'): a time after them is never a start."""
_ARRIVES = frozenset(["comes", "arrives", "leaves", "gets", "shows", "picks"])
"""Verbs of the speaker's own things' times ("my daughter's bus comes at 6:55"): never a requested start."""


def _people_start(stretch: str) -> bool:
    """Whether a stretch's start is people's, not a school's, though it says 'them' or 'they': the pronoun is
    partitive ('35 of them start at 7', 'half of them') or the start word has an object ('they start work at 7',
    'begin their shifts at 7:15')."""
    tokens = _tokens_of(stretch)
    pairs = list(zip(tokens, tokens[1:], strict=False))
    partitive = any(a == "of" and b in ("them", "they") for a, b in pairs)
    return partitive or any(a in _START_WORDS and b in _WORK_OBJECTS for a, b in pairs)


def _group_ends(low: str, start: int, end: int, district: District) -> list[int]:
    """Where each grade group named between `start` and `end` ends ('every high school after 8': the time follows
    the group it bounds, as 'Lick at 9:15' follows Lick)."""
    stretch = low[start:end]
    return [start + stretch.find(words) + len(words) for words, _ in group_schools(stretch, district)]


_NAME_TAIL = frozenset(["middle", "high", "elementary", "school", "ms", "hs", "es", "pk", "k-8", "k8", "pre-k"])
"""Grade words a stakeholder may add after a school's name ('Everett Middle School', 'Balboa High')."""


def said_names(text: str, district: District) -> dict[str, str]:
    """School -> the words the message named it by, grade words after the name included ('Everett Middle
    School'); from the one parse's NAME mentions, first mention of each school."""
    names: dict[str, list[str]] = {}
    for alias, school in school_aliases(district).items():
        names.setdefault(school, []).append(alias)
    message = parse(text, names=names)
    out: dict[str, str] = {}
    for mention in message.of(Kind.NAME, live_only=False):
        if not mention.value or str(mention.value) in out:
            continue
        words = [mention.text]
        for word in message.text[mention.span[1] :].split()[:2]:
            bare = word.strip(".,;:!?)'\"")
            if bare.lower() not in _NAME_TAIL:
                break
            words.append(bare)
            if bare != word:
                break
        out[str(mention.value)] = " ".join(words)
    return out


# ---------------------------------------------------------------------------------------- word cues (one parse)


LOAD_CUE = WordCue(
    inside=("kids", "students", "children", "pupils", "riders", "peak", "crowd", "rush", "load", "buses", "arriv",
            "congest", "transport", "cost", "cheap", "expens", "simultaneous", "together", "money", "budget", "pile",
            "fleet", "drivers"),
    exact=frozenset(["bus"]),
    phrases=(("at", "a", "time"), ("per", "bell"), ("per", "wave"), ("per", "run"), ("per", "slot"), ("at", "once"),
             ("same", "time")),
)  # fmt: skip
"""Words about the peak load (students at once, buses, cost): which objective a clause speaks of."""
CHANGE_CUE = WordCue(
    inside=("disrupt", "chang", "shift", "deviation", "moved", "moving", "stabil", "stable", "adjust", "familiar",
            "upheaval", "reshuffl", "churn", "famil", "parents"),
    exact=frozenset(["move", "moves", "average", "minute", "minutes", "min", "mins"]),
    phrases=(("used", "to"), ("mean", "change"), ("mean", "shift"), ("mean", "deviation"), ("mean", "start"),
             ("mean", "absolute", "change"), ("mean", "absolute", "shift"), ("mean", "absolute", "deviation"),
             ("mean", "absolute", "start")),
)  # fmt: skip
"""Words about the change from today's start times (disruption, families, minutes)."""
REDUCE_CUE = WordCue(
    inside=("fewer", "less", "lower", "reduc", "smaller", "smooth", "spread", "down", "minimi", "decreas", "gentler",
            "cheaper", "save", "calmer", "flatten", "limit", "under", "below"),
    starts=("cut",),
    phrases=(("not", "so", "many"), ("too", "many"), ("too", "much"), ("too", "high"), ("ease", "up", "on"),
             ("even", "out")),
)  # fmt: skip
"""Words that ask for less of something ('fewer', 'cut', 'too many', 'spread out')."""


def _words(text: str) -> tuple[str, ...]:
    return parse(text).words()


def load_cue(text: str) -> bool:
    """Whether a message or clause speaks of the peak load (`LOAD_CUE`), read from the one parse's words; a
    speaker's own children ('my kids' school', 'our kids') are no load."""
    words = _words(text)
    own = ("kids", "kid", "children", "child")  # 'my kids' school' (never 'our buses')
    return LOAD_CUE.found(tuple(w for i, w in enumerate(words) if not (i and words[i - 1] in ("my", "our") and w in own)))


def change_cue(text: str) -> bool:
    """Whether a message or clause speaks of the change from today's start times (`CHANGE_CUE`)."""
    return CHANGE_CUE.found(_words(text))


def reduce_cue(text: str) -> bool:
    """Whether a message or clause asks for less of something (`REDUCE_CUE`)."""
    return REDUCE_CUE.found(_words(text))


CLOSE_CUE = WordCue(
    exact=frozenset(["close", "closer", "far", "roughly", "about", "barely", "possible"]),
    starts=("near", "similar", "drift", "stray", "wander"),
    phrases=(("more", "or", "less"), ("look", "like")),
)
"""Words that ask for a start to stay near another ('as close as possible to today's', 'not far from where it is',
'roughly where they are'), not exactly at it."""
TODAY_CUE = WordCue(
    inside=("today", "current", "present", "usual", "existing", "familiar"),
    exact=frozenset(["now", "old"]),
    phrases=(("where", "it", "is"), ("where", "it", "are"), ("where", "they", "is"), ("where", "they", "are"),
             ("used", "to"), ("at", "the", "moment"), ("these", "days")),
)  # fmt: skip
"""Words that point at today's start times."""
PIN_WORDS = frozenset(["fix", "fixed", "lock", "locked", "pin", "pinned", "freeze", "frozen", "nail"])
"""Verbs that ask to hold starts exactly ('lock every school at its current time')."""
MINUTE_WORDS = frozenset(["min", "mins", "minute", "minutes", "hour", "hours", "hr", "hrs"])
HEAD_WORDS = frozenset(["students", "kids", "children", "pupils", "riders"])


def near_today(text: str) -> bool:
    """Whether the text asks for starts near today's ('as close as possible to today's', 'roughly where they
    are'): a `CLOSE_CUE` and a `TODAY_CUE` word."""
    words = _words(text)
    return CLOSE_CUE.found(words) and TODAY_CUE.found(words)


REST_CUE = WordCue(
    phrases=(
        *((q, *mid, "other", noun) for q in ("all", "each", "every") for mid in ((), ("the",), ("of", "the"), ("our",))
          for noun in ("school", "schools")),
        ("everyone", "else"), ("everybody", "else"), ("the", "other", "schools"), ("the", "remaining", "schools"),
        ("the", "rest", "of", "the", "schools"), ("the", "rest", "of", "our", "schools"),
    ),
)  # fmt: skip
"""Words for the schools other than the ones named ('the other schools', 'everyone else')."""


_GRADE_FORMS = {
    "HS": ("high school", "high", "hs"),
    "MS": ("middle school", "middle", "ms"),
    "ES": ("elementary school", "elementary", "es"),
    "PK": ("pre-k", "prek", "pk", "preschool", "pre-school"),
    "K8": ("k-8", "k8"),
}
"""Grade words after a school-like word ('Everest Elementary'), by grade code."""


def _grade_after(text: str, end: int) -> str | None:
    """The grade code of the grade words right after position `end` (after a space), else None."""
    rest = text[end:]
    stripped = rest.lstrip()
    if stripped == rest:
        return None
    for code, forms in _GRADE_FORMS.items():
        for form in forms:
            after = stripped[len(form) : len(form) + 1]
            if stripped.startswith(form) and not (after.isalnum() or after == "_"):
                return code
    return None


def _long_words(text: str, shortest: int = 5) -> list[tuple[int, int]]:
    """(start, end) of each run of letters, apostrophes or hyphens (starting with a letter) at least `shortest`
    long."""
    spans, i = [], 0
    while i < len(text):
        if "a" <= text[i] <= "z":
            j = i + 1
            while j < len(text) and ("a" <= text[j] <= "z" or text[j] in "'-"):
                j += 1
            if j - i >= shortest:
                spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


_SMALL = frozenset(["little", "few", "small", "minor", "gentle"])
_AS_POSSIBLE = (("possible",), ("we", "can"), ("you", "can"), ("they", "can"))


def least(text: str) -> bool:
    """Whether the text asks for the smallest amount of something: 'as little (few, small, ...) ... as possible'
    within a sentence, 'minimal', 'minimum', 'the least' (of change, with a change word)."""
    low = text.lower()
    for sentence in low.replace(";", ".").split("."):
        words = _words(sentence)
        if any(w.startswith("minim") or w == "least" for w in words):
            return True
        opened = False
        for i, word in enumerate(words):
            if word == "as" and i + 1 < len(words):
                if opened and any(words[i + 1 : i + 1 + len(p)] == p for p in _AS_POSSIBLE):
                    return True
                opened = opened or words[i + 1] in _SMALL
    return False
