"""The offline T-P-P agent: a deterministic mapping from stakeholder language to tool calls.

`interpret` reads the user's message (with the session for context: the incumbent values, the
constraints, a pending infeasibility) and returns tool calls, a clarifying question or a closing
remark. A question the agent asks may carry an offer ("Should I put Everett at 8:40 AM?"); the
`Memory` keeps it so "yes" applies it and "no" drops it. School requests live in
`offline_schools.py`, model-wide ones (bounds, undo, relaxations, options) in `offline_model.py`.
`make_offline_policy` wraps it in the LLM layer's offline protocol: first turn tool calls, second
turn the report written from the tool results (see `report.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.llm import Message, OfflinePolicy, OfflineTurn, ToolSpec, last_user_text, trailing_tool_results
from core.schedule import language as lang
from core.schedule import offline_model as model
from core.schedule.offline_schools import (
    EARLIER_CUE,
    LATER_CUE,
    WHAT_FOR,
    Call,
    Plan,
    _direction,
    _keeps,
    _outside_window,
    check_school_calls,
    district_wish,
    has_request,
    note_directions,
    same_time,
    school_names,
    school_request,
    skip_refused,
    swap,
    targets,
)
from core.schedule.processing import format_deviation, format_load
from core.schedule.report import compose_report
from core.schedule.session import ScheduleSession
from core.schedule.state import ModelState
from core.text.answers import Polarity, choose, polarity
from core.text.clean import MAX_CHARS, clean
from core.text.contradictions import Claim, contradictions
from core.text.mentions import Kind, parse
from core.text.numbers import unreadable_number
from core.text.questions import is_question
from solvers.schedule.data import format_time
from solvers.schedule.model import DEVIATION, LOAD

__all__ = ["Memory", "Plan", "interpret", "make_offline_policy"]

_COMMAND_CONFIDENCE = 0.5
"""A whole-message act (start over, undo, show options, loosen, satisfied) is taken at this confidence of the
learned intent; below it the message is read clause by clause first."""
_SHORT_REPLY = 6
"""A yes or no answers the agent's offer only when it is the whole reply ('yes please', 'no thanks');
'yes, and move Lick later' is a new request."""
_INTENT_CONFIDENCE = 0.55
"""How sure the learned intent must be before a message no rule reads is acted on; below it the agent asks."""
_OBJECTIVE_ACTS = ({"priority_load", "reduce_load"}, {"priority_deviation", "reduce_deviation"})
"""Intents about one objective: when the two of a pair are the learned intent's best two guesses, the objective
is sure even if the act is not, so their probabilities add up ('priority #1: keep times close to today's' is
0.48 priority and 0.44 less change: the priority, not the menu)."""
_MENU = ("a", "b", "c")
_PRIORITIES = {
    "priority_load": (True, False),
    "priority_deviation": (False, True),
    "priority_equal": (False, False),
}
"""Learned priority intents -> (load first, change first) for `offline_model.priority`; both False is 1:1."""
_MAX_OPTIONS = 9
_ASKING_VERBS = frozenset(["can", "could", "would", "will", "shall"])
_REQUEST_LEADS = frozenset(["please", "let's", "lets"])
"""A request put as a question opens with an asking verb and 'we'/'you'/'i', or with 'please'/'let's' ('can we
keep every school close to today's times?')."""
_COMPARATIVE = frozenset(["closer", "nearer"])
"""'every school closer to today's times' asks for less change than now (a step), not the change priority."""


_FILLER = frozenset(
    [
        "yes",
        "yeah",
        "yep",
        "yup",
        "sure",
        "ok",
        "okay",
        "please",
        "thanks",
        "thank",
        "you",
        "do",
        "it",
        "go",
        "ahead",
        "that",
        "sounds",
        "good",
        "of",
        "course",
        "absolutely",
        "correct",
        "let's",
        "lets",
        "great",
        "fine",
        "alright",
        "all",
        "right",
        "no",
        "nope",
        "nah",
        "not",
        "really",
        "i'm",
        "i",
        "am",
    ]
)


def _short_answer(low: str) -> Polarity | None:
    """YES / NO when the whole reply is a yes or a no with polite filler ('yes please', 'no thanks'); a reply
    that states a number ('No, 8:40 please.') is an answer with content, read as a request."""
    words = _reply_words(low)
    if not words or len(words) > _SHORT_REPLY or any(w not in _FILLER for w in words):
        return None
    return polarity(low)


def _reply_words(low: str) -> list[str]:
    """The words of a short reply; none when it states a number."""
    return [] if any(c.isdigit() for c in low) else list(parse(low).words())


# fmt: off
_THANKS = frozenset([
    "good", "great", "perfect", "excellent", "fine", "works", "work", "wonderful", "nice", "thanks", "thank",
    "awesome", "lovely", "brilliant", "done", "cool", "fantastic", "super", "cheers", "ideal", "ok", "okay",
    "alright", "appreciated", "appreciate",
])
"""Words of approval or thanks: a reply made only of them (and `_THANKS_FILLER`) accepts the proposal."""
_THANKS_FILLER = frozenset([
    "that", "this", "it", "you", "ok", "okay", "sounds", "looks", "for", "us", "me", "all", "set", "very", "much",
    "so", "really", "that's", "it's", "we're", "i'm", "just", "yes", "alright", "right", "then", "will", "we'll",
    "be", "is", "a", "lot", "again",
])
# fmt: on


_DONE_PHRASES = ("no more changes", "no further changes", "no changes", "nothing else", "nothing more",
                 "that's all", "that is all", "all good", "from me", "go with that", "go with it",
                 "go with this")  # fmt: skip
"""Ways of saying there is nothing more to change ('Ok, no changes from me. Thanks!'): read as approval."""


def _without_for_school(low: str, session: ScheduleSession) -> str:
    """The reply without 'for <school>' ('yes, go with that for Lawton'): an approval of what the table holds for
    that school accepts as the bare approval does."""
    chars = list(low)
    for mention in lang.mentions(low, session.district):
        lead = low.rfind("for ", 0, mention.start)
        if lead >= 0 and not low[lead + 4 : mention.start].strip():
            chars[lead : mention.end] = " " * (mention.end - lead)
    return "".join(chars)


def _accepts(low: str) -> bool:
    """Whether the whole reply accepts what is on the table ('Good, thanks', 'perfect', 'that works', 'great, thank
    you', 'OK.', 'Ok, no changes from me. Thanks!'): only words of approval and thanks, at least one of them, no
    negation and no number."""
    for phrase in _DONE_PHRASES:
        low = low.replace(phrase, " done ")
    words = _reply_words(low)
    return (
        0 < len(words) <= _SHORT_REPLY
        and all(w in _THANKS or w in _THANKS_FILLER for w in words)
        and any(w in _THANKS for w in words)
    )


_CONTRAST = frozenset(["but", "though", "although", "however", "except", "still", "only", "yet"])
"""A remark that opens with one of these after an approval qualifies it ('Great, but ...'): no acceptance."""


def _accepts_with_remark(low: str) -> bool:
    """Whether the reply opens with approval and goes on with a remark ('Great, that frees up two of my 9:30
    buses.', 'Perfect, the drivers will love that.'): the opening part alone accepts (`_accepts`) and the remark
    neither qualifies it ('Great, but ...') nor asks. Only used when nothing else in the reply was read."""
    cut = min((i for i in (low.find(p) for p in ",.!;:-") if i > 0), default=-1)
    if cut < 0 or not _accepts(low[:cut]) or is_question(low):
        return False
    remark = parse(low[cut + 1 :]).words()
    return bool(remark) and remark[0] not in _CONTRAST


_ASKS = frozenset(["could", "can", "would", "will", "please", "move", "put", "make", "want", "set", "change",
                   "shift", "push", "keep", "should", "must", "need", "needs", "let", "try", "prefer", "instead"])
"""Words by which a remark after an approval would ask for something ('Great, now put Lick at 9:30.')."""
_OWNERS = frozenset(["the", "a", "an", "our", "my", "their", "his", "her", "your", "that", "this"])
"""A time after one of these is a thing's ('the 7:50 run', 'my 9:30 buses'), not a start asked for."""


def _remark_asks_nothing(low: str, session: ScheduleSession) -> bool:
    """Whether the remark after an opening approval asks nothing: no asking word, no direction, no school named,
    and every time in it belongs to a thing ('Good, that saves us the 7:50 run.')."""
    cut = min((i for i in (low.find(p) for p in ",.!;:-") if i > 0), default=-1)
    remark = low[cut + 1 :]
    words = parse(remark).words()
    if _ASKS.intersection(words) or EARLIER_CUE.found(words) or LATER_CUE.found(words):
        return False
    if lang.mentioned_schools(remark, session.district):
        return False
    return all(remark[:start].split()[-1:] and remark[:start].split()[-1] in _OWNERS
               for start, _, _ in lang.clock_times(remark, bare=True))


_WITHDRAW_ENDS = (("as", "it", "is"), ("as", "is"), ("as", "they", "are"), ("alone",), ("be",))
"""What follows 'leave X' when it withdraws a wish ('leave Cobb as it is', 'leave it alone'); 'leave Lick where it
is' holds Lick there (a pin)."""


def _withdraw_cue(words: tuple[str, ...]) -> bool:
    """'forget Everett', 'never mind', 'leave Cobb as it is': the speaker drops a wish of their own ('don't forget'
    is none)."""
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        if word == "forget" and before not in ("don't", "dont", "not", "never"):
            return True
        if word == "nevermind" or (word == "never" and words[i + 1 : i + 2] == ("mind",)):
            return True
        if word in _LET_GO and words[i + 1 : i + 2] and words[i + 1] in _PRONOUNS and _only_fillers(words[i + 2 :]):
            return True  # 'OK, leave it then.', 'drop it, thanks': a pronoun alone, nothing asked after it
        if word == "leave":
            rest = words[i + 1 : i + 6]
            if any(rest[j : j + len(end)] == end for end in _WITHDRAW_ENDS for j in range(len(rest))):
                return True
        if word in ("keep", "leave") and _where_put(words[i + 1 : i + 7]):
            return True
    return False


def _where_put(rest: tuple[str, ...]) -> bool:
    """'(keep it) where you put it', 'where you have it', "where you've got them": where the agent's proposal has
    it, so nothing is to change."""
    return any(rest[j : j + 2] in (("where", "you"), ("where", "you've")) for j in range(len(rest)))


_LET_GO = frozenset(["leave", "drop", "skip"])
_PRONOUNS = frozenset(["it", "that", "them", "this"])
_TAIL = frozenset(["then", "please", "thanks", "thank", "you", "for", "now", "so", "be", "alone", "as", "is",
                   "anyway", "ok", "okay", "i", "guess", "oh", "well", "fine", "too", "there"])  # fmt: skip
"""What may follow 'leave it' in a withdrawal ('leave it then', 'leave it for now, thanks', 'leave it at that');
a time, a school or a direction after it ('leave it at 8:40', 'leave it later') is a request."""


