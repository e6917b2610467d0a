"""Questions to the agent, told from answers: an agent answers a question at any stage and never reads a
value from it ('why should I order when I still have 5?' holds no stock level).

A question starts with a question word or an auxiliary and ends with '?' ('is that a problem?'); starts with
'why', 'what if', 'how come', 'what happens if' (no '?' needed); asks for an explanation ('explain the
trade-off', 'can you explain ...'); or, with no '?', no digit and one sentence, starts with a question word
and an auxiliary ('what is the peak now'). 'How about 5?', 'what about Lick?', 'why not 40?', 'is it okay if I
say 20?' and 'do you mean the $25 they charge per order?' propose, they do not ask. Confusion about the agent's last question ('huh?', "I don't understand") counts as a
question too (`is_confused` tells it apart). Syntax decides here, not an intent bank: it holds across both chats and
needs no vocabulary of either.
"""

from __future__ import annotations

import re

_QUESTION_RE = re.compile(
    r"^\W*(?!(?:how|what) about\b(?!\s+(?:if|when)\b)|why not\b|is it (?:ok|okay|alright|all right|fine) if (?:i|we)\b"
    r"|(?:do|did) you mean\b(?=[^?]*\d))"
    r"(?:why|what|how|when|where|who|which|should|shouldn'?t|"
    r"could|can|would|is|isn'?t|are|aren'?t|do|does|don'?t|did|will|won'?t)\b.*\?\s*$"
    r"|^\W*(?:why(?! not\b)|what if|how come|what happens (?:if|when)|(?:how|what) about (?:if|when))\b"
    r"|^\W*(?:(?:can|could|would) you (?:please )?)?(?:explain|tell me (?:why|what|how|more))\b"
    r"|[,;.]\s*(?:but )?(?:why|how so|how come)\W*\?\s*$",
    re.IGNORECASE | re.DOTALL,
)
_UNMARKED_RE = re.compile(
    r"^\W*(?:what|how(?: much| many| long| often)?|when|where|who)(?:'s|'re|s| is| are| was| were| does| do| did|"
    r" can| could| would| will| should)\b[^?\d.!]*$",
    re.IGNORECASE,
)
_CONFUSED_RE = re.compile(
    r"^\W*(?:(?:huh|eh|pardon|come again|sorry|what|excuse me)\W*){1,3}$|\b(?:don'?t|do not|didn'?t) (?:really )?(?:understand|get it|follow)\b"
    r"|\bconfus(?:ed|ing)\b|\bwhat do you mean\b|\bmeaning of\b",
    re.IGNORECASE,
)


def is_confused(text: str) -> bool:
    """Whether the user is lost about the agent's last question ('huh?', "I don't follow", 'what do you
    mean'): an agent explains the question instead of repeating it."""
    return bool(_CONFUSED_RE.search(text.strip().replace("\u2019", "'")))


def is_question(text: str) -> bool:
    """Whether the message asks the agent something rather than answering it (see the module docstring)."""
    text = text.strip().replace("\u2019", "'")
    return bool(_QUESTION_RE.search(text) or _UNMARKED_RE.search(text)) or is_confused(text)
