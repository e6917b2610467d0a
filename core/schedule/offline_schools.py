"""Offline agent, school requests: which schools a message names and what it asks for each.

Negation binds to the time or direction it precedes ("at 8:40, not 7:50" fixes 8:40; "later, not
earlier" moves later). A clause that names schools but asks nothing borrows the request of its
neighbour ("Lick and Cobb at 7:50", "Lawton at 9:30 and Everett too"), so no named school is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.schedule import language as lang
from core.schedule.session import ScheduleSession
from core.text.bounds import BOUNDS, ClockRelation, refused_after
from core.text.mentions import Kind, parse
from solvers.schedule.data import format_time

Call = tuple[str, dict[str, Any]]

EARLIER_CUE = lang.WordCue(
    inside=("earliest", "earlier", "sooner"),
    phrases=(("as", "early", "as"), ("first", "slot"), ("first", "start"), ("move", "up"), ("move", "it", "up"),
             ("move", "them", "up"), ("too", "late")),
)  # fmt: skip
LATER_CUE = lang.WordCue(
    inside=("latest", "later"),
    phrases=(("as", "late", "as"), ("last", "slot"), ("last", "start"), ("push", "back"), ("push", "it", "back"),
             ("push", "them", "back"), ("sleep", "in"), ("too", "early")),
)  # fmt: skip
"""The direction words read from the one parse's words, for whether a clause gives a direction (`_direction`
finds them with their positions: `EARLIER_WORDS`, `LATER_WORDS`)."""
FREE_CUE = lang.WordCue(
    inside=("unfix", "release", "anytime", "flexib"),
    phrases=(("any", "time"), ("doesn't", "matter"), ("doesnt", "matter"), ("let", "move"), ("let", "it", "move"),
             ("let", "them", "move"), ("no", "preference"), ("drop", "the")),
)  # fmt: skip
"""Words that release a school ('free', 'any time', 'no preference'); 'free' but not 'freeze' (`_free`)."""
KEEP_CUE = lang.WordCue(
    inside=("leave", "stay", "same", "fine"),
    exact=frozenset(["fix", "lock", "freeze", "pin"]),
    phrases=(("where", "it", "is"), ("where", "they", "are"), ("don't", "move"), ("don't", "touch"),
             ("don't", "change"), ("dont", "move"), ("dont", "touch"), ("dont", "change"), ("happy", "with"),
             ("good", "where"), ("as", "is"), *(("at", a, b) for a in ("its", "their")
             for b in ("current", "present", "usual", "existing", "today's"))),
)  # fmt: skip
"""Words that hold a school where it is ('keep', 'leave', 'stay', 'don't move'; `_keeps`)."""


BACK_CUE = lang.WordCue(
    runs=(("where", "it", "was"), ("where", "they", "were"), ("as", "it", "was"), ("as", "they", "were"),
          ("how", "it", "was"), ("it", "back"), ("them", "back"), ("back", "to", "where"), ("back", "where"),
          ("back", "to", "how"), ("undo",)),
)  # fmt: skip
"""Words that put a school back where it was before the last change ('keep Galileo where it was', 'put it
back'; `_back_slot`)."""


def _back_slot(school: str, session: ScheduleSession) -> int | None:
    """The slot a school had in the proposal before the latest one, when the latest one moved it; else None."""
    current, previous = session.current, session.previous
    if current is None or previous is None:
        return None
    i = session.district.school_index(school)
    before, now = previous.result.assignment[i], current.result.assignment[i]
    return before if before != now else None


def _free(words: tuple[str, ...]) -> bool:
    """Whether the words release a school (`FREE_CUE`, or 'free' in a word other than 'freeze'); 'I have to drop
    them off at ...' is an errand, no release."""
    errand = any(w.startswith("drop") and "off" in words[i + 1 : i + 4] for i, w in enumerate(words))
    return not errand and (FREE_CUE.found(words) or any("free" in w and "freez" not in w for w in words))


def _keeps(words: tuple[str, ...]) -> bool:
    """Whether the words hold a school (`KEEP_CUE`), 'keep' included unless it goes on with an -ing word ('the
    parents keep asking' pins nothing); 'the same buses' holds nothing (`_same_thing`)."""
    if KEEP_CUE.found(_without_same_things(words)):
        return True
    for i, word in enumerate(words):
        if "keep" in word:
            after = words[i + 1 : i + 3]
            if not word.endswith("keep") or not after:
                return True
            verb = after[1] if after[0] == "on" and len(after) > 1 else after[0]
            if not (verb.endswith("ing") and verb.isalpha() and len(verb) > 3):
                return True
    return False


_SAME_AS_BEFORE = frozenset(["time", "times", "start", "starts", "slot", "as", "thing", "for", "please", "way",
                             "schedule", "hour", "too", "then", "here", "there", "again", "and", "but", "start-time"])


def _same_thing(words: tuple[str, ...], k: int) -> bool:
    """Whether 'same' at k describes some other noun ('the same buses can do the run', 'the same teachers'):
    it neither holds a school nor repeats a request ('the same time', 'keep it the same', 'same for Lick' do)."""
    return words[k] == "same" and k + 1 < len(words) and words[k + 1].isalpha() and words[k + 1] not in _SAME_AS_BEFORE


def _without_same_things(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("" if _same_thing(words, k) or _leaving_home(words, k) else w for k, w in enumerate(words))


def _leaving_home(words: tuple[str, ...], k: int) -> bool:
    """Whether word k is the speaker leaving somewhere ('we leave the house early', 'I leave for work at 7'):
    no school held where it is."""
    return words[k] in ("leave", "leaves") and (
        words[k + 1 : k + 3] in (("the", "house"), ("the", "home")) or words[k + 1 : k + 2] in (("home",), ("for",))
    )


def _word_spans(text: str) -> list[tuple[str, int, int, bool]]:
    """(word, start, end, spaced) of the runs of letters, digits and apostrophes in a lower-cased clause; `spaced`:
    only spaces stand between it and the word before ('too late', not 'too-late' or 'too, late')."""
    spans: list[tuple[str, int, int, bool]] = []
    start = None
    for i, ch in enumerate(text + " "):
        inside = ch.isalnum() or ch == "'"
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            spaced = bool(spans) and text[spans[-1][2] : start].isspace()
            spans.append((text[start:i], start, i, spaced))
            start = None
    return spans


def _phrase_at(spans: list[tuple[str, int, int, bool]], i: int, phrase: tuple[str, ...]) -> tuple[int, int] | None:
    """(start, end) of the phrase said from word i on, as a stretch of text would hold it: a one-word phrase
    anywhere inside the word, a longer one ending the first word and beginning the last ('too late')."""
    word, start, end, _ = spans[i]
    if len(phrase) == 1:
        at = word.find(phrase[0])
        return None if at < 0 else (start + at, start + at + len(phrase[0]))
    last = i + len(phrase) - 1
    if last >= len(spans) or not word.endswith(phrase[0]) or not spans[last][0].startswith(phrase[-1]):
        return None
    between = spans[i + 1 : last + 1]
    if [s[0] for s in between[:-1]] != list(phrase[1:-1]) or not all(s[3] for s in between):
        return None
    return end - len(phrase[0]), spans[last][1] + len(phrase[-1])


def _find_cues(clause: str, phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int, str]]:
    """(start, end, words) of every cue phrase in the clause, left to right and not overlapping; at one place
    the phrase listed first wins ('earliest' before 'earlier')."""
    spans, found, taken = _word_spans(clause), [], 0
    for i in range(len(spans)):
        hits = [(at, p) for p in phrases if (at := _phrase_at(spans, i, p)) is not None and at[0] >= taken]
        if hits:
            (start, end), phrase = min(hits, key=lambda h: h[0][0])
            found.append((start, end, " ".join(phrase)))
            taken = end
    return found


EARLIER_WORDS = (("earliest",), ("as", "early", "as"), ("first", "slot"), ("first", "start"), ("earlier",),
                 ("sooner",), ("move", "up"), ("move", "it", "up"), ("move", "them", "up"), ("too", "late"))  # fmt: skip
LATER_WORDS = (("latest",), ("as", "late", "as"), ("last", "slot"), ("last", "start"), ("later",), ("push", "back"),
               ("push", "it", "back"), ("push", "them", "back"), ("sleep", "in"), ("too", "early"))  # fmt: skip
"""The direction phrases, in the order they are tried at one place; a complaint gives one too ('the pre-K
schools start too late' asks for earlier)."""
_SLOT_PLACES = frozenset(["first", "earliest", "early", "second", "middle", "third", "last", "latest", "late"])
_SLOT_NOUNS = frozenset(["slot", "start", "bell", "time", "option", "run"])


def _named_slot(clause: str) -> tuple[int, int, str] | None:
    """(start, end, place word) of a start-time option named by its place ('the early slot', 'the middle bell',
    'the last start time'), else None."""
    spans = _word_spans(clause)
    for i, (word, start, _, _) in enumerate(spans):
        if word not in _SLOT_PLACES:
            continue
        after = [s for s in spans[i + 1 : i + 3] if s[3]]
        if len(after) == 2 and after[0][0] in ("start", "starting") and after[1][0] in _SLOT_NOUNS:
            return start, after[1][2], word
        if after[:1] and after[0][0] in _SLOT_NOUNS and spans[i + 1][3]:
            return start, after[0][2], word
    return None


SWAP_WORDS = ("swap", "switch", "trade", "exchange")
_PRONOUNS = frozenset(["it", "them", "they", "those"])


def _points_back(words: tuple[str, ...]) -> bool:
    """Whether a clause points back at the schools named before ('Put them at 8:40', 'move that school later')."""
    return bool(_PRONOUNS.intersection(words)) or any(
        a == "that" and b == "school" for a, b in zip(words, words[1:], strict=False)
    )


_NOT_TOO = frozenset(["late", "early", "soon", "much", "many", "far", "long"])
_MODALS = frozenset(["should", "can", "could", "may", "will", "does", "do", "is", "must"])


def _repeats(clause: str) -> bool:
    """'..., and Everett too': the clause repeats the request before it ('too', 'as well', 'also', 'likewise',
    'the same', 'neither', 'nor'; 'too late' is a complaint, not 'as well'), from the one parse's words."""
    words = _without_same_things(parse(clause).words())
    for word, after in zip(words, (*words[1:], ""), strict=True):
        if word in ("also", "likewise", "neither", "nor") or (word == "too" and after not in _NOT_TOO):
            return True
        if (word, after) in (("as", "well"), ("the", "same")):
            return True
    return False


def _neither(clause: str) -> bool:
    """'neither should', 'nor can': a clause that repeats a refusal."""
    words = parse(clause).words()
    return any(a in ("neither", "nor") and b in _MODALS for a, b in zip(words, words[1:], strict=False))


def _elliptic(clause: str) -> bool:
    """'..., and neither should McCoppin': a clause that repeats the request before it without saying it."""
    return _neither(clause) and not lang.clock_times(clause)


_LEAD_VERBS = frozenset(["keep", "have", "let", "make", "get", "put", "set"])


def _lead_verb(before: str) -> bool:
    """Whether the text before the school names is only a verb that, with school names only, governs the next
    clause's request ('keep Galileo' in 'keep Galileo and Balboa away from 7:50'; 'please keep both ...')."""
    words = before.split()
    if not before[-1:].isspace() or before[:1].isspace():
        return False
    words = words[1:] if words[:1] == ["please"] else words
    words = words[:-1] if words[-1:] == ["both"] else words
    return len(words) == 1 and words[0] in _LEAD_VERBS


@dataclass
class Plan:
    """What the agent will do with one message.

    calls are applied now; say holds notes for the reply; ask holds clarifying questions (when any,
    nothing is applied) and offer the calls a "yes" to that question would add. choices holds the
    misspelt words that fit several schools, with their candidates, so the answer can name one.
    """

    calls: list[Call] = field(default_factory=list)
    reply: str = ""
    say: list[str] = field(default_factory=list)
    ask: list[str] = field(default_factory=list)
    offer: list[Call] = field(default_factory=list)
    choices: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    timeless: list[Call] = field(default_factory=list)
    """Fixes read from a clause that states no time (a direction, 'keep it there'): a time the same message
    states for that school wins over them, so a sentence without a time never makes a time conflict."""
    wording: list[tuple[Call, str]] = field(default_factory=list)
    """The user's terms for a call when they differ from 'at 8:40 AM' / 'not at 7:50 AM' ('not before 8:30 AM',
    'later'): what the read-back says was asked."""
    relative: list[tuple[Call, str]] = field(default_factory=list)
    """The fixes of `timeless` with the user's words for them ('earlier', 'later', 'kept where it is'): a later
    message that rules out the start they chose contradicts them and is asked about."""
    suggested: list[Call] = field(default_factory=list)
    """The calls of `offer` that are the agent's own suggestion (the standard start nearest a time that is none):
    a closing approval ('Good, thanks') is no yes to them."""
    held: str = ""
    """The request text to hold for the answer to `choices` when it is not the whole message ('can you move the
    start time a bit later?' without the reason about a bus that followed it)."""
    undecided: bool = False
    """The message says its speaker has not decided ('not sure, my partner wants one and I want the other'): two
    times for one school are asked about, never read as 'either is fine'."""
    directions: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """The direction each school is asked in this message, in whichever clause (`note_directions`): a time said
    of the school in another clause beside it is read against it ('Lawton earlier. 9:30 runs late')."""


def has_request(clause: str) -> bool:
    """Whether a clause says what to do with a school (a time, a direction, keep or free)."""
    return bool(
        lang.clock_times(clause, bare=True)
        or EARLIER_CUE.found(words := parse(clause).words())
        or LATER_CUE.found(words)
        or _free(words)
        or _keeps(words)
        or BACK_CUE.found(words)
    )


def district_wish(clause: str) -> str | None:
    """What a clause about every school at once ('all schools', 'everyone'; also 'the other schools', 'everyone
    else') asks when it gives no time, direction, named slot or release: 'near' when the starts should stay close
    to today's ('every school as close to its current time as possible': the change objective, not ten pins),
    'keep' when they should stay where they are without a verb that pins (ambiguous: the agent asks), 'objective'
    when it asks nothing of the schools but speaks of an objective ('fewer buses, even if every school has to
    move'); None when each school gets the request ('all schools at 7:50', 'move everyone later', 'lock every
    school at its current time')."""
    if not lang.whole_district(clause) or lang.clock_times(clause, bare=True):
        return None
    words = parse(clause).words()
    if EARLIER_CUE.found(words) or LATER_CUE.found(words) or _free(words) or _named_slot(clause):
        return None
    close = lang.near_today(clause)
    if close or (lang.least(clause) and lang.change_cue(clause)):
        return "near"
    if lang.pins(clause):
        return None
    if _keeps(words):
        return "keep"
    if lang.load_cue(clause) or lang.change_cue(clause):
        return "objective"
    return None


def _ask_to_pin(members: list[str], session: ScheduleSession, plan: Plan) -> None:
    """'Keep all schools where they are' ('... the other schools ...'): pinning them all freezes (nearly) the whole
    schedule, staying close to today's times is the change priority; the agent asks, and offers the pins for a
    'yes'."""
    district, current = session.district, session.current
    if current is None:
        plan.say.append("Let me first produce a schedule; then I can hold schools where they are.")
        return
    which = (
        f"all {len(members)} schools"
        if len(members) == len(district.schools)
        else f"the other {len(members)} schools"
    )
    plan.ask.append(
        f"Should I pin {which} at their start times in proposal {current.number}? That leaves the solver "
        "(almost) nothing to choose. If you rather want them close to today's times while the solver still "
        "balances buses, say 'every school close to today's times' and I'll make that the top priority instead."
    )
    at = {s.name: district.time_labels[current.result.assignment[i]] for i, s in enumerate(district.schools)}
    plan.offer.extend(("fix_start_time", {"school": m, "time": at[m], "type": "fix"}) for m in members)


def _excluded(clause: str, session: ScheduleSession) -> bool:
    """Whether a clause that only names schools names them to leave them out ('not Everett', 'except Lick')."""
    found = lang.mentions(clause, session.district)
    return bool(found) and lang.negated(clause[: found[0].start])


def _verb_and_names(clause: str, following: str, session: ScheduleSession) -> bool:
    """'keep Galileo' followed by a clause that starts with a school and asks something ('Balboa away from
    7:50'): the verb is shared, so the first clause takes the second one's request."""
    found = lang.mentions(clause, session.district)
    if not found or not has_request(following):
        return False
    if clause[found[-1].end :].strip(" ,") or not _lead_verb(clause[: found[0].start]):
        return False
    between = [clause[a.end : b.start] for a, b in zip(found, found[1:], strict=False)]
    if any(w not in ("and", "or") for gap in between for w in gap.replace(",", " ").split()):
        return False
    first = lang.mentions(following, session.district)
    return bool(first) and not following[: first[0].start].strip()


def _comma_parts(clauses: list[str], session: ScheduleSession) -> list[str]:
    """Clauses cut at commas where both sides ask something and the right side names a school or the rest of
    them ('Muir and Cobb at half past nine, Everett at ten to eight', 'Lick at 8:40, everyone else at 9:30');
    other commas stay inside their clause."""
    out = []
    for clause in clauses:
        parts = lang.comma_parts(clause)
        merged = [parts[0]]
        for part in parts[1:]:
            if (
                (lang.mentioned_schools(part, session.district) or lang.rest_of_district(part))
                and has_request(part)
                and has_request(merged[-1])
            ):
                merged.append(part.strip())
            else:
                merged[-1] += "," + part
        out += merged
    return out


_FIRST_PERSON = frozenset(["we", "we'd", "we're", "we'll", "we've", "us", "our", "ours", "my", "i", "i'm", "i've"])
"""Words by which a stakeholder speaks of themselves: a clause naming a school with one says the school is theirs
('I'm the principal at Lick', 'my kids go to Everett')."""
_OURS = frozenset(["we", "we'd", "we're", "we'll", "us", "our", "my"])
"""Words that, in a request naming no school, point at the stakeholder's own school ('our school later please',
"we'd like to start at 8:40")."""
_WE = frozenset(["we", "we'd", "we're", "we'll", "us"])


_BOTH = frozenset(["both", "they", "them", "all"])
_FAMILY = frozenset(["kids", "kid", "son", "daughter", "children", "child", "boys", "girls", "boy", "girl",
                     "twins", "grandson", "granddaughter"])  # fmt: skip
_MOVE_VERBS = frozenset(["move", "put", "shift", "push", "bring", "make", "set", "get", "have", "start"])
_OWN_NOUNS = frozenset(["school", "schools", "campus", "start", "bell", "bells", "day", "times", "time"])
"""Nouns after 'our' or 'my' that make the phrase the speaker's school ('our bell', 'my school'); any other noun is
the speaker's own life ('my shift starts at 7:15', 'my daughter'), a reason, never a school."""


def _own_word(words: tuple[str, ...]) -> str | None:
    """The words in a clause that name the speaker's own school ('our school', 'my school', 'we'), else None."""
    for a, b in zip(words, (*words[1:], "")[: len(words)], strict=True):
        if a in ("our", "my") and b in ("school", "schools", "campus"):
            return f"{a} {b}"
    for a, b, c in zip(words, words[1:], words[2:], strict=False):
        if a in ("our", "my") and c in ("school", "campus") and b.removesuffix("'s") in _FAMILY:
            return f"{a} {b}"  # "my kids' school", "my son's school": the stakeholder's own (replaced as said)
    for i, w in enumerate(words):  # 'Can we move them earlier?': we ask, 'them' are the schools said before
        if w in ("we", "we'd") and _MOVE_VERBS & set(words[i + 1 : i + 3]) and {"them", "it", "those"} & set(words[i + 2 : i + 4]):
            return None
    possessed = [b for a, b in zip(words, words[1:], strict=False) if a in ("our", "my")]
    if possessed and not any(b in _OWN_NOUNS for b in possessed) and not _WE.intersection(words):
        return None  # 'my shift at the hospital starts at 7:15, so I drop my daughter off early'
    return next((w for w in words if w in _OURS), None)


def _asks_a_school(clause: str) -> bool:
    """Whether a clause asks something of one school: a start time or a direction, no objective words."""
    return bool(
        (lang.clock_times(clause, bare=True) or _direction(clause))
        and not lang.load_cue(clause)
        and not (lang.change_cue(clause) and lang.reduce_cue(clause))  # 'move it' is no objective
        and not district_wish(clause)
    )


_SCHOOL_NOUN_GRADES = frozenset(["k-8", "k8", "pre-k", "prek", "preschool"])
"""Grade words that name a school without 'school' after them ('the K-8', 'the pre-K')."""


def _generic_school(clause: str, session: ScheduleSession) -> tuple[str, tuple[str, ...]] | None:
    """'the school', 'the middle school' in a clause that names no school: the phrase as written and the
    district's schools it can mean (of that grade), else None."""
    words = clause.lower().replace(",", " ").replace("?", " ").replace(".", " ").split()
    for i, word in enumerate(words[:-1]):
        if word != "the":
            continue
        if words[i + 1] == "school":
            return "the school", tuple(session.district.names)
        grade = lang.HEAD_GRADES.get(words[i + 1])
        alone = words[i + 1] in _SCHOOL_NOUN_GRADES  # 'the K-8' is a school by itself
        if grade and ((i + 2 < len(words) and words[i + 2] == "school") or alone):
            names = tuple(s.name for s in session.district.schools if s.grade == grade)
            phrase = f"the {words[i + 1]}" if alone else f"the {words[i + 1]} school"
            return (phrase, names) if names else None
    return None


_THOSE = frozenset(["those", "these", "both"])
"""Words by which a group ('both of those pre-K schools') means the members just named, not the whole group."""


def _those_named(schools: list[str], earlier: list[str], words: tuple[str, ...], plan: Plan) -> list[str]:
    """'the route that covers Ortega and McCoppin. Could both of those pre-K schools start at 9:30?': a group said
    with 'those' / 'these' / 'both' is the members named just before, not every pre-K; the read-back says so."""
    shared = [x for x in schools if x in earlier]
    if not shared or len(shared) == len(schools) or not _THOSE & set(words):
        return schools
    if "both" in words and len(shared) != 2:
        return schools  # 'I teach at Everett. I think both middle schools should start later': both of them
    dropped = [x for x in schools if x not in shared]
    plan.say[:] = [x for x in plan.say if not (x.startswith("I read") and any(d in x for d in dropped))]
    plan.say.append(f"I read \"{next(w for w in words if w in _THOSE)}\" as {', '.join(shared)}, named just before.")
    return shared


def _ask_which(word: str, own: bool, session: ScheduleSession, plan: Plan) -> None:
    """A request through 'it' or 'our school' with nothing it can mean: ask, and hold it for the answer."""
    plan.ask.append(
        "Which school is yours? Say its name (for example 'Lick') and I'll apply the request."
        if own
        else f"Which school do you mean by \"{word}\"? Say its name (for example 'Lick') and I'll apply the request."
    )
    plan.ask.append("Nothing is changed yet.")
    plan.choices.append((word, tuple(session.district.names)))


def targets(
    clauses: list[str],
    session: ScheduleSession,
    plan: Plan,
    context: list[str] | None = None,
    home: list[str] | None = None,
) -> list[tuple[str, list[str]]]:
    """(request text, schools) per clause: pronouns, grade groups and misspellings resolved, and
    school-only clauses given their neighbour's request. `context`: the schools the previous message named,
    which 'them' or a bare time ('No, 8:40 please.') refer to when this message names none before. `home`: the
    schools the stakeholder said are theirs (updated in place when this message says so), which 'our school',
    'my school' and 'we' mean; with none known, or 'it' with nothing before it, the agent asks which school."""
    clauses = [_without_reason(clause) for clause in _comma_parts(clauses, session)]
    everyone = frozenset(s for clause in clauses for _, s in lang.mentioned_schools(clause, session.district))
    named = [_schools(clause, session, plan, everyone) for clause in clauses]
    out: list[tuple[str, list[str]]] = []
    last: list[str] = list(context or [])
    home = home if home is not None else []
    naming = False  # the clause before said which schools are the stakeholder's
    asides: set[int] = set()  # clauses that only speak about their schools, and the names listed after them
    inherited = bool(
        last
    )  # schools from the previous message: only for a time or a direction ('Put them at 8:40')
    for i, (clause, schools) in enumerate(zip(clauses, named, strict=True)):
        words = parse(clause).words()
        own = _own_word(words)
        direct = [school for _, school in lang.mentioned_schools(clause, session.district)]
        if direct and _FIRST_PERSON.intersection(words):
            home[:], naming = direct, True  # 'I'm the principal at Lick': Lick is 'our school' from now on
        elif direct and naming and not has_request(clause):
            home.extend(s for s in direct if s not in home)  # 'my kids go to Cobb and Lick'
        else:
            naming = False
        if not schools and own and _asks_a_school(clause) and not _asked_which(clause, plan):
            mine = home or (last if len(last) == 1 else [])
            if len(mine) > 1 and own in ("our school", "my school", "our campus", "my campus"):
                plan.ask.append(f"Which of your schools do you mean by \"{own}\": {' or '.join(mine)}?")
                plan.ask.append("Nothing is changed yet.")
                plan.choices.append((own, tuple(mine)))
                out.append((clause, []))
                continue
            if mine:
                schools, last, inherited = list(mine), list(mine), False
            else:
                _ask_which(own, True, session, plan)
                out.append((clause, []))
                continue
        generic = None if schools or last else _generic_school(clause, session)
        if generic is not None and _asks_a_school(clause):
            phrase, candidates = generic
            if len(candidates) == 1:
                schools = list(candidates)  # 'the elementary school' where the district has one
            else:
                shown = f": {' or '.join(candidates)}?" if len(candidates) <= 3 else "? Say its name (for example 'Lick')."
                plan.ask.append(f"Which school do you mean by \"{phrase}\"{shown} I'll apply the request to it.")
                plan.ask.append("Nothing is changed yet.")
                plan.choices.append((phrase, tuple(candidates)))
                out.append((clause, []))
                continue
        if not schools and not last and _points_back(words) and _asks_a_school(clause):
            _ask_which(next(w for w in words if w in _PRONOUNS or w == "that"), False, session, plan)
            out.append((clause, []))
            continue
        earlier = list(dict.fromkeys(s for n in named[:i] for s in n))
        if not schools and "both" in words and len(earlier) == 2 and has_request(clause):
            schools = earlier  # 'my kids are at Everett and Galileo, we leave early. Could both schools start later?'
        schools = _those_named(schools, earlier, words, plan)
        if schools and i and named[i - 1] and _BOTH & set(words[1:2]) and not has_request(clauses[i - 1]):
            schools = list(dict.fromkeys([*named[i - 1], *schools]))  # 'I mean Galileo and Balboa, they should both'
        if schools:
            last, inherited = schools, False
        elif (
            last
            and not district_wish(clause)
            and not (inherited and not (lang.clock_times(clause, bare=True) or _direction(clause)))
            and (
                _points_back(words)
                or (
                    any(
                        not _event(clause, a, m, session.district.start_times)
                        for a, _, m in lang.clock_times(clause, bare=bool(_BOUND_LEADS & set(words)))
                    )  # 'but not before 9 please': a bare hour after a bound word is a time
                    and not (lang.load_cue(clause) or lang.change_cue(clause))
                )
            )
        ):
            schools = last
        text = clause
        following = clauses[i + 1] if i + 1 < len(clauses) else None
        if schools and following is not None and _verb_and_names(clause, following, session):
            text = following
        elif schools and not has_request(clause) and not _elliptic(clause) and _excluded(clause, session):
            schools = []  # 'Galileo and Balboa at 8:40 but not Everett': Everett is left out, not moved
        elif schools and (not has_request(clause) or _elliptic(clause)):
            text = _neighbour_request(i, clauses, named, out, asides, session)
            if text is None:
                out.append((clause, []))
                continue
        out.append((text, schools))
    return out


def _neighbour_request(
    i: int,
    clauses: list[str],
    named: list[list[str]],
    out: list[tuple[str, list[str]]],
    asides: set[int],
    session: ScheduleSession,
) -> str | None:
    """The request a clause that only names schools takes from a neighbour ('and Lick', 'Lick too'), or None when
    the clause only speaks about its schools (`asides`, updated): 'Can it be earlier? Families with a kid at Cobb
    ...' (Cobb is a reason); 'I drive the route that does Cobb and then Lick. ... Could Cobb start earlier?'."""
    clause = clauses[i]
    before = next((clauses[j] for j in range(i - 1, -1, -1) if has_request(clauses[j]) and named[j]), None)
    later = next((j for j in range(i + 1, len(clauses)) if has_request(clauses[j])), None)
    after = clauses[later] if later is not None else None
    listed = bool(out) and out[-1] == (clauses[i - 1], []) and i - 1 in asides  # '... and then Lick'
    told = _FIRST_PERSON.intersection(parse(clause).words())  # the speaker about themself: 'I drive the route'
    aside = _remark(clause, session) or listed
    if aside and (any(s for _, s in out) or (later is not None and named[later] and (told or listed))):
        asides.add(i)
        return None
    back = after is not None and _points_back(parse(after).words())  # 'Lawton too. Put it at 8:40.'
    donor = before if ((_repeats(clause) and not (before is None and back)) or after is None) else after
    return donor or clause


_REASON_LEADS = ("so", "because", "since", "otherwise", "cause", "given")
"""Words where a reason or purpose begins inside a clause ('8:40, so it lines up with the McCoppin buses')."""
_REMARK_WORDS = 3
"""Words besides school names that make a clause with no request a remark ('families with a kid at Cobb end up
doing two drop-offs'), not a school-only clause that takes its neighbour's request ('and Lick')."""


def _without_reason(clause: str) -> str:
    """The clause without a reason or purpose that asks nothing ('8:40, so it lines up with the McCoppin buses' ->
    '8:40'): a school named only there is no subject of the request."""
    spaced = "".join(" " if ch in ",;:" or ch.isspace() else ch for ch in clause) + " "
    cut = min((i for i in (spaced.find(f" {lead} ") for lead in _REASON_LEADS) if i > 0), default=-1)
    if cut < 0 or has_request(clause[cut:]) or not has_request(clause[:cut]):
        return clause
    return clause[:cut].rstrip(" ,")


def _remark(clause: str, session: ScheduleSession) -> bool:
    """Whether a clause that asks nothing says something about its schools ('families with a kid at Cobb end up
    doing two drop-offs') rather than only naming them ('and Lick'); a repeat ('Lick too') is no remark."""
    rest = clause
    for mention in reversed(lang.mentions(clause, session.district)):
        rest = rest[: mention.start] + " " + rest[mention.end :]
    words = [w for w in parse(rest).words() if w not in ("and", "or", "the", "please")]
    return len(words) >= _REMARK_WORDS and not _repeats(clause) and not _elliptic(clause)


def school_names(text: str, session: ScheduleSession) -> list[str]:
    """The schools a text names, misspellings resolved as the request readers resolve them ('Everet Middle')."""
    return _schools(text, session, Plan())


def _schools(
    clause: str, session: ScheduleSession, plan: Plan, named: frozenset[str] = frozenset()
) -> list[str]:
    """The schools a clause names, alone or by group; `named`: those the whole message names, which 'the other
    schools' and 'everyone else' leave out."""
    district = session.district
    schools = [school for _, school in lang.mentioned_schools(clause, district)]
    for words, members in lang.group_schools(clause, district):
        if _labels_named(clause, words, schools, members):
            continue  # 'Balboa and Galileo high schools': the group word describes the schools named
        if not schools and has_request(clause) and _one_member(clause, words, members, plan):
            continue  # 'one of the high schools': which one is asked
        # the comma part with the group decides: 'Galileo at 8:40, everyone else close to today's times'
        part = next((p for p in lang.comma_parts(clause) if words in p), clause)
        wish = district_wish(part)
        if lang.rest_of_district(words):  # 'Galileo at 8:40 and everyone else at 9:30'
            members = [m for m in members if m not in named]
        if wish is not None and lang.whole_district(words):
            if wish == "keep":
                _ask_to_pin(members, session, plan)
            continue  # the request is for the district as a whole (see `district_wish`)
        members = _counted(clause, words, members)
        if members:
            plan.say.append(f'I read "{words}" as {", ".join(members)}.')
        else:
            plan.say.append(f'No school in this district matches "{words}".')
        schools += [m for m in members if m not in schools]
    for _, word, candidates in lang.fuzzy_mentions(clause, district):
        if len(candidates) == 1 and candidates[0] not in schools:
            if (note := f'I took "{word}" to mean {candidates[0]}.') not in plan.say:
                plan.say.append(note)  # said once, however many clauses name it
            schools.append(candidates[0])
        elif len(candidates) > 1:
            plan.ask.append(f'Did you mean {" or ".join(candidates)} by "{word}"?')
            plan.choices.append((word, candidates))
    return schools


_ONE_OF_DETERMINERS = frozenset(["the", "our", "your", "those", "these", "my", "two", "2", "three", "3"])


def _one_of(before: str) -> str | None:
    """The words 'one of' (and a determiner: 'the', 'our', 'the two') ending the text before a group word, as
    written, else None."""
    if not before[-1:].isspace():
        return None
    words = before.split()
    rest = len(words)
    while rest and words[rest - 1] in _ONE_OF_DETERMINERS and len(words) - rest < 2:
        rest -= 1
    if words[max(rest - 2, 0) : rest] != ["one", "of"]:
        return None
    return " ".join(words[rest - 2 :]) + " "


def _one_member(clause: str, words: str, members: list[str], plan: Plan) -> bool:
    """'one of the high schools (the one my daughter goes to)': a single school of the group, not said which. The
    agent asks which and holds the request for the answer (`plan.choices`); True when it asked."""
    at = clause.find(words)
    lead = _one_of(clause[:at]) if at >= 0 and len(members) > 1 else None
    phrase = f"{lead}{words}" if lead else ""
    if not lead or phrase not in clause:
        return False
    plan.ask.append(f'Which of the {words} do you mean: {", ".join(members[:-1])} or {members[-1]}?')
    plan.ask.append("I'll apply the request to it. Nothing is changed yet.")
    plan.choices.append((phrase, tuple(members)))
    return True


def _asked_which(clause: str, plan: Plan) -> bool:
    """Whether the agent already asks which school of a group the clause means ('one of our high schools, my
    son's'): its 'my' or 'our' asks no second question."""
    return any(phrase in clause for phrase, _ in plan.choices)


_PAIRS = (["both"], ["the", "two"], ["our", "two"], ["the", "2"])


def _pair_before(before: str) -> bool:
    """Whether the text before a group word ends with 'both', 'the two', 'our two' (and 'of the')."""
    words = before.split()
    words = words[:-2] if words[-2:] == ["of", "the"] else words
    return before[-1:].isspace() and any(words[-len(p) :] == p for p in _PAIRS)


_GRADE_TAGS = frozenset(["hs", "ms", "es", "pk", "k-8", "k8"])


def _grade_tags(name: str) -> list[str]:
    """The grade tags a school's name carries ('Balboa HS' -> ['hs'])."""
    return [w for w in name.lower().replace("(", " ").replace(")", " ").split() if w in _GRADE_TAGS]


def _counted(clause: str, words: str, members: list[str]) -> list[str]:
    """'both high schools' when three schools have the high-school grade: the two whose names say so
    (Balboa HS, Galileo HS), not the Transition Training Center."""
    if len(members) <= 2 or not _pair_before(clause[: clause.find(words)]):
        return members
    code = next((tag for m in members for tag in _grade_tags(m)), None)
    named = [m for m in members if code in _grade_tags(m)]
    return named if len(named) == 2 else members


def _after_word(before: str) -> bool:
    """Whether the text ends with a lower-case word (or ' or ')') and then a space."""
    end = before.rstrip()[-1:]
    return before[-1:].isspace() and bool(end) and ("a" <= end <= "z" or end in "')")


def _ends_with(text: str, words: tuple[str, ...]) -> bool:
    """Whether the text ends with one of the words, whole ('the', not 'bathe')."""
    for word in words:
        if text.endswith(word):
            before = text[-len(word) - 1 : -len(word)]
            if not (before.isalnum() or before == "_"):
                return True
    return False


def _labels_named(clause: str, words: str, schools: list[str], members: list[str]) -> bool:
    """Whether a group word ('high schools') follows school names of that group directly, as a label."""
    at = clause.find(words)
    return (
        bool(schools)
        and set(schools) <= set(members)
        and _after_word(clause[:at])
        and not _ends_with(clause[:at].rstrip(), ("all", "every", "each", "the", "our"))
    )


def _named_slot_call(clause: str, options: Sequence[int], edit: Callable[[str, int], Call]) -> Call | None:
    """'the earliest slot', 'not the last one': the fix (or forbid) of the option a clause names by its place."""
    named = _named_slot(clause)
    if not named:
        return None
    start, end, word = named
    index = 0 if word in ("first", "earliest", "early") else 1 if word in ("second", "middle") else -1
    refused = lang.negated(clause[:start]) or refused_after(clause, end)
    return edit("forbid" if refused else "fix", options[index])


def school_request(clause: str, school: str, session: ScheduleSession, plan: Plan) -> None:
    """Add the calls (or a question) for one school's request in one clause."""
    district = session.district
    options, label = district.start_times, ", ".join(district.time_labels)
    current = session.current
    slot = None if current is None else current.result.assignment[district.school_index(school)]

    def edit(kind: str, minutes: int) -> Call:
        return ("fix_start_time", {"school": school, "time": format_time(minutes), "type": kind})

    today = district.schools[district.school_index(school)].current_start
    times = _request_times(clause, slot, options, plan.directions.get(school), today)
    if not _START_WORDS & set(parse(clause).words()) and not lang.mentioned_schools(clause, district):
        times = [t for t in times if not _outside_window(t[2], options)]  # "doesn't get home till 8pm": no bound
    if not times and lang.clock_times(clause, bare=True) and _direction(clause) is None:
        return  # '9:30 runs late' beside 'Lawton earlier' in the same message: context, the direction asks
    roles = _roles(clause, times)
    bound = next(((minutes, role) for (_, _, minutes), role in zip(times, roles, strict=True) if role in BOUNDS), None)
    if bound is not None:  # 'after 8:40', 'not before 8:40', '9:30 or later', 'the earliest Lick can start is 8:40'
        return _bound_calls(school, bound, options, label, plan, edit)
    if times:
        wanted, unwanted, either = [], [], ClockRelation.OR in roles
        for (start, _, minutes), role in zip(times, roles, strict=True):
            if _event(clause, start, minutes, options) and _direction(clause) is not None:
                pass  # 'earlier, the 8:10 shuttle can't wait': the time of something else, the direction asks
            elif role is not ClockRelation.FROM:  # "from 7:50 to 9:30": 7:50 is where it is now
                (unwanted if role is ClockRelation.NOT_AT else wanted).append(_on_grid(minutes, options))
        if either and set(wanted) <= set(options) and len(set(wanted)) > 1 and not plan.undecided:
            # '8:40 or 9:30 is fine': either of those, so the other options are ruled out
            plan.calls.extend(edit("forbid", t) for t in options if t not in wanted)
            return
        if len(set(wanted)) > 1 and set(wanted) <= set(options) and plan.undecided:
            said = " and at ".join(format_time(t) for t in dict.fromkeys(wanted))  # 'Lawton at 9:30 is too late.
            plan.ask.append(f"You asked for {school} at {said}; which one should it be?")  # We'd like 7:50. Or
            return  # 8:40? I'm not sure': asked here, as a direction said before may fix one of them too
        if len(set(wanted)) > 1 and set(wanted) <= set(options):
            plan.calls.extend(edit("fix", t) for t in dict.fromkeys(wanted))  # '7:50 or maybe 9:30? I keep going
            return  # back and forth': two starts, asked which (`check_school_calls`)
        if wanted:
            minutes = wanted[0]
            if minutes in options:
                plan.calls.append(edit("fix", minutes))
                return
            nearest = min(options, key=lambda t: abs(t - minutes))
            plan.ask.append(
                f"{format_time(minutes)} is not one of the standardized start times ({label}). "
                f"Should I put {school} at {format_time(nearest)}, the closest option?"
            )
            plan.offer.append(edit("fix", nearest))
            plan.suggested.append(plan.offer[-1])
            return
        if not any(m in options for m in unwanted) and _direction(clause) is not None:
            times = []  # 'has to start earlier, our buses can't make the 8:00 run': the direction is the request
        for minutes in unwanted if times else ():
            if minutes in options:
                plan.calls.append(edit("forbid", minutes))
            else:
                plan.say.append(
                    f"{format_time(minutes)} is not a start-time option, so {school} cannot start then anyway."
                )
        if times:
            _not_away(clause, slot, options, plan, edit)
            if (direction := _direction(clause)) is not None and not direction[1]:
                _toward(school, slot, direction, session, plan, edit)  # 'Lawton earlier, not 8:40': to 7:50
            return
    if (named := _named_slot_call(clause, options, edit)) is not None:
        plan.calls.append(named)
        return
    direction = _direction(clause)
    if direction is not None:
        if direction[1] and lang.TODAY_CUE.found(parse(clause).words()):  # a bound from today's start: no move
            _move(school, _today_slot(today, options, direction), direction, session, plan, edit)
        else:  # relative to where the proposal has it: replaces an earlier request for the school
            _toward(school, slot, direction, session, plan, edit)
    elif _free(words := parse(clause).words()):
        attempt = session.infeasible
        pool = list(session.state.constraints) + (list(attempt.state.constraints) if attempt else [])
        names = list(dict.fromkeys(c.name for c in pool if c.school == school))
        plan.calls.extend(("remove_constraint", {"name": n}) for n in names)
        if not names:
            plan.say.append(f"{school} has no constraints on it right now.")
    elif BACK_CUE.found(words) and (back := _back_slot(school, session)) is not None:
        plan.calls.append(edit("fix", options[back]))  # 'keep Galileo where it was': before the last change
        plan.timeless.append(plan.calls[-1])
    elif _keeps(words) and slot is not None:
        plan.calls.append(edit("fix", options[slot]))
        plan.timeless.append(plan.calls[-1])
        plan.relative.append((plan.calls[-1], "kept where it is"))
    else:
        where = "" if slot is None else f" (it is at {district.time_labels[slot]} in the current proposal)"
        plan.ask.append(
            f"{WHAT_FOR}{school}{where}: an earlier or later start, or a specific time ({label})?"
        )


WHAT_FOR = "What would you like for "
"""How the agent asks what a school named without a request should get (an acceptance around it asks nothing)."""


def _today_slot(today: int, options: tuple[int, ...], direction: tuple[str, bool]) -> int:
    """The option a negated direction measured from today's start counts from ('must not start any earlier than
    it does now', said of a school at 8:40 today while the proposal has it at 7:50): for 'earlier', the first
    option not before today's start; for 'later', the last one not after it."""
    if direction[0].startswith("earl"):
        return next((i for i, t in enumerate(options) if t >= today), len(options) - 1)
    return max((i for i, t in enumerate(options) if t <= today), default=0)


def _toward(
    school: str, slot: int | None, direction: tuple[str, bool], session: ScheduleSession, plan: Plan, edit: Callable
) -> None:
    """The calls of a stated direction (`_move`), kept as timeless and relative fixes (`Plan.timeless`,
    `Plan.relative`)."""
    before = len(plan.calls)
    _move(school, slot, direction, session, plan, edit)
    plan.timeless.extend(plan.calls[before:])
    plan.relative.extend((call, direction[0]) for call in plan.calls[before:] if call[1]["type"] == "fix")


def skip_refused(plan: Plan, session: ScheduleSession) -> None:
    """A start chosen for 'earlier' / 'later' that the same message refuses for that school ('Lawton earlier.
    Not 8:40 though.') gives way to the next start that way not refused (7:50); with none left that way, the
    school is kept off the starts the other way and the reply says it cannot move as asked."""
    labels = list(session.district.time_labels)
    refused = {(a["school"], a["time"]) for n, a in plan.calls if n == "fix_start_time" and a["type"] == "forbid"}
    described: dict[str, list[str]] = {}
    for call, word in list(plan.relative):
        school, time = call[1]["school"], call[1]["time"]
        if call not in plan.calls or (school, time) not in refused or word not in ("earlier", "later"):
            continue
        i, sign = labels.index(time), -1 if word == "earlier" else 1
        ahead = [t for t in (labels[:i][::-1] if sign < 0 else labels[i + 1 :]) if (school, t) not in refused]
        if not ahead and (told := _told_how_it_is(plan, school, labels[i - sign], sign)):
            plan.calls = [c for c in plan.calls if c not in told]
            refused -= {(school, c[1]["time"]) for c in told}
            described.setdefault(next(w for c, w in plan.wording if c == told[0]), []).append(school)
            plan.wording = [(c, w) for c, w in plan.wording if c not in told]
            if (school, time) not in refused:
                continue
        new = [("fix_start_time", {"school": school, "time": t, "type": "fix"}) for t in ahead[:1]]
        if not new:
            now = labels[i - sign]
            away = labels[i - sign + 1 :] if sign < 0 else labels[: i - sign]
            new = [("fix_start_time", {"school": school, "time": t, "type": "forbid"}) for t in away]
            plan.wording.extend((c, f"{'later' if sign < 0 else 'earlier'} than asked") for c in new)
            plan.say.append(
                f"{school} cannot start {word} than {now} except at {time}, which you ruled out, so it stays at {now}."
            )
        _replace(plan, call, [c for c in new if c not in plan.calls], word)
    for said, schools in described.items():
        plan.say.append(f"I read '{said}' as how {', '.join(schools)} start{'s' * (len(schools) == 1)} now, not as a limit.")


def _told_how_it_is(plan: Plan, school: str, today: str, sign: int) -> list[Call]:
    """The forbids of a plain bound of this message that today's start meets and that rule out every start the
    asked direction goes to ('All three pre-K schools start after 9 ... Please move them earlier.': 'after 9'
    says how they start, not a wish against 'earlier'; "Muir doesn't start until 9:30 ... Could Muir go a little
    earlier?": a bound at today's very start); none when a forbid is no such bound ('not before 9' is a wish)."""
    side = "after " if sign < 0 else "before "  # 'earlier' is blocked by an 'after' bound, 'later' by 'before'
    bound = [c for c, words in plan.wording if c[1]["school"] == school and c[1]["type"] == "forbid"
             and (words.startswith(side) or words == f"at or {side}{today}")]  # fmt: skip
    mine = [c for c in plan.calls if c[0] == "fix_start_time" and c[1]["school"] == school and c[1]["type"] == "forbid"]
    if not bound or any(c not in bound for c in mine) or any(c[1]["time"] == today for c in bound):
        return []
    return bound


def _replace(plan: Plan, call: Call, new: list[Call], word: str) -> None:
    """Put `new` in the place of a direction's fix in the plan's calls and its timeless and relative lists."""
    at = plan.calls.index(call)
    plan.calls[at : at + 1] = new
    plan.timeless = [c for c in plan.timeless if c != call] + new
    plan.relative = [(c, w) for c, w in plan.relative if c != call]
    plan.relative += [(c, word) for c in new if c[1]["type"] == "fix"]


def _bound_calls(
    school: str, bound: tuple[int, ClockRelation], options: Sequence[int], label: str, plan: Plan, edit: Callable
) -> None:
    """The forbids of a bound ('after 8:40', 'not before 8:40', '9:30 or later'), or a note when it rules out
    every option or none."""
    limit, role = bound
    later_wanted = role in (ClockRelation.AFTER, ClockRelation.NOT_BEFORE)
    strict = role in (ClockRelation.AFTER, ClockRelation.BEFORE)
    banned = [
        t for t in options if (t < limit or (strict and t == limit) if later_wanted else t > limit or (strict and t == limit))
    ]
    side = ("after" if later_wanted else "before") if strict else ("at or after" if later_wanted else "at or before")
    if len(banned) == len(options):
        plan.say.append(f"No start-time option for {school} is {side} {format_time(limit)} (options: {label}).")
        return
    if not banned:
        plan.say.append(f"Every start-time option for {school} already meets that ({label}).")
    plan.calls.extend(edit("forbid", t) for t in banned)
    plan.wording.extend((edit("forbid", t), f"{side} {format_time(limit)}") for t in banned)


def check_school_calls(plan: Plan, session: ScheduleSession) -> None:
    """One message must not ask two different starts for a school, nor rule out all of its options:
    either becomes a question and nothing is applied."""
    district = session.district
    edits: dict[str, list[dict[str, Any]]] = {}
    for name, args in plan.calls:
        if name == "fix_start_time":
            edits.setdefault(args["school"], []).append(args)
    for school, args in edits.items():
        fixes = list(dict.fromkeys(a["time"] for a in args if a["type"] == "fix"))
        stated = [
            t
            for t in fixes
            if ("fix_start_time", {"school": school, "time": t, "type": "fix"}) not in plan.timeless
        ]
        if len(fixes) > 1 and stated:  # 'later? ... maybe around 8:40': the stated time is the request
            drop = [
                ("fix_start_time", {"school": school, "time": t, "type": "fix"})
                for t in fixes
                if t not in stated
            ]
            plan.calls = [c for c in plan.calls if c not in drop]
            fixes = stated
        if len(fixes) > 1:
            plan.ask.append(f"You asked for {school} at {' and at '.join(fixes)}; which one should it be?")
            continue
        banned = {a["time"] for a in args if a["type"] == "forbid"} | {
            format_time(c.minutes)  # type: ignore[arg-type]
            for c in session.state.constraints
            if c.kind == "forbid" and c.school == school
        }
        if not fixes and banned >= set(district.time_labels):
            plan.ask.append(
                f"That rules out every start-time option for {school} ({', '.join(district.time_labels)}). "
                f"Which start could {school} have?"
            )


def swap(low: str, session: ScheduleSession, plan: Plan) -> bool:
    """'Swap Everett and Lick': each of two named schools takes the other's current start."""
    schools = [school for _, school in lang.mentioned_schools(low, session.district)]
    current = session.current
    asked = min((at for w in SWAP_WORDS if (at := _word_at(low, w)) >= 0), default=-1)
    if asked < 0 or len(schools) != 2 or current is None or lang.negated(low[:asked]):
        return False
    district = session.district
    first, second = (current.result.assignment[district.school_index(s)] for s in schools)
    if first == second:
        plan.say.append(
            f"{schools[0]} and {schools[1]} both start at {district.time_labels[first]} already, so swapping "
            "changes nothing. Should one of them move earlier or later?"
        )
        return True
    for school, slot in ((schools[0], second), (schools[1], first)):
        plan.calls.append(
            ("fix_start_time", {"school": school, "time": district.time_labels[slot], "type": "fix"})
        )
    return True


_SAME_TIME_DOUBT = frozenset(["can't", "cannot", "cant", "not", "don't", "dont", "won't", "if", "never", "avoid"])


def same_time(low: str, session: ScheduleSession, plan: Plan) -> bool:
    """'Lick at the same time as Everett': both start at Everett's current start; 'Lick and Everett
    should start at the same time' (no time, no 'as'): which shared start is asked, nothing is changed. Without
    this each school was held where it is (a request not met, read back as if it were)."""
    at = _word_at(low, "same time")
    schools = [school for _, school in lang.mentioned_schools(low, session.district)]
    current = session.current
    if at < 0 or len(schools) != 2 or current is None or lang.clock_times(low, bare=True) or lang.negated(low[:at]):
        return False
    if _SAME_TIME_DOUBT & set(parse(low).words()):
        return False  # "our buses can't cover Everett and Galileo if they start at the same time": a problem
    district = session.district
    if _word_at(low[at:], "as") >= 0:  # both held at the leader's start: a free leader would move away
        slot = current.result.assignment[district.school_index(schools[1])]
        plan.calls.extend(
            ("fix_start_time", {"school": school, "time": district.time_labels[slot], "type": "fix"}) for school in schools
        )
        return True
    plan.ask.append(
        f"Which start should {schools[0]} and {schools[1]} share: {', '.join(district.time_labels)}? Say the time "
        "and I'll put both there."
    )
    plan.ask.append("Nothing is changed yet.")
    return True


def _word_at(text: str, word: str) -> int:
    """Where the word first stands whole in the text (no letter, digit or '_' on either side), else -1."""
    found = text.find(word)
    while found >= 0:
        end = found + len(word)
        edges = text[found - 1 : found] + text[end : end + 1]
        if not any(c.isalnum() or c == "_" for c in edges):
            return found
        found = text.find(word, found + 1)
    return -1


_CONTEXT_SUBJECTS = frozenset(["we", "we're", "we've", "our", "us", "they", "they're", "their", "i", "i'm", "my"])
"""Words that give a stretch a subject of its own ('we can't cover the 8:40 runs'): beside a direction it is said
as the reason, not as the request."""


def note_directions(parts: list[tuple[str, list[str]]], plan: Plan) -> None:
    """Remember in `plan.directions` the direction (not negated) each named school is asked in a message's clauses."""
    for clause, schools in parts:
        if (direction := _direction(clause)) is not None and not direction[1]:
            plan.directions.update(dict.fromkeys(schools, direction))


def _request_times(
    clause: str,
    slot: int | None,
    options: tuple[int, ...],
    beside: tuple[str, bool] | None = None,
    today: int | None = None,
) -> list[tuple[int, int, int]]:
    """The clause's clock times (`lang.clock_times`, bare ones too) without those said as context beside a stated
    direction (the clause's own, else `beside`: the one the message asks of the school elsewhere): see
    `_context_time`."""
    times = lang.clock_times(clause, bare=True)
    direction = (_direction(clause) or beside) if times else None
    if direction is None or direction[1]:
        return times
    now = None if slot is None else options[slot]
    sign = -1 if direction[0].startswith("earl") else 1
    parts = lang.reason_parts(clause)
    return [
        time
        for time, role in zip(times, _roles(clause, times), strict=True)
        if not _context_time(clause, time[0], role, (now, today, time[2], sign), parts)
    ]


_BOUND_LEADS = frozenset(["before", "after"])
_ASKING_WORDS = frozenset(["please", "pls", "plz", "want", "keep", "stay", "leave", "need", "should", "prefer"])


def _asked_here(clause: str, at: int) -> bool:
    """Whether the stretch of a time (between commas or sentence ends) asks for it ('8:40 please')."""
    stretch = next((clause[a:b] for a, b in lang.stretches(clause) if a <= at < b), "")
    return bool(_ASKING_WORDS & set(parse(stretch).words()))


def _context_time(
    clause: str, at: int, role: ClockRelation, where: tuple[int | None, int | None, int, int], parts: list
) -> bool:
    """Whether a time beside a stated direction is context, not a request. `where` is (the school's start now,
    its start today, the time, -1 for earlier / +1 for later). A bound never is; a start where the school is now
    always is ('Lawton earlier, 9:30 runs late'); a start on the asked side is not ('Cobb later, we'd love 9:30');
    else a time in a reason ('because the 8:40 bus is full', 'we can't cover the 8:40 runs') is, and so is today's
    start or one the other way in a stretch that asks nothing of its own ('Cobb earlier. 9:30 drags')."""
    now, today, minutes, sign = where
    if role in BOUNDS:
        return False
    if role is ClockRelation.AT and now is not None and today is not None and minutes == now and (minutes - today) * sign > 0:
        return False  # today 8:30, proposed 8:40: 'Maybe a bit later, like 8:40?' asks for 8:40, on the asked side
    if role is ClockRelation.AT and now is not None and minutes == now:
        in_reason = _reason_part(next((clause[a:b] for a, b in parts if a <= at < b), ""))  # 'since the 8:40 ...'
        return in_reason or not _asked_here(clause, at)  # '9:30 is too late for Lick, 8:40 please': kept there
    if role in (ClockRelation.AT, ClockRelation.OR) and now is not None and (minutes - now) * sign > 0 and minutes != today:
        return False  # "Muir's too late. We want 7:50. Or 8:40?": both on the asked side
    part = next((clause[a:b] for a, b in parts if a <= at < b), "")
    if _reason_part(part):
        return True
    away = now is not None and (minutes - now) * sign < 0 or minutes == today
    return role is ClockRelation.AT and away and not lang.asks(part) and _direction(part) is None


def _not_away(clause: str, slot: int | None, options: tuple[int, ...], plan: Plan, edit: Callable) -> None:
    """Beside a refused time that is kept ('Balboa earlier, not 8:40'), a stated direction rules out the starts
    the other way from where the school is now, so the solver cannot move it opposite to the request."""
    direction = _direction(clause)
    if direction is None or direction[1] or slot is None or not any(c[1]["type"] == "forbid" for c in plan.calls):
        return
    sign = -1 if direction[0].startswith("earl") else 1
    away = [t for t in options if (t - options[slot]) * sign < 0]
    plan.calls.extend(edit("forbid", t) for t in away if edit("forbid", t) not in plan.calls)
    plan.wording.extend((edit("forbid", t), f"{'later' if sign < 0 else 'earlier'} than asked") for t in away)


def _reason_part(part: str) -> bool:
    """Whether a stretch is said as a reason: it gives no direction and opens with a reason word or has a subject
    of its own (`_CONTEXT_SUBJECTS`)."""
    words = parse(part).words()
    if not words or _direction(part) is not None:
        return False
    return words[0] in lang.REASON_LEADS or bool(_CONTEXT_SUBJECTS.intersection(words))


def _roles(clause: str, times: list[tuple[int, int, int]]) -> list[ClockRelation]:
    """The one parse's relation of each time ('at', 'not_at', 'from', 'or', a bound: `core.text.bounds`); a time
    the parse does not hold as a clock time is asked for ('at')."""
    found = {m.span[0]: m.role for m in parse(clause).of(Kind.CLOCK, live_only=False)}
    return [ClockRelation(found.get(start) or "at") for start, _, _ in times]


_DETERMINERS = (["the"], ["a"], ["an"], ["our"], ["my"], ["their"], ["that"], ["this"])
"""A word before a time that makes it the time of a thing ('the 8:10 shuttle', 'our 8:00 run'), not a start."""


_START_WORDS = frozenset(["start", "starts", "starting", "begin", "begins", "beginning", "bell", "open", "opens",
                          "put", "move", "set", "make", "schedule", "shift", "push", "change"])  # fmt: skip
"""Words that make a time far from every start option a request all the same ('put Lick at 6'); 'at' alone does
not ('my son is up at 6')."""
_WINDOW_MINUTES = 60
"""A time this far outside the district's start options ('my son is up at 6') is the time of something else."""


def _outside_window(minutes: int, options: tuple[int, ...]) -> bool:
    """Whether a time lies more than `_WINDOW_MINUTES` before the first or after the last start option."""
    return bool(options) and (minutes < min(options) - _WINDOW_MINUTES or minutes > max(options) + _WINDOW_MINUTES)


def _event(clause: str, start: int, minutes: int, options: tuple[int, ...]) -> bool:
    """Whether a time that is no start option is the time of a thing ('the 8:10 shuttle', 'our 8:00 run')."""
    return _on_grid(minutes, options) not in options and clause[:start].split()[-1:] in _DETERMINERS


def _on_grid(minutes: int, options: tuple[int, ...]) -> int:
    """An afternoon reading of a morning time when only that is an option ('1:10' -> 1:10 PM)."""
    return minutes + 720 if minutes not in options and minutes + 720 in options else minutes


def _direction(clause: str) -> tuple[str, bool] | None:
    """('earlier'|'later'|'earliest'|'latest', negated) of the first direction not negated, else of the last one."""
    cues = sorted(
        [(start, end, words, -1) for start, end, words in _find_cues(clause, EARLIER_WORDS)]
        + [(start, end, words, +1) for start, end, words in _find_cues(clause, LATER_WORDS)]
    )
    found, previous_end = [], 0
    for start, end, words, sign in cues:
        extreme = words.startswith(("earliest", "latest", "as ", "first", "last"))
        found.append((sign, extreme, lang.negated(clause[previous_end:start])))
        previous_end = end
    chosen = next((c for c in found if not c[2]), found[-1] if found else None)
    if chosen is None:
        return None
    sign, extreme, negated = chosen
    word = ("earliest" if sign < 0 else "latest") if extreme else ("earlier" if sign < 0 else "later")
    return word, negated


def _move(
    school: str, slot: int | None, direction: tuple[str, bool], session: ScheduleSession, plan: Plan, edit
) -> None:
    options, labels = session.district.start_times, session.district.time_labels
    word, negated = direction
    if slot is None:
        plan.say.append("Let me first produce a schedule; then I can move schools relative to it.")
        return
    if negated:
        side = range(slot) if word.startswith("earl") else range(slot + 1, len(options))
        if not side:
            plan.say.append(f"{school} cannot start {word} than {labels[slot]} anyway.")
        plan.calls.extend(edit("forbid", options[i]) for i in side)
        return
    if word in ("earliest", "latest"):
        plan.calls.append(edit("fix", options[0] if word == "earliest" else options[-1]))
        return
    target = slot + (-1 if word == "earlier" else 1)
    if not 0 <= target < len(options):
        plan.relative.append((edit("fix", options[slot]), word))  # wanted there: ruling it out contradicts this
        extreme = "earliest" if word == "earlier" else "latest"
        plan.say.append(
            f"{school} already has the {extreme} start time ({labels[slot]}). Should I keep it there, or try something else?"
        )
        return
    plan.calls.append(edit("fix", options[target]))