def _only_fillers(words: tuple[str, ...]) -> bool:
    """Nothing but courtesies and fillers ('then', 'for now, thanks') or 'at that' ('leave it at that')."""
    rest = [w for w in words if w not in _TAIL]
    return not rest or rest == ["at", "that"]


_RULE_WORDS = frozenset(["rule", "rules", "limit", "limits", "constraint", "constraints", "that", "it", "things",
                         "everything", "schedule", "proposal", "way", "have", "we've", "got", "what's"])  # fmt: skip
"""'keep the rule', 'keep it that way', 'keep what we have': holding what is there, no school's request."""


def _withdrawal(low: str, session: ScheduleSession, offer: list[Call], memory: Memory) -> Plan | None:
    """'You're right, forget Everett, keep the rule.', 'OK, leave Cobb as it is then, thanks.': the speaker drops
    their own request (or the agent's pending offer) for the schools named there; nothing changes and, since
    nothing else in the message asks, the negotiation ends with the current proposal. None when the message is no
    withdrawal, or asks something else as well ('forget Everett, move Lick later')."""
    spans = lang.stretches(low)
    stretches = [low[a:b] for a, b in spans]
    dropped = [t for t in stretches if _withdraw_cue(parse(t).words())]
    first = next((a for a, b in spans if low[a:b] in dropped), 0)
    if not dropped or is_question(low[first:]) or any(parse(t).of(Kind.CLOCK) for t in dropped):
        return None  # 'forget what I said before: Galileo at 7:50' asks for a start; 'never mind, what's the peak?'
    named = [s for t in dropped for _, s in lang.mentioned_schools(t, session.district)]
    for text in stretches:
        if text in dropped or not text.strip() or _accepts(text) or _short_answer(text.strip()) is not None:
            continue  # 'Fine, forget Galileo': the approval around the withdrawal asks nothing
        words = parse(text).words()
        if _keeps(words) and not lang.mentioned_schools(text, session.district) and _RULE_WORDS.intersection(words):
            continue  # 'keep the rule'
        if "already" in words:
            continue  # "oh, it's already the latest?": how things stand, echoed; it asks nothing
        if has_request(text) or lang.mentioned_schools(text, session.district) or lang.reduce_cue(text):
            return None
    if not named:
        undo = lang.intent(low).intent == "undo" and not memory.asked  # after a question it drops what was asked
        if not (offer or memory.asked) or undo or lang.intent(low).intent == "start_over":
            return None  # 'never mind that change', 'forget everything and begin again': an undo or a reset
        named = [a["school"] for n, a in offer if n == "fix_start_time"] or memory.schools[:1]
    session.dismiss_infeasible()
    current = session.current
    where = [
        f"{school} ({current.result.schedule[school]} in proposal {current.number})"
        for school in dict.fromkeys(named)
        if current is not None and school in current.result.schedule
    ]
    kept = f" for {' and '.join(where)}" if where else ""
    for school in (s for t in dropped if _keeps(parse(t).words()) for _, s in lang.mentioned_schools(t, session.district)):
        if current is not None and school in current.result.schedule:  # "leave Everett's start time alone": a keep
            memory.relative[(school, current.result.schedule[school])] = "kept where it is"  # a later move asks
    return Plan(reply=f"All right, no change{kept}: I've left the schedule as it is. " + _closing(session))


@dataclass(frozen=True)
class Goal:
    """One thing a turn asked for, checked against the solved schedule: a school at or not at a start time, or
    an objective at most a value."""

    school: str | None
    time: str | None
    kind: str  # "fix", "forbid" or "bound"
    objective: str | None = None
    value: float | None = None
    said: str | None = None
    """The school as the user named it ('Everett Middle School'), when they named it."""
    asked: str | None = None
    """The user's word for the request when the agent chose the time ('later', 'kept where it is')."""

    def request(self) -> str:
        """What was asked, in the user's terms: 'later', 'at 8:40 AM', 'not at 7:50 AM'."""
        return self.asked or f"{'at' if self.kind == 'fix' else 'not at'} {self.time}"

    def shortfall(self, schedule: dict[str, str], objectives: dict[str, float]) -> str:
        """'' when the schedule meets the goal, else what was asked and what the schedule has instead."""
        if self.kind == "bound" and self.objective is not None and self.value is not None:
            now = objectives[self.objective]
            if now <= self.value + 1e-9:
                return ""
            asked, got = (
                (f"a peak of at most {round(self.value * 100):,} students", f"{round(now * 100):,}")
                if self.objective == LOAD
                else (f"an average change of at most {self.value:g} minutes", f"{now:.1f} minutes")
            )
            return f"{asked} (the schedule has {got})"
        at = schedule.get(self.school or "")
        if at is None or (at == self.time) == (self.kind == "fix"):
            return ""
        return f"{self.school} {'at' if self.kind == 'fix' else 'not at'} {self.time} (it starts at {at})"


def _goals(
    calls: list[Call], said: dict[str, str] | None = None, words: dict[tuple[str, str, str], str] | None = None
) -> list[Goal]:
    """The goals of a turn's edits: each fix, forbid and upper bound it adds; `said`: the schools as the user
    named them, `words`: the user's word for a start the agent chose ((school, time) -> 'later')."""
    said, words = said or {}, words or {}
    goals = []
    for name, args in calls:
        if name == "fix_start_time":
            school, time, kind = args["school"], args["time"], args["type"]
            asked = words.get((school, time, kind))
            goals.append(Goal(school, time, kind, said=said.get(school), asked=asked))
        elif name == "add_objective_upper_bound":
            goals.append(Goal(None, None, "bound", args["objective"], args["value"]))
    return goals


def not_achieved(goals: Sequence[Goal], session: ScheduleSession) -> str:
    """A line naming every goal of the turn that the current schedule does not meet ('' when all are met)."""
    current = session.current
    if current is None or not current.result.has_schedule:
        return ""
    objectives = {LOAD: current.result.load, DEVIATION: current.result.deviation}
    missed = [m for m in (g.shortfall(current.result.schedule, objectives) for g in goals) if m]
    if not missed:
        return ""
    return f"**Not achieved** in proposal {current.number} (the current schedule): " + "; ".join(missed) + "."


def read_back(goals: Sequence[Goal], session: ScheduleSession, before: dict[str, str]) -> str:
    """Every school a turn asked about, in the user's terms, with its start before and after and whether the
    request holds ('- Everett Middle School (Everett MS): 7:50 → 8:40 AM (you asked: later).'); '' when the turn
    asked nothing of a school."""
    current = session.current
    if current is None or not current.result.has_schedule:
        return ""
    now = current.result.schedule
    objectives = {LOAD: current.result.load, DEVIATION: current.result.deviation}
    by_school: dict[str, list[Goal]] = {}
    for goal in goals:
        if goal.school is not None and goal.school in now:
            by_school.setdefault(goal.school, []).append(goal)
    lines = []
    for school, asked in by_school.items():
        said = next((g.said for g in asked if g.said), None)
        label = school if not said or said.lower() in school.lower() else f"{said} ({school})"
        was, after = before.get(school), now[school]
        move = f"{_from_time(was, after)} → {after}" if was and was != after else f"stays at {after}"
        request = "; ".join(dict.fromkeys(g.request() for g in asked))
        missed = any(g.shortfall(now, objectives) for g in asked)
        lines.append(f"- {label}: {move} (you asked: {request}{'; **not achieved**' if missed else ''}).")
    return "**Your request, read back:**\n" + "\n".join(lines) if lines else ""


def _from_time(was: str, after: str) -> str:
    """'7:50 AM' before '8:40 AM' reads '7:50' (the shared half of the day is said once)."""
    clock, _, half = was.partition(" ")
    return clock if half and after.endswith(half) else was


@dataclass
class Memory:
    """What the offline agent remembers between turns: the offer behind its last question, notes for the
    report, and a request held back because a misspelt word fitted several schools (text, word choices)."""

    offer: list[Call] = field(default_factory=list)
    say: list[str] = field(default_factory=list)
    pending: tuple[str, list[tuple[str, tuple[str, ...]]]] | None = None
    menu: int = 0
    nudges: dict[str, int] = field(default_factory=dict)
    floors: dict[str, float] = field(default_factory=dict)
    schools: list[str] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    stated: set[tuple[str, str, str]] = field(default_factory=set)
    """(school, time, 'fix'|'forbid') the user asked for in words; a later request against one is asked about
    (a start the agent chose for 'later' is no such request)."""
    relative: dict[tuple[str, str], str] = field(default_factory=dict)
    """(school, time) -> the user's words for a start the agent chose for them ('earlier', 'kept where it is'):
    ruling that start out later contradicts the request ('Galileo earlier', then 'Galileo not before 8:40')."""
    wording: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """(school, time, 'fix'|'forbid') -> the user's terms for the last turn's calls ('later', 'after 8:00 AM')."""
    before: dict[str, str] = field(default_factory=dict)
    """The schedule when the turn's request was read: the 'before' of its read-back."""
    request: str = ""
    """The last clause that asked something of a school ('can it be earlier?'): what 'And Muir too, same thing.'
    repeats for the schools it names."""
    reasked: bool = False
    """The last reply asked the offer's question again after a thanks ('Thanks!' is no yes): a second courtesy
    leaves the schedule as it stands."""
    asked: bool = False
    """The last reply asked the user something (it had a '?'): 'forget it' then withdraws what it asked about."""
    start_asked: bool = False
    """The last reply gave the start times a question asked for: 'and Everett?' then asks Everett's."""
    follow_start: bool = False
    """This turn follows such an answer (`start_asked` of the turn before)."""
    contested: frozenset[str] = frozenset()
    """Schools whose 'should the new request replace the earlier one?' the last reply asked: a new request for one
    answers it ('Sorry for the confusion. Put Everett at 9:30.')."""
    suggested: list[Call] = field(default_factory=list)
    """The calls of `offer` the agent suggested itself (`Plan.suggested`): only an explicit yes applies them."""
    home: list[str] = field(default_factory=list)
    """The schools the stakeholder said are theirs ('I'm the principal at Lick', 'my kids go to Everett'): what
    'our school', 'my school' and 'we' mean in later messages."""
    """What the last tool calls asked for, checked against the solved schedule in the report."""
    """The schools the last request named: 'them' in the next message, or the school of a bare time that
    answers a proposal ('No, 8:40 please.')."""


def interpret(text: str, session: ScheduleSession, memory: Memory | None = None) -> Plan:
    """Map one stakeholder message to tool calls (ending with call_solver) or a single reply. A number that
    cannot be read exactly ('1e308', 23 digits) is answered with a refusal; the open question stays open."""
    memory = memory if memory is not None else Memory()
    contested, memory.contested = memory.contested, frozenset()
    memory.follow_start, memory.start_asked = memory.start_asked, False
    plan = _interpret_turn(text, session, memory, contested)
    memory.asked = "?" in plan.reply
    return plan


def _interpret_turn(text: str, session: ScheduleSession, memory: Memory, contested: frozenset[str]) -> Plan:
    """`interpret` for one message; `contested`: the schools whose 'should the new request replace the earlier
    one?' the last reply asked, so a new request for them answers that question."""
    offer, memory.offer = memory.offer, []
    suggested, memory.suggested = memory.suggested, []
    menu, memory.menu = memory.menu, 0
    reasked, memory.reasked = memory.reasked, False
    memory.wording = {}
    text, cut = clean(text)
    text = lang.settled_times(lang.respelt_directions(text), session.district)  # 'go earliar'; '7:50? no, 8:40'
    if (unreadable := unreadable_number(text)) is not None:  # refused before any reader sees it
        memory.offer, memory.menu = offer, menu
        return Plan(reply=f"{unreadable.message} I haven't changed anything.")
    if cut:
        memory.say = [f"(Your message was long; I read its first {MAX_CHARS:,} characters.)"]
    low = _answer_choice(text.lower().strip(), session, memory)
    if low == text.lower().strip() and (unknown := lang.unknown_schools(text, session.district)):
        memory.pending = (low, [(name.lower(), close) for name, close in unknown if close])
        memory.request = next((t for t in reversed(lang.split_clauses(low)) if has_request(t)), memory.request)
        return Plan(reply=_unknown_reply(unknown))  # its request is what 'and Everett, same time' repeats
    plan = _menu_answer(low, session, memory) if menu else None
    plan = plan or _closes_on_suggestion(low, session, suggested) or _courtesy(low, offer, memory, reasked)
    plan = plan or _interpret(low, session, offer, memory, contested)
    if plan.reply == _clarify():
        memory.menu = menu + 1
        plan.reply = _clarify(menu + 1)
    if plan.choices:
        memory.pending = (plan.held or low, plan.choices)
    if plan.ask:
        held = [c for c in plan.calls if c[0] != "call_solver"]
        memory.offer = _with_solver(held + plan.offer) if plan.offer else []
        memory.suggested = plan.suggested if plan.offer else []
        note = " I haven't changed anything yet." if held and not plan.offer else ""
        return Plan(reply=" ".join(dict.fromkeys(plan.ask)) + note)
    if plan.reply:
        memory.offer = plan.offer
        return Plan(reply=plan.reply)
    calls = _with_solver(plan.calls)
    if calls:
        memory.say = plan.say
        return Plan(calls, say=plan.say)
    if plan.calls:
        plan.say.append("The model already has that, so the schedule stays as it is.")
    if not plan.say:
        memory.menu = menu + 1
    return Plan(reply=" ".join(plan.say) or _clarify(menu + 1))


_CONSENT = frozenset(["ok", "okay", "alright", "sure", "fine", "works", "work", "good", "great", "perfect", "done",
                      "ideal", "yes", "right"])  # fmt: skip
"""Words that agree to what was asked ('perfect, thanks', 'that works'); thanks and exclamations alone ('Thanks!',
'Wonderful.', 'lovely') are courtesies, no yes to the agent's question."""


_EXPLICIT_YES = frozenset(["yes", "yeah", "yep", "yup", "sure", "ahead", "do", "ok", "okay", "alright", "fine", "right"])
"""Words that answer the agent's question itself ('yes please', 'go ahead', 'OK'), not just approve."""
_CLOSING_APPROVAL = frozenset(["good", "great", "perfect", "works", "work", "ideal", "excellent"])
"""Words that approve how things stand ('Good, thanks', 'perfect', 'that works'); thanks alone is a courtesy
(`_courtesy`: the question is put once more)."""


def _closes_on_suggestion(low: str, session: ScheduleSession, suggested: list[Call]) -> Plan | None:
    """A closing approval ('Good, thanks', 'perfect', 'that works') to a question offering the agent's own
    suggestion (the standard start nearest a time that is none) is no yes to it: the current proposal stays and
    the negotiation ends; an explicit yes ('yes please', 'do that') still applies it. None otherwise."""
    words = parse(low).words()
    if not suggested or not _accepts(low) or _EXPLICIT_YES.intersection(words):
        return None
    if not _CLOSING_APPROVAL.intersection(words):
        return None
    offered = " and ".join(f"{a['school']} at {a['time']}" for _, a in suggested)
    return Plan(reply=f"All right, I haven't put {offered}; the schedule stays as it is. " + _closing(session))


def _courtesy(low: str, offer: list[Call], memory: Memory, reasked: bool) -> Plan | None:
    """A reply of only thanks or exclamations to the agent's yes/no question is no consent: the question is put once
    more, briefly, with the offer held; a further courtesy leaves the schedule as it stands and says so (a later
    'yes' still applies the offer)."""
    if not offer or not _accepts(low) or _CONSENT.intersection(_reply_words(low)):
        return None
    changes = " and ".join(
        f"{a['school']} {'at' if a.get('type', 'fix') == 'fix' else 'not at'} {a['time']}"
        for name, a in offer
        if name == "fix_start_time"
    ) or "that change"
    memory.reasked = True
    if reasked:
        return Plan(
            reply=f"I'll leave the schedule as it is for now: {changes} is not applied. Say 'yes' whenever you want it.",
            offer=offer,
        )
    return Plan(reply=f"Just to be sure before I change anything: should I go ahead with {changes}? (yes / no)", offer=offer)


def _unknown_reply(unknown: list[tuple[str, tuple[str, ...]]]) -> str:
    """'"Roosevelt High" is not a school in this district; the closest names are ... Which one did you mean?'"""
    parts = []
    for name, close in unknown:
        names = ", ".join(close[:-1]) + f" or {close[-1]}" if len(close) > 1 else "".join(close)
        closest = (
            f"; the closest name{'s' if len(close) > 1 else ''} in the district {'are' if len(close) > 1 else 'is'} "
            f"{names}"
            if close
            else ""
        )
        parts.append(f'"{name}" is not a school in this district{closest}.')
    return " ".join(parts) + " Which school did you mean? Nothing is changed yet."


def _menu_answer(low: str, session: ScheduleSession, memory: Memory) -> Plan | None:
    """A reply to the (a)/(b)/(c) menu in any form ('c', 'b please', 'the second one'): (a) asks which school,
    (b) and (c) lower the load or the change by a visible step."""
    if len(low.split()) > _SHORT_REPLY:
        return None
    picked = choose(low, _MENU)
    if picked is None:
        return None
    if picked == 0:
        return Plan(
            reply="Which school, and earlier or later? For example 'move Everett MS earlier' or 'Lick at 9:30'."
        )
    plan = Plan()
    _nudge(LOAD if picked == 1 else DEVIATION, session, plan, memory)
    return plan


def _nudge(objective: str, session: ScheduleSession, plan: Plan, memory: Memory) -> None:
    """A vague request to lower one objective: a visible step that grows when the request is repeated."""
    if any(n == "add_objective_upper_bound" and a["objective"] == objective for n, a in plan.calls):
        return
    attempt, current = session.infeasible, session.current
    now = (
        None if current is None else (current.result.load if objective == LOAD else current.result.deviation)
    )
    if now is not None and now <= memory.floors.get(objective, -1.0) + 1e-9:
        plan.say.append(
            f"{'The peak' if objective == LOAD else 'The average change'} is already as low as this district "
            "allows with the current requirements, so here are schedules that trade it against the other goal."
        )
        plan.calls.append(("show_alternatives", {"count": 3}))
        return
    if (
        attempt is not None
        and current is not None
        and now is not None
        and attempt.state.bound(objective) is not None
    ):
        memory.nudges = {}
        relaxations = attempt.report.relaxations if attempt.report is not None else ()
        reached = [r.load if objective == LOAD else r.deviation for r in relaxations]
        floor = min([now, *reached])
        memory.floors[objective] = floor
        if floor < now - 1e-9:  # a way out the agent offered goes lower than the current proposal: say which
            number = reached.index(floor) + 1
            plan.say.append(
                f"The lowest of the ways out I offered is option {number} ({relaxations[number - 1].description}): "
                f"{_amount(objective, floor)}, against {_amount(objective, now)} in proposal {current.number}; none of "
                f"the options I can offer goes lower. Say 'option {number}' to take it."
            )
            return
        session.dismiss_infeasible()
        plan.say.append(
            f"The last attempt showed that {_amount(objective, now)} is as low as this district allows with the "
            "current requirements, so asking again would not help. Say 'show me some options' to compare the "
            "trade-offs, or relax another requirement."
        )
        return
    memory.nudges = {objective: memory.nudges.get(objective, 0) + 1}
    model.bound(objective, "", session, plan, nudge=memory.nudges[objective])


def _amount(objective: str, value: float) -> str:
    """'a peak of 1,987 students' / 'an average change of 16.5 minutes'."""
    if objective == LOAD:
        return f"a peak of {round(value * 100):,} students"
    return f"an average change of {value:.1f} minutes"


def _act(text: str) -> str | None:
    """The learned intent of a message or clause when it is sure enough to act on: its probability, or with the
    runner-up about the same objective (`_OBJECTIVE_ACTS`) theirs together, reaches `_INTENT_CONFIDENCE`."""
    guess = lang.intent(text)
    (first, p), *rest = guess.ranking
    if p >= _INTENT_CONFIDENCE:
        return first
    if rest and any({first, rest[0][0]} == pair for pair in _OBJECTIVE_ACTS):
        return first if p + rest[0][1] >= _INTENT_CONFIDENCE else None
    return None


def _by_intent(low: str, session: ScheduleSession, memory: Memory) -> Plan:
    """A message no rule read, acted on by its learned intent; an unclear one gets the menu."""
    name = _act(low)
    if name is None:
        return Plan()
    if name in ("reduce_load", "reduce_deviation"):
        plan = Plan()
        _nudge(LOAD if name == "reduce_load" else DEVIATION, session, plan, memory)
        return plan
    if name == "show_options":
        session.dismiss_infeasible()
        return Plan([("show_alternatives", {"count": 3})])
    if name == "undo":
        return model.undo(session)
    if name == "loosen":
        return model.loosen(session, low)
    if name in _PRIORITIES and not _asks_about(low):
        plan = Plan()
        model.priority(*_PRIORITIES[name], session, plan)
        return plan
    if name == "adopt_option":
        return _adopt(low, session)
    if name == "unsure":  # doubt without a direction: the menu of concrete choices
        return Plan()
    if name == "satisfied":
        return Plan(reply=_closing(session))
    if name in ("recommend", "compare"):
        return Plan(reply=_about_alternatives(low, session, name))
    if name in ("define_term", "ask_status"):
        return Plan(reply=_answer(low, session, define=name == "define_term"))
    if name == "move_school":
        return _which_school(low, session)
    if name == "greeting":
        return Plan(
            reply="Hello! Tell me what you would like to change: a school's start, fewer buses, or less change for families."
        )
    return Plan()


_START_TIME = lang.WordCue(exact=frozenset(["school"]), phrases=(("start", "time"), ("start", "times")))


def _unnamed_move(low: str, session: ScheduleSession, memory: Memory) -> bool:
    """A request to move 'the start time' that names no school, group or district-wide scope, with no school
    known from before ('Can you move the start time a bit later?'): the school is asked, never an objective
    changed because a reason mentions a bus."""
    words = parse(low).words()
    return (
        ("start", "time") in zip(words, words[1:], strict=False)
        and bool(_direction(low))
        and not lang.mentioned_schools(low, session.district)
        and not lang.group_schools(low, session.district)
        and not lang.whole_district(low)
        and not memory.schools
        and not memory.home
    )


def _held_for_school(low: str, session: ScheduleSession) -> Plan:
    """`_which_school`, holding only the clause that asks ('can you move the start time a bit later?'), so the
    reason beside it ('my daughter's bus ...') is not read again once the school is named."""
    asked = _which_school(low, session)
    asked.held = next((t for t in lang.split_clauses(low) if has_request(t) and _direction(t)), "")
    return asked


def _which_school(low: str, session: ScheduleSession) -> Plan:
    """A move naming no school ('Can school start later?'): with a direction or a time and the word 'school', the
    request is held and the answer's school completes it ('Sorry, I meant Cobb'); else the agent asks for both."""
    words = parse(low).words()
    if _START_TIME.found(words) and (_direction(low) or lang.clock_times(low, bare=True)):
        plan = Plan(reply="Which school do you mean? Say its name (for example 'Lick') and I'll apply the request. "
                    "Nothing is changed yet.")
        word = "school" if "school" in words else next(  # replaced by the school the answer names
            (p for p in ("our start time", "my start time", "their start time", "the start time") if p in low), "start time"
        )  # 'Can you make our start time later?'
        plan.choices.append((word, tuple(session.district.names)))
        return plan
    return Plan(reply="Which school should move, and earlier or later? For example 'move Everett MS earlier'.")


def _about_alternatives(low: str, session: ScheduleSession, kind: str) -> str:
    """Answers about the shown options: which one balances both goals, or how two of them differ."""
    shown = session.alternatives
    if not shown:
        return (
            "I haven't shown options yet. Say 'show me some options' and I'll list three schedules with their "
            "peak load and average change, so we can compare them."
        )

    def line(i: int) -> str:
        p = shown[i]
        return (
            f"option {i + 1}: peak {round(p.load * 100):,} students, average change {p.deviation:.1f} minutes"
        )

    if kind == "compare":
        words = parse(low).words()
        letters = [ord(w) - ord("a") for w in words if w in ("a", "b", "c", "d", "e")]
        numbers = [int(w) - 1 for w in words if w in ("1", "2", "3", "4", "5")]
        picked = [i for i in (letters or numbers) if 0 <= i < len(shown)][:2] or [0, 1][: len(shown)]
        parts = [line(i) for i in picked]
        if len(picked) == 2:
            a, b = (shown[i] for i in picked)
            fewer = picked[0] if a.load < b.load else picked[1]
            calmer = picked[0] if a.deviation < b.deviation else picked[1]
            return (
                f"{parts[0].capitalize()}; {parts[1]}. Option {fewer + 1} starts fewer students at once (fewer "
                f"buses); option {calmer + 1} changes start times less. Say 'option N' to adopt one."
            )
        return parts[0].capitalize() + "."
    lo_load = min(p.load for p in shown)
    lo_dev = min(p.deviation for p in shown)
    score = [(p.load / lo_load - 1) + (p.deviation / lo_dev - 1 if lo_dev else p.deviation) for p in shown]
    best = score.index(min(score))
    return (
        f"If both goals matter about equally, I'd take {line(best)}: it gives up the least on either goal "
        "compared with the best value among the options. If buses cost you most, take the option with the "
        "lowest peak; if families come first, the one with the smallest change. Say 'option N' to adopt one."
    )


def _contradiction(low: str, plan: Plan, session: ScheduleSession) -> str | None:
    """Two requests in one message that cannot both hold: the same school moved both ways, or schools put at
    one start time with more students than a peak limit in the same message allows."""
    claims = []
    for clause in lang.split_clauses(low):
        schools = [s for _, s in lang.mentioned_schools(clause, session.district)]
        words = parse(clause).words()
        direction = "earlier" if EARLIER_CUE.found(words) else "later" if LATER_CUE.found(words) else None
        if direction and not lang.clock_times(clause, bare=True):
            claims += [Claim(s, "direction", direction, clause) for s in schools]
    clash = contradictions(claims)
    if clash:
        first, second = clash[0]
        return (
            f"You asked to move {first.subject} both {first.value} ('{first.words}') and {second.value} "
            f"('{second.words}'). Which one should it be? Nothing is changed yet."
        )
    fixed = {(a["school"], a["time"]) for n, a in plan.calls if n == "fix_start_time" and a["type"] == "fix"}
    banned = [
        (a["school"], a["time"]) for n, a in plan.calls if n == "fix_start_time" and a["type"] == "forbid"
    ]
    both = [pair for pair in banned if pair in fixed]
    if both:
        school, time = both[0]
        others = len({s for s, _ in both}) - 1
        extra = f" (and {others} more schools)" if others else ""
        return (
            f"Your message asks for {school}{extra} at {time} and also rules {time} out. Which part should I "
            "follow? Nothing is changed yet."
        )
    bound = next(
        (a["value"] for n, a in plan.calls if n == "add_objective_upper_bound" and a["objective"] == LOAD),
        None,
    )
    if bound is None:
        return None
    at: dict[str, int] = {}
    enrollment = {s.name: s.enrollment for s in session.district.schools}
    for name, args in plan.calls:
        if name == "fix_start_time" and args["type"] == "fix":
            at[args["time"]] = at.get(args["time"], 0) + enrollment.get(args["school"], 0)
    crowded = [(t, n) for t, n in at.items() if n / 100 > bound]
    if crowded:
        time, students = crowded[0]
        return (
            f"Those two requests contradict each other: with those schools at {time}, {students:,} students start "
            f"at once, above the limit of {round(bound * 100):,}. Which should I keep: the start times, or the "
            "limit? Nothing is changed yet."
        )
    return None


def _answer_choice(low: str, session: ScheduleSession, memory: Memory) -> str:
    """The held-back request with each ambiguous word replaced by the school the answer names
    ("Jefferson ES", "the second one"); the answer itself when it names none of the candidates."""
    pending, memory.pending = memory.pending, None
    if pending is None or has_request(low) or _asks_only(low, session) or _accepts_with_remark(low):
        return low  # 'Okay, understood. The Transition change is all I need. We'll take it.': no answer, a yes
    text, choices = pending
    named = {school for _, school in lang.mentioned_schools(low, session.district)} or set(
        school_names(low, session)  # a misspelt answer ('she's at Everet Middle')
    )
    if (lang.load_cue(low) or lang.change_cue(low)) and not named & {c for _, cs in choices for c in cs}:
        return low  # a goal of its own ('fewer buses'), unless it names a school asked about ('both my kids go there')
    resolved = text
    for word, candidates in choices:
        picked = [c for c in candidates if c in named]
        number = choose(low, [str(i + 1) for i in range(len(candidates))]) if len(choices) == 1 else None
        if len(picked) != 1 and number is not None:
            picked = [candidates[number]]
        if len(picked) == 1:
            resolved = _replace_word(resolved, word, picked[0].lower())
    return low if resolved == text else resolved


def _asks_only(low: str, session: ScheduleSession) -> bool:
    """Every clause that names a school is a question ('Oh ok. What time does Balboa start right now then?'):
    the user asks about that school, which answers no 'which school did you mean?'."""
    named = [c for c in parse(low).clauses if lang.mentioned_schools(c.text, session.district)]
    return bool(named) and all(c.question for c in named)


def _replace_word(text: str, word: str, new: str) -> str:
    """The text with every whole occurrence of `word` (no letter a-z right before or after it) replaced."""
    out, start = [], 0
    found = text.find(word)
    while found >= 0 and word:
        end = found + len(word)
        if not ("a" <= text[found - 1 : found] <= "z" or "a" <= text[end : end + 1] <= "z"):
            out += [text[start:found], new]
            start = end
        found = text.find(word, found + 1 if start <= found else end)
    return "".join(out) + text[start:]


def _with_solver(calls: list[Call]) -> list[Call]:
    unique = {repr(c): c for c in calls if c[0] != "call_solver"}
    edits = list(unique.values())
    if edits and all(name == "show_alternatives" for name, _ in edits):
        return edits
    return [*edits, model.SOLVE] if edits else []


def _interpret(
    low: str, session: ScheduleSession, offer: list[Call], memory: Memory, contested: frozenset[str] = frozenset()
) -> Plan:
    if not low:
        return Plan(reply=_clarify())
    answer = _short_answer(low)
    if (answer is Polarity.YES or _accepts(low)) and offer:
        return Plan(offer)
    if (_accepts(low) or _accepts(_without_for_school(low, session))) and session.infeasible is None:
        return Plan(reply=_closing(session))  # 'yes, go with that for Lawton'
    if offer and contested and (ruled := _rule_wins(low, session, offer)):
        return ruled  # 'the 8:30 rule wins, drop the Everett thing': the new rule replaces the school's request
    if (dropped := _withdrawal(low, session, offer, memory)) is not None:
        return dropped
    if "?" not in low and session.infeasible is None and not offer and _accepts_with_remark(low) and _remark_asks_nothing(
        low, session
    ):
        return Plan(reply=_closing(session))  # 'Good, that saves us the 7:50 run.': a remark, no request
    if answer is Polarity.YES and session.infeasible is not None:
        return model.choose_relaxation(session, 1)
    if answer is Polarity.NO and (offer or session.infeasible is not None):
        session.dismiss_infeasible()
        return Plan(reply="All right, I'll leave the schedule as it is. What would you like instead?")
    if offer and contested and (picked := _contest_answer(low, session, offer)) is not None:
        return picked  # 'no, keep the rule'; 'ignore that, later is right'
    guess = lang.intent(low)
    act = guess.intent if guess.confidence >= _COMMAND_CONFIDENCE else None
    if act == "start_over" and not _names_schools(low, session):
        session.dismiss_infeasible()
        calls = session.calls_to_reach(ModelState())
        return (
            Plan(calls)
            if calls
            else Plan(reply="There is nothing to reset: the model is already the base model.")
        )
    if act == "undo":
        return model.undo(session)
    if act == "adopt_option":
        return _adopt(low, session)
    if act == "show_options" and not lang.mentioned_schools(low, session.district):
        session.dismiss_infeasible()  # "option 2" now means a shown alternative, not a way out
        return Plan([("show_alternatives", {"count": _option_count(low)})])
    if act == "loosen" and not _moves_schools(low, session):
        return model.loosen(session, low)
    if reply := (
        _status_answer(low, session)
        or _start_answer(low, session, memory)
        or _options_answer(low, session)
        or _school_question(low, session)
    ):
        memory.schools = _asked_schools(low, session) or memory.schools  # 'When does Cobb start?' 'Put it at 9:30.'
        return Plan(reply=reply)
    plain = lang.without_described_times(low, session.district)
    if plain != low and has_request(plain):  # 'starts at 9:30, could it be earlier?': 9:30 is no request
        low = plain
    tied = lang.without_tied_times(low, session.district)
    if tied != low and has_request(tied):  # 'buses that get in at 9:15. Could Access start at 9:30?'
        low = tied
    if _unnamed_move(low, session, memory):  # 'Can you move the start time a bit later? My daughter's bus ...'
        return _held_for_school(low, session)
    plan = Plan()
    swapped = swap(low, session, plan) or same_time(low, session, plan)
    if plan.ask:
        memory.schools = [school for _, school in lang.mentioned_schools(low, session.district)]
    if not swapped:
        _read_clauses(low, session, plan, memory)
    skip_refused(plan, session)  # 'Lawton earlier. Not 8:40 though.': 7:50
    if clash := _contradiction(low, plan, session):
        return Plan(reply=clash)
    _hold_at_end(plan)
    check_school_calls(plan, session)
    restated = bool(offer) and all(call in offer for call in plan.calls if call[0] == "fix_start_time")
    if not plan.ask and not swapped and session.infeasible is None and not restated:
        _against_earlier(low, plan, session, memory, contested)  # a request restated after 'should it replace?' answers it
    fixes = [a for n, a in plan.calls if n == "fix_start_time" and (n, a) not in plan.timeless]
    memory.stated |= {(a["school"], a["time"], a["type"]) for a in fixes}
    if not plan.ask:
        _remember_relative(plan, memory)
        memory.wording = {
            (a["school"], a["time"], a["type"]): word for (_, a), word in [*plan.wording, *plan.relative]
        }
    if plan.calls and session.infeasible is not None:
        model.match_relaxation(plan, session)
    if not plan.calls and _accepts_with_remark(low) and all(a.startswith(WHAT_FOR) for a in plan.ask):
        plan.ask = []  # "Okay, understood. The Transition change is all I need. We'll take it.": a yes, no request
    if plan.calls or plan.ask:
        return plan
    if act == "satisfied" or (session.infeasible is None and not offer and _accepts_with_remark(low)):
        return Plan(reply=_closing(session))  # an approval leading a remark that asks nothing accepts
    if is_question(low) and (
        lang.load_cue(low) or lang.change_cue(low) or district_wish(low) == "near"
    ):
        if not _asks_about(low) and not lang.reduce_cue(low) and guess.intent != "define_term":
            return Plan(reply=_clarify())  # 'Can you make things better for the kids?': vague, ask what they mean
        return Plan(reply=_answer(low, session, define=guess.intent == "define_term"))
    if plan.say:
        return plan
    return _by_intent(low, session, memory)


def _read_clauses(low: str, session: ScheduleSession, plan: Plan, memory: Memory) -> None:
    """The calls of every clause of a message, each read for the schools it names (or carries over)."""
    parts = targets(lang.split_clauses(low), session, plan, memory.schools, memory.home)
    parts = _carried(parts, low, memory, session.district.start_times)
    memory.schools = list(dict.fromkeys(s for _, named in parts for s in named)) or memory.schools
    note_directions(parts, plan)  # 'Lawton earlier. 9:30 runs late': the time is read against the direction
    lang.prime_intents([clause for clause, schools in parts if not schools])
    asked = _asks_about(low)
    plan.undecided = lang.undecided(low)
    previous = None
    for clause, schools in parts:
        if not schools:
            clause = previous = lang.carry_limit(previous, clause)
        _read_clause(clause, schools, session, plan, memory, asked=asked)


_KEEP_THERE = "Should I keep it there, or try something else?"


def _hold_at_end(plan: Plan) -> None:
    """A school asked to move the way it cannot (it already has the earliest or latest start) is held there when
    the same message changes something else ('Galileo and Balboa a bit earlier' with Galileo at the earliest): the
    solver must not move it the other way to make room. Alone it asks whether to keep it there."""
    if not plan.calls:
        return
    asked = {a["school"] for n, a in plan.calls if n == "fix_start_time"}
    held = [call for call, _ in plan.relative if call not in plan.calls and call[1]["school"] not in asked]
    plan.calls.extend(held)
    plan.timeless.extend(held)
    if held:
        plan.say = [line.replace(_KEEP_THERE, "I've kept it there.") for line in plan.say]


_AGAIN = lang.WordCue(
    exact=frozenset(["too", "also", "likewise", "same", "ditto", "join", "joins"]),
    runs=(("as", "well"), ("along", "with"), ("follow", "suit"), ("in", "with", "them"), ("with", "them", "too")),
)
"""Words that carry the previous message's request to the schools a message names ('And Muir too, same thing.',
'Same rule for Lawton.', 'Everett can join them', 'Access can go along with them', 'Lick should follow suit')."""


_SPEAKER = frozenset(["i", "i'm", "my", "our", "we're", "we"])


def _carried(
    parts: list[tuple[str, list[str]]], low: str, memory: Memory, options: tuple[int, ...]
) -> list[tuple[str, list[str]]]:
    """The previous message's request for the schools a message names when it asks nothing itself but says to
    repeat it ('And Muir too, same thing.'); remembers the last request of this message for the next one: the last
    clause that moves a school (a direction, or a time near the start `options`), else the last that asks."""
    words = parse(low).words()
    again = "same" in words or (_AGAIN.found(words) and not set(words) & _SPEAKER)  # not 'I'm also at Cobb'
    if memory.request and again and not any(has_request(t.replace("same", " ")) for t, _ in parts):
        parts = [(memory.request if schools else text, schools) for text, schools in parts]
    asked = [t for t, schools in parts if schools and has_request(t)]
    moves = [  # not "doesn't get home till 8pm"
        t for t in asked if _direction(t) is not None or any(not _outside_window(m, options) for *_, m in lang.clock_times(t))
    ]
    memory.request = (moves or asked or [memory.request])[-1]
    return parts


_REVISION_WORDS = frozenset(
    ["instead", "actually", "rather", "change", "switch", "now", "reconsidered", "ignore", "forget", "disregard"]
)
_REVISION_PHRASES = ("after all", "second thought", "changed my mind", "make it", "make that", "scratch that")


def _revises(low: str) -> bool:
    """Whether a message says it replaces an earlier wish ('actually, Everett at 7:50', 'make it 9:30 instead',
    'No, 9:30 please.')."""
    words = parse(low).words()
    if "now" in words and words[words.index("now") - 1 : words.index("now")] in (("does",), ("is",), ("are",), ("do",)):
        words = tuple(w for w in words if w != "now")  # 'than it does now' is today's start, no revision
    rejects = low.lstrip().startswith(("no,", "no.", "no!", "no -", "nope", "nah"))  # 'No, 9:30 please.'
    revision = bool(set(words) & _REVISION_WORDS) or any(phrase in low for phrase in _REVISION_PHRASES)
    return rejects or revision or _goes_back(parse(low).words())


def _remember_relative(plan: Plan, memory: Memory) -> None:
    """Keep the starts this turn chose for a direction or a 'keep' (`Plan.relative`); a school's older ones go when
    this turn asks something else of it."""
    touched = {a["school"] for n, a in plan.calls if n == "fix_start_time"}
    removed = " ".join(a["name"] for n, a in plan.calls if n == "remove_constraint")
    memory.relative = {
        (school, time): word
        for (school, time), word in memory.relative.items()
        if school not in touched and f"[{school}=" not in removed
    }
    memory.relative.update({(a["school"], a["time"]): word for (_, a), word in plan.relative})


def _against_earlier(
    low: str, plan: Plan, session: ScheduleSession, memory: Memory, contested: frozenset[str] = frozenset()
) -> None:
    """A stated time that contradicts an earlier request for the same school (a fix at another time, a forbid of
    this time, or a fix at a time this message rules out) is asked about, not replaced silently by 'last wins':
    the contradicting calls become the offer a 'yes' applies. Only requests the user stated (`stated`) count. A message that says it revises ('instead',
    'actually', 'make it ...') and a move relative to where the school is ('later') replace the earlier one, and
    the reply says so."""
    earlier = {
        (c.school, c.minutes, c.kind)
        for c in session.state.constraints
        if c.kind in ("fix", "forbid") and (c.school, format_time(c.minutes or 0), c.kind) in memory.stated
    }
    minutes_of = dict(zip(session.district.time_labels, session.district.start_times, strict=True))
    chosen = {(school, minutes_of[time]): word for (school, time), word in memory.relative.items()}
    """Starts the agent chose for a direction or a 'keep' (or a direction at its end already): ruling one out
    contradicts that request."""
    if not (earlier or chosen):
        return
    clashes: list[tuple[Call, str]] = []
    for call in plan.calls:
        name, args = call
        if name != "fix_start_time":
            continue
        school, kind, minutes = args["school"], args["type"], minutes_of.get(args["time"])
        against = _contradicted(school, kind, minutes, earlier, chosen)
        if against:
            clashes.append((call, against[0]))
    if not clashes:
        return
    answered = all(call[1]["school"] in contested for call, _ in clashes)  # restated after 'should it replace?'
    calls = [call for call, _ in clashes]
    answers_no = low.lstrip().startswith(("no,", "no ", "nope", "nah"))  # 'No, leave it at 8:40' answers us
    opposes = (_opposes(calls, chosen, minutes_of) or _breaks_rule(calls, plan, earlier, minutes_of)) and not answers_no
    reversed_ = (_reverses(plan, memory, calls) or opposes) and not _says_changed_mind(low)
    refines = _refines(low, session, memory, calls) and not _reverses(plan, memory, calls)
    if answered or refines or (not reversed_ and (_revises(low) or all(call in plan.timeless for call, _ in clashes))):
        for before in dict.fromkeys(before for _, before in clashes):
            plan.say.append(f"This replaces your earlier request ({before}).")
        return
    asked = [call for i, (call, _) in enumerate(clashes) if call not in [c for c, _ in clashes[:i]]]
    befores = "; ".join(dict.fromkeys(before for _, before in clashes))
    nows = "; ".join(
        f"{a['school']} {'at' if a['type'] == 'fix' else 'not at'} {a['time']}" for _, a in asked
    )
    plan.ask.append(
        f"Earlier you asked: {befores}. Now: {nows}. Should the new request replace the earlier one? "
        "Nothing is changed yet."
    )
    plan.offer.extend(plan.calls)
    plan.calls = []
    memory.contested = frozenset(a["school"] for _, a in asked)


_CHANGED_MIND = ("changed my mind", "change of plan", "second thought", "scratch that", "instead", "ignore",
                 "disregard", "forget what i", "after all", "reconsidered", "forget the rule", "forget that rule",
                 "forget about the rule", "drop the rule", "drop that rule")  # fmt: skip
"""Words that say outright that the earlier wish is dropped; 'actually' alone does not."""


def _says_changed_mind(low: str) -> bool:
    """Whether the message says the speaker changed their mind ('on second thought, later', 'Muir can go back to
    9:30'); a clause that reports what others want ('the teachers told me they want Everett later instead') says
    nothing of the speaker's."""
    own = [clause for clause in lang.split_clauses(low) if not _reports_others(parse(clause).words())]
    return any(phrase in clause for clause in own for phrase in _CHANGED_MIND) or any(
        _goes_back(parse(clause).words()) for clause in own
    )


_BACK_VERBS = frozenset(["go", "goes", "going", "put", "move", "moved", "set", "switch", "bring", "change", "turn"])
_UNDO_WORDS = frozenset(["undo", "revert", "reverse"])


def _goes_back(words: tuple[str, ...]) -> bool:
    """Whether a clause takes back an earlier change ('Muir can go back to 9:30', 'put Lick back at 8:40', "let's
    undo that"); 'back' with no moving verb before it ('my back hurts', 'back to school night') is none."""
    if _UNDO_WORDS.intersection(words):
        return True
    return any(w == "back" and _BACK_VERBS.intersection(words[max(0, i - 4) : i]) for i, w in enumerate(words))


_SAYING = frozenset(["told", "tell", "tells", "say", "says", "said", "want", "wants", "wanted", "prefer", "prefers"])
_SPEAKER_SUBJECTS = frozenset(["i", "we", "you", "i'd", "we'd", "i'm", "we're"])
_ADVERBS = frozenset(["really", "just", "also", "still", "all", "only", "do", "does", "now", "both", "too"])


def _reports_others(words: tuple[str, ...]) -> bool:
    """Whether a clause reports someone else's words or wish ('the coaches told me ...', 'our nurses still want
    ...', "they'd rather ...", 'according to the principal'), not the speaker's ('I really want ...', 'forget
    what I said')."""
    if {"according", "they'd", "he'd", "she'd"}.intersection(words):
        return True
    for i, word in enumerate(words):
        if word in _SAYING or word == "would":
            subject = next((w for w in reversed(words[:i]) if w not in _ADVERBS), "")
            others = subject in ("they", "he", "she") if word == "would" else subject not in _SPEAKER_SUBJECTS
            if subject and others:  # 'it would be better instead' is the speaker's
                return True
    return False


def _refines(low: str, session: ScheduleSession, memory: Memory, calls: list[Call]) -> bool:
    """Whether a message gives the time for the direction the previous one asked, by pronoun ('both middle schools
    should start later', then 'Put them at 8:40 if you can.'): it names no school of its own, and every school
    whose earlier start it contradicts is one 'them' stands for and was moved for a direction ('later'), not
    for a time the user stated. It replaces the direction, and the reply says so."""
    words = set(parse(low).words())
    return (
        bool(words & {"them", "it", "they", "both"})
        and not lang.mentioned_schools(low, session.district)
        and all(
            a["school"] in memory.schools
            and any(s == a["school"] and w in ("earlier", "later") for (s, _), w in memory.relative.items())
            and not any(t[0] == a["school"] for t in memory.stated)
            for _, a in calls
        )
    )


def _reverses(plan: Plan, memory: Memory, calls: list[Call]) -> bool:
    """Whether a direction of this message is the opposite of the speaker's own earlier direction for the same
    school ('move Everett earlier', then 'Everett should start later than it used to'): asked about, not acted on."""
    opposite = {"earlier": "later", "later": "earlier", "earliest": "later", "latest": "earlier"}
    words = dict((repr(call), word) for call, word in plan.relative)
    for call in calls:
        word = words.get(repr(call))
        school = call[1]["school"]
        if word in opposite and any(
            s == school and opposite[word].startswith(w[:4]) for (s, _), w in memory.relative.items()
        ):
            return True
    return False


def _opposes(calls: list[Call], chosen: dict[tuple[str, int], str], minutes_of: dict[str, int]) -> bool:
    """Whether a stated start goes the other way from the speaker's own earlier direction for the school
    ('Galileo should start later', then 'actually Galileo has to start at 7:50', before the later start) or moves
    a school the speaker asked to keep: asked about like a reversed direction, not replaced because of an
    'actually'."""
    for _, args in calls:
        new = minutes_of.get(args["time"])
        for (school, start), word in chosen.items():
            if school == args["school"] and new is not None and (
                word.startswith("later") and new < start or word.startswith("earl") and new > start
                or word.startswith("kept") and new != start  # 'leave Everett alone', then 'Everett later'
            ):
                return True
    return False


_NO_LEADS = frozenset(["no", "nope", "nah"])


def _keeps_earlier(low: str, session: ScheduleSession) -> bool:
    """Whether a reply to 'should the new request replace the earlier one?' says no and asks nothing new ('no,
    keep the rule', 'no, keep the earlier one'); 'No, 8:40 please' or 'no, Lick later' is a new request."""
    words = parse(low).words()
    return (
        bool(words)
        and words[0] in _NO_LEADS
        and not lang.mentioned_schools(low, session.district)
        and not lang.clock_times(low, bare=True)
        and not (EARLIER_CUE.found(cues := _direction_words(low)) or LATER_CUE.found(cues))
    )


_EARLIER_STANDS = "All right, your earlier request stands; nothing is changed."
_NOT_A_DIRECTION_AFTER = frozenset(["the", "said", "asked", "mentioned", "wrote", "than"])
"""Words after which 'earlier' / 'later' is no direction: 'the earlier one', 'what I said earlier'."""


def _contest_answer(low: str, session: ScheduleSession, offer: list[Call]) -> Plan | None:
    """The answer to 'should the new request replace the earlier one?': a 'no' that asks nothing new keeps the
    earlier request; a direction said alone ('sorry, ignore that, later is right. Thanks.', 'forget what I said,
    earlier') picks the request that goes that way (`_picks_new`); None when the message is something else."""
    if _keeps_earlier(low, session):
        return Plan(reply=_EARLIER_STANDS)
    new = _picks_new(low, session, offer)
    if new is None:
        return None
    return Plan(offer) if new else Plan(reply=_EARLIER_STANDS)


_RULE_NOUNS = frozenset(["rule", "rules", "limit", "limits", "constraint"])
_RULE_WINS = frozenset(["wins", "win", "stands", "prevails", "first", "priority", "applies", "keep", "go"])
_DROP_WORDS = frozenset(["drop", "forget", "scratch", "ignore", "skip", "cancel", "lose"])


def _rule_wins(low: str, session: ScheduleSession, offer: list[Call]) -> Plan | None:
    """The answer to 'should the new request replace the earlier one?' when the new request is a rule (it only
    rules starts out) and the earlier one a school's own start: 'the rule wins', 'go with the rule', or dropping
    that school's request ('drop the Everett thing', 'forget the Everett one') applies the rule; None otherwise."""
    if any(n == "fix_start_time" and a["type"] == "fix" for n, a in offer) or {"not", "no"} & set(parse(low).words()):
        return None  # the new request is a school's own start ('Muir should stay at 9:30'), or a 'no' answers
    words = parse(low).words()
    rule = _RULE_NOUNS.intersection(words) and _RULE_WINS.intersection(words)
    return Plan(offer) if rule or _drops_school(low, session, offer) else None


def _drops_school(low: str, session: ScheduleSession, offer: list[Call]) -> bool:
    """Whether a drop word is followed, within three words, by the name of a school the offer rules out ('drop
    the Everett thing', 'forget the Lick one'); a time asked beside it ('Galileo at 9:30') is a new request."""
    offered, words = {a["school"] for n, a in offer if n == "fix_start_time"}, parse(low).words()
    after = [" ".join(words[i + 1 : i + 4]) for i, w in enumerate(words) if w in _DROP_WORDS]
    named = {school for text in after for _, school in lang.mentioned_schools(text, session.district)}
    return bool(named) and named <= offered and not lang.clock_times(low, bare=True)


def _direction_words(low: str) -> tuple[str, ...]:
    """The message's words without those right after one of `_NOT_A_DIRECTION_AFTER` ('the earlier one', 'what I
    said earlier'; 'forget what I said, later' keeps 'later')."""
    message = parse(low)
    words, spans = message.words(), message.word_spans()
    return tuple(
        w
        for i, w in enumerate(words)
        if not (i and words[i - 1] in _NOT_A_DIRECTION_AFTER and not low[spans[i - 1][1] : spans[i][0]].strip())
    )


def _picks_new(low: str, session: ScheduleSession, offer: list[Call]) -> bool | None:
    """Whether a message that says one direction and names no school or time picks the offered (new) request: its
    fixes move their schools that way from where they are now; False when they move the other way (the earlier
    request is meant); None otherwise."""
    words = _direction_words(low)
    earlier, later = EARLIER_CUE.found(words), LATER_CUE.found(words)
    district, current = session.district, session.current
    if earlier == later or current is None or lang.mentioned_schools(low, district) or lang.clock_times(low, bare=True):
        return None
    minutes_of = dict(zip(district.time_labels, district.start_times, strict=True))
    now = {s.name: district.start_times[current.result.assignment[i]] for i, s in enumerate(district.schools)}
    ways = {
        (minutes_of[a["time"]] - now[a["school"]]) * (-1 if earlier else 1) > 0
        for n, a in offer
        if n == "fix_start_time" and a["type"] == "fix" and a["time"] in minutes_of
    }
    return ways.pop() if len(ways) == 1 else None


def _breaks_rule(
    calls: list[Call], plan: Plan, earlier: set[tuple[str, int | None, str]], minutes_of: dict[str, int]
) -> bool:
    """Whether a stated start is one the speaker ruled out for the school ('no pre-K school after 8:40', then
    'actually Muir should stay at 9:30'): asked about like a reversed direction, not replaced because of an
    'actually'. A fix replacing a fix ('Everett at 9:30', then 'actually, 7:50') and 'keep Galileo where it was'
    (no time stated: it names the move the rule made) still replace."""
    return any(
        args["type"] == "fix"
        and (name, args) not in plan.timeless
        and (args["school"], minutes_of.get(args["time"]), "forbid") in earlier
        for name, args in calls
    )


def _contradicted(
    school: str,
    kind: str,
    minutes: int | None,
    earlier: set[tuple[str, int | None, str]],
    chosen: dict[tuple[str, int], str],
) -> list[str]:
    """The earlier requests for `school` that a new `kind` ("fix" or "forbid") at `minutes` contradicts, fixes
    first, as the reply names them: a new fix contradicts a fix at another time, a forbid of its time and a
    chosen start it goes against (`_against_direction`); a new forbid, a fix at its time and a start chosen there."""

    def clashes(k: str, m: int | None) -> bool:
        if kind == "fix":
            return m != minutes if k == "fix" else m == minutes
        return k == "fix" and m == minutes

    def undoes(word: str, m: int) -> bool:
        if kind == "fix":
            return minutes is not None and _against_direction(word, m, minutes)
        return m == minutes

    return [
        f"{school} {'at' if k == 'fix' else 'not at'} {format_time(m)}"
        for s, m, k in sorted(earlier, key=lambda request: request[2] != "fix")
        if s == school and clashes(k, m)
    ] + [
        f"{school} {word} (it starts at {format_time(m)} now)"
        for (s, m), word in chosen.items()
        if s == school and undoes(word, m)
    ]


def _against_direction(word: str, chosen: int, minutes: int) -> bool:
    """Whether a new start (`minutes`) undoes an earlier relative request that put the school at `chosen`:
    'earlier' then a later start, 'later' then an earlier one, 'kept where it is' then any other start."""
    if minutes == chosen:
        return False
    if word == "earlier":
        return minutes > chosen
    if word == "later":
        return minutes < chosen
    return True


def _names_schools(low: str, session: ScheduleSession) -> bool:
    """Whether a message asks something of named schools or of every school as a whole (`district_wish`): then
    'start' is a school's start ('above all, every school near its present start'), and the message is no
    'start over' that wipes the model ('reset all schools' still is)."""
    return bool(lang.mentioned_schools(low, session.district) or district_wish(low))


def _moves_schools(low: str, session: ScheduleSession) -> bool:
    """Whether a message asks a time or direction of named schools or a grade group: then a courtesy such as 'if
    it's not too much trouble' is no 'loosen the model' ('both middle schools a little later, if it's no
    bother')."""
    named = lang.mentioned_schools(low, session.district) or lang.group_schools(low, session.district)
    return bool(named) and has_request(low)


def _adopt(low: str, session: ScheduleSession) -> Plan:
    """'go with option 2', 'the second one': a shown alternative, or after an infeasible request one of the
    offered ways out; the number is read by the toolkit's `choose` ('the last one' counts from the end)."""
    attempt = session.infeasible
    offered = len(attempt.report.relaxations) if attempt is not None and attempt.report is not None else 0
    shown = offered if attempt is not None else len(session.alternatives)
    picked = choose(low, [str(i + 1) for i in range(shown)]) if shown else None
    if picked is None:  # a number outside the list, or none shown yet: the model functions say which
        picked = choose(low, [str(i + 1) for i in range(_MAX_OPTIONS)])
    if picked is None:
        count = f" (1-{shown})" if shown else ""
        return Plan(reply=f"Which option would you like{count}? Say for example 'option 2'.")
    if attempt is not None:
        return model.choose_relaxation(session, picked + 1)
    return model.adopt(session, picked + 1)


def _option_count(low: str) -> int:
    """How many alternatives were asked for: 'a couple' 2, 'five options' 5 (at most 5), else 3."""
    message = parse(low)
    if {"couple", "pair"} & set(message.words()):
        return 2
    counts = [int(m.value) for m in message.of(Kind.QUANTITY) if m.value in range(1, 10)]  # type: ignore[operator]
    return min(counts[0], 5) if counts else 3


def _read_clause(
    clause: str,
    schools: list[str],
    session: ScheduleSession,
    plan: Plan,
    memory: Memory,
    *,
    asked: bool = False,
) -> None:
    """The calls for one clause: each named school's request, else a district-wide one (a priority, a limit, a
    vague step). `asked`: the message is a question for information, so 'every school close to today's times?'
    asks about the change rather than making it the priority."""
    if schools:
        parts = [p.strip() for p in lang.comma_parts(clause)]
        district_wide = [p for p in parts if _district_wide(p, session)]
        school_text = ", ".join(p for p in parts if p not in district_wide)
        for school in schools:
            school_request(school_text, school, session, plan)
        for part in district_wide:
            _read_clause(part, [], session, plan, memory, asked=asked)
        return
    if district_wish(clause) == "near" and not _COMPARATIVE & set(parse(clause).words()) and not asked:
        model.priority(False, True, session, plan)  # 'every school close to today's times': change first
        if lang.limit_value(clause) is None:
            return
    act = _act(clause)
    if act in _PRIORITIES and asked:
        return  # 'is the transportation budget published? I heard it's 40 million': a question sets no priority
    if act in _PRIORITIES and lang.limit_value(clause) is None:
        model.priority(*_PRIORITIES[act], session, plan)
        return
    load_cue, dev_cue = lang.objective_cues(clause)
    tighten = act == "tighten"
    if not (lang.reduce_cue(clause) or tighten or lang.limit_value(clause) is not None):
        return
    vague = lang.limit_value(clause) is None and not tighten
    for objective, cue in ((LOAD, load_cue), (DEVIATION, dev_cue)):
        if cue and vague and load_cue != dev_cue:
            _nudge(objective, session, plan, memory)
        elif cue:
            model.bound(objective, clause, session, plan)
    if tighten and not (load_cue or dev_cue):
        latest = next((c for c in reversed(session.state.constraints) if c.kind == "bound"), None)
        if latest is not None:
            model.bound(latest.objective, "", session, plan)  # type: ignore[arg-type]


# fmt: off
_YES_NO_LEADS = frozenset([
    "is", "isn't", "isnt", "are", "aren't", "arent", "does", "doesn't", "doesnt", "do", "don't", "dont", "did",
    "didn't", "didnt", "has", "hasn't", "hasnt", "have", "haven't", "havent", "was", "were",
])
# fmt: on
"""The first word of a yes/no question about how things stand ('is the peak under 2,500?', 'does Lick start at
9:30?')."""


def _status_answer(low: str, session: ScheduleSession) -> str:
    """The current figures for a yes/no question about the schedule as it stands: it asks, so nothing changes
    ('is the peak under 2,500?' sets no bound). Empty when the message is no such question."""
    low = _after_approval(low)  # 'Good, is the peak under 2,500?' asks as 'is the peak under 2,500?' does
    lead = parse(low).words()[:1]
    if not (lead and lead[0] in _YES_NO_LEADS and _asks_about(low)):
        return ""
    _, mark, rest = low.partition("?")
    if mark and has_request(rest):  # 'Does Everett begin at 9:30? Could you move it to 8:40?': the request counts
        return ""
    schools = [name for _, name in lang.mentioned_schools(low, session.district)]
    about = schools or lang.load_cue(low) or lang.change_cue(low)
    current = session.current
    if current is None or not current.result.has_schedule:
        return (
            "There is no solved schedule yet to check that against, so I changed nothing; say it as a request "
            "('keep the peak under 2,500', 'Lick at 9:30') to change it."
            if about
            else ""
        )
    said = [_start_line(name, session) for name in schools if name in current.result.schedule]
    if lang.load_cue(low) or lang.change_cue(low):
        figures = _answer(low, session, define=False).removesuffix(".")
        said.append(figures[0].lower() + figures[1:] if said else figures)
    if not said:
        return ""
    verdict = _under_verdict(low, current.result.load, current.result.deviation) if not schools else ""
    text = "; ".join(said)
    text = f"{verdict}{text[0].lower()}{text[1:]}" if verdict else text
    return f"{text}. (You asked, so I changed nothing; say it as a request to change it.)"


_START_LEADS = frozenset(["when", "what", "what's", "whats", "which"])
_START_WORDS = frozenset(["start", "starts", "starting", "begin", "begins", "beginning", "time", "times", "bell", "bells"])
_FILLERS = frozenset(["and", "so", "ok", "okay", "then", "um", "uh", "sorry", "also", "but", "hi", "hey"])
"""'When does Everett start?', 'what are the high schools' start times now?': a question for start times, led by
a question word (after fillers such as 'and', 'so') and naming a start or a time."""


def _asked_schools(low: str, session: ScheduleSession) -> list[str]:
    """The schools a question names, one by one (a misspelling that fits one school too) or as a grade group ('the
    high schools'), in district order."""
    district = session.district
    named = {name for _, name in lang.mentioned_schools(low, district)}
    named.update(name for _, names in lang.group_schools(low, district) for name in names)
    named.update(found[0] for _, _, found in lang.fuzzy_mentions(low, district) if len(found) == 1)  # 'Everet'
    return [s.name for s in district.schools if s.name in named]


def _start_line(name: str, session: ScheduleSession) -> str:
    """'Everett MS starts at 7:50 AM in proposal 1 (8:00 AM today)': a school's start in the current proposal,
    with today's start when it differs."""
    today = format_time(next(s.current_start for s in session.district.schools if s.name == name))
    current = session.current
    if current is None or not current.result.has_schedule or name not in current.result.schedule:
        return f"{name} starts at {today} today (there is no solved proposal yet)"
    proposed = current.result.schedule[name]
    since = "as it does today" if proposed == today else f"({today} today)"
    return f"{name} starts at {proposed} in proposal {current.number} {since}"


def _start_answer(low: str, session: ScheduleSession, memory: Memory) -> str:
    """The start times a question asks for ('What time does Cobb start now?', 'when do the middle schools
    start?', 'Cobb starts when?', 'Lick is at what time now?', "where's Cobb at?", and after such an answer 'and
    Everett?'): from the current proposal, with today's start when it differs; it asks, so nothing changes. Empty
    when the message is no such question or also carries a request ('Could Cobb start later?', 'Can Everett start
    at 8:40?', 'When does Everett start? Could it be later?', 'Cobb later?')."""
    low = _after_approval(low)
    message = parse(low)
    words = message.words()
    at = next((i for i, w in enumerate(words) if w not in _FILLERS), len(words))
    lead = words[at] if at < len(words) else ""
    low = low[message.word_spans()[at][0] :] if lead else low  # 'And when does Lick start?' asks from 'when'
    if not _asks_start(low, words[at:], lead, session, memory) or has_request(low):
        return ""
    schools = _asked_schools(low, session)
    if not schools:
        return ""
    memory.start_asked = True
    said = "; ".join(_start_line(name, session) for name in schools)
    example = schools[0].split(" (")[0]
    return (
        f"{said}. (You asked, so I changed nothing; say it as a request, for example '{example} later' or "
        f"'{example} at {session.district.time_labels[-1]}', to change it.)"
    )


_NOT_ASKING = _REQUEST_LEADS | _ASKING_VERBS | {"should", "may", "might"}
"""Leads of a request put as a question ('Could Cobb start when Lick does?' asks for a change)."""
_TIME_ASKS = frozenset(["when", "where", "where's", "wheres"])
"""Question words that ask for a school's time wherever they stand ('Cobb starts when?', "where's Cobb at now?")."""


def _asks_start(low: str, words: tuple[str, ...], lead: str, session: ScheduleSession, memory: Memory) -> bool:
    """The message (from its first word after fillers) asks a start time: led by a question word and naming a
    start or a time; or a message ending in '?', led by no request word or asking verb, with no clock time, that has 'when'/'where' anywhere, or 'what'/'which' and a
    start word ('Lick is at what time now?'); or, right after a start-time answer, a question of only fillers
    and school names ('and Everett?')."""
    if lead in _START_LEADS and _START_WORDS.intersection(words):
        return _asks_about(low)
    if not low.rstrip().endswith("?") or lead in _NOT_ASKING or lang.clock_times(low, bare=True):
        return False  # 'Cobb at 9:30, when would Lick be?' is no plain question
    if _TIME_ASKS.intersection(words) or ({"what", "which"} & set(words) and _START_WORDS.intersection(words)):
        return True
    return memory.follow_start and _only_schools(low, session)


_FOLLOW_WORDS = _FILLERS | {"what", "about", "how", "now", "please", "for", "then"}


def _only_schools(low: str, session: ScheduleSession) -> bool:
    """Names schools and says nothing else but fillers ('and Everett?', 'what about Lick?'; not 'and Everett
    too?', which repeats a request)."""
    spans = lang.school_spans(low, session.district)
    rest = low
    for start, end in reversed(spans):
        rest = rest[:start] + " " + rest[end:]
    return bool(spans) and set(parse(rest).words()) <= _FOLLOW_WORDS


def _after_approval(low: str) -> str:
    """The message without an opening approval ('Good, is the peak under 2,500?' -> 'is the peak under 2,500?')."""
    cut = min((i for i in (low.find(p) for p in ",.!;:-") if i > 0), default=-1)
    return low[cut + 1 :].strip() if cut > 0 and _accepts(low[:cut]) and low[cut + 1 :].strip() else low


_WH_LEADS = frozenset(["how", "what", "what's", "whats", "why", "which", "who", "whose", "where"])


def _school_question(low: str, session: ScheduleSession) -> str:
    """What the agent knows of the schools a question for information names ('How many buses does Balboa need?',
    'why is Lick at 8:40?'): their starts and students, and that the rest is outside what it knows; it asks, so
    nothing changes. Empty when the message is no such question or also asks for a change."""
    low = _after_approval(low)
    words = parse(low).words()
    head, mark, rest = low.partition("?")
    if not (words and words[0] in _WH_LEADS and mark and _asks_about(low)) or has_request(rest):
        return ""
    if words[0] != "why" and has_request(head):
        return ""
    schools = _asked_schools(head, session)
    if not schools:
        return ""
    enrollment = {s.name: s.enrollment for s in session.district.schools}
    said = "; ".join(f"{_start_line(name, session)}, {enrollment[name]:,} students" for name in schools)
    return (
        f"I only know each school's start times and students: {said}. Anything else (buses, routes, why a "
        "school was placed) is outside what I know, beyond that the solver balances how many students start at "
        "once against how far starts move. (You asked, so I changed nothing.)"
    )


_OPTION_WORDS = frozenset(["times", "options", "slots", "choices", "bells", "earliest", "latest"])
"""Words of a question about the start options ('what start times ...', "what's the earliest any school could
start?"): answered with the options, nothing moved."""


def _options_answer(low: str, session: ScheduleSession) -> str:
    """The district's start options for a question about them ('What start times are schools allowed to have?');
    empty when the message is no such question (it names a school or a number, or is no question)."""
    words = parse(low).words()
    if not (_asks_about(low) and {"what", "which", "what's", "whats"} & set(words) and _OPTION_WORDS & set(words)):
        return ""
    named = [school for _, school in lang.mentioned_schools(low, session.district)]
    if (named and not {"earliest", "latest"} & set(words)) or any(c.isdigit() for c in low):
        return ""
    labels = session.district.time_labels
    listed = ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else "".join(labels)
    now = ""
    if named and session.current is not None:  # 'what is the latest Lick could start?': a question, no move
        slots = session.current.result.assignment
        starts = [f"{s} starts at {labels[slots[session.district.school_index(s)]]}" for s in named]
        now = f" In the current proposal {', '.join(starts)}."
    return (
        f"Every school starts at one of the district's start-time options: {listed}.{now} "
        "(You asked, so I changed nothing; say for example 'Lick at 9:30' to change a school's start.)"
    )


_UNDER_WORDS = (
    ("under",),
    ("below",),
    ("less", "than"),
    ("at", "most"),
    ("no", "more", "than"),
    ("lower", "than"),
)
"""'is the peak under 2,500?': a question whether one measure is below a number, answered yes or no."""


def _asks_under(words: tuple[str, ...]) -> bool:
    """Whether the words say 'under' (or 'below', 'less than', 'at most' ...) right before a number."""
    for i in range(len(words)):
        for cue in _UNDER_WORDS:
            after = i + len(cue)
            if words[i:after] == cue and after < len(words) and any(c.isdigit() for c in words[after]):
                return True
    return False


def _under_verdict(low: str, load: float | None, deviation: float | None) -> str:
    """'Yes: ' or 'No: ' for a question whether the one measure it names is below a number, else ''."""
    load_named, dev_named = bool(lang.load_cue(low)), bool(lang.change_cue(low))
    value = lang.limit_value(low)
    if load_named == dev_named or value is None or not _asks_under(parse(low).words()):
        return ""
    now = load if load_named else deviation
    if now is None:
        return ""
    limit = value / 100 if load_named and value >= 100 else value  # '2,500 students' is 25 hundreds
    return "Yes: " if now < limit else "No: "


def _asks_about(text: str) -> bool:
    """A question for information ('is every school close to its current time?'), not a request put as one
    ('can we keep every school close to today's times?', 'is there any way Lick could start later?'); also such a
    question followed by remarks that request nothing ('is the transportation budget published? I heard it's 40
    million')."""
    head, mark, rest = text.partition("?")
    if mark and rest.strip() and not has_request(rest):
        return _asks_about(head + "?")
    words = parse(text).words()
    request = bool(words) and (
        words[0] in _REQUEST_LEADS
        or (words[0] in _ASKING_VERBS and words[1:2] in (("we",), ("you",), ("i",)))
        or (_polite_ask(words) and has_request(text))
    )
    return is_question(text) and not request


_POLITE_ASKS = (
    ("is", "there", "any", "way"),
    ("is", "there", "a", "way"),
    ("is", "there", "any", "chance"),
    ("is", "there", "a", "chance"),
    ("any", "chance"),
    ("is", "it", "possible"),
    ("would", "it", "be", "possible"),
    ("could", "it", "be", "possible"),
    ("would", "you", "mind"),
)
"""Openings that ask whether a change could be made, which is asking for it ('is there any way Lick could start a
bit later?', 'would it be possible for Cobb to go to 9:30?', 'any chance Everett could move earlier?')."""


def _polite_ask(words: tuple[str, ...]) -> bool:
    """Whether the words hold one of `_POLITE_ASKS`: with a request in the same text, a request, not a question."""
    return any(words[i : i + len(run)] == run for run in _POLITE_ASKS for i in range(len(words)))


def _district_wide(part: str, session: ScheduleSession) -> bool:
    """A comma-separated part that names no school and limits or reduces an objective ('keep the peak under 2000'),
    or asks every other school to stay close to today's times ('Galileo at 9:30, everyone else near today's')."""
    if lang.mentioned_schools(part, session.district):
        return False
    cue = lang.load_cue(part) or lang.change_cue(part)
    wants = lang.reduce_cue(part) or lang.limit_value(part) is not None
    return bool(cue and wants) or district_wish(part) == "near"


def _closing(session: ScheduleSession) -> str:
    current = session.current
    if current is None:
        return "Glad to hear it. Tell me whenever you want to look at a schedule."
    return (
        f"Great, we'll go with proposal {current.number}: peak load {current.result.load:.2f} "
        f"({round(current.result.load * 100):,} students) and an average change of {current.result.deviation:.1f} minutes. "
        "Come back any time if you want to explore other trade-offs."
    )


def _answer(low: str, session: ScheduleSession, *, define: bool) -> str:
    """A definition for a `define` question ('what does ... mean': of the measure it names, else of both),
    else the current value(s) asked about."""
    load = bool(lang.load_cue(low))
    dev = bool(lang.change_cue(low)) or district_wish(low) == "near"
    if define:
        meant = [text for text, named in ((_LOAD_MEANING, load), (_DEVIATION_MEANING, dev)) if named]
        return " ".join(meant or [_LOAD_MEANING, _DEVIATION_MEANING])
    current = session.current
    if current is None or not (load or dev):
        return _clarify()
    parts = []
    if load:
        parts.append(f"the peak is {format_load(current.result.load)}")
    if dev:
        parts.append(
            f"the average change from today's start times is {format_deviation(current.result.deviation)}"
        )
    return f"In proposal {current.number} (the current schedule) {' and '.join(parts)}."


_LOAD_MEANING = (
    "**Student load balancing** is the largest number of students starting school at the same time, in hundreds "
    "(25.65 means 2,565 students). It stands in for transportation cost: the bus fleet must cover the peak."
)
_DEVIATION_MEANING = (
    "**Schedule deviation** is the average number of minutes each school's start moves away from its current "
    "start time. It measures disruption for families, staff and after-school programs."
)


def _clarify(times: int = 1) -> str:
    """The menu for a message the agent could not place; from the third time on, worded differently with
    example requests, so the same question is never repeated verbatim a third time."""
    if times <= 2:
        return (
            "I want to make sure I change the right thing. Would you like to (a) move a particular school earlier or "
            "later, (b) reduce how many students start at the same time, or (c) reduce how much start times change "
            "from today?"
        )
    return (
        f"Let me put it differently (attempt {times}): reply with a letter, or with a request like one of these: "
        "(a) 'move Everett MS earlier', (b) 'fewer students at the same time', (c) 'less change for families'. "
        "You can also say 'show me some options' to compare schedules."
    )


def make_offline_policy(session: ScheduleSession) -> OfflinePolicy:
    """The offline agent as an `OfflinePolicy`: tool calls for a user message, then a report of the results."""

    memory = Memory()
    lang.intents()  # train the request classifier now, not during the first turn

    def policy(system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> OfflineTurn:
        results = trailing_tool_results(messages)
        if results:
            notes, memory.say = memory.say, []
            goals, memory.goals = memory.goals, []
            report = compose_report(session, messages, results)
            back = read_back(goals, session, memory.before)
            missed = not_achieved(goals, session)
            head, _, question = report.rpartition("\n\n")
            if not (back and question.endswith("?") and head):  # the read-back goes before the closing question
                head, question = report, ""
            parts = [*notes, head, *[t for t in (back, missed, question) if t]]
            return OfflineTurn(text="\n\n".join(parts))
        memory.say = []
        text = last_user_text(messages)
        memory.before = dict(session.current.result.schedule) if session.current is not None else {}
        plan = interpret(text, session, memory)
        memory.goals = _goals(plan.calls, lang.said_names(text, session.district), memory.wording)
        return OfflineTurn(text=plan.reply, tool_calls=plan.calls)

    return policy
